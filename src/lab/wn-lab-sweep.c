/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-lab-sweep.c — sweep files: loading, checking, and running one cell.
 * Past 1,500 lines because it is one concept, the winnow.sweep/1 format
 * (docs/sweeps.md): each parameter's parsing, checks and application sit
 * together. */
#include "config.h"

#include <inttypes.h>
#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "wn-lab-json-pos.h"
#include "wn-lab-sweep.h"

typedef enum {
  SET_TRUST,
  SET_ON_EXHAUSTED,
  SET_RETRY,
  SET_RETRY_FIELD,
  SET_FAILURE,
  SET_LATENCY,
  SET_FAILURE_LATENCY,
  SET_CONCURRENCY,
} SettingKind;

typedef enum {
  FIELD_MAX_ATTEMPTS,
  FIELD_DELAY,
  FIELD_BASE,
  FIELD_MAX,
  FIELD_JITTER,
} RetryField;

static const char *field_names[] = { "maxAttempts", "delay", "base", "max", "jitter" };

/* One parameter's value, checked and parsed. */
typedef struct {
  SettingKind   kind;
  char         *target;        /* NULL: engine-wide; else a node id (tasks) or a worker id */
  RetryField    field;
  WnRetryPolicy retry;         /* SET_RETRY */
  WnTrust       trust;         /* SET_TRUST (UNSET: a task inherits) */
  WnOnExhausted on_exhausted;
  double        p;             /* SET_FAILURE */
  WnTime        time;          /* durations */
  guint64       number;        /* maxAttempts, concurrency */
  gboolean      flag;          /* jitter */
  char         *path;          /* where it is written in the sweep */
} Setting;

typedef struct {
  char       *name;
  JsonObject *settings;        /* parameter → value as written, in order */
  GPtrArray  *parsed;          /* Setting*, borrowed from WnLabSweep.pool */
} Variant;

struct _WnLabSweep {
  char       *display_name;
  char       *id;
  char       *process_name;
  GBytes     *process_text;
  char       *scenario_name;   /* NULL: the process's embedded one */
  GBytes     *scenario_text;
  guint       instances;       /* 0: the scenario's start */
  WnTime      until;
  GArray     *seeds;           /* guint64 */
  GPtrArray  *variants;        /* Variant* */
  GPtrArray  *pool;            /* Setting*, owned */
  GPtrArray  *params;          /* char*, owned */
};

/* While loading: where messages go. */
typedef struct {
  const char *file;
  GHashTable *positions;
  GPtrArray  *diagnostics;
} Check;

static void
setting_free (gpointer data)
{
  Setting *s = data;

  g_free (s->target);
  g_free (s->path);
  g_free (s);
}

static void
variant_free (gpointer data)
{
  Variant *v = data;

  g_free (v->name);
  json_object_unref (v->settings);
  g_ptr_array_unref (v->parsed);
  g_free (v);
}

void
wn_lab_sweep_free (WnLabSweep *self)
{
  if (self == NULL)
    return;
  g_free (self->display_name);
  g_free (self->id);
  g_free (self->process_name);
  g_clear_pointer (&self->process_text, g_bytes_unref);
  g_free (self->scenario_name);
  g_clear_pointer (&self->scenario_text, g_bytes_unref);
  g_clear_pointer (&self->seeds, g_array_unref);
  g_clear_pointer (&self->variants, g_ptr_array_unref);
  g_clear_pointer (&self->pool, g_ptr_array_unref);
  g_clear_pointer (&self->params, g_ptr_array_unref);
  g_free (self);
}

static void G_GNUC_PRINTF (3, 4)
add_error (Check      *check,
           const char *path,
           const char *format,
           ...)
{
  WnDiagnostic *d = g_new0 (WnDiagnostic, 1);
  g_autofree char *at = g_strdup (path);
  va_list args;

  /* the nearest enclosing value the scan knows (an escaped key is not found) */
  for (;;)
    {
      WnLabPos *pos = g_hash_table_lookup (check->positions, at);
      char *cut;

      if (pos != NULL)
        {
          d->line = pos->line;
          d->column = pos->column;
          break;
        }
      cut = MAX (strrchr (at, '.'), strrchr (at, '['));
      if (cut == NULL)
        {
          d->line = d->column = 1;
          break;
        }
      *cut = '\0';
    }
  d->file = g_strdup (check->file);
  d->path = g_strdup (path);
  va_start (args, format);
  d->message = g_strdup_vprintf (format, args);
  va_end (args);
  g_ptr_array_add (check->diagnostics, d);
}

/* ---- values ---- */

static gboolean
is_string (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING;
}

static gboolean
is_int (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64;
}

static gboolean
is_bool (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_BOOLEAN;
}

static gboolean
is_number (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
         (json_node_get_value_type (node) == G_TYPE_INT64 || json_node_get_value_type (node) == G_TYPE_DOUBLE);
}

static gboolean
read_count (Check      *check,
            JsonNode   *node,
            const char *path,
            guint64     min,
            guint64     max,
            guint64    *out)
{
  if (!is_int (node) || json_node_get_int (node) < (gint64) min || (guint64) json_node_get_int (node) > max)
    {
      add_error (check, path, _("must be a whole number from %" PRIu64 " to %" PRIu64),
                 min, max);
      return FALSE;
    }
  *out = (guint64) json_node_get_int (node);
  return TRUE;
}

static gboolean
read_duration (Check      *check,
               JsonNode   *node,
               const char *path,
               WnTime     *out)
{
  g_autoptr(GError) error = NULL;

  if (!wn_duration_from_json (node, out, &error))
    {
      add_error (check, path, "%s", error->message);
      return FALSE;
    }
  return TRUE;
}

/* Unknown keys are errors, except x-…; `allowed` is NULL-terminated. */
static gboolean
check_keys (Check       *check,
            JsonObject  *object,
            const char  *path,
            const char **allowed)
{
  g_autoptr(GList) members = json_object_get_members (object);
  gboolean ok = TRUE;

  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *key = l->data;

      if (g_str_has_prefix (key, "x-") || g_strv_contains (allowed, key))
        continue;
      {
        g_autofree char *at = wn_lab_json_path_member (path, key);
        g_autofree char *list = g_strjoinv (", ", (char **) allowed);

        add_error (check, at, _("unknown key (expected one of %s, or x-…)"), list);
      }
      ok = FALSE;
    }
  return ok;
}

/* A retry policy as the process files write one. */
static gboolean
read_retry (Check         *check,
            JsonNode      *node,
            const char    *path,
            WnRetryPolicy *out)
{
  static const char *none_keys[] = { "policy", NULL };
  static const char *fixed_keys[] = { "policy", "maxAttempts", "delay", NULL };
  static const char *exp_keys[] = { "policy", "maxAttempts", "base", "max", "jitter", NULL };
  JsonObject *o;
  const char *policy;
  gboolean ok = TRUE;
  guint64 attempts = 1;
  WnTime delay = 0, base = 0, max = 0;
  gboolean jitter = FALSE;

  if (is_string (node) && g_str_equal (json_node_get_string (node), "default"))
    {
      *out = wn_retry_policy_default ();
      return TRUE;
    }
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      add_error (check, path, _("must be a retry policy: an object with \"policy\", or \"default\""));
      return FALSE;
    }
  o = json_node_get_object (node);
  policy = is_string (json_object_get_member (o, "policy")) ? json_object_get_string_member (o, "policy") : "";
  if (g_str_equal (policy, "none"))
    {
      *out = wn_retry_policy_none ();
      return check_keys (check, o, path, none_keys);
    }
  if (!g_str_equal (policy, "fixed") && !g_str_equal (policy, "exponential"))
    {
      g_autofree char *at = wn_lab_json_path_member (path, "policy");

      add_error (check, at, _("must be none, fixed or exponential"));
      return FALSE;
    }
  ok &= check_keys (check, o, path, g_str_equal (policy, "fixed") ? fixed_keys : exp_keys);
  for (guint i = 0; i < 5; i++)
    {
      JsonNode *member = json_object_get_member (o, field_names[i]);
      g_autofree char *at = wn_lab_json_path_member (path, field_names[i]);
      gboolean wanted = g_str_equal (policy, "fixed") ? (i == FIELD_MAX_ATTEMPTS || i == FIELD_DELAY)
                                                      : i != FIELD_DELAY;

      if (!wanted)
        continue;
      if (member == NULL)
        {
          if (i != FIELD_JITTER)
            {
              add_error (check, path, _("%s needs %s"), policy, field_names[i]);
              ok = FALSE;
            }
          continue;
        }
      switch ((RetryField) i)
        {
        case FIELD_MAX_ATTEMPTS:
          ok &= read_count (check, member, at, 1, G_MAXUINT, &attempts);
          break;
        case FIELD_DELAY:
          ok &= read_duration (check, member, at, &delay);
          break;
        case FIELD_BASE:
          ok &= read_duration (check, member, at, &base);
          break;
        case FIELD_MAX:
          ok &= read_duration (check, member, at, &max);
          break;
        case FIELD_JITTER:
          if (!is_bool (member))
            {
              add_error (check, at, _("must be true or false"));
              ok = FALSE;
            }
          else
            jitter = json_node_get_boolean (member);
          break;
        default:
          g_assert_not_reached ();
        }
    }
  if (!ok)
    return FALSE;
  *out = g_str_equal (policy, "fixed") ? wn_retry_policy_fixed ((guint) attempts, delay)
                                       : wn_retry_policy_exponential ((guint) attempts, base, max, jitter);
  return TRUE;
}

/* ---- parameters ---- */

typedef struct {
  const char *suffix;
  SettingKind kind;
  RetryField  field;
} Suffix;

static const Suffix task_suffixes[] = {
  { ".retry.maxAttempts", SET_RETRY_FIELD, FIELD_MAX_ATTEMPTS },
  { ".retry.delay", SET_RETRY_FIELD, FIELD_DELAY },
  { ".retry.base", SET_RETRY_FIELD, FIELD_BASE },
  { ".retry.max", SET_RETRY_FIELD, FIELD_MAX },
  { ".retry.jitter", SET_RETRY_FIELD, FIELD_JITTER },
  { ".retry", SET_RETRY, 0 },
  { ".trust", SET_TRUST, 0 },
};

static const Suffix worker_suffixes[] = {
  { ".failureLatency", SET_FAILURE_LATENCY, 0 },
  { ".failure", SET_FAILURE, 0 },
  { ".latency", SET_LATENCY, 0 },
  { ".concurrency", SET_CONCURRENCY, 0 },
};

/* "engine.retry.maxAttempts", "tasks.quote.trust", "workers.quotes.failure". */
static gboolean
parse_param (const char  *name,
             SettingKind *kind,
             char       **target,
             RetryField  *field,
             gboolean    *worker)
{
  const Suffix *table = NULL;
  guint n = 0;
  const char *rest = NULL;

  *target = NULL;
  *worker = FALSE;
  if (g_str_equal (name, "engine.trust"))
    return *kind = SET_TRUST, TRUE;
  if (g_str_equal (name, "engine.onExhausted"))
    return *kind = SET_ON_EXHAUSTED, TRUE;
  if (g_str_has_prefix (name, "engine."))
    {
      /* the task suffixes without a task: ".retry…" */
      for (guint i = 0; i < G_N_ELEMENTS (task_suffixes); i++)
        if (task_suffixes[i].kind != SET_TRUST && g_str_equal (name + strlen ("engine"), task_suffixes[i].suffix))
          {
            *kind = task_suffixes[i].kind;
            *field = task_suffixes[i].field;
            return TRUE;
          }
      return FALSE;
    }
  if (g_str_has_prefix (name, "tasks."))
    table = task_suffixes, n = G_N_ELEMENTS (task_suffixes), rest = name + strlen ("tasks.");
  else if (g_str_has_prefix (name, "workers."))
    table = worker_suffixes, n = G_N_ELEMENTS (worker_suffixes), rest = name + strlen ("workers."), *worker = TRUE;
  else
    return FALSE;
  for (guint i = 0; i < n; i++)
    if (g_str_has_suffix (rest, table[i].suffix) && strlen (rest) > strlen (table[i].suffix))
      {
        *kind = table[i].kind;
        *field = table[i].field;
        *target = g_strndup (rest, strlen (rest) - strlen (table[i].suffix));
        return TRUE;
      }
  return FALSE;
}

/* Parse one parameter's value; NULL (and messages) when it is not valid. */
static Setting *
read_setting (Check      *check,
              const char *param,
              JsonNode   *value,
              const char *path)
{
  g_autoptr(GError) error = NULL;
  Setting *s = g_new0 (Setting, 1);
  gboolean worker, ok = TRUE;

  s->path = g_strdup (path);
  if (!parse_param (param, &s->kind, &s->target, &s->field, &worker))
    {
      add_error (check, path,
                 _("unknown parameter %s (engine.trust, engine.onExhausted, engine.retry[.FIELD], "
                   "tasks.NODE.trust, tasks.NODE.retry[.FIELD], workers.WORKER.failure, "
                   "workers.WORKER.latency, workers.WORKER.failureLatency, workers.WORKER.concurrency)"),
                 param);
      setting_free (s);
      return NULL;
    }
  switch (s->kind)
    {
    case SET_TRUST:
      if (is_string (value) && s->target != NULL && g_str_equal (json_node_get_string (value), "inherit"))
        s->trust = WN_TRUST_UNSET;
      else if (!is_string (value) || !wn_trust_from_string (json_node_get_string (value), &s->trust))
        {
          add_error (check, path, s->target != NULL ? _("must be workerTrusted, engineAuthoritative or inherit")
                                                    : _("must be workerTrusted or engineAuthoritative"));
          ok = FALSE;
        }
      break;
    case SET_ON_EXHAUSTED:
      if (!is_string (value) || !wn_on_exhausted_from_string (json_node_get_string (value), &s->on_exhausted))
        {
          add_error (check, path, _("must be fail or incident"));
          ok = FALSE;
        }
      break;
    case SET_RETRY:
      ok = read_retry (check, value, path, &s->retry);
      break;
    case SET_RETRY_FIELD:
      switch (s->field)
        {
        case FIELD_MAX_ATTEMPTS:
          ok = read_count (check, value, path, 1, G_MAXUINT, &s->number);
          break;
        case FIELD_JITTER:
          if (!(ok = is_bool (value)))
            add_error (check, path, _("must be true or false"));
          else
            s->flag = json_node_get_boolean (value);
          break;
        case FIELD_DELAY:
        case FIELD_BASE:
        case FIELD_MAX:
        default:
          ok = read_duration (check, value, path, &s->time);
          break;
        }
      break;
    case SET_FAILURE:
      if (!is_number (value) || !(json_node_get_double (value) >= 0.0 && json_node_get_double (value) <= 1.0))
        {
          add_error (check, path, _("must be a probability from 0 to 1"));
          ok = FALSE;
        }
      else
        s->p = json_node_get_double (value);
      break;
    case SET_LATENCY:
    case SET_FAILURE_LATENCY:
      ok = read_duration (check, value, path, &s->time);
      break;
    case SET_CONCURRENCY:
      ok = read_count (check, value, path, 1, WN_MAX_CONCURRENCY, &s->number);
      break;
    default:
      g_assert_not_reached ();
    }
  if (!ok)
    {
      setting_free (s);
      return NULL;
    }
  return s;
}

/* ---- applying a variant to a fresh process and scenario ---- */

static gboolean
retry_has_field (const WnRetryPolicy *r,
                 RetryField           field)
{
  switch (r->kind)
    {
    case WN_RETRY_FIXED:
      return field == FIELD_MAX_ATTEMPTS || field == FIELD_DELAY;
    case WN_RETRY_EXPONENTIAL:
      return field != FIELD_DELAY;
    case WN_RETRY_NONE:
    default:
      return FALSE;
    }
}

static const char *
retry_kind_name (WnRetryKind kind)
{
  return kind == WN_RETRY_FIXED ? "fixed" : kind == WN_RETRY_EXPONENTIAL ? "exponential" : "none";
}

static gboolean
set_retry_field (WnRetryPolicy *r,
                 const Setting *s,
                 GError       **error)
{
  if (!retry_has_field (r, s->field))
    {
      g_set_error (error, WN_LAB_ERROR, WN_LAB_ERROR_INVALID,
                   _("the retry policy here is %s, which has no %s: set the whole retry policy instead"),
                   retry_kind_name (r->kind), field_names[s->field]);
      return FALSE;
    }
  switch (s->field)
    {
    case FIELD_MAX_ATTEMPTS: r->max_attempts = (guint) s->number; break;
    case FIELD_DELAY: r->delay = s->time; break;
    case FIELD_BASE: r->base = s->time; break;
    case FIELD_MAX: r->max = s->time; break;
    case FIELD_JITTER: r->jitter = s->flag; break;
    default: g_assert_not_reached ();
    }
  return TRUE;
}

static gboolean
is_failure (const WnResponse *r)
{
  return r->kind == WN_RESPONSE_FAIL || r->kind == WN_RESPONSE_WORKER_ERROR ||
         r->kind == WN_RESPONSE_CRASH || r->kind == WN_RESPONSE_HANG;
}

/* failure p: the worker's one random response, its failing choices weighing
 * p together and its completions 1 − p, each group in its own proportions. */
static gboolean
set_failure (WnWorkerConfig *worker,
             double          p,
             GError        **error)
{
  WnResponse *r = worker->responses->len == 1 ? g_ptr_array_index (worker->responses, 0) : NULL;
  double ok_sum = 0.0, fail_sum = 0.0;

  for (guint i = 0; r != NULL && r->kind == WN_RESPONSE_RANDOM && i < r->n_choices; i++)
    {
      if (r->choices[i].response->kind == WN_RESPONSE_COMPLETE)
        ok_sum += r->choices[i].p;
      else if (is_failure (r->choices[i].response))
        fail_sum += r->choices[i].p;
    }
  if (r == NULL || r->kind != WN_RESPONSE_RANDOM || ok_sum <= 0.0 || fail_sum <= 0.0)
    {
      g_set_error (error, WN_LAB_ERROR, WN_LAB_ERROR_INVALID,
                   _("worker %s: failure needs a worker whose responses are one random choice between "
                     "completions and failures"), worker->id);
      return FALSE;
    }
  for (guint i = 0; i < r->n_choices; i++)
    {
      WnChoice *c = &r->choices[i];

      if (c->response->kind == WN_RESPONSE_COMPLETE)
        c->p = c->p / ok_sum * (1.0 - p);
      else if (is_failure (c->response))
        c->p = c->p / fail_sum * p;
    }
  return TRUE;
}

/* latency: the `after` of every completion (failures: of every fail and worker error). */
static void
set_latency (WnWorkerConfig *worker,
             gboolean        failures,
             WnTime          after)
{
  for (guint i = 0; i < worker->responses->len; i++)
    {
      WnResponse *r = g_ptr_array_index (worker->responses, i);
      guint n = r->kind == WN_RESPONSE_RANDOM ? r->n_choices : 1;

      for (guint j = 0; j < n; j++)
        {
          WnResponse *one = r->kind == WN_RESPONSE_RANDOM ? r->choices[j].response : r;
          gboolean match = failures ? (one->kind == WN_RESPONSE_FAIL || one->kind == WN_RESPONSE_WORKER_ERROR)
                                    : one->kind == WN_RESPONSE_COMPLETE;

          if (match)
            one->after = after;
        }
    }
}

static WnWorkerConfig *
find_worker (WnScenario *scenario,
             const char *id)
{
  for (guint i = 0; i < scenario->workers->len; i++)
    {
      WnWorkerConfig *w = g_ptr_array_index (scenario->workers, i);

      if (g_str_equal (w->id, id))
        return w;
    }
  return NULL;
}

/* The order settings apply in: the engine's first (a task's field starts from
 * the engine-wide policy the variant makes), whole policies before fields. */
static guint
setting_rank (const Setting *s)
{
  gboolean task = s->target != NULL && s->kind <= SET_RETRY_FIELD;

  if (s->kind >= SET_FAILURE)
    return 6;
  switch (s->kind)
    {
    case SET_RETRY: return task ? 3 : 0;
    case SET_RETRY_FIELD: return task ? 4 : 1;
    case SET_TRUST:
    case SET_ON_EXHAUSTED:
    default: return task ? 5 : 2;
    }
}

/* Change process and scenario (fresh copies of this cell's own) as the
 * variant says; fill options. On a failure, *failed is the setting. */
static gboolean
apply_variant (const Variant    *variant,
               WnProcess        *process,
               WnScenario       *scenario,
               WnEngineOptions  *options,
               const Setting   **failed,
               GError          **error)
{
  WnRetryPolicy engine_retry = scenario->engine.policy.has_retry ? scenario->engine.policy.retry
                             : process->engine.policy.has_retry ? process->engine.policy.retry
                             : wn_retry_policy_default ();
  gboolean engine_retry_set = FALSE;

  for (guint rank = 0; rank <= 6; rank++)
    for (guint i = 0; i < variant->parsed->len; i++)
      {
        const Setting *s = g_ptr_array_index (variant->parsed, i);
        /* the process is this cell's own copy: changing it is changing no one else's */
        WnNode *node = NULL;
        WnWorkerConfig *worker = NULL;

        if (setting_rank (s) != rank)
          continue;
        *failed = s;
        if (s->target != NULL && s->kind < SET_FAILURE)
          {
            node = (WnNode *) wn_process_find_node (process, s->target);
            if (node == NULL || node->worker == NULL)
              {
                g_set_error (error, WN_LAB_ERROR, WN_LAB_ERROR_INVALID,
                             _("the process has no service task %s with a worker"), s->target);
                return FALSE;
              }
          }
        else if (s->target != NULL)
          {
            worker = find_worker (scenario, s->target);
            if (worker == NULL)
              {
                g_set_error (error, WN_LAB_ERROR, WN_LAB_ERROR_INVALID,
                             _("the scenario has no worker %s"), s->target);
                return FALSE;
              }
          }
        switch (s->kind)
          {
          case SET_TRUST:
            if (node != NULL)
              node->worker->policy.trust = s->trust;
            else
              options->trust = s->trust;
            break;
          case SET_ON_EXHAUSTED:
            options->on_exhausted = s->on_exhausted;
            break;
          case SET_RETRY:
            if (node != NULL)
              {
                node->worker->policy.has_retry = TRUE;
                node->worker->policy.retry = s->retry;
              }
            else
              {
                engine_retry = s->retry;
                engine_retry_set = TRUE;
              }
            break;
          case SET_RETRY_FIELD:
            if (node != NULL)
              {
                if (!node->worker->policy.has_retry)
                  node->worker->policy.retry = engine_retry;
                node->worker->policy.has_retry = TRUE;
                if (!set_retry_field (&node->worker->policy.retry, s, error))
                  return FALSE;
              }
            else
              {
                if (!set_retry_field (&engine_retry, s, error))
                  return FALSE;
                engine_retry_set = TRUE;
              }
            break;
          case SET_FAILURE:
            if (!set_failure (worker, s->p, error))
              return FALSE;
            break;
          case SET_LATENCY:
          case SET_FAILURE_LATENCY:
            set_latency (worker, s->kind == SET_FAILURE_LATENCY, s->time);
            break;
          case SET_CONCURRENCY:
            worker->concurrency = (guint) s->number;
            break;
          default:
            g_assert_not_reached ();
          }
      }
  if (engine_retry_set)
    {
      scenario->engine.policy.has_retry = TRUE;
      scenario->engine.policy.retry = engine_retry;
    }
  *failed = NULL;
  return TRUE;
}

/* ---- files ---- */

/* Regular files and pipes, up to max_size, as the engine's loaders read them. */
static GBytes *
read_input (const char  *filename,
            gsize        max_size,
            GError     **error)
{
  GStatBuf st;
  char *data = NULL;
  gsize length = 0;
  g_autoptr(GError) local = NULL;

  if (g_stat (filename, &st) != 0)
    {
      int saved = errno;

      g_set_error (error, WN_LOAD_ERROR, WN_LOAD_ERROR_IO, "%s: %s", filename, g_strerror (saved));
      return NULL;
    }
  if (!S_ISREG (st.st_mode) && !S_ISFIFO (st.st_mode))
    {
      g_set_error (error, WN_LOAD_ERROR, WN_LOAD_ERROR_IO,
                   _("%s: cannot read the file: only regular files and pipes are read"), filename);
      return NULL;
    }
  if (S_ISREG (st.st_mode) && (guint64) st.st_size > max_size)
    {
      g_set_error (error, WN_LOAD_ERROR, WN_LOAD_ERROR_TOO_LARGE,
                   _("%s: the file is larger than the input limit of %" PRIu64 " bytes"),
                   filename, (guint64) max_size);
      return NULL;
    }
  if (!g_file_get_contents (filename, &data, &length, &local))
    {
      g_set_error (error, WN_LOAD_ERROR, WN_LOAD_ERROR_IO, "%s", local->message);
      return NULL;
    }
  if (length > max_size)
    {
      g_free (data);
      g_set_error (error, WN_LOAD_ERROR, WN_LOAD_ERROR_TOO_LARGE,
                   _("%s: the file is larger than the input limit of %" PRIu64 " bytes"),
                   filename, (guint64) max_size);
      return NULL;
    }
  return g_bytes_new_take (data, length);
}

static WnProcess *
load_process (WnLabSweep *self,
              GPtrArray **diagnostics,
              GError    **error)
{
  gsize n;
  const char *data = g_bytes_get_data (self->process_text, &n);

  return wn_load_process_data (data, (gssize) n, self->process_name, diagnostics, error);
}

/* This cell's scenario: the sweep's, else the process's embedded one, else an empty one. */
static WnScenario *
load_scenario (WnLabSweep *self,
               WnProcess  *process,
               GPtrArray **diagnostics,
               GError    **error)
{
  gsize n;
  const char *data;

  if (self->scenario_text == NULL)
    return process->scenario != NULL ? wn_scenario_ref (process->scenario) : wn_scenario_new ();
  data = g_bytes_get_data (self->scenario_text, &n);
  return wn_load_scenario_data (data, (gssize) n, self->scenario_name, diagnostics, error);
}

/* Read a file the sweep names; its own problems join the diagnostics. */
static GBytes *
read_named (Check      *check,
            const char *base_dir,
            JsonNode   *node,
            const char *path,
            gsize       max_size,
            char      **name)
{
  g_autoptr(GError) error = NULL;
  GBytes *bytes;

  if (!is_string (node) || *json_node_get_string (node) == '\0')
    {
      add_error (check, path, _("must be a file name"));
      return NULL;
    }
  if (g_path_is_absolute (json_node_get_string (node)) || base_dir == NULL)
    *name = g_strdup (json_node_get_string (node));
  else
    *name = g_build_filename (base_dir, json_node_get_string (node), NULL);
  bytes = read_input (*name, max_size, &error);
  if (bytes == NULL)
    add_error (check, path, "%s", error->message);
  return bytes;
}

static void
move_diagnostics (GPtrArray *to,
                  GPtrArray *from)
{
  for (guint i = 0; from != NULL && i < from->len; i++)
    g_ptr_array_add (to, g_steal_pointer (&g_ptr_array_index (from, i)));
}

static gboolean
read_seeds (Check      *check,
            JsonNode   *node,
            guint64     default_seed,
            GArray     *seeds)
{
  guint64 first = default_seed, count = 1;

  if (node == NULL)
    ;
  else if (is_int (node))
    {
      first = 1;
      if (!read_count (check, node, "seeds", 1, 1000000, &count))
        return FALSE;
    }
  else if (JSON_NODE_HOLDS_OBJECT (node))
    {
      static const char *keys[] = { "first", "count", NULL };
      JsonObject *o = json_node_get_object (node);

      if (!check_keys (check, o, "seeds", keys) ||
          (json_object_has_member (o, "first") &&
           !read_count (check, json_object_get_member (o, "first"), "seeds.first", 0, G_MAXINT64, &first)) ||
          !read_count (check, json_object_get_member (o, "count"), "seeds.count", 1, 1000000, &count))
        return FALSE;
      if (first > (guint64) G_MAXINT64 - (count - 1))
        {
          add_error (check, "seeds.count", _("the last seed would be past 9223372036854775807"));
          return FALSE;
        }
    }
  else if (JSON_NODE_HOLDS_ARRAY (node) && json_array_get_length (json_node_get_array (node)) > 0)
    {
      JsonArray *a = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (a); i++)
        {
          g_autofree char *at = wn_lab_json_path_index ("seeds", i);
          guint64 seed;

          if (!read_count (check, json_array_get_element (a, i), at, 0, G_MAXINT64, &seed))
            return FALSE;
          for (guint j = 0; j < seeds->len; j++)
            if (g_array_index (seeds, guint64, j) == seed)
              {
                add_error (check, at, _("seed %" PRIu64 " is given twice"), seed);
                return FALSE;
              }
          g_array_append_val (seeds, seed);
        }
      return TRUE;
    }
  else
    {
      add_error (check, "seeds", _("must be a count, {\"first\": N, \"count\": K} or a non-empty array of seeds"));
      return FALSE;
    }
  for (guint64 i = 0; i < count; i++)
    {
      guint64 seed = first + i;

      g_array_append_val (seeds, seed);
    }
  return TRUE;
}

/* The settings of one `set` object into params → Setting; FALSE on an error. */
static gboolean
read_set (WnLabSweep *self,
          Check      *check,
          JsonNode   *node,
          const char *path,
          JsonObject *settings,
          GHashTable *parsed)
{
  g_autoptr(GList) members = NULL;
  gboolean ok = TRUE;

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      add_error (check, path, _("must be an object of parameter → value"));
      return FALSE;
    }
  members = json_object_get_members (json_node_get_object (node));
  for (GList *l = members; l != NULL; l = l->next)
    {
      JsonNode *value = json_object_get_member (json_node_get_object (node), l->data);
      g_autofree char *at = wn_lab_json_path_member (path, l->data);
      Setting *s = read_setting (check, l->data, value, at);

      if (s == NULL)
        {
          ok = FALSE;
          continue;
        }
      g_ptr_array_add (self->pool, s);
      json_object_set_member (settings, l->data, json_node_copy (value));
      g_hash_table_replace (parsed, g_strdup (l->data), s);
    }
  return ok;
}

typedef struct {
  char       *param;
  JsonArray  *values;
  GPtrArray  *settings;      /* Setting* per value (borrowed from the pool) */
  const char *path;
} Axis;

static void
add_param (WnLabSweep *self,
           const char *param)
{
  for (guint i = 0; i < self->params->len; i++)
    if (g_str_equal (g_ptr_array_index (self->params, i), param))
      return;
  g_ptr_array_add (self->params, g_strdup (param));
}

static char *
value_text (JsonNode *value)
{
  if (is_string (value))
    return g_strdup (json_node_get_string (value));
  /* a name says 0.6, not the 0.59999999999999998 JSON writes: the
   * shortest digits that read back as the same double */
  if (JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_DOUBLE)
    {
      double d = json_node_get_double (value);
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      char format[8];

      for (int digits = 1; digits <= 17; digits++)
        {
          g_snprintf (format, sizeof format, "%%.%dg", digits);
          g_ascii_formatd (buf, sizeof buf, format, d);
          if (g_ascii_strtod (buf, NULL) == d)
            break;
        }
      return g_strdup (buf);
    }
  return json_to_string (value, FALSE);
}

/* The variants: each entry of `variants` (or one empty one) × the grid. */
static gboolean
expand (WnLabSweep *self,
        Check      *check,
        JsonObject *root)
{
  static const char *variant_keys[] = { "name", "set", NULL };
  static const char *axis_keys[] = { "param", "values", NULL };
  g_autoptr(JsonObject) base_settings = json_object_new ();
  g_autoptr(GHashTable) base = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GArray) axes = g_array_new (FALSE, TRUE, sizeof (Axis));
  JsonNode *variants = json_object_get_member (root, "variants");
  JsonNode *grid = json_object_get_member (root, "grid");
  guint n_entries = 1;
  guint64 n_combos = 1;
  gboolean ok = TRUE;

  ok &= read_set (self, check, json_object_get_member (root, "set"), "set", base_settings, base);
  if (variants != NULL && (!JSON_NODE_HOLDS_ARRAY (variants) || json_array_get_length (json_node_get_array (variants)) == 0))
    {
      add_error (check, "variants", _("must be a non-empty array of {\"name\", \"set\"}"));
      return FALSE;
    }
  if (grid != NULL && (!JSON_NODE_HOLDS_ARRAY (grid) || json_array_get_length (json_node_get_array (grid)) == 0))
    {
      add_error (check, "grid", _("must be a non-empty array of {\"param\", \"values\"}"));
      return FALSE;
    }
  for (guint i = 0; grid != NULL && i < json_array_get_length (json_node_get_array (grid)); i++)
    {
      JsonNode *e = json_array_get_element (json_node_get_array (grid), i);
      g_autofree char *at = wn_lab_json_path_index ("grid", i);
      Axis axis = { 0 };
      JsonNode *values;

      if (!JSON_NODE_HOLDS_OBJECT (e))
        {
          add_error (check, at, _("must be an object {\"param\", \"values\"}"));
          ok = FALSE;
          continue;
        }
      ok &= check_keys (check, json_node_get_object (e), at, axis_keys);
      values = json_object_get_member (json_node_get_object (e), "values");
      if (!is_string (json_object_get_member (json_node_get_object (e), "param")))
        {
          g_autofree char *p = wn_lab_json_path_member (at, "param");

          add_error (check, p, _("must be a parameter name"));
          ok = FALSE;
          continue;
        }
      if (values == NULL || !JSON_NODE_HOLDS_ARRAY (values) || json_array_get_length (json_node_get_array (values)) == 0)
        {
          g_autofree char *p = wn_lab_json_path_member (at, "values");

          add_error (check, p, _("must be a non-empty array of values"));
          ok = FALSE;
          continue;
        }
      axis.param = g_strdup (json_object_get_string_member (json_node_get_object (e), "param"));
      axis.values = json_array_ref (json_node_get_array (values));
      axis.settings = g_ptr_array_new ();
      for (guint j = 0; j < axes->len; j++)
        if (g_str_equal (g_array_index (axes, Axis, j).param, axis.param))
          {
            g_autofree char *p = wn_lab_json_path_member (at, "param");

            add_error (check, p, _("%s is already an axis of the grid"), axis.param);
            ok = FALSE;
          }
      for (guint j = 0; j < json_array_get_length (axis.values); j++)
        {
          g_autofree char *vp = wn_lab_json_path_member (at, "values");
          g_autofree char *vat = wn_lab_json_path_index (vp, j);
          Setting *s = read_setting (check, axis.param, json_array_get_element (axis.values, j), vat);

          if (s == NULL)
            {
              ok = FALSE;
              continue;
            }
          g_ptr_array_add (self->pool, s);
          g_ptr_array_add (axis.settings, s);
        }
      n_combos *= json_array_get_length (axis.values);
      g_array_append_val (axes, axis);
    }
  if (variants != NULL)
    n_entries = json_array_get_length (json_node_get_array (variants));
  if (ok && n_combos * n_entries > 100000)
    {
      add_error (check, grid != NULL ? "grid" : "variants", _("%" PRIu64 " variants: at most 100000"),
                 n_combos * n_entries);
      ok = FALSE;
    }

  for (guint e = 0; ok && e < n_entries; e++)
    {
      g_autoptr(JsonObject) entry_settings = json_object_new ();
      g_autoptr(GHashTable) entry = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g_autofree char *at = wn_lab_json_path_index ("variants", e);
      const char *entry_name = NULL;

      if (variants != NULL)
        {
          JsonNode *v = json_array_get_element (json_node_get_array (variants), e);
          JsonNode *name;

          if (!JSON_NODE_HOLDS_OBJECT (v))
            {
              add_error (check, at, _("must be an object {\"name\", \"set\"}"));
              ok = FALSE;
              continue;
            }
          ok &= check_keys (check, json_node_get_object (v), at, variant_keys);
          name = json_object_get_member (json_node_get_object (v), "name");
          if (name != NULL && !is_string (name))
            {
              g_autofree char *p = wn_lab_json_path_member (at, "name");

              add_error (check, p, _("must be a string"));
              ok = FALSE;
            }
          else if (name != NULL)
            entry_name = json_node_get_string (name);
          {
            g_autofree char *p = wn_lab_json_path_member (at, "set");

            ok &= read_set (self, check, json_object_get_member (json_node_get_object (v), "set"), p,
                            entry_settings, entry);
          }
          for (guint j = 0; j < axes->len; j++)
            if (g_hash_table_contains (entry, g_array_index (axes, Axis, j).param))
              {
                g_autofree char *p = wn_lab_json_path_member (at, "set");
                g_autofree char *pp = wn_lab_json_path_member (p, g_array_index (axes, Axis, j).param);

                add_error (check, pp, _("%s is also an axis of the grid"), g_array_index (axes, Axis, j).param);
                ok = FALSE;
              }
        }
      if (!ok)
        continue;
      for (guint64 c = 0; c < n_combos; c++)
        {
          Variant *variant = g_new0 (Variant, 1);
          g_autoptr(GString) name = g_string_new (entry_name);
          g_autoptr(GList) members = NULL;
          guint64 rest = c;
          guint *pick = g_newa (guint, axes->len + 1);

          /* the last axis varies fastest */
          for (guint j = axes->len; j-- > 0;)
            {
              guint n = json_array_get_length (g_array_index (axes, Axis, j).values);

              pick[j] = (guint) (rest % n);
              rest /= n;
            }
          variant->settings = json_object_new ();
          variant->parsed = g_ptr_array_new ();
          /* the base set, overridden by the entry's */
          members = json_object_get_members (base_settings);
          for (GList *l = members; l != NULL; l = l->next)
            if (!json_object_has_member (entry_settings, l->data))
              {
                json_object_set_member (variant->settings, l->data,
                                        json_node_copy (json_object_get_member (base_settings, l->data)));
                g_ptr_array_add (variant->parsed, g_hash_table_lookup (base, l->data));
              }
          g_clear_pointer (&members, g_list_free);
          members = json_object_get_members (entry_settings);
          for (GList *l = members; l != NULL; l = l->next)
            {
              json_object_set_member (variant->settings, l->data,
                                      json_node_copy (json_object_get_member (entry_settings, l->data)));
              g_ptr_array_add (variant->parsed, g_hash_table_lookup (entry, l->data));
            }
          for (guint j = 0; j < axes->len; j++)
            {
              Axis *axis = &g_array_index (axes, Axis, j);
              JsonNode *value = json_array_get_element (axis->values, pick[j]);
              g_autofree char *text = value_text (value);

              if (json_object_has_member (variant->settings, axis->param))
                json_object_remove_member (variant->settings, axis->param);
              json_object_set_member (variant->settings, axis->param, json_node_copy (value));
              for (guint k = 0; k < variant->parsed->len; k++)
                if (((Setting *) g_ptr_array_index (variant->parsed, k)) ==
                    g_hash_table_lookup (base, axis->param))
                  g_ptr_array_remove_index (variant->parsed, k);
              g_ptr_array_add (variant->parsed, g_ptr_array_index (axis->settings, pick[j]));
              if (name->len > 0)
                g_string_append_c (name, ' ');
              g_string_append_printf (name, "%s=%s", axis->param, text);
            }
          if (name->len == 0)
            g_string_append_printf (name, "variant %u", self->variants->len);
          variant->name = g_strdup (name->str);
          g_clear_pointer (&members, g_list_free);
          members = json_object_get_members (variant->settings);
          for (GList *l = members; l != NULL; l = l->next)
            add_param (self, l->data);
          g_ptr_array_add (self->variants, variant);
        }
    }
  for (guint j = 0; j < axes->len; j++)
    {
      g_free (g_array_index (axes, Axis, j).param);
      g_clear_pointer (&g_array_index (axes, Axis, j).values, json_array_unref);
      g_ptr_array_unref (g_array_index (axes, Axis, j).settings);
    }
  return ok;
}

/* Apply every variant once, so that a run cannot fail half-way. */
static gboolean
check_variants (WnLabSweep *self,
                Check      *check)
{
  gboolean ok = TRUE;

  for (guint v = 0; v < self->variants->len; v++)
    {
      g_autoptr(WnProcess) process = load_process (self, NULL, NULL);
      g_autoptr(WnScenario) scenario = process != NULL ? load_scenario (self, process, NULL, NULL) : NULL;
      g_autoptr(GError) error = NULL;
      WnEngineOptions options = { 0 };
      const Setting *failed = NULL;

      g_return_val_if_fail (scenario != NULL, FALSE);
      if (!apply_variant (g_ptr_array_index (self->variants, v), process, scenario, &options, &failed, &error))
        {
          /* the same setting fails in every variant it is in: say it once */
          gboolean said = FALSE;

          for (guint i = 0; i < check->diagnostics->len; i++)
            if (g_strcmp0 (((WnDiagnostic *) g_ptr_array_index (check->diagnostics, i))->path, failed->path) == 0)
              said = TRUE;
          if (!said)
            add_error (check, failed->path, _("variant %u (%s): %s"), v,
                       ((Variant *) g_ptr_array_index (self->variants, v))->name, error->message);
          ok = FALSE;
        }
    }
  return ok;
}

static gboolean
fail_with (GPtrArray  *diagnostics,
           GPtrArray **out,
           GError    **error)
{
  g_autoptr(GString) all = g_string_new (NULL);

  for (guint i = 0; i < diagnostics->len; i++)
    {
      g_autofree char *line = wn_diagnostic_format (g_ptr_array_index (diagnostics, i));

      g_string_append_printf (all, "%s%s", i ? "\n" : "", line);
    }
  g_set_error_literal (error, WN_LOAD_ERROR, WN_LOAD_ERROR_INVALID, all->str);
  if (out != NULL)
    *out = g_ptr_array_ref (diagnostics);
  return FALSE;
}

WnLabSweep *
wn_lab_sweep_load_data (const char  *data,
                        gssize       length,
                        const char  *display_name,
                        const char  *base_dir,
                        gsize        max_size,
                        GPtrArray  **diagnostics,
                        GError     **error)
{
  static const char *root_keys[] = { "format", "process", "scenario", "instances", "seeds", "until",
                                     "set", "variants", "grid", NULL };
  g_autoptr(WnLabSweep) self = g_new0 (WnLabSweep, 1);
  g_autoptr(GPtrArray) diags = g_ptr_array_new_with_free_func ((GDestroyNotify) wn_diagnostic_free);
  g_autoptr(GPtrArray) loaded = NULL;
  g_autoptr(GHashTable) positions = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(WnProcess) process = NULL;
  g_autoptr(WnScenario) scenario = NULL;
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  Check check = { display_name, NULL, diags };
  JsonObject *o;
  JsonNode *member;
  gboolean ok = TRUE;
  guint64 instances = 0;
  const guchar *bytes;
  gsize n;

  if (length < 0)
    length = (gssize) strlen (data);
  root = wn_load_json_data (data, length, display_name, diagnostics, error);
  if (root == NULL)
    return NULL;
  positions = wn_lab_json_positions (data, (gsize) length);
  check.positions = positions;
  self->display_name = g_strdup (display_name);
  self->seeds = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->variants = g_ptr_array_new_with_free_func (variant_free);
  self->pool = g_ptr_array_new_with_free_func (setting_free);
  self->params = g_ptr_array_new_with_free_func (g_free);
  self->until = WN_TIME_NEVER;

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      add_error (&check, "", _("a sweep must be a JSON object"));
      return fail_with (diags, diagnostics, error), NULL;
    }
  o = json_node_get_object (root);
  if (!is_string (json_object_get_member (o, "format")) ||
      !g_str_equal (json_object_get_string_member (o, "format"), WN_LAB_SWEEP_FORMAT))
    {
      add_error (&check, "format", _("must be \"%s\""), WN_LAB_SWEEP_FORMAT);
      return fail_with (diags, diagnostics, error), NULL;
    }
  ok &= check_keys (&check, o, "", root_keys);
  self->process_text = read_named (&check, base_dir, json_object_get_member (o, "process"), "process",
                                   max_size, &self->process_name);
  if (self->process_text == NULL)
    return fail_with (diags, diagnostics, error), NULL;
  if ((member = json_object_get_member (o, "scenario")) != NULL)
    {
      self->scenario_text = read_named (&check, base_dir, member, "scenario", max_size, &self->scenario_name);
      if (self->scenario_text == NULL)
        return fail_with (diags, diagnostics, error), NULL;
    }
  /* the files the sweep names, with their own positions */
  process = load_process (self, &loaded, NULL);
  if (process != NULL)
    {
      g_clear_pointer (&loaded, g_ptr_array_unref);
      scenario = load_scenario (self, process, &loaded, NULL);
    }
  if (scenario == NULL)
    {
      move_diagnostics (diags, loaded);
      return fail_with (diags, diagnostics, error), NULL;
    }
  if ((member = json_object_get_member (o, "instances")) != NULL &&
      read_count (&check, member, "instances", 1, WN_MAX_INSTANCES, &instances))
    self->instances = (guint) instances;
  else
    ok &= member == NULL;
  if ((member = json_object_get_member (o, "until")) != NULL)
    ok &= read_duration (&check, member, "until", &self->until);
  ok &= read_seeds (&check, json_object_get_member (o, "seeds"), scenario->has_seed ? scenario->seed : 1,
                    self->seeds);
  ok &= expand (self, &check, o);
  if (ok)
    ok = check_variants (self, &check);
  if (!ok || diags->len > 0)
    return fail_with (diags, diagnostics, error), NULL;

  /* (the length is read only once g_bytes_get_data has set it) */
  g_checksum_update (sum, (const guchar *) data, length);
  g_checksum_update (sum, (const guchar *) "", 1);
  bytes = g_bytes_get_data (self->process_text, &n);
  g_checksum_update (sum, bytes, n);
  if (self->scenario_text != NULL)
    {
      g_checksum_update (sum, (const guchar *) "", 1);
      bytes = g_bytes_get_data (self->scenario_text, &n);
      g_checksum_update (sum, bytes, n);
    }
  self->id = g_strndup (g_checksum_get_string (sum), 16);
  return g_steal_pointer (&self);
}

WnLabSweep *
wn_lab_sweep_load_file (const char  *filename,
                        gsize        max_size,
                        GPtrArray  **diagnostics,
                        GError     **error)
{
  g_autoptr(GBytes) bytes = read_input (filename, max_size, error);
  g_autofree char *dir = NULL;
  gsize n;
  const char *data;

  if (bytes == NULL)
    return NULL;
  dir = g_path_get_dirname (filename);
  data = g_bytes_get_data (bytes, &n);
  return wn_lab_sweep_load_data (data, (gssize) n, filename, dir, max_size, diagnostics, error);
}

const char *
wn_lab_sweep_get_id (WnLabSweep *self)
{
  return self->id;
}

guint
wn_lab_sweep_get_n_variants (WnLabSweep *self)
{
  return self->variants->len;
}

const char *
wn_lab_sweep_get_variant_name (WnLabSweep *self,
                               guint       variant)
{
  g_return_val_if_fail (variant < self->variants->len, NULL);
  return ((Variant *) g_ptr_array_index (self->variants, variant))->name;
}

JsonObject *
wn_lab_sweep_get_variant_settings (WnLabSweep *self,
                                   guint       variant)
{
  g_return_val_if_fail (variant < self->variants->len, NULL);
  return ((Variant *) g_ptr_array_index (self->variants, variant))->settings;
}

guint
wn_lab_sweep_get_n_seeds (WnLabSweep *self)
{
  return self->seeds->len;
}

guint64
wn_lab_sweep_get_seed (WnLabSweep *self,
                       guint       index)
{
  g_return_val_if_fail (index < self->seeds->len, 0);
  return g_array_index (self->seeds, guint64, index);
}

GPtrArray *
wn_lab_sweep_get_params (WnLabSweep *self)
{
  return self->params;
}

guint
wn_lab_sweep_get_n_cells (WnLabSweep *self)
{
  return self->variants->len * self->seeds->len;
}

WnLabSummary *
wn_lab_sweep_new_summary (WnLabSweep *self,
                          guint       variant)
{
  return wn_lab_summary_new (self->id, variant, wn_lab_sweep_get_variant_name (self, variant),
                             wn_lab_sweep_get_variant_settings (self, variant), self->seeds->len);
}

/* Scheduler actions between two looks at the cancellable. */
#define CELL_SLICE 65536

gboolean
wn_lab_sweep_run_cell (WnLabSweep   *self,
                       guint         cell,
                       WnLabSummary *into,
                       GCancellable *cancellable,
                       GError      **error)
{
  guint variant = cell / self->seeds->len;
  guint64 seed = g_array_index (self->seeds, guint64, cell % self->seeds->len);
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(WnProcess) process = NULL;
  g_autoptr(WnScenario) scenario = NULL;
  WnEngineOptions options = { 0 };
  const Setting *failed = NULL;
  WnLabLoad load;
  WnEngine *engine;

  g_return_val_if_fail (cell < wn_lab_sweep_get_n_cells (self), FALSE);
  g_return_val_if_fail (wn_lab_summary_get_variant (into) == variant, FALSE);

  /* the engine is single-threaded: everything of this cell runs here, on a
   * context of its own */
  g_main_context_push_thread_default (context);
  process = load_process (self, NULL, error);
  if (process != NULL)
    scenario = load_scenario (self, process, NULL, error);
  if (scenario == NULL ||
      !apply_variant (g_ptr_array_index (self->variants, variant), process, scenario, &options, &failed, error))
    {
      g_main_context_pop_thread_default (context);
      return FALSE;
    }
  options.has_seed = TRUE;
  options.seed = seed;
  options.instances = self->instances;
  engine = wn_engine_new (process, scenario, &options);
  wn_lab_load_init (&load);
  wn_journal_subscribe (wn_engine_get_journal (engine), wn_lab_load_cb, &load, NULL);
  /* in slices: the run is the same as one wn_engine_run() */
  while (wn_engine_run_budget (engine, self->until, CELL_SLICE) == WN_STOP_BUDGET)
    if (g_cancellable_set_error_if_cancelled (cancellable, error))
      {
        wn_engine_free (engine);
        wn_lab_load_clear (&load);
        g_main_context_pop_thread_default (context);
        return FALSE;
      }
  wn_lab_summary_add_run (into, engine, seed, &load);
  wn_engine_free (engine);
  wn_lab_load_clear (&load);
  g_main_context_pop_thread_default (context);
  return TRUE;
}

/* wn-loader.c — read winnow.process/1 and winnow.scenario/1 documents.
 *
 * The document is parsed by wn-json (which keeps positions), then walked once;
 * every problem becomes a WnDiagnostic pointing at the offending value. Nothing
 * is built until the whole document checks out.
 */
#include "wn-loader.h"

#include "wn-duration.h"
#include "wn-json.h"
#include "wn-journal.h"
#include "wn-engine-private.h"

#include <math.h>
#include <string.h>

#define PROCESS_FORMAT  "winnow.process/1"
#define SCENARIO_FORMAT "winnow.scenario/1"

/* Diagnostics kept before sorting and capping (bounds memory on hostile input). */
#define HARD_LIMIT 10000

typedef struct {
  WnJsonDoc  *doc;
  const char *file;
  GPtrArray  *diags;     /* WnDiagnostic* */
  guint       dropped;
} Ctx;

typedef enum {
  RESPONSE_SCRIPTED,     /* a worker's responses[] */
  RESPONSE_CHOICE,       /* an entry of random[] */
  RESPONSE_INJECTED,     /* a fault's next, or wn_load_response_data() */
} ResponseMode;

/* What the process check needs to know about the status rules of a mapper. */
typedef struct {
  GPtrArray *nodes;      /* JsonNode*: each status rule's `status` value */
  GPtrArray *paths;      /* char* */
} StatusRules;

typedef struct {
  JsonNode      *json;           /* the node object */
  char          *path;           /* nodes[i] */
  const char    *id;             /* NULL when missing or invalid */
  gboolean       type_ok;
  WnNodeType     type;
  char          *name;
  WnTime         duration;
  WnAssignment  *set;
  guint          n_set;
  WnWorkerSpec  *worker;
  char          *error_code;
  JsonNode      *default_json;   /* exclusiveGateway `default` (a string node) */
  JsonNode      *attached_json;  /* boundaryEvent `attachedTo` (a string node) */
} NodeSrc;

typedef struct {
  JsonNode   *json;
  char       *path;              /* flows[i] */
  const char *id;
  int         from;              /* node source index, -1 when unresolved */
  int         to;
  JsonNode   *condition_json;
  WnLite     *condition;
} FlowSrc;

static const char * const process_keys[] = {
  "format", "id", "name", "variables", "engine", "nodes", "flows", "scenario", NULL
};
static const char * const scenario_keys[] = {
  "format", "seed", "engine", "start", "workers", "faults", NULL
};
static const char * const engine_keys[] = {
  "trust", "retry", "errorMapper", "maxLock", "onExhausted", NULL
};
static const char * const node_keys_all[] = {
  "id", "type", "name", "error", "duration", "set", "worker", "attachedTo", "default", NULL
};
static const char * const worker_keys[] = {
  "topic", "input", "trust", "retry", "errorMapper", "outputMapping", "output", "status", NULL
};
static const char * const retry_keys_all[] = {
  "policy", "maxAttempts", "delay", "base", "max", "jitter", NULL
};
static const char * const rule_keys[] = {
  "code", "when", "bpmnError", "status", "technical", NULL
};
static const char * const bpmn_error_keys[] = { "code", "message", NULL };
static const char * const mapping_keys[] = { "path", "var", "required", NULL };
static const char * const status_keys[] = { "var", "overwrite", NULL };
static const char * const start_keys[] = { "at", "count", "variables", NULL };
static const char * const worker_config_keys[] = {
  "id", "topic", "lockDuration", "concurrency", "responses", NULL
};
static const char * const fault_keys[] = { "at", "topic", "worker", "next", NULL };
static const char * const response_keys_all[] = {
  "attempts", "when", "after", "p",
  "complete", "fail", "workerError", "crash", "hang", "random", NULL
};
static const char * const response_outcomes[] = {
  "complete", "fail", "workerError", "crash", "hang", "random", NULL
};
static const char * const fail_keys[] = { "code", "body", "message", NULL };
static const char * const worker_error_keys[] = { "bpmnErrorCode", "status", "cause", "message", NULL };

G_DEFINE_QUARK (wn-load-error-quark, wn_load_error)

/* ---- diagnostics ------------------------------------------------------- */

static void
add_diag (Ctx *ctx, const WnJsonPos *pos, const char *path, char *message)
{
  WnDiagnostic *d;

  if (ctx->diags->len >= HARD_LIMIT)
    {
      ctx->dropped++;
      g_free (message);
      return;
    }

  d = g_new0 (WnDiagnostic, 1);
  d->file = g_strdup (ctx->file);
  d->line = pos != NULL ? pos->line : 0;
  d->column = pos != NULL ? pos->column : 0;
  d->path = g_strdup (path != NULL ? path : "");
  d->message = message;
  g_ptr_array_add (ctx->diags, d);
}

static void report (Ctx *ctx, JsonNode *at, const char *path,
                    const char *format, ...) G_GNUC_PRINTF (4, 5);
static void report_key (Ctx *ctx, JsonNode *object, const char *key, const char *path,
                        const char *format, ...) G_GNUC_PRINTF (5, 6);

/* At the value `at`. */
static void
report (Ctx        *ctx,
        JsonNode   *at,
        const char *path,
        const char *format,
        ...)
{
  WnJsonPos pos = { 0 };
  va_list args;
  char *message;

  wn_json_doc_get_pos (ctx->doc, at, &pos);
  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  add_diag (ctx, &pos, path, message);
}

/* At the key `key` of the object node `object`. */
static void
report_key (Ctx        *ctx,
            JsonNode   *object,
            const char *key,
            const char *path,
            const char *format,
            ...)
{
  WnJsonPos pos = { 0 };
  va_list args;
  char *message;

  if (!wn_json_doc_get_key_pos (ctx->doc, json_node_get_object (object), key, &pos))
    wn_json_doc_get_pos (ctx->doc, object, &pos);
  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  add_diag (ctx, &pos, path, message);
}

static guint
n_errors (const Ctx *ctx)
{
  return ctx->diags->len + ctx->dropped;
}

/* ---- paths and small checks -------------------------------------------- */

static gboolean
is_simple_key (const char *key)
{
  if (*key == '\0')
    return FALSE;
  for (const char *p = key; *p; p++)
    if (!g_ascii_isalnum (*p) && *p != '_' && *p != '-')
      return FALSE;
  return TRUE;
}

/* A path is built for every value the loader checks: these two skip printf. */
static char *
path_key (const char *parent, const char *key)
{
  if (is_simple_key (key))
    {
      gsize parent_len, key_len;
      char *path;

      if (parent == NULL || *parent == '\0')
        return g_strdup (key);
      parent_len = strlen (parent);
      key_len = strlen (key);
      path = g_malloc (parent_len + 1 + key_len + 1);
      memcpy (path, parent, parent_len);
      path[parent_len] = '.';
      memcpy (path + parent_len + 1, key, key_len + 1);
      return path;
    }
  else
    {
      GString *out = g_string_new (parent);

      g_string_append (out, "[\"");
      for (const char *p = key; *p; p++)
        {
          if (*p == '"' || *p == '\\')
            g_string_append_c (out, '\\');
          g_string_append_c (out, *p);
        }
      g_string_append (out, "\"]");
      return g_string_free (out, FALSE);
    }
}

static char *
path_index (const char *parent, guint i)
{
  gsize parent_len = strlen (parent);
  char digits[WN_DECIMAL_SIZE];
  gsize n_digits = _wn_format_decimal (digits, i);
  char *path, *p;

  path = p = g_malloc (parent_len + n_digits + 3);
  memcpy (p, parent, parent_len);
  p += parent_len;
  *p++ = '[';
  memcpy (p, digits, n_digits);
  p += n_digits;
  *p++ = ']';
  *p = '\0';
  return path;
}

static gboolean
in_list (const char * const *list, const char *key)
{
  for (guint i = 0; list != NULL && list[i] != NULL; i++)
    if (strcmp (list[i], key) == 0)
      return TRUE;
  return FALSE;
}

static const char *
type_name (JsonNode *node)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      return "an object";
    case JSON_NODE_ARRAY:
      return "an array";
    case JSON_NODE_NULL:
      return "null";
    case JSON_NODE_VALUE:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_STRING:
          return "a string";
        case G_TYPE_BOOLEAN:
          return "a boolean";
        case G_TYPE_INT64:
        case G_TYPE_DOUBLE:
          return "a number";
        default:
          return "a value";
        }
    default:
      return "a value";
    }
}

/* "a task", "an endEvent". */
static const char *
article (const char *word)
{
  return word[0] != '\0' && strchr ("aeiouAEIOU", word[0]) != NULL ? "an" : "a";
}

static gboolean
holds_type (JsonNode *node, GType type)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == type;
}

static gboolean
holds_number (JsonNode *node)
{
  return holds_type (node, G_TYPE_INT64) || holds_type (node, G_TYPE_DOUBLE);
}

static gboolean
is_identifier (const char *text)
{
  if (*text == '\0')
    return FALSE;
  for (const char *p = text; *p; p++)
    if (!g_ascii_isalnum (*p) && *p != '_' && *p != '.' && *p != ':' && *p != '-')
      return FALSE;
  return TRUE;
}

/* Report the keys of `object` that are neither allowed nor free ("x-…"). Keys in
 * `known` but not `allowed` "do not apply to <what>". */
static void
check_keys (Ctx                *ctx,
            JsonNode           *object,
            const char         *path,
            const char * const *allowed,
            const char * const *known,
            const char         *what)
{
  guint n = 0;
  const char * const *keys = wn_json_doc_get_keys (ctx->doc, json_node_get_object (object), &n);

  for (guint i = 0; i < n; i++)
    {
      const char *key = keys[i];
      g_autofree char *child = NULL;

      if (g_str_has_prefix (key, "x-") || in_list (allowed, key))
        continue;
      child = path_key (path, key);
      if (known != NULL && what != NULL && in_list (known, key))
        report_key (ctx, object, key, child, "key \"%s\" does not apply to %s", key, what);
      else
        report_key (ctx, object, key, child, "unknown key \"%s\"", key);
    }
}

/* The member `key` of the object node `object`; a missing required one is reported
 * at the object. */
static JsonNode *
member (Ctx *ctx, JsonNode *object, const char *path, const char *key, gboolean required)
{
  JsonNode *m = json_object_get_member (json_node_get_object (object), key);

  if (m == NULL && required)
    report (ctx, object, path, "missing required key \"%s\"", key);
  return m;
}

static gboolean
expect_object (Ctx *ctx, JsonNode *node, const char *path)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    return TRUE;
  report (ctx, node, path, "must be an object, not %s", type_name (node));
  return FALSE;
}

static JsonArray *
expect_array (Ctx *ctx, JsonNode *node, const char *path)
{
  if (JSON_NODE_HOLDS_ARRAY (node))
    return json_node_get_array (node);
  report (ctx, node, path, "must be an array, not %s", type_name (node));
  return NULL;
}

static const char *
expect_string (Ctx *ctx, JsonNode *node, const char *path)
{
  if (holds_type (node, G_TYPE_STRING))
    return json_node_get_string (node);
  report (ctx, node, path, "must be a string, not %s", type_name (node));
  return NULL;
}

static const char *
expect_nonempty (Ctx *ctx, JsonNode *node, const char *path)
{
  const char *s = expect_string (ctx, node, path);

  if (s != NULL && *s == '\0')
    {
      report (ctx, node, path, "must not be empty");
      return NULL;
    }
  return s;
}

static const char *
expect_identifier (Ctx *ctx, JsonNode *node, const char *path)
{
  const char *s = expect_string (ctx, node, path);

  if (s == NULL)
    return NULL;
  if (!is_identifier (s))
    {
      if (*s == '\0')
        report (ctx, node, path, "must not be empty");
      else
        report (ctx, node, path, "\"%s\" is not an identifier (use letters, digits and _ . : -)", s);
      return NULL;
    }
  return s;
}

static gboolean
expect_bool (Ctx *ctx, JsonNode *node, const char *path, gboolean *out)
{
  if (holds_type (node, G_TYPE_BOOLEAN))
    {
      *out = json_node_get_boolean (node);
      return TRUE;
    }
  report (ctx, node, path, "must be true or false, not %s", type_name (node));
  return FALSE;
}

static gboolean
expect_true (Ctx *ctx, JsonNode *node, const char *path)
{
  if (holds_type (node, G_TYPE_BOOLEAN) && json_node_get_boolean (node))
    return TRUE;
  report (ctx, node, path, "must be true");
  return FALSE;
}

static gboolean
expect_uint (Ctx *ctx, JsonNode *node, const char *path, guint min, guint *out)
{
  gint64 v;

  if (!holds_type (node, G_TYPE_INT64))
    {
      report (ctx, node, path, "must be an integer ≥ %u, not %s", min,
              holds_number (node) ? "a fraction" : type_name (node));
      return FALSE;
    }
  v = json_node_get_int (node);
  if (v < (gint64) min)
    {
      report (ctx, node, path, "must be ≥ %u", min);
      return FALSE;
    }
  if (v > (gint64) G_MAXUINT)
    {
      report (ctx, node, path, "must be at most %u", G_MAXUINT);
      return FALSE;
    }
  *out = (guint) v;
  return TRUE;
}

static gboolean
expect_duration (Ctx *ctx, JsonNode *node, const char *path, gboolean positive, WnTime *out)
{
  g_autoptr(GError) error = NULL;
  WnTime value = 0;

  if (!holds_type (node, G_TYPE_STRING) && !holds_number (node))
    {
      report (ctx, node, path, "must be a duration (a string such as \"250ms\" or \"PT2S\", "
              "or a number of milliseconds), not %s", type_name (node));
      return FALSE;
    }
  if (!wn_duration_from_json (node, &value, &error))
    {
      report (ctx, node, path, "%s", error != NULL ? error->message : "invalid duration");
      return FALSE;
    }
  if (positive && value <= 0)
    {
      report (ctx, node, path, "must be longer than 0");
      return FALSE;
    }
  *out = value;
  return TRUE;
}

/* Report an error found at byte `offset` inside the string value `node`. */
static void
report_in_string (Ctx *ctx, JsonNode *node, const char *path, gsize offset, const char *message)
{
  WnJsonPos pos = { 0 };

  if (!wn_json_doc_get_string_pos (ctx->doc, node, offset, &pos))
    wn_json_doc_get_pos (ctx->doc, node, &pos);
  add_diag (ctx, &pos, path, g_strdup (message));
}

/* The byte offset a lite message names ("at N: …"), or 0. */
static gsize
offset_from_message (const char *message)
{
  guint64 v = 0;

  if (message != NULL && g_str_has_prefix (message, "at "))
    {
      const char *p = message + 3;
      char *end = NULL;

      v = g_ascii_strtoull (p, &end, 10);
      if (end == p)
        v = 0;
    }
  return (gsize) v;
}

static WnLite *
expect_lite (Ctx *ctx, JsonNode *node, const char *path)
{
  g_autoptr(GError) error = NULL;
  const char *source = expect_string (ctx, node, path);
  gsize offset = 0;
  WnLite *lite;

  if (source == NULL)
    return NULL;
  lite = wn_lite_compile (source, &offset, &error);
  if (lite == NULL)
    report_in_string (ctx, node, path, offset,
                      error != NULL ? error->message : "the expression does not parse");
  return lite;
}

static WnPath *
expect_path (Ctx *ctx, JsonNode *node, const char *path)
{
  g_autoptr(GError) error = NULL;
  const char *source = expect_string (ctx, node, path);
  WnPath *result;

  if (source == NULL)
    return NULL;
  result = wn_path_parse (source, &error);
  if (result == NULL)
    {
      const char *message = error != NULL ? error->message : "not a variable name or path";

      report_in_string (ctx, node, path, offset_from_message (message), message);
    }
  return result;
}

/* A fault or rule code: a string, or a number normalised to its decimal form. */
static char *
expect_code (Ctx *ctx, JsonNode *node, const char *path)
{
  if (holds_type (node, G_TYPE_STRING))
    return g_strdup (json_node_get_string (node));
  if (holds_type (node, G_TYPE_INT64))
    return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
  if (holds_type (node, G_TYPE_DOUBLE))
    {
      double d = json_node_get_double (node);
      char buf[G_ASCII_DTOSTR_BUF_SIZE];

      if (d == floor (d) && fabs (d) < 1e15)
        return g_strdup_printf ("%.0f", d);
      return g_strdup (g_ascii_dtostr (buf, sizeof buf, d));
    }
  report (ctx, node, path, "must be a string or a number, not %s", type_name (node));
  return NULL;
}

/* ---- engine-level pieces ------------------------------------------------ */

static gboolean
parse_trust (Ctx *ctx, JsonNode *node, const char *path, WnTrust *out)
{
  const char *s = expect_string (ctx, node, path);

  if (s == NULL)
    return FALSE;
  if (!wn_trust_from_string (s, out) || *out == WN_TRUST_UNSET)
    {
      report (ctx, node, path, "unknown trust \"%s\" (expected workerTrusted or engineAuthoritative)", s);
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_retry (Ctx *ctx, JsonNode *node, const char *path, WnRetryPolicy *out)
{
  static const char * const none_keys[] = { "policy", NULL };
  static const char * const fixed_keys[] = { "policy", "maxAttempts", "delay", NULL };
  static const char * const exp_keys[] = { "policy", "maxAttempts", "base", "max", "jitter", NULL };
  g_autofree char *policy_path = NULL;
  JsonNode *policy_node;
  const char *policy;
  guint before = n_errors (ctx);

  if (holds_type (node, G_TYPE_STRING))
    {
      if (strcmp (json_node_get_string (node), "default") == 0)
        {
          *out = wn_retry_policy_default ();
          return TRUE;
        }
      report (ctx, node, path, "must be \"default\" or an object with a \"policy\"");
      return FALSE;
    }
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      report (ctx, node, path, "must be \"default\" or an object with a \"policy\", not %s",
              type_name (node));
      return FALSE;
    }

  policy_node = member (ctx, node, path, "policy", TRUE);
  if (policy_node == NULL)
    {
      check_keys (ctx, node, path, retry_keys_all, NULL, NULL);
      return FALSE;
    }
  policy_path = path_key (path, "policy");
  policy = expect_string (ctx, policy_node, policy_path);
  if (policy == NULL)
    return FALSE;

  if (strcmp (policy, "none") == 0)
    {
      check_keys (ctx, node, path, none_keys, retry_keys_all, "policy \"none\"");
      *out = wn_retry_policy_none ();
    }
  else if (strcmp (policy, "fixed") == 0)
    {
      guint max_attempts = 1;
      WnTime delay = 0;
      JsonNode *m;

      check_keys (ctx, node, path, fixed_keys, retry_keys_all, "policy \"fixed\"");
      if ((m = member (ctx, node, path, "maxAttempts", TRUE)) != NULL)
        {
          g_autofree char *p = path_key (path, "maxAttempts");

          expect_uint (ctx, m, p, 1, &max_attempts);
        }
      if ((m = member (ctx, node, path, "delay", TRUE)) != NULL)
        {
          g_autofree char *p = path_key (path, "delay");

          expect_duration (ctx, m, p, FALSE, &delay);
        }
      *out = wn_retry_policy_fixed (max_attempts, delay);
    }
  else if (strcmp (policy, "exponential") == 0)
    {
      guint max_attempts = 1;
      WnTime base = 0;
      WnTime max = 0;
      gboolean jitter = FALSE;
      JsonNode *m;

      check_keys (ctx, node, path, exp_keys, retry_keys_all, "policy \"exponential\"");
      if ((m = member (ctx, node, path, "maxAttempts", TRUE)) != NULL)
        {
          g_autofree char *p = path_key (path, "maxAttempts");

          expect_uint (ctx, m, p, 1, &max_attempts);
        }
      if ((m = member (ctx, node, path, "base", TRUE)) != NULL)
        {
          g_autofree char *p = path_key (path, "base");

          expect_duration (ctx, m, p, FALSE, &base);
        }
      if ((m = member (ctx, node, path, "max", TRUE)) != NULL)
        {
          g_autofree char *p = path_key (path, "max");

          expect_duration (ctx, m, p, FALSE, &max);
        }
      if ((m = member (ctx, node, path, "jitter", FALSE)) != NULL)
        {
          g_autofree char *p = path_key (path, "jitter");

          expect_bool (ctx, m, p, &jitter);
        }
      *out = wn_retry_policy_exponential (max_attempts, base, max, jitter);
    }
  else
    {
      report (ctx, policy_node, policy_path,
              "unknown retry policy \"%s\" (expected none, fixed or exponential)", policy);
      return FALSE;
    }

  return n_errors (ctx) == before;
}

static void
free_rule_strings (WnErrorRule *rules, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      g_free ((char *) rules[i].code);
      g_clear_pointer (&rules[i].when, wn_lite_unref);
      g_free ((char *) rules[i].bpmn_code);
      g_free ((char *) rules[i].bpmn_message);
      g_clear_pointer (&rules[i].status, json_node_unref);
    }
  g_free (rules);
}

static gboolean
parse_mapper (Ctx            *ctx,
              JsonNode       *node,
              const char     *path,
              WnErrorMapper **out,
              StatusRules    *status_rules)
{
  JsonArray *array = expect_array (ctx, node, path);
  WnErrorRule *rules;
  guint n;
  guint before = n_errors (ctx);

  if (array == NULL)
    return FALSE;

  n = json_array_get_length (array);
  rules = g_new0 (WnErrorRule, n + 1);

  for (guint i = 0; i < n; i++)
    {
      JsonNode *rule = json_array_get_element (array, i);
      g_autofree char *rp = path_index (path, i);
      const char *first_outcome = NULL;
      guint n_outcomes = 0;
      JsonNode *m;

      if (!expect_object (ctx, rule, rp))
        continue;
      check_keys (ctx, rule, rp, rule_keys, NULL, NULL);

      if ((m = member (ctx, rule, rp, "code", FALSE)) != NULL)
        {
          g_autofree char *p = path_key (rp, "code");

          rules[i].code = expect_code (ctx, m, p);
        }
      if ((m = member (ctx, rule, rp, "when", FALSE)) != NULL)
        {
          g_autofree char *p = path_key (rp, "when");

          rules[i].when = expect_lite (ctx, m, p);
        }

      {
        guint nk = 0;
        const char * const *keys = wn_json_doc_get_keys (ctx->doc, json_node_get_object (rule), &nk);

        for (guint k = 0; k < nk; k++)
          {
            const char *key = keys[k];
            g_autofree char *p = NULL;

            if (strcmp (key, "bpmnError") != 0 && strcmp (key, "status") != 0 &&
                strcmp (key, "technical") != 0)
              continue;
            m = json_object_get_member (json_node_get_object (rule), key);
            p = path_key (rp, key);
            n_outcomes++;
            if (n_outcomes > 1)
              {
                report (ctx, m, p, "a rule has exactly one outcome (it already has %s)", first_outcome);
                continue;
              }
            first_outcome = key;

            if (strcmp (key, "bpmnError") == 0)
              {
                rules[i].outcome = WN_CLASS_BPMN_ERROR;
                if (expect_object (ctx, m, p))
                  {
                    JsonNode *c;

                    check_keys (ctx, m, p, bpmn_error_keys, NULL, NULL);
                    if ((c = member (ctx, m, p, "code", TRUE)) != NULL)
                      {
                        g_autofree char *cp = path_key (p, "code");
                        const char *s = expect_nonempty (ctx, c, cp);

                        rules[i].bpmn_code = g_strdup (s);
                      }
                    if ((c = member (ctx, m, p, "message", FALSE)) != NULL)
                      {
                        g_autofree char *cp = path_key (p, "message");
                        const char *s = expect_string (ctx, c, cp);

                        rules[i].bpmn_message = g_strdup (s);
                      }
                  }
              }
            else if (strcmp (key, "status") == 0)
              {
                rules[i].outcome = WN_CLASS_STATUS;
                rules[i].status = wn_json_node_deep_copy (m);
                if (status_rules != NULL)
                  {
                    g_ptr_array_add (status_rules->nodes, m);
                    g_ptr_array_add (status_rules->paths, g_strdup (p));
                  }
              }
            else
              {
                rules[i].outcome = WN_CLASS_TECHNICAL;
                expect_true (ctx, m, p);
              }
          }

        if (n_outcomes == 0)
          report (ctx, rule, rp, "a rule needs exactly one of bpmnError, status or technical");
      }
    }

  if (n_errors (ctx) == before)
    *out = wn_error_mapper_new (rules, n);
  free_rule_strings (rules, n);
  return n_errors (ctx) == before;
}

static gboolean
parse_output_mapping (Ctx *ctx, JsonNode *node, const char *path, WnOutputMapping **out)
{
  JsonArray *array = expect_array (ctx, node, path);
  g_autoptr(GError) error = NULL;
  WnOutputRule *rules;
  GPtrArray *var_nodes;
  guint n;
  guint bad = 0;
  guint before = n_errors (ctx);

  if (array == NULL)
    return FALSE;

  n = json_array_get_length (array);
  rules = g_new0 (WnOutputRule, n + 1);
  var_nodes = g_ptr_array_new ();

  for (guint i = 0; i < n; i++)
    {
      JsonNode *rule = json_array_get_element (array, i);
      g_autofree char *rp = path_index (path, i);
      JsonNode *m;

      g_ptr_array_add (var_nodes, NULL);
      if (!expect_object (ctx, rule, rp))
        continue;
      check_keys (ctx, rule, rp, mapping_keys, NULL, NULL);

      if ((m = member (ctx, rule, rp, "path", TRUE)) != NULL)
        {
          g_autofree char *p = path_key (rp, "path");

          rules[i].path = expect_lite (ctx, m, p);
        }
      if ((m = member (ctx, rule, rp, "var", TRUE)) != NULL)
        {
          g_autofree char *p = path_key (rp, "var");

          rules[i].var = expect_nonempty (ctx, m, p);
          var_nodes->pdata[i] = m;
        }
      if ((m = member (ctx, rule, rp, "required", FALSE)) != NULL)
        {
          g_autofree char *p = path_key (rp, "required");

          expect_bool (ctx, m, p, &rules[i].required);
        }
    }

  if (n_errors (ctx) == before && n > 0)
    {
      *out = wn_output_mapping_new (rules, n, &bad, &error);
      if (*out == NULL)
        {
          g_autofree char *rp = path_index (path, MIN (bad, n - 1));
          g_autofree char *p = path_key (rp, "var");
          JsonNode *at = g_ptr_array_index (var_nodes, MIN (bad, n - 1));

          report (ctx, at, p, "%s", error != NULL ? error->message : "conflicting output mapping");
        }
    }

  for (guint i = 0; i < n; i++)
    g_clear_pointer (&rules[i].path, wn_lite_unref);
  g_free (rules);
  g_ptr_array_unref (var_nodes);
  return n_errors (ctx) == before;
}

static void
parse_engine (Ctx            *ctx,
              JsonNode       *node,
              const char     *path,
              WnEngineConfig *config,
              StatusRules    *status_rules)
{
  JsonNode *m;

  if (!expect_object (ctx, node, path))
    return;
  check_keys (ctx, node, path, engine_keys, NULL, NULL);

  if ((m = member (ctx, node, path, "trust", FALSE)) != NULL)
    {
      g_autofree char *p = path_key (path, "trust");

      parse_trust (ctx, m, p, &config->policy.trust);
    }
  if ((m = member (ctx, node, path, "retry", FALSE)) != NULL)
    {
      g_autofree char *p = path_key (path, "retry");

      config->policy.has_retry = parse_retry (ctx, m, p, &config->policy.retry);
    }
  if ((m = member (ctx, node, path, "errorMapper", FALSE)) != NULL)
    {
      g_autofree char *p = path_key (path, "errorMapper");

      parse_mapper (ctx, m, p, &config->policy.mapper, status_rules);
    }
  if ((m = member (ctx, node, path, "maxLock", FALSE)) != NULL)
    {
      g_autofree char *p = path_key (path, "maxLock");

      config->has_max_lock = expect_duration (ctx, m, p, TRUE, &config->max_lock);
    }
  if ((m = member (ctx, node, path, "onExhausted", FALSE)) != NULL)
    {
      g_autofree char *p = path_key (path, "onExhausted");
      const char *s = expect_string (ctx, m, p);

      if (s != NULL && (!wn_on_exhausted_from_string (s, &config->on_exhausted) ||
                        config->on_exhausted == WN_ON_EXHAUSTED_UNSET))
        {
          config->on_exhausted = WN_ON_EXHAUSTED_UNSET;
          report (ctx, m, p, "unknown onExhausted \"%s\" (expected fail or incident)", s);
        }
    }
}

/* ---- process ------------------------------------------------------------ */

static WnWorkerSpec *
parse_worker (Ctx *ctx, JsonNode *node, const char *path)
{
  g_autoptr(GPtrArray) status_nodes = g_ptr_array_new ();
  g_autoptr(GPtrArray) status_paths = g_ptr_array_new_with_free_func (g_free);
  StatusRules status_rules = { status_nodes, status_paths };
  WnWorkerSpec *spec;
  JsonNode *m;
  JsonNode *output_node = NULL;
  guint before = n_errors (ctx);

  if (!expect_object (ctx, node, path))
    return NULL;
  check_keys (ctx, node, path, worker_keys, NULL, NULL);

  spec = wn_worker_spec_new (NULL);

  if ((m = member (ctx, node, path, "topic", TRUE)) != NULL)
    {
      g_autofree char *p = path_key (path, "topic");

      spec->topic = g_strdup (expect_identifier (ctx, m, p));
    }
  if ((m = member (ctx, node, path, "input", FALSE)) != NULL)
    {
      g_autofree char *p = path_key (path, "input");
      JsonArray *array = expect_array (ctx, m, p);

      if (array != NULL)
        {
          spec->input = g_ptr_array_new_with_free_func ((GDestroyNotify) wn_path_free);
          for (guint i = 0; i < json_array_get_length (array); i++)
            {
              g_autofree char *ip = path_index (p, i);
              WnPath *wp = expect_path (ctx, json_array_get_element (array, i), ip);

              if (wp != NULL)
                g_ptr_array_add (spec->input, wp);
            }
        }
    }
  if ((m = member (ctx, node, path, "trust", FALSE)) != NULL)
    {
      g_autofree char *p = path_key (path, "trust");

      parse_trust (ctx, m, p, &spec->policy.trust);
    }
  if ((m = member (ctx, node, path, "retry", FALSE)) != NULL)
    {
      g_autofree char *p = path_key (path, "retry");

      spec->policy.has_retry = parse_retry (ctx, m, p, &spec->policy.retry);
    }
  if ((m = member (ctx, node, path, "errorMapper", FALSE)) != NULL)
    {
      g_autofree char *p = path_key (path, "errorMapper");

      parse_mapper (ctx, m, p, &spec->policy.mapper, &status_rules);
    }
  if ((m = member (ctx, node, path, "outputMapping", FALSE)) != NULL)
    {
      g_autofree char *p = path_key (path, "outputMapping");

      parse_output_mapping (ctx, m, p, &spec->policy.mapping);
    }
  if ((output_node = member (ctx, node, path, "output", FALSE)) != NULL)
    {
      g_autofree char *p = path_key (path, "output");

      spec->output_var = g_strdup (expect_nonempty (ctx, output_node, p));
    }
  if ((m = member (ctx, node, path, "status", FALSE)) != NULL)
    {
      g_autofree char *p = path_key (path, "status");

      if (expect_object (ctx, m, p))
        {
          JsonNode *v;

          check_keys (ctx, m, p, status_keys, NULL, NULL);
          if ((v = member (ctx, m, p, "var", TRUE)) != NULL)
            {
              g_autofree char *vp = path_key (p, "var");
              const char *s = expect_nonempty (ctx, v, vp);

              spec->status_var = g_strdup (s);
            }
          if ((v = member (ctx, m, p, "overwrite", FALSE)) != NULL)
            {
              g_autofree char *vp = path_key (p, "overwrite");

              expect_bool (ctx, v, vp, &spec->status_overwrite);
            }
        }
    }

  if (!json_object_has_member (json_node_get_object (node), "status"))
    {
      for (guint i = 0; i < status_nodes->len; i++)
        report (ctx, g_ptr_array_index (status_nodes, i), g_ptr_array_index (status_paths, i),
                "a status rule needs the task's worker.status (where the status is written)");
    }

  if (n_errors (ctx) != before)
    {
      wn_worker_spec_free (spec);
      return NULL;
    }
  return spec;
}

static void
node_src_free (gpointer data)
{
  NodeSrc *src = data;

  g_free (src->path);
  g_free (src->name);
  for (guint i = 0; i < src->n_set; i++)
    {
      g_free (src->set[i].var);
      g_clear_pointer (&src->set[i].expr, wn_lite_unref);
    }
  g_free (src->set);
  g_clear_pointer (&src->worker, wn_worker_spec_free);
  g_free (src->error_code);
  g_free (src);
}

static void
flow_src_free (gpointer data)
{
  FlowSrc *src = data;

  g_free (src->path);
  g_clear_pointer (&src->condition, wn_lite_unref);
  g_free (src);
}

static void
parse_set (Ctx *ctx, JsonNode *node, const char *path, NodeSrc *src)
{
  const char * const *keys;
  JsonObject *object;
  guint n = 0;

  if (!expect_object (ctx, node, path))
    return;
  object = json_node_get_object (node);
  keys = wn_json_doc_get_keys (ctx->doc, object, &n);
  src->set = g_new0 (WnAssignment, n + 1);

  for (guint i = 0; i < n; i++)
    {
      const char *var = keys[i];
      g_autofree char *p = path_key (path, var);
      g_autoptr(WnPath) target = NULL;
      WnLite *expr;

      if (g_str_has_prefix (var, "x-"))
        continue;
      target = wn_path_parse (var, NULL);
      if (target == NULL || target->n_steps != 0)
        {
          report_key (ctx, node, var, p, "\"%s\" is not a variable name", var);
          continue;
        }
      expr = expect_lite (ctx, json_object_get_member (object, var), p);
      if (expr == NULL)
        continue;
      src->set[src->n_set].var = g_strdup (var);
      src->set[src->n_set].expr = expr;
      src->n_set++;
    }
}

static void
parse_node (Ctx        *ctx,
            JsonNode   *node,
            NodeSrc    *src,
            GHashTable *ids)
{
  static const char * const start_keys_node[] = { "id", "type", "name", NULL };
  static const char * const end_keys[] = { "id", "type", "name", "error", NULL };
  static const char * const task_keys[] = { "id", "type", "name", "duration", NULL };
  static const char * const script_keys[] = { "id", "type", "name", "set", "duration", NULL };
  static const char * const service_keys[] = { "id", "type", "name", "worker", "duration", NULL };
  static const char * const boundary_keys[] = { "id", "type", "name", "attachedTo", "error", NULL };
  static const char * const exclusive_keys[] = { "id", "type", "name", "default", NULL };
  static const char * const timer_keys[] = { "id", "type", "name", "duration", NULL };
  const char * const *allowed = start_keys_node;
  const char *path = src->path;
  g_autofree char *what = NULL;
  JsonNode *m;

  if (!expect_object (ctx, node, path))
    return;

  if ((m = member (ctx, node, path, "id", TRUE)) != NULL)
    {
      g_autofree char *p = path_key (path, "id");
      const char *id = expect_identifier (ctx, m, p);

      if (id != NULL)
        {
          const char *first = g_hash_table_lookup (ids, id);

          if (first != NULL)
            report (ctx, m, p, "duplicate id \"%s\" (first used at %s)", id, first);
          else
            {
              g_hash_table_insert (ids, (gpointer) id, g_steal_pointer (&p));
              src->id = id;
            }
        }
    }

  if ((m = member (ctx, node, path, "type", TRUE)) != NULL)
    {
      g_autofree char *p = path_key (path, "type");
      const char *type = expect_string (ctx, m, p);

      if (type != NULL)
        {
          if (wn_node_type_from_string (type, &src->type))
            src->type_ok = TRUE;
          else
            report (ctx, m, p, "unknown node type \"%s\" (expected startEvent, endEvent, task, "
                    "scriptTask, serviceTask, boundaryEvent, exclusiveGateway, parallelGateway "
                    "or timerEvent)", type);
        }
    }

  if ((m = member (ctx, node, path, "name", FALSE)) != NULL)
    {
      g_autofree char *p = path_key (path, "name");

      src->name = g_strdup (expect_string (ctx, m, p));
    }

  if (!src->type_ok)
    {
      if (!json_object_has_member (json_node_get_object (node), "type"))
        check_keys (ctx, node, path, node_keys_all, NULL, NULL);
      return;
    }

  switch (src->type)
    {
    case WN_NODE_START:     allowed = start_keys_node; break;
    case WN_NODE_END:       allowed = end_keys; break;
    case WN_NODE_TASK:      allowed = task_keys; break;
    case WN_NODE_SCRIPT:    allowed = script_keys; break;
    case WN_NODE_SERVICE:   allowed = service_keys; break;
    case WN_NODE_BOUNDARY:  allowed = boundary_keys; break;
    case WN_NODE_EXCLUSIVE: allowed = exclusive_keys; break;
    case WN_NODE_PARALLEL:  allowed = start_keys_node; break;
    case WN_NODE_TIMER:     allowed = timer_keys; break;
    default:                allowed = start_keys_node; break;
    }
  what = g_strdup_printf ("%s %s", article (wn_node_type_to_string (src->type)),
                          wn_node_type_to_string (src->type));
  check_keys (ctx, node, path, allowed, node_keys_all, what);

  if (in_list (allowed, "duration") &&
      (m = member (ctx, node, path, "duration", src->type == WN_NODE_TIMER)) != NULL)
    {
      g_autofree char *p = path_key (path, "duration");

      if (src->type == WN_NODE_SERVICE &&
          json_object_has_member (json_node_get_object (node), "worker"))
        report (ctx, m, p, "a serviceTask with a worker takes no duration "
                "(its worker's responses set the time)");
      else
        expect_duration (ctx, m, p, FALSE, &src->duration);
    }

  if (src->type == WN_NODE_SCRIPT && (m = member (ctx, node, path, "set", FALSE)) != NULL)
    {
      g_autofree char *p = path_key (path, "set");

      parse_set (ctx, m, p, src);
    }

  if (src->type == WN_NODE_SERVICE && (m = member (ctx, node, path, "worker", FALSE)) != NULL)
    {
      g_autofree char *p = path_key (path, "worker");

      src->worker = parse_worker (ctx, m, p);
    }

  if ((src->type == WN_NODE_END || src->type == WN_NODE_BOUNDARY) &&
      (m = member (ctx, node, path, "error", src->type == WN_NODE_BOUNDARY)) != NULL)
    {
      g_autofree char *p = path_key (path, "error");

      src->error_code = g_strdup (expect_nonempty (ctx, m, p));
    }

  if (src->type == WN_NODE_BOUNDARY &&
      (m = member (ctx, node, path, "attachedTo", TRUE)) != NULL)
    {
      g_autofree char *p = path_key (path, "attachedTo");

      if (expect_identifier (ctx, m, p) != NULL)
        src->attached_json = m;
    }

  if (src->type == WN_NODE_EXCLUSIVE &&
      (m = member (ctx, node, path, "default", FALSE)) != NULL)
    {
      g_autofree char *p = path_key (path, "default");

      if (expect_identifier (ctx, m, p) != NULL)
        src->default_json = m;
    }
}

static int
find_node_src (GHashTable *node_ids, const char *id)
{
  gpointer v = g_hash_table_lookup (node_ids, id);

  return v != NULL ? (int) GPOINTER_TO_UINT (v) - 1 : -1;
}

static void
parse_flow (Ctx        *ctx,
            JsonNode   *node,
            FlowSrc    *src,
            GPtrArray  *nodes,
            GHashTable *node_ids,
            GHashTable *ids,
            gboolean   *unresolved)
{
  static const char * const flow_keys[] = { "id", "from", "to", "condition", NULL };
  const char *path = src->path;
  JsonNode *m;

  src->from = -1;
  src->to = -1;

  if (!expect_object (ctx, node, path))
    {
      *unresolved = TRUE;
      return;
    }
  check_keys (ctx, node, path, flow_keys, NULL, NULL);

  if ((m = member (ctx, node, path, "id", TRUE)) != NULL)
    {
      g_autofree char *p = path_key (path, "id");
      const char *id = expect_identifier (ctx, m, p);

      if (id != NULL)
        {
          const char *first = g_hash_table_lookup (ids, id);

          if (first != NULL)
            report (ctx, m, p, "duplicate id \"%s\" (first used at %s)", id, first);
          else
            {
              g_hash_table_insert (ids, (gpointer) id, g_steal_pointer (&p));
              src->id = id;
            }
        }
    }

  for (guint end = 0; end < 2; end++)
    {
      const char *key = end == 0 ? "from" : "to";
      g_autofree char *p = path_key (path, key);
      const char *id;
      int index;
      const NodeSrc *target;

      m = member (ctx, node, path, key, TRUE);
      if (m == NULL)
        {
          *unresolved = TRUE;
          continue;
        }
      id = expect_identifier (ctx, m, p);
      if (id == NULL)
        {
          *unresolved = TRUE;
          continue;
        }
      index = find_node_src (node_ids, id);
      if (index < 0)
        {
          report (ctx, m, p, "unknown node \"%s\"", id);
          *unresolved = TRUE;
          continue;
        }
      target = g_ptr_array_index (nodes, index);
      if (end == 0)
        {
          src->from = index;
          if (target->type == WN_NODE_END)
            report (ctx, m, p, "an endEvent cannot have outgoing flows (\"%s\" is an endEvent)", id);
        }
      else
        {
          src->to = index;
          if (target->type == WN_NODE_START)
            report (ctx, m, p, "a startEvent cannot have incoming flows (\"%s\" is the startEvent)", id);
          else if (target->type == WN_NODE_BOUNDARY)
            report (ctx, m, p, "a boundaryEvent cannot have incoming flows (\"%s\" is a boundaryEvent)", id);
        }
    }

  if ((m = member (ctx, node, path, "condition", FALSE)) != NULL)
    {
      g_autofree char *p = path_key (path, "condition");

      src->condition_json = m;
      src->condition = expect_lite (ctx, m, p);
      if (src->from >= 0 &&
          ((NodeSrc *) g_ptr_array_index (nodes, src->from))->type != WN_NODE_EXCLUSIVE)
        report (ctx, m, p, "a condition only applies to a flow leaving an exclusiveGateway");
    }
}

static WnScenario *parse_scenario (Ctx *ctx, JsonNode *root, const char *prefix, gboolean embedded);

static WnProcess *
build_process (Ctx        *ctx,
               JsonNode   *root,
               const char *id,
               GPtrArray  *nodes,
               GPtrArray  *flows)
{
  g_autoptr(GError) error = NULL;
  WnProcess *process = wn_process_new (id);

  for (guint i = 0; i < nodes->len; i++)
    {
      NodeSrc *src = g_ptr_array_index (nodes, i);
      WnNode *node = wn_process_add_node (process, src->id, src->type);

      node->name = g_steal_pointer (&src->name);
      node->duration = src->duration;
      node->set = g_steal_pointer (&src->set);
      node->n_set = src->n_set;
      src->n_set = 0;
      node->worker = g_steal_pointer (&src->worker);
      node->error_code = g_steal_pointer (&src->error_code);
    }
  for (guint i = 0; i < flows->len; i++)
    {
      FlowSrc *src = g_ptr_array_index (flows, i);
      const NodeSrc *from = g_ptr_array_index (nodes, src->from);
      const NodeSrc *to = g_ptr_array_index (nodes, src->to);
      WnFlow *flow = wn_process_add_flow (process, src->id, from->id, to->id, NULL);

      flow->condition = g_steal_pointer (&src->condition);
    }
  for (guint i = 0; i < nodes->len; i++)
    {
      NodeSrc *src = g_ptr_array_index (nodes, i);

      if (src->default_json != NULL)
        wn_process_set_default_flow (process, src->id, json_node_get_string (src->default_json));
      if (src->attached_json != NULL)
        wn_process_set_attached_to (process, src->id, json_node_get_string (src->attached_json));
    }

  if (!wn_process_finish (process, &error))
    {
      report (ctx, root, "", "%s", error->message);
      wn_process_unref (process);
      return NULL;
    }
  return process;
}

static WnProcess *
parse_process (Ctx *ctx, JsonNode *root)
{
  g_autoptr(GPtrArray) nodes = g_ptr_array_new_with_free_func (node_src_free);
  g_autoptr(GPtrArray) flows = g_ptr_array_new_with_free_func (flow_src_free);
  g_autoptr(GHashTable) ids = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_autoptr(GHashTable) node_ids = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) flow_ids = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) status_nodes = g_ptr_array_new ();
  g_autoptr(GPtrArray) status_paths = g_ptr_array_new_with_free_func (g_free);
  StatusRules engine_status = { status_nodes, status_paths };
  WnEngineConfig engine = { 0 };
  g_autoptr(WnScenario) scenario = NULL;
  JsonNode *nodes_json = NULL;
  JsonNode *m;
  const char *id = NULL;
  const char *name = NULL;
  const char *about = NULL;
  JsonObject *variables = NULL;
  gboolean unresolved = FALSE;
  gboolean nodes_ok = TRUE;
  int start = -1;
  guint n_starts = 0;
  guint n_ends = 0;
  WnProcess *process;

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      report (ctx, root, "", "a process must be a JSON object, not %s", type_name (root));
      return NULL;
    }

  if ((m = member (ctx, root, "", "format", TRUE)) != NULL)
    {
      const char *format = expect_string (ctx, m, "format");

      if (format != NULL && strcmp (format, PROCESS_FORMAT) != 0)
        {
          if (strcmp (format, SCENARIO_FORMAT) == 0)
            report (ctx, m, "format", "must be \"" PROCESS_FORMAT "\" (this is a scenario)");
          else
            report (ctx, m, "format", "must be \"" PROCESS_FORMAT "\", not \"%s\"", format);
          return NULL;
        }
    }
  check_keys (ctx, root, "", process_keys, NULL, NULL);

  if ((m = member (ctx, root, "", "id", TRUE)) != NULL)
    id = expect_identifier (ctx, m, "id");
  if ((m = member (ctx, root, "", "name", FALSE)) != NULL)
    name = expect_string (ctx, m, "name");
  if ((m = member (ctx, root, "", "x-about", FALSE)) != NULL && holds_type (m, G_TYPE_STRING))
    about = json_node_get_string (m);
  if ((m = member (ctx, root, "", "variables", FALSE)) != NULL && expect_object (ctx, m, "variables"))
    variables = json_node_get_object (m);
  if ((m = member (ctx, root, "", "engine", FALSE)) != NULL)
    parse_engine (ctx, m, "engine", &engine, &engine_status);

  if ((nodes_json = member (ctx, root, "", "nodes", TRUE)) != NULL)
    {
      JsonArray *array = expect_array (ctx, nodes_json, "nodes");

      if (array == NULL)
        nodes_json = NULL;
      for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
        {
          NodeSrc *src = g_new0 (NodeSrc, 1);

          src->json = json_array_get_element (array, i);
          src->path = path_index ("nodes", i);
          parse_node (ctx, src->json, src, ids);
          if (src->id == NULL || !src->type_ok)
            {
              nodes_ok = FALSE;
              node_src_free (src);
              continue;
            }
          g_ptr_array_add (nodes, src);
          g_hash_table_insert (node_ids, (gpointer) src->id, GUINT_TO_POINTER (nodes->len));
        }
    }
  else
    {
      nodes_ok = FALSE;
    }

  if ((m = member (ctx, root, "", "flows", FALSE)) != NULL)
    {
      JsonArray *array = expect_array (ctx, m, "flows");

      for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
        {
          FlowSrc *src = g_new0 (FlowSrc, 1);
          JsonNode *json = json_array_get_element (array, i);

          src->json = json;
          src->path = path_index ("flows", i);
          parse_flow (ctx, json, src, nodes, node_ids, ids, &unresolved);
          if (src->id == NULL || src->from < 0 || src->to < 0)
            {
              unresolved = TRUE;
              flow_src_free (src);
              continue;
            }
          g_ptr_array_add (flows, src);
        }
    }

  /* Start and end events. */
  for (guint i = 0; i < nodes->len; i++)
    {
      NodeSrc *src = g_ptr_array_index (nodes, i);

      if (src->type == WN_NODE_START)
        {
          n_starts++;
          if (start < 0)
            start = (int) i;
          else
            {
              g_autofree char *p = path_key (src->path, "type");
              NodeSrc *first = g_ptr_array_index (nodes, start);

              report (ctx, json_object_get_member (json_node_get_object (src->json), "type"), p,
                      "a second startEvent (the first is %s; exactly one is allowed)", first->path);
            }
        }
      else if (src->type == WN_NODE_END)
        {
          n_ends++;
        }
    }
  if (nodes_json != NULL && nodes_ok && n_starts == 0)
    report (ctx, nodes_json, "nodes", "no startEvent (exactly one is needed)");
  if (nodes_json != NULL && nodes_ok && n_ends == 0)
    report (ctx, nodes_json, "nodes", "no endEvent (at least one is needed)");

  /* Boundaries and defaults. */
  for (guint k = 0; k < flows->len; k++)
    {
      FlowSrc *f = g_ptr_array_index (flows, k);

      g_hash_table_insert (flow_ids, (gpointer) f->id, f);
    }
  for (guint i = 0; i < nodes->len; i++)
    {
      NodeSrc *src = g_ptr_array_index (nodes, i);

      if (src->attached_json != NULL)
        {
          g_autofree char *p = path_key (src->path, "attachedTo");
          const char *host_id = json_node_get_string (src->attached_json);
          int host = find_node_src (node_ids, host_id);

          if (host < 0)
            {
              report (ctx, src->attached_json, p, "unknown node \"%s\"", host_id);
              unresolved = TRUE;
            }
          else
            {
              const NodeSrc *h = g_ptr_array_index (nodes, host);

              if (h->type != WN_NODE_TASK && h->type != WN_NODE_SCRIPT && h->type != WN_NODE_SERVICE)
                {
                  report (ctx, src->attached_json, p,
                          "a boundaryEvent attaches to a task, scriptTask or serviceTask "
                          "(\"%s\" is %s %s)", host_id, article (wn_node_type_to_string (h->type)),
                          wn_node_type_to_string (h->type));
                  unresolved = TRUE;
                }
            }
          if (host < 0)
            src->attached_json = NULL;
        }

      if (src->default_json != NULL)
        {
          g_autofree char *p = path_key (src->path, "default");
          const char *flow_id = json_node_get_string (src->default_json);
          FlowSrc *flow = g_hash_table_lookup (flow_ids, flow_id);

          if (flow == NULL)
            {
              gboolean is_node = find_node_src (node_ids, flow_id) >= 0;

              if (is_node)
                report (ctx, src->default_json, p, "must name a flow leaving this gateway, "
                        "not a node (\"%s\")", flow_id);
              else if (!g_hash_table_contains (ids, flow_id))
                report (ctx, src->default_json, p, "unknown flow \"%s\"", flow_id);
            }
          else if (flow->from != (int) i)
            {
              report (ctx, src->default_json, p, "flow \"%s\" does not leave this gateway "
                      "(it leaves \"%s\")", flow_id,
                      ((NodeSrc *) g_ptr_array_index (nodes, flow->from))->id);
            }
          else if (flow->condition_json != NULL)
            {
              g_autofree char *cp = path_key (flow->path, "condition");

              report (ctx, flow->condition_json, cp, "the default flow of a gateway takes no condition");
            }
        }
    }

  /* Reachability from the start event (boundaries are reached with their task). */
  if (n_starts == 1 && nodes_ok && !unresolved)
    {
      g_autoptr(GPtrArray) next = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
      g_autofree gboolean *seen = g_new0 (gboolean, nodes->len);
      g_autofree guint *queue = g_new0 (guint, nodes->len + 1);
      guint head = 0;
      guint tail = 0;

      for (guint i = 0; i < nodes->len; i++)
        g_ptr_array_add (next, g_array_new (FALSE, FALSE, sizeof (guint)));
      for (guint k = 0; k < flows->len; k++)
        {
          const FlowSrc *f = g_ptr_array_index (flows, k);
          guint to = (guint) f->to;

          g_array_append_val (g_ptr_array_index (next, f->from), to);
        }
      for (guint k = 0; k < nodes->len; k++)
        {
          const NodeSrc *b = g_ptr_array_index (nodes, k);
          int host;

          if (b->attached_json == NULL)
            continue;
          host = find_node_src (node_ids, json_node_get_string (b->attached_json));
          if (host >= 0)
            g_array_append_val (g_ptr_array_index (next, host), k);
        }

      seen[start] = TRUE;
      queue[tail++] = (guint) start;
      while (head < tail)
        {
          GArray *out = g_ptr_array_index (next, queue[head++]);

          for (guint k = 0; k < out->len; k++)
            {
              guint to = g_array_index (out, guint, k);

              if (!seen[to])
                {
                  seen[to] = TRUE;
                  queue[tail++] = to;
                }
            }
        }

      for (guint i = 0; i < nodes->len; i++)
        {
          const NodeSrc *src = g_ptr_array_index (nodes, i);

          if (!seen[i])
            report (ctx, src->json, src->path, "node \"%s\" is unreachable from the start event", src->id);
        }
    }

  /* An engine-wide mapper with status rules needs every task that uses it to take a status. */
  if (engine_status.nodes->len > 0)
    {
      const NodeSrc *offender = NULL;

      for (guint i = 0; i < nodes->len && offender == NULL; i++)
        {
          const NodeSrc *src = g_ptr_array_index (nodes, i);

          if (src->worker != NULL && src->worker->policy.mapper == NULL && src->worker->status_var == NULL)
            offender = src;
        }
      for (guint i = 0; offender != NULL && i < engine_status.nodes->len; i++)
        report (ctx, g_ptr_array_index (engine_status.nodes, i), g_ptr_array_index (engine_status.paths, i),
                "a status rule, but task \"%s\" uses this mapper and has no worker.status", offender->id);
    }

  if ((m = member (ctx, root, "", "scenario", FALSE)) != NULL)
    scenario = parse_scenario (ctx, m, "scenario", TRUE);

  if (n_errors (ctx) > 0 || id == NULL)
    {
      wn_engine_config_clear (&engine);
      return NULL;
    }

  process = build_process (ctx, root, id, nodes, flows);
  if (process == NULL)
    {
      wn_engine_config_clear (&engine);
      return NULL;
    }
  process->name = g_strdup (name);
  process->about = g_strdup (about);
  if (variables != NULL)
    {
      json_object_unref (process->variables);
      process->variables = wn_json_object_deep_copy (variables);
    }
  process->engine = engine;
  process->scenario = g_steal_pointer (&scenario);
  return process;
}

/* ---- scenario ----------------------------------------------------------- */

static gboolean
parse_attempts (Ctx *ctx, JsonNode *node, const char *path, guint *lo, guint *hi)
{
  const char *s = expect_string (ctx, node, path);
  g_auto(GStrv) parts = NULL;
  guint64 a = 0;
  guint64 b = 0;
  gsize len;

  if (s == NULL)
    return FALSE;
  len = strlen (s);

  if (len > 1 && s[len - 1] == '+')
    {
      g_autofree char *head = g_strndup (s, len - 1);

      if (g_ascii_string_to_unsigned (head, 10, 1, G_MAXUINT - 1, &a, NULL))
        {
          *lo = (guint) a;
          *hi = G_MAXUINT;
          return TRUE;
        }
    }
  else if (strchr (s, '-') != NULL)
    {
      parts = g_strsplit (s, "-", 2);
      if (g_ascii_string_to_unsigned (parts[0], 10, 1, G_MAXUINT - 1, &a, NULL) &&
          g_ascii_string_to_unsigned (parts[1], 10, 1, G_MAXUINT - 1, &b, NULL))
        {
          if (b < a)
            {
              report (ctx, node, path, "the range \"%s\" is empty", s);
              return FALSE;
            }
          *lo = (guint) a;
          *hi = (guint) b;
          return TRUE;
        }
    }
  else if (g_ascii_string_to_unsigned (s, 10, 1, G_MAXUINT - 1, &a, NULL))
    {
      *lo = *hi = (guint) a;
      return TRUE;
    }

  report (ctx, node, path, "\"%s\" is not an attempt selector (expected \"N\", \"N-M\" or \"N+\", N ≥ 1)", s);
  return FALSE;
}

static WnResponse *
parse_response (Ctx *ctx, JsonNode *node, const char *path, ResponseMode mode)
{
  static const char * const scripted_keys[] = {
    "attempts", "when", "after", "complete", "fail", "workerError", "crash", "hang", "random", NULL
  };
  static const char * const choice_keys[] = {
    "p", "after", "complete", "fail", "workerError", "crash", "hang", NULL
  };
  static const char * const injected_keys[] = {
    "after", "complete", "fail", "workerError", "crash", "hang", "random", NULL
  };
  const char * const *allowed;
  const char *what;
  WnResponse *response;
  const char * const *keys;
  const char *outcome = NULL;
  JsonNode *outcome_node = NULL;
  g_autofree char *outcome_path = NULL;
  guint n_keys = 0;
  JsonNode *m;
  guint before = n_errors (ctx);

  if (!expect_object (ctx, node, path))
    return NULL;

  switch (mode)
    {
    case RESPONSE_CHOICE:
      allowed = choice_keys;
      what = "a random choice";
      break;
    case RESPONSE_INJECTED:
      allowed = injected_keys;
      what = "an injected response";
      break;
    case RESPONSE_SCRIPTED:
    default:
      allowed = scripted_keys;
      what = "a worker's response";
      break;
    }
  check_keys (ctx, node, path, allowed, response_keys_all, what);

  /* The outcome: exactly one. */
  keys = wn_json_doc_get_keys (ctx->doc, json_node_get_object (node), &n_keys);
  for (guint i = 0; i < n_keys; i++)
    {
      if (!in_list (response_outcomes, keys[i]) || !in_list (allowed, keys[i]))
        continue;
      if (outcome == NULL)
        {
          outcome = keys[i];
          outcome_node = json_object_get_member (json_node_get_object (node), keys[i]);
          outcome_path = path_key (path, keys[i]);
        }
      else
        {
          g_autofree char *p = path_key (path, keys[i]);

          report (ctx, json_object_get_member (json_node_get_object (node), keys[i]), p,
                  "a response has exactly one outcome (it already has %s)", outcome);
        }
    }
  if (outcome == NULL)
    {
      report (ctx, node, path, mode == RESPONSE_CHOICE
              ? "a response needs exactly one of complete, fail, workerError, crash or hang"
              : "a response needs exactly one of complete, fail, workerError, crash, hang or random");
      return NULL;
    }

  if (strcmp (outcome, "complete") == 0)
    {
      response = wn_response_new (WN_RESPONSE_COMPLETE);
      response->body = wn_json_node_deep_copy (outcome_node);
    }
  else if (strcmp (outcome, "fail") == 0)
    {
      response = wn_response_new (WN_RESPONSE_FAIL);
      if (expect_object (ctx, outcome_node, outcome_path))
        {
          check_keys (ctx, outcome_node, outcome_path, fail_keys, NULL, NULL);
          if ((m = member (ctx, outcome_node, outcome_path, "code", FALSE)) != NULL)
            {
              g_autofree char *p = path_key (outcome_path, "code");

              response->code = expect_code (ctx, m, p);
            }
          if ((m = member (ctx, outcome_node, outcome_path, "body", FALSE)) != NULL)
            response->body = wn_json_node_deep_copy (m);
          if ((m = member (ctx, outcome_node, outcome_path, "message", FALSE)) != NULL)
            {
              g_autofree char *p = path_key (outcome_path, "message");

              response->message = g_strdup (expect_string (ctx, m, p));
            }
        }
    }
  else if (strcmp (outcome, "workerError") == 0)
    {
      response = wn_response_new (WN_RESPONSE_WORKER_ERROR);
      if (expect_object (ctx, outcome_node, outcome_path))
        {
          static const char * const kinds[] = { "bpmnErrorCode", "status", "cause", NULL };
          const char *kind = NULL;

          check_keys (ctx, outcome_node, outcome_path, worker_error_keys, NULL, NULL);
          keys = wn_json_doc_get_keys (ctx->doc, json_node_get_object (outcome_node), &n_keys);
          for (guint i = 0; i < n_keys; i++)
            {
              g_autofree char *p = NULL;

              if (!in_list (kinds, keys[i]))
                continue;
              m = json_object_get_member (json_node_get_object (outcome_node), keys[i]);
              p = path_key (outcome_path, keys[i]);
              if (kind != NULL)
                {
                  report (ctx, m, p, "a workerError has exactly one of bpmnErrorCode, status or cause "
                          "(it already has %s)", kind);
                  continue;
                }
              kind = keys[i];
              if (strcmp (kind, "bpmnErrorCode") == 0)
                response->bpmn_code = g_strdup (expect_nonempty (ctx, m, p));
              else if (strcmp (kind, "status") == 0)
                response->status = wn_json_node_deep_copy (m);
              else
                response->cause = g_strdup (expect_string (ctx, m, p));
            }
          if (kind == NULL)
            report (ctx, outcome_node, outcome_path,
                    "a workerError needs exactly one of bpmnErrorCode, status or cause");
          if ((m = member (ctx, outcome_node, outcome_path, "message", FALSE)) != NULL)
            {
              g_autofree char *p = path_key (outcome_path, "message");

              response->message = g_strdup (expect_string (ctx, m, p));
            }
        }
    }
  else if (strcmp (outcome, "crash") == 0)
    {
      response = wn_response_new (WN_RESPONSE_CRASH);
      expect_true (ctx, outcome_node, outcome_path);
    }
  else if (strcmp (outcome, "hang") == 0)
    {
      response = wn_response_new (WN_RESPONSE_HANG);
      if (JSON_NODE_HOLDS_OBJECT (outcome_node))
        response->body = wn_json_node_deep_copy (outcome_node);
      else if (!holds_type (outcome_node, G_TYPE_BOOLEAN) || !json_node_get_boolean (outcome_node))
        report (ctx, outcome_node, outcome_path,
                "must be true or an object (the body reported late)");
    }
  else
    {
      JsonArray *array;

      response = wn_response_new (WN_RESPONSE_RANDOM);
      array = expect_array (ctx, outcome_node, outcome_path);
      if (array != NULL && json_array_get_length (array) == 0)
        report (ctx, outcome_node, outcome_path, "must not be empty");
      if (array != NULL)
        {
          guint n = json_array_get_length (array);

          response->choices = g_new0 (WnChoice, n + 1);
          for (guint i = 0; i < n; i++)
            {
              JsonNode *choice = json_array_get_element (array, i);
              g_autofree char *cp = path_index (outcome_path, i);
              WnResponse *inner;
              double p = 0;

              if (!expect_object (ctx, choice, cp))
                continue;
              if ((m = member (ctx, choice, cp, "p", TRUE)) != NULL)
                {
                  g_autofree char *pp = path_key (cp, "p");

                  if (!holds_number (m))
                    report (ctx, m, pp, "must be a number > 0, not %s", type_name (m));
                  else if (!((p = json_node_get_double (m)) > 0) || !isfinite (p))
                    report (ctx, m, pp, "must be a number > 0");
                }
              inner = parse_response (ctx, choice, cp, RESPONSE_CHOICE);
              if (inner == NULL)
                continue;
              response->choices[response->n_choices].p = p;
              response->choices[response->n_choices].response = inner;
              response->n_choices++;
            }
        }
      if ((m = member (ctx, node, path, "after", FALSE)) != NULL)
        {
          g_autofree char *p = path_key (path, "after");

          report (ctx, m, p, "a random response takes no after (give each choice its own)");
        }
    }

  if (mode == RESPONSE_SCRIPTED && (m = member (ctx, node, path, "attempts", FALSE)) != NULL)
    {
      g_autofree char *p = path_key (path, "attempts");

      parse_attempts (ctx, m, p, &response->attempts_lo, &response->attempts_hi);
    }
  if (mode == RESPONSE_SCRIPTED && (m = member (ctx, node, path, "when", FALSE)) != NULL)
    {
      g_autofree char *p = path_key (path, "when");

      response->when = expect_lite (ctx, m, p);
    }
  if (response->kind != WN_RESPONSE_RANDOM && (m = member (ctx, node, path, "after", FALSE)) != NULL)
    {
      g_autofree char *p = path_key (path, "after");

      expect_duration (ctx, m, p, FALSE, &response->after);
    }

  if (n_errors (ctx) != before)
    {
      wn_response_unref (response);
      return NULL;
    }
  return response;
}

static void
parse_worker_config (Ctx *ctx, JsonNode *node, const char *path, WnScenario *scenario, GHashTable *ids)
{
  const char *id = NULL;
  const char *topic = NULL;
  gboolean has_lock = FALSE;
  WnTime lock = 0;
  guint concurrency = 1;
  g_autoptr(GPtrArray) responses = g_ptr_array_new_with_free_func ((GDestroyNotify) wn_response_unref);
  WnWorkerConfig *worker;
  JsonNode *m;

  if (!expect_object (ctx, node, path))
    return;
  check_keys (ctx, node, path, worker_config_keys, NULL, NULL);

  if ((m = member (ctx, node, path, "id", TRUE)) != NULL)
    {
      g_autofree char *p = path_key (path, "id");

      id = expect_identifier (ctx, m, p);
      if (id != NULL)
        {
          const char *first = g_hash_table_lookup (ids, id);

          if (first != NULL)
            report (ctx, m, p, "duplicate worker id \"%s\" (first used at %s)", id, first);
          else
            g_hash_table_insert (ids, (gpointer) id, g_steal_pointer (&p));
        }
    }
  if ((m = member (ctx, node, path, "topic", TRUE)) != NULL)
    {
      g_autofree char *p = path_key (path, "topic");

      topic = expect_identifier (ctx, m, p);
    }
  if ((m = member (ctx, node, path, "lockDuration", FALSE)) != NULL)
    {
      g_autofree char *p = path_key (path, "lockDuration");

      has_lock = expect_duration (ctx, m, p, TRUE, &lock);
    }
  if ((m = member (ctx, node, path, "concurrency", FALSE)) != NULL)
    {
      g_autofree char *p = path_key (path, "concurrency");

      expect_uint (ctx, m, p, 1, &concurrency);
    }
  if ((m = member (ctx, node, path, "responses", TRUE)) != NULL)
    {
      g_autofree char *p = path_key (path, "responses");
      JsonArray *array = expect_array (ctx, m, p);

      if (array != NULL && json_array_get_length (array) == 0)
        report (ctx, m, p, "must not be empty (a worker needs at least one response)");
      for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
        {
          g_autofree char *rp = path_index (p, i);
          WnResponse *r = parse_response (ctx, json_array_get_element (array, i), rp, RESPONSE_SCRIPTED);

          if (r != NULL)
            g_ptr_array_add (responses, r);
        }
    }

  if (id == NULL || topic == NULL)
    return;

  worker = wn_scenario_add_worker (scenario, id, topic);
  worker->has_lock_duration = has_lock;
  worker->lock_duration = lock;
  worker->concurrency = concurrency;
  for (guint i = 0; i < responses->len; i++)
    g_ptr_array_add (worker->responses, wn_response_ref (g_ptr_array_index (responses, i)));
}

static const char * const command_keys[] = {
  "after", "at", "op", "variables", "topic", "worker", "next", "trust", "node", "instance", "phase", "action", NULL
};

/* "x-winnow": { "commands": [...] } — an operator's commands saved with a session,
 * replayed exactly (docs/decisions.md). */
static void
parse_commands (Ctx *ctx, JsonNode *xw, const char *prefix, WnScenario *scenario)
{
  g_autofree char *xp = path_key (prefix, "x-winnow");
  g_autofree char *cp = path_key (xp, "commands");
  JsonNode *list;
  JsonArray *array;
  guint64 last_after = 0;

  if (!expect_object (ctx, xw, xp))
    return;
  list = json_object_get_member (json_node_get_object (xw), "commands");
  if (list == NULL)
    return;
  array = expect_array (ctx, list, cp);
  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      JsonNode *entry = json_array_get_element (array, i);
      g_autofree char *ep = path_index (cp, i);
      WnCommand *command;
      WnCommandKind kind;
      const char *op;
      JsonNode *v;
      WnTime at = 0;
      gint64 after = 0;
      gboolean ok = TRUE;

      if (!expect_object (ctx, entry, ep))
        continue;
      check_keys (ctx, entry, ep, command_keys, NULL, NULL);
      if ((v = member (ctx, entry, ep, "after", TRUE)) != NULL)
        {
          g_autofree char *vp = path_key (ep, "after");
          if (!holds_type (v, G_TYPE_INT64) || (after = json_node_get_int (v)) < 0 || (guint64) after < last_after)
            {
              report (ctx, v, vp, "must be a non-negative integer, not smaller than the previous command's");
              ok = FALSE;
            }
          else
            last_after = (guint64) after;
        }
      if ((v = member (ctx, entry, ep, "at", TRUE)) != NULL)
        {
          g_autofree char *vp = path_key (ep, "at");
          ok = expect_duration (ctx, v, vp, FALSE, &at) && ok;
        }
      if ((v = member (ctx, entry, ep, "op", TRUE)) == NULL)
        continue;
      {
        g_autofree char *vp = path_key (ep, "op");
        op = expect_string (ctx, v, vp);
        if (op == NULL)
          continue;
        if (!wn_command_kind_from_string (op, &kind))
          {
            report (ctx, v, vp, "unknown command \"%s\"", op);
            continue;
          }
      }
      command = wn_command_new (kind, (guint64) after, at);
#define STRING_FIELD(key, field, required)                                      \
      if ((v = member (ctx, entry, ep, key, required)) != NULL)                 \
        {                                                                       \
          g_autofree char *fp = path_key (ep, key);                             \
          const char *text = expect_nonempty (ctx, v, fp);                      \
          if (text == NULL)                                                     \
            ok = FALSE;                                                         \
          command->field = g_strdup (text);                                     \
        }                                                                       \
      else if (required)                                                        \
        ok = FALSE;
      switch (kind)
        {
        case WN_COMMAND_START:
          if ((v = member (ctx, entry, ep, "variables", FALSE)) != NULL)
            {
              g_autofree char *fp = path_key (ep, "variables");
              if (expect_object (ctx, v, fp))
                command->variables = wn_json_object_deep_copy (json_node_get_object (v));
              else
                ok = FALSE;
            }
          break;
        case WN_COMMAND_INJECT:
          if (json_object_has_member (json_node_get_object (entry), "topic"))
            {
              STRING_FIELD ("topic", topic, TRUE)
            }
          else
            {
              STRING_FIELD ("worker", worker, TRUE)
            }
          if ((v = member (ctx, entry, ep, "next", TRUE)) != NULL)
            {
              g_autofree char *fp = path_key (ep, "next");
              command->response = parse_response (ctx, v, fp, RESPONSE_INJECTED);
            }
          ok = ok && command->response != NULL;
          break;
        case WN_COMMAND_TRUST_DEFAULT:
        case WN_COMMAND_TASK_TRUST:
          if (kind == WN_COMMAND_TASK_TRUST)
            {
              STRING_FIELD ("node", node, TRUE)
            }
          if ((v = member (ctx, entry, ep, "trust", TRUE)) != NULL)
            {
              g_autofree char *fp = path_key (ep, "trust");
              const char *text = expect_string (ctx, v, fp);
              if (kind == WN_COMMAND_TASK_TRUST && g_strcmp0 (text, "inherit") == 0)
                command->trust = WN_TRUST_UNSET;
              else if (text == NULL || !wn_trust_from_string (text, &command->trust))
                {
                  if (text != NULL)
                    report (ctx, v, fp, "must be workerTrusted or engineAuthoritative%s",
                            kind == WN_COMMAND_TASK_TRUST ? " or inherit" : "");
                  ok = FALSE;
                }
            }
          else
            ok = FALSE;
          break;
        case WN_COMMAND_INCIDENT_RETRY:
        case WN_COMMAND_INCIDENT_RESOLVE:
          STRING_FIELD ("instance", instance, TRUE)
          STRING_FIELD ("node", node, FALSE)
          break;
        case WN_COMMAND_CANCEL:
          STRING_FIELD ("instance", instance, TRUE)
          break;
        case WN_COMMAND_CLOCK:
          if ((v = member (ctx, entry, ep, "phase", TRUE)) != NULL)
            {
              g_autofree char *fp = path_key (ep, "phase");
              const char *text = expect_string (ctx, v, fp);
              WnEventPhase phase;
              if (text == NULL || !wn_event_phase_from_string (text, &phase) ||
                  (phase != WN_PH_PAUSED && phase != WN_PH_RESUMED && phase != WN_PH_STEPPED))
                {
                  if (text != NULL)
                    report (ctx, v, fp, "must be paused, resumed or stepped");
                  ok = FALSE;
                }
              else
                command->phase = phase;
            }
          else
            ok = FALSE;
          STRING_FIELD ("action", action, FALSE)
          break;
        default:
          g_assert_not_reached ();
        }
#undef STRING_FIELD
      if (ok)
        g_ptr_array_add (scenario->commands, command);
      else
        wn_command_free (command);
    }
}

static WnScenario *
parse_scenario (Ctx *ctx, JsonNode *root, const char *prefix, gboolean embedded)
{
  g_autoptr(WnScenario) scenario = NULL;
  g_autoptr(GHashTable) worker_ids = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  JsonNode *m;
  JsonNode *faults_json = NULL;
  guint before = n_errors (ctx);

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      if (embedded)
        report (ctx, root, prefix, "must be an object, not %s", type_name (root));
      else
        report (ctx, root, prefix, "a scenario must be a JSON object, not %s", type_name (root));
      return NULL;
    }

  if ((m = member (ctx, root, prefix, "format", !embedded)) != NULL)
    {
      g_autofree char *p = path_key (prefix, "format");
      const char *format = expect_string (ctx, m, p);

      if (format != NULL && strcmp (format, SCENARIO_FORMAT) != 0)
        {
          if (strcmp (format, PROCESS_FORMAT) == 0)
            report (ctx, m, p, "must be \"" SCENARIO_FORMAT "\" (this is a process)");
          else
            report (ctx, m, p, "must be \"" SCENARIO_FORMAT "\", not \"%s\"", format);
          return NULL;
        }
    }
  check_keys (ctx, root, prefix, scenario_keys, NULL, NULL);

  scenario = wn_scenario_new ();

  if ((m = member (ctx, root, prefix, "seed", FALSE)) != NULL)
    {
      g_autofree char *p = path_key (prefix, "seed");

      if (holds_type (m, G_TYPE_INT64) && json_node_get_int (m) >= 0)
        {
          scenario->has_seed = TRUE;
          scenario->seed = (guint64) json_node_get_int (m);
        }
      else
        {
          report (ctx, m, p, "must be a non-negative integer");
        }
    }
  if ((m = member (ctx, root, prefix, "engine", FALSE)) != NULL)
    {
      g_autofree char *p = path_key (prefix, "engine");

      parse_engine (ctx, m, p, &scenario->engine, NULL);
    }
  if ((m = member (ctx, root, prefix, "start", FALSE)) != NULL)
    {
      g_autofree char *p = path_key (prefix, "start");
      JsonArray *array = expect_array (ctx, m, p);

      scenario->has_start = TRUE;
      for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
        {
          JsonNode *entry = json_array_get_element (array, i);
          g_autofree char *ep = path_index (p, i);
          WnTime at = 0;
          guint count = 1;
          JsonObject *variables = NULL;
          JsonNode *v;

          if (!expect_object (ctx, entry, ep))
            continue;
          check_keys (ctx, entry, ep, start_keys, NULL, NULL);
          if ((v = member (ctx, entry, ep, "at", FALSE)) != NULL)
            {
              g_autofree char *vp = path_key (ep, "at");

              expect_duration (ctx, v, vp, FALSE, &at);
            }
          if ((v = member (ctx, entry, ep, "count", FALSE)) != NULL)
            {
              g_autofree char *vp = path_key (ep, "count");

              expect_uint (ctx, v, vp, 1, &count);
            }
          if ((v = member (ctx, entry, ep, "variables", FALSE)) != NULL)
            {
              g_autofree char *vp = path_key (ep, "variables");

              if (expect_object (ctx, v, vp))
                variables = wn_json_object_deep_copy (json_node_get_object (v));
            }
          wn_scenario_add_start (scenario, at, count, variables);
          g_clear_pointer (&variables, json_object_unref);
        }
    }
  if ((m = member (ctx, root, prefix, "workers", FALSE)) != NULL)
    {
      g_autofree char *p = path_key (prefix, "workers");
      JsonArray *array = expect_array (ctx, m, p);

      for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
        {
          g_autofree char *wp = path_index (p, i);

          parse_worker_config (ctx, json_array_get_element (array, i), wp, scenario, worker_ids);
        }
    }
  if ((faults_json = member (ctx, root, prefix, "faults", FALSE)) != NULL)
    {
      g_autofree char *p = path_key (prefix, "faults");
      JsonArray *array = expect_array (ctx, faults_json, p);

      for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
        {
          JsonNode *entry = json_array_get_element (array, i);
          g_autofree char *fp = path_index (p, i);
          g_autoptr(WnResponse) next = NULL;
          const char *topic = NULL;
          const char *worker = NULL;
          JsonNode *topic_json;
          JsonNode *worker_json;
          WnTime at = 0;
          JsonNode *v;

          if (!expect_object (ctx, entry, fp))
            continue;
          check_keys (ctx, entry, fp, fault_keys, NULL, NULL);
          if ((v = member (ctx, entry, fp, "at", FALSE)) != NULL)
            {
              g_autofree char *vp = path_key (fp, "at");

              expect_duration (ctx, v, vp, FALSE, &at);
            }
          topic_json = member (ctx, entry, fp, "topic", FALSE);
          worker_json = member (ctx, entry, fp, "worker", FALSE);
          if (topic_json != NULL && worker_json != NULL)
            {
              g_autofree char *vp = path_key (fp, "worker");

              report (ctx, worker_json, vp, "a fault names a topic or a worker, not both");
            }
          else if (topic_json != NULL)
            {
              g_autofree char *vp = path_key (fp, "topic");

              topic = expect_identifier (ctx, topic_json, vp);
            }
          else if (worker_json != NULL)
            {
              g_autofree char *vp = path_key (fp, "worker");

              worker = expect_identifier (ctx, worker_json, vp);
              if (worker != NULL && !g_hash_table_contains (worker_ids, worker))
                {
                  report (ctx, worker_json, vp, "unknown worker \"%s\"", worker);
                  worker = NULL;
                }
            }
          else
            {
              report (ctx, entry, fp, "a fault needs a \"topic\" or a \"worker\"");
            }
          if ((v = member (ctx, entry, fp, "next", TRUE)) != NULL)
            {
              g_autofree char *vp = path_key (fp, "next");

              next = parse_response (ctx, v, vp, RESPONSE_INJECTED);
            }
          if (next != NULL && (topic != NULL || worker != NULL))
            wn_scenario_add_fault (scenario, at, topic, worker, next);
        }
    }
  if (json_object_has_member (json_node_get_object (root), "x-winnow"))
    parse_commands (ctx, json_object_get_member (json_node_get_object (root), "x-winnow"), prefix, scenario);

  if (n_errors (ctx) != before)
    return NULL;
  scenario->source = json_node_copy (root);
  return g_steal_pointer (&scenario);
}

/* ---- entry points ------------------------------------------------------- */

static gint
compare_diag (gconstpointer a, gconstpointer b)
{
  const WnDiagnostic *x = *(WnDiagnostic * const *) a;
  const WnDiagnostic *y = *(WnDiagnostic * const *) b;

  if (x->line != y->line)
    return x->line < y->line ? -1 : 1;
  if (x->column != y->column)
    return x->column < y->column ? -1 : 1;
  return 0;
}

/* Hand the collected problems out (sorted, capped); always frees ctx->diags. */
static void
fail_with_diags (Ctx *ctx, int code, GPtrArray **diagnostics, GError **error)
{
  GString *message = g_string_new (NULL);
  guint extra;

  g_ptr_array_sort (ctx->diags, compare_diag);
  extra = ctx->dropped;
  if (ctx->diags->len > WN_LOAD_MAX_ERRORS)
    {
      extra += ctx->diags->len - WN_LOAD_MAX_ERRORS;
      g_ptr_array_set_size (ctx->diags, WN_LOAD_MAX_ERRORS);
    }

  for (guint i = 0; i < ctx->diags->len; i++)
    {
      g_autofree char *line = wn_diagnostic_format (g_ptr_array_index (ctx->diags, i));

      if (i > 0)
        g_string_append_c (message, '\n');
      g_string_append (message, line);
    }
  if (extra > 0)
    g_string_append_printf (message, "\n%s: %u more error%s not shown", ctx->file, extra,
                            extra == 1 ? "" : "s");

  g_set_error_literal (error, WN_LOAD_ERROR, code, message->str);
  g_string_free (message, TRUE);

  if (diagnostics != NULL)
    *diagnostics = g_steal_pointer (&ctx->diags);
  else
    g_clear_pointer (&ctx->diags, g_ptr_array_unref);
}

static gboolean
ctx_init (Ctx *ctx, const char *data, gssize length, const char *display_name,
          GPtrArray **diagnostics, GError **error)
{
  g_autoptr(GError) json_error = NULL;
  WnJsonPos pos = { 0 };

  memset (ctx, 0, sizeof *ctx);
  ctx->file = display_name != NULL ? display_name : "<data>";
  ctx->diags = g_ptr_array_new_with_free_func ((GDestroyNotify) wn_diagnostic_free);

  if (diagnostics != NULL)
    *diagnostics = NULL;

  ctx->doc = wn_json_doc_parse (data != NULL ? data : "", data != NULL ? length : 0, &pos, &json_error);
  if (ctx->doc == NULL)
    {
      add_diag (ctx, &pos, "", g_strdup (json_error->message));
      fail_with_diags (ctx, WN_LOAD_ERROR_SYNTAX, diagnostics, error);
      return FALSE;
    }
  return TRUE;
}

/* Finish a load: NULL result or collected problems → failure. */
static gboolean
ctx_finish (Ctx *ctx, gboolean ok, GPtrArray **diagnostics, GError **error)
{
  g_clear_pointer (&ctx->doc, wn_json_doc_free);

  if (ok && n_errors (ctx) == 0)
    {
      g_clear_pointer (&ctx->diags, g_ptr_array_unref);
      return TRUE;
    }

  if (ctx->diags->len == 0 && ctx->dropped == 0)
    add_diag (ctx, NULL, "", g_strdup ("the document is not valid"));
  fail_with_diags (ctx, WN_LOAD_ERROR_INVALID, diagnostics, error);
  return FALSE;
}

static char *
read_file (const char *filename, GPtrArray **diagnostics, GError **error, gsize *length)
{
  g_autoptr(GError) io_error = NULL;
  char *contents = NULL;

  if (diagnostics != NULL)
    *diagnostics = NULL;

  if (!g_file_get_contents (filename, &contents, length, &io_error))
    {
      WnDiagnostic *d = g_new0 (WnDiagnostic, 1);

      d->file = g_strdup (filename);
      d->path = g_strdup ("");
      d->message = g_strdup_printf ("cannot read the file: %s", io_error->message);
      g_set_error (error, WN_LOAD_ERROR, WN_LOAD_ERROR_IO, "%s: %s", filename, d->message);
      if (diagnostics != NULL)
        {
          *diagnostics = g_ptr_array_new_with_free_func ((GDestroyNotify) wn_diagnostic_free);
          g_ptr_array_add (*diagnostics, d);
        }
      else
        {
          wn_diagnostic_free (d);
        }
      return NULL;
    }
  return contents;
}

void
wn_diagnostic_free (WnDiagnostic *d)
{
  if (d == NULL)
    return;
  g_free (d->file);
  g_free (d->path);
  g_free (d->message);
  g_free (d);
}

char *
wn_diagnostic_format (const WnDiagnostic *d)
{
  g_return_val_if_fail (d != NULL, NULL);

  if (d->line == 0)
    {
      if (d->path == NULL || *d->path == '\0')
        return g_strdup_printf ("%s: %s", d->file, d->message);
      return g_strdup_printf ("%s: %s: %s", d->file, d->path, d->message);
    }
  if (d->path == NULL || *d->path == '\0')
    return g_strdup_printf ("%s:%u:%u: %s", d->file, d->line, d->column, d->message);
  return g_strdup_printf ("%s:%u:%u: %s: %s", d->file, d->line, d->column, d->path, d->message);
}

WnProcess *
wn_load_process_data (const char  *data,
                      gssize       length,
                      const char  *display_name,
                      GPtrArray  **diagnostics,
                      GError     **error)
{
  Ctx ctx;
  WnProcess *process;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!ctx_init (&ctx, data, length, display_name, diagnostics, error))
    return NULL;

  process = parse_process (&ctx, wn_json_doc_get_root (ctx.doc));
  if (!ctx_finish (&ctx, process != NULL, diagnostics, error))
    {
      g_clear_pointer (&process, wn_process_unref);
      return NULL;
    }
  process->filename = g_strdup (display_name);
  if (process->scenario != NULL && process->scenario->filename == NULL)
    process->scenario->filename = g_strdup (display_name);
  return process;
}

WnProcess *
wn_load_process_file (const char *filename, GPtrArray **diagnostics, GError **error)
{
  g_autofree char *contents = NULL;
  gsize length = 0;

  g_return_val_if_fail (filename != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  contents = read_file (filename, diagnostics, error, &length);
  if (contents == NULL)
    return NULL;
  return wn_load_process_data (contents, (gssize) length, filename, diagnostics, error);
}

WnScenario *
wn_load_scenario_data (const char  *data,
                       gssize       length,
                       const char  *display_name,
                       GPtrArray  **diagnostics,
                       GError     **error)
{
  Ctx ctx;
  WnScenario *scenario;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!ctx_init (&ctx, data, length, display_name, diagnostics, error))
    return NULL;

  scenario = parse_scenario (&ctx, wn_json_doc_get_root (ctx.doc), "", FALSE);
  if (!ctx_finish (&ctx, scenario != NULL, diagnostics, error))
    {
      g_clear_pointer (&scenario, wn_scenario_unref);
      return NULL;
    }
  scenario->filename = g_strdup (display_name);
  return scenario;
}

WnScenario *
wn_load_scenario_file (const char *filename, GPtrArray **diagnostics, GError **error)
{
  g_autofree char *contents = NULL;
  gsize length = 0;

  g_return_val_if_fail (filename != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  contents = read_file (filename, diagnostics, error, &length);
  if (contents == NULL)
    return NULL;
  return wn_load_scenario_data (contents, (gssize) length, filename, diagnostics, error);
}

WnResponse *
wn_load_response_data (const char  *data,
                       gssize       length,
                       const char  *display_name,
                       GPtrArray  **diagnostics,
                       GError     **error)
{
  Ctx ctx;
  WnResponse *response;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!ctx_init (&ctx, data, length, display_name, diagnostics, error))
    return NULL;

  response = parse_response (&ctx, wn_json_doc_get_root (ctx.doc), "", RESPONSE_INJECTED);
  if (!ctx_finish (&ctx, response != NULL, diagnostics, error))
    {
      g_clear_pointer (&response, wn_response_unref);
      return NULL;
    }
  return response;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-scenario-loader.c — read winnow.scenario/1 documents (wn-loader.h), a
 * process's embedded scenario, and single responses: workers, their scripted
 * responses, faults and the operator's saved commands. */
#include "wn-loader-private.h"

#include "wn-journal.h"

#include <math.h>
#include <string.h>

typedef enum {
  RESPONSE_SCRIPTED,     /* a worker's responses[] */
  RESPONSE_CHOICE,       /* an entry of random[] */
  RESPONSE_INJECTED,     /* a fault's next, or wn_load_response_data() */
} ResponseMode;

static const char * const scenario_keys[] = {
  "format", "seed", "engine", "start", "workers", "faults", "userTasks", "messages", "epoch", "people", "decisions", NULL
};
static const char * const start_keys[] = { "at", "count", "variables", NULL };
static const char * const worker_config_keys[] = {
  "id", "topic", "lockDuration", "concurrency", "responses", NULL
};
static const char * const fault_keys[] = { "at", "topic", "worker", "next", NULL };
static const char * const user_task_keys[] = { "node", "when", "after", "by", "complete", "bpmnError", NULL };
static const char * const people_keys[] = { "id", "count", "duration", NULL };
static const char * const distribution_keys[] = { "uniform", "exponential", "lognormal", NULL };
static const char * const lognormal_keys[] = { "median", "sigma", NULL };
static const char * const user_error_keys[] = { "code", "message", NULL };
static const char * const message_keys[] = { "at", "name", "key", "variables", "ttl", NULL };
static const char * const response_keys_all[] = {
  "attempts", "when", "after", "p",
  "complete", "fail", "workerError", "crash", "hang", "random", NULL
};
static const char * const response_outcomes[] = {
  "complete", "fail", "workerError", "crash", "hang", "random", NULL
};
static const char * const fail_keys[] = { "code", "body", "message", NULL };
static const char * const worker_error_keys[] = { "bpmnErrorCode", "status", "cause", "message", NULL };

static gboolean
parse_attempts (WnCheck *ctx, JsonNode *node, const char *path, guint *lo, guint *hi)
{
  const char *s = _wn_check_string (ctx, node, path);
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
              _wn_check_report (ctx, node, path, "the range \"%s\" is empty", s);
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

  _wn_check_report (ctx, node, path, "\"%s\" is not an attempt selector (expected \"N\", \"N-M\" or \"N+\", N ≥ 1)", s);
  return FALSE;
}

/* {"fail": {...}}, built once it checks out. */
static WnResponse *
parse_fail (WnCheck *ctx, JsonNode *node, const char *path)
{
  g_autofree char *code = NULL;
  JsonNode *body = NULL;
  const char *message = NULL;
  guint before = _wn_check_n_errors (ctx);

  if (!_wn_check_object (ctx, node, path))
    return NULL;
  _wn_check_keys (ctx, node, path, fail_keys, NULL, NULL);
  code = _wn_check_member_code (ctx, node, path, "code", FALSE);
  body = _wn_check_member (ctx, node, path, "body", FALSE);
  message = _wn_check_member_string (ctx, node, path, "message", FALSE);
  if (_wn_check_n_errors (ctx) != before)
    return NULL;
  return wn_response_new_fail (code, body, message);
}

/* {"workerError": {...}}: exactly one of bpmnErrorCode, status or cause. */
static WnResponse *
parse_worker_error (WnCheck *ctx, JsonNode *node, const char *path)
{
  static const char * const kinds[] = { "bpmnErrorCode", "status", "cause", NULL };
  const char * const *keys;
  const char *kind = NULL;
  JsonNode *value = NULL;
  const char *text = NULL;
  const char *message = NULL;
  guint n_keys = 0;
  JsonNode *m;
  guint before = _wn_check_n_errors (ctx);

  if (!_wn_check_object (ctx, node, path))
    return NULL;
  _wn_check_keys (ctx, node, path, worker_error_keys, NULL, NULL);
  keys = wn_json_doc_get_keys (ctx->doc, json_node_get_object (node), &n_keys);
  for (guint i = 0; i < n_keys; i++)
    {
      g_autofree char *p = NULL;

      if (!_wn_check_in_list (kinds, keys[i]))
        continue;
      m = json_object_get_member (json_node_get_object (node), keys[i]);
      p = _wn_check_path_key (path, keys[i]);
      if (kind != NULL)
        {
          _wn_check_report (ctx, m, p, "a workerError has exactly one of bpmnErrorCode, status or cause "
                            "(it already has %s)", kind);
          continue;
        }
      kind = keys[i];
      value = m;
      if (strcmp (kind, "bpmnErrorCode") == 0)
        text = _wn_check_nonempty (ctx, m, p);
      else if (strcmp (kind, "cause") == 0)
        text = _wn_check_string (ctx, m, p);
    }
  if (kind == NULL)
    _wn_check_report (ctx, node, path, "a workerError needs exactly one of bpmnErrorCode, status or cause");
  message = _wn_check_member_string (ctx, node, path, "message", FALSE);
  if (_wn_check_n_errors (ctx) != before)
    return NULL;
  if (strcmp (kind, "bpmnErrorCode") == 0)
    return wn_response_new_bpmn_error (text, message, NULL);
  if (strcmp (kind, "status") == 0)
    return wn_response_new_status (value, message, NULL);
  return wn_response_new_cause (text, message);
}

static WnResponse *parse_response (WnCheck *ctx, JsonNode *node, const char *path, ResponseMode mode);

/* {"random": [...]}: choices, each with its p. */
static WnResponse *
parse_random (WnCheck *ctx, JsonNode *node, const char *path)
{
  g_autoptr(WnResponse) response = wn_response_new (WN_RESPONSE_RANDOM);
  JsonArray *array = _wn_check_array (ctx, node, path);
  double sum = 0;
  guint n;

  if (array == NULL)
    return NULL;
  n = json_array_get_length (array);
  if (n == 0)
    _wn_check_report (ctx, node, path, "must not be empty");
  response->choices = g_new0 (WnChoice, n + 1);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *choice = json_array_get_element (array, i);
      g_autofree char *cp = _wn_check_path_index (path, i);
      WnResponse *inner;
      JsonNode *m;
      double p = 0;

      if (!_wn_check_object (ctx, choice, cp))
        continue;
      if ((m = _wn_check_member (ctx, choice, cp, "p", TRUE)) != NULL)
        {
          g_autofree char *pp = _wn_check_path_key (cp, "p");

          if (!_wn_check_holds_number (m))
            _wn_check_report (ctx, m, pp, "must be a number > 0, not %s", _wn_check_type_name (m));
          else if (!((p = json_node_get_double (m)) > 0) || !isfinite (p))
            _wn_check_report (ctx, m, pp, "must be a number > 0");
        }
      inner = parse_response (ctx, choice, cp, RESPONSE_CHOICE);
      if (inner == NULL)
        continue;
      response->choices[response->n_choices].p = p;
      response->choices[response->n_choices].response = inner;
      response->n_choices++;
      sum += p;
    }
  /* each weight is finite, but their sum may not be (1e308 + 1e308):
   * then every draw would take the last entry */
  if (!isfinite (sum))
    _wn_check_report (ctx, node, path,
                      "the weights p add up to more than %g: give smaller ones", G_MAXDOUBLE);
  return g_steal_pointer (&response);
}

/* The response for `outcome` (a key of response_outcomes) with the value
 * `node`, or NULL with the problems reported. */
static WnResponse *
parse_outcome (WnCheck *ctx, const char *outcome, JsonNode *node, const char *path)
{
  if (strcmp (outcome, "complete") == 0)
    return wn_response_new_complete (node);
  if (strcmp (outcome, "fail") == 0)
    return parse_fail (ctx, node, path);
  if (strcmp (outcome, "workerError") == 0)
    return parse_worker_error (ctx, node, path);
  if (strcmp (outcome, "crash") == 0)
    return _wn_check_true (ctx, node, path) ? wn_response_new_crash () : NULL;
  if (strcmp (outcome, "hang") == 0)
    {
      if (JSON_NODE_HOLDS_OBJECT (node))
        return wn_response_new_hang (0, node, NULL);
      if (_wn_check_holds_type (node, G_TYPE_BOOLEAN) && json_node_get_boolean (node))
        return wn_response_new_hang (0, NULL, NULL);
      _wn_check_report (ctx, node, path, "must be true or an object (the body reported late)");
      return NULL;
    }
  return parse_random (ctx, node, path);
}

static WnResponse *
parse_response (WnCheck *ctx, JsonNode *node, const char *path, ResponseMode mode)
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
  g_autoptr(WnLite) when = NULL;
  guint attempts_lo = 0;
  guint attempts_hi = 0;
  WnTime after = 0;
  guint n_keys = 0;
  JsonNode *m;
  guint before = _wn_check_n_errors (ctx);

  if (!_wn_check_object (ctx, node, path))
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
  _wn_check_keys (ctx, node, path, allowed, response_keys_all, what);

  /* The outcome: exactly one. */
  keys = wn_json_doc_get_keys (ctx->doc, json_node_get_object (node), &n_keys);
  for (guint i = 0; i < n_keys; i++)
    {
      if (!_wn_check_in_list (response_outcomes, keys[i]) || !_wn_check_in_list (allowed, keys[i]))
        continue;
      if (outcome == NULL)
        {
          outcome = keys[i];
          outcome_node = json_object_get_member (json_node_get_object (node), keys[i]);
          outcome_path = _wn_check_path_key (path, keys[i]);
        }
      else
        {
          g_autofree char *p = _wn_check_path_key (path, keys[i]);

          _wn_check_report (ctx, json_object_get_member (json_node_get_object (node), keys[i]), p,
                  "a response has exactly one outcome (it already has %s)", outcome);
        }
    }
  if (outcome == NULL)
    {
      _wn_check_report (ctx, node, path, mode == RESPONSE_CHOICE
              ? "a response needs exactly one of complete, fail, workerError, crash or hang"
              : "a response needs exactly one of complete, fail, workerError, crash, hang or random");
      return NULL;
    }

  response = parse_outcome (ctx, outcome, outcome_node, outcome_path);
  if (strcmp (outcome, "random") == 0 &&
      (m = _wn_check_member (ctx, node, path, "after", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "after");

      _wn_check_report (ctx, m, p, "a random response takes no after (give each choice its own)");
    }

  if (mode == RESPONSE_SCRIPTED && (m = _wn_check_member (ctx, node, path, "attempts", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "attempts");

      parse_attempts (ctx, m, p, &attempts_lo, &attempts_hi);
    }
  if (mode == RESPONSE_SCRIPTED && (m = _wn_check_member (ctx, node, path, "when", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "when");

      when = _wn_check_lite (ctx, m, p);
    }
  if (strcmp (outcome, "random") != 0)
    _wn_check_member_duration (ctx, node, path, "after", FALSE, FALSE, &after);

  if (response == NULL || _wn_check_n_errors (ctx) != before)
    {
      g_clear_pointer (&response, wn_response_unref);
      return NULL;
    }
  response->attempts_lo = attempts_lo;
  response->attempts_hi = attempts_hi;
  response->when = g_steal_pointer (&when);
  if (response->kind != WN_RESPONSE_RANDOM && !wn_response_set_after (response, after, NULL))
    g_assert_not_reached ();   /* a duration the loader took is never negative */
  return response;
}

static void
parse_worker_config (WnCheck *ctx, JsonNode *node, const char *path, WnScenario *scenario, GHashTable *ids)
{
  const char *id = NULL;
  const char *topic = NULL;
  gboolean has_lock = FALSE;
  WnTime lock = 0;
  guint concurrency = 1;
  g_autoptr(GPtrArray) responses = g_ptr_array_new_with_free_func ((GDestroyNotify) wn_response_unref);
  WnWorkerConfig *worker;
  JsonNode *m;

  if (!_wn_check_object (ctx, node, path))
    return;
  _wn_check_keys (ctx, node, path, worker_config_keys, NULL, NULL);

  if ((m = _wn_check_member (ctx, node, path, "id", TRUE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "id");

      id = _wn_check_identifier (ctx, m, p);
      if (id != NULL)
        {
          const char *first = g_hash_table_lookup (ids, id);

          if (first != NULL)
            _wn_check_report (ctx, m, p, "duplicate worker id \"%s\" (first used at %s)", id, first);
          else
            g_hash_table_insert (ids, (gpointer) id, g_steal_pointer (&p));
        }
    }
  topic = _wn_check_member_identifier (ctx, node, path, "topic", TRUE);
  has_lock = _wn_check_member_duration (ctx, node, path, "lockDuration", FALSE, TRUE, &lock);
  if ((m = _wn_check_member (ctx, node, path, "concurrency", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "concurrency");

      if (_wn_check_uint (ctx, m, p, 1, &concurrency) && concurrency > WN_MAX_CONCURRENCY)
        _wn_check_report (ctx, m, p, "must be at most %u", (guint) WN_MAX_CONCURRENCY);
    }
  if ((m = _wn_check_member (ctx, node, path, "responses", TRUE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "responses");
      JsonArray *array = _wn_check_array (ctx, m, p);

      if (array != NULL && json_array_get_length (array) == 0)
        _wn_check_report (ctx, m, p, "must not be empty (a worker needs at least one response)");
      for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
        {
          g_autofree char *rp = _wn_check_path_index (p, i);
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

/* The optional object member `key` of `entry`, copied into *out; FALSE when
 * it is there but not an object (reported). */
static gboolean
parse_variables (WnCheck     *ctx,
                 JsonNode    *entry,
                 const char  *path,
                 const char  *key,
                 JsonObject **out)
{
  g_autofree char *p = NULL;
  JsonNode *v = _wn_check_member (ctx, entry, path, key, FALSE);

  if (v == NULL)
    return TRUE;
  p = _wn_check_path_key (path, key);
  if (!_wn_check_object (ctx, v, p))
    return FALSE;
  *out = wn_json_object_deep_copy (json_node_get_object (v));
  return TRUE;
}

static const char * const command_keys[] = {
  "after", "at", "op", "variables", "topic", "worker", "next", "trust", "node", "instance", "phase", "action",
  "code", "message", "key", "call", "simulated", "injection", NULL
};

/* A list of an operator's commands at `cp` into `out` (WnCommand*). */
static void
parse_command_list (WnCheck *ctx, JsonNode *list, const char *cp, GPtrArray *out)
{
  JsonArray *array;
  guint64 last_after = 0;

  array = _wn_check_array (ctx, list, cp);
  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      JsonNode *entry = json_array_get_element (array, i);
      g_autofree char *ep = _wn_check_path_index (cp, i);
      WnCommand *command;
      WnCommandKind kind;
      const char *op;
      JsonNode *v;
      WnTime at = 0;
      gint64 after = 0;
      gboolean ok = TRUE;

      if (!_wn_check_object (ctx, entry, ep))
        continue;
      _wn_check_keys (ctx, entry, ep, command_keys, NULL, NULL);
      if ((v = _wn_check_member (ctx, entry, ep, "after", TRUE)) != NULL)
        {
          g_autofree char *vp = _wn_check_path_key (ep, "after");
          if (!_wn_check_holds_type (v, G_TYPE_INT64) || (after = json_node_get_int (v)) < 0 || (guint64) after < last_after)
            {
              _wn_check_report (ctx, v, vp, "must be a non-negative integer, not smaller than the previous command's");
              ok = FALSE;
            }
          else
            last_after = (guint64) after;
        }
      if ((v = _wn_check_member (ctx, entry, ep, "at", TRUE)) != NULL)
        {
          g_autofree char *vp = _wn_check_path_key (ep, "at");
          ok = _wn_check_duration (ctx, v, vp, FALSE, &at) && ok;
        }
      if ((v = _wn_check_member (ctx, entry, ep, "op", TRUE)) == NULL)
        continue;
      {
        g_autofree char *vp = _wn_check_path_key (ep, "op");
        op = _wn_check_string (ctx, v, vp);
        if (op == NULL)
          continue;
        if (!wn_command_kind_from_string (op, &kind))
          {
            _wn_check_report (ctx, v, vp, "unknown command \"%s\"", op);
            continue;
          }
      }
      command = wn_command_new (kind, (guint64) after, at);
#define STRING_FIELD(key, field, required)                                      \
      if ((v = _wn_check_member (ctx, entry, ep, key, required)) != NULL)                 \
        {                                                                       \
          g_autofree char *fp = _wn_check_path_key (ep, key);                             \
          const char *text = _wn_check_nonempty (ctx, v, fp);                      \
          if (text == NULL)                                                     \
            ok = FALSE;                                                         \
          command->field = g_strdup (text);                                     \
        }                                                                       \
      else if (required)                                                        \
        ok = FALSE;
      switch (kind)
        {
        case WN_COMMAND_START:
          ok = parse_variables (ctx, entry, ep, "variables", &command->variables);
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
          if ((v = _wn_check_member (ctx, entry, ep, "next", TRUE)) != NULL)
            {
              g_autofree char *fp = _wn_check_path_key (ep, "next");
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
          if ((v = _wn_check_member (ctx, entry, ep, "trust", TRUE)) != NULL)
            {
              g_autofree char *fp = _wn_check_path_key (ep, "trust");
              const char *text = _wn_check_string (ctx, v, fp);
              if (kind == WN_COMMAND_TASK_TRUST && g_strcmp0 (text, "inherit") == 0)
                command->trust = WN_TRUST_UNSET;
              else if (text == NULL || !wn_trust_from_string (text, &command->trust))
                {
                  if (text != NULL)
                    _wn_check_report (ctx, v, fp, "must be workerTrusted or engineAuthoritative%s",
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
        case WN_COMMAND_USER_COMPLETE:
        case WN_COMMAND_USER_ERROR:
          STRING_FIELD ("instance", instance, TRUE)
          STRING_FIELD ("node", node, FALSE)
          STRING_FIELD ("code", code, kind == WN_COMMAND_USER_ERROR)
          STRING_FIELD ("message", message, FALSE)
          ok = parse_variables (ctx, entry, ep, "variables", &command->variables) && ok;
          break;
        case WN_COMMAND_CORRELATE:
          STRING_FIELD ("message", message, TRUE)
          STRING_FIELD ("instance", instance, FALSE)
          if ((v = _wn_check_member (ctx, entry, ep, "key", FALSE)) != NULL)
            command->key = json_node_copy (v);
          ok = parse_variables (ctx, entry, ep, "variables", &command->variables) && ok;
          break;
        case WN_COMMAND_EXTERNAL:
          if ((v = _wn_check_member (ctx, entry, ep, "call", TRUE)) != NULL)
            {
              g_autofree char *fp = _wn_check_path_key (ep, "call");
              g_autoptr(GError) error = NULL;

              if (!_wn_check_object (ctx, v, fp))
                ok = FALSE;
              else if (!_wn_external_check_call (json_node_get_object (v), &error))
                {
                  _wn_check_report (ctx, v, fp, "%s", error->message);
                  ok = FALSE;
                }
              else
                command->call = json_object_ref (json_node_get_object (v));
            }
          else
            ok = FALSE;
          break;
        case WN_COMMAND_TOPIC_SIMULATED:
          STRING_FIELD ("topic", topic, TRUE)
          if ((v = _wn_check_member (ctx, entry, ep, "simulated", TRUE)) != NULL)
            {
              g_autofree char *fp = _wn_check_path_key (ep, "simulated");
              ok = _wn_check_bool (ctx, v, fp, &command->on) && ok;
            }
          else
            ok = FALSE;
          break;
        case WN_COMMAND_CANCEL_INJECTION:
          if ((v = _wn_check_member (ctx, entry, ep, "injection", TRUE)) != NULL)
            {
              g_autofree char *fp = _wn_check_path_key (ep, "injection");
              gint64 id;

              if (!_wn_check_holds_type (v, G_TYPE_INT64) || (id = json_node_get_int (v)) < 1 || id > G_MAXUINT)
                {
                  _wn_check_report (ctx, v, fp, "must be a pending injection's id, an integer from 1");
                  ok = FALSE;
                }
              else
                command->injection = (guint) id;
            }
          else
            ok = FALSE;
          break;
        case WN_COMMAND_CLOCK:
          if ((v = _wn_check_member (ctx, entry, ep, "phase", TRUE)) != NULL)
            {
              g_autofree char *fp = _wn_check_path_key (ep, "phase");
              const char *text = _wn_check_string (ctx, v, fp);
              WnEventPhase phase;
              if (text == NULL || !wn_event_phase_from_string (text, &phase) ||
                  (phase != WN_PH_PAUSED && phase != WN_PH_RESUMED && phase != WN_PH_STEPPED))
                {
                  if (text != NULL)
                    _wn_check_report (ctx, v, fp, "must be paused, resumed or stepped");
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
        g_ptr_array_add (out, command);
      else
        wn_command_free (command);
    }
}

/* A duration distribution: a duration (fixed), or an object with exactly one
 * of `uniform` ([MIN, MAX]), `exponential` (its mean) and `lognormal`
 * ({median, sigma}). */
static gboolean
parse_distribution (WnCheck        *ctx,
                    JsonNode       *node,
                    const char     *path,
                    WnDistribution *out)
{
  JsonObject *object;
  JsonNode *m;
  guint before = _wn_check_n_errors (ctx);

  memset (out, 0, sizeof *out);
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return _wn_check_duration (ctx, node, path, FALSE, &out->a);
  object = json_node_get_object (node);
  _wn_check_keys (ctx, node, path, distribution_keys, NULL, NULL);
  if (json_object_get_size (object) != 1)
    {
      _wn_check_report (ctx, node, path, "a distribution is a duration or has exactly one of `uniform` "
                        "([min, max]), `exponential` (the mean) and `lognormal` ({median, sigma})");
      return FALSE;
    }
  if ((m = json_object_get_member (object, "uniform")) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "uniform");
      JsonArray *bounds = _wn_check_array (ctx, m, p);

      out->kind = WN_DISTRIBUTION_UNIFORM;
      if (bounds != NULL && json_array_get_length (bounds) != 2)
        _wn_check_report (ctx, m, p, "must be [min, max]");
      else if (bounds != NULL)
        {
          g_autofree char *p0 = _wn_check_path_index (p, 0);
          g_autofree char *p1 = _wn_check_path_index (p, 1);

          if (_wn_check_duration (ctx, json_array_get_element (bounds, 0), p0, FALSE, &out->a) &&
              _wn_check_duration (ctx, json_array_get_element (bounds, 1), p1, FALSE, &out->b) &&
              out->b < out->a)
            _wn_check_report (ctx, json_array_get_element (bounds, 1), p1, "must not be shorter than the minimum");
        }
    }
  else if ((m = json_object_get_member (object, "exponential")) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "exponential");

      out->kind = WN_DISTRIBUTION_EXPONENTIAL;
      _wn_check_duration (ctx, m, p, TRUE, &out->a);
    }
  else if ((m = json_object_get_member (object, "lognormal")) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "lognormal");
      JsonNode *sigma;

      out->kind = WN_DISTRIBUTION_LOGNORMAL;
      if (_wn_check_object (ctx, m, p))
        {
          _wn_check_keys (ctx, m, p, lognormal_keys, NULL, NULL);
          _wn_check_member_duration (ctx, m, p, "median", TRUE, TRUE, &out->a);
          if ((sigma = _wn_check_member (ctx, m, p, "sigma", TRUE)) != NULL)
            {
              g_autofree char *sp = _wn_check_path_key (p, "sigma");

              if (!_wn_check_holds_number (sigma) || !((out->sigma = json_node_get_double (sigma)) >= 0) ||
                  out->sigma > 10)
                _wn_check_report (ctx, sigma, sp, "must be a number from 0 to 10");
            }
        }
    }
  return _wn_check_n_errors (ctx) == before;
}

/* Reads one entry of a list into `spec` (zeroed; NULL for a list kept
 * elsewhere); FALSE when it lacks what it needs (a name, say) without an
 * error of its own. */
typedef gboolean (*EntryFunc) (WnCheck    *ctx,
                               JsonNode   *entry,
                               const char *ep,
                               gpointer    spec,
                               gpointer    data);

/* The list at `path`: each entry an object with only `keys`, read by
 * `parse`. With `out`, an entry is kept there only when whole (no error
 * while it was read, `parse` TRUE): taking it out again clears it. */
static void
parse_entries (WnCheck            *ctx,
               JsonNode           *node,
               const char         *path,
               const char * const *keys,
               GArray             *out,
               EntryFunc           parse,
               gpointer            data)
{
  JsonArray *array = _wn_check_array (ctx, node, path);
  gpointer spec = out != NULL ? g_malloc0 (g_array_get_element_size (out)) : NULL;

  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      JsonNode *entry = json_array_get_element (array, i);
      g_autofree char *ep = _wn_check_path_index (path, i);
      guint before = _wn_check_n_errors (ctx);
      gboolean whole;

      if (!_wn_check_object (ctx, entry, ep))
        continue;
      _wn_check_keys (ctx, entry, ep, keys, NULL, NULL);
      whole = parse (ctx, entry, ep, spec, data);
      if (out == NULL)
        continue;
      g_array_append_vals (out, spec, 1);
      if (_wn_check_n_errors (ctx) != before || !whole)
        g_array_set_size (out, out->len - 1);
      memset (spec, 0, g_array_get_element_size (out));
    }
  g_free (spec);
}

/* `people`: pools of simulated people who finish the user tasks whose rules
 * name them (`by`). */
static gboolean
people_entry (WnCheck    *ctx,
              JsonNode   *entry,
              const char *ep,
              gpointer    data,
              gpointer    scenario_data)
{
  WnPeopleSpec *spec = data;
  WnScenario *scenario = scenario_data;
  JsonNode *v;

  if ((v = _wn_check_member (ctx, entry, ep, "id", TRUE)) != NULL)
    {
      g_autofree char *vp = _wn_check_path_key (ep, "id");
      const char *id = _wn_check_identifier (ctx, v, vp);

      for (guint k = 0; id != NULL && k < scenario->people->len; k++)
        if (strcmp (g_array_index (scenario->people, WnPeopleSpec, k).id, id) == 0)
          {
            _wn_check_report (ctx, v, vp, "duplicate people id \"%s\"", id);
            id = NULL;
          }
      spec->id = g_strdup (id);
    }
  spec->count = 1;
  if (_wn_check_member_uint (ctx, entry, ep, "count", FALSE, 1, &spec->count) && spec->count > 10000)
    {
      g_autofree char *vp = _wn_check_path_key (ep, "count");

      _wn_check_report (ctx, json_object_get_member (json_node_get_object (entry), "count"), vp,
                        "must be at most 10000");
    }
  if ((v = _wn_check_member (ctx, entry, ep, "duration", TRUE)) != NULL)
    {
      g_autofree char *vp = _wn_check_path_key (ep, "duration");

      parse_distribution (ctx, v, vp, &spec->duration);
    }
  return spec->id != NULL;
}

/* "x-winnow": { "branches": { "shown": N, "list": [...] } } — the what-if
 * branches of a saved session (docs/decisions.md): each a name, its parent
 * (an earlier branch's index, or null for the first), the events it shares
 * with it, the furthest event it reached and its own commands. */
static void
parse_branches (WnCheck *ctx, JsonNode *node, const char *bp, WnScenario *scenario)
{
  static const char *const branches_keys[] = { "shown", "list", NULL };
  static const char *const branch_keys[] = { "name", "parent", "fork", "end", "commands", NULL };
  g_autofree char *lp = _wn_check_path_key (bp, "list");
  JsonNode *v;
  JsonArray *list;
  gint64 shown = 0;

  if (!_wn_check_object (ctx, node, bp))
    return;
  _wn_check_keys (ctx, node, bp, branches_keys, NULL, NULL);
  if ((v = _wn_check_member (ctx, node, bp, "list", TRUE)) == NULL || (list = _wn_check_array (ctx, v, lp)) == NULL)
    return;
  for (guint i = 0; i < json_array_get_length (list); i++)
    {
      JsonNode *entry = json_array_get_element (list, i);
      g_autofree char *ep = _wn_check_path_index (lp, i);
      WnScenarioBranch *branch;
      gint64 number;

      if (!_wn_check_object (ctx, entry, ep))
        continue;
      _wn_check_keys (ctx, entry, ep, branch_keys, NULL, NULL);
      branch = g_new0 (WnScenarioBranch, 1);
      branch->parent = -1;
      branch->commands = g_ptr_array_new_with_free_func ((GDestroyNotify) wn_command_free);
      g_ptr_array_add (scenario->branches, branch);
      if ((v = _wn_check_member (ctx, entry, ep, "name", TRUE)) != NULL)
        {
          g_autofree char *vp = _wn_check_path_key (ep, "name");
          const char *name = _wn_check_string (ctx, v, vp);

          branch->name = g_strdup (name);
        }
      if ((v = _wn_check_member (ctx, entry, ep, "parent", TRUE)) != NULL)
        {
          g_autofree char *vp = _wn_check_path_key (ep, "parent");

          /* a tree: the first has none, every other an earlier one */
          if (i == 0 ? !JSON_NODE_HOLDS_NULL (v)
                     : !_wn_check_holds_type (v, G_TYPE_INT64) || (number = json_node_get_int (v)) < 0 || number >= i)
            _wn_check_report (ctx, v, vp, i == 0 ? "must be null: the first branch has no parent"
                                                 : "must be the index of an earlier branch");
          else if (i > 0)
            branch->parent = (int) number;
        }
      if ((v = _wn_check_member (ctx, entry, ep, "fork", TRUE)) != NULL)
        {
          g_autofree char *vp = _wn_check_path_key (ep, "fork");

          if (!_wn_check_holds_type (v, G_TYPE_INT64) || (number = json_node_get_int (v)) < 0)
            _wn_check_report (ctx, v, vp, "must be a non-negative integer (events)");
          else
            branch->fork = (guint64) number;
        }
      if ((v = _wn_check_member (ctx, entry, ep, "end", TRUE)) != NULL)
        {
          g_autofree char *vp = _wn_check_path_key (ep, "end");

          if (!_wn_check_holds_type (v, G_TYPE_INT64) || (number = json_node_get_int (v)) < 0 ||
              (guint64) number < branch->fork)
            _wn_check_report (ctx, v, vp, "must be an integer (events), not below the fork");
          else
            branch->end = (guint64) number;
        }
      if ((v = _wn_check_member (ctx, entry, ep, "commands", TRUE)) != NULL)
        {
          g_autofree char *vp = _wn_check_path_key (ep, "commands");

          parse_command_list (ctx, v, vp, branch->commands);
        }
    }
  if ((v = _wn_check_member (ctx, node, bp, "shown", TRUE)) != NULL)
    {
      g_autofree char *vp = _wn_check_path_key (bp, "shown");

      if (!_wn_check_holds_type (v, G_TYPE_INT64) || (shown = json_node_get_int (v)) < 0 ||
          (guint64) shown >= scenario->branches->len)
        _wn_check_report (ctx, v, vp, "must be the index of one of the branches");
      else
        scenario->branch_shown = (guint) shown;
    }
}

/* "x-winnow": { "commands": [...] } — an operator's commands saved with a session,
 * replayed exactly (docs/decisions.md), and its branches. */
static void
parse_commands (WnCheck *ctx, JsonNode *xw, const char *prefix, WnScenario *scenario)
{
  g_autofree char *xp = _wn_check_path_key (prefix, "x-winnow");
  g_autofree char *cp = _wn_check_path_key (xp, "commands");
  JsonNode *list;

  if (!_wn_check_object (ctx, xw, xp))
    return;
  if ((list = json_object_get_member (json_node_get_object (xw), "outsideWorkers")) != NULL)
    {
      g_autofree char *op = _wn_check_path_key (xp, "outsideWorkers");
      _wn_check_bool (ctx, list, op, &scenario->outside_workers);
    }
  list = json_object_get_member (json_node_get_object (xw), "commands");
  if (list != NULL)
    parse_command_list (ctx, list, cp, scenario->commands);
  list = json_object_get_member (json_node_get_object (xw), "branches");
  if (list != NULL)
    {
      g_autofree char *bp = _wn_check_path_key (xp, "branches");

      parse_branches (ctx, list, bp, scenario);
    }
}

/* `userTasks`: how the scenario's people finish user tasks. */
static gboolean
user_task_entry (WnCheck    *ctx,
                 JsonNode   *entry,
                 const char *ep,
                 gpointer    data,
                 gpointer    scenario_data)
{
  WnUserTaskSpec *spec = data;
  WnScenario *scenario = scenario_data;
  JsonNode *complete;
  JsonNode *error;
  JsonNode *v;

  spec->node = g_strdup (_wn_check_member_identifier (ctx, entry, ep, "node", TRUE));
  spec->when = _wn_check_member_lite (ctx, entry, ep, "when", FALSE);
  _wn_check_member_duration (ctx, entry, ep, "after", FALSE, FALSE, &spec->after);
  if ((v = _wn_check_member (ctx, entry, ep, "by", FALSE)) != NULL)
    {
      g_autofree char *vp = _wn_check_path_key (ep, "by");
      const char *by = _wn_check_identifier (ctx, v, vp);
      gboolean known = FALSE;

      for (guint k = 0; by != NULL && k < scenario->people->len; k++)
        known |= strcmp (g_array_index (scenario->people, WnPeopleSpec, k).id, by) == 0;
      if (by != NULL && json_object_has_member (json_node_get_object (entry), "after"))
        _wn_check_report (ctx, v, vp, "a rule with `by` takes no `after`: the people's duration is the time");
      else if (by != NULL && !known)
        _wn_check_report (ctx, v, vp, "no people \"%s\" in the scenario's `people`", by);
      else
        spec->by = g_strdup (by);
    }
  complete = json_object_get_member (json_node_get_object (entry), "complete");
  error = json_object_get_member (json_node_get_object (entry), "bpmnError");
  if ((complete == NULL) == (error == NULL))
    _wn_check_report (ctx, entry, ep, "a user task rule has exactly one of `complete` (variables) "
                      "and `bpmnError`");
  else if (complete != NULL)
    parse_variables (ctx, entry, ep, "complete", &spec->variables);
  else
    {
      g_autofree char *vp = _wn_check_path_key (ep, "bpmnError");

      if (_wn_check_object (ctx, error, vp))
        {
          _wn_check_keys (ctx, error, vp, user_error_keys, NULL, NULL);
          if ((v = _wn_check_member (ctx, error, vp, "code", TRUE)) != NULL)
            {
              g_autofree char *cp = _wn_check_path_key (vp, "code");

              spec->code = g_strdup (_wn_check_nonempty (ctx, v, cp));
            }
          spec->message = g_strdup (_wn_check_member_string (ctx, error, vp, "message", FALSE));
        }
    }
  return spec->node != NULL;
}

/* `messages`: what the scenario sends, when. A key is a string or a number. */
static gboolean
message_entry (WnCheck    *ctx,
               JsonNode   *entry,
               const char *ep,
               gpointer    data,
               gpointer    unused)
{
  WnMessageSpec *spec = data;
  JsonNode *v;

  _wn_check_member_duration (ctx, entry, ep, "at", FALSE, FALSE, &spec->at);
  _wn_check_member_duration (ctx, entry, ep, "ttl", FALSE, FALSE, &spec->ttl);
  spec->name = g_strdup (_wn_check_member_identifier (ctx, entry, ep, "name", TRUE));
  if ((v = _wn_check_member (ctx, entry, ep, "key", FALSE)) != NULL)
    {
      g_autofree char *vp = _wn_check_path_key (ep, "key");

      if (_wn_check_holds_type (v, G_TYPE_STRING) || _wn_check_holds_number (v))
        spec->key = json_node_copy (v);
      else
        _wn_check_report (ctx, v, vp, "a correlation key is a string or a number, not %s",
                          _wn_check_type_name (v));
    }
  parse_variables (ctx, entry, ep, "variables", &spec->variables);
  return spec->name != NULL;
}

/* `decisions`: {gateway id: {flow id: weight}}, the weights a gateway the
 * scenario decides draws by (which gateway and flows they name is checked
 * against the process when a run starts: wn_engine_new()'s notices). */
static void
parse_decisions (WnCheck    *ctx,
                 JsonNode   *node,
                 const char *path,
                 WnScenario *scenario)
{
  g_autoptr(GList) gateways = NULL;

  if (!_wn_check_object (ctx, node, path))
    return;
  /* the members in the order they are written */
  gateways = json_object_get_members (json_node_get_object (node));
  for (GList *g = gateways; g != NULL; g = g->next)
    {
      const char *gateway = g->data;
      JsonNode *flows = json_object_get_member (json_node_get_object (node), gateway);
      g_autofree char *gp = _wn_check_path_key (path, gateway);
      g_autoptr(GList) names = NULL;
      WnDecisionSpec spec = { 0 };
      guint64 total = 0;
      guint before = _wn_check_n_errors (ctx);

      if (!_wn_check_object (ctx, flows, gp))
        continue;
      _wn_decision_spec_init (&spec, gateway);
      names = json_object_get_members (json_node_get_object (flows));
      for (GList *f = names; f != NULL; f = f->next)
        {
          g_autofree char *wp = _wn_check_path_key (gp, f->data);
          WnDecisionWeight w = { NULL, 0 };

          if (!_wn_check_uint (ctx, json_object_get_member (json_node_get_object (flows), f->data), wp, 0, &w.weight))
            continue;
          w.flow = g_strdup (f->data);
          total += w.weight;
          g_array_append_val (spec.weights, w);
        }
      if (_wn_check_n_errors (ctx) == before && total == 0)
        _wn_check_report (ctx, flows, gp, spec.weights->len == 0
                          ? "gives no flows: weigh each flow leaving gateway \"%s\", such as {\"Flow_a\": 3, \"Flow_b\": 1}"
                          : "the weights of gateway \"%s\" add up to 0: at least one flow needs a weight ≥ 1",
                          gateway);
      /* kept only when whole: taking it out again clears it */
      g_array_append_val (scenario->decisions, spec);
      if (_wn_check_n_errors (ctx) != before)
        g_array_set_size (scenario->decisions, scenario->decisions->len - 1);
    }
}

/* The instances a scenario's `start` list makes, as it is read. */
typedef struct {
  WnScenario *scenario;
  guint       total;              /* the instances of the entries so far, up to WN_MAX_INSTANCES */
} Starts;

/* `start`: instances to start, when, with which variables. */
static gboolean
start_entry (WnCheck    *ctx,
             JsonNode   *entry,
             const char *ep,
             gpointer    unused,
             gpointer    data)
{
  Starts *starts = data;
  WnTime at = 0;
  guint count = 1;
  JsonObject *variables = NULL;
  JsonNode *v;

  _wn_check_member_duration (ctx, entry, ep, "at", FALSE, FALSE, &at);
  if ((v = _wn_check_member (ctx, entry, ep, "count", FALSE)) != NULL)
    {
      g_autofree char *vp = _wn_check_path_key (ep, "count");

      if (_wn_check_uint (ctx, v, vp, 1, &count) && count > WN_MAX_INSTANCES - starts->total)
        _wn_check_report (ctx, v, vp, "would start %" G_GUINT64_FORMAT " instances in all, "
                          "more than the %u a run can hold",
                          (guint64) starts->total + count, (guint) WN_MAX_INSTANCES);
    }
  starts->total += MIN (count, WN_MAX_INSTANCES - starts->total);
  if ((v = _wn_check_member (ctx, entry, ep, "variables", FALSE)) != NULL)
    {
      g_autofree char *vp = _wn_check_path_key (ep, "variables");

      if (_wn_check_object (ctx, v, vp))
        variables = wn_json_object_deep_copy (json_node_get_object (v));
    }
  wn_scenario_add_start (starts->scenario, at, count, variables);
  g_clear_pointer (&variables, json_object_unref);
  return TRUE;
}

/* What a scenario's `faults` are read against. */
typedef struct {
  WnScenario *scenario;
  GHashTable *worker_ids;         /* the workers read, by id */
} Faults;

/* `faults`: a response injected at a time into a topic's or a worker's next job. */
static gboolean
fault_entry (WnCheck    *ctx,
             JsonNode   *entry,
             const char *fp,
             gpointer    unused,
             gpointer    data)
{
  Faults *faults = data;
  g_autoptr(WnResponse) next = NULL;
  const char *topic = NULL;
  const char *worker = NULL;
  JsonNode *topic_json;
  JsonNode *worker_json;
  WnTime at = 0;
  JsonNode *v;

  _wn_check_member_duration (ctx, entry, fp, "at", FALSE, FALSE, &at);
  topic_json = _wn_check_member (ctx, entry, fp, "topic", FALSE);
  worker_json = _wn_check_member (ctx, entry, fp, "worker", FALSE);
  if (topic_json != NULL && worker_json != NULL)
    {
      g_autofree char *vp = _wn_check_path_key (fp, "worker");

      _wn_check_report (ctx, worker_json, vp, "a fault names a topic or a worker, not both");
    }
  else if (topic_json != NULL)
    {
      g_autofree char *vp = _wn_check_path_key (fp, "topic");

      topic = _wn_check_identifier (ctx, topic_json, vp);
    }
  else if (worker_json != NULL)
    {
      g_autofree char *vp = _wn_check_path_key (fp, "worker");

      worker = _wn_check_identifier (ctx, worker_json, vp);
      if (worker != NULL && !g_hash_table_contains (faults->worker_ids, worker))
        {
          _wn_check_report (ctx, worker_json, vp, "unknown worker \"%s\"", worker);
          worker = NULL;
        }
    }
  else
    {
      _wn_check_report (ctx, entry, fp, "a fault needs a \"topic\" or a \"worker\"");
    }
  if ((v = _wn_check_member (ctx, entry, fp, "next", TRUE)) != NULL)
    {
      g_autofree char *vp = _wn_check_path_key (fp, "next");

      next = parse_response (ctx, v, vp, RESPONSE_INJECTED);
    }
  if (next != NULL && (topic != NULL || worker != NULL))
    wn_scenario_add_fault (faults->scenario, at, topic, worker, next);
  return TRUE;
}

WnScenario *
_wn_load_scenario_object (WnCheck *ctx, JsonNode *root, const char *prefix, gboolean embedded)
{
  g_autoptr(WnScenario) scenario = NULL;
  g_autoptr(GHashTable) worker_ids = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  JsonNode *m;
  JsonNode *faults_json = NULL;
  guint before = _wn_check_n_errors (ctx);

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      if (embedded)
        _wn_check_report (ctx, root, prefix, "must be an object, not %s", _wn_check_type_name (root));
      else
        _wn_check_report (ctx, root, prefix, "a scenario must be a JSON object, not %s", _wn_check_type_name (root));
      return NULL;
    }

  if ((m = _wn_check_member (ctx, root, prefix, "format", !embedded)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (prefix, "format");
      const char *format = _wn_check_string (ctx, m, p);

      if (format != NULL && strcmp (format, WN_SCENARIO_FORMAT) != 0)
        {
          if (strcmp (format, WN_PROCESS_FORMAT) == 0)
            _wn_check_report (ctx, m, p, "must be \"" WN_SCENARIO_FORMAT "\" (this is a process)");
          else
            _wn_check_report (ctx, m, p, "must be \"" WN_SCENARIO_FORMAT "\", not \"%s\"", format);
          return NULL;
        }
    }
  _wn_check_keys (ctx, root, prefix, scenario_keys, NULL, NULL);

  scenario = wn_scenario_new ();

  if ((m = _wn_check_member (ctx, root, prefix, "seed", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (prefix, "seed");

      if (_wn_check_holds_type (m, G_TYPE_INT64) && json_node_get_int (m) >= 0)
        {
          scenario->has_seed = TRUE;
          scenario->seed = (guint64) json_node_get_int (m);
        }
      else
        {
          /* the range winnow-run's --seed takes, and a saved session writes back */
          _wn_check_report (ctx, m, p, "must be a whole number from 0 to %" G_GINT64_FORMAT, G_MAXINT64);
        }
    }
  if ((m = _wn_check_member (ctx, root, prefix, "epoch", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (prefix, "epoch");
      const char *text = _wn_check_holds_type (m, G_TYPE_STRING) ? json_node_get_string (m) : NULL;

      if (text != NULL && _wn_lite_parse_time (text, &scenario->epoch_us))
        scenario->has_epoch = TRUE;
      else
        _wn_check_report (ctx, m, p, "must be an RFC 3339 instant with its zone, such as \"2026-01-05T09:00:00Z\" "
                          "(the instant t = 0 stands for)");
    }
  if ((m = _wn_check_member (ctx, root, prefix, "engine", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (prefix, "engine");

      _wn_load_engine_block (ctx, m, p, &scenario->engine, NULL);
    }
  if ((m = _wn_check_member (ctx, root, prefix, "start", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (prefix, "start");
      Starts starts = { scenario, 0 };

      scenario->has_start = TRUE;
      parse_entries (ctx, m, p, start_keys, NULL, start_entry, &starts);
    }
  if ((m = _wn_check_member (ctx, root, prefix, "workers", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (prefix, "workers");
      JsonArray *array = _wn_check_array (ctx, m, p);

      for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
        {
          g_autofree char *wp = _wn_check_path_index (p, i);

          parse_worker_config (ctx, json_array_get_element (array, i), wp, scenario, worker_ids);
        }
    }
  {
    /* the people first: the user tasks' rules name them */
    const struct {
      const char         *key;
      const char * const *keys;
      GArray             *out;
      EntryFunc           parse;
    } lists[] = {
      { "people", people_keys, scenario->people, people_entry },
      { "userTasks", user_task_keys, scenario->user_tasks, user_task_entry },
      { "messages", message_keys, scenario->messages, message_entry },
    };

    for (guint i = 0; i < G_N_ELEMENTS (lists); i++)
      if ((m = _wn_check_member (ctx, root, prefix, lists[i].key, FALSE)) != NULL)
        {
          g_autofree char *p = _wn_check_path_key (prefix, lists[i].key);

          parse_entries (ctx, m, p, lists[i].keys, lists[i].out, lists[i].parse, scenario);
        }
  }
  if ((m = _wn_check_member (ctx, root, prefix, "decisions", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (prefix, "decisions");

      parse_decisions (ctx, m, p, scenario);
    }
  if ((faults_json = _wn_check_member (ctx, root, prefix, "faults", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (prefix, "faults");
      Faults faults = { scenario, worker_ids };

      parse_entries (ctx, faults_json, p, fault_keys, NULL, fault_entry, &faults);
    }
  if (json_object_has_member (json_node_get_object (root), "x-winnow"))
    parse_commands (ctx, json_object_get_member (json_node_get_object (root), "x-winnow"), prefix, scenario);

  if (_wn_check_n_errors (ctx) != before)
    return NULL;
  scenario->source = json_node_copy (root);
  return g_steal_pointer (&scenario);
}


/* ---- entry points ------------------------------------------------------- */

/* The roots the entry points load (WnCheckParseFunc). */
static WnScenario *
parse_scenario_root (WnCheck  *ctx,
                     JsonNode *root)
{
  return _wn_load_scenario_object (ctx, root, "", FALSE);
}

static WnResponse *
parse_injected_response (WnCheck  *ctx,
                         JsonNode *root)
{
  return parse_response (ctx, root, "", RESPONSE_INJECTED);
}

WnScenario *
wn_load_scenario_data (const char  *data,
                       gssize       length,
                       const char  *display_name,
                       GPtrArray  **diagnostics,
                       GError     **error)
{
  WnScenario *scenario;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  scenario = _wn_check_load (data, length, display_name, (WnCheckParseFunc) parse_scenario_root,
                             (GDestroyNotify) wn_scenario_unref, diagnostics, error);
  if (scenario != NULL)
    scenario->filename = g_strdup (display_name);
  return scenario;
}

WnScenario *
wn_load_scenario_file (const char *filename, GPtrArray **diagnostics, GError **error)
{
  return wn_load_scenario_file_full (filename, WN_LOAD_DEFAULT_MAX_SIZE, diagnostics, error);
}

WnScenario *
wn_load_scenario_file_full (const char *filename, gsize max_size, GPtrArray **diagnostics, GError **error)
{
  return _wn_check_load_file (filename, max_size, (WnCheckLoadFunc) wn_load_scenario_data, diagnostics, error);
}

WnResponse *
wn_load_response_data (const char  *data,
                       gssize       length,
                       const char  *display_name,
                       GPtrArray  **diagnostics,
                       GError     **error)
{
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return _wn_check_load (data, length, display_name, (WnCheckParseFunc) parse_injected_response,
                         (GDestroyNotify) wn_response_unref, diagnostics, error);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-process-loader.c — read winnow.process/1 documents (wn-loader.h): nodes,
 * flows, workers and the graph checks over them; an embedded scenario goes to
 * the scenario loader. */
#include "wn-loader-private.h"
#include "wn-bpmn.h"

#include <string.h>

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
  JsonNode      *decided_json;   /* exclusiveGateway `decidedBy` ("scenario"), or NULL */
  JsonNode      *attached_json;  /* boundaryEvent `attachedTo` (a string node) */
  /* Engine II */
  int            scope;          /* the enclosing subProcess's source index, -1: the process */
  JsonNode      *nodes_json;     /* subProcess `nodes` */
  JsonNode      *flows_json;     /* subProcess `flows`, or NULL */
  gboolean       terminate;
  gboolean       catch_all;
  WnTime         timer;
  guint          repeat;
  gboolean       non_interrupting;
  gboolean       has_date;       /* `date`: a date timer */
  gint64         date_us;
  char          *message;
  WnLite        *correlation;
  WnMultiInstance *multi;
  gboolean       in_esp;         /* a node directly inside an event sub-process */
  gboolean       triggered_by_event;
} NodeSrc;

typedef struct {
  JsonNode   *json;
  char       *path;              /* flows[i] */
  const char *id;
  int         from;              /* node source index, -1 when unresolved */
  int         to;
  JsonNode   *condition_json;
  WnLite     *condition;
  int         scope;             /* as NodeSrc.scope: where the flow is listed */
} FlowSrc;

static const char * const process_keys[] = {
  "format", "id", "name", "variables", "engine", "nodes", "flows", "scenario", NULL
};
static const char * const node_keys_all[] = {
  "id", "type", "name", "error", "duration", "set", "worker", "attachedTo", "default",
  "nodes", "flows", "terminate", "timer", "repeat", "interrupting", "message", "correlation", "multiInstance",
  "date", "triggeredByEvent", "decidedBy", NULL
};
static const char * const multi_keys[] = { "sequential", "cardinality", "collection", "element", "completion",
                                            "outputCollection", "outputElement", NULL };
static const char * const worker_keys[] = {
  "topic", "input", "trust", "retry", "errorMapper", "outputMapping", "output", "status", NULL
};
static const char * const mapping_keys[] = { "path", "var", "required", NULL };
static const char * const status_keys[] = { "var", "overwrite", NULL };

static gboolean
parse_output_mapping (WnCheck *ctx, JsonNode *node, const char *path, WnOutputMapping **out)
{
  JsonArray *array = _wn_check_array (ctx, node, path);
  g_autoptr(GError) error = NULL;
  WnOutputRule *rules;
  GPtrArray *var_nodes;
  guint n;
  guint bad = 0;
  guint before = _wn_check_n_errors (ctx);

  if (array == NULL)
    return FALSE;

  n = json_array_get_length (array);
  rules = g_new0 (WnOutputRule, n + 1);
  var_nodes = g_ptr_array_new ();

  for (guint i = 0; i < n; i++)
    {
      JsonNode *rule = json_array_get_element (array, i);
      g_autofree char *rp = _wn_check_path_index (path, i);
      JsonNode *m;

      g_ptr_array_add (var_nodes, NULL);
      if (!_wn_check_object (ctx, rule, rp))
        continue;
      _wn_check_keys (ctx, rule, rp, mapping_keys, NULL, NULL);

      rules[i].path = _wn_check_member_lite (ctx, rule, rp, "path", TRUE);
      if ((m = _wn_check_member (ctx, rule, rp, "var", TRUE)) != NULL)
        {
          g_autofree char *p = _wn_check_path_key (rp, "var");

          rules[i].var = _wn_check_nonempty (ctx, m, p);
          var_nodes->pdata[i] = m;
        }
      _wn_check_member_bool (ctx, rule, rp, "required", FALSE, &rules[i].required);
    }

  if (_wn_check_n_errors (ctx) == before && n > 0)
    {
      *out = wn_output_mapping_new (rules, n, &bad, &error);
      if (*out == NULL)
        {
          g_autofree char *rp = _wn_check_path_index (path, MIN (bad, n - 1));
          g_autofree char *p = _wn_check_path_key (rp, "var");
          JsonNode *at = g_ptr_array_index (var_nodes, MIN (bad, n - 1));

          _wn_check_report (ctx, at, p, "%s", error != NULL ? error->message : "conflicting output mapping");
        }
    }

  for (guint i = 0; i < n; i++)
    g_clear_pointer (&rules[i].path, wn_lite_unref);
  g_free (rules);
  g_ptr_array_unref (var_nodes);
  return _wn_check_n_errors (ctx) == before;
}


static WnWorkerSpec *
parse_worker (WnCheck *ctx, JsonNode *node, const char *path)
{
  g_autoptr(GPtrArray) status_nodes = g_ptr_array_new ();
  g_autoptr(GPtrArray) status_paths = g_ptr_array_new_with_free_func (g_free);
  WnStatusRules status_rules = { status_nodes, status_paths };
  WnWorkerSpec *spec;
  JsonNode *m;
  JsonNode *output_node = NULL;
  guint before = _wn_check_n_errors (ctx);

  if (!_wn_check_object (ctx, node, path))
    return NULL;
  _wn_check_keys (ctx, node, path, worker_keys, NULL, NULL);

  spec = wn_worker_spec_new (NULL);

  if ((m = _wn_check_member (ctx, node, path, "topic", TRUE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "topic");

      spec->topic = g_strdup (_wn_check_identifier (ctx, m, p));
    }
  if ((m = _wn_check_member (ctx, node, path, "input", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "input");
      JsonArray *array = _wn_check_array (ctx, m, p);

      if (array != NULL)
        {
          spec->input = g_ptr_array_new_with_free_func ((GDestroyNotify) wn_path_free);
          for (guint i = 0; i < json_array_get_length (array); i++)
            {
              g_autofree char *ip = _wn_check_path_index (p, i);
              WnPath *wp = _wn_check_var_path (ctx, json_array_get_element (array, i), ip);

              if (wp != NULL)
                g_ptr_array_add (spec->input, wp);
            }
        }
    }
  if ((m = _wn_check_member (ctx, node, path, "trust", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "trust");

      _wn_load_trust (ctx, m, p, &spec->policy.trust);
    }
  if ((m = _wn_check_member (ctx, node, path, "retry", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "retry");

      spec->policy.has_retry = _wn_load_retry (ctx, m, p, &spec->policy.retry);
    }
  if ((m = _wn_check_member (ctx, node, path, "errorMapper", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "errorMapper");

      _wn_load_error_mapper (ctx, m, p, &spec->policy.mapper, &status_rules);
    }
  if ((m = _wn_check_member (ctx, node, path, "outputMapping", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "outputMapping");

      parse_output_mapping (ctx, m, p, &spec->policy.mapping);
    }
  if ((output_node = _wn_check_member (ctx, node, path, "output", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "output");

      spec->output_var = g_strdup (_wn_check_nonempty (ctx, output_node, p));
    }
  if ((m = _wn_check_member (ctx, node, path, "status", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "status");

      if (_wn_check_object (ctx, m, p))
        {
          JsonNode *v;

          _wn_check_keys (ctx, m, p, status_keys, NULL, NULL);
          if ((v = _wn_check_member (ctx, m, p, "var", TRUE)) != NULL)
            {
              g_autofree char *vp = _wn_check_path_key (p, "var");
              const char *s = _wn_check_nonempty (ctx, v, vp);

              spec->status_var = g_strdup (s);
            }
          _wn_check_member_bool (ctx, m, p, "overwrite", FALSE, &spec->status_overwrite);
        }
    }

  if (!json_object_has_member (json_node_get_object (node), "status"))
    {
      for (guint i = 0; i < status_nodes->len; i++)
        _wn_check_report (ctx, g_ptr_array_index (status_nodes, i), g_ptr_array_index (status_paths, i),
                "a status rule needs the task's worker.status (where the status is written)");
    }

  if (_wn_check_n_errors (ctx) != before)
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
  g_free (src->message);
  g_clear_pointer (&src->correlation, wn_lite_unref);
  wn_multi_instance_free (src->multi);
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
parse_set (WnCheck *ctx, JsonNode *node, const char *path, NodeSrc *src)
{
  const char * const *keys;
  JsonObject *object;
  guint n = 0;

  if (!_wn_check_object (ctx, node, path))
    return;
  object = json_node_get_object (node);
  keys = wn_json_doc_get_keys (ctx->doc, object, &n);
  src->set = g_new0 (WnAssignment, n + 1);

  for (guint i = 0; i < n; i++)
    {
      const char *var = keys[i];
      g_autofree char *p = _wn_check_path_key (path, var);
      g_autoptr(WnPath) target = NULL;
      WnLite *expr;

      if (g_str_has_prefix (var, "x-"))
        continue;
      target = wn_path_parse (var, NULL);
      if (target == NULL || target->n_steps != 0)
        {
          _wn_check_report_key (ctx, node, var, p, "\"%s\" is not a variable name", var);
          continue;
        }
      expr = _wn_check_lite (ctx, json_object_get_member (object, var), p);
      if (expr == NULL)
        continue;
      src->set[src->n_set].var = g_strdup (var);
      src->set[src->n_set].expr = expr;
      src->n_set++;
    }
}

/* The required "id" of the node or flow at `path`, or NULL where it is
 * missing, not an identifier or already used by another one in `ids` (which
 * maps each id to the path of its first use). */
static const char *
parse_unique_id (WnCheck    *ctx,
                 JsonNode   *node,
                 const char *path,
                 GHashTable *ids)
{
  g_autofree char *p = NULL;
  const char *id;
  const char *first;
  JsonNode *m;

  if ((m = _wn_check_member (ctx, node, path, "id", TRUE)) == NULL)
    return NULL;
  p = _wn_check_path_key (path, "id");
  id = _wn_check_identifier (ctx, m, p);
  if (id == NULL)
    return NULL;
  first = g_hash_table_lookup (ids, id);
  if (first != NULL)
    {
      _wn_check_report (ctx, m, p, "duplicate id \"%s\" (first used at %s)", id, first);
      return NULL;
    }
  g_hash_table_insert (ids, (gpointer) id, g_steal_pointer (&p));
  return id;
}

/* `multiInstance`: `cardinality` or `collection` (with `element`), optional
 * `sequential` and `completion`. */
static WnMultiInstance *
parse_multi (WnCheck    *ctx,
             JsonNode   *node,
             const char *path)
{
  WnMultiInstance *multi;
  JsonObject *object;
  JsonNode *m;
  guint before = _wn_check_n_errors (ctx);

  if (!_wn_check_object (ctx, node, path))
    return NULL;
  _wn_check_keys (ctx, node, path, multi_keys, NULL, NULL);
  object = json_node_get_object (node);
  multi = g_new0 (WnMultiInstance, 1);
  _wn_check_member_bool (ctx, node, path, "sequential", FALSE, &multi->sequential);
  if (json_object_has_member (object, "cardinality") == json_object_has_member (object, "collection"))
    _wn_check_report (ctx, node, path, "a multiInstance has exactly one of `cardinality` and `collection`");
  _wn_check_member_uint (ctx, node, path, "cardinality", FALSE, 1, &multi->cardinality);
  if ((m = _wn_check_member (ctx, node, path, "collection", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "collection");

      multi->collection = _wn_check_var_path (ctx, m, p);
    }
  if ((m = _wn_check_member (ctx, node, path, "element", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "element");

      if (multi->collection == NULL && !json_object_has_member (object, "collection"))
        _wn_check_report (ctx, m, p, "`element` goes with a `collection`");
      else
        multi->element = g_strdup (_wn_check_identifier (ctx, m, p));
    }
  if ((m = _wn_check_member (ctx, node, path, "completion", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "completion");

      multi->completion = _wn_check_lite (ctx, m, p);
    }
  if ((m = _wn_check_member (ctx, node, path, "outputCollection", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "outputCollection");

      multi->output_collection = g_strdup (_wn_check_identifier (ctx, m, p));
    }
  if ((m = _wn_check_member (ctx, node, path, "outputElement", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "outputElement");

      multi->output_element = _wn_check_lite (ctx, m, p);
    }
  if (json_object_has_member (object, "outputCollection") != json_object_has_member (object, "outputElement"))
    _wn_check_report (ctx, node, path, "`outputCollection` and `outputElement` go together");
  if (_wn_check_n_errors (ctx) != before)
    {
      wn_multi_instance_free (multi);
      return NULL;
    }
  return multi;
}

/* What a message wait waits for: `message` (its name, required) and an
 * optional `correlation` (a lite expression: its key). */
static void
parse_message (WnCheck  *ctx,
               JsonNode *node,
               NodeSrc  *src)
{
  JsonNode *m;

  g_clear_pointer (&src->message, g_free);
  if ((m = _wn_check_member (ctx, node, src->path, "message", TRUE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (src->path, "message");

      src->message = g_strdup (_wn_check_identifier (ctx, m, p));
    }
  if ((m = _wn_check_member (ctx, node, src->path, "correlation", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (src->path, "correlation");

      src->correlation = _wn_check_lite (ctx, m, p);
    }
}

/* `date`: an RFC 3339 instant with its zone (a date timer). */
static void
parse_date (WnCheck  *ctx,
            JsonNode *date,
            NodeSrc  *src)
{
  g_autofree char *p = _wn_check_path_key (src->path, "date");
  const char *text = _wn_check_holds_type (date, G_TYPE_STRING) ? json_node_get_string (date) : NULL;

  if (text == NULL || !_wn_lite_parse_time (text, &src->date_us))
    {
      _wn_check_report (ctx, date, p, "`date` must be an RFC 3339 instant with its zone, "
                        "such as \"2026-01-05T09:00:00Z\"");
      return;
    }
  src->has_date = TRUE;
}

/* A boundary event's trigger, or that of an event sub-process's start event
 * (`start`): `error` (a code, or true for every code), `timer` (with `repeat`
 * and `interrupting`) or `message` (with `correlation` and `interrupting`). */
static void
parse_boundary (WnCheck  *ctx,
                JsonNode *node,
                NodeSrc  *src,
                gboolean  start)
{
  const char *what = start ? "an event sub-process's startEvent" : "a boundaryEvent";
  const char *kind = start ? "startEvent" : "boundaryEvent";
  JsonObject *object = json_node_get_object (node);
  const char *path = src->path;
  JsonNode *error = _wn_check_member (ctx, node, path, "error", FALSE);
  JsonNode *timer = _wn_check_member (ctx, node, path, "timer", FALSE);
  JsonNode *message = json_object_get_member (object, "message");
  /* (a date timer is a boundary's only: an event sub-process's timer counts from its scope's entry) */
  JsonNode *date = start ? NULL : json_object_get_member (object, "date");
  JsonNode *m;

  src->repeat = 1;
  if (date != NULL && timer == NULL && error == NULL && message == NULL)
    {
      parse_date (ctx, date, src);
      timer = date;   /* a timer boundary: interrupting, and no repeat */
      if ((m = json_object_get_member (object, "repeat")) != NULL)
        {
          g_autofree char *kp = _wn_check_path_key (path, "repeat");

          _wn_check_report (ctx, m, kp, "a date timer fires once: `repeat` needs a `timer` duration");
        }
    }
  else if (date != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "date");

      _wn_check_report (ctx, date, p, "a boundaryEvent has one of `error`, `timer`, `date` and `message`");
      return;
    }
  if ((error != NULL) + (timer != NULL) + (message != NULL) > 1)
    {
      JsonNode *second = message != NULL ? message : timer;
      g_autofree char *p = _wn_check_path_key (path, message != NULL ? "message" : "timer");

      _wn_check_report (ctx, second, p, "%s has one of `error`, `timer` and `message`", what);
      return;
    }
  if (error == NULL && timer == NULL && message == NULL)
    {
      _wn_check_report (ctx, node, path, "%s needs `error` (a code, or true for any code), "
                        "`timer` or `message`", what);
      return;
    }
  if (message != NULL)
    {
      gboolean interrupting = TRUE;

      src->message = g_strdup ("");   /* parse_message() reads it */
      _wn_check_member_bool (ctx, node, path, "interrupting", FALSE, &interrupting);
      src->non_interrupting = !interrupting;
      if ((m = json_object_get_member (object, "repeat")) != NULL)
        {
          g_autofree char *kp = _wn_check_path_key (path, "repeat");

          _wn_check_report (ctx, m, kp, "`repeat` applies to a timer %s only "
                            "(a non-interrupting message %s takes every message while %s)", kind,
                            start ? "start" : "boundary", start ? "its scope runs" : "its host waits");
        }
      return;
    }
  if (error != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "error");

      if (_wn_check_holds_type (error, G_TYPE_BOOLEAN))
        {
          if (_wn_check_true (ctx, error, p))
            src->catch_all = TRUE;
        }
      else
        src->error_code = g_strdup (_wn_check_nonempty (ctx, error, p));
      for (guint i = 0; i < 2; i++)
        {
          const char *key = i == 0 ? "repeat" : "interrupting";

          if ((m = json_object_get_member (object, key)) != NULL)
            {
              g_autofree char *kp = _wn_check_path_key (path, key);

              _wn_check_report (ctx, m, kp, "`%s` applies to a timer %s only "
                                "(an error %s always interrupts)", key, kind, start ? "start event" : "boundary");
            }
        }
      return;
    }

  {
    g_autofree char *p = _wn_check_path_key (path, "timer");
    gboolean interrupting = TRUE;

    if (!src->has_date)
      _wn_check_duration (ctx, timer, p, TRUE, &src->timer);
    _wn_check_member_bool (ctx, node, path, "interrupting", FALSE, &interrupting);
    src->non_interrupting = !interrupting;
    if (_wn_check_member_uint (ctx, node, path, "repeat", FALSE, 1, &src->repeat) &&
        src->repeat > 1 && interrupting)
      {
        g_autofree char *rp = _wn_check_path_key (path, "repeat");

        _wn_check_report (ctx, json_object_get_member (object, "repeat"), rp,
                          "an interrupting timer fires once: `repeat` needs \"interrupting\": false");
      }
  }
}

static void
parse_node (WnCheck    *ctx,
            JsonNode   *node,
            NodeSrc    *src,
            GHashTable *ids)
{
  static const char * const start_keys_node[] = { "id", "type", "name", NULL };
  static const char * const trigger_start_keys[] = { "id", "type", "name", "error", "timer", "repeat",
                                                      "interrupting", "message", "correlation", NULL };
  static const char * const end_keys[] = { "id", "type", "name", "error", "terminate", NULL };
  static const char * const task_keys[] = { "id", "type", "name", "duration", "multiInstance", NULL };
  static const char * const script_keys[] = { "id", "type", "name", "set", "duration", "multiInstance", NULL };
  static const char * const service_keys[] = { "id", "type", "name", "worker", "duration", "multiInstance", NULL };
  static const char * const user_keys[] = { "id", "type", "name", "multiInstance", NULL };
  static const char * const boundary_keys[] = { "id", "type", "name", "attachedTo", "error", "timer",
                                                 "repeat", "interrupting", "message", "correlation", "date", NULL };
  static const char * const message_keys[] = { "id", "type", "name", "message", "correlation", NULL };
  static const char * const subprocess_keys[] = { "id", "type", "name", "nodes", "flows", "multiInstance",
                                                   "triggeredByEvent", NULL };
  static const char * const exclusive_keys[] = { "id", "type", "name", "default", "decidedBy", NULL };
  static const char * const timer_keys[] = { "id", "type", "name", "duration", "date", NULL };
  const char * const *allowed = start_keys_node;
  const char *path = src->path;
  g_autofree char *what = NULL;
  JsonNode *m;

  if (!_wn_check_object (ctx, node, path))
    return;

  src->id = parse_unique_id (ctx, node, path, ids);

  if ((m = _wn_check_member (ctx, node, path, "type", TRUE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "type");
      const char *type = _wn_check_string (ctx, m, p);

      if (type != NULL)
        {
          if (wn_node_type_from_string (type, &src->type))
            src->type_ok = TRUE;
          else
            _wn_check_report (ctx, m, p, "unknown node type \"%s\" (expected startEvent, endEvent, task, "
                    "scriptTask, serviceTask, manualTask, boundaryEvent, exclusiveGateway, "
                    "parallelGateway, timerEvent, intermediateThrowEvent, subProcess, userTask, "
                    "messageEvent, receiveTask or eventBasedGateway)", type);
        }
    }

  if ((m = _wn_check_member (ctx, node, path, "name", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "name");

      src->name = g_strdup (_wn_check_string (ctx, m, p));
    }

  if (!src->type_ok)
    {
      if (!json_object_has_member (json_node_get_object (node), "type"))
        _wn_check_keys (ctx, node, path, node_keys_all, NULL, NULL);
      return;
    }

  switch (src->type)
    {
    case WN_NODE_START:     allowed = src->in_esp ? trigger_start_keys : start_keys_node; break;
    case WN_NODE_END:       allowed = end_keys; break;
    case WN_NODE_TASK:      allowed = task_keys; break;
    case WN_NODE_SCRIPT:    allowed = script_keys; break;
    case WN_NODE_SERVICE:   allowed = service_keys; break;
    case WN_NODE_BOUNDARY:  allowed = boundary_keys; break;
    case WN_NODE_EXCLUSIVE: allowed = exclusive_keys; break;
    case WN_NODE_PARALLEL:  allowed = start_keys_node; break;
    case WN_NODE_TIMER:     allowed = timer_keys; break;
    case WN_NODE_SUBPROCESS: allowed = subprocess_keys; break;
    case WN_NODE_MANUAL:    allowed = task_keys; break;
    case WN_NODE_THROW:     allowed = start_keys_node; break;
    case WN_NODE_USER:      allowed = user_keys; break;
    case WN_NODE_MESSAGE:   allowed = message_keys; break;
    case WN_NODE_RECEIVE:   allowed = message_keys; break;
    case WN_NODE_EVENT_GATEWAY: allowed = start_keys_node; break;
    default:                allowed = start_keys_node; break;
    }
  what = g_strdup_printf ("%s %s", _wn_check_article (wn_node_type_to_string (src->type)),
                          wn_node_type_to_string (src->type));
  _wn_check_keys (ctx, node, path, allowed, node_keys_all, what);

  if (src->type == WN_NODE_TIMER && (m = json_object_get_member (json_node_get_object (node), "date")) != NULL)
    {
      if (json_object_has_member (json_node_get_object (node), "duration"))
        {
          g_autofree char *p = _wn_check_path_key (path, "date");

          _wn_check_report (ctx, m, p, "a timerEvent waits a `duration` or until a `date`, not both");
        }
      else
        parse_date (ctx, m, src);
    }
  if (_wn_check_in_list (allowed, "duration") &&
      (m = _wn_check_member (ctx, node, path, "duration", src->type == WN_NODE_TIMER && !src->has_date)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "duration");

      if (src->type == WN_NODE_SERVICE &&
          json_object_has_member (json_node_get_object (node), "worker"))
        _wn_check_report (ctx, m, p, "a serviceTask with a worker takes no duration "
                "(its worker's responses set the time)");
      else
        _wn_check_duration (ctx, m, p, FALSE, &src->duration);
    }

  if (src->type == WN_NODE_SCRIPT && (m = _wn_check_member (ctx, node, path, "set", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "set");

      parse_set (ctx, m, p, src);
    }

  if (src->type == WN_NODE_SERVICE && (m = _wn_check_member (ctx, node, path, "worker", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "worker");

      src->worker = parse_worker (ctx, m, p);
    }

  if (src->type == WN_NODE_END && (m = _wn_check_member (ctx, node, path, "error", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "error");

      src->error_code = g_strdup (_wn_check_nonempty (ctx, m, p));
    }
  if (src->type == WN_NODE_END && _wn_check_member_bool (ctx, node, path, "terminate", FALSE, &src->terminate) &&
      src->terminate && src->error_code != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "terminate");

      _wn_check_report (ctx, json_object_get_member (json_node_get_object (node), "terminate"), p,
                        "an endEvent either throws an error or terminates, not both");
    }

  if (src->type == WN_NODE_BOUNDARY || (src->type == WN_NODE_START && src->in_esp))
    parse_boundary (ctx, node, src, src->type == WN_NODE_START);
  if (src->type == WN_NODE_MESSAGE || src->type == WN_NODE_RECEIVE ||
      ((src->type == WN_NODE_BOUNDARY || src->type == WN_NODE_START) && src->message != NULL))
    parse_message (ctx, node, src);

  if (_wn_check_in_list (allowed, "multiInstance") &&
      (m = _wn_check_member (ctx, node, path, "multiInstance", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "multiInstance");

      src->multi = parse_multi (ctx, m, p);
    }

  if (src->type == WN_NODE_SUBPROCESS)
    {
      _wn_check_member_bool (ctx, node, path, "triggeredByEvent", FALSE, &src->triggered_by_event);
      if (src->triggered_by_event && src->multi != NULL)
        {
          g_autofree char *p = _wn_check_path_key (path, "multiInstance");

          _wn_check_report (ctx, json_object_get_member (json_node_get_object (node), "multiInstance"), p,
                            "an event sub-process cannot be multi-instance");
        }
      src->nodes_json = _wn_check_member (ctx, node, path, "nodes", TRUE);
      src->flows_json = _wn_check_member (ctx, node, path, "flows", FALSE);
    }

  if (src->type == WN_NODE_BOUNDARY &&
      (m = _wn_check_member (ctx, node, path, "attachedTo", TRUE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "attachedTo");

      if (_wn_check_identifier (ctx, m, p) != NULL)
        src->attached_json = m;
    }

  if (src->type == WN_NODE_EXCLUSIVE &&
      (m = _wn_check_member (ctx, node, path, "default", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "default");

      if (_wn_check_identifier (ctx, m, p) != NULL)
        src->default_json = m;
    }
  if (src->type == WN_NODE_EXCLUSIVE &&
      (m = _wn_check_member (ctx, node, path, "decidedBy", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "decidedBy");
      const char *by = _wn_check_string (ctx, m, p);

      if (by != NULL && strcmp (by, "scenario") != 0)
        _wn_check_report (ctx, m, p, "must be \"scenario\" (the scenario's `decisions` weigh the flows), "
                          "not \"%s\"", by);
      else if (by != NULL && src->default_json != NULL)
        _wn_check_report (ctx, m, p, "a gateway the scenario decides has no `default` flow: every flow "
                          "leaving it is one the draw can take");
      else if (by != NULL)
        src->decided_json = m;
    }
}

static int
find_node_src (GHashTable *node_ids, const char *id)
{
  gpointer v = g_hash_table_lookup (node_ids, id);

  return v != NULL ? (int) GPOINTER_TO_UINT (v) - 1 : -1;
}

static void
parse_flow (WnCheck    *ctx,
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

  if (!_wn_check_object (ctx, node, path))
    {
      *unresolved = TRUE;
      return;
    }
  _wn_check_keys (ctx, node, path, flow_keys, NULL, NULL);

  src->id = parse_unique_id (ctx, node, path, ids);

  for (guint end = 0; end < 2; end++)
    {
      const char *key = end == 0 ? "from" : "to";
      g_autofree char *p = _wn_check_path_key (path, key);
      const char *id;
      int index;
      const NodeSrc *target;

      m = _wn_check_member (ctx, node, path, key, TRUE);
      if (m == NULL)
        {
          *unresolved = TRUE;
          continue;
        }
      id = _wn_check_identifier (ctx, m, p);
      if (id == NULL)
        {
          *unresolved = TRUE;
          continue;
        }
      index = find_node_src (node_ids, id);
      if (index < 0)
        {
          _wn_check_report (ctx, m, p, "unknown node \"%s\"", id);
          *unresolved = TRUE;
          continue;
        }
      target = g_ptr_array_index (nodes, index);
      if (target->triggered_by_event)
        _wn_check_report (ctx, m, p, "an event sub-process has no %s flows (\"%s\" starts by its start "
                          "event's trigger)", end == 0 ? "outgoing" : "incoming", id);
      else if (end == 0)
        {
          src->from = index;
          if (target->type == WN_NODE_END)
            _wn_check_report (ctx, m, p, "an endEvent cannot have outgoing flows (\"%s\" is an endEvent)", id);
        }
      else
        {
          src->to = index;
          if (target->type == WN_NODE_START)
            _wn_check_report (ctx, m, p, "a startEvent cannot have incoming flows (\"%s\" is the startEvent)", id);
          else if (target->type == WN_NODE_BOUNDARY)
            _wn_check_report (ctx, m, p, "a boundaryEvent cannot have incoming flows (\"%s\" is a boundaryEvent)", id);
        }
    }

  if (src->from >= 0 && src->to >= 0 &&
      ((NodeSrc *) g_ptr_array_index (nodes, src->from))->type == WN_NODE_EVENT_GATEWAY)
    {
      const NodeSrc *to = g_ptr_array_index (nodes, src->to);

      if (to->type != WN_NODE_TIMER && to->type != WN_NODE_MESSAGE)
        {
          g_autofree char *p = _wn_check_path_key (path, "to");

          _wn_check_report (ctx, json_object_get_member (json_node_get_object (node), "to"), p,
                            "a flow leaving an eventBasedGateway goes to a timerEvent or a messageEvent "
                            "(\"%s\" is %s %s)", to->id, _wn_check_article (wn_node_type_to_string (to->type)),
                            wn_node_type_to_string (to->type));
        }
    }

  if ((m = _wn_check_member (ctx, node, path, "condition", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "condition");

      src->condition_json = m;
      src->condition = _wn_check_lite (ctx, m, p);
      if (src->from >= 0 &&
          ((NodeSrc *) g_ptr_array_index (nodes, src->from))->type != WN_NODE_EXCLUSIVE)
        _wn_check_report (ctx, m, p, "a condition only applies to a flow leaving an exclusiveGateway");
      else if (src->from >= 0 && ((NodeSrc *) g_ptr_array_index (nodes, src->from))->decided_json != NULL)
        _wn_check_report (ctx, m, p, "a flow leaving a gateway the scenario decides (\"decidedBy\": "
                          "\"scenario\") takes no condition");
    }
}

/* The nodes of the array `json` (at PREFIX.nodes) inside the scope `scope`
 * (a source index, -1: the process), a subProcess's own nodes right after it;
 * FALSE when one of them could not be taken (no id or no type). */
static gboolean
parse_nodes (WnCheck    *ctx,
             JsonNode   *json,
             const char *prefix,
             int         scope,
             GPtrArray  *nodes,
             GHashTable *node_ids,
             GHashTable *ids)
{
  g_autofree char *path = _wn_check_path_key (prefix, "nodes");
  JsonArray *array = _wn_check_array (ctx, json, path);
  gboolean ok = array != NULL;

  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      NodeSrc *src = g_new0 (NodeSrc, 1);
      int index;

      src->json = json_array_get_element (array, i);
      src->path = _wn_check_path_index (path, i);
      src->scope = scope;
      src->in_esp = scope >= 0 && ((NodeSrc *) g_ptr_array_index (nodes, scope))->triggered_by_event;
      parse_node (ctx, src->json, src, ids);
      if (src->id == NULL || !src->type_ok)
        {
          ok = FALSE;
          node_src_free (src);
          continue;
        }
      g_ptr_array_add (nodes, src);
      index = (int) nodes->len - 1;
      g_hash_table_insert (node_ids, (gpointer) src->id, GUINT_TO_POINTER (nodes->len));
      if (src->type == WN_NODE_SUBPROCESS && src->nodes_json != NULL &&
          !parse_nodes (ctx, src->nodes_json, src->path, index, nodes, node_ids, ids))
        ok = FALSE;
    }
  return ok;
}

/* How a scope is named in messages. */
static char *
scope_name (GPtrArray *nodes,
            int        scope)
{
  if (scope < 0)
    return g_strdup ("the process");
  return g_strdup_printf ("subProcess \"%s\"", ((NodeSrc *) g_ptr_array_index (nodes, scope))->id);
}

/* The flows of the array `json` (PREFIX.flows, may be NULL) of the scope `scope`:
 * both ends inside it. */
static void
parse_flows (WnCheck    *ctx,
             JsonNode   *json,
             const char *prefix,
             int         scope,
             GPtrArray  *flows,
             GPtrArray  *nodes,
             GHashTable *node_ids,
             GHashTable *ids,
             gboolean   *unresolved)
{
  g_autofree char *path = _wn_check_path_key (prefix, "flows");
  JsonArray *array = json != NULL ? _wn_check_array (ctx, json, path) : NULL;

  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      FlowSrc *src = g_new0 (FlowSrc, 1);
      JsonNode *flow = json_array_get_element (array, i);

      src->json = flow;
      src->path = _wn_check_path_index (path, i);
      src->scope = scope;
      parse_flow (ctx, flow, src, nodes, node_ids, ids, unresolved);
      if (src->id == NULL || src->from < 0 || src->to < 0)
        {
          *unresolved = TRUE;
          flow_src_free (src);
          continue;
        }
      for (guint end = 0; end < 2; end++)
        {
          const NodeSrc *n = g_ptr_array_index (nodes, end == 0 ? src->from : src->to);

          if (n->scope != scope)
            {
              g_autofree char *p = _wn_check_path_key (src->path, end == 0 ? "from" : "to");
              g_autofree char *here = scope_name (nodes, scope);
              g_autofree char *there = scope_name (nodes, n->scope);

              _wn_check_report (ctx, json_object_get_member (json_node_get_object (flow), end == 0 ? "from" : "to"),
                                p, "a flow stays inside its scope: it is listed in %s, \"%s\" is in %s",
                                here, n->id, there);
              *unresolved = TRUE;
            }
        }
      g_ptr_array_add (flows, src);
    }
}

static WnProcess *
build_process (WnCheck    *ctx,
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
      node->terminate = src->terminate;
      node->catch_all = src->catch_all;
      node->timer = src->timer;
      node->repeat = src->repeat > 0 ? src->repeat : 1;
      node->non_interrupting = src->non_interrupting;
      node->has_date = src->has_date;
      node->date_us = src->date_us;
      if (node->has_date && node->type == WN_NODE_TIMER)
        node->duration = 1;
      else if (node->has_date)
        node->timer = 1;
      node->message = g_steal_pointer (&src->message);
      node->correlation = g_steal_pointer (&src->correlation);
      node->multi = g_steal_pointer (&src->multi);
      node->triggered_by_event = src->triggered_by_event;
      node->scenario_decides = src->decided_json != NULL;
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
      if (src->scope >= 0)
        wn_process_set_scope (process, src->id, ((NodeSrc *) g_ptr_array_index (nodes, src->scope))->id);
    }

  if (!wn_process_finish (process, &error))
    {
      _wn_check_report (ctx, root, "", "%s", error->message);
      wn_process_unref (process);
      return NULL;
    }
  return process;
}

static WnProcess *
parse_process (WnCheck *ctx, JsonNode *root)
{
  g_autoptr(GPtrArray) nodes = g_ptr_array_new_with_free_func (node_src_free);
  g_autoptr(GPtrArray) flows = g_ptr_array_new_with_free_func (flow_src_free);
  g_autoptr(GHashTable) ids = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_autoptr(GHashTable) node_ids = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) flow_ids = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) status_nodes = g_ptr_array_new ();
  g_autoptr(GPtrArray) status_paths = g_ptr_array_new_with_free_func (g_free);
  WnStatusRules engine_status = { status_nodes, status_paths };
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
      _wn_check_report (ctx, root, "", "a process must be a JSON object, not %s", _wn_check_type_name (root));
      return NULL;
    }

  if ((m = _wn_check_member (ctx, root, "", "format", TRUE)) != NULL)
    {
      const char *format = _wn_check_string (ctx, m, "format");

      if (format != NULL && strcmp (format, WN_PROCESS_FORMAT) != 0)
        {
          if (strcmp (format, WN_SCENARIO_FORMAT) == 0)
            _wn_check_report (ctx, m, "format", "must be \"" WN_PROCESS_FORMAT "\" (this is a scenario)");
          else
            _wn_check_report (ctx, m, "format", "must be \"" WN_PROCESS_FORMAT "\", not \"%s\"", format);
          return NULL;
        }
    }
  _wn_check_keys (ctx, root, "", process_keys, NULL, NULL);

  if ((m = _wn_check_member (ctx, root, "", "id", TRUE)) != NULL)
    id = _wn_check_identifier (ctx, m, "id");
  if ((m = _wn_check_member (ctx, root, "", "name", FALSE)) != NULL)
    name = _wn_check_string (ctx, m, "name");
  if ((m = _wn_check_member (ctx, root, "", "x-about", FALSE)) != NULL && _wn_check_holds_type (m, G_TYPE_STRING))
    about = json_node_get_string (m);
  if ((m = _wn_check_member (ctx, root, "", "variables", FALSE)) != NULL && _wn_check_object (ctx, m, "variables"))
    variables = json_node_get_object (m);
  if ((m = _wn_check_member (ctx, root, "", "engine", FALSE)) != NULL)
    _wn_load_engine_block (ctx, m, "engine", &engine, &engine_status);

  if ((nodes_json = _wn_check_member (ctx, root, "", "nodes", TRUE)) != NULL)
    {
      if (!parse_nodes (ctx, nodes_json, "", -1, nodes, node_ids, ids))
        nodes_ok = FALSE;
      if (!JSON_NODE_HOLDS_ARRAY (nodes_json))
        nodes_json = NULL;
    }
  else
    {
      nodes_ok = FALSE;
    }

  parse_flows (ctx, _wn_check_member (ctx, root, "", "flows", FALSE), "", -1, flows, nodes, node_ids, ids,
               &unresolved);
  for (guint i = 0; i < nodes->len; i++)
    {
      NodeSrc *src = g_ptr_array_index (nodes, i);

      if (src->type == WN_NODE_SUBPROCESS)
        parse_flows (ctx, src->flows_json, src->path, (int) i, flows, nodes, node_ids, ids, &unresolved);
    }

  /* Start and end events: one start and at least one end in every scope. */
  {
    g_autofree int *first = g_new0 (int, nodes->len + 1);    /* per scope + 1: start index + 1 */
    g_autofree guint *ends = g_new0 (guint, nodes->len + 1);

    for (guint i = 0; i < nodes->len; i++)
      {
        NodeSrc *src = g_ptr_array_index (nodes, i);
        guint in = (guint) (src->scope + 1);

        if (src->type == WN_NODE_START)
          {
            if (in == 0)
              n_starts++;
            if (first[in] == 0)
              first[in] = (int) i + 1;
            else
              {
                g_autofree char *p = _wn_check_path_key (src->path, "type");
                NodeSrc *other = g_ptr_array_index (nodes, first[in] - 1);

                _wn_check_report (ctx, json_object_get_member (json_node_get_object (src->json), "type"), p,
                        "a second startEvent (the first is %s; exactly one is allowed)", other->path);
              }
          }
        else if (src->type == WN_NODE_END)
          {
            if (in == 0)
              n_ends++;
            ends[in]++;
          }
      }
    start = first[0] - 1;
    if (nodes_json != NULL && nodes_ok && n_starts == 0)
      _wn_check_report (ctx, nodes_json, "nodes", "no startEvent (exactly one is needed)");
    if (nodes_json != NULL && nodes_ok && n_ends == 0)
      _wn_check_report (ctx, nodes_json, "nodes", "no endEvent (at least one is needed)");
    for (guint i = 0; nodes_ok && i < nodes->len; i++)
      {
        NodeSrc *src = g_ptr_array_index (nodes, i);
        g_autofree char *p = NULL;

        if (src->type != WN_NODE_SUBPROCESS || src->nodes_json == NULL)
          continue;
        p = _wn_check_path_key (src->path, "nodes");
        if (first[i + 1] == 0)
          _wn_check_report (ctx, src->nodes_json, p, "no startEvent in subProcess \"%s\" (exactly one is needed)",
                            src->id);
        if (ends[i + 1] == 0)
          _wn_check_report (ctx, src->nodes_json, p, "no endEvent in subProcess \"%s\" (at least one is needed)",
                            src->id);
      }
  }

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
          g_autofree char *p = _wn_check_path_key (src->path, "attachedTo");
          const char *host_id = json_node_get_string (src->attached_json);
          int host = find_node_src (node_ids, host_id);

          if (host < 0)
            {
              _wn_check_report (ctx, src->attached_json, p, "unknown node \"%s\"", host_id);
              unresolved = TRUE;
            }
          else
            {
              const NodeSrc *h = g_ptr_array_index (nodes, host);

              if (h->type != WN_NODE_TASK && h->type != WN_NODE_SCRIPT && h->type != WN_NODE_SERVICE &&
                  h->type != WN_NODE_MANUAL && h->type != WN_NODE_SUBPROCESS && h->type != WN_NODE_USER &&
                  h->type != WN_NODE_RECEIVE)
                {
                  _wn_check_report (ctx, src->attached_json, p,
                          "a boundaryEvent attaches to a task, scriptTask, serviceTask, manualTask, userTask, "
                          "receiveTask or subProcess "
                          "(\"%s\" is %s %s)", host_id, _wn_check_article (wn_node_type_to_string (h->type)),
                          wn_node_type_to_string (h->type));
                  unresolved = TRUE;
                }
              else if (h->triggered_by_event)
                {
                  _wn_check_report (ctx, src->attached_json, p, "an event sub-process takes no boundary "
                                    "events (\"%s\" is one)", host_id);
                  unresolved = TRUE;
                }
              else if (h->scope != src->scope)
                {
                  g_autofree char *here = scope_name (nodes, src->scope);
                  g_autofree char *there = scope_name (nodes, h->scope);

                  _wn_check_report (ctx, src->attached_json, p,
                          "a boundaryEvent is in the scope of its host: it is in %s, \"%s\" in %s",
                          here, host_id, there);
                  unresolved = TRUE;
                }
            }
          if (host < 0)
            src->attached_json = NULL;
        }

      if (src->default_json != NULL)
        {
          g_autofree char *p = _wn_check_path_key (src->path, "default");
          const char *flow_id = json_node_get_string (src->default_json);
          FlowSrc *flow = g_hash_table_lookup (flow_ids, flow_id);

          if (flow == NULL)
            {
              gboolean is_node = find_node_src (node_ids, flow_id) >= 0;

              if (is_node)
                _wn_check_report (ctx, src->default_json, p, "must name a flow leaving this gateway, "
                        "not a node (\"%s\")", flow_id);
              else if (!g_hash_table_contains (ids, flow_id))
                _wn_check_report (ctx, src->default_json, p, "unknown flow \"%s\"", flow_id);
            }
          else if (flow->from != (int) i)
            {
              _wn_check_report (ctx, src->default_json, p, "flow \"%s\" does not leave this gateway "
                      "(it leaves \"%s\")", flow_id,
                      ((NodeSrc *) g_ptr_array_index (nodes, flow->from))->id);
            }
          else if (flow->condition_json != NULL)
            {
              g_autofree char *cp = _wn_check_path_key (flow->path, "condition");

              _wn_check_report (ctx, flow->condition_json, cp, "the default flow of a gateway takes no condition");
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
      /* a subProcess leads to its start event; a scope to its event sub-processes */
      for (guint k = 0; k < nodes->len; k++)
        {
          const NodeSrc *n = g_ptr_array_index (nodes, k);

          if (n->type == WN_NODE_START && n->scope >= 0)
            g_array_append_val (g_ptr_array_index (next, n->scope), k);
          if (n->triggered_by_event)
            g_array_append_val (g_ptr_array_index (next, n->scope >= 0 ? (guint) n->scope : (guint) start), k);
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
            _wn_check_report (ctx, src->json, src->path, "node \"%s\" is unreachable from the start event", src->id);
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
        _wn_check_report (ctx, g_ptr_array_index (engine_status.nodes, i), g_ptr_array_index (engine_status.paths, i),
                "a status rule, but task \"%s\" uses this mapper and has no worker.status", offender->id);
    }

  if ((m = _wn_check_member (ctx, root, "", "scenario", FALSE)) != NULL)
    scenario = _wn_load_scenario_object (ctx, m, "scenario", TRUE);

  if (_wn_check_n_errors (ctx) > 0 || id == NULL)
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

/* ---- entry points ------------------------------------------------------- */

WnProcess *
wn_load_process_data (const char  *data,
                      gssize       length,
                      const char  *display_name,
                      GPtrArray  **diagnostics,
                      GError     **error)
{
  WnProcess *process;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  process = _wn_check_load (data, length, display_name, (WnCheckParseFunc) parse_process,
                            (GDestroyNotify) wn_process_unref, diagnostics, error);
  if (process == NULL)
    return NULL;
  process->filename = g_strdup (display_name);
  if (process->scenario != NULL && process->scenario->filename == NULL)
    process->scenario->filename = g_strdup (display_name);
  return process;
}

WnProcess *
wn_load_process_file (const char *filename, GPtrArray **diagnostics, GError **error)
{
  return wn_load_process_file_full (filename, WN_LOAD_DEFAULT_MAX_SIZE, diagnostics, error);
}

/* A file's contents: BPMN 2.0 when it is XML, else winnow.process/1. */
static WnProcess *
load_process_or_bpmn (const char  *data,
                      gssize       length,
                      const char  *display_name,
                      GPtrArray  **diagnostics,
                      GError     **error)
{
  if (wn_load_data_is_xml (data, (gsize) length))
    return wn_load_bpmn_data (data, length, display_name, NULL, NULL, diagnostics, error);
  return wn_load_process_data (data, length, display_name, diagnostics, error);
}

WnProcess *
wn_load_process_file_full (const char *filename, gsize max_size, GPtrArray **diagnostics, GError **error)
{
  return _wn_check_load_file (filename, max_size, (WnCheckLoadFunc) load_process_or_bpmn, diagnostics, error);
}

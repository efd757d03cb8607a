/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-process.c — the process model and its by-hand builder. */
#include "wn-process.h"

#include "wn-loader.h"
#include "wn-scenario.h"
#include "wn-journal-private.h"

#include <string.h>

typedef struct {
  guint  node;
  char  *ref;                  /* the flow id (defaults) or the host id (attachments) */
} Pending;

typedef struct {
  guint      node_capacity;
  guint      flow_capacity;
  GPtrArray *flow_from;        /* char*, one per flow */
  GPtrArray *flow_to;          /* char*, one per flow */
  GArray    *defaults;         /* Pending */
  GArray    *attachments;      /* Pending */
  GArray    *scopes;           /* Pending: ref is the parent subProcess's id */
  GPtrArray *errors;           /* char*: problems noticed while adding */
} Builder;

static const char * const node_type_names[] = {
  [WN_NODE_START] = "startEvent",
  [WN_NODE_END] = "endEvent",
  [WN_NODE_TASK] = "task",
  [WN_NODE_SCRIPT] = "scriptTask",
  [WN_NODE_SERVICE] = "serviceTask",
  [WN_NODE_BOUNDARY] = "boundaryEvent",
  [WN_NODE_EXCLUSIVE] = "exclusiveGateway",
  [WN_NODE_PARALLEL] = "parallelGateway",
  [WN_NODE_TIMER] = "timerEvent",
  [WN_NODE_SUBPROCESS] = "subProcess",
  [WN_NODE_MANUAL] = "manualTask",
  [WN_NODE_THROW] = "intermediateThrowEvent",
  [WN_NODE_USER] = "userTask",
  [WN_NODE_MESSAGE] = "messageEvent",
  [WN_NODE_RECEIVE] = "receiveTask",
  [WN_NODE_EVENT_GATEWAY] = "eventBasedGateway",
};

static void
pending_clear (gpointer data)
{
  Pending *p = data;

  g_clear_pointer (&p->ref, g_free);
}

static Builder *
builder_new (void)
{
  Builder *b = g_new0 (Builder, 1);

  b->flow_from = g_ptr_array_new_with_free_func (g_free);
  b->flow_to = g_ptr_array_new_with_free_func (g_free);
  b->defaults = g_array_new (FALSE, TRUE, sizeof (Pending));
  g_array_set_clear_func (b->defaults, pending_clear);
  b->attachments = g_array_new (FALSE, TRUE, sizeof (Pending));
  g_array_set_clear_func (b->attachments, pending_clear);
  b->scopes = g_array_new (FALSE, TRUE, sizeof (Pending));
  g_array_set_clear_func (b->scopes, pending_clear);
  b->errors = g_ptr_array_new_with_free_func (g_free);
  return b;
}

static void
builder_free (gpointer data)
{
  Builder *b = data;

  if (b == NULL)
    return;
  g_ptr_array_unref (b->flow_from);
  g_ptr_array_unref (b->flow_to);
  g_array_unref (b->defaults);
  g_array_unref (b->attachments);
  g_array_unref (b->scopes);
  g_ptr_array_unref (b->errors);
  g_free (b);
}

static void
node_clear (WnNode *node)
{
  g_clear_pointer (&node->id, g_free);
  g_clear_pointer (&node->name, g_free);
  for (guint i = 0; i < node->n_set; i++)
    {
      g_free (node->set[i].var);
      g_clear_pointer (&node->set[i].expr, wn_lite_unref);
    }
  g_clear_pointer (&node->set, g_free);
  node->n_set = 0;
  g_clear_pointer (&node->worker, wn_worker_spec_free);
  g_clear_pointer (&node->error_code, g_free);
  g_clear_pointer (&node->message, g_free);
  g_clear_pointer (&node->correlation, wn_lite_unref);
  g_clear_pointer (&node->multi, wn_multi_instance_free);
  g_clear_pointer (&node->outgoing, g_array_unref);
  g_clear_pointer (&node->incoming, g_array_unref);
  g_clear_pointer (&node->boundaries, g_array_unref);
  g_clear_pointer (&node->event_subs, g_array_unref);
}

static void
flow_clear (WnFlow *flow)
{
  g_clear_pointer (&flow->id, g_free);
  g_clear_pointer (&flow->condition, wn_lite_unref);
}

/* What a boundary event may be attached to. */
static gboolean
is_host_type (WnNodeType type)
{
  return type == WN_NODE_TASK || type == WN_NODE_SCRIPT || type == WN_NODE_SERVICE ||
         type == WN_NODE_MANUAL || type == WN_NODE_SUBPROCESS || type == WN_NODE_USER ||
         type == WN_NODE_RECEIVE;
}

/* Whether the node needs more than a v1 engine has. */
static gboolean
is_extended (const WnNode *node)
{
  return node->type >= WN_NODE_SUBPROCESS || node->scope >= 0 || node->terminate ||
         node->catch_all || node->timer > 0 || node->message != NULL || node->multi != NULL;
}

static int
lookup_node (const WnProcess *process, const char *id)
{
  gpointer v;

  if (id == NULL)
    return -1;
  v = g_hash_table_lookup (process->node_index, id);
  return v != NULL ? (int) GPOINTER_TO_UINT (v) - 1 : -1;
}

static int
lookup_flow (const WnProcess *process, const char *id)
{
  if (id == NULL)
    return -1;
  for (guint i = 0; i < process->n_flows; i++)
    if (g_strcmp0 (process->flows[i].id, id) == 0)
      return (int) i;
  return -1;
}

/* A flow index from an id → index + 1 table, or -1. */
static int
lookup_flow_in (GHashTable *flow_ids, const char *id)
{
  gpointer v = id != NULL ? g_hash_table_lookup (flow_ids, id) : NULL;

  return v != NULL ? (int) GPOINTER_TO_UINT (v) - 1 : -1;
}

/* Grow by doubling so that adding n items costs O(n). */
static guint
grow (guint capacity, guint needed)
{
  guint c = MAX (capacity, 4);

  while (c < needed)
    c *= 2;
  return c;
}

const char *
wn_node_type_to_string (WnNodeType type)
{
  if ((guint) type >= G_N_ELEMENTS (node_type_names))
    return "unknown";
  return node_type_names[type];
}

gboolean
wn_node_type_from_string (const char *text, WnNodeType *out)
{
  if (text == NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (node_type_names); i++)
    {
      if (strcmp (text, node_type_names[i]) == 0)
        {
          if (out != NULL)
            *out = (WnNodeType) i;
          return TRUE;
        }
    }
  return FALSE;
}

void
wn_engine_config_clear (WnEngineConfig *config)
{
  if (config == NULL)
    return;
  wn_policy_level_clear (&config->policy);
  memset (config, 0, sizeof *config);
}

void
wn_engine_config_merge (WnEngineConfig *base, const WnEngineConfig *over)
{
  g_return_if_fail (base != NULL);

  if (over == NULL)
    return;

  if (over->policy.trust != WN_TRUST_UNSET)
    base->policy.trust = over->policy.trust;
  if (over->policy.has_retry)
    {
      base->policy.has_retry = TRUE;
      base->policy.retry = over->policy.retry;
    }
  if (over->policy.mapper != NULL)
    {
      WnErrorMapper *old = base->policy.mapper;

      base->policy.mapper = wn_error_mapper_ref (over->policy.mapper);
      g_clear_pointer (&old, wn_error_mapper_unref);
    }
  if (over->policy.mapping != NULL)
    {
      WnOutputMapping *old = base->policy.mapping;

      base->policy.mapping = wn_output_mapping_ref (over->policy.mapping);
      g_clear_pointer (&old, wn_output_mapping_unref);
    }
  if (over->has_max_lock)
    {
      base->has_max_lock = TRUE;
      base->max_lock = over->max_lock;
    }
  if (over->on_exhausted != WN_ON_EXHAUSTED_UNSET)
    base->on_exhausted = over->on_exhausted;
}

void
wn_multi_instance_free (WnMultiInstance *multi)
{
  if (multi == NULL)
    return;
  g_clear_pointer (&multi->collection, wn_path_free);
  g_free (multi->element);
  g_clear_pointer (&multi->completion, wn_lite_unref);
  g_free (multi->output_collection);
  g_clear_pointer (&multi->output_element, wn_lite_unref);
  g_free (multi);
}

WnWorkerSpec *
wn_worker_spec_new (const char *topic)
{
  WnWorkerSpec *spec = g_new0 (WnWorkerSpec, 1);

  spec->topic = g_strdup (topic);
  return spec;
}

void
wn_worker_spec_free (WnWorkerSpec *spec)
{
  if (spec == NULL)
    return;
  g_free (spec->topic);
  g_clear_pointer (&spec->input, g_ptr_array_unref);
  wn_policy_level_clear (&spec->policy);
  g_free (spec->output_var);
  g_free (spec->status_var);
  g_free (spec);
}

WnProcess *
wn_process_ref (WnProcess *process)
{
  g_return_val_if_fail (process != NULL, NULL);
  g_return_val_if_fail (process->ref_count > 0, NULL);

  g_atomic_int_inc (&process->ref_count);
  return process;
}

void
wn_diagram_free (WnDiagram *diagram)
{
  if (diagram == NULL)
    return;
  for (guint i = 0; i < diagram->n_edges; i++)
    g_free (diagram->edges[i].points);
  for (guint i = 0; i < diagram->n_frames; i++)
    g_free (diagram->frames[i].name);
  g_free (diagram->frames);
  g_free (diagram->collapsed);
  g_free (diagram->node_labels);
  g_free (diagram->flow_labels);
  g_free (diagram->edges);
  g_free (diagram->shapes);
  g_free (diagram);
}

void
wn_process_unref (WnProcess *process)
{
  g_return_if_fail (process != NULL);
  g_return_if_fail (process->ref_count > 0);

  if (!g_atomic_int_dec_and_test (&process->ref_count))
    return;

  for (guint i = 0; i < process->n_nodes; i++)
    node_clear (&process->nodes[i]);
  g_free (process->nodes);
  for (guint i = 0; i < process->n_flows; i++)
    flow_clear (&process->flows[i]);
  g_free (process->flows);

  g_free (process->filename);
  g_free (process->id);
  g_free (process->name);
  g_free (process->about);
  g_clear_pointer (&process->variables, json_object_unref);
  wn_engine_config_clear (&process->engine);
  g_clear_pointer (&process->scenario, wn_scenario_unref);
  g_clear_pointer (&process->event_subs, g_array_unref);
  g_clear_pointer (&process->node_index, g_hash_table_unref);
  g_clear_pointer (&process->warnings, g_ptr_array_unref);
  g_clear_pointer (&process->diagram, wn_diagram_free);
  g_clear_pointer (&process->builder, builder_free);
  g_free (process);
}

const WnNode *
wn_process_find_node (const WnProcess *process, const char *id)
{
  int i;

  g_return_val_if_fail (process != NULL, NULL);

  i = lookup_node (process, id);
  return i >= 0 ? &process->nodes[i] : NULL;
}

const WnFlow *
wn_process_find_flow (const WnProcess *process, const char *id)
{
  int i;

  g_return_val_if_fail (process != NULL, NULL);

  i = lookup_flow (process, id);
  return i >= 0 ? &process->flows[i] : NULL;
}

WnProcess *
wn_process_new (const char *id)
{
  WnProcess *process = g_new0 (WnProcess, 1);

  process->ref_count = 1;
  process->id = g_strdup (id);
  process->variables = json_object_new ();
  process->node_index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  process->builder = builder_new ();
  return process;
}

WnNode *
wn_process_add_node (WnProcess *process, const char *id, WnNodeType type)
{
  Builder *b;
  WnNode *node;

  g_return_val_if_fail (process != NULL, NULL);
  g_return_val_if_fail (process->builder != NULL, NULL);
  g_return_val_if_fail (id != NULL, NULL);

  b = process->builder;
  if (process->n_nodes + 1 > b->node_capacity)
    {
      b->node_capacity = grow (b->node_capacity, process->n_nodes + 1);
      process->nodes = g_renew (WnNode, process->nodes, b->node_capacity);
    }

  node = &process->nodes[process->n_nodes];
  memset (node, 0, sizeof *node);
  node->index = process->n_nodes;
  node->id = g_strdup (id);
  node->type = type;
  node->attached_to = -1;
  node->default_flow = -1;
  node->scope = -1;
  node->inner_start = -1;
  node->repeat = 1;
  node->outgoing = g_array_new (FALSE, FALSE, sizeof (guint));
  node->incoming = g_array_new (FALSE, FALSE, sizeof (guint));
  node->boundaries = g_array_new (FALSE, FALSE, sizeof (guint));

  /* The first node of an id wins the index; finish() reports the duplicate. */
  if (!g_hash_table_contains (process->node_index, id))
    g_hash_table_insert (process->node_index, g_strdup (id),
                         GUINT_TO_POINTER (process->n_nodes + 1));
  process->n_nodes++;
  return node;
}

WnFlow *
wn_process_add_flow (WnProcess  *process,
                     const char *id,
                     const char *from,
                     const char *to,
                     const char *condition)
{
  Builder *b;
  WnFlow *flow;

  g_return_val_if_fail (process != NULL, NULL);
  g_return_val_if_fail (process->builder != NULL, NULL);
  g_return_val_if_fail (id != NULL, NULL);
  g_return_val_if_fail (from != NULL, NULL);
  g_return_val_if_fail (to != NULL, NULL);

  b = process->builder;
  if (process->n_flows + 1 > b->flow_capacity)
    {
      b->flow_capacity = grow (b->flow_capacity, process->n_flows + 1);
      process->flows = g_renew (WnFlow, process->flows, b->flow_capacity);
    }

  flow = &process->flows[process->n_flows];
  memset (flow, 0, sizeof *flow);
  flow->index = process->n_flows;
  flow->id = g_strdup (id);
  g_ptr_array_add (b->flow_from, g_strdup (from));
  g_ptr_array_add (b->flow_to, g_strdup (to));

  if (condition != NULL)
    {
      g_autoptr(GError) error = NULL;

      flow->condition = wn_lite_compile (condition, NULL, &error);
      if (flow->condition == NULL)
        g_ptr_array_add (b->errors,
                         g_strdup_printf ("flow \"%s\": condition: %s", id,
                                          error != NULL ? error->message : "does not compile"));
    }

  process->n_flows++;
  return flow;
}

/* Note `ref` for the node `id` in one of the builder's pending arrays. */
static gboolean
add_pending (WnProcess  *process,
             GArray     *pending,
             const char *id,
             const char *ref)
{
  Pending p;
  int node = lookup_node (process, id);

  if (node < 0)
    return FALSE;
  p.node = (guint) node;
  p.ref = g_strdup (ref);
  g_array_append_val (pending, p);
  return TRUE;
}

gboolean
wn_process_set_default_flow (WnProcess *process, const char *gateway, const char *flow)
{
  g_return_val_if_fail (process != NULL, FALSE);
  g_return_val_if_fail (process->builder != NULL, FALSE);
  g_return_val_if_fail (flow != NULL, FALSE);

  return add_pending (process, ((Builder *) process->builder)->defaults, gateway, flow);
}

gboolean
wn_process_set_attached_to (WnProcess *process, const char *boundary, const char *host)
{
  g_return_val_if_fail (process != NULL, FALSE);
  g_return_val_if_fail (process->builder != NULL, FALSE);
  g_return_val_if_fail (host != NULL, FALSE);

  return add_pending (process, ((Builder *) process->builder)->attachments, boundary, host);
}

gboolean
wn_process_set_scope (WnProcess *process, const char *node, const char *parent)
{
  g_return_val_if_fail (process != NULL, FALSE);
  g_return_val_if_fail (process->builder != NULL, FALSE);
  g_return_val_if_fail (parent != NULL, FALSE);

  return add_pending (process, ((Builder *) process->builder)->scopes, node, parent);
}

/* Resolve the pending scopes into `scope` (per node, -1 = the process); FALSE
 * (with the problems noted) when a parent is unknown, not a subProcess or a
 * node's own descendant. */
static gboolean
resolve_scopes (WnProcess *process,
                Builder   *b,
                int       *scope,
                GPtrArray *problems)
{
  gboolean ok = TRUE;

  for (guint i = 0; i < process->n_nodes; i++)
    scope[i] = process->nodes[i].scope;
  for (guint i = 0; i < b->scopes->len; i++)
    {
      const Pending *p = &g_array_index (b->scopes, Pending, i);
      int parent = lookup_node (process, p->ref);

      if (parent < 0 || process->nodes[parent].type != WN_NODE_SUBPROCESS)
        {
          g_ptr_array_add (problems, g_strdup_printf ("node \"%s\": \"%s\" is not a subProcess",
                                                      process->nodes[p->node].id, p->ref));
          ok = FALSE;
          continue;
        }
      scope[p->node] = parent;
    }
  for (guint i = 0; ok && i < process->n_nodes; i++)
    {
      guint depth = 0;

      for (int s = scope[i]; s >= 0; s = scope[s])
        if (++depth > process->n_nodes || (guint) s == i)
          {
            g_ptr_array_add (problems, g_strdup_printf ("subProcess \"%s\" is inside itself",
                                                        process->nodes[i].id));
            ok = FALSE;
            break;
          }
    }
  return ok;
}

gboolean
wn_process_finish (WnProcess *process, GError **error)
{
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(GHashTable) flow_ids = NULL;
  g_autofree guint *from = NULL;
  g_autofree guint *to = NULL;
  g_autofree gboolean *attached = NULL;
  g_autofree int *scope = NULL;
  g_autofree int *starts = NULL;      /* per scope (index + 1; 0 = the process): its start */
  g_autofree guint *n_starts = NULL;
  g_autofree guint *n_ends = NULL;
  gboolean scopes_ok;
  Builder *b;

  g_return_val_if_fail (process != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  b = process->builder;
  if (b == NULL)
    return TRUE;   /* already finished */

  problems = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < b->errors->len; i++)
    g_ptr_array_add (problems, g_strdup (g_ptr_array_index (b->errors, i)));

  scope = g_new0 (int, process->n_nodes + 1);
  starts = g_new0 (int, process->n_nodes + 1);
  n_starts = g_new0 (guint, process->n_nodes + 1);
  n_ends = g_new0 (guint, process->n_nodes + 1);
  scopes_ok = resolve_scopes (process, b, scope, problems);
  for (guint i = 0; i < process->n_nodes; i++)
    {
      WnNode *node = &process->nodes[i];
      guint in = scopes_ok ? (guint) (scope[i] + 1) : 0;

      /* for the journal, once: the names its events give most */
      node->id_plain = _wn_plain_length (node->id);
      if (node->worker != NULL)
        node->worker->topic_plain = _wn_plain_length (node->worker->topic);

      if (lookup_node (process, node->id) != (int) i)
        g_ptr_array_add (problems, g_strdup_printf ("duplicate node id \"%s\"", node->id));
      if (node->type == WN_NODE_START)
        {
          if (n_starts[in]++ == 0)
            starts[in] = (int) i + 1;
        }
      else if (node->type == WN_NODE_END)
        {
          n_ends[in]++;
        }
    }
  if (n_starts[0] != 1)
    g_ptr_array_add (problems, g_strdup_printf ("%u start events (exactly one is needed)", n_starts[0]));
  if (n_ends[0] == 0)
    g_ptr_array_add (problems, g_strdup ("no end event"));
  for (guint i = 0; scopes_ok && i < process->n_nodes; i++)
    {
      if (process->nodes[i].type != WN_NODE_SUBPROCESS)
        continue;
      if (n_starts[i + 1] != 1)
        g_ptr_array_add (problems, g_strdup_printf ("subProcess \"%s\": %u start events (exactly one is needed)",
                                                    process->nodes[i].id, n_starts[i + 1]));
      if (n_ends[i + 1] == 0)
        g_ptr_array_add (problems, g_strdup_printf ("subProcess \"%s\": no end event", process->nodes[i].id));
    }

  flow_ids = g_hash_table_new (g_str_hash, g_str_equal);
  from = g_new0 (guint, process->n_flows + 1);
  to = g_new0 (guint, process->n_flows + 1);
  for (guint i = 0; i < process->n_flows; i++)
    {
      const WnFlow *flow = &process->flows[i];
      const char *from_id = g_ptr_array_index (b->flow_from, i);
      const char *to_id = g_ptr_array_index (b->flow_to, i);
      int f = lookup_node (process, from_id);
      int t = lookup_node (process, to_id);

      if (g_hash_table_contains (flow_ids, flow->id))
        g_ptr_array_add (problems, g_strdup_printf ("duplicate flow id \"%s\"", flow->id));
      if (f < 0)
        g_ptr_array_add (problems, g_strdup_printf ("flow \"%s\": unknown node \"%s\"", flow->id, from_id));
      if (t < 0)
        g_ptr_array_add (problems, g_strdup_printf ("flow \"%s\": unknown node \"%s\"", flow->id, to_id));
      if (f >= 0 && process->nodes[f].type == WN_NODE_END)
        g_ptr_array_add (problems, g_strdup_printf ("flow \"%s\" leaves end event \"%s\"", flow->id, from_id));
      if (t >= 0 && process->nodes[t].type == WN_NODE_START)
        g_ptr_array_add (problems, g_strdup_printf ("flow \"%s\" enters start event \"%s\"", flow->id, to_id));
      if (t >= 0 && process->nodes[t].type == WN_NODE_BOUNDARY)
        g_ptr_array_add (problems, g_strdup_printf ("flow \"%s\" enters boundary event \"%s\"", flow->id, to_id));
      if (f >= 0 && t >= 0 && scopes_ok && scope[f] != scope[t])
        g_ptr_array_add (problems, g_strdup_printf ("flow \"%s\" crosses a subProcess's border", flow->id));
      if (!g_hash_table_contains (flow_ids, flow->id))
        g_hash_table_insert (flow_ids, flow->id, GUINT_TO_POINTER (i + 1));
      from[i] = f >= 0 ? (guint) f : 0;
      to[i] = t >= 0 ? (guint) t : 0;
    }

  for (guint i = 0; i < b->defaults->len; i++)
    {
      const Pending *p = &g_array_index (b->defaults, Pending, i);
      const WnNode *gateway = &process->nodes[p->node];
      int f = lookup_flow_in (flow_ids, p->ref);

      if (gateway->type != WN_NODE_EXCLUSIVE)
        g_ptr_array_add (problems, g_strdup_printf ("node \"%s\" is not an exclusive gateway: it takes no default flow",
                                                    gateway->id));
      else if (f < 0)
        g_ptr_array_add (problems, g_strdup_printf ("gateway \"%s\": unknown default flow \"%s\"",
                                                    gateway->id, p->ref));
      else if (from[f] != p->node ||
               lookup_node (process, g_ptr_array_index (b->flow_from, f)) < 0)
        g_ptr_array_add (problems, g_strdup_printf ("gateway \"%s\": default flow \"%s\" does not leave it",
                                                    gateway->id, p->ref));
    }

  for (guint i = 0; i < b->attachments->len; i++)
    {
      const Pending *p = &g_array_index (b->attachments, Pending, i);
      const WnNode *boundary = &process->nodes[p->node];
      int host = lookup_node (process, p->ref);

      if (boundary->type != WN_NODE_BOUNDARY)
        g_ptr_array_add (problems, g_strdup_printf ("node \"%s\" is not a boundary event", boundary->id));
      else if (host < 0)
        g_ptr_array_add (problems, g_strdup_printf ("boundary \"%s\": unknown host \"%s\"",
                                                    boundary->id, p->ref));
      else if (!is_host_type (process->nodes[host].type))
        g_ptr_array_add (problems, g_strdup_printf ("boundary \"%s\": host \"%s\" is a %s, not a task",
                                                    boundary->id, p->ref,
                                                    wn_node_type_to_string (process->nodes[host].type)));
      else if (scopes_ok && scope[host] != scope[p->node])
        g_ptr_array_add (problems, g_strdup_printf ("boundary \"%s\" is not in the scope of its host \"%s\"",
                                                    boundary->id, p->ref));
    }

  attached = g_new0 (gboolean, process->n_nodes + 1);
  for (guint k = 0; k < b->attachments->len; k++)
    attached[g_array_index (b->attachments, Pending, k).node] = TRUE;
  for (guint i = 0; i < process->n_nodes; i++)
    {
      const WnNode *node = &process->nodes[i];

      if (node->type != WN_NODE_BOUNDARY || attached[i])
        continue;
      if (node->attached_to < 0)
        g_ptr_array_add (problems, g_strdup_printf ("boundary \"%s\" is attached to nothing", node->id));
      else if ((guint) node->attached_to >= process->n_nodes ||
               !is_host_type (process->nodes[node->attached_to].type))
        g_ptr_array_add (problems, g_strdup_printf ("boundary \"%s\" is attached to a node that is not a task",
                                                    node->id));
    }

  /* Event sub-processes: started by their start event's trigger, never by a flow. */
  for (guint i = 0; scopes_ok && i < process->n_nodes; i++)
    {
      const WnNode *node = &process->nodes[i];
      gboolean triggered = node->error_code != NULL || node->catch_all || node->timer > 0 || node->message != NULL;

      if (node->type == WN_NODE_START)
        {
          gboolean in_esp = scope[i] >= 0 && process->nodes[scope[i]].triggered_by_event;

          if (in_esp && !triggered)
            g_ptr_array_add (problems, g_strdup_printf ("start event \"%s\" of an event sub-process has no trigger "
                                                        "(error, timer or message)", node->id));
          else if (!in_esp && triggered)
            g_ptr_array_add (problems, g_strdup_printf ("start event \"%s\": only an event sub-process's start "
                                                        "event has a trigger", node->id));
          else if (in_esp && node->non_interrupting && (node->error_code != NULL || node->catch_all))
            g_ptr_array_add (problems, g_strdup_printf ("start event \"%s\": an error start event always "
                                                        "interrupts", node->id));
        }
      if (node->triggered_by_event && node->type != WN_NODE_SUBPROCESS)
        g_ptr_array_add (problems, g_strdup_printf ("node \"%s\" is not a subProcess: only a subProcess is "
                                                    "triggered by an event", node->id));
      if (!node->triggered_by_event)
        continue;
      if (node->multi != NULL)
        g_ptr_array_add (problems, g_strdup_printf ("event sub-process \"%s\" cannot be multi-instance", node->id));
      for (guint k = 0; k < process->n_flows; k++)
        if (from[k] == i || to[k] == i)
          {
            g_ptr_array_add (problems, g_strdup_printf ("flow \"%s\" %s event sub-process \"%s\" (its start "
                                                        "event's trigger starts it)", process->flows[k].id,
                                                        from[k] == i ? "leaves" : "enters", node->id));
            break;
          }
      for (guint k = 0; k < b->attachments->len; k++)
        if (lookup_node (process, g_array_index (b->attachments, Pending, k).ref) == (int) i)
          {
            g_ptr_array_add (problems, g_strdup_printf ("event sub-process \"%s\" takes no boundary events",
                                                        node->id));
            break;
          }
    }

  if (problems->len > 0)
    {
      g_autofree char *joined = NULL;

      g_ptr_array_add (problems, NULL);
      joined = g_strjoinv ("\n", (char **) problems->pdata);
      g_set_error_literal (error, WN_LOAD_ERROR, WN_LOAD_ERROR_INVALID, joined);
      return FALSE;
    }

  /* Consistent: resolve. */
  process->start = (guint) starts[0] - 1;
  for (guint i = 0; i < process->n_nodes; i++)
    {
      WnNode *node = &process->nodes[i];

      node->scope = scope[i];
      if (node->type == WN_NODE_SUBPROCESS)
        node->inner_start = starts[i + 1] - 1;
    }

  for (guint i = 0; i < process->n_flows; i++)
    {
      WnFlow *flow = &process->flows[i];

      flow->from = from[i];
      flow->to = to[i];
    }
  for (guint i = 0; i < process->n_nodes; i++)
    {
      WnNode *node = &process->nodes[i];

      g_array_set_size (node->outgoing, 0);
      g_array_set_size (node->incoming, 0);
      g_array_set_size (node->boundaries, 0);
    }
  for (guint i = 0; i < process->n_flows; i++)
    {
      g_array_append_val (process->nodes[from[i]].outgoing, i);
      g_array_append_val (process->nodes[to[i]].incoming, i);
    }
  for (guint i = 0; i < b->defaults->len; i++)
    {
      const Pending *p = &g_array_index (b->defaults, Pending, i);

      process->nodes[p->node].default_flow = lookup_flow_in (flow_ids, p->ref);
    }
  for (guint i = 0; i < b->attachments->len; i++)
    {
      const Pending *p = &g_array_index (b->attachments, Pending, i);

      process->nodes[p->node].attached_to = lookup_node (process, p->ref);
    }
  for (guint i = 0; i < process->n_nodes; i++)
    {
      WnNode *node = &process->nodes[i];

      if (node->type == WN_NODE_BOUNDARY && node->attached_to >= 0)
        g_array_append_val (process->nodes[node->attached_to].boundaries, i);
      if (node->worker != NULL && node->worker->output_var == NULL)
        node->worker->output_var = g_strdup (node->id);
      if (is_extended (node))
        process->extended = TRUE;
      if (node->triggered_by_event)
        {
          GArray **list = node->scope >= 0 ? &process->nodes[node->scope].event_subs : &process->event_subs;

          if (*list == NULL)
            *list = g_array_new (FALSE, FALSE, sizeof (guint));
          g_array_append_val (*list, i);
        }
    }

  /* Keep the arrays exactly as long as they are: later adds are not allowed. */
  if (process->n_nodes > 0)
    process->nodes = g_renew (WnNode, process->nodes, process->n_nodes);
  if (process->n_flows > 0)
    process->flows = g_renew (WnFlow, process->flows, process->n_flows);
  g_clear_pointer (&process->builder, builder_free);
  return TRUE;
}

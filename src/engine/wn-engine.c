/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-engine.c — one simulation run: wiring, policy resolution, facade.
 * Past 1,500 lines because it is the one facade every front end calls
 * (commands recorded for replay, breakpoints, notices, operator actions);
 * reruns are wn-travel.c, outside workers wn-external.c. */
#include "config.h"

#include <string.h>

#include "wn-engine-private.h"
#include "wn-duration.h"
#include "wn-journal-private.h"
#include "wn-json.h"
#include "wn-memory.h"

G_DEFINE_QUARK (wn-engine-error-quark, wn_engine_error)

static void breakpoint_clear (gpointer data);

static const char *track_state_names[] = {
  "active", "parked", "incident", "joining", "done", "canceled", "failed",
};

static const char *instance_state_names[] = {
  "active", "completed", "terminated",
};

const char *
wn_track_state_to_string (WnTrackState state)
{
  g_return_val_if_fail (state <= WN_TRACK_FAILED, "?");
  return track_state_names[state];
}

gboolean
wn_track_state_is_live (WnTrackState state)
{
  return state != WN_TRACK_DONE && state != WN_TRACK_CANCELED && state != WN_TRACK_FAILED;
}

const char *
wn_instance_state_to_string (WnInstanceState state)
{
  g_return_val_if_fail (state <= WN_INSTANCE_TERMINATED, "?");
  return instance_state_names[state];
}

/* ---- private ---- */

void
_wn_engine_emit (WnEngine *self,
                 WnEvent  *event)
{
  _wn_journal_emit (self->journal, wn_scheduler_now (self->scheduler), event);
}

static void arm_replay (WnEngine *self);

void
_wn_engine_arm_replay (WnEngine *self)
{
  arm_replay (self);
}

/* Remember an operator's command (not one the scenario issues by itself). */
static WnCommand *
record (WnEngine      *self,
        WnCommandKind  kind)
{
  return _wn_engine_record (self, kind);
}

WnCommand *
_wn_engine_record (WnEngine      *self,
                   WnCommandKind  kind)
{
  WnCommand *command;

  if (self->internal)
    return NULL;
  /* an operator acting in a rerun's past starts a new future (wn-travel.c) */
  if (self->rerun && !self->replaying)
    _wn_engine_drop_future (self);
  command = wn_command_new (kind, wn_scheduler_get_n_run (self->scheduler), wn_scheduler_now (self->scheduler));
  g_ptr_array_add (self->commands, command);
  return command;
}

/* Take back a command recorded for an operation that was then refused. */
static void
forget (WnEngine  *self,
        WnCommand *command)
{
  _wn_engine_forget (self, command);
}

void
_wn_engine_forget (WnEngine  *self,
                   WnCommand *command)
{
  if (command != NULL)
    g_ptr_array_remove (self->commands, command);
}

gboolean
_wn_engine_replaying_future (WnEngine *self)
{
  return self->rerun && !self->replaying && self->replay_next < self->replay->len;
}

/* A saved command that cannot apply changes nothing, as the operator's own
 * command would not have; the run says so beside the journal (a notice), so
 * a hand-edited session that names nothing is not taken silently. */
static void
notice_command (WnEngine        *self,
                guint            index,
                const WnCommand *c,
                const char      *why)
{
  g_autofree char *at = wn_time_format_clock (c->at);

  g_ptr_array_add (self->notices,
                   g_strdup_printf ("saved command %u (%s at %s) did not apply: %s",
                                    index + 1, wn_command_kind_to_string (c->kind), at, why));
}

static void
replay_cb (gpointer data)
{
  WnEngine *self = data;
  guint index = self->replay_next++;
  const WnCommand *c = g_ptr_array_index (self->replay, index);
  g_autoptr(GError) error = NULL;
  gboolean ok = TRUE;

  self->replaying = TRUE;
  switch (c->kind)
    {
    case WN_COMMAND_START:
      ok = wn_engine_start_instance (self, c->variables, &error) != NULL;
      break;
    case WN_COMMAND_INJECT:
      ok = wn_engine_inject (self, c->topic, c->worker, c->response, &error);
      break;
    case WN_COMMAND_TRUST_DEFAULT:
      wn_engine_set_trust_default (self, c->trust);
      break;
    case WN_COMMAND_TASK_TRUST:
      ok = wn_engine_set_task_trust (self, c->node, c->trust, &error);
      break;
    case WN_COMMAND_INCIDENT_RETRY:
      ok = wn_engine_incident_retry (self, c->instance, c->node, &error);
      break;
    case WN_COMMAND_INCIDENT_RESOLVE:
      ok = wn_engine_incident_resolve (self, c->instance, c->node, &error);
      break;
    case WN_COMMAND_CANCEL:
      ok = wn_engine_cancel_instance (self, c->instance, &error);
      break;
    case WN_COMMAND_CLOCK:
      wn_engine_note_clock (self, c->phase, c->action);
      break;
    case WN_COMMAND_USER_COMPLETE:
      ok = wn_engine_complete_user_task (self, c->instance, c->node, c->variables, &error);
      break;
    case WN_COMMAND_USER_ERROR:
      ok = wn_engine_throw_user_task_error (self, c->instance, c->node, c->code, c->message, &error);
      break;
    case WN_COMMAND_CORRELATE:
      ok = wn_engine_correlate_message_to (self, c->instance, c->message, c->key, c->variables, &error);
      break;
    case WN_COMMAND_EXTERNAL:
      ok = _wn_external_replay (wn_engine_get_external (self), c->call, &error);
      break;
    case WN_COMMAND_TOPIC_SIMULATED:
      ok = wn_engine_set_topic_simulated (self, c->topic, c->on, &error);
      break;
    case WN_COMMAND_CANCEL_INJECTION:
      ok = wn_engine_cancel_injection (self, c->injection, &error);
      break;
    default:
      g_assert_not_reached ();
    }
  self->replaying = FALSE;
  if (!ok)
    notice_command (self, index, c, error ? error->message : "refused");
  arm_replay (self);
}

/* Arm the next command to replay, up to replay_limit (wn-travel.c stops a
 * rerun between two commands that share a point). */
static void
arm_replay (WnEngine *self)
{
  const WnCommand *c;

  if (self->replay_next >= MIN (self->replay->len, self->replay_limit))
    {
      wn_scheduler_set_trigger (self->scheduler, 0, 0, NULL, NULL);
      return;
    }
  c = g_ptr_array_index (self->replay, self->replay_next);
  wn_scheduler_set_trigger (self->scheduler, c->after, c->at, replay_cb, self);
}

static void
invalidate_policies (WnEngine *self)
{
  for (guint i = 0; i < self->process->n_nodes; i++)
    g_clear_pointer (&self->policies[i], wn_policy_unref);
}

WnPolicy *
_wn_engine_policy_for (WnEngine *self,
                       guint     node)
{
  if (self->policies[node] == NULL)
    {
      const WnWorkerSpec *spec = self->process->nodes[node].worker;
      WnPolicyLevel task = { 0 };
      WnPolicyLevel engine = { 0 };

      if (spec != NULL)
        task = spec->policy;
      task.trust = self->task_trust[node];
      engine = self->config.policy;
      engine.trust = self->trust_default;
      self->policies[node] = wn_policy_resolve (&task, &engine);
    }
  return self->policies[node];
}

static GQueue *
topic_queue (WnEngine   *self,
             const char *topic,
             gboolean    create)
{
  GQueue *queue;

  /* asked once per execution: most runs never inject, so skip the hashing */
  if (!create && g_hash_table_size (self->topic_injections) == 0)
    return NULL;
  queue = g_hash_table_lookup (self->topic_injections, topic);
  if (queue == NULL && create)
    {
      queue = g_queue_new ();
      g_hash_table_insert (self->topic_injections, g_strdup (topic), queue);
    }
  return queue;
}

static void
injection_free (gpointer data)
{
  WnInjection *injection = data;

  g_free ((char *) injection->topic);
  g_free ((char *) injection->worker);
  wn_response_unref (injection->response);
  g_free (injection);
}

/* The injection leaves the pending list; its response goes to the caller. */
static WnResponse *
take (WnEngine    *self,
      WnInjection *injection)
{
  WnResponse *response = wn_response_ref (injection->response);

  g_ptr_array_remove (self->injections, injection);
  return response;
}

WnResponse *
_wn_engine_take_injection (WnEngine    *self,
                           WnSimWorker *worker)
{
  GQueue *queue = _wn_sim_worker_get_injections (worker);

  if (!g_queue_is_empty (queue))
    return take (self, g_queue_pop_head (queue));
  queue = topic_queue (self, _wn_sim_worker_get_topic (worker), FALSE);
  if (queue != NULL && !g_queue_is_empty (queue))
    return take (self, g_queue_pop_head (queue));
  return NULL;
}

static void
free_queue (gpointer data)
{
  g_queue_free (data);
}

/* ---- scheduled scenario actions ---- */

/* A start or an injection the scenario schedules; owned by the engine, so one
 * still pending when the engine is freed goes with it. */
typedef struct {
  WnEngine   *engine;
  JsonObject *variables;   /* start */
  guint       count;       /* start: > 0 */
  guint       started;     /* start: how many so far */
  char       *topic;       /* injection */
  char       *worker;      /* injection */
  WnResponse *response;    /* injection */
  const WnMessageSpec *message;  /* a message, borrowed from the scenario */
} ScheduledAction;

static void
scheduled_action_free (gpointer data)
{
  ScheduledAction *action = data;

  g_clear_pointer (&action->variables, json_object_unref);
  g_clear_pointer (&action->response, wn_response_unref);
  g_free (action->topic);
  g_free (action->worker);
  g_free (action);
}

/* Instances between two looks at the memory left. */
#define MEMORY_CHECK_EVERY 4096

/* Whether memory is there for the next instances: what the engine's arrays and
 * GLib's tables will ask for when they next double (some tens of bytes per
 * instance), with room to spare. Running short stops the run with a message
 * instead of an abort inside GLib at the next allocation. */
static gboolean
room_for_instances (WnEngine *self)
{
  guint n = self->instances->len;

  if (n == 0 || n % MEMORY_CHECK_EVERY != 0)
    return TRUE;
  return wn_memory_has_room ((gsize) 64 * 1024 * 1024 + (gsize) n * 64);
}

/* ---- messages kept for their time to live ---- */

typedef struct {
  WnEngine            *engine;
  const WnMessageSpec *spec;    /* borrowed from the scenario */
  WnTimerId            expiry;
} BufferedMessage;

/* The first wait of the active instances, in start order, that takes it. */
static gboolean
correlate_any (WnEngine   *self,
               const char *name,
               JsonNode   *key,
               JsonObject *variables)
{
  for (guint i = 0; i < self->instances->len; i++)
    {
      WnInstance *instance = g_ptr_array_index (self->instances, i);

      if (instance->state == WN_INSTANCE_ACTIVE && _wn_instance_correlate (instance, name, key, variables))
        return TRUE;
    }
  return FALSE;
}

static void
emit_message (WnEngine            *self,
              WnEventPhase         phase,
              const WnMessageSpec *spec,
              WnTime               deadline)
{
  WnEvent ev = WN_EVENT_INIT (WN_EV_MESSAGE, phase);

  ev.action = spec->name;
  ev.status = spec->key;
  ev.deadline_us = deadline;
  _wn_engine_emit (self, &ev);
}

static void
message_expired_cb (gpointer data)
{
  BufferedMessage *buffered = data;
  WnEngine *self = buffered->engine;

  g_queue_remove (self->message_buffer, buffered);
  emit_message (self, WN_PH_EXPIRED, buffered->spec, -1);
  g_free (buffered);
}

/* Each buffered message, oldest first, to the waits there are now. */
static void
buffer_check_cb (gpointer data)
{
  WnEngine *self = data;
  GList *link = self->message_buffer->head;

  self->buffer_posted = FALSE;
  while (link != NULL)
    {
      GList *next = link->next;
      BufferedMessage *buffered = link->data;
      const WnMessageSpec *spec = buffered->spec;

      self->internal = TRUE;
      if (correlate_any (self, spec->name, spec->key, spec->variables))
        {
          if (buffered->expiry != 0)
            wn_scheduler_cancel (self->scheduler, buffered->expiry);
          g_queue_delete_link (self->message_buffer, link);
          g_free (buffered);
        }
      self->internal = FALSE;
      link = next;
    }
}

void
_wn_engine_wait_began (WnEngine *self)
{
  if (self->message_buffer == NULL || g_queue_is_empty (self->message_buffer) || self->buffer_posted)
    return;
  self->buffer_posted = TRUE;
  wn_scheduler_post (self->scheduler, buffer_check_cb, self);
}

/* A scenario's message with a time to live: correlated now, or kept until
 * its ttl is over for a wait that begins meanwhile. */
static void
publish_kept (WnEngine            *self,
              const WnMessageSpec *spec)
{
  BufferedMessage *buffered;
  WnTime deadline;

  if (correlate_any (self, spec->name, spec->key, spec->variables))
    return;
  buffered = g_new0 (BufferedMessage, 1);
  buffered->engine = self;
  buffered->spec = spec;
  buffered->expiry = wn_scheduler_after (self->scheduler, spec->ttl, message_expired_cb, buffered);
  if (buffered->expiry == 0)
    {
      /* a ttl past the end of virtual time: kept for the whole run */
      deadline = -1;
    }
  else
    deadline = wn_scheduler_now (self->scheduler) + spec->ttl;
  if (self->message_buffer == NULL)
    self->message_buffer = g_queue_new ();
  g_queue_push_tail (self->message_buffer, buffered);
  emit_message (self, WN_PH_BUFFERED, spec, deadline);
}

static void
scheduled_action_cb (gpointer data)
{
  ScheduledAction *action = data;

  if (action->count > 0 && !room_for_instances (action->engine))
    {
      WnEngine *self = action->engine;

      g_free (self->failure);
      self->failure = g_strdup_printf ("not enough memory for more than %u instances: "
                                       "%u of the %u of this start were started",
                                       self->instances->len, action->started, action->count);
      wn_scheduler_request_stop (self->scheduler);
      return;
    }
  action->engine->internal = TRUE;
  if (action->count > 0)
    {
      /* one instance per action, so a big start can be interleaved with
       * everything else (and a front end can draw between them) */
      _wn_instance_start (action->engine, action->variables);
      if (++action->started < action->count)
        wn_scheduler_post (action->engine->scheduler, scheduled_action_cb, action);
    }
  else if (action->message != NULL && action->message->ttl > 0)
    publish_kept (action->engine, action->message);
  else if (action->message != NULL)
    wn_engine_correlate_message (action->engine, action->message->name, action->message->key,
                                 action->message->variables, NULL);
  else
    wn_engine_inject (action->engine, action->topic, action->worker, action->response, NULL);
  action->engine->internal = FALSE;
}

static ScheduledAction *
schedule (WnEngine *self,
          WnTime    at)
{
  ScheduledAction *action = g_new0 (ScheduledAction, 1);

  action->engine = self;
  g_ptr_array_add (self->scheduled, action);
  wn_scheduler_at (self->scheduler, at, scheduled_action_cb, action);
  return action;
}

static void
schedule_start (WnEngine   *self,
                WnTime      at,
                guint       count,
                JsonObject *variables)
{
  ScheduledAction *action = schedule (self, at);

  action->count = count;
  action->variables = variables ? json_object_ref (variables) : NULL;
}

/* ---- construction ---- */

static gboolean
topic_served (WnEngine   *self,
              const char *topic)
{
  for (guint i = 0; i < self->workers->len; i++)
    if (g_strcmp0 (_wn_sim_worker_get_topic (g_ptr_array_index (self->workers, i)), topic) == 0)
      return TRUE;
  return FALSE;
}

/* The weights of each gateway the scenario decides, from its `decisions`;
 * equal ones, with a notice saying so, where it gives none; a notice for each
 * entry that names no such gateway or a flow not leaving it. */
static void
setup_decisions (WnEngine *self)
{
  const WnProcess *process = self->process;
  GArray *decisions = self->scenario->decisions;

  self->decision_weights = g_new0 (guint64 *, process->n_nodes);
  for (guint d = 0; d < decisions->len; d++)
    {
      const WnDecisionSpec *spec = &g_array_index (decisions, WnDecisionSpec, d);
      const WnNode *node = wn_process_find_node (process, spec->gateway);

      if (node == NULL || !node->scenario_decides)
        g_ptr_array_add (self->notices,
                         g_strdup_printf ("the scenario's decisions name %s, which is not a gateway the scenario "
                                          "decides: ignored", spec->gateway));
    }
  for (guint n = 0; n < process->n_nodes; n++)
    {
      const WnNode *node = &process->nodes[n];
      const WnDecisionSpec *spec = NULL;
      guint64 *weights;
      guint64 total = 0;

      if (!node->scenario_decides)
        continue;
      for (guint d = 0; d < decisions->len && spec == NULL; d++)
        if (strcmp (g_array_index (decisions, WnDecisionSpec, d).gateway, node->id) == 0)
          spec = &g_array_index (decisions, WnDecisionSpec, d);
      weights = self->decision_weights[n] = g_new0 (guint64, node->outgoing->len);
      for (guint w = 0; spec != NULL && w < spec->weights->len; w++)
        {
          const WnDecisionWeight *weight = &g_array_index (spec->weights, WnDecisionWeight, w);
          guint o = 0;

          while (o < node->outgoing->len &&
                 strcmp (process->flows[g_array_index (node->outgoing, guint, o)].id, weight->flow) != 0)
            o++;
          if (o == node->outgoing->len)
            g_ptr_array_add (self->notices,
                             g_strdup_printf ("the scenario's decisions for gateway %s weigh %s, which does not "
                                              "leave it: ignored", node->id, weight->flow));
          else
            {
              weights[o] = weight->weight;
              total += weight->weight;
            }
        }
      if (total == 0)
        {
          for (guint o = 0; o < node->outgoing->len; o++)
            weights[o] = 1;
          g_ptr_array_add (self->notices,
                           g_strdup_printf ("the gateway %s is decided by the scenario, which gives it no weights "
                                            "(`decisions`): each of its %u flows is taken with equal weight",
                                            node->id, node->outgoing->len));
        }
    }
}

WnEngine *
wn_engine_new (WnProcess             *process,
               WnScenario            *scenario,
               const WnEngineOptions *options)
{
  WnEngine *self = g_new0 (WnEngine, 1);
  WnEngineOptions none = { 0 };

  g_return_val_if_fail (process != NULL, NULL);
  if (options == NULL)
    options = &none;

  self->process = wn_process_ref (process);
  if (scenario == NULL)
    scenario = process->scenario;
  self->scenario = scenario ? wn_scenario_ref (scenario) : wn_scenario_new ();

  /* engine settings: process block, scenario overrides, run options */
  wn_engine_config_merge (&self->config, &process->engine);
  wn_engine_config_merge (&self->config, &self->scenario->engine);
  if (options->trust != WN_TRUST_UNSET)
    self->config.policy.trust = options->trust;
  if (options->on_exhausted != WN_ON_EXHAUSTED_UNSET)
    self->config.on_exhausted = options->on_exhausted;
  if (self->config.on_exhausted == WN_ON_EXHAUSTED_UNSET)
    self->config.on_exhausted = WN_ON_EXHAUSTED_FAIL;
  self->trust_default = self->config.policy.trust != WN_TRUST_UNSET ? self->config.policy.trust
                                                                    : WN_TRUST_WORKER_TRUSTED;

  self->seed = options->has_seed ? options->seed : self->scenario->has_seed ? self->scenario->seed : 1;
  wn_rng_init (&self->rng, self->seed);

  self->scheduler = wn_scheduler_new ();
  self->journal = wn_journal_new ();
  self->dispatcher = wn_dispatcher_new (self->scheduler, self->journal, &self->rng,
                                        _wn_instance_deliver, self);
  if (self->config.has_max_lock)
    wn_dispatcher_set_max_lock (self->dispatcher, self->config.max_lock);

  self->task_trust = g_new0 (WnTrust, process->n_nodes);
  self->policies = g_new0 (WnPolicy *, process->n_nodes);
  for (guint i = 0; i < process->n_nodes; i++)
    if (process->nodes[i].worker != NULL)
      self->task_trust[i] = process->nodes[i].worker->policy.trust;

  self->instance_pool = wn_pool_new (sizeof (WnInstance));
  self->instances = g_ptr_array_new_with_free_func ((GDestroyNotify) _wn_instance_free);
  self->workers = g_ptr_array_new_with_free_func ((GDestroyNotify) _wn_sim_worker_free);
  self->topic_injections = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, free_queue);
  self->injections = g_ptr_array_new_with_free_func (injection_free);
  self->implicit_topics = g_ptr_array_new_with_free_func (g_free);
  self->end_counts = g_new0 (guint, process->n_nodes);

  self->completion_times = g_array_new (FALSE, FALSE, sizeof (WnTime));
  self->scheduled = g_ptr_array_new_with_free_func (scheduled_action_free);
  self->options = *options;
  self->commands = g_ptr_array_new_with_free_func ((GDestroyNotify) wn_command_free);
  self->notices = g_ptr_array_new_with_free_func (g_free);
  self->breakpoints = g_array_new (FALSE, FALSE, sizeof (WnBreakpoint));
  g_array_set_clear_func (self->breakpoints, breakpoint_clear);
  self->breakpoint_items = g_list_store_new (WN_TYPE_BREAKPOINT_ITEM);

  /* workers: the scenario's, then an implicit one per topic nobody serves */
  for (guint i = 0; i < self->scenario->workers->len; i++)
    g_ptr_array_add (self->workers, _wn_sim_worker_new (self, g_ptr_array_index (self->scenario->workers, i), NULL));
  for (guint i = 0; i < process->n_nodes; i++)
    {
      const WnWorkerSpec *spec = process->nodes[i].worker;

      if (spec != NULL && !options->no_implicit_workers && !self->scenario->outside_workers &&
          !topic_served (self, spec->topic))
        {
          g_ptr_array_add (self->workers, _wn_sim_worker_new (self, NULL, spec->topic));
          g_ptr_array_add (self->implicit_topics, g_strdup (spec->topic));
        }
    }
  g_ptr_array_add (self->implicit_topics, NULL);
  for (guint i = 0; i < process->n_nodes && !self->scenario->has_epoch; i++)
    if (process->nodes[i].has_date)
      {
        g_ptr_array_add (self->notices,
                         g_strdup_printf ("the timer %s waits for a date, but the scenario sets no epoch "
                                          "(the instant t = 0 stands for): it fires as soon as it is reached",
                                          process->nodes[i].id));
        break;
      }
  setup_decisions (self);
  for (guint i = 0; i < self->workers->len; i++)
    _wn_sim_worker_start (g_ptr_array_index (self->workers, i));

  /* instances and injections of the scenario */
  if (options->instances > 0)
    schedule_start (self, 0, options->instances, NULL);
  else if (self->scenario->has_start)
    for (guint i = 0; i < self->scenario->start->len; i++)
      {
        const WnStartSpec *start = &g_array_index (self->scenario->start, WnStartSpec, i);
        schedule_start (self, start->at, start->count, start->variables);
      }
  else
    schedule_start (self, 0, 1, NULL);

  for (guint i = 0; i < self->scenario->faults->len; i++)
    {
      const WnFaultSpec *fault = &g_array_index (self->scenario->faults, WnFaultSpec, i);
      ScheduledAction *action = schedule (self, fault->at);

      action->topic = g_strdup (fault->topic);
      action->worker = g_strdup (fault->worker);
      action->response = wn_response_ref (fault->next);
    }

  for (guint i = 0; i < self->scenario->messages->len; i++)
    {
      const WnMessageSpec *message = &g_array_index (self->scenario->messages, WnMessageSpec, i);

      schedule (self, message->at)->message = message;
    }

  /* a saved session replays the operator's commands where they happened */
  self->replay = g_ptr_array_ref (self->scenario->commands);
  self->replay_limit = G_MAXUINT;
  arm_replay (self);
  return self;
}

void
wn_engine_free (WnEngine *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->workers);
  wn_dispatcher_free (self->dispatcher);
  g_ptr_array_unref (self->instances);
  wn_pool_free (self->instance_pool);
  g_hash_table_unref (self->topic_injections);
  g_ptr_array_unref (self->injections);
  g_ptr_array_unref (self->implicit_topics);
  g_free (self->end_counts);
  g_free (self->failure);
  g_array_unref (self->completion_times);
  g_ptr_array_unref (self->scheduled);
  g_clear_pointer (&self->people_pools, g_ptr_array_unref);
  if (self->message_buffer != NULL)
    g_queue_free_full (self->message_buffer, g_free);
  g_clear_pointer (&self->defaults_input, json_node_unref);
  g_array_unref (self->breakpoints);
  g_clear_object (&self->breakpoint_items);
  g_clear_pointer (&self->last_hit_event, wn_event_free);
  g_clear_pointer (&self->external, wn_external_free);
  g_ptr_array_unref (self->commands);
  g_clear_pointer (&self->replay, g_ptr_array_unref);
  g_clear_pointer (&self->dropped, g_ptr_array_unref);
  g_ptr_array_unref (self->notices);
  invalidate_policies (self);
  g_free (self->policies);
  g_free (self->task_trust);
  for (guint i = 0; i < self->process->n_nodes; i++)
    g_free (self->decision_weights[i]);
  g_free (self->decision_weights);
  wn_journal_free (self->journal);
  wn_scheduler_free (self->scheduler);
  wn_engine_config_clear (&self->config);
  wn_scenario_unref (self->scenario);
  wn_process_unref (self->process);
  g_free (self);
}

/* ---- getters ---- */

WnProcess *
wn_engine_get_process (WnEngine *self)
{
  return self->process;
}

WnScenario *
wn_engine_get_scenario (WnEngine *self)
{
  return self->scenario;
}

WnScheduler *
wn_engine_get_scheduler (WnEngine *self)
{
  return self->scheduler;
}

WnJournal *
wn_engine_get_journal (WnEngine *self)
{
  return self->journal;
}

WnDispatcher *
wn_engine_get_dispatcher (WnEngine *self)
{
  return self->dispatcher;
}

guint64
wn_engine_get_seed (WnEngine *self)
{
  return self->seed;
}

WnTime
wn_engine_now (WnEngine *self)
{
  return wn_scheduler_now (self->scheduler);
}

const char * const *
wn_engine_get_implicit_topics (WnEngine *self)
{
  return (const char * const *) self->implicit_topics->pdata;
}

/* Stopped at the limit: nothing was due before it, so the virtual time has
 * passed up to it (a long job still running), as after a step by Δ. */
static WnStopReason
stand_at_limit (WnEngine     *self,
                WnStopReason  reason,
                WnTime        limit)
{
  if (reason == WN_STOP_LIMIT)
    reason = wn_scheduler_step_by (self->scheduler, limit - wn_scheduler_now (self->scheduler));
  return reason;
}

WnStopReason
wn_engine_run (WnEngine *self,
               WnTime    limit)
{
  wn_engine_clear_hit (self);
  return stand_at_limit (self, wn_scheduler_run_until (self->scheduler, limit), limit);
}

const char *
wn_engine_get_failure (WnEngine *self)
{
  return self->failure;
}

WnStopReason
wn_engine_run_budget (WnEngine *self,
                      WnTime    limit,
                      guint     budget)
{
  wn_engine_clear_hit (self);
  return stand_at_limit (self, wn_scheduler_run_budget (self->scheduler, limit, budget), limit);
}

/* ---- commands ---- */

const char *
wn_engine_start_instance (WnEngine   *self,
                          JsonObject *variables,
                          GError    **error)
{
  WnCommand *command = record (self, WN_COMMAND_START);
  WnInstance *instance;

  if (command != NULL && variables != NULL)
    command->variables = wn_json_object_deep_copy (variables);
  instance = _wn_instance_start (self, variables);
  return instance->id;
}

void
wn_engine_set_trust_default (WnEngine *self,
                             WnTrust   trust)
{
  WnCommand *command;

  g_return_if_fail (trust == WN_TRUST_WORKER_TRUSTED || trust == WN_TRUST_ENGINE_AUTHORITATIVE);

  command = record (self, WN_COMMAND_TRUST_DEFAULT);
  if (command != NULL)
    command->trust = trust;
  self->trust_default = trust;
  invalidate_policies (self);
}

WnTrust
wn_engine_get_trust_default (WnEngine *self)
{
  return self->trust_default;
}

static const WnNode *
worker_node (WnEngine   *self,
             const char *id,
             GError    **error)
{
  const WnNode *node = wn_process_find_node (self->process, id);

  if (node == NULL)
    {
      g_set_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_NO_SUCH_NODE, "no node %s", id);
      return NULL;
    }
  if (node->worker == NULL)
    {
      g_set_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_NOT_A_WORKER_TASK,
                   "%s is not a service task with a worker", id);
      return NULL;
    }
  return node;
}

gboolean
wn_engine_set_task_trust (WnEngine   *self,
                          const char *id,
                          WnTrust     trust,
                          GError    **error)
{
  const WnNode *node = worker_node (self, id, error);
  WnCommand *command;

  if (node == NULL)
    return FALSE;
  command = record (self, WN_COMMAND_TASK_TRUST);
  if (command != NULL)
    {
      command->node = g_strdup (id);
      command->trust = trust;
    }
  self->task_trust[node->index] = trust;
  g_clear_pointer (&self->policies[node->index], wn_policy_unref);
  return TRUE;
}

WnTrust
wn_engine_get_task_trust (WnEngine   *self,
                          const char *id)
{
  const WnNode *node = wn_process_find_node (self->process, id);

  return node != NULL ? self->task_trust[node->index] : WN_TRUST_UNSET;
}

WnPolicy *
wn_engine_get_task_policy (WnEngine       *self,
                           const char     *id,
                           WnPolicyOrigin *retry_origin,
                           WnPolicyOrigin *trust_origin)
{
  const WnNode *node;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (id != NULL, NULL);

  node = wn_process_find_node (self->process, id);
  if (node == NULL || node->worker == NULL)
    return NULL;
  if (retry_origin != NULL)
    *retry_origin = node->worker->policy.has_retry ? WN_POLICY_FROM_TASK :
                    self->config.policy.has_retry ? WN_POLICY_FROM_ENGINE : WN_POLICY_FROM_DEFAULT;
  if (trust_origin != NULL)
    *trust_origin = self->task_trust[node->index] != WN_TRUST_UNSET ? WN_POLICY_FROM_TASK :
                    self->config.policy.trust != WN_TRUST_UNSET || self->trust_default != WN_TRUST_WORKER_TRUSTED
                    ? WN_POLICY_FROM_ENGINE : WN_POLICY_FROM_DEFAULT;
  return _wn_engine_policy_for (self, node->index);
}

GPtrArray *
wn_engine_get_notices (WnEngine *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  /* the run is over and saved commands are left: they come after its end */
  if (!self->rerun && self->replay_next < self->scenario->commands->len &&
      wn_scheduler_get_n_pending (self->scheduler) == 0)
    {
      for (guint i = self->replay_next; i < self->scenario->commands->len; i++)
        notice_command (self, i, g_ptr_array_index (self->scenario->commands, i),
                        "the run had ended before it");
      self->replay_next = self->scenario->commands->len;
    }
  return self->notices;
}

WnOnExhausted
wn_engine_get_on_exhausted (WnEngine *self)
{
  return self->config.on_exhausted;
}

gboolean
wn_engine_set_topic_simulated (WnEngine   *self,
                               const char *topic,
                               gboolean    on,
                               GError    **error)
{
  gboolean found = FALSE;
  WnCommand *command;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (topic != NULL, FALSE);

  for (guint i = 0; i < self->workers->len && !found; i++)
    found = g_strcmp0 (_wn_sim_worker_get_topic (g_ptr_array_index (self->workers, i)), topic) == 0;
  if (!found)
    {
      g_set_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_NO_SUCH_TOPIC,
                   "no simulated worker serves topic %s", topic);
      return FALSE;
    }
  /* recorded, so that a replay and a rerun switch it where the run did */
  command = record (self, WN_COMMAND_TOPIC_SIMULATED);
  if (command != NULL)
    {
      command->topic = g_strdup (topic);
      command->on = on;
    }
  for (guint i = 0; i < self->workers->len; i++)
    {
      WnSimWorker *worker = g_ptr_array_index (self->workers, i);

      if (g_strcmp0 (_wn_sim_worker_get_topic (worker), topic) == 0)
        _wn_sim_worker_set_off (worker, !on);
    }
  return TRUE;
}

gboolean
wn_engine_get_topic_simulated (WnEngine   *self,
                               const char *topic)
{
  g_return_val_if_fail (self != NULL, FALSE);

  for (guint i = 0; i < self->workers->len; i++)
    {
      WnSimWorker *worker = g_ptr_array_index (self->workers, i);

      if (g_strcmp0 (_wn_sim_worker_get_topic (worker), topic) == 0 && !_wn_sim_worker_get_off (worker))
        return TRUE;
    }
  return FALSE;
}

static WnSimWorker *
find_worker (WnEngine   *self,
             const char *id)
{
  for (guint i = 0; i < self->workers->len; i++)
    if (g_strcmp0 (_wn_sim_worker_get_id (g_ptr_array_index (self->workers, i)), id) == 0)
      return g_ptr_array_index (self->workers, i);
  return NULL;
}

gboolean
wn_engine_inject (WnEngine    *self,
                  const char  *topic,
                  const char  *worker,
                  WnResponse  *response,
                  GError     **error)
{
  g_autofree char *description = NULL;
  WnEvent ev = WN_EVENT_INIT (WN_EV_INJECT, WN_PH_APPLIED);

  WnSimWorker *target = NULL;
  WnInjection *injection;

  g_return_val_if_fail ((topic == NULL) != (worker == NULL), FALSE);
  g_return_val_if_fail (response != NULL, FALSE);

  if (worker != NULL)
    {
      if ((target = find_worker (self, worker)) == NULL)
        {
          g_set_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_NO_SUCH_WORKER, "no worker %s", worker);
          return FALSE;
        }
    }
  else if (!topic_served (self, topic))
    {
      g_set_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_NO_SUCH_TOPIC, "no worker serves topic %s", topic);
      return FALSE;
    }
  injection = g_new0 (WnInjection, 1);
  injection->id = ++self->next_injection;
  injection->topic = g_strdup (target != NULL ? _wn_sim_worker_get_topic (target) : topic);
  injection->worker = g_strdup (worker);
  injection->response = wn_response_ref (response);
  injection->at = wn_scheduler_now (self->scheduler);
  g_ptr_array_add (self->injections, injection);
  g_queue_push_tail (target != NULL ? _wn_sim_worker_get_injections (target) : topic_queue (self, topic, TRUE),
                     injection);
  {
    WnCommand *command = record (self, WN_COMMAND_INJECT);
    if (command != NULL)
      {
        command->topic = g_strdup (topic);
        command->worker = g_strdup (worker);
        command->response = wn_response_ref (response);
      }
  }
  description = wn_response_describe (response);
  ev.topic = topic;
  ev.worker = worker;
  ev.action = description;
  _wn_engine_emit (self, &ev);
  return TRUE;
}

GPtrArray *
wn_engine_get_injections (WnEngine *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->injections;
}

gboolean
wn_engine_cancel_injection (WnEngine  *self,
                            guint      id,
                            GError   **error)
{
  WnInjection *injection = NULL;
  WnEvent ev = WN_EVENT_INIT (WN_EV_INJECT, WN_PH_CANCELED);
  g_autofree char *description = NULL;
  g_autofree char *topic = NULL;
  g_autofree char *worker = NULL;
  GQueue *queue;

  g_return_val_if_fail (self != NULL, FALSE);

  for (guint i = 0; i < self->injections->len && injection == NULL; i++)
    if (((WnInjection *) g_ptr_array_index (self->injections, i))->id == id)
      injection = g_ptr_array_index (self->injections, i);
  if (injection == NULL)
    {
      g_set_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_NO_SUCH_INJECTION,
                   "no pending injection %u", id);
      return FALSE;
    }
  {
    WnCommand *command = record (self, WN_COMMAND_CANCEL_INJECTION);
    if (command != NULL)
      command->injection = id;
  }
  queue = injection->worker != NULL ? _wn_sim_worker_get_injections (find_worker (self, injection->worker))
                                    : topic_queue (self, injection->topic, FALSE);
  g_queue_remove (queue, injection);
  /* the event names what the injection did, as inject.applied did */
  description = wn_response_describe (injection->response);
  worker = g_strdup (injection->worker);
  topic = worker == NULL ? g_strdup (injection->topic) : NULL;
  g_ptr_array_remove (self->injections, injection);
  ev.topic = topic;
  ev.worker = worker;
  ev.action = description;
  _wn_engine_emit (self, &ev);
  return TRUE;
}

/* Reads the decimal number at *p (no leading zero) and moves *p past it;
 * 0 when there is none. */
static guint64
read_number (const char **p)
{
  guint64 n = 0;
  const char *q = *p;

  if (*q < '1' || *q > '9')
    return 0;
  for (; g_ascii_isdigit (*q); q++)
    {
      n = n * 10 + (guint64) (*q - '0');
      if (n > G_MAXUINT)
        return 0;
    }
  *p = q;
  return n;
}

/* The instance "i<n>" is the n-th started: read the number instead of hashing
 * the string. Exactly the ids the engine hands out match ("i01" does not).
 * Reads the "i<n>" at *p and moves *p past it; NULL when there is no such
 * instance. */
static WnInstance *
read_instance (WnEngine    *self,
               const char **p)
{
  const char *q = *p;
  guint64 n;

  if (q == NULL || *q++ != 'i')
    return NULL;
  n = read_number (&q);
  if (n == 0 || n > self->instances->len)
    return NULL;
  *p = q;
  return g_ptr_array_index (self->instances, n - 1);
}

/* The n of an instance's "i<n>": the engine writes the id, and keeps no
 * number beside it (an instance is kept small). */
static guint
instance_number (const WnInstance *instance)
{
  const char *p = instance->id + 1;

  return (guint) read_number (&p);
}

static WnInstance *
instance_by_id (WnEngine   *self,
                const char *id)
{
  const char *p = id;
  WnInstance *instance = read_instance (self, &p);

  return instance != NULL && *p == '\0' ? instance : NULL;
}

static WnInstance *
find_instance (WnEngine   *self,
               const char *id,
               GError    **error)
{
  WnInstance *instance = instance_by_id (self, id);

  if (instance == NULL)
    g_set_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_NO_SUCH_INSTANCE, "no instance %s", id);
  else if (instance->state != WN_INSTANCE_ACTIVE)
    {
      g_set_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_NOT_ACTIVE, "instance %s is %s", id,
                   wn_instance_state_to_string (instance->state));
      return NULL;
    }
  return instance;
}

typedef gboolean (*IncidentOp) (WnInstance *instance, const char *node, GError **error);

/* Run an incident operation; record it only when it took effect (the command
 * is recorded first so it stands before anything the operation journals). */
static gboolean
incident_op (WnEngine      *self,
             WnCommandKind  kind,
             IncidentOp     op,
             const char    *instance,
             const char    *node,
             GError       **error)
{
  WnInstance *inst = find_instance (self, instance, error);
  WnCommand *command;

  if (inst == NULL)
    return FALSE;
  command = record (self, kind);
  if (!op (inst, node, error))
    {
      forget (self, command);
      return FALSE;
    }
  if (command != NULL)
    {
      command->instance = g_strdup (instance);
      command->node = g_strdup (node);
    }
  return TRUE;
}

gboolean
wn_engine_incident_retry (WnEngine   *self,
                          const char *instance,
                          const char *node,
                          GError    **error)
{
  return incident_op (self, WN_COMMAND_INCIDENT_RETRY, _wn_instance_incident_retry, instance, node, error);
}

gboolean
wn_engine_incident_resolve (WnEngine   *self,
                            const char *instance,
                            const char *node,
                            GError    **error)
{
  return incident_op (self, WN_COMMAND_INCIDENT_RESOLVE, _wn_instance_incident_resolve, instance, node, error);
}

gboolean
wn_engine_cancel_instance (WnEngine   *self,
                           const char *instance,
                           GError    **error)
{
  WnInstance *inst = find_instance (self, instance, error);

  WnCommand *command;

  if (inst == NULL)
    return FALSE;
  command = record (self, WN_COMMAND_CANCEL);
  if (command != NULL)
    command->instance = g_strdup (instance);
  _wn_instance_cancel (inst, "canceled by the operator");
  return TRUE;
}

static gboolean
finish_user_task (WnEngine    *self,
                  WnCommandKind kind,
                  const char  *instance,
                  const char  *node,
                  JsonObject  *variables,
                  const char  *code,
                  const char  *message,
                  GError     **error)
{
  WnInstance *inst = find_instance (self, instance, error);
  WnCommand *command;

  if (inst == NULL)
    return FALSE;
  command = record (self, kind);
  if (!_wn_instance_finish_user_task (inst, node, variables, code, message, "operator", error))
    {
      forget (self, command);
      return FALSE;
    }
  if (command != NULL)
    {
      command->instance = g_strdup (instance);
      command->node = g_strdup (node);
      command->variables = variables != NULL ? wn_json_object_deep_copy (variables) : NULL;
      command->code = g_strdup (code);
      command->message = g_strdup (message);
    }
  return TRUE;
}

gboolean
wn_engine_complete_user_task (WnEngine   *self,
                              const char *instance,
                              const char *node,
                              JsonObject *variables,
                              GError    **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (instance != NULL, FALSE);

  return finish_user_task (self, WN_COMMAND_USER_COMPLETE, instance, node, variables, NULL, NULL, error);
}

gboolean
wn_engine_throw_user_task_error (WnEngine   *self,
                                 const char *instance,
                                 const char *node,
                                 const char *code,
                                 const char *message,
                                 GError    **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (instance != NULL, FALSE);

  if (code == NULL || *code == '\0')
    {
      g_set_error_literal (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_INVALID, "a BPMN error needs a code");
      return FALSE;
    }
  return finish_user_task (self, WN_COMMAND_USER_ERROR, instance, node, NULL, code, message, error);
}

gboolean
wn_engine_correlate_message (WnEngine   *self,
                             const char *name,
                             JsonNode   *key,
                             JsonObject *variables,
                             GError    **error)
{
  return wn_engine_correlate_message_to (self, NULL, name, key, variables, error);
}

gboolean
wn_engine_correlate_message_to (WnEngine   *self,
                                const char *instance,
                                const char *name,
                                JsonNode   *key,
                                JsonObject *variables,
                                GError    **error)
{
  WnCommand *command;
  WnInstance *inst = NULL;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  if (instance != NULL && (inst = find_instance (self, instance, error)) == NULL)
    return FALSE;
  command = record (self, WN_COMMAND_CORRELATE);
  if (command != NULL)
    {
      command->instance = g_strdup (instance);
      command->message = g_strdup (name);
      command->key = key != NULL ? json_node_copy (key) : NULL;
      command->variables = variables != NULL ? wn_json_object_deep_copy (variables) : NULL;
    }
  if (inst != NULL)
    {
      if (_wn_instance_correlate (inst, name, key, variables))
        return TRUE;
      forget (self, command);
      g_set_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_NO_SUBSCRIPTION, "instance %s does not wait for message %s",
                   instance, name);
      return FALSE;
    }
  if (correlate_any (self, name, key, variables))
    return TRUE;
  forget (self, command);
  if (self->internal)
    {
      /* the scenario's message finds nobody: it is lost, and the journal says so */
      WnEvent ev = WN_EVENT_INIT (WN_EV_MESSAGE, WN_PH_LOST);

      ev.action = name;
      ev.status = key;
      _wn_engine_emit (self, &ev);
    }
  g_set_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_NO_SUBSCRIPTION, "no instance waits for message %s", name);
  return FALSE;
}

void
wn_engine_note_clock (WnEngine     *self,
                      WnEventPhase  phase,
                      const char   *action)
{
  WnEvent ev = WN_EVENT_INIT (WN_EV_CLOCK, phase);
  WnCommand *command;

  g_return_if_fail (phase == WN_PH_PAUSED || phase == WN_PH_RESUMED || phase == WN_PH_STEPPED);

  command = record (self, WN_COMMAND_CLOCK);
  if (command != NULL)
    {
      command->phase = phase;
      command->action = g_strdup (action);
    }
  ev.action = action;
  _wn_engine_emit (self, &ev);
}

GPtrArray *
wn_engine_get_commands (WnEngine *self)
{
  return self->commands;
}

char *
wn_engine_export_session (WnEngine *self)
{
  g_autoptr(JsonNode) root = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  JsonObject *out = json_object_new ();
  JsonObject *source = self->scenario->source ? json_node_get_object (self->scenario->source) : NULL;
  JsonObject *engine_block = NULL;
  JsonObject *xw;
  JsonArray *commands = json_array_new ();

  json_object_set_string_member (out, "format", "winnow.scenario/1");
  if (source != NULL)
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *value;

      json_object_iter_init (&iter, source);
      while (json_object_iter_next (&iter, &name, &value))
        if (!g_str_equal (name, "format") && !g_str_equal (name, "x-winnow"))
          json_object_set_member (out, name, json_node_copy (value));
    }
  json_object_set_int_member (out, "seed", (gint64) self->seed);

  /* the run's own overrides become part of the scenario */
  if (self->options.trust != WN_TRUST_UNSET || self->options.on_exhausted != WN_ON_EXHAUSTED_UNSET)
    {
      JsonNode *old = json_object_get_member (out, "engine");

      engine_block = old != NULL && JSON_NODE_HOLDS_OBJECT (old)
                   ? wn_json_object_deep_copy (json_node_get_object (old)) : json_object_new ();
      if (self->options.trust != WN_TRUST_UNSET)
        json_object_set_string_member (engine_block, "trust", wn_trust_to_string (self->options.trust));
      if (self->options.on_exhausted != WN_ON_EXHAUSTED_UNSET)
        json_object_set_string_member (engine_block, "onExhausted", wn_on_exhausted_to_string (self->options.on_exhausted));
      json_object_set_object_member (out, "engine", engine_block);
    }
  if (self->options.instances > 0)
    {
      JsonArray *start = json_array_new ();
      JsonObject *entry = json_object_new ();

      json_object_set_int_member (entry, "count", self->options.instances);
      json_array_add_object_element (start, entry);
      json_object_set_array_member (out, "start", start);
    }

  for (guint i = 0; i < self->commands->len; i++)
    json_array_add_element (commands, wn_command_to_json (g_ptr_array_index (self->commands, i)));
  xw = json_object_new ();
  json_object_set_array_member (xw, "commands", commands);
  /* served: topics no simulated worker serves wait for outside workers on replay too */
  if (self->options.no_implicit_workers || self->scenario->outside_workers)
    json_object_set_boolean_member (xw, "outsideWorkers", TRUE);
  json_object_set_object_member (out, "x-winnow", xw);

  json_node_take_object (root, out);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  return json_generator_to_data (generator, NULL);
}

/* ---- breakpoints ---- */

gboolean
wn_breakpoint_parse (const char    *spec,
                     WnEventKind   *kind,
                     WnEventPhase  *phase,
                     char         **node,
                     GError       **error)
{
  g_autofree char *head = NULL;
  const char *at = strchr (spec, '@');
  const char *dot;

  head = at ? g_strndup (spec, at - spec) : g_strdup (spec);
  dot = strchr (head, '.');
  if (dot == NULL)
    {
      g_set_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_INVALID,
                   "breakpoint “%s”: expected KIND.PHASE[@NODE]", spec);
      return FALSE;
    }
  head[dot - head] = '\0';
  if (!wn_event_kind_from_string (head, kind))
    {
      g_set_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_INVALID,
                   "breakpoint “%s”: unknown event kind “%s”", spec, head);
      return FALSE;
    }
  if (!wn_event_phase_from_string (dot + 1, phase))
    {
      g_set_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_INVALID,
                   "breakpoint “%s”: unknown phase “%s”", spec, dot + 1);
      return FALSE;
    }
  if (!wn_event_phase_belongs (*kind, *phase))
    {
      /* it would never fire */
      g_set_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_INVALID,
                   "breakpoint “%s”: “%s” is not a phase of %s events", spec, dot + 1, head);
      return FALSE;
    }
  if (at != NULL && at[1] == '\0')
    {
      g_set_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_INVALID,
                   "breakpoint “%s”: a node id must follow @", spec);
      return FALSE;
    }
  *node = at ? g_strdup (at + 1) : NULL;
  return TRUE;
}

/* The model's item for breakpoints[i] follows it. */
static void
sync_item (WnEngine *self,
           guint     i)
{
  g_autoptr(WnBreakpointItem) item = g_list_model_get_item (G_LIST_MODEL (self->breakpoint_items), i);

  _wn_breakpoint_item_sync (item, &g_array_index (self->breakpoints, WnBreakpoint, i));
}

static void
breakpoint_cb (const WnEvent *event,
               gpointer       data)
{
  WnEngine *self = data;

  for (guint i = 0; i < self->breakpoints->len; i++)
    {
      WnBreakpoint *bp = &g_array_index (self->breakpoints, WnBreakpoint, i);

      if (!bp->enabled || bp->kind != event->kind || bp->phase != event->phase ||
          (bp->node != NULL && g_strcmp0 (bp->node, event->node) != 0))
        continue;
      bp->hits++;
      if (self->last_hit == 0 || self->last_hit_action != wn_scheduler_get_n_run (self->scheduler))
        {
          /* the first hit of an action names the stop */
          self->last_hit_action = wn_scheduler_get_n_run (self->scheduler);
          self->last_hit = bp->id;
          g_clear_pointer (&self->last_hit_event, wn_event_free);
          self->last_hit_event = wn_event_copy (event);
          wn_scheduler_request_stop (self->scheduler);
        }
      /* last: the item notifies "hits" */
      sync_item (self, i);
    }
}

static void
append_breakpoint (WnEngine           *self,
                   const WnBreakpoint *bp)
{
  g_autoptr(WnBreakpointItem) item = _wn_breakpoint_item_new (bp);

  g_array_append_val (self->breakpoints, *bp);
  if (self->breakpoint_sub == 0)
    self->breakpoint_sub = wn_journal_subscribe (self->journal, breakpoint_cb, self, NULL);
  g_list_store_append (self->breakpoint_items, item);
}

guint
wn_engine_add_breakpoint (WnEngine     *self,
                          WnEventKind   kind,
                          WnEventPhase  phase,
                          const char   *node)
{
  WnBreakpoint bp = { ++self->next_breakpoint, kind, phase, g_strdup (node), TRUE, 0 };

  append_breakpoint (self, &bp);
  return bp.id;
}

gboolean
wn_engine_remove_breakpoint (WnEngine *self,
                             guint     id)
{
  for (guint i = 0; i < self->breakpoints->len; i++)
    if (g_array_index (self->breakpoints, WnBreakpoint, i).id == id)
      {
        g_array_remove_index (self->breakpoints, i);
        g_list_store_remove (self->breakpoint_items, i);
        if (self->breakpoints->len == 0 && self->breakpoint_sub != 0)
          {
            /* no listener left: the journal may go quiet again */
            wn_journal_unsubscribe (self->journal, self->breakpoint_sub);
            self->breakpoint_sub = 0;
          }
        return TRUE;
      }
  return FALSE;
}

gboolean
wn_engine_enable_breakpoint (WnEngine *self,
                             guint     id,
                             gboolean  enabled)
{
  for (guint i = 0; i < self->breakpoints->len; i++)
    {
      WnBreakpoint *bp = &g_array_index (self->breakpoints, WnBreakpoint, i);
      if (bp->id == id)
        {
          bp->enabled = !!enabled;
          sync_item (self, i);
          return TRUE;
        }
    }
  return FALSE;
}

const WnBreakpoint *
wn_engine_get_breakpoints (WnEngine *self,
                           guint    *n_breakpoints)
{
  *n_breakpoints = self->breakpoints->len;
  return (const WnBreakpoint *) self->breakpoints->data;
}

GListModel *
wn_engine_get_breakpoint_model (WnEngine *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return G_LIST_MODEL (self->breakpoint_items);
}

guint
wn_engine_copy_breakpoints (WnEngine *self,
                            WnEngine *from)
{
  guint dropped = 0;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (from != NULL, 0);
  g_return_val_if_fail (self->breakpoints->len == 0, 0);

  for (guint i = 0; i < from->breakpoints->len; i++)
    {
      const WnBreakpoint *old = &g_array_index (from->breakpoints, WnBreakpoint, i);
      WnBreakpoint bp = { old->id, old->kind, old->phase, g_strdup (old->node), old->enabled, 0 };

      if (old->node != NULL && wn_process_find_node (self->process, old->node) == NULL)
        {
          g_free ((char *) bp.node);
          dropped++;
          continue;
        }
      append_breakpoint (self, &bp);
    }
  self->next_breakpoint = MAX (self->next_breakpoint, from->next_breakpoint);
  return dropped;
}

guint
wn_engine_get_last_hit (WnEngine       *self,
                        const WnEvent **event)
{
  if (event != NULL)
    *event = self->last_hit_event;
  return self->last_hit;
}

void
wn_engine_clear_hit (WnEngine *self)
{
  self->last_hit = 0;
  g_clear_pointer (&self->last_hit_event, wn_event_free);
}

static void
breakpoint_clear (gpointer data)
{
  WnBreakpoint *bp = data;

  g_free ((char *) bp->node);
}

/* ---- snapshots ---- */

static void
fill_instance_info (WnInstance     *instance,
                    WnInstanceInfo *info)
{
  info->id = instance->id;
  info->number = instance_number (instance);
  info->state = instance->state;
  info->started_at = instance->started_at;
  info->ended_at = instance->ended_at;
  info->end_node = instance->end_node != NULL ? instance->end_node->id : NULL;
  info->reason = instance->reason;
  info->n_incidents = instance->n_incidents;
  info->variables = _wn_instance_get_variables (instance);
}

void
wn_engine_foreach_instance (WnEngine              *self,
                            WnInstanceForeachFunc  func,
                            gpointer               data)
{
  for (guint i = 0; i < self->instances->len; i++)
    {
      WnInstanceInfo info;
      fill_instance_info (g_ptr_array_index (self->instances, i), &info);
      func (&info, data);
    }
}

gboolean
wn_engine_lookup_instance (WnEngine       *self,
                           const char     *id,
                           WnInstanceInfo *info)
{
  WnInstance *instance = instance_by_id (self, id);

  if (instance == NULL)
    return FALSE;
  fill_instance_info (instance, info);
  return TRUE;
}

/* `id` is the track's id as the caller has it; the job id, if any, is written
 * into `job_id`. */
static void
fill_track_info (WnEngine    *self,
                 WnInstance  *instance,
                 WnTrack     *track,
                 const char  *id,
                 char         job_id[WN_ID_SIZE],
                 WnTrackInfo *info)
{
  info->id = id;
  info->instance = instance->id;
  info->node = self->process->nodes[track->node].id;
  info->state = track->state;
  info->since = track->since;
  info->job = NULL;
  if (track->job != 0)
    {
      _wn_instance_format_id (instance, 'j', track->job, job_id);
      info->job = job_id;
    }
  info->error = track->error;
  info->instance_number = instance_number (instance);
  info->number = track->number;
  info->job_number = track->job;
}

gboolean
wn_engine_lookup_track (WnEngine    *self,
                        const char  *id,
                        WnTrackInfo *info)
{
  const char *p = id;
  guint64 n_track;
  WnInstance *instance;
  WnTrack *track;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (info != NULL, FALSE);

  /* "i<n>/t<m>": the m-th track of the n-th instance, found by number, not by
   * hashing, like wn_engine_lookup_instance() */
  instance = read_instance (self, &p);
  if (instance == NULL || *p++ != '/' || *p++ != 't')
    return FALSE;
  n_track = read_number (&p);
  if (n_track == 0 || *p != '\0' || n_track > instance->n_tracks)
    return FALSE;
  track = _wn_instance_get_track (instance, (guint) n_track - 1);
  g_assert (track->number == n_track);

  /* the job id goes into the engine's buffer: the header says it lasts until
   * the next lookup */
  fill_track_info (self, instance, track, id, self->lookup_job_id, info);
  return TRUE;
}

void
wn_engine_foreach_track (WnEngine           *self,
                         gboolean            all,
                         WnTrackForeachFunc  func,
                         gpointer            data)
{
  for (guint i = 0; i < self->instances->len; i++)
    {
      WnInstance *instance = g_ptr_array_index (self->instances, i);

      if (!all && instance->state != WN_INSTANCE_ACTIVE)
        continue;
      for (guint j = 0; j < instance->n_tracks; j++)
        {
          WnTrack *track = _wn_instance_get_track (instance, j);
          char track_id[WN_ID_SIZE];
          char job_id[WN_ID_SIZE];
          WnTrackInfo info;

          if (!all && !wn_track_state_is_live (track->state))
            continue;
          /* track and job ids are written out for the callback only */
          _wn_instance_format_id (instance, 't', track->number, track_id);
          fill_track_info (self, instance, track, track_id, job_id, &info);
          func (&info, data);
        }
    }
}

void
wn_engine_get_stats (WnEngine   *self,
                     WnRunStats *stats)
{
  WnDispatcherCounters counters;

  /* O(1): every total is kept up to date as instances change (a front end
   * reads them every frame) */
  memset (stats, 0, sizeof *stats);
  wn_dispatcher_get_counters (self->dispatcher, &counters);
  stats->instances = self->instances->len;
  stats->completed = self->n_completed;
  stats->terminated = self->n_terminated;
  /* an instance is active until it completes or terminates, once */
  stats->active = self->instances->len - self->n_completed - self->n_terminated;
  stats->incidents = self->n_with_incidents;
  stats->executions = self->executions;
  stats->retries = counters.retries + self->worker_retries;
  stats->exhausted = counters.exhausted + self->worker_exhausted;
  stats->events = wn_journal_get_n_events (self->journal);
}

static int
compare_times (gconstpointer a,
               gconstpointer b)
{
  WnTime x = *(const WnTime *) a;
  WnTime y = *(const WnTime *) b;

  return (x > y) - (x < y);
}

GArray *
wn_engine_get_completion_times (WnEngine *self)
{
  GArray *times = g_array_copy (self->completion_times);

  g_array_sort (times, compare_times);
  return times;
}

guint
wn_engine_get_end_count (WnEngine *self,
                         guint     node)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (node < self->process->n_nodes, 0);

  /* counted as instances complete (wn-instance.c), no hashing per instance */
  return self->end_counts[node];
}

typedef struct {
  WnEngine  *engine;
  GPtrArray *lines;
} WaitingData;

static guint
live_slots_for_topic (WnEngine   *self,
                      const char *topic)
{
  guint n = 0;

  for (guint i = 0; i < self->workers->len; i++)
    {
      WnSimWorker *worker = g_ptr_array_index (self->workers, i);
      if (g_strcmp0 (_wn_sim_worker_get_topic (worker), topic) == 0)
        n += _wn_sim_worker_get_n_live_slots (worker);
    }
  return n;
}

static void
describe_track_cb (const WnTrackInfo *track,
                   gpointer           data)
{
  WaitingData *w = data;
  WnJobInfo job;

  if (track->state == WN_TRACK_INCIDENT)
    {
      g_ptr_array_add (w->lines, g_strdup_printf ("%s holds an incident at %s: %s", track->instance,
                                                  track->node, track->error ? track->error : ""));
      return;
    }
  if (track->state == WN_TRACK_ACTIVE)
    {
      const WnNode *node = wn_process_find_node (w->engine->process, track->node);

      /* Engine II waits that only the world or the operator ends */
      if (node != NULL && node->type == WN_NODE_USER)
        {
          g_ptr_array_add (w->lines, g_strdup_printf ("%s waits for a person at %s (a user task)",
                                                      track->instance, track->node));
          return;
        }
      if (node != NULL && (node->type == WN_NODE_MESSAGE || node->type == WN_NODE_RECEIVE))
        {
          g_ptr_array_add (w->lines, g_strdup_printf ("%s waits for message %s at %s", track->instance,
                                                      node->message, track->node));
          return;
        }
    }
  if (track->state != WN_TRACK_PARKED || track->job == NULL ||
      !wn_dispatcher_lookup (w->engine->dispatcher, track->job, &job))
    {
      g_ptr_array_add (w->lines, g_strdup_printf ("%s waits at %s (%s)", track->instance, track->node,
                                                  wn_track_state_to_string (track->state)));
      return;
    }
  {
    g_autofree char *why = NULL;
    guint live = live_slots_for_topic (w->engine, job.topic);

    if (job.state == WN_JOB_GATED)
      {
        g_autofree char *at = wn_time_format_clock (job.not_before);
        why = g_strdup_printf ("gated until %s", at);
      }
    else if (job.state == WN_JOB_LOCKED || job.state == WN_JOB_EXPIRED)
      {
        g_autofree char *at = wn_time_format_clock (job.deadline);
        why = g_strdup_printf ("locked by %s until %s", job.worker, at);
      }
    else
      why = g_strdup ("available");
    g_ptr_array_add (w->lines,
                     g_strdup_printf ("%s parked at %s on %s (topic %s: %s%s)", track->instance, track->node,
                                      job.id, job.topic, why,
                                      live == 0 ? "; no live worker serves the topic" : ""));
  }
}

GPtrArray *
wn_engine_describe_waiting (WnEngine *self)
{
  WaitingData w = { self, g_ptr_array_new_with_free_func (g_free) };

  wn_engine_foreach_track (self, FALSE, describe_track_cb, &w);
  return w.lines;
}

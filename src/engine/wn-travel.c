/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-travel.c — reruns, positions, steps and the state dump (wn-travel.h). */
#include "config.h"

#include "wn-engine-private.h"
#include "wn-travel.h"

/* ---- positions ---- */

void
wn_engine_get_position (WnEngine   *self,
                        WnPosition *position)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (position != NULL);

  position->actions = wn_scheduler_get_n_run (self->scheduler);
  position->commands = self->commands->len;
  position->now = wn_scheduler_now (self->scheduler);
  position->events = wn_journal_get_n_events (self->journal);
}

void
wn_steps_note (WnSteps       *steps,
               WnEngine      *engine,
               const WnEvent *event)
{
  WnPosition here;

  g_return_if_fail (steps != NULL && engine != NULL && event != NULL);

  wn_engine_get_position (engine, &here);
  if (steps->last_first == 0 || here.actions != steps->last.actions || here.commands != steps->last.commands)
    {
      if (steps->last_first != 0)
        steps->previous = steps->last;
      steps->last_first = event->seq;
    }
  steps->last = here;
  steps->last.now = -1;
}

/* ---- reruns ---- */

/* Every field of WnCommand (wn-scenario.h): a rerun replays the copy. */
static WnCommand *
command_copy (const WnCommand *c)
{
  WnCommand *copy = wn_command_new (c->kind, c->after, c->at);

  copy->variables = c->variables ? json_object_ref (c->variables) : NULL;
  copy->topic = g_strdup (c->topic);
  copy->worker = g_strdup (c->worker);
  copy->response = c->response ? wn_response_ref (c->response) : NULL;
  copy->trust = c->trust;
  copy->node = g_strdup (c->node);
  copy->instance = g_strdup (c->instance);
  copy->phase = c->phase;
  copy->action = g_strdup (c->action);
  copy->call = c->call ? json_object_ref (c->call) : NULL;
  copy->on = c->on;
  copy->code = g_strdup (c->code);
  copy->message = g_strdup (c->message);
  copy->key = c->key ? json_node_copy (c->key) : NULL;
  copy->injection = c->injection;
  return copy;
}

WnCommand *
wn_command_copy (const WnCommand *command)
{
  g_return_val_if_fail (command != NULL, NULL);
  return command_copy (command);
}

GPtrArray *
wn_engine_dup_record (WnEngine *self)
{
  GPtrArray *record;

  g_return_val_if_fail (self != NULL, NULL);

  /* what it did, then what it was still to replay (its own record's
   * future, or a loaded session's commands it has not reached) */
  record = g_ptr_array_new_with_free_func ((GDestroyNotify) wn_command_free);
  for (guint i = 0; i < self->commands->len; i++)
    g_ptr_array_add (record, command_copy (g_ptr_array_index (self->commands, i)));
  for (guint i = self->replay_next; i < MIN (self->replay->len, self->replay_limit); i++)
    g_ptr_array_add (record, command_copy (g_ptr_array_index (self->replay, i)));
  return record;
}

WnEngine *
wn_engine_new_rerun_of (WnEngine  *from,
                        GPtrArray *record)
{
  WnEngine *self;

  g_return_val_if_fail (from != NULL, NULL);
  g_return_val_if_fail (record != NULL, NULL);

  self = wn_engine_new (from->process, from->scenario, &from->options);
  g_ptr_array_unref (self->replay);
  self->replay = g_ptr_array_new_with_free_func ((GDestroyNotify) wn_command_free);
  for (guint i = 0; i < record->len; i++)
    g_ptr_array_add (self->replay, command_copy (g_ptr_array_index (record, i)));
  self->replay_next = 0;
  self->replay_limit = G_MAXUINT;
  self->rerun = TRUE;
  _wn_engine_arm_replay (self);
  return self;
}

WnEngine *
wn_engine_new_rerun (WnEngine *from)
{
  g_autoptr(GPtrArray) record = NULL;

  g_return_val_if_fail (from != NULL, NULL);

  record = wn_engine_dup_record (from);
  return wn_engine_new_rerun_of (from, record);
}

guint
wn_engine_get_n_future (WnEngine *self)
{
  g_return_val_if_fail (self != NULL, 0);

  if (!self->rerun || self->replay_next >= self->replay->len)
    return 0;
  return self->replay->len - self->replay_next;
}

void
_wn_engine_drop_future (WnEngine *self)
{
  if (self->replay_next >= self->replay->len)
    return;
  /* the parent branch, for whoever keeps branches */
  g_clear_pointer (&self->dropped, g_ptr_array_unref);
  self->dropped = wn_engine_dup_record (self);
  self->dropped_fork = wn_journal_get_n_events (self->journal);
  g_ptr_array_set_size (self->replay, self->replay_next);
  _wn_engine_arm_replay (self);
}

GPtrArray *
wn_engine_take_dropped_record (WnEngine *self,
                               guint64  *fork)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (fork != NULL)
    *fork = self->dropped_fork;
  return g_steal_pointer (&self->dropped);
}

/* ---- steps ---- */

static void
limit_replay (WnEngine *self,
              guint     limit)
{
  self->replay_limit = limit;
  _wn_engine_arm_replay (self);
}

/* The next command of the record comes before any further action. */
static gboolean
command_due (WnEngine *self)
{
  const WnCommand *c;

  if (self->replay_next >= MIN (self->replay->len, self->replay_limit))
    return FALSE;
  c = g_ptr_array_index (self->replay, self->replay_next);
  return c->after == wn_scheduler_get_n_run (self->scheduler);
}

gboolean
wn_engine_step (WnEngine *self,
                WnTime    limit)
{
  guint saved = self->replay_limit;
  guint64 actions = wn_scheduler_get_n_run (self->scheduler);
  guint commands = self->replay_next;

  g_return_val_if_fail (self != NULL, FALSE);

  /* the command alone: armed by itself, no action allowed */
  if (command_due (self))
    {
      limit_replay (self, self->replay_next + 1);
      wn_scheduler_run_budget (self->scheduler, limit, 0);
    }
  /* else (or when it could not come first: a hand-edited session) one
   * action, no command armed */
  if (self->replay_next == commands)
    {
      limit_replay (self, self->replay_next);
      wn_scheduler_run_budget (self->scheduler, limit, 1);
    }
  limit_replay (self, saved);
  return wn_scheduler_get_n_run (self->scheduler) != actions || self->replay_next != commands;
}

WnStopReason
wn_engine_run_to_event (WnEngine *self,
                        guint64   seq,
                        WnTime    limit,
                        guint     budget)
{
  g_return_val_if_fail (self != NULL, WN_STOP_QUIESCENT);

  wn_engine_clear_hit (self);
  for (guint i = 0; wn_journal_get_n_events (self->journal) < seq; i++)
    {
      if (i == budget)
        return WN_STOP_BUDGET;
      if (!wn_engine_step (self, limit))
        return wn_scheduler_get_next_time (self->scheduler) == WN_TIME_NEVER ? WN_STOP_QUIESCENT
                                                                            : WN_STOP_LIMIT;
    }
  return WN_STOP_REQUESTED;
}

static gboolean
unreachable (GError    **error,
             const char *why)
{
  g_set_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_INVALID, "cannot go to that point: %s", why);
  return FALSE;
}

gboolean
wn_engine_run_to_position (WnEngine         *self,
                           const WnPosition *position,
                           guint             budget,
                           GError          **error)
{
  WnPosition here;
  guint saved;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (position != NULL, FALSE);

  wn_engine_get_position (self, &here);
  if (here.actions > position->actions || self->replay_next > position->commands)
    return unreachable (error, "the run is past it");
  saved = self->replay_limit;
  /* commands up to the target's, none past it */
  limit_replay (self, MIN (saved, position->commands));
  while (wn_scheduler_get_n_run (self->scheduler) < position->actions)
    {
      guint64 left = position->actions - wn_scheduler_get_n_run (self->scheduler);
      guint64 before = wn_scheduler_get_n_run (self->scheduler);
      guint slice = (guint) MIN (left, (guint64) budget);

      if (budget == 0)
        break;
      wn_scheduler_run_budget (self->scheduler, WN_TIME_NEVER, slice);
      budget -= (guint) (wn_scheduler_get_n_run (self->scheduler) - before);
      if (wn_scheduler_get_n_run (self->scheduler) == before)
        {
          limit_replay (self, saved);
          return unreachable (error, "the run ends before it");
        }
    }
  if (wn_scheduler_get_n_run (self->scheduler) < position->actions)
    {
      limit_replay (self, saved);
      return FALSE;
    }
  /* the commands given at that point, in their order */
  while (self->replay_next < position->commands && command_due (self))
    if (!wn_engine_step (self, WN_TIME_NEVER))
      break;
  limit_replay (self, saved);
  if (self->replay_next < position->commands)
    return unreachable (error, "a command of the record does not come there");
  /* the clock, if the run went on without a step (a step by Δ) */
  if (position->now > wn_scheduler_now (self->scheduler) &&
      wn_scheduler_get_next_time (self->scheduler) > position->now)
    {
      /* nothing is due before: only the clock moves (no command is armed
       * before it either: the next one comes after more actions) */
      limit_replay (self, self->replay_next);
      wn_scheduler_step_by (self->scheduler, position->now - wn_scheduler_now (self->scheduler));
      limit_replay (self, saved);
    }
  if (wn_journal_get_n_events (self->journal) != position->events)
    return unreachable (error, "the rerun journalled other events than the run");
  wn_engine_clear_hit (self);
  return TRUE;
}

/* ---- the state dump ---- */

static void
add_time (JsonBuilder *b,
          const char  *key,
          WnTime       t)
{
  json_builder_set_member_name (b, key);
  json_builder_add_int_value (b, t);
}

static void
add_string (JsonBuilder *b,
            const char  *key,
            const char  *value)
{
  if (value == NULL)
    return;
  json_builder_set_member_name (b, key);
  json_builder_add_string_value (b, value);
}

static void
dump_instance_cb (const WnInstanceInfo *info,
                  gpointer              data)
{
  JsonBuilder *b = data;
  JsonNode *variables = json_node_new (JSON_NODE_OBJECT);

  json_node_take_object (variables, info->variables ? json_object_ref (info->variables) : json_object_new ());
  json_builder_begin_object (b);
  add_string (b, "id", info->id);
  add_string (b, "state", wn_instance_state_to_string (info->state));
  add_time (b, "started_us", info->started_at);
  if (info->ended_at >= 0)
    add_time (b, "ended_us", info->ended_at);
  add_string (b, "end", info->end_node);
  add_string (b, "reason", info->reason);
  json_builder_set_member_name (b, "incidents");
  json_builder_add_int_value (b, info->n_incidents);
  json_builder_set_member_name (b, "variables");
  json_builder_add_value (b, variables);
  json_builder_end_object (b);
}

static void
dump_track_cb (const WnTrackInfo *info,
               gpointer           data)
{
  JsonBuilder *b = data;

  json_builder_begin_object (b);
  add_string (b, "id", info->id);
  add_string (b, "node", info->node);
  add_string (b, "state", wn_track_state_to_string (info->state));
  add_time (b, "since_us", info->since);
  add_string (b, "job", info->job);
  add_string (b, "error", info->error);
  json_builder_end_object (b);
}

static void
dump_job_cb (const WnJobInfo *info,
             gpointer         data)
{
  JsonBuilder *b = data;

  json_builder_begin_object (b);
  add_string (b, "id", info->id);
  add_string (b, "topic", info->topic);
  add_string (b, "node", info->node);
  add_string (b, "state", wn_job_state_to_string (info->state));
  json_builder_set_member_name (b, "retries");
  json_builder_add_int_value (b, info->attempt);
  json_builder_set_member_name (b, "executions");
  json_builder_add_int_value (b, info->executions);
  json_builder_set_member_name (b, "lost");
  json_builder_add_int_value (b, info->lost);
  add_time (b, "enqueued_us", info->enqueued_at);
  if (info->not_before > 0)
    add_time (b, "not_before_us", info->not_before);
  add_string (b, "worker", info->worker);
  if (info->first_lock >= 0)
    add_time (b, "first_lock_us", info->first_lock);
  if (info->deadline >= 0)
    add_time (b, "deadline_us", info->deadline);
  if (info->next_change != WN_TIME_NEVER)
    add_time (b, "next_change_us", info->next_change);
  add_string (b, "trust", wn_trust_to_string (info->policy->trust));
  json_builder_end_object (b);
}

static void
add_count (JsonBuilder *b,
           const char  *key,
           guint64      value)
{
  json_builder_set_member_name (b, key);
  json_builder_add_int_value (b, (gint64) value);
}

char *
wn_engine_dump_state (WnEngine *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  WnPosition position;
  WnRunStats stats;
  WnDispatcherCounters counters;
  WnTime next;

  g_return_val_if_fail (self != NULL, NULL);

  wn_engine_get_position (self, &position);
  wn_engine_get_stats (self, &stats);
  wn_dispatcher_get_counters (self->dispatcher, &counters);
  next = wn_scheduler_get_next_time (self->scheduler);

  json_builder_begin_object (b);
  add_string (b, "format", "winnow.state/1");
  add_count (b, "seq", position.events);
  add_time (b, "t_us", position.now);
  add_count (b, "actions", position.actions);
  add_count (b, "commands", position.commands);
  json_builder_set_member_name (b, "pending");
  json_builder_begin_object (b);
  add_count (b, "actions", wn_scheduler_get_n_pending (self->scheduler));
  if (next != WN_TIME_NEVER)
    add_time (b, "next_us", next);
  json_builder_end_object (b);
  add_string (b, "trust", wn_trust_to_string (self->trust_default));
  json_builder_set_member_name (b, "counters");
  json_builder_begin_object (b);
  add_count (b, "instances", stats.instances);
  add_count (b, "completed", stats.completed);
  add_count (b, "terminated", stats.terminated);
  add_count (b, "incidents", stats.incidents);
  add_count (b, "active", stats.active);
  add_count (b, "executions", stats.executions);
  add_count (b, "retries", stats.retries);
  add_count (b, "exhausted", stats.exhausted);
  add_count (b, "reclaims", counters.reclaims);
  add_count (b, "rejected", counters.rejected);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "instances");
  json_builder_begin_array (b);
  wn_engine_foreach_instance (self, dump_instance_cb, b);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "tracks");
  json_builder_begin_array (b);
  wn_engine_foreach_track (self, TRUE, dump_track_cb, b);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "jobs");
  json_builder_begin_array (b);
  wn_dispatcher_foreach (self->dispatcher, dump_job_cb, b);
  json_builder_end_array (b);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_root (generator, root);
  return json_generator_to_data (generator, NULL);
}

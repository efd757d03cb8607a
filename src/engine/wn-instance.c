/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-instance.c — instances and tracks: enter nodes, park once, wake once.
 *
 * A track runs through instantaneous nodes in one loop and stops when it parks
 * on a job, waits on virtual time, joins, raises an incident or ends. Only
 * terminal outcomes ever reach a track (semantics §7).
 *
 * Past 1,500 lines because it is one concept, the token machine: scopes,
 * boundaries, user tasks, messages and multi-instance all move the same
 * tracks through the same park-once/wake-once rules, and split apart they
 * would share every private helper.
 */
#include "config.h"

#include <string.h>

#include "wn-engine-private.h"
#include "wn-dispatcher-private.h"
#include "wn-duration.h"
#include "wn-json.h"

/* A track that passes more nodes than this without virtual time moving is in a
 * loop that can never progress. The count runs across the track's parks (a
 * cycle through a job that takes no time) and into the tracks its forks make;
 * it starts again when virtual time has moved (a timer fired, a state changed
 * at a later time than the one before) and when the track holds an incident,
 * for the operator's retry or resolve. */
#define MAX_STEPS_PER_INSTANT 100000

/* What a script may make an instance's variables hold in all, in bytes as
 * wn_json_node_size() counts them: scripts are the only thing that can grow
 * them without bound (a string doubled each pass). */
#define MAX_VARIABLE_BYTES (16 * 1024 * 1024)

static void track_run (WnTrack *track, int flow);
static void track_fail (WnTrack *track, const char *error);
static void fork_cb (gpointer data);
/* Engine II: scopes and boundaries (below the outcomes) */
static void enter_scope (WnTrack *track, const WnNode *node);
static void arm_boundaries (WnTrack *track, const WnNode *node);
static void catch_or_fail (WnTrack *track, const char *code, const char *fail_message, WnEvent *thrown);
static void terminate_scope (WnTrack *track, const WnNode *end);
static void enter_user_task (WnTrack *track, const WnNode *node);
static void leave_people (WnTrack *track);
static void enter_message_wait (WnTrack *track, const WnNode *node);
static void enter_event_gateway (WnTrack *track, const WnNode *node);
static void enter_multi (WnTrack *track, const WnNode *node);
static void set_element (WnTrack *track, const WnNode *node);
static gboolean collect_output (WnTrack *track);
static void arm_event_starts (WnInstance *instance, WnScope *scope, GArray *event_subs);
static void disarm_event_starts (WnInstance *instance, WnScope *scope);
static gboolean catch_in_event_sub (WnTrack *thrower, WnScope *scope, const char *code);
static gboolean correlate_event_starts (WnInstance *instance, WnScope *scope, const char *name,
                                        JsonNode *key, JsonObject *variables);

static const WnNode *
node_of (WnTrack *track)
{
  return &track->instance->engine->process->nodes[track->node];
}

/* The length of an instance id, "i<n>", from its whole WN_INSTANCE_ID_SIZE
 * array: where the first zero byte is, eight bytes at a time. */
static inline gsize
instance_id_len (const char id[WN_INSTANCE_ID_SIZE])
{
#if G_BYTE_ORDER == G_LITTLE_ENDIAN && defined (__GNUC__)
  const guint64 ones = G_GUINT64_CONSTANT (0x0101010101010101);
  const guint64 highs = G_GUINT64_CONSTANT (0x8080808080808080);
  guint64 head;
  guint32 tail;
  guint64 zeros;

  G_STATIC_ASSERT (WN_INSTANCE_ID_SIZE == 12);
  memcpy (&head, id, 8);
  /* the lowest byte flagged here is the first zero byte (a borrow can flag
   * only bytes after one) */
  zeros = (head - ones) & ~head & highs;
  if (zeros != 0)
    return (gsize) __builtin_ctzll (zeros) >> 3;
  memcpy (&tail, id + 8, 4);
  zeros = (guint32) ((tail - 0x01010101u) & ~tail & 0x80808080u);
  g_assert (zeros != 0);
  return 8 + ((gsize) __builtin_ctzll (zeros) >> 3);
#else
  gsize len = 1;

  while (len < WN_INSTANCE_ID_SIZE && id[len] != '\0')
    len++;
  g_assert (len < WN_INSTANCE_ID_SIZE);
  return len;
#endif
}

/* Writes "<base>/<tag><n>", or "<tag><n>" when base is NULL, and returns its
 * length. The base is always an instance id (its whole WN_INSTANCE_ID_SIZE
 * array is read). Ids are written for every instance and job and for every
 * journal event, so this skips printf and calls nothing. */
static gsize
format_id (char        out[WN_ID_SIZE],
           const char *base,
           char        tag,
           guint       n)
{
  char digits[WN_DECIMAL_SIZE];
  gsize n_digits;
  char *p = out;

  if (base != NULL)
    {
      /* an instance id, in its WN_INSTANCE_ID_SIZE bytes: copied whole */
      G_STATIC_ASSERT (WN_INSTANCE_ID_SIZE + 2 + 10 < WN_ID_SIZE);
      memcpy (p, base, WN_INSTANCE_ID_SIZE);
      p += instance_id_len (base);
      *p++ = '/';
    }
  *p++ = tag;
  if (n < 10)   /* the first track, the first jobs */
    *p++ = (char) ('0' + n);
  else
    {
      n_digits = _wn_format_decimal (digits, n);
      memcpy (p, digits, n_digits);
      p += n_digits;
    }
  *p = '\0';
  return (gsize) (p - out);
}

void
_wn_instance_format_id (const WnInstance *instance,
                        char              tag,
                        guint             n,
                        char              out[WN_ID_SIZE])
{
  format_id (out, instance->id, tag, n);
}

/* Tracks by index: the first lives in the instance, the others in more_tracks. */
WnTrack *
_wn_instance_get_track (WnInstance *instance,
                        guint       index)
{
  g_assert (index < instance->n_tracks);
  if (index == 0)
    return &instance->track;
  return g_ptr_array_index (instance->more_tracks, index - 1);
}

/* The variable a task's direct output goes to (and the job's output variable). */
static const char *
output_var_of (const WnNode *node)
{
  return node->worker->output_var != NULL ? node->worker->output_var : node->id;
}

/* Stamp the track on `ev` and journal it; the caller has made sure someone
 * listens. */
static void
emit_filled (WnTrack      *track,
             WnEventKind   kind,
             WnEventPhase  phase,
             WnEvent      *ev)
{
  char track_id[WN_ID_SIZE];
  char scope_id[WN_ID_SIZE];
  gboolean own_scope = FALSE;
  gsize track_len;

  ev->kind = kind;
  ev->phase = phase;
  ev->instance = track->instance->id;
  if (ev->node == NULL)
    {
      const WnNode *node = node_of (track);

      ev->node = node->id;
      ev->plain_len[WN_PLAIN_NODE] = node->id_plain;
    }
  track_len = format_id (track_id, track->instance->id, 't', track->number);
  ev->track = track_id;
  /* both ids are plain ("i12" and "i12/t3") */
  ev->plain_len[WN_PLAIN_TRACK] = (guint8) track_len;
  ev->plain_len[WN_PLAIN_INSTANCE] = (guint8) instance_id_len (track->instance->id);
  if (ev->loop == 0)
    ev->loop = track->loop;
  if (ev->scope == NULL && track->scope != NULL)
    {
      format_id (scope_id, track->instance->id, 's', track->scope->number);
      ev->scope = scope_id;
      own_scope = TRUE;
    }
  _wn_engine_emit (track->instance->engine, ev);
  /* the ids live in this frame: an event emitted again (a thrown error's
   * `uncaught`) gets them anew rather than pointing into a dead frame */
  ev->track = NULL;
  ev->plain_len[WN_PLAIN_TRACK] = 0;
  if (own_scope)
    ev->scope = NULL;
}

static void
emit (WnTrack      *track,
      WnEventKind   kind,
      WnEventPhase  phase,
      WnEvent      *ev)
{
  WnJournal *journal = track->instance->engine->journal;

  if (!wn_journal_is_active (journal))
    {
      wn_journal_skip (journal);
      return;
    }
  emit_filled (track, kind, phase, ev);
}

static inline void
emit_simple (WnTrack      *track,
             WnEventKind   kind,
             WnEventPhase  phase,
             const char   *error)
{
  WnJournal *journal = track->instance->engine->journal;

  /* the hot path of a run without subscribers: do not even fill the event */
  if (!wn_journal_is_active (journal))
    {
      wn_journal_skip (journal);
      return;
    }
  {
    WnEvent ev = WN_EVENT_INIT (kind, phase);

    ev.error = error;
    emit_filled (track, kind, phase, &ev);
  }
}

static void
emit_instance (WnInstance   *instance,
               WnEventPhase  phase,
               const char   *error)
{
  WnEngine *engine = instance->engine;

  if (!wn_journal_is_active (engine->journal))
    {
      wn_journal_skip (engine->journal);
      return;
    }
  {
    WnEvent ev = WN_EVENT_INIT (WN_EV_INSTANCE, phase);

    ev.instance = instance->id;
    ev.plain_len[WN_PLAIN_INSTANCE] = (guint8) instance_id_len (instance->id);
    ev.error = error;
    _wn_engine_emit (engine, &ev);
  }
}

static void
set_state (WnTrack      *track,
           WnTrackState  state)
{
  WnTime now = wn_scheduler_now (track->instance->engine->scheduler);

  if (now != track->since || state == WN_TRACK_INCIDENT)
    track->loop_steps = 0;
  track->state = state;
  track->since = now;
}

/* What a track owns. Its armed boundary waits go with it: a run that is
 * dropped unfinished (a rerun stopped early, an engine freed mid-run) frees
 * them here; their scheduler entries go with the scheduler. */
static void
track_clear (WnTrack *track)
{
  g_clear_pointer (&track->error, g_free);
  g_clear_pointer (&track->message_key, json_node_unref);
  g_clear_pointer (&track->boundary_timers, g_ptr_array_unref);
}

/* A track made by a fork (the first one lives in the instance). */
static void
track_free (WnTrack *track)
{
  track_clear (track);
  g_free (track);
}

/* A new track at `node`, inside `scope` (NULL: the process). */
static WnTrack *
track_new (WnInstance *instance,
           guint       node,
           WnScope    *scope)
{
  WnTrack *track;

  if (instance->n_tracks == 0)
    track = &instance->track;
  else
    {
      track = g_new0 (WnTrack, 1);
      if (instance->more_tracks == NULL)
        instance->more_tracks = g_ptr_array_new_with_free_func ((GDestroyNotify) track_free);
      g_ptr_array_add (instance->more_tracks, track);
    }
  track->number = ++instance->n_tracks;
  track->instance = instance;
  track->node = node;
  track->scope = scope;
  if (scope != NULL)
    scope->n_live++;
  set_state (track, WN_TRACK_ACTIVE);
  instance->n_live++;
  return track;
}

/* ---- incidents ---- */

/* The engine counts the active instances holding an incident as they change,
 * so that its run totals cost nothing to read (wn_engine_get_stats()). */
static void
incident_opened (WnInstance *instance)
{
  if (instance->n_incidents++ == 0 && instance->state == WN_INSTANCE_ACTIVE)
    instance->engine->n_with_incidents++;
}

static void
incident_closed (WnInstance *instance)
{
  g_assert (instance->n_incidents > 0);
  if (--instance->n_incidents == 0 && instance->state == WN_INSTANCE_ACTIVE)
    instance->engine->n_with_incidents--;
}

/* ---- instance end ---- */

static void
instance_maybe_complete (WnInstance *instance)
{
  WnEngine *engine = instance->engine;
  WnTime now = wn_scheduler_now (engine->scheduler);
  WnTime took;

  if (instance->state != WN_INSTANCE_ACTIVE || instance->n_live > 0 || instance->n_incidents > 0)
    return;
  disarm_event_starts (instance, NULL);
  instance->state = WN_INSTANCE_COMPLETED;
  instance->ended_at = now;
  took = now - instance->started_at;
  g_array_append_val (engine->completion_times, took);
  engine->n_completed++;
  /* wn_engine_get_end_count(): every end event the instance reached */
  if (instance->ends != NULL)
    for (guint i = 0; i < instance->ends->len; i++)
      engine->end_counts[g_array_index (instance->ends, guint, i)]++;
  else if (instance->end_node != NULL)
    engine->end_counts[instance->end_node->index]++;
  emit_instance (instance, WN_PH_COMPLETED, NULL);
}

static void scope_track_ended (WnScope *scope, WnTrackState state);
static void disarm_boundaries (WnTrack *track);

static void
track_end (WnTrack      *track,
           WnTrackState  state)
{
  g_assert (wn_track_state_is_live (track->state));
  disarm_boundaries (track);
  if (track->state == WN_TRACK_INCIDENT)
    incident_closed (track->instance);
  set_state (track, state);
  track->instance->n_live--;
  if (track->scope != NULL)
    scope_track_ended (track->scope, state);
}

static void cancel_scope (WnScope *scope, const char *reason);
static void unshare_variables (WnTrack *track);

/* The job a track is parked on leaves the dispatcher: journalled as
 * job.canceled in a process with Engine II constructs (a v1 journal keeps its
 * bytes: there the node's cancellation says it). */
static void
cancel_job (WnTrack    *track,
            const char *reason)
{
  WnEngine *engine = track->instance->engine;
  char job_id[WN_ID_SIZE];

  format_id (job_id, track->instance->id, 'j', track->job);
  if (engine->process->extended)
    wn_dispatcher_cancel (engine->dispatcher, job_id, reason);
  else
    wn_dispatcher_remove (engine->dispatcher, job_id);
  track->job = 0;
  unshare_variables (track);
}

/* What a track waits on stops: the scope it hosts is canceled, its job leaves
 * the dispatcher, its timer never fires. */
static void
track_stop_work (WnTrack    *track,
                 const char *reason)
{
  WnEngine *engine = track->instance->engine;

  if (track->inner != NULL)
    {
      WnScope *inner = track->inner;

      track->inner = NULL;
      cancel_scope (inner, reason);
    }
  if (track->job != 0)
    cancel_job (track, reason);
  if (track->timer != 0)
    {
      wn_scheduler_cancel (engine->scheduler, track->timer);
      track->timer = 0;
    }
  if (track->user_task)
    leave_people (track);
  track->user_task = FALSE;
  track->message_wait = FALSE;
  g_clear_pointer (&track->message_key, json_node_unref);
}

/* Stop a live track: its job leaves the dispatcher, its timer never fires. */
static void
track_cancel (WnTrack    *track,
              const char *reason)
{
  if (!wn_track_state_is_live (track->state))
    return;
  disarm_boundaries (track);
  track_stop_work (track, reason);
  emit_simple (track, WN_EV_NODE, WN_PH_CANCELED, NULL);
  track_end (track, WN_TRACK_CANCELED);
}

static void
instance_terminate (WnInstance *instance,
                    const char *reason)
{
  WnEngine *engine = instance->engine;

  if (instance->state != WN_INSTANCE_ACTIVE)
    return;
  disarm_event_starts (instance, NULL);
  /* every incident sits on a live track: cancelling them closed them all, and
   * the last one to close took the instance off n_with_incidents */
  for (guint i = 0; i < instance->n_tracks; i++)
    track_cancel (_wn_instance_get_track (instance, i), "the instance terminated");
  g_assert (instance->n_incidents == 0);
  instance->state = WN_INSTANCE_TERMINATED;
  instance->ended_at = wn_scheduler_now (engine->scheduler);
  instance->reason = g_strdup (reason);
  engine->n_terminated++;
  emit_instance (instance, WN_PH_TERMINATED, reason);
}

/* ---- failure ---- */

static void
track_fail (WnTrack    *track,
            const char *error)
{
  WnInstance *instance = track->instance;
  WnEngine *engine = instance->engine;

  g_free (track->error);
  track->error = g_strdup (error);
  if (engine->config.on_exhausted == WN_ON_EXHAUSTED_INCIDENT)
    {
      set_state (track, WN_TRACK_INCIDENT);
      incident_opened (instance);
      emit_simple (track, WN_EV_NODE, WN_PH_INCIDENT, error);
      emit_simple (track, WN_EV_INCIDENT, WN_PH_RAISED, error);
      return;
    }
  emit_simple (track, WN_EV_NODE, WN_PH_FAILED, error);
  track_end (track, WN_TRACK_FAILED);
  instance_terminate (instance, error);
}

/* ---- variables ---- */

/* The variables are copy-on-write: an instance starts on the process's defaults
 * and a job input taken with every variable shares the instance's object, so
 * neither copies anything until the instance writes a variable while the
 * object is shared. A job's share ends with the job (its terminal outcome
 * reaches the track, or it is canceled): nothing reads a job's input after
 * that (a simulated worker reads it when an execution begins, which needs the
 * job's lock; the REST server when a job is fetched). So a chain of tasks,
 * each job taking every variable and each output written after its job,
 * writes in place and never copies. */
/* The bit-fields' ceilings (wn-engine-private.h): past them the sharing is
 * no longer counted, and the instance copies at every write while shared. */
#define GEN_SATURATED    0x7FFFu
#define SHARES_SATURATED 0xFFFFu

static gboolean
variables_shared (WnInstance *instance)
{
  return instance->n_input_shares > 0 || instance->variables == instance->engine->process->variables;
}

/* The job `track` parks on takes every variable as its input. */
static void
share_variables (WnTrack *track)
{
  WnInstance *instance = track->instance;

  if (instance->variables == instance->engine->process->variables)
    return;   /* the defaults: never written */
  if (instance->n_input_shares < SHARES_SATURATED)
    instance->n_input_shares++;
  track->input_gen = instance->variables_gen;
}

/* The job `track` was parked on is over: its input shares nothing any more. */
static void
unshare_variables (WnTrack *track)
{
  WnInstance *instance = track->instance;

  if (track->input_gen != 0 && track->input_gen == instance->variables_gen && track->input_gen != GEN_SATURATED &&
      instance->n_input_shares != SHARES_SATURATED)
    {
      g_assert (instance->n_input_shares > 0);
      instance->n_input_shares--;
    }
  track->input_gen = 0;
}

/* What a variable adds to the instance's count of bytes (MAX_VARIABLE_BYTES). */
static gsize
member_size (const char *name,
             JsonNode   *value)
{
  return strlen (name) + wn_json_node_size (value);
}

/* Write one variable, taking an object of its own first if the variables are
 * shared. Callers go through set_variable(), which applies a pending write
 * before this one. */
static void
set_member (WnInstance *instance,
            const char *name,
            JsonNode   *value)
{
  JsonNode *old;

  if (variables_shared (instance))
    {
      JsonObject *own = json_object_new ();
      JsonObjectIter iter;
      const char *member;
      JsonNode *node;

      json_object_iter_init (&iter, instance->variables);
      while (json_object_iter_next (&iter, &member, &node))
        json_object_set_member (own, member, json_node_ref (node));
      json_object_unref (instance->variables);
      instance->variables = own;
      /* the jobs that share the old object keep it; none shares this one */
      instance->n_input_shares = 0;
      if (instance->variables_gen < GEN_SATURATED)
        instance->variables_gen++;
    }
  old = json_object_get_member (instance->variables, name);
  /* json-glib ignores setting a member to the very node it holds, and would
   * keep the reference taken here (a raw output committed twice: one body) */
  if (old == value)
    return;
  if (instance->var_bytes_counted)
    {
      gint64 total = (gint64) instance->var_bytes + (gint64) member_size (name, value) -
                     (old != NULL ? (gint64) member_size (name, old) : 0);

      instance->var_bytes = (guint32) CLAMP (total, 0, G_MAXUINT32);
    }
  json_object_set_member (instance->variables, name, json_node_ref (value));
}

/* The variables as they are now: applies the pending write first. Everything
 * that reads the variables goes through here. */
static JsonObject *
instance_variables (WnInstance *instance)
{
  if (instance->pending_name != NULL)
    {
      const char *name = instance->pending_name;
      JsonNode *value = instance->pending_value;

      instance->pending_name = NULL;
      instance->pending_value = NULL;
      set_member (instance, name, value);
      json_node_unref (value);
    }
  return instance->variables;
}

static void
set_variable (WnInstance *instance,
              const char *name,
              JsonNode   *value)
{
  instance_variables (instance);
  set_member (instance, name, value);
}

/* A task's direct output (the whole body under `name`, which the process
 * owns). While the variables are shared, the write waits in `pending` until
 * something reads them: most instances commit one output and end, and then
 * nothing ever does. */
static void
commit_output (WnInstance *instance,
               const char *name,
               JsonNode   *value)
{
  if (variables_shared (instance) && instance->pending_name == NULL)
    {
      instance->pending_name = name;
      instance->pending_value = json_node_ref (value);
      return;
    }
  set_variable (instance, name, value);
}

JsonObject *
_wn_instance_get_variables (WnInstance *instance)
{
  return instance_variables (instance);
}

/* A node like `base` (which may be NULL) with `value` set at `steps`; nothing is
 * modified in place, so values shared with the variables stay intact. */
static JsonNode *
with_value (JsonNode         *base,
            const WnPathStep *steps,
            guint             n_steps,
            JsonNode         *value)
{
  JsonNode *result;

  if (n_steps == 0)
    return json_node_ref (value);

  if (steps[0].kind == WN_PATH_KEY)
    {
      JsonObject *object = json_object_new ();
      JsonNode *old = NULL;

      if (base != NULL && JSON_NODE_HOLDS_OBJECT (base))
        {
          JsonObjectIter iter;
          const char *name;
          JsonNode *member;

          json_object_iter_init (&iter, json_node_get_object (base));
          while (json_object_iter_next (&iter, &name, &member))
            json_object_set_member (object, name, json_node_ref (member));
          old = json_object_get_member (json_node_get_object (base), steps[0].key);
        }
      json_object_set_member (object, steps[0].key, with_value (old, steps + 1, n_steps - 1, value));
      result = json_node_init_object (json_node_alloc (), object);
      json_object_unref (object);
    }
  else
    {
      JsonArray *array = json_array_new ();
      guint length = 0;

      if (base != NULL && JSON_NODE_HOLDS_ARRAY (base))
        length = json_array_get_length (json_node_get_array (base));
      for (guint i = 0; i < MAX (length, steps[0].index + 1); i++)
        {
          JsonNode *old = i < length ? json_array_get_element (json_node_get_array (base), i) : NULL;

          if (i == steps[0].index)
            json_array_add_element (array, with_value (old, steps + 1, n_steps - 1, value));
          else if (old != NULL)
            json_array_add_element (array, json_node_ref (old));
          else
            json_array_add_null_element (array);
        }
      result = json_node_init_array (json_node_alloc (), array);
      json_array_unref (array);
    }
  return result;
}

/* Copy one input path (`order`, `order.total`, `items[0]`) into `input`. */
static void
copy_input_path (JsonObject   *input,
                 const WnPath *path,
                 JsonObject   *variables)
{
  JsonNode *value = wn_path_lookup (path, variables);
  JsonNode *base;

  if (value == NULL)
    return;
  base = json_object_has_member (input, path->head) ? json_object_get_member (input, path->head) : NULL;
  json_object_set_member (input, path->head, with_value (base, path->steps, path->n_steps, value));
}

static JsonNode *
build_input (WnTrack            *track,
             const WnWorkerSpec *spec)
{
  WnInstance *instance = track->instance;
  JsonObject *variables = instance_variables (instance);
  JsonObject *input;
  JsonNode *node;

  if (spec->input == NULL)
    {
      WnEngine *engine = instance->engine;

      /* every variable, as they are now: share them (see set_member); an
       * instance still on the process's defaults shares one node with all such */
      share_variables (track);
      if (instance->variables != engine->process->variables)
        return json_node_init_object (json_node_alloc (), instance->variables);
      if (engine->defaults_input == NULL)
        engine->defaults_input = json_node_init_object (json_node_alloc (), instance->variables);
      return json_node_ref (engine->defaults_input);
    }
  input = json_object_new ();
  for (guint i = 0; i < spec->input->len; i++)
    copy_input_path (input, g_ptr_array_index (spec->input, i), variables);
  node = json_node_init_object (json_node_alloc (), input);
  json_object_unref (input);
  return node;
}

/* ---- nodes ---- */

/* How long a timer of `node` armed now waits: `duration`, or for a date
 * timer the time from now to its date counted from the scenario's epoch; a
 * date already past (or a scenario without an epoch, which the engine's
 * notices say) waits 1 µs, so that time moves. */
static WnTime
timer_wait (WnEngine     *engine,
            const WnNode *node,
            WnTime        duration)
{
  WnTime now = wn_scheduler_now (engine->scheduler);
  gint64 at;

  if (!node->has_date)
    return duration;
  if (!engine->scenario->has_epoch || node->date_us < engine->scenario->epoch_us)
    return 1;
  at = node->date_us - engine->scenario->epoch_us;
  return at > now ? at - now : 1;
}

static void
timer_cb (gpointer data)
{
  WnTrack *track = data;

  track->timer = 0;
  track->loop_steps = 0;  /* waits are never 0 long: time has moved */
  emit_simple (track, WN_EV_NODE, WN_PH_COMPLETED, NULL);
  track_run (track, -1);
}

static void
wait_then_continue (WnTrack *track,
                    WnTime   duration)
{
  WnEngine *engine = track->instance->engine;

  track->timer = wn_scheduler_after (engine->scheduler, duration, timer_cb, track);
  if (track->timer == 0)
    {
      g_autofree char *text = wn_duration_format (duration);
      g_autofree char *now = wn_time_format_clock (wn_scheduler_now (engine->scheduler));
      g_autofree char *message =
        g_strdup_printf ("%s: a wait of %s from %s would end past the end of virtual time (2^63 µs)",
                         node_of (track)->id, text, now);

      track_fail (track, message);
    }
}

static void
park (WnTrack      *track,
      const WnNode *node)
{
  WnInstance *instance = track->instance;
  WnEngine *engine = instance->engine;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) input = build_input (track, node->worker);
  WnJobSpec spec = { 0 };
  guint job;
  char id[WN_ID_SIZE];
  gsize id_len;
  guint8 plain[3];   /* id, instance, node: for the journal */

  /* job numbers count from 1 and 0 means "no job": an instance that has
   * enqueued G_MAXUINT jobs fails rather than wrap around */
  if (instance->next_job == G_MAXUINT)
    {
      g_autofree char *message = g_strdup_printf ("%s: instance %s has used up its %u job numbers",
                                                  node->id, instance->id, G_MAXUINT);
      unshare_variables (track);
      track_fail (track, message);
      return;
    }
  job = ++instance->next_job;
  id_len = format_id (id, instance->id, 'j', job);
  spec.id = id;
  spec.topic = node->worker->topic;
  spec.instance = instance->id;
  spec.node = node->id;
  spec.output_var = output_var_of (node);
  spec.input = input;
  spec.policy = _wn_engine_policy_for (engine, node->index);
  spec.owner = track;

  track->job = job;
  set_state (track, WN_TRACK_PARKED);
  plain[0] = (guint8) id_len;
  plain[1] = (guint8) instance_id_len (instance->id);
  plain[2] = node->id_plain;
  if (!_wn_dispatcher_enqueue_plain (engine->dispatcher, &spec,
                                     wn_journal_is_active (engine->journal) ? plain : NULL, &error))
    {
      track->job = 0;
      unshare_variables (track);
      set_state (track, WN_TRACK_ACTIVE);
      track_fail (track, error->message);
      return;
    }
  {
    WnEvent ev = WN_EVENT_INIT (WN_EV_NODE, WN_PH_PARKED);
    ev.job = id;
    ev.topic = node->worker->topic;
    ev.plain_len[WN_PLAIN_JOB] = (guint8) id_len;
    ev.plain_len[WN_PLAIN_TOPIC] = node->worker->topic_plain;
    emit (track, WN_EV_NODE, WN_PH_PARKED, &ev);
  }
}

/* Whether the variables stay within MAX_VARIABLE_BYTES with `name` set to
 * `value`. The count starts at an instance's first script and is then kept by
 * every write (set_member), so each check costs the size of the values it
 * compares, never a walk over all the variables again. */
static gboolean
variables_fit (WnInstance *instance,
               const char *name,
               JsonNode   *value,
               GError    **error)
{
  JsonObject *variables = instance_variables (instance);
  JsonNode *old = json_object_get_member (variables, name);
  gsize total;

  if (!instance->var_bytes_counted)
    {
      JsonObjectIter iter;
      const char *member;
      JsonNode *node;
      gsize sum = 0;

      json_object_iter_init (&iter, variables);
      while (json_object_iter_next (&iter, &member, &node))
        sum += member_size (member, node);
      instance->var_bytes = (guint32) MIN (sum, G_MAXUINT32);
      instance->var_bytes_counted = TRUE;
    }
  total = (gsize) instance->var_bytes - (old != NULL ? member_size (name, old) : 0) + member_size (name, value);
  if (total <= MAX_VARIABLE_BYTES)
    return TRUE;
  g_set_error (error, WN_LITE_ERROR, WN_LITE_ERROR_LIMIT,
               "the variables would hold %" G_GSIZE_FORMAT " bytes, over the limit of %d per instance",
               total, MAX_VARIABLE_BYTES);
  return FALSE;
}

static gboolean
run_script (WnTrack      *track,
            const WnNode *node)
{
  WnInstance *instance = track->instance;

  for (guint i = 0; i < node->n_set; i++)
    {
      WnLiteScope scope = { NULL, 0, instance_variables (instance) };
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) value = wn_lite_eval_json (node->set[i].expr, &scope, &error);

      if (value == NULL || !variables_fit (instance, node->set[i].var, value, &error))
        {
          g_autofree char *message = g_strdup_printf ("script %s: %s: %s", node->id, node->set[i].var, error->message);
          track_fail (track, message);
          return FALSE;
        }
      set_variable (instance, node->set[i].var, value);
    }
  return TRUE;
}

/* Journal the flow an exclusive gateway takes (`by`: "scenario" when drawn). */
static void
emit_decided (WnTrack    *track,
              guint       flow,
              const char *by)
{
  const char *flows[2] = { track->instance->engine->process->flows[flow].id, NULL };
  WnEvent ev = WN_EVENT_INIT (WN_EV_GATEWAY, WN_PH_DECIDED);

  ev.flows = flows;
  ev.by = by;
  emit (track, WN_EV_GATEWAY, WN_PH_DECIDED, &ev);
}

/* A gateway the scenario decides: the flow drawn from the engine's seeded
 * PRNG by the weights of its outgoing flows (one draw per arrival; a process
 * without such gateways never draws here). */
static guint
draw_flow (WnEngine     *engine,
           const WnNode *node)
{
  const guint64 *weights = engine->decision_weights[node->index];
  guint64 total = 0;
  guint64 pick;
  guint o = 0;

  for (guint i = 0; i < node->outgoing->len; i++)
    total += weights[i];
  pick = (guint64) wn_rng_range (&engine->rng, (gint64) total - 1);   /* total ≥ 1: setup_decisions() */
  while (pick >= weights[o])
    pick -= weights[o++];
  return g_array_index (node->outgoing, guint, o);
}

/* Exclusive gateway: index of the flow taken, or -1 (the track failed). */
static int
decide (WnTrack      *track,
        const WnNode *node)
{
  WnInstance *instance = track->instance;
  const WnProcess *process = instance->engine->process;
  int chosen = -1;

  if (node->scenario_decides && node->outgoing->len > 0)
    {
      chosen = (int) draw_flow (instance->engine, node);
      emit_decided (track, (guint) chosen, "scenario");
      return chosen;
    }
  for (guint i = 0; i < node->outgoing->len && chosen < 0; i++)
    {
      guint f = g_array_index (node->outgoing, guint, i);
      const WnFlow *flow = &process->flows[f];
      WnLiteScope scope = { NULL, 0, instance_variables (instance) };
      g_autoptr(GError) error = NULL;
      gboolean taken = FALSE;

      if ((int) f == node->default_flow)
        continue;
      if (flow->condition == NULL)
        {
          chosen = f;
          break;
        }
      if (!wn_lite_eval_bool (flow->condition, &scope, &taken, &error))
        {
          g_autofree char *message = g_strdup_printf ("gateway %s: condition of %s: %s",
                                                      node->id, flow->id, error->message);
          track_fail (track, message);
          return -1;
        }
      if (taken)
        chosen = f;
    }
  if (chosen < 0)
    chosen = node->default_flow;
  if (chosen < 0)
    {
      g_autofree char *message = g_strdup_printf ("gateway %s: no flow taken", node->id);
      track_fail (track, message);
      return -1;
    }
  emit_decided (track, (guint) chosen, NULL);
  return chosen;
}

static void
fork_cb (gpointer data)
{
  WnTrack *track = data;

  if (track->state == WN_TRACK_ACTIVE)
    track_run (track, -2);
}

/* Leave the current node along `flows` (all of them): the track takes the first,
 * new tracks the others. Returns the flow this track takes, or -1 when it ended. */
static int
leave_along (WnTrack *track,
             GArray  *flows)
{
  WnInstance *instance = track->instance;
  const WnProcess *process = instance->engine->process;

  disarm_boundaries (track);
  if (track->loop > 0 && !collect_output (track))
    return -1;
  if (flows->len == 0 || track->loop > 0)
    {
      /* (an iteration of a multi-instance activity ends with its node) */
      track_end (track, WN_TRACK_DONE);
      instance_maybe_complete (instance);
      return -1;
    }
  for (guint i = 1; i < flows->len; i++)
    {
      guint f = g_array_index (flows, guint, i);
      WnTrack *branch = track_new (instance, process->flows[f].to, track->scope);

      branch->loop_steps = track->loop_steps;
      wn_scheduler_post (instance->engine->scheduler, fork_cb, branch);
    }
  return g_array_index (flows, guint, 0);
}

/* Run the track: when flow ≥ 0 first move along it; then enter nodes until the
 * track waits or ends. */
static void
track_run (WnTrack *track,
           int      flow)
{
  WnInstance *instance = track->instance;
  WnEngine *engine = instance->engine;
  const WnProcess *process = engine->process;
  gboolean entering = flow >= 0;

  if (flow == -2)
    {
      flow = -1;  /* enter the current node as it is */
      entering = TRUE;
    }
  else if (flow < 0)
    {
      /* resuming after the current node completed: leave it */
      flow = leave_along (track, process->nodes[track->node].outgoing);
      if (flow < 0)
        return;
      entering = TRUE;
    }

  while (entering && track->state == WN_TRACK_ACTIVE && instance->state == WN_INSTANCE_ACTIVE)
    {
      const WnNode *node;

      if (++track->loop_steps > MAX_STEPS_PER_INSTANT)
        {
          track_fail (track, "the track loops without virtual time passing");
          return;
        }
      if (flow >= 0)
        track->node = process->flows[flow].to;
      node = &process->nodes[track->node];
      flow = -1;
      emit_simple (track, WN_EV_NODE, WN_PH_ENTERED, NULL);
      /* an iteration of a multi-instance activity runs the node itself: its
       * boundaries are the activity's, armed on the track that entered it */
      if (node->boundaries->len > 0 && track->loop == 0)
        arm_boundaries (track, node);
      if (node->multi != NULL && track->loop == 0)
        {
          enter_multi (track, node);
          return;
        }
      if (node->multi != NULL)
        set_element (track, node);

      switch (node->type)
        {
        case WN_NODE_START:
        case WN_NODE_BOUNDARY:
        case WN_NODE_THROW:
          break;

        case WN_NODE_SUBPROCESS:
          enter_scope (track, node);
          return;

        case WN_NODE_USER:
          enter_user_task (track, node);
          return;

        case WN_NODE_MESSAGE:
        case WN_NODE_RECEIVE:
          enter_message_wait (track, node);
          return;

        case WN_NODE_EVENT_GATEWAY:
          enter_event_gateway (track, node);
          return;

        case WN_NODE_END:
          if (node->error_code != NULL)
            {
              WnEvent ev = WN_EVENT_INIT (WN_EV_FAULT, WN_PH_THROWN);
              g_autofree char *message = g_strdup_printf ("error end event %s threw %s", node->id, node->error_code);
              ev.code = node->error_code;
              emit (track, WN_EV_FAULT, WN_PH_THROWN, &ev);
              catch_or_fail (track, node->error_code, message, &ev);
              return;
            }
          emit_simple (track, WN_EV_NODE, WN_PH_COMPLETED, NULL);
          if (instance->end_node != NULL)
            {
              /* a second end event: count them all (wn_engine_get_end_count) */
              if (instance->ends == NULL)
                {
                  instance->ends = g_array_new (FALSE, FALSE, sizeof (guint));
                  g_array_append_val (instance->ends, instance->end_node->index);
                }
              g_array_append_val (instance->ends, node->index);
            }
          instance->end_node = node;
          if (node->terminate)
            terminate_scope (track, node);
          track_end (track, WN_TRACK_DONE);
          instance_maybe_complete (instance);
          return;

        case WN_NODE_SCRIPT:
          if (!run_script (track, node))
            return;
          G_GNUC_FALLTHROUGH;
        case WN_NODE_TASK:
        case WN_NODE_MANUAL:
        case WN_NODE_TIMER:
          if (node->duration > 0)
            {
              wait_then_continue (track, timer_wait (track->instance->engine, node, node->duration));
              return;
            }
          break;

        case WN_NODE_SERVICE:
          if (node->worker != NULL)
            {
              park (track, node);
              return;
            }
          if (node->duration > 0)
            {
              wait_then_continue (track, node->duration);
              return;
            }
          break;

        case WN_NODE_EXCLUSIVE:
          {
            int chosen = decide (track, node);
            if (chosen < 0)
              return;
            emit_simple (track, WN_EV_NODE, WN_PH_COMPLETED, NULL);
            flow = chosen;
            continue;
          }

        case WN_NODE_PARALLEL:
          if (node->incoming->len > 1)
            {
              if (instance->joins == NULL)
                instance->joins = g_new0 (guint, process->n_nodes);
              if (++instance->joins[node->index] < node->incoming->len)
                {
                  /* absorbed: the last branch to arrive carries on */
                  track_end (track, WN_TRACK_DONE);
                  return;
                }
              instance->joins[node->index] = 0;
            }
          break;

        default:
          g_assert_not_reached ();
        }

      emit_simple (track, WN_EV_NODE, WN_PH_COMPLETED, NULL);
      flow = leave_along (track, node->outgoing);
      if (flow < 0)
        return;
    }
}

/* ---- scopes and boundaries (Engine II) ----
 *
 * A subProcess runs as a scope: the track that enters it (its host) waits at
 * the subProcess node while tracks inside run from its start event; when the
 * last of them ends, the host completes the node and goes on. A BPMN error
 * goes outward scope by scope to the nearest boundary that catches it; an
 * interrupting boundary cancels everything inside its host. Timer boundaries
 * are armed when their host is entered and disarmed when the track leaves it.
 */

/* A wait for an event, armed: a timer, or a message subscription with its
 * correlation key. The first member of what waits (BoundaryWait,
 * EventStart), which the scheduler's callbacks are given. */
typedef struct {
  guint      fired;        /* a timer: how often it has fired */
  WnTimerId  id;           /* a timer: 0 when not pending */
  JsonNode  *key;          /* a message: its correlation key, or NULL */
  gboolean   keyed;        /* a message: it has a correlation (key NULL: it failed, takes none) */
} EventWait;

/* A boundary event armed on the track at its host, or an event gateway's
 * target. */
typedef struct {
  EventWait  wait;
  WnTrack   *track;        /* the track at the host */
  guint      boundary;     /* the boundary event's node index, or an event gateway's target */
  int        flow;         /* an event gateway's: the flow to the target; -1: a boundary */
} BoundaryWait;

/* Frees a BoundaryWait or an EventStart (GDestroyNotify). */
static void
event_wait_free (gpointer data)
{
  EventWait *wait = data;

  g_clear_pointer (&wait->key, json_node_unref);
  g_free (wait);
}

/* Cancel the timers of `waits` (EventWait*, as their first member) and free them. */
static void
disarm_waits (WnEngine  *engine,
              GPtrArray *waits)
{
  if (waits == NULL)
    return;
  for (guint i = 0; i < waits->len; i++)
    {
      EventWait *wait = g_ptr_array_index (waits, i);

      if (wait->id != 0)
        wn_scheduler_cancel (engine->scheduler, wait->id);
    }
  g_ptr_array_unref (waits);
}

/* A wait's correlation key, from the variables as they are when it begins. An
 * expression that cannot be evaluated gives none (the wait then takes no
 * keyed message), as a false `when` does not match. */
static JsonNode *
correlation_key (WnInstance   *instance,
                 const WnNode *node)
{
  WnLiteScope scope = { NULL, 0, NULL };

  if (node->correlation == NULL)
    return NULL;
  scope.variables = instance_variables (instance);
  return wn_lite_eval_json (node->correlation, &scope, NULL);
}

/* Arm `wait` for `event`: with `message`, a subscription to its message
 * keyed by the variables as they are now; else a timer that calls `func`
 * with `wait` after `delay`. */
static void
begin_wait (EventWait    *wait,
            WnInstance   *instance,
            const WnNode *event,
            gboolean      message,
            WnTime        delay,
            WnActionFunc  func)
{
  if (message)
    {
      wait->keyed = event->correlation != NULL;
      wait->key = correlation_key (instance, event);
      _wn_engine_wait_began (instance->engine);
    }
  else
    wait->id = wn_scheduler_after (instance->engine->scheduler, delay, func, wait);
}

static void
scope_free (gpointer data)
{
  WnScope *scope = data;

  g_clear_pointer (&scope->mi_items, json_node_unref);
  g_clear_pointer (&scope->event_starts, g_ptr_array_unref);
  g_free (scope);
}

static void
format_scope (const WnScope *scope,
              WnInstance    *instance,
              char           out[WN_ID_SIZE])
{
  format_id (out, instance->id, 's', scope->number);
}

/* A scope event, on the host's track: scope.entered, .completed, .canceled. */
static void
emit_scope (WnScope      *scope,
            WnEventPhase  phase,
            const char   *error)
{
  WnTrack *host = scope->host;
  char id[WN_ID_SIZE];
  WnEvent ev = WN_EVENT_INIT (WN_EV_SCOPE, phase);

  if (!wn_journal_is_active (host->instance->engine->journal))
    {
      wn_journal_skip (host->instance->engine->journal);
      return;
    }
  format_scope (scope, host->instance, id);
  ev.scope = id;
  ev.node = host->instance->engine->process->nodes[scope->node].id;
  ev.error = error;
  emit_filled (host, WN_EV_SCOPE, phase, &ev);
}

static void
scope_resume_cb (gpointer data)
{
  WnScope *scope = data;
  WnTrack *host = scope->host;

  if (host->inner != scope || host->state != WN_TRACK_ACTIVE ||
      host->instance->state != WN_INSTANCE_ACTIVE)
    return;
  host->inner = NULL;
  emit_scope (scope, WN_PH_COMPLETED, NULL);
  emit_simple (host, WN_EV_NODE, WN_PH_COMPLETED, NULL);
  track_run (host, -1);
}

/* A track inside `scope` ended: the last one to end normally completes it, and
 * its host goes on (through the scheduler: a loop through a subProcess then
 * never deepens the stack). */
static void start_iteration (WnScope *scope);
static gboolean iterations_done (WnScope *scope);

/* A track inside `scope` ended: the last one to end normally completes it, and
 * its host goes on (through the scheduler: a loop through a subProcess then
 * never deepens the stack). In a multi-instance scope an iteration that ends
 * may start the next (sequential) or, by the completion condition, end the
 * others. */
static void
scope_track_ended (WnScope      *scope,
                   WnTrackState  state)
{
  g_assert (scope->n_live > 0);
  scope->n_live--;
  if (scope->ended || state != WN_TRACK_DONE)
    return;
  if (scope->mi_total > 0)
    {
      scope->mi_done++;
      if (iterations_done (scope))
        {
          WnInstance *instance = scope->host->instance;

          scope->ended = TRUE;
          disarm_event_starts (instance, scope);
          for (guint i = 0; i < instance->n_tracks; i++)
            {
              WnTrack *track = _wn_instance_get_track (instance, i);

              if (track->scope == scope)
                track_cancel (track, "the multi-instance activity's completion condition holds");
            }
          wn_scheduler_post (instance->engine->scheduler, scope_resume_cb, scope);
          return;
        }
      if (scope->mi_started < scope->mi_total && scope->n_live == 0)
        {
          start_iteration (scope);
          return;
        }
    }
  if (scope->n_live > 0)
    return;
  scope->ended = TRUE;
  disarm_event_starts (scope->host->instance, scope);
  wn_scheduler_post (scope->host->instance->engine->scheduler, scope_resume_cb, scope);
}

/* A new scope of `node` hosted by `track`, journalled. */
static WnScope *
scope_new (WnTrack      *track,
           const WnNode *node)
{
  WnInstance *instance = track->instance;
  WnScope *scope = g_new0 (WnScope, 1);

  if (instance->scopes == NULL)
    instance->scopes = g_ptr_array_new_with_free_func (scope_free);
  g_ptr_array_add (instance->scopes, scope);
  scope->number = instance->scopes->len;
  scope->parent = track->scope;
  scope->host = track;
  scope->node = node->index;
  track->inner = scope;
  emit_scope (scope, WN_PH_ENTERED, NULL);
  return scope;
}

static void
enter_scope (WnTrack      *track,
             const WnNode *node)
{
  WnScope *scope = scope_new (track, node);
  WnTrack *inner;

  if (node->event_subs != NULL)
    arm_event_starts (track->instance, scope, node->event_subs);
  inner = track_new (track->instance, (guint) node->inner_start, scope);

  inner->loop_steps = track->loop_steps;
  wn_scheduler_post (track->instance->engine->scheduler, fork_cb, inner);
}

/* ---- multi-instance activities ----
 *
 * The track that enters the activity hosts a scope of the node itself; each
 * iteration is a track in it that runs the node once (with `loop` = its
 * number, from 1) and ends with it. Parallel iterations start together,
 * sequential ones each after the one before ended; the completion
 * condition, when it holds after an iteration, ends the others.
 */

static void
start_iteration (WnScope *scope)
{
  WnTrack *host = scope->host;
  WnTrack *iteration = track_new (host->instance, scope->node, scope);

  iteration->loop = ++scope->mi_started;
  iteration->loop_steps = host->loop_steps;
  wn_scheduler_post (host->instance->engine->scheduler, fork_cb, iteration);
}

/* Every iteration has ended, or the completion condition holds (over the
 * variables and nrOfInstances, nrOfCompletedInstances). */
static gboolean
iterations_done (WnScope *scope)
{
  const WnNode *node = &scope->host->instance->engine->process->nodes[scope->node];
  g_autoptr(JsonNode) total = NULL;
  g_autoptr(JsonNode) done = NULL;
  gboolean holds = FALSE;

  if (scope->mi_done >= scope->mi_total)
    return FALSE;   /* all ended: the scope completes as any does */
  if (node->multi->completion == NULL)
    return FALSE;
  total = json_node_init_int (json_node_alloc (), scope->mi_total);
  done = json_node_init_int (json_node_alloc (), scope->mi_done);
  {
    WnLiteRoot roots[] = { { "nrOfInstances", total }, { "nrOfCompletedInstances", done } };
    WnLiteScope lite = { roots, G_N_ELEMENTS (roots), instance_variables (scope->host->instance) };

    /* a condition that cannot be evaluated does not hold: the iterations go on */
    if (!wn_lite_eval_bool (node->multi->completion, &lite, &holds, NULL))
      holds = FALSE;
  }
  return holds;
}

/* An iteration's element, into the activity's element variable. */
static void
set_element (WnTrack      *track,
             const WnNode *node)
{
  JsonArray *items;

  if (node->multi->element == NULL || track->scope == NULL || track->scope->mi_items == NULL)
    return;
  items = json_node_get_array (track->scope->mi_items);
  if (track->loop <= json_array_get_length (items))
    set_variable (track->instance, node->multi->element, json_array_get_element (items, track->loop - 1));
}

/* An iteration completes: its outputElement goes to its place in the
 * outputCollection. FALSE (the iteration failed) when it cannot be evaluated. */
static gboolean
collect_output (WnTrack *track)
{
  const WnMultiInstance *multi = node_of (track)->multi;
  WnInstance *instance = track->instance;
  WnLiteScope lite = { NULL, 0, NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) element = NULL;
  g_autoptr(JsonNode) updated = NULL;
  JsonNode *old;
  JsonArray *items;
  guint length;

  if (multi == NULL || multi->output_collection == NULL)
    return TRUE;
  lite.variables = instance_variables (instance);
  element = wn_lite_eval_json (multi->output_element, &lite, &error);
  if (element == NULL)
    {
      g_autofree char *message = g_strdup_printf ("multiInstance %s: outputElement of iteration %u: %s",
                                                  node_of (track)->id, track->loop, error->message);

      track_fail (track, message);
      return FALSE;
    }
  old = json_object_get_member (instance_variables (instance), multi->output_collection);
  length = old != NULL && JSON_NODE_HOLDS_ARRAY (old) ? json_array_get_length (json_node_get_array (old)) : 0;
  /* a new array with this iteration's place set: the old one may be shared */
  items = json_array_sized_new (MAX (length, track->loop));
  for (guint i = 0; i < MAX (length, track->loop); i++)
    {
      if (i == track->loop - 1)
        json_array_add_element (items, json_node_ref (element));
      else if (i < length)
        json_array_add_element (items, json_node_ref (json_array_get_element (json_node_get_array (old), i)));
      else
        json_array_add_null_element (items);
    }
  updated = json_node_init_array (json_node_alloc (), items);
  json_array_unref (items);
  set_variable (instance, multi->output_collection, updated);
  return TRUE;
}

static void
enter_multi (WnTrack      *track,
             const WnNode *node)
{
  const WnMultiInstance *multi = node->multi;
  JsonNode *items = NULL;
  WnScope *scope;
  guint total = multi->cardinality;

  if (multi->collection != NULL)
    {
      items = wn_path_lookup (multi->collection, instance_variables (track->instance));
      if (items == NULL || !JSON_NODE_HOLDS_ARRAY (items))
        {
          g_autofree char *message = g_strdup_printf ("multiInstance %s: its collection %s is %s, not an array",
                                                      node->id, multi->collection->head,
                                                      items == NULL ? "missing" : "no array");
          track_fail (track, message);
          return;
        }
      total = json_array_get_length (json_node_get_array (items));
    }
  if (multi->output_collection != NULL)
    {
      /* one null per iteration, replaced as each completes */
      JsonArray *nulls = json_array_sized_new (total);
      g_autoptr(JsonNode) value = json_node_alloc ();

      for (guint i = 0; i < total; i++)
        json_array_add_null_element (nulls);
      json_node_init_array (value, nulls);
      json_array_unref (nulls);
      set_variable (track->instance, multi->output_collection, value);
    }
  scope = scope_new (track, node);
  scope->mi_total = total;
  scope->mi_items = items != NULL ? json_node_ref (items) : NULL;
  if (total == 0)
    {
      /* nothing to run: the activity completes */
      scope->ended = TRUE;
      wn_scheduler_post (track->instance->engine->scheduler, scope_resume_cb, scope);
      return;
    }
  for (guint i = 0; i < (multi->sequential ? 1 : total); i++)
    start_iteration (scope);
}

/* Cancel every track inside `scope` (and so the scopes they host), then the
 * scope itself. */
static void
cancel_scope (WnScope    *scope,
              const char *reason)
{
  WnInstance *instance = scope->host->instance;

  scope->ended = TRUE;
  disarm_event_starts (instance, scope);
  for (guint i = 0; i < instance->n_tracks; i++)
    {
      WnTrack *track = _wn_instance_get_track (instance, i);

      if (track->scope == scope)
        track_cancel (track, reason);
    }
  emit_scope (scope, WN_PH_CANCELED, reason);
}

/* A terminate end event: every other track of its scope is canceled (at the
 * top, the whole instance's). */
static void
terminate_scope (WnTrack      *track,
                 const WnNode *end)
{
  WnInstance *instance = track->instance;
  g_autofree char *reason = g_strdup_printf ("terminate end event %s", end->id);

  for (guint i = 0; i < instance->n_tracks; i++)
    {
      WnTrack *other = _wn_instance_get_track (instance, i);

      if (other != track && other->scope == track->scope)
        track_cancel (other, reason);
    }
}

/* The track leaves its host for `boundary`: the host's work stops (its job,
 * its wait, the scope it hosts, its incident) and the boundary's flows go on. */
static void
take_boundary (WnTrack      *track,
               const WnNode *boundary,
               const char   *reason)
{
  disarm_boundaries (track);
  track_stop_work (track, reason);
  if (track->state == WN_TRACK_INCIDENT)
    {
      incident_closed (track->instance);
      g_clear_pointer (&track->error, g_free);
    }
  set_state (track, WN_TRACK_ACTIVE);
  emit_simple (track, WN_EV_NODE, WN_PH_CANCELED, NULL);
  track->node = boundary->index;
  emit_simple (track, WN_EV_NODE, WN_PH_ENTERED, NULL);
  emit_simple (track, WN_EV_NODE, WN_PH_COMPLETED, NULL);
  track_run (track, -1);
}

/* The error boundary of `host` that catches `code`: the exact code first, then
 * one that catches every code. */
static const WnNode *
find_catch (const WnProcess *process,
            const WnNode    *host,
            const char      *code)
{
  const WnNode *any = NULL;

  for (guint i = 0; i < host->boundaries->len; i++)
    {
      const WnNode *boundary = &process->nodes[g_array_index (host->boundaries, guint, i)];

      if (boundary->error_code != NULL && g_strcmp0 (boundary->error_code, code) == 0)
        return boundary;
      if (boundary->catch_all && any == NULL)
        any = boundary;
    }
  return any;
}

/* A BPMN error `code` thrown on `track` (already journalled as `thrown`): caught
 * by its node's boundary, else, scope by scope from the innermost out, by an
 * error event sub-process of the scope (unless the error comes out of one of
 * that scope's event sub-processes), then by a boundary of the subProcess
 * hosting the scope; at the top, by an error event sub-process of the process;
 * else uncaught: the failure path. */
static void
catch_or_fail (WnTrack    *track,
               const char *code,
               const char *fail_message,
               WnEvent    *thrown)
{
  const WnProcess *process = track->instance->engine->process;
  WnTrack *host = track;
  /* an iteration's node is the activity's: its boundaries are the scope's */
  const WnNode *boundary = track->loop == 0 ? find_catch (process, node_of (track), code) : NULL;
  gboolean from_event_sub = FALSE;

  for (WnScope *scope = track->scope; boundary == NULL; scope = scope->parent)
    {
      if (!from_event_sub && catch_in_event_sub (track, scope, code))
        return;
      if (scope == NULL)
        break;
      host = scope->host;
      /* a sub-process run by an iteration: its boundaries are the activity's,
       * armed on the track that entered it (the scope around) */
      if (host->loop == 0)
        boundary = find_catch (process, &process->nodes[scope->node], code);
      from_event_sub = process->nodes[scope->node].triggered_by_event;
    }
  if (boundary != NULL)
    {
      g_autofree char *reason = g_strdup_printf ("BPMN error %s caught by %s", code, boundary->id);
      WnEvent caught = WN_EVENT_INIT (WN_EV_FAULT, WN_PH_CAUGHT);

      caught.node = boundary->id;
      caught.code = code;
      emit (host, WN_EV_FAULT, WN_PH_CAUGHT, &caught);
      take_boundary (host, boundary, reason);
      return;
    }
  thrown->phase = WN_PH_UNCAUGHT;
  emit (track, WN_EV_FAULT, WN_PH_UNCAUGHT, thrown);
  track_fail (track, fail_message);
}

static void take_event_flow (WnTrack *track, BoundaryWait *wait, const char *name, JsonNode *key);

static void
boundary_timer_cb (gpointer data)
{
  BoundaryWait *timer = data;
  WnTrack *track = timer->track;
  WnInstance *instance = track->instance;
  const WnNode *boundary = &instance->engine->process->nodes[timer->boundary];
  WnEvent ev = WN_EVENT_INIT (WN_EV_TIMER, WN_PH_FIRED);

  if (timer->flow >= 0)
    {
      timer->wait.id = 0;
      track->loop_steps = 0;
      take_event_flow (track, timer, NULL, NULL);
      return;
    }
  timer->wait.id = 0;
  timer->wait.fired++;
  track->loop_steps = 0;  /* timers are never 0 long: time has moved */
  ev.node = boundary->id;
  emit (track, WN_EV_TIMER, WN_PH_FIRED, &ev);
  if (boundary->non_interrupting)
    {
      WnTrack *branch;

      if (timer->wait.fired < boundary->repeat)
        timer->wait.id = wn_scheduler_after (instance->engine->scheduler, boundary->timer, boundary_timer_cb, timer);
      branch = track_new (instance, boundary->index, track->scope);
      track_run (branch, -2);
    }
  else
    {
      g_autofree char *reason = g_strdup_printf ("timer boundary %s fired", boundary->id);

      take_boundary (track, boundary, reason);
    }
}

static void
disarm_boundaries (WnTrack *track)
{
  disarm_waits (track->instance->engine, g_steal_pointer (&track->boundary_timers));
}

/* Arm the timer boundaries of `node`, which the track has just entered. One
 * that would fire past the end of virtual time never does. */
static void
arm_boundaries (WnTrack      *track,
                const WnNode *node)
{
  const WnProcess *process = track->instance->engine->process;

  disarm_boundaries (track);
  for (guint i = 0; i < node->boundaries->len; i++)
    {
      const WnNode *boundary = &process->nodes[g_array_index (node->boundaries, guint, i)];
      BoundaryWait *timer;

      if (boundary->timer <= 0 && boundary->message == NULL)
        continue;
      if (track->boundary_timers == NULL)
        track->boundary_timers = g_ptr_array_new_with_free_func (event_wait_free);
      timer = g_new0 (BoundaryWait, 1);
      timer->track = track;
      timer->boundary = boundary->index;
      timer->flow = -1;
      begin_wait (&timer->wait, track->instance, boundary, boundary->message != NULL,
                  boundary->message == NULL ? timer_wait (track->instance->engine, boundary, boundary->timer) : 0,
                  boundary_timer_cb);
      g_ptr_array_add (track->boundary_timers, timer);
    }
}

/* ---- user tasks ----
 *
 * A track at a userTask waits for a person: the operator
 * (wn_engine_complete_user_task) or the scenario's rule for the node, which
 * finishes it `after` its entry. Either completes it with variables or throws
 * a BPMN error, which goes outward like any other.
 */

static void
finish_user_task (WnTrack    *track,
                  JsonObject *variables,
                  const char *code,
                  const char *message,
                  const char *who)
{
  WnInstance *instance = track->instance;
  const WnNode *node = node_of (track);

  leave_people (track);
  track->user_task = FALSE;
  track->user_rule = NULL;
  if (track->timer != 0)
    {
      wn_scheduler_cancel (instance->engine->scheduler, track->timer);
      track->timer = 0;
    }
  set_state (track, WN_TRACK_ACTIVE);
  if (code != NULL)
    {
      WnEvent ev = WN_EVENT_INIT (WN_EV_FAULT, WN_PH_THROWN);
      g_autofree char *fail = g_strdup_printf ("BPMN error %s not caught at %s%s%s", code, node->id,
                                               message ? ": " : "", message ? message : "");

      ev.code = code;
      ev.error = message;
      ev.action = who;
      emit (track, WN_EV_FAULT, WN_PH_THROWN, &ev);
      catch_or_fail (track, code, fail, &ev);
      return;
    }
  if (variables != NULL)
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *value;

      json_object_iter_init (&iter, variables);
      while (json_object_iter_next (&iter, &name, &value))
        set_variable (instance, name, value);
    }
  {
    WnEvent ev = WN_EVENT_INIT (WN_EV_USER_TASK, WN_PH_COMPLETED);

    ev.action = who;
    emit (track, WN_EV_USER_TASK, WN_PH_COMPLETED, &ev);
  }
  emit_simple (track, WN_EV_NODE, WN_PH_COMPLETED, NULL);
  track_run (track, -1);
}

/* ---- the scenario's people ----
 *
 * A pool of `count` people takes the user tasks whose rule names it (`by`):
 * first come, first served, each person one task at a time, the lowest-
 * numbered free person first. A person spends a duration drawn from the
 * pool's distribution, then the rule finishes the task. A person freed (the
 * task finished, canceled, or completed by the operator first) takes the
 * next waiting task through the scheduler.
 */

struct _WnPeoplePool
{
  WnEngine           *engine;
  const WnPeopleSpec *spec;
  guint               index;
  gboolean           *busy;     /* per person */
  GQueue              waiting;  /* WnTrack*, in arrival order */
  gboolean            posted;   /* a take_waiting_cb is on its way */
};

void
_wn_people_pool_free (gpointer data)
{
  WnPeoplePool *pool = data;

  g_queue_clear (&pool->waiting);
  g_free (pool->busy);
  g_free (pool);
}

static WnPeoplePool *
people_pool (WnEngine   *engine,
             const char *id)
{
  GArray *people = engine->scenario->people;

  if (engine->people_pools == NULL)
    {
      engine->people_pools = g_ptr_array_new_with_free_func (_wn_people_pool_free);
      for (guint i = 0; i < people->len; i++)
        {
          WnPeoplePool *pool = g_new0 (WnPeoplePool, 1);

          pool->engine = engine;
          pool->spec = &g_array_index (people, WnPeopleSpec, i);
          pool->index = i;
          pool->busy = g_new0 (gboolean, pool->spec->count);
          g_queue_init (&pool->waiting);
          g_ptr_array_add (engine->people_pools, pool);
        }
    }
  for (guint i = 0; i < people->len; i++)
    if (strcmp (g_array_index (people, WnPeopleSpec, i).id, id) == 0)
      return g_ptr_array_index (engine->people_pools, i);
  g_assert_not_reached ();   /* the loader checked `by` */
}

/* "<pool>/<n>": who works on the task. */
static char *
person_name (WnTrack *track)
{
  const WnPeopleSpec *spec = &g_array_index (track->instance->engine->scenario->people, WnPeopleSpec,
                                             track->user_pool - 1);

  return g_strdup_printf ("%s/%u", spec->id, track->person);
}

static void
user_rule_cb (gpointer data)
{
  WnTrack *track = data;
  const WnUserTaskSpec *rule = track->user_rule;
  g_autofree char *who = track->person > 0 ? person_name (track) : NULL;

  track->timer = 0;
  track->loop_steps = 0;
  finish_user_task (track, rule->variables, rule->code, rule->message, who != NULL ? who : "scenario");
}

/* The rule's time for the task is up `after` now: FALSE (the track failed)
 * when that is past the end of virtual time. */
static gboolean
schedule_rule (WnTrack *track,
               WnTime   after)
{
  track->timer = wn_scheduler_after (track->instance->engine->scheduler, after, user_rule_cb, track);
  if (track->timer == 0)
    {
      g_autofree char *message = g_strdup_printf ("%s: its scenario rule would finish it past the end of "
                                                  "virtual time (2^63 µs)", node_of (track)->id);

      leave_people (track);
      track->user_task = FALSE;
      track_fail (track, message);
      return FALSE;
    }
  return TRUE;
}

/* Free people take the waiting tasks, first come first served. */
static void
take_waiting (WnPeoplePool *pool)
{
  for (guint person = 0; person < pool->spec->count && !g_queue_is_empty (&pool->waiting); person++)
    {
      WnTrack *track;
      g_autofree char *who = NULL;
      WnEvent ev = WN_EVENT_INIT (WN_EV_USER_TASK, WN_PH_ASSIGNED);

      if (pool->busy[person])
        continue;
      track = g_queue_pop_head (&pool->waiting);
      pool->busy[person] = TRUE;
      track->person = person + 1;
      who = person_name (track);
      ev.action = who;
      emit (track, WN_EV_USER_TASK, WN_PH_ASSIGNED, &ev);
      schedule_rule (track, wn_distribution_draw (&pool->spec->duration, &pool->engine->rng));
    }
}

static void
take_waiting_cb (gpointer data)
{
  WnPeoplePool *pool = data;

  pool->posted = FALSE;
  take_waiting (pool);
}

/* The track stops waiting at its user task: out of its pool's queue, or its
 * person is free for the next. */
static void
leave_people (WnTrack *track)
{
  WnEngine *engine = track->instance->engine;
  WnPeoplePool *pool;

  if (track->user_pool == 0)
    return;
  pool = g_ptr_array_index (engine->people_pools, track->user_pool - 1);
  if (track->person == 0)
    g_queue_remove (&pool->waiting, track);
  else
    {
      pool->busy[track->person - 1] = FALSE;
      if (!g_queue_is_empty (&pool->waiting) && !pool->posted)
        {
          pool->posted = TRUE;
          wn_scheduler_post (engine->scheduler, take_waiting_cb, pool);
        }
    }
  track->user_pool = 0;
  track->person = 0;
}

static void
enter_user_task (WnTrack      *track,
                 const WnNode *node)
{
  WnEngine *engine = track->instance->engine;
  GArray *rules = engine->scenario->user_tasks;
  const WnUserTaskSpec *rule = NULL;

  /* the first rule for the node whose `when` holds (an evaluation error: it does not) */
  for (guint i = 0; i < rules->len && rule == NULL; i++)
    {
      const WnUserTaskSpec *r = &g_array_index (rules, WnUserTaskSpec, i);
      WnLiteScope scope = { NULL, 0, NULL };
      gboolean holds = TRUE;

      if (strcmp (r->node, node->id) != 0)
        continue;
      if (r->when != NULL)
        {
          scope.variables = instance_variables (track->instance);
          if (!wn_lite_eval_bool (r->when, &scope, &holds, NULL))
            holds = FALSE;
        }
      if (holds)
        rule = r;
    }
  track->user_task = TRUE;
  track->user_rule = rule;
  emit_simple (track, WN_EV_USER_TASK, WN_PH_CREATED, NULL);
  if (rule == NULL)
    return;
  if (rule->by != NULL)
    {
      WnPeoplePool *pool = people_pool (engine, rule->by);

      track->user_pool = pool->index + 1;
      g_queue_push_tail (&pool->waiting, track);
      take_waiting (pool);
      return;
    }
  schedule_rule (track, rule->after);
}

gboolean
_wn_instance_finish_user_task (WnInstance *instance,
                               const char *node,
                               JsonObject *variables,
                               const char *code,
                               const char *message,
                               const char *who,
                               GError    **error)
{
  const WnProcess *process = instance->engine->process;

  for (guint i = 0; i < instance->n_tracks; i++)
    {
      WnTrack *track = _wn_instance_get_track (instance, i);

      if (track->user_task && track->state == WN_TRACK_ACTIVE &&
          (node == NULL || g_strcmp0 (process->nodes[track->node].id, node) == 0))
        {
          finish_user_task (track, variables, code, message, who);
          return TRUE;
        }
    }
  g_set_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_NO_USER_TASK,
               "instance %s waits on no user task%s%s", instance->id, node ? " at " : "", node ? node : "");
  return FALSE;
}

/* ---- messages ----
 *
 * A messageEvent or receiveTask waits for a message of its name; a message
 * boundary waits while its host does. A message is taken by the first wait
 * whose name is its name and whose correlation key (evaluated when the wait
 * began) equals the message's; a wait without a correlation takes any key.
 */

static void
enter_message_wait (WnTrack      *track,
                    const WnNode *node)
{
  track->message_wait = TRUE;
  track->message_keyed = node->correlation != NULL;
  g_clear_pointer (&track->message_key, json_node_unref);
  track->message_key = correlation_key (track->instance, node);
  _wn_engine_wait_began (track->instance->engine);
}

static gboolean
is_number (JsonNode *node)
{
  GType type = json_node_get_value_type (node);

  return type == G_TYPE_INT64 || type == G_TYPE_DOUBLE;
}

/* Whether a wait (`keyed`: with a correlation that gave `wanted`) takes a
 * message with `key`: equal strings, or equal numbers (7 is 7.0). */
static gboolean
key_matches (gboolean  keyed,
             JsonNode *wanted,
             JsonNode *key)
{
  if (!keyed)
    return TRUE;
  if (wanted == NULL || key == NULL || !JSON_NODE_HOLDS_VALUE (wanted) || !JSON_NODE_HOLDS_VALUE (key))
    return FALSE;
  if (is_number (wanted) && is_number (key))
    return json_node_get_double (wanted) == json_node_get_double (key);
  return json_node_get_value_type (wanted) == G_TYPE_STRING && json_node_get_value_type (key) == G_TYPE_STRING &&
         strcmp (json_node_get_string (wanted), json_node_get_string (key)) == 0;
}

/* Whether `wait`, armed for `event`, takes the message `name` with `key`. */
static gboolean
wait_takes (const EventWait *wait,
            const WnNode    *event,
            const char      *name,
            JsonNode        *key)
{
  return event->message != NULL && strcmp (event->message, name) == 0 && key_matches (wait->keyed, wait->key, key);
}

static void
merge_variables (WnInstance *instance,
                 JsonObject *variables)
{
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;

  if (variables == NULL)
    return;
  json_object_iter_init (&iter, variables);
  while (json_object_iter_next (&iter, &name, &value))
    set_variable (instance, name, value);
}

static void
emit_correlated (WnTrack      *track,
                 const WnNode *node,
                 const char   *name,
                 JsonNode     *key)
{
  WnEvent ev = WN_EVENT_INIT (WN_EV_MESSAGE, WN_PH_CORRELATED);

  ev.node = node->id;
  ev.action = name;
  ev.status = key;
  emit (track, WN_EV_MESSAGE, WN_PH_CORRELATED, &ev);
}

gboolean
_wn_instance_correlate (WnInstance *instance,
                        const char *name,
                        JsonNode   *key,
                        JsonObject *variables)
{
  const WnProcess *process = instance->engine->process;

  for (guint i = 0; i < instance->n_tracks; i++)
    {
      WnTrack *track = _wn_instance_get_track (instance, i);
      const WnNode *node = &process->nodes[track->node];

      if (!wn_track_state_is_live (track->state))
        continue;
      if (track->message_wait && track->state == WN_TRACK_ACTIVE && strcmp (node->message, name) == 0 &&
          key_matches (track->message_keyed, track->message_key, key))
        {
          track->message_wait = FALSE;
          g_clear_pointer (&track->message_key, json_node_unref);
          track->loop_steps = 0;
          merge_variables (instance, variables);
          emit_correlated (track, node, name, key);
          emit_simple (track, WN_EV_NODE, WN_PH_COMPLETED, NULL);
          track_run (track, -1);
          return TRUE;
        }
      for (guint k = 0; track->boundary_timers != NULL && k < track->boundary_timers->len; k++)
        {
          BoundaryWait *wait = g_ptr_array_index (track->boundary_timers, k);
          const WnNode *boundary = &process->nodes[wait->boundary];

          if (!wait_takes (&wait->wait, boundary, name, key))
            continue;
          merge_variables (instance, variables);
          if (wait->flow >= 0)
            {
              take_event_flow (track, wait, name, key);
              return TRUE;
            }
          emit_correlated (track, boundary, name, key);
          if (boundary->non_interrupting)
            {
              WnTrack *branch = track_new (instance, boundary->index, track->scope);

              track_run (branch, -2);
            }
          else
            {
              g_autofree char *reason = g_strdup_printf ("message %s taken by %s", name, boundary->id);

              take_boundary (track, boundary, reason);
            }
          return TRUE;
        }
    }
  /* then the event sub-processes' message starts: the process's, then those of
   * each running sub-process in the order they were entered */
  if (correlate_event_starts (instance, NULL, name, key, variables))
    return TRUE;
  for (guint i = 0; instance->scopes != NULL && i < instance->scopes->len; i++)
    if (correlate_event_starts (instance, g_ptr_array_index (instance->scopes, i), name, key, variables))
      return TRUE;
  return FALSE;
}

/* ---- event-based gateways ----
 *
 * The track waits at the gateway for the first of the events its flows lead
 * to: a timerEvent's duration elapsing or a messageEvent's message. That
 * flow is taken; the other waits are dropped.
 */

static void
enter_event_gateway (WnTrack      *track,
                     const WnNode *node)
{
  const WnProcess *process = track->instance->engine->process;

  disarm_boundaries (track);
  track->boundary_timers = g_ptr_array_new_with_free_func (event_wait_free);
  for (guint i = 0; i < node->outgoing->len; i++)
    {
      guint f = g_array_index (node->outgoing, guint, i);
      const WnNode *target = &process->nodes[process->flows[f].to];
      BoundaryWait *wait = g_new0 (BoundaryWait, 1);

      wait->track = track;
      wait->boundary = target->index;
      wait->flow = (int) f;
      begin_wait (&wait->wait, track->instance, target, target->type == WN_NODE_MESSAGE,
                  target->type != WN_NODE_MESSAGE ? timer_wait (track->instance->engine, target, target->duration) : 0,
                  boundary_timer_cb);
      g_ptr_array_add (track->boundary_timers, wait);
    }
}

/* The event of `wait` came first: take its flow, complete its target. */
static void
take_event_flow (WnTrack      *track,
                 BoundaryWait *wait,
                 const char   *name,
                 JsonNode     *key)
{
  const WnProcess *process = track->instance->engine->process;
  guint flow = (guint) wait->flow;
  const WnNode *target = &process->nodes[wait->boundary];

  disarm_boundaries (track);   /* `wait` goes with the others */
  emit_decided (track, flow, NULL);
  emit_simple (track, WN_EV_NODE, WN_PH_COMPLETED, NULL);
  track->node = target->index;
  emit_simple (track, WN_EV_NODE, WN_PH_ENTERED, NULL);
  if (name != NULL)
    emit_correlated (track, target, name, key);
  emit_simple (track, WN_EV_NODE, WN_PH_COMPLETED, NULL);
  track_run (track, -1);
}

/* ---- event sub-processes ----
 *
 * While a scope runs (the process: while its instance is active; a
 * sub-process: from its entry to its end), the start events of the event
 * sub-processes directly in it are armed: a timer counting from the scope's
 * entry, a message subscription keyed when the scope was entered, an error
 * catch. A start that fires makes a new track in the scope at the event
 * sub-process's node, which runs it as any sub-process; an interrupting one
 * first cancels everything else in the scope and disarms the scope's other
 * starts. The scope then ends when its last track, the event sub-process's
 * among them, has ended.
 */

typedef struct {
  EventWait   wait;
  WnInstance *instance;
  WnScope    *scope;       /* where it is armed; NULL: the process */
  guint       event_sub;   /* the event sub-process's node index */
} EventStart;

static GPtrArray **
event_starts_of (WnInstance *instance,
                 WnScope    *scope)
{
  return scope != NULL ? &scope->event_starts : &instance->event_starts;
}

static const WnNode *
start_of (const WnProcess *process,
          guint            event_sub)
{
  return &process->nodes[process->nodes[event_sub].inner_start];
}

static void
disarm_event_starts (WnInstance *instance,
                     WnScope    *scope)
{
  disarm_waits (instance->engine, g_steal_pointer (event_starts_of (instance, scope)));
}

/* Run `track`, just made at an event sub-process's node in its scope. An
 * interrupting start first cancels the scope's other tracks (with their jobs
 * and the scopes they host) and disarms its other starts. */
static void
run_event_sub (WnTrack    *track,
               gboolean    interrupting,
               const char *reason)
{
  WnInstance *instance = track->instance;

  if (interrupting)
    {
      disarm_event_starts (instance, track->scope);
      for (guint i = 0; i < instance->n_tracks; i++)
        {
          WnTrack *other = _wn_instance_get_track (instance, i);

          if (other != track && other->scope == track->scope)
            track_cancel (other, reason);
        }
    }
  track_run (track, -2);
}

/* A timer or message start fired (`name`: the message's, NULL: the timer).
 * `start` may be freed on the way (an interrupting start disarms them all). */
static void
fire_event_start (EventStart *start,
                  const char *name,
                  JsonNode   *key)
{
  WnInstance *instance = start->instance;
  const WnProcess *process = instance->engine->process;
  const WnNode *event_sub = &process->nodes[start->event_sub];
  const WnNode *trigger = start_of (process, start->event_sub);
  WnTrack *track = track_new (instance, event_sub->index, start->scope);
  g_autofree char *reason = name != NULL
    ? g_strdup_printf ("message %s started event sub-process %s", name, event_sub->id)
    : g_strdup_printf ("the timer of event sub-process %s fired", event_sub->id);

  if (name != NULL)
    emit_correlated (track, trigger, name, key);
  else
    {
      WnEvent ev = WN_EVENT_INIT (WN_EV_TIMER, WN_PH_FIRED);

      ev.node = trigger->id;
      emit (track, WN_EV_TIMER, WN_PH_FIRED, &ev);
    }
  run_event_sub (track, !trigger->non_interrupting, reason);
}

static void
event_timer_cb (gpointer data)
{
  EventStart *start = data;
  const WnNode *trigger = start_of (start->instance->engine->process, start->event_sub);

  start->wait.id = 0;
  start->wait.fired++;
  if (trigger->non_interrupting && start->wait.fired < trigger->repeat)
    start->wait.id = wn_scheduler_after (start->instance->engine->scheduler, trigger->timer, event_timer_cb, start);
  fire_event_start (start, NULL, NULL);
}

/* Arm the starts of `event_subs` (node indices) in `scope` (NULL: the
 * process), which has just been entered. A timer that would fire past the end
 * of virtual time never does. */
static void
arm_event_starts (WnInstance *instance,
                  WnScope    *scope,
                  GArray     *event_subs)
{
  const WnProcess *process = instance->engine->process;
  GPtrArray **list = event_starts_of (instance, scope);

  disarm_event_starts (instance, scope);
  *list = g_ptr_array_new_with_free_func (event_wait_free);
  for (guint i = 0; i < event_subs->len; i++)
    {
      guint index = g_array_index (event_subs, guint, i);
      const WnNode *trigger = start_of (process, index);
      EventStart *start = g_new0 (EventStart, 1);

      start->instance = instance;
      start->scope = scope;
      start->event_sub = index;
      /* an error start waits for nothing: a throw finds it */
      if (trigger->message != NULL || trigger->timer > 0)
        begin_wait (&start->wait, instance, trigger, trigger->message != NULL, trigger->timer, event_timer_cb);
      g_ptr_array_add (*list, start);
    }
}

/* An error event sub-process of `scope` (NULL: the process) that catches
 * `code` — the exact code first, then a catch-all — started on it: the scope's
 * other tracks (the thrower's among them) are canceled. FALSE when none. */
static gboolean
catch_in_event_sub (WnTrack    *thrower,
                    WnScope    *scope,
                    const char *code)
{
  WnInstance *instance = thrower->instance;
  const WnProcess *process = instance->engine->process;
  GPtrArray *starts = *event_starts_of (instance, scope);
  EventStart *found = NULL;

  for (guint i = 0; starts != NULL && i < starts->len; i++)
    {
      EventStart *start = g_ptr_array_index (starts, i);
      const WnNode *trigger = start_of (process, start->event_sub);

      if (trigger->error_code != NULL && strcmp (trigger->error_code, code) == 0)
        {
          found = start;
          break;
        }
      if (trigger->catch_all && found == NULL)
        found = start;
    }
  if (found == NULL)
    return FALSE;
  {
    const WnNode *event_sub = &process->nodes[found->event_sub];
    WnTrack *track = track_new (instance, event_sub->index, scope);
    g_autofree char *reason = g_strdup_printf ("BPMN error %s caught by event sub-process %s", code, event_sub->id);
    WnEvent caught = WN_EVENT_INIT (WN_EV_FAULT, WN_PH_CAUGHT);

    track->loop_steps = thrower->loop_steps;
    caught.node = start_of (process, event_sub->index)->id;
    caught.code = code;
    emit (track, WN_EV_FAULT, WN_PH_CAUGHT, &caught);
    run_event_sub (track, TRUE, reason);
  }
  return TRUE;
}

/* The message `name` to a message start of `scope`'s event sub-processes. */
static gboolean
correlate_event_starts (WnInstance *instance,
                        WnScope    *scope,
                        const char *name,
                        JsonNode   *key,
                        JsonObject *variables)
{
  const WnProcess *process = instance->engine->process;
  GPtrArray *starts = *event_starts_of (instance, scope);

  for (guint i = 0; starts != NULL && i < starts->len; i++)
    {
      EventStart *start = g_ptr_array_index (starts, i);
      const WnNode *trigger = start_of (process, start->event_sub);

      if (!wait_takes (&start->wait, trigger, name, key))
        continue;
      merge_variables (instance, variables);
      fire_event_start (start, name, key);
      return TRUE;
    }
  return FALSE;
}

/* ---- outcomes ---- */

static void
apply_bpmn_error (WnTrack    *track,
                  WnOutcome  *outcome)
{
  const WnNode *node = node_of (track);
  WnEvent ev = WN_EVENT_INIT (WN_EV_FAULT, WN_PH_THROWN);
  g_autofree char *message = g_strdup_printf ("BPMN error %s not caught at %s%s%s", outcome->code, node->id,
                                              outcome->message ? ": " : "", outcome->message ? outcome->message : "");

  ev.code = outcome->code;
  ev.error = outcome->message;
  emit (track, WN_EV_FAULT, WN_PH_THROWN, &ev);
  catch_or_fail (track, outcome->code, message, &ev);
}

static void
apply_status (WnTrack   *track,
              WnOutcome *outcome)
{
  const WnNode *node = node_of (track);
  WnInstance *instance = track->instance;
  const WnWorkerSpec *spec = node->worker;

  if (spec == NULL || spec->status_var == NULL)
    {
      g_autofree char *message = g_strdup_printf ("task %s reported a status but has no status variable", node->id);
      track_fail (track, message);
      return;
    }
  if (!spec->status_overwrite && json_object_has_member (instance_variables (instance), spec->status_var))
    {
      g_autofree char *message = g_strdup_printf ("status variable %s is already set", spec->status_var);
      track_fail (track, message);
      return;
    }
  set_variable (instance, spec->status_var, outcome->status);
  emit_simple (track, WN_EV_NODE, WN_PH_COMPLETED, NULL);
  track_run (track, -1);
}

void
_wn_instance_deliver (gpointer   owner,
                      WnOutcome *outcome,
                      gpointer   data)
{
  WnTrack *track = owner;
  WnInstance *instance = track->instance;
  char job_id[WN_ID_SIZE];
  JsonNode *direct;

  /* only the outcome of the job the track is parked on counts */
  if (track->state != WN_TRACK_PARKED || track->job == 0 || instance->state != WN_INSTANCE_ACTIVE)
    {
      wn_outcome_free (outcome);
      return;
    }
  format_id (job_id, instance->id, 'j', track->job);
  if (g_strcmp0 (job_id, outcome->job) != 0)
    {
      wn_outcome_free (outcome);
      return;
    }
  track->job = 0;
  unshare_variables (track);
  set_state (track, WN_TRACK_ACTIVE);

  switch (outcome->kind)
    {
    case WN_OUTCOME_COMPLETE:
      /* a simulated worker's plain completion: the body under the output variable */
      direct = _wn_outcome_get_direct (outcome);
      if (direct != NULL)
        commit_output (instance, output_var_of (node_of (track)), direct);
      for (guint i = 0; outcome->bindings != NULL && i < outcome->bindings->len; i++)
        {
          WnBinding *b = &g_array_index (outcome->bindings, WnBinding, i);
          set_variable (instance, b->var, b->value);
        }
      emit_simple (track, WN_EV_NODE, WN_PH_COMPLETED, NULL);
      track_run (track, -1);
      break;

    case WN_OUTCOME_BPMN_ERROR:
      apply_bpmn_error (track, outcome);
      break;

    case WN_OUTCOME_STATUS:
      apply_status (track, outcome);
      break;

    case WN_OUTCOME_FAULT:
      track_fail (track, outcome->message);
      break;

    default:
      g_assert_not_reached ();
    }
  wn_outcome_free (outcome);
}

/* ---- lifecycle ---- */

WnInstance *
_wn_instance_start (WnEngine   *engine,
                    JsonObject *variables)
{
  char id[WN_ID_SIZE];
  gsize id_len = format_id (id, NULL, 'i', engine->instances->len + 1);
  WnInstance *instance = wn_pool_alloc0 (engine->instance_pool);
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;
  WnTrack *track;

  g_assert (id_len < sizeof instance->id);
  memcpy (instance->id, id, id_len + 1);
  instance->engine = engine;
  /* the process's defaults, shared until the instance writes (see set_variable) */
  instance->variables = json_object_ref (engine->process->variables);
  instance->variables_gen = 1;
  if (variables != NULL)
    {
      json_object_iter_init (&iter, variables);
      while (json_object_iter_next (&iter, &name, &value))
        set_variable (instance, name, value);
    }
  instance->state = WN_INSTANCE_ACTIVE;
  instance->started_at = wn_scheduler_now (engine->scheduler);
  instance->ended_at = -1;
  g_ptr_array_add (engine->instances, instance);

  emit_instance (instance, WN_PH_CREATED, NULL);
  if (engine->process->event_subs != NULL)
    arm_event_starts (instance, NULL, engine->process->event_subs);
  track = track_new (instance, engine->process->start, NULL);
  track_run (track, -2);
  return instance;
}

void
_wn_instance_free (WnInstance *instance)
{
  track_clear (&instance->track);
  g_clear_pointer (&instance->more_tracks, g_ptr_array_unref);
  json_object_unref (instance->variables);
  g_clear_pointer (&instance->pending_value, json_node_unref);
  g_free (instance->joins);
  g_free (instance->reason);
  g_clear_pointer (&instance->ends, g_array_unref);
  g_clear_pointer (&instance->scopes, g_ptr_array_unref);
  g_clear_pointer (&instance->event_starts, g_ptr_array_unref);
  wn_pool_release (instance->engine->instance_pool, instance);
}

static WnTrack *
find_incident (WnInstance *instance,
               const char *node,
               GError    **error)
{
  const WnProcess *process = instance->engine->process;

  for (guint i = 0; i < instance->n_tracks; i++)
    {
      WnTrack *track = _wn_instance_get_track (instance, i);
      if (track->state == WN_TRACK_INCIDENT &&
          (node == NULL || g_strcmp0 (process->nodes[track->node].id, node) == 0))
        return track;
    }
  g_set_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_NO_INCIDENT,
               "instance %s has no open incident%s%s", instance->id, node ? " at " : "", node ? node : "");
  return NULL;
}

gboolean
_wn_instance_incident_retry (WnInstance *instance,
                             const char *node,
                             GError    **error)
{
  WnTrack *track = find_incident (instance, node, error);

  if (track == NULL)
    return FALSE;
  emit_simple (track, WN_EV_INCIDENT, WN_PH_RETRIED, NULL);
  incident_closed (instance);
  g_clear_pointer (&track->error, g_free);
  set_state (track, WN_TRACK_ACTIVE);
  /* enter the node again: a new job with a fresh attempt budget */
  {
    guint again = track->node;
    const WnNode *n = &instance->engine->process->nodes[again];
    if (n->type == WN_NODE_SERVICE && n->worker != NULL)
      {
        emit_simple (track, WN_EV_NODE, WN_PH_ENTERED, NULL);
        if (n->boundaries->len > 0)
          arm_boundaries (track, n);
        park (track, n);
      }
    else
      track_run (track, -2);  /* a script, gateway or end event: enter it again */
  }
  return TRUE;
}

gboolean
_wn_instance_incident_resolve (WnInstance *instance,
                               const char *node,
                               GError    **error)
{
  WnTrack *track = find_incident (instance, node, error);
  const WnNode *at;

  if (track == NULL)
    return FALSE;
  /* An exclusive gateway takes one flow: leaving along all of them would run
   * every branch and break the joins downstream. Resolve onto its default. */
  at = node_of (track);
  if (at->type == WN_NODE_EXCLUSIVE && at->default_flow < 0)
    {
      g_set_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_INVALID,
                   "gateway %s has no default flow to continue on; retry its incident instead", at->id);
      return FALSE;
    }
  emit_simple (track, WN_EV_INCIDENT, WN_PH_RESOLVED, NULL);
  incident_closed (instance);
  g_clear_pointer (&track->error, g_free);
  set_state (track, WN_TRACK_ACTIVE);
  if (at->type == WN_NODE_EXCLUSIVE)
    {
      emit_decided (track, (guint) at->default_flow, NULL);
      emit_simple (track, WN_EV_NODE, WN_PH_COMPLETED, NULL);
      track_run (track, at->default_flow);
    }
  else
    {
      emit_simple (track, WN_EV_NODE, WN_PH_COMPLETED, NULL);
      track_run (track, -1);
    }
  instance_maybe_complete (instance);
  return TRUE;
}

void
_wn_instance_cancel (WnInstance *instance,
                     const char *reason)
{
  instance_terminate (instance, reason);
}

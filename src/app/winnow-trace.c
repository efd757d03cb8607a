/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "winnow-trace.h"

struct _WinnowTrace
{
  gatomicrefcount ref_count;

  GHashTable *jobs;           /* id → WinnowJobTrace (owned) */
  GHashTable *instance_index; /* id → WinnowTraceInstance (borrowed) */
  GPtrArray  *instances;      /* WinnowTraceInstance* (owned), creation order */
  GHashTable *track_jobs;     /* track id → WinnowJobTrace (borrowed): what a parked track waits on */
  GArray     *lanes;          /* WinnowLane */
  gboolean    lanes_dirty;
  WnTime      end;
  guint64     stamp;          /* bumped by every event, clear and cut */
  guint64     generation;     /* bumped by every clear and cut */
  GArray     *changes;        /* WinnowTraceChange, this generation's */
  guint       n_events;       /* fed since the last clear */
  /* every change of track_jobs, for winnow_trace_truncate() to undo */
  GArray     *track_undo;     /* TrackUndo */
  /* what each event changed, in the order fed, for winnow_trace_truncate()
   * to find without reading the dropped events back: the job or the instance
   * (tagged TOUCH_INSTANCE), and the event's number (from 1) */
  GPtrArray  *touched;
  GArray     *touched_at;     /* guint, parallel to touched */
  gboolean    replaying;      /* a job is made again from its kept events */
};

/* Before event `event` (numbered as fed) changed track_jobs at its track,
 * the track waited on `prev` (NULL: it was not there). */
typedef struct {
  guint           event;
  WinnowJobTrace *prev;
} TrackUndo;

#define TOUCH_INSTANCE ((guintptr) 1)

/* The event being fed changed `object` (a job, or an instance's end). */
static void
touch (WinnowTrace *self,
       gpointer     object,
       gboolean     instance)
{
  g_ptr_array_add (self->touched, instance ? (gpointer) ((guintptr) object | TOUCH_INSTANCE) : object);
  g_array_append_val (self->touched_at, self->n_events);
}

/* An event changed `instance` (and `job`): for the readers of the changes. */
static void
note_change (WinnowTrace         *self,
             WinnowTraceInstance *instance,
             WinnowJobTrace      *job)
{
  WinnowTraceChange change = { instance, job };

  if (!self->replaying)
    g_array_append_val (self->changes, change);
}

static void
new_generation (WinnowTrace *self)
{
  self->generation++;
  g_array_set_size (self->changes, 0);
}

static void
execution_clear (gpointer data)
{
  WinnowExecution *e = data;

  g_free (e->code);
  g_free (e->detail);
}

static void
mark_clear (gpointer data)
{
  g_free (((WinnowMark *) data)->text);
}

static void
job_trace_free (gpointer data)
{
  WinnowJobTrace *job = data;

  g_free (job->id);
  g_free (job->node);
  g_free (job->topic);
  g_free (job->end_text);
  g_free (job->class_code);
  g_free (job->class_text);
  g_clear_pointer (&job->class_status, json_node_unref);
  g_clear_pointer (&job->policy, wn_policy_unref);
  g_array_unref (job->executions);
  g_array_unref (job->gates);
  g_array_unref (job->locks);
  g_array_unref (job->marks);
  g_array_unref (job->events);
  g_free (job);
}

static void
instance_free (gpointer data)
{
  WinnowTraceInstance *instance = data;

  g_free (instance->id);
  g_ptr_array_unref (instance->jobs);
  g_clear_pointer (&instance->ends, g_array_unref);
  g_free (instance);
}

static WinnowTraceInstance *
ensure_instance (WinnowTrace *self,
                 const char  *id,
                 WnTime       t)
{
  WinnowTraceInstance *instance = g_hash_table_lookup (self->instance_index, id);

  if (instance != NULL)
    return instance;
  instance = g_new0 (WinnowTraceInstance, 1);
  instance->id = g_strdup (id);
  instance->index = self->instances->len;
  instance->created_at = t;
  instance->ended_at = -1;
  instance->jobs = g_ptr_array_new ();
  instance->created = self->n_events;
  g_ptr_array_add (self->instances, instance);
  g_hash_table_insert (self->instance_index, instance->id, instance);
  self->lanes_dirty = TRUE;
  return instance;
}

/* "i3/j2" → "i3" */
static char *
instance_of_job (const char *job)
{
  const char *slash = strchr (job, '/');

  return slash ? g_strndup (job, (gsize) (slash - job)) : g_strdup (job);
}

static WinnowJobTrace *
create_job (WinnowTrace   *self,
            const WnEvent *ev)
{
  WinnowJobTrace *job = g_new0 (WinnowJobTrace, 1);
  g_autofree char *instance_id = ev->instance ? g_strdup (ev->instance) : instance_of_job (ev->job);

  job->id = g_strdup (ev->job);
  job->node = g_strdup (ev->node);
  job->topic = g_strdup (ev->topic);
  job->trust = ev->trust;
  job->instance = ensure_instance (self, instance_id, ev->t_us);
  job->enqueued_at = ev->t_us;
  job->ended_at = -1;
  job->executions = g_array_new (FALSE, TRUE, sizeof (WinnowExecution));
  g_array_set_clear_func (job->executions, execution_clear);
  job->gates = g_array_new (FALSE, TRUE, sizeof (WinnowSpan));
  job->locks = g_array_new (FALSE, TRUE, sizeof (WinnowSpan));
  job->marks = g_array_new (FALSE, TRUE, sizeof (WinnowMark));
  g_array_set_clear_func (job->marks, mark_clear);
  job->created = self->n_events;
  job->events = g_array_new (FALSE, FALSE, sizeof (guint));
  g_ptr_array_add (job->instance->jobs, job);
  g_hash_table_insert (self->jobs, job->id, job);
  self->lanes_dirty = TRUE;
  return job;
}

static WinnowExecution *
open_execution (WinnowJobTrace *job)
{
  WinnowExecution *e;

  if (job->executions->len == 0)
    return NULL;
  e = &g_array_index (job->executions, WinnowExecution, job->executions->len - 1);
  return e->end < 0 ? e : NULL;
}

static WinnowExecution *
last_execution (WinnowJobTrace *job)
{
  if (job->executions->len == 0)
    return NULL;
  return &g_array_index (job->executions, WinnowExecution, job->executions->len - 1);
}

/* Close the running execution (if any) with `outcome`; returns its index + 1, or 0. */
static guint
close_execution (WinnowJobTrace *job,
                 const WnEvent  *ev,
                 WinnowOutcome   outcome,
                 const char     *detail)
{
  WinnowExecution *e = open_execution (job);

  if (e == NULL)
    return 0;
  e->end = ev->t_us;
  e->outcome = outcome;
  if (ev->code != NULL && e->code == NULL)
    e->code = g_strdup (ev->code);
  if (detail != NULL && e->detail == NULL)
    e->detail = g_strdup (detail);
  return job->executions->len;
}

static void
close_lock (WinnowJobTrace *job,
            WnTime          t)
{
  WinnowSpan *lock;

  if (job->locks->len == 0)
    return;
  lock = &g_array_index (job->locks, WinnowSpan, job->locks->len - 1);
  if (!lock->open)
    return;
  lock->open = FALSE;
  lock->end = t;
}

static void
add_mark (WinnowJobTrace *job,
          const WnEvent  *ev,
          WinnowMarkKind  kind,
          guint           execution,
          char           *text)
{
  WinnowMark mark = { ev->t_us, kind, execution, text };

  g_array_append_val (job->marks, mark);
}

static void
set_class (WinnowJobTrace  *job,
           WinnowClassSeen  seen,
           const char      *code,
           const char      *text,
           JsonNode        *status)
{
  job->class_seen = seen;
  g_free (job->class_code);
  job->class_code = g_strdup (code);
  g_free (job->class_text);
  job->class_text = g_strdup (text);
  g_clear_pointer (&job->class_status, json_node_unref);
  if (status != NULL)
    job->class_status = json_node_copy (status);
}

static void
end_job (WinnowJobTrace *job,
         WnTime          t,
         WinnowJobEnd    end,
         const char     *text)
{
  if (job->ended_at >= 0)
    return;
  job->ended_at = t;
  job->end = end;
  g_free (job->end_text);
  job->end_text = g_strdup (text);
  close_lock (job, t);
}

static char *
status_text (JsonNode *status)
{
  return status ? json_to_string (status, FALSE) : NULL;
}

static char *
describe (const char *code,
          const char *error)
{
  if (code != NULL && error != NULL && !g_str_has_prefix (error, code))
    return g_strdup_printf ("%s: %s", code, error);
  return g_strdup (error ? error : code);
}

static void
job_event (WinnowTrace   *self,
           const WnEvent *ev)
{
  WinnowJobTrace *job = g_hash_table_lookup (self->jobs, ev->job);
  WinnowExecution *e;
  guint n;

  if (job == NULL)
    {
      if (ev->phase != WN_PH_ENQUEUED)
        return;
      job = create_job (self, ev);
    }
  job->version++;
  if (!self->replaying)
    {
      g_array_append_val (job->events, self->n_events);
      touch (self, job, FALSE);
    }
  note_change (self, job->instance, job);

  switch (ev->phase)
    {
    case WN_PH_ENQUEUED:
      break;

    case WN_PH_LOCKED:
      {
        WinnowSpan lock = { ev->t_us, -1, ev->deadline_us, g_intern_string (ev->worker), TRUE, FALSE };

        close_lock (job, ev->t_us);
        g_array_append_val (job->locks, lock);
      }
      break;

    case WN_PH_LOCK_EXTENDED:
      if (job->locks->len > 0)
        g_array_index (job->locks, WinnowSpan, job->locks->len - 1).deadline = ev->deadline_us;
      break;

    case WN_PH_LOCK_RECLAIMED:
      close_lock (job, ev->t_us);
      n = close_execution (job, ev, WINNOW_OUTCOME_LOST, NULL);
      /* the text names the worker whose lock lapsed */
      add_mark (job, ev, WINNOW_MARK_RECLAIMED, n, g_strdup (ev->worker));
      break;

    case WN_PH_EXECUTING:
      {
        WinnowExecution exec = { ev->t_us, -1, ev->attempt, g_intern_string (ev->worker),
                                 WINNOW_OUTCOME_RUNNING, NULL, NULL, -1, -1, FALSE };

        close_execution (job, ev, WINNOW_OUTCOME_LOST, NULL);
        g_array_append_val (job->executions, exec);
      }
      break;

    case WN_PH_RETRY_SCHEDULED:
    case WN_PH_WORKER_RETRY_SCHEDULED:
      {
        WnTime until = ev->not_before_us >= 0 ? ev->not_before_us
                     : ev->backoff_us >= 0 ? ev->t_us + ev->backoff_us : ev->t_us;
        WinnowSpan gate = { ev->t_us, until, -1, NULL, FALSE, ev->phase == WN_PH_WORKER_RETRY_SCHEDULED };

        n = close_execution (job, ev, WINNOW_OUTCOME_RETRY, ev->error);
        if (n > 0)
          {
            e = &g_array_index (job->executions, WinnowExecution, n - 1);
            e->backoff = ev->backoff_us;
            e->gate = until;
            e->in_worker = ev->phase == WN_PH_WORKER_RETRY_SCHEDULED;
          }
        if (ev->phase == WN_PH_RETRY_SCHEDULED)
          close_lock (job, ev->t_us);
        g_array_append_val (job->gates, gate);
        add_mark (job, ev, WINNOW_MARK_FAULT, n, describe (ev->code, ev->error));
        if (job->class_seen != WINNOW_CLASS_MAPPER_ERROR || (e = last_execution (job)) == NULL || !e->mapper_error)
          set_class (job, WINNOW_CLASS_TECHNICAL, ev->code, ev->error, NULL);
      }
      break;

    case WN_PH_RETRIES_EXHAUSTED:
      n = close_execution (job, ev, WINNOW_OUTCOME_EXHAUSTED, ev->error);
      add_mark (job, ev, WINNOW_MARK_EXHAUSTED, n, describe (ev->code, ev->error));
      if (job->class_seen != WINNOW_CLASS_MAPPER_ERROR || (e = last_execution (job)) == NULL || !e->mapper_error)
        set_class (job, WINNOW_CLASS_TECHNICAL, ev->code, ev->error, NULL);
      break;

    case WN_PH_MAPPER_ERROR:
      if ((e = open_execution (job)) != NULL || (e = last_execution (job)) != NULL)
        e->mapper_error = TRUE;
      set_class (job, WINNOW_CLASS_MAPPER_ERROR, ev->code, ev->error, NULL);
      break;

    case WN_PH_COMPLETED:
      n = close_execution (job, ev, WINNOW_OUTCOME_COMPLETED, NULL);
      add_mark (job, ev, WINNOW_MARK_COMPLETED, n, NULL);
      end_job (job, ev->t_us, WINNOW_JOB_COMPLETED, NULL);
      break;

    case WN_PH_BPMN_ERROR:
      n = close_execution (job, ev, WINNOW_OUTCOME_BPMN_ERROR, ev->error);
      add_mark (job, ev, WINNOW_MARK_BPMN_ERROR, n, describe (ev->code, ev->error));
      set_class (job, WINNOW_CLASS_BPMN_ERROR, ev->code, ev->error, NULL);
      end_job (job, ev->t_us, WINNOW_JOB_BPMN_ERROR, ev->code);
      break;

    case WN_PH_STATUS:
      {
        g_autofree char *text = status_text (ev->status);

        n = close_execution (job, ev, WINNOW_OUTCOME_STATUS, text);
        add_mark (job, ev, WINNOW_MARK_STATUS, n, g_strdup (text));
        set_class (job, WINNOW_CLASS_STATUS, NULL, NULL, ev->status);
        end_job (job, ev->t_us, WINNOW_JOB_STATUS, text);
      }
      break;

    case WN_PH_FAULT:
      {
        gboolean exhausted = job->marks->len > 0 &&
                             g_array_index (job->marks, WinnowMark, job->marks->len - 1).kind == WINNOW_MARK_EXHAUSTED &&
                             g_array_index (job->marks, WinnowMark, job->marks->len - 1).t == ev->t_us;

        n = close_execution (job, ev, WINNOW_OUTCOME_FAULT, ev->error);
        if (!exhausted)
          add_mark (job, ev, WINNOW_MARK_FAULT, n, describe (ev->code, ev->error));
        end_job (job, ev->t_us, WINNOW_JOB_FAILED, ev->error);
      }
      break;

    case WN_PH_REPORT_REJECTED:
      n = 0;
      for (guint i = job->executions->len; i > 0; i--)
        {
          e = &g_array_index (job->executions, WinnowExecution, i - 1);
          if (ev->worker == NULL || g_strcmp0 (e->worker, ev->worker) == 0)
            {
              if (e->end < 0)
                e->end = ev->t_us;
              e->outcome = WINNOW_OUTCOME_REJECTED;
              g_free (e->detail);
              e->detail = g_strdup (ev->error);
              n = i;
              break;
            }
        }
      add_mark (job, ev, WINNOW_MARK_REJECTED, n, g_strdup (ev->error));
      break;

    default:
      break;
    }
}

/* A track that leaves its task takes the job out of the store. */
static void
remove_job (WinnowTrace   *self,
            WinnowJobTrace *job,
            const WnEvent  *ev)
{
  WnEvent at = WN_EVENT_INIT (WN_EV_JOB, WN_PH_FAULT);

  at.t_us = ev->t_us;
  close_execution (job, &at, WINNOW_OUTCOME_CANCELED, NULL);
  end_job (job, ev->t_us, WINNOW_JOB_REMOVED, ev->phase == WN_PH_CANCELED ? NULL : ev->error);
  job->version++;
  if (!self->replaying)
    {
      g_array_append_val (job->events, self->n_events);
      touch (self, job, FALSE);
    }
  note_change (self, job->instance, job);
}

/* track_jobs at `track` becomes `job` (NULL: removed), undoably. */
static void
set_track_job (WinnowTrace    *self,
               const char     *track,
               WinnowJobTrace *job)
{
  TrackUndo undo = { self->n_events, g_hash_table_lookup (self->track_jobs, track) };

  if (undo.prev == job)
    return;
  g_array_append_val (self->track_undo, undo);
  if (job != NULL)
    g_hash_table_insert (self->track_jobs, g_strdup (track), job);
  else
    g_hash_table_remove (self->track_jobs, track);
}

static void
node_event (WinnowTrace   *self,
            const WnEvent *ev)
{
  WinnowJobTrace *job;

  if (ev->track == NULL)
    return;
  switch (ev->phase)
    {
    case WN_PH_PARKED:
      if (ev->job != NULL && (job = g_hash_table_lookup (self->jobs, ev->job)) != NULL)
        set_track_job (self, ev->track, job);
      break;
    case WN_PH_CANCELED:
    case WN_PH_FAILED:
      if ((job = g_hash_table_lookup (self->track_jobs, ev->track)) != NULL && job->ended_at < 0)
        remove_job (self, job, ev);
      set_track_job (self, ev->track, NULL);
      break;
    case WN_PH_COMPLETED:
    case WN_PH_INCIDENT:
      set_track_job (self, ev->track, NULL);
      break;
    default:
      break;
    }
}

/* ---- public ---- */

WinnowTrace *
winnow_trace_new (void)
{
  WinnowTrace *self = g_new0 (WinnowTrace, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->jobs = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, job_trace_free);
  self->instance_index = g_hash_table_new (g_str_hash, g_str_equal);
  self->instances = g_ptr_array_new_with_free_func (instance_free);
  self->track_jobs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->lanes = g_array_new (FALSE, FALSE, sizeof (WinnowLane));
  self->track_undo = g_array_new (FALSE, FALSE, sizeof (TrackUndo));
  self->changes = g_array_new (FALSE, FALSE, sizeof (WinnowTraceChange));
  self->touched = g_ptr_array_new ();
  self->touched_at = g_array_new (FALSE, FALSE, sizeof (guint));
  return self;
}

WinnowTrace *
winnow_trace_ref (WinnowTrace *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
winnow_trace_unref (WinnowTrace *self)
{
  g_return_if_fail (self != NULL);
  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_hash_table_unref (self->track_jobs);
  g_hash_table_unref (self->instance_index);
  g_hash_table_unref (self->jobs);
  g_ptr_array_unref (self->instances);
  g_array_unref (self->lanes);
  g_array_unref (self->track_undo);
  g_array_unref (self->changes);
  g_ptr_array_unref (self->touched);
  g_array_unref (self->touched_at);
  g_free (self);
}

void
winnow_trace_clear (WinnowTrace *self)
{
  g_return_if_fail (self != NULL);

  g_hash_table_remove_all (self->track_jobs);
  g_hash_table_remove_all (self->instance_index);
  g_hash_table_remove_all (self->jobs);
  g_ptr_array_set_size (self->instances, 0);
  g_array_set_size (self->lanes, 0);
  self->lanes_dirty = FALSE;
  self->end = 0;
  self->stamp++;
  self->n_events = 0;
  g_array_set_size (self->track_undo, 0);
  g_ptr_array_set_size (self->touched, 0);
  g_array_set_size (self->touched_at, 0);
  new_generation (self);
}

void
winnow_trace_add_event (WinnowTrace   *self,
                        const WnEvent *ev)
{
  WinnowTraceInstance *instance;

  g_return_if_fail (self != NULL);
  g_return_if_fail (ev != NULL);

  self->stamp++;
  self->n_events++;
  self->end = MAX (self->end, ev->t_us);
  switch (ev->kind)
    {
    case WN_EV_INSTANCE:
      if (ev->instance == NULL)
        break;
      instance = ensure_instance (self, ev->instance, ev->t_us);
      if (ev->phase == WN_PH_COMPLETED || ev->phase == WN_PH_TERMINATED)
        {
          instance->ended_at = ev->t_us;
          instance->terminated = ev->phase == WN_PH_TERMINATED;
          if (instance->ends == NULL)
            instance->ends = g_array_new (FALSE, FALSE, sizeof (guint));
          g_array_append_val (instance->ends, self->n_events);
          touch (self, instance, TRUE);
        }
      note_change (self, instance, NULL);
      break;
    case WN_EV_NODE:
      node_event (self, ev);
      break;
    case WN_EV_JOB:
      if (ev->job != NULL)
        job_event (self, ev);
      break;
    case WN_EV_FAULT:
    case WN_EV_INCIDENT:
    case WN_EV_GATEWAY:
    case WN_EV_INJECT:
    case WN_EV_CLOCK:
    case WN_EV_SCOPE:
    case WN_EV_TIMER:
    case WN_EV_USER_TASK:
    case WN_EV_MESSAGE:
    case WN_EV_N_KINDS:
    default:
      break;
    }
}

guint
winnow_trace_get_n_events (WinnowTrace *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_events;
}

/* What a job was when its enqueued event had made it. */
static void
reset_job (WinnowJobTrace *job)
{
  g_array_set_size (job->executions, 0);
  g_array_set_size (job->gates, 0);
  g_array_set_size (job->locks, 0);
  g_array_set_size (job->marks, 0);
  job->ended_at = -1;
  job->end = WINNOW_JOB_LIVE;
  g_clear_pointer (&job->end_text, g_free);
  set_class (job, WINNOW_CLASS_NONE, NULL, NULL, NULL);
  job->version = 0;
}

/* Make `job` again from its events up to `n_events`, read from `journal`. */
static void
replay_job (WinnowTrace    *self,
            WinnowJobTrace *job,
            WinnowJournal  *journal,
            guint           n_events)
{
  guint kept = 0;

  while (kept < job->events->len && g_array_index (job->events, guint, kept) <= n_events)
    kept++;
  g_array_set_size (job->events, kept);
  reset_job (job);
  self->replaying = TRUE;
  for (guint i = 0; i < kept; i++)
    {
      WnEvent ev;

      winnow_journal_get_event (journal, g_array_index (job->events, guint, i) - 1, &ev);
      if (ev.kind == WN_EV_JOB)
        job_event (self, &ev);
      else
        remove_job (self, job, &ev);
    }
  self->replaying = FALSE;
}

/* An instance's end as of its ends up to `n_events`. */
static void
replay_instance (WinnowTraceInstance *instance,
                 WinnowJournal       *journal,
                 guint                n_events)
{
  WnEvent ev;

  while (instance->ends->len > 0 && g_array_index (instance->ends, guint, instance->ends->len - 1) > n_events)
    g_array_set_size (instance->ends, instance->ends->len - 1);
  instance->ended_at = -1;
  instance->terminated = FALSE;
  if (instance->ends->len == 0)
    return;
  winnow_journal_get_event (journal, g_array_index (instance->ends, guint, instance->ends->len - 1) - 1, &ev);
  instance->ended_at = ev.t_us;
  instance->terminated = ev.phase == WN_PH_TERMINATED;
}

void
winnow_trace_truncate (WinnowTrace   *self,
                       WinnowJournal *journal,
                       guint          n_events)
{
  g_autoptr(GHashTable) jobs = NULL;        /* the jobs the dropped events changed (set) */
  g_autoptr(GHashTable) instances = NULL;   /* the instances they ended (set) */
  GHashTableIter iter;
  gpointer key;

  g_return_if_fail (self != NULL);
  g_return_if_fail (journal != NULL);

  if (n_events >= self->n_events)
    return;
  g_return_if_fail (winnow_journal_get_n_events (journal) >= self->n_events);

  /* what the dropped events changed, newest first, from the trace's own
   * list: no event is read back */
  jobs = g_hash_table_new (NULL, NULL);
  instances = g_hash_table_new (NULL, NULL);
  while (self->touched->len > 0 &&
         g_array_index (self->touched_at, guint, self->touched_at->len - 1) > n_events)
    {
      guintptr object = (guintptr) g_ptr_array_steal_index_fast (self->touched, self->touched->len - 1);

      if (object & TOUCH_INSTANCE)
        g_hash_table_add (instances, (gpointer) (object & ~TOUCH_INSTANCE));
      else
        g_hash_table_add (jobs, (gpointer) object);
      g_array_set_size (self->touched_at, self->touched_at->len - 1);
    }
  /* the tracks' jobs as they were, newest change first; a job a track's end
   * took out of the store is among its changes */
  while (self->track_undo->len > 0)
    {
      TrackUndo *undo = &g_array_index (self->track_undo, TrackUndo, self->track_undo->len - 1);
      WinnowJobTrace *now;
      WnEvent ev;

      if (undo->event <= n_events)
        break;
      winnow_journal_get_event (journal, undo->event - 1, &ev);
      now = g_hash_table_lookup (self->track_jobs, ev.track);
      if (now != NULL)
        g_hash_table_add (jobs, now);
      if (undo->prev != NULL)
        {
          g_hash_table_insert (self->track_jobs, g_strdup (ev.track), undo->prev);
          g_hash_table_add (jobs, undo->prev);
        }
      else
        g_hash_table_remove (self->track_jobs, ev.track);
      g_array_set_size (self->track_undo, self->track_undo->len - 1);
    }

  /* what the dropped events made goes: the jobs, then the instances (the
   * newest ones, in the order they came) */
  g_hash_table_iter_init (&iter, jobs);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      WinnowJobTrace *job = key;

      if (job->created <= n_events)
        continue;
      if (job->instance->created <= n_events)
        g_ptr_array_remove (job->instance->jobs, job);
      g_hash_table_iter_remove (&iter);
      g_hash_table_remove (self->jobs, job->id);
      self->lanes_dirty = TRUE;
    }
  while (self->instances->len > 0)
    {
      WinnowTraceInstance *instance = g_ptr_array_index (self->instances, self->instances->len - 1);

      if (instance->created <= n_events)
        break;
      g_hash_table_remove (instances, instance);
      g_hash_table_remove (self->instance_index, instance->id);
      g_ptr_array_set_size (self->instances, self->instances->len - 1);
      self->lanes_dirty = TRUE;
    }

  /* what they changed is made again from what is kept */
  g_hash_table_iter_init (&iter, jobs);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    replay_job (self, key, journal, n_events);
  g_hash_table_iter_init (&iter, instances);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    replay_instance (key, journal, n_events);

  self->n_events = n_events;
  self->stamp++;
  new_generation (self);
  if (n_events > 0)
    {
      WnEvent last;

      winnow_journal_get_event (journal, n_events - 1, &last);
      self->end = last.t_us;
    }
  else
    self->end = 0;
}

void
winnow_trace_set_policy (WinnowTrace *self,
                         const char  *job,
                         WnPolicy    *policy)
{
  WinnowJobTrace *trace;

  g_return_if_fail (self != NULL);
  g_return_if_fail (job != NULL);

  trace = g_hash_table_lookup (self->jobs, job);
  if (policy != NULL && trace != NULL && trace->policy == NULL)
    trace->policy = wn_policy_ref (policy);
}

WinnowJobTrace *
winnow_trace_lookup_job (WinnowTrace *self,
                         const char  *id)
{
  g_return_val_if_fail (self != NULL, NULL);
  return id ? g_hash_table_lookup (self->jobs, id) : NULL;
}

guint
winnow_trace_get_n_jobs (WinnowTrace *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return g_hash_table_size (self->jobs);
}

const WinnowLane *
winnow_trace_get_lanes (WinnowTrace *self,
                        guint       *n_lanes)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (self->lanes_dirty)
    {
      g_array_set_size (self->lanes, 0);
      for (guint i = 0; i < self->instances->len; i++)
        {
          WinnowTraceInstance *instance = g_ptr_array_index (self->instances, i);
          WinnowLane header = { instance, NULL };

          g_array_append_val (self->lanes, header);
          for (guint j = 0; j < instance->jobs->len; j++)
            {
              WinnowLane lane = { instance, g_ptr_array_index (instance->jobs, j) };

              lane.job->lane = self->lanes->len;
              g_array_append_val (self->lanes, lane);
            }
        }
      self->lanes_dirty = FALSE;
    }
  *n_lanes = self->lanes->len;
  return (const WinnowLane *) (gpointer) self->lanes->data;
}

guint64
winnow_trace_get_stamp (WinnowTrace *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->stamp;
}

const WinnowTraceChange *
winnow_trace_get_changes (WinnowTrace *self,
                          guint       *n_changes,
                          guint64     *generation)
{
  g_return_val_if_fail (self != NULL, NULL);

  *n_changes = self->changes->len;
  *generation = self->generation;
  return (const WinnowTraceChange *) (gpointer) self->changes->data;
}

WnTime
winnow_trace_get_end (WinnowTrace *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->end;
}

typedef struct {
  WnTime start;
  WnTime end;
} SpanHead;

static inline const SpanHead *
span_at (const GArray *spans,
         gsize         element_size,
         guint         i)
{
  return (const SpanHead *) (gconstpointer) (spans->data + (gsize) i * element_size);
}

void
winnow_trace_span_range (const GArray *spans,
                         gsize         element_size,
                         WnTime        t0,
                         WnTime        t1,
                         WnTime        now,
                         guint        *first,
                         guint        *last)
{
  guint lo = 0, hi;

  hi = spans ? spans->len : 0;
  /* the first span that ends at or after t0 (ends do not decrease) */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const SpanHead *s = span_at (spans, element_size, mid);
      WnTime end = s->end < 0 ? MAX (now, s->start) : s->end;

      if (end < t0)
        lo = mid + 1;
      else
        hi = mid;
    }
  *first = lo;
  /* the first span that starts after t1 */
  hi = spans ? spans->len : 0;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (span_at (spans, element_size, mid)->start <= t1)
        lo = mid + 1;
      else
        hi = mid;
    }
  *last = lo;
}

void
winnow_trace_mark_range (const GArray *marks,
                         WnTime        t0,
                         WnTime        t1,
                         guint        *first,
                         guint        *last)
{
  guint lo = 0, hi = marks ? marks->len : 0;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (marks, WinnowMark, mid).t < t0)
        lo = mid + 1;
      else
        hi = mid;
    }
  *first = lo;
  hi = marks ? marks->len : 0;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (marks, WinnowMark, mid).t <= t1)
        lo = mid + 1;
      else
        hi = mid;
    }
  *last = lo;
}

/* Whether rule `r` yields what the job's last classification said. */
static gboolean
rule_yields (const WnErrorRule    *r,
             const WinnowJobTrace *job)
{
  switch (job->class_seen)
    {
    case WINNOW_CLASS_TECHNICAL:
      return r->outcome == WN_CLASS_TECHNICAL;
    case WINNOW_CLASS_BPMN_ERROR:
      return r->outcome == WN_CLASS_BPMN_ERROR && g_strcmp0 (r->bpmn_code, job->class_code) == 0 &&
             (r->bpmn_message == NULL || job->class_text == NULL || g_strcmp0 (r->bpmn_message, job->class_text) == 0);
    case WINNOW_CLASS_STATUS:
      return r->outcome == WN_CLASS_STATUS && r->status != NULL && job->class_status != NULL &&
             json_node_equal (r->status, job->class_status);
    case WINNOW_CLASS_NONE:
    case WINNOW_CLASS_MAPPER_ERROR:
    default:
      return FALSE;
    }
}

WinnowRuleMatch
winnow_job_trace_match_rule (const WinnowJobTrace *job,
                             const WnErrorMapper  *mapper,
                             int                  *rule)
{
  guint n = mapper ? wn_error_mapper_get_n_rules (mapper) : 0;
  gboolean technical;
  /* the raw code is known for technical faults only */
  const char *raw = NULL;
  int candidate = -1;
  guint candidates = 0;

  g_return_val_if_fail (job != NULL, WINNOW_RULE_UNKNOWN);
  g_return_val_if_fail (rule != NULL, WINNOW_RULE_UNKNOWN);

  *rule = -1;
  if (job->class_seen == WINNOW_CLASS_NONE || job->class_seen == WINNOW_CLASS_MAPPER_ERROR)
    return WINNOW_RULE_UNKNOWN;
  technical = job->class_seen == WINNOW_CLASS_TECHNICAL;
  if (technical)
    raw = job->class_code;

  for (guint i = 0; i < n; i++)
    {
      const WnErrorRule *r = wn_error_mapper_get_rule (mapper, i);
      gboolean any_code = r->code == NULL || *r->code == '\0';

      if (technical && !any_code && g_strcmp0 (r->code, raw) != 0)
        continue;               /* cannot match that code */
      if (!rule_yields (r, job))
        continue;               /* had it matched, the outcome would be its own */
      if (candidates++ == 0)
        candidate = (int) i;
      /* a rule that matches every fault with its code ends the search */
      if (r->when == NULL && (any_code || (technical && g_strcmp0 (r->code, raw) == 0)))
        break;
    }

  if (candidates == 0)
    return technical ? WINNOW_RULE_NONE : WINNOW_RULE_UNKNOWN;
  *rule = candidate;
  if (candidates == 1)
    {
      const WnErrorRule *r = wn_error_mapper_get_rule (mapper, (guint) candidate);
      gboolean any_code = r->code == NULL || *r->code == '\0';

      /* a technical fault may also have matched no rule at all, unless this
       * one certainly matches */
      if (technical && !(r->when == NULL && (any_code || g_strcmp0 (r->code, raw) == 0)))
        return WINNOW_RULE_AMBIGUOUS;
      return WINNOW_RULE_MATCHED;
    }
  return WINNOW_RULE_AMBIGUOUS;
}


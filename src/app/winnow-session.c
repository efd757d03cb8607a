#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "winnow-session.h"
#include "winnow-event-log.h"
#include "winnow-event-row.h"
#include "winnow-instance-row.h"
#include "winnow-row-list.h"
#include "winnow-trace.h"

#define DEFAULT_BATCH 250
/* At fast-forward, the engine's batches are sized to take about this long
 * (µs), measured as they run: the frame clock waits for the batch that is
 * running when a frame is due, and a batch of a fixed number of actions takes
 * from a fraction of a millisecond to tens, depending on the process and on
 * how many instances there are. */
#define DISPATCH_BUDGET 3000
#define MIN_BATCH 16
#define MAX_BATCH 65536
/* While the clock runs, tables bigger than this get a full pass (after a
 * command) only when the time since the last one is SNAPSHOT_SPACING times
 * what that one cost, and at least every SNAPSHOT_INTERVAL: a full pass walks
 * every job and track, so a Monte-Carlo run of 10⁴ instances would otherwise
 * spend its frames walking. Incremental passes (below) run every frame.
 * (The views do not pay for the rows that move: winnow-live-table.h.) */
#define BIG_TABLES 1000
#define SNAPSHOT_SPACING 6
#define SNAPSHOT_INTERVAL (G_USEC_PER_SEC / 4)

/* While the clock runs, a snapshot is incremental: it looks up only the jobs
 * and tracks the journal named since the last one (the rows flagged
 * ROW_DIRTY), plus the jobs whose state the clock alone can change (a gate
 * opening, a lock expiring: no event says so; ROW_TIMED). A full pass — every
 * job and track — still follows every command and every change of the clock's
 * mode, so a stopped clock shows exactly what the engine holds. */
#define ROW_DIRTY (1u << 0)
#define ROW_TIMED (1u << 1)
/* A listed row the incremental pass found gone (its job done, its track
 * ended): the store drops it. */
#define GONE_GENERATION G_MAXUINT

struct _WinnowSession
{
  GObject          parent_instance;

  GFile           *file;
  WnProcess       *process;
  WnScenario      *scenario;        /* explicit scenario, or NULL: the embedded one */
  WnEngineOptions  options;
  WnEngine        *engine;
  guint            journal_id;
  guint            batch;
  gboolean         fixed_batch;     /* winnow_session_set_batch() was called */
  GSource         *scheduler_source; /* borrowed, while attached */
  guint64          last_n_run;      /* actions run at the last scheduler notify */
  double           speed;           /* 0: fast-forward */
  WnClockMode      last_mode;

  gboolean         flush_requested;
  gboolean         snapshots_dirty; /* a full pass is due */
  gboolean         rows_dirty;      /* an incremental one is */
  gboolean         instances_dirty;

  WinnowEventLog  *events;
  WinnowRowList   *jobs;
  WinnowRowList   *tracks;
  WinnowRowList   *instances;
  GHashTable      *job_index;       /* id → WinnowJobRow (ref) */
  GHashTable      *track_index;     /* id → WinnowTrackRow (ref) */
  GHashTable      *instance_index;  /* id → WinnowInstanceRow (ref) */
  /* Rows are made as the journal announces their job, track or instance,
   * spread over the engine's batches instead of thousands in one frame; the
   * next snapshot lists them (or drops those already gone). */
  GPtrArray       *new_jobs;        /* WinnowJobRow*, not listed yet */
  GPtrArray       *new_tracks;      /* WinnowTrackRow*, not listed yet */
  GPtrArray       *new_instances;   /* WinnowInstanceRow*, not listed yet */
  GPtrArray       *changed_instances; /* WinnowInstanceRow* the journal named since the last snapshot */
  GPtrArray       *dirty_jobs;      /* WinnowJobRow* (ROW_DIRTY) the journal named since the last snapshot */
  GPtrArray       *dirty_tracks;    /* WinnowTrackRow* (ROW_DIRTY), likewise */
  GPtrArray       *timed_jobs;      /* WinnowJobRow* (ROW_TIMED): gated or locked when last looked up */
  WinnowNodeCounts *counts;         /* per process node */
  guint            generation;
  gint64           last_snapshot;   /* monotonic µs */
  gint64           snapshot_cost;   /* µs the last one took */
  guint            n_terminated;
  guint            n_incidents;
  guint            n_rejected;

  char            *selected_node;
  char            *selected_job;

  WinnowTrace     *trace;           /* every job's history, fed as events come */
  /* alerts since the last flush: how many, and the first one's journal index */
  guint            alert_counts[WINNOW_ALERT_FINISHED];
  guint            alert_first[WINNOW_ALERT_FINISHED];
  GArray          *breakpoints;     /* WinnowBreakpoint, kept across restarts */
  guint            next_breakpoint;
  guint            announced_hit;   /* the engine's hit already reported, or 0 */
  gboolean         resumed;         /* the operator's play is in effect */
  GPtrArray       *incidents;       /* WinnowIncident*, open ones */
  GPtrArray       *incidents_next;  /* collected from the listed tracks (collect_incidents) */
  guint            incidents_version;
};

enum {
  PROP_0,
  PROP_LOADED,
  PROP_MODE,
  PROP_SPEED,
  PROP_SELECTED_NODE,
  PROP_SELECTED_JOB,
  N_PROPS
};

enum {
  NEEDS_FLUSH,
  FLUSHED,
  ALERT,
  RUN_CHANGED,
  BREAKPOINT_HIT,
  BREAKPOINTS_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (WinnowSession, winnow_session, G_TYPE_OBJECT)

/* ---- helpers ---- */

static void
request_flush (WinnowSession *self)
{
  if (self->flush_requested)
    return;
  self->flush_requested = TRUE;
  g_signal_emit (self, signals[NEEDS_FLUSH], 0);
}

static void
update_mode (WinnowSession *self)
{
  WnClockMode mode = winnow_session_get_mode (self);

  if (mode == self->last_mode)
    return;
  self->last_mode = mode;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODE]);
}

/* Clock commands go through the engine: it journals them and records them
 * for the saved session, so a replay journals them at the same point. */
static void
breakpoint_clear (gpointer data)
{
  g_free (((WinnowBreakpoint *) data)->node);
}

static void
incident_free (gpointer data)
{
  WinnowIncident *incident = data;

  g_free (incident->instance);
  g_free (incident->node);
  g_free (incident->track);
  g_free (incident->error);
  g_free (incident);
}

static void
announce_job (WinnowSession   *self,
              const WnJobInfo *info)
{
  WinnowJobRow *row;

  if (g_hash_table_contains (self->job_index, info->id))
    return;
  row = winnow_job_row_new (info->id);
  winnow_job_row_update (row, info, wn_engine_now (self->engine));
  g_hash_table_insert (self->job_index, (gpointer) winnow_job_row_get_id (row), row);
  g_ptr_array_add (self->new_jobs, g_object_ref (row));
}

static void
announce_track (WinnowSession *self,
                const char    *id)
{
  WinnowTrackRow *row;

  if (g_hash_table_contains (self->track_index, id))
    return;
  row = winnow_track_row_new (id);
  g_hash_table_insert (self->track_index, (gpointer) winnow_track_row_get_id (row), row);
  g_ptr_array_add (self->new_tracks, g_object_ref (row));
}

/* An instance event: its row is made, or marked for the next snapshot. */
static void
announce_instance (WinnowSession *self,
                   const char    *id)
{
  WinnowInstanceRow *row;

  if (id == NULL)
    {
      self->instances_dirty = TRUE;   /* a full pass finds it */
      return;
    }
  row = g_hash_table_lookup (self->instance_index, id);
  if (row == NULL)
    {
      row = winnow_instance_row_new (id);
      g_hash_table_insert (self->instance_index, (gpointer) winnow_instance_row_get_id (row), row);
      g_ptr_array_add (self->new_instances, g_object_ref (row));
    }
  g_ptr_array_add (self->changed_instances, g_object_ref (row));
}

/* The journal named a job or a track: the next incremental snapshot looks it
 * up (once, however many events named it). */
static void
mark_job (WinnowSession *self,
          const char    *id)
{
  WinnowJobRow *row = g_hash_table_lookup (self->job_index, id);
  guint flags;

  if (row == NULL || ((flags = winnow_job_row_get_flags (row)) & ROW_DIRTY))
    return;
  winnow_job_row_set_flags (row, flags | ROW_DIRTY);
  g_ptr_array_add (self->dirty_jobs, g_object_ref (row));
}

static void
mark_track (WinnowSession *self,
            const char    *id)
{
  WinnowTrackRow *row = g_hash_table_lookup (self->track_index, id);
  guint flags;

  if (row == NULL || ((flags = winnow_track_row_get_flags (row)) & ROW_DIRTY))
    return;
  winnow_track_row_set_flags (row, flags | ROW_DIRTY);
  g_ptr_array_add (self->dirty_tracks, g_object_ref (row));
}

/* Every event, as the engine emits it: kept in the journal and applied to the
 * trace here, from the engine's own copy, rather than copied and queued for
 * the next frame; the frame then only shows what arrived. */
static void
journal_cb (const WnEvent *event,
            gpointer       data)
{
  WinnowSession *self = data;
  WinnowJournal *journal = winnow_event_log_get_journal (self->events);
  int alert = -1;

  winnow_trace_add_event (self->trace, event);
  /* the job's policy, as resolved at enqueue: the job is in the store now */
  if (event->kind == WN_EV_JOB && event->phase == WN_PH_ENQUEUED && event->job != NULL)
    {
      WnJobInfo info;

      if (wn_dispatcher_lookup (wn_engine_get_dispatcher (self->engine), event->job, &info))
        {
          winnow_trace_set_policy (self->trace, event->job, info.policy);
          announce_job (self, &info);
        }
    }
  else if (event->kind == WN_EV_NODE && event->track != NULL)
    announce_track (self, event->track);
  if (event->job != NULL)
    mark_job (self, event->job);
  if (event->track != NULL)
    mark_track (self, event->track);

  if (event->kind == WN_EV_INSTANCE || event->kind == WN_EV_INCIDENT)
    announce_instance (self, event->instance);
  if (event->kind == WN_EV_INSTANCE && event->phase == WN_PH_TERMINATED)
    {
      self->n_terminated++;
      alert = WINNOW_ALERT_TERMINATED;
    }
  else if (event->kind == WN_EV_INCIDENT && event->phase == WN_PH_RAISED)
    {
      self->n_incidents++;
      alert = WINNOW_ALERT_INCIDENT;
    }
  else if (event->kind == WN_EV_JOB && event->phase == WN_PH_REPORT_REJECTED)
    {
      self->n_rejected++;
      alert = WINNOW_ALERT_REJECTED;
    }
  if (alert >= 0 && self->alert_counts[alert]++ == 0)
    self->alert_first[alert] = winnow_journal_get_n_events (journal);

  winnow_journal_append (journal, event);
  request_flush (self);
}

static WinnowBreakpoint *
find_breakpoint_by_engine_id (WinnowSession *self,
                              guint          engine_id)
{
  for (guint i = 0; i < self->breakpoints->len; i++)
    {
      WinnowBreakpoint *bp = &g_array_index (self->breakpoints, WinnowBreakpoint, i);

      if (bp->engine_id == engine_id)
        return bp;
    }
  return NULL;
}

/* The engine stopped the clock at a breakpoint: say so, once. */
static void
check_hit (WinnowSession *self)
{
  const WnEvent *event = NULL;
  guint hit;
  WinnowBreakpoint *bp;
  g_autoptr(WinnowEventRow) row = NULL;

  if (self->engine == NULL)
    return;
  hit = wn_engine_get_last_hit (self->engine, &event);
  if (hit == 0 || hit == self->announced_hit || event == NULL)
    return;
  self->announced_hit = hit;
  bp = find_breakpoint_by_engine_id (self, hit);
  if (self->resumed)
    {
      g_autofree char *spec = bp ? winnow_breakpoint_to_spec (bp) : NULL;
      /* journal data, like the engine's own text: not translated */
      g_autofree char *action = g_strdup_printf ("at breakpoint %s", spec ? spec : "?");

      /* the scheduler has paused itself; the journal and the session say so */
      self->resumed = FALSE;
      wn_engine_note_clock (self->engine, WN_PH_PAUSED, action);
      request_flush (self);
    }
  update_mode (self);
  row = winnow_event_row_new (wn_event_copy (event));
  g_signal_emit (self, signals[BREAKPOINT_HIT], 0, bp ? bp->id : 0, row);
}

/* The operator moves on: the stop is over. */
static void
leave_hit (WinnowSession *self)
{
  check_hit (self);
  if (self->announced_hit != 0 || wn_engine_get_last_hit (self->engine, NULL) != 0)
    {
      wn_engine_clear_hit (self->engine);
      self->announced_hit = 0;
    }
}

/* After a fast-forward batch: size the next one to DISPATCH_BUDGET from what
 * this one cost per action (the batch size never changes what the run does,
 * only where the main loop gets its turns). */
static void
size_batch (WinnowSession *self,
            WnScheduler   *scheduler)
{
  guint64 n_run = wn_scheduler_get_n_run (scheduler);
  guint64 actions = n_run - self->last_n_run;
  GSource *current = g_main_current_source ();
  gint64 spent;
  double target;

  self->last_n_run = n_run;
  if (self->fixed_batch || current == NULL || current != self->scheduler_source ||
      wn_scheduler_get_mode (scheduler) != WN_CLOCK_FAST_FORWARD || actions == 0)
    return;
  /* from the start of this main-loop turn, which ran only this dispatch */
  spent = g_get_monotonic_time () - g_source_get_time (current);
  if (spent <= 0)
    return;
  target = (double) DISPATCH_BUDGET * (double) actions / (double) spent;
  /* halfway there each time: one slow batch (a page fault storm, a big
   * snapshot's aftermath) does not swing the next one */
  target = CLAMP ((self->batch + target) / 2, MIN_BATCH, MAX_BATCH);
  if ((guint) target != self->batch)
    {
      self->batch = (guint) target;
      wn_scheduler_set_batch (scheduler, self->batch);
    }
}

static void
scheduler_notify_cb (WnScheduler *scheduler,
                     gpointer     data)
{
  WinnowSession *self = data;

  size_batch (self, scheduler);
  /* a dispatch that ran actions journaled what it changed (the incremental
   * snapshot follows the journal); a new mode gets a full pass */
  if (winnow_session_get_mode (self) != self->last_mode)
    self->snapshots_dirty = TRUE;
  self->rows_dirty = TRUE;
  update_mode (self);
  request_flush (self);
}

static void
detach_engine (WinnowSession *self)
{
  WnScheduler *scheduler;

  if (self->engine == NULL)
    return;
  scheduler = wn_engine_get_scheduler (self->engine);
  wn_scheduler_set_notify (scheduler, NULL, NULL);
  wn_scheduler_pause (scheduler);
  wn_scheduler_detach (scheduler);
  self->scheduler_source = NULL;
  wn_journal_unsubscribe (wn_engine_get_journal (self->engine), self->journal_id);
  self->journal_id = 0;
  g_clear_pointer (&self->engine, wn_engine_free);
}

/* Forget what the incremental pass had queued (a full pass covers it). */
static void
clear_marks (WinnowSession *self)
{
  for (guint i = 0; i < self->dirty_jobs->len; i++)
    {
      WinnowJobRow *row = g_ptr_array_index (self->dirty_jobs, i);

      winnow_job_row_set_flags (row, winnow_job_row_get_flags (row) & ~ROW_DIRTY);
    }
  for (guint i = 0; i < self->timed_jobs->len; i++)
    {
      WinnowJobRow *row = g_ptr_array_index (self->timed_jobs, i);

      winnow_job_row_set_flags (row, winnow_job_row_get_flags (row) & ~ROW_TIMED);
    }
  for (guint i = 0; i < self->dirty_tracks->len; i++)
    {
      WinnowTrackRow *row = g_ptr_array_index (self->dirty_tracks, i);

      winnow_track_row_set_flags (row, winnow_track_row_get_flags (row) & ~ROW_DIRTY);
    }
  g_ptr_array_set_size (self->dirty_jobs, 0);
  g_ptr_array_set_size (self->timed_jobs, 0);
  g_ptr_array_set_size (self->dirty_tracks, 0);
}

static void
reset_models (WinnowSession *self)
{
  g_autoptr(WinnowJournal) journal = winnow_journal_new ();

  g_ptr_array_set_size (self->new_jobs, 0);
  g_ptr_array_set_size (self->new_tracks, 0);
  g_ptr_array_set_size (self->new_instances, 0);
  g_ptr_array_set_size (self->changed_instances, 0);
  clear_marks (self);
  g_hash_table_remove_all (self->job_index);
  g_hash_table_remove_all (self->track_index);
  g_hash_table_remove_all (self->instance_index);
  /* rows made from the old run's journal keep it alive as long as they need it */
  winnow_event_log_set_journal (self->events, journal);
  winnow_row_list_remove_all (self->jobs);
  winnow_row_list_remove_all (self->tracks);
  winnow_row_list_remove_all (self->instances);
  g_clear_pointer (&self->counts, g_free);
  winnow_trace_clear (self->trace);
  memset (self->alert_counts, 0, sizeof self->alert_counts);
  g_ptr_array_set_size (self->incidents, 0);
  self->incidents_version++;
  self->announced_hit = 0;
  self->resumed = FALSE;
  self->n_terminated = 0;
  self->n_incidents = 0;
  self->n_rejected = 0;
}

static void
attach_engine (WinnowSession *self)
{
  WnScheduler *scheduler = wn_engine_get_scheduler (self->engine);
  GSource *source;
  guint id;

  wn_scheduler_set_batch (scheduler, self->batch);
  if (self->speed > 0)
    wn_scheduler_set_speed (scheduler, self->speed);
  wn_scheduler_set_notify (scheduler, scheduler_notify_cb, self);
  id = wn_scheduler_attach (scheduler, NULL);

  /* Below redraw and input: a fast-forward that always has work must not
   * starve the frame clock or the Pause button. */
  source = g_main_context_find_source_by_id (NULL, id);
  if (source != NULL)
    g_source_set_priority (source, G_PRIORITY_DEFAULT_IDLE);
  self->scheduler_source = source;
  self->last_n_run = 0;

  self->journal_id = wn_journal_subscribe (wn_engine_get_journal (self->engine),
                                           journal_cb, self, NULL);
}

static void
start_engine (WinnowSession *self)
{
  gboolean dropped = FALSE;

  detach_engine (self);
  reset_models (self);

  self->engine = wn_engine_new (self->process, self->scenario, &self->options);
  self->counts = g_new0 (WinnowNodeCounts, self->process->n_nodes);
  attach_engine (self);
  /* breakpoints outlive runs: the same ones stop the new run (those on a
   * node the process does not have go) */
  for (guint i = self->breakpoints->len; i > 0; i--)
    {
      WinnowBreakpoint *bp = &g_array_index (self->breakpoints, WinnowBreakpoint, i - 1);

      if (bp->node != NULL && wn_process_find_node (self->process, bp->node) == NULL)
        {
          g_array_remove_index (self->breakpoints, i - 1);
          dropped = TRUE;
        }
    }
  for (guint i = 0; i < self->breakpoints->len; i++)
    {
      WinnowBreakpoint *bp = &g_array_index (self->breakpoints, WinnowBreakpoint, i);

      bp->hits = 0;
      bp->engine_id = wn_engine_add_breakpoint (self->engine, bp->kind, bp->phase, bp->node);
      if (!bp->enabled)
        wn_engine_enable_breakpoint (self->engine, bp->engine_id, FALSE);
    }

  self->snapshots_dirty = TRUE;
  self->instances_dirty = TRUE;
  self->last_mode = WN_CLOCK_PAUSED;
  winnow_session_flush (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADED]);
  if (dropped)
    g_signal_emit (self, signals[BREAKPOINTS_CHANGED], 0);
  g_signal_emit (self, signals[RUN_CHANGED], 0);
}

/* ---- snapshot refresh ---- */

typedef struct {
  WinnowSession *self;
  GPtrArray     *added;
  guint          seen;
  WnTime         now;
} Pass;

typedef struct {
  GHashTable *index;
  guint       generation;
  guint     (*get_generation) (gpointer row);
  const char *(*get_id) (gpointer row);
} SyncData;

static gboolean
row_seen (gpointer row,
          gpointer data)
{
  SyncData *sync = data;

  return sync->get_generation (row) == sync->generation;
}

static void
row_gone (gpointer row,
          gpointer data)
{
  SyncData *sync = data;

  g_hash_table_remove (sync->index, sync->get_id (row));
}

/* Bring `store` in line with a pass over the engine: rows not seen this
 * generation leave, new ones are appended. */
static void
sync_store (WinnowRowList *store,
            GHashTable    *index,
            Pass          *pass,
            guint          generation,
            guint        (*get_generation) (gpointer row),
            const char  *(*get_id) (gpointer row))
{
  SyncData sync = { index, generation, get_generation, get_id };
  guint survivors = pass->seen - pass->added->len;

  if (g_list_model_get_n_items (G_LIST_MODEL (store)) != survivors)
    winnow_row_list_filter (store, row_seen, row_gone, &sync);
  winnow_row_list_append (store, pass->added->pdata, pass->added->len);
}

static guint
job_generation (gpointer row)
{
  return winnow_job_row_get_generation (row);
}

static const char *
job_id (gpointer row)
{
  return winnow_job_row_get_id (row);
}

static guint
track_generation (gpointer row)
{
  return winnow_track_row_get_generation (row);
}

static const char *
track_id (gpointer row)
{
  return winnow_track_row_get_id (row);
}

static gboolean
is_timed (WnJobState state)
{
  return state == WN_JOB_GATED || state == WN_JOB_LOCKED;
}

/* A gated or locked job changes state when the clock passes its gate or its
 * deadline, with no event to say so: keep it where the next pass looks. */
static void
note_timed (WinnowSession *self,
            WinnowJobRow  *row)
{
  guint flags = winnow_job_row_get_flags (row);

  if (is_timed (winnow_job_row_get_state (row)) && !(flags & ROW_TIMED))
    {
      winnow_job_row_set_flags (row, flags | ROW_TIMED);
      g_ptr_array_add (self->timed_jobs, g_object_ref (row));
    }
}

static void
job_cb (const WnJobInfo *info,
        gpointer         data)
{
  Pass *pass = data;
  WinnowSession *self = pass->self;
  WinnowJobRow *row = g_hash_table_lookup (self->job_index, info->id);

  if (row == NULL)
    {
      row = winnow_job_row_new (info->id);
      g_hash_table_insert (self->job_index, (gpointer) winnow_job_row_get_id (row), row);
      g_ptr_array_add (pass->added, g_object_ref (row));
    }
  else if (winnow_job_row_get_generation (row) == 0)
    g_ptr_array_add (pass->added, g_object_ref (row));   /* announced, listed now */
  winnow_job_row_update (row, info, pass->now);
  winnow_job_row_set_generation (row, self->generation);
  note_timed (self, row);
  pass->seen++;
}

static void
refresh_jobs (WinnowSession *self,
              WnTime         now)
{
  Pass pass = { self, g_ptr_array_new_with_free_func (g_object_unref), 0, now };

  wn_dispatcher_foreach (wn_engine_get_dispatcher (self->engine), job_cb, &pass);
  sync_store (self->jobs, self->job_index, &pass, self->generation, job_generation, job_id);
  g_ptr_array_unref (pass.added);
  /* announced and gone before this pass: never listed */
  for (guint i = 0; i < self->new_jobs->len; i++)
    {
      WinnowJobRow *row = g_ptr_array_index (self->new_jobs, i);

      if (winnow_job_row_get_generation (row) == 0)
        g_hash_table_remove (self->job_index, winnow_job_row_get_id (row));
    }
  g_ptr_array_set_size (self->new_jobs, 0);
}

static gboolean
incidents_equal (GPtrArray *a,
                 GPtrArray *b)
{
  if (a->len != b->len)
    return FALSE;
  for (guint i = 0; i < a->len; i++)
    {
      WinnowIncident *x = g_ptr_array_index (a, i);
      WinnowIncident *y = g_ptr_array_index (b, i);

      if (g_strcmp0 (x->track, y->track) != 0 || x->since != y->since || g_strcmp0 (x->error, y->error) != 0)
        return FALSE;
    }
  return TRUE;
}

/* What a track at `node` in `state` counts for there (delta +1), or no
 * longer counts for (-1). */
static void
count_track (WinnowSession *self,
             const WnNode  *node,
             WnTrackState   state,
             int            delta)
{
  WinnowNodeCounts *counts;

  if (node == NULL)
    return;
  counts = &self->counts[node->index];
  switch (state)
    {
    case WN_TRACK_ACTIVE:
    case WN_TRACK_JOINING:
      counts->active += delta;
      break;
    case WN_TRACK_PARKED:
      counts->parked += delta;
      break;
    case WN_TRACK_INCIDENT:
      counts->incident += delta;
      break;
    case WN_TRACK_DONE:
    case WN_TRACK_CANCELED:
    case WN_TRACK_FAILED:
    default:
      break;
    }
}

/* "i<n>/t<m>" → (n, m), the order wn_engine_foreach_track() walks in. */
static void
track_numbers (const char *id,
               guint64    *instance,
               guint64    *track)
{
  const char *slash = strchr (id, '/');

  *instance = g_ascii_strtoull (id + 1, NULL, 10);
  *track = slash != NULL ? g_ascii_strtoull (slash + 2, NULL, 10) : 0;
}

static int
compare_incidents (gconstpointer a,
                   gconstpointer b)
{
  const WinnowIncident *x = *(WinnowIncident * const *) a;
  const WinnowIncident *y = *(WinnowIncident * const *) b;
  guint64 xi, xt, yi, yt;

  track_numbers (x->track, &xi, &xt);
  track_numbers (y->track, &yi, &yt);
  if (xi != yi)
    return xi < yi ? -1 : 1;
  return (xt > yt) - (xt < yt);
}

/* The open incidents, from the listed tracks, in the full pass's order. */
static void
collect_incidents (WinnowSession *self)
{
  GListModel *tracks = G_LIST_MODEL (self->tracks);
  guint n = g_list_model_get_n_items (tracks);

  g_ptr_array_set_size (self->incidents_next, 0);
  for (guint i = 0; i < n; i++)
    {
      WinnowTrackRow *row = winnow_row_list_peek (self->tracks, i);
      WinnowIncident *incident;

      if (winnow_track_row_get_state (row) != WN_TRACK_INCIDENT)
        continue;
      incident = g_new0 (WinnowIncident, 1);
      incident->instance = g_strdup (winnow_track_row_get_instance (row));
      incident->node = g_strdup (winnow_track_row_get_node (row));
      incident->track = g_strdup (winnow_track_row_get_id (row));
      incident->error = g_strdup (winnow_track_row_get_error (row));
      incident->since = winnow_track_row_get_since (row);
      g_ptr_array_add (self->incidents_next, incident);
    }
  g_ptr_array_sort (self->incidents_next, compare_incidents);
  if (!incidents_equal (self->incidents, self->incidents_next))
    {
      GPtrArray *swap = self->incidents;

      self->incidents = self->incidents_next;
      self->incidents_next = swap;
      self->incidents_version++;
    }
  g_ptr_array_set_size (self->incidents_next, 0);
}

static void
track_cb (const WnTrackInfo *info,
          gpointer           data)
{
  Pass *pass = data;
  WinnowSession *self = pass->self;
  WinnowTrackRow *row = g_hash_table_lookup (self->track_index, info->id);
  const WnNode *node = wn_process_find_node (self->process, info->node);

  if (row == NULL)
    {
      row = winnow_track_row_new (info->id);
      g_hash_table_insert (self->track_index, (gpointer) winnow_track_row_get_id (row), row);
      g_ptr_array_add (pass->added, g_object_ref (row));
    }
  else if (winnow_track_row_get_generation (row) == 0)
    g_ptr_array_add (pass->added, g_object_ref (row));   /* announced, listed now */
  winnow_track_row_update (row, info, node && node->name ? node->name : info->node, pass->now);
  winnow_track_row_set_generation (row, self->generation);
  pass->seen++;

  count_track (self, node, info->state, +1);
}

static void
refresh_tracks (WinnowSession *self,
                WnTime         now)
{
  Pass pass = { self, g_ptr_array_new_with_free_func (g_object_unref), 0, now };

  memset (self->counts, 0, sizeof (WinnowNodeCounts) * self->process->n_nodes);
  wn_engine_foreach_track (self->engine, FALSE, track_cb, &pass);
  sync_store (self->tracks, self->track_index, &pass, self->generation, track_generation, track_id);
  g_ptr_array_unref (pass.added);
  for (guint i = 0; i < self->new_tracks->len; i++)
    {
      WinnowTrackRow *row = g_ptr_array_index (self->new_tracks, i);

      if (winnow_track_row_get_generation (row) == 0)
        g_hash_table_remove (self->track_index, winnow_track_row_get_id (row));
    }
  g_ptr_array_set_size (self->new_tracks, 0);
  collect_incidents (self);
}

static void
instance_cb (const WnInstanceInfo *info,
             gpointer              data)
{
  Pass *pass = data;
  WinnowSession *self = pass->self;
  WinnowInstanceRow *row = g_hash_table_lookup (self->instance_index, info->id);

  if (row == NULL)
    {
      row = winnow_instance_row_new (info->id);
      g_hash_table_insert (self->instance_index, (gpointer) winnow_instance_row_get_id (row), row);
      g_ptr_array_add (pass->added, g_object_ref (row));
    }
  winnow_instance_row_update (row, info);
}

/* `all`: a pass over every instance (after a command); else only the ones
 * the journal named since the last snapshot. */
static void
refresh_instances (WinnowSession *self,
                   gboolean       all)
{
  Pass pass = { self, g_ptr_array_new_with_free_func (g_object_unref), 0, 0 };

  if (all)
    wn_engine_foreach_instance (self->engine, instance_cb, &pass);
  else
    for (guint i = 0; i < self->changed_instances->len; i++)
      {
        WinnowInstanceRow *row = g_ptr_array_index (self->changed_instances, i);
        WnInstanceInfo info;

        if (wn_engine_lookup_instance (self->engine, winnow_instance_row_get_id (row), &info))
          winnow_instance_row_update (row, &info);
      }
  g_ptr_array_set_size (self->changed_instances, 0);
  /* instances never leave: every announced one is listed, in creation order */
  winnow_row_list_append (self->instances, self->new_instances->pdata, self->new_instances->len);
  g_ptr_array_set_size (self->new_instances, 0);
  winnow_row_list_append (self->instances, pass.added->pdata, pass.added->len);
  g_ptr_array_unref (pass.added);
}

/* ---- incremental snapshot (the clock runs) ---- */

/* Look one job up again: update its row, list it if it is new, or mark it
 * gone. Returns FALSE when it is gone from a listed row. */
static gboolean
refresh_job_row (WinnowSession *self,
                 WinnowJobRow  *row,
                 WnTime         now,
                 GPtrArray     *added)
{
  WnJobInfo info;
  guint generation = winnow_job_row_get_generation (row);

  if (generation == GONE_GENERATION)
    return TRUE;
  if (wn_dispatcher_lookup (wn_engine_get_dispatcher (self->engine), winnow_job_row_get_id (row), &info))
    {
      winnow_job_row_update (row, &info, now);
      if (generation == 0)
        {
          winnow_job_row_set_generation (row, self->generation);
          g_ptr_array_add (added, g_object_ref (row));
        }
      note_timed (self, row);
      return TRUE;
    }
  if (generation == 0)
    {
      /* announced and gone before it was listed */
      g_hash_table_remove (self->job_index, winnow_job_row_get_id (row));
      return TRUE;
    }
  winnow_job_row_set_generation (row, GONE_GENERATION);
  return FALSE;
}

static void
refresh_jobs_incremental (WinnowSession *self,
                          WnTime         now)
{
  g_autoptr(GPtrArray) added = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) dirty = g_steal_pointer (&self->dirty_jobs);
  g_autoptr(GPtrArray) gone = g_ptr_array_new ();   /* listed rows, borrowed from the list */
  guint kept = 0;

  self->dirty_jobs = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < dirty->len; i++)
    {
      WinnowJobRow *row = g_ptr_array_index (dirty, i);

      winnow_job_row_set_flags (row, winnow_job_row_get_flags (row) & ~ROW_DIRTY);
      if (!refresh_job_row (self, row, now, added))
        g_ptr_array_add (gone, row);
    }
  /* every announced job was named by its enqueue event, so looked up above */
  g_ptr_array_set_size (self->new_jobs, 0);

  /* the clock may have opened gates and expired locks */
  for (guint i = 0; i < self->timed_jobs->len; i++)
    {
      WinnowJobRow *row = g_ptr_array_index (self->timed_jobs, i);
      WnJobState state = winnow_job_row_get_state (row);
      gboolean due = (state == WN_JOB_GATED && winnow_job_row_get_not_before (row) <= now) ||
                     (state == WN_JOB_LOCKED && winnow_job_row_get_deadline (row) < now);

      if (due && !refresh_job_row (self, row, now, added))
        g_ptr_array_add (gone, row);
      if (winnow_job_row_get_generation (row) != GONE_GENERATION &&
          g_hash_table_lookup (self->job_index, winnow_job_row_get_id (row)) == row &&
          is_timed (winnow_job_row_get_state (row)))
        self->timed_jobs->pdata[kept++] = row;
      else
        {
          winnow_job_row_set_flags (row, winnow_job_row_get_flags (row) & ~ROW_TIMED);
          g_object_unref (row);
        }
    }
  self->timed_jobs->len = kept;   /* the dropped ones were unreferenced above */

  if (gone->len > 0)
    {
      SyncData sync = { self->job_index, 0, job_generation, job_id };

      winnow_row_list_remove (self->jobs, gone->pdata, gone->len, row_gone, &sync);
    }
  winnow_row_list_append (self->jobs, added->pdata, added->len);
}

static void
refresh_tracks_incremental (WinnowSession *self,
                            WnTime         now)
{
  g_autoptr(GPtrArray) added = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) dirty = g_steal_pointer (&self->dirty_tracks);
  g_autoptr(GPtrArray) gone = g_ptr_array_new ();   /* listed rows, borrowed from the list */
  gboolean incidents_changed = FALSE;

  self->dirty_tracks = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < dirty->len; i++)
    {
      WinnowTrackRow *row = g_ptr_array_index (dirty, i);
      guint generation = winnow_track_row_get_generation (row);
      gboolean listed = generation != 0 && generation != GONE_GENERATION;
      WnTrackInfo info;

      winnow_track_row_set_flags (row, winnow_track_row_get_flags (row) & ~ROW_DIRTY);
      if (generation == GONE_GENERATION)
        continue;
      /* A cancelled track takes its job out of the dispatcher, and the event
       * names the track only: the job it was parked on is looked up too (the
       * jobs' pass runs after this one). */
      if (winnow_track_row_get_job (row) != NULL)
        mark_job (self, winnow_track_row_get_job (row));
      if (listed)
        {
          /* what it counted for until now */
          count_track (self, wn_process_find_node (self->process, winnow_track_row_get_node (row)),
                       winnow_track_row_get_state (row), -1);
          incidents_changed |= winnow_track_row_get_state (row) == WN_TRACK_INCIDENT;
        }
      /* listed as wn_engine_foreach_track (…, FALSE, …) lists them: a live
       * track (an ended instance has none) */
      if (wn_engine_lookup_track (self->engine, winnow_track_row_get_id (row), &info) &&
          wn_track_state_is_live (info.state))
        {
          const WnNode *node = wn_process_find_node (self->process, info.node);

          winnow_track_row_update (row, &info, node && node->name ? node->name : info.node, now);
          if (!listed)
            {
              winnow_track_row_set_generation (row, self->generation);
              g_ptr_array_add (added, g_object_ref (row));
            }
          count_track (self, node, info.state, +1);
          incidents_changed |= info.state == WN_TRACK_INCIDENT;
        }
      else if (!listed)
        g_hash_table_remove (self->track_index, winnow_track_row_get_id (row));
      else
        {
          winnow_track_row_set_generation (row, GONE_GENERATION);
          g_ptr_array_add (gone, row);
        }
    }
  /* every announced track was named by the event that announced it */
  g_ptr_array_set_size (self->new_tracks, 0);

  if (gone->len > 0)
    {
      SyncData sync = { self->track_index, 0, track_generation, track_id };

      winnow_row_list_remove (self->tracks, gone->pdata, gone->len, row_gone, &sync);
    }
  winnow_row_list_append (self->tracks, added->pdata, added->len);
  if (incidents_changed)
    collect_incidents (self);
}

/* ---- GObject ---- */

static void
winnow_session_dispose (GObject *object)
{
  WinnowSession *self = WINNOW_SESSION (object);

  detach_engine (self);
  if (self->events != NULL)
    reset_models (self);

  G_OBJECT_CLASS (winnow_session_parent_class)->dispose (object);
}

static void
winnow_session_finalize (GObject *object)
{
  WinnowSession *self = WINNOW_SESSION (object);

  g_clear_object (&self->file);
  g_clear_pointer (&self->process, wn_process_unref);
  g_clear_pointer (&self->scenario, wn_scenario_unref);
  g_clear_object (&self->events);
  g_clear_object (&self->jobs);
  g_clear_object (&self->tracks);
  g_clear_object (&self->instances);
  g_clear_pointer (&self->job_index, g_hash_table_unref);
  g_clear_pointer (&self->track_index, g_hash_table_unref);
  g_clear_pointer (&self->instance_index, g_hash_table_unref);
  g_clear_pointer (&self->new_jobs, g_ptr_array_unref);
  g_clear_pointer (&self->new_tracks, g_ptr_array_unref);
  g_clear_pointer (&self->new_instances, g_ptr_array_unref);
  g_clear_pointer (&self->changed_instances, g_ptr_array_unref);
  g_clear_pointer (&self->dirty_jobs, g_ptr_array_unref);
  g_clear_pointer (&self->dirty_tracks, g_ptr_array_unref);
  g_clear_pointer (&self->timed_jobs, g_ptr_array_unref);
  g_clear_pointer (&self->counts, g_free);
  g_clear_pointer (&self->selected_node, g_free);
  g_clear_pointer (&self->selected_job, g_free);
  g_clear_pointer (&self->trace, winnow_trace_unref);
  g_clear_pointer (&self->breakpoints, g_array_unref);
  g_clear_pointer (&self->incidents, g_ptr_array_unref);
  g_clear_pointer (&self->incidents_next, g_ptr_array_unref);

  G_OBJECT_CLASS (winnow_session_parent_class)->finalize (object);
}

static void
winnow_session_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  WinnowSession *self = WINNOW_SESSION (object);

  switch (prop_id)
    {
    case PROP_LOADED:
      g_value_set_boolean (value, self->engine != NULL);
      break;
    case PROP_MODE:
      g_value_set_int (value, winnow_session_get_mode (self));
      break;
    case PROP_SPEED:
      g_value_set_double (value, self->speed);
      break;
    case PROP_SELECTED_NODE:
      g_value_set_string (value, self->selected_node);
      break;
    case PROP_SELECTED_JOB:
      g_value_set_string (value, self->selected_job);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_session_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  WinnowSession *self = WINNOW_SESSION (object);

  switch (prop_id)
    {
    case PROP_SPEED:
      winnow_session_set_speed (self, g_value_get_double (value));
      break;
    case PROP_SELECTED_NODE:
      winnow_session_set_selected_node (self, g_value_get_string (value));
      break;
    case PROP_SELECTED_JOB:
      winnow_session_set_selected_job (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_session_class_init (WinnowSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = winnow_session_dispose;
  object_class->finalize = winnow_session_finalize;
  object_class->get_property = winnow_session_get_property;
  object_class->set_property = winnow_session_set_property;

  properties[PROP_LOADED] =
    g_param_spec_boolean ("loaded", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_MODE] =
    g_param_spec_int ("mode", NULL, NULL, 0, G_MAXINT, WN_CLOCK_PAUSED,
                      G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_SPEED] =
    g_param_spec_double ("speed", NULL, NULL, 0.0, G_MAXDOUBLE, 1.0,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_SELECTED_NODE] =
    g_param_spec_string ("selected-node", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_SELECTED_JOB] =
    g_param_spec_string ("selected-job", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* Something waits to be applied: the view should flush on its next frame. */
  signals[NEEDS_FLUSH] = g_signal_new ("needs-flush", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                       0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* The models have been brought up to date. */
  signals[FLUSHED] = g_signal_new ("flushed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* (WinnowAlert kind, count in this batch, the first such event's row or NULL) */
  signals[ALERT] = g_signal_new ("alert", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                 0, NULL, NULL, NULL, G_TYPE_NONE, 3,
                                 G_TYPE_INT, G_TYPE_UINT, WINNOW_TYPE_EVENT_ROW);
  /* A new run replaced the previous one (load, restart, reload). */
  signals[RUN_CHANGED] = g_signal_new ("run-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                       0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* The clock stopped at a breakpoint: (the session's breakpoint id, the event that hit it) */
  signals[BREAKPOINT_HIT] = g_signal_new ("breakpoint-hit", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 2,
                                          G_TYPE_UINT, WINNOW_TYPE_EVENT_ROW);
  /* A breakpoint was added, removed, enabled or disabled. */
  signals[BREAKPOINTS_CHANGED] = g_signal_new ("breakpoints-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                               0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
winnow_session_init (WinnowSession *self)
{
  self->batch = DEFAULT_BATCH;
  self->speed = 1.0;
  self->events = winnow_event_log_new (WINNOW_SESSION_MAX_EVENTS);
  self->jobs = winnow_row_list_new (WINNOW_TYPE_JOB_ROW);
  self->tracks = winnow_row_list_new (WINNOW_TYPE_TRACK_ROW);
  self->instances = winnow_row_list_new (WINNOW_TYPE_INSTANCE_ROW);
  self->job_index = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_object_unref);
  self->track_index = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_object_unref);
  self->instance_index = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_object_unref);
  self->new_jobs = g_ptr_array_new_with_free_func (g_object_unref);
  self->new_tracks = g_ptr_array_new_with_free_func (g_object_unref);
  self->new_instances = g_ptr_array_new_with_free_func (g_object_unref);
  self->changed_instances = g_ptr_array_new_with_free_func (g_object_unref);
  self->dirty_jobs = g_ptr_array_new_with_free_func (g_object_unref);
  self->dirty_tracks = g_ptr_array_new_with_free_func (g_object_unref);
  self->timed_jobs = g_ptr_array_new_with_free_func (g_object_unref);
  self->trace = winnow_trace_new ();
  self->breakpoints = g_array_new (FALSE, TRUE, sizeof (WinnowBreakpoint));
  g_array_set_clear_func (self->breakpoints, breakpoint_clear);
  self->incidents = g_ptr_array_new_with_free_func (incident_free);
  self->incidents_next = g_ptr_array_new_with_free_func (incident_free);
}

/* ---- public API ---- */

WinnowSession *
winnow_session_new (void)
{
  return g_object_new (WINNOW_TYPE_SESSION, NULL);
}

gboolean
winnow_session_load_file (WinnowSession          *self,
                          GFile                  *file,
                          const WnEngineOptions  *options,
                          GPtrArray             **diagnostics,
                          GError                **error)
{
  g_autofree char *path = NULL;
  g_autoptr(WnProcess) process = NULL;

  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  path = g_file_get_path (file);
  if (path == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("Only local files can be opened"));
      return FALSE;
    }
  process = wn_load_process_file (path, diagnostics, error);
  if (process == NULL)
    return FALSE;
  winnow_session_set_process (self, process, NULL, options, file);
  return TRUE;
}

void
winnow_session_set_process (WinnowSession         *self,
                            WnProcess             *process,
                            WnScenario            *scenario,
                            const WnEngineOptions *options,
                            GFile                 *file)
{
  g_return_if_fail (WINNOW_IS_SESSION (self));
  g_return_if_fail (process != NULL);

  wn_process_ref (process);
  g_clear_pointer (&self->process, wn_process_unref);
  self->process = process;
  if (scenario != NULL)
    wn_scenario_ref (scenario);
  g_clear_pointer (&self->scenario, wn_scenario_unref);
  self->scenario = scenario;
  if (options != NULL)
    self->options = *options;
  else
    memset (&self->options, 0, sizeof self->options);
  g_set_object (&self->file, file);

  start_engine (self);
}

void
winnow_session_restart (WinnowSession *self)
{
  g_return_if_fail (WINNOW_IS_SESSION (self));

  if (self->process == NULL)
    return;
  start_engine (self);
}

gboolean
winnow_session_reload (WinnowSession  *self,
                       GPtrArray     **diagnostics,
                       GError        **error)
{
  g_autofree char *path = NULL;
  g_autoptr(WnProcess) process = NULL;
  g_autoptr(WnScenario) scenario = NULL;

  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);

  if (self->file == NULL || (path = g_file_get_path (self->file)) == NULL)
    {
      winnow_session_restart (self);
      return TRUE;
    }
  process = wn_load_process_file (path, diagnostics, error);
  if (process == NULL)
    return FALSE;
  if (self->scenario != NULL && self->scenario->filename != NULL)
    {
      scenario = wn_load_scenario_file (self->scenario->filename, diagnostics, error);
      if (scenario == NULL)
        return FALSE;
    }
  g_clear_pointer (&self->process, wn_process_unref);
  self->process = g_steal_pointer (&process);
  if (scenario != NULL)
    {
      g_clear_pointer (&self->scenario, wn_scenario_unref);
      self->scenario = g_steal_pointer (&scenario);
    }
  start_engine (self);
  return TRUE;
}

gboolean
winnow_session_is_loaded (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);
  return self->engine != NULL;
}

WnEngine *
winnow_session_get_engine (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  return self->engine;
}

WnProcess *
winnow_session_get_process (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  return self->process;
}

GFile *
winnow_session_get_file (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  return self->file;
}

const WnEngineOptions *
winnow_session_get_options (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  return &self->options;
}

const char *
winnow_session_get_title (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);

  if (self->process == NULL)
    return NULL;
  return self->process->name ? self->process->name : self->process->id;
}

WnClockMode
winnow_session_get_mode (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), WN_CLOCK_PAUSED);

  if (self->engine == NULL)
    return WN_CLOCK_PAUSED;
  return wn_scheduler_get_mode (wn_engine_get_scheduler (self->engine));
}

gboolean
winnow_session_is_playing (WinnowSession *self)
{
  return winnow_session_get_mode (self) != WN_CLOCK_PAUSED;
}

void
winnow_session_play (WinnowSession *self)
{
  WnScheduler *scheduler;
  gboolean was_paused;

  g_return_if_fail (WINNOW_IS_SESSION (self));

  if (self->engine == NULL)
    return;
  scheduler = wn_engine_get_scheduler (self->engine);
  leave_hit (self);
  was_paused = wn_scheduler_get_mode (scheduler) == WN_CLOCK_PAUSED;
  if (self->speed <= 0)
    wn_scheduler_fast_forward (scheduler);
  else
    {
      wn_scheduler_set_speed (scheduler, self->speed);
      wn_scheduler_resume (scheduler);
    }
  if (was_paused)
    wn_engine_note_clock (self->engine, WN_PH_RESUMED, NULL);
  self->resumed = TRUE;
  update_mode (self);
  request_flush (self);
}

void
winnow_session_pause (WinnowSession *self)
{
  WnScheduler *scheduler;

  g_return_if_fail (WINNOW_IS_SESSION (self));

  if (self->engine == NULL)
    return;
  scheduler = wn_engine_get_scheduler (self->engine);
  self->resumed = FALSE;
  if (wn_scheduler_get_mode (scheduler) == WN_CLOCK_PAUSED)
    return;
  wn_scheduler_pause (scheduler);
  wn_engine_note_clock (self->engine, WN_PH_PAUSED, NULL);
  update_mode (self);
  request_flush (self);
}

void
winnow_session_play_pause (WinnowSession *self)
{
  if (winnow_session_is_playing (self))
    winnow_session_pause (self);
  else
    winnow_session_play (self);
}

void
winnow_session_set_speed (WinnowSession *self,
                          double         speed)
{
  g_return_if_fail (WINNOW_IS_SESSION (self));

  speed = MAX (speed, 0.0);
  if (speed == self->speed)
    return;
  self->speed = speed;
  if (winnow_session_is_playing (self))
    {
      WnScheduler *scheduler = wn_engine_get_scheduler (self->engine);

      if (speed <= 0)
        wn_scheduler_fast_forward (scheduler);
      else
        {
          wn_scheduler_set_speed (scheduler, speed);
          wn_scheduler_resume (scheduler);
        }
      update_mode (self);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SPEED]);
}

double
winnow_session_get_speed (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), 1.0);
  return self->speed;
}

gboolean
winnow_session_step_next (WinnowSession *self)
{
  gboolean ran;

  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);

  if (self->engine == NULL)
    return FALSE;
  winnow_session_pause (self);
  leave_hit (self);
  ran = wn_scheduler_step_next (wn_engine_get_scheduler (self->engine));
  if (ran)
    wn_engine_note_clock (self->engine, WN_PH_STEPPED, "to the next event");
  self->snapshots_dirty = TRUE;
  self->instances_dirty = TRUE;
  request_flush (self);
  return ran;
}

void
winnow_session_step_by (WinnowSession *self,
                        WnTime         delta)
{
  g_autofree char *text = NULL;
  g_autofree char *action = NULL;

  g_return_if_fail (WINNOW_IS_SESSION (self));
  g_return_if_fail (delta >= 0);

  if (self->engine == NULL)
    return;
  winnow_session_pause (self);
  leave_hit (self);
  wn_scheduler_step_by (wn_engine_get_scheduler (self->engine), delta);
  text = wn_duration_format (delta);
  /* journal data: not translated */
  action = g_strdup_printf ("by %s", text);
  wn_engine_note_clock (self->engine, WN_PH_STEPPED, action);
  self->snapshots_dirty = TRUE;
  self->instances_dirty = TRUE;
  request_flush (self);
}

WnTime
winnow_session_get_now (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), 0);
  return self->engine ? wn_engine_now (self->engine) : 0;
}

WnTime
winnow_session_get_next_time (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), WN_TIME_NEVER);
  return self->engine ? wn_scheduler_get_next_time (wn_engine_get_scheduler (self->engine)) : WN_TIME_NEVER;
}

void
winnow_session_set_batch (WinnowSession *self,
                          guint          actions)
{
  g_return_if_fail (WINNOW_IS_SESSION (self));

  self->batch = MAX (actions, 1);
  self->fixed_batch = TRUE;
  if (self->engine != NULL)
    wn_scheduler_set_batch (wn_engine_get_scheduler (self->engine), self->batch);
}

void
winnow_session_set_trust_default (WinnowSession *self,
                                  WnTrust        trust)
{
  g_return_if_fail (WINNOW_IS_SESSION (self));
  g_return_if_fail (trust == WN_TRUST_WORKER_TRUSTED || trust == WN_TRUST_ENGINE_AUTHORITATIVE);

  if (self->engine != NULL)
    wn_engine_set_trust_default (self->engine, trust);
}

WnTrust
winnow_session_get_trust_default (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), WN_TRUST_UNSET);
  return self->engine ? wn_engine_get_trust_default (self->engine) : WN_TRUST_UNSET;
}

static gboolean
after_command (WinnowSession *self,
               gboolean       ok)
{
  self->snapshots_dirty = TRUE;
  self->instances_dirty = TRUE;
  request_flush (self);
  return ok;
}

static gboolean
check_loaded (WinnowSession  *self,
              GError        **error)
{
  if (self->engine != NULL)
    return TRUE;
  g_set_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_INVALID, _("No process is loaded"));
  return FALSE;
}

gboolean
winnow_session_set_task_trust (WinnowSession  *self,
                               const char     *node,
                               WnTrust         trust,
                               GError        **error)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);

  return check_loaded (self, error) && wn_engine_set_task_trust (self->engine, node, trust, error);
}

gboolean
winnow_session_inject (WinnowSession  *self,
                       const char     *topic,
                       const char     *worker,
                       WnResponse     *response,
                       GError        **error)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);

  if (!check_loaded (self, error))
    return FALSE;
  return after_command (self, wn_engine_inject (self->engine, topic, worker, response, error));
}

const char *
winnow_session_start_instance (WinnowSession  *self,
                               JsonObject     *variables,
                               GError        **error)
{
  const char *id;

  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);

  if (!check_loaded (self, error))
    return NULL;
  id = wn_engine_start_instance (self->engine, variables, error);
  after_command (self, id != NULL);
  return id;
}

GListModel *
winnow_session_get_events (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  return G_LIST_MODEL (self->events);
}

GListModel *
winnow_session_get_jobs (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  return G_LIST_MODEL (self->jobs);
}

GListModel *
winnow_session_get_tracks (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  return G_LIST_MODEL (self->tracks);
}

GListModel *
winnow_session_get_instances (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  return G_LIST_MODEL (self->instances);
}

WinnowJobRow *
winnow_session_lookup_job (WinnowSession *self,
                           const char    *id)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  return id ? g_hash_table_lookup (self->job_index, id) : NULL;
}

guint64
winnow_session_get_n_dropped (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), 0);
  return winnow_event_log_get_n_dropped (self->events);
}

WinnowNodeCounts
winnow_session_get_node_counts (WinnowSession *self,
                                const char    *node)
{
  WinnowNodeCounts none = { 0, 0, 0 };
  const WnNode *n;

  g_return_val_if_fail (WINNOW_IS_SESSION (self), none);

  if (self->process == NULL || self->counts == NULL || node == NULL)
    return none;
  n = wn_process_find_node (self->process, node);
  return n ? self->counts[n->index] : none;
}

guint
winnow_session_get_n_terminated (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), 0);
  return self->n_terminated;
}

guint
winnow_session_get_n_incidents (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), 0);
  return self->n_incidents;
}

guint
winnow_session_get_n_rejected (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), 0);
  return self->n_rejected;
}

static gboolean
snapshots_wanted (WinnowSession *self)
{
  return self->snapshots_dirty || self->rows_dirty || self->instances_dirty ||
         self->changed_instances->len > 0;
}

gboolean
winnow_session_has_pending (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);
  return self->flush_requested || winnow_event_log_has_pending (self->events) ||
         (self->engine != NULL && snapshots_wanted (self));
}

static gboolean
snapshots_due (WinnowSession *self)
{
  guint rows;

  if (!winnow_session_is_playing (self))
    return TRUE;
  /* an incremental pass costs what the journal named: every frame, so the
   * cost spreads evenly instead of piling up for the next one */
  if (!self->snapshots_dirty)
    return TRUE;
  rows = g_list_model_get_n_items (G_LIST_MODEL (self->jobs)) +
         g_list_model_get_n_items (G_LIST_MODEL (self->tracks)) +
         wn_dispatcher_get_n_jobs (wn_engine_get_dispatcher (self->engine));
  if (rows < BIG_TABLES)
    return TRUE;
  return g_get_monotonic_time () - self->last_snapshot >=
         MIN (SNAPSHOT_INTERVAL, SNAPSHOT_SPACING * self->snapshot_cost);
}

/* Returns when it finished (monotonic µs). */
static gint64
take_snapshots (WinnowSession *self,
                WnTime         now)
{
  gint64 started = g_get_monotonic_time ();

  if (self->snapshots_dirty)
    {
      clear_marks (self);   /* the full pass sees them all */
      self->generation++;
      refresh_jobs (self, now);
      refresh_tracks (self, now);
      self->snapshots_dirty = FALSE;
    }
  else if (self->rows_dirty)
    {
      refresh_tracks_incremental (self, now);   /* first: it can name jobs */
      refresh_jobs_incremental (self, now);
    }
  self->rows_dirty = FALSE;
  if (self->instances_dirty || self->changed_instances->len > 0)
    {
      refresh_instances (self, self->instances_dirty);
      self->instances_dirty = FALSE;
    }
  self->last_snapshot = g_get_monotonic_time ();
  self->snapshot_cost = self->last_snapshot - started;
  return self->last_snapshot;
}

void
winnow_session_flush (WinnowSession *self)
{
  guint alert_counts[WINNOW_ALERT_FINISHED];
  guint alert_first[WINNOW_ALERT_FINISHED];
  gboolean had_events;
  guint n_events;
  gint64 started, events_done, snapshots_done = 0;
  WnTime now;

  g_return_if_fail (WINNOW_IS_SESSION (self));

  self->flush_requested = FALSE;
  if (self->engine == NULL)
    return;
  now = wn_engine_now (self->engine);
  started = g_get_monotonic_time ();

  /* 1. the journal: what arrived since the last frame, in one items-changed */
  n_events = winnow_event_log_sync (self->events);
  had_events = n_events > 0;
  memcpy (alert_counts, self->alert_counts, sizeof alert_counts);
  memcpy (alert_first, self->alert_first, sizeof alert_first);
  memset (self->alert_counts, 0, sizeof self->alert_counts);

  events_done = g_get_monotonic_time ();

  /* 2. snapshots of what is now: jobs, tracks (and the badges), instances */
  if (had_events)
    {
      /* while the clock runs, the journal says what changed */
      if (winnow_session_is_playing (self))
        self->rows_dirty = TRUE;
      else
        self->snapshots_dirty = TRUE;
    }
  if (snapshots_wanted (self) && snapshots_due (self))
    snapshots_done = take_snapshots (self, now);

  /* 3. a breakpoint that stopped the clock */
  check_hit (self);

  /* 4. a run that has nothing left to do stops the clock */
  if (winnow_session_is_playing (self) && wn_scheduler_get_n_pending (wn_engine_get_scheduler (self->engine)) == 0)
    {
      /* the tables show where the run ended before the clock stops (and a
       * stopped table shows every row) */
      if (snapshots_wanted (self))
        take_snapshots (self, now);
      winnow_session_pause (self);
      g_signal_emit (self, signals[ALERT], 0, WINNOW_ALERT_FINISHED, 0, NULL);
      /* the pause queued a clock event: apply it on the next frame */
    }

  for (guint i = 0; i < G_N_ELEMENTS (alert_counts); i++)
    if (alert_counts[i] > 0)
      {
        g_autoptr(WinnowEventRow) first =
          winnow_event_row_new_for_journal (winnow_event_log_get_journal (self->events), alert_first[i]);

        g_signal_emit (self, signals[ALERT], 0, (int) i, alert_counts[i], first);
      }

  g_signal_emit (self, signals[FLUSHED], 0);
  g_debug ("flush: %u events in %" G_GINT64_FORMAT " µs, snapshots %" G_GINT64_FORMAT
           " µs, views %" G_GINT64_FORMAT " µs",
           n_events, events_done - started, snapshots_done ? snapshots_done - events_done : 0,
           g_get_monotonic_time () - MAX (events_done, snapshots_done));
}

const char *
winnow_session_get_selected_node (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  return self->selected_node;
}

void
winnow_session_set_selected_node (WinnowSession *self,
                                  const char    *node)
{
  g_return_if_fail (WINNOW_IS_SESSION (self));

  if (node != NULL && *node == '\0')
    node = NULL;
  if (g_strcmp0 (self->selected_node, node) == 0)
    return;
  g_free (self->selected_node);
  self->selected_node = g_strdup (node);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_NODE]);
}

const char *
winnow_session_get_selected_job (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  return self->selected_job;
}

void
winnow_session_set_selected_job (WinnowSession *self,
                                 const char    *job)
{
  g_return_if_fail (WINNOW_IS_SESSION (self));

  if (job != NULL && *job == '\0')
    job = NULL;
  if (g_strcmp0 (self->selected_job, job) == 0)
    return;
  g_free (self->selected_job);
  self->selected_job = g_strdup (job);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_JOB]);
}

WinnowTrace *
winnow_session_get_trace (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  return self->trace;
}

char *
winnow_session_get_journal_text (WinnowSession *self,
                                 gsize         *length)
{
  WinnowJournal *journal;
  GString *text;

  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);

  journal = winnow_event_log_get_journal (self->events);
  text = g_string_new (NULL);
  winnow_journal_append_json (journal, 0, winnow_journal_get_n_events (journal), text);
  if (length != NULL)
    *length = text->len;
  return g_string_free (text, FALSE);
}

char *
winnow_session_export_session (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);

  if (self->engine == NULL)
    return NULL;
  return wn_engine_export_session (self->engine);
}

gboolean
winnow_session_load_scenario (WinnowSession  *self,
                              GFile          *file,
                              GPtrArray     **diagnostics,
                              GError        **error)
{
  g_autofree char *path = NULL;
  g_autoptr(WnScenario) scenario = NULL;
  g_autoptr(WnProcess) process = NULL;
  g_autoptr(GFile) process_file = NULL;

  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  if (self->process == NULL)
    {
      g_set_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_INVALID, _("Open a process first"));
      return FALSE;
    }
  path = g_file_get_path (file);
  if (path == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, _("Only local files can be opened"));
      return FALSE;
    }
  scenario = wn_load_scenario_file (path, diagnostics, error);
  if (scenario == NULL)
    return FALSE;
  /* a saved session carries its own overrides: the run takes none of ours */
  process = wn_process_ref (self->process);
  process_file = self->file ? g_object_ref (self->file) : NULL;
  winnow_session_set_process (self, process, scenario, NULL, process_file);
  return TRUE;
}

char *
winnow_breakpoint_to_spec (const WinnowBreakpoint *bp)
{
  g_return_val_if_fail (bp != NULL, NULL);

  if (bp->node != NULL)
    return g_strdup_printf ("%s.%s@%s", wn_event_kind_to_string (bp->kind),
                            wn_event_phase_to_string (bp->phase), bp->node);
  return g_strdup_printf ("%s.%s", wn_event_kind_to_string (bp->kind), wn_event_phase_to_string (bp->phase));
}

static WinnowBreakpoint *
find_breakpoint (WinnowSession *self,
                 guint          id,
                 guint         *index)
{
  for (guint i = 0; i < self->breakpoints->len; i++)
    {
      WinnowBreakpoint *bp = &g_array_index (self->breakpoints, WinnowBreakpoint, i);

      if (bp->id == id)
        {
          if (index != NULL)
            *index = i;
          return bp;
        }
    }
  return NULL;
}

guint
winnow_session_find_breakpoint (WinnowSession *self,
                                WnEventKind    kind,
                                WnEventPhase   phase,
                                const char    *node)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), 0);

  for (guint i = 0; i < self->breakpoints->len; i++)
    {
      WinnowBreakpoint *bp = &g_array_index (self->breakpoints, WinnowBreakpoint, i);

      if (bp->kind == kind && bp->phase == phase && g_strcmp0 (bp->node, node) == 0)
        return bp->id;
    }
  return 0;
}

guint
winnow_session_add_breakpoint (WinnowSession *self,
                               WnEventKind    kind,
                               WnEventPhase   phase,
                               const char    *node)
{
  WinnowBreakpoint bp = { 0 };
  guint existing;

  g_return_val_if_fail (WINNOW_IS_SESSION (self), 0);
  g_return_val_if_fail (kind < WN_EV_N_KINDS && phase < WN_PH_N_PHASES, 0);

  if (node != NULL && *node == '\0')
    node = NULL;
  existing = winnow_session_find_breakpoint (self, kind, phase, node);
  if (existing != 0)
    {
      winnow_session_enable_breakpoint (self, existing, TRUE);
      return existing;
    }
  bp.id = ++self->next_breakpoint;
  bp.kind = kind;
  bp.phase = phase;
  bp.node = g_strdup (node);
  bp.enabled = TRUE;
  if (self->engine != NULL)
    bp.engine_id = wn_engine_add_breakpoint (self->engine, kind, phase, node);
  g_array_append_val (self->breakpoints, bp);
  g_signal_emit (self, signals[BREAKPOINTS_CHANGED], 0);
  return bp.id;
}

gboolean
winnow_session_remove_breakpoint (WinnowSession *self,
                                  guint          id)
{
  WinnowBreakpoint *bp;
  guint index;

  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);

  bp = find_breakpoint (self, id, &index);
  if (bp == NULL)
    return FALSE;
  if (self->engine != NULL && bp->engine_id != 0)
    wn_engine_remove_breakpoint (self->engine, bp->engine_id);
  g_array_remove_index (self->breakpoints, index);
  g_signal_emit (self, signals[BREAKPOINTS_CHANGED], 0);
  return TRUE;
}

gboolean
winnow_session_enable_breakpoint (WinnowSession *self,
                                  guint          id,
                                  gboolean       enabled)
{
  WinnowBreakpoint *bp;

  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);

  bp = find_breakpoint (self, id, NULL);
  if (bp == NULL)
    return FALSE;
  enabled = !!enabled;
  if (bp->enabled == enabled)
    return TRUE;
  bp->enabled = enabled;
  if (self->engine != NULL && bp->engine_id != 0)
    wn_engine_enable_breakpoint (self->engine, bp->engine_id, enabled);
  g_signal_emit (self, signals[BREAKPOINTS_CHANGED], 0);
  return TRUE;
}

const WinnowBreakpoint *
winnow_session_get_breakpoints (WinnowSession *self,
                                guint         *n_breakpoints)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  g_return_val_if_fail (n_breakpoints != NULL, NULL);

  if (self->engine != NULL)
    {
      guint n = 0;
      const WnBreakpoint *engine_bps = wn_engine_get_breakpoints (self->engine, &n);

      for (guint i = 0; i < n; i++)
        {
          WinnowBreakpoint *bp = find_breakpoint_by_engine_id (self, engine_bps[i].id);

          if (bp != NULL)
            bp->hits = engine_bps[i].hits;
        }
    }
  *n_breakpoints = self->breakpoints->len;
  return (const WinnowBreakpoint *) (gpointer) self->breakpoints->data;
}

guint
winnow_session_get_hit (WinnowSession  *self,
                        const WnEvent **event)
{
  WinnowBreakpoint *bp;
  guint hit;

  g_return_val_if_fail (WINNOW_IS_SESSION (self), 0);

  if (event != NULL)
    *event = NULL;
  if (self->engine == NULL)
    return 0;
  hit = wn_engine_get_last_hit (self->engine, event);
  bp = hit ? find_breakpoint_by_engine_id (self, hit) : NULL;
  return bp ? bp->id : 0;
}

GPtrArray *
winnow_session_get_incidents (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  return self->incidents;
}

guint
winnow_session_get_incidents_version (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), 0);
  return self->incidents_version;
}

gboolean
winnow_session_incident_retry (WinnowSession  *self,
                               const char     *instance,
                               const char     *node,
                               GError        **error)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);

  if (!check_loaded (self, error))
    return FALSE;
  return after_command (self, wn_engine_incident_retry (self->engine, instance, node, error));
}

gboolean
winnow_session_incident_resolve (WinnowSession  *self,
                                 const char     *instance,
                                 const char     *node,
                                 GError        **error)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);

  if (!check_loaded (self, error))
    return FALSE;
  return after_command (self, wn_engine_incident_resolve (self->engine, instance, node, error));
}

gboolean
winnow_session_cancel_instance (WinnowSession  *self,
                                const char     *instance,
                                GError        **error)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);

  if (!check_loaded (self, error))
    return FALSE;
  return after_command (self, wn_engine_cancel_instance (self->engine, instance, error));
}

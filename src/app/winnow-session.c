/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-session.c — one run of a process for the window: loading, the
 * engine's clock and commands, the journal as it arrives, and the once-a-frame
 * flush that brings the models (winnow-session-tables.c) up to date.
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "winnow-session-private.h"

#define DEFAULT_BATCH 250
/* At fast-forward, the engine's batches are sized to take about this long
 * (µs), measured as they run: the frame clock waits for the batch that is
 * running when a frame is due, and a batch of a fixed number of actions takes
 * from a fraction of a millisecond to tens, depending on the process and on
 * how many instances there are. */
#define DISPATCH_BUDGET 3000
#define MIN_BATCH 16
#define MAX_BATCH 65536

enum {
  PROP_0,
  PROP_LOADED,
  PROP_MODE,
  PROP_SPEED,
  PROP_SELECTED_NODE,
  PROP_SELECTED_JOB,
  PROP_BREAKPOINTS,
  N_PROPS
};

enum {
  NEEDS_FLUSH,
  FLUSHED,
  ALERT,
  RUN_CHANGED,
  BREAKPOINT_HIT,
  BREAKPOINTS_CHANGED,
  NOTICE,
  STOPPED,
  TRAVELLED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (WinnowSession, winnow_session, G_TYPE_OBJECT)

/* ---- helpers ---- */

void
_winnow_session_request_flush (WinnowSession *self)
{
  if (self->flush_requested)
    return;
  self->flush_requested = TRUE;
  g_signal_emit (self, signals[NEEDS_FLUSH], 0);
}

void
_winnow_session_update_mode (WinnowSession *self)
{
  WnClockMode mode = winnow_session_get_mode (self);

  if (mode == self->last_mode)
    return;
  self->last_mode = mode;
  _winnow_session_serve_mode_changed (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODE]);
}

void
_winnow_session_breakpoints_changed (WinnowSession *self)
{
  /* the checkpoints carry the breakpoints: made again with the new ones */
  self->checkpoint_end = G_MAXUINT64;
  _winnow_session_checkpoints_kick (self);
  g_signal_emit (self, signals[BREAKPOINTS_CHANGED], 0);
}

void
_winnow_session_notify_breakpoints (WinnowSession *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BREAKPOINTS]);
}

void
_winnow_session_stopped (WinnowSession *self,
                         const char    *why)
{
  g_signal_emit (self, signals[STOPPED], 0, why);
}

void
_winnow_session_travelled (WinnowSession *self)
{
  /* the breakpoints are the rerun's: _winnow_session_breakpoints_arm said so */
  g_signal_emit (self, signals[TRAVELLED], 0);
}

void
_winnow_session_breakpoint_hit (WinnowSession  *self,
                                guint           id,
                                WinnowEventRow *row)
{
  g_signal_emit (self, signals[BREAKPOINT_HIT], 0, id, row);
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
  WnJobInfo info;
  gboolean enqueued = FALSE;
  int alert = -1;

  _winnow_session_travel_note_event (self, event);
  /* a rerun journalling the past the models hold already */
  if (self->travel_comparing && _winnow_session_travel_compare (self, event))
    return;
  winnow_trace_add_event (self->trace, event);
  /* the job's policy, as resolved at enqueue: the job is in the store now */
  if (event->kind == WN_EV_JOB && event->phase == WN_PH_ENQUEUED && event->job != NULL &&
      wn_dispatcher_lookup (wn_engine_get_dispatcher (self->engine), event->job, &info))
    {
      winnow_trace_set_policy (self->trace, event->job, info.policy);
      enqueued = TRUE;
    }
  _winnow_session_tables_note_event (self, event, enqueued ? &info : NULL);

  if (event->kind == WN_EV_INSTANCE && event->phase == WN_PH_TERMINATED)
    alert = WINNOW_ALERT_TERMINATED;
  else if (event->kind == WN_EV_INCIDENT && event->phase == WN_PH_RAISED)
    alert = WINNOW_ALERT_INCIDENT;
  else if (event->kind == WN_EV_JOB && event->phase == WN_PH_REPORT_REJECTED)
    alert = WINNOW_ALERT_REJECTED;
  if (alert >= 0 && self->alert_counts[alert]++ == 0)
    self->alert_first[alert] = winnow_journal_get_n_events (journal);

  winnow_journal_append (journal, event);
  _winnow_session_request_flush (self);
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
  _winnow_session_update_mode (self);
  _winnow_session_request_flush (self);
}

/* The run leaves the main loop; returns it (the caller frees it). */
static WnEngine *
detach_engine (WinnowSession *self)
{
  WnScheduler *scheduler;

  if (self->engine == NULL)
    return NULL;
  _winnow_session_serve_detach (self);
  _winnow_session_drop_step (self);
  scheduler = wn_engine_get_scheduler (self->engine);
  wn_scheduler_set_notify (scheduler, NULL, NULL);
  wn_scheduler_pause (scheduler);
  wn_scheduler_detach (scheduler);
  self->scheduler_source = NULL;
  wn_journal_unsubscribe (wn_engine_get_journal (self->engine), self->journal_id);
  self->journal_id = 0;
  return g_steal_pointer (&self->engine);
}

/* The file's path, or NULL and an error: only local files can be read. */
static char *
local_path (GFile   *file,
            GError **error)
{
  char *path = g_file_get_path (file);

  if (path == NULL)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, _("Only local files can be opened"));
  return path;
}

/* Does the process (or the scenario it embeds) set the engine-wide trust? */
static gboolean
process_sets_trust (const WnProcess *process)
{
  if (process->engine.policy.trust != WN_TRUST_UNSET)
    return TRUE;
  return process->scenario != NULL && process->scenario->engine.policy.trust != WN_TRUST_UNSET;
}

/* What the session follows of a run beside its models. */
static void
reset_run_state (WinnowSession *self)
{
  _winnow_session_travel_reset (self);
  memset (self->alert_counts, 0, sizeof self->alert_counts);
  self->announced_hit = 0;
  self->resumed = FALSE;
  self->stepped = FALSE;
  self->notices_shown = 0;
  self->failure_shown = FALSE;
  self->saved_actions = 0;
}

static void
reset_models (WinnowSession *self)
{
  _winnow_session_tables_reset (self);
  reset_run_state (self);
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

/* The run's trust choices: the engine-wide trust and each service task's,
 * as the engine has them now (one entry per node; UNSET for other nodes). */
static WnTrust *
save_trust (WinnowSession *self)
{
  WnTrust *trust = g_new0 (WnTrust, self->process->n_nodes + 1);

  trust[self->process->n_nodes] = wn_engine_get_trust_default (self->engine);
  for (guint i = 0; i < self->process->n_nodes; i++)
    if (self->process->nodes[i].worker != NULL)
      trust[i] = wn_engine_get_task_trust (self->engine, self->process->nodes[i].id);
  return trust;
}

/* Give a new run the choices of the one it replaces. Each one that differs
 * from what the files say is an operator command at T+0, so a saved session
 * records it and replays it. */
static void
restore_trust (WinnowSession *self,
               const WnTrust *trust)
{
  WnTrust engine_wide = trust[self->process->n_nodes];

  if (engine_wide != WN_TRUST_UNSET && engine_wide != wn_engine_get_trust_default (self->engine))
    wn_engine_set_trust_default (self->engine, engine_wide);
  for (guint i = 0; i < self->process->n_nodes; i++)
    {
      const char *id = self->process->nodes[i].id;

      if (self->process->nodes[i].worker != NULL && trust[i] != wn_engine_get_task_trust (self->engine, id))
        wn_engine_set_task_trust (self->engine, id, trust[i], NULL);
    }
}

gboolean
_winnow_session_swap_engine (WinnowSession  *self,
                             WnEngine       *engine,
                             WnEngine      **previous)
{
  *previous = detach_engine (self);
  reset_models (self);
  _winnow_session_checkpoints_clear (self);
  self->engine = engine;
  self->counts = g_new0 (WinnowNodeCounts, self->process->n_nodes);
  attach_engine (self);
  _winnow_session_serve_attach (self);
  /* breakpoints outlive runs: the same ones stop the new run */
  return _winnow_session_breakpoints_arm (self, *previous);
}

/* A replaced run of this many nodes or more is freed off the GTK thread. */
#define FREE_ELSEWHERE_NODES 10000

typedef struct {
  WnEngine  *engine;
  WnProcess *process;
} Replaced;

static gpointer
free_replaced_thread (gpointer data)
{
  Replaced *replaced = data;

  g_clear_pointer (&replaced->engine, wn_engine_free);
  g_clear_pointer (&replaced->process, wn_process_unref);
  g_free (replaced);
  return NULL;
}

/* The run a new one replaced (`engine` detached from the main context,
 * `process` the session's reference, both taken; either may be NULL),
 * once the views have let go of it: a big one freed on a thread of its
 * own (a 250 000-node chain takes a while), which alone touches them from
 * then on (a view that still holds the process drops the last reference
 * later, on the GTK thread). */
static void
free_replaced (WnEngine  *engine,
               WnProcess *process)
{
  const WnProcess *of = process != NULL ? process : engine != NULL ? wn_engine_get_process (engine) : NULL;
  Replaced *replaced;

  if (of == NULL || of->n_nodes < FREE_ELSEWHERE_NODES)
    {
      g_clear_pointer (&engine, wn_engine_free);
      g_clear_pointer (&process, wn_process_unref);
      return;
    }
  replaced = g_new0 (Replaced, 1);
  replaced->engine = engine;
  replaced->process = process;
  g_thread_unref (g_thread_new ("winnow: free a run", free_replaced_thread, replaced));
}

WnEngine *
_winnow_session_swap_rerun (WinnowSession *self,
                            WnEngine      *engine,
                            gboolean      *dropped)
{
  WnEngine *previous = detach_engine (self);

  /* the models stay: the rerun's journal is compared with theirs */
  reset_run_state (self);
  self->engine = engine;
  attach_engine (self);
  _winnow_session_serve_attach (self);
  *dropped = _winnow_session_breakpoints_arm (self, previous);
  return previous;
}

/* `keep_trust`: the new run keeps the current run's trust choices (Restart).
 * `engine` (taken): the run, built ahead off the GTK thread; NULL: built here.
 * `replaced` (taken): the process self->process replaced, or NULL. */
static void
start_engine (WinnowSession *self,
              gboolean       keep_trust,
              WnEngine      *engine,
              WnProcess     *replaced)
{
  WnEngine *previous = NULL;
  g_autofree WnTrust *trust = keep_trust && self->engine != NULL ? save_trust (self) : NULL;
  g_auto(GStrv) topics_off = keep_trust && self->engine != NULL ? _winnow_session_topics_off (self) : NULL;
  gboolean dropped = FALSE;

  if (engine == NULL)
    engine = wn_engine_new (self->process, self->scenario, &self->options);
  dropped = _winnow_session_swap_engine (self, engine, &previous);
  _winnow_session_branches_reset (self);
  if (trust != NULL)
    restore_trust (self, trust);
  _winnow_session_topics_restore (self, topics_off);
  self->snapshots_dirty = TRUE;
  self->instances_dirty = TRUE;
  self->last_mode = WN_CLOCK_PAUSED;
  winnow_session_flush (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADED]);
  if (dropped)
    _winnow_session_breakpoints_changed (self);
  g_signal_emit (self, signals[RUN_CHANGED], 0);
  free_replaced (previous, replaced);
}

/* ---- GObject ---- */

static void
winnow_session_dispose (GObject *object)
{
  WinnowSession *self = WINNOW_SESSION (object);
  WnEngine *engine = detach_engine (self);

  _winnow_session_checkpoints_free (self);
  if (engine != NULL)
    wn_engine_free (engine);
  if (self->events != NULL)
    reset_models (self);

  G_OBJECT_CLASS (winnow_session_parent_class)->dispose (object);
}

static void
winnow_session_finalize (GObject *object)
{
  WinnowSession *self = WINNOW_SESSION (object);

  g_clear_object (&self->file);
  g_clear_pointer (&self->process_id, g_free);
  g_clear_pointer (&self->process_json, g_free);
  g_clear_pointer (&self->process, wn_process_unref);
  g_clear_pointer (&self->scenario, wn_scenario_unref);
  _winnow_session_tables_finalize (self);
  g_clear_pointer (&self->selected_node, g_free);
  g_clear_pointer (&self->selected_job, g_free);
  g_clear_pointer (&self->trace, winnow_trace_unref);
  _winnow_session_breakpoints_finalize (self);
  g_clear_pointer (&self->serve_address, g_free);
  g_clear_pointer (&self->branches, g_ptr_array_unref);

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
      g_value_set_enum (value, winnow_session_get_mode (self));
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
    case PROP_BREAKPOINTS:
      g_value_set_object (value, self->breakpoints);
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
    g_param_spec_enum ("mode", NULL, NULL, WN_TYPE_CLOCK_MODE, WN_CLOCK_PAUSED,
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
  /* the run's breakpoints (winnow_session_get_breakpoints()) */
  properties[PROP_BREAKPOINTS] =
    g_param_spec_object ("breakpoints", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
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
  /* The engine noticed something that is no journal event (a saved command
   * that could not apply): (the text, in English like the journal) */
  signals[NOTICE] = g_signal_new ("notice", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  /* The clock stopped without the operator asking, and not at a breakpoint:
   * the engine stopped the run (wn_engine_get_failure(), in English), or a
   * step ran out of its budget (translated): (the text to show) */
  signals[STOPPED] = g_signal_new ("stopped", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  /* The run went to another point of its record: a rerun replaced the
   * engine (winnow-session-travel.c); the models show that point. */
  signals[TRAVELLED] = g_signal_new ("travelled", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                     0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* A branch began, or another became the current one (winnow-session-branches.c). */
  g_signal_new ("branches-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                0, NULL, NULL, NULL, G_TYPE_NONE, 0);
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
  _winnow_session_tables_init (self);
  self->trace = winnow_trace_new ();
  _winnow_session_breakpoints_init (self);
  self->branches = g_ptr_array_new_with_free_func (_winnow_session_branch_free);
  _winnow_session_checkpoints_init (self);
}

/* ---- public API ---- */

WinnowSession *
winnow_session_new (void)
{
  return g_object_new (WINNOW_TYPE_SESSION, NULL);
}

static void set_process (WinnowSession *self, WnProcess *process, WnScenario *scenario,
                         const WnEngineOptions *options, GFile *file, const char *process_id, char *json,
                         WnEngine *engine);

gboolean
winnow_session_load_file (WinnowSession          *self,
                          GFile                  *file,
                          const WnEngineOptions  *options,
                          GPtrArray             **diagnostics,
                          GError                **error)
{
  return winnow_session_load_bpmn_process (self, file, NULL, options, diagnostics, error);
}

gboolean
winnow_session_load_bpmn_process (WinnowSession          *self,
                                  GFile                  *file,
                                  const char             *process_id,
                                  const WnEngineOptions  *options,
                                  GPtrArray             **diagnostics,
                                  GError                **error)
{
  g_autofree char *path = NULL;
  g_autofree char *json = NULL;
  g_autoptr(WnProcess) process = NULL;
  WnEngineOptions run = { 0 };

  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  path = local_path (file, error);
  if (path == NULL)
    return FALSE;
  process = wn_load_process_or_bpmn_file_with_flags (path, 0, process_id, self->import_flags, &json, diagnostics,
                                                     error);
  if (process == NULL)
    return FALSE;
  winnow_session_run_options (process, options, &run);
  set_process (self, process, NULL, &run, file, process_id, g_steal_pointer (&json), NULL);
  return TRUE;
}

void
winnow_session_run_options (const WnProcess       *process,
                            const WnEngineOptions *options,
                            WnEngineOptions       *run)
{
  g_return_if_fail (process != NULL);
  g_return_if_fail (run != NULL);

  if (options != NULL)
    *run = *options;
  else
    memset (run, 0, sizeof *run);
  /* the trust given is a default: a process that sets its own keeps it */
  if (process_sets_trust (process))
    run->trust = WN_TRUST_UNSET;
}

void
winnow_session_open_prepared (WinnowSession         *self,
                              WnProcess             *process,
                              WnEngine              *engine,
                              const WnEngineOptions *run,
                              GFile                 *file,
                              const char            *process_id,
                              char                  *json)
{
  g_return_if_fail (WINNOW_IS_SESSION (self));
  g_return_if_fail (process != NULL);
  g_return_if_fail (engine != NULL);

  set_process (self, process, NULL, run, file, process_id, json, engine);
}

const char *
winnow_session_get_imported_json (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  return self->process_json;
}

void
winnow_session_set_bpmn_import_flags (WinnowSession     *self,
                                      WnBpmnImportFlags  flags)
{
  g_return_if_fail (WINNOW_IS_SESSION (self));

  self->import_flags = flags;
}

const char *
winnow_session_get_bpmn_process_id (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  return self->process_id;
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

  set_process (self, process, scenario, options, file, NULL, NULL, NULL);
}

/* `json` (taken): the BPMN import's winnow.process/1 document, or NULL;
 * `engine` (taken): the run built ahead, or NULL. */
static void
set_process (WinnowSession         *self,
             WnProcess             *process,
             WnScenario            *scenario,
             const WnEngineOptions *options,
             GFile                 *file,
             const char            *process_id,
             char                  *json,
             WnEngine              *engine)
{
  char *id = g_strdup (process_id);   /* it may be self->process_id */
  WnProcess *replaced;

  g_free (self->process_id);
  self->process_id = id;
  g_free (self->process_json);
  self->process_json = json;

  replaced = g_steal_pointer (&self->process);
  self->process = wn_process_ref (process);
  if (scenario != NULL)
    wn_scenario_ref (scenario);
  g_clear_pointer (&self->scenario, wn_scenario_unref);
  self->scenario = scenario;
  if (options != NULL)
    self->options = *options;
  else
    memset (&self->options, 0, sizeof self->options);
  g_set_object (&self->file, file);

  start_engine (self, FALSE, engine, replaced);
}

void
winnow_session_restart (WinnowSession *self)
{
  g_return_if_fail (WINNOW_IS_SESSION (self));

  if (self->process == NULL)
    return;
  start_engine (self, TRUE, NULL, NULL);
}

/* The end of a reload: `process`, `scenario` (NULL: the current one stays)
 * and `json` (all taken) replace the run's, the file, its options and the
 * breakpoints stay; `engine` (taken): the run built ahead, or NULL. */
static void
replace_reloaded (WinnowSession *self,
                  WnProcess     *process,
                  WnScenario    *scenario,
                  char          *json,
                  WnEngine      *engine)
{
  WnProcess *replaced = g_steal_pointer (&self->process);

  self->process = process;
  g_free (self->process_json);
  self->process_json = json;
  if (scenario != NULL)
    {
      g_clear_pointer (&self->scenario, wn_scenario_unref);
      self->scenario = scenario;
    }
  start_engine (self, FALSE, engine, replaced);
}

gboolean
winnow_session_reload (WinnowSession  *self,
                       GPtrArray     **diagnostics,
                       GError        **error)
{
  g_autofree char *path = NULL;
  g_autoptr(WnProcess) process = NULL;
  g_autoptr(WnScenario) scenario = NULL;
  g_autofree char *json = NULL;

  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);

  if (self->file == NULL || (path = g_file_get_path (self->file)) == NULL)
    {
      winnow_session_restart (self);
      return TRUE;
    }
  process = wn_load_process_or_bpmn_file_with_flags (path, 0, self->process_id, self->import_flags, &json,
                                                     diagnostics, error);
  if (process == NULL)
    return FALSE;
  if (self->scenario != NULL && self->scenario->filename != NULL)
    {
      scenario = wn_load_scenario_file (self->scenario->filename, diagnostics, error);
      if (scenario == NULL)
        return FALSE;
    }
  replace_reloaded (self, g_steal_pointer (&process), g_steal_pointer (&scenario), g_steal_pointer (&json), NULL);
  return TRUE;
}

WnBpmnImportFlags
winnow_session_get_bpmn_import_flags (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), WN_BPMN_IMPORT_DEFAULT);
  return self->import_flags;
}

void
winnow_session_reload_prepared (WinnowSession *self,
                                WnProcess     *process,
                                WnScenario    *scenario,
                                WnEngine      *engine,
                                char          *json)
{
  g_return_if_fail (WINNOW_IS_SESSION (self));
  g_return_if_fail (process != NULL);
  g_return_if_fail (engine != NULL);

  replace_reloaded (self, wn_process_ref (process), scenario != NULL ? wn_scenario_ref (scenario) : NULL, json,
                    engine);
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

WnScenario *
winnow_session_get_scenario (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  return self->scenario;
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
  return winnow_session_get_mode (self) != WN_CLOCK_PAUSED || self->stepping;
}

/* Clock commands go through the engine: it journals them and records them
 * for the saved session, so a replay journals them at the same point. */
void
winnow_session_play (WinnowSession *self)
{
  WnScheduler *scheduler;
  gboolean was_paused;

  g_return_if_fail (WINNOW_IS_SESSION (self));

  if (self->engine == NULL)
    return;
  scheduler = wn_engine_get_scheduler (self->engine);
  _winnow_session_stop_step (self);
  _winnow_session_leave_hit (self);
  was_paused = wn_scheduler_get_mode (scheduler) == WN_CLOCK_PAUSED;
  if (self->speed <= 0)
    wn_scheduler_fast_forward (scheduler);
  else
    {
      wn_scheduler_set_speed (scheduler, self->speed);
      wn_scheduler_resume (scheduler);
    }
  if (was_paused && !winnow_session_is_in_past (self))
    wn_engine_note_clock (self->engine, WN_PH_RESUMED, NULL);
  self->resumed = TRUE;
  _winnow_session_update_mode (self);
  _winnow_session_request_flush (self);
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
  _winnow_session_stop_step (self);
  if (wn_scheduler_get_mode (scheduler) == WN_CLOCK_PAUSED)
    return;
  wn_scheduler_pause (scheduler);
  if (!winnow_session_is_in_past (self))
    wn_engine_note_clock (self->engine, WN_PH_PAUSED, NULL);
  _winnow_session_update_mode (self);
  _winnow_session_request_flush (self);
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
      _winnow_session_update_mode (self);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SPEED]);
}

double
winnow_session_get_speed (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), 1.0);
  return self->speed;
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

  if (self->engine == NULL)
    return;
  wn_engine_set_trust_default (self->engine, trust);
  /* the views show the run's trust: they catch up on the next flush */
  _winnow_session_request_flush (self);
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
  _winnow_session_request_flush (self);
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
  return check_loaded (self, error) && after_command (self, wn_engine_inject (self->engine, topic, worker, response, error));
}

GPtrArray *
winnow_session_get_injections (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  return self->engine ? wn_engine_get_injections (self->engine) : NULL;
}

gboolean
winnow_session_cancel_injection (WinnowSession  *self,
                                 guint           id,
                                 GError        **error)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);
  return check_loaded (self, error) && after_command (self, wn_engine_cancel_injection (self->engine, id, error));
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




gboolean
winnow_session_has_pending (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);
  return self->flush_requested || self->stepping || winnow_event_log_has_pending (self->events) ||
         (self->engine != NULL && _winnow_session_snapshots_wanted (self));
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
  /* a command in the past started a branch */
  _winnow_session_branches_check (self);
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
  if (_winnow_session_snapshots_wanted (self) && _winnow_session_snapshots_due (self))
    snapshots_done = _winnow_session_take_snapshots (self, now);

  /* 3. a breakpoint that stopped the clock */
  _winnow_session_check_hit (self);

  /* 4. a run that has nothing left to do stops the clock, and says so: played
   * or stepped to its end */
  if ((winnow_session_is_playing (self) || self->stepped) &&
      wn_scheduler_get_n_pending (wn_engine_get_scheduler (self->engine)) == 0)
    {
      /* the tables show where the run ended before the clock stops (and a
       * stopped table shows every row) */
      if (_winnow_session_snapshots_wanted (self))
        _winnow_session_take_snapshots (self, now);
      winnow_session_pause (self);
      g_signal_emit (self, signals[ALERT], 0, WINNOW_ALERT_FINISHED, 0, NULL);
      /* the pause queued a clock event: apply it on the next frame */
    }
  self->stepped = FALSE;

  /* 5. what the engine noticed beside the journal, and why it stopped the
   * run by itself */
  if (!self->failure_shown && wn_engine_get_failure (self->engine) != NULL)
    {
      self->failure_shown = TRUE;
      _winnow_session_stopped (self, wn_engine_get_failure (self->engine));
    }
  {
    GPtrArray *notices = wn_engine_get_notices (self->engine);

    for (; self->notices_shown < notices->len; self->notices_shown++)
      g_signal_emit (self, signals[NOTICE], 0, (const char *) g_ptr_array_index (notices, self->notices_shown));
  }

  for (guint i = 0; i < G_N_ELEMENTS (alert_counts); i++)
    if (alert_counts[i] > 0)
      {
        g_autoptr(WinnowEventRow) first =
          winnow_event_row_new_for_journal (winnow_event_log_get_journal (self->events), alert_first[i]);

        g_signal_emit (self, signals[ALERT], 0, (int) i, alert_counts[i], first);
      }

  /* the run grew: checkpoints over the new part, when the loop is idle */
  _winnow_session_checkpoints_kick (self);
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

/* A selection (an empty id selects nothing) set to `id`, notified if it changed. */
static void
set_selection (WinnowSession  *self,
               char          **field,
               const char     *id,
               guint           prop)
{
  if (id != NULL && *id == '\0')
    id = NULL;
  if (g_strcmp0 (*field, id) == 0)
    return;
  g_free (*field);
  *field = g_strdup (id);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

void
winnow_session_set_selected_node (WinnowSession *self,
                                  const char    *node)
{
  g_return_if_fail (WINNOW_IS_SESSION (self));
  set_selection (self, &self->selected_node, node, PROP_SELECTED_NODE);
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
  set_selection (self, &self->selected_job, job, PROP_SELECTED_JOB);
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
  path = local_path (file, error);
  if (path == NULL)
    return FALSE;
  scenario = wn_load_scenario_file (path, diagnostics, error);
  if (scenario == NULL)
    return FALSE;
  /* a saved session carries its own overrides: the run takes none of ours */
  process = wn_process_ref (self->process);
  process_file = self->file ? g_object_ref (self->file) : NULL;
  /* the same process: a BPMN one keeps its import */
  set_process (self, process, scenario, NULL, process_file, self->process_id, g_strdup (self->process_json),
               NULL);
  /* where it was saved: its breakpoints, and the run to its position */
  _winnow_session_restore_state (self);
  return TRUE;
}

gboolean
winnow_session_incident_retry (WinnowSession  *self,
                               const char     *instance,
                               const char     *node,
                               GError        **error)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);
  return check_loaded (self, error) && after_command (self, wn_engine_incident_retry (self->engine, instance, node, error));
}

gboolean
winnow_session_incident_resolve (WinnowSession  *self,
                                 const char     *instance,
                                 const char     *node,
                                 GError        **error)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);
  return check_loaded (self, error) && after_command (self, wn_engine_incident_resolve (self->engine, instance, node, error));
}

gboolean
winnow_session_complete_user_task (WinnowSession  *self,
                                   const char     *instance,
                                   const char     *node,
                                   JsonObject     *variables,
                                   GError        **error)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);
  return check_loaded (self, error) &&
         after_command (self, wn_engine_complete_user_task (self->engine, instance, node, variables, error));
}

gboolean
winnow_session_throw_user_task_error (WinnowSession  *self,
                                      const char     *instance,
                                      const char     *node,
                                      const char     *code,
                                      const char     *message,
                                      GError        **error)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);
  return check_loaded (self, error) &&
         after_command (self, wn_engine_throw_user_task_error (self->engine, instance, node, code, message, error));
}

gboolean
winnow_session_correlate_message (WinnowSession  *self,
                                  const char     *instance,
                                  const char     *name,
                                  JsonNode       *key,
                                  JsonObject     *variables,
                                  GError        **error)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);
  return check_loaded (self, error) &&
         after_command (self, wn_engine_correlate_message_to (self->engine, instance, name, key, variables, error));
}

gboolean
winnow_session_cancel_instance (WinnowSession  *self,
                                const char     *instance,
                                GError        **error)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);
  return check_loaded (self, error) && after_command (self, wn_engine_cancel_instance (self->engine, instance, error));
}

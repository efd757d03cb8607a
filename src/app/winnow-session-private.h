/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-session-private.h — what the session's files share: its struct and
 * the calls between them. winnow-session.c loads, runs the clock and takes
 * commands; winnow-session-tables.c keeps the models the views show;
 * winnow-session-breakpoints.c the breakpoints and the stops at them. */
#pragma once

#include "winnow-session.h"
#include "winnow-event-log.h"
#include "winnow-event-row.h"
#include "winnow-instance-row.h"
#include "winnow-row-list.h"
#include "winnow-trace.h"

G_BEGIN_DECLS

struct _WinnowSession
{
  GObject          parent_instance;

  GFile           *file;
  char            *process_id;      /* BPMN: the process chosen of several, or NULL */
  WnBpmnImportFlags import_flags;   /* BPMN: how conditions outside the subset are imported */
  char            *process_json;    /* BPMN: the import as winnow.process/1, or NULL (a JSON file) */
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

  char            *selected_node;
  char            *selected_job;

  WinnowTrace     *trace;           /* every job's history, fed as events come */
  /* alerts since the last flush: how many, and the first one's journal index */
  guint            alert_counts[WINNOW_ALERT_FINISHED];
  guint            alert_first[WINNOW_ALERT_FINISHED];
  GListModel      *breakpoints;     /* the engine's (WnBreakpointItem), or an empty one */
  guint            announced_hit;   /* the engine's hit already reported, or 0 */
  gboolean         resumed;         /* the operator's play is in effect */
  gboolean         stepped;         /* a step ran since the last flush: it may have ended the run */
  guint            notices_shown;   /* of the engine's notices, those said (the notice signal) */
  gboolean         failure_shown;   /* the engine's failure was said (the stopped signal) */
  /* a step under way, in slices (winnow-session-step.c) */
  gboolean         stepping;
  guint            step_id;         /* the idle source of its next slice */
  WnTime           step_target;
  gboolean         step_by;         /* F11 (by step_delta), else F10 */
  WnTime           step_delta;
  gboolean         step_may_end;    /* something was pending when it began */
  guint64          step_start;      /* actions run when this go at the step began */
  WnStopReason     step_reason;     /* why its last slice stopped */
  guint64          step_after;      /* > 0: it runs to a saved position, that many actions in all */
  guint            saved_actions;   /* the operator's actions when last saved (winnow-session-state.c) */
  GPtrArray       *incidents;       /* WinnowIncident*, open ones */
  GPtrArray       *incidents_next;  /* collected from the listed tracks (collect_incidents) */
  guint            incidents_version;

  /* outside workers (winnow-session-serve.c) */
  WnRestServer    *server;          /* NULL: not serving */
  char            *serve_address;   /* kept across runs */
  WnTimerId        keep_moving;

  /* time travel (winnow-session-travel.c): the steps the journal came in */
  WnSteps          travel_steps;
  guint64          travel_end;       /* the furthest event the run reached */
  gboolean         travel_busy;      /* a rerun is journalling its past */
  /* A rerun's events are compared with those the models hold (the run's
   * journal, its trace) instead of being fed to them again: while they are
   * the same, only the steps are followed; at the first that differs (another
   * branch) or once the rerun stops, the models are cut back to what it
   * journalled, and the rows are snapshot from its engine. */
  gboolean         travel_rebuilds;  /* winnow_session_set_travel_rebuilds() */
  gboolean         travel_comparing;
  gboolean         travel_same_record; /* the rerun replays the run's own record: the same events, by determinism */
  guint            travel_compared;  /* events of the models the rerun journalled again */
  gboolean         snapshots_exact;  /* the next full pass lists every table in the engine's order */
  char            *travel_match_job; /* run to: the next event of this job … */
  int              travel_match_kind;/* … or of this kind (-1: any) … */
  int              travel_match_phase;/* … and phase (-1: any) */
  gboolean         travel_matching;  /* a run to is looking */
  gboolean         travel_matched;
  gint64           travel_cost;      /* µs the last travel took */
  guint64          travel_start;     /* the events the last travel's rerun started after (0: T+0) */
  /* reruns left standing at earlier points, filled on the main loop's idle */
  WnCheckpoints   *checkpoints;      /* NULL: none are kept */
  guint            checkpoint_id;    /* the idle source filling them */
  guint64          checkpoint_end;   /* the run's end when they were last complete (G_MAXUINT64: look again) */
  GPtrArray       *branches;         /* WinnowBranch*; empty until the first fork */
  guint            branch;           /* the current one */
};

/* winnow-session.c */
void  _winnow_session_request_flush       (WinnowSession   *self);
void  _winnow_session_update_mode         (WinnowSession   *self);
void  _winnow_session_breakpoints_changed (WinnowSession   *self);
void  _winnow_session_notify_breakpoints  (WinnowSession   *self);
void  _winnow_session_breakpoint_hit      (WinnowSession   *self,
                                           guint            id,
                                           WinnowEventRow  *row);
/* The clock stopped without the operator asking: say why (the stopped signal). */
void  _winnow_session_stopped             (WinnowSession   *self,
                                           const char      *why);

/* winnow-session-step.c */
/* End the step under way, if any, where it is (Pause, Play, a new step). */
void  _winnow_session_stop_step           (WinnowSession   *self);
/* Drop a step under way without a word: its engine goes. */
void  _winnow_session_drop_step           (WinnowSession   *self);
/* Run, in slices, until `after` actions have run in all, then stand the
 * clock at `at`: a saved session's position. */
void  _winnow_session_run_to              (WinnowSession   *self,
                                           guint64          after,
                                           WnTime           at);

/* winnow-session-state.c */
/* A saved session was loaded: its breakpoints again, and to its position. */
void  _winnow_session_restore_state       (WinnowSession   *self);
/* The position is reached: what the operator did so far is saved. */
void  _winnow_session_state_restored      (WinnowSession   *self);

/* Make `engine` the run the models show (the old one detached and given
 * back in *previous, the models emptied, the breakpoints armed): TRUE
 * when a breakpoint was dropped. */
/* A travel ended: the views that keep the engine take the new one. */
void     _winnow_session_travelled        (WinnowSession   *self);
gboolean _winnow_session_swap_engine      (WinnowSession   *self,
                                           WnEngine        *engine,
                                           WnEngine       **previous);
/* Make the rerun `engine` the run, the models kept as they are (a travel):
 * returns the old run (the caller frees it), *dropped as the TRUE above. */
WnEngine *_winnow_session_swap_rerun      (WinnowSession   *self,
                                           WnEngine        *engine,
                                           gboolean        *dropped);

/* winnow-session-travel.c */
void     _winnow_session_travel_reset     (WinnowSession   *self);
/* The checkpoints: filled when the main loop is idle (the run grew, a travel
 * took one, the breakpoints changed), dropped for a new run, freed. */
void     _winnow_session_checkpoints_init (WinnowSession   *self);
void     _winnow_session_checkpoints_kick (WinnowSession   *self);
void     _winnow_session_checkpoints_clear (WinnowSession  *self);
void     _winnow_session_checkpoints_free (WinnowSession   *self);
void     _winnow_session_travel_note_event (WinnowSession  *self,
                                            const WnEvent  *event);
/* F10 in the past: the record's next event. */
gboolean _winnow_session_travel_step_forward (WinnowSession *self);
/* The clock moved in the past without a clock command: the views catch up. */
void     _winnow_session_travel_moved     (WinnowSession   *self);
/* A rerun's event while comparing: TRUE when the models hold it already
 * (the models are cut back at the first one they do not). */
gboolean _winnow_session_travel_compare   (WinnowSession   *self,
                                           const WnEvent   *event);
/* A rerun of the record to where the run stands: what is left of the
 * record becomes its future (a saved session reopened in the past). */
void     _winnow_session_travel_rerun_here (WinnowSession  *self);
/* Rerun `record` to right after event `end` (another branch). */
void     _winnow_session_travel_to_record (WinnowSession   *self,
                                           GPtrArray       *record,
                                           guint64          end);

/* winnow-session-branches.c */
void     _winnow_session_branch_free      (gpointer         branch);
void     _winnow_session_branches_reset   (WinnowSession   *self);
/* The engine dropped a future: keep it as the parent branch. */
void     _winnow_session_branches_check   (WinnowSession   *self);
/* Into a saved session's "x-winnow" block: the shown branch's whole record
 * as its "commands" (its future too, in the past), and every branch under
 * "branches" (when there are any). */
void     _winnow_session_branches_save    (WinnowSession   *self,
                                           JsonObject      *xw);
/* A saved session was loaded: its branches again, the shown one current. */
void     _winnow_session_branches_restore (WinnowSession   *self);

/* winnow-session-tables.c */
void     _winnow_session_tables_init      (WinnowSession   *self);
void     _winnow_session_tables_finalize  (WinnowSession   *self);
/* Empty every model (the journal's, the trace's) for a new run. */
void     _winnow_session_tables_reset     (WinnowSession   *self);
/* An event as the engine journals it: rows are made for what it announces
 * (`enqueued`: the job an enqueue event put in the store, looked up), and
 * what it names is marked for the next incremental snapshot. */
void     _winnow_session_tables_note_event (WinnowSession  *self,
                                            const WnEvent  *event,
                                            const WnJobInfo *enqueued);
gboolean _winnow_session_snapshots_wanted (WinnowSession   *self);
gboolean _winnow_session_snapshots_due    (WinnowSession   *self);
/* Returns when it finished (monotonic µs). */
gint64   _winnow_session_take_snapshots   (WinnowSession   *self,
                                           WnTime           now);

/* winnow-session-breakpoints.c */
void     _winnow_session_breakpoints_init (WinnowSession   *self);
void     _winnow_session_breakpoints_finalize (WinnowSession *self);
/* The new run (self->engine) gets the breakpoints of `previous` (NULL: none),
 * but those on a node its process does not have (TRUE when any was left out). */
gboolean _winnow_session_breakpoints_arm  (WinnowSession   *self,
                                           WnEngine        *previous);
/* The engine stopped the clock at a breakpoint: say so, once. */
void     _winnow_session_check_hit        (WinnowSession   *self);
/* The operator moves on: the stop is over. */
void     _winnow_session_leave_hit        (WinnowSession   *self);

/* winnow-session-serve.c */
void      _winnow_session_serve_detach       (WinnowSession *self);
void      _winnow_session_serve_attach       (WinnowSession *self);
void      _winnow_session_serve_mode_changed (WinnowSession *self);
/* Apply the next held outside call; FALSE when none waits. */
gboolean  _winnow_session_serve_step         (WinnowSession *self);
/* The topics whose simulated workers are off in this run (NULL-terminated),
 * and the same switches on the run just made (Restart keeps them). */
char          **_winnow_session_topics_off     (WinnowSession *self);
void            _winnow_session_topics_restore (WinnowSession *self, char **off);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "winnow.h"
#include "wn-rest-server.h"
#include "winnow-job-row.h"
#include "winnow-track-row.h"
#include "winnow-trace.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_SESSION (winnow_session_get_type ())
G_DECLARE_FINAL_TYPE (WinnowSession, winnow_session, WINNOW, SESSION, GObject)

/* What the "alert" signal reports: failures nobody may miss. */
typedef enum {
  WINNOW_ALERT_TERMINATED,
  WINNOW_ALERT_INCIDENT,
  WINNOW_ALERT_REJECTED,
  WINNOW_ALERT_FINISHED,
} WinnowAlert;

/* Per-node counts of live tracks, for the diagram's badges; and of the jobs
 * in the dispatcher at the node, those gated (behind notBefore) and those
 * locked (a worker holds them). */
typedef struct {
  guint active;
  guint parked;
  guint incident;
  guint gated;
  guint locked;
} WinnowNodeCounts;

/* An open incident: a track held at a task. */
typedef struct {
  char   *instance;
  char   *node;
  char   *track;
  char   *error;
  WnTime  since;
  guint   instance_number;   /* the track's id "i<n>/t<m>" as numbers */
  guint   track_number;
} WinnowIncident;

/* The events model keeps at most this many rows; older ones are dropped. */
#define WINNOW_SESSION_MAX_EVENTS 100000

WinnowSession    *winnow_session_new               (void);

/* Loading: the one way a process file becomes a run. `options` (NULL: none)
 * are the run's overrides, but for `trust`, which is the default for a
 * process that sets none: a process (or the scenario it embeds) that sets
 * the engine-wide trust keeps it. Only local files open
 * (G_IO_ERROR_NOT_SUPPORTED otherwise). On failure nothing changes:
 * *diagnostics (when given) holds every problem (WnDiagnostic*), and the
 * error carries them one per line. */
gboolean          winnow_session_load_file         (WinnowSession          *self,
                                                    GFile                  *file,
                                                    const WnEngineOptions  *options,
                                                    GPtrArray             **diagnostics,
                                                    GError                **error);
/* The same for a BPMN file with several executable processes: the one
 * `process_id` names (NULL: its only one), kept for Reload. */
gboolean          winnow_session_load_bpmn_process (WinnowSession          *self,
                                                    GFile                  *file,
                                                    const char             *process_id,
                                                    const WnEngineOptions  *options,
                                                    GPtrArray             **diagnostics,
                                                    GError                **error);
/* How the next loads (and Reload) import a BPMN file: with
 * WN_BPMN_IMPORT_SCENARIO_DECIDES a condition outside the translated subset
 * becomes a branch the scenario decides (the preference
 * "undecidable-conditions"); default WN_BPMN_IMPORT_DEFAULT. */
void              winnow_session_set_bpmn_import_flags (WinnowSession     *self,
                                                        WnBpmnImportFlags  flags);
/* A BPMN file's import as a winnow.process/1 document (what winnow-run
 * --export-json writes, and Save as Winnow Process…); NULL when the process
 * was not imported from BPMN. */
const char       *winnow_session_get_imported_json (WinnowSession          *self);
/* The BPMN process chosen of several, or NULL. */
const char       *winnow_session_get_bpmn_process_id (WinnowSession        *self);
/* The options a run of `process` opened with `options` gets, as
 * winnow_session_load_file() gives them: the trust in `options` is a
 * default a process that sets its own overrides. Any thread. */
void              winnow_session_run_options       (const WnProcess        *process,
                                                    const WnEngineOptions  *options,
                                                    WnEngineOptions        *run);
/* Start a paused run of `process`, loaded from `file` off the GTK thread
 * (a big file), as winnow_session_load_bpmn_process() does once it has read
 * the file: `engine` (taken) was built there from `process` and `run`
 * (winnow_session_run_options()) and never attached to a main context;
 * `process_id` and `json` (taken) as the BPMN import gave them, or NULL. */
void              winnow_session_open_prepared     (WinnowSession          *self,
                                                    WnProcess              *process,
                                                    WnEngine               *engine,
                                                    const WnEngineOptions  *run,
                                                    GFile                  *file,
                                                    const char             *process_id,
                                                    char                   *json);
/* Start a run of `process` (scenario NULL: the embedded one). */
void              winnow_session_set_process       (WinnowSession          *self,
                                                    WnProcess              *process,
                                                    WnScenario             *scenario,
                                                    const WnEngineOptions  *options,
                                                    GFile                  *file);
/* The same process, scenario, seed and options, from t = 0, paused. The
 * run's trust choices (engine-wide and per task) carry over: each that
 * differs from the files' is an operator command at T+0 of the new run. */
void              winnow_session_restart           (WinnowSession          *self);
/* Re-read the file from disk and restart; on failure the current run stays. */
gboolean          winnow_session_reload            (WinnowSession          *self,
                                                    GPtrArray             **diagnostics,
                                                    GError                **error);
/* What winnow_session_reload() reads with: the BPMN import's flags. */
WnBpmnImportFlags winnow_session_get_bpmn_import_flags (WinnowSession    *self);
/* Finish a reload of a big file made off the GTK thread as
 * winnow_session_reload() makes it: `process` and `scenario` (NULL: the
 * current one stays) read again from the run's files, `engine` (taken)
 * built from them and winnow_session_get_options() and never attached to
 * a main context, `json` (taken) as the BPMN import gave it, or NULL. */
void              winnow_session_reload_prepared   (WinnowSession          *self,
                                                    WnProcess              *process,
                                                    WnScenario             *scenario,
                                                    WnEngine               *engine,
                                                    char                   *json);
gboolean          winnow_session_is_loaded         (WinnowSession          *self);
WnEngine         *winnow_session_get_engine        (WinnowSession          *self);
/* Accept outside workers on `address` ("[ADDR:]PORT"; NULL: stop), for this
 * run and the next ones (winnow-session-serve.c). */
gboolean          winnow_session_serve             (WinnowSession          *self,
                                                    const char             *address,
                                                    GError                **error);
WnRestServer     *winnow_session_get_server        (WinnowSession          *self);
/* The topics the scenario's simulated workers serve (NULL-terminated,
 * transfer full), and the switch that turns them off for `topic` so that
 * outside workers get every job of it (as winnow-run --external-topic):
 * recorded with the run's commands, kept by Restart. */
char            **winnow_session_dup_simulated_topics (WinnowSession       *self);
gboolean          winnow_session_set_topic_simulated (WinnowSession        *self,
                                                    const char             *topic,
                                                    gboolean                on,
                                                    GError                **error);
WnProcess        *winnow_session_get_process       (WinnowSession          *self);
GFile            *winnow_session_get_file          (WinnowSession          *self);
const WnEngineOptions *winnow_session_get_options  (WinnowSession          *self);
/* The scenario (or saved session) opened over the process, or NULL: the
 * process's own. */
WnScenario       *winnow_session_get_scenario      (WinnowSession          *self);
/* The process's name (or id). */
const char       *winnow_session_get_title         (WinnowSession          *self);

/* The clock. A speed of 0 means fast-forward. */
WnClockMode       winnow_session_get_mode          (WinnowSession          *self);
/* The clock runs, or a step is under way (both stop on Pause). */
gboolean          winnow_session_is_playing        (WinnowSession          *self);
void              winnow_session_play              (WinnowSession          *self);
void              winnow_session_pause             (WinnowSession          *self);
void              winnow_session_play_pause        (WinnowSession          *self);
void              winnow_session_set_speed         (WinnowSession          *self,
                                                    double                  speed);
double            winnow_session_get_speed         (WinnowSession          *self);
/* Pause, then run to the next event. FALSE when nothing is pending. A step
 * runs in slices of a few milliseconds (winnow-session-step.c): a long one
 * goes on from the main loop, and calling this again while it does goes on
 * with it. */
gboolean          winnow_session_step_next         (WinnowSession          *self);
/* Pause, then advance the clock by `delta`, in slices likewise. */
void              winnow_session_step_by           (WinnowSession          *self,
                                                    WnTime                  delta);
/* A step is under way (winnow_session_is_playing() is then TRUE too). */
gboolean          winnow_session_is_stepping       (WinnowSession          *self);
WnTime            winnow_session_get_now           (WinnowSession          *self);
/* The earliest pending action, WN_TIME_NEVER when none. */
WnTime            winnow_session_get_next_time     (WinnowSession          *self);
/* Actions a fast-forward dispatch runs before yielding to the main loop; by
 * default the session sizes its batches to a few milliseconds each. */
void              winnow_session_set_batch         (WinnowSession          *self,
                                                    guint                   actions);

/* Commands; each is a no-op without a run. */
void              winnow_session_set_trust_default (WinnowSession          *self,
                                                    WnTrust                 trust);
WnTrust           winnow_session_get_trust_default (WinnowSession          *self);
gboolean          winnow_session_set_task_trust    (WinnowSession          *self,
                                                    const char             *node,
                                                    WnTrust                 trust,
                                                    GError                **error);
gboolean          winnow_session_inject            (WinnowSession          *self,
                                                    const char             *topic,
                                                    const char             *worker,
                                                    WnResponse             *response,
                                                    GError                **error);
/* The injections no execution has taken yet (WnInjection*, borrowed, in
 * injection order; NULL without a run), and taking one back by its id. */
GPtrArray        *winnow_session_get_injections    (WinnowSession          *self);
gboolean          winnow_session_cancel_injection  (WinnowSession          *self,
                                                    guint                   id,
                                                    GError                **error);
const char       *winnow_session_start_instance    (WinnowSession          *self,
                                                    JsonObject             *variables,
                                                    GError                **error);

/* Models, fed once per frame by winnow_session_flush(). */
GListModel       *winnow_session_get_events        (WinnowSession          *self);
GListModel       *winnow_session_get_jobs          (WinnowSession          *self);
GListModel       *winnow_session_get_tracks        (WinnowSession          *self);
GListModel       *winnow_session_get_instances     (WinnowSession          *self);
WinnowJobRow     *winnow_session_lookup_job        (WinnowSession          *self,
                                                    const char             *id);
/* Events dropped from the front of the events model so far. */
guint64           winnow_session_get_n_dropped     (WinnowSession          *self);
/* Counts for one node (zeros when none). */
WinnowNodeCounts  winnow_session_get_node_counts   (WinnowSession          *self,
                                                    const char             *node);

/* Apply everything queued since the last flush in one batch. */
void              winnow_session_flush             (WinnowSession          *self);
gboolean          winnow_session_has_pending       (WinnowSession          *self);

/* Every job's history, fed with each event as the engine journals it
 * (borrowed; the same object for the session's lifetime, cleared when a run
 * starts). */
WinnowTrace      *winnow_session_get_trace         (WinnowSession          *self);
/* The whole journal of the run so far as JSON lines (what `winnow-run --jsonl`
 * prints), written anew for each call. */
char             *winnow_session_get_journal_text  (WinnowSession          *self,
                                                    gsize                  *length);
/* The run so far as a winnow.scenario/1 document that replays it. */
char             *winnow_session_export_session    (WinnowSession          *self);
/* The operator did something the run records (a start, an injection or its
 * cancel, a trust change, an incident operation, a cancel; not play, pause or a step) since
 * the session was last saved or opened. */
gboolean          winnow_session_has_unsaved_actions (WinnowSession        *self);
/* What the session exports now has been written. */
void              winnow_session_mark_saved        (WinnowSession          *self);
/* Run the current process with the scenario in `file` (a saved session
 * replays), from T+0, without the window's overrides. On failure nothing
 * changes. */
gboolean          winnow_session_load_scenario     (WinnowSession          *self,
                                                    GFile                  *file,
                                                    GPtrArray             **diagnostics,
                                                    GError                **error);

/* Breakpoints: the run's own (the engine's); a new run gets a copy. With no
 * run there are none, and adding one returns 0. Adding one that exists
 * enables it and returns its id. */
guint             winnow_session_add_breakpoint    (WinnowSession          *self,
                                                    WnEventKind             kind,
                                                    WnEventPhase            phase,
                                                    const char             *node);
gboolean          winnow_session_remove_breakpoint (WinnowSession          *self,
                                                    guint                   id);
gboolean          winnow_session_enable_breakpoint (WinnowSession          *self,
                                                    guint                   id,
                                                    gboolean                enabled);
/* 0 when there is none. */
guint             winnow_session_find_breakpoint   (WinnowSession          *self,
                                                    WnEventKind             kind,
                                                    WnEventPhase            phase,
                                                    const char             *node);
/* Whether an enabled "a token enters `node`" breakpoint is set. */
gboolean          winnow_session_node_breaks       (WinnowSession          *self,
                                                    const char             *node);
/* Set that breakpoint, or remove it when it is set and enabled; returns
 * whether the node breaks now. */
gboolean          winnow_session_toggle_node_breakpoint (WinnowSession     *self,
                                                    const char             *node);
/* The run's breakpoints in the order they were added: the engine's list
 * model of WnBreakpointItem (borrowed; the "breakpoints" property, which
 * changes with the run). */
GListModel       *winnow_session_get_breakpoints   (WinnowSession          *self);
/* "job.retriesExhausted", "node.entered@reserve"; NULL if there is no `id`. */
char             *winnow_session_dup_breakpoint_spec (WinnowSession        *self,
                                                    guint                   id);
/* The breakpoint the clock stands at (0: none) and its event (borrowed). */
guint             winnow_session_get_hit           (WinnowSession          *self,
                                                    const WnEvent         **event);

/* Open incidents as of the last flush (WinnowIncident*, borrowed), and a
 * counter that changes whenever they do. */
GPtrArray        *winnow_session_get_incidents     (WinnowSession          *self);
guint             winnow_session_get_incidents_version (WinnowSession      *self);
gboolean          winnow_session_incident_retry    (WinnowSession          *self,
                                                    const char             *instance,
                                                    const char             *node,
                                                    GError                **error);
gboolean          winnow_session_incident_resolve  (WinnowSession          *self,
                                                    const char             *instance,
                                                    const char             *node,
                                                    GError                **error);
/* The operator's waits (wn_engine_complete_user_task() and friends), recorded
 * like every operator command so reruns replay them. */
gboolean          winnow_session_complete_user_task (WinnowSession         *self,
                                                     const char            *instance,
                                                     const char            *node,
                                                     JsonObject            *variables,
                                                     GError               **error);
gboolean          winnow_session_throw_user_task_error (WinnowSession      *self,
                                                     const char            *instance,
                                                     const char            *node,
                                                     const char            *code,
                                                     const char            *message,
                                                     GError               **error);
/* `instance` NULL: the first instance whose wait takes the message */
gboolean          winnow_session_correlate_message (WinnowSession          *self,
                                                    const char             *instance,
                                                    const char             *name,
                                                    JsonNode               *key,
                                                    JsonObject             *variables,
                                                    GError                **error);
gboolean          winnow_session_cancel_instance   (WinnowSession          *self,
                                                    const char             *instance,
                                                    GError                **error);

/* The job selected everywhere (NULL: none): dispatcher, tracks, timeline, inspector. */
const char       *winnow_session_get_selected_job  (WinnowSession          *self);
void              winnow_session_set_selected_job  (WinnowSession          *self,
                                                    const char             *job);

/* The node the views are filtered to (NULL: all). */
const char       *winnow_session_get_selected_node (WinnowSession          *self);
void              winnow_session_set_selected_node (WinnowSession          *self,
                                                    const char             *node);

/* Time travel (winnow-session-travel.c): every past state is a rerun of the
 * run's record (wn-travel.h) that the models are rebuilt from, as live. */
/* The record has commands still to come: the clock replays them, and a
 * command given now drops them. */
gboolean          winnow_session_is_in_past        (WinnowSession          *self);
/* The furthest event the run (this one or the one it reran) reached. */
guint64           winnow_session_get_travel_end    (WinnowSession          *self);
gboolean          winnow_session_can_step_back     (WinnowSession          *self);
/* Back to right after the step before the last event's: FALSE when there is none. */
gboolean          winnow_session_step_back         (WinnowSession          *self);
/* Right after the step that journalled event `seq` (earlier or later). */
gboolean          winnow_session_go_to_event       (WinnowSession          *self,
                                                    guint64                 seq);
/* The state at `instant` (everything due by then has run). */
void              winnow_session_go_to_time        (WinnowSession          *self,
                                                    WnTime                  instant);
/* Run on, step by step, to right after the next event of `kind` and
 * `phase` (-1: any), or of the job `job`; FALSE when the run ends first. */
gboolean          winnow_session_run_to_event      (WinnowSession          *self,
                                                    int                     kind,
                                                    int                     phase,
                                                    const char             *job);
/* A what-if branch (winnow-session-branches.c): a command given in the past
 * keeps the old future as the parent branch and goes on in a new one. */
typedef struct {
  char      *name;       /* "Branch 2" */
  guint      parent;     /* index; G_MAXUINT: the first */
  guint64    fork;       /* the parent's events it shares */
  GPtrArray *record;     /* WnCommand*: the operator's commands it replays */
  guint64    end;        /* the furthest event it reached */
} WinnowBranch;

/* 0 until the first fork, then every branch, the first included. */
guint             winnow_session_get_n_branches    (WinnowSession          *self);
/* Borrowed; the current one's record is brought up to date. */
const WinnowBranch *winnow_session_get_branch      (WinnowSession          *self,
                                                    guint                   index);
guint             winnow_session_get_current_branch (WinnowSession         *self);
/* Rerun that branch to where it reached; the views show it. */
gboolean          winnow_session_switch_branch     (WinnowSession          *self,
                                                    guint                   index);
/* Both branches' outcomes and their journals from where they part (text). */
char             *winnow_session_compare_branches  (WinnowSession          *self,
                                                    guint                   a,
                                                    guint                   b);
/* For tests: a travel empties the models and feeds them the rerun's whole
 * journal, as a new run's are fed: the reference that the travel, which
 * keeps them and changes them by what differs, is held to. */
void              winnow_session_set_travel_rebuilds (WinnowSession        *self,
                                                    gboolean                rebuilds);
/* µs the last step back or go-to took (rerun and models). */
gint64            winnow_session_get_travel_cost   (WinnowSession          *self);
/* The checkpoints a travel runs on from (wn-travel.h): at most `max` reruns
 * left standing at earlier points, `min_spacing` events apart at least,
 * filled when the main loop is idle. max 0: none, every travel reruns from
 * T+0. The default is 4, 10 000 apart (docs/performance.md). */
void              winnow_session_set_checkpoints   (WinnowSession          *self,
                                                    guint                   max,
                                                    guint64                 min_spacing);
/* How many stand now. */
guint             winnow_session_get_n_checkpoints (WinnowSession          *self);
/* The events the last travel's rerun stood after when it was taken: a
 * checkpoint's, or 0 when it ran from T+0. */
guint64           winnow_session_get_travel_start  (WinnowSession          *self);

G_END_DECLS

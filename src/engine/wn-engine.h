/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-engine.h — the facade the runner, the app and the tests drive.
 *
 * An engine is one simulation run: a process, a scenario, a seed. It owns the
 * scheduler (virtual clock), the journal, the dispatcher, the simulated workers
 * and the instances. Observe it through the journal and the snapshot getters.
 */
#pragma once

#if !defined (WINNOW_INSIDE) && !defined (WINNOW_COMPILATION)
# error "Only winnow.h can be included directly"
#endif

#include <glib.h>
#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include "wn-types.h"
#include "wn-scheduler.h"
#include "wn-journal.h"
#include "wn-dispatcher.h"
#include "wn-process.h"
#include "wn-scenario.h"
#include "wn-breakpoint-item.h"

G_BEGIN_DECLS

#define WN_ENGINE_ERROR (wn_engine_error_quark ())
GQuark wn_engine_error_quark (void);

typedef enum {
  WN_ENGINE_ERROR_NO_SUCH_NODE,
  WN_ENGINE_ERROR_NOT_A_WORKER_TASK,
  WN_ENGINE_ERROR_NO_SUCH_TOPIC,
  WN_ENGINE_ERROR_NO_SUCH_WORKER,
  WN_ENGINE_ERROR_NO_SUCH_INSTANCE,
  WN_ENGINE_ERROR_NO_INCIDENT,
  WN_ENGINE_ERROR_NOT_ACTIVE,
  WN_ENGINE_ERROR_INVALID,
  WN_ENGINE_ERROR_NO_USER_TASK,
  WN_ENGINE_ERROR_NO_SUBSCRIPTION,
  WN_ENGINE_ERROR_NO_SUCH_INJECTION,
} WnEngineError;

/* Run-level overrides (the runner's flags; UNSET/0 = keep the files' values). */
typedef struct {
  gboolean      has_seed;
  guint64       seed;
  WnTrust       trust;            /* engine-wide default trust */
  WnOnExhausted on_exhausted;
  guint         instances;        /* > 0: start this many at t = 0 instead of `start` */
  gboolean      no_implicit_workers;  /* outside workers serve the run (wn-external.h): a
                                       * topic no simulated worker serves gets no implicit
                                       * worker, its jobs wait for them */
} WnEngineOptions;

typedef struct _WnEngine WnEngine;

/* scenario may be NULL: the process's embedded one, else an empty one. Topics no
 * worker serves get an implicit instant-complete worker; their names are in
 * wn_engine_get_implicit_topics(). Instances of the scenario's `start` are
 * scheduled at their virtual times. */
WnEngine     *wn_engine_new              (WnProcess *process, WnScenario *scenario,
                                          const WnEngineOptions *options);
void          wn_engine_free             (WnEngine *engine);

WnProcess    *wn_engine_get_process      (WnEngine *engine);
WnScenario   *wn_engine_get_scenario     (WnEngine *engine);
WnScheduler  *wn_engine_get_scheduler    (WnEngine *engine);
WnJournal    *wn_engine_get_journal      (WnEngine *engine);
WnDispatcher *wn_engine_get_dispatcher   (WnEngine *engine);
guint64       wn_engine_get_seed         (WnEngine *engine);
WnTime        wn_engine_now              (WnEngine *engine);
const char * const *wn_engine_get_implicit_topics (WnEngine *engine);

/* Fast-forward until quiescent, until `limit`, or until a breakpoint. Stopped at
 * the limit (WN_STOP_LIMIT), the clock stands at `limit`; otherwise at the last
 * instant run. */
WnStopReason  wn_engine_run              (WnEngine *engine, WnTime limit);
/* The same run in slices: returns WN_STOP_BUDGET after `budget` actions, and
 * calling it again goes on exactly where it stopped (the journal is that of one
 * wn_engine_run()). Lets a front end look at its main loop between slices. */
WnStopReason  wn_engine_run_budget       (WnEngine *engine, WnTime limit, guint budget);
/* Why the engine stopped the run on its own (as wn_scheduler_request_stop() does),
 * e.g. memory ran short for the instances a start asked for; NULL when it did
 * not. The run can go on, but the start it refused never resumes. */
const char   *wn_engine_get_failure      (WnEngine *engine);
/* Notices about the run that are not journal events (char*, borrowed, in
 * order): saved commands of a replayed session that could not apply (they
 * name an instance, node, incident or topic the run does not have), and,
 * once nothing is pending, those the run ended before. */
GPtrArray    *wn_engine_get_notices      (WnEngine *engine);

/* Start an instance now with `variables` merged over the process's. Returns its id
 * ("i4"), owned by the engine. */
const char   *wn_engine_start_instance   (WnEngine *engine, JsonObject *variables, GError **error);

/* Trust at run time: affects jobs enqueued afterwards only. */
void          wn_engine_set_trust_default (WnEngine *engine, WnTrust trust);
WnTrust       wn_engine_get_trust_default (WnEngine *engine);
/* WN_TRUST_UNSET = inherit the engine default. */
gboolean      wn_engine_set_task_trust   (WnEngine *engine, const char *node, WnTrust trust, GError **error);
WnTrust       wn_engine_get_task_trust   (WnEngine *engine, const char *node);

/* Where a part of a task's resolved policy comes from. */
typedef enum {
  WN_POLICY_FROM_TASK,      /* set on the task (or its trust changed by the operator) */
  WN_POLICY_FROM_ENGINE,    /* the engine-wide setting: process, scenario, options, operator */
  WN_POLICY_FROM_DEFAULT,   /* neither: the built-in default */
} WnPolicyOrigin;

/* The policy a job of the service task `node` gets if it is enqueued now
 * (borrowed, valid until the next trust change; NULL when `node` is not a
 * service task with a worker), and where its retry policy and its trust come
 * from (either may be NULL). The one resolution the views show. */
WnPolicy     *wn_engine_get_task_policy  (WnEngine       *engine,
                                          const char     *node,
                                          WnPolicyOrigin *retry_origin,
                                          WnPolicyOrigin *trust_origin);
WnOnExhausted wn_engine_get_on_exhausted (WnEngine *engine);

/* Switch the simulated workers of `topic` off (FALSE) or on again, so that
 * outside workers get every job of it: their waiting slots stop, a slot with a
 * job in hand finishes it first. WN_ENGINE_ERROR_NO_SUCH_TOPIC when no
 * simulated worker serves the topic. */
gboolean      wn_engine_set_topic_simulated (WnEngine *engine, const char *topic, gboolean on,
                                             GError **error);
/* FALSE when no simulated worker serves `topic` or its workers are off. */
gboolean      wn_engine_get_topic_simulated (WnEngine *engine, const char *topic);

/* Replace the next execution's response for a topic or a worker (exactly one of
 * them non-NULL). Journals inject.applied. */
gboolean      wn_engine_inject           (WnEngine *engine, const char *topic, const char *worker,
                                          WnResponse *response, GError **error);

/* An injected response still waiting for the execution it replaces. */
typedef struct {
  guint        id;        /* from 1, in the order of injection (the scenario's faults too) */
  const char  *topic;     /* the topic it waits on: the injection's, or its worker's */
  const char  *worker;    /* NULL: the topic's next execution; else that worker's next */
  WnResponse  *response;
  WnTime       at;        /* when it was injected */
} WnInjection;

/* The injections no execution has taken yet (WnInjection*, borrowed, in
 * injection order; valid until the engine next runs or is commanded). An
 * execution takes its worker's oldest one, else its topic's oldest. */
GPtrArray    *wn_engine_get_injections   (WnEngine *engine);
/* Take back the pending injection `id`: no execution gets it. Journals
 * inject.canceled and is recorded for the session.
 * WN_ENGINE_ERROR_NO_SUCH_INJECTION when none by that id is pending (never
 * made, or already taken by an execution or cancelled). */
gboolean      wn_engine_cancel_injection (WnEngine *engine, guint id, GError **error);

/* Incidents (onExhausted = incident). */
gboolean      wn_engine_incident_retry   (WnEngine *engine, const char *instance, const char *node, GError **error);
gboolean      wn_engine_incident_resolve (WnEngine *engine, const char *instance, const char *node, GError **error);
gboolean      wn_engine_cancel_instance  (WnEngine *engine, const char *instance, GError **error);
/* The operator finishes a user task the instance waits on (at `node`, or the
 * first one when NULL): complete it with `variables` (merged into the
 * instance's; may be NULL), or throw the BPMN error `code`, which its
 * boundaries and the scopes around it may catch. Recorded for the session. */
gboolean      wn_engine_complete_user_task (WnEngine *engine, const char *instance, const char *node,
                                            JsonObject *variables, GError **error);
gboolean      wn_engine_throw_user_task_error (WnEngine *engine, const char *instance, const char *node,
                                               const char *code, const char *message, GError **error);
/* Correlate the message `name` (and `key`, a string or number node, or NULL)
 * to the first instance (in start order) with a wait that takes it: a
 * messageEvent, a receiveTask or a message boundary of that name whose
 * correlation key equals `key` (one without a correlation takes any key).
 * Its `variables` (may be NULL) are merged into the instance's. Recorded for
 * the session. WN_ENGINE_ERROR_NO_SUBSCRIPTION when nothing waits for it. */
gboolean      wn_engine_correlate_message (WnEngine *engine, const char *name, JsonNode *key,
                                           JsonObject *variables, GError **error);
/* The same for the instance `instance` only (NULL: the first, as above):
 * WN_ENGINE_ERROR_NO_SUCH_INSTANCE or NOT_ACTIVE when it is not an active
 * instance, NO_SUBSCRIPTION when none of its waits takes the message. */
gboolean      wn_engine_correlate_message_to (WnEngine *engine, const char *instance, const char *name,
                                              JsonNode *key, JsonObject *variables, GError **error);

/* Interactive clock commands: journal clock.paused / resumed / stepped (with
 * `action`, e.g. "step to next event") and remember them for the session. The
 * caller drives the scheduler itself. */
void          wn_engine_note_clock       (WnEngine *engine, WnEventPhase phase, const char *action);

/* The session so far as a winnow.scenario/1 document: the scenario the run
 * started from, its seed, and every operator command (starts, injections,
 * trust changes, incident operations, clock commands) with the exact point it
 * happened, so `winnow-run PROCESS --scenario SAVED` gives the same journal.
 * A scenario with such commands replays them as it runs. */
char         *wn_engine_export_session   (WnEngine *engine);
/* Commands recorded so far (WnCommand*, borrowed). */
GPtrArray    *wn_engine_get_commands     (WnEngine *engine);

/* Breakpoints: predicates over journal events. When an event matches, the
 * clock stops after the action that emitted it (a running run returns
 * WN_STOP_REQUESTED; an attached clock pauses). A spec reads KIND.PHASE[@NODE],
 * e.g. "job.retriesExhausted" or "node.entered@reserve"; the phase must be one
 * events of that kind have (wn_event_phase_belongs()), so "job.entered", which
 * could never fire, is refused with WN_ENGINE_ERROR_INVALID. Whether the node
 * exists is for the caller to check against its process. */
typedef struct {
  guint         id;
  WnEventKind   kind;
  WnEventPhase  phase;
  const char   *node;        /* NULL: any node */
  gboolean      enabled;
  guint         hits;
} WnBreakpoint;

gboolean      wn_breakpoint_parse        (const char *spec, WnEventKind *kind, WnEventPhase *phase,
                                          char **node, GError **error);
/* Returns the new breakpoint's id (> 0). */
guint         wn_engine_add_breakpoint   (WnEngine *engine, WnEventKind kind, WnEventPhase phase,
                                          const char *node);
gboolean      wn_engine_remove_breakpoint (WnEngine *engine, guint id);
gboolean      wn_engine_enable_breakpoint (WnEngine *engine, guint id, gboolean enabled);
/* The breakpoints in the order they were added (borrowed). */
const WnBreakpoint *wn_engine_get_breakpoints (WnEngine *engine, guint *n_breakpoints);
/* The same breakpoints as a list model of WnBreakpointItem (borrowed; it
 * lives as long as the engine, or longer with a reference): items come and go
 * as breakpoints are added and removed, and notify "enabled" and "hits". */
GListModel   *wn_engine_get_breakpoint_model (WnEngine *engine);
/* A new run keeps the last one's breakpoints: add `from`'s to `engine` (which
 * has none yet) with the same ids, enabled or not, no hits. Those on a node
 * `engine`'s process does not have are left out; returns how many. Ids that
 * wn_engine_add_breakpoint() gives afterwards follow from's. */
guint         wn_engine_copy_breakpoints (WnEngine *engine, WnEngine *from);
/* The breakpoint that stopped the clock last and the event that hit it (a copy
 * kept by the engine), or 0 / NULL. Cleared by wn_engine_clear_hit(). */
guint         wn_engine_get_last_hit     (WnEngine *engine, const WnEvent **event);
void          wn_engine_clear_hit        (WnEngine *engine);

/* Snapshots. */
typedef enum {
  WN_INSTANCE_ACTIVE,
  WN_INSTANCE_COMPLETED,
  WN_INSTANCE_TERMINATED,
} WnInstanceState;

typedef struct {
  const char     *id;
  WnInstanceState state;
  WnTime          started_at;
  WnTime          ended_at;       /* -1 while active */
  const char     *end_node;       /* the end event reached, or NULL */
  const char     *reason;        /* termination reason, or NULL */
  guint           n_incidents;    /* open incidents */
  JsonObject     *variables;      /* borrowed */
  guint           number;         /* the id as a number: "i<number>", from 1 in start order */
} WnInstanceInfo;

typedef enum {
  WN_TRACK_ACTIVE,     /* running through nodes or waiting on a timer */
  WN_TRACK_PARKED,     /* waiting on a job */
  WN_TRACK_INCIDENT,
  WN_TRACK_JOINING,    /* waiting at a parallel join */
  WN_TRACK_DONE,
  WN_TRACK_CANCELED,
  WN_TRACK_FAILED,
} WnTrackState;

const char *wn_track_state_to_string (WnTrackState state);
/* TRUE until a track has ended (done, canceled or failed): active, parked,
 * holding an incident or waiting at a join. */
gboolean    wn_track_state_is_live   (WnTrackState state);
const char *wn_instance_state_to_string (WnInstanceState state);

/* A track as wn_engine_foreach_track() hands it over: the strings are valid
 * during the callback only (the track and job ids are written out for it). */
typedef struct {
  const char  *id;             /* "i1/t2" */
  const char  *instance;
  const char  *node;           /* current node id */
  WnTrackState state;
  WnTime       since;          /* when it entered the current state */
  const char  *job;            /* the job it is parked on, or NULL */
  const char  *error;          /* incident / failure diagnostic, or NULL */
  /* The same ids as numbers, so nobody parses them: "i<instance_number>/t<number>",
   * the job "i<instance_number>/j<job_number>" (0: none). foreach walks tracks
   * in (instance_number, number) order. */
  guint        instance_number;
  guint        number;
  guint        job_number;
} WnTrackInfo;

typedef void (*WnInstanceForeachFunc) (const WnInstanceInfo *info, gpointer data);
typedef void (*WnTrackForeachFunc)    (const WnTrackInfo *info, gpointer data);

void          wn_engine_foreach_instance (WnEngine *engine, WnInstanceForeachFunc func, gpointer data);
gboolean      wn_engine_lookup_instance  (WnEngine *engine, const char *id, WnInstanceInfo *info);
/* The track "i<n>/t<m>", ended or not, in O(1). The info's id is `id`; its
 * job string lasts until the next lookup, its error until the track's
 * incident is retried or resolved, the others as long as the engine. */
gboolean      wn_engine_lookup_track     (WnEngine *engine, const char *id, WnTrackInfo *info);
/* Tracks that have not ended (plus ended ones when `all`). */
void          wn_engine_foreach_track    (WnEngine *engine, gboolean all, WnTrackForeachFunc func, gpointer data);

/* Run totals for summaries. */
typedef struct {
  guint   instances;
  guint   completed;
  guint   terminated;
  guint   incidents;       /* instances holding an open incident */
  guint   active;
  guint64 executions;
  guint64 retries;         /* retryScheduled + workerRetryScheduled */
  guint64 exhausted;
  guint64 events;
} WnRunStats;

/* O(1): the totals are kept as the run goes. */
void          wn_engine_get_stats        (WnEngine *engine, WnRunStats *stats);
/* Completion times (ended_at - started_at) of completed instances, sorted, µs. */
GArray       *wn_engine_get_completion_times (WnEngine *engine);
/* How many completed instances ended at the process's node `node` (its index
 * in WnProcess.nodes); 0 for a node no instance ended at. O(1). */
guint         wn_engine_get_end_count    (WnEngine *engine, guint node);
/* One line per thing that still waits ("i2 parked at reserve on i2/j1 (topic reserve:
 * no live worker)", "i3/j2 gated until T+00:02.000"); empty when nothing waits. */
GPtrArray    *wn_engine_describe_waiting (WnEngine *engine);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WnEngine, wn_engine_free)

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-engine-private.h — what wn-engine.c, wn-instance.c and wn-worker.c share. */
#pragma once

#ifndef WINNOW_COMPILATION
# error "wn-engine-private.h is internal to the engine: include winnow.h"
#endif

#include "wn-engine.h"
#include "wn-external.h"
#include "wn-rng.h"
#include "wn-pool.h"
#include "wn-decimal-private.h"

G_BEGIN_DECLS

typedef struct _WnInstance WnInstance;
typedef struct _WnTrack WnTrack;
typedef struct _WnScope WnScope;
typedef struct _WnSimWorker WnSimWorker;

/* Room for the longest instance id, "i4294967295". */
#define WN_INSTANCE_ID_SIZE 12
/* Room for the longest track or job id, "i4294967295/j4294967295". */
#define WN_ID_SIZE 32

/* A track's and a job's id are not stored: they are "<instance>/t<number>" and
 * "<instance>/j<number>", written out only when someone looks (the journal, a
 * snapshot, the dispatcher). */
struct _WnTrack
{
  WnInstance   *instance;
  guint         number;         /* "t<number>": 1, 2, … within the instance */
  guint         node;
  WnTrackState  state;
  guint         job;            /* while parked: the number of its job, "j<job>"; 0 = none */
  guint         loop_steps;     /* nodes entered without virtual time passing, across
                                 * parks and forks (wn-instance.c: MAX_STEPS_PER_INSTANT) */
  guint         input_gen;      /* while parked on a job whose input is every variable:
                                 * the instance's variables_gen it shares; 0 = none */
  WnTime        since;
  WnTimerId     timer;          /* while waiting on virtual time */
  char         *error;          /* incident / failure */
  /* Engine II (wn-instance.c, "scopes"); NULL in a v1 process */
  WnScope      *scope;          /* the sub-process scope it runs in; NULL: the process */
  WnScope      *inner;          /* while at a subProcess: the scope it waits on */
  GPtrArray    *boundary_timers;/* while at a host with boundary events or at an event gateway: BoundaryWait* */
  gboolean      user_task;      /* waiting at a userTask for a person */
  const WnUserTaskSpec *user_rule; /* the scenario's rule that will finish it, or NULL */
  guint         user_pool;      /* its rule's people (index + 1 into scenario->people), or 0 */
  guint         person;         /* …the one working on it (index + 1), 0: waiting for one */
  gboolean      message_wait;   /* waiting at a messageEvent or receiveTask */
  gboolean      message_keyed;  /* …whose correlation gave message_key (or failed: NULL) */
  JsonNode     *message_key;
  guint         loop;           /* an iteration of a multi-instance activity, from 1; 0: none */
};

/* One run of a sub-process: its tracks run inside it, the track that entered
 * the subProcess node (`host`) waits until none is left. */
struct _WnScope
{
  WnScope      *parent;         /* NULL: the process */
  WnTrack      *host;
  guint         number;         /* "<instance>/s<number>" */
  guint         node;           /* the subProcess */
  guint         n_live;         /* live tracks directly inside */
  gboolean      ended;          /* completed or canceled: its tracks' ends count no more */
  /* a multi-instance activity's iterations run as a scope of the node itself */
  guint         mi_total;       /* > 0: a multi-instance scope */
  guint         mi_started;
  guint         mi_done;
  JsonNode     *mi_items;       /* the collection, or NULL */
  GPtrArray    *event_starts;   /* while it runs: its event sub-processes' armed starts
                                 * (wn-instance.c: EventStart*), or NULL */
};

struct _WnInstance
{
  WnEngine        *engine;
  char             id[WN_INSTANCE_ID_SIZE];  /* "i<n>", kept: the API hands it out */
  WnInstanceState  state;
  WnTime           started_at;
  WnTime           ended_at;
  const WnNode    *end_node;    /* the end event reached last, borrowed from the process */
  GArray          *ends;        /* guint node indices of every end event reached, once a
                                 * second one is (Engine II); NULL: end_node is the only one */
  GPtrArray       *scopes;      /* WnScope*, "s<n>" is scopes[n - 1]; NULL until a subProcess */
  GPtrArray       *event_starts;/* while active: the process's event sub-processes' armed
                                 * starts (wn-instance.c: EventStart*), or NULL */
  char            *reason;
  /* The variables, copy-on-write (wn-instance.c: set_member): shared with the
   * process's defaults, or with the input of jobs not yet finished, until the
   * instance writes. A task's direct output arriving while they are shared is
   * kept aside in `pending` until something reads them (instance_variables()),
   * so an instance whose last act is to commit one output never builds an
   * object of its own. */
  JsonObject      *variables;
  guint            var_bytes_counted : 1;  /* since its first script: var_bytes is kept */
  guint            variables_gen : 15;     /* which object `variables` is: counts the copies
                                            * from 1; saturated, jobs' shares never end */
  guint            n_input_shares : 16;    /* unfinished jobs whose input is `variables`;
                                            * saturated, it no longer counts down */
  guint32          var_bytes;          /* wn_json_node_size() of the variables, keys
                                        * included; saturates at G_MAXUINT32 */
  const char      *pending_name;   /* borrowed from the process; NULL = nothing pending */
  JsonNode        *pending_value;
  WnTrack          track;       /* the first track; most instances never fork */
  GPtrArray       *more_tracks; /* WnTrack*, tracks 2, 3, …; NULL until a fork */
  guint            n_tracks;
  guint            n_live;      /* tracks not yet ended */
  guint            n_incidents;
  guint            next_job;
  guint           *joins;       /* per node arrivals at a parallel join; NULL until needed */
};

struct _WnEngine
{
  WnProcess      *process;
  WnScenario     *scenario;
  WnEngineConfig  config;        /* process engine block, then scenario, then options */
  guint64         seed;
  WnRng           rng;
  WnScheduler    *scheduler;
  WnJournal      *journal;
  WnDispatcher   *dispatcher;

  WnTrust         trust_default;
  WnTrust        *task_trust;    /* per node: the task level's trust right now */
  WnPolicy      **policies;      /* per node: resolved policy cache, NULL = stale */

  WnPool         *instance_pool; /* where the instances live */
  GPtrArray      *instances;     /* WnInstance* in start order: "i<n>" is instances[n - 1] */
  GPtrArray      *workers;       /* WnSimWorker* */
  GHashTable     *topic_injections;  /* topic → GQueue of WnInjection* (borrowed from injections) */
  GPtrArray      *injections;    /* WnInjection*, pending, in injection order (owned) */
  guint           next_injection;
  GPtrArray      *implicit_topics;   /* char*, NULL-terminated */

  guint          *end_counts;    /* per node: completed instances that ended there */
  guint64       **decision_weights; /* per node: a gateway the scenario decides, the weight of each
                                      * of its outgoing flows (in `outgoing` order); else NULL */
  GArray         *completion_times;
  GArray         *breakpoints;   /* WnBreakpoint, node strings owned */
  GListStore     *breakpoint_items;  /* WnBreakpointItem, one per breakpoints[i] */
  guint           next_breakpoint;
  guint           breakpoint_sub;
  guint           last_hit;
  guint64         last_hit_action;
  WnEvent        *last_hit_event;
  GPtrArray      *scheduled;     /* the scenario's starts and injections */
  GQueue         *message_buffer;/* BufferedMessage* (wn-engine.c): the scenario's messages kept
                                  * for their ttl, oldest first; NULL until one is */
  gboolean        buffer_posted; /* a look at the buffer is on its way */
  GPtrArray      *people_pools;  /* per scenario->people: WnPeoplePool* (wn-instance.c), or NULL
                                  * until a user task asks for one */
  JsonNode       *defaults_input;/* the input of a job taking every variable of an instance
                                  * that has written none: shared (wn-instance.c) */
  WnEngineOptions options;
  GPtrArray      *commands;      /* WnCommand*: what the operator did, for the session */
  GPtrArray      *replay;        /* WnCommand*: what to replay, scenario->commands or a
                                  * rerun's record (wn-travel.c) */
  guint           replay_next;   /* index into replay */
  guint           replay_limit;  /* replay no further than this index (G_MAXUINT: all) */
  gboolean        replaying;     /* inside a replayed command */
  gboolean        rerun;         /* made by wn_engine_new_rerun() */
  GPtrArray      *dropped;       /* the record a command in the past cut (its parent's) */
  guint64         dropped_fork;  /* the events journalled then */
  GPtrArray      *notices;       /* char*: saved commands that could not apply */
  gboolean        internal;      /* a command issued by the scenario itself: not recorded */
  WnExternal     *external;      /* the outside side, made on first use (wn-external.c) */
  guint           n_completed;
  guint           n_terminated;
  guint           n_with_incidents;  /* active instances holding an open incident */
  guint64         worker_retries;
  guint64         worker_exhausted;
  guint64         executions;
  char           *failure;       /* why the engine stopped the run itself, NULL = it did not */
  char            lookup_job_id[WN_ID_SIZE];  /* wn_engine_lookup_track()'s job id */
};

/* wn-engine.c */
void        _wn_engine_emit            (WnEngine *engine, WnEvent *event);
WnPolicy   *_wn_engine_policy_for      (WnEngine *engine, guint node);
/* Pop an injected response for this worker or its topic (NULL when none). */
WnResponse *_wn_engine_take_injection  (WnEngine *engine, WnSimWorker *worker);
/* A wait for a message began (a catch event, a receive task, a boundary, an
 * event gateway, an event sub-process's start): buffered messages get a look
 * one scheduler step later. */
void        _wn_engine_wait_began      (WnEngine *engine);
/* Arm the scheduler's trigger for the next command to replay (if any). */
void        _wn_engine_arm_replay      (WnEngine *engine);
/* Record an operator's command at this point (NULL inside an internal one);
 * a command given in a rerun's past drops the record's future. */
WnCommand  *_wn_engine_record          (WnEngine *engine, WnCommandKind kind);
void        _wn_engine_forget          (WnEngine *engine, WnCommand *command);
/* A rerun with record still to come, outside a replayed command: an outside
 * worker's live call is not applied there (wn-external.c). */
gboolean    _wn_engine_replaying_future (WnEngine *engine);

/* wn-external.c */
/* Apply a recorded call again (WN_COMMAND_EXTERNAL); FALSE when it cannot
 * be read, or when it does not go as it went live (refused then and not now,
 * or other jobs locked). */
gboolean    _wn_external_replay        (WnExternal *external, JsonObject *call, GError **error);

/* wn-travel.c */
/* An operator's command in a rerun's past: the record's commands still to
 * come are dropped, the run goes on from here as a new one. */
void        _wn_engine_drop_future     (WnEngine *engine);

/* wn-instance.c */
typedef struct _WnPeoplePool WnPeoplePool;
void        _wn_people_pool_free       (gpointer pool);
WnInstance *_wn_instance_start         (WnEngine *engine, JsonObject *variables);
void        _wn_instance_free          (WnInstance *instance);
void        _wn_instance_deliver       (gpointer owner, WnOutcome *outcome, gpointer data);
gboolean    _wn_instance_incident_retry   (WnInstance *instance, const char *node, GError **error);
gboolean    _wn_instance_incident_resolve (WnInstance *instance, const char *node, GError **error);
void        _wn_instance_cancel        (WnInstance *instance, const char *reason);
/* Hand the message `name` (with `key`, may be NULL) to the first wait of the
 * instance that takes it; FALSE when none does. */
gboolean    _wn_instance_correlate     (WnInstance *instance, const char *name, JsonNode *key,
                                        JsonObject *variables);
/* Finish the user task at `node` (NULL: any): complete with `variables` or,
 * when `code` is set, throw that BPMN error. `who` goes into the journal. */
gboolean    _wn_instance_finish_user_task (WnInstance *instance, const char *node, JsonObject *variables,
                                           const char *code, const char *message, const char *who,
                                           GError **error);
/* The variables as they are now, for a snapshot (applies a pending write). */
JsonObject *_wn_instance_get_variables (WnInstance *instance);
/* Writes "<instance>/<tag><n>" (tag 't' or 'j') into `out`. */
void        _wn_instance_format_id     (const WnInstance *instance, char tag, guint n, char out[WN_ID_SIZE]);
WnTrack    *_wn_instance_get_track     (WnInstance *instance, guint index);

/* wn-breakpoint-item.c */
WnBreakpointItem *_wn_breakpoint_item_new  (const WnBreakpoint *bp);
void              _wn_breakpoint_item_sync (WnBreakpointItem *item, const WnBreakpoint *bp);

/* wn-worker.c */
WnSimWorker *_wn_sim_worker_new        (WnEngine *engine, const WnWorkerConfig *config,
                                        const char *implicit_topic);
void         _wn_sim_worker_free       (WnSimWorker *worker);
void         _wn_sim_worker_start      (WnSimWorker *worker);
const char  *_wn_sim_worker_get_id     (WnSimWorker *worker);
const char  *_wn_sim_worker_get_topic  (WnSimWorker *worker);
GQueue      *_wn_sim_worker_get_injections (WnSimWorker *worker);
guint        _wn_sim_worker_get_n_live_slots (WnSimWorker *worker);
void         _wn_sim_worker_set_off    (WnSimWorker *worker, gboolean off);
gboolean     _wn_sim_worker_get_off    (WnSimWorker *worker);

G_END_DECLS

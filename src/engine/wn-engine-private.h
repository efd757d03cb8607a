/* wn-engine-private.h — what wn-engine.c, wn-instance.c and wn-worker.c share. */
#pragma once

#include "wn-engine.h"
#include "wn-rng.h"

G_BEGIN_DECLS

typedef struct _WnInstance WnInstance;
typedef struct _WnTrack WnTrack;
typedef struct _WnSimWorker WnSimWorker;

struct _WnTrack
{
  WnInstance   *instance;
  char         *id;             /* in the track's own block */
  guint         node;
  WnTrackState  state;
  WnTime        since;
  char         *job;            /* while parked */
  WnTimerId     timer;          /* while waiting on virtual time */
  char         *error;          /* incident / failure */
};

struct _WnInstance
{
  WnEngine        *engine;
  char            *id;          /* in the instance's own block */
  JsonObject      *variables;
  gboolean         variables_shared;  /* copy before writing (wn-instance.c: set_variable) */
  WnInstanceState  state;
  WnTime           started_at;
  WnTime           ended_at;
  const char      *end_node;    /* borrowed from the process */
  char            *reason;
  GPtrArray       *tracks;      /* WnTrack*, every track ever made (freed with the instance) */
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

  GPtrArray      *instances;     /* WnInstance* in start order */
  GHashTable     *instance_index;/* id → WnInstance* */
  GPtrArray      *workers;       /* WnSimWorker* */
  GHashTable     *topic_injections;  /* topic → GQueue of WnResponse* */
  GPtrArray      *implicit_topics;   /* char*, NULL-terminated */

  GHashTable     *ends;          /* end node id → GUINT count */
  GArray         *completion_times;
  GArray         *breakpoints;   /* WnBreakpoint, node strings owned */
  guint           next_breakpoint;
  guint           breakpoint_sub;
  guint           last_hit;
  guint64         last_hit_action;
  WnEvent        *last_hit_event;
  GPtrArray      *scheduled;     /* the scenario's starts and injections */
  JsonNode       *defaults_input;/* the input of a job taking every variable of an instance
                                  * that has written none: shared (wn-instance.c) */
  WnEngineOptions options;
  GPtrArray      *commands;      /* WnCommand*: what the operator did, for the session */
  guint           replay_next;   /* index into scenario->commands */
  gboolean        internal;      /* a command issued by the scenario itself: not recorded */
  guint           n_completed;
  guint           n_terminated;
  guint64         worker_retries;
  guint64         worker_exhausted;
  guint64         executions;
};

/* wn-engine.c */
void        _wn_engine_emit            (WnEngine *engine, WnEvent *event);
WnPolicy   *_wn_engine_policy_for      (WnEngine *engine, guint node);
/* Pop an injected response for this worker or its topic (NULL when none). */
WnResponse *_wn_engine_take_injection  (WnEngine *engine, WnSimWorker *worker);

/* wn-instance.c */
WnInstance *_wn_instance_start         (WnEngine *engine, JsonObject *variables);
void        _wn_instance_free          (WnInstance *instance);
void        _wn_instance_deliver       (gpointer owner, WnOutcome *outcome, gpointer data);
gboolean    _wn_instance_incident_retry   (WnInstance *instance, const char *node, GError **error);
gboolean    _wn_instance_incident_resolve (WnInstance *instance, const char *node, GError **error);
void        _wn_instance_cancel        (WnInstance *instance, const char *reason);

/* wn-worker.c */
WnSimWorker *_wn_sim_worker_new        (WnEngine *engine, const WnWorkerConfig *config,
                                        const char *implicit_topic);
void         _wn_sim_worker_free       (WnSimWorker *worker);
void         _wn_sim_worker_start      (WnSimWorker *worker);
const char  *_wn_sim_worker_get_id     (WnSimWorker *worker);
const char  *_wn_sim_worker_get_topic  (WnSimWorker *worker);
GQueue      *_wn_sim_worker_get_injections (WnSimWorker *worker);
guint        _wn_sim_worker_get_n_live_slots (WnSimWorker *worker);

G_END_DECLS

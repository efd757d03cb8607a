/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-dispatcher.h — the job store: locks, gates, classification and retry
 * (semantics §2, §3, §5; SRD-038 §3.4–3.5, SRD-039 FR-8).
 *
 * Per topic: a FIFO of jobs never locked yet and a heap of jobs available again
 * (both in enqueue order), a heap of gated jobs by not_before and a heap of
 * locked jobs by deadline, so fetch, re-arm and expiry cost O(log n) in the jobs
 * of the topic, and a job's first fetch O(1). Terminal outcomes
 * leave the store and reach the owner through the scheduler, never inside the
 * report call.
 */
#pragma once

#if !defined (WINNOW_INSIDE) && !defined (WINNOW_COMPILATION)
# error "Only winnow.h can be included directly"
#endif

#include <glib.h>
#include <json-glib/json-glib.h>
#include "wn-types.h"
#include "wn-policy.h"
#include "wn-rng.h"
#include "wn-scheduler.h"
#include "wn-journal.h"

G_BEGIN_DECLS

#define WN_DISPATCHER_ERROR (wn_dispatcher_error_quark ())
GQuark wn_dispatcher_error_quark (void);

typedef enum {
  WN_DISPATCHER_ERROR_EMPTY_ID,
  WN_DISPATCHER_ERROR_EMPTY_TOPIC,
  WN_DISPATCHER_ERROR_DUPLICATE,
  WN_DISPATCHER_ERROR_NOT_FOUND,        /* "job not found" */
  WN_DISPATCHER_ERROR_NOT_HOLDER,       /* "lock held by another worker" / not locked */
  WN_DISPATCHER_ERROR_LOCK_EXPIRED,     /* "lock expired" */
  WN_DISPATCHER_ERROR_MAX_LOCK,         /* extend-lock past first_lock + max_lock */
  WN_DISPATCHER_ERROR_NOT_TRUSTED,      /* a verdict report on an EngineAuthoritative job */
  WN_DISPATCHER_ERROR_TRUSTED,          /* a raw-only operation on a WorkerTrusted job */
  WN_DISPATCHER_ERROR_LOOPS,            /* WN_LOOP_MAX_EXECUTIONS at one virtual instant */
} WnDispatcherError;

/* A job executed this many times without virtual time passing (a zero-delay
 * retry loop) ends in a terminal fault rather than running forever. */
#define WN_LOOP_MAX_EXECUTIONS 10000

typedef enum {
  WN_JOB_AVAILABLE,
  WN_JOB_GATED,
  WN_JOB_LOCKED,
  WN_JOB_EXPIRED,
} WnJobState;

const char *wn_job_state_to_string (WnJobState state);

typedef enum {
  WN_OUTCOME_COMPLETE,
  WN_OUTCOME_BPMN_ERROR,
  WN_OUTCOME_STATUS,
  WN_OUTCOME_FAULT,
} WnOutcomeKind;

/* A terminal outcome, as the owner receives it. Only the dispatcher makes
 * them; the owner releases each with wn_outcome_free(). */
typedef struct {
  WnOutcomeKind kind;
  char         *job;
  GArray       *bindings;     /* COMPLETE: WnBinding, the final data (may be empty) */
  char         *code;         /* BPMN_ERROR: the error code; FAULT: the last fault code, if any */
  char         *message;      /* BPMN_ERROR: message; FAULT: the diagnostic */
  JsonNode     *status;       /* STATUS */
  gboolean      exhausted;    /* FAULT: retries exhausted (else a mapping error) */
  guint         attempts;     /* executions made */
} WnOutcome;

void wn_outcome_free (WnOutcome *outcome);

/* Called through the scheduler with the job's owner data; takes the outcome. */
typedef void (*WnOutcomeFunc) (gpointer owner, WnOutcome *outcome, gpointer data);

/* What enqueue needs to know. Strings are copied. */
typedef struct {
  const char *id;
  const char *topic;
  const char *instance;     /* for the journal */
  const char *node;         /* for the journal */
  const char *output_var;   /* the direct default's variable (no mapping); NULL = the node id */
  JsonNode   *input;        /* a reference is taken; NULL = {} */
  WnPolicy   *policy;       /* a reference is taken; NULL = resolved defaults */
  gpointer    owner;        /* handed back with the outcome */
} WnJobSpec;

/* A read-only snapshot of one job. Strings and nodes are borrowed from the store
 * and valid until the next dispatcher call. */
typedef struct {
  const char *id;
  const char *topic;
  const char *instance;
  const char *node;
  const char *output_var;
  JsonNode   *input;
  WnPolicy   *policy;
  WnJobState  state;
  guint       attempt;        /* retried technical failures (dispatcher re-arms) */
  guint       executions;     /* worker function calls so far */
  guint       lost;           /* of them, cut off by a lapsed lock that was taken over: they
                               * never reported, so they are no attempts (semantics §2) */
  WnTime      enqueued_at;
  WnTime      not_before;     /* 0 = no gate */
  const char *worker;         /* lock holder or NULL */
  WnTime      first_lock;     /* of the current lock; -1 when unlocked */
  WnTime      deadline;       /* of the current lock; -1 when unlocked */
  gpointer    owner;
  /* When the clock alone changes `state`: a gated job is available from
   * not_before, a locked one expired from deadline + 1 µs. WN_TIME_NEVER when
   * only a fetch, a report or a removal can (available, expired). */
  WnTime      next_change;
  /* The lock's holder died with the job in hand (a `crash`): it will never
   * report, and the lock (`worker`, `deadline`) can only lapse. */
  gboolean    holder_gone;
} WnJobInfo;

typedef struct _WnDispatcher WnDispatcher;

/* rng draws retry jitter. All three are borrowed and must outlive the dispatcher. */
WnDispatcher *wn_dispatcher_new        (WnScheduler *scheduler, WnJournal *journal, WnRng *rng,
                                        WnOutcomeFunc deliver, gpointer deliver_data);
void          wn_dispatcher_free       (WnDispatcher *dispatcher);
void          wn_dispatcher_set_max_lock (WnDispatcher *dispatcher, WnTime max_lock);  /* default 5 min */
WnTime        wn_dispatcher_get_max_lock (const WnDispatcher *dispatcher);

gboolean      wn_dispatcher_enqueue    (WnDispatcher *dispatcher, const WnJobSpec *spec, GError **error);

/* Lock one available (or expired) job of `topics`, scanned in the given order;
 * FIFO within a topic. NULL when none. The returned info is a snapshot. */
gboolean      wn_dispatcher_fetch      (WnDispatcher *dispatcher, const char *worker,
                                        const char *const *topics, guint n_topics,
                                        WnTime lock_duration, WnJobInfo *locked);

/* A waiting fetcher: `wake` runs (through the scheduler) once, when a job may have
 * become available on one of `topics` — an enqueue, a re-arm, the earliest gate or
 * lock deadline passing. The waiter is then gone; wait again if the fetch finds nothing. */
typedef void (*WnWakeFunc) (gpointer data);
guint         wn_dispatcher_wait       (WnDispatcher *dispatcher, const char *const *topics,
                                        guint n_topics, WnWakeFunc wake, gpointer data);
void          wn_dispatcher_cancel_wait (WnDispatcher *dispatcher, guint wait_id);
/* The same for a watcher outside the run (an outside worker's long poll):
 * `wake` runs at once, inside whatever changed the topic, so it must not act
 * on the run (remember to fetch later, from the main loop); and no scheduler
 * timer is kept for it, so the run's actions are those of a run without it
 * (its record replays headless). It is not woken by a gate or a lock
 * deadline passing: look at wn_dispatcher_next_available(). Returns 0 when
 * it was woken at once (a job is available now). Cancel with
 * wn_dispatcher_cancel_wait(). */
guint         wn_dispatcher_watch      (WnDispatcher *dispatcher, const char *const *topics,
                                        guint n_topics, WnWakeFunc wake, gpointer data);
/* When a job of `topic` is fetchable: 0 when one is now, else the earliest
 * gate's end or just past the earliest lock deadline; WN_TIME_NEVER when no
 * job of the topic waits. */
WnTime        wn_dispatcher_next_available (WnDispatcher *dispatcher, const char *topic);

/* The worker calls the job's function: counts the execution and journals
 * job.executing; returns the 1-based execution number. Requires the lock.
 * The execution after WN_LOOP_MAX_EXECUTIONS of them at one virtual instant is
 * refused (WN_DISPATCHER_ERROR_LOOPS): the job ends in a terminal fault that
 * names it, its topic and its node, and 0 is returned. */
guint         wn_dispatcher_begin_execution (WnDispatcher *dispatcher, const char *job, const char *worker,
                                             GError **error);

gboolean      wn_dispatcher_extend_lock (WnDispatcher *dispatcher, const char *job, const char *worker,
                                         WnTime new_duration, GError **error);

/* Raw reports. EngineAuthoritative: the dispatcher maps (complete) or classifies and
 * retries (fail). WorkerTrusted: complete delivers the raw output under the task's
 * output variable with no mapping; fail is forwarded as a terminal fault. */
gboolean      wn_dispatcher_complete   (WnDispatcher *dispatcher, const char *job, const char *worker,
                                        JsonNode *output, GError **error);
gboolean      wn_dispatcher_fail       (WnDispatcher *dispatcher, const char *job, const char *worker,
                                        const char *code, JsonNode *body, const char *message,
                                        GError **error);
/* Verdicts: WorkerTrusted jobs only (else WN_DISPATCHER_ERROR_NOT_TRUSTED). */
gboolean      wn_dispatcher_complete_mapped (WnDispatcher *dispatcher, const char *job, const char *worker,
                                             GArray *bindings, GError **error);
gboolean      wn_dispatcher_report_bpmn_error (WnDispatcher *dispatcher, const char *job, const char *worker,
                                               const char *code, const char *message, GError **error);
gboolean      wn_dispatcher_report_status (WnDispatcher *dispatcher, const char *job, const char *worker,
                                           JsonNode *status, GError **error);
/* A WorkerTrusted terminal fault: `exhausted` says whether the worker's retries ran out. */
gboolean      wn_dispatcher_report_fault (WnDispatcher *dispatcher, const char *job, const char *worker,
                                          const char *code, const char *message, gboolean exhausted,
                                          GError **error);

/* Remove a job without delivering anything (cancellation, a boundary that fired). */
gboolean      wn_dispatcher_remove     (WnDispatcher *dispatcher, const char *job);
/* The same, journalled: one job.canceled naming the state the job was in
 * (available, gated, locked by `worker`, expired) and `reason`. */
gboolean      wn_dispatcher_cancel     (WnDispatcher *dispatcher, const char *job, const char *reason);

gboolean      wn_dispatcher_lookup     (WnDispatcher *dispatcher, const char *job, WnJobInfo *info);
/* The worker holding `job`'s lock died with it: snapshots say so (holder_gone)
 * until the job is locked again. Nothing is journalled; a job `worker` does
 * not hold is left as it is. */
void          wn_dispatcher_holder_gone (WnDispatcher *dispatcher, const char *job, const char *worker);
typedef void (*WnJobForeachFunc) (const WnJobInfo *info, gpointer data);
void          wn_dispatcher_foreach    (WnDispatcher *dispatcher, WnJobForeachFunc func, gpointer data);
guint         wn_dispatcher_get_n_jobs (const WnDispatcher *dispatcher);
/* The earliest gate and the earliest lock deadline over all jobs (WN_TIME_NEVER when none). */
WnTime        wn_dispatcher_get_next_gate     (WnDispatcher *dispatcher);
/* Totals since creation, for run summaries (cheap: kept whether or not the journal listens). */
typedef struct {
  guint64 executions;    /* begin_execution calls */
  guint64 retries;       /* EngineAuthoritative re-arms (retryScheduled) */
  guint64 exhausted;     /* EngineAuthoritative retriesExhausted */
  guint64 reclaims;      /* lockReclaimed */
  guint64 rejected;      /* reportRejected */
} WnDispatcherCounters;

void          wn_dispatcher_get_counters (const WnDispatcher *dispatcher, WnDispatcherCounters *counters);

/* Instrumentation for the O(log n) tests: heap comparisons made so far. */
guint64       wn_dispatcher_get_n_comparisons (const WnDispatcher *dispatcher);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WnOutcome, wn_outcome_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WnDispatcher, wn_dispatcher_free)

G_END_DECLS

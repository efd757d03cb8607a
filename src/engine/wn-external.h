/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-external.h — outside workers on the engine's dispatcher.
 *
 * The operations of Camunda 7's external-task protocol, on a run's dispatcher
 * and virtual clock: fetch-and-lock by topic, complete, failure, bpmnError,
 * extendLock, unlock and set retries, with the trust semantics of SRD-039 for
 * a worker the engine does not run (issue 20, point 3):
 *
 * - WorkerTrusted: the worker owns its policy. A failure with retries > 0
 *   unlocks the job behind the worker's retryTimeout (job.workerRearmed),
 *   retries = 0 is its exhaustion verdict (job.retriesExhausted, then a terminal
 *   fault: the task fails or holds an incident, per onExhausted); a bpmnError is
 *   its own classification; a complete commits its variables as given.
 * - EngineAuthoritative: the worker is raw. A failure is a raw fault (no code,
 *   body {"message", "details"}) for the error mapper and the engine's retry
 *   policy; the worker's retries and retryTimeout are ignored and the journal
 *   says so (job.workerPolicyIgnored); a bpmnError is a raw fault whose code is
 *   the error code, classified by the mapper; a complete's variables (one object)
 *   go through the task's output mapping.
 *
 * Every call that changes the run or journals something is also recorded as
 * a command (WN_COMMAND_EXTERNAL) at the exact scheduler point it came, so a
 * saved session replays it and a rerun (wn-travel.h) applies it again where
 * it was: the record's calls are applied, a live one is not while a rerun
 * still has record to come (WN_EXTERNAL_ERROR_REPLAYING; a fetch locks
 * nothing). docs/rest-api.md, "Recorded calls", has the format.
 *
 * Every call that acts on a job is journalled with the worker's id (the
 * dispatcher's own events, and job.unlocked, job.retriesSet,
 * job.workerRearmed, job.workerPolicyIgnored); a refused one as
 * job.reportRejected. Calls change the store at once, inside the caller's
 * main-loop iteration: no I/O here, the HTTP side is src/server.
 */
#pragma once

#if !defined (WINNOW_INSIDE) && !defined (WINNOW_COMPILATION)
# error "Only winnow.h can be included directly"
#endif

#include <glib.h>
#include <json-glib/json-glib.h>
#include "wn-types.h"
#include "wn-engine.h"

G_BEGIN_DECLS

#define WN_EXTERNAL_ERROR (wn_external_error_quark ())
GQuark wn_external_error_quark (void);

/* Camunda's failure cases, one code each, so a front end answers as Camunda
 * does (404 for NOT_FOUND, 400 for the others). */
typedef enum {
  WN_EXTERNAL_ERROR_NOT_FOUND,        /* no such job (never was, or it has ended) */
  WN_EXTERNAL_ERROR_NOT_LOCKED,       /* the job is not locked by anyone */
  WN_EXTERNAL_ERROR_WRONG_WORKER,     /* locked by another worker */
  WN_EXTERNAL_ERROR_LOCK_EXPIRED,     /* the caller's lock has expired in virtual time */
  WN_EXTERNAL_ERROR_MAX_LOCK,         /* extendLock past the first lock plus maxLock */
  WN_EXTERNAL_ERROR_INVALID,          /* a bad argument: empty worker id, negative retries, … */
  WN_EXTERNAL_ERROR_SIMULATED_WORKER, /* the worker id is one of the scenario's simulated workers */
  WN_EXTERNAL_ERROR_NOT_TRUSTED,      /* set retries on an EngineAuthoritative job */
  WN_EXTERNAL_ERROR_REPLAYING,        /* the run went back in time and replays its recorded calls */
  WN_EXTERNAL_ERROR_NOT_AVAILABLE,    /* lock: the job waits for its retry (a gate) */
} WnExternalError;

/* One topic of a fetch: its name and the lock to take (virtual µs; ≤ 0 or
 * more than maxLock = maxLock). */
typedef struct {
  const char *name;
  WnTime      lock_duration;
  JsonObject *process_variables;  /* NULL or empty: any job; else only jobs whose instance
                                   * has one of these variables with that value (OR, as
                                   * Camunda's processVariables) */
} WnExternalTopic;

/* What the last failure reported on a job said, for the job's next fetch
 * (Camunda's retries, errorMessage and errorDetails). */
typedef struct {
  gint        retries;        /* -1: none reported (Camunda's null) */
  const char *error_message;  /* or NULL */
  const char *error_details;  /* or NULL */
} WnExternalReport;

typedef struct _WnExternal WnExternal;

/* The engine's own outside side (made on first use, freed with the engine):
 * the one its replays apply recorded calls through, and so the one a front
 * end serves, so that what failures reported is the same either way. */
WnExternal   *wn_engine_get_external      (WnEngine *engine);
/* Another outside side of `engine` (borrowed; it must outlive the result). */
WnExternal   *wn_external_new             (WnEngine *engine);
void          wn_external_free            (WnExternal *external);
WnEngine     *wn_external_get_engine      (WnExternal *external);

/* Lock up to `max_tasks` jobs of `topics` for `worker`, the topics in the
 * given order, FIFO within one (every job has priority 0, so `use_priority`
 * changes nothing in Winnow). Each job locked is an execution that begins
 * (job.locked, job.executing by the worker). Appends the ids (char*, owned by
 * the array, which needs g_free as its free func) to `locked`; none is not an
 * error. */
gboolean      wn_external_fetch_and_lock  (WnExternal            *external,
                                           const char            *worker,
                                           guint                  max_tasks,
                                           gboolean               use_priority,
                                           const WnExternalTopic *topics,
                                           guint                  n_topics,
                                           GPtrArray             *locked,
                                           GError               **error);

/* `variables` (may be NULL) maps variable names to Winnow JSON values. */
gboolean      wn_external_complete        (WnExternal *external, const char *job, const char *worker,
                                           JsonObject *variables, GError **error);
/* retries ≥ 0 (0 = exhausted); retry_timeout ≥ 0 virtual µs. */
gboolean      wn_external_failure         (WnExternal *external, const char *job, const char *worker,
                                           const char *error_message, const char *error_details,
                                           gint retries, WnTime retry_timeout, GError **error);
gboolean      wn_external_bpmn_error      (WnExternal *external, const char *job, const char *worker,
                                           const char *error_code, const char *error_message,
                                           GError **error);
/* The lock then ends `new_duration` (virtual µs, > 0) from now. */
gboolean      wn_external_extend_lock     (WnExternal *external, const char *job, const char *worker,
                                           WnTime new_duration, GError **error);
/* Lock the job `job` for `worker` (Camunda's /lock): it must be available
 * (not locked by anyone, or its lock lapsed; not waiting behind a gate); one
 * the worker holds gets the new lock. An execution begins, as by a fetch. */
gboolean      wn_external_lock            (WnExternal *external, const char *job, const char *worker,
                                           WnTime lock_duration, GError **error);
/* Anyone may unlock (as in Camunda); an unlocked job stays as it is. */
gboolean      wn_external_unlock          (WnExternal *external, const char *job, GError **error);
/* An operator's retries for a WorkerTrusted job: shown to its next fetch;
 * 0 exhausts it now (a terminal fault, the task fails or holds an incident). */
gboolean      wn_external_set_retries     (WnExternal *external, const char *job, guint retries,
                                           GError **error);

/* What the job's last failure reported (borrowed until the next call), or
 * NULL when nothing was. */
const WnExternalReport *wn_external_get_report (WnExternal *external, const char *job);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WnExternal, wn_external_free)

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-dispatcher-private.h — what the simulated workers use beyond the public API. */
#pragma once

#ifndef WINNOW_COMPILATION
# error "wn-dispatcher-private.h is internal to the engine: include winnow.h"
#endif

#include "wn-dispatcher.h"

G_BEGIN_DECLS

/* wn_dispatcher_complete_mapped() that takes `bindings` (from wn_bindings_new(),
 * every value set, as wn_output_mapping_apply() leaves them) instead of copying
 * them, whether or not the report is accepted. */
gboolean _wn_dispatcher_complete_mapped_take (WnDispatcher *dispatcher, const char *job, const char *worker,
                                              GArray *bindings, GError **error);

/* A WorkerTrusted completion by the direct default: `body` (a reference is
 * taken; NULL = no data) goes whole under the job's output variable. The
 * outcome has no bindings array (bindings is NULL); its owner reads the body
 * with _wn_outcome_get_direct(). The simulated workers complete this way, which
 * spares the array, its buffer and a copy of the variable name per job. Only
 * the engine's own delivery callback ever sees such an outcome. */
gboolean _wn_dispatcher_complete_direct (WnDispatcher *dispatcher, const char *job, const char *worker,
                                         JsonNode *body, GError **error);
/* An outside WorkerTrusted worker's own retry (a Camunda failure with retries
 * left): unlock the job and gate it until now + `backoff`, as the worker
 * instructed, without asking any policy of the engine's; journals
 * job.workerRearmed with `message`. Holder only. */
gboolean _wn_dispatcher_rearm_trusted (WnDispatcher *dispatcher, const char *job, const char *worker,
                                       WnTime backoff, const char *message, GError **error);
/* Give a locked job back (Camunda's unlock): available again at once; the
 * execution the lock was running, if any, is lost as by a takeover. Journals
 * job.unlocked naming the holder. FALSE (WN_DISPATCHER_ERROR_NOT_FOUND) for an
 * unknown job; an unlocked one is left as it is. */
gboolean _wn_dispatcher_unlock (WnDispatcher *dispatcher, const char *job, GError **error);
/* Lock the job `job` (available now: fresh, re-armed, its lock lapsed) for
 * `worker`, as a fetch that takes it would (job.locked, or a takeover);
 * FALSE when there is no such job or it is not available. */
gboolean _wn_dispatcher_lock_job (WnDispatcher *dispatcher, const char *job, const char *worker,
                                  WnTime lock_duration, WnJobInfo *locked);

/* End a job, locked or not, with a terminal exhausted fault carrying
 * `message` (an operator set its retries to 0). */
gboolean _wn_dispatcher_exhaust (WnDispatcher *dispatcher, const char *job, const char *message,
                                 GError **error);

/* wn_dispatcher_enqueue() by an emitter that knows the plain lengths
 * (WnEvent.plain_len) of the spec's id, instance and node, in that order: the
 * journal's events of the job carry them (0: not plain). */
gboolean _wn_dispatcher_enqueue_plain (WnDispatcher *dispatcher, const WnJobSpec *spec,
                                       const guint8 plain[3], GError **error);

/* The body of a direct completion (borrowed), or NULL for any other outcome. */
JsonNode *_wn_outcome_get_direct (const WnOutcome *outcome);

G_END_DECLS

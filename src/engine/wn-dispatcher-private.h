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
/* The body of a direct completion (borrowed), or NULL for any other outcome. */
JsonNode *_wn_outcome_get_direct (const WnOutcome *outcome);

G_END_DECLS

/* wn-dispatcher-private.h — what the simulated workers use beyond the public API. */
#pragma once

#include "wn-dispatcher.h"

G_BEGIN_DECLS

/* wn_dispatcher_complete_mapped() that takes `bindings` (from wn_bindings_new())
 * instead of copying them, whether or not the report is accepted. */
gboolean _wn_dispatcher_complete_mapped_take (WnDispatcher *dispatcher, const char *job, const char *worker,
                                              GArray *bindings, GError **error);

G_END_DECLS

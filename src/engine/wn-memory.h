/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-memory.h — whether memory is left, asked before a size users choose runs
 * the process out of it.
 *
 * GLib aborts when an allocation fails, and its tables (and the engine's own
 * arrays) double as they grow: the allocation that fails is a big one, at an
 * arbitrary moment. Asking first, for what the next doublings will need, turns
 * that into a message while there is still room to write it.
 */
#pragma once

#ifndef WINNOW_COMPILATION
# error "wn-memory.h is internal to the engine: include winnow.h"
#endif

#include <glib.h>

G_BEGIN_DECLS

/* Whether `bytes` of address space could be had now. The space is reserved
 * and given back at once, never touched, so even a large question costs no
 * more than a map and an unmap (and is not filled by MALLOC_PERTURB_). */
gboolean wn_memory_has_room (gsize bytes);

G_END_DECLS

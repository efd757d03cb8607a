/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-pool.h — fixed-size objects carved out of big chunks.
 *
 * The engine keeps one object per instance for the whole run, and a run of
 * 10⁵ instances touches every page those objects live on for the first time.
 * A pool packs the objects without malloc's per-block header and takes its
 * memory in chunks: a small first one, then 2 MiB ones that ask the kernel for
 * transparent huge pages, where one fault maps 2 MiB instead of 4 KiB.
 *
 * Objects never move (pointers to them stay valid) and are zeroed when handed
 * out. A released object is reused by the next wn_pool_alloc0(); the memory
 * goes back when the pool is freed.
 *
 * With G_SLICE=always-malloc in the environment (what the project's valgrind
 * and sanitizer runs set to make GLib's slice allocator use malloc) every
 * object is its own g_malloc() block instead, so memory checkers see each one;
 * the owner must then release every object before freeing the pool, which the
 * engine does in either mode.
 */
#pragma once

#ifndef WINNOW_COMPILATION
# error "wn-pool.h is internal to the engine: include winnow.h"
#endif

#include <glib.h>

G_BEGIN_DECLS

typedef struct _WnPool WnPool;

WnPool   *wn_pool_new      (gsize object_size);
void      wn_pool_free     (WnPool *pool);
gpointer  wn_pool_alloc0   (WnPool *pool);
void      wn_pool_release  (WnPool *pool, gpointer object);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-lab-runner.h — run a sweep's cells (or a shard of them) on N threads.
 *
 * Shard K of N (1 ≤ K ≤ N) takes the cells c with c mod N = K − 1 (cells are
 * variant-major, so every shard gets a share of every variant). The cells of a
 * run are handed to `jobs` threads; each cell has its own engine and main
 * context, and is merged into its variant's summary as it finishes: merges are
 * exact and commutative, so the summaries are the same whatever the number of
 * threads and the order cells finish in, and memory holds one summary per
 * variant, not one per cell.
 */
#pragma once

#include <gio/gio.h>
#include "wn-lab-sweep.h"

G_BEGIN_DECLS

/* Called on the thread that called wn_lab_sweep_run, between cells. */
typedef void (*WnLabProgressFunc) (guint done, guint total, gpointer data);

/* "K/N" → shard K of N; WN_LAB_ERROR_SHARD otherwise. */
gboolean   wn_lab_shard_parse (const char *spec, guint *k, guint *n, GError **error);
/* Whether cell `cell` belongs to shard k of n. */
gboolean   wn_lab_shard_has   (guint k, guint n, guint cell);

/* One summary per variant (WnLabSummary*, all of them, those without a cell in
 * the shard empty). NULL with G_IO_ERROR_CANCELLED when cancelled. */
GPtrArray *wn_lab_sweep_run   (WnLabSweep        *sweep,
                               guint              shard_k,
                               guint              shard_n,
                               guint              jobs,
                               GCancellable      *cancellable,
                               WnLabProgressFunc  progress,
                               gpointer           data,
                               GError           **error);

/* The same, but cancelled it still returns the summaries, holding the cells
 * that finished (those in progress stop between two slices and are left
 * out): *finished of the shard's *cells (either may be NULL). NULL only for a
 * cell's own failure. */
GPtrArray *wn_lab_sweep_run_partial (WnLabSweep        *sweep,
                                     guint              shard_k,
                                     guint              shard_n,
                                     guint              jobs,
                                     GCancellable      *cancellable,
                                     WnLabProgressFunc  progress,
                                     gpointer           data,
                                     guint             *finished,
                                     guint             *cells,
                                     GError           **error);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-lab-sweep.h — a sweep: variants of one process × seeds (docs/sweeps.md).
 *
 * A sweep file (winnow.sweep/1) names a process (and optionally a scenario),
 * the instances and seeds of each run, and the variants: settings over the
 * retry policy, trust and onExhausted (engine-wide or per task) and the
 * simulated workers' failure probability, latency and concurrency, as an
 * explicit list, a grid (the product of axes), or both. Everything is
 * checked at load, every variant applied once, so that a run cannot fail
 * half-way. A cell is one (variant, seed) run: its own process and scenario
 * (loaded afresh and changed as the variant says), its own engine.
 */
#pragma once

#include <glib.h>
#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include "winnow.h"
#include "wn-lab-error.h"
#include "wn-lab-summary.h"

G_BEGIN_DECLS

#define WN_LAB_SWEEP_FORMAT "winnow.sweep/1"

typedef struct _WnLabSweep WnLabSweep;

/* Relative file names in the sweep are read from the sweep file's folder.
 * On failure: NULL, *diagnostics (WnDiagnostic*, when given) holds every
 * problem (FILE:LINE:COL: PATH: message — in the sweep, or in the process or
 * scenario it names), and the error carries them too (WN_LOAD_ERROR). */
WnLabSweep  *wn_lab_sweep_load_file   (const char *filename, gsize max_size,
                                       GPtrArray **diagnostics, GError **error);
/* The same from memory; relative names are read from base_dir. */
WnLabSweep  *wn_lab_sweep_load_data   (const char *data, gssize length, const char *display_name,
                                       const char *base_dir, gsize max_size,
                                       GPtrArray **diagnostics, GError **error);
void         wn_lab_sweep_free        (WnLabSweep *self);

/* A short digest of the sweep, its process and its scenario: rows with the
 * same id come from the same files. */
const char  *wn_lab_sweep_get_id      (WnLabSweep *self);
guint        wn_lab_sweep_get_n_variants (WnLabSweep *self);
const char  *wn_lab_sweep_get_variant_name (WnLabSweep *self, guint variant);
JsonObject  *wn_lab_sweep_get_variant_settings (WnLabSweep *self, guint variant);
guint        wn_lab_sweep_get_n_seeds (WnLabSweep *self);
guint64      wn_lab_sweep_get_seed    (WnLabSweep *self, guint index);
/* Every parameter some variant sets, in the order they first appear. */
GPtrArray   *wn_lab_sweep_get_params  (WnLabSweep *self);

/* Cells: variant-major, cell = variant × n_seeds + seed index. */
guint        wn_lab_sweep_get_n_cells (WnLabSweep *self);
/* An empty summary for a variant of this sweep. */
WnLabSummary *wn_lab_sweep_new_summary (WnLabSweep *self, guint variant);
/* Run one cell to its end and add it to `into` (the variant's summary). Safe
 * to call from several threads at once for different summaries: each call
 * has its own process, scenario, engine and main context. The run looks at
 * `cancellable` (may be NULL) between slices of scheduler actions: cancelled,
 * it stops there, adds nothing and fails with G_IO_ERROR_CANCELLED. */
gboolean     wn_lab_sweep_run_cell    (WnLabSweep *self, guint cell, WnLabSummary *into,
                                       GCancellable *cancellable, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WnLabSweep, wn_lab_sweep_free)

G_END_DECLS

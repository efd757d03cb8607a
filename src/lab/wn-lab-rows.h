/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-lab-rows.h — reading summary rows back (JSON lines), merging the rows
 * of each variant: what `winnow-run --merge` and the Compare tab's Open do. */
#pragma once

#include <glib.h>
#include "wn-lab-summary.h"

G_BEGIN_DECLS

typedef struct _WnLabRows WnLabRows;

WnLabRows *wn_lab_rows_new          (void);
void       wn_lab_rows_free         (WnLabRows *self);
/* Add every row of a JSON-lines text (blank lines skipped), merging rows of
 * one variant. It stops at the first line refused, with a message
 * "NAME:LINE:COL: …" (the rows before it stay added): a line that is not a
 * row (WN_LAB_ERROR_INVALID), a row of another sweep than those before
 * (WN_LAB_ERROR_MISMATCH), a seed of a variant twice (WN_LAB_ERROR_DUPLICATE). */
gboolean   wn_lab_rows_add_data     (WnLabRows *self, const char *data, gsize length,
                                     const char *display_name, GError **error);
/* The same for a file of at most max_size bytes (G_FILE_ERROR, or
 * WN_LAB_ERROR_INVALID when larger). */
gboolean   wn_lab_rows_add_file     (WnLabRows *self, const char *filename, gsize max_size,
                                     GError **error);
/* The merged variants in variant order (WnLabSummary*, the caller's: the
 * rows are left empty). */
GPtrArray *wn_lab_rows_steal_summaries (WnLabRows *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WnLabRows, wn_lab_rows_free)

G_END_DECLS

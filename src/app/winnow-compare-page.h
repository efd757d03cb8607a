/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-compare-page.h — the Compare tab: variants of the open process
 * (retry attempts, jitter, trust) run as a sweep off the GTK thread, their
 * completion-time CDFs overlaid, a table with 95 % intervals and the
 * sentences that say which differences are real. */
#pragma once

#include "winnow-panel.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_COMPARE_PAGE (winnow_compare_page_get_type ())
G_DECLARE_FINAL_TYPE (WinnowComparePage, winnow_compare_page, WINNOW, COMPARE_PAGE, WinnowPanel)

/* How much nicer than the window the variants' threads run (Linux). */
#define WINNOW_COMPARE_NICE 10

/* What the Run button does, with the page's fields as they are. FALSE (and the
 * reason shown on the page) when the variants cannot run. */
gboolean   winnow_compare_page_run        (WinnowComparePage *self);
void       winnow_compare_page_cancel     (WinnowComparePage *self);
gboolean   winnow_compare_page_is_running (WinnowComparePage *self);
/* The variants shown (WnLabSummary*, borrowed), or NULL before a run. */
GPtrArray *winnow_compare_page_get_summaries (WinnowComparePage *self);

/* The plot on show (SVG when the name ends in .svg, else PNG) and the table (CSV, as
 * winnow-run --format csv writes it). FALSE before a run, or when the file
 * cannot be written (the file that was there is kept). */
gboolean   winnow_compare_page_export_plot  (WinnowComparePage *self, GFile *file, GError **error);
gboolean   winnow_compare_page_export_table (WinnowComparePage *self, GFile *file, GError **error);

/* A comparison as a file: the rows, as winnow-run --sweep writes them (JSON
 * lines), and back (rows of shards merge as winnow-run --merge does). Open
 * replaces what the page shows; on a failure it changes nothing. */
gboolean   winnow_compare_page_save         (WinnowComparePage *self, GFile *file, GError **error);
gboolean   winnow_compare_page_open         (WinnowComparePage *self, GFile *file, GError **error);

G_END_DECLS

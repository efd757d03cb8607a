/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-lab-bars.h — the Compare page's outcomes: one stacked bar per
 * variant, its orders by how they ended (each end event, terminated, holding
 * an incident, still active), with a tooltip giving the counts. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define WINNOW_TYPE_LAB_BARS (winnow_lab_bars_get_type ())
G_DECLARE_FINAL_TYPE (WinnowLabBars, winnow_lab_bars, WINNOW, LAB_BARS, GtkWidget)

/* summaries: WnLabSummary* (a reference is kept), or NULL for none. */
void       winnow_lab_bars_set_summaries (WinnowLabBars *self, GPtrArray *summaries);
guint      winnow_lab_bars_get_n_bars    (WinnowLabBars *self);

G_END_DECLS

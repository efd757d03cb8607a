/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-lab-plot.h — the Compare page's plots, drawn with cairo through
 * GtkSnapshot, one curve per variant, overlaid: the completion-time CDF on a
 * logarithmic time axis, or the downstream load (executions per virtual
 * second, the mean run's) over virtual time, where retries that go out
 * together show as spikes. A tooltip reads every curve at the pointer. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define WINNOW_TYPE_LAB_PLOT (winnow_lab_plot_get_type ())
G_DECLARE_FINAL_TYPE (WinnowLabPlot, winnow_lab_plot, WINNOW, LAB_PLOT, GtkWidget)

typedef enum {
  WINNOW_LAB_PLOT_CDF,
  WINNOW_LAB_PLOT_LOAD,
} WinnowLabPlotMode;

GtkWidget *winnow_lab_plot_new            (void);
void       winnow_lab_plot_set_mode       (WinnowLabPlot *self, WinnowLabPlotMode mode);
/* summaries: WnLabSummary* (a reference is kept), or NULL for none. */
void       winnow_lab_plot_set_summaries  (WinnowLabPlot *self, GPtrArray *summaries);
guint      winnow_lab_plot_get_n_curves   (WinnowLabPlot *self);
/* The plot as an SVG document or a PNG image of width × height pixels,
 * dark on white. */
/* As SVG or PNG: winnow_lab_chart_render(). */
/* The colour of variant i, in the plot and the table alike. */

G_END_DECLS

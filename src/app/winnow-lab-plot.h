/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-lab-plot.h — the Compare page's completion-time plot: one CDF per
 * variant, overlaid, on a logarithmic time axis, drawn with cairo through
 * GtkSnapshot; a tooltip reads every curve at the pointer's time. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define WINNOW_TYPE_LAB_PLOT (winnow_lab_plot_get_type ())
G_DECLARE_FINAL_TYPE (WinnowLabPlot, winnow_lab_plot, WINNOW, LAB_PLOT, GtkWidget)

GtkWidget *winnow_lab_plot_new            (void);
/* summaries: WnLabSummary* (a reference is kept), or NULL for none. */
void       winnow_lab_plot_set_summaries  (WinnowLabPlot *self, GPtrArray *summaries);
guint      winnow_lab_plot_get_n_curves   (WinnowLabPlot *self);
/* The plot as an SVG document or a PNG image of width × height pixels,
 * dark on white. */
GBytes    *winnow_lab_plot_render         (WinnowLabPlot *self, gboolean svg, int width, int height,
                                           GError **error);
/* The colour of variant i, in the plot and the table alike. */
void       winnow_lab_plot_get_color      (guint i, gboolean dark, GdkRGBA *color);

G_END_DECLS

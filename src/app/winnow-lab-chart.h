/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-lab-chart.h — what the lab's newer charts (the Summary tab's
 * histogram, the Compare tab's attempts per job) share: a tooltip made by a
 * describe function from the pointer's x, a redraw when the style turns
 * dark or light, their size, and labelled grid lines. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The tooltip's text at x, or NULL for none (the caller frees it). */
typedef char *(*WinnowLabDescribeFunc) (GtkWidget *chart, double x);

/* In the chart's init. */
void winnow_lab_chart_init    (GtkWidget *chart, WinnowLabDescribeFunc describe);
/* A GtkWidgetClass.measure. */
void winnow_lab_chart_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                               int *minimum, int *natural, int *minimum_baseline, int *natural_baseline);
/* A grid line across at y from x0 to x1, its label at the left edge. */
void winnow_lab_chart_hline   (cairo_t *cr, const GdkRGBA *fg, double x0, double x1, double y, const char *label);
/* A grid line up at x from y0 to y1, its label centred at label_y. */
void winnow_lab_chart_vline   (cairo_t *cr, const GdkRGBA *fg, double x, double y0, double y1, double label_y,
                               const char *label);

G_END_DECLS

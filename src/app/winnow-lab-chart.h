/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-lab-chart.h — what the lab's charts (the Compare tab's plots and
 * bars, the Summary tab's histogram) share: the variants' colours, a tooltip
 * made by a describe function from the pointer's position, a redraw when the
 * style turns dark or light, their size and margins, labelled grid lines,
 * bars, and a draw function that paints the chart on any cairo context, so
 * that the widget and its SVG or PNG export are one drawing. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The plot area's distance from the chart's edges (the labels go there). */
#define WINNOW_LAB_CHART_MARGIN_L 48.0
#define WINNOW_LAB_CHART_MARGIN_R 16.0
#define WINNOW_LAB_CHART_MARGIN_T 12.0
#define WINNOW_LAB_CHART_MARGIN_B 28.0

/* The tooltip's text at (x, y), or NULL for none (the caller frees it). */
typedef char *(*WinnowLabDescribeFunc) (GtkWidget *chart, double x, double y);
/* The whole chart on `cr`, width × height, in `fg` on the background; the
 * line width is 1 and the font 10 px sans-serif when it is called. */
typedef void  (*WinnowLabDrawFunc)     (GtkWidget *chart, cairo_t *cr, double width, double height,
                                        const GdkRGBA *fg, gboolean dark);

/* Variant i's colour, in the light or the dark style. */
void    winnow_lab_chart_get_color (guint i, gboolean dark, GdkRGBA *color);

/* In the chart's init; `draw` may be NULL for a chart that snapshots itself. */
void    winnow_lab_chart_init      (GtkWidget *chart, WinnowLabDescribeFunc describe, WinnowLabDrawFunc draw);
/* A GtkWidgetClass.snapshot calling the draw function given to init. */
void    winnow_lab_chart_snapshot  (GtkWidget *widget, GtkSnapshot *snapshot);
/* A GtkWidgetClass.measure. */
void    winnow_lab_chart_measure   (GtkWidget *widget, GtkOrientation orientation, int for_size,
                                    int *minimum, int *natural, int *minimum_baseline, int *natural_baseline);
/* The chart drawn by its draw function as a document (dark on white,
 * whatever the window's style): SVG, or PNG. NULL with the reason when cairo
 * could not draw or encode it. */
GBytes *winnow_lab_chart_render    (GtkWidget *chart, gboolean svg, int width, int height, GError **error);

/* A grid line across at y from x0 to x1, its label at the left edge. */
void    winnow_lab_chart_hline     (cairo_t *cr, const GdkRGBA *fg, double x0, double x1, double y, const char *label);
/* A grid line up at x from y0 to y1 (none when y1 ≤ y0), its label centred at label_y. */
void    winnow_lab_chart_vline     (cairo_t *cr, const GdkRGBA *fg, double x, double y0, double y1, double label_y,
                                    const char *label);
/* Five grid lines across the plot area (below the top margin, plot_h high,
 * from the left margin to the right one): 0, ¼, ½, ¾ and all of `top`, each
 * labelled as a whole number followed by `unit` (" %", "/s" or ""). */
void    winnow_lab_chart_quarters  (cairo_t *cr, const GdkRGBA *fg, double width, double top_margin, double plot_h,
                                    double top, const char *unit);
/* A bar standing on `base`, h high, at least 1 px wide. */
void    winnow_lab_chart_bar       (cairo_t *cr, const GdkRGBA *color, double x, double base, double w, double h);

G_END_DECLS

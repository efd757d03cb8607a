/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-lab-chart.c — the lab charts' shared parts (see the header). */
#include "config.h"

#include <adwaita.h>

#include "winnow-lab-chart.h"

static gboolean
query_tooltip_cb (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    describe)
{
  g_autofree char *text = ((WinnowLabDescribeFunc) describe) (widget, x);

  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
dark_cb (GObject    *manager,
         GParamSpec *pspec,
         GtkWidget  *chart)
{
  gtk_widget_queue_draw (chart);
}

void
winnow_lab_chart_init (GtkWidget             *chart,
                       WinnowLabDescribeFunc  describe)
{
  gtk_widget_set_has_tooltip (chart, TRUE);
  g_signal_connect (chart, "query-tooltip", G_CALLBACK (query_tooltip_cb), describe);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark", G_CALLBACK (dark_cb), chart, 0);
}

void
winnow_lab_chart_measure (GtkWidget      *widget,
                          GtkOrientation  orientation,
                          int             for_size,
                          int            *minimum,
                          int            *natural,
                          int            *minimum_baseline,
                          int            *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 240 : 160;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 640 : 270;
}

void
winnow_lab_chart_hline (cairo_t       *cr,
                        const GdkRGBA *fg,
                        double         x0,
                        double         x1,
                        double         y,
                        const char    *label)
{
  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.15);
  cairo_move_to (cr, x0, y);
  cairo_line_to (cr, x1, y);
  cairo_stroke (cr);
  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.7);
  cairo_move_to (cr, 6, y + 3);
  cairo_show_text (cr, label);
}

void
winnow_lab_chart_vline (cairo_t       *cr,
                        const GdkRGBA *fg,
                        double         x,
                        double         y0,
                        double         y1,
                        double         label_y,
                        const char    *label)
{
  cairo_text_extents_t ext;

  if (y1 > y0)
    {
      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.15);
      cairo_move_to (cr, x, y0);
      cairo_line_to (cr, x, y1);
      cairo_stroke (cr);
    }
  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.7);
  cairo_text_extents (cr, label, &ext);
  cairo_move_to (cr, x - ext.x_advance / 2, label_y);
  cairo_show_text (cr, label);
}

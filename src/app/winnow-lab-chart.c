/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-lab-chart.c — the lab charts' shared parts (see the header). */
#include "config.h"

#include <math.h>
#include <cairo-svg.h>
#include <glib/gi18n.h>
#include <adwaita.h>

#include "winnow-lab-chart.h"

#define MARGIN_L WINNOW_LAB_CHART_MARGIN_L
#define MARGIN_R WINNOW_LAB_CHART_MARGIN_R

void
winnow_lab_chart_get_color (guint     i,
                            gboolean  dark,
                            GdkRGBA  *color)
{
  /* the GNOME palette's 3 and 4 shades (light, dark) */
  static const char *light[] = { "#1c71d8", "#c01c28", "#26a269", "#e66100", "#813d9c", "#865e3c", "#986a44", "#5e5c64" };
  static const char *darker[] = { "#62a0ea", "#f66151", "#57e389", "#ffa348", "#c061cb", "#cdab8f", "#f9f06b", "#c0bfbc" };

  gdk_rgba_parse (color, (dark ? darker : light)[i % G_N_ELEMENTS (light)]);
}

static gboolean
query_tooltip_cb (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    describe)
{
  g_autofree char *text = ((WinnowLabDescribeFunc) describe) (widget, x, y);

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
                       WinnowLabDescribeFunc  describe,
                       WinnowLabDrawFunc      draw)
{
  gtk_widget_set_has_tooltip (chart, TRUE);
  g_signal_connect (chart, "query-tooltip", G_CALLBACK (query_tooltip_cb), describe);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark", G_CALLBACK (dark_cb), chart, 0);
  g_object_set_data (G_OBJECT (chart), "winnow-lab-draw", draw);
}

static void
prepare (cairo_t *cr)
{
  cairo_set_line_width (cr, 1.0);
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, 10.0);
}

void
winnow_lab_chart_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  WinnowLabDrawFunc draw = g_object_get_data (G_OBJECT (widget), "winnow-lab-draw");
  double width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  GdkRGBA fg;
  cairo_t *cr;

  g_return_if_fail (draw != NULL);

  if (width <= MARGIN_L + MARGIN_R || height <= WINNOW_LAB_CHART_MARGIN_T + WINNOW_LAB_CHART_MARGIN_B)
    return;
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  prepare (cr);
  draw (widget, cr, width, height, &fg, adw_style_manager_get_dark (adw_style_manager_get_default ()));
  cairo_destroy (cr);
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

static cairo_status_t
append_cb (void                *data,
           const unsigned char *bytes,
           unsigned int         length)
{
  g_byte_array_append (data, bytes, length);
  return CAIRO_STATUS_SUCCESS;
}

GBytes *
winnow_lab_chart_render (GtkWidget  *chart,
                         gboolean    svg,
                         int         width,
                         int         height,
                         GError    **error)
{
  WinnowLabDrawFunc draw = g_object_get_data (G_OBJECT (chart), "winnow-lab-draw");
  g_autoptr(GByteArray) out = g_byte_array_new ();
  /* an export is a document: dark text on white, whatever the window's style */
  GdkRGBA fg = { 0.1, 0.1, 0.1, 1.0 };
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;

  g_return_val_if_fail (GTK_IS_WIDGET (chart) && draw != NULL, NULL);
  g_return_val_if_fail (width > MARGIN_L + MARGIN_R && height > WINNOW_LAB_CHART_MARGIN_T + WINNOW_LAB_CHART_MARGIN_B, NULL);

  surface = svg ? cairo_svg_surface_create_for_stream (append_cb, out, width, height)
                : cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cr = cairo_create (surface);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  prepare (cr);
  draw (chart, cr, width, height, &fg, FALSE);
  cairo_destroy (cr);
  /* the PNG encoder's result is its own, not the surface's */
  status = svg ? CAIRO_STATUS_SUCCESS : cairo_surface_write_to_png_stream (surface, append_cb, out);
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("The plot could not be drawn: %s"),
                   cairo_status_to_string (status));
      return NULL;
    }
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
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

void
winnow_lab_chart_quarters (cairo_t       *cr,
                           const GdkRGBA *fg,
                           double         width,
                           double         top_margin,
                           double         plot_h,
                           double         top,
                           const char    *unit)
{
  for (guint q = 0; q <= 4; q++)
    {
      g_autofree char *label = g_strdup_printf ("%.0f%s", top * q / 4.0, unit);

      winnow_lab_chart_hline (cr, fg, MARGIN_L, width - MARGIN_R, floor (top_margin + plot_h * (1.0 - q / 4.0)) + 0.5,
                              label);
    }
}

void
winnow_lab_chart_bar (cairo_t       *cr,
                      const GdkRGBA *color,
                      double         x,
                      double         base,
                      double         w,
                      double         h)
{
  gdk_cairo_set_source_rgba (cr, color);
  cairo_rectangle (cr, x, base - h, MAX (w, 1.0), h);
  cairo_fill (cr);
}

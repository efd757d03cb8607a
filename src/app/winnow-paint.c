/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-paint.c — cairo helpers shared by the diagram and the timeline. */
#include "config.h"

#include "winnow-paint.h"

#include <adwaita.h>

/* What a named colour falls back to when no stylesheet defines it (the app's
 * state colours match ui/style.css and ui/style-dark.css). */
static const struct {
  const char *name;
  const char *light;
  const char *dark;
} fallbacks[] = {
  { "accent_color",      "#1c71d8", "#78aeed" },
  { "accent_bg_color",   "#3584e4", "#3584e4" },
  { "success_color",     "#1b8553", "#8ff0a4" },
  { "error_color",       "#c01c28", "#ff7b63" },
  { "view_bg_color",     "#ffffff", "#1e1e1e" },
  { "winnow_available",  "#1f8a9c", "#4fc1d1" },
  { "winnow_gated",      "#a87300", "#f5c211" },
  { "winnow_locked",     "#1c71d8", "#62a0ea" },
  { "winnow_expired",    "#d35400", "#ffa348" },
  { "winnow_parked",     "#813d9c", "#c061cb" },
  { "winnow_incident",   "#e01b24", "#ff7b63" },
  { "winnow_completed",  "#26a269", "#57e389" },
  { "winnow_failed",     "#a51d2d", "#f66151" },
  { "winnow_active",     "#3584e4", "#78aeed" },
  { "winnow_idle",       "#77767b", "#9a9996" },
};

void
winnow_paint_lookup_color (GtkWidget  *widget,
                           const char *name,
                           GdkRGBA    *out)
{
  gboolean dark;

  if (gtk_style_context_lookup_color (gtk_widget_get_style_context (widget), name, out))
    return;
  dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  for (guint i = 0; i < G_N_ELEMENTS (fallbacks); i++)
    if (g_str_equal (fallbacks[i].name, name))
      {
        gdk_rgba_parse (out, dark ? fallbacks[i].dark : fallbacks[i].light);
        return;
      }
  g_return_if_reached ();
}

void
winnow_paint_set_color (cairo_t       *cr,
                        const GdkRGBA *color,
                        double         alpha)
{
  cairo_set_source_rgba (cr, color->red, color->green, color->blue, color->alpha * alpha);
}

void
winnow_paint_rounded_rect (cairo_t *cr,
                           double   x,
                           double   y,
                           double   w,
                           double   h,
                           double   r)
{
  r = MIN (r, MIN (w, h) / 2);
  cairo_new_sub_path (cr);
  cairo_arc (cr, x + w - r, y + r, r, -G_PI / 2, 0);
  cairo_arc (cr, x + w - r, y + h - r, r, 0, G_PI / 2);
  cairo_arc (cr, x + r, y + h - r, r, G_PI / 2, G_PI);
  cairo_arc (cr, x + r, y + r, r, G_PI, 3 * G_PI / 2);
  cairo_close_path (cr);
}

void
winnow_paint_fill_and_stroke (cairo_t       *cr,
                              const GdkRGBA *fill,
                              const GdkRGBA *line,
                              double         line_alpha,
                              double         width)
{
  winnow_paint_set_color (cr, fill, 1);
  cairo_fill_preserve (cr);
  winnow_paint_set_color (cr, line, line_alpha);
  cairo_set_line_width (cr, width);
  cairo_stroke (cr);
}

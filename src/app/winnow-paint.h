/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-paint.h — cairo helpers shared by the diagram and the timeline. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The named colour `name` of the widget's style (the app's stylesheet, or
 * Adwaita's); without it, a built-in fallback for light or dark mode. Every
 * name a caller uses has its fallback in winnow-paint.c. */
void winnow_paint_lookup_color (GtkWidget     *widget,
                                const char    *name,
                                GdkRGBA       *out);

/* Sets `color`, its alpha multiplied by `alpha`, as the cairo source. */
void winnow_paint_set_color    (cairo_t       *cr,
                                const GdkRGBA *color,
                                double         alpha);

/* Fills the current path with `fill` and strokes it, `width` wide, with
 * `line` at `line_alpha`; the line's colour and width stay set. */
void winnow_paint_fill_and_stroke (cairo_t       *cr,
                                   const GdkRGBA *fill,
                                   const GdkRGBA *line,
                                   double         line_alpha,
                                   double         width);

/* A rectangle with corners of radius r (at most half the shorter side), as a
 * new closed sub-path. */
void winnow_paint_rounded_rect (cairo_t       *cr,
                                double         x,
                                double         y,
                                double         w,
                                double         h,
                                double         r);

G_END_DECLS

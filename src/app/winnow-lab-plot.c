/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-lab-plot.c — completion-time CDFs (see the header). */
#include "config.h"

#include <math.h>
#include <cairo-svg.h>
#include <glib/gi18n.h>
#include <adwaita.h>

#include "winnow-lab-plot.h"
#include "wn-lab.h"

/* Quantiles sampled per curve: enough for a smooth line at any width. */
#define N_POINTS 400
#define MARGIN_L 48.0
#define MARGIN_R 16.0
#define MARGIN_T 12.0
#define MARGIN_B 28.0

struct _WinnowLabPlot
{
  GtkWidget  parent_instance;

  GPtrArray *summaries;     /* WnLabSummary*, or NULL */
  GArray    *curves;        /* per summary N_POINTS gint64 times, fraction i/N_POINTS */
  double     t_min;         /* the axis, in µs (log scale) */
  double     t_max;
  WinnowLabPlotMode mode;
  double     load_max;      /* load mode: the y axis's top, executions per second */
  guint      load_seconds;  /* load mode: the x axis, virtual seconds */
};

G_DEFINE_FINAL_TYPE (WinnowLabPlot, winnow_lab_plot, GTK_TYPE_WIDGET)

void
winnow_lab_plot_get_color (guint     i,
                           gboolean  dark,
                           GdkRGBA  *color)
{
  /* the GNOME palette's 3 and 4 shades (light, dark) */
  static const char *light[] = { "#1c71d8", "#c01c28", "#26a269", "#e66100", "#813d9c", "#865e3c", "#986a44", "#5e5c64" };
  static const char *darker[] = { "#62a0ea", "#f66151", "#57e389", "#ffa348", "#c061cb", "#cdab8f", "#f9f06b", "#c0bfbc" };

  gdk_rgba_parse (color, (dark ? darker : light)[i % G_N_ELEMENTS (light)]);
}

static double
x_of (WinnowLabPlot *self,
      double         t,
      double         width)
{
  double lo = log10 (self->t_min), hi = log10 (self->t_max);

  if (self->mode == WINNOW_LAB_PLOT_LOAD)
    return MARGIN_L + t / (self->load_seconds * (double) G_USEC_PER_SEC) * (width - MARGIN_L - MARGIN_R);
  return MARGIN_L + (log10 (MAX (t, self->t_min)) - lo) / (hi - lo) * (width - MARGIN_L - MARGIN_R);
}

static double
t_of (WinnowLabPlot *self,
      double         x,
      double         width)
{
  double lo = log10 (self->t_min), hi = log10 (self->t_max);

  if (self->mode == WINNOW_LAB_PLOT_LOAD)
    return (x - MARGIN_L) / (width - MARGIN_L - MARGIN_R) * self->load_seconds * (double) G_USEC_PER_SEC;
  return pow (10.0, lo + (x - MARGIN_L) / (width - MARGIN_L - MARGIN_R) * (hi - lo));
}

static void
rebuild (WinnowLabPlot *self)
{
  g_clear_pointer (&self->curves, g_array_unref);
  self->curves = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->t_min = G_MAXDOUBLE;
  self->t_max = 0;
  for (guint s = 0; self->summaries != NULL && s < self->summaries->len; s++)
    {
      const WnLabHistogram *h = wn_lab_summary_get_histogram (g_ptr_array_index (self->summaries, s));
      guint64 n = wn_lab_histogram_get_count (h);

      for (guint i = 1; i <= N_POINTS; i++)
        {
          gint64 t = n > 0 ? wn_lab_histogram_value_at_rank (h, (guint64) ceil ((double) i / N_POINTS * (double) n)) : -1;

          g_array_append_val (self->curves, t);
        }
      if (n > 0)
        {
          self->t_min = MIN (self->t_min, (double) MAX (wn_lab_histogram_get_min (h), 1));
          self->t_max = MAX (self->t_max, (double) wn_lab_histogram_get_max (h));
        }
    }
  self->load_max = 1;
  self->load_seconds = 1;
  for (guint s = 0; self->summaries != NULL && s < self->summaries->len; s++)
    {
      WnLabSummary *summary = g_ptr_array_index (self->summaries, s);
      const GArray *load = wn_lab_summary_get_load (summary);
      guint seeds = MAX (wn_lab_summary_get_n_seeds (summary), 1);

      self->load_seconds = MAX (self->load_seconds, load->len);
      for (guint i = 0; i < load->len; i++)
        self->load_max = MAX (self->load_max, (double) g_array_index (load, guint64, i) / seeds);
    }
  if (self->t_max <= 0)
    self->t_min = 1000, self->t_max = 1000000;
  /* whole decades around the data */
  self->t_min = pow (10.0, floor (log10 (self->t_min)));
  self->t_max = pow (10.0, ceil (log10 (MAX (self->t_max, self->t_min * 10))));
}

/* Everything, on any cairo context: the widget's, or an export's. */
static void
draw (WinnowLabPlot *self,
      cairo_t       *cr,
      double         width,
      double         height,
      const GdkRGBA *fg_color,
      gboolean       dark)
{
  double plot_h = height - MARGIN_T - MARGIN_B;
  GdkRGBA fg = *fg_color;

  /* grid and axes: decades (or whole virtual seconds) across, quarters up */
  cairo_set_line_width (cr, 1.0);
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, 10.0);
  {
    /* load: a tick every 1, 2, 5, 10, 20 … s, at most 10 of them */
    static const double mantissa[] = { 1, 2, 5 };
    double step = 1;

    for (guint k = 0; self->mode == WINNOW_LAB_PLOT_LOAD && self->load_seconds / step > 10; )
      {
        k++;
        step = mantissa[k % 3] * pow (10.0, k / 3);
      }
    for (double t = self->mode == WINNOW_LAB_PLOT_LOAD ? 0 : self->t_min;
         self->mode == WINNOW_LAB_PLOT_LOAD ? t <= self->load_seconds * (double) G_USEC_PER_SEC : t <= self->t_max * 1.0001;
         t = self->mode == WINNOW_LAB_PLOT_LOAD ? t + step * G_USEC_PER_SEC : t * 10.0)
      {
        double x = floor (x_of (self, t, width)) + 0.5;
        g_autofree char *label = wn_duration_format ((WnTime) t);
        cairo_text_extents_t ext;

        cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.15);
        cairo_move_to (cr, x, MARGIN_T);
        cairo_line_to (cr, x, MARGIN_T + plot_h);
        cairo_stroke (cr);
        cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.7);
        cairo_text_extents (cr, label, &ext);
        cairo_move_to (cr, x - ext.width / 2, height - 8);
        cairo_show_text (cr, label);
      }
  }
  for (guint q = 0; q <= 4; q++)
    {
      double y = floor (MARGIN_T + plot_h * (1.0 - q / 4.0)) + 0.5;
      g_autofree char *label = self->mode == WINNOW_LAB_PLOT_LOAD
                               ? g_strdup_printf ("%.0f/s", self->load_max * q / 4.0)
                               : g_strdup_printf ("%u %%", q * 25);

      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.15);
      cairo_move_to (cr, MARGIN_L, y);
      cairo_line_to (cr, width - MARGIN_R, y);
      cairo_stroke (cr);
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.7);
      cairo_move_to (cr, 6, y + 3);
      cairo_show_text (cr, label);
    }

  /* one step line per variant */
  cairo_set_line_width (cr, 2.0);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  for (guint s = 0; self->summaries != NULL && s < self->summaries->len; s++)
    {
      const gint64 *t = &g_array_index (self->curves, gint64, s * N_POINTS);
      GdkRGBA color;

      winnow_lab_plot_get_color (s, dark, &color);
      gdk_cairo_set_source_rgba (cr, &color);
      if (self->mode == WINNOW_LAB_PLOT_LOAD)
        {
          WnLabSummary *summary = g_ptr_array_index (self->summaries, s);
          const GArray *load = wn_lab_summary_get_load (summary);
          guint seeds = MAX (wn_lab_summary_get_n_seeds (summary), 1);

          /* each virtual second as a step: the mean run's executions in it */
          cairo_move_to (cr, x_of (self, 0, width), MARGIN_T + plot_h);
          for (guint i = 0; i < load->len; i++)
            {
              double y = MARGIN_T + plot_h * (1.0 - (double) g_array_index (load, guint64, i) / seeds / self->load_max);

              cairo_line_to (cr, x_of (self, (double) i * G_USEC_PER_SEC, width), y);
              cairo_line_to (cr, x_of (self, (double) (i + 1) * G_USEC_PER_SEC, width), y);
            }
          cairo_stroke (cr);
          continue;
        }
      if (t[0] < 0)
        continue;
      cairo_move_to (cr, x_of (self, (double) t[0], width), MARGIN_T + plot_h);
      for (guint i = 0; i < N_POINTS; i++)
        cairo_line_to (cr, x_of (self, (double) t[i], width), MARGIN_T + plot_h * (1.0 - (double) (i + 1) / N_POINTS));
      cairo_stroke (cr);
    }
}

static void
winnow_lab_plot_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  WinnowLabPlot *self = WINNOW_LAB_PLOT (widget);
  double width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  GdkRGBA fg;
  cairo_t *cr;

  if (width <= MARGIN_L + MARGIN_R || height <= MARGIN_T + MARGIN_B)
    return;
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  draw (self, cr, width, height, &fg, adw_style_manager_get_dark (adw_style_manager_get_default ()));
  cairo_destroy (cr);
}

static cairo_status_t
append_cb (void                *data,
           const unsigned char *bytes,
           unsigned int         length)
{
  g_byte_array_append (data, bytes, length);
  return CAIRO_STATUS_SUCCESS;
}

static void
winnow_lab_plot_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 240 : 160;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 640 : 280;
}

/* The tooltip: each curve's share of orders done by the pointer's time. */
static gboolean
query_tooltip_cb (GtkWidget     *widget,
                  int            x,
                  int            y,
                  gboolean       keyboard,
                  GtkTooltip    *tooltip,
                  WinnowLabPlot *self)
{
  double width = gtk_widget_get_width (widget);
  double t;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *at = NULL;

  if (self->summaries == NULL || self->summaries->len == 0 || x < MARGIN_L || x > width - MARGIN_R)
    return FALSE;
  t = t_of (self, x, width);
  if (self->mode == WINNOW_LAB_PLOT_LOAD)
    {
      guint second = (guint) (t / G_USEC_PER_SEC);

      /* Translators: the load tooltip's first line: "Executions per second at T+12s:" */
      g_string_append_printf (text, _("Executions in virtual second %u (mean of the runs):"), second);
      for (guint s = 0; s < self->summaries->len; s++)
        {
          WnLabSummary *summary = g_ptr_array_index (self->summaries, s);
          const GArray *load = wn_lab_summary_get_load (summary);
          double mean = second < load->len
                        ? (double) g_array_index (load, guint64, second) / MAX (wn_lab_summary_get_n_seeds (summary), 1)
                        : 0.0;

          g_string_append_printf (text, "\n%u  %.1f  %s", s, mean, wn_lab_summary_get_name (summary));
        }
      gtk_tooltip_set_text (tooltip, text->str);
      return TRUE;
    }
  at = wn_duration_format ((WnTime) t);
  /* Translators: the tooltip's first line: "done by 1.5s:" */
  g_string_append_printf (text, _("Orders done by %s:"), at);
  for (guint s = 0; s < self->summaries->len; s++)
    {
      const gint64 *ts = &g_array_index (self->curves, gint64, s * N_POINTS);
      guint done = 0;

      while (done < N_POINTS && ts[done] >= 0 && (double) ts[done] <= t)
        done++;
      g_string_append_printf (text, "\n%u  %.1f %%  %s", s, 100.0 * done / N_POINTS,
                              wn_lab_summary_get_name (g_ptr_array_index (self->summaries, s)));
    }
  gtk_tooltip_set_text (tooltip, text->str);
  return TRUE;
}

static void
dark_cb (GObject    *manager,
         GParamSpec *pspec,
         GtkWidget  *self)
{
  gtk_widget_queue_draw (self);
}

static void
winnow_lab_plot_dispose (GObject *object)
{
  WinnowLabPlot *self = WINNOW_LAB_PLOT (object);

  g_clear_pointer (&self->summaries, g_ptr_array_unref);
  g_clear_pointer (&self->curves, g_array_unref);
  G_OBJECT_CLASS (winnow_lab_plot_parent_class)->dispose (object);
}

static void
winnow_lab_plot_class_init (WinnowLabPlotClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = winnow_lab_plot_dispose;
  widget_class->snapshot = winnow_lab_plot_snapshot;
  widget_class->measure = winnow_lab_plot_measure;
  gtk_widget_class_set_css_name (widget_class, "lab-plot");
}

static void
winnow_lab_plot_init (WinnowLabPlot *self)
{
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), self);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark", G_CALLBACK (dark_cb), self, 0);
  rebuild (self);
}

GtkWidget *
winnow_lab_plot_new (void)
{
  return g_object_new (WINNOW_TYPE_LAB_PLOT, NULL);
}

void
winnow_lab_plot_set_summaries (WinnowLabPlot *self,
                               GPtrArray     *summaries)
{
  g_return_if_fail (WINNOW_IS_LAB_PLOT (self));

  if (summaries != NULL)
    g_ptr_array_ref (summaries);
  g_clear_pointer (&self->summaries, g_ptr_array_unref);
  self->summaries = summaries;
  rebuild (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
winnow_lab_plot_get_n_curves (WinnowLabPlot *self)
{
  g_return_val_if_fail (WINNOW_IS_LAB_PLOT (self), 0);
  return self->summaries != NULL ? self->summaries->len : 0;
}

GBytes *
winnow_lab_plot_render (WinnowLabPlot  *self,
                        gboolean        svg,
                        int             width,
                        int             height,
                        GError        **error)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  /* an export is a document: dark text on white, whatever the window's style */
  GdkRGBA fg = { 0.1, 0.1, 0.1, 1.0 };
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;

  g_return_val_if_fail (WINNOW_IS_LAB_PLOT (self), NULL);
  g_return_val_if_fail (width > MARGIN_L + MARGIN_R && height > MARGIN_T + MARGIN_B, NULL);

  surface = svg ? cairo_svg_surface_create_for_stream (append_cb, out, width, height)
                : cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cr = cairo_create (surface);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  draw (self, cr, width, height, &fg, FALSE);
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
winnow_lab_plot_set_mode (WinnowLabPlot     *self,
                          WinnowLabPlotMode  mode)
{
  g_return_if_fail (WINNOW_IS_LAB_PLOT (self));

  self->mode = mode;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-lab-plot.c — completion-time CDFs (see the header). */
#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "winnow-lab-chart.h"
#include "winnow-lab-plot.h"
#include "wn-lab.h"

/* Quantiles sampled per curve: enough for a smooth line at any width. */
#define N_POINTS 400
#define MARGIN_L WINNOW_LAB_CHART_MARGIN_L
#define MARGIN_R WINNOW_LAB_CHART_MARGIN_R
#define MARGIN_T WINNOW_LAB_CHART_MARGIN_T
#define MARGIN_B WINNOW_LAB_CHART_MARGIN_B

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
draw (GtkWidget     *widget,
      cairo_t       *cr,
      double         width,
      double         height,
      const GdkRGBA *fg,
      gboolean       dark)
{
  WinnowLabPlot *self = WINNOW_LAB_PLOT (widget);
  double plot_h = height - MARGIN_T - MARGIN_B;

  /* grid and axes: decades (or whole virtual seconds) across, quarters up */
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
        g_autofree char *label = wn_duration_format ((WnTime) t);

        winnow_lab_chart_vline (cr, fg, floor (x_of (self, t, width)) + 0.5, MARGIN_T, MARGIN_T + plot_h, height - 8, label);
      }
  }
  if (self->mode == WINNOW_LAB_PLOT_LOAD)
    winnow_lab_chart_quarters (cr, fg, width, MARGIN_T, plot_h, self->load_max, "/s");
  else
    winnow_lab_chart_quarters (cr, fg, width, MARGIN_T, plot_h, 100.0, " %");

  /* one step line per variant */
  cairo_set_line_width (cr, 2.0);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  for (guint s = 0; self->summaries != NULL && s < self->summaries->len; s++)
    {
      const gint64 *t = &g_array_index (self->curves, gint64, s * N_POINTS);
      GdkRGBA color;

      winnow_lab_chart_get_color (s, dark, &color);
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

/* The tooltip: each curve's share of orders done by the pointer's time. */
static char *
describe (GtkWidget *widget,
          double     x,
          double     y)
{
  WinnowLabPlot *self = WINNOW_LAB_PLOT (widget);
  double width = gtk_widget_get_width (widget);
  double t;
  GString *text;
  g_autofree char *at = NULL;

  if (self->summaries == NULL || self->summaries->len == 0 || x < MARGIN_L || x > width - MARGIN_R)
    return NULL;
  text = g_string_new (NULL);
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
      return g_string_free (text, FALSE);
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
  return g_string_free (text, FALSE);
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
  widget_class->snapshot = winnow_lab_chart_snapshot;
  widget_class->measure = winnow_lab_chart_measure;
  gtk_widget_class_set_css_name (widget_class, "lab-plot");
}

static void
winnow_lab_plot_init (WinnowLabPlot *self)
{
  winnow_lab_chart_init (GTK_WIDGET (self), describe, draw);
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

void
winnow_lab_plot_set_mode (WinnowLabPlot     *self,
                          WinnowLabPlotMode  mode)
{
  g_return_if_fail (WINNOW_IS_LAB_PLOT (self));

  self->mode = mode;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

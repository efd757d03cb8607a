/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-lab-histogram.c — a completion-time histogram (see the header). */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <glib/gi18n.h>
#include <adwaita.h>

#include "winnow.h"
#include "winnow-lab-histogram.h"
#include "winnow-lab-chart.h"
#include "wn-lab-summary.h"

#define MARGIN_L WINNOW_LAB_CHART_MARGIN_L
#define MARGIN_R WINNOW_LAB_CHART_MARGIN_R
/* room above for the marks' labels */
#define MARGIN_T (WINNOW_LAB_CHART_MARGIN_T + 10.0)
#define MARGIN_B WINNOW_LAB_CHART_MARGIN_B

/* The marks, in the order they are drawn and listed. */
static const struct {
  const char *label;
  double      p;          /* 100: the maximum */
} marks[] = {
  { "p50", 50 }, { "p90", 90 }, { "p99", 99 }, { NC_("percentile", "max"), 100 },
};

struct _WinnowLabHistogram
{
  GtkWidget       parent_instance;

  WnLabHistogram *histogram;  /* NULL: none */
  GArray         *bars;       /* guint64 per bar, from decade lo */
  double          lo, hi;     /* the axis: whole decades, µs */
  guint64         top;        /* the y axis: the highest bar, up to four whole steps */
  gint64          at[G_N_ELEMENTS (marks)];
};

G_DEFINE_FINAL_TYPE (WinnowLabHistogram, winnow_lab_histogram, GTK_TYPE_WIDGET)

static double
x_of (WinnowLabHistogram *self,
      double              t,
      double              width)
{
  return MARGIN_L + (log10 (MAX (t, self->lo)) - log10 (self->lo)) / (log10 (self->hi) - log10 (self->lo))
                    * (width - MARGIN_L - MARGIN_R);
}

/* The lower bound of bar i, µs. */
static double
bar_lower (WinnowLabHistogram *self,
           guint               i)
{
  return self->lo * pow (10.0, (double) i / WINNOW_LAB_HISTOGRAM_BARS_PER_DECADE);
}

static void
add_bucket_cb (gint64   lower,
               gint64   width,
               guint64  count,
               gpointer data)
{
  WinnowLabHistogram *self = data;
  /* a bucket goes whole to the bar of its middle: buckets are ≤ 1/128 wide,
   * bars a tenth of a decade */
  double middle = MAX ((double) lower + (double) (width - 1) / 2.0, self->lo);
  guint i = (guint) floor ((log10 (middle) - log10 (self->lo)) * WINNOW_LAB_HISTOGRAM_BARS_PER_DECADE);
  guint64 *bar;

  i = MIN (i, self->bars->len - 1);
  bar = &g_array_index (self->bars, guint64, i);
  *bar += count;
  self->top = MAX (self->top, *bar);
}

static void
rebuild (WinnowLabHistogram *self)
{
  guint n;

  g_array_set_size (self->bars, 0);
  self->top = 0;
  self->lo = 1000;
  self->hi = 1000000;
  if (self->histogram == NULL)
    return;
  self->lo = pow (10.0, floor (log10 ((double) MAX (wn_lab_histogram_get_min (self->histogram), 1))));
  self->hi = pow (10.0, ceil (log10 ((double) MAX (wn_lab_histogram_get_max (self->histogram), 1))));
  if (self->hi < self->lo * 10)
    self->hi = self->lo * 10;
  n = (guint) lround (log10 (self->hi / self->lo)) * WINNOW_LAB_HISTOGRAM_BARS_PER_DECADE;
  g_array_set_size (self->bars, n);
  wn_lab_histogram_foreach (self->histogram, add_bucket_cb, self);
  /* quarters of whole counts: 3 instances do not label their axis 1, 2, 2, 3 */
  self->top = ((self->top + 3) / 4) * 4;
  for (guint m = 0; m < G_N_ELEMENTS (marks); m++)
    self->at[m] = marks[m].p >= 100 ? wn_lab_histogram_get_max (self->histogram)
                                    : wn_lab_histogram_percentile (self->histogram, marks[m].p);
}

static void
draw (GtkWidget     *widget,
      cairo_t       *cr,
      double         width,
      double         height,
      const GdkRGBA *fg,
      gboolean       dark)
{
  WinnowLabHistogram *self = WINNOW_LAB_HISTOGRAM (widget);
  double plot_h = height - MARGIN_T - MARGIN_B;
  GdkRGBA color;

  /* decades across, quarters of the highest bar up */
  for (double t = self->lo; t <= self->hi * 1.0001; t *= 10.0)
    {
      g_autofree char *label = wn_duration_format ((WnTime) t);

      winnow_lab_chart_vline (cr, fg, floor (x_of (self, t, width)) + 0.5, MARGIN_T, MARGIN_T + plot_h, height - 8, label);
    }
  winnow_lab_chart_quarters (cr, fg, width, MARGIN_T, plot_h, (double) self->top, "");

  winnow_lab_chart_get_color (0, dark, &color);
  color.alpha = 0.75;
  for (guint i = 0; i < self->bars->len; i++)
    {
      guint64 count = g_array_index (self->bars, guint64, i);
      double x0 = x_of (self, bar_lower (self, i), width), x1 = x_of (self, bar_lower (self, i + 1), width);
      double h = plot_h * (double) count / (double) MAX (self->top, 1);

      if (count == 0)
        continue;
      winnow_lab_chart_bar (cr, &color, x0 + 0.5, MARGIN_T + plot_h, x1 - x0 - 1.0, h);
    }

  /* the marks: dashed lines, labelled above the plot (staggered when close) */
  if (self->histogram != NULL)
    {
      double dash[] = { 4.0, 3.0 };
      double last_end = -G_MAXDOUBLE;

      winnow_lab_chart_get_color (1, dark, &color);
      for (guint m = 0, next; m < G_N_ELEMENTS (marks); m = next)
        {
          double x = floor (x_of (self, (double) self->at[m], width)) + 0.5;
          g_autofree char *value = wn_lab_format_duration ((double) self->at[m]);
          g_autoptr(GString) label = g_string_new (NULL);
          cairo_text_extents_t ext;
          double y = MARGIN_T - 6;

          /* marks of one value share a line and a label: "p99 max 950ms" */
          for (next = m; next < G_N_ELEMENTS (marks) && self->at[next] == self->at[m]; next++)
            g_string_append_printf (label, "%s ", g_dpgettext2 (NULL, "percentile", marks[next].label));
          g_string_append (label, value);
          gdk_cairo_set_source_rgba (cr, &color);
          cairo_set_dash (cr, dash, 2, 0);
          cairo_move_to (cr, x, MARGIN_T);
          cairo_line_to (cr, x, MARGIN_T + plot_h);
          cairo_stroke (cr);
          cairo_set_dash (cr, NULL, 0, 0);
          cairo_text_extents (cr, label->str, &ext);
          /* a label that would run into the one before goes inside the plot */
          if (x + 3 < last_end)
            y = MARGIN_T + 12 + 12 * (m % 3);
          else
            last_end = x + 3 + ext.x_advance;
          cairo_move_to (cr, MIN (x + 3, width - ext.x_advance - 2), y);
          cairo_show_text (cr, label->str);
        }
    }
}

char *
winnow_lab_histogram_describe_at (WinnowLabHistogram *self,
                                  double              x)
{
  double width;
  guint i;
  g_autofree char *from = NULL;
  g_autofree char *to = NULL;
  guint64 count, total;
  GString *text;

  g_return_val_if_fail (WINNOW_IS_LAB_HISTOGRAM (self), NULL);

  width = gtk_widget_get_width (GTK_WIDGET (self));
  if (self->histogram == NULL || self->bars->len == 0 || x < MARGIN_L || x >= width - MARGIN_R)
    return NULL;
  i = (guint) ((x - MARGIN_L) / (width - MARGIN_L - MARGIN_R) * self->bars->len);
  i = MIN (i, self->bars->len - 1);
  count = g_array_index (self->bars, guint64, i);
  total = wn_lab_histogram_get_count (self->histogram);
  from = wn_lab_format_duration (bar_lower (self, i));
  to = wn_lab_format_duration (bar_lower (self, i + 1));
  text = g_string_new (NULL);
  /* Translators: a histogram bar's tooltip: "1.2s – 1.5s: 31 instances (0.3 %)" */
  g_string_append_printf (text, g_dngettext (NULL, "%s – %s: %" PRIu64 " instance (%.1f %%)",
                                             "%s – %s: %" PRIu64 " instances (%.1f %%)", count),
                          from, to, count, total > 0 ? 100.0 * (double) count / (double) total : 0.0);
  for (guint m = 0; m < G_N_ELEMENTS (marks); m++)
    {
      g_autofree char *value = wn_lab_format_duration ((double) self->at[m]);

      g_string_append_printf (text, "\n%s  %s", g_dpgettext2 (NULL, "percentile", marks[m].label), value);
    }
  return g_string_free (text, FALSE);
}

static char *
describe (GtkWidget *chart,
          double     x,
          double     y)
{
  return winnow_lab_histogram_describe_at (WINNOW_LAB_HISTOGRAM (chart), x);
}

static void
winnow_lab_histogram_dispose (GObject *object)
{
  WinnowLabHistogram *self = WINNOW_LAB_HISTOGRAM (object);

  g_clear_pointer (&self->histogram, wn_lab_histogram_free);
  g_clear_pointer (&self->bars, g_array_unref);
  G_OBJECT_CLASS (winnow_lab_histogram_parent_class)->dispose (object);
}

static void
winnow_lab_histogram_class_init (WinnowLabHistogramClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = winnow_lab_histogram_dispose;
  widget_class->snapshot = winnow_lab_chart_snapshot;
  widget_class->measure = winnow_lab_chart_measure;
  gtk_widget_class_set_css_name (widget_class, "lab-histogram");
}

static void
winnow_lab_histogram_init (WinnowLabHistogram *self)
{
  self->bars = g_array_new (FALSE, TRUE, sizeof (guint64));
  winnow_lab_chart_init (GTK_WIDGET (self), describe, draw);
  rebuild (self);
}

void
winnow_lab_histogram_set_histogram (WinnowLabHistogram   *self,
                                    const WnLabHistogram *histogram)
{
  g_return_if_fail (WINNOW_IS_LAB_HISTOGRAM (self));

  g_clear_pointer (&self->histogram, wn_lab_histogram_free);
  if (histogram != NULL && wn_lab_histogram_get_count (histogram) > 0)
    self->histogram = wn_lab_histogram_copy (histogram);
  rebuild (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint64
winnow_lab_histogram_get_total (WinnowLabHistogram *self)
{
  guint64 total = 0;

  g_return_val_if_fail (WINNOW_IS_LAB_HISTOGRAM (self), 0);
  for (guint i = 0; i < self->bars->len; i++)
    total += g_array_index (self->bars, guint64, i);
  return total;
}

guint
winnow_lab_histogram_get_n_bars (WinnowLabHistogram *self)
{
  g_return_val_if_fail (WINNOW_IS_LAB_HISTOGRAM (self), 0);
  return self->bars->len;
}

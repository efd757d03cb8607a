/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-lab-attempts.c — attempts per job, per variant (see the header). */
#include "config.h"

#include <math.h>
#include <glib/gi18n.h>
#include <adwaita.h>

#include "winnow-lab-attempts.h"
#include "winnow-lab-chart.h"
#include "wn-lab.h"

#define MARGIN_L WINNOW_LAB_CHART_MARGIN_L
#define MARGIN_R WINNOW_LAB_CHART_MARGIN_R
#define MARGIN_T WINNOW_LAB_CHART_MARGIN_T
#define MARGIN_B WINNOW_LAB_CHART_MARGIN_B

struct _WinnowLabAttempts
{
  GtkWidget  parent_instance;

  GPtrArray *summaries;   /* WnLabSummary*, or NULL */
  GArray    *counts;      /* guint64 [variant × WINNOW_LAB_ATTEMPTS_MAX], group k − 1 */
  GArray    *totals;      /* guint64 per variant: its jobs */
  guint      n_groups;
  double     top;         /* the y axis: a share, 0 … 1 */
};

G_DEFINE_FINAL_TYPE (WinnowLabAttempts, winnow_lab_attempts, GTK_TYPE_WIDGET)

typedef struct {
  guint64 *row;
  guint    n_groups;
} Gather;

static void
gather_cb (gint64   lower,
           gint64   width,
           guint64  count,
           gpointer data)
{
  Gather *g = data;
  guint k = (guint) CLAMP (lower, 1, WINNOW_LAB_ATTEMPTS_MAX);

  g->row[k - 1] += count;
  g->n_groups = MAX (g->n_groups, k);
}

static double
share (WinnowLabAttempts *self,
       guint              v,
       guint              k)
{
  guint64 total = g_array_index (self->totals, guint64, v);

  return total > 0 ? (double) winnow_lab_attempts_get_count (self, v, k) / (double) total : 0.0;
}

static void
rebuild (WinnowLabAttempts *self)
{
  guint n = self->summaries != NULL ? self->summaries->len : 0;

  g_array_set_size (self->counts, 0);
  g_array_set_size (self->counts, n * WINNOW_LAB_ATTEMPTS_MAX);
  g_array_set_size (self->totals, n);
  self->n_groups = 0;
  self->top = 0.25;
  for (guint v = 0; v < n; v++)
    {
      const WnLabHistogram *h = wn_lab_summary_get_attempts (g_ptr_array_index (self->summaries, v));
      Gather g = { &g_array_index (self->counts, guint64, v * WINNOW_LAB_ATTEMPTS_MAX), 0 };

      wn_lab_histogram_foreach (h, gather_cb, &g);
      g_array_index (self->totals, guint64, v) = wn_lab_histogram_get_count (h);
      self->n_groups = MAX (self->n_groups, g.n_groups);
    }
  for (guint v = 0; v < n; v++)
    for (guint k = 1; k <= self->n_groups; k++)
      self->top = MAX (self->top, share (self, v, k));
  /* quarters of a whole tenth */
  self->top = MIN (ceil (self->top * 10.0) / 10.0, 1.0);
}

static void
draw (GtkWidget     *widget,
      cairo_t       *cr,
      double         width,
      double         height,
      const GdkRGBA *fg,
      gboolean       dark)
{
  WinnowLabAttempts *self = WINNOW_LAB_ATTEMPTS (widget);
  double plot_w = width - MARGIN_L - MARGIN_R, plot_h = height - MARGIN_T - MARGIN_B;
  guint n = self->summaries != NULL ? self->summaries->len : 0;

  winnow_lab_chart_quarters (cr, fg, width, MARGIN_T, plot_h, self->top * 100.0, " %");
  for (guint k = 1; k <= self->n_groups; k++)
    {
      double group_w = plot_w / self->n_groups;
      double x0 = MARGIN_L + (k - 1) * group_w;
      double bar_w = group_w * 0.8 / MAX (n, 1);
      g_autofree char *label = k == WINNOW_LAB_ATTEMPTS_MAX ? g_strdup_printf ("≥%u", k) : g_strdup_printf ("%u", k);

      for (guint v = 0; v < n; v++)
        {
          GdkRGBA color;

          winnow_lab_chart_get_color (v, dark, &color);
          winnow_lab_chart_bar (cr, &color, x0 + group_w * 0.1 + v * bar_w, MARGIN_T + plot_h, bar_w - 1.0,
                                plot_h * share (self, v, k) / self->top);
        }
      /* no line: the groups' labels alone */
      winnow_lab_chart_vline (cr, fg, x0 + group_w / 2, 0, 0, height - 8, label);
    }
}

char *
winnow_lab_attempts_describe_at (WinnowLabAttempts *self,
                                 double             x)
{
  double plot_w;
  guint k;
  GString *text;

  g_return_val_if_fail (WINNOW_IS_LAB_ATTEMPTS (self), NULL);

  plot_w = gtk_widget_get_width (GTK_WIDGET (self)) - MARGIN_L - MARGIN_R;
  if (self->n_groups == 0 || plot_w <= 0 || x < MARGIN_L || x >= MARGIN_L + plot_w)
    return NULL;
  k = 1 + (guint) ((x - MARGIN_L) / plot_w * self->n_groups);
  k = MIN (k, self->n_groups);
  text = g_string_new (NULL);
  if (k == WINNOW_LAB_ATTEMPTS_MAX)
    /* Translators: the attempts plot's tooltip heading */
    g_string_append_printf (text, _("Jobs that took %u executions or more:"), k);
  else
    g_string_append_printf (text, g_dngettext (NULL, "Jobs that took %u execution:", "Jobs that took %u executions:", k), k);
  for (guint v = 0; v < self->summaries->len; v++)
    g_string_append_printf (text, "\n%u  %.1f %% (%" G_GUINT64_FORMAT ")  %s", v, 100.0 * share (self, v, k),
                            winnow_lab_attempts_get_count (self, v, k),
                            wn_lab_summary_get_name (g_ptr_array_index (self->summaries, v)));
  return g_string_free (text, FALSE);
}

static char *
describe (GtkWidget *chart,
          double     x,
          double     y)
{
  return winnow_lab_attempts_describe_at (WINNOW_LAB_ATTEMPTS (chart), x);
}

static void
winnow_lab_attempts_dispose (GObject *object)
{
  WinnowLabAttempts *self = WINNOW_LAB_ATTEMPTS (object);

  g_clear_pointer (&self->summaries, g_ptr_array_unref);
  g_clear_pointer (&self->counts, g_array_unref);
  g_clear_pointer (&self->totals, g_array_unref);
  G_OBJECT_CLASS (winnow_lab_attempts_parent_class)->dispose (object);
}

static void
winnow_lab_attempts_class_init (WinnowLabAttemptsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = winnow_lab_attempts_dispose;
  widget_class->snapshot = winnow_lab_chart_snapshot;
  widget_class->measure = winnow_lab_chart_measure;
  gtk_widget_class_set_css_name (widget_class, "lab-attempts");
}

static void
winnow_lab_attempts_init (WinnowLabAttempts *self)
{
  self->counts = g_array_new (FALSE, TRUE, sizeof (guint64));
  self->totals = g_array_new (FALSE, TRUE, sizeof (guint64));
  winnow_lab_chart_init (GTK_WIDGET (self), describe, draw);
  rebuild (self);
}

void
winnow_lab_attempts_set_summaries (WinnowLabAttempts *self,
                                   GPtrArray         *summaries)
{
  g_return_if_fail (WINNOW_IS_LAB_ATTEMPTS (self));

  if (summaries != NULL)
    g_ptr_array_ref (summaries);
  g_clear_pointer (&self->summaries, g_ptr_array_unref);
  self->summaries = summaries;
  rebuild (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
winnow_lab_attempts_get_n_groups (WinnowLabAttempts *self)
{
  g_return_val_if_fail (WINNOW_IS_LAB_ATTEMPTS (self), 0);
  return self->n_groups;
}

guint64
winnow_lab_attempts_get_count (WinnowLabAttempts *self,
                               guint              v,
                               guint              attempts)
{
  g_return_val_if_fail (WINNOW_IS_LAB_ATTEMPTS (self), 0);

  if (self->summaries == NULL || v >= self->summaries->len || attempts < 1 || attempts > WINNOW_LAB_ATTEMPTS_MAX)
    return 0;
  return g_array_index (self->counts, guint64, v * WINNOW_LAB_ATTEMPTS_MAX + attempts - 1);
}

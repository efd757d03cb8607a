/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-lab-bars.c — outcomes as stacked bars (see the header). */
#include "config.h"

#include <math.h>
#include <glib/gi18n.h>
#include <adwaita.h>

#include "winnow-lab-bars.h"
#include "winnow-lab-chart.h"
#include "winnow-paint.h"
#include "wn-lab.h"

#define ROW_H    18.0
#define ROW_GAP  4.0
#define LABEL_W  28.0
#define MARGIN   6.0

struct _WinnowLabBars
{
  GtkWidget  parent_instance;

  GPtrArray *summaries;    /* WnLabSummary*, or NULL */
};

G_DEFINE_FINAL_TYPE (WinnowLabBars, winnow_lab_bars, GTK_TYPE_WIDGET)

/* One segment of a bar: what it counts and how it looks. */
typedef struct {
  const char *label;       /* an end event's id, or a fixed word */
  guint64     count;
  GdkRGBA     color;
} Segment;

static GArray *
segments_of (WinnowLabBars *self,
             WnLabSummary  *summary)
{
  GtkWidget *widget = GTK_WIDGET (self);
  g_autoptr(GPtrArray) ends = wn_lab_summary_get_ends (summary);
  GArray *segments = g_array_new (FALSE, FALSE, sizeof (Segment));
  WnLabSeedStats t;
  Segment s;

  wn_lab_summary_get_totals (summary, &t);
  /* completed orders in shades of the success colour, one per end event */
  for (guint i = 0; i < ends->len; i++)
    {
      s.label = g_ptr_array_index (ends, i);
      s.count = wn_lab_summary_get_end_count (summary, s.label);
      winnow_paint_lookup_color (widget, "success_color", &s.color);
      s.color.alpha = 1.0 - 0.45 * (double) i / MAX (ends->len, 1);
      g_array_append_val (segments, s);
    }
  s.label = _("terminated");
  s.count = t.terminated;
  winnow_paint_lookup_color (widget, "error_color", &s.color);
  g_array_append_val (segments, s);
  s.label = _("incident");
  s.count = t.incidents;
  winnow_paint_lookup_color (widget, "warning_color", &s.color);
  g_array_append_val (segments, s);
  s.label = _("active");
  s.count = t.active;
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &s.color);
  s.color.alpha = 0.3;
  g_array_append_val (segments, s);
  return segments;
}

static void
winnow_lab_bars_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  WinnowLabBars *self = WINNOW_LAB_BARS (widget);
  double width = gtk_widget_get_width (widget) - LABEL_W - 2 * MARGIN;
  GdkRGBA fg;

  if (self->summaries == NULL || width <= 0)
    return;
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  for (guint v = 0; v < self->summaries->len; v++)
    {
      WnLabSummary *summary = g_ptr_array_index (self->summaries, v);
      g_autoptr(GArray) segments = segments_of (self, summary);
      g_autofree char *number = g_strdup_printf ("%u", v);
      g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, number);
      double y = MARGIN + v * (ROW_H + ROW_GAP);
      double x = MARGIN + LABEL_W;
      WnLabSeedStats t;

      wn_lab_summary_get_totals (summary, &t);
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (MARGIN, y));
      gtk_snapshot_append_layout (snapshot, layout, &fg);
      gtk_snapshot_restore (snapshot);
      for (guint i = 0; t.instances > 0 && i < segments->len; i++)
        {
          const Segment *s = &g_array_index (segments, Segment, i);
          double w = width * (double) s->count / (double) t.instances;

          if (w > 0)
            gtk_snapshot_append_color (snapshot, &s->color, &GRAPHENE_RECT_INIT (x, y, w, ROW_H));
          x += w;
        }
    }
}

static void
winnow_lab_bars_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  WinnowLabBars *self = WINNOW_LAB_BARS (widget);
  guint n = self->summaries != NULL ? self->summaries->len : 0;

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = 160, *natural = 640;
  else
    *minimum = *natural = n > 0 ? (int) ceil (2 * MARGIN + n * (ROW_H + ROW_GAP) - ROW_GAP) : 0;
}

/* The tooltip: the counts of the bar under the pointer. */
static char *
describe (GtkWidget *widget,
          double     x,
          double     y)
{
  WinnowLabBars *self = WINNOW_LAB_BARS (widget);
  GString *text;
  g_autoptr(GArray) segments = NULL;
  WnLabSummary *summary;
  WnLabSeedStats t;
  int v;

  if (self->summaries == NULL || y < MARGIN)
    return NULL;
  v = (int) ((y - MARGIN) / (ROW_H + ROW_GAP));
  if (v < 0 || (guint) v >= self->summaries->len)
    return NULL;
  text = g_string_new (NULL);
  summary = g_ptr_array_index (self->summaries, v);
  segments = segments_of (self, summary);
  wn_lab_summary_get_totals (summary, &t);
  g_string_append_printf (text, "%d  %s", v, wn_lab_summary_get_name (summary));
  for (guint i = 0; i < segments->len; i++)
    {
      const Segment *s = &g_array_index (segments, Segment, i);

      if (s->count > 0)
        g_string_append_printf (text, "\n%s: %" G_GUINT64_FORMAT " (%.2f %%)", s->label, s->count,
                                100.0 * (double) s->count / (double) MAX (t.instances, 1));
    }
  return g_string_free (text, FALSE);
}

static void
winnow_lab_bars_dispose (GObject *object)
{
  WinnowLabBars *self = WINNOW_LAB_BARS (object);

  g_clear_pointer (&self->summaries, g_ptr_array_unref);
  G_OBJECT_CLASS (winnow_lab_bars_parent_class)->dispose (object);
}

static void
winnow_lab_bars_class_init (WinnowLabBarsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = winnow_lab_bars_dispose;
  widget_class->snapshot = winnow_lab_bars_snapshot;
  widget_class->measure = winnow_lab_bars_measure;
  gtk_widget_class_set_css_name (widget_class, "lab-bars");
}

static void
winnow_lab_bars_init (WinnowLabBars *self)
{
  /* drawn with the widget's own layouts: no export */
  winnow_lab_chart_init (GTK_WIDGET (self), describe, NULL);
}

void
winnow_lab_bars_set_summaries (WinnowLabBars *self,
                               GPtrArray     *summaries)
{
  g_return_if_fail (WINNOW_IS_LAB_BARS (self));

  if (summaries != NULL)
    g_ptr_array_ref (summaries);
  g_clear_pointer (&self->summaries, g_ptr_array_unref);
  self->summaries = summaries;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

guint
winnow_lab_bars_get_n_bars (WinnowLabBars *self)
{
  g_return_val_if_fail (WINNOW_IS_LAB_BARS (self), 0);
  return self->summaries != NULL ? self->summaries->len : 0;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-timeline.c — the timeline widget (see winnow-timeline.h): the lanes'
 * layout over the trace, the ruler, the bars, gates, lock spans and outcome
 * glyphs, zoom and pan, hit-testing and tooltips, the aggregate view's rows
 * of counts for many instances (counted by winnow-timeline-aggregate.c, drawn
 * here), and the legend's swatches and glyphs drawn the same way. Past 1,500
 * lines because it is one custom-drawn widget whose drawing, measuring and
 * interaction share one geometry (the ruler, the scale, the rows) in both
 * views: split, each part would need the others' internals.
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n.h>
#include <adwaita.h>

#include "winnow-timeline.h"
#include "winnow-timeline-aggregate.h"
#include "winnow-paint.h"

#define LANE_H  WINNOW_TIMELINE_LANE_HEIGHT
#define RULER_H WINNOW_TIMELINE_RULER_HEIGHT
#define LABEL_W WINNOW_TIMELINE_LABEL_WIDTH
/* Zoom limits, in µs per pixel. */
#define MIN_SCALE 1.0
#define MAX_SCALE (3600.0 * 1000.0 * 1000.0)
/* Markers within this many pixels of the pointer answer a tooltip. */
#define MARK_RADIUS 6.0
/* The aggregate view's rows: taller than lanes, their counts are bars. */
#define AGG_ROW_H 40

typedef struct {
  GdkRGBA fg;
  GdkRGBA accent;
  GdkRGBA busy;
  GdkRGBA expired;
  GdkRGBA gated;
  GdkRGBA completed;
  GdkRGBA failed;
  GdkRGBA incident;
  GdkRGBA parked;
  GdkRGBA available;
  GdkRGBA active;
  GdkRGBA idle;
  GdkRGBA outline;
} Palette;

struct _WinnowTimeline
{
  GtkWidget      parent_instance;

  WinnowTrace   *trace;
  WnTime         now;
  char          *selected_job;

  /* the time axis */
  WnTime         t0;              /* at the left edge of the lanes */
  double         scale;           /* µs per pixel */
  gboolean       fit;

  GtkAdjustment *hadjustment;
  GtkAdjustment *vadjustment;
  guint          hscroll_policy : 1;
  guint          vscroll_policy : 1;
  gboolean       configuring;

  /* dragging */
  gboolean       scrubbing;      /* the drag began on the ruler: it seeks */
  double         scrub_x;
  WnTime         drag_t0;
  double         drag_v;
  gboolean       dragged;
  double         pointer_x;

  guint          drawn_lanes;
  guint          drawn_items;

  /* the aggregate view: counts per task and state, for many instances */
  WinnowTimelineView view;
  WinnowAggregate *aggregate;
  gboolean       aggregate_dirty; /* the trace or the clock moved since it was counted */
  WnTime         aggregate_t0;
  double         aggregate_scale;
  guint          aggregate_rows;  /* as last counted (the vertical adjustment's) */

  /* the colours, looked up again after a style or dark-mode change */
  Palette        pal;
  gboolean       pal_valid;
};

enum {
  PROP_0,
  PROP_SELECTED_JOB,
  N_PROPS,
  /* GtkScrollable */
  PROP_HADJUSTMENT = N_PROPS,
  PROP_VADJUSTMENT,
  PROP_HSCROLL_POLICY,
  PROP_VSCROLL_POLICY,
};

static GParamSpec *properties[N_PROPS];

enum {
  SEEK,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE_WITH_CODE (WinnowTimeline, winnow_timeline, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE, NULL))

/* ---- colours and glyphs ---- */

static void
palette_init (GtkWidget *widget,
              Palette   *pal)
{
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &pal->fg);
  winnow_paint_lookup_color (widget, "accent_color", &pal->accent);
  /* the app's state colours (style.css), one per state */
  winnow_paint_lookup_color (widget, "winnow_locked", &pal->busy);
  winnow_paint_lookup_color (widget, "winnow_expired", &pal->expired);
  winnow_paint_lookup_color (widget, "winnow_gated", &pal->gated);
  winnow_paint_lookup_color (widget, "winnow_completed", &pal->completed);
  winnow_paint_lookup_color (widget, "winnow_failed", &pal->failed);
  winnow_paint_lookup_color (widget, "winnow_incident", &pal->incident);
  winnow_paint_lookup_color (widget, "winnow_parked", &pal->parked);
  winnow_paint_lookup_color (widget, "winnow_available", &pal->available);
  winnow_paint_lookup_color (widget, "winnow_active", &pal->active);
  winnow_paint_lookup_color (widget, "winnow_idle", &pal->idle);
  winnow_paint_lookup_color (widget, "view_bg_color", &pal->outline);
}

static GdkRGBA
with_alpha (const GdkRGBA *color,
            double         alpha)
{
  GdkRGBA out = *color;

  out.alpha *= alpha;
  return out;
}

static const GdkRGBA *
mark_color (const Palette  *pal,
            WinnowMarkKind  kind)
{
  switch (kind)
    {
    case WINNOW_MARK_COMPLETED:
      return &pal->completed;
    case WINNOW_MARK_BPMN_ERROR:
      return &pal->parked;
    case WINNOW_MARK_STATUS:
      return &pal->available;
    case WINNOW_MARK_FAULT:
      return &pal->incident;
    case WINNOW_MARK_EXHAUSTED:
      return &pal->failed;
    case WINNOW_MARK_RECLAIMED:
      return &pal->expired;
    case WINNOW_MARK_REJECTED:
    case WINNOW_N_MARKS:
    default:
      return &pal->gated;
    }
}

/* One outcome glyph centred on (cx, cy), radius r: distinct shape and colour. */
static void
draw_glyph (cairo_t        *cr,
            const Palette  *pal,
            WinnowMarkKind  kind,
            double          cx,
            double          cy,
            double          r)
{
  const GdkRGBA *color = mark_color (pal, kind);

  cairo_save (cr);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  switch (kind)
    {
    case WINNOW_MARK_COMPLETED:
      cairo_arc (cr, cx, cy, r, 0, 2 * G_PI);
      winnow_paint_fill_and_stroke (cr, color, &pal->outline, 1, 1.5);
      cairo_move_to (cr, cx - r * 0.45, cy + r * 0.02);
      cairo_line_to (cr, cx - r * 0.1, cy + r * 0.38);
      cairo_line_to (cr, cx + r * 0.5, cy - r * 0.35);
      cairo_set_line_width (cr, MAX (1.6, r * 0.3));
      cairo_stroke (cr);
      break;

    case WINNOW_MARK_BPMN_ERROR:
      cairo_move_to (cr, cx, cy - r * 1.15);
      cairo_line_to (cr, cx + r * 1.15, cy);
      cairo_line_to (cr, cx, cy + r * 1.15);
      cairo_line_to (cr, cx - r * 1.15, cy);
      cairo_close_path (cr);
      winnow_paint_fill_and_stroke (cr, color, &pal->outline, 1, 1.5);
      cairo_arc (cr, cx, cy, r * 0.28, 0, 2 * G_PI);
      cairo_fill (cr);
      break;

    case WINNOW_MARK_STATUS:
      {
        double s = r * 0.92;
        double k = r * 0.35;

        winnow_paint_rounded_rect (cr, cx - s, cy - s, 2 * s, 2 * s, k);
        winnow_paint_fill_and_stroke (cr, color, &pal->outline, 1, 1.5);
        cairo_move_to (cr, cx - s * 0.45, cy);
        cairo_line_to (cr, cx + s * 0.45, cy);
        cairo_set_line_width (cr, MAX (1.4, r * 0.25));
        cairo_stroke (cr);
      }
      break;

    case WINNOW_MARK_FAULT:
      {
        double d = r * 0.72;

        cairo_move_to (cr, cx - d, cy - d);
        cairo_line_to (cr, cx + d, cy + d);
        cairo_move_to (cr, cx + d, cy - d);
        cairo_line_to (cr, cx - d, cy + d);
        winnow_paint_set_color (cr, &pal->outline, 1);
        cairo_set_line_width (cr, r * 0.55 + 3);
        cairo_stroke_preserve (cr);
        winnow_paint_set_color (cr, color, 1);
        cairo_set_line_width (cr, r * 0.55);
        cairo_stroke (cr);
      }
      break;

    case WINNOW_MARK_EXHAUSTED:
      for (int i = 0; i < 8; i++)
        {
          double a = G_PI / 8 + i * G_PI / 4;

          if (i == 0)
            cairo_move_to (cr, cx + r * 1.1 * cos (a), cy + r * 1.1 * sin (a));
          else
            cairo_line_to (cr, cx + r * 1.1 * cos (a), cy + r * 1.1 * sin (a));
        }
      cairo_close_path (cr);
      winnow_paint_fill_and_stroke (cr, color, &pal->outline, 1, 1.5);
      cairo_move_to (cr, cx - r * 0.5, cy);
      cairo_line_to (cr, cx + r * 0.5, cy);
      cairo_set_line_width (cr, MAX (1.6, r * 0.32));
      cairo_stroke (cr);
      break;

    case WINNOW_MARK_RECLAIMED:
      {
        double a0 = -G_PI * 0.35, a1 = G_PI * 1.35;
        double ex = cx + r * 0.8 * cos (a0), ey = cy + r * 0.8 * sin (a0);

        cairo_arc (cr, cx, cy, r * 1.05, 0, 2 * G_PI);
        winnow_paint_set_color (cr, &pal->outline, 1);
        cairo_fill (cr);
        cairo_arc (cr, cx, cy, r * 0.8, a0, a1);
        winnow_paint_set_color (cr, color, 1);
        cairo_set_line_width (cr, MAX (1.8, r * 0.34));
        cairo_stroke (cr);
        /* the arrow head at the arc's start, pointing clockwise */
        cairo_move_to (cr, ex + r * 0.55, ey - r * 0.05);
        cairo_line_to (cr, ex, ey);
        cairo_line_to (cr, ex + r * 0.05, ey - r * 0.6);
        cairo_stroke (cr);
      }
      break;

    case WINNOW_MARK_REJECTED:
    case WINNOW_N_MARKS:
    default:
      cairo_arc (cr, cx, cy, r, 0, 2 * G_PI);
      winnow_paint_fill_and_stroke (cr, &pal->outline, color, 1, MAX (1.8, r * 0.32));
      cairo_move_to (cr, cx - r * 0.62, cy + r * 0.62);
      cairo_line_to (cr, cx + r * 0.62, cy - r * 0.62);
      cairo_stroke (cr);
      break;
    }
  cairo_restore (cr);
}

/* ---- geometry ---- */

static double
plot_width (WinnowTimeline *self)
{
  return MAX (1, gtk_widget_get_width (GTK_WIDGET (self)) - LABEL_W);
}

static double
time_to_x (WinnowTimeline *self,
           WnTime          t)
{
  return LABEL_W + (double) (t - self->t0) / self->scale;
}

static WnTime
x_to_time (WinnowTimeline *self,
           double          x)
{
  return self->t0 + (WnTime) ((x - LABEL_W) * self->scale);
}

static WnTime
run_extent (WinnowTimeline *self)
{
  WnTime end = self->trace ? winnow_trace_get_end (self->trace) : 0;

  return MAX (end, self->now);
}

static double
scroll_y (WinnowTimeline *self)
{
  return self->vadjustment ? gtk_adjustment_get_value (self->vadjustment) : 0;
}

static const WinnowLane *
get_lanes (WinnowTimeline *self,
           guint          *n)
{
  if (self->trace == NULL)
    {
      *n = 0;
      return NULL;
    }
  return winnow_trace_get_lanes (self->trace, n);
}

gboolean
winnow_timeline_get_aggregated (WinnowTimeline *self)
{
  guint n_lanes;

  g_return_val_if_fail (WINNOW_IS_TIMELINE (self), FALSE);

  if (self->view != WINNOW_TIMELINE_VIEW_AUTO || self->trace == NULL)
    return self->view == WINNOW_TIMELINE_VIEW_AGGREGATE && self->trace != NULL;
  /* the lanes are the instances' headers and the jobs */
  winnow_trace_get_lanes (self->trace, &n_lanes);
  return n_lanes - winnow_trace_get_n_jobs (self->trace) > WINNOW_TIMELINE_AGGREGATE_ABOVE;
}

/* The rows drawn (lanes, or the aggregate's rows) and their height. */
static guint
n_rows (WinnowTimeline *self,
        double         *row_h)
{
  guint n;

  if (winnow_timeline_get_aggregated (self))
    {
      *row_h = AGG_ROW_H;
      return self->aggregate_rows;
    }
  *row_h = LANE_H;
  get_lanes (self, &n);
  return n;
}

/* Count the trace for the axis shown, unless that is done already. */
static void
count_aggregate (WinnowTimeline *self)
{
  guint columns = (guint) ceil (plot_width (self));

  if (!self->aggregate_dirty && self->aggregate_t0 == self->t0 && self->aggregate_scale == self->scale &&
      winnow_aggregate_get_n_columns (self->aggregate) == columns)
    return;
  winnow_aggregate_compute (self->aggregate, self->trace, self->t0, self->scale, columns, self->now);
  self->aggregate_dirty = FALSE;
  self->aggregate_t0 = self->t0;
  self->aggregate_scale = self->scale;
  self->aggregate_rows = winnow_aggregate_get_n_rows (self->aggregate);
}

static int
lane_at (WinnowTimeline *self,
         double          y)
{
  guint n;
  double row;

  get_lanes (self, &n);
  if (y < RULER_H || winnow_timeline_get_aggregated (self))
    return -1;
  row = floor ((y - RULER_H + scroll_y (self)) / LANE_H);
  if (row < 0 || row >= n)
    return -1;
  return (int) row;
}

static void
apply_fit (WinnowTimeline *self)
{
  WnTime extent = run_extent (self);
  WnTime span;

  if (extent <= 0)
    extent = WN_USEC_PER_SEC;
  /* a little room after the last event, so its glyph shows whole */
  span = extent + MAX (extent / 25, 1);
  self->t0 = 0;
  self->scale = CLAMP ((double) span / plot_width (self), MIN_SCALE, MAX_SCALE);
}

static void
configure_adjustments (WinnowTimeline *self)
{
  int height = gtk_widget_get_height (GTK_WIDGET (self));
  double page_w = plot_width (self);
  double row_h;
  guint rows;

  if (winnow_timeline_get_aggregated (self))
    count_aggregate (self);
  rows = n_rows (self, &row_h);
  self->configuring = TRUE;
  if (self->vadjustment != NULL)
    {
      double page = MAX (1, height - RULER_H);
      double upper = MAX ((double) rows * row_h, page);
      double value = CLAMP (gtk_adjustment_get_value (self->vadjustment), 0, upper - page);

      gtk_adjustment_configure (self->vadjustment, value, 0, upper, row_h, page * 0.9, page);
    }
  if (self->hadjustment != NULL)
    {
      double value = (double) self->t0 / self->scale;
      double extent = (double) run_extent (self) / self->scale;
      double upper = MAX (extent * 1.04, value + page_w);

      gtk_adjustment_configure (self->hadjustment, value, 0, upper, page_w / 10, page_w * 0.9, page_w);
    }
  self->configuring = FALSE;
}

static void
set_view (WinnowTimeline *self,
          WnTime          t0,
          double          scale)
{
  self->scale = CLAMP (scale, MIN_SCALE, MAX_SCALE);
  self->t0 = MAX (t0, 0);
  configure_adjustments (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
adjustment_value_cb (GtkAdjustment  *adjustment,
                     WinnowTimeline *self)
{
  if (self->configuring)
    return;
  if (adjustment == self->hadjustment)
    {
      self->t0 = MAX (0, (WnTime) (gtk_adjustment_get_value (adjustment) * self->scale));
      self->fit = FALSE;
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
set_adjustment (WinnowTimeline  *self,
                GtkAdjustment  **slot,
                GtkAdjustment   *adjustment)
{
  if (adjustment == *slot)
    return;
  if (*slot != NULL)
    {
      g_signal_handlers_disconnect_by_func (*slot, adjustment_value_cb, self);
      g_clear_object (slot);
    }
  if (adjustment == NULL)
    adjustment = gtk_adjustment_new (0, 0, 0, 0, 0, 0);
  *slot = g_object_ref_sink (adjustment);
  g_signal_connect (adjustment, "value-changed", G_CALLBACK (adjustment_value_cb), self);
  configure_adjustments (self);
}

/* ---- text ---- */

char *
winnow_timeline_describe_outcome (const WinnowExecution *e)
{
  const char *what;

  switch (e->outcome)
    {
    case WINNOW_OUTCOME_RUNNING:
      return g_strdup (_("still running"));
    case WINNOW_OUTCOME_COMPLETED:
      return g_strdup (_("completed"));
    case WINNOW_OUTCOME_BPMN_ERROR:
      /* Translators: an execution's outcome, e.g. "BPMN error CardDeclined" */
      return g_strdup_printf (_("BPMN error %s"), e->code ? e->code : "?");
    case WINNOW_OUTCOME_STATUS:
      /* Translators: an execution's outcome, e.g. "status \"NOT_FOUND\"" */
      return g_strdup_printf (_("status %s"), e->detail ? e->detail : "?");
    case WINNOW_OUTCOME_RETRY:
      what = e->mapper_error ? _("technical (a mapper clause failed), retried") : _("technical, retried");
      break;
    case WINNOW_OUTCOME_EXHAUSTED:
      what = _("technical, retries exhausted");
      break;
    case WINNOW_OUTCOME_FAULT:
      what = _("technical fault");
      break;
    case WINNOW_OUTCOME_REJECTED:
      what = _("report rejected");
      break;
    case WINNOW_OUTCOME_LOST:
      return g_strdup (_("lock lapsed: another worker took the job over"));
    case WINNOW_OUTCOME_CANCELED:
    default:
      return g_strdup (_("the job was removed while it ran"));
    }
  if (e->detail != NULL)
    return g_strdup_printf ("%s: %s", what, e->detail);
  if (e->code != NULL)
    return g_strdup_printf ("%s: %s", what, e->code);
  return g_strdup (what);
}

static const char *
mark_title (WinnowMarkKind kind)
{
  switch (kind)
    {
    case WINNOW_MARK_COMPLETED:
      return _("Completed");
    case WINNOW_MARK_BPMN_ERROR:
      return _("BPMN error");
    case WINNOW_MARK_STATUS:
      return _("Status");
    case WINNOW_MARK_FAULT:
      return _("Technical fault");
    case WINNOW_MARK_EXHAUSTED:
      return _("Retries exhausted");
    case WINNOW_MARK_RECLAIMED:
      return _("Lock reclaimed");
    case WINNOW_MARK_REJECTED:
    case WINNOW_N_MARKS:
    default:
      return _("Late report rejected");
    }
}

static char *
describe_mark (const WinnowMark *mark)
{
  g_autofree char *at = wn_time_format_clock (mark->t);
  GString *text = g_string_new (NULL);

  g_string_append_printf (text, "<b>%s</b>  %s", mark_title (mark->kind), at);
  if (mark->text != NULL)
    {
      g_autofree char *escaped = g_markup_escape_text (mark->text, -1);

      g_string_append_c (text, '\n');
      if (mark->kind == WINNOW_MARK_RECLAIMED)
        /* Translators: a lock reclaimed from a worker, e.g. "from printer-1" */
        g_string_append_printf (text, _("taken from %s, whose lock had lapsed"), escaped);
      else
        g_string_append (text, escaped);
    }
  return g_string_free (text, FALSE);
}

static char *
describe_execution (const WinnowExecution *e,
                    WnTime                 now)
{
  g_autofree char *from = wn_time_format_clock (e->start);
  g_autofree char *took = wn_duration_format ((e->end < 0 ? now : e->end) - e->start);
  g_autofree char *worker = g_markup_escape_text (e->worker ? e->worker : "?", -1);
  g_autofree char *what = winnow_timeline_describe_outcome (e);
  g_autofree char *outcome = g_markup_escape_text (what, -1);
  GString *text = g_string_new (NULL);

  /* Translators: "Execution 2 by inventory" */
  g_string_append_printf (text, _("<b>Execution %u</b> by %s"), e->attempt, worker);
  g_string_append_c (text, '\n');
  /* Translators: "T+00:00.400, took 100ms: completed" */
  g_string_append_printf (text, _("%s, took %s: %s"), from, took, outcome);
  if (e->outcome == WINNOW_OUTCOME_RETRY && e->backoff >= 0)
    {
      g_autofree char *backoff = wn_duration_format (e->backoff);
      g_autofree char *gate = wn_time_format_clock (e->gate);

      g_string_append_c (text, '\n');
      if (e->in_worker)
        /* Translators: a WorkerTrusted retry: "backoff 300ms, the worker waits in-process until T+00:00.700" */
        g_string_append_printf (text, _("backoff %s, the worker waits in-process until %s"), backoff, gate);
      else
        /* Translators: "backoff 300ms, gated until T+00:00.700" */
        g_string_append_printf (text, _("backoff %s, gated until %s"), backoff, gate);
    }
  return g_string_free (text, FALSE);
}

/* ---- drawing ---- */

static WnTime
nice_step (double us_per_px,
           double min_px)
{
  static const WnTime steps[] = {
    1, 2, 5, 10, 20, 50, 100, 200, 500,
    1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000,
    1000000, 2000000, 5000000, 10000000, 15000000, 30000000,
    60000000, 120000000, 300000000, 600000000, 900000000, 1800000000,
    G_GINT64_CONSTANT (3600000000), G_GINT64_CONSTANT (7200000000),
    G_GINT64_CONSTANT (21600000000), G_GINT64_CONSTANT (43200000000),
    G_GINT64_CONSTANT (86400000000),
  };

  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    if ((double) steps[i] / us_per_px >= min_px)
      return steps[i];
  return steps[G_N_ELEMENTS (steps) - 1];
}

static void
append_rect (GtkSnapshot   *snapshot,
             const GdkRGBA *color,
             double         x,
             double         y,
             double         w,
             double         h)
{
  if (w <= 0 || h <= 0)
    return;
  gtk_snapshot_append_color (snapshot, color, &GRAPHENE_RECT_INIT (x, y, w, h));
}

static void
append_rounded (GtkSnapshot   *snapshot,
                const GdkRGBA *color,
                double         x,
                double         y,
                double         w,
                double         h,
                double         radius)
{
  GskRoundedRect rounded;

  if (w <= 0 || h <= 0)
    return;
  radius = MIN (radius, MIN (w, h) / 2);
  gsk_rounded_rect_init_from_rect (&rounded, &GRAPHENE_RECT_INIT (x, y, w, h), radius);
  gtk_snapshot_push_rounded_clip (snapshot, &rounded);
  gtk_snapshot_append_color (snapshot, color, &rounded.bounds);
  gtk_snapshot_pop (snapshot);
}

static void
append_hatch (GtkSnapshot   *snapshot,
              const GdkRGBA *color,
              double         x,
              double         y,
              double         w,
              double         h)
{
  GdkRGBA ink = with_alpha (color, 0.75);
  GdkRGBA wash = with_alpha (color, 0.12);
  GdkRGBA none = with_alpha (color, 0);
  GskColorStop stops[] = {
    { 0.0, ink }, { 0.38, ink }, { 0.38, none }, { 1.0, none },
  };

  if (w <= 0 || h <= 0)
    return;
  append_rect (snapshot, &wash, x, y, w, h);
  gtk_snapshot_append_repeating_linear_gradient (snapshot, &GRAPHENE_RECT_INIT (x, y, w, h),
                                                 &GRAPHENE_POINT_INIT (x, y),
                                                 &GRAPHENE_POINT_INIT (x + 4, y - 4),
                                                 stops, G_N_ELEMENTS (stops));
  append_rect (snapshot, &ink, x, y, MIN (w, 1.5), h);
}

static void
append_text (GtkSnapshot   *snapshot,
             PangoLayout   *layout,
             const GdkRGBA *color,
             double         x,
             double         y)
{
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float) x, (float) y));
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);
}

typedef struct {
  double         x;
  double         y;
  WinnowMarkKind kind;
} Glyph;

static void
draw_lane_label (WinnowTimeline   *self,
                 GtkSnapshot      *snapshot,
                 PangoLayout      *layout,
                 const Palette    *pal,
                 const WinnowLane *lane,
                 double            y)
{
  g_autofree char *markup = NULL;
  GdkRGBA dim = with_alpha (&pal->fg, 0.6);
  int text_h;

  if (lane->job == NULL)
    {
      const WinnowTraceInstance *inst = lane->instance;
      const char *state = inst->ended_at < 0 ? _("running")
                        : inst->terminated ? _("terminated") : _("completed");
      g_autofree char *id = g_markup_escape_text (inst->id, -1);

      markup = g_strdup_printf ("<b>%s</b>  <span size='small' alpha='65%%'>%s</span>", id, state);
    }
  else
    {
      g_autofree char *id = g_markup_escape_text (lane->job->id, -1);
      g_autofree char *what = g_markup_escape_text (lane->job->node ? lane->job->node : "", -1);

      markup = g_strdup_printf ("<span font_family='monospace' size='small'>%s</span>  "
                                "<span size='small' alpha='70%%'>%s</span>", id, what);
    }
  pango_layout_set_markup (layout, markup, -1);
  pango_layout_get_pixel_size (layout, NULL, &text_h);
  append_text (snapshot, layout, lane->job ? &pal->fg : &dim,
               lane->job ? 22 : 10, y + (LANE_H - text_h) / 2.0);
}

static const GdkRGBA *
aggregate_color (const Palette        *pal,
                 WinnowAggregateState  state)
{
  switch (state)
    {
    case WINNOW_AGGREGATE_ACTIVE:
      return &pal->active;
    case WINNOW_AGGREGATE_RUNNING:
      return &pal->busy;
    case WINNOW_AGGREGATE_GATED:
      return &pal->gated;
    case WINNOW_AGGREGATE_FAILED:
    default:
      return &pal->failed;
    }
}

/* The aggregate's rows in view, each row's counts an area over its foot
 * (one cairo path per row: a frame's nodes do not grow with the columns);
 * their labels instead when `labels`. */
static void
draw_aggregate (WinnowTimeline *self,
                GtkSnapshot    *snapshot,
                PangoLayout    *layout,
                const Palette  *pal,
                gboolean        labels)
{
  double scroll = scroll_y (self);
  int height = gtk_widget_get_height (GTK_WIDGET (self));
  guint rows = winnow_aggregate_get_n_rows (self->aggregate);
  guint columns = winnow_aggregate_get_n_columns (self->aggregate);
  guint first = (guint) MAX (0, floor (scroll / AGG_ROW_H));
  guint last = MIN (rows, (guint) ceil ((scroll + height - RULER_H) / AGG_ROW_H) + 1);
  GdkRGBA grid = with_alpha (&pal->fg, 0.06);
  GdkRGBA header_bg = with_alpha (&pal->fg, 0.035);
  cairo_t *cr = NULL;

  self->drawn_lanes = last > first ? last - first : 0;
  if (!labels && last > first)
    cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (LABEL_W, RULER_H, columns, height - RULER_H));
  for (guint r = first; r < last; r++)
    {
      WinnowAggregateState state = winnow_aggregate_row_state (self->aggregate, r);
      const char *task = winnow_aggregate_row_task (self->aggregate, r);
      double y = RULER_H + r * (double) AGG_ROW_H - scroll;
      double foot = y + AGG_ROW_H - 4, room = AGG_ROW_H - 12;
      double peak;
      const double *counts = winnow_aggregate_row_counts (self->aggregate, r, &peak);

      if (labels)
        {
          g_autofree char *name = g_markup_escape_text (task != NULL ? task : _("Instances"), -1);
          g_autofree char *markup = NULL;
          int text_h;

          if (state == WINNOW_AGGREGATE_ACTIVE || state == WINNOW_AGGREGATE_RUNNING)
            append_rect (snapshot, &header_bg, 0, y, LABEL_W, AGG_ROW_H);
          /* Translators: an aggregate row's label: "quote", its state and its highest count */
          markup = g_strdup_printf (_("<b>%s</b>\n<span size='small' alpha='70%%'>%s · peak %.0f</span>"), name,
                                    winnow_aggregate_state_name (state), peak);
          pango_layout_set_markup (layout, markup, -1);
          pango_layout_get_pixel_size (layout, NULL, &text_h);
          append_text (snapshot, layout, &pal->fg, 10, y + (AGG_ROW_H - text_h) / 2.0);
          continue;
        }
      if (state == WINNOW_AGGREGATE_ACTIVE || state == WINNOW_AGGREGATE_RUNNING)
        append_rect (snapshot, &header_bg, LABEL_W, y, columns, AGG_ROW_H);
      append_rect (snapshot, &grid, LABEL_W, y + AGG_ROW_H - 1, columns, 1);
      if (peak == 0)
        continue;
      /* the area: a step per column, a count of one still visible */
      cairo_move_to (cr, LABEL_W, foot);
      for (guint c = 0; c < columns; c++)
        {
          /* a little still shows, however high the peak */
          double h = counts[c] > 0 ? MAX (room * counts[c] / peak, 1.5) : 0;

          cairo_line_to (cr, LABEL_W + c, foot - h);
          cairo_line_to (cr, LABEL_W + c + 1, foot - h);
        }
      cairo_line_to (cr, LABEL_W + columns, foot);
      cairo_close_path (cr);
      gdk_cairo_set_source_rgba (cr, aggregate_color (pal, state));
      cairo_fill (cr);
      self->drawn_items++;
    }
  if (cr != NULL)
    cairo_destroy (cr);
}

static void
winnow_timeline_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  WinnowTimeline *self = WINNOW_TIMELINE (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  double plot_w = width - LABEL_W;
  double scroll = scroll_y (self);
  WnTime t_start = self->t0;
  WnTime t_end = x_to_time (self, width);
  const WinnowLane *lanes;
  guint n_lanes, first, last;
  g_autoptr(GArray) glyphs = g_array_new (FALSE, FALSE, sizeof (Glyph));
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, NULL);
  g_autoptr(PangoLayout) small = gtk_widget_create_pango_layout (widget, NULL);
  Palette pal;
  GdkRGBA line = { 0 }, grid, header_bg, label_bg, ruler_bg, selected, white = { 1, 1, 1, 1 };
  WnTime step;
  double now_x;
  gboolean aggregated;

  if (width <= LABEL_W || height <= RULER_H)
    return;
  if (!self->pal_valid)
    {
      palette_init (widget, &self->pal);
      self->pal_valid = TRUE;
    }
  pal = self->pal;
  line = with_alpha (&pal.fg, 0.12);
  grid = with_alpha (&pal.fg, 0.06);
  header_bg = with_alpha (&pal.fg, 0.035);
  label_bg = with_alpha (&pal.fg, 0.025);
  ruler_bg = with_alpha (&pal.fg, 0.05);
  selected = with_alpha (&pal.accent, 0.16);

  aggregated = winnow_timeline_get_aggregated (self);
  lanes = get_lanes (self, &n_lanes);
  first = (guint) MAX (0, floor (scroll / LANE_H));
  last = MIN (n_lanes, (guint) ceil ((scroll + height - RULER_H) / LANE_H) + 1);
  /* aggregated, no lane is drawn */
  if (aggregated)
    {
      count_aggregate (self);
      first = last = 0;
    }
  self->drawn_lanes = last > first ? last - first : 0;
  self->drawn_items = 0;
  step = nice_step (self->scale, 96);

  /* ---- the lanes ---- */
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (LABEL_W, RULER_H, plot_w, height - RULER_H));

  for (guint i = first; i < last; i++)
    {
      const WinnowLane *lane = &lanes[i];
      double y = RULER_H + i * (double) LANE_H - scroll;

      if (lane->job == NULL)
        {
          const WinnowTraceInstance *inst = lane->instance;
          WnTime end = inst->ended_at >= 0 ? inst->ended_at : self->now;
          double x0 = time_to_x (self, inst->created_at);
          double x1 = MAX (time_to_x (self, end), x0 + 2);
          GdkRGBA band = with_alpha (inst->ended_at < 0 ? &pal.active : inst->terminated ? &pal.failed : &pal.completed,
                                     0.3);

          append_rect (snapshot, &header_bg, LABEL_W, y, plot_w, LANE_H);
          append_rounded (snapshot, &band, MAX (x0, LABEL_W - 4), y + LANE_H / 2.0 - 2,
                          MIN (x1, width + 4) - MAX (x0, LABEL_W - 4), 4, 2);
        }
      else if (g_strcmp0 (lane->job->id, self->selected_job) == 0)
        append_rect (snapshot, &selected, LABEL_W, y, plot_w, LANE_H);
      append_rect (snapshot, &grid, LABEL_W, y + LANE_H - 1, plot_w, 1);
    }

  /* grid lines at the ruler's ticks */
  for (WnTime t = (t_start / step) * step; t <= t_end; t += step)
    {
      double x = time_to_x (self, t);

      if (x >= LABEL_W)
        append_rect (snapshot, &grid, floor (x), RULER_H, 1, height - RULER_H);
    }

  for (guint i = first; i < last; i++)
    {
      const WinnowLane *lane = &lanes[i];
      const WinnowJobTrace *job = lane->job;
      double y = RULER_H + i * (double) LANE_H - scroll;
      guint a, b;

      if (job == NULL)
        continue;

      /* backoff gates: hatched; a trusted worker's own wait in the
       * execution's colour (it holds the lock), the dispatcher's gate in
       * the gated one */
      winnow_trace_span_range (job->gates, sizeof (WinnowSpan), t_start, t_end, self->now, &a, &b);
      for (guint k = a; k < b; k++)
        {
          const WinnowSpan *gate = &g_array_index (job->gates, WinnowSpan, k);
          double x0 = time_to_x (self, gate->start);
          double x1 = time_to_x (self, gate->end);

          append_hatch (snapshot, gate->in_worker ? &pal.busy : &pal.gated, x0, y + 6, MAX (x1 - x0, 1), LANE_H - 13);
          self->drawn_items++;
        }

      /* locks: a thin line under the bars; past the deadline, expired */
      winnow_trace_span_range (job->locks, sizeof (WinnowSpan), t_start, t_end, self->now, &a, &b);
      for (guint k = a; k < b; k++)
        {
          const WinnowSpan *lock = &g_array_index (job->locks, WinnowSpan, k);
          WnTime end = lock->open ? MAX (self->now, lock->start) : lock->end;
          WnTime held = lock->deadline >= 0 ? MIN (end, lock->deadline) : end;
          double x0 = time_to_x (self, lock->start);
          double xh = time_to_x (self, held);
          double x1 = time_to_x (self, end);
          GdkRGBA held_color = with_alpha (&pal.busy, 0.55);

          append_rect (snapshot, &held_color, x0, y + LANE_H - 5, MAX (xh - x0, 1), 2.5);
          if (x1 > xh)
            append_rect (snapshot, &pal.expired, xh, y + LANE_H - 5, x1 - xh, 2.5);
          self->drawn_items++;
        }

      /* executions: the worker is busy */
      winnow_trace_span_range (job->executions, sizeof (WinnowExecution), t_start, t_end, self->now, &a, &b);
      for (guint k = a; k < b; k++)
        {
          const WinnowExecution *e = &g_array_index (job->executions, WinnowExecution, k);
          WnTime end = e->end < 0 ? MAX (self->now, e->start) : e->end;
          double x0 = time_to_x (self, e->start);
          double x1 = MAX (time_to_x (self, end), x0 + 2);
          gboolean wasted = e->outcome == WINNOW_OUTCOME_LOST || e->outcome == WINNOW_OUTCOME_CANCELED ||
                            e->outcome == WINNOW_OUTCOME_REJECTED;
          GdkRGBA bar = wasted ? with_alpha (&pal.idle, 0.75) : pal.busy;

          if (e->end < 0)
            bar = with_alpha (&bar, 0.8);
          append_rounded (snapshot, &bar, x0, y + 4, x1 - x0, LANE_H - 11, 3);
          if (x1 - x0 >= 18)
            {
              g_autofree char *n = g_strdup_printf ("%u", e->attempt);
              int tw, th;

              pango_layout_set_attributes (small, NULL);
              pango_layout_set_text (small, n, -1);
              pango_layout_get_pixel_size (small, &tw, &th);
              if (tw + 12 <= x1 - x0)
                {
                  double cx = (MAX (x0, LABEL_W) + MIN (x1, width)) / 2;

                  /* clear of the outcome glyph at the bar's end */
                  cx = CLAMP (cx, x0 + tw / 2.0 + 3, MAX (x0 + tw / 2.0 + 3, x1 - tw / 2.0 - 8));
                  append_text (snapshot, small, &white, cx - tw / 2.0, y + 4 + (LANE_H - 11 - th) / 2.0);
                }
            }
          self->drawn_items++;
        }

      /* outcome glyphs, drawn last (below) */
      winnow_trace_mark_range (job->marks, x_to_time (self, LABEL_W - MARK_RADIUS * 2),
                               x_to_time (self, width + MARK_RADIUS * 2), &a, &b);
      for (guint k = a; k < b; k++)
        {
          const WinnowMark *mark = &g_array_index (job->marks, WinnowMark, k);
          Glyph glyph = { time_to_x (self, mark->t), y + (LANE_H - 11) / 2.0 + 4, mark->kind };

          g_array_append_val (glyphs, glyph);
          self->drawn_items++;
        }
    }

  if (aggregated)
    draw_aggregate (self, snapshot, layout, &pal, FALSE);

  if (glyphs->len > 0)
    {
      cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (LABEL_W, RULER_H, plot_w, height - RULER_H));

      for (guint k = 0; k < glyphs->len; k++)
        {
          const Glyph *glyph = &g_array_index (glyphs, Glyph, k);

          draw_glyph (cr, &pal, glyph->kind, glyph->x, glyph->y, 5.5);
        }
      cairo_destroy (cr);
    }

  /* the clock */
  now_x = time_to_x (self, self->now);
  if (now_x >= LABEL_W && now_x <= width)
    append_rect (snapshot, &pal.accent, floor (now_x) - 0.5, RULER_H, 2, height - RULER_H);

  gtk_snapshot_pop (snapshot);

  /* ---- the labels ---- */
  append_rect (snapshot, &label_bg, 0, RULER_H, LABEL_W, height - RULER_H);
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, RULER_H, LABEL_W - 8, height - RULER_H));
  pango_layout_set_width (layout, (LABEL_W - 30) * PANGO_SCALE);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  for (guint i = first; i < last; i++)
    {
      double y = RULER_H + i * (double) LANE_H - scroll;

      if (lanes[i].job == NULL)
        append_rect (snapshot, &header_bg, 0, y, LABEL_W, LANE_H);
      else if (g_strcmp0 (lanes[i].job->id, self->selected_job) == 0)
        append_rect (snapshot, &selected, 0, y, LABEL_W, LANE_H);
      draw_lane_label (self, snapshot, layout, &pal, &lanes[i], y);
    }
  if (aggregated)
    {
      pango_layout_set_width (layout, (LABEL_W - 18) * PANGO_SCALE);
      draw_aggregate (self, snapshot, layout, &pal, TRUE);
    }
  gtk_snapshot_pop (snapshot);
  append_rect (snapshot, &line, LABEL_W - 1, RULER_H, 1, height - RULER_H);

  /* ---- the ruler ---- */
  append_rect (snapshot, &ruler_bg, 0, 0, width, RULER_H);
  append_rect (snapshot, &line, 0, RULER_H - 1, width, 1);
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (LABEL_W, 0, plot_w, RULER_H));
  pango_layout_set_width (small, -1);
  for (WnTime t = (t_start / step) * step; t <= t_end + step; t += step)
    {
      double x = time_to_x (self, t);
      g_autofree char *label = NULL;
      GdkRGBA tick = with_alpha (&pal.fg, 0.35);
      GdkRGBA minor = with_alpha (&pal.fg, 0.2);
      double xm = time_to_x (self, t + step / 2);
      int tw, th;

      append_rect (snapshot, &tick, floor (x), RULER_H - 8, 1, 8);
      if (step >= 2)
        append_rect (snapshot, &minor, floor (xm), RULER_H - 4, 1, 4);
      label = wn_duration_format (t);
      pango_layout_set_attributes (small, NULL);
      pango_layout_set_text (small, label, -1);
      pango_layout_get_pixel_size (small, &tw, &th);
      if (floor (x) + 4 + tw <= width - 2)
        append_text (snapshot, small, &pal.fg, floor (x) + 4, (RULER_H - 6 - th) / 2.0);
    }
  if (now_x >= LABEL_W && now_x <= width)
    {
      cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (now_x - 7, RULER_H - 9, 14, 9));

      winnow_paint_set_color (cr, &pal.accent, 1);
      cairo_move_to (cr, now_x - 6, RULER_H - 9);
      cairo_line_to (cr, now_x + 6, RULER_H - 9);
      cairo_line_to (cr, now_x, RULER_H - 1);
      cairo_close_path (cr);
      cairo_fill (cr);
      cairo_destroy (cr);
    }
  gtk_snapshot_pop (snapshot);

  /* the corner: what the ruler counts */
  {
    GdkRGBA dim = with_alpha (&pal.fg, 0.55);
    int th;

    pango_layout_set_width (layout, -1);
    pango_layout_set_attributes (layout, NULL);
    pango_layout_set_text (layout, _("virtual time"), -1);
    pango_layout_get_pixel_size (layout, NULL, &th);
    append_text (snapshot, layout, &dim, 10, (RULER_H - th) / 2.0);
    append_rect (snapshot, &line, LABEL_W - 1, 0, 1, RULER_H);
  }
}

static void
winnow_timeline_css_changed (GtkWidget         *widget,
                             GtkCssStyleChange *change)
{
  WINNOW_TIMELINE (widget)->pal_valid = FALSE;
  GTK_WIDGET_CLASS (winnow_timeline_parent_class)->css_changed (widget, change);
}

static void
dark_changed_cb (WinnowTimeline *self)
{
  self->pal_valid = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ---- measuring ---- */

static void
winnow_timeline_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = LABEL_W + 120;
      *natural = LABEL_W + 640;
    }
  else
    {
      *minimum = RULER_H + 2 * LANE_H;
      *natural = RULER_H + 12 * LANE_H;
    }
}

static void
winnow_timeline_size_allocate (GtkWidget *widget,
                               int        width,
                               int        height,
                               int        baseline)
{
  WinnowTimeline *self = WINNOW_TIMELINE (widget);

  if (self->fit)
    apply_fit (self);
  configure_adjustments (self);
}

/* ---- tooltips ---- */

static char *
describe_aggregate_at (WinnowTimeline *self,
                       double          x,
                       double          y)
{
  double row = floor ((y - RULER_H + scroll_y (self)) / AGG_ROW_H);
  gint64 column = (gint64) floor (x - LABEL_W);
  const char *task;
  g_autofree char *name = NULL;
  g_autofree char *from = NULL;
  g_autofree char *to = NULL;
  const double *counts;
  double peak;
  WinnowAggregateState state;

  if (y < RULER_H || row < 0 || row >= winnow_aggregate_get_n_rows (self->aggregate) ||
      column < 0 || column >= winnow_aggregate_get_n_columns (self->aggregate))
    return NULL;
  task = winnow_aggregate_row_task (self->aggregate, (guint) row);
  counts = winnow_aggregate_row_counts (self->aggregate, (guint) row, &peak);
  name = g_markup_escape_text (task != NULL ? task : _("Instances"), -1);
  from = wn_time_format_clock (x_to_time (self, LABEL_W + column));
  to = wn_time_format_clock (x_to_time (self, LABEL_W + column + 1));
  state = winnow_aggregate_row_state (self->aggregate, (guint) row);
  if (state == WINNOW_AGGREGATE_FAILED)
    /* Translators: an aggregate row's tooltip: "<b>quote</b>: failed attempts\n3 from T+00:03.200 to T+00:03.225 (peak 15)" */
    return g_strdup_printf (_("<b>%s</b>: %s\n%.0f from %s to %s (peak %.0f)"), name,
                            winnow_aggregate_state_name (state), counts[column], from, to, peak);
  /* Translators: an aggregate row's tooltip: "<b>quote</b>: executing\n37.4 on average from T+00:03.200 to T+00:03.225 (peak 50)" */
  return g_strdup_printf (_("<b>%s</b>: %s\n%.1f on average from %s to %s (peak %.1f)"), name,
                          winnow_aggregate_state_name (state), counts[column], from, to, peak);
}

static char *
describe_at (WinnowTimeline *self,
             double          x,
             double          y)
{
  const WinnowLane *lanes;
  const WinnowJobTrace *job;
  guint n, a, b;
  int index = lane_at (self, y);
  WnTime t;

  if (winnow_timeline_get_aggregated (self))
    return describe_aggregate_at (self, x, y);
  lanes = get_lanes (self, &n);
  if (index < 0)
    return NULL;
  job = lanes[index].job;
  if (job == NULL)
    {
      const WinnowTraceInstance *inst = lanes[index].instance;
      g_autofree char *from = wn_time_format_clock (inst->created_at);
      g_autofree char *id = g_markup_escape_text (inst->id, -1);

      if (inst->ended_at < 0)
        /* Translators: an instance row's tooltip: "<b>i1</b> running since T+00:00.000" */
        return g_strdup_printf (_("<b>Instance %s</b>\nrunning since %s"), id, from);
      else
        {
          g_autofree char *to = wn_time_format_clock (inst->ended_at);
          /* Translators: "<b>Instance i1</b> completed: T+00:00.000 → T+00:00.950" */
          return g_strdup_printf (_("<b>Instance %s</b>\n%s: %s → %s"), id,
                                  inst->terminated ? _("terminated") : _("completed"), from, to);
        }
    }

  if (x < LABEL_W)
    {
      g_autofree char *id = g_markup_escape_text (job->id, -1);
      g_autofree char *topic = g_markup_escape_text (job->topic ? job->topic : "", -1);
      g_autofree char *node = g_markup_escape_text (job->node ? job->node : "", -1);

      /* Translators: a job lane's label tooltip: "<b>Job i1/j2</b>\ntopic authorize, task authorize-payment" */
      return g_strdup_printf (_("<b>Job %s</b>\ntopic %s, task %s"), id, topic, node);
    }

  /* a glyph under the pointer */
  winnow_trace_mark_range (job->marks, x_to_time (self, x - MARK_RADIUS), x_to_time (self, x + MARK_RADIUS), &a, &b);
  if (b > a)
    return describe_mark (&g_array_index (job->marks, WinnowMark, a));

  t = x_to_time (self, x);
  winnow_trace_span_range (job->executions, sizeof (WinnowExecution), t, t, self->now, &a, &b);
  if (b > a)
    return describe_execution (&g_array_index (job->executions, WinnowExecution, a), self->now);

  winnow_trace_span_range (job->gates, sizeof (WinnowSpan), t, t, self->now, &a, &b);
  if (b > a)
    {
      const WinnowSpan *gate = &g_array_index (job->gates, WinnowSpan, a);
      g_autofree char *backoff = wn_duration_format (gate->end - gate->start);
      g_autofree char *until = wn_time_format_clock (gate->end);

      if (gate->in_worker)
        /* Translators: a worker waiting in-process before its next attempt */
        return g_strdup_printf (_("<b>Backoff %s</b>\nthe worker waits in-process until %s"), backoff, until);
      /* Translators: a dispatcher gate: "<b>Backoff 300ms</b>\ngated until T+00:00.400" */
      return g_strdup_printf (_("<b>Backoff %s</b>\ngated until %s: no worker may fetch it before"), backoff, until);
    }

  winnow_trace_span_range (job->locks, sizeof (WinnowSpan), t, t, self->now, &a, &b);
  if (b > a)
    {
      const WinnowSpan *lock = &g_array_index (job->locks, WinnowSpan, a);
      g_autofree char *worker = g_markup_escape_text (lock->worker ? lock->worker : "?", -1);
      g_autofree char *deadline = lock->deadline >= 0 ? wn_time_format_clock (lock->deadline)
                                                      : g_strdup ("—");

      /* Translators: "<b>Locked by inventory</b>\ndeadline T+05:00.000" */
      return g_strdup_printf (_("<b>Locked by %s</b>\ndeadline %s"), worker, deadline);
    }
  return NULL;
}

static gboolean
winnow_timeline_query_tooltip (GtkWidget  *widget,
                               int         x,
                               int         y,
                               gboolean    keyboard,
                               GtkTooltip *tooltip)
{
  g_autofree char *markup = describe_at (WINNOW_TIMELINE (widget), x, y);

  if (markup == NULL)
    return FALSE;
  gtk_tooltip_set_markup (tooltip, markup);
  return TRUE;
}

/* ---- input ---- */

static void
click_released_cb (GtkGestureClick *gesture,
                   int              n_press,
                   double           x,
                   double           y,
                   WinnowTimeline  *self)
{
  const char *job;

  if (self->dragged)
    return;
  gtk_widget_grab_focus (GTK_WIDGET (self));
  job = winnow_timeline_job_at (self, x, y);
  if (job != NULL || lane_at (self, y) >= 0)
    winnow_timeline_set_selected_job (self, job);
}

static void
drag_begin_cb (GtkGestureDrag *gesture,
               double          x,
               double          y,
               WinnowTimeline *self)
{
  self->drag_t0 = self->t0;
  self->drag_v = scroll_y (self);
  self->dragged = FALSE;
  /* a press on the ruler goes to that instant; a drag along it scrubs */
  self->scrubbing = y < RULER_H && x >= LABEL_W;
  self->scrub_x = x;
  if (self->scrubbing)
    g_signal_emit (self, signals[SEEK], 0, (gint64) MAX (0, x_to_time (self, x)));
}

static void
drag_update_cb (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                WinnowTimeline *self)
{
  if (!self->dragged && fabs (dx) < 4 && fabs (dy) < 4)
    return;
  self->dragged = TRUE;
  if (self->scrubbing)
    {
      g_signal_emit (self, signals[SEEK], 0,
                     (gint64) MAX (0, x_to_time (self, MAX (LABEL_W, self->scrub_x + dx))));
      return;
    }
  if (dx != 0)
    {
      self->fit = FALSE;
      self->t0 = MAX (0, self->drag_t0 - (WnTime) (dx * self->scale));
    }
  if (self->vadjustment != NULL)
    gtk_adjustment_set_value (self->vadjustment, self->drag_v - dy);
  configure_adjustments (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
drag_end_cb (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             WinnowTimeline *self)
{
  /* a click that follows a drag is not a click, nor one on the ruler */
  if (self->dragged || self->scrubbing)
    gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  self->scrubbing = FALSE;
}

static void
motion_cb (GtkEventControllerMotion *motion,
           double                    x,
           double                    y,
           WinnowTimeline           *self)
{
  self->pointer_x = x;
}

static gboolean
scroll_cb (GtkEventControllerScroll *scroll,
           double                    dx,
           double                    dy,
           WinnowTimeline           *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (scroll));

  if ((state & GDK_CONTROL_MASK) == 0 || dy == 0)
    return FALSE;   /* the scrolled window scrolls */
  winnow_timeline_zoom (self, pow (1.25, -dy), self->pointer_x);
  return TRUE;
}

/* Up and Down walk the job lanes, + and - zoom, 0 fits. */
static gboolean
key_pressed_cb (GtkEventControllerKey *keys,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                WinnowTimeline        *self)
{
  const WinnowLane *lanes;
  WinnowJobTrace *current;
  guint n;
  int step = 0;

  switch (keyval)
    {
    case GDK_KEY_Up:
    case GDK_KEY_KP_Up:
      step = -1;
      break;
    case GDK_KEY_Down:
    case GDK_KEY_KP_Down:
      step = 1;
      break;
    case GDK_KEY_plus:
    case GDK_KEY_equal:
    case GDK_KEY_KP_Add:
      winnow_timeline_zoom (self, 2.0, self->pointer_x);
      return TRUE;
    case GDK_KEY_minus:
    case GDK_KEY_KP_Subtract:
      winnow_timeline_zoom (self, 0.5, self->pointer_x);
      return TRUE;
    case GDK_KEY_0:
    case GDK_KEY_KP_0:
      winnow_timeline_zoom_to_fit (self);
      return TRUE;
    default:
      return FALSE;
    }

  /* the aggregate has no job to go to: the keys scroll */
  if (winnow_timeline_get_aggregated (self))
    return FALSE;
  lanes = get_lanes (self, &n);
  if (n == 0)
    return TRUE;
  current = self->trace ? winnow_trace_lookup_job (self->trace, self->selected_job) : NULL;
  for (int i = current ? (int) current->lane + step : (step > 0 ? 0 : (int) n - 1);
       i >= 0 && i < (int) n; i += step)
    if (lanes[i].job != NULL)
      {
        winnow_timeline_set_selected_job (self, lanes[i].job->id);
        break;
      }
  return TRUE;
}

/* ---- GObject ---- */

static void
winnow_timeline_dispose (GObject *object)
{
  WinnowTimeline *self = WINNOW_TIMELINE (object);

  if (self->hadjustment != NULL)
    g_signal_handlers_disconnect_by_func (self->hadjustment, adjustment_value_cb, self);
  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_func (self->vadjustment, adjustment_value_cb, self);
  g_clear_object (&self->hadjustment);
  g_clear_object (&self->vadjustment);
  g_clear_pointer (&self->trace, winnow_trace_unref);
  g_clear_pointer (&self->aggregate, winnow_aggregate_free);

  G_OBJECT_CLASS (winnow_timeline_parent_class)->dispose (object);
}

static void
winnow_timeline_finalize (GObject *object)
{
  WinnowTimeline *self = WINNOW_TIMELINE (object);

  g_free (self->selected_job);

  G_OBJECT_CLASS (winnow_timeline_parent_class)->finalize (object);
}

static void
winnow_timeline_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  WinnowTimeline *self = WINNOW_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_SELECTED_JOB:
      g_value_set_string (value, self->selected_job);
      break;
    case PROP_HADJUSTMENT:
      g_value_set_object (value, self->hadjustment);
      break;
    case PROP_VADJUSTMENT:
      g_value_set_object (value, self->vadjustment);
      break;
    case PROP_HSCROLL_POLICY:
      g_value_set_enum (value, self->hscroll_policy);
      break;
    case PROP_VSCROLL_POLICY:
      g_value_set_enum (value, self->vscroll_policy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_timeline_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  WinnowTimeline *self = WINNOW_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_SELECTED_JOB:
      winnow_timeline_set_selected_job (self, g_value_get_string (value));
      break;
    case PROP_HADJUSTMENT:
      set_adjustment (self, &self->hadjustment, g_value_get_object (value));
      break;
    case PROP_VADJUSTMENT:
      set_adjustment (self, &self->vadjustment, g_value_get_object (value));
      break;
    case PROP_HSCROLL_POLICY:
      self->hscroll_policy = g_value_get_enum (value);
      gtk_widget_queue_resize (GTK_WIDGET (self));
      break;
    case PROP_VSCROLL_POLICY:
      self->vscroll_policy = g_value_get_enum (value);
      gtk_widget_queue_resize (GTK_WIDGET (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_timeline_class_init (WinnowTimelineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = winnow_timeline_dispose;
  object_class->finalize = winnow_timeline_finalize;
  object_class->get_property = winnow_timeline_get_property;
  object_class->set_property = winnow_timeline_set_property;

  widget_class->snapshot = winnow_timeline_snapshot;
  widget_class->css_changed = winnow_timeline_css_changed;
  widget_class->measure = winnow_timeline_measure;
  widget_class->size_allocate = winnow_timeline_size_allocate;
  widget_class->query_tooltip = winnow_timeline_query_tooltip;

  properties[PROP_SELECTED_JOB] =
    g_param_spec_string ("selected-job", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  /* The ruler was pressed or dragged along: go to that instant (µs). */
  signals[SEEK] = g_signal_new ("seek", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT64);
  g_object_class_override_property (object_class, PROP_HADJUSTMENT, "hadjustment");
  g_object_class_override_property (object_class, PROP_VADJUSTMENT, "vadjustment");
  g_object_class_override_property (object_class, PROP_HSCROLL_POLICY, "hscroll-policy");
  g_object_class_override_property (object_class, PROP_VSCROLL_POLICY, "vscroll-policy");

  gtk_widget_class_set_css_name (widget_class, "timeline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
winnow_timeline_init (WinnowTimeline *self)
{
  GtkGesture *click = gtk_gesture_click_new ();
  GtkGesture *drag = gtk_gesture_drag_new ();
  GtkEventController *motion = gtk_event_controller_motion_new ();
  GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  GtkEventController *keys = gtk_event_controller_key_new ();

  self->fit = TRUE;
  self->scale = 1000;
  self->pointer_x = -1;
  self->aggregate = winnow_aggregate_new ();
  self->aggregate_dirty = TRUE;

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_PRIMARY);
  g_signal_connect (click, "released", G_CALLBACK (click_released_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));

  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);

  g_signal_connect (scroll, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);

  g_signal_connect (keys, "key-pressed", G_CALLBACK (key_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);

  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Timeline of every job’s executions, backoff gates, locks and outcomes"), -1);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);

  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (dark_changed_cb), self, G_CONNECT_SWAPPED);
}

/* ---- public API ---- */


void
winnow_timeline_set_trace (WinnowTimeline *self,
                           WinnowTrace    *trace)
{
  g_return_if_fail (WINNOW_IS_TIMELINE (self));

  if (trace == self->trace)
    return;
  if (trace != NULL)
    winnow_trace_ref (trace);
  g_clear_pointer (&self->trace, winnow_trace_unref);
  self->trace = trace;
  self->aggregate_dirty = TRUE;
  winnow_timeline_zoom_to_fit (self);
}

void
winnow_timeline_update (WinnowTimeline *self,
                        WnTime          now)
{
  g_return_if_fail (WINNOW_IS_TIMELINE (self));

  self->now = MAX (now, 0);
  self->aggregate_dirty = TRUE;
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    return;   /* size_allocate catches up when it shows */
  if (self->fit)
    apply_fit (self);
  configure_adjustments (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
winnow_timeline_set_selected_job (WinnowTimeline *self,
                                  const char     *job)
{
  double y;

  g_return_if_fail (WINNOW_IS_TIMELINE (self));

  if (job != NULL && *job == '\0')
    job = NULL;
  if (g_strcmp0 (job, self->selected_job) == 0)
    return;
  g_free (self->selected_job);
  self->selected_job = g_strdup (job);

  /* bring its lane into view (there is none in the aggregate) */
  if (job != NULL && self->trace != NULL && self->vadjustment != NULL && !winnow_timeline_get_aggregated (self))
    {
      WinnowJobTrace *trace = winnow_trace_lookup_job (self->trace, job);
      guint n;

      get_lanes (self, &n);
      if (trace != NULL && trace->lane < n)
        {
          double top = (double) trace->lane * LANE_H;
          double value = gtk_adjustment_get_value (self->vadjustment);
          double page = gtk_adjustment_get_page_size (self->vadjustment);

          y = top - value;
          if (y < 0 || y + LANE_H > page)
            gtk_adjustment_set_value (self->vadjustment, MAX (0, top - page / 3));
        }
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_JOB]);
}

void
winnow_timeline_zoom_to_fit (WinnowTimeline *self)
{
  g_return_if_fail (WINNOW_IS_TIMELINE (self));

  self->fit = TRUE;
  apply_fit (self);
  configure_adjustments (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
winnow_timeline_zoom (WinnowTimeline *self,
                      double          factor,
                      double          anchor)
{
  WnTime at;
  double scale;

  g_return_if_fail (WINNOW_IS_TIMELINE (self));
  g_return_if_fail (factor > 0);

  if (anchor < LABEL_W || anchor > gtk_widget_get_width (GTK_WIDGET (self)))
    anchor = LABEL_W + plot_width (self) / 2;
  at = x_to_time (self, anchor);
  scale = CLAMP (self->scale / factor, MIN_SCALE, MAX_SCALE);
  self->fit = FALSE;
  set_view (self, at - (WnTime) ((anchor - LABEL_W) * scale), scale);
}

gboolean
winnow_timeline_get_fit (WinnowTimeline *self)
{
  g_return_val_if_fail (WINNOW_IS_TIMELINE (self), FALSE);
  return self->fit;
}

void
winnow_timeline_get_range (WinnowTimeline *self,
                           WnTime         *start,
                           WnTime         *end)
{
  g_return_if_fail (WINNOW_IS_TIMELINE (self));

  if (start != NULL)
    *start = self->t0;
  if (end != NULL)
    *end = self->t0 + (WnTime) (plot_width (self) * self->scale);
}

const char *
winnow_timeline_job_at (WinnowTimeline *self,
                        double          x,
                        double          y)
{
  const WinnowLane *lanes;
  guint n;
  int index;

  g_return_val_if_fail (WINNOW_IS_TIMELINE (self), NULL);

  index = lane_at (self, y);
  lanes = get_lanes (self, &n);
  if (index < 0 || lanes[index].job == NULL)
    return NULL;
  return lanes[index].job->id;
}

double
winnow_timeline_job_y (WinnowTimeline *self,
                       const char     *job)
{
  WinnowJobTrace *trace;
  double y;

  g_return_val_if_fail (WINNOW_IS_TIMELINE (self), -1);

  if (self->trace == NULL || winnow_timeline_get_aggregated (self) ||
      (trace = winnow_trace_lookup_job (self->trace, job)) == NULL)
    return -1;
  y = RULER_H + (double) trace->lane * LANE_H - scroll_y (self) + LANE_H / 2.0;
  if (y < RULER_H || y > gtk_widget_get_height (GTK_WIDGET (self)))
    return -1;
  return y;
}

void
winnow_timeline_set_view (WinnowTimeline     *self,
                          WinnowTimelineView  view)
{
  g_return_if_fail (WINNOW_IS_TIMELINE (self));

  if (view == self->view)
    return;
  self->view = view;
  self->aggregate_dirty = TRUE;
  if (self->vadjustment != NULL)
    gtk_adjustment_set_value (self->vadjustment, 0);
  configure_adjustments (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

WinnowTimelineView
winnow_timeline_get_view (WinnowTimeline *self)
{
  g_return_val_if_fail (WINNOW_IS_TIMELINE (self), WINNOW_TIMELINE_VIEW_AUTO);
  return self->view;
}

void
winnow_timeline_get_drawn (WinnowTimeline *self,
                           guint          *lanes,
                           guint          *items)
{
  g_return_if_fail (WINNOW_IS_TIMELINE (self));

  if (lanes != NULL)
    *lanes = self->drawn_lanes;
  if (items != NULL)
    *items = self->drawn_items;
}

/* ---- legend glyphs ---- */

static void
glyph_draw (GtkDrawingArea *area,
            cairo_t        *cr,
            int             width,
            int             height,
            gpointer        data)
{
  Palette pal;

  palette_init (GTK_WIDGET (area), &pal);
  draw_glyph (cr, &pal, (WinnowMarkKind) GPOINTER_TO_UINT (data), width / 2.0, height / 2.0, 5.5);
}

GtkWidget *
winnow_timeline_glyph_new (WinnowMarkKind kind)
{
  GtkWidget *area = gtk_drawing_area_new ();

  g_return_val_if_fail (kind < WINNOW_N_MARKS, NULL);

  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (area), 16);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (area), 16);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (area), glyph_draw, GUINT_TO_POINTER (kind), NULL);
  gtk_widget_set_valign (area, GTK_ALIGN_CENTER);
  gtk_accessible_update_property (GTK_ACCESSIBLE (area), GTK_ACCESSIBLE_PROPERTY_LABEL, mark_title (kind), -1);
  return area;
}

static void
swatch_draw (GtkDrawingArea *area,
             cairo_t        *cr,
             int             width,
             int             height,
             gpointer        data)
{
  Palette pal;
  double y = height / 2.0;

  palette_init (GTK_WIDGET (area), &pal);
  switch ((WinnowSwatch) GPOINTER_TO_UINT (data))
    {
    case WINNOW_SWATCH_EXECUTION:
      winnow_paint_rounded_rect (cr, 1, y - 5, width - 2, 10, 3);
      winnow_paint_set_color (cr, &pal.busy, 1);
      cairo_fill (cr);
      break;
    case WINNOW_SWATCH_GATE:
    case WINNOW_SWATCH_WORKER_WAIT:
      {
        const GdkRGBA *color = GPOINTER_TO_UINT (data) == WINNOW_SWATCH_GATE ? &pal.gated : &pal.busy;
        GdkRGBA wash = with_alpha (color, 0.12);
        GdkRGBA ink = with_alpha (color, 0.75);

        cairo_rectangle (cr, 0, y - 4.5, width, 9);
        winnow_paint_set_color (cr, &wash, 1);
        cairo_fill_preserve (cr);
        cairo_clip (cr);
        winnow_paint_set_color (cr, &ink, 1);
        cairo_set_line_width (cr, 2);
        for (double x = -12; x < width + 12; x += 5.6)
          {
            cairo_move_to (cr, x, y + 6);
            cairo_line_to (cr, x + 12, y - 6);
          }
        cairo_stroke (cr);
        cairo_rectangle (cr, 0, y - 4.5, 1.5, 9);
        cairo_fill (cr);
      }
      break;
    case WINNOW_SWATCH_LOCK:
    default:
      {
        GdkRGBA held = with_alpha (&pal.busy, 0.55);

        cairo_rectangle (cr, 0, y - 1.25, width * 0.65, 2.5);
        winnow_paint_set_color (cr, &held, 1);
        cairo_fill (cr);
        cairo_rectangle (cr, width * 0.65, y - 1.25, width * 0.35, 2.5);
        winnow_paint_set_color (cr, &pal.expired, 1);
        cairo_fill (cr);
      }
      break;
    }
}

GtkWidget *
winnow_timeline_swatch_new (WinnowSwatch swatch)
{
  GtkWidget *area = gtk_drawing_area_new ();

  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (area), 22);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (area), 16);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (area), swatch_draw, GUINT_TO_POINTER (swatch), NULL);
  gtk_widget_set_valign (area, GTK_ALIGN_CENTER);
  return area;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-timeline.h — every job of the run on a virtual-time axis.
 *
 * A ruler on top, one lane per job grouped under its instance; bars for
 * executions, hatched backoff gates, thin lock spans, a glyph per outcome and a
 * cursor at the clock. Ctrl+scroll zooms around the pointer, dragging pans,
 * a click selects a job. It is a GtkScrollable: put it in a GtkScrolledWindow
 * (the horizontal adjustment is the time axis).
 */
#pragma once

#include <gtk/gtk.h>

#include "winnow-trace.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_TIMELINE (winnow_timeline_get_type ())

G_DECLARE_FINAL_TYPE (WinnowTimeline, winnow_timeline, WINNOW, TIMELINE, GtkWidget)

#define WINNOW_TIMELINE_LANE_HEIGHT  24
#define WINNOW_TIMELINE_RULER_HEIGHT 30
#define WINNOW_TIMELINE_LABEL_WIDTH  168

/* Takes a reference; NULL clears. */
void        winnow_timeline_set_trace        (WinnowTimeline *self,
                                              WinnowTrace    *trace);
/* The trace grew and/or the clock moved: re-measure and redraw (cheap when
 * the widget is not shown). */
void        winnow_timeline_update           (WinnowTimeline *self,
                                              WnTime          now);

/* "selected-job": the job whose lane is highlighted, or NULL. Setting it
 * scrolls the lane into view. */
void        winnow_timeline_set_selected_job (WinnowTimeline *self,
                                              const char     *job);

/* The time axis: fitting (what a new run starts with) follows the run until
 * the user zooms or pans. */
void        winnow_timeline_zoom_to_fit      (WinnowTimeline *self);
/* factor > 1 zooms in, around the x position `anchor` (widget coordinates;
 * negative: the centre). */
void        winnow_timeline_zoom             (WinnowTimeline *self,
                                              double          factor,
                                              double          anchor);
gboolean    winnow_timeline_get_fit          (WinnowTimeline *self);
/* The times at the left and right edges of the lanes. */
void        winnow_timeline_get_range        (WinnowTimeline *self,
                                              WnTime         *start,
                                              WnTime         *end);

/* Hit testing (widget coordinates): the job under (x, y), or NULL. */
const char *winnow_timeline_job_at           (WinnowTimeline *self,
                                              double          x,
                                              double          y);
/* The y of a job's lane centre, or -1 when it has none (or is scrolled out). */
double      winnow_timeline_job_y            (WinnowTimeline *self,
                                              const char     *job);
/* The view: a lane per job, or the aggregate — per service task and state
 * (executions running, waiting out a backoff, failed attempts) and for the
 * active instances, a row counting them in every pixel column of the axis.
 * AUTO aggregates when the run has more than WINNOW_TIMELINE_AGGREGATE_ABOVE
 * instances. */
typedef enum {
  WINNOW_TIMELINE_VIEW_AUTO,
  WINNOW_TIMELINE_VIEW_LANES,
  WINNOW_TIMELINE_VIEW_AGGREGATE,
} WinnowTimelineView;

#define WINNOW_TIMELINE_AGGREGATE_ABOVE 500

void        winnow_timeline_set_view         (WinnowTimeline *self,
                                              WinnowTimelineView view);
WinnowTimelineView winnow_timeline_get_view  (WinnowTimeline *self);
/* Whether the aggregate is shown (the view, or AUTO's choice). */
gboolean    winnow_timeline_get_aggregated   (WinnowTimeline *self);

/* What the last frame drew: lanes (or aggregate rows), and spans + marks
 * (or aggregate bars). */
void        winnow_timeline_get_drawn        (WinnowTimeline *self,
                                              guint          *lanes,
                                              guint          *items);

/* Small widgets drawing an outcome glyph or a span as the timeline does, for legends. */
typedef enum {
  WINNOW_SWATCH_EXECUTION,
  WINNOW_SWATCH_GATE,         /* the dispatcher's backoff gate (EngineAuthoritative) */
  WINNOW_SWATCH_WORKER_WAIT,  /* a trusted worker's in-process wait, inside its lock */
  WINNOW_SWATCH_LOCK,
} WinnowSwatch;

GtkWidget  *winnow_timeline_glyph_new        (WinnowMarkKind  kind);
/* What an execution came to, in words, with its code or detail: "technical,
 * retried: 503 carrier API down". */
char       *winnow_timeline_describe_outcome (const WinnowExecution *e);
GtkWidget  *winnow_timeline_swatch_new       (WinnowSwatch    swatch);

G_END_DECLS

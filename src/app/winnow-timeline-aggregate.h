/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-timeline-aggregate.h — the timeline's aggregate view: counts over
 * time instead of a lane per job.
 *
 * With many instances a lane per job is a wall nobody reads (10⁴ orders make
 * 20,000 lanes). The aggregate has one row for the active instances and, per
 * service task, a row per state — executions running, jobs waiting out a
 * backoff, failed attempts — each counting, in every pixel column of the
 * axis, how many spans were in progress during it on average (or the marks
 * in it). The aggregate folds the trace as it grows: a frame reads only the
 * changes of the events since the last one (winnow_trace_get_changes()), and
 * counts a column with two searches, so a frame's cost follows the new
 * events and the columns, not the run's length; a travel or a restart (a new
 * generation of the trace) is folded again whole. Plain data, no GTK.
 */
#pragma once

#include <glib.h>

#include "winnow-trace.h"

G_BEGIN_DECLS

typedef enum {
  WINNOW_AGGREGATE_ACTIVE,     /* instances active (the first row, no task) */
  WINNOW_AGGREGATE_RUNNING,    /* a task's executions in progress */
  WINNOW_AGGREGATE_GATED,      /* its jobs waiting out a backoff (gate or in-process wait) */
  WINNOW_AGGREGATE_FAILED,     /* its attempts that ended in a technical fault or exhausted the retries */
} WinnowAggregateState;

typedef struct _WinnowAggregate WinnowAggregate;

WinnowAggregate      *winnow_aggregate_new        (void);
void                  winnow_aggregate_free       (WinnowAggregate *self);

/* Count the trace over n_columns columns, column c covering
 * [t0 + c·scale, t0 + (c + 1)·scale) µs; `now` (the trace's end, if that is
 * later) stands for open ends. What was counted before is folded on: the
 * same trace again reads only what changed since. */
void                  winnow_aggregate_compute    (WinnowAggregate *self,
                                                   WinnowTrace     *trace,
                                                   WnTime           t0,
                                                   double           scale,
                                                   guint            n_columns,
                                                   WnTime           now);
guint                 winnow_aggregate_get_n_rows (WinnowAggregate *self);
guint                 winnow_aggregate_get_n_columns (WinnowAggregate *self);
/* Row r's task (NULL for the instances' row) and state. */
const char           *winnow_aggregate_row_task   (WinnowAggregate *self, guint row);
WinnowAggregateState  winnow_aggregate_row_state  (WinnowAggregate *self, guint row);
/* Row r's counts, one per column, and their highest: for spans the mean
 * number in progress during the column (time-weighted), for marks (failed
 * attempts) how many fell in it. */
const double         *winnow_aggregate_row_counts (WinnowAggregate *self, guint row, double *peak);
/* The state in a word or two: "executing". */
const char           *winnow_aggregate_state_name (WinnowAggregateState state);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WinnowAggregate, winnow_aggregate_free)

G_END_DECLS

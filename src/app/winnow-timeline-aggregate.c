/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-timeline-aggregate.c — counts over time for the timeline (see the
 * header). The trace's spans and marks are first copied into one flat
 * array (again only when the trace changed: its jobs are scattered on the
 * heap, the copy is read in order); counting puts them into a difference
 * array per row (+1 at their first column, −1 after their last), summed once
 * at the end: O(spans + rows × columns). */
#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "winnow-timeline-aggregate.h"

typedef struct {
  const char           *task;     /* the jobs' node (borrowed from the trace), NULL: instances */
  WinnowAggregateState  state;
  double                peak;
} Row;

/* A span, or a mark (start == end, counted in its column alone). */
typedef struct {
  WnTime  start;
  WnTime  end;                    /* -1: still open (now) */
  guint32 row;
  guint32 point;
} Item;

struct _WinnowAggregate
{
  WinnowTrace *trace;             /* what the items are of (a reference) */
  guint64     stamp;              /* its stamp then */
  GArray     *items;              /* Item */
  GArray     *rows;               /* Row */
  GArray     *counts;             /* double [row × (n_columns + 1)]: whole columns' differences, then counts */
  GArray     *parts;              /* double [row × n_columns]: the parts of columns spans cover */
  GHashTable *first_row;          /* task → its RUNNING row + 1 */
  guint       n_columns;
  WnTime      t0;
  double      scale;
};

WinnowAggregate *
winnow_aggregate_new (void)
{
  WinnowAggregate *self = g_new0 (WinnowAggregate, 1);

  self->rows = g_array_new (FALSE, FALSE, sizeof (Row));
  self->items = g_array_new (FALSE, FALSE, sizeof (Item));
  self->counts = g_array_new (FALSE, TRUE, sizeof (double));
  self->parts = g_array_new (FALSE, TRUE, sizeof (double));
  self->first_row = g_hash_table_new (g_str_hash, g_str_equal);
  return self;
}

void
winnow_aggregate_free (WinnowAggregate *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->trace, winnow_trace_unref);
  g_array_unref (self->items);
  g_array_unref (self->rows);
  g_array_unref (self->counts);
  g_array_unref (self->parts);
  g_hash_table_unref (self->first_row);
  g_free (self);
}

static double *
row_data (WinnowAggregate *self,
          guint            row)
{
  return &g_array_index (self->counts, double, (gsize) row * (self->n_columns + 1));
}

static double *
row_parts (WinnowAggregate *self,
           guint            row)
{
  return &g_array_index (self->parts, double, (gsize) row * self->n_columns);
}

/* A span [start, end]: each column gets the share of it the span covers, so
 * that a column's count is the mean number in progress during it (one slot's
 * executions one after another count 1, not 2). */
static void
add_span (WinnowAggregate *self,
          guint            row,
          WnTime           start,
          WnTime           end)
{
  double n = self->n_columns;
  double x0 = CLAMP ((double) (start - self->t0) / self->scale, 0, n);
  double x1 = CLAMP ((double) (MAX (end, start) - self->t0) / self->scale, 0, n);
  guint c0 = (guint) MIN (floor (x0), n - 1), c1 = (guint) MIN (floor (x1), n - 1);
  double *parts;

  if (x1 <= x0 || self->n_columns == 0)
    return;
  parts = row_parts (self, row);
  if (c0 == c1)
    {
      parts[c0] += x1 - x0;
      return;
    }
  parts[c0] += c0 + 1 - x0;
  parts[c1] += x1 - c1;
  if (c1 > c0 + 1)
    {
      double *d = row_data (self, row);

      d[c0 + 1] += 1;
      d[c1] -= 1;
    }
}

/* A mark counted in its column alone. */
static void
add_point (WinnowAggregate *self,
           guint            row,
           WnTime           t)
{
  double x = floor ((double) (t - self->t0) / self->scale);

  if (x < 0 || x >= self->n_columns)
    return;
  row_parts (self, row)[(guint) x] += 1;
}

static guint
task_rows (WinnowAggregate *self,
           const char      *task)
{
  guint first = GPOINTER_TO_UINT (g_hash_table_lookup (self->first_row, task));

  if (first == 0)
    {
      for (WinnowAggregateState s = WINNOW_AGGREGATE_RUNNING; s <= WINNOW_AGGREGATE_FAILED; s++)
        {
          Row row = { task, s, 0 };

          g_array_append_val (self->rows, row);
        }
      first = self->rows->len - 2;
      g_hash_table_insert (self->first_row, (gpointer) task, GUINT_TO_POINTER (first));
    }
  return first - 1;
}

static void
add_item (WinnowAggregate *self,
          guint            row,
          WnTime           start,
          WnTime           end,
          gboolean         point)
{
  Item item = { start, end, row, point };

  g_array_append_val (self->items, item);
}

/* The flat copy of the trace, and the rows. */
static void
collect (WinnowAggregate *self,
         WinnowTrace     *trace)
{
  Row active = { NULL, WINNOW_AGGREGATE_ACTIVE, 0 };
  const WinnowLane *lanes;
  guint n_lanes;

  g_array_set_size (self->items, 0);
  g_array_set_size (self->rows, 0);
  g_hash_table_remove_all (self->first_row);
  g_array_append_val (self->rows, active);
  lanes = trace != NULL ? winnow_trace_get_lanes (trace, &n_lanes) : NULL;
  for (guint i = 0; lanes != NULL && i < n_lanes; i++)
    {
      const WinnowJobTrace *job = lanes[i].job;
      guint first;

      if (job == NULL)
        {
          add_item (self, 0, lanes[i].instance->created_at, lanes[i].instance->ended_at, FALSE);
          continue;
        }
      first = task_rows (self, job->node != NULL ? job->node : "");
      for (guint k = 0; k < job->executions->len; k++)
        {
          const WinnowExecution *e = &g_array_index (job->executions, WinnowExecution, k);

          add_item (self, first, e->start, e->end, FALSE);
        }
      for (guint k = 0; k < job->gates->len; k++)
        {
          const WinnowSpan *gate = &g_array_index (job->gates, WinnowSpan, k);

          add_item (self, first + 1, gate->start, gate->end, FALSE);
        }
      for (guint k = 0; k < job->marks->len; k++)
        {
          const WinnowMark *mark = &g_array_index (job->marks, WinnowMark, k);

          if (mark->kind == WINNOW_MARK_FAULT || mark->kind == WINNOW_MARK_EXHAUSTED)
            add_item (self, first + 2, mark->t, mark->t, TRUE);
        }
    }
}

void
winnow_aggregate_compute (WinnowAggregate *self,
                          WinnowTrace     *trace,
                          WnTime           t0,
                          double           scale,
                          guint            n_columns,
                          WnTime           now)
{
  g_return_if_fail (self != NULL && scale > 0);

  if (trace != self->trace || (trace != NULL && winnow_trace_get_stamp (trace) != self->stamp))
    {
      if (trace != self->trace)
        {
          g_clear_pointer (&self->trace, winnow_trace_unref);
          self->trace = trace != NULL ? winnow_trace_ref (trace) : NULL;
        }
      self->stamp = trace != NULL ? winnow_trace_get_stamp (trace) : 0;
      collect (self, trace);
    }
  self->n_columns = n_columns;
  self->t0 = t0;
  self->scale = scale;
  g_array_set_size (self->counts, 0);
  g_array_set_size (self->counts, (gsize) self->rows->len * (n_columns + 1));
  g_array_set_size (self->parts, 0);
  g_array_set_size (self->parts, (gsize) self->rows->len * n_columns);
  for (guint i = 0; i < self->items->len; i++)
    {
      const Item *item = &g_array_index (self->items, Item, i);

      if (item->point)
        add_point (self, item->row, item->start);
      else
        add_span (self, item->row, item->start, item->end >= 0 ? item->end : MAX (now, item->start));
    }
  /* the differences summed into counts */
  for (guint r = 0; r < self->rows->len; r++)
    {
      double *d = row_data (self, r);
      const double *parts = row_parts (self, r);
      double sum = 0, peak = 0;

      for (guint c = 0; c < n_columns; c++)
        {
          sum += d[c];
          /* whole columns' differences are whole numbers: the sum is exact */
          d[c] = sum + parts[c];
          peak = MAX (peak, d[c]);
        }
      g_array_index (self->rows, Row, r).peak = peak;
    }
}

guint
winnow_aggregate_get_n_rows (WinnowAggregate *self)
{
  return self->rows->len;
}

guint
winnow_aggregate_get_n_columns (WinnowAggregate *self)
{
  return self->n_columns;
}

const char *
winnow_aggregate_row_task (WinnowAggregate *self,
                           guint            row)
{
  g_return_val_if_fail (row < self->rows->len, NULL);
  return g_array_index (self->rows, Row, row).task;
}

WinnowAggregateState
winnow_aggregate_row_state (WinnowAggregate *self,
                            guint            row)
{
  g_return_val_if_fail (row < self->rows->len, WINNOW_AGGREGATE_ACTIVE);
  return g_array_index (self->rows, Row, row).state;
}

const double *
winnow_aggregate_row_counts (WinnowAggregate *self,
                             guint            row,
                             double          *peak)
{
  g_return_val_if_fail (row < self->rows->len, NULL);
  if (peak != NULL)
    *peak = g_array_index (self->rows, Row, row).peak;
  return row_data (self, row);
}

const char *
winnow_aggregate_state_name (WinnowAggregateState state)
{
  switch (state)
    {
    case WINNOW_AGGREGATE_ACTIVE:
      /* Translators: the timeline's aggregate rows: instances active, a task's executions in progress … */
      return _("active");
    case WINNOW_AGGREGATE_RUNNING:
      return _("executing");
    case WINNOW_AGGREGATE_GATED:
      /* Translators: jobs waiting before their next attempt, in the timeline's aggregate view */
      return _("in backoff");
    case WINNOW_AGGREGATE_FAILED:
    default:
      return _("failed attempts");
    }
}

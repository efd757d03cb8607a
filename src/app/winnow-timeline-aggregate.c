/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-timeline-aggregate.c — counts over time for the timeline (see the
 * header).
 *
 * The trace is folded, not copied: each row keeps the times at which its
 * count changes (+1 where a span starts, −1 where it ends) with, at each, the
 * count from then on and the area under the count before it (count × µs,
 * exact in integers). A frame folds only what the events since the last one
 * changed (the trace's list of changes) and then reads each column's mean as
 * the area between its edges over its width: two binary searches a column,
 * so a frame's cost follows the columns and the new events, not the trace's
 * length, whatever the zoom. The changes are kept in one canonical form (by
 * time, one a time, none of zero), so that what was folded a frame at a time
 * is the same, to the bit, as what a fold of the whole trace makes.
 *
 * Times after the trace's end (the ends of backoffs still to come) wait in a
 * row's `ahead` until the trace reaches them; the spans still open (running
 * executions, active instances) count on to now. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

#include "winnow-timeline-aggregate.h"

/* The count changes by `delta` at `t`. */
typedef struct {
  WnTime t;
  gint64 delta;
} Edge;

/* An edge with what it makes: the count from `t` on, and the area under the
 * count before `t`. */
typedef struct {
  WnTime t;
  gint64 delta;
  gint64 level;
  gint64 area;
} Step;

typedef struct {
  const char           *task;     /* the jobs' node (interned), NULL: instances */
  WinnowAggregateState  state;
  double                peak;
  GArray               *steps;    /* Step, by t, up to the trace's end (spans' rows) */
  GArray               *ahead;    /* Edge, by t, after it */
  GArray               *fresh;    /* Edge, as folded since the last settle */
  gint64                open;     /* spans without an end yet */
  GArray               *marks;    /* WnTime, by time (the failed attempts' row) */
  gboolean              unsorted; /* marks came out of time's order since the last settle */
} Row;

/* What of a job is folded. */
typedef struct {
  guint    row;                   /* its task's RUNNING row */
  guint    executions;
  guint    gates;
  guint    marks;
  gboolean last_open;             /* the last execution folded had no end */
} JobSeen;

/* Instances' folded ends, by creation index. */
#define NOT_SEEN (-2)
#define STILL_OPEN (-1)

struct _WinnowAggregate
{
  WinnowTrace *trace;             /* what is folded (a reference) */
  guint64     generation;         /* its generation then */
  guint       n_changes;          /* its changes folded */
  WnTime      end;                /* the trace's end as folded */
  GArray     *rows;               /* Row */
  GHashTable *first_row;          /* task (interned) → its RUNNING row + 1 */
  const char *last_task;          /* the task last looked up, and its first row */
  guint       last_row;
  GHashTable *jobs;               /* WinnowJobTrace* → JobSeen (owned) */
  GArray     *instances;          /* WnTime: an instance's end folded, STILL_OPEN or NOT_SEEN */
  GArray     *counts;             /* double [row × n_columns] */
  guint       n_columns;
};

static void
row_clear (gpointer data)
{
  Row *row = data;

  g_clear_pointer (&row->steps, g_array_unref);
  g_clear_pointer (&row->ahead, g_array_unref);
  g_clear_pointer (&row->fresh, g_array_unref);
  g_clear_pointer (&row->marks, g_array_unref);
}

static Row *
row_at (WinnowAggregate *self,
        guint            row)
{
  return &g_array_index (self->rows, Row, row);
}

static void
add_row (WinnowAggregate      *self,
         const char           *task,
         WinnowAggregateState  state)
{
  Row row = { task, state, 0, NULL, NULL, NULL, 0, NULL, FALSE };

  if (state == WINNOW_AGGREGATE_FAILED)
    row.marks = g_array_new (FALSE, FALSE, sizeof (WnTime));
  else
    {
      row.steps = g_array_new (FALSE, FALSE, sizeof (Step));
      row.ahead = g_array_new (FALSE, FALSE, sizeof (Edge));
      row.fresh = g_array_new (FALSE, FALSE, sizeof (Edge));
    }
  g_array_append_val (self->rows, row);
}

/* Forget everything folded. */
static void
reset (WinnowAggregate *self)
{
  g_array_set_size (self->rows, 0);
  g_hash_table_remove_all (self->first_row);
  g_hash_table_remove_all (self->jobs);
  g_array_set_size (self->instances, 0);
  self->last_task = NULL;
  add_row (self, NULL, WINNOW_AGGREGATE_ACTIVE);
}

WinnowAggregate *
winnow_aggregate_new (void)
{
  WinnowAggregate *self = g_new0 (WinnowAggregate, 1);

  self->rows = g_array_new (FALSE, TRUE, sizeof (Row));
  g_array_set_clear_func (self->rows, row_clear);
  self->first_row = g_hash_table_new (g_str_hash, g_str_equal);
  self->jobs = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->instances = g_array_new (FALSE, FALSE, sizeof (WnTime));
  self->counts = g_array_new (FALSE, TRUE, sizeof (double));
  reset (self);
  return self;
}

void
winnow_aggregate_free (WinnowAggregate *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->trace, winnow_trace_unref);
  g_array_unref (self->rows);
  g_hash_table_unref (self->first_row);
  g_hash_table_unref (self->jobs);
  g_array_unref (self->instances);
  g_array_unref (self->counts);
  g_free (self);
}

/* The task's first row (RUNNING; GATED and FAILED follow), made on first sight. */
static guint
task_rows (WinnowAggregate *self,
           const char      *node)
{
  guint first;

  if (node == NULL)
    node = "";
  /* jobs come in runs of one task */
  if (self->last_task != NULL && strcmp (node, self->last_task) == 0)
    return self->last_row;
  first = GPOINTER_TO_UINT (g_hash_table_lookup (self->first_row, node));
  if (first == 0)
    {
      /* the row keeps its task's name past the jobs' (a cut frees them) */
      const char *task = g_intern_string (node);

      first = self->rows->len + 1;
      for (WinnowAggregateState s = WINNOW_AGGREGATE_RUNNING; s <= WINNOW_AGGREGATE_FAILED; s++)
        add_row (self, task, s);
      g_hash_table_insert (self->first_row, (gpointer) task, GUINT_TO_POINTER (first));
    }
  self->last_task = g_array_index (self->rows, Row, first - 1).task;
  self->last_row = first - 1;
  return first - 1;
}

/* ---- folding ---- */

static void
add_edge (WinnowAggregate *self,
          guint            row,
          WnTime           t,
          gint64           delta)
{
  Edge edge = { t, delta };

  g_array_append_val (row_at (self, row)->fresh, edge);
}

/* A span from `start`; `end` < 0: still open. */
static void
open_span (WinnowAggregate *self,
           guint            row,
           WnTime           start,
           WnTime           end)
{
  add_edge (self, row, start, 1);
  if (end >= 0)
    add_edge (self, row, MAX (end, start), -1);
  else
    row_at (self, row)->open++;
}

/* An open span from `start` ends at `end`. */
static void
close_span (WinnowAggregate *self,
            guint            row,
            WnTime           start,
            WnTime           end)
{
  add_edge (self, row, MAX (end, start), -1);
  row_at (self, row)->open--;
}

static void
add_mark (WinnowAggregate *self,
          guint            row,
          WnTime           t)
{
  Row *r = row_at (self, row);

  /* they come in time's order, but for a fold of the whole trace */
  if (r->marks->len > 0 && g_array_index (r->marks, WnTime, r->marks->len - 1) > t)
    r->unsorted = TRUE;
  g_array_append_val (r->marks, t);
}

/* The instances' row: active from creation to end (an end that moved, as a
 * second end does, is moved). */
static void
fold_instance (WinnowAggregate           *self,
               const WinnowTraceInstance *instance)
{
  WnTime *seen;

  while (self->instances->len <= instance->index)
    {
      WnTime none = NOT_SEEN;

      g_array_append_val (self->instances, none);
    }
  seen = &g_array_index (self->instances, WnTime, instance->index);
  if (*seen == NOT_SEEN)
    {
      open_span (self, 0, instance->created_at, instance->ended_at);
      *seen = instance->ended_at >= 0 ? MAX (instance->ended_at, instance->created_at) : STILL_OPEN;
      return;
    }
  if (instance->ended_at < 0 || *seen == MAX (instance->ended_at, instance->created_at))
    return;
  if (*seen == STILL_OPEN)
    close_span (self, 0, instance->created_at, instance->ended_at);
  else
    {
      add_edge (self, 0, *seen, 1);
      add_edge (self, 0, MAX (instance->ended_at, instance->created_at), -1);
    }
  *seen = MAX (instance->ended_at, instance->created_at);
}

/* A job's executions, gates and failed attempts since it was last folded:
 * executions only gain an end, gates and marks only come after the others. */
static void
fold_job (WinnowAggregate      *self,
          const WinnowJobTrace *job)
{
  JobSeen *seen = g_hash_table_lookup (self->jobs, job);

  if (seen == NULL)
    {
      seen = g_new0 (JobSeen, 1);
      seen->row = task_rows (self, job->node);
      g_hash_table_insert (self->jobs, (gpointer) job, seen);
    }
  if (seen->last_open)
    {
      const WinnowExecution *e = &g_array_index (job->executions, WinnowExecution, seen->executions - 1);

      if (e->end >= 0)
        {
          close_span (self, seen->row, e->start, e->end);
          seen->last_open = FALSE;
        }
    }
  for (; seen->executions < job->executions->len; seen->executions++)
    {
      const WinnowExecution *e = &g_array_index (job->executions, WinnowExecution, seen->executions);

      open_span (self, seen->row, e->start, e->end);
      seen->last_open = e->end < 0;
    }
  for (; seen->gates < job->gates->len; seen->gates++)
    {
      const WinnowSpan *gate = &g_array_index (job->gates, WinnowSpan, seen->gates);

      open_span (self, seen->row + 1, gate->start, MAX (gate->end, gate->start));
    }
  for (; seen->marks < job->marks->len; seen->marks++)
    {
      const WinnowMark *mark = &g_array_index (job->marks, WinnowMark, seen->marks);

      if (mark->kind == WINNOW_MARK_FAULT || mark->kind == WINNOW_MARK_EXHAUSTED)
        add_mark (self, seen->row + 2, mark->t);
    }
}

/* Edges and marks, by time (both begin with it). */
static int
compare_times (gconstpointer a,
               gconstpointer b)
{
  WnTime x = *(const WnTime *) a, y = *(const WnTime *) b;

  return (x > y) - (x < y);
}

/* The level and area of steps[i] from the one before it. */
static void
restep (GArray *steps,
        guint   i)
{
  Step *s = &g_array_index (steps, Step, i);

  if (i == 0)
    {
      s->level = s->delta;
      s->area = 0;
      return;
    }
  s->level = s[-1].level + s->delta;
  s->area = s[-1].area + s[-1].level * (s->t - s[-1].t);
}

/* How many steps are at or before `t` (those before `from` are). */
static guint
steps_up_to (const GArray *steps,
             guint         from,
             WnTime        t)
{
  guint lo = from, hi = steps->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (steps, Step, mid).t <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* `delta` more at `t`, which is at or before the trace's end. */
static void
add_step (GArray *steps,
          WnTime  t,
          gint64  delta)
{
  guint at = steps->len;

  if (at > 0 && g_array_index (steps, Step, at - 1).t >= t)
    at = steps_up_to (steps, 0, t - 1);
  if (at < steps->len && g_array_index (steps, Step, at).t == t)
    {
      Step *s = &g_array_index (steps, Step, at);

      s->delta += delta;
      if (s->delta == 0)
        g_array_remove_index (steps, at);
    }
  else
    {
      Step s = { t, delta, 0, 0 };

      g_array_insert_val (steps, at, s);
    }
  /* the steps after it (none, but for an edge out of time's order) */
  for (guint i = at; i < steps->len; i++)
    restep (steps, i);
}

/* The row's new edges and those waiting ahead, by time, one a time: those
 * up to the trace's `end` become steps, the others wait. */
static void
settle (Row    *row,
        WnTime  end)
{
  GArray *ahead;
  guint i = 0, j = 0;

  if (row->marks != NULL)
    {
      if (row->unsorted)
        g_array_sort (row->marks, compare_times);
      row->unsorted = FALSE;
      return;
    }
  ahead = g_array_sized_new (FALSE, FALSE, sizeof (Edge), row->ahead->len);
  g_array_sort (row->fresh, compare_times);
  while (i < row->fresh->len || j < row->ahead->len)
    {
      Edge next;

      /* the earlier of the two lists' heads, and every edge at its time */
      if (j >= row->ahead->len ||
          (i < row->fresh->len && g_array_index (row->fresh, Edge, i).t <= g_array_index (row->ahead, Edge, j).t))
        next = g_array_index (row->fresh, Edge, i++);
      else
        next = g_array_index (row->ahead, Edge, j++);
      while (i < row->fresh->len && g_array_index (row->fresh, Edge, i).t == next.t)
        next.delta += g_array_index (row->fresh, Edge, i++).delta;
      while (j < row->ahead->len && g_array_index (row->ahead, Edge, j).t == next.t)
        next.delta += g_array_index (row->ahead, Edge, j++).delta;
      if (next.delta == 0)
        continue;
      if (next.t <= end)
        add_step (row->steps, next.t, next.delta);
      else
        g_array_append_val (ahead, next);
    }
  g_array_set_size (row->fresh, 0);
  g_array_unref (row->ahead);
  row->ahead = ahead;
}

static int
compare_created (gconstpointer a,
                 gconstpointer b)
{
  guint x = (*(WinnowJobTrace * const *) a)->created, y = (*(WinnowJobTrace * const *) b)->created;

  return (x > y) - (x < y);
}

/* The whole trace, its jobs in the order they came (as the changes bring
 * them: a task's rows stand where its first job came). */
static void
fold_all (WinnowAggregate *self,
          WinnowTrace     *trace)
{
  const WinnowLane *lanes;
  guint n_lanes;
  g_autoptr(GPtrArray) jobs = g_ptr_array_new ();

  lanes = winnow_trace_get_lanes (trace, &n_lanes);
  for (guint i = 0; i < n_lanes; i++)
    {
      if (lanes[i].job == NULL)
        fold_instance (self, lanes[i].instance);
      else
        g_ptr_array_add (jobs, lanes[i].job);
    }
  g_ptr_array_sort (jobs, compare_created);
  for (guint i = 0; i < jobs->len; i++)
    fold_job (self, g_ptr_array_index (jobs, i));
}

/* Bring the fold up to the trace as it is. */
static void
fold (WinnowAggregate *self,
      WinnowTrace     *trace)
{
  const WinnowTraceChange *changes = NULL;
  guint n_changes = 0;
  guint64 generation = 0;

  if (trace != NULL)
    changes = winnow_trace_get_changes (trace, &n_changes, &generation);
  if (trace != self->trace || generation != self->generation || n_changes < self->n_changes)
    {
      if (trace != self->trace)
        {
          g_clear_pointer (&self->trace, winnow_trace_unref);
          self->trace = trace != NULL ? winnow_trace_ref (trace) : NULL;
        }
      reset (self);
      if (trace != NULL)
        fold_all (self, trace);
    }
  else
    for (guint i = self->n_changes; i < n_changes; i++)
      {
        fold_instance (self, changes[i].instance);
        if (changes[i].job != NULL)
          fold_job (self, changes[i].job);
      }
  self->generation = generation;
  self->n_changes = n_changes;
  self->end = trace != NULL ? winnow_trace_get_end (trace) : 0;
  for (guint r = 0; r < self->rows->len; r++)
    settle (row_at (self, r), self->end);
}

/* ---- counting ---- */

/* Where a row's reading stands: the edges of columns come in order, so each
 * search starts where the last one ended, and past the steps the ends still
 * ahead are walked once. */
typedef struct {
  guint  from;                    /* steps before it are at or before the last edge */
  guint  ahead;                   /* edges ahead taken in */
  WnTime t;                       /* the last change taken in past the steps */
  gint64 level;
  gint64 area;
} Cursor;

/* The area under a row's count before time `b` (µs, fractional), as a whole
 * part and a fraction (summed, the area; apart, the differences of
 * neighbouring columns stay exact to the last bits). The open spans stop at
 * `until`. */
static void
area_before (const Row *row,
             double     b,
             WnTime     until,
             Cursor    *at,
             gint64    *whole,
             double    *part)
{
  const GArray *steps = row->steps;
  gint64 bi = (gint64) floor (b);
  double bf = b - (double) bi;
  guint lo = steps_up_to (steps, at->from, bi);

  if (lo < steps->len || at->from < steps->len)
    {
      const Step *s = lo > 0 ? &g_array_index (steps, Step, lo - 1) : NULL;

      at->t = s != NULL ? s->t : 0;
      at->level = s != NULL ? s->level : 0;
      at->area = s != NULL ? s->area : 0;
    }
  at->from = lo;
  /* past the steps: the ends still ahead */
  if (lo == steps->len)
    for (; at->ahead < row->ahead->len && g_array_index (row->ahead, Edge, at->ahead).t <= bi; at->ahead++)
      {
        const Edge *e = &g_array_index (row->ahead, Edge, at->ahead);

        at->area += at->level * (e->t - at->t);
        at->level += e->delta;
        at->t = e->t;
      }
  *whole = at->area + at->level * (bi - at->t);
  *part = (double) at->level * bf;
  /* the open spans end at `until` */
  if (row->open != 0 && bi >= until)
    {
      *whole -= row->open * (bi - until);
      *part -= (double) row->open * bf;
    }
}

static void
count_spans (const Row *row,
             double    *counts,
             guint      n_columns,
             WnTime     t0,
             double     scale,
             WnTime     until)
{
  Cursor at = { 0, 0, 0, 0, 0 };
  gint64 whole0, whole1;
  double part0, part1;

  area_before (row, (double) t0, until, &at, &whole0, &part0);
  for (guint c = 0; c < n_columns; c++)
    {
      area_before (row, (double) t0 + (c + 1) * scale, until, &at, &whole1, &part1);
      counts[c] = ((double) (whole1 - whole0) + (part1 - part0)) / scale;
      whole0 = whole1;
      part0 = part1;
    }
}

/* Marks by column: mark t is in column ⌊(t − t0) / scale⌋. */
static void
count_marks (const Row *row,
             double    *counts,
             guint      n_columns,
             WnTime     t0,
             double     scale)
{
  const GArray *marks = row->marks;
  guint k = 0;

  while (k < marks->len && g_array_index (marks, WnTime, k) < t0)
    k++;
  for (; k < marks->len; k++)
    {
      double x = floor ((double) (g_array_index (marks, WnTime, k) - t0) / scale);

      if (x >= n_columns)
        break;
      counts[(guint) x] += 1;
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

  fold (self, trace);
  self->n_columns = n_columns;
  g_array_set_size (self->counts, 0);
  g_array_set_size (self->counts, (gsize) self->rows->len * n_columns);
  for (guint r = 0; r < self->rows->len; r++)
    {
      Row *row = row_at (self, r);
      double *counts = &g_array_index (self->counts, double, (gsize) r * n_columns);
      double peak = 0;

      if (row->marks != NULL)
        count_marks (row, counts, n_columns, t0, scale);
      else
        count_spans (row, counts, n_columns, t0, scale, MAX (now, self->end));
      for (guint c = 0; c < n_columns; c++)
        peak = MAX (peak, counts[c]);
      row->peak = peak;
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
  return row_at (self, row)->task;
}

WinnowAggregateState
winnow_aggregate_row_state (WinnowAggregate *self,
                            guint            row)
{
  g_return_val_if_fail (row < self->rows->len, WINNOW_AGGREGATE_ACTIVE);
  return row_at (self, row)->state;
}

const double *
winnow_aggregate_row_counts (WinnowAggregate *self,
                             guint            row,
                             double          *peak)
{
  g_return_val_if_fail (row < self->rows->len, NULL);
  if (peak != NULL)
    *peak = row_at (self, row)->peak;
  return &g_array_index (self->counts, double, (gsize) row * self->n_columns);
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

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The timeline's aggregate view (winnow-timeline-aggregate.c), folded a
 * frame at a time: after random steps, travels back and forth (which cut the
 * trace back) and restarts, what it shows is, to the bit, what an aggregate
 * counted from nothing shows, and both are the spans and marks counted one
 * by one. No display. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "winnow.h"
#include "winnow-session.h"
#include "winnow-timeline-aggregate.h"

/* The counts straight from the trace: each span's share of every column,
 * each mark in its own; rows keyed by task and state. */
typedef struct {
  GHashTable *rows;     /* "task/state" → double[n_columns] (owned) */
  guint       n_columns;
} Reference;

static double *
reference_row (Reference  *ref,
               const char *task,
               int         state)
{
  g_autofree char *key = g_strdup_printf ("%s/%d", task != NULL ? task : "(instances)", state);
  double *counts = g_hash_table_lookup (ref->rows, key);

  if (counts == NULL)
    {
      counts = g_new0 (double, MAX (ref->n_columns, 1));
      g_hash_table_insert (ref->rows, g_steal_pointer (&key), counts);
    }
  return counts;
}

static void
reference_span (double *counts,
                guint   n_columns,
                WnTime  t0,
                double  scale,
                WnTime  start,
                WnTime  end)
{
  for (guint c = 0; c < n_columns; c++)
    {
      double a = MAX ((double) start, t0 + c * scale), b = MIN ((double) MAX (end, start), t0 + (c + 1) * scale);

      if (b > a)
        counts[c] += (b - a) / scale;
    }
}

static void
reference_mark (double *counts,
                guint   n_columns,
                WnTime  t0,
                double  scale,
                WnTime  t)
{
  double x = floor ((double) (t - t0) / scale);

  if (x >= 0 && x < n_columns)
    counts[(guint) x] += 1;
}

static void
reference_count (Reference   *ref,
                 WinnowTrace *trace,
                 WnTime       t0,
                 double       scale,
                 guint        n_columns,
                 WnTime       now)
{
  const WinnowLane *lanes;
  guint n_lanes;

  ref->rows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  ref->n_columns = n_columns;
  lanes = winnow_trace_get_lanes (trace, &n_lanes);
  for (guint i = 0; i < n_lanes; i++)
    {
      const WinnowJobTrace *job = lanes[i].job;
      const char *task;

      if (job == NULL)
        {
          const WinnowTraceInstance *instance = lanes[i].instance;

          reference_span (reference_row (ref, NULL, WINNOW_AGGREGATE_ACTIVE), n_columns, t0, scale,
                          instance->created_at, instance->ended_at >= 0 ? instance->ended_at : MAX (now, instance->created_at));
          continue;
        }
      task = job->node != NULL ? job->node : "";
      for (guint k = 0; k < job->executions->len; k++)
        {
          const WinnowExecution *e = &g_array_index (job->executions, WinnowExecution, k);

          reference_span (reference_row (ref, task, WINNOW_AGGREGATE_RUNNING), n_columns, t0, scale,
                          e->start, e->end >= 0 ? e->end : MAX (now, e->start));
        }
      for (guint k = 0; k < job->gates->len; k++)
        {
          const WinnowSpan *gate = &g_array_index (job->gates, WinnowSpan, k);

          reference_span (reference_row (ref, task, WINNOW_AGGREGATE_GATED), n_columns, t0, scale, gate->start, gate->end);
        }
      for (guint k = 0; k < job->marks->len; k++)
        {
          const WinnowMark *mark = &g_array_index (job->marks, WinnowMark, k);

          if (mark->kind == WINNOW_MARK_FAULT || mark->kind == WINNOW_MARK_EXHAUSTED)
            reference_mark (reference_row (ref, task, WINNOW_AGGREGATE_FAILED), n_columns, t0, scale, mark->t);
        }
    }
}

/* `live` shows what `fresh` does, to the bit, and both what the reference
 * counted (to rounding). */
static void
assert_same (WinnowAggregate *live,
             WinnowAggregate *fresh,
             Reference       *ref,
             const char      *where)
{
  guint rows = winnow_aggregate_get_n_rows (fresh);
  guint columns = winnow_aggregate_get_n_columns (fresh);
  guint tasks = 0;

  if (winnow_aggregate_get_n_rows (live) != rows)
    g_error ("%s: %u rows, counted from nothing %u", where, winnow_aggregate_get_n_rows (live), rows);
  g_assert_cmpuint (winnow_aggregate_get_n_columns (live), ==, columns);
  for (guint r = 0; r < rows; r++)
    {
      double peak_live, peak_fresh, peak_ref = 0;
      const double *a = winnow_aggregate_row_counts (live, r, &peak_live);
      const double *b = winnow_aggregate_row_counts (fresh, r, &peak_fresh);
      const char *task = winnow_aggregate_row_task (fresh, r);
      int state = winnow_aggregate_row_state (fresh, r);
      const double *c;

      g_assert_cmpstr (winnow_aggregate_row_task (live, r), ==, task);
      g_assert_cmpint (winnow_aggregate_row_state (live, r), ==, state);
      if (columns > 0 && memcmp (a, b, columns * sizeof (double)) != 0)
        for (guint k = 0; k < columns; k++)
          if (a[k] != b[k])
            g_error ("%s: row %u (%s, %d) column %u: %.17g folded, %.17g counted from nothing",
                     where, r, task ? task : "instances", state, k, a[k], b[k]);
      g_assert_cmpfloat (peak_live, ==, peak_fresh);
      c = reference_row (ref, task, state);
      for (guint k = 0; k < columns; k++)
        {
          if (fabs (b[k] - c[k]) > 1e-6 * MAX (1, fabs (c[k])))
            g_error ("%s: row %u (%s, %d) column %u: %.17g, one by one %.17g",
                     where, r, task ? task : "instances", state, k, b[k], c[k]);
          peak_ref = MAX (peak_ref, c[k]);
        }
      g_assert_cmpfloat_with_epsilon (peak_fresh, peak_ref, 1e-6 * MAX (1, peak_ref));
      tasks += state == WINNOW_AGGREGATE_RUNNING;
    }
  /* every row the reference has, the aggregate has (and the task rows come in threes) */
  g_assert_cmpuint (rows, ==, 1 + 3 * tasks);
  g_assert_cmpuint (g_hash_table_size (ref->rows), <=, rows);
}

/* One frame: `live` folds what came since its last, a new one counts the
 * whole trace; a view chosen at random, sometimes reaching past the end. */
static void
check_frame (WinnowAggregate *live,
             WinnowSession   *session,
             GRand           *rand,
             const char      *where)
{
  WinnowTrace *trace = winnow_session_get_trace (session);
  WnTime now = winnow_session_get_now (session);
  WnTime extent = MAX (MAX (now, winnow_trace_get_end (trace)), 1000);
  WnTime t0 = g_rand_boolean (rand) ? 0 : (WnTime) g_rand_double_range (rand, 0, (double) extent);
  double span = g_rand_double_range (rand, 0.05, 1.6) * (double) extent;
  guint columns = (guint) g_rand_int_range (rand, 1, 900);
  g_autoptr(WinnowAggregate) fresh = winnow_aggregate_new ();
  Reference ref;

  winnow_aggregate_compute (live, trace, t0, span / columns, columns, now);
  winnow_aggregate_compute (fresh, trace, t0, span / columns, columns, now);
  reference_count (&ref, trace, t0, span / columns, columns, now);
  assert_same (live, fresh, &ref, where);
  g_hash_table_unref (ref.rows);
}

/* One move, to its end (the session's slices run from the main loop). */
static void
settle (WinnowSession *session)
{
  while (winnow_session_is_stepping (session))
    g_main_context_iteration (NULL, TRUE);
  winnow_session_flush (session);
}

static WinnowSession *
load (const char *example,
      guint       instances)
{
  g_autofree char *path = g_build_filename (EXAMPLES_DIR, example, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  WinnowSession *session = winnow_session_new ();
  WnEngineOptions options;

  memset (&options, 0, sizeof options);
  options.instances = instances;
  g_assert_true (winnow_session_load_file (session, file, &options, NULL, &error));
  g_assert_no_error (error);
  return session;
}

static guint64
journal_length (WinnowSession *session)
{
  return wn_journal_get_n_events (wn_engine_get_journal (winnow_session_get_engine (session)));
}

static void
check_moves (const char *example,
             guint       instances,
             GRand      *rand)
{
  g_autoptr(WinnowSession) session = load (example, instances);
  g_autoptr(WinnowAggregate) live = winnow_aggregate_new ();
  guint travels = 0, restarts = 0;

  for (guint move = 0; move < 70; move++)
    {
      g_autofree char *where = NULL;
      guint how = (guint) g_rand_int_range (rand, 0, 12);
      const char *what;

      if (how < 4)
        {
          guint k = (guint) g_rand_int_range (rand, 1, 12);

          what = "steps";
          for (guint i = 0; i < k && winnow_session_step_next (session); i++)
            settle (session);
        }
      else if (how < 7)
        {
          what = "a stretch of time";
          winnow_session_step_by (session, (WnTime) g_rand_int_range (rand, 1, 3000) * WN_USEC_PER_MSEC);
        }
      else if (how < 9)
        {
          guint k = (guint) g_rand_int_range (rand, 1, 6);

          what = "step back";
          for (guint i = 0; i < k; i++)
            winnow_session_step_back (session);
          travels++;
        }
      else if (how < 11)
        {
          guint64 end = winnow_session_get_travel_end (session);

          what = "go to an event";
          if (end > 0)
            winnow_session_go_to_event (session, (guint64) g_rand_int_range (rand, 1, (gint32) end + 1));
          travels++;
        }
      else
        {
          what = "restart";
          winnow_session_restart (session);
          restarts++;
        }
      settle (session);
      where = g_strdup_printf ("%s, move %u (%s), %" G_GUINT64_FORMAT " events", example, move, what,
                               journal_length (session));
      check_frame (live, session, rand, where);
      /* a second frame with nothing new, another view */
      check_frame (live, session, rand, where);
    }
  g_test_message ("%s × %u: 70 moves, %u travels, %u restarts", example, instances, travels, restarts);
}

static void
test_folded_equals_counted (void)
{
  const char *seed_text = g_getenv ("WINNOW_AGGREGATE_SEED");
  guint32 seed = seed_text != NULL ? (guint32) g_ascii_strtoull (seed_text, NULL, 10) : g_random_int ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);

  /* a failure names the seed: WINNOW_AGGREGATE_SEED=… repeats it */
  g_test_message ("WINNOW_AGGREGATE_SEED=%u", seed);
  check_moves ("flaky-service.process.json", 200, rand);
  check_moves ("order-fulfilment.process.json", 40, rand);
  check_moves ("incident-on-exhaustion.process.json", 30, rand);
}

/* A trace fed events by hand: an execution still running counts on to now,
 * a backoff's end still to come counts until it, a second end of an
 * instance moves its end; and the trace's changes say what to fold. */
static void
test_by_hand (void)
{
  g_autoptr(WinnowTrace) trace = winnow_trace_new ();
  g_autoptr(WinnowAggregate) live = winnow_aggregate_new ();
  WnEvent ev = WN_EVENT_INIT (WN_EV_INSTANCE, WN_PH_CREATED);
  const WinnowTraceChange *changes;
  guint n_changes;
  guint64 generation, before;
  const double *counts;
  double peak;

  ev.instance = "i1";
  ev.t_us = 0;
  winnow_trace_add_event (trace, &ev);
  ev.kind = WN_EV_JOB;
  ev.phase = WN_PH_ENQUEUED;
  ev.job = "i1/j1";
  ev.node = "charge";
  winnow_trace_add_event (trace, &ev);
  ev.phase = WN_PH_EXECUTING;
  ev.worker = "w";
  ev.attempt = 1;
  ev.t_us = 1000;
  winnow_trace_add_event (trace, &ev);
  changes = winnow_trace_get_changes (trace, &n_changes, &before);
  g_assert_cmpuint (n_changes, ==, 3);
  g_assert_null (changes[0].job);
  g_assert_nonnull (changes[2].job);
  g_assert_true (changes[2].instance == changes[2].job->instance);

  /* columns of 1 ms: the execution runs from 1 ms to now (2.5 ms) */
  winnow_aggregate_compute (live, trace, 0, 1000, 4, 2500);
  g_assert_cmpuint (winnow_aggregate_get_n_rows (live), ==, 4);
  counts = winnow_aggregate_row_counts (live, 1, &peak);
  g_assert_cmpfloat (counts[0], ==, 0);
  g_assert_cmpfloat (counts[1], ==, 1);
  g_assert_cmpfloat (counts[2], ==, 0.5);
  g_assert_cmpfloat (counts[3], ==, 0);
  counts = winnow_aggregate_row_counts (live, 0, NULL);
  g_assert_cmpfloat (counts[2], ==, 0.5);
  g_assert_cmpfloat (counts[3], ==, 0);

  /* at 2 ms it fails; its backoff runs to 3.5 ms, after the trace's end */
  ev.phase = WN_PH_RETRY_SCHEDULED;
  ev.t_us = 2000;
  ev.backoff_us = 1500;
  ev.not_before_us = 3500;
  ev.code = "timeout";
  winnow_trace_add_event (trace, &ev);
  winnow_aggregate_compute (live, trace, 0, 1000, 5, 2000);
  counts = winnow_aggregate_row_counts (live, 1, NULL);
  g_assert_cmpfloat (counts[1], ==, 1);
  g_assert_cmpfloat (counts[2], ==, 0);
  counts = winnow_aggregate_row_counts (live, 2, &peak);
  g_assert_cmpfloat (counts[2], ==, 1);
  g_assert_cmpfloat (counts[3], ==, 0.5);
  g_assert_cmpfloat (counts[4], ==, 0);
  counts = winnow_aggregate_row_counts (live, 3, &peak);
  g_assert_cmpfloat (counts[2], ==, 1);
  g_assert_cmpfloat (peak, ==, 1);

  /* the instance ends at 4 ms, then (a second end) at 4.5 ms */
  ev.kind = WN_EV_INSTANCE;
  ev.phase = WN_PH_COMPLETED;
  ev.job = NULL;
  ev.t_us = 4000;
  winnow_trace_add_event (trace, &ev);
  winnow_aggregate_compute (live, trace, 0, 1000, 6, 4000);
  counts = winnow_aggregate_row_counts (live, 0, NULL);
  g_assert_cmpfloat (counts[3], ==, 1);
  g_assert_cmpfloat (counts[4], ==, 0);
  ev.t_us = 4500;
  winnow_trace_add_event (trace, &ev);
  winnow_aggregate_compute (live, trace, 0, 1000, 6, 4500);
  counts = winnow_aggregate_row_counts (live, 0, NULL);
  g_assert_cmpfloat (counts[4], ==, 0.5);
  g_assert_cmpfloat (counts[5], ==, 0);

  /* a clear starts a new generation, with nothing in it */
  winnow_trace_clear (trace);
  changes = winnow_trace_get_changes (trace, &n_changes, &generation);
  g_assert_cmpuint (n_changes, ==, 0);
  g_assert_cmpuint (generation, !=, before);
  winnow_aggregate_compute (live, trace, 0, 1000, 6, 0);
  g_assert_cmpuint (winnow_aggregate_get_n_rows (live), ==, 1);
  winnow_aggregate_row_counts (live, 0, &peak);
  g_assert_cmpfloat (peak, ==, 0);
}

static int
compare_gint64 (gconstpointer a,
                gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

static void
print_figure (const char *what,
              GArray     *us)
{
  if (us->len == 0)
    return;
  g_array_sort (us, compare_gint64);
  g_test_message ("%s: median %.3f ms (%.3f to %.3f), %u frames", what,
                  g_array_index (us, gint64, us->len / 2) / 1000.0, g_array_index (us, gint64, 0) / 1000.0,
                  g_array_index (us, gint64, us->len - 1) / 1000.0, us->len);
}

/* Figures (not limits: the bench has those): 10⁴ orders played in slices
 * of virtual time as frames would, the view fitted to the run as the
 * timeline's is; the aggregate's work a frame, folded or counted from
 * nothing, and the same frame's count checked at the end. */
static void
test_frames (void)
{
  g_autoptr(WinnowSession) session = load ("flaky-service.process.json", 10000);
  g_autoptr(WinnowAggregate) live = winnow_aggregate_new ();
  g_autoptr(GArray) folded = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) whole = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GRand) rand = g_rand_new_with_seed (21);
  WinnowTrace *trace = winnow_session_get_trace (session);
  guint columns = 1200;

  for (guint frame = 0; frame < 400 && winnow_session_get_next_time (session) != WN_TIME_NEVER; frame++)
    {
      WnTime now, extent;
      gint64 started, took;
      double scale;

      winnow_session_step_by (session, 40 * WN_USEC_PER_MSEC);
      settle (session);
      now = winnow_session_get_now (session);
      extent = MAX (now, 1000);
      scale = (double) (extent + extent / 25) / columns;
      started = g_get_monotonic_time ();
      winnow_aggregate_compute (live, trace, 0, scale, columns, now);
      took = g_get_monotonic_time () - started;
      g_array_append_val (folded, took);
      if (frame % 10 == 0)
        {
          g_autoptr(WinnowAggregate) fresh = winnow_aggregate_new ();

          started = g_get_monotonic_time ();
          winnow_aggregate_compute (fresh, trace, 0, scale, columns, now);
          took = g_get_monotonic_time () - started;
          g_array_append_val (whole, took);
        }
    }
  g_assert_cmpuint (winnow_trace_get_n_jobs (trace), >=, 10000);
  /* the whole run counted from nothing (a travel's frame) */
  {
    g_autoptr(GArray) end = g_array_new (FALSE, FALSE, sizeof (gint64));
    WnTime now = winnow_session_get_now (session);
    guint n = g_getenv ("WINNOW_AGGREGATE_REPEAT") != NULL ? 200 : 11;

    for (guint i = 0; i < n; i++)
      {
        g_autoptr(WinnowAggregate) fresh = winnow_aggregate_new ();
        gint64 started = g_get_monotonic_time (), took;

        winnow_aggregate_compute (fresh, trace, 0, (double) now / columns, columns, now);
        took = g_get_monotonic_time () - started;
        g_array_append_val (end, took);
      }
    print_figure ("10^4 orders, the whole run counted from nothing", end);
  }
  print_figure ("10^4 orders, a frame's aggregate folded since the last", folded);
  print_figure ("10^4 orders, a frame's aggregate counted from nothing (every tenth)", whole);
  check_frame (live, session, rand, "10^4 orders, the last frame");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/Aggregate/by-hand", test_by_hand);
  g_test_add_func ("/app/Aggregate/folded-equals-counted", test_folded_equals_counted);
  g_test_add_func ("/app/Aggregate/frames", test_frames);
  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The virtual clock: ordering, stepping, modes, cancellation, scale. */
#include "wn-test-util.h"

typedef struct {
  WnScheduler *scheduler;
  GArray      *fired;   /* int tags, in firing order */
  GArray      *times;   /* WnTime of each firing */
} Fixture;

typedef struct {
  Fixture *f;
  int      tag;
  int      chain;       /* > 0: schedule another action with tag+1 at the same instant */
} Action;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  f->scheduler = wn_scheduler_new ();
  f->fired = g_array_new (FALSE, FALSE, sizeof (int));
  f->times = g_array_new (FALSE, FALSE, sizeof (WnTime));
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  wn_scheduler_free (f->scheduler);
  g_array_unref (f->fired);
  g_array_unref (f->times);
}

static void
record_cb (gpointer data)
{
  Action *a = data;
  WnTime now = wn_scheduler_now (a->f->scheduler);

  g_array_append_val (a->f->fired, a->tag);
  g_array_append_val (a->f->times, now);
  if (a->chain > 0)
    {
      Action *next = g_new0 (Action, 1);
      next->f = a->f;
      next->tag = a->tag + 1;
      next->chain = a->chain - 1;
      wn_scheduler_post (a->f->scheduler, record_cb, next);
    }
  g_free (a);
}

static WnTimerId
add (Fixture *f, WnTime when, int tag)
{
  Action *a = g_new0 (Action, 1);

  a->f = f;
  a->tag = tag;
  return wn_scheduler_at (f->scheduler, when, record_cb, a);
}

/* Like add(), for an action the test will cancel: the scheduler never runs a
 * canceled action, so the caller frees it. */
static WnTimerId
add_cancelable (Fixture *f, WnTime when, int tag, Action **action)
{
  *action = g_new0 (Action, 1);
  (*action)->f = f;
  (*action)->tag = tag;
  return wn_scheduler_at (f->scheduler, when, record_cb, *action);
}

static int
fired (Fixture *f, guint i)
{
  g_assert_cmpuint (i, <, f->fired->len);
  return g_array_index (f->fired, int, i);
}

static void
test_order_and_fifo_ties (Fixture *f, gconstpointer data)
{
  add (f, 300, 3);
  add (f, 100, 1);
  add (f, 200, 20);
  add (f, 200, 21);
  add (f, 200, 22);
  add (f, 0, 0);

  g_assert_cmpuint (wn_scheduler_get_n_pending (f->scheduler), ==, 6);
  g_assert_cmpint (wn_scheduler_run_until (f->scheduler, WN_TIME_NEVER), ==, WN_STOP_QUIESCENT);
  g_assert_cmpuint (f->fired->len, ==, 6);
  g_assert_cmpint (fired (f, 0), ==, 0);
  g_assert_cmpint (fired (f, 1), ==, 1);
  g_assert_cmpint (fired (f, 2), ==, 20);
  g_assert_cmpint (fired (f, 3), ==, 21);
  g_assert_cmpint (fired (f, 4), ==, 22);
  g_assert_cmpint (fired (f, 5), ==, 3);
  g_assert_cmpint (wn_scheduler_now (f->scheduler), ==, 300);
  g_assert_cmpuint (wn_scheduler_get_n_pending (f->scheduler), ==, 0);
}

static void
test_step_next (Fixture *f, gconstpointer data)
{
  Action *a = g_new0 (Action, 1);

  add (f, 1000, 1);
  a->f = f;
  a->tag = 10;
  a->chain = 2;   /* 10 schedules 11 at the same instant, which schedules 12 */
  wn_scheduler_at (f->scheduler, 500, record_cb, a);
  add (f, 500, 20);

  g_assert_true (wn_scheduler_step_next (f->scheduler));
  g_assert_cmpint (wn_scheduler_now (f->scheduler), ==, 500);
  g_assert_cmpuint (f->fired->len, ==, 4);
  g_assert_cmpint (fired (f, 0), ==, 10);
  g_assert_cmpint (fired (f, 1), ==, 20);
  g_assert_cmpint (fired (f, 2), ==, 11);
  g_assert_cmpint (fired (f, 3), ==, 12);

  g_assert_true (wn_scheduler_step_next (f->scheduler));
  g_assert_cmpint (wn_scheduler_now (f->scheduler), ==, 1000);
  g_assert_cmpuint (f->fired->len, ==, 5);

  g_assert_false (wn_scheduler_step_next (f->scheduler));
  g_assert_cmpint (wn_scheduler_now (f->scheduler), ==, 1000);
}

static void
test_step_by (Fixture *f, gconstpointer data)
{
  add (f, 250, 2);
  add (f, 100, 1);
  add (f, 900, 3);

  g_assert_cmpint (wn_scheduler_step_by (f->scheduler, 300), ==, WN_STOP_LIMIT);
  g_assert_cmpint (wn_scheduler_now (f->scheduler), ==, 300);
  g_assert_cmpuint (f->fired->len, ==, 2);
  g_assert_cmpint (fired (f, 0), ==, 1);
  g_assert_cmpint (g_array_index (f->times, WnTime, 0), ==, 100);
  g_assert_cmpint (fired (f, 1), ==, 2);
  g_assert_cmpint (g_array_index (f->times, WnTime, 1), ==, 250);

  /* a boundary instant is included */
  g_assert_cmpint (wn_scheduler_step_by (f->scheduler, 600), ==, WN_STOP_QUIESCENT);
  g_assert_cmpint (wn_scheduler_now (f->scheduler), ==, 900);
  g_assert_cmpuint (f->fired->len, ==, 3);

  /* nothing pending: the clock still moves by Δ */
  wn_scheduler_step_by (f->scheduler, 1000);
  g_assert_cmpint (wn_scheduler_now (f->scheduler), ==, 1900);
}

static void
test_cancel (Fixture *f, gconstpointer data)
{
  g_autofree Action *late_action = NULL;
  g_autofree Action *ready_action = NULL;
  WnTimerId early = add (f, 100, 1);
  WnTimerId late = add_cancelable (f, 200, 2, &late_action);
  WnTimerId ready = add_cancelable (f, 0, 0, &ready_action);

  g_assert_true (wn_scheduler_cancel (f->scheduler, late));
  g_assert_false (wn_scheduler_cancel (f->scheduler, late));
  g_assert_true (wn_scheduler_cancel (f->scheduler, ready));
  g_assert_cmpuint (wn_scheduler_get_n_pending (f->scheduler), ==, 1);
  wn_scheduler_run_until (f->scheduler, WN_TIME_NEVER);
  g_assert_cmpuint (f->fired->len, ==, 1);
  g_assert_cmpint (fired (f, 0), ==, 1);
  /* a fired id is stale, and stale ids are harmless even after slot reuse */
  g_assert_false (wn_scheduler_cancel (f->scheduler, early));
  add (f, 300, 3);
  g_assert_false (wn_scheduler_cancel (f->scheduler, early));
  g_assert_false (wn_scheduler_cancel (f->scheduler, 0));
  wn_scheduler_run_until (f->scheduler, WN_TIME_NEVER);
  g_assert_cmpuint (f->fired->len, ==, 2);
}

static void
test_limit_and_stop (Fixture *f, gconstpointer data)
{
  add (f, 100, 1);
  add (f, 200, 2);
  add (f, 300, 3);

  g_assert_cmpint (wn_scheduler_run_until (f->scheduler, 250), ==, WN_STOP_LIMIT);
  g_assert_cmpuint (f->fired->len, ==, 2);
  g_assert_cmpint (wn_scheduler_get_next_time (f->scheduler), ==, 300);
  g_assert_cmpint (wn_scheduler_run_budget (f->scheduler, WN_TIME_NEVER, 0), ==, WN_STOP_BUDGET);
  g_assert_cmpuint (f->fired->len, ==, 2);
  g_assert_cmpint (wn_scheduler_run_until (f->scheduler, WN_TIME_NEVER), ==, WN_STOP_QUIESCENT);
  g_assert_cmpuint (f->fired->len, ==, 3);
}

/* A run out of budget stands at the last instant it ran: the next instant's
 * timers are neither run nor queued, so what is posted meanwhile (an operator's
 * command, or its replay from a saved session) runs before them. */
static void
test_budget_keeps_clock (Fixture *f, gconstpointer data)
{
  add (f, 100, 1);
  add (f, 200, 2);

  g_assert_cmpint (wn_scheduler_run_budget (f->scheduler, WN_TIME_NEVER, 1), ==, WN_STOP_BUDGET);
  g_assert_cmpint (wn_scheduler_now (f->scheduler), ==, 100);
  g_assert_cmpuint (f->fired->len, ==, 1);
  add (f, 100, 3);
  g_assert_cmpint (wn_scheduler_run_until (f->scheduler, WN_TIME_NEVER), ==, WN_STOP_QUIESCENT);
  g_assert_cmpuint (f->fired->len, ==, 3);
  g_assert_cmpint (fired (f, 1), ==, 3);
  g_assert_cmpint (g_array_index (f->times, WnTime, 1), ==, 100);
  g_assert_cmpint (fired (f, 2), ==, 2);
}

static void
stop_cb (gpointer data)
{
  Fixture *f = data;
  int tag = 99;

  g_array_append_val (f->fired, tag);
  wn_scheduler_request_stop (f->scheduler);
}

static void
test_request_stop (Fixture *f, gconstpointer data)
{
  add (f, 100, 1);
  wn_scheduler_at (f->scheduler, 100, stop_cb, f);
  add (f, 100, 2);
  add (f, 200, 3);

  g_assert_cmpint (wn_scheduler_run_until (f->scheduler, WN_TIME_NEVER), ==, WN_STOP_REQUESTED);
  g_assert_cmpuint (f->fired->len, ==, 2);
  g_assert_cmpint (fired (f, 1), ==, 99);
  g_assert_cmpint (wn_scheduler_run_until (f->scheduler, WN_TIME_NEVER), ==, WN_STOP_QUIESCENT);
  g_assert_cmpuint (f->fired->len, ==, 4);
}

/* ---- attached to a main context ---- */

static void
iterate_for (GMainContext *context, gint64 real_us)
{
  gint64 end = g_get_monotonic_time () + real_us;

  while (g_get_monotonic_time () < end)
    {
      g_main_context_iteration (context, FALSE);
      g_usleep (1000);
    }
}

static void
test_pause_freezes (Fixture *f, gconstpointer data)
{
  g_autoptr(GMainContext) context = g_main_context_new ();

  add (f, 10, 1);
  wn_scheduler_attach (f->scheduler, context);
  g_assert_cmpint (wn_scheduler_get_mode (f->scheduler), ==, WN_CLOCK_PAUSED);
  iterate_for (context, 50000);
  g_assert_cmpint (wn_scheduler_now (f->scheduler), ==, 0);
  g_assert_cmpuint (f->fired->len, ==, 0);

  wn_scheduler_resume (f->scheduler);
  iterate_for (context, 50000);
  g_assert_cmpuint (f->fired->len, ==, 1);
  wn_scheduler_pause (f->scheduler);
  {
    WnTime frozen = wn_scheduler_now (f->scheduler);
    iterate_for (context, 50000);
    g_assert_cmpint (wn_scheduler_now (f->scheduler), ==, frozen);
  }
  wn_scheduler_detach (f->scheduler);
}

static void
test_speed (Fixture *f, gconstpointer data)
{
  g_autoptr(GMainContext) context = g_main_context_new ();
  gint64 start, elapsed;
  double ratio;
  Action *later;
  WnTimerId id;

  /* something to wait for: a quiescent clock stands still */
  id = add_cancelable (f, 3600 * WN_USEC_PER_SEC, 1, &later);
  wn_scheduler_attach (f->scheduler, context);
  wn_scheduler_set_speed (f->scheduler, 10.0);
  wn_scheduler_resume (f->scheduler);
  g_main_context_iteration (context, FALSE);
  start = g_get_monotonic_time ();
  {
    WnTime v0 = wn_scheduler_now (f->scheduler);
    iterate_for (context, 300000);
    elapsed = g_get_monotonic_time () - start;
    ratio = (double) (wn_scheduler_now (f->scheduler) - v0) / (double) elapsed;
  }
  /* ten times real time, give or take a loaded machine */
  g_assert_cmpfloat (ratio, >, 7.0);
  g_assert_cmpfloat (ratio, <, 11.0);
  g_assert_true (wn_scheduler_cancel (f->scheduler, id));
  g_free (later);
  wn_scheduler_detach (f->scheduler);
}

static void
test_fast_forward_quiesces (Fixture *f, gconstpointer data)
{
  g_autoptr(GMainContext) context = g_main_context_new ();
  guint guard = 0;

  for (int i = 0; i < 10000; i++)
    add (f, (WnTime) i * WN_USEC_PER_SEC, i);
  wn_scheduler_set_batch (f->scheduler, 100);
  wn_scheduler_attach (f->scheduler, context);
  wn_scheduler_fast_forward (f->scheduler);
  while (wn_scheduler_get_n_pending (f->scheduler) > 0 && guard++ < 100000)
    g_main_context_iteration (context, FALSE);
  g_assert_cmpuint (f->fired->len, ==, 10000);
  g_assert_cmpint (wn_scheduler_now (f->scheduler), ==, (WnTime) 9999 * WN_USEC_PER_SEC);
  /* quiescent: the source no longer asks to run */
  g_assert_false (g_main_context_iteration (context, FALSE));
  wn_scheduler_detach (f->scheduler);
}

/* Running in real time, the clock stops where the last action ran once
 * nothing is left: a run that ended at 50 ms reads 50 ms, as headless, however
 * long real time goes on before the clock is paused. */
static void
test_running_stops_at_the_end (Fixture *f, gconstpointer data)
{
  g_autoptr(GMainContext) context = g_main_context_new ();

  add (f, 50 * WN_USEC_PER_MSEC, 1);
  wn_scheduler_attach (f->scheduler, context);
  wn_scheduler_resume (f->scheduler);
  iterate_for (context, 250000);
  g_assert_cmpuint (f->fired->len, ==, 1);
  g_assert_cmpint (wn_scheduler_now (f->scheduler), ==, 50 * WN_USEC_PER_MSEC);
  g_assert_cmpint (wn_scheduler_get_mode (f->scheduler), ==, WN_CLOCK_RUNNING);

  /* what comes next starts from there, not from where real time went */
  add (f, 60 * WN_USEC_PER_MSEC, 2);
  iterate_for (context, 100000);
  g_assert_cmpuint (f->fired->len, ==, 2);
  g_assert_cmpint (wn_scheduler_now (f->scheduler), ==, 60 * WN_USEC_PER_MSEC);
  wn_scheduler_detach (f->scheduler);
}

/* ---- scale ---- */

static guint64 scale_count;
static WnTime scale_last;
static gboolean scale_ordered;

static void
scale_cb (gpointer data)
{
  WnScheduler *s = data;
  WnTime now = wn_scheduler_now (s);

  if (now < scale_last)
    scale_ordered = FALSE;
  scale_last = now;
  scale_count++;
}

static void
test_million_timers (Fixture *f, gconstpointer data)
{
  WnRng rng;
  const guint n = 1000000;

  wn_rng_init (&rng, 42);
  scale_count = 0;
  scale_last = 0;
  scale_ordered = TRUE;
  for (guint i = 0; i < n; i++)
    wn_scheduler_at (f->scheduler, (WnTime) (wn_rng_next (&rng) % 1000000000), scale_cb, f->scheduler);
  g_assert_cmpuint (wn_scheduler_get_n_pending (f->scheduler), ==, n);
  wn_scheduler_run_until (f->scheduler, WN_TIME_NEVER);
  g_assert_cmpuint (scale_count, ==, n);
  g_assert_true (scale_ordered);
  g_assert_cmpuint (wn_scheduler_get_n_run (f->scheduler), ==, n);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add ("/engine/Scheduler/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("order-fifo-ties", test_order_and_fifo_ties);
  ADD ("step-next", test_step_next);
  ADD ("step-by", test_step_by);
  ADD ("cancel", test_cancel);
  ADD ("limit-budget", test_limit_and_stop);
  ADD ("budget-keeps-clock", test_budget_keeps_clock);
  ADD ("request-stop", test_request_stop);
  ADD ("pause-freezes", test_pause_freezes);
  ADD ("speed-10x", test_speed);
  ADD ("fast-forward-quiesces", test_fast_forward_quiesces);
  ADD ("running-stops-at-the-end", test_running_stops_at_the_end);
  ADD ("million-timers", test_million_timers);
#undef ADD

  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-session-step.c — stepping the clock (F10, F11) in slices. One
 * instant can hold a million actions (10⁵ instances started at T+0, a
 * zero-time retry loop on every one of them), so a step never runs to its
 * end in one go: it runs the engine's budgeted run (wn_scheduler_run_budget)
 * for a few milliseconds, then gives the main loop its turn (drawing, input)
 * and goes on from an idle source. Meanwhile the session counts as playing:
 * the window keeps flushing, the transport says "stepping", and Pause
 * (Space) stops the step where it is, as it stops play. A step that has run
 * STEP_MAX_ACTIONS actions stops by itself and says so; the next step goes
 * on from there. Slicing changes no journal: the actions run in the same
 * order, and the step's clock event comes once, when it ends.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "winnow-session-private.h"

/* Wall time a slice may take before the main loop gets its turn (µs), and
 * how many actions run between two looks at that clock. */
#define SLICE_US 4000
#define SLICE_ACTIONS 64
/* The most actions one step runs before it stops and says so. */
#define STEP_MAX_ACTIONS 200000

static gboolean step_slice_cb (gpointer data);

/* The step is over (done, stopped at a breakpoint or by the engine, paused
 * or out of budget): its clock event, once, and the views catch up. */
static void
finish_step (WinnowSession *self)
{
  WnScheduler *scheduler = wn_engine_get_scheduler (self->engine);
  gboolean restored = FALSE;

  g_clear_handle_id (&self->step_id, g_source_remove);
  if (self->step_after > 0)
    {
      /* a session reopened where it was saved: the clock as it stood then,
       * the commands saved there replayed (a pause), and no step of ours */
      if (wn_scheduler_get_n_run (scheduler) < self->step_after)
        ;   /* stopped on the way (Pause): where it is */
      else if (self->step_target > wn_scheduler_now (scheduler) &&
               wn_scheduler_get_next_time (scheduler) > self->step_target)
        wn_scheduler_step_by (scheduler, self->step_target - wn_scheduler_now (scheduler));
      else
        wn_scheduler_run_budget (scheduler, wn_scheduler_now (scheduler), 0);
      self->step_after = 0;
      restored = TRUE;
    }
  else if (self->step_by)
    {
      g_autofree char *text = wn_duration_format (self->step_delta);
      /* journal data: not translated */
      g_autofree char *action = g_strdup_printf ("by %s", text);

      /* ran to the target (or nothing was left): the clock stands there */
      if (self->step_reason == WN_STOP_LIMIT || self->step_reason == WN_STOP_QUIESCENT)
        wn_scheduler_step_by (scheduler, MAX (0, self->step_target - wn_scheduler_now (scheduler)));
      wn_engine_note_clock (self->engine, WN_PH_STEPPED, action);
    }
  else
    wn_engine_note_clock (self->engine, WN_PH_STEPPED, "to the next event");
  self->stepping = FALSE;
  /* it may have ended the run: the next flush says so */
  self->stepped |= self->step_may_end;
  self->snapshots_dirty = TRUE;
  self->instances_dirty = TRUE;
  _winnow_session_update_mode (self);
  _winnow_session_request_flush (self);
  /* once the step is over: what follows may travel (a session saved in the past) */
  if (restored)
    _winnow_session_state_restored (self);
}

/* Run the step for at most SLICE_US; TRUE when it is over. */
static gboolean
run_slice (WinnowSession *self)
{
  WnScheduler *scheduler = wn_engine_get_scheduler (self->engine);
  gint64 until = g_get_monotonic_time () + SLICE_US;

  do
    {
      guint64 ran = wn_scheduler_get_n_run (scheduler) - self->step_start;
      guint budget;

      if (self->step_after > 0)
        {
          /* to a saved position: exactly that many actions, through the
           * breakpoints on the way (the one at the position stays hit) */
          guint64 left = self->step_after - MIN (self->step_after, wn_scheduler_get_n_run (scheduler));

          if (left == 0)
            return TRUE;
          self->step_reason = wn_scheduler_run_budget (scheduler, WN_TIME_NEVER, (guint) MIN (SLICE_ACTIONS, left));
          if (self->step_reason == WN_STOP_QUIESCENT ||
              (self->step_reason == WN_STOP_REQUESTED && wn_engine_get_failure (self->engine) != NULL))
            return TRUE;
          if (self->step_reason == WN_STOP_REQUESTED && wn_scheduler_get_n_run (scheduler) < self->step_after)
            wn_engine_clear_hit (self->engine);
          continue;
        }
      if (ran >= STEP_MAX_ACTIONS)
        {
          g_autofree char *text =
            /* Translators: why a step stopped by itself; %u is a number of actions */
            g_strdup_printf (_("This step ran %u actions and the instant has more to run: step again to go on"),
                             (guint) STEP_MAX_ACTIONS);

          _winnow_session_stopped (self, text);
          return TRUE;
        }
      budget = (guint) MIN (SLICE_ACTIONS, STEP_MAX_ACTIONS - ran);
      self->step_reason = wn_scheduler_run_budget (scheduler, self->step_target, budget);
      if (self->step_reason != WN_STOP_BUDGET)
        return TRUE;
    }
  while (g_get_monotonic_time () < until);
  return FALSE;
}

static gboolean
step_slice_cb (gpointer data)
{
  WinnowSession *self = data;

  if (run_slice (self))
    {
      self->step_id = 0;
      finish_step (self);
      return G_SOURCE_REMOVE;
    }
  _winnow_session_request_flush (self);
  return G_SOURCE_CONTINUE;
}

/* Start a step to `target` (its first slice at once: a small instant is over
 * before this returns), or go on with the one under way. */
static void
start_step (WinnowSession *self,
            WnTime         target,
            gboolean       by,
            WnTime         delta,
            gboolean       may_end)
{
  WnScheduler *scheduler = wn_engine_get_scheduler (self->engine);

  if (!self->stepping)
    {
      self->stepping = TRUE;
      self->step_may_end = may_end;
      self->step_target = target;
      self->step_by = by;
      self->step_delta = delta;
      self->step_reason = WN_STOP_BUDGET;
      _winnow_session_update_mode (self);
    }
  self->step_start = wn_scheduler_get_n_run (scheduler);
  if (run_slice (self))
    {
      finish_step (self);
      return;
    }
  if (self->step_id == 0)
    {
      /* below redraw and input, like the clock's own source */
      self->step_id = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, step_slice_cb, self, NULL);
    }
  _winnow_session_request_flush (self);
}

/* ---- private API ---- */

void
_winnow_session_stop_step (WinnowSession *self)
{
  if (self->stepping)
    finish_step (self);
}

void
_winnow_session_drop_step (WinnowSession *self)
{
  g_clear_handle_id (&self->step_id, g_source_remove);
  self->stepping = FALSE;
  self->step_after = 0;
}

void
_winnow_session_run_to (WinnowSession *self,
                        guint64        after,
                        WnTime         at)
{
  _winnow_session_drop_step (self);
  if (after == 0 && at == 0)
    {
      _winnow_session_state_restored (self);
      return;
    }
  self->step_after = MAX (after, 1);
  if (after == 0)
    {
      /* no action, only the clock: the same ending */
      self->stepping = TRUE;
      finish_step (self);
      return;
    }
  start_step (self, at, FALSE, 0, TRUE);
}

/* ---- public API ---- */

gboolean
winnow_session_is_stepping (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);
  return self->stepping;
}

gboolean
winnow_session_step_next (WinnowSession *self)
{
  WnScheduler *scheduler;
  WnTime next;

  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);

  if (self->engine == NULL)
    return FALSE;
  scheduler = wn_engine_get_scheduler (self->engine);
  if (self->stepping && !self->step_by)
    {
      /* F10 again while a long step runs: it goes on */
      start_step (self, self->step_target, FALSE, 0, TRUE);
      return TRUE;
    }
  winnow_session_pause (self);
  _winnow_session_leave_hit (self);
  /* an outside worker's call waiting while paused is the next thing to
   * happen (in the past it is answered as the rerun answers live calls) */
  if (_winnow_session_serve_step (self))
    {
      self->snapshots_dirty = TRUE;
      _winnow_session_request_flush (self);
      return TRUE;
    }
  /* in the past the record goes on: its next event, as it was */
  if (winnow_session_is_in_past (self))
    return _winnow_session_travel_step_forward (self);
  next = wn_scheduler_get_next_time (scheduler);
  if (next == WN_TIME_NEVER)
    return FALSE;
  /* the next instant: what is due now, or else the earliest timer's time */
  start_step (self, next, FALSE, 0, TRUE);
  return TRUE;
}

void
winnow_session_step_by (WinnowSession *self,
                        WnTime         delta)
{
  WnScheduler *scheduler;
  WnTime now;

  g_return_if_fail (WINNOW_IS_SESSION (self));
  g_return_if_fail (delta >= 0);

  if (self->engine == NULL)
    return;
  scheduler = wn_engine_get_scheduler (self->engine);
  winnow_session_pause (self);
  _winnow_session_leave_hit (self);
  now = wn_scheduler_now (scheduler);
  /* in the past the clock replays the record: no clock command of its own */
  if (winnow_session_is_in_past (self))
    {
      wn_scheduler_step_by (scheduler, delta);
      _winnow_session_travel_moved (self);
      return;
    }
  /* a step that may end the run, not one past its end: said once */
  start_step (self, delta > WN_TIME_NEVER - now ? WN_TIME_NEVER : now + delta, TRUE, delta,
              wn_scheduler_get_n_pending (scheduler) > 0);
}

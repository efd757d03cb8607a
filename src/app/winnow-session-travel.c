/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-session-travel.c — the session goes back in its run (issue 22): step
 * back, go to an event or an instant, run to the next event of a kind or of
 * a job.
 *
 * A past state is never rebuilt by hand: the session makes a rerun of the
 * run's record (wn-travel.h), makes it its engine and lets it journal its
 * past, then stops it at the point asked for. The models are not emptied
 * for it: the rerun's events are compared with the ones they hold, and they
 * are cut back to where it stops (the journal, the trace) or snapshot from
 * its engine (the tables), so the views change by what differs between the
 * two points, not by the whole run (docs/performance.md). Going forward in the past just
 * runs the rerun on: it replays the rest of the record (the clock commands
 * included, so the journal stays the one the run had), and a command the
 * operator gives there drops that rest, the run going on as a new one.
 * The journal's steps are followed as events come (which step journalled
 * each, wn_engine_get_position()), so Step Back knows where the step before
 * the last one ended without looking for it.
 */
#include "config.h"

#include <string.h>

#include "winnow-session-private.h"

/* A run to the next event of a kind gives up after this many steps (a run
 * that never ends, a worker that is reclaimed for ever). */
#define RUN_TO_MAX_STEPS 10000000

/* The checkpoints: at most this many, this many events apart at least (a
 * rerun of 10⁴ events takes a few ms: a smaller run needs none). */
#define CHECKPOINTS_MAX         4
#define CHECKPOINTS_MIN_SPACING 10000
/* One idle turn fills them for this long, in slices of this many steps. */
#define CHECKPOINT_SLICE_US     4000
#define CHECKPOINT_BUDGET       256

typedef enum {
  TO_POSITION,
  TO_EVENT,
  TO_TIME,
} TargetKind;

void
_winnow_session_travel_reset (WinnowSession *self)
{
  memset (&self->travel_steps, 0, sizeof self->travel_steps);
  self->travel_end = 0;
}

void
_winnow_session_travel_note_event (WinnowSession *self,
                                   const WnEvent *event)
{
  wn_steps_note (&self->travel_steps, self->engine, event);
  if (self->travel_matching &&
      (self->travel_match_kind < 0 || (int) event->kind == self->travel_match_kind) &&
      (self->travel_match_phase < 0 || (int) event->phase == self->travel_match_phase) &&
      (self->travel_match_job == NULL || g_strcmp0 (event->job, self->travel_match_job) == 0))
    self->travel_matched = TRUE;
}

static guint64
n_events (WinnowSession *self)
{
  return wn_journal_get_n_events (wn_engine_get_journal (self->engine));
}

void
_winnow_session_travel_moved (WinnowSession *self)
{
  self->travel_end = MAX (self->travel_end, n_events (self));
  self->snapshots_dirty = TRUE;
  self->instances_dirty = TRUE;
  _winnow_session_request_flush (self);
}

/* The models hold the first `n` events of the run as they are now: the
 * journal and the trace are cut back to them. */
static void
cut_models (WinnowSession *self,
            guint          n)
{
  WinnowJournal *journal = winnow_event_log_get_journal (self->events);

  /* the trace reads the events it drops from the journal: first */
  winnow_trace_truncate (self->trace, journal, n);
  winnow_event_log_truncate (self->events, n);
}

/* Whether the policy the rerun's engine gave a job at its enqueue is the one
 * the trace holds (the journal says the trust, not where it came from). */
static gboolean
same_policy (WinnowSession *self,
             const WnEvent *event)
{
  WinnowJobTrace *job;
  WnJobInfo info;

  if (event->kind != WN_EV_JOB || event->phase != WN_PH_ENQUEUED || event->job == NULL)
    return TRUE;
  job = winnow_trace_lookup_job (self->trace, event->job);
  if (job == NULL || !wn_dispatcher_lookup (wn_engine_get_dispatcher (self->engine), event->job, &info))
    return job == NULL;
  if (job->policy == NULL || info.policy == NULL)
    return job->policy == info.policy;
  return job->policy->trust == info.policy->trust &&
         job->policy->trust_origin_task == info.policy->trust_origin_task;
}

gboolean
_winnow_session_travel_compare (WinnowSession *self,
                                const WnEvent *event)
{
  WinnowJournal *journal = winnow_event_log_get_journal (self->events);

  /* A rerun of the run's own record journals the same events (the engine is
   * deterministic: tests/engine's property runs hold it byte for byte), so
   * only their numbers are checked; another record's are compared whole,
   * with the policy the journal does not show. */
  if (winnow_journal_event_equal (journal, self->travel_compared, event, !self->travel_same_record) &&
      (self->travel_same_record || same_policy (self, event)))
    {
      self->travel_compared++;
      return TRUE;
    }
  /* the rerun parts from what the models hold: from here they follow it */
  self->travel_comparing = FALSE;
  cut_models (self, self->travel_compared);
  self->snapshots_exact = TRUE;
  return FALSE;
}

/* The old run, freed once the frame that shows the travel is drawn. */
static gboolean
free_engine_cb (gpointer data)
{
  wn_engine_free (data);
  return G_SOURCE_REMOVE;
}

/* ---- checkpoints ---- */

static gboolean
checkpoints_wanted (WinnowSession *self)
{
  /* the reference rebuilds from T+0; serving, outside workers' calls are
   * in the record, and the server is remade on each rerun from its start */
  return self->checkpoints != NULL && self->engine != NULL && !self->travel_rebuilds && self->server == NULL;
}

static gboolean
fill_cb (gpointer data)
{
  WinnowSession *self = data;
  gint64 until = g_get_monotonic_time () + CHECKPOINT_SLICE_US;
  guint64 end = winnow_session_get_travel_end (self);
  gboolean more = checkpoints_wanted (self);

  while (more && g_get_monotonic_time () < until)
    more = wn_checkpoints_fill (self->checkpoints, self->engine, end, CHECKPOINT_BUDGET);
  if (more)
    return G_SOURCE_CONTINUE;
  self->checkpoint_id = 0;
  self->checkpoint_end = end;
  return G_SOURCE_REMOVE;
}

void
_winnow_session_checkpoints_init (WinnowSession *self)
{
  self->checkpoints = wn_checkpoints_new (CHECKPOINTS_MAX, CHECKPOINTS_MIN_SPACING);
  self->checkpoint_end = G_MAXUINT64;
}

void
_winnow_session_checkpoints_kick (WinnowSession *self)
{
  if (self->checkpoint_id != 0 || !checkpoints_wanted (self) ||
      winnow_session_get_travel_end (self) == self->checkpoint_end)
    return;
  /* below the run, the frames and input: only when the main loop is idle */
  self->checkpoint_id = g_idle_add_full (G_PRIORITY_LOW, fill_cb, self, NULL);
}

void
_winnow_session_checkpoints_clear (WinnowSession *self)
{
  g_clear_handle_id (&self->checkpoint_id, g_source_remove);
  if (self->checkpoints != NULL)
    wn_checkpoints_clear (self->checkpoints);
  self->checkpoint_end = G_MAXUINT64;
}

void
_winnow_session_checkpoints_free (WinnowSession *self)
{
  g_clear_handle_id (&self->checkpoint_id, g_source_remove);
  g_clear_pointer (&self->checkpoints, wn_checkpoints_free);
}

/* The nearest checkpoint a rerun to the target can run on from, or NULL.
 * Only for the run's own record, and at or before what the models hold:
 * their events up to there are the checkpoint's (the same record), so the
 * rerun is compared with them from there on. */
static WnEngine *
take_checkpoint (WinnowSession    *self,
                 TargetKind        kind,
                 const WnPosition *position,
                 guint64           seq,
                 WnTime            instant,
                 WnSteps          *steps)
{
  WnPosition bound = { G_MAXUINT64, G_MAXUINT, G_MAXINT64, n_events (self) };

  if (!checkpoints_wanted (self))
    return NULL;
  switch (kind)
    {
    case TO_POSITION:
      bound.actions = position->actions;
      bound.commands = position->commands;
      bound.events = MIN (bound.events, position->events);
      break;
    case TO_EVENT:
      /* before the step that journals it */
      bound.events = MIN (bound.events, seq - 1);
      break;
    case TO_TIME:
      /* before the instant: all that is due then is still to run */
      bound.now = instant - 1;
      break;
    default:
      g_assert_not_reached ();
    }
  return wn_checkpoints_take (self->checkpoints, self->engine, &bound, steps);
}

void
winnow_session_set_checkpoints (WinnowSession *self,
                                guint          max,
                                guint64        min_spacing)
{
  g_return_if_fail (WINNOW_IS_SESSION (self));

  _winnow_session_checkpoints_free (self);
  if (max > 0)
    self->checkpoints = wn_checkpoints_new (max, min_spacing);
  self->checkpoint_end = G_MAXUINT64;
  _winnow_session_checkpoints_kick (self);
}

guint
winnow_session_get_n_checkpoints (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), 0);
  return self->checkpoints != NULL ? wn_checkpoints_get_n (self->checkpoints, NULL) : 0;
}

guint64
winnow_session_get_travel_start (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), 0);
  return self->travel_start;
}

/* A rerun of the record, made the session's run and taken to the target.
 * Its events are compared with the models' instead of fed to them again
 * (journal_cb): they hold the run's journal and trace, which the rerun
 * journals again as far as it goes, so the travel cuts them back to where
 * it stops, and one exact snapshot of its engine brings the tables there.
 * Alerts, notices and breakpoint stops on the way were said then, not again
 * now. */
static gboolean
rerun_to (WinnowSession    *self,
          GPtrArray        *record,
          TargetKind        kind,
          const WnPosition *position,
          guint64           seq,
          WnTime            instant)
{
  gint64 started = g_get_monotonic_time ();
  gint64 swapped, ran;
  guint64 end;
  gboolean ok = TRUE, dropped;
  WnEngine *previous, *rerun = NULL;
  WnSteps steps;
  gboolean checkpoint;
  g_autoptr(GError) error = NULL;

  /* serving, outside workers' calls are in the record: the rerun applies
   * them again where they came, and the server remade on it refuses the
   * workers' live calls until the record is used up (wn-external.h) */
  winnow_session_pause (self);
  _winnow_session_leave_hit (self);
  /* a command given in the past since the last flush forked: the old run
   * holds the parent branch's record, which goes with it */
  _winnow_session_branches_check (self);
  end = MAX (self->travel_end, n_events (self));
  self->travel_busy = TRUE;
  self->travel_comparing = !self->travel_rebuilds;
  self->travel_same_record = record == NULL;
  self->travel_compared = 0;
  self->travel_start = 0;
  memset (&steps, 0, sizeof steps);
  if (record == NULL)
    rerun = take_checkpoint (self, kind, position, seq, instant, &steps);
  checkpoint = rerun != NULL;
  if (rerun == NULL)
    rerun = record != NULL ? wn_engine_new_rerun_of (self->engine, record) : wn_engine_new_rerun (self->engine);
  previous = _winnow_session_swap_rerun (self, rerun, &dropped);
  if (checkpoint)
    {
      /* from a checkpoint: the models hold its events, and its steps are
       * those the journal came in */
      self->travel_steps = steps;
      self->travel_compared = (guint) n_events (self);
      self->travel_start = n_events (self);
    }
  if (self->travel_rebuilds)
    {
      /* the reference: empty models fed the rerun's whole journal */
      _winnow_session_tables_reset (self);
      self->counts = g_new0 (WinnowNodeCounts, self->process->n_nodes);
    }
  if (dropped)
    _winnow_session_breakpoints_changed (self);
  self->travel_end = end;
  swapped = g_get_monotonic_time ();
  switch (kind)
    {
    case TO_POSITION:
      ok = wn_engine_run_to_position (self->engine, position, G_MAXUINT, &error);
      if (!ok)
        g_warning ("Step back: %s", error ? error->message : "out of budget");
      break;
    case TO_EVENT:
      ok = wn_engine_run_to_event (self->engine, seq, WN_TIME_NEVER, G_MAXUINT) == WN_STOP_REQUESTED;
      break;
    case TO_TIME:
      wn_engine_run (self->engine, instant);
      break;
    default:
      g_assert_not_reached ();
    }
  if (self->travel_comparing)
    {
      self->travel_comparing = FALSE;
      cut_models (self, self->travel_compared);
    }
  self->travel_busy = FALSE;
  ran = g_get_monotonic_time ();

  memset (self->alert_counts, 0, sizeof self->alert_counts);
  self->notices_shown = wn_engine_get_notices (self->engine)->len;
  wn_engine_clear_hit (self->engine);
  self->announced_hit = 0;
  self->snapshots_dirty = TRUE;
  self->instances_dirty = TRUE;
  self->snapshots_exact = TRUE;
  winnow_session_flush (self);
  _winnow_session_travelled (self);
  g_idle_add_full (G_PRIORITY_LOW, free_engine_cb, previous, NULL);
  /* the one taken is made again, when the main loop is idle */
  self->checkpoint_end = G_MAXUINT64;
  _winnow_session_checkpoints_kick (self);
  self->travel_cost = g_get_monotonic_time () - started;
  g_debug ("travel: %" G_GUINT64_FORMAT " events (from %" G_GUINT64_FORMAT ") in %" G_GINT64_FORMAT " µs: the swap "
           "%" G_GINT64_FORMAT ", the rerun %" G_GINT64_FORMAT ", the snapshots and views %" G_GINT64_FORMAT,
           n_events (self), self->travel_start, self->travel_cost, swapped - started, ran - swapped, started + self->travel_cost - ran);
  return ok;
}

void
_winnow_session_travel_rerun_here (WinnowSession *self)
{
  WnPosition here;
  guint64 end = self->travel_end;

  wn_engine_get_position (self->engine, &here);
  rerun_to (self, NULL, TO_POSITION, &here, 0, 0);
  self->travel_end = MAX (end, n_events (self));
}

void
_winnow_session_travel_to_record (WinnowSession *self,
                                  GPtrArray     *record,
                                  guint64        end)
{
  rerun_to (self, record, TO_EVENT, NULL, end, 0);
  self->travel_end = end;
}

void
winnow_session_set_travel_rebuilds (WinnowSession *self,
                                    gboolean       rebuilds)
{
  g_return_if_fail (WINNOW_IS_SESSION (self));
  self->travel_rebuilds = rebuilds;
}

gboolean
winnow_session_is_in_past (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);
  return self->engine != NULL && wn_engine_get_n_future (self->engine) > 0;
}

guint64
winnow_session_get_travel_end (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), 0);
  return self->engine != NULL ? MAX (self->travel_end, n_events (self)) : 0;
}

gint64
winnow_session_get_travel_cost (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), 0);
  return self->travel_cost;
}

gboolean
winnow_session_can_step_back (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);
  return self->engine != NULL && self->travel_steps.previous.events > 0;
}

gboolean
winnow_session_step_back (WinnowSession *self)
{
  WnPosition target;

  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);

  if (!winnow_session_can_step_back (self))
    return FALSE;
  target = self->travel_steps.previous;
  return rerun_to (self, NULL, TO_POSITION, &target, 0, 0);
}

/* A clock command for a move forward in the live run (the journal says so,
 * as for a step); none in the past, where the record's own come back. */
static void
note_forward (WinnowSession *self,
              gboolean       live,
              const char    *action)
{
  if (live)
    wn_engine_note_clock (self->engine, WN_PH_STEPPED, action);
  _winnow_session_travel_moved (self);
}

gboolean
_winnow_session_travel_step_forward (WinnowSession *self)
{
  guint64 before = n_events (self);

  wn_engine_run_to_event (self->engine, before + 1, WN_TIME_NEVER, G_MAXUINT);
  _winnow_session_travel_moved (self);
  return n_events (self) > before;
}

gboolean
winnow_session_go_to_event (WinnowSession *self,
                            guint64        seq)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);

  if (self->engine == NULL || seq == 0)
    return FALSE;
  if (seq > n_events (self))
    {
      gboolean live = !winnow_session_is_in_past (self);
      g_autofree char *action = g_strdup_printf ("to event %" G_GUINT64_FORMAT, seq);
      WnStopReason reason;

      winnow_session_pause (self);
      _winnow_session_leave_hit (self);
      reason = wn_engine_run_to_event (self->engine, seq, WN_TIME_NEVER, G_MAXUINT);
      note_forward (self, live, action);
      return reason == WN_STOP_REQUESTED;
    }
  /* the event's step is the one the run stands after */
  if (seq >= self->travel_steps.last_first)
    return TRUE;
  return rerun_to (self, NULL, TO_EVENT, NULL, seq, 0);
}

void
winnow_session_go_to_time (WinnowSession *self,
                           WnTime         instant)
{
  g_return_if_fail (WINNOW_IS_SESSION (self));

  if (self->engine == NULL)
    return;
  instant = MAX (instant, 0);
  if (instant >= wn_engine_now (self->engine))
    {
      if (!winnow_session_is_in_past (self))
        {
          winnow_session_step_by (self, instant - wn_engine_now (self->engine));
          return;
        }
      winnow_session_pause (self);
      _winnow_session_leave_hit (self);
      wn_engine_run (self->engine, instant);
      _winnow_session_travel_moved (self);
      return;
    }
  rerun_to (self, NULL, TO_TIME, NULL, 0, instant);
}

gboolean
winnow_session_run_to_event (WinnowSession *self,
                             int            kind,
                             int            phase,
                             const char    *job)
{
  gboolean live;
  g_autofree char *action = NULL;
  gboolean matched;

  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);
  g_return_val_if_fail (kind >= 0 || job != NULL, FALSE);

  if (self->engine == NULL)
    return FALSE;
  winnow_session_pause (self);
  _winnow_session_leave_hit (self);
  live = !winnow_session_is_in_past (self);
  self->travel_match_kind = kind;
  self->travel_match_phase = phase;
  self->travel_match_job = g_strdup (job);
  self->travel_matched = FALSE;
  self->travel_matching = TRUE;
  for (guint i = 0; i < RUN_TO_MAX_STEPS && !self->travel_matched; i++)
    if (!wn_engine_step (self->engine, WN_TIME_NEVER))
      break;
  matched = self->travel_matched;
  self->travel_matching = FALSE;
  g_clear_pointer (&self->travel_match_job, g_free);
  self->travel_matched = FALSE;

  /* journal data: not translated */
  if (job != NULL)
    action = g_strdup_printf ("to the next event of %s", job);
  else
    action = g_strdup_printf ("to the next %s%s%s", wn_event_kind_to_string (kind),
                              phase >= 0 ? "." : "", phase >= 0 ? wn_event_phase_to_string (phase) : "");
  note_forward (self, live, action);
  return matched;
}

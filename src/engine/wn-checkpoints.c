/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-checkpoints.c — reruns left standing at earlier points of a run, so a
 * travel runs on from the nearest instead of from T+0 (wn-travel.h).
 *
 * A checkpoint is made the only way the engine allows: a rerun of the run's
 * record from T+0, stepped in slices to right after the step that journals
 * its target event, then left standing. Nothing is copied or rebuilt. The
 * pool places them by events: the gaps between its checkpoints (and T+0 and
 * the run's end) are kept under 1.5 × run/(max+1), never under min_spacing;
 * a gap ends at the first event of the step the next checkpoint stands
 * after, so a target in it lands inside it (never on that checkpoint again);
 * one is made at a time, in the largest gap, and when the pool is full the
 * checkpoint whose two neighbours stand closest together goes for it. A
 * checkpoint is a state of a rerun of the record it replays, so it serves a
 * run whose record agrees with that one up to where it stands (the commands
 * it consumed, and none due before its point) and whose breakpoints are its
 * own (a rerun counts their hits from T+0).
 */
#include "config.h"

#include "wn-engine-private.h"
#include "wn-travel.h"

typedef struct {
  WnEngine *engine;
  WnSteps   steps;       /* the steps its journal came in */
  guint     journal_id;
  guint64   target;      /* the event it is made to stand after */
} Checkpoint;

struct _WnCheckpoints {
  guint       max;
  guint64     min_spacing;
  GPtrArray  *standing;    /* Checkpoint*, by events, ascending */
  Checkpoint *making;      /* the one being run to its target, or NULL */
  guint64     stuck_end;   /* a target could not be reached with the run at this end … */
  guint64     stuck_at;    /* … so none from this one on (0: none stuck) */
};

/* ---- records ---- */

static gboolean
command_equal (const WnCommand *a,
               const WnCommand *b)
{
  g_autoptr(JsonNode) ja = NULL;
  g_autoptr(JsonNode) jb = NULL;

  if (a == b)
    return TRUE;
  if (a->kind != b->kind || a->after != b->after || a->at != b->at)
    return FALSE;
  /* every field as a saved session keeps it: what a replay reads back */
  ja = wn_command_to_json (a);
  jb = wn_command_to_json (b);
  return json_node_equal (ja, jb);
}

/* The rerun stands where a rerun of `record` passes: what it replayed so far
 * is record's start, and record's next command is not due before here. */
static gboolean
record_fits (WnEngine  *self,
             GPtrArray *record)
{
  guint consumed = self->replay_next;

  if (!self->rerun || consumed > self->replay->len || record->len < consumed)
    return FALSE;
  for (guint i = 0; i < consumed; i++)
    if (!command_equal (g_ptr_array_index (self->replay, i), g_ptr_array_index (record, i)))
      return FALSE;
  if (consumed < record->len)
    {
      const WnCommand *next = g_ptr_array_index (record, consumed);

      if (next->after < wn_scheduler_get_n_run (self->scheduler))
        return FALSE;
    }
  return TRUE;
}

gboolean
wn_engine_adopt_record (WnEngine  *self,
                        GPtrArray *record)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (record != NULL, FALSE);

  if (!record_fits (self, record))
    return FALSE;
  g_ptr_array_unref (self->replay);
  self->replay = g_ptr_array_new_full (record->len, (GDestroyNotify) wn_command_free);
  for (guint i = 0; i < record->len; i++)
    g_ptr_array_add (self->replay, wn_command_copy (g_ptr_array_index (record, i)));
  self->replay_limit = G_MAXUINT;
  _wn_engine_arm_replay (self);
  return TRUE;
}

/* The same breakpoints, by id, kind, phase, node and whether enabled (the
 * hits are what a rerun counts). */
static gboolean
same_breakpoints (WnEngine *a,
                  WnEngine *b)
{
  if (a->breakpoints->len != b->breakpoints->len)
    return FALSE;
  for (guint i = 0; i < a->breakpoints->len; i++)
    {
      const WnBreakpoint *x = &g_array_index (a->breakpoints, WnBreakpoint, i);
      const WnBreakpoint *y = &g_array_index (b->breakpoints, WnBreakpoint, i);

      if (x->id != y->id || x->kind != y->kind || x->phase != y->phase || x->enabled != y->enabled ||
          g_strcmp0 (x->node, y->node) != 0)
        return FALSE;
    }
  return TRUE;
}

/* ---- checkpoints ---- */

static void
steps_cb (const WnEvent *event,
          gpointer       data)
{
  Checkpoint *cp = data;

  wn_steps_note (&cp->steps, cp->engine, event);
}

static Checkpoint *
checkpoint_new (WnEngine *run,
                guint64   target)
{
  Checkpoint *cp = g_new0 (Checkpoint, 1);

  cp->engine = wn_engine_new_rerun (run);
  cp->target = target;
  if (run->breakpoints->len > 0)
    wn_engine_copy_breakpoints (cp->engine, run);
  cp->journal_id = wn_journal_subscribe (cp->engine->journal, steps_cb, cp, NULL);
  return cp;
}

static void
checkpoint_free (gpointer data)
{
  Checkpoint *cp = data;

  if (cp->engine != NULL)
    wn_engine_free (cp->engine);
  g_free (cp);
}

/* The engine, out of the pool and on its own. */
static WnEngine *
checkpoint_release (Checkpoint *cp,
                    WnSteps    *steps)
{
  WnEngine *engine = g_steal_pointer (&cp->engine);

  wn_journal_unsubscribe (engine->journal, cp->journal_id);
  if (steps != NULL)
    *steps = cp->steps;
  checkpoint_free (cp);
  return engine;
}

static guint64
events_of (const Checkpoint *cp)
{
  return wn_journal_get_n_events (cp->engine->journal);
}

WnCheckpoints *
wn_checkpoints_new (guint   max,
                    guint64 min_spacing)
{
  WnCheckpoints *self = g_new0 (WnCheckpoints, 1);

  self->max = max;
  self->min_spacing = MAX (min_spacing, 1);
  self->standing = g_ptr_array_new_with_free_func (checkpoint_free);
  return self;
}

void
wn_checkpoints_clear (WnCheckpoints *self)
{
  g_return_if_fail (self != NULL);

  g_ptr_array_set_size (self->standing, 0);
  g_clear_pointer (&self->making, checkpoint_free);
  self->stuck_end = self->stuck_at = 0;
}

void
wn_checkpoints_free (WnCheckpoints *self)
{
  if (self == NULL)
    return;
  wn_checkpoints_clear (self);
  g_ptr_array_unref (self->standing);
  g_free (self);
}

guint
wn_checkpoints_get_n (WnCheckpoints *self,
                      GArray        *positions)
{
  g_return_val_if_fail (self != NULL, 0);

  if (positions != NULL)
    for (guint i = 0; i < self->standing->len; i++)
      {
        guint64 events = events_of (g_ptr_array_index (self->standing, i));

        g_array_append_val (positions, events);
      }
  return self->standing->len;
}

/* The first event of the step it stands after. */
static guint64
first_of (const Checkpoint *cp)
{
  return cp->steps.last_first > 0 ? cp->steps.last_first : events_of (cp);
}

/* In the standing list, by events; one standing at the same point goes. */
static void
stand (WnCheckpoints *self,
       Checkpoint    *cp)
{
  guint64 events = events_of (cp);
  guint i = 0;

  while (i < self->standing->len && events_of (g_ptr_array_index (self->standing, i)) < events)
    i++;
  if (i < self->standing->len && events_of (g_ptr_array_index (self->standing, i)) == events)
    {
      checkpoint_free (cp);
      return;
    }
  g_ptr_array_insert (self->standing, (gint) i, cp);
}

static gboolean
serves (Checkpoint *cp,
        WnEngine   *run,
        GPtrArray  *record)
{
  return same_breakpoints (cp->engine, run) && record_fits (cp->engine, record);
}

/* Those that no longer serve `run` go. */
static void
drop_stale (WnCheckpoints *self,
            WnEngine      *run)
{
  g_autoptr(GPtrArray) record = wn_engine_dup_record (run);

  for (guint i = self->standing->len; i > 0; i--)
    if (!serves (g_ptr_array_index (self->standing, i - 1), run, record))
      g_ptr_array_remove_index (self->standing, i - 1);
}

/* The event the next checkpoint is made to, or 0: the gaps are small enough
 * (a full pool gives up the checkpoint it misses least for a big gap). */
static guint64
plan (WnCheckpoints *self,
      guint64        end)
{
  guint64 spacing = MAX (end / (self->max + 1), self->min_spacing);
  guint64 from = 0, to = 0, merged = G_MAXUINT64;
  guint n = self->standing->len, least = 0;

  if (self->stuck_at > 0)
    end = MIN (end, self->stuck_at - 1);
  for (guint i = 0; i <= n; i++)
    {
      guint64 a = i == 0 ? 0 : events_of (g_ptr_array_index (self->standing, i - 1));
      /* up to the first event of the step a checkpoint stands after: a
       * target from there on would land on it again */
      guint64 b = i == n ? end : first_of (g_ptr_array_index (self->standing, i));

      if (b > a && b - a > to - from)
        from = a, to = b;
      if (i < n)
        {
          guint64 next = i + 1 == n ? end : events_of (g_ptr_array_index (self->standing, i + 1));

          if (next - a < merged)
            merged = next - a, least = i;
        }
    }
  if (to <= from || (to - from) * 2 <= spacing * 3 || self->max == 0)
    return 0;
  if (n >= self->max)
    {
      if (merged * 2 > spacing * 3)
        return 0;
      g_ptr_array_remove_index (self->standing, least);
    }
  return to - from >= 2 * spacing ? from + spacing : from + (to - from) / 2;
}

gboolean
wn_checkpoints_fill (WnCheckpoints *self,
                     WnEngine      *run,
                     guint64        end,
                     guint          budget)
{
  WnStopReason reason;
  guint64 target;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (run != NULL, FALSE);

  if (self->stuck_at > 0 && end != self->stuck_end)
    self->stuck_end = self->stuck_at = 0;
  if (self->making == NULL)
    {
      drop_stale (self, run);
      target = plan (self, end);
      if (target == 0)
        return FALSE;
      self->making = checkpoint_new (run, target);
      return TRUE;
    }
  reason = wn_engine_run_to_event (self->making->engine, self->making->target, WN_TIME_NEVER, budget);
  if (reason == WN_STOP_BUDGET)
    return TRUE;
  wn_engine_clear_hit (self->making->engine);
  if (reason == WN_STOP_REQUESTED)
    {
      stand (self, g_steal_pointer (&self->making));
      return TRUE;
    }
  /* the record it replays ends before: not again at this end */
  self->stuck_end = end;
  self->stuck_at = self->making->target;
  g_clear_pointer (&self->making, checkpoint_free);
  return FALSE;
}

static gboolean
within (const WnPosition *p,
        const WnPosition *bound)
{
  return p->actions <= bound->actions && p->commands <= bound->commands && p->now <= bound->now &&
         p->events <= bound->events;
}

WnEngine *
wn_checkpoints_take (WnCheckpoints    *self,
                     WnEngine         *run,
                     const WnPosition *bound,
                     WnSteps          *steps)
{
  g_autoptr(GPtrArray) record = NULL;
  Checkpoint *best = NULL;
  guint best_index = G_MAXUINT;
  WnPosition here;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (run != NULL, NULL);
  g_return_val_if_fail (bound != NULL, NULL);

  record = wn_engine_dup_record (run);
  /* the one being made stands between two steps too */
  if (self->making != NULL)
    {
      wn_engine_get_position (self->making->engine, &here);
      if (within (&here, bound) && here.events > 0 && serves (self->making, run, record))
        best = self->making;
    }
  for (guint i = self->standing->len; i > 0; i--)
    {
      Checkpoint *cp = g_ptr_array_index (self->standing, i - 1);

      wn_engine_get_position (cp->engine, &here);
      if (best != NULL && here.events <= events_of (best))
        break;
      if (!within (&here, bound))
        continue;
      if (!serves (cp, run, record))
        {
          g_ptr_array_remove_index (self->standing, i - 1);
          continue;
        }
      best = cp;
      best_index = i - 1;
      break;
    }
  if (best == NULL)
    return NULL;
  if (best == self->making)
    self->making = NULL;
  else
    g_ptr_array_steal_index (self->standing, best_index);
  wn_engine_adopt_record (best->engine, record);
  return checkpoint_release (best, steps);
}

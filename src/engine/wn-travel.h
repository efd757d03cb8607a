/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-travel.h — going back in a run by running it again (issue 22).
 *
 * The engine is deterministic and records the operator's commands at the
 * exact scheduler point they came, so any earlier state of a run is that of
 * a new run of the same files, seed and options replaying the same commands,
 * stopped at the same point: a rerun. Nothing is reconstructed by hand; what
 * a rerun shows is what the engine computes. A position says where a run
 * stands: how many scheduler actions ran, how many operator commands were
 * applied, the clock and the events journalled. Actions and commands are the
 * steps a run can stop between; one step may journal several events.
 */
#pragma once

#if !defined (WINNOW_INSIDE) && !defined (WINNOW_COMPILATION)
# error "Only winnow.h can be included directly"
#endif

#include <glib.h>
#include "wn-engine.h"

G_BEGIN_DECLS

typedef struct {
  guint64 actions;    /* scheduler actions run */
  guint   commands;   /* operator commands applied (wn_engine_get_commands ()->len) */
  WnTime  now;        /* the clock; -1 in a target: wherever the steps leave it */
  guint64 events;     /* events journalled */
} WnPosition;

/* Where the run stands. Called from a journal subscriber, it names the step
 * that is journalling the event: its `actions` and `commands` are those of
 * the position right after that step, which wn_engine_run_to_position()
 * takes a rerun to (with `events` the step's last event's seq, `now` -1). */
void          wn_engine_get_position     (WnEngine         *engine,
                                          WnPosition       *position);
/* The steps a journal came in, followed event by event: where the step of
 * the last event ended, and the one before it (what Step Back goes to). */
typedef struct {
  WnPosition last;        /* right after the step of the last event (`now` -1) */
  WnPosition previous;    /* right after the step before it; .events 0: none */
  guint64    last_first;  /* the last step's first event; 0: none yet */
} WnSteps;

/* Call from a journal subscriber of `engine` for each event. */
void          wn_steps_note              (WnSteps          *steps,
                                          WnEngine         *engine,
                                          const WnEvent    *event);

/* A new run of `from`'s process, scenario, options and seed at T+0, paused,
 * that replays from's record: the commands from applied (live or replayed),
 * then those of the record it replays itself that it has not reached. As far
 * as it runs its journal is from's, event for event, and it can be run on
 * past from's end. It has no breakpoints. A command given to it while
 * record commands are still to come drops them: it goes on as a new run. */
WnEngine     *wn_engine_new_rerun        (WnEngine         *from);
/* The run's record as a new array of copies (WnCommand*): the commands it
 * applied, then those of its own record still to come. */
GPtrArray    *wn_engine_dup_record       (WnEngine         *engine);
/* A rerun of `from`'s files, options and seed, as wn_engine_new_rerun(),
 * that replays `record` (copied) instead: another branch of the run. */
WnEngine     *wn_engine_new_rerun_of     (WnEngine         *from,
                                          GPtrArray        *record);
/* The commands of the record still to come (0 once it is live again). */
guint         wn_engine_get_n_future     (WnEngine         *engine);

/* The record as it was when a command given in a rerun's past dropped the
 * rest of it (the commands applied, then those still to come: the parent
 * branch's), and in *fork the events journalled then; NULL when nothing was
 * dropped since the last call (transfer full). */
GPtrArray    *wn_engine_take_dropped_record (WnEngine      *engine,
                                          guint64          *fork);

/* Run on to `position` (actions, then commands at that point, then the clock
 * to `now` if nothing is due before). TRUE once there; FALSE without an error
 * after `budget` actions (call again: slices for a main loop); FALSE with
 * WN_ENGINE_ERROR_INVALID when the run cannot get there (it is past it, or
 * it ends, or the steps journal other events than `position` says).
 * Breakpoints do not stop it. */
gboolean      wn_engine_run_to_position  (WnEngine         *engine,
                                          const WnPosition *position,
                                          guint             budget,
                                          GError          **error);
/* Run step by step until the journal holds `seq` events, stopping right
 * after the step that journalled event `seq` (the journal then also holds
 * that step's later events), before `limit`. WN_STOP_REQUESTED once there
 * (or at a breakpoint: look at the journal's length); WN_STOP_BUDGET after
 * `budget` steps (call again); WN_STOP_QUIESCENT or WN_STOP_LIMIT when the
 * run ends or reaches `limit` first. */
WnStopReason  wn_engine_run_to_event     (WnEngine         *engine,
                                          guint64           seq,
                                          WnTime            limit,
                                          guint             budget);
/* One step: the next command of the record when it comes before any further
 * action, else one scheduler action (running the clock on to it). FALSE when
 * nothing is left before `limit`. */
gboolean      wn_engine_step             (WnEngine         *engine,
                                          WnTime            limit);

/* Make `record` the one the rerun `engine` replays from where it stands: TRUE
 * when the commands it applied are record's first ones and record's next
 * command comes no earlier than the point it stands at (it is then a state
 * of a rerun of record, and runs on as one); FALSE, unchanged, otherwise. */
gboolean      wn_engine_adopt_record     (WnEngine         *engine,
                                          GPtrArray        *record);

/* ---- checkpoints ----
 *
 * A pool of reruns left standing at earlier points of one run, so that going
 * back runs on from the nearest instead of from T+0. A checkpoint is a whole
 * engine: made by rerunning the record from T+0 to its point (an engine
 * cannot copy itself, and its state is never rebuilt by hand), so it costs
 * the memory of a run at that point. The pool keeps at most `max`, spaced by
 * at least `min_spacing` events and otherwise evenly over the run (a gap is
 * filled once it is more than 1.5 × run/(max+1)). Its owner drives it:
 * wn_checkpoints_fill() does one slice of the work (for a main loop's idle, or
 * a thread that owns the pool), wn_checkpoints_take() hands out the nearest
 * engine before a point. Checkpoints carry the run's breakpoints (their hits
 * counted from T+0); one whose record or breakpoints no longer match the
 * run's is never handed out. docs/engine.md, "Checkpoints". */
typedef struct _WnCheckpoints WnCheckpoints;

WnCheckpoints *wn_checkpoints_new        (guint             max,
                                          guint64           min_spacing);
void          wn_checkpoints_free        (WnCheckpoints    *pool);
/* Drop every checkpoint (a new run, another process). */
void          wn_checkpoints_clear       (WnCheckpoints    *pool);
/* One slice of the pool's work for `run`, whose journal reached `end` events
 * at the furthest: at most `budget` steps of the checkpoint being made, or
 * the choice of the next one. TRUE while work is left. */
gboolean      wn_checkpoints_fill        (WnCheckpoints    *pool,
                                          WnEngine         *run,
                                          guint64           end,
                                          guint             budget);
/* The standing engine furthest on whose position is at or before `bound` in
 * every field (actions, commands, now, events), that replays run's record up
 * to there (made its record: wn_engine_adopt_record()) and has run's
 * breakpoints; removed from the pool, with the steps its journal came in
 * (in *steps). NULL when none is. The caller owns it. */
WnEngine     *wn_checkpoints_take        (WnCheckpoints    *pool,
                                          WnEngine         *run,
                                          const WnPosition *bound,
                                          WnSteps          *steps);
/* How many engines stand (the one being made not counted), and in
 * *positions (when not NULL) their events, ascending. */
guint         wn_checkpoints_get_n       (WnCheckpoints    *pool,
                                          GArray           *positions);

/* The whole state as one line of JSON, "winnow.state/1" (docs/user-guide.md,
 * "The state at an event"): position, clock, counters, instances, tracks,
 * the dispatcher's jobs, pending actions. Stable: the same state gives the
 * same bytes. */
char         *wn_engine_dump_state       (WnEngine         *engine);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-scheduler.h — the virtual clock and the one place deferred work runs.
 *
 * A ready queue (actions due now) and a timer heap (actions due later); ties
 * run in insertion order. Modes: paused, running at a speed factor, and
 * fast-forward. Attach it to a GMainContext with wn_scheduler_attach() to let a
 * main loop drive it; a headless caller uses wn_scheduler_run_until().
 */
#pragma once

#if !defined (WINNOW_INSIDE) && !defined (WINNOW_COMPILATION)
# error "Only winnow.h can be included directly"
#endif

#include <glib.h>
#include "wn-types.h"

G_BEGIN_DECLS

typedef struct _WnScheduler WnScheduler;

typedef void (*WnActionFunc) (gpointer data);

/* An opaque handle for cancelling a pending action; 0 is never a valid id. */
typedef guint64 WnTimerId;

typedef enum {
  WN_CLOCK_PAUSED,
  WN_CLOCK_RUNNING,
  WN_CLOCK_FAST_FORWARD,
} WnClockMode;

/* Why a run stopped. */
typedef enum {
  WN_STOP_QUIESCENT,   /* nothing ready, no timer pending */
  WN_STOP_LIMIT,       /* reached the time limit (timers remain) */
  WN_STOP_REQUESTED,   /* wn_scheduler_request_stop() (a breakpoint) */
  WN_STOP_BUDGET,      /* ran the given number of actions */
} WnStopReason;

typedef void (*WnSchedulerNotify) (WnScheduler *scheduler, gpointer data);

WnScheduler *wn_scheduler_new            (void);
void         wn_scheduler_free           (WnScheduler *scheduler);

WnTime       wn_scheduler_now            (const WnScheduler *scheduler);
/* Run `func` as soon as possible at the current instant (FIFO). */
WnTimerId    wn_scheduler_post           (WnScheduler *scheduler, WnActionFunc func, gpointer data);
/* Run `func` at virtual time `when` (≤ now means: now, after what is already due). */
WnTimerId    wn_scheduler_at             (WnScheduler *scheduler, WnTime when, WnActionFunc func, gpointer data);
/* Run `func` `delay` from now. 0 (and nothing scheduled) when that is past
 * WN_TIME_MAX, the end of virtual time: the caller fails what would wait, with
 * a message, rather than wait for ever. */
WnTimerId    wn_scheduler_after          (WnScheduler *scheduler, WnTime delay, WnActionFunc func, gpointer data);
/* TRUE when the action was pending and will now never run. Stale ids are safe. */
gboolean     wn_scheduler_cancel         (WnScheduler *scheduler, WnTimerId id);

guint        wn_scheduler_get_n_pending  (const WnScheduler *scheduler);
/* Earliest pending action's time, WN_TIME_NEVER when none. */
WnTime       wn_scheduler_get_next_time  (const WnScheduler *scheduler);
guint64      wn_scheduler_get_n_run      (const WnScheduler *scheduler);

/* Headless driving. Each returns why it stopped. */
/* Run every action due at `now`, including ones they schedule at `now`. */
WnStopReason wn_scheduler_run_instant    (WnScheduler *scheduler);
/* Fast-forward until quiescent or the next action would be after `limit`;
 * then the clock stands at the last instant run (not at `limit`). */
WnStopReason wn_scheduler_run_until      (WnScheduler *scheduler, WnTime limit);
/* Like run_until, but runs at most `budget` actions. */
WnStopReason wn_scheduler_run_budget     (WnScheduler *scheduler, WnTime limit, guint budget);
/* Step to the next event: run what is due now, or else jump to the earliest
 * timer and run everything due at that instant. Returns FALSE when nothing was pending.
 * To step in slices instead (an instant can hold many actions), take
 * t = wn_scheduler_get_next_time() and call wn_scheduler_run_budget (t, n) until
 * it returns something other than WN_STOP_BUDGET. */
gboolean     wn_scheduler_step_next      (WnScheduler *scheduler);
/* Advance by `delta`, running every action due in between in order; the clock
 * ends at now + delta. */
WnStopReason wn_scheduler_step_by        (WnScheduler *scheduler, WnTime delta);
/* A one-shot hook for replaying an operator's commands exactly: `func` runs once
 * `after` actions have run in all, before any further action and before the clock
 * passes `at` (it moves the clock to `at`). It is not an action and is not counted.
 * NULL func clears it. */
void         wn_scheduler_set_trigger    (WnScheduler *scheduler, guint64 after, WnTime at,
                                          WnActionFunc func, gpointer data);
/* Ask the current run to stop after the action that is running (breakpoints).
 * In an attached scheduler this also pauses the clock. */
void         wn_scheduler_request_stop   (WnScheduler *scheduler);

/* Modes (meaningful when attached to a main context). */
WnClockMode  wn_scheduler_get_mode       (const WnScheduler *scheduler);
void         wn_scheduler_pause          (WnScheduler *scheduler);
/* Running at the current speed factor. */
void         wn_scheduler_resume         (WnScheduler *scheduler);
void         wn_scheduler_fast_forward   (WnScheduler *scheduler);
double       wn_scheduler_get_speed      (const WnScheduler *scheduler);
void         wn_scheduler_set_speed      (WnScheduler *scheduler, double factor);
/* Actions a fast-forward dispatch runs before returning to the main loop. */
void         wn_scheduler_set_batch      (WnScheduler *scheduler, guint actions);
/* Called after every mode change and whenever an attached dispatch ran actions. */
void         wn_scheduler_set_notify     (WnScheduler *scheduler, WnSchedulerNotify notify, gpointer data);

/* Let `context`'s main loop drive the scheduler; returns the source id. The
 * source runs at G_PRIORITY_DEFAULT_IDLE, below a toolkit's redraw and input. */
guint        wn_scheduler_attach         (WnScheduler *scheduler, GMainContext *context);
void         wn_scheduler_detach         (WnScheduler *scheduler);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WnScheduler, wn_scheduler_free)

G_END_DECLS

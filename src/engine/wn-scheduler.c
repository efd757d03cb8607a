/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-scheduler.c — virtual clock: a ready queue and a timer heap with FIFO ties. */
#include "config.h"

#include "wn-scheduler.h"

#define NO_POS G_MAXUINT32

typedef struct {
  WnTime       when;
  guint64      seq;
  WnActionFunc func;       /* NULL: free or cancelled */
  gpointer     data;
  guint32      generation;
  guint32      heap_pos;   /* NO_POS when not in the heap */
  guint32      next_free;  /* free list link (index + 1), 0 = end */
} Slot;

struct _WnScheduler
{
  Slot        *slots;
  guint32      n_slots;
  guint32      slots_alloc;
  guint32      free_head;   /* index + 1, 0 = none */

  guint32     *heap;        /* slot indices ordered by (when, seq) */
  guint32      heap_len;
  guint32      heap_alloc;

  guint32     *ready;       /* ring buffer of slot indices */
  guint32      ready_alloc; /* power of two */
  guint32      ready_head;
  guint32      ready_len;

  guint        n_live;
  WnTime       now;
  guint64      next_seq;
  guint64      n_run;
  gboolean     stop_requested;

  WnClockMode  mode;
  double       speed;
  guint        batch;
  WnTime       base_virtual;   /* running mode: virtual time at base_real */
  gint64       base_real;      /* running mode: monotonic µs, -1 = take at next dispatch */
  gint64       last_dispatch;  /* running mode: monotonic µs of the last dispatch */

  WnSchedulerNotify notify;
  gpointer          notify_data;

  /* one-shot replay hook: runs when exactly trigger_after actions have run */
  WnActionFunc trigger_func;
  gpointer     trigger_data;
  guint64      trigger_after;
  WnTime       trigger_at;

  GSource     *source;
};

typedef struct {
  GSource      parent;
  WnScheduler *scheduler;
} SchedulerSource;

/* ---- slots ---- */

static guint32
slot_alloc (WnScheduler *self)
{
  guint32 index;

  if (self->free_head != 0)
    {
      index = self->free_head - 1;
      self->free_head = self->slots[index].next_free;
      return index;
    }
  if (self->n_slots == self->slots_alloc)
    {
      self->slots_alloc = MAX (64, self->slots_alloc * 2);
      self->slots = g_renew (Slot, self->slots, self->slots_alloc);
    }
  index = self->n_slots++;
  self->slots[index].generation = 1;
  return index;
}

static void
slot_release (WnScheduler *self, guint32 index)
{
  Slot *slot = &self->slots[index];

  slot->func = NULL;
  slot->data = NULL;
  slot->heap_pos = NO_POS;
  slot->generation++;
  if (slot->generation == 0)
    slot->generation = 1;
  slot->next_free = self->free_head;
  self->free_head = index + 1;
}

static inline WnTimerId
make_id (WnScheduler *self, guint32 index)
{
  return ((WnTimerId) self->slots[index].generation << 32) | (WnTimerId) (index + 1);
}

/* ---- heap ---- */

static inline gboolean
slot_before (const WnScheduler *self, guint32 a, guint32 b)
{
  const Slot *sa = &self->slots[a];
  const Slot *sb = &self->slots[b];

  if (sa->when != sb->when)
    return sa->when < sb->when;
  return sa->seq < sb->seq;
}

static inline void
heap_set (WnScheduler *self, guint32 pos, guint32 index)
{
  self->heap[pos] = index;
  self->slots[index].heap_pos = pos;
}

static void
heap_sift_up (WnScheduler *self, guint32 pos)
{
  guint32 index = self->heap[pos];

  while (pos > 0)
    {
      guint32 parent = (pos - 1) / 2;

      if (!slot_before (self, index, self->heap[parent]))
        break;
      heap_set (self, pos, self->heap[parent]);
      pos = parent;
    }
  heap_set (self, pos, index);
}

static void
heap_sift_down (WnScheduler *self, guint32 pos)
{
  guint32 index = self->heap[pos];

  for (;;)
    {
      guint32 child = 2 * pos + 1;

      if (child >= self->heap_len)
        break;
      if (child + 1 < self->heap_len && slot_before (self, self->heap[child + 1], self->heap[child]))
        child++;
      if (!slot_before (self, self->heap[child], index))
        break;
      heap_set (self, pos, self->heap[child]);
      pos = child;
    }
  heap_set (self, pos, index);
}

static void
heap_push (WnScheduler *self, guint32 index)
{
  if (self->heap_len == self->heap_alloc)
    {
      self->heap_alloc = MAX (64, self->heap_alloc * 2);
      self->heap = g_renew (guint32, self->heap, self->heap_alloc);
    }
  self->heap[self->heap_len++] = index;
  heap_sift_up (self, self->heap_len - 1);
}

static void
heap_remove_at (WnScheduler *self, guint32 pos)
{
  guint32 last = self->heap[--self->heap_len];

  self->slots[self->heap[pos]].heap_pos = NO_POS;
  if (pos == self->heap_len)
    return;
  heap_set (self, pos, last);
  if (pos > 0 && slot_before (self, last, self->heap[(pos - 1) / 2]))
    heap_sift_up (self, pos);
  else
    heap_sift_down (self, pos);
}

/* ---- ready queue ---- */

static void
ready_push (WnScheduler *self, guint32 index)
{
  if (self->ready_len == self->ready_alloc)
    {
      guint32 old_alloc = self->ready_alloc;
      guint32 new_alloc = MAX (64, old_alloc * 2);
      guint32 *ring = g_new (guint32, new_alloc);

      for (guint32 i = 0; i < self->ready_len; i++)
        ring[i] = self->ready[(self->ready_head + i) & (old_alloc - 1)];
      g_free (self->ready);
      self->ready = ring;
      self->ready_alloc = new_alloc;
      self->ready_head = 0;
    }
  self->ready[(self->ready_head + self->ready_len) & (self->ready_alloc - 1)] = index;
  self->ready_len++;
}

static guint32
ready_pop (WnScheduler *self)
{
  guint32 index = self->ready[self->ready_head];

  self->ready_head = (self->ready_head + 1) & (self->ready_alloc - 1);
  self->ready_len--;
  return index;
}

/* Move every timer due at or before `now` to the ready queue, in order. */
static void
collect_due (WnScheduler *self)
{
  while (self->heap_len > 0 && self->slots[self->heap[0]].when <= self->now)
    {
      guint32 index = self->heap[0];

      heap_remove_at (self, 0);
      ready_push (self, index);
    }
}

static WnTime
heap_next_time (const WnScheduler *self)
{
  return self->heap_len > 0 ? self->slots[self->heap[0]].when : WN_TIME_NEVER;
}

/* The earliest thing a run would do next: a timer, or a due replay trigger. */
static WnTime
next_event_time (const WnScheduler *self)
{
  WnTime next = heap_next_time (self);

  if (self->trigger_func != NULL && self->n_run == self->trigger_after)
    next = MIN (next, MAX (self->now, self->trigger_at));
  return next;
}

static void
notify (WnScheduler *self)
{
  if (self->notify != NULL)
    self->notify (self, self->notify_data);
}

/* Run the trigger when its action count has come and its time is within
 * `horizon`: the clock moves to its time, nothing else runs first. */
static gboolean
fire_trigger (WnScheduler *self,
              WnTime       horizon)
{
  WnActionFunc func = self->trigger_func;
  gpointer data = self->trigger_data;

  if (func == NULL || self->n_run != self->trigger_after || self->trigger_at > horizon)
    return FALSE;
  self->trigger_func = NULL;
  self->trigger_data = NULL;
  self->now = MAX (self->now, self->trigger_at);
  func (data);
  return TRUE;
}

/* Run the ready queue until empty; at most *budget actions when budget != NULL. */
static WnStopReason
run_ready (WnScheduler *self, guint *budget)
{
  for (;;)
    {
      guint32 index;
      WnActionFunc func;
      gpointer data;

      while (fire_trigger (self, self->now))
        ;
      collect_due (self);
      if (self->ready_len == 0)
        break;
      if (budget != NULL && *budget == 0)
        return WN_STOP_BUDGET;

      index = ready_pop (self);
      func = self->slots[index].func;
      data = self->slots[index].data;
      if (func == NULL)
        {
          /* cancelled while queued */
          slot_release (self, index);
          continue;
        }
      slot_release (self, index);
      self->n_live--;
      self->n_run++;
      if (budget != NULL)
        (*budget)--;
      func (data);

      if (self->stop_requested)
        {
          self->stop_requested = FALSE;
          return WN_STOP_REQUESTED;
        }
    }
  return WN_STOP_QUIESCENT;
}

/* ---- GSource ---- */

static WnTime
running_target (WnScheduler *self, gint64 real_now)
{
  double elapsed;

  if (self->base_real < 0)
    {
      self->base_real = real_now;
      self->base_virtual = self->now;
    }
  elapsed = (double) (real_now - self->base_real) * self->speed;
  return self->base_virtual + (WnTime) elapsed;
}

static gboolean
scheduler_source_prepare (GSource *source,
                          int     *timeout)
{
  WnScheduler *self = ((SchedulerSource *) source)->scheduler;

  *timeout = -1;
  switch (self->mode)
    {
    case WN_CLOCK_PAUSED:
      return FALSE;

    case WN_CLOCK_FAST_FORWARD:
      if (self->ready_len > 0 || next_event_time (self) != WN_TIME_NEVER)
        {
          *timeout = 0;
          return TRUE;
        }
      return FALSE;

    case WN_CLOCK_RUNNING:
      {
        /* The one place the engine looks at real time: running mode turns
         * elapsed monotonic time into virtual time. */
        WnTime target = running_target (self, g_source_get_time (source));
        WnTime next = self->ready_len > 0 ? self->now : next_event_time (self);
        double wait_ms;

        if (next <= target)
          {
            *timeout = 0;
            return TRUE;
          }
        /* wake for the next action, and at least every frame so the clock moves */
        wait_ms = (double) (next - target) / self->speed / 1000.0;
        *timeout = (int) CLAMP (wait_ms, 1.0, 16.0);
        return FALSE;
      }

    default:
      return FALSE;
    }
}

static gboolean
scheduler_source_check (GSource *source)
{
  WnScheduler *self = ((SchedulerSource *) source)->scheduler;
  int timeout;

  if (scheduler_source_prepare (source, &timeout) || timeout == 0)
    return TRUE;
  /* running: let the clock move about once a frame even with nothing due */
  return self->mode == WN_CLOCK_RUNNING &&
         g_source_get_time (source) - self->last_dispatch >= 15000;
}

static gboolean
scheduler_source_dispatch (GSource     *source,
                           GSourceFunc  callback,
                           gpointer     user_data)
{
  WnScheduler *self = ((SchedulerSource *) source)->scheduler;
  WnStopReason reason = WN_STOP_QUIESCENT;

  if (self->mode == WN_CLOCK_FAST_FORWARD)
    {
      reason = wn_scheduler_run_budget (self, WN_TIME_NEVER, self->batch);
    }
  else if (self->mode == WN_CLOCK_RUNNING)
    {
      WnTime target = running_target (self, g_source_get_time (source));

      self->last_dispatch = g_source_get_time (source);
      reason = wn_scheduler_run_budget (self, target, self->batch);
      if (reason == WN_STOP_LIMIT)
        self->now = MAX (self->now, target);
      else if (reason == WN_STOP_QUIESCENT)
        {
          /* nothing is left to wait for: the clock stands where the last
           * action ran (the run's end, as headless), and whatever is posted
           * next starts from there rather than from where real time went */
          self->base_real = -1;
        }
      else if (reason == WN_STOP_BUDGET)
        {
          /* fell behind: carry on from here rather than racing to catch up */
          self->base_real = -1;
        }
    }

  if (reason == WN_STOP_REQUESTED && self->mode != WN_CLOCK_PAUSED)
    self->mode = WN_CLOCK_PAUSED;
  notify (self);
  return G_SOURCE_CONTINUE;
}

static GSourceFuncs scheduler_source_funcs = {
  scheduler_source_prepare,
  scheduler_source_check,
  scheduler_source_dispatch,
  NULL, NULL, NULL,
};

/* ---- public API ---- */

WnScheduler *
wn_scheduler_new (void)
{
  WnScheduler *self = g_new0 (WnScheduler, 1);

  self->mode = WN_CLOCK_PAUSED;
  self->speed = 1.0;
  self->batch = 4096;
  self->base_real = -1;
  self->next_seq = 1;
  return self;
}

void
wn_scheduler_free (WnScheduler *self)
{
  if (self == NULL)
    return;
  wn_scheduler_detach (self);
  g_free (self->slots);
  g_free (self->heap);
  g_free (self->ready);
  g_free (self);
}

WnTime
wn_scheduler_now (const WnScheduler *self)
{
  return self->now;
}

WnTimerId
wn_scheduler_at (WnScheduler  *self,
                 WnTime        when,
                 WnActionFunc  func,
                 gpointer      data)
{
  guint32 index;
  Slot *slot;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (func != NULL, 0);

  index = slot_alloc (self);
  slot = &self->slots[index];
  slot->when = MAX (when, self->now);
  slot->seq = self->next_seq++;
  slot->func = func;
  slot->data = data;
  slot->heap_pos = NO_POS;
  slot->next_free = 0;
  self->n_live++;

  if (slot->when <= self->now)
    ready_push (self, index);
  else
    heap_push (self, index);
  return make_id (self, index);
}

WnTimerId
wn_scheduler_post (WnScheduler  *self,
                   WnActionFunc  func,
                   gpointer      data)
{
  return wn_scheduler_at (self, self->now, func, data);
}

WnTimerId
wn_scheduler_after (WnScheduler  *self,
                    WnTime        delay,
                    WnActionFunc  func,
                    gpointer      data)
{
  WnTime when;

  g_return_val_if_fail (delay >= 0, 0);

  if (!wn_time_add (self->now, delay, &when))
    return 0;
  return wn_scheduler_at (self, when, func, data);
}

gboolean
wn_scheduler_cancel (WnScheduler *self,
                     WnTimerId    id)
{
  guint32 index;
  Slot *slot;

  if (self == NULL || id == 0)
    return FALSE;
  index = (guint32) (id & G_MAXUINT32) - 1;
  if (index >= self->n_slots)
    return FALSE;
  slot = &self->slots[index];
  if (slot->generation != (guint32) (id >> 32) || slot->func == NULL)
    return FALSE;

  self->n_live--;
  if (slot->heap_pos != NO_POS)
    {
      heap_remove_at (self, slot->heap_pos);
      slot_release (self, index);
    }
  else
    {
      /* queued in the ready ring: drop it when it comes up */
      slot->func = NULL;
      slot->data = NULL;
    }
  return TRUE;
}

guint
wn_scheduler_get_n_pending (const WnScheduler *self)
{
  return self->n_live;
}

WnTime
wn_scheduler_get_next_time (const WnScheduler *self)
{
  if (self->n_live > self->heap_len)
    return self->now;  /* something is ready now */
  return next_event_time (self);
}

guint64
wn_scheduler_get_n_run (const WnScheduler *self)
{
  return self->n_run;
}

WnStopReason
wn_scheduler_run_instant (WnScheduler *self)
{
  return run_ready (self, NULL);
}

/* Runs instants up to `limit`; at most *budget actions when budget != NULL. */
static WnStopReason
run_to (WnScheduler *self,
        WnTime       limit,
        guint       *budget)
{
  for (;;)
    {
      WnStopReason reason = run_ready (self, budget);
      WnTime next;

      if (reason != WN_STOP_QUIESCENT)
        return reason;
      next = heap_next_time (self);
      if (fire_trigger (self, MIN (next, limit)))
        continue;
      if (next == WN_TIME_NEVER)
        return WN_STOP_QUIESCENT;
      if (next > limit)
        return WN_STOP_LIMIT;
      /* Out of budget: stop at the last instant run. Moving the clock on first
       * would leave the next instant's timers uncollected, and a command given
       * now (then replayed from a saved session) would run in another order. */
      if (budget != NULL && *budget == 0)
        return WN_STOP_BUDGET;
      self->now = next;
    }
}

WnStopReason
wn_scheduler_run_budget (WnScheduler *self,
                         WnTime       limit,
                         guint        budget)
{
  return run_to (self, limit, &budget);
}

WnStopReason
wn_scheduler_run_until (WnScheduler *self,
                        WnTime       limit)
{
  return run_to (self, limit, NULL);
}

gboolean
wn_scheduler_step_next (WnScheduler *self)
{
  if (self->ready_len == 0)
    {
      WnTime next = heap_next_time (self);

      if (fire_trigger (self, next))
        {
          run_ready (self, NULL);
          self->base_real = -1;
          return TRUE;
        }
      if (next == WN_TIME_NEVER)
        return FALSE;
      self->now = MAX (self->now, next);
    }
  run_ready (self, NULL);
  self->base_real = -1;
  return TRUE;
}

WnStopReason
wn_scheduler_step_by (WnScheduler *self,
                      WnTime       delta)
{
  WnTime target;
  WnStopReason reason;

  g_return_val_if_fail (delta >= 0, WN_STOP_LIMIT);

  target = delta > WN_TIME_NEVER - self->now ? WN_TIME_NEVER : self->now + delta;
  reason = wn_scheduler_run_until (self, target);
  if (reason != WN_STOP_REQUESTED)
    self->now = MAX (self->now, target);
  self->base_real = -1;
  return reason;
}

void
wn_scheduler_set_trigger (WnScheduler  *self,
                          guint64       after,
                          WnTime        at,
                          WnActionFunc  func,
                          gpointer      data)
{
  self->trigger_after = after;
  self->trigger_at = at;
  self->trigger_func = func;
  self->trigger_data = data;
}

void
wn_scheduler_request_stop (WnScheduler *self)
{
  self->stop_requested = TRUE;
}

WnClockMode
wn_scheduler_get_mode (const WnScheduler *self)
{
  return self->mode;
}

static void
set_mode (WnScheduler *self,
          WnClockMode  mode)
{
  if (self->mode == mode)
    return;
  self->mode = mode;
  self->base_real = -1;
  if (self->source != NULL)
    g_main_context_wakeup (g_source_get_context (self->source));
  notify (self);
}

void
wn_scheduler_pause (WnScheduler *self)
{
  set_mode (self, WN_CLOCK_PAUSED);
}

void
wn_scheduler_resume (WnScheduler *self)
{
  set_mode (self, WN_CLOCK_RUNNING);
}

void
wn_scheduler_fast_forward (WnScheduler *self)
{
  set_mode (self, WN_CLOCK_FAST_FORWARD);
}

double
wn_scheduler_get_speed (const WnScheduler *self)
{
  return self->speed;
}

void
wn_scheduler_set_speed (WnScheduler *self,
                        double       factor)
{
  g_return_if_fail (factor > 0.0);

  self->speed = factor;
  self->base_real = -1;
  notify (self);
}

void
wn_scheduler_set_batch (WnScheduler *self,
                        guint        actions)
{
  self->batch = MAX (1, actions);
}

void
wn_scheduler_set_notify (WnScheduler       *self,
                         WnSchedulerNotify  func,
                         gpointer           data)
{
  self->notify = func;
  self->notify_data = data;
}

guint
wn_scheduler_attach (WnScheduler  *self,
                     GMainContext *context)
{
  SchedulerSource *source;
  guint id;

  g_return_val_if_fail (self->source == NULL, 0);

  source = (SchedulerSource *) g_source_new (&scheduler_source_funcs, sizeof (SchedulerSource));
  source->scheduler = self;
  g_source_set_static_name ((GSource *) source, "WnScheduler");
  /* below redrawing and input: fast-forward is always ready and must not starve them */
  g_source_set_priority ((GSource *) source, G_PRIORITY_DEFAULT_IDLE);
  self->source = (GSource *) source;
  id = g_source_attach (self->source, context);
  return id;
}

void
wn_scheduler_detach (WnScheduler *self)
{
  if (self->source == NULL)
    return;
  g_source_destroy (self->source);
  g_source_unref (self->source);
  self->source = NULL;
}

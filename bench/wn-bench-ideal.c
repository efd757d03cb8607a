/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-bench-ideal.c — an ideal engine for the bench's limit row
 * (docs/performance.md, "The limit").
 *
 * Per execution it does only the work no engine of Winnow's kind can skip,
 * with the structures Winnow uses wherever there is a choice:
 *
 * - one record that lives as long as the run (the instance: from the engine's
 *   own pool, wn-pool.c, with the instance's size),
 * - two allocations freed when the execution ends (the job and its delivery:
 *   g_malloc, as the dispatcher allocates them),
 * - one hash-table insert and one delete (the dispatcher's job table: a
 *   GHashTable; here keyed by number, not by id string),
 * - one FIFO push and pop (the topic's queue of fresh jobs: an intrusive list),
 * - one timer-heap push and pop (the delivery at the virtual time: a binary
 *   heap of (time, sequence) as the scheduler keeps).
 *
 * Nothing else: no process, no policy, no worker model, no variables, no ids,
 * no journal check. Winnow's (a) row divided by this rate, measured in the
 * same run, is how far the engine is from its limit.
 */
#include "config.h"

#include <string.h>

#include "wn-bench-ideal.h"
#include "wn-pool.h"

typedef struct _Job Job;

struct _Job {
  Job     *next;        /* the FIFO */
  guint64  number;
  char     rest[WN_IDEAL_JOB_SIZE - sizeof (Job *) - sizeof (guint64)];
};

typedef struct {
  guint64 number;
  Job    *job;
  char    rest[WN_IDEAL_DELIVERY_SIZE - 2 * sizeof (guint64)];
} Delivery;

typedef struct {
  guint64  number;
  guint    state;
  char     rest[WN_IDEAL_RECORD_SIZE - sizeof (guint64) - sizeof (guint)];
} Record;

typedef struct {
  gint64    when;
  guint64   seq;
  Delivery *delivery;
} Timer;

typedef struct {
  Timer *timers;
  guint  len;
  guint  size;
} Heap;

static inline gboolean
timer_less (const Timer *a,
            const Timer *b)
{
  return a->when < b->when || (a->when == b->when && a->seq < b->seq);
}

static void
heap_push (Heap  *heap,
           Timer  timer)
{
  guint i;

  if (heap->len == heap->size)
    {
      heap->size = MAX (16, 2 * heap->size);
      heap->timers = g_renew (Timer, heap->timers, heap->size);
    }
  i = heap->len++;
  while (i > 0 && timer_less (&timer, &heap->timers[(i - 1) / 2]))
    {
      heap->timers[i] = heap->timers[(i - 1) / 2];
      i = (i - 1) / 2;
    }
  heap->timers[i] = timer;
}

static Timer
heap_pop (Heap *heap)
{
  Timer top = heap->timers[0];
  Timer last = heap->timers[--heap->len];
  guint i = 0;

  for (;;)
    {
      guint child = 2 * i + 1;

      if (child >= heap->len)
        break;
      if (child + 1 < heap->len && timer_less (&heap->timers[child + 1], &heap->timers[child]))
        child++;
      if (!timer_less (&heap->timers[child], &last))
        break;
      heap->timers[i] = heap->timers[child];
      i = child;
    }
  if (heap->len > 0)
    heap->timers[i] = last;
  return top;
}

guint64
wn_bench_ideal_run (guint executions)
{
  WnPool *pool = wn_pool_new (sizeof (Record));
  Record **records = g_new (Record *, executions);
  GHashTable *jobs = g_hash_table_new (g_direct_hash, g_direct_equal);
  Heap heap = { NULL, 0, 0 };
  Job *fifo_head = NULL;
  Job *fifo_tail = NULL;
  guint64 seq = 0;
  guint64 checksum = 0;
  gint64 now = 0;

  for (guint i = 0; i < executions; i++)
    {
      Record *record = wn_pool_alloc0 (pool);
      Job *job = g_malloc (sizeof (Job));
      Delivery *delivery = g_malloc (sizeof (Delivery));
      Timer timer;
      Job *fetched;

      /* the instance starts, its task enqueues a job */
      record->number = i + 1;
      record->state = 1;
      records[i] = record;
      job->number = i + 1;
      job->next = NULL;
      g_hash_table_insert (jobs, GSIZE_TO_POINTER (job->number), job);
      if (fifo_tail != NULL)
        fifo_tail->next = job;
      else
        fifo_head = job;
      fifo_tail = job;

      /* a worker fetches it and completes it: the outcome is delivered on the clock */
      fetched = fifo_head;
      fifo_head = fetched->next;
      if (fifo_head == NULL)
        fifo_tail = NULL;
      delivery->number = fetched->number;
      delivery->job = fetched;
      timer.when = now;
      timer.seq = ++seq;
      timer.delivery = delivery;
      heap_push (&heap, timer);

      /* the scheduler runs the delivery: the job leaves, the instance ends */
      timer = heap_pop (&heap);
      delivery = timer.delivery;
      if (!g_hash_table_remove (jobs, GSIZE_TO_POINTER (delivery->number)))
        g_error ("ideal engine: job %" G_GUINT64_FORMAT " not in the table", delivery->number);
      checksum += delivery->number;
      records[delivery->number - 1]->state = 2;
      g_free (delivery->job);
      g_free (delivery);
    }
  g_hash_table_unref (jobs);
  g_free (heap.timers);
  for (guint i = 0; i < executions; i++)
    wn_pool_release (pool, records[i]);
  g_free (records);
  wn_pool_free (pool);
  return checksum;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-dispatcher.c — the job store: locks, gates, classification and retry.
 * One file past 1,500 lines because it is one concept (SRD-038's store): the
 * per-topic heaps, the fetch, every report's validation and the retry re-arm
 * share the job and topic structs and their invariants, which no other file
 * may touch. */

#include <string.h>

#include "wn-dispatcher.h"
#include "wn-dispatcher-private.h"
#include "wn-heap.h"
#include "wn-journal-private.h"

typedef struct _JobKey   JobKey;
typedef struct _Job      Job;
typedef struct _Topic    Topic;
typedef struct _Waiter   Waiter;
typedef struct _WaitLink WaitLink;
typedef struct _Delivery Delivery;

typedef enum {
  WHERE_NONE,
  WHERE_FRESH,       /* available, never locked: the topic's FIFO */
  WHERE_AGAIN,       /* available again (a gate elapsed, a lock lapsed) */
  WHERE_GATED,
  WHERE_LOCKED,
} JobWhere;

/* The job table's key: an id with its hash, which is computed once per job (at
 * enqueue) rather than again for every insertion, lookup and removal. */
struct _JobKey {
  guint       hash;
  const char *id;
};

struct _Job {
  guint       heap_pos;       /* in the heap `where` names (not for WHERE_FRESH) */
  JobWhere    where;
  guint       lapsed : 1;     /* available again after its lock expired; `worker` is the previous holder */
  guint       holder_gone : 1; /* the holder of the (last) lock died with it (WnJobInfo) */
  guint       plain_known : 1; /* the three lengths below are set (at enqueue, or at the job's
                                * first event) */
  guint8      id_plain;       /* the journal's plain lengths (WnEvent.plain_len) of key.id, */
  guint8      instance_plain; /* instance and node; 0: not plain */
  guint8      node_plain;
  guint       instant_base;   /* `executions` when virtual time last moved on for it */
  guint64     seq;            /* enqueue order */
  Topic      *topic;
  JobKey      key;            /* key.id and the strings below live in the same block as the job */
  const char *instance;
  const char *node;
  const char *output_var;     /* resolved: spec's, else the node id */
  JsonNode   *input;
  WnPolicy   *policy;
  gpointer    owner;
  guint       attempt;
  guint       executions;
  guint       lost;           /* executions cut off by a lapsed lock (see WnJobInfo) */
  guint       lock_executions; /* `executions` when the current (or last) lock was taken */
  WnTime      instant_at;     /* the instant instant_base was taken at */
  WnTime      enqueued_at;
  WnTime      not_before;
  WnTime      first_lock;
  WnTime      deadline;
  const char *worker;         /* interned in the dispatcher; NULL when unlocked */
  Job        *prev;           /* all jobs, in enqueue order */
  Job        *next;
  Job        *fresh_prev;     /* WHERE_FRESH: the topic's FIFO */
  Job        *fresh_next;
};

struct _WaitLink {
  WaitLink *prev;
  WaitLink *next;
  Waiter   *waiter;
  Topic    *topic;
};

struct _Waiter {
  guint         id;
  WnDispatcher *dispatcher;
  WnWakeFunc    wake;
  gpointer      data;
  WnTimerId     posted;       /* the pending wake, 0 while still waiting */
  gboolean      direct;       /* a watcher (wn_dispatcher_watch): woken at once, no timer */
  guint         n_links;
  WaitLink      links[];
};

/* The available jobs are the FIFO of fresh ones plus the heap of those available
 * again; fetch takes the lower seq of the two heads, so the topic hands jobs out
 * in enqueue order while the common case (a job's first fetch) costs O(1). */
struct _Topic {
  char         *name;
  guint8        name_plain;   /* its plain length for the journal (WnEvent.plain_len) */
  WnDispatcher *dispatcher;
  Job          *fresh_head;   /* WHERE_FRESH, by seq (enqueue appends) */
  Job          *fresh_tail;
  WnHeap        again;        /* WHERE_AGAIN, by seq */
  WnHeap        gated;        /* by (not_before, seq) */
  WnHeap        locked;       /* by (deadline, seq) */
  WaitLink     *wait_head;
  WaitLink     *wait_tail;
  guint         n_waiters;
  WnTimerId     timer;        /* one wake-up for all the topic's waiters */
  WnTime        timer_at;
};

/* An outcome on its way to the owner. The outcome comes first so that the owner's
 * wn_outcome_free() releases the whole block; the job id follows the struct in
 * the same block. */
struct _Delivery {
  WnOutcome     outcome;
  JsonNode     *direct;       /* a direct completion's body (_wn_dispatcher_complete_direct) */
  WnDispatcher *dispatcher;
  gpointer      owner;
  WnTimerId     id;
  Delivery     *prev;
  Delivery     *next;
};

struct _WnDispatcher {
  WnScheduler   *scheduler;
  WnJournal     *journal;
  WnRng         *rng;
  WnRng          own_rng;
  WnOutcomeFunc  deliver;
  gpointer       deliver_data;
  WnTime         max_lock;

  GHashTable    *jobs;        /* id → Job */
  GHashTable    *topics;      /* name → Topic */
  Topic         *last_topic;  /* the topic last looked up: most runs have one or two */
  GHashTable    *workers;     /* interned worker names */
  const char    *last_worker;   /* interned names: see intern_worker() */
  GHashTable    *waiters;     /* id → Waiter */
  guint          next_wait_id;
  guint64        next_seq;
  guint64        n_comparisons;
  Job           *first;
  Job           *last;
  Delivery      *deliveries;  /* pending */
  WnPolicy      *default_policy;
  WnDispatcherCounters counters;
  Job           *pinned;      /* being classified: removal defers its free */
  Job           *recent;      /* the job last fetched or found: a worker reports on
                               * the job it just fetched, several times in a row */
  gboolean       pinned_removed;
};

G_DEFINE_QUARK (wn-dispatcher-error-quark, wn_dispatcher_error)

/* The job table */

static guint
job_key_hash (gconstpointer key)
{
  return ((const JobKey *) key)->hash;
}

static gboolean
job_key_equal (gconstpointer a,
               gconstpointer b)
{
  return strcmp (((const JobKey *) a)->id, ((const JobKey *) b)->id) == 0;
}

static inline JobKey
job_key (const char *id)
{
  JobKey key = { g_str_hash (id), id };

  return key;
}

/* Heap orders */

static gboolean
again_less (gconstpointer a,
            gconstpointer b)
{
  return ((const Job *) a)->seq < ((const Job *) b)->seq;
}

static gboolean
gated_less (gconstpointer a,
            gconstpointer b)
{
  const Job *x = a;
  const Job *y = b;

  if (x->not_before != y->not_before)
    return x->not_before < y->not_before;
  return x->seq < y->seq;
}

static gboolean
locked_less (gconstpointer a,
             gconstpointer b)
{
  const Job *x = a;
  const Job *y = b;

  if (x->deadline != y->deadline)
    return x->deadline < y->deadline;
  return x->seq < y->seq;
}

/* Journal */

static inline WnTime
now_of (WnDispatcher *self)
{
  return wn_scheduler_now (self->scheduler);
}

/* TRUE when an event should be built and emitted; otherwise the sequence
 * number is advanced as if it had been. */
static inline gboolean
journal_on (WnDispatcher *self)
{
  if (self->journal == NULL)
    return FALSE;
  if (wn_journal_is_active (self->journal))
    return TRUE;
  wn_journal_skip (self->journal);
  return FALSE;
}

/* A worker name the dispatcher interned: its plain length (WnEvent.plain_len)
 * is the byte before it. */
static inline guint8
interned_plain (const char *name)
{
  return name != NULL ? ((const guint8 *) name)[-1] : 0;
}

static void
event_set_worker (WnEvent    *event,
                  const char *interned)
{
  event->worker = interned;
  event->plain_len[WN_PLAIN_WORKER] = interned_plain (interned);
}

/* Measured once, when the journal first names the job (a run without one
 * never does). */
static G_NO_INLINE void
job_measure_plain (Job *job)
{
  job->id_plain = _wn_plain_length (job->key.id);
  job->instance_plain = _wn_plain_length (job->instance);
  job->node_plain = _wn_plain_length (job->node);
  job->plain_known = TRUE;
}

/* A job event, filled in place one field at a time (_wn_event_init()): built
 * aside and copied in, the event was read back in wide moves right after its
 * narrow stores, which stalls (store-to-load forwarding fails); assigned whole
 * or declared with WN_EVENT_INIT, it was cleared with `rep stos`, whose
 * start-up cost as much. Either was a tenth of a journalled run. */
static inline void
job_event_init (WnEvent      *event,
                WnEventPhase  phase,
                Job          *job)
{
  _wn_event_init (event, WN_EV_JOB, phase);
  if (job != NULL)
    {
      if (G_UNLIKELY (!job->plain_known))
        job_measure_plain (job);
      event->instance = job->instance;
      event->node = job->node;
      event->job = job->key.id;
      event->topic = job->topic->name;
      event->trust = job->policy->trust;
      event->plain_len[WN_PLAIN_INSTANCE] = job->instance_plain;
      event->plain_len[WN_PLAIN_NODE] = job->node_plain;
      event->plain_len[WN_PLAIN_JOB] = job->id_plain;
      event->plain_len[WN_PLAIN_TOPIC] = job->topic->name_plain;
    }
}

static inline void
emit (WnDispatcher *self,
      WnEvent      *event)
{
  _wn_journal_emit (self->journal, now_of (self), event);
}

/* Topics and their waiters */

static void
topic_cancel_timer (WnDispatcher *self,
                    Topic        *topic)
{
  if (topic->timer != 0)
    {
      wn_scheduler_cancel (self->scheduler, topic->timer);
      topic->timer = 0;
      topic->timer_at = WN_TIME_NEVER;
    }
}

static void wake_topic_waiters (WnDispatcher *self, Topic *topic);

static void
topic_timer_cb (gpointer data)
{
  Topic *topic = data;

  topic->timer = 0;
  topic->timer_at = WN_TIME_NEVER;
  wake_topic_waiters (topic->dispatcher, topic);
}

/* Keep the topic's one timer at the earliest instant a job of it may become
 * fetchable: the earliest gate, or just past the earliest lock deadline. */
/* When a job of the topic becomes fetchable by time alone: the earliest
 * gate's end, or just past the earliest lock deadline. */
static WnTime
topic_next_change (Topic *topic)
{
  const Job *gated = wn_heap_peek (&topic->gated);
  const Job *locked = wn_heap_peek (&topic->locked);
  WnTime want = WN_TIME_NEVER;

  if (gated != NULL)
    want = gated->not_before;
  if (locked != NULL && locked->deadline < WN_TIME_NEVER && locked->deadline + 1 < want)
    want = locked->deadline + 1;
  return want;
}

static void
topic_update_timer (WnDispatcher *self,
                    Topic        *topic)
{
  WnTime want;

  if (topic->n_waiters == 0)
    {
      topic_cancel_timer (self, topic);
      return;
    }

  want = topic_next_change (topic);

  if (topic->timer != 0 && topic->timer_at == want)
    return;
  topic_cancel_timer (self, topic);
  if (want != WN_TIME_NEVER)
    {
      topic->timer = wn_scheduler_at (self->scheduler, want, topic_timer_cb, topic);
      topic->timer_at = want;
    }
}

/* Called after a topic's gated or locked heap changed. */
static inline void
topic_changed (WnDispatcher *self,
               Topic        *topic)
{
  if (topic->n_waiters > 0)
    topic_update_timer (self, topic);
}

static Topic *
topic_get (WnDispatcher *self,
           const char   *name,
           gboolean      create)
{
  Topic *topic;

  /* enqueue, fetch and wait each name a topic: check the last one before hashing */
  if (self->last_topic != NULL && strcmp (self->last_topic->name, name) == 0)
    return self->last_topic;
  topic = g_hash_table_lookup (self->topics, name);
  if (topic != NULL)
    self->last_topic = topic;
  if (topic != NULL || !create)
    return topic;

  topic = g_new0 (Topic, 1);
  topic->name = g_strdup (name);
  topic->name_plain = _wn_plain_length (name);
  topic->dispatcher = self;
  wn_heap_init (&topic->again, again_less, G_STRUCT_OFFSET (Job, heap_pos), &self->n_comparisons);
  wn_heap_init (&topic->gated, gated_less, G_STRUCT_OFFSET (Job, heap_pos), &self->n_comparisons);
  wn_heap_init (&topic->locked, locked_less, G_STRUCT_OFFSET (Job, heap_pos), &self->n_comparisons);
  topic->timer_at = WN_TIME_NEVER;
  g_hash_table_insert (self->topics, topic->name, topic);
  return topic;
}

static void
topic_free (gpointer data)
{
  Topic *topic = data;

  wn_heap_clear (&topic->again);
  wn_heap_clear (&topic->gated);
  wn_heap_clear (&topic->locked);
  g_free (topic->name);
  g_free (topic);
}

static void
link_unlink (WnDispatcher *self,
             WaitLink     *link)
{
  Topic *topic = link->topic;

  if (link->prev != NULL)
    link->prev->next = link->next;
  else
    topic->wait_head = link->next;
  if (link->next != NULL)
    link->next->prev = link->prev;
  else
    topic->wait_tail = link->prev;
  link->prev = link->next = NULL;

  if (!link->waiter->direct && --topic->n_waiters == 0)
    topic_cancel_timer (self, topic);
}

static void
waiter_unlink (WnDispatcher *self,
               Waiter       *waiter)
{
  for (guint i = 0; i < waiter->n_links; i++)
    link_unlink (self, &waiter->links[i]);
  waiter->n_links = 0;
}

static void
waiter_fire_cb (gpointer data)
{
  Waiter *waiter = data;
  WnWakeFunc wake = waiter->wake;
  gpointer wake_data = waiter->data;

  g_hash_table_remove (waiter->dispatcher->waiters, GUINT_TO_POINTER (waiter->id));
  g_free (waiter);
  wake (wake_data);
}

/* Leave every topic and post the wake; the waiter is gone once it ran. A
 * watcher's wake runs at once, and is not a scheduler action. */
static void
waiter_wake (WnDispatcher *self,
             Waiter       *waiter)
{
  waiter_unlink (self, waiter);
  if (waiter->direct)
    waiter_fire_cb (waiter);
  else
    waiter->posted = wn_scheduler_post (self->scheduler, waiter_fire_cb, waiter);
}

static void
wake_topic_waiters (WnDispatcher *self,
                    Topic        *topic)
{
  while (topic->wait_head != NULL)
    waiter_wake (self, topic->wait_head->waiter);
}

/* Promote what became fetchable by now: elapsed gates, then lapsed locks. */
static void
topic_promote (WnDispatcher *self,
               Topic        *topic,
               WnTime        now)
{
  gboolean moved = FALSE;
  Job *job;

  while ((job = wn_heap_peek (&topic->gated)) != NULL && job->not_before <= now)
    {
      wn_heap_pop (&topic->gated);
      job->where = WHERE_AGAIN;
      wn_heap_push (&topic->again, job);
      moved = TRUE;
    }
  while ((job = wn_heap_peek (&topic->locked)) != NULL && job->deadline < now)
    {
      wn_heap_pop (&topic->locked);
      job->lapsed = TRUE;
      job->where = WHERE_AGAIN;
      wn_heap_push (&topic->again, job);
      moved = TRUE;
    }
  if (moved)
    topic_changed (self, topic);
}

/* Jobs */

static WnHeap *
job_heap (Job *job)
{
  switch (job->where)
    {
    case WHERE_AGAIN:
      return &job->topic->again;
    case WHERE_GATED:
      return &job->topic->gated;
    case WHERE_LOCKED:
      return &job->topic->locked;
    case WHERE_FRESH:
    case WHERE_NONE:
    default:
      return NULL;
    }
}

static void
fresh_append (Topic *topic,
              Job   *job)
{
  job->fresh_prev = topic->fresh_tail;
  job->fresh_next = NULL;
  if (topic->fresh_tail != NULL)
    topic->fresh_tail->fresh_next = job;
  else
    topic->fresh_head = job;
  topic->fresh_tail = job;
}

static void
fresh_unlink (Topic *topic,
              Job   *job)
{
  if (job->fresh_prev != NULL)
    job->fresh_prev->fresh_next = job->fresh_next;
  else
    topic->fresh_head = job->fresh_next;
  if (job->fresh_next != NULL)
    job->fresh_next->fresh_prev = job->fresh_prev;
  else
    topic->fresh_tail = job->fresh_prev;
  job->fresh_prev = job->fresh_next = NULL;
}

static void
job_place (WnDispatcher *self,
           Job          *job,
           JobWhere      where)
{
  WnHeap *heap = job_heap (job);

  if (job->where == WHERE_FRESH)
    fresh_unlink (job->topic, job);
  else if (heap != NULL)
    wn_heap_remove (heap, job);
  job->where = where;
  heap = job_heap (job);
  if (where == WHERE_FRESH)
    fresh_append (job->topic, job);
  else if (heap != NULL)
    wn_heap_push (heap, job);
  topic_changed (self, job->topic);
}

static gboolean
topic_has_available (const Topic *topic)
{
  return topic->fresh_head != NULL || wn_heap_size (&topic->again) > 0;
}

/* Take out the available job that comes first in enqueue order, or NULL. */
static Job *
topic_pop_available (Topic *topic)
{
  Job *fresh = topic->fresh_head;
  Job *again = wn_heap_peek (&topic->again);
  Job *job;

  if (again != NULL && (fresh == NULL || again->seq < fresh->seq))
    job = wn_heap_pop (&topic->again);
  else if (fresh != NULL)
    {
      job = fresh;
      fresh_unlink (topic, job);
    }
  else
    return NULL;
  job->where = WHERE_NONE;
  return job;
}

static void
job_free (Job *job)
{
  json_node_unref (job->input);
  wn_policy_unref (job->policy);
  g_free (job);
}

static Job *
job_find (WnDispatcher *self,
          const char   *id)
{
  JobKey key;
  Job *job;

  if (id == NULL)
    return NULL;
  if (self->recent != NULL && strcmp (self->recent->key.id, id) == 0)
    return self->recent;
  key = job_key (id);
  job = g_hash_table_lookup (self->jobs, &key);
  if (job != NULL)
    self->recent = job;
  return job;
}

/* Take a job out of the store for good. */
static void
job_remove (WnDispatcher *self,
            Job          *job)
{
  if (job == self->recent)
    self->recent = NULL;
  job_place (self, job, WHERE_NONE);
  g_hash_table_remove (self->jobs, &job->key);
  if (job->prev != NULL)
    job->prev->next = job->next;
  else
    self->first = job->next;
  if (job->next != NULL)
    job->next->prev = job->prev;
  else
    self->last = job->prev;
  job->prev = job->next = NULL;
  if (job == self->pinned)
    self->pinned_removed = TRUE;
  else
    job_free (job);
}

static WnJobState
job_state (const Job *job,
           WnTime     now)
{
  switch (job->where)
    {
    case WHERE_GATED:
      return now < job->not_before ? WN_JOB_GATED : WN_JOB_AVAILABLE;
    case WHERE_LOCKED:
      return now <= job->deadline ? WN_JOB_LOCKED : WN_JOB_EXPIRED;
    case WHERE_FRESH:
    case WHERE_AGAIN:
    case WHERE_NONE:
    default:
      return job->lapsed ? WN_JOB_EXPIRED : WN_JOB_AVAILABLE;
    }
}

/* When `state` (the job's state now) changes by the clock alone. */
static WnTime
job_next_change (const Job  *job,
                 WnJobState  state)
{
  switch (state)
    {
    case WN_JOB_GATED:
      return job->not_before;
    case WN_JOB_LOCKED:
      return job->deadline < WN_TIME_NEVER ? job->deadline + 1 : WN_TIME_NEVER;
    case WN_JOB_AVAILABLE:
    case WN_JOB_EXPIRED:
    default:
      return WN_TIME_NEVER;
    }
}

static void
job_fill_info (const Job *job,
               WnTime     now,
               WnJobInfo *info)
{
  info->id = job->key.id;
  info->topic = job->topic->name;
  info->instance = job->instance;
  info->node = job->node;
  info->output_var = job->output_var;
  info->input = job->input;
  info->policy = job->policy;
  info->state = job_state (job, now);
  info->next_change = job_next_change (job, info->state);
  info->attempt = job->attempt;
  info->executions = job->executions;
  info->lost = job->lost;
  info->enqueued_at = job->enqueued_at;
  info->not_before = job->not_before;
  info->worker = job->worker;
  info->first_lock = job->worker != NULL ? job->first_lock : -1;
  info->deadline = job->worker != NULL ? job->deadline : -1;
  info->owner = job->owner;
  info->holder_gone = job->worker != NULL && job->holder_gone;
}

/* Worker names are kept once each, after a byte that holds their plain length
 * for the journal (interned_plain()). */
static const char *
intern_worker (WnDispatcher *self,
               const char   *worker)
{
  char *name;

  if (self->last_worker != NULL && strcmp (self->last_worker, worker) == 0)
    return self->last_worker;
  name = g_hash_table_lookup (self->workers, worker);
  if (name == NULL)
    {
      gsize len = strlen (worker);
      char *block = g_malloc (len + 2);

      block[0] = (char) _wn_plain_length (worker);
      name = memcpy (block + 1, worker, len + 1);
      g_hash_table_add (self->workers, name);
    }
  self->last_worker = name;
  return name;
}

static void
interned_free (gpointer name)
{
  g_free ((char *) name - 1);
}

static WnPolicy *
default_policy (WnDispatcher *self)
{
  if (self->default_policy == NULL)
    {
      WnPolicyLevel none = { 0 };

      self->default_policy = wn_policy_resolve (&none, &none);
    }
  return self->default_policy;
}

/* Report validation */

static void
reject (WnDispatcher     *self,
        Job              *job,
        const char       *id,
        const char       *worker,
        WnDispatcherError code,
        const char       *message,
        GError          **error)
{
  self->counters.rejected++;
  if (journal_on (self))
    {
      WnEvent event;

      job_event_init (&event, WN_PH_REPORT_REJECTED, job);
      if (job == NULL)
        event.job = id;
      event.worker = worker;
      event.error = message;
      emit (self, &event);
    }
  g_set_error_literal (error, WN_DISPATCHER_ERROR, code, message);
}

/* The job `id`, when `worker` holds its unexpired lock: exists → holder → expiry. */
static Job *
held_job (WnDispatcher *self,
          const char   *id,
          const char   *worker,
          GError      **error)
{
  Job *job = job_find (self, id);

  if (job == NULL)
    {
      reject (self, NULL, id, worker, WN_DISPATCHER_ERROR_NOT_FOUND, "job not found", error);
      return NULL;
    }
  if (job->worker == NULL)
    {
      reject (self, job, id, worker, WN_DISPATCHER_ERROR_NOT_HOLDER, "job is not locked", error);
      return NULL;
    }
  if (worker == NULL || strcmp (job->worker, worker) != 0)
    {
      reject (self, job, id, worker, WN_DISPATCHER_ERROR_NOT_HOLDER, "lock held by another worker", error);
      return NULL;
    }
  if (now_of (self) > job->deadline)
    {
      reject (self, job, id, worker, WN_DISPATCHER_ERROR_LOCK_EXPIRED, "lock expired", error);
      return NULL;
    }
  return job;
}

/* Like held_job() for a verdict, which only a WorkerTrusted job accepts. */
static Job *
held_trusted_job (WnDispatcher *self,
                  const char   *id,
                  const char   *worker,
                  const char   *refusal,
                  GError      **error)
{
  Job *job = held_job (self, id, worker, error);

  if (job != NULL && job->policy->trust != WN_TRUST_WORKER_TRUSTED)
    {
      reject (self, job, id, worker, WN_DISPATCHER_ERROR_NOT_TRUSTED, refusal, error);
      return NULL;
    }
  return job;
}

/* Delivery */

static void
delivery_cb (gpointer data)
{
  Delivery *delivery = data;
  WnDispatcher *self = delivery->dispatcher;

  if (delivery->prev != NULL)
    delivery->prev->next = delivery->next;
  else
    self->deliveries = delivery->next;
  if (delivery->next != NULL)
    delivery->next->prev = delivery->prev;

  if (self->deliver != NULL)
    self->deliver (delivery->owner, &delivery->outcome, self->deliver_data);
  else
    wn_outcome_free (&delivery->outcome);
}

static WnOutcome *
outcome_new (const Job    *job,
             WnOutcomeKind kind)
{
  gsize id_size = strlen (job->key.id) + 1;
  /* g_malloc and memset rather than g_malloc0: glibc's calloc skips its
   * per-thread cache, which makes it several times slower for a block that is
   * freed again moments later, as every delivery and job is */
  Delivery *delivery = memset (g_malloc (sizeof (Delivery) + id_size), 0, sizeof (Delivery));

  delivery->owner = job->owner;
  delivery->outcome.kind = kind;
  delivery->outcome.job = memcpy (delivery + 1, job->key.id, id_size);
  delivery->outcome.attempts = job->executions;
  return &delivery->outcome;
}

/* Remove the job and hand the outcome to its owner through the scheduler. */
static void
finish (WnDispatcher *self,
        Job          *job,
        WnOutcome    *outcome)
{
  Delivery *delivery = (Delivery *) outcome;

  job_remove (self, job);
  delivery->dispatcher = self;
  delivery->next = self->deliveries;
  if (self->deliveries != NULL)
    self->deliveries->prev = delivery;
  self->deliveries = delivery;
  delivery->id = wn_scheduler_post (self->scheduler, delivery_cb, delivery);
}

/* Fault texts */

/* The fault's human text: its message, else a "message" or "error" string in the body. */
static const char *
fault_text (const char *message,
            JsonNode   *body)
{
  static const char *const keys[] = { "message", "error" };
  JsonObject *object;

  if (message != NULL && *message != '\0')
    return message;
  if (body == NULL || !JSON_NODE_HOLDS_OBJECT (body))
    return NULL;
  object = json_node_get_object (body);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      JsonNode *member = json_object_get_member (object, keys[i]);

      if (member != NULL && JSON_NODE_HOLDS_VALUE (member) &&
          json_node_get_value_type (member) == G_TYPE_STRING)
        return json_node_get_string (member);
    }
  return NULL;
}

/* "code: text", or whichever of them exists. */
static char *
fault_describe (const char *code,
                const char *message,
                JsonNode   *body)
{
  const char *text = fault_text (message, body);
  gboolean has_code = code != NULL && *code != '\0';

  if (has_code && text != NULL)
    return g_strdup_printf ("%s: %s", code, text);
  if (text != NULL)
    return g_strdup (text);
  if (has_code)
    return g_strdup (code);
  return g_strdup ("unspecified error");
}

static void
journal_fault (WnDispatcher *self,
               Job          *job,
               const char   *worker,
               const char   *code,
               const char   *message)
{
  if (journal_on (self))
    {
      WnEvent event;

      job_event_init (&event, WN_PH_FAULT, job);
      event.worker = worker;
      event.attempts = job->executions;
      event.code = code;
      event.error = message;
      emit (self, &event);
    }
}

/* Verdicts: each journals its event and hands the job's outcome to finish(). */

static void
finish_complete (WnDispatcher *self,
                 Job          *job,
                 GArray       *bindings,
                 JsonNode     *direct)
{
  WnOutcome *outcome;

  if (journal_on (self))
    {
      WnEvent event;

      job_event_init (&event, WN_PH_COMPLETED, job);
      event_set_worker (&event, job->worker);
      event.attempt = job->executions;
      emit (self, &event);
    }

  outcome = outcome_new (job, WN_OUTCOME_COMPLETE);
  outcome->bindings = bindings;
  if (direct != NULL)
    ((Delivery *) outcome)->direct = json_node_ref (direct);
  finish (self, job, outcome);
}

static void
finish_bpmn_error (WnDispatcher *self,
                   Job          *job,
                   const char   *code,
                   const char   *message)
{
  WnOutcome *outcome = outcome_new (job, WN_OUTCOME_BPMN_ERROR);

  outcome->code = g_strdup (code);
  outcome->message = g_strdup (message);
  if (journal_on (self))
    {
      WnEvent event;

      job_event_init (&event, WN_PH_BPMN_ERROR, job);
      event_set_worker (&event, job->worker);
      event.code = outcome->code;
      event.error = outcome->message;
      emit (self, &event);
    }
  finish (self, job, outcome);
}

/* A NULL status is JSON null. */
static void
finish_status (WnDispatcher *self,
               Job          *job,
               JsonNode     *status)
{
  WnOutcome *outcome = outcome_new (job, WN_OUTCOME_STATUS);

  outcome->status = status != NULL ? json_node_ref (status) : json_node_new (JSON_NODE_NULL);
  if (journal_on (self))
    {
      WnEvent event;

      job_event_init (&event, WN_PH_STATUS, job);
      event_set_worker (&event, job->worker);
      event.status = outcome->status;
      emit (self, &event);
    }
  finish (self, job, outcome);
}

/* A terminal fault with `message` (taken). */
static void
finish_fault (WnDispatcher *self,
              Job          *job,
              gboolean      exhausted,
              const char   *code,
              char         *message)
{
  WnOutcome *outcome = outcome_new (job, WN_OUTCOME_FAULT);

  outcome->exhausted = exhausted;
  outcome->code = g_strdup (code);
  outcome->message = message;
  journal_fault (self, job, job->worker, code, outcome->message);
  finish (self, job, outcome);
}

/* Public API */

const char *
wn_job_state_to_string (WnJobState state)
{
  switch (state)
    {
    case WN_JOB_AVAILABLE:
      return "available";
    case WN_JOB_GATED:
      return "gated";
    case WN_JOB_LOCKED:
      return "locked";
    case WN_JOB_EXPIRED:
      return "expired";
    default:
      return "unknown";
    }
}

void
wn_outcome_free (WnOutcome *outcome)
{
  if (outcome == NULL)
    return;
  /* every outcome is the head of a Delivery (outcome_new()); the job id lives
   * in its block */
  g_clear_pointer (&((Delivery *) outcome)->direct, json_node_unref);
  g_clear_pointer (&outcome->bindings, g_array_unref);
  g_free (outcome->code);
  g_free (outcome->message);
  g_clear_pointer (&outcome->status, json_node_unref);
  g_free (outcome);
}

WnDispatcher *
wn_dispatcher_new (WnScheduler  *scheduler,
                   WnJournal    *journal,
                   WnRng        *rng,
                   WnOutcomeFunc deliver,
                   gpointer      deliver_data)
{
  WnDispatcher *self;

  g_return_val_if_fail (scheduler != NULL, NULL);

  self = g_new0 (WnDispatcher, 1);
  self->scheduler = scheduler;
  self->journal = journal;
  wn_rng_init (&self->own_rng, 1);
  self->rng = rng != NULL ? rng : &self->own_rng;
  self->deliver = deliver;
  self->deliver_data = deliver_data;
  self->max_lock = 5 * 60 * WN_USEC_PER_SEC;
  self->jobs = g_hash_table_new (job_key_hash, job_key_equal);
  self->topics = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, topic_free);
  self->workers = g_hash_table_new_full (g_str_hash, g_str_equal, interned_free, NULL);
  self->waiters = g_hash_table_new (g_direct_hash, g_direct_equal);
  self->next_wait_id = 1;
  return self;
}

void
wn_dispatcher_free (WnDispatcher *self)
{
  GHashTableIter iter;
  gpointer value;

  if (self == NULL)
    return;

  while (self->deliveries != NULL)
    {
      Delivery *delivery = self->deliveries;

      self->deliveries = delivery->next;
      wn_scheduler_cancel (self->scheduler, delivery->id);
      wn_outcome_free (&delivery->outcome);
    }

  g_hash_table_iter_init (&iter, self->waiters);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      Waiter *waiter = value;

      if (waiter->posted != 0)
        wn_scheduler_cancel (self->scheduler, waiter->posted);
      else
        waiter_unlink (self, waiter);
      g_hash_table_iter_remove (&iter);
      g_free (waiter);
    }

  g_hash_table_iter_init (&iter, self->topics);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    topic_cancel_timer (self, value);

  while (self->first != NULL)
    {
      Job *job = self->first;

      self->first = job->next;
      job_free (job);
    }
  self->last = NULL;

  g_hash_table_unref (self->jobs);
  g_hash_table_unref (self->topics);
  g_hash_table_unref (self->workers);
  g_hash_table_unref (self->waiters);
  g_clear_pointer (&self->default_policy, wn_policy_unref);
  g_free (self);
}

void
wn_dispatcher_set_max_lock (WnDispatcher *self,
                            WnTime        max_lock)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (max_lock > 0);

  self->max_lock = max_lock;
}

WnTime
wn_dispatcher_get_max_lock (const WnDispatcher *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->max_lock;
}

gboolean
wn_dispatcher_enqueue (WnDispatcher    *self,
                       const WnJobSpec *spec,
                       GError         **error)
{
  return _wn_dispatcher_enqueue_plain (self, spec, NULL, error);
}

gboolean
_wn_dispatcher_enqueue_plain (WnDispatcher    *self,
                              const WnJobSpec *spec,
                              const guint8     plain[3],
                              GError         **error)
{
  const char *output_var;
  gsize id_len, instance_len, node_len, var_len;
  JobKey key;
  Job *job;
  char *p;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (spec != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (spec->id == NULL || *spec->id == '\0')
    {
      g_set_error_literal (error, WN_DISPATCHER_ERROR, WN_DISPATCHER_ERROR_EMPTY_ID, "job id is empty");
      return FALSE;
    }
  if (spec->topic == NULL || *spec->topic == '\0')
    {
      g_set_error_literal (error, WN_DISPATCHER_ERROR, WN_DISPATCHER_ERROR_EMPTY_TOPIC, "job topic is empty");
      return FALSE;
    }
  key = job_key (spec->id);
  if (g_hash_table_contains (self->jobs, &key))
    {
      g_set_error (error, WN_DISPATCHER_ERROR, WN_DISPATCHER_ERROR_DUPLICATE,
                   "duplicate job id: %s", spec->id);
      return FALSE;
    }

  /* One block for the job and its strings. */
  output_var = spec->output_var != NULL ? spec->output_var : spec->node;
  id_len = strlen (spec->id) + 1;
  instance_len = spec->instance != NULL ? strlen (spec->instance) + 1 : 0;
  node_len = spec->node != NULL ? strlen (spec->node) + 1 : 0;
  var_len = output_var != NULL ? strlen (output_var) + 1 : 0;
  /* not g_malloc0: see outcome_new() */
  job = memset (g_malloc (sizeof (Job) + id_len + instance_len + node_len + var_len), 0, sizeof (Job));
  p = (char *) (job + 1);
  job->key.hash = key.hash;
  job->key.id = memcpy (p, spec->id, id_len);
  p += id_len;
  if (instance_len > 0)
    {
      job->instance = memcpy (p, spec->instance, instance_len);
      p += instance_len;
    }
  if (node_len > 0)
    {
      job->node = memcpy (p, spec->node, node_len);
      p += node_len;
    }
  if (var_len > 0)
    job->output_var = memcpy (p, output_var, var_len);
  if (plain != NULL)
    {
      job->id_plain = plain[0];
      job->instance_plain = spec->instance != NULL ? plain[1] : 0;
      job->node_plain = spec->node != NULL ? plain[2] : 0;
      job->plain_known = TRUE;
    }

  job->heap_pos = WN_HEAP_NO_POS;
  job->where = WHERE_NONE;
  job->seq = self->next_seq++;
  job->topic = topic_get (self, spec->topic, TRUE);
  if (spec->input != NULL)
    job->input = json_node_ref (spec->input);
  else
    {
      job->input = json_node_new (JSON_NODE_OBJECT);
      json_node_take_object (job->input, json_object_new ());
    }
  job->policy = wn_policy_ref (spec->policy != NULL ? spec->policy : default_policy (self));
  job->owner = spec->owner;
  job->enqueued_at = now_of (self);
  job->first_lock = -1;
  job->deadline = -1;

  g_hash_table_insert (self->jobs, &job->key, job);
  job->prev = self->last;
  if (self->last != NULL)
    self->last->next = job;
  else
    self->first = job;
  self->last = job;
  job_place (self, job, WHERE_FRESH);

  if (journal_on (self))
    {
      WnEvent event;

      job_event_init (&event, WN_PH_ENQUEUED, job);
      emit (self, &event);
    }

  wake_topic_waiters (self, job->topic);
  return TRUE;
}

static void lock_job (WnDispatcher *self, Job *job, const char *worker, WnTime lock_duration, WnTime now,
                      WnJobInfo *locked);

gboolean
wn_dispatcher_fetch (WnDispatcher      *self,
                     const char        *worker,
                     const char *const *topics,
                     guint              n_topics,
                     WnTime             lock_duration,
                     WnJobInfo         *locked)
{
  WnTime now;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (worker != NULL && *worker != '\0', FALSE);
  g_return_val_if_fail (topics != NULL || n_topics == 0, FALSE);

  now = now_of (self);
  if (lock_duration <= 0 || lock_duration > self->max_lock)
    lock_duration = self->max_lock;

  for (guint i = 0; i < n_topics; i++)
    {
      Topic *topic = topics[i] != NULL ? topic_get (self, topics[i], FALSE) : NULL;
      Job *job;

      if (topic == NULL)
        continue;
      topic_promote (self, topic, now);
      job = topic_pop_available (topic);
      if (job == NULL)
        continue;
      lock_job (self, job, worker, lock_duration, now, locked);
      return TRUE;
    }
  return FALSE;
}

gboolean
_wn_dispatcher_lock_job (WnDispatcher *self,
                         const char   *id,
                         const char   *worker,
                         WnTime        lock_duration,
                         WnJobInfo    *locked)
{
  WnTime now = now_of (self);
  Job *job = job_find (self, id);

  if (job == NULL)
    return FALSE;
  if (lock_duration <= 0 || lock_duration > self->max_lock)
    lock_duration = self->max_lock;
  topic_promote (self, job->topic, now);
  if (job->where != WHERE_FRESH && job->where != WHERE_AGAIN)
    return FALSE;
  job_place (self, job, WHERE_NONE);
  lock_job (self, job, worker, lock_duration, now, locked);
  return TRUE;
}

/* Lock `job`, just taken out of its topic's available ones, for `worker`. */
static void
lock_job (WnDispatcher *self,
          Job          *job,
          const char   *worker,
          WnTime        lock_duration,
          WnTime        now,
          WnJobInfo    *locked)
{
  /* a takeover: the execution the lapsed lock was running never reported,
   * so it is no failure the retry policy may count (semantics §2) */
  if (job->lapsed && job->executions > job->lock_executions)
    job->lost++;
  if (job->lapsed)
    self->counters.reclaims++;
  if (job->lapsed && journal_on (self))
    {
      WnEvent event;

      job_event_init (&event, WN_PH_LOCK_RECLAIMED, job);
      event_set_worker (&event, job->worker);
      event.deadline_us = job->deadline;
      emit (self, &event);
    }

  job->lapsed = FALSE;
  job->holder_gone = FALSE;
  job->worker = intern_worker (self, worker);
  job->first_lock = now;
  /* a lock past the end of virtual time lasts to its end */
  wn_time_add (now, lock_duration, &job->deadline);
  job->not_before = 0;
  job->lock_executions = job->executions;
  job_place (self, job, WHERE_LOCKED);
  self->recent = job;

  if (journal_on (self))
    {
      WnEvent event;

      job_event_init (&event, WN_PH_LOCKED, job);
      event_set_worker (&event, job->worker);
      event.attempt = job->executions + 1;
      event.deadline_us = job->deadline;
      emit (self, &event);
    }

  if (locked != NULL)
    job_fill_info (job, now, locked);
}

static guint
waiter_add (WnDispatcher      *self,
            const char *const *topics,
            guint              n_topics,
            WnWakeFunc         wake,
            gpointer           data,
            gboolean           direct)
{
  Waiter *waiter;
  gboolean ready = FALSE;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (topics != NULL || n_topics == 0, 0);
  g_return_val_if_fail (wake != NULL, 0);

  waiter = g_malloc0 (sizeof (Waiter) + n_topics * sizeof (WaitLink));
  waiter->dispatcher = self;
  waiter->wake = wake;
  waiter->data = data;
  waiter->direct = direct;
  do
    waiter->id = self->next_wait_id++;
  while (waiter->id == 0 || g_hash_table_contains (self->waiters, GUINT_TO_POINTER (waiter->id)));
  g_hash_table_insert (self->waiters, GUINT_TO_POINTER (waiter->id), waiter);

  for (guint i = 0; i < n_topics; i++)
    {
      Topic *topic;
      WaitLink *link;
      gboolean seen = FALSE;

      if (topics[i] == NULL)
        continue;
      topic = topic_get (self, topics[i], TRUE);
      for (guint j = 0; j < waiter->n_links && !seen; j++)
        seen = waiter->links[j].topic == topic;
      if (seen)
        continue;

      link = &waiter->links[waiter->n_links++];
      link->waiter = waiter;
      link->topic = topic;
      link->prev = topic->wait_tail;
      if (topic->wait_tail != NULL)
        topic->wait_tail->next = link;
      else
        topic->wait_head = link;
      topic->wait_tail = link;
      if (!direct)
        topic->n_waiters++;
      if (topic_has_available (topic))
        ready = TRUE;
    }

  if (ready)
    {
      guint id = waiter->id;

      waiter_wake (self, waiter);
      return direct ? 0 : id;
    }
  if (!direct)
    for (guint i = 0; i < waiter->n_links; i++)
      topic_update_timer (self, waiter->links[i].topic);

  return waiter->id;
}

guint
wn_dispatcher_wait (WnDispatcher      *self,
                    const char *const *topics,
                    guint              n_topics,
                    WnWakeFunc         wake,
                    gpointer           data)
{
  return waiter_add (self, topics, n_topics, wake, data, FALSE);
}

guint
wn_dispatcher_watch (WnDispatcher      *self,
                     const char *const *topics,
                     guint              n_topics,
                     WnWakeFunc         wake,
                     gpointer           data)
{
  return waiter_add (self, topics, n_topics, wake, data, TRUE);
}

WnTime
wn_dispatcher_next_available (WnDispatcher *self,
                              const char   *name)
{
  Topic *topic;

  g_return_val_if_fail (self != NULL, WN_TIME_NEVER);

  topic = name != NULL ? topic_get (self, name, FALSE) : NULL;
  if (topic == NULL)
    return WN_TIME_NEVER;
  return topic_has_available (topic) ? 0 : topic_next_change (topic);
}

void
wn_dispatcher_cancel_wait (WnDispatcher *self,
                           guint         wait_id)
{
  Waiter *waiter;

  g_return_if_fail (self != NULL);

  waiter = g_hash_table_lookup (self->waiters, GUINT_TO_POINTER (wait_id));
  if (waiter == NULL)
    return;
  if (waiter->posted != 0)
    wn_scheduler_cancel (self->scheduler, waiter->posted);
  else
    waiter_unlink (self, waiter);
  g_hash_table_remove (self->waiters, GUINT_TO_POINTER (wait_id));
  g_free (waiter);
}

/* A job that keeps executing at one instant: end it with a terminal fault, the
 * way a track that loops without virtual time passing fails. */
static void
loop_fault (WnDispatcher *self,
            Job          *job,
            GError      **error)
{
  WnOutcome *outcome = outcome_new (job, WN_OUTCOME_FAULT);

  outcome->message = g_strdup_printf ("job %s (topic %s, node %s) executed %u times "
                                      "without virtual time passing",
                                      job->key.id, job->topic->name,
                                      job->node != NULL ? job->node : "?",
                                      (guint) WN_LOOP_MAX_EXECUTIONS);
  journal_fault (self, job, job->worker, NULL, outcome->message);
  g_set_error_literal (error, WN_DISPATCHER_ERROR, WN_DISPATCHER_ERROR_LOOPS, outcome->message);
  finish (self, job, outcome);
}

guint
wn_dispatcher_begin_execution (WnDispatcher *self,
                               const char   *id,
                               const char   *worker,
                               GError      **error)
{
  Job *job;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (error == NULL || *error == NULL, 0);

  job = held_job (self, id, worker, error);
  if (job == NULL)
    return 0;

  if (job->instant_at != now_of (self))
    {
      job->instant_at = now_of (self);
      job->instant_base = job->executions;
    }
  else if (job->executions - job->instant_base >= WN_LOOP_MAX_EXECUTIONS)
    {
      loop_fault (self, job, error);
      return 0;
    }

  job->executions++;
  self->counters.executions++;
  if (journal_on (self))
    {
      WnEvent event;

      job_event_init (&event, WN_PH_EXECUTING, job);
      event_set_worker (&event, job->worker);
      event.attempt = job->executions;
      emit (self, &event);
    }
  return job->executions;
}

gboolean
wn_dispatcher_extend_lock (WnDispatcher *self,
                           const char   *id,
                           const char   *worker,
                           WnTime        new_duration,
                           GError      **error)
{
  Job *job;
  WnTime now, deadline, limit;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (new_duration >= 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  job = held_job (self, id, worker, error);
  if (job == NULL)
    return FALSE;

  now = now_of (self);
  /* both saturate at the end of virtual time */
  wn_time_add (job->first_lock, self->max_lock, &limit);
  wn_time_add (now, new_duration, &deadline);
  if (deadline > limit)
    {
      reject (self, job, id, worker, WN_DISPATCHER_ERROR_MAX_LOCK,
              "lock cannot be extended past its first lock plus the max lock", error);
      return FALSE;
    }

  job->deadline = deadline;
  wn_heap_update (&job->topic->locked, job);
  topic_changed (self, job->topic);

  if (journal_on (self))
    {
      WnEvent event;

      job_event_init (&event, WN_PH_LOCK_EXTENDED, job);
      event_set_worker (&event, job->worker);
      event.deadline_us = job->deadline;
      emit (self, &event);
    }
  return TRUE;
}

gboolean
wn_dispatcher_complete (WnDispatcher *self,
                        const char   *id,
                        const char   *worker,
                        JsonNode     *output,
                        GError      **error)
{
  g_autoptr(GError) local_error = NULL;
  Job *job;
  GArray *bindings;
  const char *var;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  job = held_job (self, id, worker, error);
  if (job == NULL)
    return FALSE;

  var = job->output_var != NULL ? job->output_var : "output";
  bindings = wn_bindings_new ();
  if (output != NULL)
    {
      if (job->policy->trust == WN_TRUST_ENGINE_AUTHORITATIVE && job->policy->mapping != NULL)
        {
          if (!wn_output_mapping_apply (job->policy->mapping, output, bindings, &local_error))
            {
              g_array_unref (bindings);
              finish_fault (self, job, FALSE, NULL,
                            g_strdup_printf ("output mapping failed: %s", local_error->message));
              return TRUE;
            }
        }
      else
        wn_output_direct (var, output, bindings);
    }

  finish_complete (self, job, bindings, NULL);
  return TRUE;
}

/* A WorkerTrusted job's raw fail: forwarded as terminal, never classified or re-armed. */
static gboolean
fail_trusted (WnDispatcher *self,
              Job          *job,
              const char   *code,
              JsonNode     *body,
              const char   *message)
{
  finish_fault (self, job, TRUE, code, fault_describe (code, message, body));
  return TRUE;
}

gboolean
wn_dispatcher_fail (WnDispatcher *self,
                    const char   *id,
                    const char   *worker,
                    const char   *code,
                    JsonNode     *body,
                    const char   *message,
                    GError      **error)
{
  WnClassification classification = { 0 };
  Job *job;
  WnOutcome *outcome;
  WnTime backoff = 0;
  WnTime not_before = 0;
  gboolean retry, past_end;
  guint n;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  job = held_job (self, id, worker, error);
  if (job == NULL)
    return FALSE;

  if (job->policy->trust != WN_TRUST_ENGINE_AUTHORITATIVE)
    return fail_trusted (self, job, code, body, message);

  /* Classification may run code that reaches back into the store (a journal
   * subscriber): keep the job alive until the lock has been re-validated. */
  self->pinned = job;
  self->pinned_removed = FALSE;
  wn_error_mapper_classify (job->policy->mapper, code, body, &classification);
  if (classification.mapper_error != NULL && journal_on (self))
    {
      WnEvent event;

      job_event_init (&event, WN_PH_MAPPER_ERROR, job);
      event_set_worker (&event, job->worker);
      event.code = code;
      event.error = classification.mapper_error;
      emit (self, &event);
    }
  self->pinned = NULL;

  /* Re-validate before re-arming or removing: the lock may have lapsed meanwhile. */
  if (self->pinned_removed ||
      job->worker == NULL || strcmp (job->worker, worker) != 0 ||
      now_of (self) > job->deadline)
    {
      reject (self, job, job->key.id, worker, WN_DISPATCHER_ERROR_LOCK_EXPIRED, "lock expired", error);
      wn_classification_clear (&classification);
      if (self->pinned_removed)
        job_free (job);
      self->pinned_removed = FALSE;
      return FALSE;
    }

  switch (classification.kind)
    {
    case WN_CLASS_BPMN_ERROR:
      finish_bpmn_error (self, job, classification.bpmn_code,
                         classification.bpmn_message != NULL
                         ? classification.bpmn_message : fault_text (message, body));
      wn_classification_clear (&classification);
      return TRUE;

    case WN_CLASS_STATUS:
      finish_status (self, job, classification.status);
      wn_classification_clear (&classification);
      return TRUE;

    case WN_CLASS_TECHNICAL:
    default:
      break;
    }
  wn_classification_clear (&classification);

  n = job->attempt + 1;
  retry = wn_retry_policy_retry (&job->policy->retry, n, self->rng, &backoff);
  /* a gate past the end of virtual time would never open */
  past_end = retry && !wn_time_add (now_of (self), backoff, &not_before);
  if (retry && !past_end)
    {
      const char *holder = job->worker;

      job->attempt = n;
      job->worker = NULL;
      job->first_lock = -1;
      job->deadline = -1;
      job->not_before = not_before;
      job_place (self, job, WHERE_GATED);
      self->counters.retries++;

      if (journal_on (self))
        {
          g_autofree char *text = fault_describe (code, message, body);
          WnEvent event;

          job_event_init (&event, WN_PH_RETRY_SCHEDULED, job);
          event_set_worker (&event, holder);
          event.attempt = n;
          event.backoff_us = backoff;
          event.not_before_us = job->not_before;
          event.code = code;
          event.error = text;
          emit (self, &event);
        }

      wake_topic_waiters (self, job->topic);
      return TRUE;
    }

  /* Exhausted: a terminal fault naming the topic, the attempts and the last error. */
  {
    g_autofree char *last = fault_describe (code, message, body);
    g_autofree char *text = past_end
      ? g_strdup_printf ("%s (the next retry would be due past the end of virtual time)", last)
      : g_steal_pointer (&last);
    guint attempts = MAX (job->executions, n);

    self->counters.exhausted++;

    if (journal_on (self))
      {
        WnEvent event;

        job_event_init (&event, WN_PH_RETRIES_EXHAUSTED, job);
        event_set_worker (&event, job->worker);
        event.attempts = attempts;
        event.code = code;
        event.error = text;
        emit (self, &event);
      }

    outcome = outcome_new (job, WN_OUTCOME_FAULT);
    outcome->exhausted = TRUE;
    outcome->attempts = attempts;
    outcome->code = g_strdup (code);
    outcome->message = g_strdup_printf ("retries exhausted for topic %s after %u attempt%s: %s",
                                        job->topic->name, attempts, attempts == 1 ? "" : "s", text);
    journal_fault (self, job, job->worker, code, outcome->message);
    finish (self, job, outcome);
    return TRUE;
  }
}

/* A WorkerTrusted completion with the final data as bindings (taken) or, for
 * the direct default, as one body; the journal cannot tell the two apart.
 * No binding holds a NULL value: wn_output_mapping_apply() appends only
 * values it has, and wn_dispatcher_complete_mapped() turns the caller's NULLs
 * into JSON null as it copies them. */
static gboolean
complete_trusted (WnDispatcher *self,
                  const char   *id,
                  const char   *worker,
                  GArray       *bindings,
                  JsonNode     *direct,
                  GError      **error)
{
  Job *job;

  job = held_trusted_job (self, id, worker,
                          "a mapped completion is accepted only for a workerTrusted job", error);
  if (job == NULL)
    {
      g_clear_pointer (&bindings, g_array_unref);
      return FALSE;
    }

  finish_complete (self, job, bindings, direct);
  return TRUE;
}

gboolean
_wn_dispatcher_complete_mapped_take (WnDispatcher *self,
                                     const char   *id,
                                     const char   *worker,
                                     GArray       *bindings,
                                     GError      **error)
{
  return complete_trusted (self, id, worker, bindings, NULL, error);
}

gboolean
_wn_dispatcher_complete_direct (WnDispatcher *self,
                                const char   *id,
                                const char   *worker,
                                JsonNode     *body,
                                GError      **error)
{
  return complete_trusted (self, id, worker, NULL, body, error);
}

JsonNode *
_wn_outcome_get_direct (const WnOutcome *outcome)
{
  return ((const Delivery *) outcome)->direct;
}

gboolean
wn_dispatcher_complete_mapped (WnDispatcher *self,
                               const char   *id,
                               const char   *worker,
                               GArray       *bindings,
                               GError      **error)
{
  GArray *copy;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  copy = wn_bindings_new ();
  for (guint i = 0; bindings != NULL && i < bindings->len; i++)
    {
      const WnBinding *src = &g_array_index (bindings, WnBinding, i);
      WnBinding binding;

      binding.var = g_strdup (src->var);
      /* a binding without a value commits JSON null */
      binding.value = src->value != NULL ? json_node_ref (src->value) : json_node_new (JSON_NODE_NULL);
      g_array_append_val (copy, binding);
    }
  return _wn_dispatcher_complete_mapped_take (self, id, worker, copy, error);
}

gboolean
wn_dispatcher_report_bpmn_error (WnDispatcher *self,
                                 const char   *id,
                                 const char   *worker,
                                 const char   *code,
                                 const char   *message,
                                 GError      **error)
{
  Job *job;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (code != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  job = held_trusted_job (self, id, worker,
                          "report-bpmn-error is accepted only for a workerTrusted job", error);
  if (job == NULL)
    return FALSE;

  finish_bpmn_error (self, job, code, message);
  return TRUE;
}

gboolean
wn_dispatcher_report_status (WnDispatcher *self,
                             const char   *id,
                             const char   *worker,
                             JsonNode     *status,
                             GError      **error)
{
  Job *job;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  job = held_trusted_job (self, id, worker,
                          "report-status is accepted only for a workerTrusted job", error);
  if (job == NULL)
    return FALSE;

  finish_status (self, job, status);
  return TRUE;
}

gboolean
wn_dispatcher_report_fault (WnDispatcher *self,
                            const char   *id,
                            const char   *worker,
                            const char   *code,
                            const char   *message,
                            gboolean      exhausted,
                            GError      **error)
{
  Job *job;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  job = held_trusted_job (self, id, worker,
                          "a verdict fault is accepted only for a workerTrusted job", error);
  if (job == NULL)
    return FALSE;

  finish_fault (self, job, exhausted, code,
                message != NULL ? g_strdup (message) : fault_describe (code, NULL, NULL));
  return TRUE;
}

gboolean
_wn_dispatcher_rearm_trusted (WnDispatcher *self,
                              const char   *id,
                              const char   *worker,
                              WnTime        backoff,
                              const char   *message,
                              GError      **error)
{
  const char *holder;
  Job *job;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (backoff >= 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  job = held_trusted_job (self, id, worker,
                          "a worker's own retry is accepted only for a workerTrusted job", error);
  if (job == NULL)
    return FALSE;

  holder = job->worker;
  job->worker = NULL;
  job->first_lock = -1;
  job->deadline = -1;
  /* a gate past the end of virtual time opens at its end */
  wn_time_add (now_of (self), backoff, &job->not_before);
  job_place (self, job, job->not_before > now_of (self) ? WHERE_GATED : WHERE_AGAIN);

  if (journal_on (self))
    {
      WnEvent event;

      job_event_init (&event, WN_PH_WORKER_REARMED, job);
      event_set_worker (&event, holder);
      event.attempt = job->executions;
      event.backoff_us = backoff;
      event.not_before_us = job->not_before;
      event.error = message;
      emit (self, &event);
    }
  wake_topic_waiters (self, job->topic);
  return TRUE;
}

gboolean
_wn_dispatcher_unlock (WnDispatcher *self,
                       const char   *id,
                       GError      **error)
{
  const char *holder;
  Job *job;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  job = job_find (self, id);
  if (job == NULL)
    {
      g_set_error_literal (error, WN_DISPATCHER_ERROR, WN_DISPATCHER_ERROR_NOT_FOUND, "job not found");
      return FALSE;
    }
  if (job->worker == NULL || (job->where != WHERE_LOCKED && !job->lapsed))
    return TRUE;

  holder = job->worker;
  if (job->executions > job->lock_executions)
    job->lost++;
  job->lapsed = FALSE;
  job->worker = NULL;
  job->first_lock = -1;
  job->deadline = -1;
  job_place (self, job, WHERE_AGAIN);

  if (journal_on (self))
    {
      WnEvent event;

      job_event_init (&event, WN_PH_UNLOCKED, job);
      event_set_worker (&event, holder);
      emit (self, &event);
    }
  wake_topic_waiters (self, job->topic);
  return TRUE;
}

gboolean
_wn_dispatcher_exhaust (WnDispatcher *self,
                        const char   *id,
                        const char   *message,
                        GError      **error)
{
  Job *job;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (message != NULL, FALSE);

  job = job_find (self, id);
  if (job == NULL)
    {
      g_set_error_literal (error, WN_DISPATCHER_ERROR, WN_DISPATCHER_ERROR_NOT_FOUND, "job not found");
      return FALSE;
    }
  finish_fault (self, job, TRUE, NULL, g_strdup (message));
  return TRUE;
}

gboolean
wn_dispatcher_remove (WnDispatcher *self,
                      const char   *id)
{
  Job *job;

  g_return_val_if_fail (self != NULL, FALSE);

  job = job_find (self, id);
  if (job == NULL)
    return FALSE;
  job_remove (self, job);
  return TRUE;
}

gboolean
wn_dispatcher_cancel (WnDispatcher *self,
                      const char   *id,
                      const char   *reason)
{
  Job *job;

  g_return_val_if_fail (self != NULL, FALSE);

  job = job_find (self, id);
  if (job == NULL)
    return FALSE;
  if (journal_on (self))
    {
      WnEvent event;
      g_autofree char *error = g_strdup_printf ("%s (the job was %s)", reason != NULL ? reason : "canceled",
                                                wn_job_state_to_string (job_state (job, now_of (self))));

      job_event_init (&event, WN_PH_CANCELED, job);
      event_set_worker (&event, job->worker);
      event.error = error;
      emit (self, &event);
    }
  job_remove (self, job);
  return TRUE;
}

gboolean
wn_dispatcher_lookup (WnDispatcher *self,
                      const char   *id,
                      WnJobInfo    *info)
{
  Job *job;

  g_return_val_if_fail (self != NULL, FALSE);

  job = job_find (self, id);
  if (job == NULL)
    return FALSE;
  if (info != NULL)
    job_fill_info (job, now_of (self), info);
  return TRUE;
}

void
wn_dispatcher_holder_gone (WnDispatcher *self,
                           const char   *id,
                           const char   *worker)
{
  Job *job;

  g_return_if_fail (self != NULL);

  job = job_find (self, id);
  if (job != NULL && job->worker != NULL && worker != NULL && strcmp (job->worker, worker) == 0)
    job->holder_gone = TRUE;
}

void
wn_dispatcher_foreach (WnDispatcher     *self,
                       WnJobForeachFunc  func,
                       gpointer          data)
{
  WnTime now;

  g_return_if_fail (self != NULL);
  g_return_if_fail (func != NULL);

  now = now_of (self);
  for (Job *job = self->first; job != NULL;)
    {
      Job *next = job->next;
      WnJobInfo info;

      job_fill_info (job, now, &info);
      func (&info, data);
      job = next;
    }
}

guint
wn_dispatcher_get_n_jobs (const WnDispatcher *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return g_hash_table_size (self->jobs);
}

WnTime
wn_dispatcher_get_next_gate (WnDispatcher *self)
{
  GHashTableIter iter;
  gpointer value;
  WnTime next = WN_TIME_NEVER;

  g_return_val_if_fail (self != NULL, WN_TIME_NEVER);

  g_hash_table_iter_init (&iter, self->topics);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      Topic *topic = value;
      const Job *gated = wn_heap_peek (&topic->gated);
      const Job *locked = wn_heap_peek (&topic->locked);

      if (gated != NULL && gated->not_before < next)
        next = gated->not_before;
      if (locked != NULL && locked->deadline < next)
        next = locked->deadline;
    }
  return next;
}

guint64
wn_dispatcher_get_n_comparisons (const WnDispatcher *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_comparisons;
}

void
wn_dispatcher_get_counters (const WnDispatcher   *self,
                            WnDispatcherCounters *counters)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (counters != NULL);

  *counters = self->counters;
}

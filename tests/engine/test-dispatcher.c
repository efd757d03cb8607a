/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The dispatcher: locks, gates, waiting fetches, classification and retry
 * (semantics §2, §3, §5), and the indexed heap under it. */
#include <string.h>

#include "wn-test-util.h"
#include "wn-heap.h"

#define SEC  WN_USEC_PER_SEC
#define MSEC WN_USEC_PER_MSEC

/* Helpers: JSON, lite, policies */

static char *
to_json (JsonNode *node)
{
  return json_to_string (node, FALSE);
}

static WnLite *
compile (const char *source)
{
  g_autoptr(GError) error = NULL;
  WnLite *lite = wn_lite_compile (source, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (lite);
  return lite;
}

/* An error mapper: 409 → BPMN error Conflict; a body clause → status
 * "backorder"; `when_error` (if given) is a clause that fails to evaluate. */
static WnErrorMapper *
sample_mapper (const char *failing_clause)
{
  g_autoptr(WnLite) stock = compile ("body.stock == 0");
  g_autoptr(WnLite) failing = failing_clause != NULL ? compile (failing_clause) : NULL;
  g_autoptr(JsonNode) status = wn_test_json ("\"backorder\"");
  WnErrorRule rules[3];
  guint n = 0;

  memset (rules, 0, sizeof rules);
  if (failing != NULL)
    {
      rules[n].when = failing;
      rules[n].outcome = WN_CLASS_BPMN_ERROR;
      rules[n].bpmn_code = "Never";
      n++;
    }
  rules[n].code = "409";
  rules[n].outcome = WN_CLASS_BPMN_ERROR;
  rules[n].bpmn_code = "Conflict";
  rules[n].bpmn_message = "already reserved";
  n++;
  rules[n].when = stock;
  rules[n].outcome = WN_CLASS_STATUS;
  rules[n].status = status;
  n++;
  return wn_error_mapper_new (rules, n);
}

static WnOutputMapping *
sample_mapping (void)
{
  g_autoptr(WnLite) id = compile ("body.reservationId");
  g_autoptr(WnLite) zone = compile ("body.warehouse.zone");
  g_autoptr(GError) error = NULL;
  WnOutputRule rules[2] = {
    { id, "reservationId", TRUE },
    { zone, "warehouseZone", FALSE },
  };
  WnOutputMapping *mapping = wn_output_mapping_new (rules, G_N_ELEMENTS (rules), NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (mapping);
  return mapping;
}

static WnPolicy *
policy_new (WnTrust              trust,
            const WnRetryPolicy *retry,
            WnErrorMapper       *mapper,
            WnOutputMapping     *mapping)
{
  WnPolicyLevel task;

  memset (&task, 0, sizeof task);
  task.trust = trust;
  if (retry != NULL)
    {
      task.has_retry = TRUE;
      task.retry = *retry;
    }
  task.mapper = mapper;
  task.mapping = mapping;
  /* resolve takes its own references */
  return wn_policy_resolve (&task, NULL);
}

static WnPolicy *
policy_ea_fixed (guint  max_attempts,
                 WnTime delay)
{
  WnRetryPolicy retry = wn_retry_policy_fixed (max_attempts, delay);

  return policy_new (WN_TRUST_ENGINE_AUTHORITATIVE, &retry, NULL, NULL);
}

/* Fixture */

typedef struct {
  WnScheduler  *scheduler;
  WnJournal    *journal;
  WnRng         rng;
  WnDispatcher *dispatcher;
  GPtrArray    *events;      /* WnEvent copies */
  GPtrArray    *outcomes;    /* delivered WnOutcome */
  GPtrArray    *owners;      /* the owner of each delivery */
  guint         in_report;   /* > 0 while the test is inside a report call */
  guint         delivered_in_report;
  /* a journal hook that advances the clock when `poke_phase` is emitted */
  gboolean      poke_armed;
  WnEventPhase  poke_phase;
  WnTime        poke_by;
} Fixture;

static void
record_event_cb (const WnEvent *event,
                 gpointer       data)
{
  Fixture *fx = data;

  g_ptr_array_add (fx->events, wn_event_copy (event));
  if (fx->poke_armed && event->kind == WN_EV_JOB && event->phase == fx->poke_phase)
    {
      fx->poke_armed = FALSE;
      wn_scheduler_step_by (fx->scheduler, fx->poke_by);
    }
}

static void
deliver_cb (gpointer   owner,
            WnOutcome *outcome,
            gpointer   data)
{
  Fixture *fx = data;

  if (fx->in_report > 0)
    fx->delivered_in_report++;
  g_ptr_array_add (fx->outcomes, outcome);
  g_ptr_array_add (fx->owners, owner);
}

static void
fixture_set_up (Fixture      *fx,
                gconstpointer user_data)
{
  fx->scheduler = wn_scheduler_new ();
  fx->journal = wn_journal_new ();
  wn_rng_init (&fx->rng, 7);
  fx->dispatcher = wn_dispatcher_new (fx->scheduler, fx->journal, &fx->rng, deliver_cb, fx);
  fx->events = g_ptr_array_new_with_free_func ((GDestroyNotify) wn_event_free);
  fx->outcomes = g_ptr_array_new_with_free_func ((GDestroyNotify) wn_outcome_free);
  fx->owners = g_ptr_array_new ();
  if (user_data == NULL)
    wn_journal_subscribe (fx->journal, record_event_cb, fx, NULL);
}

static void
fixture_tear_down (Fixture      *fx,
                   gconstpointer user_data)
{
  wn_dispatcher_free (fx->dispatcher);
  wn_journal_free (fx->journal);
  wn_scheduler_free (fx->scheduler);
  g_ptr_array_unref (fx->events);
  g_ptr_array_unref (fx->outcomes);
  g_ptr_array_unref (fx->owners);
}

static WnTime
now (Fixture *fx)
{
  return wn_scheduler_now (fx->scheduler);
}

/* Run what is due now (deliveries and wakes are posted, never run inline). */
static void
settle (Fixture *fx)
{
  wn_scheduler_run_instant (fx->scheduler);
}

/* Advance the clock to `t` exactly, running what is due on the way. */
static void
advance_to (Fixture *fx,
            WnTime   t)
{
  g_assert_cmpint (t, >=, now (fx));
  wn_scheduler_step_by (fx->scheduler, t - now (fx));
  g_assert_cmpint (now (fx), ==, t);
}

static void
enqueue_full (Fixture    *fx,
              const char *id,
              const char *topic,
              WnPolicy   *policy,
              gpointer    owner)
{
  g_autoptr(GError) error = NULL;
  WnJobSpec spec;

  memset (&spec, 0, sizeof spec);
  spec.id = id;
  spec.topic = topic;
  spec.instance = "i1";
  spec.node = "reserve";
  spec.policy = policy;
  spec.owner = owner;
  g_assert_true (wn_dispatcher_enqueue (fx->dispatcher, &spec, &error));
  g_assert_no_error (error);
}

static void
enqueue (Fixture    *fx,
         const char *id,
         const char *topic,
         WnPolicy   *policy)
{
  enqueue_full (fx, id, topic, policy, NULL);
}

/* Fetch from one topic; returns the locked job id (borrowed) or NULL. */
static const char *
fetch (Fixture    *fx,
       const char *worker,
       const char *topic,
       WnTime      lock)
{
  const char *topics[] = { topic };
  WnJobInfo info;

  if (!wn_dispatcher_fetch (fx->dispatcher, worker, topics, 1, lock, &info))
    return NULL;
  g_assert_cmpint (info.state, ==, WN_JOB_LOCKED);
  g_assert_cmpstr (info.worker, ==, worker);
  return info.id;
}

static void
fetch_expect (Fixture    *fx,
              const char *worker,
              const char *topic,
              WnTime      lock,
              const char *expected)
{
  const char *got = fetch (fx, worker, topic, lock);

  g_assert_cmpstr (got, ==, expected);
}

static WnJobInfo
info_of (Fixture    *fx,
         const char *id)
{
  WnJobInfo info;

  g_assert_true (wn_dispatcher_lookup (fx->dispatcher, id, &info));
  return info;
}

static guint
count_phase (Fixture     *fx,
             WnEventPhase phase)
{
  guint n = 0;

  for (guint i = 0; i < fx->events->len; i++)
    {
      const WnEvent *event = g_ptr_array_index (fx->events, i);

      if (event->kind == WN_EV_JOB && event->phase == phase)
        n++;
    }
  return n;
}

/* The n-th (0-based) job event of `phase`. */
static const WnEvent *
nth_event (Fixture     *fx,
           WnEventPhase phase,
           guint        n)
{
  for (guint i = 0; i < fx->events->len; i++)
    {
      const WnEvent *event = g_ptr_array_index (fx->events, i);

      if (event->kind == WN_EV_JOB && event->phase == phase && n-- == 0)
        return event;
    }
  g_assert_not_reached ();
  return NULL;
}

static const WnEvent *
last_event (Fixture *fx)
{
  g_assert_cmpuint (fx->events->len, >, 0);
  return g_ptr_array_index (fx->events, fx->events->len - 1);
}

/* "enqueued locked completed" — the phases of the recorded events from `from`. */
static char *
phases_since (Fixture *fx,
              guint    from)
{
  GString *out = g_string_new (NULL);

  for (guint i = from; i < fx->events->len; i++)
    {
      const WnEvent *event = g_ptr_array_index (fx->events, i);

      if (out->len > 0)
        g_string_append_c (out, ' ');
      g_string_append (out, wn_event_phase_to_string (event->phase));
    }
  return g_string_free (out, FALSE);
}

static WnOutcome *
outcome_at (Fixture *fx,
            guint    i)
{
  g_assert_cmpuint (i, <, fx->outcomes->len);
  return g_ptr_array_index (fx->outcomes, i);
}

static void
assert_binding (WnOutcome  *outcome,
                guint       i,
                const char *var,
                const char *value_json)
{
  const WnBinding *binding;
  g_autofree char *text = NULL;

  g_assert_nonnull (outcome->bindings);
  g_assert_cmpuint (i, <, outcome->bindings->len);
  binding = &g_array_index (outcome->bindings, WnBinding, i);
  g_assert_cmpstr (binding->var, ==, var);
  text = to_json (binding->value);
  g_assert_cmpstr (text, ==, value_json);
}

/* The snapshot fields a refused report must leave untouched. */
typedef struct {
  WnJobState state;
  guint      attempt;
  guint      executions;
  WnTime     not_before;
  char      *worker;
  WnTime     first_lock;
  WnTime     deadline;
} Snapshot;

static Snapshot
snapshot (Fixture    *fx,
          const char *id)
{
  WnJobInfo info = info_of (fx, id);
  Snapshot s = { info.state, info.attempt, info.executions, info.not_before,
                 g_strdup (info.worker), info.first_lock, info.deadline };

  return s;
}

static void
assert_unchanged (Fixture    *fx,
                  const char *id,
                  Snapshot   *before)
{
  Snapshot after = snapshot (fx, id);

  g_assert_cmpint (after.state, ==, before->state);
  g_assert_cmpuint (after.attempt, ==, before->attempt);
  g_assert_cmpuint (after.executions, ==, before->executions);
  g_assert_cmpint (after.not_before, ==, before->not_before);
  g_assert_cmpstr (after.worker, ==, before->worker);
  g_assert_cmpint (after.first_lock, ==, before->first_lock);
  g_assert_cmpint (after.deadline, ==, before->deadline);
  g_free (after.worker);
  g_free (before->worker);
  before->worker = NULL;
}

/* The heap */

typedef struct {
  guint  pos;
  gint64 key;
  guint  seq;
} Item;

static gboolean
item_less (gconstpointer a,
           gconstpointer b)
{
  const Item *x = a;
  const Item *y = b;

  if (x->key != y->key)
    return x->key < y->key;
  return x->seq < y->seq;
}

static void
test_heap_order_and_positions (void)
{
  guint64 shared = 0;
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  WnHeap heap;
  Item items[500];
  gint64 last_key = G_MININT64;
  guint last_seq = 0;

  wn_heap_init (&heap, item_less, G_STRUCT_OFFSET (Item, pos), &shared);
  g_assert_null (wn_heap_peek (&heap));
  g_assert_null (wn_heap_pop (&heap));

  for (guint i = 0; i < G_N_ELEMENTS (items); i++)
    {
      items[i].pos = WN_HEAP_NO_POS;
      items[i].key = g_rand_int_range (rand, 0, 50);
      items[i].seq = i;
      g_assert_false (wn_heap_contains (&heap, &items[i]));
      wn_heap_push (&heap, &items[i]);
      g_assert_true (wn_heap_contains (&heap, &items[i]));
    }
  g_assert_cmpuint (wn_heap_size (&heap), ==, G_N_ELEMENTS (items));
  g_assert_true (wn_heap_is_valid (&heap));

  /* Arbitrary removals and key changes keep the heap and every position right. */
  for (guint i = 0; i < G_N_ELEMENTS (items); i += 3)
    {
      wn_heap_remove (&heap, &items[i]);
      g_assert_false (wn_heap_contains (&heap, &items[i]));
      g_assert_cmpuint (items[i].pos, ==, WN_HEAP_NO_POS);
      g_assert_true (wn_heap_is_valid (&heap));
    }
  for (guint i = 1; i < G_N_ELEMENTS (items); i += 3)
    {
      items[i].key = g_rand_int_range (rand, -50, 100);
      wn_heap_update (&heap, &items[i]);
      g_assert_true (wn_heap_is_valid (&heap));
    }

  /* Pops come out in (key, seq) order, each item once. */
  for (guint n = wn_heap_size (&heap); n > 0; n--)
    {
      Item *item = wn_heap_pop (&heap);

      g_assert_nonnull (item);
      g_assert_true (item->key > last_key || (item->key == last_key && item->seq > last_seq));
      g_assert_cmpuint (item->pos, ==, WN_HEAP_NO_POS);
      last_key = item->key;
      last_seq = item->seq;
      g_assert_true (wn_heap_is_valid (&heap));
    }
  g_assert_cmpuint (wn_heap_size (&heap), ==, 0);

  /* Comparisons are counted, in the heap and in the shared counter. */
  g_assert_cmpuint (wn_heap_get_n_comparisons (&heap), >, 0);
  g_assert_cmpuint (shared, ==, wn_heap_get_n_comparisons (&heap));
  wn_heap_clear (&heap);
}

static void
test_heap_logarithmic (void)
{
  guint64 cost[2];
  const guint sizes[2] = { 1000, 100000 };

  for (guint s = 0; s < 2; s++)
    {
      WnHeap *heap = wn_heap_new (item_less, G_STRUCT_OFFSET (Item, pos), NULL);
      Item *items = g_new0 (Item, sizes[s] + 1);
      Item *extra = &items[sizes[s]];
      guint64 before;

      for (guint i = 0; i < sizes[s]; i++)
        {
          items[i].key = (gint64) (sizes[s] - i);
          items[i].seq = i;
          wn_heap_push (heap, &items[i]);
        }
      before = wn_heap_get_n_comparisons (heap);
      extra->key = (gint64) sizes[s] / 2;
      extra->seq = sizes[s];
      wn_heap_push (heap, extra);
      extra->key = -1;
      wn_heap_update (heap, extra);
      g_assert_true (wn_heap_pop (heap) == extra);
      wn_heap_remove (heap, &items[sizes[s] / 3]);
      cost[s] = wn_heap_get_n_comparisons (heap) - before;
      g_assert_true (wn_heap_is_valid (heap));
      wn_heap_free (heap);
      g_free (items);
    }
  g_assert_cmpuint (cost[1], <, 3 * cost[0]);
  g_assert_cmpuint (cost[1], <, 200);
}

/* Dispatcher */

static void
test_enqueue_fetch_complete (Fixture      *fx,
                             gconstpointer user_data)
{
  g_autoptr(WnPolicy) policy = policy_new (WN_TRUST_ENGINE_AUTHORITATIVE, NULL, NULL, NULL);
  g_autoptr(JsonNode) body = wn_test_json ("{\"ok\":true}");
  g_autoptr(GError) error = NULL;
  g_autofree char *phases = NULL;
  int owner;
  WnOutcome *outcome;
  WnJobInfo info;
  const WnEvent *locked;

  enqueue_full (fx, "i1/j1", "stock.reserve", policy, &owner);
  g_assert_cmpuint (wn_dispatcher_get_n_jobs (fx->dispatcher), ==, 1);
  info = info_of (fx, "i1/j1");
  g_assert_cmpint (info.state, ==, WN_JOB_AVAILABLE);
  g_assert_cmpstr (info.output_var, ==, "reserve");
  g_assert_true (info.owner == &owner);
  g_assert_true (info.policy == policy);

  fetch_expect (fx, "stock-1", "stock.reserve", 30 * SEC, "i1/j1");
  locked = nth_event (fx, WN_PH_LOCKED, 0);
  g_assert_cmpstr (locked->worker, ==, "stock-1");
  g_assert_cmpuint (locked->attempt, ==, 1);
  g_assert_cmpint (locked->deadline_us, ==, 30 * SEC);
  g_assert_cmpstr (locked->instance, ==, "i1");
  g_assert_cmpstr (locked->node, ==, "reserve");
  g_assert_cmpstr (locked->topic, ==, "stock.reserve");
  g_assert_cmpint (locked->trust, ==, WN_TRUST_ENGINE_AUTHORITATIVE);

  g_assert_cmpuint (wn_dispatcher_begin_execution (fx->dispatcher, "i1/j1", "stock-1", &error), ==, 1);
  g_assert_no_error (error);

  fx->in_report++;
  g_assert_true (wn_dispatcher_complete (fx->dispatcher, "i1/j1", "stock-1", body, &error));
  fx->in_report--;
  g_assert_no_error (error);

  /* The entry left the store, but the outcome arrives only through the scheduler. */
  g_assert_false (wn_dispatcher_lookup (fx->dispatcher, "i1/j1", NULL));
  g_assert_cmpuint (fx->outcomes->len, ==, 0);
  settle (fx);
  g_assert_cmpuint (fx->delivered_in_report, ==, 0);
  g_assert_cmpuint (fx->outcomes->len, ==, 1);

  outcome = outcome_at (fx, 0);
  g_assert_true (g_ptr_array_index (fx->owners, 0) == &owner);
  g_assert_cmpint (outcome->kind, ==, WN_OUTCOME_COMPLETE);
  g_assert_cmpstr (outcome->job, ==, "i1/j1");
  g_assert_cmpuint (outcome->attempts, ==, 1);
  g_assert_cmpuint (outcome->bindings->len, ==, 1);
  assert_binding (outcome, 0, "reserve", "{\"ok\":true}");

  phases = phases_since (fx, 0);
  g_assert_cmpstr (phases, ==, "enqueued locked executing completed");

  /* Nothing more to fetch, nothing more delivered. */
  g_assert_null (fetch (fx, "stock-1", "stock.reserve", 30 * SEC));
  wn_scheduler_run_until (fx->scheduler, 10 * SEC);
  g_assert_cmpuint (fx->outcomes->len, ==, 1);
}

static void
record_wake_cb (gpointer data)
{
  GArray *wakes = data;
  WnTime t = -1;

  g_array_append_val (wakes, t);
}

typedef struct {
  Fixture *fx;
  GArray  *times;
} WakeLog;

static void
record_wake_time_cb (gpointer data)
{
  WakeLog *log = data;
  WnTime t = now (log->fx);

  g_array_append_val (log->times, t);
}

static void
test_wait_wakes_on_enqueue (Fixture      *fx,
                            gconstpointer user_data)
{
  g_autoptr(GArray) wakes = g_array_new (FALSE, FALSE, sizeof (WnTime));
  g_autoptr(GArray) other = g_array_new (FALSE, FALSE, sizeof (WnTime));
  const char *topics[] = { "a", "b" };
  const char *only_c[] = { "c" };
  guint id;

  /* Nothing to fetch: the worker waits on two topics. */
  g_assert_false (wn_dispatcher_fetch (fx->dispatcher, "w", topics, 2, SEC, NULL));
  id = wn_dispatcher_wait (fx->dispatcher, topics, 2, record_wake_cb, wakes);
  g_assert_cmpuint (id, !=, 0);
  wn_dispatcher_wait (fx->dispatcher, only_c, 1, record_wake_cb, other);
  settle (fx);
  g_assert_cmpuint (wakes->len, ==, 0);

  /* An enqueue on one of its topics wakes it, through the scheduler, once. */
  enqueue (fx, "j1", "b", NULL);
  g_assert_cmpuint (wakes->len, ==, 0);
  settle (fx);
  g_assert_cmpuint (wakes->len, ==, 1);
  /* it was removed from every topic: further enqueues do not wake it again */
  enqueue (fx, "j2", "a", NULL);
  enqueue (fx, "j3", "b", NULL);
  settle (fx);
  g_assert_cmpuint (wakes->len, ==, 1);
  /* the waiter on another topic was not disturbed */
  g_assert_cmpuint (other->len, ==, 0);

  /* The woken fetch finds the job. */
  fetch_expect (fx, "w", "b", SEC, "j1");

  /* Waiting while a job is already available wakes at once. */
  wn_dispatcher_wait (fx->dispatcher, topics, 2, record_wake_cb, wakes);
  settle (fx);
  g_assert_cmpuint (wakes->len, ==, 2);

  /* A cancelled wait never runs. */
  id = wn_dispatcher_wait (fx->dispatcher, only_c, 1, record_wake_cb, wakes);
  wn_dispatcher_cancel_wait (fx->dispatcher, id);
  enqueue (fx, "j4", "c", NULL);
  settle (fx);
  g_assert_cmpuint (wakes->len, ==, 2);
  g_assert_cmpuint (other->len, ==, 1);
  /* cancelling a woken wait before its wake ran also stops it */
  id = wn_dispatcher_wait (fx->dispatcher, only_c, 1, record_wake_cb, wakes);
  wn_dispatcher_cancel_wait (fx->dispatcher, id);
  settle (fx);
  g_assert_cmpuint (wakes->len, ==, 2);
  /* stale ids are harmless */
  wn_dispatcher_cancel_wait (fx->dispatcher, id);
  wn_dispatcher_cancel_wait (fx->dispatcher, 12345);
}

static void
test_fetch_topics_fifo (Fixture      *fx,
                        gconstpointer user_data)
{
  const char *c_then_a[] = { "c", "a" };
  const char *unknown[] = { "x" };
  WnJobInfo info;

  enqueue (fx, "a1", "a", NULL);
  enqueue (fx, "b1", "b", NULL);
  enqueue (fx, "a2", "a", NULL);
  enqueue (fx, "c1", "c", NULL);
  enqueue (fx, "a3", "a", NULL);

  g_assert_false (wn_dispatcher_fetch (fx->dispatcher, "w", unknown, 1, SEC, &info));
  g_assert_false (wn_dispatcher_fetch (fx->dispatcher, "w", NULL, 0, SEC, &info));

  /* Only the requested topic. */
  fetch_expect (fx, "w", "b", SEC, "b1");
  g_assert_null (fetch (fx, "w", "b", SEC));
  /* Topics in the caller's order: c before a, though a1 is older. */
  g_assert_true (wn_dispatcher_fetch (fx->dispatcher, "w", c_then_a, 2, SEC, &info));
  g_assert_cmpstr (info.id, ==, "c1");
  g_assert_true (wn_dispatcher_fetch (fx->dispatcher, "w", c_then_a, 2, SEC, &info));
  g_assert_cmpstr (info.id, ==, "a1");
  /* FIFO within a topic. */
  fetch_expect (fx, "w", "a", SEC, "a2");
  fetch_expect (fx, "w", "a", SEC, "a3");
  g_assert_null (fetch (fx, "w", "a", SEC));
}

static void
test_enqueue_rejects (Fixture      *fx,
                      gconstpointer user_data)
{
  WnJobSpec spec;
  GError *error = NULL;

  enqueue (fx, "j1", "t", NULL);

  memset (&spec, 0, sizeof spec);
  spec.topic = "t";
  g_assert_false (wn_dispatcher_enqueue (fx->dispatcher, &spec, &error));
  g_assert_error (error, WN_DISPATCHER_ERROR, WN_DISPATCHER_ERROR_EMPTY_ID);
  g_clear_error (&error);

  spec.id = "";
  g_assert_false (wn_dispatcher_enqueue (fx->dispatcher, &spec, &error));
  g_assert_error (error, WN_DISPATCHER_ERROR, WN_DISPATCHER_ERROR_EMPTY_ID);
  g_clear_error (&error);

  spec.id = "j2";
  spec.topic = "";
  g_assert_false (wn_dispatcher_enqueue (fx->dispatcher, &spec, &error));
  g_assert_error (error, WN_DISPATCHER_ERROR, WN_DISPATCHER_ERROR_EMPTY_TOPIC);
  g_clear_error (&error);

  spec.topic = NULL;
  g_assert_false (wn_dispatcher_enqueue (fx->dispatcher, &spec, &error));
  g_assert_error (error, WN_DISPATCHER_ERROR, WN_DISPATCHER_ERROR_EMPTY_TOPIC);
  g_clear_error (&error);

  spec.id = "j1";
  spec.topic = "other";
  g_assert_false (wn_dispatcher_enqueue (fx->dispatcher, &spec, &error));
  g_assert_error (error, WN_DISPATCHER_ERROR, WN_DISPATCHER_ERROR_DUPLICATE);
  g_clear_error (&error);

  g_assert_cmpuint (wn_dispatcher_get_n_jobs (fx->dispatcher), ==, 1);
  g_assert_cmpuint (count_phase (fx, WN_PH_ENQUEUED), ==, 1);
  /* The original is untouched. */
  g_assert_cmpstr (info_of (fx, "j1").topic, ==, "t");
}

static void
test_report_validation_order (Fixture      *fx,
                              gconstpointer user_data)
{
  g_autoptr(WnPolicy) policy = policy_ea_fixed (3, SEC);
  g_autoptr(JsonNode) body = wn_test_json ("{}");
  GError *error = NULL;
  Snapshot before;
  const WnEvent *rejected;

  enqueue (fx, "j1", "t", policy);
  enqueue (fx, "j2", "t", policy);

  /* A job that does not exist. */
  g_assert_false (wn_dispatcher_complete (fx->dispatcher, "nope", "w1", body, &error));
  g_assert_error (error, WN_DISPATCHER_ERROR, WN_DISPATCHER_ERROR_NOT_FOUND);
  g_assert_cmpstr (error->message, ==, "job not found");
  g_clear_error (&error);
  rejected = last_event (fx);
  g_assert_cmpint (rejected->phase, ==, WN_PH_REPORT_REJECTED);
  g_assert_cmpstr (rejected->job, ==, "nope");
  g_assert_cmpstr (rejected->worker, ==, "w1");
  g_assert_cmpstr (rejected->error, ==, "job not found");

  /* An unlocked job: nobody holds it. */
  before = snapshot (fx, "j2");
  g_assert_false (wn_dispatcher_fail (fx->dispatcher, "j2", "w1", "503", body, NULL, &error));
  g_assert_error (error, WN_DISPATCHER_ERROR, WN_DISPATCHER_ERROR_NOT_HOLDER);
  g_clear_error (&error);
  assert_unchanged (fx, "j2", &before);

  fetch_expect (fx, "w1", "t", 10 * SEC, "j1");

  /* Held by another worker: holder is checked before anything else. */
  before = snapshot (fx, "j1");
  g_assert_false (wn_dispatcher_complete (fx->dispatcher, "j1", "w2", body, &error));
  g_assert_error (error, WN_DISPATCHER_ERROR, WN_DISPATCHER_ERROR_NOT_HOLDER);
  g_clear_error (&error);
  g_assert_false (wn_dispatcher_fail (fx->dispatcher, "j1", "w2", "503", body, NULL, &error));
  g_assert_error (error, WN_DISPATCHER_ERROR, WN_DISPATCHER_ERROR_NOT_HOLDER);
  g_clear_error (&error);
  g_assert_cmpuint (wn_dispatcher_begin_execution (fx->dispatcher, "j1", "w2", &error), ==, 0);
  g_assert_error (error, WN_DISPATCHER_ERROR, WN_DISPATCHER_ERROR_NOT_HOLDER);
  g_clear_error (&error);
  g_assert_false (wn_dispatcher_extend_lock (fx->dispatcher, "j1", "w2", SEC, &error));
  g_assert_error (error, WN_DISPATCHER_ERROR, WN_DISPATCHER_ERROR_NOT_HOLDER);
  g_clear_error (&error);
  assert_unchanged (fx, "j1", &before);
  rejected = last_event (fx);
  g_assert_cmpint (rejected->phase, ==, WN_PH_REPORT_REJECTED);
  g_assert_cmpstr (rejected->worker, ==, "w2");
  g_assert_cmpstr (rejected->job, ==, "j1");
  g_assert_cmpstr (rejected->topic, ==, "t");

  /* The deadline instant is still valid; one microsecond later the lock has expired. */
  advance_to (fx, 10 * SEC);
  g_assert_cmpint (info_of (fx, "j1").state, ==, WN_JOB_LOCKED);
  advance_to (fx, 10 * SEC + 1);
  g_assert_cmpint (info_of (fx, "j1").state, ==, WN_JOB_EXPIRED);
  before = snapshot (fx, "j1");
  /* a foreign worker is still told it is not the holder (holder before expiry) */
  g_assert_false (wn_dispatcher_complete (fx->dispatcher, "j1", "w2", body, &error));
  g_assert_error (error, WN_DISPATCHER_ERROR, WN_DISPATCHER_ERROR_NOT_HOLDER);
  g_clear_error (&error);
  /* the holder learns that its lock expired */
  g_assert_false (wn_dispatcher_fail (fx->dispatcher, "j1", "w1", "503", body, NULL, &error));
  g_assert_error (error, WN_DISPATCHER_ERROR, WN_DISPATCHER_ERROR_LOCK_EXPIRED);
  g_assert_cmpstr (error->message, ==, "lock expired");
  g_clear_error (&error);
  g_assert_false (wn_dispatcher_complete (fx->dispatcher, "j1", "w1", body, &error));
  g_assert_error (error, WN_DISPATCHER_ERROR, WN_DISPATCHER_ERROR_LOCK_EXPIRED);
  g_clear_error (&error);
  g_assert_false (wn_dispatcher_extend_lock (fx->dispatcher, "j1", "w1", SEC, &error));
  g_assert_error (error, WN_DISPATCHER_ERROR, WN_DISPATCHER_ERROR_LOCK_EXPIRED);
  g_clear_error (&error);
  assert_unchanged (fx, "j1", &before);
  rejected = last_event (fx);
  g_assert_cmpstr (rejected->error, ==, "lock expired");

  /* Every refusal was journalled, none delivered anything or re-armed. */
  g_assert_cmpuint (count_phase (fx, WN_PH_REPORT_REJECTED), ==, 10);
  g_assert_cmpuint (count_phase (fx, WN_PH_RETRY_SCHEDULED), ==, 0);
  settle (fx);
  g_assert_cmpuint (fx->outcomes->len, ==, 0);
  g_assert_cmpuint (wn_dispatcher_get_n_jobs (fx->dispatcher), ==, 2);
}

static void
test_lock_takeover (Fixture      *fx,
                    gconstpointer user_data)
{
  g_autoptr(JsonNode) body = wn_test_json ("{}");
  GError *error = NULL;
  const WnEvent *reclaimed;
  const WnEvent *locked;
  WnDispatcherCounters counters;
  guint i_reclaimed, i_locked;

  enqueue (fx, "j1", "t", NULL);
  fetch_expect (fx, "w1", "t", 10 * SEC, "j1");
  g_assert_cmpuint (wn_dispatcher_begin_execution (fx->dispatcher, "j1", "w1", &error), ==, 1);
  g_assert_no_error (error);

  /* +5s: locked; a second worker finds nothing. */
  advance_to (fx, 5 * SEC);
  g_assert_null (fetch (fx, "w2", "t", 10 * SEC));
  /* +10s: the deadline instant still belongs to w1. */
  advance_to (fx, 10 * SEC);
  g_assert_null (fetch (fx, "w2", "t", 10 * SEC));

  /* +11s: w2 takes it over; the reclaim names the previous holder, before the lock. */
  advance_to (fx, 11 * SEC);
  g_assert_cmpint (info_of (fx, "j1").state, ==, WN_JOB_EXPIRED);
  g_assert_cmpstr (info_of (fx, "j1").worker, ==, "w1");
  fetch_expect (fx, "w2", "t", 10 * SEC, "j1");
  reclaimed = nth_event (fx, WN_PH_LOCK_RECLAIMED, 0);
  locked = nth_event (fx, WN_PH_LOCKED, 1);
  g_assert_cmpstr (reclaimed->worker, ==, "w1");
  g_assert_cmpstr (reclaimed->job, ==, "j1");
  g_assert_cmpstr (locked->worker, ==, "w2");
  g_assert_cmpint (locked->deadline_us, ==, 21 * SEC);
  /* the takeover is no attempt: the next execution is the second */
  g_assert_cmpuint (locked->attempt, ==, 2);
  i_reclaimed = (guint) reclaimed->seq;
  i_locked = (guint) locked->seq;
  g_assert_cmpuint (i_reclaimed + 1, ==, i_locked);
  g_assert_cmpuint (info_of (fx, "j1").attempt, ==, 0);

  /* The first worker's late report is rejected and changes nothing. */
  g_assert_false (wn_dispatcher_complete (fx->dispatcher, "j1", "w1", body, &error));
  g_assert_error (error, WN_DISPATCHER_ERROR, WN_DISPATCHER_ERROR_NOT_HOLDER);
  g_clear_error (&error);
  g_assert_cmpint (info_of (fx, "j1").state, ==, WN_JOB_LOCKED);
  g_assert_cmpstr (info_of (fx, "j1").worker, ==, "w2");
  settle (fx);
  g_assert_cmpuint (fx->outcomes->len, ==, 0);

  /* The new holder completes. */
  g_assert_true (wn_dispatcher_complete (fx->dispatcher, "j1", "w2", body, &error));
  g_assert_no_error (error);
  settle (fx);
  g_assert_cmpuint (fx->outcomes->len, ==, 1);

  wn_dispatcher_get_counters (fx->dispatcher, &counters);
  g_assert_cmpuint (counters.reclaims, ==, 1);
  g_assert_cmpuint (counters.rejected, ==, 1);
  g_assert_cmpuint (counters.executions, ==, 1);
}

static void
test_extend_lock (Fixture      *fx,
                  gconstpointer user_data)
{
  GError *error = NULL;
  const WnEvent *extended;
  WnJobInfo info;

  wn_dispatcher_set_max_lock (fx->dispatcher, 30 * SEC);
  g_assert_cmpint (wn_dispatcher_get_max_lock (fx->dispatcher), ==, 30 * SEC);
  enqueue (fx, "j1", "t", NULL);
  fetch_expect (fx, "w1", "t", 10 * SEC, "j1");

  /* A foreign worker is refused. */
  g_assert_false (wn_dispatcher_extend_lock (fx->dispatcher, "j1", "w2", 20 * SEC, &error));
  g_assert_error (error, WN_DISPATCHER_ERROR, WN_DISPATCHER_ERROR_NOT_HOLDER);
  g_clear_error (&error);
  g_assert_cmpint (info_of (fx, "j1").deadline, ==, 10 * SEC);

  /* +20s fits in max_lock. */
  g_assert_true (wn_dispatcher_extend_lock (fx->dispatcher, "j1", "w1", 20 * SEC, &error));
  g_assert_no_error (error);
  info = info_of (fx, "j1");
  g_assert_cmpint (info.deadline, ==, 20 * SEC);
  g_assert_cmpint (info.first_lock, ==, 0);
  extended = nth_event (fx, WN_PH_LOCK_EXTENDED, 0);
  g_assert_cmpstr (extended->worker, ==, "w1");
  g_assert_cmpint (extended->deadline_us, ==, 20 * SEC);

  /* +40s does not. */
  g_assert_false (wn_dispatcher_extend_lock (fx->dispatcher, "j1", "w1", 40 * SEC, &error));
  g_assert_error (error, WN_DISPATCHER_ERROR, WN_DISPATCHER_ERROR_MAX_LOCK);
  g_clear_error (&error);
  g_assert_cmpint (info_of (fx, "j1").deadline, ==, 20 * SEC);
  g_assert_cmpuint (count_phase (fx, WN_PH_LOCK_EXTENDED), ==, 1);

  /* The bound is first_lock + max_lock: reaching it exactly is allowed, a µs more is not. */
  advance_to (fx, 5 * SEC);
  g_assert_false (wn_dispatcher_extend_lock (fx->dispatcher, "j1", "w1", 25 * SEC + 1, &error));
  g_assert_error (error, WN_DISPATCHER_ERROR, WN_DISPATCHER_ERROR_MAX_LOCK);
  g_clear_error (&error);
  g_assert_true (wn_dispatcher_extend_lock (fx->dispatcher, "j1", "w1", 25 * SEC, &error));
  g_assert_no_error (error);
  g_assert_cmpint (info_of (fx, "j1").deadline, ==, 30 * SEC);

  /* The extended deadline is the one that counts for a takeover. */
  advance_to (fx, 21 * SEC);
  g_assert_null (fetch (fx, "w2", "t", 10 * SEC));
  advance_to (fx, 30 * SEC + 1);
  fetch_expect (fx, "w2", "t", 10 * SEC, "j1");
}

/* Build `n` gated jobs on topic "t" with distinct gates one second apart, then
 * measure the comparisons of: an enqueue, a fetch, a re-arm, a fetch at the
 * earliest gate, and a reclaim of a lapsed lock. */
static guint64
measure_comparisons (guint n)
{
  Fixture fx_storage;
  Fixture *fx = &fx_storage;
  /* a backoff far beyond the build, so no gate elapses while building */
  g_autoptr(WnPolicy) policy = policy_ea_fixed (1000000, 1000000 * SEC);
  GError *error = NULL;
  guint64 before, cost;
  WnTime gate;
  char id[32];

  memset (fx, 0, sizeof *fx);
  fixture_set_up (fx, GINT_TO_POINTER (1));   /* no journal subscriber */

  for (guint i = 0; i < n; i++)
    {
      g_snprintf (id, sizeof id, "j%u", i);
      enqueue (fx, id, "t", policy);
      fetch_expect (fx, "w1", "t", 100 * MSEC, id);
      g_assert_true (wn_dispatcher_fail (fx->dispatcher, id, "w1", "503", NULL, NULL, &error));
      g_assert_no_error (error);
      wn_scheduler_step_by (fx->scheduler, SEC);
    }
  g_assert_cmpuint (wn_dispatcher_get_n_jobs (fx->dispatcher), ==, n);
  g_assert_cmpint (info_of (fx, "j0").state, ==, WN_JOB_GATED);

  before = wn_dispatcher_get_n_comparisons (fx->dispatcher);

  /* enqueue + fetch + re-arm with n gated jobs beside it */
  enqueue (fx, "x", "t", policy);
  fetch_expect (fx, "w1", "t", 100 * MSEC, "x");
  g_assert_true (wn_dispatcher_fail (fx->dispatcher, "x", "w1", "503", NULL, NULL, &error));
  g_assert_no_error (error);

  /* the earliest gate elapses: exactly that job becomes fetchable */
  gate = wn_dispatcher_get_next_gate (fx->dispatcher);
  g_assert_cmpint (gate, ==, info_of (fx, "j0").not_before);
  advance_to (fx, gate);
  fetch_expect (fx, "w1", "t", 100 * MSEC, "j0");
  g_assert_null (fetch (fx, "w2", "t", 100 * MSEC));

  /* its lock lapses and another worker reclaims it */
  advance_to (fx, gate + 100 * MSEC + 1);
  fetch_expect (fx, "w2", "t", 100 * MSEC, "j0");

  cost = wn_dispatcher_get_n_comparisons (fx->dispatcher) - before;
  fixture_tear_down (fx, GINT_TO_POINTER (1));
  return cost;
}

static void
test_fetch_cost_logarithmic (void)
{
  guint64 small = measure_comparisons (1000);
  guint64 large = measure_comparisons (100000);

  g_test_message ("comparisons: %" G_GUINT64_FORMAT " with 10^3 gated jobs, %"
                  G_GUINT64_FORMAT " with 10^5", small, large);
  g_assert_cmpuint (small, >, 0);
  /* a scan would cost 100× more; log n costs about 5/3 */
  g_assert_cmpuint (large, <, 3 * small);
  g_assert_cmpuint (large, <, 1000);
}

static void
test_snapshot_states (Fixture      *fx,
                      gconstpointer user_data)
{
  g_autoptr(WnPolicy) policy = policy_ea_fixed (3, 2 * SEC);
  GError *error = NULL;
  WnJobInfo info;

  enqueue (fx, "j1", "t", policy);
  info = info_of (fx, "j1");
  g_assert_cmpint (info.state, ==, WN_JOB_AVAILABLE);
  g_assert_null (info.worker);
  g_assert_cmpint (info.first_lock, ==, -1);
  g_assert_cmpint (info.deadline, ==, -1);
  g_assert_cmpint (info.not_before, ==, 0);
  g_assert_cmpstr (wn_job_state_to_string (info.state), ==, "available");

  advance_to (fx, SEC);
  fetch_expect (fx, "w1", "t", 3 * SEC, "j1");
  info = info_of (fx, "j1");
  g_assert_cmpint (info.state, ==, WN_JOB_LOCKED);
  g_assert_cmpint (info.first_lock, ==, SEC);
  g_assert_cmpint (info.deadline, ==, 4 * SEC);
  g_assert_cmpstr (wn_job_state_to_string (info.state), ==, "locked");
  g_assert_cmpint (wn_dispatcher_get_next_gate (fx->dispatcher), ==, 4 * SEC);

  g_assert_true (wn_dispatcher_fail (fx->dispatcher, "j1", "w1", "503", NULL, "down", &error));
  g_assert_no_error (error);
  info = info_of (fx, "j1");
  g_assert_cmpint (info.state, ==, WN_JOB_GATED);
  g_assert_cmpstr (wn_job_state_to_string (info.state), ==, "gated");
  g_assert_null (info.worker);
  g_assert_cmpint (info.first_lock, ==, -1);
  g_assert_cmpint (info.not_before, ==, 3 * SEC);
  g_assert_cmpuint (info.attempt, ==, 1);
  g_assert_cmpint (wn_dispatcher_get_next_gate (fx->dispatcher), ==, 3 * SEC);

  /* At the gate the job is available (now ≥ not_before) even before anyone fetches. */
  advance_to (fx, 3 * SEC);
  g_assert_cmpint (info_of (fx, "j1").state, ==, WN_JOB_AVAILABLE);

  fetch_expect (fx, "w1", "t", SEC, "j1");
  /* taking the job clears the gate */
  g_assert_cmpint (info_of (fx, "j1").not_before, ==, 0);
  advance_to (fx, 4 * SEC);
  g_assert_cmpint (info_of (fx, "j1").state, ==, WN_JOB_LOCKED);
  advance_to (fx, 4 * SEC + 1);
  g_assert_cmpint (info_of (fx, "j1").state, ==, WN_JOB_EXPIRED);
  g_assert_cmpstr (wn_job_state_to_string (WN_JOB_EXPIRED), ==, "expired");

  g_assert_cmpint (wn_dispatcher_get_next_gate (fx->dispatcher), ==, 4 * SEC);
  g_assert_true (wn_dispatcher_remove (fx->dispatcher, "j1"));
  g_assert_cmpint (wn_dispatcher_get_next_gate (fx->dispatcher), ==, WN_TIME_NEVER);
}

/* The snapshot says when the clock alone will change the job's state, and
 * the state at that time is the one it says: a gate opening, a lock expiring. */
static void
test_snapshot_next_change (Fixture      *fx,
                           gconstpointer user_data)
{
  g_autoptr(WnPolicy) policy = policy_ea_fixed (3, 2 * SEC);
  GError *error = NULL;
  WnJobInfo info;

  enqueue (fx, "j1", "t", policy);
  g_assert_cmpint (info_of (fx, "j1").next_change, ==, WN_TIME_NEVER);

  advance_to (fx, SEC);
  fetch_expect (fx, "w1", "t", 3 * SEC, "j1");
  info = info_of (fx, "j1");
  g_assert_cmpint (info.state, ==, WN_JOB_LOCKED);
  g_assert_cmpint (info.next_change, ==, 4 * SEC + 1);
  advance_to (fx, 4 * SEC);
  g_assert_cmpint (info_of (fx, "j1").state, ==, WN_JOB_LOCKED);
  g_assert_cmpint (info_of (fx, "j1").next_change, ==, 4 * SEC + 1);

  g_assert_true (wn_dispatcher_fail (fx->dispatcher, "j1", "w1", "503", NULL, "down", &error));
  g_assert_no_error (error);
  info = info_of (fx, "j1");
  g_assert_cmpint (info.state, ==, WN_JOB_GATED);
  g_assert_cmpint (info.next_change, ==, 6 * SEC);
  advance_to (fx, 6 * SEC - 1);
  g_assert_cmpint (info_of (fx, "j1").state, ==, WN_JOB_GATED);
  advance_to (fx, 6 * SEC);
  info = info_of (fx, "j1");
  g_assert_cmpint (info.state, ==, WN_JOB_AVAILABLE);
  g_assert_cmpint (info.next_change, ==, WN_TIME_NEVER);

  fetch_expect (fx, "w1", "t", SEC, "j1");
  g_assert_cmpint (info_of (fx, "j1").next_change, ==, 7 * SEC + 1);
  advance_to (fx, 7 * SEC + 1);
  info = info_of (fx, "j1");
  g_assert_cmpint (info.state, ==, WN_JOB_EXPIRED);
  g_assert_cmpint (info.next_change, ==, WN_TIME_NEVER);
}

static void
count_job_cb (const WnJobInfo *info,
              gpointer         data)
{
  GString *ids = data;

  g_string_append_printf (ids, "%s%s", ids->len > 0 ? " " : "", info->id);
}

static void
test_remove_and_foreach (Fixture      *fx,
                         gconstpointer user_data)
{
  g_autoptr(GString) ids = g_string_new (NULL);
  g_autoptr(JsonNode) body = wn_test_json ("{}");
  GError *error = NULL;
  guint events;

  enqueue (fx, "j1", "t", NULL);
  enqueue (fx, "j2", "u", NULL);
  enqueue (fx, "j3", "t", NULL);
  fetch_expect (fx, "w", "t", SEC, "j1");

  wn_dispatcher_foreach (fx->dispatcher, count_job_cb, ids);
  g_assert_cmpstr (ids->str, ==, "j1 j2 j3");

  /* Removal is silent: no event, no delivery. */
  events = fx->events->len;
  g_assert_true (wn_dispatcher_remove (fx->dispatcher, "j1"));
  g_assert_true (wn_dispatcher_remove (fx->dispatcher, "j3"));
  g_assert_false (wn_dispatcher_remove (fx->dispatcher, "j3"));
  g_assert_cmpuint (fx->events->len, ==, events);
  settle (fx);
  g_assert_cmpuint (fx->outcomes->len, ==, 0);
  g_assert_cmpuint (wn_dispatcher_get_n_jobs (fx->dispatcher), ==, 1);

  g_string_truncate (ids, 0);
  wn_dispatcher_foreach (fx->dispatcher, count_job_cb, ids);
  g_assert_cmpstr (ids->str, ==, "j2");

  /* A late report on a removed job: "job not found". */
  g_assert_false (wn_dispatcher_complete (fx->dispatcher, "j1", "w", body, &error));
  g_assert_error (error, WN_DISPATCHER_ERROR, WN_DISPATCHER_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_null (fetch (fx, "w", "t", SEC));
}

static void
test_begin_execution (Fixture      *fx,
                      gconstpointer user_data)
{
  GError *error = NULL;
  const WnEvent *executing;

  enqueue (fx, "j1", "t", NULL);
  g_assert_cmpuint (wn_dispatcher_begin_execution (fx->dispatcher, "j1", "w", &error), ==, 0);
  g_assert_error (error, WN_DISPATCHER_ERROR, WN_DISPATCHER_ERROR_NOT_HOLDER);
  g_clear_error (&error);
  g_assert_cmpuint (info_of (fx, "j1").executions, ==, 0);

  fetch_expect (fx, "w", "t", SEC, "j1");
  g_assert_cmpuint (wn_dispatcher_begin_execution (fx->dispatcher, "j1", "w", &error), ==, 1);
  g_assert_cmpuint (wn_dispatcher_begin_execution (fx->dispatcher, "j1", "w", &error), ==, 2);
  g_assert_no_error (error);
  g_assert_cmpuint (info_of (fx, "j1").executions, ==, 2);
  executing = nth_event (fx, WN_PH_EXECUTING, 1);
  g_assert_cmpuint (executing->attempt, ==, 2);
  g_assert_cmpstr (executing->worker, ==, "w");
  g_assert_cmpint (executing->trust, ==, WN_TRUST_WORKER_TRUSTED);

  advance_to (fx, SEC + 1);
  g_assert_cmpuint (wn_dispatcher_begin_execution (fx->dispatcher, "j1", "w", &error), ==, 0);
  g_assert_error (error, WN_DISPATCHER_ERROR, WN_DISPATCHER_ERROR_LOCK_EXPIRED);
  g_clear_error (&error);
  g_assert_cmpuint (info_of (fx, "j1").executions, ==, 2);
}

/* Waiting fetchers and the topic timer */

static void
test_wait_wakes_at_gate (Fixture      *fx,
                         gconstpointer user_data)
{
  g_autoptr(WnPolicy) policy = policy_ea_fixed (3, SEC);
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (WnTime));
  WakeLog log = { fx, times };
  const char *topics[] = { "t" };
  GError *error = NULL;
  char id[16];

  /* 50 jobs fail 10ms apart: 50 gates, from 1s to 1.49s. */
  for (guint i = 0; i < 50; i++)
    {
      g_snprintf (id, sizeof id, "j%u", i);
      enqueue (fx, id, "t", policy);
      fetch_expect (fx, "w", "t", 30 * SEC, id);
      g_assert_true (wn_dispatcher_fail (fx->dispatcher, id, "w", "503", NULL, NULL, &error));
      g_assert_no_error (error);
      wn_scheduler_step_by (fx->scheduler, 10 * MSEC);
    }
  settle (fx);
  g_assert_cmpuint (wn_scheduler_get_n_pending (fx->scheduler), ==, 0);
  g_assert_null (fetch (fx, "w", "t", 30 * SEC));

  /* One waiter, one timer for the whole topic, not one per gated job. */
  wn_dispatcher_wait (fx->dispatcher, topics, 1, record_wake_time_cb, &log);
  g_assert_cmpuint (wn_scheduler_get_n_pending (fx->scheduler), ==, 1);
  g_assert_cmpint (wn_scheduler_get_next_time (fx->scheduler), ==, SEC);
  /* a second waiter shares it */
  wn_dispatcher_wait (fx->dispatcher, topics, 1, record_wake_time_cb, &log);
  g_assert_cmpuint (wn_scheduler_get_n_pending (fx->scheduler), ==, 1);

  /* The wake comes exactly when the earliest gate elapses, once per waiter. */
  wn_scheduler_run_until (fx->scheduler, 10 * SEC);
  g_assert_cmpuint (times->len, ==, 2);
  g_assert_cmpint (g_array_index (times, WnTime, 0), ==, SEC);
  g_assert_cmpint (g_array_index (times, WnTime, 1), ==, SEC);
  g_assert_cmpint (now (fx), ==, SEC);
  fetch_expect (fx, "w", "t", 30 * SEC, "j0");
  g_assert_null (fetch (fx, "w", "t", 30 * SEC));

  /* Waiting again re-arms the timer at the next gate. */
  wn_dispatcher_wait (fx->dispatcher, topics, 1, record_wake_time_cb, &log);
  g_assert_cmpuint (wn_scheduler_get_n_pending (fx->scheduler), ==, 1);
  wn_scheduler_run_until (fx->scheduler, 10 * SEC);
  g_assert_cmpuint (times->len, ==, 3);
  g_assert_cmpint (g_array_index (times, WnTime, 2), ==, SEC + 10 * MSEC);
}

static void
test_wait_wakes_at_lock_expiry (Fixture      *fx,
                                gconstpointer user_data)
{
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (WnTime));
  WakeLog log = { fx, times };
  const char *topics[] = { "t" };
  GError *error = NULL;
  guint id;

  enqueue (fx, "j1", "t", NULL);
  fetch_expect (fx, "w1", "t", 10 * SEC, "j1");
  g_assert_null (fetch (fx, "w2", "t", 10 * SEC));
  wn_dispatcher_wait (fx->dispatcher, topics, 1, record_wake_time_cb, &log);
  g_assert_cmpint (wn_scheduler_get_next_time (fx->scheduler), ==, 10 * SEC + 1);

  /* Extending the lock moves the topic's timer. */
  advance_to (fx, 2 * SEC);
  g_assert_true (wn_dispatcher_extend_lock (fx->dispatcher, "j1", "w1", 20 * SEC, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (wn_scheduler_get_n_pending (fx->scheduler), ==, 1);
  g_assert_cmpint (wn_scheduler_get_next_time (fx->scheduler), ==, 22 * SEC + 1);

  /* The lock lapses: the waiter wakes just past the deadline and reclaims the job. */
  wn_scheduler_run_until (fx->scheduler, 60 * SEC);
  g_assert_cmpuint (times->len, ==, 1);
  g_assert_cmpint (g_array_index (times, WnTime, 0), ==, 22 * SEC + 1);
  fetch_expect (fx, "w2", "t", 10 * SEC, "j1");
  g_assert_cmpuint (count_phase (fx, WN_PH_LOCK_RECLAIMED), ==, 1);

  /* A cancelled waiter leaves no timer behind. */
  id = wn_dispatcher_wait (fx->dispatcher, topics, 1, record_wake_time_cb, &log);
  g_assert_cmpuint (wn_scheduler_get_n_pending (fx->scheduler), ==, 1);
  wn_dispatcher_cancel_wait (fx->dispatcher, id);
  g_assert_cmpuint (wn_scheduler_get_n_pending (fx->scheduler), ==, 0);
  wn_scheduler_run_until (fx->scheduler, 120 * SEC);
  g_assert_cmpuint (times->len, ==, 1);
}

/* EngineAuthoritative classification and retry */

static void
test_ea_business_verdicts_terminal (Fixture      *fx,
                                    gconstpointer user_data)
{
  g_autoptr(WnErrorMapper) mapper = sample_mapper (NULL);
  WnRetryPolicy retry = wn_retry_policy_fixed (5, SEC);
  g_autoptr(WnPolicy) policy = policy_new (WN_TRUST_ENGINE_AUTHORITATIVE, &retry, mapper, NULL);
  g_autoptr(JsonNode) conflict = wn_test_json ("{\"reason\":\"taken\"}");
  g_autoptr(JsonNode) empty = wn_test_json ("{\"stock\":0}");
  GError *error = NULL;
  const WnEvent *event;
  WnOutcome *outcome;
  g_autofree char *status = NULL;

  enqueue (fx, "j1", "t", policy);
  enqueue (fx, "j2", "t", policy);
  fetch_expect (fx, "w", "t", 10 * SEC, "j1");
  fetch_expect (fx, "w", "t", 10 * SEC, "j2");

  /* A code-only rule → BPMN error, terminal although retries are left. */
  g_assert_true (wn_dispatcher_fail (fx->dispatcher, "j1", "w", "409", conflict, "conflict", &error));
  g_assert_no_error (error);
  event = nth_event (fx, WN_PH_BPMN_ERROR, 0);
  g_assert_cmpstr (event->code, ==, "Conflict");
  g_assert_cmpstr (event->error, ==, "already reserved");
  g_assert_cmpint (event->trust, ==, WN_TRUST_ENGINE_AUTHORITATIVE);

  /* A body clause → status, terminal too. */
  g_assert_true (wn_dispatcher_fail (fx->dispatcher, "j2", "w", "500", empty, NULL, &error));
  g_assert_no_error (error);
  event = nth_event (fx, WN_PH_STATUS, 0);
  status = to_json (event->status);
  g_assert_cmpstr (status, ==, "\"backorder\"");

  g_assert_cmpuint (count_phase (fx, WN_PH_RETRY_SCHEDULED), ==, 0);
  g_assert_cmpuint (wn_dispatcher_get_n_jobs (fx->dispatcher), ==, 0);
  settle (fx);
  g_assert_cmpuint (fx->outcomes->len, ==, 2);
  outcome = outcome_at (fx, 0);
  g_assert_cmpint (outcome->kind, ==, WN_OUTCOME_BPMN_ERROR);
  g_assert_cmpstr (outcome->code, ==, "Conflict");
  g_assert_cmpstr (outcome->message, ==, "already reserved");
  outcome = outcome_at (fx, 1);
  g_assert_cmpint (outcome->kind, ==, WN_OUTCOME_STATUS);
  g_clear_pointer (&status, g_free);
  status = to_json (outcome->status);
  g_assert_cmpstr (status, ==, "\"backorder\"");

  /* Nothing comes back later: they were never re-armed. */
  wn_scheduler_run_until (fx->scheduler, 60 * SEC);
  g_assert_null (fetch (fx, "w", "t", 10 * SEC));
}

static void
test_ea_technical_rearms (Fixture      *fx,
                          gconstpointer user_data)
{
  g_autoptr(WnPolicy) policy = policy_ea_fixed (3, SEC);
  g_autoptr(JsonNode) body = wn_test_json ("{\"error\":\"unavailable\"}");
  GError *error = NULL;
  const WnEvent *event;
  WnJobInfo info;
  int owner;

  enqueue_full (fx, "j1", "stock.reserve", policy, &owner);
  advance_to (fx, 2 * SEC);
  fetch_expect (fx, "w", "stock.reserve", 10 * SEC, "j1");
  g_assert_cmpuint (wn_dispatcher_begin_execution (fx->dispatcher, "j1", "w", &error), ==, 1);

  g_assert_true (wn_dispatcher_fail (fx->dispatcher, "j1", "w", "503", body, NULL, &error));
  g_assert_no_error (error);

  /* Nothing delivered: the owner's track stays parked. */
  settle (fx);
  g_assert_cmpuint (fx->outcomes->len, ==, 0);

  /* The job is gated, unlocked, attempt 1. */
  info = info_of (fx, "j1");
  g_assert_cmpint (info.state, ==, WN_JOB_GATED);
  g_assert_cmpuint (info.attempt, ==, 1);
  g_assert_cmpint (info.not_before, ==, 3 * SEC);
  g_assert_null (info.worker);
  event = nth_event (fx, WN_PH_RETRY_SCHEDULED, 0);
  g_assert_cmpuint (event->attempt, ==, 1);
  g_assert_cmpint (event->backoff_us, ==, SEC);
  g_assert_cmpint (event->not_before_us, ==, 3 * SEC);
  g_assert_cmpstr (event->code, ==, "503");
  g_assert_cmpstr (event->error, ==, "503: unavailable");
  g_assert_cmpstr (event->worker, ==, "w");
  g_assert_cmpstr (event->topic, ==, "stock.reserve");

  /* Not fetchable before the gate, fetchable at it. */
  advance_to (fx, 3 * SEC - 1);
  g_assert_null (fetch (fx, "w", "stock.reserve", 10 * SEC));
  advance_to (fx, 3 * SEC);
  fetch_expect (fx, "w", "stock.reserve", 10 * SEC, "j1");
  event = nth_event (fx, WN_PH_LOCKED, 1);
  g_assert_cmpuint (event->attempt, ==, 2);

  /* Still the same entry, still one owner, still no delivery. */
  info = info_of (fx, "j1");
  g_assert_true (info.owner == &owner);
  g_assert_cmpint (info.enqueued_at, ==, 0);
  g_assert_cmpuint (count_phase (fx, WN_PH_ENQUEUED), ==, 1);
  g_assert_cmpuint (fx->outcomes->len, ==, 0);
}

static void
test_ea_default_exhausts (Fixture      *fx,
                          gconstpointer user_data)
{
  g_autoptr(WnPolicy) policy = policy_new (WN_TRUST_ENGINE_AUTHORITATIVE, NULL, NULL, NULL);
  g_autoptr(JsonNode) body = wn_test_json ("{\"error\":\"unavailable\"}");
  GError *error = NULL;
  const WnEvent *event;
  WnOutcome *outcome;
  WnDispatcherCounters counters;

  g_assert_cmpint (policy->retry.kind, ==, WN_RETRY_EXPONENTIAL);
  enqueue (fx, "j1", "reserve", policy);

  for (guint n = 1; n <= 3; n++)
    {
      WnJobInfo info;

      if (n > 1)
        {
          info = info_of (fx, "j1");
          g_assert_cmpint (info.state, ==, WN_JOB_GATED);
          advance_to (fx, info.not_before);
        }
      fetch_expect (fx, "w", "reserve", 10 * SEC, "j1");
      g_assert_cmpuint (wn_dispatcher_begin_execution (fx->dispatcher, "j1", "w", &error), ==, n);
      g_assert_true (wn_dispatcher_fail (fx->dispatcher, "j1", "w", "503", body, NULL, &error));
      g_assert_no_error (error);
      settle (fx);
      g_assert_cmpuint (fx->outcomes->len, ==, n < 3 ? 0 : 1);
    }

  g_assert_cmpuint (count_phase (fx, WN_PH_RETRY_SCHEDULED), ==, 2);
  /* jittered backoffs: within [d/2, d] of 500ms and 1s */
  event = nth_event (fx, WN_PH_RETRY_SCHEDULED, 0);
  g_assert_cmpint (event->backoff_us, >=, 250 * MSEC);
  g_assert_cmpint (event->backoff_us, <=, 500 * MSEC);
  event = nth_event (fx, WN_PH_RETRY_SCHEDULED, 1);
  g_assert_cmpuint (event->attempt, ==, 2);
  g_assert_cmpint (event->backoff_us, >=, 500 * MSEC);
  g_assert_cmpint (event->backoff_us, <=, SEC);

  event = nth_event (fx, WN_PH_RETRIES_EXHAUSTED, 0);
  g_assert_cmpuint (event->attempts, ==, 3);
  g_assert_cmpstr (event->topic, ==, "reserve");
  event = nth_event (fx, WN_PH_FAULT, 0);
  g_assert_cmpstr (event->error, ==, "retries exhausted for topic reserve after 3 attempts: 503: unavailable");
  g_assert_cmpuint (count_phase (fx, WN_PH_RETRIES_EXHAUSTED), ==, 1);
  g_assert_true (nth_event (fx, WN_PH_RETRIES_EXHAUSTED, 0)->seq < event->seq);

  outcome = outcome_at (fx, 0);
  g_assert_cmpint (outcome->kind, ==, WN_OUTCOME_FAULT);
  g_assert_true (outcome->exhausted);
  g_assert_cmpuint (outcome->attempts, ==, 3);
  g_assert_cmpstr (outcome->code, ==, "503");
  g_assert_cmpstr (outcome->message, ==, "retries exhausted for topic reserve after 3 attempts: 503: unavailable");
  g_assert_cmpuint (wn_dispatcher_get_n_jobs (fx->dispatcher), ==, 0);

  wn_dispatcher_get_counters (fx->dispatcher, &counters);
  g_assert_cmpuint (counters.retries, ==, 2);
  g_assert_cmpuint (counters.exhausted, ==, 1);
  g_assert_cmpuint (counters.executions, ==, 3);
}

static void
test_ea_lock_lapses_during_classification (Fixture      *fx,
                                           gconstpointer user_data)
{
  /* The first rule's clause reads a dead path: classification reports a mapper
   * error, and the journal hook advances the clock past the lock meanwhile. */
  g_autoptr(WnErrorMapper) mapper = sample_mapper ("body.missing.deep == 1");
  WnRetryPolicy retry = wn_retry_policy_exponential (3, SEC, 10 * SEC, TRUE);
  g_autoptr(WnPolicy) policy = policy_new (WN_TRUST_ENGINE_AUTHORITATIVE, &retry, mapper, NULL);
  g_autoptr(JsonNode) body = wn_test_json ("{}");
  GError *error = NULL;
  WnJobInfo info;
  guint64 draws_before, draws_after;
  WnRng probe;

  enqueue (fx, "j1", "t", policy);
  fetch_expect (fx, "w", "t", 10 * SEC, "j1");
  probe = fx->rng;
  draws_before = wn_rng_next (&probe);

  fx->poke_armed = TRUE;
  fx->poke_phase = WN_PH_MAPPER_ERROR;
  fx->poke_by = 11 * SEC;
  g_assert_false (wn_dispatcher_fail (fx->dispatcher, "j1", "w", "503", body, NULL, &error));
  g_assert_error (error, WN_DISPATCHER_ERROR, WN_DISPATCHER_ERROR_LOCK_EXPIRED);
  g_clear_error (&error);
  g_assert_cmpint (now (fx), ==, 11 * SEC);

  /* The mapper error was journalled, the re-arm was not. */
  g_assert_nonnull (nth_event (fx, WN_PH_MAPPER_ERROR, 0)->error);
  g_assert_cmpuint (count_phase (fx, WN_PH_RETRY_SCHEDULED), ==, 0);
  g_assert_cmpint (last_event (fx)->phase, ==, WN_PH_REPORT_REJECTED);
  g_assert_cmpstr (last_event (fx)->error, ==, "lock expired");

  /* Nothing changed: still w's (expired) lock, attempt 0, no gate, no delivery,
   * and the retry policy was not consulted (no jitter drawn). */
  info = info_of (fx, "j1");
  g_assert_cmpint (info.state, ==, WN_JOB_EXPIRED);
  g_assert_cmpstr (info.worker, ==, "w");
  g_assert_cmpuint (info.attempt, ==, 0);
  g_assert_cmpint (info.not_before, ==, 0);
  probe = fx->rng;
  draws_after = wn_rng_next (&probe);
  g_assert_cmpuint (draws_before, ==, draws_after);
  settle (fx);
  g_assert_cmpuint (fx->outcomes->len, ==, 0);

  /* The lapsed job can be reclaimed as usual. */
  fetch_expect (fx, "w2", "t", 10 * SEC, "j1");
}

static void
test_ea_mapper_error_is_technical (Fixture      *fx,
                                   gconstpointer user_data)
{
  g_autoptr(WnErrorMapper) mapper = sample_mapper ("body.missing.deep == 1");
  WnRetryPolicy retry = wn_retry_policy_fixed (3, SEC);
  g_autoptr(WnPolicy) policy = policy_new (WN_TRUST_ENGINE_AUTHORITATIVE, &retry, mapper, NULL);
  g_autoptr(JsonNode) body = wn_test_json ("{\"stock\":0}");
  GError *error = NULL;
  const WnEvent *event;

  /* The body would match the status rule, but the failing clause makes the whole
   * classification technical. */
  enqueue (fx, "j1", "t", policy);
  fetch_expect (fx, "w", "t", 10 * SEC, "j1");
  g_assert_true (wn_dispatcher_fail (fx->dispatcher, "j1", "w", "409", body, "conflict", &error));
  g_assert_no_error (error);

  event = nth_event (fx, WN_PH_MAPPER_ERROR, 0);
  g_assert_nonnull (event->error);
  g_assert_cmpstr (event->job, ==, "j1");
  g_assert_cmpuint (count_phase (fx, WN_PH_BPMN_ERROR), ==, 0);
  g_assert_cmpuint (count_phase (fx, WN_PH_RETRY_SCHEDULED), ==, 1);
  g_assert_true (nth_event (fx, WN_PH_MAPPER_ERROR, 0)->seq < nth_event (fx, WN_PH_RETRY_SCHEDULED, 0)->seq);
  g_assert_cmpint (info_of (fx, "j1").state, ==, WN_JOB_GATED);
}

static void
test_ea_complete_maps (Fixture      *fx,
                       gconstpointer user_data)
{
  g_autoptr(WnOutputMapping) mapping = sample_mapping ();
  WnRetryPolicy retry = wn_retry_policy_fixed (3, SEC);
  g_autoptr(WnPolicy) mapped = policy_new (WN_TRUST_ENGINE_AUTHORITATIVE, &retry, NULL, mapping);
  g_autoptr(WnPolicy) direct = policy_new (WN_TRUST_ENGINE_AUTHORITATIVE, &retry, NULL, NULL);
  g_autoptr(JsonNode) full = wn_test_json ("{\"reservationId\":\"R-7\",\"warehouse\":{\"zone\":\"B\"},\"extra\":1}");
  g_autoptr(JsonNode) partial = wn_test_json ("{\"reservationId\":\"R-8\"}");
  g_autoptr(JsonNode) missing = wn_test_json ("{\"warehouse\":{\"zone\":\"C\"}}");
  GError *error = NULL;
  WnJobSpec spec;
  WnOutcome *outcome;
  const char *ids[] = { "full", "partial", "missing", "direct", "named", "nobody" };

  enqueue (fx, "full", "t", mapped);
  enqueue (fx, "partial", "t", mapped);
  enqueue (fx, "missing", "t", mapped);
  enqueue (fx, "direct", "t", direct);
  memset (&spec, 0, sizeof spec);
  spec.id = "named";
  spec.topic = "t";
  spec.node = "reserve";
  spec.output_var = "reserveResult";
  spec.policy = direct;
  g_assert_true (wn_dispatcher_enqueue (fx->dispatcher, &spec, &error));
  g_assert_no_error (error);
  enqueue (fx, "nobody", "t", mapped);
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    fetch_expect (fx, "w", "t", 10 * SEC, ids[i]);

  g_assert_true (wn_dispatcher_complete (fx->dispatcher, "full", "w", full, &error));
  g_assert_true (wn_dispatcher_complete (fx->dispatcher, "partial", "w", partial, &error));
  g_assert_true (wn_dispatcher_complete (fx->dispatcher, "missing", "w", missing, &error));
  g_assert_true (wn_dispatcher_complete (fx->dispatcher, "direct", "w", full, &error));
  g_assert_true (wn_dispatcher_complete (fx->dispatcher, "named", "w", partial, &error));
  g_assert_true (wn_dispatcher_complete (fx->dispatcher, "nobody", "w", NULL, &error));
  g_assert_no_error (error);
  settle (fx);
  g_assert_cmpuint (fx->outcomes->len, ==, 6);

  /* The mapping shaped the data in the dispatcher. */
  outcome = outcome_at (fx, 0);
  g_assert_cmpint (outcome->kind, ==, WN_OUTCOME_COMPLETE);
  g_assert_cmpuint (outcome->bindings->len, ==, 2);
  assert_binding (outcome, 0, "reservationId", "\"R-7\"");
  assert_binding (outcome, 1, "warehouseZone", "\"B\"");
  /* an optional miss is skipped */
  outcome = outcome_at (fx, 1);
  g_assert_cmpint (outcome->kind, ==, WN_OUTCOME_COMPLETE);
  g_assert_cmpuint (outcome->bindings->len, ==, 1);
  assert_binding (outcome, 0, "reservationId", "\"R-8\"");
  /* a required miss is a terminal fault, not exhaustion, never retried */
  outcome = outcome_at (fx, 2);
  g_assert_cmpint (outcome->kind, ==, WN_OUTCOME_FAULT);
  g_assert_false (outcome->exhausted);
  g_assert_nonnull (outcome->message);
  g_assert_nonnull (strstr (outcome->message, "output mapping"));
  g_assert_cmpuint (count_phase (fx, WN_PH_FAULT), ==, 1);
  g_assert_cmpuint (count_phase (fx, WN_PH_RETRY_SCHEDULED), ==, 0);
  /* no mapping: the raw output under the output variable (default: the node) */
  outcome = outcome_at (fx, 3);
  g_assert_cmpuint (outcome->bindings->len, ==, 1);
  assert_binding (outcome, 0, "reserve",
                  "{\"reservationId\":\"R-7\",\"warehouse\":{\"zone\":\"B\"},\"extra\":1}");
  outcome = outcome_at (fx, 4);
  assert_binding (outcome, 0, "reserveResult", "{\"reservationId\":\"R-8\"}");
  /* no body: mapping skipped, nothing bound */
  outcome = outcome_at (fx, 5);
  g_assert_cmpint (outcome->kind, ==, WN_OUTCOME_COMPLETE);
  g_assert_nonnull (outcome->bindings);
  g_assert_cmpuint (outcome->bindings->len, ==, 0);

  g_assert_cmpuint (count_phase (fx, WN_PH_COMPLETED), ==, 5);
  g_assert_cmpuint (wn_dispatcher_get_n_jobs (fx->dispatcher), ==, 0);
}

static void
test_only_terminal_outcomes_delivered (Fixture      *fx,
                                       gconstpointer user_data)
{
  g_autoptr(WnPolicy) policy = policy_ea_fixed (3, 100 * MSEC);
  g_autoptr(JsonNode) body = wn_test_json ("{\"ok\":1}");
  GError *error = NULL;
  int owners[3];
  char id[8];

  for (guint i = 0; i < 3; i++)
    {
      g_snprintf (id, sizeof id, "j%u", i);
      enqueue_full (fx, id, "t", policy, &owners[i]);
    }

  /* j0 fails twice then completes, j1 fails three times, j2 completes at once. */
  for (guint round = 0; round < 3; round++)
    {
      const char *got;

      while ((got = fetch (fx, "w", "t", 10 * SEC)) != NULL)
        {
          g_autofree char *job = g_strdup (got);

          g_assert_cmpuint (wn_dispatcher_begin_execution (fx->dispatcher, job, "w", &error), >, 0);
          if (g_str_equal (job, "j2") || (g_str_equal (job, "j0") && round == 2))
            g_assert_true (wn_dispatcher_complete (fx->dispatcher, job, "w", body, &error));
          else
            g_assert_true (wn_dispatcher_fail (fx->dispatcher, job, "w", "503", NULL, "down", &error));
          g_assert_no_error (error);
        }
      wn_scheduler_step_by (fx->scheduler, 100 * MSEC);
    }
  wn_scheduler_run_until (fx->scheduler, 10 * SEC);

  /* 5 technical failures, 4 re-arms, but exactly one terminal per job. */
  g_assert_cmpuint (count_phase (fx, WN_PH_RETRY_SCHEDULED), ==, 4);
  g_assert_cmpuint (fx->outcomes->len, ==, 3);
  for (guint i = 0; i < fx->outcomes->len; i++)
    {
      WnOutcome *outcome = outcome_at (fx, i);
      gpointer owner = g_ptr_array_index (fx->owners, i);

      if (owner == &owners[1])
        {
          g_assert_cmpint (outcome->kind, ==, WN_OUTCOME_FAULT);
          g_assert_true (outcome->exhausted);
          g_assert_cmpstr (outcome->job, ==, "j1");
        }
      else
        g_assert_cmpint (outcome->kind, ==, WN_OUTCOME_COMPLETE);
    }
  g_assert_cmpuint (wn_dispatcher_get_n_jobs (fx->dispatcher), ==, 0);
}

/* WorkerTrusted */

static void
test_trusted_fail_forwarded (Fixture      *fx,
                             gconstpointer user_data)
{
  g_autoptr(WnErrorMapper) mapper = sample_mapper (NULL);
  WnRetryPolicy retry = wn_retry_policy_fixed (5, SEC);
  g_autoptr(WnPolicy) policy = policy_new (WN_TRUST_WORKER_TRUSTED, &retry, mapper, NULL);
  g_autoptr(JsonNode) body = wn_test_json ("{\"error\":\"conflict\"}");
  GError *error = NULL;
  WnOutcome *outcome;
  const WnEvent *event;

  enqueue (fx, "j1", "t", policy);
  fetch_expect (fx, "w", "t", 10 * SEC, "j1");
  /* 409 would classify as a BPMN error, and retries are left: neither applies. */
  g_assert_true (wn_dispatcher_fail (fx->dispatcher, "j1", "w", "409", body, NULL, &error));
  g_assert_no_error (error);
  settle (fx);

  g_assert_cmpuint (fx->outcomes->len, ==, 1);
  outcome = outcome_at (fx, 0);
  g_assert_cmpint (outcome->kind, ==, WN_OUTCOME_FAULT);
  g_assert_true (outcome->exhausted);
  g_assert_cmpstr (outcome->code, ==, "409");
  g_assert_cmpstr (outcome->message, ==, "409: conflict");
  g_assert_cmpuint (count_phase (fx, WN_PH_BPMN_ERROR), ==, 0);
  g_assert_cmpuint (count_phase (fx, WN_PH_RETRY_SCHEDULED), ==, 0);
  event = nth_event (fx, WN_PH_FAULT, 0);
  g_assert_cmpint (event->trust, ==, WN_TRUST_WORKER_TRUSTED);
  g_assert_cmpuint (wn_dispatcher_get_n_jobs (fx->dispatcher), ==, 0);
}

static void
test_ea_rejects_verdicts (Fixture      *fx,
                          gconstpointer user_data)
{
  g_autoptr(WnPolicy) policy = policy_ea_fixed (3, SEC);
  g_autoptr(JsonNode) status = wn_test_json ("\"held\"");
  g_autoptr(GArray) bindings = wn_bindings_new ();
  GError *error = NULL;
  Snapshot before;
  const WnEvent *rejected;

  enqueue (fx, "j1", "t", policy);
  fetch_expect (fx, "w", "t", 10 * SEC, "j1");
  before = snapshot (fx, "j1");

  g_assert_false (wn_dispatcher_report_bpmn_error (fx->dispatcher, "j1", "w", "PaymentDown", "down", &error));
  g_assert_error (error, WN_DISPATCHER_ERROR, WN_DISPATCHER_ERROR_NOT_TRUSTED);
  g_clear_error (&error);
  rejected = last_event (fx);
  g_assert_cmpint (rejected->phase, ==, WN_PH_REPORT_REJECTED);
  g_assert_cmpstr (rejected->worker, ==, "w");
  g_assert_nonnull (strstr (rejected->error, "report-bpmn-error"));
  g_assert_cmpint (rejected->trust, ==, WN_TRUST_ENGINE_AUTHORITATIVE);

  g_assert_false (wn_dispatcher_report_status (fx->dispatcher, "j1", "w", status, &error));
  g_assert_error (error, WN_DISPATCHER_ERROR, WN_DISPATCHER_ERROR_NOT_TRUSTED);
  g_clear_error (&error);
  g_assert_false (wn_dispatcher_complete_mapped (fx->dispatcher, "j1", "w", bindings, &error));
  g_assert_error (error, WN_DISPATCHER_ERROR, WN_DISPATCHER_ERROR_NOT_TRUSTED);
  g_clear_error (&error);
  g_assert_false (wn_dispatcher_report_fault (fx->dispatcher, "j1", "w", "500", "boom", TRUE, &error));
  g_assert_error (error, WN_DISPATCHER_ERROR, WN_DISPATCHER_ERROR_NOT_TRUSTED);
  g_clear_error (&error);

  assert_unchanged (fx, "j1", &before);
  g_assert_cmpuint (count_phase (fx, WN_PH_REPORT_REJECTED), ==, 4);
  g_assert_cmpuint (count_phase (fx, WN_PH_BPMN_ERROR), ==, 0);
  settle (fx);
  g_assert_cmpuint (fx->outcomes->len, ==, 0);
}

static void
test_trusted_verdicts_forwarded (Fixture      *fx,
                                 gconstpointer user_data)
{
  g_autoptr(WnOutputMapping) mapping = sample_mapping ();
  g_autoptr(WnPolicy) policy = policy_new (WN_TRUST_WORKER_TRUSTED, NULL, NULL, mapping);
  g_autoptr(JsonNode) status = wn_test_json ("\"held\"");
  g_autoptr(JsonNode) raw = wn_test_json ("{\"x\":1}");
  g_autoptr(GArray) bindings = wn_bindings_new ();
  g_autofree char *status_text = NULL;
  GError *error = NULL;
  WnBinding binding;
  WnOutcome *outcome;
  const char *ids[] = { "mapped", "bpmn", "status", "fault", "raw" };

  binding.var = g_strdup ("reservationId");
  binding.value = wn_test_json ("\"R-7\"");
  g_array_append_val (bindings, binding);

  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    enqueue (fx, ids[i], "t", policy);
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    fetch_expect (fx, "w", "t", 10 * SEC, ids[i]);

  g_assert_true (wn_dispatcher_complete_mapped (fx->dispatcher, "mapped", "w", bindings, &error));
  /* the caller keeps its array: the outcome has its own */
  g_array_set_size (bindings, 0);
  g_assert_true (wn_dispatcher_report_bpmn_error (fx->dispatcher, "bpmn", "w", "PaymentDown", "gateway down", &error));
  g_assert_true (wn_dispatcher_report_status (fx->dispatcher, "status", "w", status, &error));
  g_assert_true (wn_dispatcher_report_fault (fx->dispatcher, "fault", "w", "504",
                                             "retries exhausted for topic t after 3 attempts: 504", TRUE, &error));
  /* a raw completion on a trusted job is not re-mapped */
  g_assert_true (wn_dispatcher_complete (fx->dispatcher, "raw", "w", raw, &error));
  g_assert_no_error (error);
  settle (fx);
  g_assert_cmpuint (fx->outcomes->len, ==, 5);

  outcome = outcome_at (fx, 0);
  g_assert_cmpint (outcome->kind, ==, WN_OUTCOME_COMPLETE);
  g_assert_cmpuint (outcome->bindings->len, ==, 1);
  assert_binding (outcome, 0, "reservationId", "\"R-7\"");
  outcome = outcome_at (fx, 1);
  g_assert_cmpint (outcome->kind, ==, WN_OUTCOME_BPMN_ERROR);
  g_assert_cmpstr (outcome->code, ==, "PaymentDown");
  g_assert_cmpstr (outcome->message, ==, "gateway down");
  outcome = outcome_at (fx, 2);
  g_assert_cmpint (outcome->kind, ==, WN_OUTCOME_STATUS);
  status_text = to_json (outcome->status);
  g_assert_cmpstr (status_text, ==, "\"held\"");
  outcome = outcome_at (fx, 3);
  g_assert_cmpint (outcome->kind, ==, WN_OUTCOME_FAULT);
  g_assert_true (outcome->exhausted);
  g_assert_cmpstr (outcome->code, ==, "504");
  g_assert_cmpstr (outcome->message, ==, "retries exhausted for topic t after 3 attempts: 504");
  outcome = outcome_at (fx, 4);
  g_assert_cmpint (outcome->kind, ==, WN_OUTCOME_COMPLETE);
  assert_binding (outcome, 0, "reserve", "{\"x\":1}");

  g_assert_cmpstr (nth_event (fx, WN_PH_BPMN_ERROR, 0)->code, ==, "PaymentDown");
  g_assert_cmpuint (count_phase (fx, WN_PH_STATUS), ==, 1);
  g_assert_cmpuint (count_phase (fx, WN_PH_FAULT), ==, 1);
  g_assert_cmpuint (count_phase (fx, WN_PH_COMPLETED), ==, 2);
  g_assert_cmpuint (count_phase (fx, WN_PH_RETRY_SCHEDULED), ==, 0);
}

/* The journal: sequence numbers are the same whether or not anybody listens. */
static guint64
scripted_run (gboolean listen)
{
  Fixture fx_storage;
  Fixture *fx = &fx_storage;
  g_autoptr(WnPolicy) policy = policy_ea_fixed (2, SEC);
  g_autoptr(JsonNode) body = wn_test_json ("{}");
  GError *error = NULL;
  guint64 n;

  memset (fx, 0, sizeof *fx);
  fixture_set_up (fx, listen ? NULL : GINT_TO_POINTER (1));
  enqueue (fx, "j1", "t", policy);
  fetch_expect (fx, "w", "t", SEC, "j1");
  wn_dispatcher_begin_execution (fx->dispatcher, "j1", "w", &error);
  wn_dispatcher_extend_lock (fx->dispatcher, "j1", "w", 2 * SEC, &error);
  g_assert_no_error (error);
  g_assert_false (wn_dispatcher_complete (fx->dispatcher, "j1", "x", body, &error));
  g_clear_error (&error);
  wn_dispatcher_fail (fx->dispatcher, "j1", "w", "503", NULL, NULL, &error);
  advance_to (fx, SEC);
  fetch_expect (fx, "w", "t", SEC, "j1");
  advance_to (fx, 3 * SEC);
  fetch_expect (fx, "w", "t", SEC, "j1");
  wn_dispatcher_fail (fx->dispatcher, "j1", "w", "503", NULL, NULL, &error);
  g_assert_no_error (error);
  settle (fx);
  g_assert_cmpuint (fx->outcomes->len, ==, 1);
  if (listen)
    g_assert_cmpuint (fx->events->len, ==, wn_journal_get_n_events (fx->journal));
  n = wn_journal_get_n_events (fx->journal);
  fixture_tear_down (fx, NULL);
  return n;
}

static void
test_journal_seq_without_listeners (void)
{
  guint64 with = scripted_run (TRUE);
  guint64 without = scripted_run (FALSE);

  g_assert_cmpuint (with, >, 10);
  g_assert_cmpuint (with, ==, without);
}

/* Freeing the dispatcher with deliveries and wakes still pending cancels them. */
static void
test_free_with_pending (void)
{
  WnScheduler *scheduler = wn_scheduler_new ();
  WnJournal *journal = wn_journal_new ();
  g_autoptr(GArray) wakes = g_array_new (FALSE, FALSE, sizeof (WnTime));
  g_autoptr(JsonNode) body = wn_test_json ("{}");
  const char *topics[] = { "t" };
  WnDispatcher *dispatcher;
  WnJobSpec spec;
  GError *error = NULL;
  WnJobInfo info;

  dispatcher = wn_dispatcher_new (scheduler, journal, NULL, NULL, NULL);
  memset (&spec, 0, sizeof spec);
  spec.id = "j1";
  spec.topic = "t";
  g_assert_true (wn_dispatcher_enqueue (dispatcher, &spec, &error));
  g_assert_true (wn_dispatcher_fetch (dispatcher, "w", topics, 1, SEC, &info));
  g_assert_true (wn_dispatcher_complete (dispatcher, "j1", "w", body, &error));
  g_assert_no_error (error);
  wn_dispatcher_wait (dispatcher, topics, 1, record_wake_cb, wakes);
  spec.id = "j2";
  g_assert_true (wn_dispatcher_enqueue (dispatcher, &spec, &error));
  g_assert_cmpuint (wn_scheduler_get_n_pending (scheduler), ==, 2);

  wn_dispatcher_free (dispatcher);
  g_assert_cmpuint (wn_scheduler_get_n_pending (scheduler), ==, 0);
  wn_scheduler_run_until (scheduler, 10 * SEC);
  g_assert_cmpuint (wakes->len, ==, 0);
  wn_journal_free (journal);
  wn_scheduler_free (scheduler);
}

#define ADD(path, func) \
  g_test_add ("/engine/Dispatcher/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/engine/Dispatcher/heap/order-and-positions", test_heap_order_and_positions);
  g_test_add_func ("/engine/Dispatcher/heap/logarithmic", test_heap_logarithmic);

  ADD ("enqueue-fetch-complete", test_enqueue_fetch_complete);
  ADD ("wait-wakes-on-enqueue", test_wait_wakes_on_enqueue);
  ADD ("fetch-topics-fifo", test_fetch_topics_fifo);
  ADD ("enqueue-rejects", test_enqueue_rejects);
  ADD ("report-validation-order", test_report_validation_order);
  ADD ("lock-takeover", test_lock_takeover);
  ADD ("extend-lock", test_extend_lock);
  g_test_add_func ("/engine/Dispatcher/fetch-cost-logarithmic", test_fetch_cost_logarithmic);
  ADD ("snapshot-states", test_snapshot_states);
  ADD ("snapshot-next-change", test_snapshot_next_change);
  ADD ("remove-and-foreach", test_remove_and_foreach);
  ADD ("begin-execution", test_begin_execution);
  ADD ("wait-wakes-at-gate", test_wait_wakes_at_gate);
  ADD ("wait-wakes-at-lock-expiry", test_wait_wakes_at_lock_expiry);

  ADD ("engine-authoritative/business-verdicts-terminal", test_ea_business_verdicts_terminal);
  ADD ("engine-authoritative/technical-rearms", test_ea_technical_rearms);
  ADD ("engine-authoritative/default-exhausts", test_ea_default_exhausts);
  ADD ("engine-authoritative/lock-lapses-during-classification", test_ea_lock_lapses_during_classification);
  ADD ("engine-authoritative/mapper-error-is-technical", test_ea_mapper_error_is_technical);
  ADD ("engine-authoritative/complete-maps", test_ea_complete_maps);
  ADD ("engine-authoritative/only-terminal-outcomes", test_only_terminal_outcomes_delivered);
  ADD ("engine-authoritative/rejects-verdicts", test_ea_rejects_verdicts);

  ADD ("worker-trusted/fail-forwarded", test_trusted_fail_forwarded);
  ADD ("worker-trusted/verdicts-forwarded", test_trusted_verdicts_forwarded);

  g_test_add_func ("/engine/Dispatcher/journal-seq-without-listeners", test_journal_seq_without_listeners);
  g_test_add_func ("/engine/Dispatcher/free-with-pending", test_free_with_pending);

  return g_test_run ();
}

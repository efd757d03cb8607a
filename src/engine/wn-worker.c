/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-worker.c — simulated workers: fetch, execute for `after`, report.
 *
 * Each worker has `concurrency` slots; a slot fetches one job at a time. For an
 * EngineAuthoritative job the slot reports raw results; for a WorkerTrusted job
 * it runs the policy itself inside its one lock (semantics §5): map the output,
 * self-classify, fall back to the error mapper, retry in-process while the
 * backoff fits before the lock deadline.
 */
#include "config.h"

#include <string.h>

#include "wn-engine-private.h"
#include "wn-dispatcher-private.h"
#include "wn-duration.h"

typedef enum {
  SLOT_IDLE,
  SLOT_WAITING,
  SLOT_BUSY,
  SLOT_DEAD,
} SlotState;

typedef struct {
  WnSimWorker *worker;
  SlotState    state;
  guint        wait_id;
  WnTimerId    timer;
  /* the job in hand */
  char        *job;            /* in `job_buffer` */
  char        *job_buffer;     /* kept from job to job */
  gsize        job_buffer_size;
  JsonNode    *input;
  WnPolicy    *policy;
  WnTime       deadline;
  guint        execution;      /* the job's execution number (what responses select on) */
  guint        lost;           /* the job's executions lost to takeovers before this lock */
  WnResponse  *response;
  gboolean     parked_off;     /* idle because its worker is off (wn_engine_set_topic_simulated) */
} Slot;

struct _WnSimWorker
{
  WnEngine   *engine;
  char       *id;
  char       *topic;
  const char *topics[1];
  WnTime      lock_duration;
  GPtrArray  *responses;      /* WnResponse*, borrowed from the scenario; NULL = implicit */
  GQueue      injections;     /* WnInjection* aimed at this worker (the engine owns them) */
  Slot       *slots;
  guint       n_slots;
  JsonNode   *empty_body;     /* {}, what an implicit worker completes with; shared */
  gboolean    off;            /* switched off for its topic: slots stop fetching */
};

static void slot_fetch (Slot *slot);

/* The body of an implicit worker's completion: one {} for all its jobs (bodies
 * are committed to the variables by reference and never modified in place). */
static JsonNode *
empty_body (WnSimWorker *worker)
{
  if (worker->empty_body == NULL)
    {
      worker->empty_body = json_node_new (JSON_NODE_OBJECT);
      json_node_take_object (worker->empty_body, json_object_new ());
    }
  return worker->empty_body;
}

/* What a completing response reports: its body, and for `"hang": true` (no
 * body of its own) or an implicit worker {} — so a hang goes through the output
 * mapping like every other completion. */
static JsonNode *
completion_body (Slot       *slot,
                 WnResponse *r)
{
  if (r == NULL || (r->kind == WN_RESPONSE_HANG && r->body == NULL))
    return empty_body (slot->worker);
  return r->body;
}

/* Copy the job's id into the slot's buffer: a slot runs job after job, and
 * keeping the buffer spares an allocation per job. (The output variable is not
 * needed: a direct completion goes under the task's, which the engine knows.) */
static void
slot_set_job (Slot       *slot,
              const char *job)
{
  gsize job_size = strlen (job) + 1;

  if (job_size > slot->job_buffer_size)
    {
      slot->job_buffer_size = MAX (64, job_size);
      g_free (slot->job_buffer);
      slot->job_buffer = g_malloc (slot->job_buffer_size);
    }
  slot->job = memcpy (slot->job_buffer, job, job_size);
}

static void
slot_drop_job (Slot *slot)
{
  slot->job = NULL;
  g_clear_pointer (&slot->input, json_node_unref);
  g_clear_pointer (&slot->policy, wn_policy_unref);
  g_clear_pointer (&slot->response, wn_response_unref);
  slot->execution = 0;
  slot->lost = 0;
}

static void
emit_job_event (Slot        *slot,
                WnEventKind  kind,
                WnEventPhase phase,
                WnEvent     *ev)
{
  WnEngine *engine = slot->worker->engine;
  WnJobInfo info;

  if (!wn_journal_is_active (engine->journal))
    {
      wn_journal_skip (engine->journal);
      return;
    }
  ev->kind = kind;
  ev->phase = phase;
  ev->job = slot->job;
  ev->topic = slot->worker->topic;
  ev->worker = slot->worker->id;
  ev->trust = slot->policy ? slot->policy->trust : WN_TRUST_UNSET;
  if (wn_dispatcher_lookup (engine->dispatcher, slot->job, &info))
    {
      ev->instance = info.instance;
      ev->node = info.node;
    }
  _wn_engine_emit (engine, ev);
}

/* ---- choosing a response ---- */

static WnResponse *
pick_random (WnEngine   *engine,
             WnResponse *response)
{
  double total = 0, draw;

  for (guint i = 0; i < response->n_choices; i++)
    total += response->choices[i].p;
  draw = wn_rng_double (&engine->rng) * total;
  for (guint i = 0; i < response->n_choices; i++)
    {
      if (draw < response->choices[i].p)
        return response->choices[i].response;
      draw -= response->choices[i].p;
    }
  return response->choices[response->n_choices - 1].response;
}

static WnResponse *
choose_response (Slot *slot)
{
  WnSimWorker *worker = slot->worker;
  WnResponse *chosen = _wn_engine_take_injection (worker->engine, worker);

  if (chosen == NULL && worker->responses != NULL && worker->responses->len > 0)
    {
      for (guint i = 0; i < worker->responses->len && chosen == NULL; i++)
        {
          WnResponse *r = g_ptr_array_index (worker->responses, i);
          if (wn_response_matches (r, slot->execution, slot->input, NULL))
            chosen = wn_response_ref (r);
        }
      if (chosen == NULL)
        chosen = wn_response_ref (g_ptr_array_index (worker->responses, worker->responses->len - 1));
    }
  if (chosen == NULL)
    return NULL;  /* implicit worker: complete at once with {} */
  while (chosen->kind == WN_RESPONSE_RANDOM && chosen->n_choices > 0)
    {
      WnResponse *picked = wn_response_ref (pick_random (worker->engine, chosen));
      wn_response_unref (chosen);
      chosen = picked;
    }
  return chosen;
}

/* ---- reporting ---- */

static char *
fault_text (const char *code,
            const char *message)
{
  if (code != NULL && message != NULL)
    return g_strdup_printf ("%s: %s", code, message);
  if (code != NULL)
    return g_strdup_printf ("code %s", code);
  return g_strdup (message ? message : "worker failed");
}

static char *
worker_error_text (const WnResponse *r)
{
  if (r->message != NULL)
    return g_strdup (r->message);
  if (r->bpmn_code != NULL)
    return g_strdup_printf ("BPMN error %s", r->bpmn_code);
  if (r->status != NULL)
    {
      g_autofree char *status = json_to_string (r->status, FALSE);
      return g_strdup_printf ("status %s", status);
    }
  return g_strdup (r->cause ? r->cause : "worker error");
}

static void
report_finished (Slot *slot)
{
  slot_drop_job (slot);
  slot->state = SLOT_IDLE;
  slot_fetch (slot);
}

static void execute (Slot *slot);

static void
retry_cb (gpointer data)
{
  Slot *slot = data;

  slot->timer = 0;
  execute (slot);
}

/* Whether this slot still holds a live lock on its job. */
static gboolean
slot_holds_lock (Slot *slot)
{
  WnEngine *engine = slot->worker->engine;
  WnJobInfo info;

  return wn_dispatcher_lookup (engine->dispatcher, slot->job, &info) &&
         g_strcmp0 (info.worker, slot->worker->id) == 0 &&
         wn_scheduler_now (engine->scheduler) <= info.deadline;
}

/* WorkerTrusted: a technical failure — retry in-process or give up. */
static void
trusted_technical (Slot       *slot,
                   const char *code,
                   JsonNode   *body,
                   const char *message)
{
  WnEngine *engine = slot->worker->engine;
  WnDispatcher *d = engine->dispatcher;
  WnClassification c = { 0 };
  g_autofree char *text = fault_text (code, message);
  WnTime now = wn_scheduler_now (engine->scheduler);
  WnTime backoff = 0;
  /* the policy's n counts the executions that failed, as the dispatcher's does for
   * an EngineAuthoritative job: one cut off by a lapsed lock is no attempt */
  guint n = slot->execution - slot->lost;

  /* the error mapper as a fallback for a raw fault */
  wn_error_mapper_classify (slot->policy->mapper, code, body, &c);
  if (c.mapper_error != NULL)
    {
      WnEvent ev = WN_EVENT_INIT (WN_EV_JOB, WN_PH_MAPPER_ERROR);
      ev.error = c.mapper_error;
      emit_job_event (slot, WN_EV_JOB, WN_PH_MAPPER_ERROR, &ev);
    }
  if (c.kind == WN_CLASS_BPMN_ERROR)
    {
      wn_dispatcher_report_bpmn_error (d, slot->job, slot->worker->id, c.bpmn_code, c.bpmn_message, NULL);
      wn_classification_clear (&c);
      report_finished (slot);
      return;
    }
  if (c.kind == WN_CLASS_STATUS)
    {
      wn_dispatcher_report_status (d, slot->job, slot->worker->id, c.status, NULL);
      wn_classification_clear (&c);
      report_finished (slot);
      return;
    }
  wn_classification_clear (&c);

  if (!slot_holds_lock (slot))
    {
      /* the lock lapsed while this execution ran: the worker has nothing left to
       * retry or exhaust; its report is refused and journalled as such */
      wn_dispatcher_report_fault (d, slot->job, slot->worker->id, code, text, FALSE, NULL);
      report_finished (slot);
      return;
    }
  if (wn_retry_policy_retry (&slot->policy->retry, n, &engine->rng, &backoff) &&
      backoff < slot->deadline - now)
    {
      WnEvent ev = WN_EVENT_INIT (WN_EV_JOB, WN_PH_WORKER_RETRY_SCHEDULED);

      ev.attempt = slot->execution;
      ev.backoff_us = backoff;
      ev.not_before_us = now + backoff;
      ev.code = code;
      ev.error = text;
      engine->worker_retries++;
      emit_job_event (slot, WN_EV_JOB, WN_PH_WORKER_RETRY_SCHEDULED, &ev);
      slot->timer = wn_scheduler_after (engine->scheduler, backoff, retry_cb, slot);
      return;
    }
  else
    {
      WnEvent ev = WN_EVENT_INIT (WN_EV_JOB, WN_PH_RETRIES_EXHAUSTED);
      g_autofree char *diagnostic =
        g_strdup_printf ("retries exhausted for topic %s after %u attempts: %s",
                         slot->worker->topic, slot->execution, text);

      ev.attempts = slot->execution;
      ev.code = code;
      ev.error = text;
      engine->worker_exhausted++;
      emit_job_event (slot, WN_EV_JOB, WN_PH_RETRIES_EXHAUSTED, &ev);
      wn_dispatcher_report_fault (d, slot->job, slot->worker->id, code, diagnostic, TRUE, NULL);
      report_finished (slot);
    }
}

static void
finish_trusted (Slot       *slot,
                WnResponse *r)
{
  WnDispatcher *d = slot->worker->engine->dispatcher;
  const char *worker = slot->worker->id;

  switch (r ? r->kind : WN_RESPONSE_COMPLETE)
    {
    case WN_RESPONSE_COMPLETE:
    case WN_RESPONSE_HANG:
      {
        JsonNode *body = completion_body (slot, r);

        if (body != NULL && slot->policy->mapping != NULL)
          {
            g_autoptr(GArray) bindings = wn_bindings_new ();
            g_autoptr(GError) error = NULL;

            if (!wn_output_mapping_apply (slot->policy->mapping, body, bindings, &error))
              {
                wn_dispatcher_report_fault (d, slot->job, worker, NULL, error->message, FALSE, NULL);
                report_finished (slot);
                return;
              }
            _wn_dispatcher_complete_mapped_take (d, slot->job, worker, g_steal_pointer (&bindings), NULL);
          }
        else
          {
            /* the direct default: the whole body (if any) under the output
             * variable, which the engine knows from the task */
            _wn_dispatcher_complete_direct (d, slot->job, worker, body, NULL);
          }
        report_finished (slot);
        return;
      }

    case WN_RESPONSE_WORKER_ERROR:
      if (r->bpmn_code != NULL)
        {
          wn_dispatcher_report_bpmn_error (d, slot->job, worker, r->bpmn_code, r->message, NULL);
          report_finished (slot);
        }
      else if (r->status != NULL)
        {
          wn_dispatcher_report_status (d, slot->job, worker, r->status, NULL);
          report_finished (slot);
        }
      else
        {
          g_autofree char *text = worker_error_text (r);
          trusted_technical (slot, NULL, NULL, text);
        }
      return;

    case WN_RESPONSE_FAIL:
      trusted_technical (slot, r->code, r->body, r->message);
      return;

    case WN_RESPONSE_CRASH:
    case WN_RESPONSE_RANDOM:
    default:
      g_assert_not_reached ();
    }
}

static void
finish_authoritative (Slot       *slot,
                      WnResponse *r)
{
  WnDispatcher *d = slot->worker->engine->dispatcher;
  const char *worker = slot->worker->id;

  switch (r ? r->kind : WN_RESPONSE_COMPLETE)
    {
    case WN_RESPONSE_COMPLETE:
    case WN_RESPONSE_HANG:
      wn_dispatcher_complete (d, slot->job, worker, completion_body (slot, r), NULL);
      break;

    case WN_RESPONSE_FAIL:
      wn_dispatcher_fail (d, slot->job, worker, r->code, r->body, r->message, NULL);
      break;

    case WN_RESPONSE_WORKER_ERROR:
      {
        /* its self-classification means nothing here: a raw fault with its text */
        g_autofree char *text = worker_error_text (r);
        wn_dispatcher_fail (d, slot->job, worker, NULL, NULL, text, NULL);
        break;
      }

    case WN_RESPONSE_CRASH:
    case WN_RESPONSE_RANDOM:
    default:
      g_assert_not_reached ();
    }
  report_finished (slot);
}

static void
finish_cb (gpointer data)
{
  Slot *slot = data;
  WnResponse *r = slot->response;

  slot->timer = 0;
  if (slot->policy->trust == WN_TRUST_WORKER_TRUSTED)
    finish_trusted (slot, r);
  else
    finish_authoritative (slot, r);
}

/* An execution whose `after` would end past the end of virtual time cannot
 * finish: the worker reports it as a technical failure saying so, which its
 * trust mode retries or exhausts like any other, rather than wait for ever. */
static void
overrun_end_of_time (Slot *slot)
{
  WnEngine *engine = slot->worker->engine;
  g_autofree char *after = wn_duration_format (slot->response->after);
  g_autofree char *now = wn_time_format_clock (wn_scheduler_now (engine->scheduler));
  g_autofree char *message =
    g_strdup_printf ("an execution of %s from %s would end past the end of virtual time (2^63 µs)", after, now);

  if (slot->policy->trust == WN_TRUST_WORKER_TRUSTED)
    trusted_technical (slot, NULL, NULL, message);
  else
    {
      wn_dispatcher_fail (engine->dispatcher, slot->job, slot->worker->id, NULL, NULL, message, NULL);
      report_finished (slot);
    }
}

/* One call of the worker function. */
static void
execute (Slot *slot)
{
  WnEngine *engine = slot->worker->engine;
  g_autoptr(GError) error = NULL;
  guint n;

  n = wn_dispatcher_begin_execution (engine->dispatcher, slot->job, slot->worker->id, &error);
  if (n == 0)
    {
      /* the job is gone or the lock lapsed meanwhile: nothing to run */
      report_finished (slot);
      return;
    }
  engine->executions++;
  slot->execution = n;
  g_clear_pointer (&slot->response, wn_response_unref);
  slot->response = choose_response (slot);

  if (slot->response != NULL && slot->response->kind == WN_RESPONSE_CRASH)
    {
      /* the worker process dies with the job in hand: it never reports, and this
       * slot is gone for the rest of the run; the lock will expire (and the
       * dispatcher's snapshots say whose lock it is) */
      wn_dispatcher_holder_gone (engine->dispatcher, slot->job, slot->worker->id);
      slot_drop_job (slot);
      slot->state = SLOT_DEAD;
      return;
    }
  slot->timer = wn_scheduler_after (engine->scheduler,
                                    slot->response ? slot->response->after : 0,
                                    finish_cb, slot);
  if (slot->timer == 0)
    overrun_end_of_time (slot);
}

static void
wake_cb (gpointer data)
{
  Slot *slot = data;

  slot->wait_id = 0;
  slot->state = SLOT_IDLE;
  slot_fetch (slot);
}

static void
slot_fetch (Slot *slot)
{
  WnSimWorker *worker = slot->worker;
  WnEngine *engine = worker->engine;
  WnJobInfo info;

  if (slot->state == SLOT_DEAD)
    return;
  if (worker->off)
    {
      slot->state = SLOT_IDLE;
      slot->parked_off = TRUE;
      return;
    }
  if (!wn_dispatcher_fetch (engine->dispatcher, worker->id, worker->topics, 1,
                            worker->lock_duration, &info))
    {
      slot->state = SLOT_WAITING;
      slot->wait_id = wn_dispatcher_wait (engine->dispatcher, worker->topics, 1, wake_cb, slot);
      return;
    }
  slot->state = SLOT_BUSY;
  slot_set_job (slot, info.id);
  slot->input = info.input ? json_node_ref (info.input) : NULL;
  slot->policy = info.policy ? wn_policy_ref (info.policy) : wn_policy_resolve (NULL, NULL);
  slot->deadline = info.deadline;
  slot->lost = info.lost;
  execute (slot);
}

static void
start_cb (gpointer data)
{
  slot_fetch (data);
}

/* ---- API ---- */

WnSimWorker *
_wn_sim_worker_new (WnEngine             *engine,
                    const WnWorkerConfig *config,
                    const char           *implicit_topic)
{
  WnSimWorker *self = g_new0 (WnSimWorker, 1);
  WnTime max_lock = wn_dispatcher_get_max_lock (engine->dispatcher);

  self->engine = engine;
  g_queue_init (&self->injections);
  if (config != NULL)
    {
      self->id = g_strdup (config->id);
      self->topic = g_strdup (config->topic);
      self->lock_duration = config->has_lock_duration ? config->lock_duration : max_lock;
      self->responses = config->responses;
      self->n_slots = MAX (1, config->concurrency);
    }
  else
    {
      self->id = g_strdup_printf ("implicit:%s", implicit_topic);
      self->topic = g_strdup (implicit_topic);
      self->lock_duration = max_lock;
      self->n_slots = 1;
    }
  self->topics[0] = self->topic;
  self->slots = g_new0 (Slot, self->n_slots);
  for (guint i = 0; i < self->n_slots; i++)
    self->slots[i].worker = self;
  return self;
}

void
_wn_sim_worker_start (WnSimWorker *self)
{
  for (guint i = 0; i < self->n_slots; i++)
    wn_scheduler_post (self->engine->scheduler, start_cb, &self->slots[i]);
}

void
_wn_sim_worker_free (WnSimWorker *self)
{
  for (guint i = 0; i < self->n_slots; i++)
    {
      Slot *slot = &self->slots[i];

      if (slot->wait_id != 0)
        wn_dispatcher_cancel_wait (self->engine->dispatcher, slot->wait_id);
      if (slot->timer != 0)
        wn_scheduler_cancel (self->engine->scheduler, slot->timer);
      slot_drop_job (slot);
      g_free (slot->job_buffer);
    }
  g_queue_clear (&self->injections);
  g_clear_pointer (&self->empty_body, json_node_unref);
  g_free (self->slots);
  g_free (self->id);
  g_free (self->topic);
  g_free (self);
}

const char *
_wn_sim_worker_get_id (WnSimWorker *self)
{
  return self->id;
}

const char *
_wn_sim_worker_get_topic (WnSimWorker *self)
{
  return self->topic;
}

GQueue *
_wn_sim_worker_get_injections (WnSimWorker *self)
{
  return &self->injections;
}

/* Off: waiting slots stop waiting, busy ones finish the job in hand; no slot
 * fetches again until the worker is on, when the parked ones fetch at once. */
void
_wn_sim_worker_set_off (WnSimWorker *self,
                        gboolean     off)
{
  self->off = off;
  for (guint i = 0; i < self->n_slots; i++)
    {
      Slot *slot = &self->slots[i];

      if (off && slot->state == SLOT_WAITING)
        {
          wn_dispatcher_cancel_wait (self->engine->dispatcher, slot->wait_id);
          slot->wait_id = 0;
          slot->state = SLOT_IDLE;
          slot->parked_off = TRUE;
        }
      else if (!off && slot->parked_off)
        {
          slot->parked_off = FALSE;
          wn_scheduler_post (self->engine->scheduler, start_cb, slot);
        }
    }
}

gboolean
_wn_sim_worker_get_off (WnSimWorker *self)
{
  return self->off;
}

guint
_wn_sim_worker_get_n_live_slots (WnSimWorker *self)
{
  guint n = 0;

  for (guint i = 0; i < self->n_slots; i++)
    if (self->slots[i].state != SLOT_DEAD)
      n++;
  return n;
}

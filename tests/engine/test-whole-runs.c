/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Whole runs of the bundled examples through the facade. */
#include "wn-test-util.h"

#include <stdarg.h>
#include <string.h>

static WnProcess *
load_example (const char *name)
{
  g_autoptr(GError) error = NULL;
  const char *dir = g_getenv ("WINNOW_EXAMPLES_DIR");
  g_autofree char *path = g_build_filename (dir ? dir : "data/examples", name, NULL);
  WnProcess *process = wn_load_process_file (path, NULL, &error);

  g_assert_no_error (error);
  return process;
}

/* A run recorded into a WnTestRun so the shared invariant checks apply
 * (`scenario` NULL: the example's own). */
static WnTestRun *
run_example_with (const char            *name,
                  WnScenario            *scenario,
                  const WnEngineOptions *options)
{
  WnTestRun *run = g_new0 (WnTestRun, 1);

  run->process = load_example (name);
  run->engine = wn_engine_new (run->process, scenario, options);
  run->events = wn_test_record (run->engine);
  wn_test_run_until (run, WN_TIME_NEVER);
  return run;
}

static WnTestRun *
run_example (const char            *name,
             const WnEngineOptions *options)
{
  return run_example_with (name, NULL, options);
}

static const char *
end_of (WnTestRun *run, const char *instance)
{
  WnInstanceInfo info;

  g_assert_true (wn_engine_lookup_instance (run->engine, instance, &info));
  return info.state == WN_INSTANCE_COMPLETED ? info.end_node : wn_instance_state_to_string (info.state);
}

/* Instances i1, i2, … ended as the NULL-terminated list says: at that end
 * event, or in that state ("terminated"). */
static void
assert_ends (WnTestRun  *run,
             const char *first,
             ...)
{
  va_list ends;
  guint i = 1;

  va_start (ends, first);
  for (const char *end = first; end != NULL; end = va_arg (ends, const char *), i++)
    {
      g_autofree char *id = g_strdup_printf ("i%u", i);

      g_assert_cmpstr (end_of (run, id), ==, end);
    }
  va_end (ends);
}

/* The one job of `node` canceled was `instance`'s, at `t`, behind a backoff gate. */
static void
assert_canceled_gated (WnTestRun  *run,
                       const char *node,
                       const char *instance,
                       WnTime      t)
{
  const WnEvent *canceled = wn_test_find (run, WN_EV_JOB, WN_PH_CANCELED, node, 0);

  g_assert_nonnull (canceled);
  g_assert_cmpstr (canceled->instance, ==, instance);
  g_assert_cmpint (canceled->t_us, ==, t);
  g_assert_nonnull (strstr (canceled->error, "gated"));
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_CANCELED, NULL), ==, 1);
}

static void
test_worked_example (void)
{
  g_autoptr(WnTestRun) run = run_example ("order-fulfilment.process.json", NULL);
  g_autofree char *rid = wn_test_variable (run, "i1", "reservationId");
  g_autofree char *zone = wn_test_variable (run, "i1", "warehouseZone");
  g_autofree char *status = wn_test_variable (run, "i2", "paymentStatus");
  const WnEvent *completed;

  assert_ends (run, "shipped", "held", "payment-failed", NULL);
  /* reserve-stock fails twice and succeeds on attempt 3, 300ms apart, in-process */
  completed = wn_test_find (run, WN_EV_JOB, WN_PH_COMPLETED, "reserve-stock", 0);
  g_assert_nonnull (completed);
  g_assert_cmpuint (completed->attempt, ==, 3);
  g_assert_cmpint (completed->t_us, ==, 900000);
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_WORKER_RETRY_SCHEDULED, "reserve-stock"), ==, 6);
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_LOCKED, "reserve-stock"), ==, 3);
  g_assert_cmpint (wn_test_find (run, WN_EV_JOB, WN_PH_WORKER_RETRY_SCHEDULED, "reserve-stock", 0)->backoff_us, ==, 300000);
  g_assert_cmpstr (rid, ==, "\"R-1001\"");
  g_assert_cmpstr (zone, ==, "\"A-3\"");
  g_assert_cmpstr (status, ==, "\"DECLINED\"");
  g_assert_cmpuint (wn_test_count (run, WN_EV_FAULT, WN_PH_CAUGHT, "gateway-down"), ==, 1);
}

static void
test_worked_example_authoritative (void)
{
  WnEngineOptions options = { 0 };
  g_autoptr(WnTestRun) run = NULL;

  options.trust = WN_TRUST_ENGINE_AUTHORITATIVE;
  run = run_example ("order-fulfilment.process.json", &options);
  assert_ends (run, "terminated", "terminated", "terminated", NULL);
  /* the dispatcher re-armed reserve-stock behind gates, and authorize exhausted */
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_RETRY_SCHEDULED, "reserve-stock"), ==, 6);
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_WORKER_RETRY_SCHEDULED, NULL), ==, 0);
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_RETRIES_EXHAUSTED, "authorize-payment"), ==, 3);
  g_assert_cmpuint (wn_test_count (run, WN_EV_FAULT, WN_PH_CAUGHT, NULL), ==, 0);
}

static GString *
journal_text (const char *name,
              guint64     seed)
{
  g_autoptr(WnProcess) process = load_example (name);
  g_autoptr(GPtrArray) events = NULL;
  WnEngineOptions options = { 0 };
  WnEngine *engine;

  options.has_seed = TRUE;
  options.seed = seed;
  engine = wn_engine_new (process, NULL, &options);
  events = wn_test_record (engine);
  wn_engine_run (engine, WN_TIME_NEVER);
  wn_engine_free (engine);
  return wn_test_journal_of (events);
}

static void
test_deterministic (void)
{
  g_autoptr(GString) a = journal_text ("order-fulfilment-authoritative.process.json", 7);
  g_autoptr(GString) b = journal_text ("order-fulfilment-authoritative.process.json", 7);
  g_autoptr(GString) c = journal_text ("order-fulfilment-authoritative.process.json", 8);

  g_assert_cmpuint (a->len, >, 1000);
  g_assert_cmpstr (a->str, ==, b->str);
  /* jitter draws differ with another seed */
  g_assert_cmpstr (a->str, !=, c->str);
}

/* Every bundled example (whatever data/examples holds), in each trust mode
 * and onExhausted mode: loads, runs and keeps the invariants. */
static void
test_every_example_keeps_invariants (void)
{
  const char *dir = g_getenv ("WINNOW_EXAMPLES_DIR");
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) listing = g_dir_open (dir ? dir : "data/examples", 0, &error);
  const char *name;
  guint n = 0;

  g_assert_no_error (error);
  while ((name = g_dir_read_name (listing)) != NULL)
    {
      if (!g_str_has_suffix (name, ".process.json"))
        continue;
      for (guint mode = 0; mode < 3; mode++)
        {
          WnEngineOptions options = { 0 };
          g_autoptr(WnTestRun) run = NULL;

          if (mode == 1)
            options.trust = WN_TRUST_ENGINE_AUTHORITATIVE;
          else if (mode == 2)
            {
              options.trust = WN_TRUST_WORKER_TRUSTED;
              options.on_exhausted = WN_ON_EXHAUSTED_INCIDENT;
            }
          run = run_example (name, &options);
          g_assert_cmpuint (run->events->len, >, 0);
        }
      n++;
    }
  /* the seven v1 examples and the eight of Engine II at least */
  g_assert_cmpuint (n, >=, 15);
}

/* Engine II examples: what each shows happens. */
static void
test_payment_timeout (void)
{
  g_autoptr(WnTestRun) run = run_example ("payment-timeout.process.json", NULL);

  assert_ends (run, "shipped", "timed-out", "payment-declined", NULL);
  /* B's charge is behind its fourth backoff gate when the 2-minute timer fires */
  assert_canceled_gated (run, "charge", "i2", 120 * WN_USEC_PER_SEC);
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_RETRY_SCHEDULED, NULL), ==, 5);
  g_assert_cmpuint (wn_test_count (run, WN_EV_FAULT, WN_PH_CAUGHT, "declined"), ==, 1);
}

static void
test_order_terminate (void)
{
  g_autoptr(WnTestRun) run = run_example ("order-terminate.process.json", NULL);
  const WnEvent *canceled = wn_test_find (run, WN_EV_JOB, WN_PH_CANCELED, "pack", 0);

  assert_ends (run, "done", "rejected", NULL);
  g_assert_nonnull (canceled);
  g_assert_cmpstr (canceled->job, ==, "i2/j2");
  g_assert_cmpstr (canceled->worker, ==, "packer");
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_REPORT_REJECTED, NULL), ==, 1);
}

/* User tasks finished by the scenario's rules (chosen by `when`), and one
 * nobody finishes, interrupted by its escalation timer. */
static void
test_manual_approval (void)
{
  g_autoptr(WnTestRun) run = run_example ("manual-approval.process.json", NULL);
  g_autofree char *by = wn_test_variable (run, "i1", "approvedBy");

  assert_ends (run, "refunded", "refused", "escalated", "refunded", NULL);
  g_assert_cmpstr (by, ==, "\"ana\"");
  g_assert_cmpuint (wn_test_count (run, WN_EV_USER_TASK, WN_PH_CREATED, "approve"), ==, 3);
  g_assert_cmpuint (wn_test_count (run, WN_EV_USER_TASK, WN_PH_COMPLETED, "approve"), ==, 1);
  g_assert_cmpint (wn_test_find (run, WN_EV_TIMER, WN_PH_FIRED, "escalate", 0)->t_us, ==, 600 * WN_USEC_PER_SEC);
  /* the bank is retried by the engine for both refunds that reach it */
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_RETRY_SCHEDULED, NULL), ==, 4);
}

/* A receive task correlated by the order id, an interrupting and a
 * non-interrupting message boundary, a timeout, and a message that is lost. */
static void
test_payment_messages (void)
{
  g_autoptr(WnTestRun) run = run_example ("payment-messages.process.json", NULL);
  g_autofree char *address = wn_test_variable (run, "i1", "address");

  assert_ends (run, "done", "refunded", "timed-out", NULL);
  g_assert_cmpstr (address, ==, "\"12 Rue Neuve\"");
  g_assert_cmpuint (wn_test_count (run, WN_EV_MESSAGE, WN_PH_CORRELATED, NULL), ==, 4);
  g_assert_cmpuint (wn_test_count (run, WN_EV_MESSAGE, WN_PH_LOST, NULL), ==, 1);
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_RETRY_SCHEDULED, NULL), ==, 3);
}

static void
test_invoice_reminder (void)
{
  g_autoptr(WnTestRun) run = run_example ("invoice-reminder.process.json", NULL);

  assert_ends (run, "settled", "reminded", NULL);
  /* each mail's first attempt fails and is retried in-process: two invoices, one reminder */
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_WORKER_RETRY_SCHEDULED, NULL), ==, 3);
  g_assert_cmpuint (wn_test_count (run, WN_EV_MESSAGE, WN_PH_LOST, NULL), ==, 1);
}

/* Parallel iterations, one job each with its own attempts, then sequential
 * ones ended by the completion condition. */
static void
test_batch_payments (void)
{
  g_autoptr(WnTestRun) run = run_example ("batch-payments.process.json", NULL);
  const WnNode *notified = wn_process_find_node (run->process, "notify-end");

  g_assert_cmpstr (end_of (run, "i1"), ==, "done");
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_ENQUEUED, "charge"), ==, 3);
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_RETRY_SCHEDULED, "charge"), ==, 2);
  g_assert_cmpuint (wn_engine_get_end_count (run->engine, notified->index), ==, 2);
  g_assert_cmpuint (wn_test_find (run, WN_EV_NODE, WN_PH_ENTERED, "notify", 2)->loop, ==, 2);
  /* the output collections: one place per iteration */
  {
    g_autofree char *receipts = wn_test_variable (run, "i1", "receipts");
    g_autofree char *acks = wn_test_variable (run, "i1", "acks");

    g_assert_cmpstr (receipts, ==, "[{\"charged\":true},{\"charged\":true},{\"charged\":true}]");
    g_assert_cmpstr (acks, ==, "[false,true,null]");
  }
}

static void
test_reminder_cycle (void)
{
  g_autoptr(WnTestRun) run = run_example ("reminder-cycle.process.json", NULL);
  const WnNode *reminded = wn_process_find_node (run->process, "reminded");
  const WnNode *approved = wn_process_find_node (run->process, "approved");

  g_assert_cmpstr (end_of (run, "i1"), ==, "approved");
  g_assert_cmpuint (wn_test_count (run, WN_EV_TIMER, WN_PH_FIRED, "remind"), ==, 2);
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_WORKER_RETRY_SCHEDULED, NULL), ==, 2);
  g_assert_cmpuint (wn_engine_get_end_count (run->engine, reminded->index), ==, 2);
  g_assert_cmpuint (wn_engine_get_end_count (run->engine, approved->index), ==, 1);
}

/* Event sub-processes: a non-interrupting timer mails beside the fulfilment,
 * an error one takes the declined card, an interrupting message one cancels
 * an order whose charge waits behind a backoff gate. */
static void
test_order_cancellation (void)
{
  g_autoptr(WnTestRun) run = run_example ("order-cancellation.process.json", NULL);

  assert_ends (run, "shipped", "canceled", "payment-declined", NULL);
  assert_canceled_gated (run, "charge", "i2", 50 * WN_USEC_PER_SEC);
  g_assert_cmpuint (wn_test_count (run, WN_EV_TIMER, WN_PH_FIRED, "progress-due"), ==, 2);
  g_assert_cmpuint (wn_test_count (run, WN_EV_FAULT, WN_PH_CAUGHT, "declined-start"), ==, 1);
  g_assert_cmpuint (wn_test_count (run, WN_EV_MESSAGE, WN_PH_LOST, NULL), ==, 1);
}

/* The manual-approval refunds worked by three clerks: tasks wait for them,
 * each clerk takes one at a time, some refunds escalate while waiting. */
static void
test_manual_approval_people (void)
{
  const char *dir = g_getenv ("WINNOW_EXAMPLES_DIR");
  g_autofree char *path = g_build_filename (dir ? dir : "data/examples", "manual-approval.people.scenario.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(WnScenario) scenario = wn_load_scenario_file (path, NULL, &error);
  g_autoptr(WnTestRun) run = NULL;
  const WnNode *refunded;
  const WnNode *escalated;
  guint assigned;

  g_assert_no_error (error);
  run = run_example_with ("manual-approval.process.json", scenario, NULL);
  refunded = wn_process_find_node (run->process, "refunded");
  escalated = wn_process_find_node (run->process, "escalated");
  g_assert_cmpuint (wn_engine_get_end_count (run->engine, refunded->index) +
                    wn_engine_get_end_count (run->engine, escalated->index), ==, 60);
  g_assert_cmpuint (wn_engine_get_end_count (run->engine, escalated->index), >, 0);
  g_assert_cmpuint (wn_engine_get_end_count (run->engine, refunded->index), >, 30);
  assigned = wn_test_count (run, WN_EV_USER_TASK, WN_PH_ASSIGNED, "approve");
  g_assert_cmpuint (assigned, <, 60);
  g_assert_cmpuint (wn_test_count (run, WN_EV_USER_TASK, WN_PH_COMPLETED, "approve"), ==,
                    wn_engine_get_end_count (run->engine, refunded->index));
  for (guint i = 0; i < run->events->len; i++)
    {
      const WnEvent *ev = g_ptr_array_index (run->events, i);

      if (ev->kind == WN_EV_USER_TASK && ev->phase == WN_PH_ASSIGNED)
        g_assert_true (g_str_equal (ev->action, "clerks/1") || g_str_equal (ev->action, "clerks/2") ||
                       g_str_equal (ev->action, "clerks/3"));
    }
}

static void
test_hundred_thousand_instances (void)
{
  g_autoptr(WnProcess) process = load_example ("flaky-service.process.json");
  WnEngineOptions options = { 0 };
  WnEngine *engine;
  WnRunStats stats;

  options.instances = 100000;
  engine = wn_engine_new (process, NULL, &options);
  g_assert_cmpint (wn_engine_run (engine, WN_TIME_NEVER), ==, WN_STOP_QUIESCENT);
  wn_engine_get_stats (engine, &stats);
  g_assert_cmpuint (stats.instances, ==, 100000);
  g_assert_cmpuint (stats.completed + stats.terminated, ==, 100000);
  g_assert_cmpuint (stats.active, ==, 0);
  g_assert_cmpuint (stats.retries, >, 10000);
  g_assert_cmpuint (wn_dispatcher_get_n_jobs (wn_engine_get_dispatcher (engine)), ==, 0);
  wn_engine_free (engine);
}

/* The policy the views show for a task is the one its next job gets: the
 * flaky-service example sets its retry in the scenario's engine block, which
 * a resolution over the process alone missed (it showed the default). */
static void
test_task_policy (void)
{
  g_autoptr(WnProcess) process = load_example ("flaky-service.process.json");
  WnEngineOptions options = { 0 };
  g_autoptr(WnEngine) engine = wn_engine_new (process, NULL, &options);
  WnPolicyOrigin retry_from, trust_from;
  WnPolicy *policy = wn_engine_get_task_policy (engine, "quote", &retry_from, &trust_from);
  g_autofree char *retry = NULL;

  g_assert_nonnull (policy);
  g_assert_cmpint (retry_from, ==, WN_POLICY_FROM_ENGINE);
  g_assert_cmpint (trust_from, ==, WN_POLICY_FROM_TASK);   /* the task sets engineAuthoritative */
  g_assert_cmpint (policy->retry.kind, ==, WN_RETRY_EXPONENTIAL);
  g_assert_cmpuint (policy->retry.max_attempts, ==, 4);
  retry = wn_retry_policy_describe (&policy->retry);
  g_assert_nonnull (strstr (retry, "4"));
  g_assert_cmpint (policy->trust, ==, WN_TRUST_ENGINE_AUTHORITATIVE);
  /* an operator's trust change shows at once: back to inherit, the engine-wide default */
  g_assert_true (wn_engine_set_task_trust (engine, "quote", WN_TRUST_UNSET, NULL));
  policy = wn_engine_get_task_policy (engine, "quote", NULL, &trust_from);
  g_assert_cmpint (policy->trust, ==, WN_TRUST_WORKER_TRUSTED);
  g_assert_cmpint (trust_from, ==, WN_POLICY_FROM_DEFAULT);
  /* not a service task with a worker */
  g_assert_null (wn_engine_get_task_policy (engine, "start", NULL, NULL));
  g_assert_null (wn_engine_get_task_policy (engine, "nowhere", NULL, NULL));
}

/* The journal a headless run of the saved session `text` (with `n_commands`
 * operator commands, every one of which applies) writes. */
static GString *
replay_session (WnProcess  *process,
                const char *text,
                guint       n_commands)
{
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(WnScenario) saved = wn_load_scenario_data (text, -1, "session.scenario.json", NULL, &error);
  WnEngine *engine;

  g_assert_no_error (error);
  g_assert_cmpuint (saved->commands->len, ==, n_commands);
  engine = wn_engine_new (process, saved, NULL);
  events = wn_test_record (engine);
  wn_engine_run (engine, WN_TIME_NEVER);
  g_assert_cmpuint (wn_engine_get_notices (engine)->len, ==, 0);
  wn_engine_free (engine);
  return wn_test_journal_of (events);
}

/* A session driven by hand: steps, pauses, injections, trust changes, starts and
 * an incident retry; its export replayed headless gives the same journal. */
static void
test_session_round_trip (void)
{
  g_autoptr(WnProcess) process = load_example ("order-fulfilment.process.json");
  g_autoptr(GPtrArray) live_events = NULL;
  g_autoptr(GString) live = NULL;
  g_autoptr(GString) replay = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(WnResponse) crash = wn_response_new (WN_RESPONSE_CRASH);
  g_autoptr(WnResponse) fail = NULL;
  g_autoptr(JsonObject) vars = NULL;
  g_autofree char *text = NULL;
  WnEngineOptions options = { 0 };
  WnEngine *engine;
  WnScheduler *scheduler;

  options.on_exhausted = WN_ON_EXHAUSTED_INCIDENT;
  engine = wn_engine_new (process, NULL, &options);
  scheduler = wn_engine_get_scheduler (engine);
  live_events = wn_test_record (engine);

  wn_scheduler_step_next (scheduler);
  wn_engine_note_clock (engine, WN_PH_STEPPED, "step to next event");
  wn_scheduler_step_by (scheduler, 250000);
  wn_engine_note_clock (engine, WN_PH_STEPPED, "step by 250ms");
  g_assert_true (wn_engine_inject (engine, "authorize", NULL, crash, &error));
  wn_engine_set_trust_default (engine, WN_TRUST_ENGINE_AUTHORITATIVE);
  {
    g_autoptr(JsonNode) parsed = json_from_string ("{\"order\": {\"id\": \"late\", \"amount\": 7}}", NULL);
    vars = json_node_dup_object (parsed);
  }
  wn_engine_start_instance (engine, vars, &error);
  g_assert_no_error (error);
  /* a run interrupted part-way through an instant, as a breakpoint does */
  wn_scheduler_run_budget (scheduler, WN_TIME_NEVER, 7);
  wn_engine_note_clock (engine, WN_PH_PAUSED, NULL);
  fail = wn_load_response_data ("{ \"fail\": { \"code\": \"500\" } }", -1, "inject", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (wn_engine_set_task_trust (engine, "reserve-stock", WN_TRUST_WORKER_TRUSTED, &error));
  g_assert_true (wn_engine_inject (engine, NULL, "inventory", fail, &error));
  wn_engine_run (engine, WN_TIME_NEVER);
  wn_engine_note_clock (engine, WN_PH_RESUMED, NULL);
  /* the late order's authorization exhausted into an incident: retry it once */
  g_assert_true (wn_engine_incident_retry (engine, "i4", NULL, &error));
  wn_engine_run (engine, WN_TIME_NEVER);

  text = wn_engine_export_session (engine);
  live = wn_test_journal_of (live_events);
  g_assert_cmpuint (wn_engine_get_commands (engine)->len, ==, 10);
  wn_engine_free (engine);

  replay = replay_session (process, text, 10);

  g_assert_cmpuint (live->len, >, 2000);
  g_assert_nonnull (strstr (live->str, "\"kind\":\"clock\""));
  g_assert_nonnull (strstr (live->str, "\"phase\":\"retried\""));
  g_assert_cmpstr (replay->str, ==, live->str);
}

/* Injections wait in a list until an execution takes them, and the operator
 * can take one back (issue 16, polish): the next execution gets its scripted
 * response, the journal says inject.canceled, and the saved session and a
 * rerun replay the cancel. */
static void
test_cancel_injection (void)
{
  g_autoptr(WnProcess) process = load_example ("order-fulfilment.process.json");
  g_autoptr(GString) live = NULL;
  g_autoptr(GString) replay = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(WnResponse) crash = wn_response_new (WN_RESPONSE_CRASH);
  g_autoptr(WnResponse) fail = wn_response_new_fail ("500", NULL, "injected");
  g_autofree char *text = NULL;
  WnEngine *engine = wn_engine_new (process, NULL, NULL);
  g_autoptr(GPtrArray) live_events = wn_test_record (engine);
  WnEngine *rerun;
  GPtrArray *pending;
  const WnInjection *injection;
  guint canceled = 0;

  g_assert_true (wn_engine_inject (engine, "authorize", NULL, crash, &error));
  g_assert_true (wn_engine_inject (engine, NULL, "inventory", fail, &error));
  g_assert_no_error (error);
  pending = wn_engine_get_injections (engine);
  g_assert_cmpuint (pending->len, ==, 2);
  injection = g_ptr_array_index (pending, 0);
  g_assert_cmpuint (injection->id, ==, 1);
  g_assert_cmpstr (injection->topic, ==, "authorize");
  g_assert_null (injection->worker);
  g_assert_true (injection->response == crash);
  injection = g_ptr_array_index (pending, 1);
  g_assert_cmpuint (injection->id, ==, 2);
  g_assert_cmpstr (injection->topic, ==, "reserve");
  g_assert_cmpstr (injection->worker, ==, "inventory");

  /* take the crash back: authorize runs as scripted */
  g_assert_true (wn_engine_cancel_injection (engine, 1, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (pending->len, ==, 1);
  g_assert_false (wn_engine_cancel_injection (engine, 1, &error));
  g_assert_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_NO_SUCH_INJECTION);
  g_clear_error (&error);
  g_assert_false (wn_engine_cancel_injection (engine, 9, &error));
  g_assert_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_NO_SUCH_INJECTION);
  g_clear_error (&error);
  wn_engine_run (engine, WN_TIME_NEVER);
  /* the fail went to inventory's first execution; no crash anywhere */
  g_assert_cmpuint (pending->len, ==, 0);
  for (guint i = 0; i < live_events->len; i++)
    {
      const WnEvent *ev = g_ptr_array_index (live_events, i);

      if (ev->kind == WN_EV_INJECT && ev->phase == WN_PH_CANCELED)
        {
          canceled++;
          g_assert_cmpstr (ev->topic, ==, "authorize");
          g_assert_cmpstr (ev->action, ==, "crash");
        }
      g_assert_false (ev->kind == WN_EV_JOB && ev->phase == WN_PH_LOCK_RECLAIMED);
    }
  g_assert_cmpuint (canceled, ==, 1);
  g_assert_false (wn_engine_cancel_injection (engine, 2, &error));
  g_assert_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_NO_SUCH_INJECTION);
  g_clear_error (&error);

  text = wn_engine_export_session (engine);
  g_assert_nonnull (strstr (text, "\"op\" : \"cancelInjection\""));
  g_assert_nonnull (strstr (text, "\"injection\" : 1"));
  live = wn_test_journal_of (live_events);
  g_assert_nonnull (strstr (live->str, "\"kind\":\"inject\",\"phase\":\"canceled\""));

  /* a rerun stopped before the cancel has both pending, after it one */
  rerun = wn_engine_new_rerun (engine);
  {
    WnPosition at = { 0, 2, -1, 2 };

    g_assert_true (wn_engine_run_to_position (rerun, &at, G_MAXUINT, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (wn_engine_get_injections (rerun)->len, ==, 2);
    at.commands = 3;
    at.events = 3;
    g_assert_true (wn_engine_run_to_position (rerun, &at, G_MAXUINT, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (wn_engine_get_injections (rerun)->len, ==, 1);
    g_assert_cmpuint (((WnInjection *) g_ptr_array_index (wn_engine_get_injections (rerun), 0))->id, ==, 2);
  }
  wn_engine_free (rerun);
  wn_engine_free (engine);

  /* the saved session replays it headless, byte for byte */
  replay = replay_session (process, text, 3);
  g_assert_cmpstr (replay->str, ==, live->str);

  /* a hand-edited cancel of an injection that is not pending is a notice */
  {
    g_autoptr(WnScenario) bad = wn_load_scenario_data (
      "{ \"format\": \"winnow.scenario/1\", \"x-winnow\": { \"commands\": ["
      " { \"after\": 0, \"at\": \"0s\", \"op\": \"cancelInjection\", \"injection\": 4 } ] } }",
      -1, "bad.scenario.json", NULL, &error);

    g_assert_no_error (error);
    engine = wn_engine_new (process, bad, NULL);
    wn_engine_run (engine, WN_TIME_NEVER);
    pending = wn_engine_get_notices (engine);
    g_assert_cmpuint (pending->len, ==, 1);
    g_assert_nonnull (strstr (g_ptr_array_index (pending, 0), "no pending injection 4"));
    wn_engine_free (engine);
  }
  /* and one without a whole id is refused at load, by path */
  {
    g_autoptr(GPtrArray) diagnostics = NULL;
    g_autofree char *message = NULL;
    g_autoptr(WnScenario) bad = wn_load_scenario_data (
      "{ \"format\": \"winnow.scenario/1\", \"x-winnow\": { \"commands\": ["
      " { \"after\": 0, \"at\": \"0s\", \"op\": \"cancelInjection\", \"injection\": 0 } ] } }",
      -1, "bad.scenario.json", &diagnostics, &error);

    g_assert_null (bad);
    g_assert_nonnull (error);
    message = wn_diagnostic_format (g_ptr_array_index (diagnostics, 0));
    g_assert_nonnull (strstr (message, "x-winnow.commands[0].injection"));
  }
}

/* A worker that crashes with a job in hand leaves a lock only its lapse ends:
 * the dispatcher's snapshot says its holder is gone, until another worker
 * takes the job over (issue 16, polish: the Dispatcher marks it). */
static void
test_crashed_holder (void)
{
  g_autoptr(WnProcess) process = load_example ("crashed-worker.process.json");
  WnEngine *engine = wn_engine_new (process, NULL, NULL);
  WnScheduler *scheduler = wn_engine_get_scheduler (engine);
  WnDispatcher *dispatcher = wn_engine_get_dispatcher (engine);
  WnJobInfo info;

  /* T+0: printer-1 locks i1/j1 and crashes with it */
  wn_scheduler_run_until (scheduler, 0);
  g_assert_true (wn_dispatcher_lookup (dispatcher, "i1/j1", &info));
  g_assert_cmpint (info.state, ==, WN_JOB_LOCKED);
  g_assert_cmpstr (info.worker, ==, "printer-1");
  g_assert_true (info.holder_gone);
  /* T+1s: printer-2 runs i2/j1 and is alive */
  wn_scheduler_run_until (scheduler, WN_USEC_PER_SEC);
  g_assert_true (wn_dispatcher_lookup (dispatcher, "i2/j1", &info));
  g_assert_cmpint (info.state, ==, WN_JOB_LOCKED);
  g_assert_false (info.holder_gone);
  /* T+5s: the lapsed lock is taken over by printer-2, alive */
  wn_scheduler_run_until (scheduler, 6 * WN_USEC_PER_SEC);
  g_assert_true (wn_dispatcher_lookup (dispatcher, "i1/j1", &info));
  g_assert_cmpint (info.state, ==, WN_JOB_LOCKED);
  g_assert_cmpstr (info.worker, ==, "printer-2");
  g_assert_false (info.holder_gone);
  wn_engine_free (engine);
}

/* A rerun of `from`'s record run to right after the step of event `seq`,
 * its state (winnow.state/1). */
static char *
state_at (WnEngine *from,
          guint64   seq)
{
  WnEngine *rerun = wn_engine_new_rerun (from);
  char *state;

  g_assert_cmpint (wn_engine_run_to_event (rerun, seq, WN_TIME_NEVER, G_MAXUINT), ==, WN_STOP_REQUESTED);
  state = wn_engine_dump_state (rerun);
  wn_engine_free (rerun);
  return state;
}

/* From the pool's nearest checkpoint before `seq` to right after its step,
 * the state; *start: the events the checkpoint stood after (0: none was). */
static char *
state_from_checkpoint (WnCheckpoints *pool,
                       WnEngine      *run,
                       guint64        seq,
                       guint64       *start)
{
  WnPosition bound = { G_MAXUINT64, G_MAXUINT, G_MAXINT64, seq - 1 };
  WnSteps steps;
  WnEngine *engine = wn_checkpoints_take (pool, run, &bound, &steps);
  char *state;

  *start = 0;
  if (engine == NULL)
    return NULL;
  *start = wn_journal_get_n_events (wn_engine_get_journal (engine));
  g_assert_cmpuint (*start, <, seq);
  g_assert_cmpint (wn_engine_run_to_event (engine, seq, WN_TIME_NEVER, G_MAXUINT), ==, WN_STOP_REQUESTED);
  state = wn_engine_dump_state (engine);
  wn_engine_free (engine);
  return state;
}

static void
fill (WnCheckpoints *pool,
      WnEngine      *run,
      guint64        end)
{
  for (guint i = 0; wn_checkpoints_fill (pool, run, end, 7); i++)
    g_assert_cmpuint (i, <, 100000);
}

/* Checkpoints (wn-travel.h): a state reached from the nearest one is the
 * state a rerun from T+0 reaches; one made for another record (a command
 * given in the past since) or without the run's breakpoints is not handed
 * out. */
static void
test_checkpoints (void)
{
  g_autoptr(WnProcess) process = load_example ("order-fulfilment.process.json");
  g_autoptr(WnResponse) crash = wn_response_new_crash ();
  g_autoptr(WnResponse) timeout = wn_response_new_hang (10 * WN_USEC_PER_SEC, NULL, NULL);
  g_autoptr(GError) error = NULL;
  WnEngine *engine = wn_engine_new (process, NULL, NULL);
  WnCheckpoints *pool = wn_checkpoints_new (4, 1);
  g_autoptr(GArray) positions = g_array_new (FALSE, FALSE, sizeof (guint64));
  WnEngine *past;
  guint64 end, start, fork;
  guint served = 0;

  /* a run with an operator's command in it */
  wn_engine_run (engine, 300 * WN_USEC_PER_MSEC);
  g_assert_true (wn_engine_inject (engine, NULL, "inventory", crash, &error));
  g_assert_no_error (error);
  wn_engine_run (engine, WN_TIME_NEVER);
  end = wn_journal_get_n_events (wn_engine_get_journal (engine));
  fill (pool, engine, end);
  g_assert_cmpuint (wn_checkpoints_get_n (pool, positions), ==, 4);
  for (guint i = 1; i < positions->len; i++)
    g_assert_cmpuint (g_array_index (positions, guint64, i - 1), <, g_array_index (positions, guint64, i));

  for (guint64 seq = 1; seq <= end; seq += 3)
    {
      g_autofree char *fresh = state_at (engine, seq);
      g_autofree char *served_state = state_from_checkpoint (pool, engine, seq, &start);

      if (served_state != NULL)
        {
          g_assert_cmpstr (served_state, ==, fresh);
          served++;
        }
      fill (pool, engine, end);
    }
  g_assert_cmpuint (served, >, end / 6);

  /* another command in the past: the checkpoints after it were of the old
   * future, those before it serve the new one */
  past = wn_engine_new_rerun (engine);
  g_assert_cmpint (wn_engine_run_to_event (past, end / 4, WN_TIME_NEVER, G_MAXUINT), ==, WN_STOP_REQUESTED);
  fork = wn_journal_get_n_events (wn_engine_get_journal (past));
  g_assert_true (wn_engine_inject (past, NULL, "inventory", timeout, &error));
  g_assert_no_error (error);
  wn_engine_run (past, WN_TIME_NEVER);
  for (guint64 seq = fork + 1; seq <= wn_journal_get_n_events (wn_engine_get_journal (past)); seq += 5)
    {
      g_autofree char *fresh = state_at (past, seq);
      g_autofree char *served_state = state_from_checkpoint (pool, past, seq, &start);

      g_assert_cmpuint (start, <=, fork);
      if (served_state != NULL)
        g_assert_cmpstr (served_state, ==, fresh);
    }

  /* a breakpoint none of them has */
  fill (pool, engine, end);
  g_assert_cmpuint (wn_engine_add_breakpoint (engine, WN_EV_JOB, WN_PH_ENQUEUED, NULL), >, 0);
  {
    g_autofree char *served_state = state_from_checkpoint (pool, engine, end, &start);

    g_assert_null (served_state);
  }
  fill (pool, engine, end);
  {
    g_autofree char *fresh = state_at (engine, end - 1);
    g_autofree char *served_state = state_from_checkpoint (pool, engine, end - 1, &start);

    g_assert_nonnull (served_state);
    g_assert_cmpstr (served_state, ==, fresh);
  }

  wn_engine_free (past);
  wn_checkpoints_free (pool);
  wn_engine_free (engine);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/engine/WholeRuns/worked-example", test_worked_example);
  g_test_add_func ("/engine/WholeRuns/worked-example-authoritative", test_worked_example_authoritative);
  g_test_add_func ("/engine/WholeRuns/deterministic", test_deterministic);
  g_test_add_func ("/engine/WholeRuns/task-policy", test_task_policy);
  g_test_add_func ("/engine/WholeRuns/invariants", test_every_example_keeps_invariants);
  g_test_add_func ("/engine/WholeRuns/payment-timeout", test_payment_timeout);
  g_test_add_func ("/engine/WholeRuns/order-terminate", test_order_terminate);
  g_test_add_func ("/engine/WholeRuns/reminder-cycle", test_reminder_cycle);
  g_test_add_func ("/engine/WholeRuns/order-cancellation", test_order_cancellation);
  g_test_add_func ("/engine/WholeRuns/manual-approval-people", test_manual_approval_people);
  g_test_add_func ("/engine/WholeRuns/manual-approval", test_manual_approval);
  g_test_add_func ("/engine/WholeRuns/payment-messages", test_payment_messages);
  g_test_add_func ("/engine/WholeRuns/invoice-reminder", test_invoice_reminder);
  g_test_add_func ("/engine/WholeRuns/batch-payments", test_batch_payments);
  g_test_add_func ("/engine/WholeRuns/hundred-thousand", test_hundred_thousand_instances);
  g_test_add_func ("/engine/WholeRuns/session-round-trip", test_session_round_trip);
  g_test_add_func ("/engine/WholeRuns/crashed-holder", test_crashed_holder);
  g_test_add_func ("/engine/WholeRuns/cancel-injection", test_cancel_injection);
  g_test_add_func ("/engine/WholeRuns/checkpoints", test_checkpoints);

  return g_test_run ();
}

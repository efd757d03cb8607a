/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Outside workers on the dispatcher (wn-external.h): Camunda's operations,
 * their refusals and the two trust modes, on the virtual clock. */
#include "wn-test-util.h"

#define SEC WN_USEC_PER_SEC

/* start → task (topic "t", trust TRUST, WORKER extra keys) → end, with an
 * error boundary "Oops" on the task leading to "caught". */
static char *
process_json (const char *trust,
              const char *worker_extra)
{
  return g_strdup_printf (
    "{ \"format\": \"winnow.process/1\", \"id\": \"p\","
    "  \"variables\": { \"order\": { \"id\": \"A-1\" } },"
    "  \"engine\": { \"maxLock\": \"1m\" },"
    "  \"nodes\": ["
    "    { \"id\": \"start\", \"type\": \"startEvent\" },"
    "    { \"id\": \"task\", \"type\": \"serviceTask\","
    "      \"worker\": { \"topic\": \"t\", \"trust\": \"%s\"%s%s } },"
    "    { \"id\": \"oops\", \"type\": \"boundaryEvent\", \"attachedTo\": \"task\", \"error\": \"Oops\" },"
    "    { \"id\": \"done\", \"type\": \"endEvent\" },"
    "    { \"id\": \"caught\", \"type\": \"endEvent\" } ],"
    "  \"flows\": ["
    "    { \"id\": \"f1\", \"from\": \"start\", \"to\": \"task\" },"
    "    { \"id\": \"f2\", \"from\": \"task\", \"to\": \"done\" },"
    "    { \"id\": \"f3\", \"from\": \"oops\", \"to\": \"caught\" } ] }",
    trust, worker_extra != NULL ? ", " : "", worker_extra != NULL ? worker_extra : "");
}

typedef struct {
  WnTestRun  *run;
  WnExternal *external;
} Fixture;

static void
fixture_init (Fixture    *f,
              const char *trust,
              const char *worker_extra,
              const char *scenario)
{
  g_autofree char *json = process_json (trust, worker_extra);
  WnEngineOptions options = { 0 };

  options.no_implicit_workers = TRUE;
  f->run = wn_test_run_new (json, scenario, &options);
  f->external = wn_external_new (f->run->engine);
  /* the instance starts and parks on its job */
  wn_engine_run (f->run->engine, 0);
}

static void
fixture_clear (Fixture *f)
{
  wn_external_free (f->external);
  wn_test_run_free (f->run);
}

/* Fetch for `worker` on "t" with a lock of `lock`; returns the job id or NULL. */
static char *
fetch (Fixture    *f,
       const char *worker,
       WnTime      lock)
{
  g_autoptr(GPtrArray) locked = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  WnExternalTopic topic = { "t", lock };

  g_assert_true (wn_external_fetch_and_lock (f->external, worker, 10, TRUE, &topic, 1, locked, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (locked->len, <=, 1);
  return locked->len > 0 ? g_strdup (g_ptr_array_index (locked, 0)) : NULL;
}

static void
advance (Fixture *f,
         WnTime   delta)
{
  wn_scheduler_step_by (wn_engine_get_scheduler (f->run->engine), delta);
}

static WnInstanceState
instance_state (Fixture *f)
{
  WnInstanceInfo info;

  g_assert_true (wn_engine_lookup_instance (f->run->engine, "i1", &info));
  return info.state;
}

static const char *
instance_end (Fixture *f)
{
  WnInstanceInfo info;

  g_assert_true (wn_engine_lookup_instance (f->run->engine, "i1", &info));
  return info.end_node;
}

static void
test_no_implicit_worker (void)
{
  Fixture f;
  WnJobInfo info;

  fixture_init (&f, "workerTrusted", NULL, NULL);
  g_assert_null (wn_engine_get_implicit_topics (f.run->engine)[0]);
  /* the job waits for an outside worker, however long */
  g_assert_cmpint (wn_test_run_until (f.run, WN_TIME_NEVER), ==, WN_STOP_QUIESCENT);
  g_assert_true (wn_dispatcher_lookup (wn_engine_get_dispatcher (f.run->engine), "i1/j1", &info));
  g_assert_cmpint (info.state, ==, WN_JOB_AVAILABLE);
  g_assert_cmpuint (wn_test_count (f.run, WN_EV_JOB, WN_PH_LOCKED, NULL), ==, 0);
  g_assert_cmpint (instance_state (&f), ==, WN_INSTANCE_ACTIVE);
  fixture_clear (&f);
}

static void
test_complete_trusted (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) vars = wn_test_json ("{\"reservationId\": \"R-7\", \"n\": 3}");
  g_autofree char *job = NULL;
  g_autofree char *rid = NULL;
  const WnEvent *locked, *executing;
  Fixture f;

  fixture_init (&f, "workerTrusted", NULL, NULL);
  job = fetch (&f, "w1", 10 * SEC);
  g_assert_cmpstr (job, ==, "i1/j1");
  locked = wn_test_find (f.run, WN_EV_JOB, WN_PH_LOCKED, "task", 0);
  g_assert_cmpstr (locked->worker, ==, "w1");
  g_assert_cmpint (locked->deadline_us, ==, 10 * SEC);
  executing = wn_test_find (f.run, WN_EV_JOB, WN_PH_EXECUTING, "task", 0);
  g_assert_cmpuint (executing->attempt, ==, 1);
  g_assert_cmpstr (executing->worker, ==, "w1");
  /* nothing more for anyone */
  g_assert_null (fetch (&f, "w2", 10 * SEC));

  g_assert_true (wn_external_complete (f.external, job, "w1", json_node_get_object (vars), &error));
  g_assert_no_error (error);
  wn_test_run_until (f.run, WN_TIME_NEVER);
  g_assert_cmpstr (wn_test_find (f.run, WN_EV_JOB, WN_PH_COMPLETED, "task", 0)->worker, ==, "w1");
  rid = wn_test_variable (f.run, "i1", "reservationId");
  g_assert_cmpstr (rid, ==, "\"R-7\"");
  g_assert_cmpstr (instance_end (&f), ==, "done");
  fixture_clear (&f);
}

static void
test_complete_authoritative_maps (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) vars = wn_test_json ("{\"r\": \"R-9\", \"other\": 1}");
  g_autofree char *job = NULL;
  g_autofree char *rid = NULL;
  g_autofree char *other = NULL;
  Fixture f;

  fixture_init (&f, "engineAuthoritative",
                "\"outputMapping\": [ { \"path\": \"body.r\", \"var\": \"rid\", \"required\": true } ]", NULL);
  job = fetch (&f, "w1", 10 * SEC);
  g_assert_true (wn_external_complete (f.external, job, "w1", json_node_get_object (vars), &error));
  g_assert_no_error (error);
  wn_test_run_until (f.run, WN_TIME_NEVER);
  rid = wn_test_variable (f.run, "i1", "rid");
  other = wn_test_variable (f.run, "i1", "other");
  g_assert_cmpstr (rid, ==, "\"R-9\"");
  g_assert_null (other);
  fixture_clear (&f);
}

static void
test_refusals (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *job = NULL;
  const WnEvent *rejected;
  guint n_rejected;
  Fixture f;

  fixture_init (&f, "workerTrusted", NULL,
                "{ \"format\": \"winnow.scenario/1\", \"workers\": ["
                "  { \"id\": \"sim\", \"topic\": \"other\", \"responses\": [ { \"complete\": {} } ] } ] }");

  g_assert_false (wn_external_complete (f.external, "i9/j9", "w1", NULL, &error));
  g_assert_error (error, WN_EXTERNAL_ERROR, WN_EXTERNAL_ERROR_NOT_FOUND);
  g_assert_cmpstr (error->message, ==, "External task with id i9/j9 does not exist");
  g_clear_error (&error);
  rejected = wn_test_find (f.run, WN_EV_JOB, WN_PH_REPORT_REJECTED, NULL, 0);
  g_assert_cmpstr (rejected->worker, ==, "w1");
  g_assert_cmpstr (rejected->job, ==, "i9/j9");

  g_assert_false (wn_external_complete (f.external, "i1/j1", "w1", NULL, &error));
  g_assert_error (error, WN_EXTERNAL_ERROR, WN_EXTERNAL_ERROR_NOT_LOCKED);
  g_clear_error (&error);

  /* a simulated worker's id is not an outside worker's */
  {
    g_autoptr(GPtrArray) locked = g_ptr_array_new_with_free_func (g_free);
    WnExternalTopic topic = { "t", SEC };

    g_assert_false (wn_external_fetch_and_lock (f.external, "sim", 1, FALSE, &topic, 1, locked, &error));
    g_assert_error (error, WN_EXTERNAL_ERROR, WN_EXTERNAL_ERROR_SIMULATED_WORKER);
    g_clear_error (&error);
    g_assert_false (wn_external_fetch_and_lock (f.external, "", 1, FALSE, &topic, 1, locked, &error));
    g_assert_error (error, WN_EXTERNAL_ERROR, WN_EXTERNAL_ERROR_INVALID);
    g_clear_error (&error);
    g_assert_cmpuint (locked->len, ==, 0);
  }

  job = fetch (&f, "w1", 2 * SEC);
  g_assert_false (wn_external_complete (f.external, job, "w2", NULL, &error));
  g_assert_error (error, WN_EXTERNAL_ERROR, WN_EXTERNAL_ERROR_WRONG_WORKER);
  g_assert_cmpstr (error->message, ==,
                   "External Task i1/j1 cannot be completed by worker 'w2'. It is locked by worker 'w1'.");
  g_clear_error (&error);

  /* the lock lapses in virtual time: the holder's late report is refused */
  advance (&f, 3 * SEC);
  g_assert_false (wn_external_failure (f.external, job, "w1", "late", NULL, 1, 0, &error));
  g_assert_error (error, WN_EXTERNAL_ERROR, WN_EXTERNAL_ERROR_LOCK_EXPIRED);
  g_clear_error (&error);
  /* another worker reclaims it; the first one is now the wrong worker */
  g_free (job);
  job = fetch (&f, "w2", 2 * SEC);
  g_assert_cmpstr (job, ==, "i1/j1");
  g_assert_cmpstr (wn_test_find (f.run, WN_EV_JOB, WN_PH_LOCK_RECLAIMED, "task", 0)->worker, ==, "w1");
  g_assert_false (wn_external_bpmn_error (f.external, job, "w1", "Oops", NULL, &error));
  g_assert_error (error, WN_EXTERNAL_ERROR, WN_EXTERNAL_ERROR_WRONG_WORKER);
  g_clear_error (&error);

  n_rejected = wn_test_count (f.run, WN_EV_JOB, WN_PH_REPORT_REJECTED, NULL);
  g_assert_cmpuint (n_rejected, ==, 5);
  /* refusals changed nothing: w2 still holds it */
  g_assert_true (wn_external_complete (f.external, job, "w2", NULL, &error));
  g_assert_no_error (error);
  fixture_clear (&f);
}

static void
test_failure_trusted (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *job = NULL;
  g_autofree char *again = NULL;
  const WnExternalReport *report;
  const WnEvent *retry, *exhausted;
  WnRunStats stats;
  Fixture f;

  fixture_init (&f, "workerTrusted", "\"retry\": { \"policy\": \"none\" }", NULL);
  job = fetch (&f, "w1", 10 * SEC);
  /* the worker's own policy: 2 retries left, next in 5s — the task's "none" does not apply */
  g_assert_true (wn_external_failure (f.external, job, "w1", "timeout", "stack", 2, 5 * SEC, &error));
  g_assert_no_error (error);
  retry = wn_test_find (f.run, WN_EV_JOB, WN_PH_WORKER_REARMED, "task", 0);
  g_assert_cmpstr (retry->worker, ==, "w1");
  g_assert_cmpint (retry->backoff_us, ==, 5 * SEC);
  g_assert_cmpint (retry->not_before_us, ==, 5 * SEC);
  g_assert_cmpstr (retry->error, ==, "timeout");
  report = wn_external_get_report (f.external, job);
  g_assert_nonnull (report);
  g_assert_cmpint (report->retries, ==, 2);
  g_assert_cmpstr (report->error_message, ==, "timeout");
  g_assert_cmpstr (report->error_details, ==, "stack");

  /* gated until +5s */
  advance (&f, 4 * SEC);
  g_assert_null (fetch (&f, "w1", 10 * SEC));
  advance (&f, SEC);
  again = fetch (&f, "w1", 10 * SEC);
  g_assert_cmpstr (again, ==, job);
  g_assert_cmpuint (wn_test_find (f.run, WN_EV_JOB, WN_PH_EXECUTING, "task", 1)->attempt, ==, 2);

  /* retries 0: the worker's exhaustion verdict */
  g_assert_true (wn_external_failure (f.external, job, "w1", "still down", NULL, 0, 0, &error));
  g_assert_no_error (error);
  exhausted = wn_test_find (f.run, WN_EV_JOB, WN_PH_RETRIES_EXHAUSTED, "task", 0);
  g_assert_cmpuint (exhausted->attempts, ==, 2);
  g_assert_cmpstr (exhausted->worker, ==, "w1");
  g_assert_null (wn_external_get_report (f.external, job));
  wn_test_run_until (f.run, WN_TIME_NEVER);
  g_assert_cmpint (instance_state (&f), ==, WN_INSTANCE_TERMINATED);
  wn_engine_get_stats (f.run->engine, &stats);
  g_assert_cmpuint (stats.retries, ==, 1);
  g_assert_cmpuint (stats.exhausted, ==, 1);
  g_assert_cmpuint (stats.executions, ==, 2);
  fixture_clear (&f);
}

static void
test_failure_authoritative (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *job = NULL;
  g_autofree char *again = NULL;
  const WnEvent *ignored, *retry;
  Fixture f;

  fixture_init (&f, "engineAuthoritative",
                "\"retry\": { \"policy\": \"fixed\", \"maxAttempts\": 2, \"delay\": \"1s\" }", NULL);
  job = fetch (&f, "w1", 10 * SEC);
  g_assert_true (wn_external_failure (f.external, job, "w1", "timeout", NULL, 0, 0, &error));
  g_assert_no_error (error);
  /* retries 0 would be exhaustion for a trusted worker: ignored, the policy retries */
  ignored = wn_test_find (f.run, WN_EV_JOB, WN_PH_WORKER_POLICY_IGNORED, "task", 0);
  g_assert_nonnull (ignored);
  g_assert_cmpstr (ignored->worker, ==, "w1");
  g_assert_nonnull (strstr (ignored->error, "retries (0)"));
  retry = wn_test_find (f.run, WN_EV_JOB, WN_PH_RETRY_SCHEDULED, "task", 0);
  g_assert_cmpint (retry->backoff_us, ==, SEC);
  g_assert_cmpstr (retry->error, ==, "timeout");
  g_assert_null (wn_test_find (f.run, WN_EV_JOB, WN_PH_WORKER_REARMED, NULL, 0));

  advance (&f, SEC);
  again = fetch (&f, "w1", 10 * SEC);
  g_assert_nonnull (again);
  /* retries 9 and a retryTimeout: ignored too; the policy is exhausted */
  g_assert_true (wn_external_failure (f.external, again, "w1", "timeout", NULL, 9, 60 * SEC, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (wn_test_find (f.run, WN_EV_JOB, WN_PH_RETRIES_EXHAUSTED, "task", 0)->attempts, ==, 2);
  wn_test_run_until (f.run, WN_TIME_NEVER);
  g_assert_cmpint (instance_state (&f), ==, WN_INSTANCE_TERMINATED);
  fixture_clear (&f);
}

static void
test_bpmn_error_trusted (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *job = NULL;
  Fixture f;

  fixture_init (&f, "workerTrusted", NULL, NULL);
  job = fetch (&f, "w1", 10 * SEC);
  g_assert_false (wn_external_bpmn_error (f.external, job, "w1", "", NULL, &error));
  g_assert_error (error, WN_EXTERNAL_ERROR, WN_EXTERNAL_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_true (wn_external_bpmn_error (f.external, job, "w1", "Oops", "nope", &error));
  g_assert_no_error (error);
  wn_test_run_until (f.run, WN_TIME_NEVER);
  g_assert_cmpstr (instance_end (&f), ==, "caught");
  fixture_clear (&f);
}

static void
test_bpmn_error_authoritative (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *job = NULL;
  Fixture f;

  /* not trusted: its code goes to the mapper, which makes it a status here */
  fixture_init (&f, "engineAuthoritative",
                "\"errorMapper\": [ { \"code\": \"Oops\", \"status\": \"MAPPED\" } ],"
                "\"status\": { \"var\": \"st\" }", NULL);
  job = fetch (&f, "w1", 10 * SEC);
  g_assert_true (wn_external_bpmn_error (f.external, job, "w1", "Oops", NULL, &error));
  g_assert_no_error (error);
  wn_test_run_until (f.run, WN_TIME_NEVER);
  g_assert_cmpstr (instance_end (&f), ==, "done");
  g_assert_cmpuint (wn_test_count (f.run, WN_EV_FAULT, WN_PH_CAUGHT, NULL), ==, 0);
  {
    g_autofree char *st = wn_test_variable (f.run, "i1", "st");
    g_assert_cmpstr (st, ==, "\"MAPPED\"");
  }
  fixture_clear (&f);
}

static void
test_extend_and_unlock (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *job = NULL;
  g_autofree char *other = NULL;
  const WnEvent *extended, *unlocked;
  Fixture f;

  fixture_init (&f, "workerTrusted", NULL, NULL);
  job = fetch (&f, "w1", 10 * SEC);
  advance (&f, 8 * SEC);
  g_assert_false (wn_external_extend_lock (f.external, job, "w2", 10 * SEC, &error));
  g_assert_error (error, WN_EXTERNAL_ERROR, WN_EXTERNAL_ERROR_WRONG_WORKER);
  g_clear_error (&error);
  g_assert_false (wn_external_extend_lock (f.external, job, "w1", 0, &error));
  g_assert_error (error, WN_EXTERNAL_ERROR, WN_EXTERNAL_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_true (wn_external_extend_lock (f.external, job, "w1", 10 * SEC, &error));
  g_assert_no_error (error);
  extended = wn_test_find (f.run, WN_EV_JOB, WN_PH_LOCK_EXTENDED, "task", 0);
  g_assert_cmpint (extended->deadline_us, ==, 18 * SEC);
  g_assert_cmpstr (extended->worker, ==, "w1");
  /* past the first lock plus maxLock (1m) */
  g_assert_false (wn_external_extend_lock (f.external, job, "w1", 60 * SEC, &error));
  g_assert_error (error, WN_EXTERNAL_ERROR, WN_EXTERNAL_ERROR_MAX_LOCK);
  g_clear_error (&error);
  /* still locked at +17s (past the first 10s lock) */
  advance (&f, 9 * SEC);
  g_assert_null (fetch (&f, "w2", 10 * SEC));

  g_assert_true (wn_external_unlock (f.external, job, &error));
  g_assert_no_error (error);
  unlocked = wn_test_find (f.run, WN_EV_JOB, WN_PH_UNLOCKED, "task", 0);
  g_assert_cmpstr (unlocked->worker, ==, "w1");
  /* again: nothing to do */
  g_assert_true (wn_external_unlock (f.external, job, &error));
  g_assert_cmpuint (wn_test_count (f.run, WN_EV_JOB, WN_PH_UNLOCKED, NULL), ==, 1);
  other = fetch (&f, "w2", 10 * SEC);
  g_assert_cmpstr (other, ==, job);
  g_assert_cmpuint (wn_test_count (f.run, WN_EV_JOB, WN_PH_LOCK_RECLAIMED, NULL), ==, 0);
  g_assert_false (wn_external_unlock (f.external, "nope", &error));
  g_assert_error (error, WN_EXTERNAL_ERROR, WN_EXTERNAL_ERROR_NOT_FOUND);
  fixture_clear (&f);
}

static void
test_set_retries (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *job = NULL;
  Fixture f, a;

  fixture_init (&f, "workerTrusted", NULL, NULL);
  g_assert_true (wn_external_set_retries (f.external, "i1/j1", 4, &error));
  g_assert_no_error (error);
  g_assert_cmpint (wn_external_get_report (f.external, "i1/j1")->retries, ==, 4);
  g_assert_cmpstr (wn_test_find (f.run, WN_EV_JOB, WN_PH_RETRIES_SET, "task", 0)->action, ==, "retries 4");
  job = fetch (&f, "w1", 10 * SEC);
  g_assert_true (wn_external_set_retries (f.external, job, 0, &error));
  g_assert_no_error (error);
  wn_test_run_until (f.run, WN_TIME_NEVER);
  g_assert_cmpint (instance_state (&f), ==, WN_INSTANCE_TERMINATED);
  g_assert_false (wn_external_set_retries (f.external, job, 1, &error));
  g_assert_error (error, WN_EXTERNAL_ERROR, WN_EXTERNAL_ERROR_NOT_FOUND);
  g_clear_error (&error);
  fixture_clear (&f);

  fixture_init (&a, "engineAuthoritative", NULL, NULL);
  g_assert_false (wn_external_set_retries (a.external, "i1/j1", 4, &error));
  g_assert_error (error, WN_EXTERNAL_ERROR, WN_EXTERNAL_ERROR_NOT_TRUSTED);
  fixture_clear (&a);
}

static void
test_simulated_switch (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *job = NULL;
  Fixture f;

  {
    g_autofree char *json = process_json ("workerTrusted", NULL);
    WnEngineOptions options = { 0 };

    f.run = wn_test_run_new (json,
                             "{ \"format\": \"winnow.scenario/1\","
                             "  \"workers\": [ { \"id\": \"sim\", \"topic\": \"t\","
                             "                   \"responses\": [ { \"complete\": {} } ] } ] }",
                             &options);
    f.external = wn_external_new (f.run->engine);
  }
  g_assert_false (wn_engine_set_topic_simulated (f.run->engine, "nope", FALSE, &error));
  g_assert_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_NO_SUCH_TOPIC);
  g_clear_error (&error);
  g_assert_true (wn_engine_get_topic_simulated (f.run->engine, "t"));
  g_assert_true (wn_engine_set_topic_simulated (f.run->engine, "t", FALSE, &error));
  g_assert_false (wn_engine_get_topic_simulated (f.run->engine, "t"));
  wn_engine_run (f.run->engine, 5 * SEC);
  g_assert_cmpuint (wn_test_count (f.run, WN_EV_JOB, WN_PH_LOCKED, NULL), ==, 0);
  job = fetch (&f, "outside", 10 * SEC);
  g_assert_cmpstr (job, ==, "i1/j1");
  g_assert_true (wn_external_unlock (f.external, job, &error));
  /* on again: the simulated worker takes the job */
  g_assert_true (wn_engine_set_topic_simulated (f.run->engine, "t", TRUE, &error));
  wn_test_run_until (f.run, WN_TIME_NEVER);
  g_assert_cmpstr (wn_test_find (f.run, WN_EV_JOB, WN_PH_COMPLETED, "task", 0)->worker, ==, "sim");
  g_assert_cmpstr (instance_end (&f), ==, "done");
  fixture_clear (&f);
}

/* The events of two runs, field by field (what the journal writes of them). */
static void
assert_same_events (GPtrArray *a,
                    GPtrArray *b)
{
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    {
      const WnEvent *x = g_ptr_array_index (a, i), *y = g_ptr_array_index (b, i);

      g_assert_cmpuint (x->seq, ==, y->seq);
      g_assert_cmpint (x->t_us, ==, y->t_us);
      g_assert_cmpint (x->kind, ==, y->kind);
      g_assert_cmpint (x->phase, ==, y->phase);
      g_assert_cmpstr (x->job, ==, y->job);
      g_assert_cmpstr (x->worker, ==, y->worker);
      g_assert_cmpstr (x->error, ==, y->error);
    }
}

static void
record_event_cb (const WnEvent *event,
                 gpointer       data)
{
  g_ptr_array_add (data, wn_event_copy (event));
}

/* Outside calls made at odd points of a run: a lock, a failure that gates
 * the job, an empty fetch, a refused report, a complete. */
static void
make_calls (Fixture *f)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *job = NULL;
  g_autofree char *none = NULL;

  job = fetch (f, "w1", 10 * SEC);
  advance (f, SEC);
  g_assert_true (wn_external_failure (f->external, job, "w1", "boom", "d", 1, 2 * SEC, &error));
  none = fetch (f, "w1", 10 * SEC);
  g_assert_null (none);
  advance (f, 3 * SEC);
  g_free (job);
  job = fetch (f, "w1", 10 * SEC);
  g_assert_nonnull (job);
  advance (f, 500 * WN_USEC_PER_MSEC);
  g_assert_false (wn_external_complete (f->external, job, "w2", NULL, &error));
  g_assert_error (error, WN_EXTERNAL_ERROR, WN_EXTERNAL_ERROR_WRONG_WORKER);
  g_clear_error (&error);
  g_assert_true (wn_external_complete (f->external, job, "w1", NULL, &error));
  wn_test_run_until (f->run, WN_TIME_NEVER);
}

static void
test_recorded_calls (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) diagnostics = NULL;
  g_autoptr(WnScenario) saved = NULL;
  g_autoptr(GPtrArray) replayed = g_ptr_array_new_with_free_func ((GDestroyNotify) wn_event_free);
  g_autofree char *session = NULL;
  WnEngineOptions options = { 0 };
  GPtrArray *commands;
  WnEngine *replay;
  guint n_external = 0;
  Fixture f;

  fixture_init (&f, "workerTrusted", NULL, NULL);
  wn_external_free (f.external);
  f.external = wn_engine_get_external (f.run->engine);
  make_calls (&f);
  g_assert_cmpstr (instance_end (&f), ==, "done");

  /* what changed the run or journalled is recorded; the empty fetch is not */
  commands = wn_engine_get_commands (f.run->engine);
  for (guint i = 0; i < commands->len; i++)
    {
      const WnCommand *c = g_ptr_array_index (commands, i);

      if (c->kind != WN_COMMAND_EXTERNAL)
        continue;
      n_external++;
      g_assert_cmpstr (json_object_get_string_member (c->call, "workerId"), !=, NULL);
    }
  g_assert_cmpuint (n_external, ==, 5);

  /* the session replays headless: the same events, without calls from outside */
  session = wn_engine_export_session (f.run->engine);
  g_assert_nonnull (strstr (session, "\"outsideWorkers\" : true"));
  g_assert_nonnull (strstr (session, "\"refused\" : \"External Task i1/j1 cannot be completed by worker 'w2'"));
  saved = wn_load_scenario_data (session, -1, "session", &diagnostics, &error);
  g_assert_no_error (error);
  replay = wn_engine_new (f.run->process, saved, &options);
  wn_journal_subscribe (wn_engine_get_journal (replay), record_event_cb, replayed, NULL);
  wn_engine_run (replay, WN_TIME_NEVER);
  g_assert_cmpuint (wn_engine_get_notices (replay)->len, ==, 0);
  assert_same_events (f.run->events, replayed);
  wn_engine_free (replay);

  f.external = NULL;
  fixture_clear (&f);
}

/* Back in time while serving: the record's calls come again by themselves; a
 * live call is refused (a fetch locks nothing) until the record is used up. */
static void
test_rerun_replays_calls (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) locked = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) rerun_events = g_ptr_array_new_with_free_func ((GDestroyNotify) wn_event_free);
  WnExternalTopic topic = { "t", 10 * SEC };
  const WnEvent *rearmed;
  WnEngine *rerun;
  Fixture f;

  fixture_init (&f, "workerTrusted", NULL, NULL);
  wn_external_free (f.external);
  f.external = wn_engine_get_external (f.run->engine);
  make_calls (&f);
  rearmed = wn_test_find (f.run, WN_EV_JOB, WN_PH_WORKER_REARMED, "task", 0);
  g_assert_nonnull (rearmed);

  rerun = wn_engine_new_rerun (f.run->engine);
  wn_journal_subscribe (wn_engine_get_journal (rerun), record_event_cb, rerun_events, NULL);
  g_assert_cmpint (wn_engine_run_to_event (rerun, rearmed->seq, WN_TIME_NEVER, G_MAXUINT), ==, WN_STOP_REQUESTED);
  g_assert_cmpuint (wn_engine_get_n_future (rerun), >, 0);

  /* the worker, still connected, sends its calls again: not applied */
  g_assert_true (wn_external_fetch_and_lock (wn_engine_get_external (rerun), "w1", 10, FALSE, &topic, 1,
                                             locked, &error));
  g_assert_cmpuint (locked->len, ==, 0);
  g_assert_false (wn_external_complete (wn_engine_get_external (rerun), "i1/j1", "w1", NULL, &error));
  g_assert_error (error, WN_EXTERNAL_ERROR, WN_EXTERNAL_ERROR_REPLAYING);
  g_clear_error (&error);
  g_assert_cmpuint (wn_engine_get_n_future (rerun), >, 0);

  /* on to the end: the journal the run had, the record used up, live again */
  wn_engine_run (rerun, WN_TIME_NEVER);
  assert_same_events (f.run->events, rerun_events);
  g_assert_cmpuint (wn_engine_get_n_future (rerun), ==, 0);
  g_assert_false (wn_external_complete (wn_engine_get_external (rerun), "i1/j1", "w1", NULL, &error));
  g_assert_error (error, WN_EXTERNAL_ERROR, WN_EXTERNAL_ERROR_NOT_FOUND);
  wn_engine_free (rerun);

  f.external = NULL;
  fixture_clear (&f);
}

/* A session's recorded call that cannot be read is a load error naming the member. */
static void
test_recorded_call_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) diagnostics = NULL;
  g_autoptr(WnScenario) scenario = NULL;

  scenario = wn_load_scenario_data ("{ \"format\": \"winnow.scenario/1\", \"x-winnow\": { \"commands\": ["
                                    "  { \"after\": 3, \"at\": \"0us\", \"op\": \"external\","
                                    "    \"call\": { \"endpoint\": \"failure\", \"taskId\": \"i1/j1\","
                                    "                \"workerId\": \"w\", \"retries\": -1 } } ] } }",
                                    -1, "bad.json", &diagnostics, &error);
  g_assert_null (scenario);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "retries: must be a whole number from 0"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/engine/External/no-implicit-worker", test_no_implicit_worker);
  g_test_add_func ("/engine/External/complete-trusted", test_complete_trusted);
  g_test_add_func ("/engine/External/complete-authoritative-maps", test_complete_authoritative_maps);
  g_test_add_func ("/engine/External/refusals", test_refusals);
  g_test_add_func ("/engine/External/failure-trusted", test_failure_trusted);
  g_test_add_func ("/engine/External/failure-authoritative", test_failure_authoritative);
  g_test_add_func ("/engine/External/bpmn-error-trusted", test_bpmn_error_trusted);
  g_test_add_func ("/engine/External/bpmn-error-authoritative", test_bpmn_error_authoritative);
  g_test_add_func ("/engine/External/extend-and-unlock", test_extend_and_unlock);
  g_test_add_func ("/engine/External/set-retries", test_set_retries);
  g_test_add_func ("/engine/External/simulated-switch", test_simulated_switch);
  g_test_add_func ("/engine/External/recorded-calls", test_recorded_calls);
  g_test_add_func ("/engine/External/rerun-replays-calls", test_rerun_replays_calls);
  g_test_add_func ("/engine/External/recorded-call-errors", test_recorded_call_errors);
  return g_test_run ();
}

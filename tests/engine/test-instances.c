/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Instances and tracks, trust modes and policy resolution through the engine facade. */
#include "wn-test-util.h"

#define MS(x) ((WnTime) (x) * 1000)
#define S(x)  ((WnTime) (x) * 1000000)

/* start → task (a worker task on topic t) → end, with a boundary catching E → caught */
#define ONE_TASK_PROCESS \
  "{ \"format\": \"winnow.process/1\", \"id\": \"p\"," \
  "  \"engine\": %s," \
  "  \"nodes\": [" \
  "    { \"id\": \"start\", \"type\": \"startEvent\" }," \
  "    { \"id\": \"task\", \"type\": \"serviceTask\", \"worker\": %s }," \
  "    { \"id\": \"b\", \"type\": \"boundaryEvent\", \"attachedTo\": \"task\", \"error\": \"E\" }," \
  "    { \"id\": \"done\", \"type\": \"endEvent\" }," \
  "    { \"id\": \"caught\", \"type\": \"endEvent\" } ]," \
  "  \"flows\": [" \
  "    { \"id\": \"f1\", \"from\": \"start\", \"to\": \"task\" }," \
  "    { \"id\": \"f2\", \"from\": \"task\", \"to\": \"done\" }," \
  "    { \"id\": \"f3\", \"from\": \"b\", \"to\": \"caught\" } ] }"

static WnTestRun *
one_task (const char            *engine,
          const char            *worker,
          const char            *scenario,
          const WnEngineOptions *options)
{
  g_autofree char *process = g_strdup_printf (ONE_TASK_PROCESS, engine ? engine : "{}", worker);

  return wn_test_run_new (process, scenario, options);
}

static const char *
end_of (WnTestRun *run, const char *instance)
{
  WnInstanceInfo info;

  g_assert_true (wn_engine_lookup_instance (run->engine, instance, &info));
  return info.state == WN_INSTANCE_COMPLETED ? info.end_node
       : info.state == WN_INSTANCE_TERMINATED ? "(terminated)" : "(active)";
}

/* The run totals, which the engine keeps as it goes (wn_engine_get_stats() is O(1)). */
static void
assert_stats (WnTestRun *run,
              guint      active,
              guint      incidents,
              guint      completed,
              guint      terminated)
{
  WnRunStats stats;

  wn_engine_get_stats (run->engine, &stats);
  g_assert_cmpuint (stats.active, ==, active);
  g_assert_cmpuint (stats.incidents, ==, incidents);
  g_assert_cmpuint (stats.completed, ==, completed);
  g_assert_cmpuint (stats.terminated, ==, terminated);
  g_assert_cmpuint (stats.instances, ==, active + completed + terminated);
}

/* ---- Instances ---- */

static void
test_parks_and_enqueues (void)
{
  g_autoptr(WnTestRun) run = one_task (NULL, "{ \"topic\": \"t\" }",
    "{ \"format\": \"winnow.scenario/1\", \"workers\": [ { \"id\": \"w\", \"topic\": \"t\","
    "  \"responses\": [ { \"after\": \"1s\", \"complete\": { \"x\": 1 } } ] } ] }", NULL);
  const WnEvent *parked;
  WnJobInfo job;

  wn_engine_run (run->engine, MS (500));
  parked = wn_test_find (run, WN_EV_NODE, WN_PH_PARKED, "task", 0);
  g_assert_nonnull (parked);
  g_assert_cmpstr (parked->job, ==, "i1/j1");
  g_assert_true (wn_dispatcher_lookup (wn_engine_get_dispatcher (run->engine), "i1/j1", &job));
  g_assert_cmpstr (job.instance, ==, "i1");
  g_assert_cmpint (job.state, ==, WN_JOB_LOCKED);
  wn_test_run_until (run, WN_TIME_NEVER);
  g_assert_cmpuint (wn_test_count (run, WN_EV_NODE, WN_PH_PARKED, "task"), ==, 1);
  g_assert_cmpstr (end_of (run, "i1"), ==, "done");
  /* no mapping: the raw output under the output variable (the node id) */
  {
    g_autofree char *value = wn_test_variable (run, "i1", "task");
    g_assert_cmpstr (value, ==, "{\"x\":1}");
  }
  g_assert_cmpint (wn_engine_now (run->engine), ==, S (1));
}

static void
test_status_and_collision (void)
{
  const char *scenario =
    "{ \"format\": \"winnow.scenario/1\", \"workers\": [ { \"id\": \"w\", \"topic\": \"t\","
    "  \"responses\": [ { \"workerError\": { \"status\": \"HELD\" } } ] } ] }";
  g_autoptr(WnTestRun) run = one_task (NULL, "{ \"topic\": \"t\", \"status\": { \"var\": \"st\" } }", scenario, NULL);
  g_autofree char *st = NULL;
  g_autofree char *collide_process = NULL;

  wn_test_run_until (run, WN_TIME_NEVER);
  st = wn_test_variable (run, "i1", "st");
  g_assert_cmpstr (st, ==, "\"HELD\"");
  g_assert_cmpstr (end_of (run, "i1"), ==, "done");

  /* the variable already exists and overwrite is false: the task fails */
  collide_process = g_strdup_printf (
    "{ \"format\": \"winnow.process/1\", \"id\": \"p\", \"variables\": { \"st\": 1 },"
    "  \"nodes\": [ { \"id\": \"start\", \"type\": \"startEvent\" },"
    "    { \"id\": \"task\", \"type\": \"serviceTask\", \"worker\": { \"topic\": \"t\", \"status\": { \"var\": \"st\" } } },"
    "    { \"id\": \"done\", \"type\": \"endEvent\" } ],"
    "  \"flows\": [ { \"id\": \"f1\", \"from\": \"start\", \"to\": \"task\" }, { \"id\": \"f2\", \"from\": \"task\", \"to\": \"done\" } ] }");
  {
    g_autoptr(WnTestRun) collide = wn_test_run_new (collide_process, scenario, NULL);
    const WnEvent *failed;

    wn_test_run_until (collide, WN_TIME_NEVER);
    g_assert_cmpstr (end_of (collide, "i1"), ==, "(terminated)");
    failed = wn_test_find (collide, WN_EV_NODE, WN_PH_FAILED, "task", 0);
    g_assert_nonnull (failed);
    g_assert_nonnull (strstr (failed->error, "st"));
  }
}

static void
test_boundary_and_uncaught (void)
{
#define BPMN_SCENARIO(code) \
    "{ \"format\": \"winnow.scenario/1\", \"workers\": [ { \"id\": \"w\", \"topic\": \"t\"," \
    "  \"responses\": [ { \"workerError\": { \"bpmnErrorCode\": \"" code "\" } } ] } ] }"
  const char *caught_s = BPMN_SCENARIO ("E");
  const char *other_s = BPMN_SCENARIO ("Other");
  g_autoptr(WnTestRun) caught = one_task (NULL, "{ \"topic\": \"t\" }", caught_s, NULL);
  g_autoptr(WnTestRun) other = one_task (NULL, "{ \"topic\": \"t\" }", other_s, NULL);

  wn_test_run_until (caught, WN_TIME_NEVER);
  g_assert_cmpstr (end_of (caught, "i1"), ==, "caught");
  g_assert_nonnull (wn_test_find (caught, WN_EV_FAULT, WN_PH_CAUGHT, "b", 0));

  wn_test_run_until (other, WN_TIME_NEVER);
  g_assert_cmpstr (end_of (other, "i1"), ==, "(terminated)");
  g_assert_cmpuint (wn_test_count (other, WN_EV_FAULT, WN_PH_UNCAUGHT, NULL), ==, 1);
}

/* start → split → (a: worker task "fails", b: timer 10s → worker task "slow") → join → end */
#define PARALLEL_PROCESS \
  "{ \"format\": \"winnow.process/1\", \"id\": \"p\", \"engine\": { \"onExhausted\": \"%s\" }," \
  "  \"nodes\": [ { \"id\": \"start\", \"type\": \"startEvent\" }," \
  "    { \"id\": \"split\", \"type\": \"parallelGateway\" }," \
  "    { \"id\": \"a\", \"type\": \"serviceTask\", \"worker\": { \"topic\": \"fails\", \"retry\": { \"policy\": \"fixed\", \"maxAttempts\": 2, \"delay\": \"1s\" } } }," \
  "    { \"id\": \"wait\", \"type\": \"timerEvent\", \"duration\": \"10s\" }," \
  "    { \"id\": \"b\", \"type\": \"serviceTask\", \"worker\": { \"topic\": \"slow\" } }," \
  "    { \"id\": \"join\", \"type\": \"parallelGateway\" }," \
  "    { \"id\": \"done\", \"type\": \"endEvent\" } ]," \
  "  \"flows\": [ { \"id\": \"f1\", \"from\": \"start\", \"to\": \"split\" }," \
  "    { \"id\": \"fa\", \"from\": \"split\", \"to\": \"a\" }, { \"id\": \"fb\", \"from\": \"split\", \"to\": \"wait\" }," \
  "    { \"id\": \"fw\", \"from\": \"wait\", \"to\": \"b\" }," \
  "    { \"id\": \"ja\", \"from\": \"a\", \"to\": \"join\" }, { \"id\": \"jb\", \"from\": \"b\", \"to\": \"join\" }," \
  "    { \"id\": \"fe\", \"from\": \"join\", \"to\": \"done\" } ] }"

static const char *parallel_scenario =
  "{ \"format\": \"winnow.scenario/1\", \"workers\": ["
  "  { \"id\": \"wf\", \"topic\": \"fails\", \"responses\": [ { \"attempts\": \"1-2\", \"fail\": { \"code\": \"500\" } }, { \"complete\": {} } ] },"
  "  { \"id\": \"ws\", \"topic\": \"slow\", \"responses\": [ { \"after\": \"5s\", \"complete\": {} } ] } ] }";

static void
test_fail_cancels_siblings (void)
{
  g_autofree char *process = g_strdup_printf (PARALLEL_PROCESS, "fail");
  g_autoptr(WnTestRun) run = wn_test_run_new (process, parallel_scenario, NULL);

  /* a fails twice (1s apart) while b still waits on its timer */
  wn_test_run_until (run, WN_TIME_NEVER);
  g_assert_cmpstr (end_of (run, "i1"), ==, "(terminated)");
  g_assert_cmpuint (wn_test_count (run, WN_EV_NODE, WN_PH_CANCELED, "wait"), ==, 1);
  g_assert_cmpuint (wn_test_count (run, WN_EV_NODE, WN_PH_ENTERED, "b"), ==, 0);
  g_assert_cmpuint (wn_dispatcher_get_n_jobs (wn_engine_get_dispatcher (run->engine)), ==, 0);
  g_assert_cmpint (wn_test_find (run, WN_EV_INSTANCE, WN_PH_TERMINATED, NULL, 0)->t_us, ==, S (1));
}

static void
test_fail_removes_sibling_job (void)
{
  /* the sibling is parked on a job when the instance terminates: the job leaves the store */
  g_autofree char *process = g_strdup_printf (PARALLEL_PROCESS, "fail");
  const char *scenario =
    "{ \"format\": \"winnow.scenario/1\", \"workers\": ["
    "  { \"id\": \"wf\", \"topic\": \"fails\", \"responses\": [ { \"after\": \"12s\", \"fail\": { \"code\": \"500\" } } ] },"
    "  { \"id\": \"ws\", \"topic\": \"slow\", \"responses\": [ { \"after\": \"60s\", \"complete\": {} } ] } ] }";
  g_autoptr(WnTestRun) run = wn_test_run_new (process, scenario, NULL);
  const WnEvent *rejected;

  wn_test_run_until (run, WN_TIME_NEVER);
  g_assert_cmpstr (end_of (run, "i1"), ==, "(terminated)");
  g_assert_cmpuint (wn_test_count (run, WN_EV_NODE, WN_PH_CANCELED, "b"), ==, 1);
  g_assert_cmpuint (wn_dispatcher_get_n_jobs (wn_engine_get_dispatcher (run->engine)), ==, 0);
  /* the sibling's worker reports later: job not found */
  rejected = wn_test_find (run, WN_EV_JOB, WN_PH_REPORT_REJECTED, "b", 0);
  if (rejected == NULL)
    rejected = wn_test_find (run, WN_EV_JOB, WN_PH_REPORT_REJECTED, NULL, 0);
  g_assert_nonnull (rejected);
  g_assert_cmpstr (rejected->job, ==, "i1/j2");
}

static void
test_incident_retry_and_resolve (void)
{
  g_autofree char *process = g_strdup_printf (PARALLEL_PROCESS, "incident");
  g_autoptr(WnTestRun) run = wn_test_run_new (process, parallel_scenario, NULL);
  g_autoptr(GError) error = NULL;
  WnRunStats stats;

  wn_test_run_until (run, WN_TIME_NEVER);
  /* the token stays at a; b finished its branch and waits at the join */
  g_assert_cmpstr (end_of (run, "i1"), ==, "(active)");
  g_assert_cmpuint (wn_test_count (run, WN_EV_INCIDENT, WN_PH_RAISED, "a"), ==, 1);
  g_assert_cmpuint (wn_test_count (run, WN_EV_NODE, WN_PH_COMPLETED, "b"), ==, 1);
  wn_engine_get_stats (run->engine, &stats);
  g_assert_cmpuint (stats.incidents, ==, 1);

  /* retry: a fresh job with a fresh budget (here the operator fixed the service first) */
  {
    g_autoptr(WnResponse) fixed = wn_response_new (WN_RESPONSE_COMPLETE);
    g_assert_true (wn_engine_inject (run->engine, "fails", NULL, fixed, &error));
  }
  g_assert_true (wn_engine_incident_retry (run->engine, "i1", "a", &error));
  g_assert_no_error (error);
  wn_test_run_until (run, WN_TIME_NEVER);
  g_assert_cmpuint (wn_test_count (run, WN_EV_INCIDENT, WN_PH_RETRIED, "a"), ==, 1);
  g_assert_cmpstr (end_of (run, "i1"), ==, "done");
  assert_stats (run, 0, 0, 1, 0);
  g_assert_false (wn_engine_incident_retry (run->engine, "i1", "a", &error));
  g_assert_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_NOT_ACTIVE);
}

static void
test_incident_resolve (void)
{
  g_autofree char *process = g_strdup_printf (PARALLEL_PROCESS, "incident");
  g_autoptr(WnTestRun) run = wn_test_run_new (process, parallel_scenario, NULL);
  g_autoptr(GError) error = NULL;

  wn_test_run_until (run, WN_TIME_NEVER);
  assert_stats (run, 1, 1, 0, 0);
  g_assert_true (wn_engine_incident_resolve (run->engine, "i1", NULL, &error));
  g_assert_no_error (error);
  wn_test_run_until (run, WN_TIME_NEVER);
  g_assert_cmpstr (end_of (run, "i1"), ==, "done");
  assert_stats (run, 0, 0, 1, 0);
  g_assert_cmpuint (wn_test_count (run, WN_EV_INCIDENT, WN_PH_RESOLVED, "a"), ==, 1);
  /* resolved past a: a ran only its first job */
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_ENQUEUED, "a"), ==, 1);
}

/* An exclusive gateway whose condition cannot be evaluated holds an incident;
 * resolving it takes the default flow (one branch, not all), and a gateway
 * with no default refuses to be resolved and can only be retried. */
#define GATEWAY_PROCESS \
    "{ \"format\": \"winnow.process/1\", \"id\": \"g\", \"variables\": { \"x\": \"text\" }," \
    "  \"engine\": { \"onExhausted\": \"incident\" }," \
    "  \"nodes\": [ { \"id\": \"start\", \"type\": \"startEvent\" }," \
    "    { \"id\": \"fork\", \"type\": \"parallelGateway\" }," \
    "    { \"id\": \"choose\", \"type\": \"exclusiveGateway\"%s }," \
    "    { \"id\": \"left\", \"type\": \"task\" }, { \"id\": \"right\", \"type\": \"task\" }," \
    "    { \"id\": \"merge\", \"type\": \"exclusiveGateway\" }," \
    "    { \"id\": \"wait\", \"type\": \"timerEvent\", \"duration\": \"1s\" }," \
    "    { \"id\": \"join\", \"type\": \"parallelGateway\" }," \
    "    { \"id\": \"done\", \"type\": \"endEvent\" } ]," \
    "  \"flows\": [ { \"id\": \"f0\", \"from\": \"start\", \"to\": \"fork\" }," \
    "    { \"id\": \"f1\", \"from\": \"fork\", \"to\": \"choose\" }," \
    "    { \"id\": \"f2\", \"from\": \"fork\", \"to\": \"wait\" }," \
    "    { \"id\": \"to-left\", \"from\": \"choose\", \"to\": \"left\", \"condition\": \"x > 1\" }," \
    "    { \"id\": \"to-right\", \"from\": \"choose\", \"to\": \"right\"%s }," \
    "    { \"id\": \"f3\", \"from\": \"left\", \"to\": \"merge\" }," \
    "    { \"id\": \"f4\", \"from\": \"right\", \"to\": \"merge\" }," \
    "    { \"id\": \"f5\", \"from\": \"merge\", \"to\": \"join\" }," \
    "    { \"id\": \"f6\", \"from\": \"wait\", \"to\": \"join\" }," \
    "    { \"id\": \"f7\", \"from\": \"join\", \"to\": \"done\" } ] }"

static void
test_incident_resolve_gateway (void)
{
  g_autoptr(GError) error = NULL;

  {
    g_autofree char *process = g_strdup_printf (GATEWAY_PROCESS, ", \"default\": \"to-right\"", "");
    g_autoptr(WnTestRun) run = wn_test_run_new (process, NULL, NULL);

    wn_test_run_until (run, WN_TIME_NEVER);
    g_assert_cmpuint (wn_test_count (run, WN_EV_INCIDENT, WN_PH_RAISED, "choose"), ==, 1);
    g_assert_true (wn_engine_incident_resolve (run->engine, "i1", "choose", &error));
    g_assert_no_error (error);
    wn_test_run_until (run, WN_TIME_NEVER);
    g_assert_cmpstr (end_of (run, "i1"), ==, "done");
    g_assert_cmpuint (wn_test_count (run, WN_EV_NODE, WN_PH_ENTERED, "right"), ==, 1);
    g_assert_cmpuint (wn_test_count (run, WN_EV_NODE, WN_PH_ENTERED, "left"), ==, 0);
    g_assert_cmpuint (wn_test_count (run, WN_EV_NODE, WN_PH_COMPLETED, "join"), ==, 1);
  }
  {
    g_autofree char *process = g_strdup_printf (GATEWAY_PROCESS, "", ", \"condition\": \"x == 'text'\"");
    g_autoptr(WnTestRun) run = wn_test_run_new (process, NULL, NULL);

    wn_test_run_until (run, WN_TIME_NEVER);
    g_assert_false (wn_engine_incident_resolve (run->engine, "i1", "choose", &error));
    g_assert_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_INVALID);
    g_assert_cmpuint (wn_test_count (run, WN_EV_INCIDENT, WN_PH_RESOLVED, NULL), ==, 0);
    g_assert_cmpuint (wn_engine_get_commands (run->engine)->len, ==, 0);
  }
}
#undef GATEWAY_PROCESS

static void
test_incident_cancel (void)
{
  g_autofree char *process = g_strdup_printf (PARALLEL_PROCESS, "incident");
  g_autoptr(WnTestRun) run = wn_test_run_new (process, parallel_scenario, NULL);
  g_autoptr(GError) error = NULL;

  wn_test_run_until (run, WN_TIME_NEVER);
  assert_stats (run, 1, 1, 0, 0);
  g_assert_true (wn_engine_cancel_instance (run->engine, "i1", &error));
  g_assert_cmpstr (end_of (run, "i1"), ==, "(terminated)");
  /* the instance took its incident with it */
  assert_stats (run, 0, 0, 0, 1);
}

/* Instance ids are "i<n>" in start order, exactly: the engine finds them by
 * number, so near misses must not match. */
static void
test_ids_and_lookup (void)
{
  WnEngineOptions options = { 0 };
  g_autoptr(WnTestRun) run = NULL;
  g_autoptr(GError) error = NULL;
  const char *misses[] = { "", "i", "i0", "i01", "i4", "i1x", "x1", "I1", "i-1", "i99999999999999999999" };
  const char *started;
  WnInstanceInfo info;

  options.instances = 3;
  run = one_task (NULL, "{ \"topic\": \"t\" }",
                  "{ \"format\": \"winnow.scenario/1\", \"workers\": [ { \"id\": \"w\", \"topic\": \"t\","
                  "  \"responses\": [ { \"after\": \"1s\", \"complete\": {} } ] } ] }", &options);
  wn_engine_run (run->engine, MS (500));
  for (guint i = 1; i <= 3; i++)
    {
      g_autofree char *id = g_strdup_printf ("i%u", i);

      g_assert_true (wn_engine_lookup_instance (run->engine, id, &info));
      g_assert_cmpstr (info.id, ==, id);
      g_assert_cmpuint (info.number, ==, i);
    }
  for (guint i = 0; i < G_N_ELEMENTS (misses); i++)
    g_assert_false (wn_engine_lookup_instance (run->engine, misses[i], &info));
  g_assert_false (wn_engine_cancel_instance (run->engine, "i01", &error));
  g_assert_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_NO_SUCH_INSTANCE);
  g_clear_error (&error);

  /* the id returned stays valid (and the same) while more instances start */
  started = wn_engine_start_instance (run->engine, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (started, ==, "i4");
  for (guint i = 0; i < 1000; i++)
    wn_engine_start_instance (run->engine, NULL, NULL);
  g_assert_cmpstr (started, ==, "i4");
  g_assert_true (wn_engine_lookup_instance (run->engine, "i1004", &info));
  g_assert_false (wn_engine_lookup_instance (run->engine, "i1005", &info));
  wn_test_run_until (run, WN_TIME_NEVER);
  assert_stats (run, 0, 0, 1004, 0);
}

/* wn_engine_lookup_track() finds what wn_engine_foreach_track() lists, field
 * for field, ended tracks too; near misses of the id find nothing. */
typedef struct {
  WnEngine *engine;
  guint     n;
  guint     n_parked;
  guint     last_instance;   /* the numbers of the track listed last */
  guint     last_track;
} TrackCheck;

static void
check_track_cb (const WnTrackInfo *listed,
                gpointer           data)
{
  TrackCheck *check = data;
  g_autofree char *id = g_strdup (listed->id);
  g_autofree char *job = g_strdup (listed->job);
  WnTrackInfo found;

  g_assert_true (wn_engine_lookup_track (check->engine, id, &found));
  g_assert_cmpstr (found.id, ==, id);
  g_assert_cmpstr (found.instance, ==, listed->instance);
  g_assert_cmpstr (found.node, ==, listed->node);
  g_assert_cmpint (found.state, ==, listed->state);
  g_assert_cmpint (found.since, ==, listed->since);
  g_assert_cmpstr (found.job, ==, job);
  g_assert_cmpstr (found.error, ==, listed->error);

  /* the ids as numbers, and foreach's order by them */
  {
    g_autofree char *instance_id = g_strdup_printf ("i%u", listed->instance_number);
    g_autofree char *track_id = g_strdup_printf ("i%u/t%u", listed->instance_number, listed->number);

    g_assert_cmpstr (listed->instance, ==, instance_id);
    g_assert_cmpstr (id, ==, track_id);
    g_assert_cmpuint (found.instance_number, ==, listed->instance_number);
    g_assert_cmpuint (found.number, ==, listed->number);
    g_assert_cmpuint (found.job_number, ==, listed->job_number);
    g_assert_true (listed->instance_number > check->last_instance ||
                   (listed->instance_number == check->last_instance && listed->number > check->last_track));
    check->last_instance = listed->instance_number;
    check->last_track = listed->number;
  }
  if (job != NULL)
    {
      g_autofree char *job_id = g_strdup_printf ("i%u/j%u", listed->instance_number, listed->job_number);

      g_assert_cmpstr (job, ==, job_id);
    }
  else
    {
      g_assert_cmpuint (listed->job_number, ==, 0);
    }
  check->n++;
  if (found.state == WN_TRACK_PARKED)
    check->n_parked++;
}

static void
test_track_lookup (void)
{
  g_autofree char *process = g_strdup_printf (PARALLEL_PROCESS, "fail");
  WnEngineOptions options = { 0 };
  g_autoptr(WnTestRun) run = NULL;
  const char *misses[] = { "", "i1", "i1/", "i1/t", "i1/t0", "i1/t01", "i1/t9", "i1/j1", "i0/t1",
                           "i3/t1", "i1/t1x", "i1t1", "t1", "i1/t99999999999999999999", NULL };
  TrackCheck check = { 0 };
  WnTrackInfo info;

  options.instances = 2;
  run = wn_test_run_new (process, parallel_scenario, &options);
  check.engine = run->engine;

  /* mid-run: each instance has split, a parked on its job, b on its timer */
  wn_engine_run (run->engine, MS (500));
  wn_engine_foreach_track (run->engine, TRUE, check_track_cb, &check);
  g_assert_cmpuint (check.n, >=, 4);
  g_assert_cmpuint (check.n_parked, ==, 2);
  for (guint i = 0; misses[i] != NULL; i++)
    g_assert_false (wn_engine_lookup_track (run->engine, misses[i], &info));
  g_assert_false (wn_engine_lookup_track (run->engine, NULL, &info));

  /* over: the ended tracks are still found, as they ended */
  wn_test_run_until (run, WN_TIME_NEVER);
  check.n = check.n_parked = check.last_instance = check.last_track = 0;
  wn_engine_foreach_track (run->engine, TRUE, check_track_cb, &check);
  g_assert_cmpuint (check.n, >=, 4);
  g_assert_cmpuint (check.n_parked, ==, 0);
  g_assert_true (wn_engine_lookup_track (run->engine, "i2/t1", &info));
  g_assert_cmpstr (info.instance, ==, "i2");
  g_assert_false (wn_track_state_is_live (info.state));

  /* live until the track has ended */
  g_assert_true (wn_track_state_is_live (WN_TRACK_ACTIVE));
  g_assert_true (wn_track_state_is_live (WN_TRACK_PARKED));
  g_assert_true (wn_track_state_is_live (WN_TRACK_INCIDENT));
  g_assert_true (wn_track_state_is_live (WN_TRACK_JOINING));
  g_assert_false (wn_track_state_is_live (WN_TRACK_DONE));
  g_assert_false (wn_track_state_is_live (WN_TRACK_CANCELED));
  g_assert_false (wn_track_state_is_live (WN_TRACK_FAILED));
}

/* A task's output committed while the variables are still the process's
 * defaults is held back until something reads them: a script, the next job's
 * input, a snapshot. Each must see it, in order. */
static void
test_output_read_later (void)
{
  const char *process =
    "{ \"format\": \"winnow.process/1\", \"id\": \"p\", \"variables\": { \"a\": 0, \"keep\": true },"
    "  \"nodes\": [ { \"id\": \"start\", \"type\": \"startEvent\" },"
    "    { \"id\": \"a\", \"type\": \"serviceTask\", \"worker\": { \"topic\": \"t\" } },"
    "    { \"id\": \"s\", \"type\": \"scriptTask\", \"set\": { \"y\": \"a.n + 1\" } },"
    "    { \"id\": \"b\", \"type\": \"serviceTask\", \"worker\": { \"topic\": \"t\" } },"
    "    { \"id\": \"done\", \"type\": \"endEvent\" } ],"
    "  \"flows\": [ { \"id\": \"f1\", \"from\": \"start\", \"to\": \"a\" },"
    "    { \"id\": \"f2\", \"from\": \"a\", \"to\": \"s\" }, { \"id\": \"f3\", \"from\": \"s\", \"to\": \"b\" },"
    "    { \"id\": \"f4\", \"from\": \"b\", \"to\": \"done\" } ] }";
  const char *scenario =
    "{ \"format\": \"winnow.scenario/1\", \"workers\": [ { \"id\": \"w\", \"topic\": \"t\","
    "  \"responses\": [ { \"after\": \"1s\", \"complete\": { \"n\": 2 } } ] } ] }";
  g_autoptr(WnTestRun) run = wn_test_run_new (process, scenario, NULL);
  g_autoptr(WnTestRun) second = wn_test_run_new (process, scenario, NULL);
  g_autofree char *input = NULL;
  g_autofree char *a = NULL;
  g_autofree char *y = NULL;
  g_autofree char *b = NULL;
  g_autofree char *keep = NULL;
  WnJobInfo job;

  /* the second job takes every variable: a's output (over the default a = 0) and y */
  wn_engine_run (run->engine, MS (1500));
  g_assert_true (wn_dispatcher_lookup (wn_engine_get_dispatcher (run->engine), "i1/j2", &job));
  input = json_to_string (job.input, FALSE);
  g_assert_cmpstr (input, ==, "{\"a\":{\"n\":2},\"keep\":true,\"y\":3}");
  wn_test_run_until (run, WN_TIME_NEVER);
  g_assert_cmpstr (end_of (run, "i1"), ==, "done");
  a = wn_test_variable (run, "i1", "a");
  y = wn_test_variable (run, "i1", "y");
  b = wn_test_variable (run, "i1", "b");
  keep = wn_test_variable (run, "i1", "keep");
  g_assert_cmpstr (a, ==, "{\"n\":2}");
  g_assert_cmpstr (y, ==, "3");
  g_assert_cmpstr (b, ==, "{\"n\":2}");
  g_assert_cmpstr (keep, ==, "true");

  /* a snapshot taken while the output is held back sees it too */
  wn_engine_run (second->engine, MS (1000));
  g_clear_pointer (&a, g_free);
  a = wn_test_variable (second, "i1", "a");
  g_assert_cmpstr (a, ==, "{\"n\":2}");
  wn_test_run_until (second, WN_TIME_NEVER);
  g_clear_pointer (&y, g_free);
  y = wn_test_variable (second, "i1", "y");
  g_assert_cmpstr (y, ==, "3");
}

/* A chain of tasks whose jobs take every variable, each writing its own
 * output: after the first write the instance writes its variables in place,
 * one object from the first task to the last. (Each job's input used to keep
 * the object from being written again, so every task copied every variable
 * before it: a chain of n tasks cost n² / 2 copies.) */
static void
test_chain_writes_in_place (void)
{
  GString *process = g_string_new ("{ \"format\": \"winnow.process/1\", \"id\": \"chain\","
                                   " \"variables\": { \"order\": 1 },"
                                   " \"nodes\": [ { \"id\": \"start\", \"type\": \"startEvent\" }");
  GString *flows = g_string_new ("");
  const char *scenario =
    "{ \"format\": \"winnow.scenario/1\", \"workers\": [ { \"id\": \"w\", \"topic\": \"t\","
    "  \"responses\": [ { \"after\": \"1s\", \"complete\": { \"ok\": true } } ] } ] }";
  g_autoptr(WnTestRun) run = NULL;
  JsonObject *first = NULL;
  guint n = 50;

  for (guint i = 0; i < n; i++)
    {
      g_string_append_printf (process, ", { \"id\": \"s%u\", \"type\": \"serviceTask\", \"worker\": { \"topic\": \"t\" } }", i);
      if (i == 0)
        g_string_append (flows, "{ \"id\": \"f0\", \"from\": \"start\", \"to\": \"s0\" }");
      else
        g_string_append_printf (flows, ", { \"id\": \"f%u\", \"from\": \"s%u\", \"to\": \"s%u\" }", i, i - 1, i);
    }
  g_string_append_printf (process, ", { \"id\": \"end\", \"type\": \"endEvent\" } ], \"flows\": [ %s,"
                          " { \"id\": \"last\", \"from\": \"s%u\", \"to\": \"end\" } ] }", flows->str, n - 1);
  run = wn_test_run_new (process->str, scenario, NULL);
  for (guint i = 1; i < n; i++)
    {
      WnInstanceInfo info;

      /* s(i-1) has completed and s(i) is parked on its job */
      wn_engine_run (run->engine, MS (1000) * i + MS (500));
      g_assert_true (wn_engine_lookup_instance (run->engine, "i1", &info));
      g_assert_cmpuint (json_object_get_size (info.variables), ==, 1 + i);
      if (first == NULL)
        first = info.variables;
      g_assert_true (info.variables == first);
    }
  wn_test_run_until (run, WN_TIME_NEVER);
  g_assert_cmpstr (end_of (run, "i1"), ==, "end");
  g_string_free (process, TRUE);
  g_string_free (flows, TRUE);
}

/* Jobs taking every variable keep them as they were when the job began while
 * a parallel branch writes: the share of a job ends only with the job. */
static void
test_input_kept_while_branch_writes (void)
{
  const char *process =
    "{ \"format\": \"winnow.process/1\", \"id\": \"p\", \"variables\": { \"a\": 0 },"
    "  \"nodes\": [ { \"id\": \"start\", \"type\": \"startEvent\" },"
    "    { \"id\": \"first\", \"type\": \"serviceTask\", \"worker\": { \"topic\": \"fast\" } },"
    "    { \"id\": \"split\", \"type\": \"parallelGateway\" },"
    "    { \"id\": \"slow\", \"type\": \"serviceTask\", \"worker\": { \"topic\": \"slow\" } },"
    "    { \"id\": \"fast\", \"type\": \"serviceTask\", \"worker\": { \"topic\": \"fast\" } },"
    "    { \"id\": \"fast2\", \"type\": \"serviceTask\", \"worker\": { \"topic\": \"fast\" } },"
    "    { \"id\": \"set\", \"type\": \"scriptTask\", \"set\": { \"z\": \"1\" } },"
    "    { \"id\": \"join\", \"type\": \"parallelGateway\" }, { \"id\": \"done\", \"type\": \"endEvent\" } ],"
    "  \"flows\": [ { \"id\": \"f0\", \"from\": \"start\", \"to\": \"first\" },"
    "    { \"id\": \"f1\", \"from\": \"first\", \"to\": \"split\" },"
    "    { \"id\": \"f2\", \"from\": \"split\", \"to\": \"slow\" }, { \"id\": \"f3\", \"from\": \"split\", \"to\": \"fast\" },"
    "    { \"id\": \"f4\", \"from\": \"fast\", \"to\": \"fast2\" }, { \"id\": \"f5\", \"from\": \"fast2\", \"to\": \"set\" },"
    "    { \"id\": \"f6\", \"from\": \"set\", \"to\": \"join\" }, { \"id\": \"f7\", \"from\": \"slow\", \"to\": \"join\" },"
    "    { \"id\": \"f8\", \"from\": \"join\", \"to\": \"done\" } ] }";
  const char *scenario =
    "{ \"format\": \"winnow.scenario/1\", \"workers\": ["
    "  { \"id\": \"s\", \"topic\": \"slow\", \"responses\": [ { \"after\": \"10s\", \"complete\": { \"n\": 1 } } ] },"
    "  { \"id\": \"f\", \"topic\": \"fast\", \"responses\": [ { \"after\": \"1s\", \"complete\": { \"n\": 2 } } ] } ] }";
  g_autoptr(WnTestRun) run = wn_test_run_new (process, scenario, NULL);
  g_autofree char *slow_input = NULL;
  g_autofree char *fast2_input = NULL;
  g_autofree char *z = NULL;
  WnJobInfo job;

  /* first (j1) ends at 1 s, then slow (j2) and fast (j3) share the
   * variables; fast ends at 2 s and fast2 (j4) takes them with fast's output;
   * at 5 s fast2 and the script are done, and slow's job still holds what
   * there was at 1 s */
  wn_engine_run (run->engine, MS (2500));
  g_assert_true (wn_dispatcher_lookup (wn_engine_get_dispatcher (run->engine), "i1/j4", &job));
  fast2_input = json_to_string (job.input, TRUE);
  wn_engine_run (run->engine, MS (5000));
  g_assert_true (wn_dispatcher_lookup (wn_engine_get_dispatcher (run->engine), "i1/j2", &job));
  slow_input = json_to_string (job.input, TRUE);
  /* (a copy's members come in hash order) */
  g_assert_cmpuint (json_object_get_size (json_node_get_object (job.input)), ==, 2);
  g_assert_true (json_object_has_member (json_node_get_object (job.input), "first"));
  g_assert_nonnull (strstr (fast2_input, "\"fast\""));
  g_assert_nonnull (strstr (fast2_input, "\"first\""));
  g_assert_null (strstr (slow_input, "\"fast\""));
  g_assert_null (strstr (slow_input, "\"z\""));
  z = wn_test_variable (run, "i1", "z");
  g_assert_cmpstr (z, ==, "1");
  wn_test_run_until (run, WN_TIME_NEVER);
  g_assert_cmpstr (end_of (run, "i1"), ==, "done");
}

static void
test_boundary_removes_job_late_report (void)
{
  /* worker slow locks for 1s and hangs for 5s; worker fast reclaims at +1s and throws E,
   * the boundary catches it; slow's report at +5s finds no job */
  const char *scenario =
    "{ \"format\": \"winnow.scenario/1\", \"workers\": ["
    "  { \"id\": \"slow\", \"topic\": \"t\", \"lockDuration\": \"1s\", \"responses\": [ { \"after\": \"5s\", \"hang\": true } ] },"
    "  { \"id\": \"fast\", \"topic\": \"t\", \"responses\": [ { \"workerError\": { \"bpmnErrorCode\": \"E\" } } ] } ] }";
  g_autoptr(WnTestRun) run = one_task (NULL, "{ \"topic\": \"t\" }", scenario, NULL);
  const WnEvent *reclaimed, *rejected;

  wn_test_run_until (run, WN_TIME_NEVER);
  reclaimed = wn_test_find (run, WN_EV_JOB, WN_PH_LOCK_RECLAIMED, NULL, 0);
  g_assert_nonnull (reclaimed);
  g_assert_cmpstr (reclaimed->worker, ==, "slow");
  g_assert_cmpint (reclaimed->t_us, ==, S (1) + 1);
  g_assert_cmpstr (end_of (run, "i1"), ==, "caught");
  rejected = wn_test_find (run, WN_EV_JOB, WN_PH_REPORT_REJECTED, NULL, 0);
  g_assert_nonnull (rejected);
  g_assert_cmpint (rejected->t_us, ==, S (5));
  g_assert_cmpstr (rejected->worker, ==, "slow");
  g_assert_nonnull (strstr (rejected->error, "not found"));
}

static void
test_gateways_and_timers (void)
{
  const char *process =
    "{ \"format\": \"winnow.process/1\", \"id\": \"p\", \"variables\": { \"n\": 5 },"
    "  \"nodes\": [ { \"id\": \"start\", \"type\": \"startEvent\" },"
    "    { \"id\": \"wait\", \"type\": \"timerEvent\", \"duration\": \"10s\" },"
    "    { \"id\": \"x\", \"type\": \"exclusiveGateway\", \"default\": \"other\" },"
    "    { \"id\": \"small\", \"type\": \"endEvent\" }, { \"id\": \"medium\", \"type\": \"endEvent\" },"
    "    { \"id\": \"big\", \"type\": \"endEvent\" } ],"
    "  \"flows\": [ { \"id\": \"f1\", \"from\": \"start\", \"to\": \"wait\" }, { \"id\": \"f2\", \"from\": \"wait\", \"to\": \"x\" },"
    "    { \"id\": \"other\", \"from\": \"x\", \"to\": \"big\" },"
    "    { \"id\": \"lt10\", \"from\": \"x\", \"to\": \"medium\", \"condition\": \"n < 10\" },"
    "    { \"id\": \"lt100\", \"from\": \"x\", \"to\": \"small\", \"condition\": \"n < 100\" } ] }";
  const char *scenario =
    "{ \"format\": \"winnow.scenario/1\", \"start\": [ { \"variables\": { \"n\": 5 } },"
    "  { \"variables\": { \"n\": 50 } }, { \"variables\": { \"n\": 500 } } ] }";
  g_autoptr(WnTestRun) run = wn_test_run_new (process, scenario, NULL);
  const WnEvent *decided;

  wn_test_run_until (run, WN_TIME_NEVER);
  g_assert_cmpint (wn_engine_now (run->engine), ==, S (10));
  /* first true condition in document order, else the default */
  g_assert_cmpstr (end_of (run, "i1"), ==, "medium");
  g_assert_cmpstr (end_of (run, "i2"), ==, "small");
  g_assert_cmpstr (end_of (run, "i3"), ==, "big");
  decided = wn_test_find (run, WN_EV_GATEWAY, WN_PH_DECIDED, "x", 0);
  g_assert_cmpstr (decided->flows[0], ==, "lt10");
  g_assert_cmpint (decided->t_us, ==, S (10));
  /* the ends, counted per node */
  g_assert_cmpuint (wn_engine_get_end_count (run->engine, wn_process_find_node (run->process, "small")->index), ==, 1);
  g_assert_cmpuint (wn_engine_get_end_count (run->engine, wn_process_find_node (run->process, "medium")->index), ==, 1);
  g_assert_cmpuint (wn_engine_get_end_count (run->engine, wn_process_find_node (run->process, "big")->index), ==, 1);
  g_assert_cmpuint (wn_engine_get_end_count (run->engine, wn_process_find_node (run->process, "x")->index), ==, 0);
  g_assert_cmpuint (wn_engine_get_end_count (run->engine, wn_process_find_node (run->process, "start")->index), ==, 0);
}

/* Ends count completed instances only: one terminated on the way is not
 * counted at the end it never reached. */
static void
test_end_counts (void)
{
  const char *scenario =
    "{ \"format\": \"winnow.scenario/1\", \"start\": [ { \"variables\": { \"n\": 1 } },"
    "  { \"variables\": { \"n\": 2 } }, { \"variables\": { \"n\": 3 } } ],"
    "  \"workers\": [ { \"id\": \"w\", \"topic\": \"t\","
    "  \"responses\": [ { \"when\": \"input.n == 2\", \"fail\": { \"code\": \"503\" } }, { \"complete\": {} } ] } ] }";
  g_autoptr(WnTestRun) run = one_task (NULL, "{ \"topic\": \"t\", \"retry\": { \"policy\": \"none\" } }",
                                       scenario, NULL);
  guint done = wn_process_find_node (run->process, "done")->index;
  guint total = 0;

  g_assert_cmpuint (wn_engine_get_end_count (run->engine, done), ==, 0);
  wn_test_run_until (run, WN_TIME_NEVER);
  for (guint i = 0; i < run->process->n_nodes; i++)
    total += wn_engine_get_end_count (run->engine, i);
  assert_stats (run, 0, 0, 2, 1);
  g_assert_cmpuint (wn_engine_get_end_count (run->engine, done), ==, 2);
  g_assert_cmpuint (total, ==, 2);
}

/* A run stopped at its limit stands at the limit, even when nothing happened
 * since the last event (a long job still running); a quiescent one at its end. */
static void
test_run_limit_moves_clock (void)
{
  g_autoptr(WnTestRun) run = one_task ("{ \"maxLock\": \"2h\" }", "{ \"topic\": \"t\" }",
    "{ \"format\": \"winnow.scenario/1\", \"workers\": [ { \"id\": \"w\", \"topic\": \"t\","
    "  \"responses\": [ { \"after\": \"1h\", \"complete\": {} } ] } ] }", NULL);

  g_assert_cmpint (wn_engine_run (run->engine, S (600)), ==, WN_STOP_LIMIT);
  g_assert_cmpint (wn_engine_now (run->engine), ==, S (600));
  g_assert_cmpint (wn_engine_run (run->engine, S (7200)), ==, WN_STOP_QUIESCENT);
  g_assert_cmpint (wn_engine_now (run->engine), ==, S (3600));
  g_assert_cmpstr (end_of (run, "i1"), ==, "done");
}

/* The longest duration a file may give, 2^63 − 2 µs, fires (it used to be
 * WN_TIME_NEVER, which never did); a wait or an execution that would end past
 * the end of virtual time fails with a message saying so instead of leaving
 * the run stuck. */
#define TIMER_PROCESS_FMT \
  "{ \"format\": \"winnow.process/1\", \"id\": \"p\"," \
  "  \"nodes\": [ { \"id\": \"start\", \"type\": \"startEvent\" }," \
  "    { \"id\": \"wait\", \"type\": \"timerEvent\", \"duration\": \"%s\" }," \
  "    { \"id\": \"done\", \"type\": \"endEvent\" } ]," \
  "  \"flows\": [ { \"id\": \"f1\", \"from\": \"start\", \"to\": \"wait\" }," \
  "    { \"id\": \"f2\", \"from\": \"wait\", \"to\": \"done\" } ] }"
#define START_AT_1S "{ \"format\": \"winnow.scenario/1\", \"start\": [ { \"at\": \"1s\" } ] }"

static void
test_end_of_virtual_time (void)
{
  const char *trusts[] = { "workerTrusted", "engineAuthoritative" };
  g_autofree char *longest = g_strdup_printf (TIMER_PROCESS_FMT, "9223372036854775806us");
  g_autoptr(WnTestRun) at_zero = wn_test_run_new (longest, NULL, NULL);
  g_autoptr(WnTestRun) late = wn_test_run_new (longest, START_AT_1S, NULL);
  const WnEvent *failed;

  g_assert_cmpint (wn_test_run_until (at_zero, WN_TIME_NEVER), ==, WN_STOP_QUIESCENT);
  g_assert_cmpstr (end_of (at_zero, "i1"), ==, "done");
  g_assert_cmpint (wn_engine_now (at_zero->engine), ==, WN_TIME_MAX);

  g_assert_cmpint (wn_test_run_until (late, WN_TIME_NEVER), ==, WN_STOP_QUIESCENT);
  g_assert_cmpstr (end_of (late, "i1"), ==, "(terminated)");
  failed = wn_test_find (late, WN_EV_NODE, WN_PH_FAILED, "wait", 0);
  g_assert_nonnull (failed);
  g_assert_cmpstr (failed->error, ==,
                   "wait: a wait of 2562047788h00m54.775806s from T+00:01.000 would end past the end of virtual time (2^63 µs)");

  /* a worker's execution: a technical failure, which the policy cannot retry
   * (the next execution would not fit either) */
  for (guint i = 0; i < G_N_ELEMENTS (trusts); i++)
    {
      g_autofree char *engine = g_strdup_printf ("{ \"trust\": \"%s\" }", trusts[i]);
      g_autoptr(WnTestRun) run = one_task (engine, "{ \"topic\": \"t\", \"retry\": { \"policy\": \"none\" } }",
        "{ \"format\": \"winnow.scenario/1\", \"start\": [ { \"at\": \"1s\" } ], \"workers\": [ { \"id\": \"w\","
        "  \"topic\": \"t\", \"responses\": [ { \"after\": \"9223372036854775806us\", \"complete\": {} } ] } ] }", NULL);
      const WnEvent *fault;

      g_test_message ("%s", trusts[i]);
      g_assert_cmpint (wn_test_run_until (run, WN_TIME_NEVER), ==, WN_STOP_QUIESCENT);
      g_assert_cmpstr (end_of (run, "i1"), ==, "(terminated)");
      fault = wn_test_find (run, WN_EV_JOB, WN_PH_FAULT, NULL, 0);
      g_assert_nonnull (fault);
      g_assert_nonnull (strstr (fault->error, "an execution of 2562047788h00m54.775806s from T+00:01.000 "
                                              "would end past the end of virtual time"));
    }

  /* an EngineAuthoritative gate past the end would never open: exhausted, saying why */
  {
    g_autoptr(WnTestRun) run = one_task ("{ \"trust\": \"engineAuthoritative\" }",
      "{ \"topic\": \"t\", \"retry\": { \"policy\": \"fixed\", \"maxAttempts\": 3, \"delay\": \"9223372036854775806us\" } }",
      "{ \"format\": \"winnow.scenario/1\", \"start\": [ { \"at\": \"1s\" } ], \"workers\": [ { \"id\": \"w\","
      "  \"topic\": \"t\", \"responses\": [ { \"fail\": { \"code\": \"503\" } } ] } ] }", NULL);
    const WnEvent *exhausted;

    g_assert_cmpint (wn_test_run_until (run, WN_TIME_NEVER), ==, WN_STOP_QUIESCENT);
    g_assert_cmpstr (end_of (run, "i1"), ==, "(terminated)");
    g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_RETRY_SCHEDULED, NULL), ==, 0);
    exhausted = wn_test_find (run, WN_EV_JOB, WN_PH_RETRIES_EXHAUSTED, NULL, 0);
    g_assert_nonnull (exhausted);
    g_assert_cmpstr (exhausted->error, ==, "503 (the next retry would be due past the end of virtual time)");
  }
}

static void
test_parallel_join_waits (void)
{
  const char *process =
    "{ \"format\": \"winnow.process/1\", \"id\": \"p\","
    "  \"nodes\": [ { \"id\": \"start\", \"type\": \"startEvent\" }, { \"id\": \"split\", \"type\": \"parallelGateway\" },"
    "    { \"id\": \"t1\", \"type\": \"timerEvent\", \"duration\": \"1s\" }, { \"id\": \"t2\", \"type\": \"timerEvent\", \"duration\": \"3s\" },"
    "    { \"id\": \"s\", \"type\": \"scriptTask\", \"set\": { \"x\": \"1 + 1\" } },"
    "    { \"id\": \"join\", \"type\": \"parallelGateway\" }, { \"id\": \"done\", \"type\": \"endEvent\" } ],"
    "  \"flows\": [ { \"id\": \"a\", \"from\": \"start\", \"to\": \"split\" },"
    "    { \"id\": \"b\", \"from\": \"split\", \"to\": \"t1\" }, { \"id\": \"c\", \"from\": \"split\", \"to\": \"t2\" },"
    "    { \"id\": \"d\", \"from\": \"split\", \"to\": \"s\" },"
    "    { \"id\": \"e\", \"from\": \"t1\", \"to\": \"join\" }, { \"id\": \"f\", \"from\": \"t2\", \"to\": \"join\" },"
    "    { \"id\": \"g\", \"from\": \"s\", \"to\": \"join\" }, { \"id\": \"h\", \"from\": \"join\", \"to\": \"done\" } ] }";
  g_autoptr(WnTestRun) run = wn_test_run_new (process, NULL, NULL);
  g_autofree char *x = NULL;

  wn_test_run_until (run, WN_TIME_NEVER);
  g_assert_cmpstr (end_of (run, "i1"), ==, "done");
  g_assert_cmpuint (wn_test_count (run, WN_EV_NODE, WN_PH_COMPLETED, "done"), ==, 1);
  g_assert_cmpint (wn_test_find (run, WN_EV_NODE, WN_PH_ENTERED, "done", 0)->t_us, ==, S (3));
  x = wn_test_variable (run, "i1", "x");
  g_assert_cmpstr (x, ==, "2");
}

/* ---- WorkerTrusted through the engine ---- */

#define FLAKY_FMT \
  "{ \"format\": \"winnow.scenario/1\", \"workers\": [ { \"id\": \"w\", \"topic\": \"t\"%s," \
  "  \"responses\": [ { \"attempts\": \"1-2\", \"fail\": { \"code\": \"503\", \"message\": \"down\" } }," \
  "                  { \"complete\": { \"id\": \"R-1\" } } ] } ] }"

static void
test_trusted_retries_in_process (void)
{
  g_autofree char *scenario = g_strdup_printf (FLAKY_FMT, "");
  g_autoptr(WnTestRun) run = one_task (NULL,
    "{ \"topic\": \"t\", \"retry\": { \"policy\": \"fixed\", \"maxAttempts\": 3, \"delay\": \"1s\" },"
    "  \"outputMapping\": [ { \"path\": \"body.id\", \"var\": \"rid\" } ] }", scenario, NULL);
  g_autofree char *rid = NULL;

  wn_test_run_until (run, WN_TIME_NEVER);
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_EXECUTING, NULL), ==, 3);
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_LOCKED, NULL), ==, 1);
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_ENQUEUED, NULL), ==, 1);
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_WORKER_RETRY_SCHEDULED, NULL), ==, 2);
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_RETRY_SCHEDULED, NULL), ==, 0);
  g_assert_cmpint (wn_test_find (run, WN_EV_JOB, WN_PH_COMPLETED, NULL, 0)->t_us, ==, S (2));
  rid = wn_test_variable (run, "i1", "rid");
  g_assert_cmpstr (rid, ==, "\"R-1\"");
  g_assert_cmpstr (end_of (run, "i1"), ==, "done");
}

static void
test_trusted_no_retry_and_short_lock (void)
{
  g_autofree char *scenario = g_strdup_printf (FLAKY_FMT, "");
  g_autofree char *short_lock = g_strdup_printf (FLAKY_FMT, ", \"lockDuration\": \"10ms\"");
  g_autoptr(WnTestRun) none = one_task (NULL, "{ \"topic\": \"t\", \"retry\": { \"policy\": \"none\" } }", scenario, NULL);
  g_autoptr(WnTestRun) lock = one_task (NULL,
    "{ \"topic\": \"t\", \"retry\": { \"policy\": \"fixed\", \"maxAttempts\": 3, \"delay\": \"1s\" } }", short_lock, NULL);
  const WnEvent *fault;

  wn_test_run_until (none, WN_TIME_NEVER);
  g_assert_cmpuint (wn_test_count (none, WN_EV_JOB, WN_PH_EXECUTING, NULL), ==, 1);
  fault = wn_test_find (none, WN_EV_JOB, WN_PH_FAULT, NULL, 0);
  g_assert_nonnull (fault);
  g_assert_cmpint (fault->t_us, ==, 0);
  g_assert_cmpstr (end_of (none, "i1"), ==, "(terminated)");

  wn_test_run_until (lock, WN_TIME_NEVER);
  g_assert_cmpuint (wn_test_count (lock, WN_EV_JOB, WN_PH_EXECUTING, NULL), ==, 1);
  g_assert_cmpuint (wn_test_count (lock, WN_EV_JOB, WN_PH_WORKER_RETRY_SCHEDULED, NULL), ==, 0);
  g_assert_cmpuint (wn_test_count (lock, WN_EV_JOB, WN_PH_RETRIES_EXHAUSTED, NULL), ==, 1);
  g_assert_cmpstr (end_of (lock, "i1"), ==, "(terminated)");
}

static void
test_trusted_fallback_mapper (void)
{
  g_autofree char *scenario = g_strdup_printf (FLAKY_FMT, "");
  g_autoptr(WnTestRun) run = one_task (NULL,
    "{ \"topic\": \"t\", \"errorMapper\": [ { \"bpmnError\": { \"code\": \"E\" } } ] }", scenario, NULL);

  wn_test_run_until (run, WN_TIME_NEVER);
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_BPMN_ERROR, NULL), ==, 1);
  g_assert_cmpstr (end_of (run, "i1"), ==, "caught");
}

/* semantics §2: a takeover is no attempt, in either trust mode. One worker with
 * two slots: the slot running an execution that crashes dies, and the other one
 * takes the job over when the lock expires. Trust decides where the policy runs,
 * not what it decides (SRD-039), so both modes give the same outcome. */
static void
test_takeover_not_an_attempt (void)
{
  const char *trusts[] = { "workerTrusted", "engineAuthoritative" };
  /* responses by execution: crash, fail, complete — the failure is the first
   * attempt, so fixed(2) retries it; fail, crash, fail — the second failure is
   * the second attempt, so fixed(2) is exhausted */
  const struct {
    const char *responses;
    const char *end;
    guint       retries;
  } cases[] = {
    { "{ \"attempts\": \"1\", \"crash\": true }, { \"attempts\": \"2\", \"fail\": { \"code\": \"503\" } },"
      "{ \"complete\": {} }", "done", 1 },
    { "{ \"attempts\": \"1\", \"fail\": { \"code\": \"503\" } }, { \"attempts\": \"2\", \"crash\": true },"
      "{ \"attempts\": \"3\", \"fail\": { \"code\": \"503\" } }, { \"complete\": {} }", "(terminated)", 1 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    for (guint j = 0; j < G_N_ELEMENTS (trusts); j++)
      {
        g_autofree char *engine = g_strdup_printf ("{ \"trust\": \"%s\" }", trusts[j]);
        g_autofree char *scenario = g_strdup_printf (
          "{ \"format\": \"winnow.scenario/1\", \"workers\": [ { \"id\": \"w\", \"topic\": \"t\","
          "  \"lockDuration\": \"5s\", \"concurrency\": 2, \"responses\": [ %s ] } ] }", cases[i].responses);
        g_autoptr(WnTestRun) run = one_task (engine,
          "{ \"topic\": \"t\", \"retry\": { \"policy\": \"fixed\", \"maxAttempts\": 2, \"delay\": \"100ms\" } }",
          scenario, NULL);
        WnRunStats stats;

        g_test_message ("case %u, %s", i, trusts[j]);
        wn_test_run_until (run, WN_TIME_NEVER);
        g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_LOCK_RECLAIMED, NULL), ==, 1);
        g_assert_cmpstr (end_of (run, "i1"), ==, cases[i].end);
        wn_engine_get_stats (run->engine, &stats);
        g_assert_cmpuint (stats.retries, ==, cases[i].retries);
        g_assert_cmpuint (stats.exhausted, ==, cases[i].end[0] == '(' ? 1 : 0);
      }
}

/* a worker on topic t with one response, after 10ms */
#define ONE_RESPONSE_FMT \
  "{ \"format\": \"winnow.scenario/1\", \"workers\": [ { \"id\": \"w\", \"topic\": \"t\"," \
  "  \"responses\": [ { \"after\": \"10ms\", %s } ] } ] }"

/* `"hang": true` reports {} when it reports in time: the same output mapping as
 * `"complete": {}`, in both trust modes — a required path missing fails the task
 * the same way; with no mapping {} goes under the output variable. */
static void
test_hang_maps_like_complete (void)
{
  const char *trusts[] = { "workerTrusted", "engineAuthoritative" };
  const char *mapped =
    "{ \"topic\": \"t\", \"outputMapping\": [ { \"path\": \"body.id\", \"var\": \"id\", \"required\": true } ] }";

  for (guint i = 0; i < G_N_ELEMENTS (trusts); i++)
    {
      g_autofree char *engine = g_strdup_printf ("{ \"trust\": \"%s\" }", trusts[i]);
      g_autofree char *hang = g_strdup_printf (ONE_RESPONSE_FMT, "\"hang\": true");
      g_autofree char *complete = g_strdup_printf (ONE_RESPONSE_FMT, "\"complete\": {}");
      g_autoptr(WnTestRun) hung = one_task (engine, mapped, hang, NULL);
      g_autoptr(WnTestRun) completed = one_task (engine, mapped, complete, NULL);
      g_autoptr(WnTestRun) direct = one_task (engine, "{ \"topic\": \"t\" }", hang, NULL);
      const WnEvent *hung_failed, *completed_failed;
      g_autofree char *value = NULL;

      g_test_message ("%s", trusts[i]);
      wn_test_run_until (hung, WN_TIME_NEVER);
      wn_test_run_until (completed, WN_TIME_NEVER);
      g_assert_cmpstr (end_of (hung, "i1"), ==, "(terminated)");
      hung_failed = wn_test_find (hung, WN_EV_NODE, WN_PH_FAILED, "task", 0);
      completed_failed = wn_test_find (completed, WN_EV_NODE, WN_PH_FAILED, "task", 0);
      g_assert_nonnull (hung_failed);
      g_assert_nonnull (completed_failed);
      g_assert_cmpstr (hung_failed->error, ==, completed_failed->error);
      g_assert_nonnull (strstr (hung_failed->error, "body.id"));

      wn_test_run_until (direct, WN_TIME_NEVER);
      g_assert_cmpstr (end_of (direct, "i1"), ==, "done");
      value = wn_test_variable (direct, "i1", "task");
      g_assert_cmpstr (value, ==, "{}");
    }
}

static void
test_trusted_stale_worker (void)
{
  /* every execution outlasts the 100ms lock: the worker's failure comes too
   * late to retry or exhaust anything, and its report is refused */
  const char *scenario =
    "{ \"format\": \"winnow.scenario/1\", \"workers\": [ { \"id\": \"w\", \"topic\": \"t\","
    "  \"lockDuration\": \"100ms\", \"responses\": [ { \"after\": \"200ms\", \"fail\": { \"code\": \"503\" } } ] } ] }";
  g_autoptr(WnTestRun) run = one_task (NULL,
    "{ \"topic\": \"t\", \"retry\": { \"policy\": \"fixed\", \"maxAttempts\": 3, \"delay\": \"10ms\" } }", scenario, NULL);
  WnRunStats stats;

  g_assert_cmpint (wn_test_run_until (run, S (1)), ==, WN_STOP_LIMIT);
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_RETRIES_EXHAUSTED, NULL), ==, 0);
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_WORKER_RETRY_SCHEDULED, NULL), ==, 0);
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_REPORT_REJECTED, NULL), >=, 4);
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_LOCK_RECLAIMED, NULL), >=, 4);
  wn_engine_get_stats (run->engine, &stats);
  g_assert_cmpuint (stats.exhausted, ==, 0);
  g_assert_cmpstr (end_of (run, "i1"), ==, "(active)");
}

static void
test_self_classification_by_trust (void)
{
  const char *scenario =
    "{ \"format\": \"winnow.scenario/1\", \"workers\": [ { \"id\": \"w\", \"topic\": \"t\","
    "  \"responses\": [ { \"workerError\": { \"bpmnErrorCode\": \"E\", \"message\": \"declined\" } } ] } ] }";
  g_autoptr(WnTestRun) trusted = one_task (NULL, "{ \"topic\": \"t\" }", scenario, NULL);
  g_autoptr(WnTestRun) authoritative = one_task (NULL,
    "{ \"topic\": \"t\", \"trust\": \"engineAuthoritative\", \"retry\": { \"policy\": \"none\" } }", scenario, NULL);

  wn_test_run_until (trusted, WN_TIME_NEVER);
  g_assert_cmpstr (end_of (trusted, "i1"), ==, "caught");
  wn_test_run_until (authoritative, WN_TIME_NEVER);
  g_assert_cmpstr (end_of (authoritative, "i1"), ==, "(terminated)");
  g_assert_cmpuint (wn_test_count (authoritative, WN_EV_JOB, WN_PH_BPMN_ERROR, NULL), ==, 0);
  g_assert_cmpuint (wn_test_count (authoritative, WN_EV_JOB, WN_PH_FAULT, NULL), ==, 1);
}

static void
test_authoritative_default_exhausts (void)
{
  const char *scenario =
    "{ \"format\": \"winnow.scenario/1\", \"workers\": [ { \"id\": \"w\", \"topic\": \"t\","
    "  \"responses\": [ { \"fail\": { \"code\": \"503\", \"message\": \"unavailable\" } } ] } ] }";
  g_autoptr(WnTestRun) run = one_task ("{ \"trust\": \"engineAuthoritative\" }", "{ \"topic\": \"t\" }", scenario, NULL);
  const WnEvent *exhausted, *fault;

  wn_test_run_until (run, WN_TIME_NEVER);
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_RETRY_SCHEDULED, NULL), ==, 2);
  exhausted = wn_test_find (run, WN_EV_JOB, WN_PH_RETRIES_EXHAUSTED, NULL, 0);
  g_assert_nonnull (exhausted);
  g_assert_cmpuint (exhausted->attempts, ==, 3);
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_FAULT, NULL), ==, 1);
  fault = wn_test_find (run, WN_EV_JOB, WN_PH_FAULT, NULL, 0);
  g_assert_nonnull (strstr (fault->error, "t"));
  g_assert_nonnull (strstr (fault->error, "3"));
  g_assert_nonnull (strstr (fault->error, "unavailable"));
  g_assert_cmpstr (end_of (run, "i1"), ==, "(terminated)");
  /* the track parked once and woke once */
  g_assert_cmpuint (wn_test_count (run, WN_EV_NODE, WN_PH_PARKED, "task"), ==, 1);
  g_assert_cmpuint (wn_test_count (run, WN_EV_NODE, WN_PH_FAILED, "task"), ==, 1);
}

/* ---- Policy resolution ---- */

static void
test_policy_resolution (void)
{
  const char *engine =
    "{ \"trust\": \"engineAuthoritative\", \"retry\": { \"policy\": \"fixed\", \"maxAttempts\": 5, \"delay\": \"2s\" },"
    "  \"errorMapper\": [ { \"code\": \"1\", \"technical\": true } ] }";
  /* a slow worker keeps the job in the store */
  const char *slow =
    "{ \"format\": \"winnow.scenario/1\", \"workers\": [ { \"id\": \"w\", \"topic\": \"t\","
    "  \"responses\": [ { \"after\": \"1s\", \"complete\": {} } ] } ] }";
  g_autoptr(WnTestRun) inherit = one_task (engine, "{ \"topic\": \"t\" }", slow, NULL);
  g_autoptr(WnTestRun) own = one_task (engine,
    "{ \"topic\": \"t\", \"trust\": \"workerTrusted\", \"retry\": { \"policy\": \"none\" },"
    "  \"errorMapper\": [ { \"code\": \"2\", \"technical\": true }, { \"code\": \"3\", \"technical\": true } ],"
    "  \"outputMapping\": [ { \"path\": \"body.x\", \"var\": \"x\" } ] }", slow, NULL);
  g_autoptr(WnTestRun) defaults = one_task (NULL, "{ \"topic\": \"t\" }", slow, NULL);
  WnJobInfo job;
  WnDispatcher *d;

  /* stop right after the enqueue, before the implicit worker takes the job */
  wn_scheduler_step_next (wn_engine_get_scheduler (inherit->engine));
  d = wn_engine_get_dispatcher (inherit->engine);
  g_assert_true (wn_dispatcher_lookup (d, "i1/j1", &job));
  g_assert_cmpint (job.policy->trust, ==, WN_TRUST_ENGINE_AUTHORITATIVE);
  g_assert_cmpint (job.policy->retry.kind, ==, WN_RETRY_FIXED);
  g_assert_cmpuint (job.policy->retry.max_attempts, ==, 5);
  g_assert_cmpuint (wn_error_mapper_get_n_rules (job.policy->mapper), ==, 1);
  g_assert_null (job.policy->mapping);

  wn_scheduler_step_next (wn_engine_get_scheduler (own->engine));
  d = wn_engine_get_dispatcher (own->engine);
  g_assert_true (wn_dispatcher_lookup (d, "i1/j1", &job));
  g_assert_cmpint (job.policy->trust, ==, WN_TRUST_WORKER_TRUSTED);
  g_assert_cmpint (job.policy->retry.kind, ==, WN_RETRY_NONE);
  g_assert_cmpuint (wn_error_mapper_get_n_rules (job.policy->mapper), ==, 2);
  g_assert_nonnull (job.policy->mapping);

  wn_scheduler_step_next (wn_engine_get_scheduler (defaults->engine));
  d = wn_engine_get_dispatcher (defaults->engine);
  g_assert_true (wn_dispatcher_lookup (d, "i1/j1", &job));
  g_assert_cmpint (job.policy->trust, ==, WN_TRUST_WORKER_TRUSTED);
  g_assert_cmpint (job.policy->retry.kind, ==, WN_RETRY_EXPONENTIAL);
  g_assert_cmpuint (job.policy->retry.max_attempts, ==, 3);
  g_assert_null (job.policy->mapper);
}

static void
test_policy_kept_after_change (void)
{
  const char *scenario =
    "{ \"format\": \"winnow.scenario/1\", \"start\": [ { \"at\": \"0s\" }, { \"at\": \"1s\" } ],"
    "  \"workers\": [ { \"id\": \"w\", \"topic\": \"t\", \"responses\": [ { \"after\": \"10s\", \"complete\": {} } ] } ] }";
  g_autoptr(WnTestRun) run = one_task (NULL, "{ \"topic\": \"t\" }", scenario, NULL);
  WnDispatcher *d = wn_engine_get_dispatcher (run->engine);
  g_autoptr(GError) error = NULL;
  WnJobInfo job;

  wn_engine_run (run->engine, MS (500));
  wn_engine_set_trust_default (run->engine, WN_TRUST_ENGINE_AUTHORITATIVE);
  wn_engine_run (run->engine, MS (1500));
  g_assert_true (wn_dispatcher_lookup (d, "i1/j1", &job));
  g_assert_cmpint (job.policy->trust, ==, WN_TRUST_WORKER_TRUSTED);
  g_assert_true (wn_dispatcher_lookup (d, "i2/j1", &job));
  g_assert_cmpint (job.policy->trust, ==, WN_TRUST_ENGINE_AUTHORITATIVE);

  /* a task-level setting wins over the engine default, for later jobs only */
  g_assert_true (wn_engine_set_task_trust (run->engine, "task", WN_TRUST_WORKER_TRUSTED, &error));
  g_assert_no_error (error);
  g_assert_cmpint (wn_engine_get_task_trust (run->engine, "task"), ==, WN_TRUST_WORKER_TRUSTED);
  g_assert_true (wn_dispatcher_lookup (d, "i2/j1", &job));
  g_assert_cmpint (job.policy->trust, ==, WN_TRUST_ENGINE_AUTHORITATIVE);
  {
    const char *id = wn_engine_start_instance (run->engine, NULL, &error);
    g_autofree char *job_id = g_strdup_printf ("%s/j1", id);
    g_assert_no_error (error);
    g_assert_true (wn_dispatcher_lookup (d, job_id, &job));
    g_assert_cmpint (job.policy->trust, ==, WN_TRUST_WORKER_TRUSTED);
  }
  g_assert_false (wn_engine_set_task_trust (run->engine, "start", WN_TRUST_WORKER_TRUSTED, &error));
  g_assert_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_NOT_A_WORKER_TASK);
  wn_test_run_until (run, WN_TIME_NEVER);
}

static void
test_injection (void)
{
  const char *scenario =
    "{ \"format\": \"winnow.scenario/1\", \"start\": [ { \"at\": \"0s\" }, { \"at\": \"5s\" } ],"
    "  \"workers\": [ { \"id\": \"w\", \"topic\": \"t\", \"responses\": [ { \"complete\": {} } ] } ],"
    "  \"faults\": [ { \"at\": \"1s\", \"topic\": \"t\", \"next\": { \"workerError\": { \"bpmnErrorCode\": \"E\" } } } ] }";
  g_autoptr(WnTestRun) run = one_task (NULL, "{ \"topic\": \"t\" }", scenario, NULL);
  g_autoptr(WnResponse) crash = wn_response_new (WN_RESPONSE_CRASH);
  g_autoptr(GError) error = NULL;

  wn_test_run_until (run, WN_TIME_NEVER);
  g_assert_cmpuint (wn_test_count (run, WN_EV_INJECT, WN_PH_APPLIED, NULL), ==, 1);
  g_assert_cmpstr (end_of (run, "i1"), ==, "done");
  g_assert_cmpstr (end_of (run, "i2"), ==, "caught");

  /* a crash: the worker never reports, the lock stays, nothing can progress */
  g_assert_true (wn_engine_inject (run->engine, NULL, "w", crash, &error));
  g_assert_no_error (error);
  wn_engine_start_instance (run->engine, NULL, &error);
  g_assert_cmpint (wn_test_run_until (run, WN_TIME_NEVER), ==, WN_STOP_QUIESCENT);
  g_assert_cmpstr (end_of (run, "i3"), ==, "(active)");
  {
    g_autoptr(GPtrArray) waiting = wn_engine_describe_waiting (run->engine);
    g_assert_cmpuint (waiting->len, ==, 1);
    g_assert_nonnull (strstr (g_ptr_array_index (waiting, 0), "no live worker"));
  }
  g_assert_false (wn_engine_inject (run->engine, "nobody", NULL, crash, &error));
  g_assert_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_NO_SUCH_TOPIC);
}

/* ---- Breakpoints ---- */

static void
test_breakpoints (void)
{
  const char *scenario =
    "{ \"format\": \"winnow.scenario/1\", \"start\": [ { \"at\": \"0s\" }, { \"at\": \"10s\" } ],"
    "  \"workers\": [ { \"id\": \"w\", \"topic\": \"t\","
    "  \"responses\": [ { \"after\": \"100ms\", \"fail\": { \"code\": \"503\" } } ] } ] }";
  g_autoptr(WnTestRun) run = one_task ("{ \"trust\": \"engineAuthoritative\" }",
    "{ \"topic\": \"t\", \"retry\": { \"policy\": \"fixed\", \"maxAttempts\": 3, \"delay\": \"1s\" } }", scenario, NULL);
  g_autoptr(GError) error = NULL;
  WnEventKind kind;
  WnEventPhase phase;
  g_autofree char *node = NULL;
  const WnEvent *hit = NULL;
  const WnBreakpoint *bps;
  guint id, entered, n;

  g_assert_true (wn_breakpoint_parse ("job.retriesExhausted", &kind, &phase, &node, &error));
  g_assert_no_error (error);
  g_assert_null (node);
  id = wn_engine_add_breakpoint (run->engine, kind, phase, node);
  entered = wn_engine_add_breakpoint (run->engine, WN_EV_NODE, WN_PH_ENTERED, "done");
  wn_engine_enable_breakpoint (run->engine, entered, FALSE);

  /* executions at 0, 1.1s, 2.2s each fail after 100ms: exhausted at 2.3s */
  g_assert_cmpint (wn_engine_run (run->engine, WN_TIME_NEVER), ==, WN_STOP_REQUESTED);
  g_assert_cmpint (wn_engine_now (run->engine), ==, 2300000);
  g_assert_cmpuint (wn_engine_get_last_hit (run->engine, &hit), ==, id);
  g_assert_nonnull (hit);
  g_assert_cmpstr (hit->job, ==, "i1/j1");
  /* stopped before anything later: the terminal is posted but not yet applied */
  g_assert_cmpuint (wn_test_count (run, WN_EV_INSTANCE, WN_PH_TERMINATED, NULL), ==, 0);
  bps = wn_engine_get_breakpoints (run->engine, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (bps[0].hits, ==, 1);

  /* resume: the second instance exhausts too */
  g_assert_cmpint (wn_engine_run (run->engine, WN_TIME_NEVER), ==, WN_STOP_REQUESTED);
  g_assert_cmpint (wn_engine_now (run->engine), ==, 12300000);
  g_assert_true (wn_engine_remove_breakpoint (run->engine, id));
  g_assert_false (wn_engine_remove_breakpoint (run->engine, id));
  g_assert_cmpint (wn_test_run_until (run, WN_TIME_NEVER), ==, WN_STOP_QUIESCENT);

  g_assert_false (wn_breakpoint_parse ("job.nothing", &kind, &phase, &node, &error));
  g_assert_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_false (wn_breakpoint_parse ("retriesExhausted", &kind, &phase, &node, &error));
  g_clear_error (&error);
  g_assert_true (wn_breakpoint_parse ("node.entered@task", &kind, &phase, &node, &error));
  g_assert_cmpstr (node, ==, "task");
  g_assert_cmpint (kind, ==, WN_EV_NODE);
}

/* A breakpoint on a phase its kind never has could never fire: refused. */
static void
test_breakpoint_phases (void)
{
  const char *accepted[] = {
    "instance.created", "instance.completed", "instance.terminated",
    "node.entered", "node.parked", "node.completed", "node.canceled", "node.failed", "node.incident",
    "job.enqueued", "job.locked", "job.lockReclaimed", "job.lockExtended", "job.executing",
    "job.retryScheduled", "job.workerRetryScheduled", "job.retriesExhausted", "job.mapperError",
    "job.bpmnError", "job.status", "job.fault", "job.reportRejected", "job.completed",
    "job.unlocked", "job.workerRearmed", "job.retriesSet", "job.workerPolicyIgnored",
    "fault.thrown", "fault.caught", "fault.uncaught",
    "incident.raised", "incident.retried", "incident.resolved",
    "gateway.decided", "inject.applied", "inject.canceled",
    "clock.paused", "clock.resumed", "clock.stepped",
    "job.canceled", "scope.entered", "scope.completed", "scope.canceled", "timer.fired", "userTask.created", "userTask.assigned", "userTask.completed", "message.correlated", "message.lost", "message.buffered", "message.expired",
    "node.entered@task", "job.retriesExhausted@task",
  };
  const char *refused[] = {
    "job.entered", "job.entered@task", "instance.entered", "node.created", "node.decided",
    "gateway.completed", "fault.raised", "incident.thrown", "inject.paused", "clock.applied",
    "instance.enqueued", "job.terminated",
  };
  guint n_accepted = 0;

  for (guint i = 0; i < G_N_ELEMENTS (accepted); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *node = NULL;
      WnEventKind kind;
      WnEventPhase phase;

      g_assert_true (wn_breakpoint_parse (accepted[i], &kind, &phase, &node, &error));
      g_assert_no_error (error);
      g_assert_true (wn_event_phase_belongs (kind, phase));
    }
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autoptr(GError) error = NULL;
      char *node = NULL;
      WnEventKind kind;
      WnEventPhase phase;

      g_assert_false (wn_breakpoint_parse (refused[i], &kind, &phase, &node, &error));
      g_assert_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_INVALID);
      g_assert_nonnull (g_strrstr (error->message, "is not a phase of"));
      g_assert_null (node);
    }

  /* parsing agrees with the table for every pair, and every phase has a kind */
  for (guint k = 0; k < WN_EV_N_KINDS; k++)
    for (guint p = 0; p < WN_PH_N_PHASES; p++)
      {
        g_autofree char *spec = g_strdup_printf ("%s.%s", wn_event_kind_to_string (k), wn_event_phase_to_string (p));
        g_autofree char *node = NULL;
        WnEventKind kind;
        WnEventPhase phase;
        gboolean belongs = wn_event_phase_belongs (k, p);

        g_assert_cmpint (wn_breakpoint_parse (spec, &kind, &phase, &node, NULL), ==, belongs);
        n_accepted += belongs;
      }
  /* the unnamed pairs above are all there is */
  g_assert_cmpuint (n_accepted, ==, G_N_ELEMENTS (accepted) - 2);
  for (guint p = 0; p < WN_PH_N_PHASES; p++)
    {
      gboolean any = FALSE;

      for (guint k = 0; k < WN_EV_N_KINDS; k++)
        any = any || wn_event_phase_belongs (k, p);
      g_assert_true (any);
    }
  g_assert_false (wn_event_phase_belongs (WN_EV_N_KINDS, WN_PH_CREATED));
}

/* Run with a bound on the number of actions, so that a loop the engine failed to
 * stop fails the test quickly instead of taking the machine. */
static void
run_bounded (WnTestRun *run)
{
  WnScheduler *scheduler = wn_engine_get_scheduler (run->engine);

  g_assert_cmpint (wn_scheduler_run_budget (scheduler, WN_TIME_NEVER, 2000000), ==, WN_STOP_QUIESCENT);
  wn_test_check_invariants (run);
}

#define ALWAYS_FAILS \
  "{ \"format\": \"winnow.scenario/1\", \"workers\": [ { \"id\": \"w\", \"topic\": \"t\"," \
  "  \"responses\": [ { \"fail\": { \"code\": \"500\" } } ] } ] }"

/* maxAttempts 4294967295 with no delay: each execution fails and is retried at
 * once, in both trust modes; the job ends after WN_LOOP_MAX_EXECUTIONS at t = 0
 * with a fault naming it, its topic and its node, through the failure path. */
static void
test_zero_time_retry_loop (void)
{
  static const char *const trusts[] = { "workerTrusted", "engineAuthoritative" };

  for (guint i = 0; i < G_N_ELEMENTS (trusts); i++)
    {
      g_autofree char *worker = g_strdup_printf (
        "{ \"topic\": \"t\", \"trust\": \"%s\","
        "  \"retry\": { \"policy\": \"fixed\", \"maxAttempts\": 4294967295, \"delay\": 0 } }", trusts[i]);
      g_autoptr(WnTestRun) run = one_task (NULL, worker, ALWAYS_FAILS, NULL);
      const WnEvent *fault;

      run_bounded (run);
      g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_EXECUTING, NULL), ==, WN_LOOP_MAX_EXECUTIONS);
      fault = wn_test_find (run, WN_EV_JOB, WN_PH_FAULT, NULL, 0);
      g_assert_nonnull (fault);
      g_assert_cmpint (fault->t_us, ==, 0);
      g_assert_cmpstr (fault->error, ==,
                       "job i1/j1 (topic t, node task) executed 10000 times without virtual time passing");
      g_assert_cmpuint (wn_test_count (run, WN_EV_NODE, WN_PH_FAILED, "task"), ==, 1);
      g_assert_cmpstr (end_of (run, "i1"), ==, "(terminated)");
    }
}

/* The budget is per instant: a retry loop whose executions take time is not one. */
static void
test_retry_loop_with_time_runs_on (void)
{
  g_autoptr(WnTestRun) run = one_task (NULL,
    "{ \"topic\": \"t\", \"trust\": \"engineAuthoritative\","
    "  \"retry\": { \"policy\": \"fixed\", \"maxAttempts\": 4294967295, \"delay\": \"1ms\" } }",
    ALWAYS_FAILS, NULL);

  g_assert_cmpint (wn_test_run_until (run, S (20)), ==, WN_STOP_LIMIT);
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_EXECUTING, NULL), >, WN_LOOP_MAX_EXECUTIONS);
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_FAULT, NULL), ==, 0);
}

/* A cycle through a task whose (implicit) worker completes at once: each pass is
 * a new job, so the track's count of nodes runs across its parks. With
 * onExhausted incident the loop holds an incident, and the operator's retry gets
 * a fresh count. */
#define ZERO_TIME_CYCLE \
  "{ \"format\": \"winnow.process/1\", \"id\": \"cycle\", \"engine\": { \"onExhausted\": \"%s\" }," \
  "  \"nodes\": [" \
  "    { \"id\": \"start\", \"type\": \"startEvent\" }," \
  "    { \"id\": \"call\", \"type\": \"serviceTask\", \"worker\": { \"topic\": \"svc\" } }," \
  "    { \"id\": \"again\", \"type\": \"exclusiveGateway\", \"default\": \"f4\" }," \
  "    { \"id\": \"done\", \"type\": \"endEvent\" } ]," \
  "  \"flows\": [ { \"id\": \"f1\", \"from\": \"start\", \"to\": \"call\" }," \
  "    { \"id\": \"f2\", \"from\": \"call\", \"to\": \"again\" }," \
  "    { \"id\": \"f3\", \"from\": \"again\", \"to\": \"done\", \"condition\": \"false\" }," \
  "    { \"id\": \"f4\", \"from\": \"again\", \"to\": \"call\" } ] }"

static void
test_zero_time_cycle_through_jobs (void)
{
  g_autofree char *failing = g_strdup_printf (ZERO_TIME_CYCLE, "fail");
  g_autofree char *holding = g_strdup_printf (ZERO_TIME_CYCLE, "incident");
  g_autoptr(WnTestRun) fail = wn_test_run_new (failing, NULL, NULL);
  g_autoptr(WnTestRun) incident = wn_test_run_new (holding, NULL, NULL);
  g_autoptr(GError) error = NULL;
  const WnEvent *failed;

  run_bounded (fail);
  failed = wn_test_find (fail, WN_EV_NODE, WN_PH_FAILED, NULL, 0);
  g_assert_nonnull (failed);
  g_assert_cmpstr (failed->error, ==, "the track loops without virtual time passing");
  g_assert_cmpint (failed->t_us, ==, 0);
  g_assert_cmpstr (end_of (fail, "i1"), ==, "(terminated)");

  run_bounded (incident);
  g_assert_cmpuint (wn_test_count (incident, WN_EV_INCIDENT, WN_PH_RAISED, NULL), ==, 1);
  g_assert_cmpstr (end_of (incident, "i1"), ==, "(active)");
  g_assert_true (wn_engine_incident_retry (incident->engine, "i1", NULL, &error));
  g_assert_no_error (error);
  run_bounded (incident);
  /* a fresh count: as many passes again before the second incident */
  g_assert_cmpuint (wn_test_count (incident, WN_EV_INCIDENT, WN_PH_RAISED, NULL), ==, 2);
  g_assert_cmpuint (wn_test_count (incident, WN_EV_JOB, WN_PH_ENQUEUED, NULL), >,
                    wn_test_count (fail, WN_EV_JOB, WN_PH_ENQUEUED, NULL) + 1000);
}

/* A string doubled up to lite's limit, then copied into one variable after
 * another: the instance's variables may hold 16 MiB in all, and the script that
 * would pass that fails with a message naming the limit. */
static void
test_variable_bytes_limit (void)
{
  GString *sets = g_string_new ("");
  g_autofree char *process = NULL;
  g_autoptr(WnTestRun) run = NULL;
  const WnEvent *failed;

  for (guint i = 1; i <= 20; i++)
    g_string_append_printf (sets, "%s\"a%u\": \"s\"", i > 1 ? ", " : "", i);
  process = g_strdup_printf (
    "{ \"format\": \"winnow.process/1\", \"id\": \"copies\", \"variables\": { \"s\": \"x\" },"
    "  \"nodes\": ["
    "    { \"id\": \"start\", \"type\": \"startEvent\" },"
    "    { \"id\": \"grow\", \"type\": \"scriptTask\", \"set\": { \"s\": \"s + s\" } },"
    "    { \"id\": \"big\", \"type\": \"exclusiveGateway\", \"default\": \"f3\" },"
    "    { \"id\": \"copy\", \"type\": \"scriptTask\", \"set\": { %s } },"
    "    { \"id\": \"end\", \"type\": \"endEvent\" } ],"
    "  \"flows\": [ { \"id\": \"f1\", \"from\": \"start\", \"to\": \"grow\" },"
    "    { \"id\": \"f2\", \"from\": \"grow\", \"to\": \"big\" },"
    "    { \"id\": \"f3\", \"from\": \"big\", \"to\": \"grow\" },"
    "    { \"id\": \"f4\", \"from\": \"big\", \"to\": \"copy\", \"condition\": \"len(s) >= 1048576\" },"
    "    { \"id\": \"f5\", \"from\": \"copy\", \"to\": \"end\" } ] }", sets->str);
  g_string_free (sets, TRUE);
  run = wn_test_run_new (process, NULL, NULL);

  wn_test_run_until (run, WN_TIME_NEVER);
  failed = wn_test_find (run, WN_EV_NODE, WN_PH_FAILED, "copy", 0);
  g_assert_nonnull (failed);
  /* s and a1…a14 hold 15 MiB, and a15 one more: 16 MiB and 37 bytes of names */
  g_assert_cmpstr (failed->error, ==,
                   "script copy: a15: the variables would hold 16777253 bytes, over the limit of 16777216 per instance");
  g_assert_cmpstr (end_of (run, "i1"), ==, "(terminated)");
}

/* The track's count starts again whenever virtual time moves: a loop through a
 * 1ms timer passes far more than 100 000 nodes in all and is not stopped. */
static void
test_loop_with_time_runs_on (void)
{
  g_autoptr(WnTestRun) run = wn_test_run_new (
    "{ \"format\": \"winnow.process/1\", \"id\": \"ticks\", \"variables\": { \"n\": 0 },"
    "  \"nodes\": ["
    "    { \"id\": \"start\", \"type\": \"startEvent\" },"
    "    { \"id\": \"count\", \"type\": \"scriptTask\", \"set\": { \"n\": \"n + 1\" } },"
    "    { \"id\": \"tick\", \"type\": \"timerEvent\", \"duration\": \"1ms\" },"
    "    { \"id\": \"more\", \"type\": \"exclusiveGateway\", \"default\": \"f3\" },"
    "    { \"id\": \"end\", \"type\": \"endEvent\" } ],"
    "  \"flows\": [ { \"id\": \"f1\", \"from\": \"start\", \"to\": \"count\" },"
    "    { \"id\": \"f2\", \"from\": \"count\", \"to\": \"tick\" },"
    "    { \"id\": \"f4\", \"from\": \"tick\", \"to\": \"more\" },"
    "    { \"id\": \"f3\", \"from\": \"more\", \"to\": \"count\" },"
    "    { \"id\": \"f5\", \"from\": \"more\", \"to\": \"end\", \"condition\": \"n >= 40000\" } ] }",
    NULL, NULL);
  g_autofree char *n = NULL;

  wn_test_run_until (run, WN_TIME_NEVER);
  g_assert_cmpuint (wn_test_count (run, WN_EV_NODE, WN_PH_ENTERED, NULL), >, 3 * 40000);
  g_assert_cmpstr (end_of (run, "i1"), ==, "end");
  n = wn_test_variable (run, "i1", "n");
  g_assert_cmpstr (n, ==, "40000");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/engine/Instances/parks-and-enqueues", test_parks_and_enqueues);
  g_test_add_func ("/engine/Instances/status-and-collision", test_status_and_collision);
  g_test_add_func ("/engine/Instances/boundary-and-uncaught", test_boundary_and_uncaught);
  g_test_add_func ("/engine/Instances/fail-cancels-siblings", test_fail_cancels_siblings);
  g_test_add_func ("/engine/Instances/fail-removes-sibling-job", test_fail_removes_sibling_job);
  g_test_add_func ("/engine/Instances/incident-retry", test_incident_retry_and_resolve);
  g_test_add_func ("/engine/Instances/incident-resolve", test_incident_resolve);
  g_test_add_func ("/engine/Instances/incident-resolve-gateway", test_incident_resolve_gateway);
  g_test_add_func ("/engine/Instances/incident-cancel", test_incident_cancel);
  g_test_add_func ("/engine/Instances/boundary-removes-job", test_boundary_removes_job_late_report);
  g_test_add_func ("/engine/Instances/gateways-and-timers", test_gateways_and_timers);
  g_test_add_func ("/engine/Instances/parallel-join", test_parallel_join_waits);
  g_test_add_func ("/engine/Instances/end-counts", test_end_counts);
  g_test_add_func ("/engine/Instances/run-limit-moves-clock", test_run_limit_moves_clock);
  g_test_add_func ("/engine/Instances/end-of-virtual-time", test_end_of_virtual_time);
  g_test_add_func ("/engine/Instances/zero-time-retry-loop", test_zero_time_retry_loop);
  g_test_add_func ("/engine/Instances/retry-loop-with-time", test_retry_loop_with_time_runs_on);
  g_test_add_func ("/engine/Instances/zero-time-cycle-through-jobs", test_zero_time_cycle_through_jobs);
  g_test_add_func ("/engine/Instances/variable-bytes-limit", test_variable_bytes_limit);
  g_test_add_func ("/engine/Instances/loop-with-time", test_loop_with_time_runs_on);
  g_test_add_func ("/engine/WorkerTrusted/retries-in-process", test_trusted_retries_in_process);
  g_test_add_func ("/engine/WorkerTrusted/no-retry-and-short-lock", test_trusted_no_retry_and_short_lock);
  g_test_add_func ("/engine/WorkerTrusted/fallback-mapper", test_trusted_fallback_mapper);
  g_test_add_func ("/engine/WorkerTrusted/self-classification-by-trust", test_self_classification_by_trust);
  g_test_add_func ("/engine/WorkerTrusted/stale-worker", test_trusted_stale_worker);
  g_test_add_func ("/engine/WorkerTrusted/takeover-not-an-attempt", test_takeover_not_an_attempt);
  g_test_add_func ("/engine/Instances/hang-maps-like-complete", test_hang_maps_like_complete);
  g_test_add_func ("/engine/EngineAuthoritative/default-exhausts", test_authoritative_default_exhausts);
  g_test_add_func ("/engine/PolicyResolution/levels", test_policy_resolution);
  g_test_add_func ("/engine/PolicyResolution/kept-after-change", test_policy_kept_after_change);
  g_test_add_func ("/engine/Instances/injection", test_injection);
  g_test_add_func ("/engine/Instances/ids-and-lookup", test_ids_and_lookup);
  g_test_add_func ("/engine/Instances/track-lookup", test_track_lookup);
  g_test_add_func ("/engine/Instances/output-read-later", test_output_read_later);
  g_test_add_func ("/engine/Instances/chain-writes-in-place", test_chain_writes_in_place);
  g_test_add_func ("/engine/Instances/input-kept-while-branch-writes", test_input_kept_while_branch_writes);
  g_test_add_func ("/engine/Breakpoints/stop-and-resume", test_breakpoints);
  g_test_add_func ("/engine/Breakpoints/phases", test_breakpoint_phases);

  return g_test_run ();
}

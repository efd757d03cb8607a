/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Engine II: sub-process scopes, BPMN errors going outward, interrupting and
 * non-interrupting boundaries (error and timer), terminate end events,
 * pass-through nodes and the ends counted. Every run is checked by
 * wn_test_check_invariants(), which for these processes also asks for one
 * job.canceled per job a cancellation removes. */
#include "wn-test-util.h"

#include <string.h>

/* JSON written with ` for " (the processes below are easier to read). */
static char *
q (const char *text)
{
  char *copy = g_strdup (text);

  for (char *p = copy; *p != '\0'; p++)
    if (*p == '`')
      *p = '"';
  return copy;
}

static WnTestRun *
run_new (const char *process, const char *scenario, const WnEngineOptions *options)
{
  g_autofree char *p = q (process);
  g_autofree char *s = scenario != NULL ? q (scenario) : NULL;

  return wn_test_run_new (p, s, options);
}

/* WINNOW_TEST_DUMP=1 prints each run's journal. */
static void
dump (WnTestRun *run)
{
  g_autoptr(GString) out = g_string_new (NULL);

  if (g_getenv ("WINNOW_TEST_DUMP") == NULL)
    return;
  for (guint i = 0; i < run->events->len; i++)
    {
      wn_event_append_text (g_ptr_array_index (run->events, i), out);
      g_string_append_c (out, '\n');
    }
  g_printerr ("%s", out->str);
}

static WnInstanceState
state_of (WnTestRun *run, const char *instance)
{
  WnInstanceInfo info;

  dump (run);
  g_assert_true (wn_engine_lookup_instance (run->engine, instance, &info));
  return info.state;
}

static guint
end_count (WnTestRun *run, const char *node)
{
  const WnNode *n = wn_process_find_node (run->process, node);

  g_assert_nonnull (n);
  return wn_engine_get_end_count (run->engine, n->index);
}

/* The index of the first event matching, or -1. */
static int
index_of (WnTestRun *run, WnEventKind kind, WnEventPhase phase, const char *node)
{
  for (guint i = 0; i < run->events->len; i++)
    {
      const WnEvent *ev = g_ptr_array_index (run->events, i);

      if (ev->kind == kind && ev->phase == phase && (node == NULL || g_strcmp0 (ev->node, node) == 0))
        return (int) i;
    }
  return -1;
}

/* ---- scopes ---- */

#define SUB_PROCESS \
  "{`format`: `winnow.process/1`, `id`: `p`, `nodes`: [" \
  " {`id`: `s`, `type`: `startEvent`}," \
  " {`id`: `sub`, `type`: `subProcess`, `nodes`: [" \
  "   {`id`: `in`, `type`: `startEvent`}," \
  "   {`id`: `fork`, `type`: `parallelGateway`}," \
  "   {`id`: `a`, `type`: `serviceTask`, `worker`: {`topic`: `a`}}," \
  "   {`id`: `b`, `type`: `task`, `duration`: `1s`}," \
  "   {`id`: `join`, `type`: `parallelGateway`}," \
  "   {`id`: `out`, `type`: `endEvent`}]," \
  "  `flows`: [{`id`: `g1`, `from`: `in`, `to`: `fork`}, {`id`: `g2`, `from`: `fork`, `to`: `a`}," \
  "   {`id`: `g3`, `from`: `fork`, `to`: `b`}, {`id`: `g4`, `from`: `a`, `to`: `join`}," \
  "   {`id`: `g5`, `from`: `b`, `to`: `join`}, {`id`: `g6`, `from`: `join`, `to`: `out`}]}," \
  " {`id`: `after`, `type`: `manualTask`}," \
  " {`id`: `note`, `type`: `intermediateThrowEvent`}," \
  " {`id`: `e`, `type`: `endEvent`}]," \
  " `flows`: [{`id`: `f1`, `from`: `s`, `to`: `sub`}, {`id`: `f2`, `from`: `sub`, `to`: `after`}," \
  "  {`id`: `f3`, `from`: `after`, `to`: `note`}, {`id`: `f4`, `from`: `note`, `to`: `e`}]}"

static void
test_subprocess_completes (void)
{
  g_autoptr(WnTestRun) run = run_new (SUB_PROCESS,
    "{`format`: `winnow.scenario/1`, `workers`: [{`id`: `w`, `topic`: `a`, "
    " `responses`: [{`after`: `3s`, `complete`: {}}]}]}", NULL);
  const WnEvent *ev;
  int scope_done;

  g_assert_true (run->process->extended);
  g_assert_cmpint (wn_process_find_node (run->process, "a")->scope, ==,
                   (int) wn_process_find_node (run->process, "sub")->index);
  wn_test_run_until (run, WN_TIME_NEVER);
  g_assert_cmpint (state_of (run, "i1"), ==, WN_INSTANCE_COMPLETED);
  /* the scope is entered and completed on the host's track, named i1/s1 */
  ev = wn_test_find (run, WN_EV_SCOPE, WN_PH_ENTERED, "sub", 0);
  g_assert_nonnull (ev);
  g_assert_cmpstr (ev->scope, ==, "i1/s1");
  g_assert_cmpstr (ev->track, ==, "i1/t1");
  /* events inside name the scope, events outside do not */
  ev = wn_test_find (run, WN_EV_NODE, WN_PH_PARKED, "a", 0);
  g_assert_cmpstr (ev->scope, ==, "i1/s1");
  g_assert_null (wn_test_find (run, WN_EV_NODE, WN_PH_ENTERED, "after", 0)->scope);
  /* the host completes the subProcess when the last inner track ends (the job, at 3s) */
  scope_done = index_of (run, WN_EV_SCOPE, WN_PH_COMPLETED, "sub");
  g_assert_cmpint (scope_done, >, index_of (run, WN_EV_NODE, WN_PH_COMPLETED, "out"));
  ev = g_ptr_array_index (run->events, scope_done + 1);
  g_assert_cmpint (ev->kind, ==, WN_EV_NODE);
  g_assert_cmpint (ev->phase, ==, WN_PH_COMPLETED);
  g_assert_cmpstr (ev->node, ==, "sub");
  g_assert_cmpint (ev->t_us, ==, 3 * WN_USEC_PER_SEC);
  /* manual tasks and none throw events pass through */
  g_assert_cmpuint (wn_test_count (run, WN_EV_NODE, WN_PH_COMPLETED, "after"), ==, 1);
  g_assert_cmpuint (wn_test_count (run, WN_EV_NODE, WN_PH_COMPLETED, "note"), ==, 1);
  /* both end events count: the sub-process's and the process's */
  g_assert_cmpuint (end_count (run, "out"), ==, 1);
  g_assert_cmpuint (end_count (run, "e"), ==, 1);
}

/* Two nested sub-processes; the inner one has a sibling job locked by a slow
 * worker when `pay` throws. */
#define NESTED(OUTER_BOUNDARY, INNER_BOUNDARY) \
  "{`format`: `winnow.process/1`, `id`: `p`, `engine`: {`trust`: `engineAuthoritative`}, `nodes`: [" \
  " {`id`: `s`, `type`: `startEvent`}," \
  " {`id`: `outer`, `type`: `subProcess`, `nodes`: [" \
  "   {`id`: `os`, `type`: `startEvent`}," \
  "   {`id`: `inner`, `type`: `subProcess`, `nodes`: [" \
  "     {`id`: `is`, `type`: `startEvent`}," \
  "     {`id`: `pay`, `type`: `serviceTask`, `worker`: {`topic`: `pay`, `retry`: {`policy`: `none`}," \
  "        `errorMapper`: [{`code`: `402`, `bpmnError`: {`code`: `Declined`}}]}}," \
  "     {`id`: `slow`, `type`: `serviceTask`, `worker`: {`topic`: `slow`}}," \
  "     {`id`: `ie`, `type`: `endEvent`}]," \
  "    `flows`: [{`id`: `i1`, `from`: `is`, `to`: `pay`}, {`id`: `i2`, `from`: `is`, `to`: `slow`}," \
  "     {`id`: `i3`, `from`: `pay`, `to`: `ie`}, {`id`: `i4`, `from`: `slow`, `to`: `ie`}]}," \
  "   " INNER_BOUNDARY \
  "   {`id`: `oe`, `type`: `endEvent`}, {`id`: `inner-caught`, `type`: `endEvent`}]," \
  "  `flows`: [{`id`: `o1`, `from`: `os`, `to`: `inner`}, {`id`: `o2`, `from`: `inner`, `to`: `oe`}," \
  "   {`id`: `o3`, `from`: `ib`, `to`: `inner-caught`}]}," \
  " " OUTER_BOUNDARY \
  " {`id`: `e`, `type`: `endEvent`}, {`id`: `caught`, `type`: `endEvent`}]," \
  " `flows`: [{`id`: `f1`, `from`: `s`, `to`: `outer`}, {`id`: `f2`, `from`: `outer`, `to`: `e`}," \
  "  {`id`: `f3`, `from`: `ob`, `to`: `caught`}]}"

#define NESTED_SCENARIO \
  "{`format`: `winnow.scenario/1`, `workers`: [" \
  " {`id`: `p`, `topic`: `pay`, `responses`: [{`after`: `1s`, `fail`: {`code`: `402`}}]}," \
  " {`id`: `sl`, `topic`: `slow`, `responses`: [{`after`: `10s`, `complete`: {}}]}]}"

/* The error goes past the inner sub-process (whose boundary catches another
 * code) to the outer one's; the locked sibling job leaves the dispatcher and
 * its worker's late report is rejected. */
static void
test_error_goes_outward (void)
{
  g_autoptr(WnTestRun) run = run_new (
    NESTED ("{`id`: `ob`, `type`: `boundaryEvent`, `attachedTo`: `outer`, `error`: `Declined`},",
            "{`id`: `ib`, `type`: `boundaryEvent`, `attachedTo`: `inner`, `error`: `Other`},"),
    NESTED_SCENARIO, NULL);
  const WnEvent *ev;

  wn_test_run_until (run, WN_TIME_NEVER);
  g_assert_cmpint (state_of (run, "i1"), ==, WN_INSTANCE_COMPLETED);
  ev = wn_test_find (run, WN_EV_FAULT, WN_PH_CAUGHT, "ob", 0);
  g_assert_nonnull (ev);
  g_assert_cmpstr (ev->track, ==, "i1/t1");          /* the outer subProcess's host */
  g_assert_cmpuint (wn_test_count (run, WN_EV_FAULT, WN_PH_CAUGHT, "ib"), ==, 0);
  /* both scopes canceled, the inner first */
  g_assert_cmpint (index_of (run, WN_EV_SCOPE, WN_PH_CANCELED, "inner"), <,
                   index_of (run, WN_EV_SCOPE, WN_PH_CANCELED, "outer"));
  /* the locked sibling: one job.canceled naming its holder, then the late report refused */
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_CANCELED, NULL), ==, 1);
  ev = wn_test_find (run, WN_EV_JOB, WN_PH_CANCELED, "slow", 0);
  g_assert_cmpstr (ev->worker, ==, "sl");
  g_assert_nonnull (strstr (ev->error, "locked"));
  g_assert_cmpint (ev->t_us, ==, 1 * WN_USEC_PER_SEC);
  ev = wn_test_find (run, WN_EV_JOB, WN_PH_REPORT_REJECTED, NULL, 0);
  g_assert_nonnull (ev);
  g_assert_cmpint (ev->t_us, ==, 10 * WN_USEC_PER_SEC);
  g_assert_nonnull (strstr (ev->error, "not found"));
  g_assert_cmpuint (end_count (run, "caught"), ==, 1);
  g_assert_cmpuint (end_count (run, "e"), ==, 0);
  g_assert_cmpuint (wn_dispatcher_get_n_jobs (wn_engine_get_dispatcher (run->engine)), ==, 0);
}

/* The nearest scope wins: the inner boundary, a catch-all, catches before the
 * outer exact one is asked. */
static void
test_nearest_catch_all (void)
{
  g_autoptr(WnTestRun) run = run_new (
    NESTED ("{`id`: `ob`, `type`: `boundaryEvent`, `attachedTo`: `outer`, `error`: `Declined`},",
            "{`id`: `ib`, `type`: `boundaryEvent`, `attachedTo`: `inner`, `error`: true},"),
    NESTED_SCENARIO, NULL);

  wn_test_run_until (run, WN_TIME_NEVER);
  g_assert_cmpuint (wn_test_count (run, WN_EV_FAULT, WN_PH_CAUGHT, "ib"), ==, 1);
  g_assert_cmpuint (wn_test_count (run, WN_EV_FAULT, WN_PH_CAUGHT, "ob"), ==, 0);
  g_assert_cmpuint (end_count (run, "inner-caught"), ==, 1);
  g_assert_cmpuint (end_count (run, "oe"), ==, 0);
  g_assert_cmpuint (end_count (run, "e"), ==, 1);
  g_assert_cmpuint (wn_test_count (run, WN_EV_SCOPE, WN_PH_COMPLETED, "outer"), ==, 1);
}

/* On one host the exact code is taken before a catch-all, whatever their order. */
static void
test_exact_before_catch_all (void)
{
  g_autoptr(WnTestRun) run = run_new (
    "{`format`: `winnow.process/1`, `id`: `p`, `nodes`: ["
    " {`id`: `s`, `type`: `startEvent`},"
    " {`id`: `t`, `type`: `serviceTask`, `worker`: {`topic`: `t`}},"
    " {`id`: `any`, `type`: `boundaryEvent`, `attachedTo`: `t`, `error`: true},"
    " {`id`: `exact`, `type`: `boundaryEvent`, `attachedTo`: `t`, `error`: `E`},"
    " {`id`: `e1`, `type`: `endEvent`}, {`id`: `e2`, `type`: `endEvent`}, {`id`: `e3`, `type`: `endEvent`}],"
    " `flows`: [{`id`: `f1`, `from`: `s`, `to`: `t`}, {`id`: `f2`, `from`: `t`, `to`: `e1`},"
    "  {`id`: `f3`, `from`: `any`, `to`: `e2`}, {`id`: `f4`, `from`: `exact`, `to`: `e3`}],"
    " `scenario`: {`start`: [{`count`: 2}], `workers`: [{`id`: `w`, `topic`: `t`, `responses`: ["
    "   {`attempts`: `1`, `workerError`: {`bpmnErrorCode`: `E`}}]}]}}",
    NULL, NULL);

  wn_test_run_until (run, WN_TIME_NEVER);
  g_assert_cmpuint (end_count (run, "e3"), ==, 2);
  g_assert_cmpuint (end_count (run, "e2"), ==, 0);
}

/* An error end event inside a sub-process is caught on the subProcess; one
 * nobody catches follows the failure path, an incident here. */
#define ERROR_END(CODE) \
    "{`format`: `winnow.process/1`, `id`: `p`, `nodes`: [" \
    " {`id`: `s`, `type`: `startEvent`}," \
    " {`id`: `sub`, `type`: `subProcess`, `nodes`: [" \
    "   {`id`: `in`, `type`: `startEvent`}, {`id`: `boom`, `type`: `endEvent`, `error`: `Boom`}]," \
    "  `flows`: [{`id`: `g1`, `from`: `in`, `to`: `boom`}]}," \
    " {`id`: `b`, `type`: `boundaryEvent`, `attachedTo`: `sub`, `error`: `" CODE "`}," \
    " {`id`: `e`, `type`: `endEvent`}, {`id`: `handled`, `type`: `endEvent`}]," \
    " `flows`: [{`id`: `f1`, `from`: `s`, `to`: `sub`}, {`id`: `f2`, `from`: `sub`, `to`: `e`}," \
    "  {`id`: `f3`, `from`: `b`, `to`: `handled`}]}"

static void
test_error_end_event (void)
{
  WnEngineOptions options = { 0 };
  g_autoptr(WnTestRun) caught = run_new (ERROR_END ("Boom"), NULL, NULL);
  g_autoptr(WnTestRun) missed = NULL;

  wn_test_run_until (caught, WN_TIME_NEVER);
  g_assert_cmpint (state_of (caught, "i1"), ==, WN_INSTANCE_COMPLETED);
  g_assert_cmpuint (end_count (caught, "handled"), ==, 1);
  g_assert_cmpuint (wn_test_count (caught, WN_EV_FAULT, WN_PH_CAUGHT, "b"), ==, 1);

  options.on_exhausted = WN_ON_EXHAUSTED_INCIDENT;
  missed = run_new (ERROR_END ("Other"), NULL, &options);
  wn_test_run_until (missed, WN_TIME_NEVER);
  g_assert_cmpuint (wn_test_count (missed, WN_EV_FAULT, WN_PH_UNCAUGHT, "boom"), ==, 1);
  g_assert_cmpuint (wn_test_count (missed, WN_EV_INCIDENT, WN_PH_RAISED, "boom"), ==, 1);
  g_assert_cmpint (state_of (missed, "i1"), ==, WN_INSTANCE_ACTIVE);
  /* canceling the instance cancels the scope's incident track and the host */
  g_assert_true (wn_engine_cancel_instance (missed->engine, "i1", NULL));
  wn_test_check_invariants (missed);
  g_assert_cmpint (state_of (missed, "i1"), ==, WN_INSTANCE_TERMINATED);
}

/* ---- terminate end events ---- */

static void
test_terminate (void)
{
  g_autoptr(WnTestRun) run = run_new (
    "{`format`: `winnow.process/1`, `id`: `p`, `engine`: {`trust`: `engineAuthoritative`}, `nodes`: ["
    " {`id`: `s`, `type`: `startEvent`},"
    " {`id`: `slow`, `type`: `serviceTask`, `worker`: {`topic`: `slow`}},"
    " {`id`: `gated`, `type`: `serviceTask`, `worker`: {`topic`: `flaky`,"
    "    `retry`: {`policy`: `fixed`, `maxAttempts`: 5, `delay`: `1m`}}},"
    " {`id`: `sub`, `type`: `subProcess`, `nodes`: ["
    "   {`id`: `in`, `type`: `startEvent`}, {`id`: `wait`, `type`: `timerEvent`, `duration`: `1h`},"
    "   {`id`: `quick`, `type`: `task`, `duration`: `1s`}, {`id`: `stop`, `type`: `endEvent`, `terminate`: true},"
    "   {`id`: `never`, `type`: `endEvent`}],"
    "  `flows`: [{`id`: `g1`, `from`: `in`, `to`: `wait`}, {`id`: `g2`, `from`: `in`, `to`: `quick`},"
    "   {`id`: `g3`, `from`: `quick`, `to`: `stop`}, {`id`: `g4`, `from`: `wait`, `to`: `never`}]},"
    " {`id`: `kill`, `type`: `endEvent`, `terminate`: true},"
    " {`id`: `e`, `type`: `endEvent`}],"
    " `flows`: [{`id`: `f1`, `from`: `s`, `to`: `slow`}, {`id`: `f2`, `from`: `s`, `to`: `gated`},"
    "  {`id`: `f3`, `from`: `s`, `to`: `sub`}, {`id`: `f4`, `from`: `sub`, `to`: `kill`},"
    "  {`id`: `f5`, `from`: `slow`, `to`: `e`}, {`id`: `f6`, `from`: `gated`, `to`: `e`}]}",
    "{`format`: `winnow.scenario/1`, `workers`: ["
    " {`id`: `sl`, `topic`: `slow`, `responses`: [{`after`: `1h`, `complete`: {}}]},"
    " {`id`: `fl`, `topic`: `flaky`, `responses`: [{`after`: `100ms`, `fail`: {`code`: `503`}}]}]}",
    NULL);

  wn_test_run_until (run, WN_TIME_NEVER);
  /* inside the sub-process, terminate ends its scope only: the 1h timer track is canceled */
  g_assert_cmpuint (wn_test_count (run, WN_EV_NODE, WN_PH_CANCELED, "wait"), ==, 1);
  g_assert_cmpuint (wn_test_count (run, WN_EV_SCOPE, WN_PH_COMPLETED, "sub"), ==, 1);
  /* at the top, the instance completes at 1s and its other tracks and jobs go */
  g_assert_cmpint (state_of (run, "i1"), ==, WN_INSTANCE_COMPLETED);
  g_assert_cmpint (wn_test_find (run, WN_EV_INSTANCE, WN_PH_COMPLETED, NULL, 0)->t_us, ==, WN_USEC_PER_SEC);
  g_assert_nonnull (strstr (wn_test_find (run, WN_EV_JOB, WN_PH_CANCELED, "slow", 0)->error, "locked"));
  g_assert_nonnull (strstr (wn_test_find (run, WN_EV_JOB, WN_PH_CANCELED, "gated", 0)->error, "gated"));
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_CANCELED, NULL), ==, 2);
  g_assert_cmpuint (end_count (run, "kill"), ==, 1);
  g_assert_cmpuint (end_count (run, "stop"), ==, 1);
  g_assert_cmpuint (end_count (run, "e"), ==, 0);
  g_assert_cmpuint (wn_dispatcher_get_n_jobs (wn_engine_get_dispatcher (run->engine)), ==, 0);
}

/* ---- timer boundaries ---- */

/* A payment task with a 2-minute timeout, its worker failing every time. */
#define TIMEOUT(TRUST, HOST) \
  "{`format`: `winnow.process/1`, `id`: `p`, `engine`: {`trust`: `" TRUST "`}, `nodes`: [" \
  " {`id`: `s`, `type`: `startEvent`}," \
  HOST \
  " {`id`: `timeout`, `type`: `boundaryEvent`, `attachedTo`: `host`, `timer`: `2m`}," \
  " {`id`: `e`, `type`: `endEvent`}, {`id`: `late`, `type`: `endEvent`}]," \
  " `flows`: [{`id`: `f1`, `from`: `s`, `to`: `host`}, {`id`: `f2`, `from`: `host`, `to`: `e`}," \
  "  {`id`: `f3`, `from`: `timeout`, `to`: `late`}]}"
#define PAY_TASK(ID, RETRY) \
  "{`id`: `" ID "`, `type`: `serviceTask`, `worker`: {`topic`: `pay`, `retry`: " RETRY "}}"
#define AS_TASK(RETRY) " " PAY_TASK ("host", RETRY) ","
#define AS_SUB(RETRY) \
  " {`id`: `host`, `type`: `subProcess`, `nodes`: [{`id`: `in`, `type`: `startEvent`}, " \
  PAY_TASK ("pay", RETRY) ", {`id`: `out`, `type`: `endEvent`}], `flows`: [" \
  "  {`id`: `g1`, `from`: `in`, `to`: `pay`}, {`id`: `g2`, `from`: `pay`, `to`: `out`}]},"

static WnTestRun *
timeout_run (const char *process, const char *response)
{
  g_autofree char *scenario = g_strdup_printf (
    "{`format`: `winnow.scenario/1`, `workers`: [{`id`: `w`, `topic`: `pay`, `lockDuration`: `5m`,"
    " `responses`: [%s]}]}", response);
  WnTestRun *run = run_new (process, scenario, NULL);

  wn_test_run_until (run, WN_TIME_NEVER);
  g_assert_cmpint (state_of (run, "i1"), ==, WN_INSTANCE_COMPLETED);
  g_assert_cmpuint (end_count (run, "late"), ==, 1);
  g_assert_cmpuint (end_count (run, "e"), ==, 0);
  g_assert_cmpint (wn_test_find (run, WN_EV_TIMER, WN_PH_FIRED, "timeout", 0)->t_us, ==, 120 * WN_USEC_PER_SEC);
  g_assert_cmpuint (wn_dispatcher_get_n_jobs (wn_engine_get_dispatcher (run->engine)), ==, 0);
  return run;
}

/* the job's state when the timeout canceled it */
static void
assert_canceled_while (WnTestRun *run, const char *state)
{
  const WnEvent *ev = wn_test_find (run, WN_EV_JOB, WN_PH_CANCELED, NULL, 0);

  g_assert_nonnull (ev);
  g_assert_cmpint (ev->t_us, ==, 120 * WN_USEC_PER_SEC);
  g_assert_nonnull (strstr (ev->error, state));
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_CANCELED, NULL), ==, 1);
}

/* EngineAuthoritative: the timeout fires while the job waits behind its backoff gate. */
static void
test_timeout_during_gate (gconstpointer data)
{
#define GATE_RETRY "{`policy`: `fixed`, `maxAttempts`: 10, `delay`: `40s`}"
  const char *process = GPOINTER_TO_INT (data) ? TIMEOUT ("engineAuthoritative", AS_SUB (GATE_RETRY))
                                               : TIMEOUT ("engineAuthoritative", AS_TASK (GATE_RETRY));
  g_autoptr(WnTestRun) run = timeout_run (process, "{`after`: `10s`, `fail`: {`code`: `503`}}");

  /* executions at 0, 50s and 100s, each failing after 10s: gated from 110s to 150s */
  assert_canceled_while (run, "gated");
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_RETRY_SCHEDULED, NULL), ==, 3);
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_EXECUTING, NULL), ==, 3);
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_REPORT_REJECTED, NULL), ==, 0);
}

/* Either trust: the timeout fires while the worker holds the lock; its late
 * report is rejected like any report on a missing job. */
static void
test_timeout_during_lock (gconstpointer data)
{
  const char *trust = GPOINTER_TO_INT (data) ? "workerTrusted" : "engineAuthoritative";
  g_autofree char *process = g_strdup_printf (TIMEOUT ("%s", AS_TASK ("{`policy`: `none`}")), trust);
  g_autoptr(WnTestRun) run = timeout_run (process, "{`after`: `3m`, `complete`: {}}");
  const WnEvent *rejected;

  assert_canceled_while (run, "locked");
  rejected = wn_test_find (run, WN_EV_JOB, WN_PH_REPORT_REJECTED, NULL, 0);
  g_assert_nonnull (rejected);
  g_assert_cmpint (rejected->t_us, ==, 180 * WN_USEC_PER_SEC);
  g_assert_nonnull (strstr (rejected->error, "not found"));
  g_assert_null (wn_test_find (run, WN_EV_JOB, WN_PH_COMPLETED, "host", 0));
}

/* WorkerTrusted: the timeout fires while the worker waits out an in-process
 * backoff under its lock; its next execution is refused. */
static void
test_timeout_during_trusted_retry (gconstpointer data)
{
  const char *process = GPOINTER_TO_INT (data) ? TIMEOUT ("workerTrusted", AS_SUB (GATE_RETRY))
                                               : TIMEOUT ("workerTrusted", AS_TASK (GATE_RETRY));
  g_autoptr(WnTestRun) run = timeout_run (process, "{`after`: `10s`, `fail`: {`code`: `503`}}");

  /* one lock from 0 for 5m: executions at 0, 50s and 100s, then a backoff until 150s */
  assert_canceled_while (run, "locked");
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_WORKER_RETRY_SCHEDULED, NULL), ==, 3);
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_EXECUTING, NULL), ==, 3);
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_LOCKED, NULL), ==, 1);
  g_assert_cmpint (wn_test_find (run, WN_EV_JOB, WN_PH_REPORT_REJECTED, NULL, 0)->t_us, ==,
                   150 * WN_USEC_PER_SEC);
}

/* A timer that never fires: the task completes first and the timer is disarmed. */
static void
test_timeout_not_reached (void)
{
  g_autoptr(WnTestRun) run = run_new (TIMEOUT ("workerTrusted", AS_TASK ("`default`")),
    "{`format`: `winnow.scenario/1`, `workers`: [{`id`: `w`, `topic`: `pay`,"
    " `responses`: [{`after`: `1m`, `complete`: {}}]}]}", NULL);

  wn_test_run_until (run, WN_TIME_NEVER);
  g_assert_cmpuint (end_count (run, "e"), ==, 1);
  g_assert_cmpuint (wn_test_count (run, WN_EV_TIMER, WN_PH_FIRED, NULL), ==, 0);
  g_assert_cmpint (wn_engine_now (run->engine), ==, 60 * WN_USEC_PER_SEC);
}

/* A non-interrupting cycle: a reminder every 30s, three at most, while the task
 * goes on; each reminder runs its own path in the host's scope. */
static void
test_non_interrupting_cycle (void)
{
  g_autoptr(WnTestRun) run = run_new (
    "{`format`: `winnow.process/1`, `id`: `p`, `nodes`: ["
    " {`id`: `s`, `type`: `startEvent`},"
    " {`id`: `sub`, `type`: `subProcess`, `nodes`: ["
    "   {`id`: `in`, `type`: `startEvent`}, {`id`: `work`, `type`: `serviceTask`, `worker`: {`topic`: `w`}},"
    "   {`id`: `remind`, `type`: `boundaryEvent`, `attachedTo`: `work`, `timer`: `30s`, `repeat`: 3,"
    "    `interrupting`: false},"
    "   {`id`: `nag`, `type`: `scriptTask`, `set`: {`nagged`: `true`}},"
    "   {`id`: `reminded`, `type`: `endEvent`}, {`id`: `out`, `type`: `endEvent`}],"
    "  `flows`: [{`id`: `g1`, `from`: `in`, `to`: `work`}, {`id`: `g2`, `from`: `work`, `to`: `out`},"
    "   {`id`: `g3`, `from`: `remind`, `to`: `nag`}, {`id`: `g4`, `from`: `nag`, `to`: `reminded`}]},"
    " {`id`: `e`, `type`: `endEvent`}],"
    " `flows`: [{`id`: `f1`, `from`: `s`, `to`: `sub`}, {`id`: `f2`, `from`: `sub`, `to`: `e`}]}",
    "{`format`: `winnow.scenario/1`, `start`: [{`count`: 2}], `workers`: [{`id`: `w`, `topic`: `w`,"
    " `concurrency`: 2, `responses`: [{`when`: `has('x')`, `complete`: {}},"
    "   {`after`: `2m`, `complete`: {}}]}]}", NULL);
  const WnEvent *ev;

  wn_test_run_until (run, WN_TIME_NEVER);
  /* fires at 30s, 60s and 90s (three times, not at 120s), in each instance */
  g_assert_cmpuint (wn_test_count (run, WN_EV_TIMER, WN_PH_FIRED, "remind"), ==, 6);
  ev = wn_test_find (run, WN_EV_TIMER, WN_PH_FIRED, "remind", 5);
  g_assert_cmpint (ev->t_us, ==, 90 * WN_USEC_PER_SEC);
  g_assert_cmpstr (ev->scope, ==, "i2/s1");
  /* the task was never canceled and completed at 2m; the branches ran in the scope */
  g_assert_cmpuint (wn_test_count (run, WN_EV_NODE, WN_PH_CANCELED, NULL), ==, 0);
  g_assert_cmpint (wn_test_find (run, WN_EV_NODE, WN_PH_COMPLETED, "work", 0)->t_us, ==, 120 * WN_USEC_PER_SEC);
  g_assert_cmpstr (wn_test_find (run, WN_EV_NODE, WN_PH_ENTERED, "nag", 0)->scope, ==, "i1/s1");
  g_assert_cmpuint (end_count (run, "reminded"), ==, 6);
  g_assert_cmpuint (end_count (run, "out"), ==, 2);
  g_assert_cmpuint (end_count (run, "e"), ==, 2);
  g_assert_cmpint (state_of (run, "i1"), ==, WN_INSTANCE_COMPLETED);
}

/* ---- the format ---- */

static char *
load_errors (const char *text)
{
  g_autofree char *json = q (text);
  g_autoptr(GPtrArray) diagnostics = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(WnProcess) process = wn_load_process_data (json, -1, "t.json", &diagnostics, &error);

  g_assert_null (process);
  g_assert_error (error, WN_LOAD_ERROR, WN_LOAD_ERROR_INVALID);
  return g_strdup (error->message);
}

static void
test_load_errors (void)
{
  g_autofree char *errors = load_errors (
    "{`format`: `winnow.process/1`, `id`: `p`, `nodes`: [\n"
    " {`id`: `s`, `type`: `startEvent`},\n"
    " {`id`: `sub`, `type`: `subProcess`, `nodes`: [\n"
    "   {`id`: `t`, `type`: `task`}, {`id`: `x`, `type`: `endEvent`, `terminate`: true, `error`: `E`}],\n"
    "  `flows`: [{`id`: `g1`, `from`: `t`, `to`: `e`}]},\n"
    " {`id`: `b1`, `type`: `boundaryEvent`, `attachedTo`: `sub`},\n"
    " {`id`: `b2`, `type`: `boundaryEvent`, `attachedTo`: `sub`, `timer`: `1s`, `repeat`: 2},\n"
    " {`id`: `b3`, `type`: `boundaryEvent`, `attachedTo`: `t`, `error`: `E`},\n"
    " {`id`: `b4`, `type`: `boundaryEvent`, `attachedTo`: `sub`, `error`: `E`, `interrupting`: false},\n"
    " {`id`: `b5`, `type`: `boundaryEvent`, `attachedTo`: `sub`, `timer`: `0s`},\n"
    " {`id`: `e`, `type`: `endEvent`}],\n"
    " `flows`: [{`id`: `f1`, `from`: `s`, `to`: `sub`}, {`id`: `f2`, `from`: `sub`, `to`: `t`}]}");

  g_assert_cmpstr (errors, ==,
    "t.json:3:47: nodes[1].nodes: no startEvent in subProcess \"sub\" (exactly one is needed)\n"
    "t.json:4:78: nodes[1].nodes[1].terminate: an endEvent either throws an error or terminates, not both\n"
    "t.json:5:45: nodes[1].flows[0].to: a flow stays inside its scope: it is listed in subProcess \"sub\", "
    "\"e\" is in the process\n"
    "t.json:6:2: nodes[2]: a boundaryEvent needs `error` (a code, or true for any code), `timer` or `message`\n"
    "t.json:7:86: nodes[3].repeat: an interrupting timer fires once: `repeat` needs \"interrupting\": false\n"
    "t.json:8:54: nodes[4].attachedTo: a boundaryEvent is in the scope of its host: it is in the process, "
    "\"t\" in subProcess \"sub\"\n"
    "t.json:9:91: nodes[5].interrupting: `interrupting` applies to a timer boundaryEvent only "
    "(an error boundary always interrupts)\n"
    "t.json:10:70: nodes[6].timer: must be longer than 0\n"
    "t.json:12:86: flows[1].to: a flow stays inside its scope: it is listed in the process, "
    "\"t\" is in subProcess \"sub\"");
}

/* The same process built by hand: the builder checks scopes too. */
static void
test_builder (void)
{
  g_autoptr(WnProcess) process = wn_process_new ("p");
  g_autoptr(GError) error = NULL;

  wn_process_add_node (process, "s", WN_NODE_START);
  wn_process_add_node (process, "sub", WN_NODE_SUBPROCESS);
  wn_process_add_node (process, "in", WN_NODE_START);
  wn_process_add_node (process, "out", WN_NODE_END);
  wn_process_add_node (process, "e", WN_NODE_END);
  wn_process_add_flow (process, "f1", "s", "sub", NULL);
  wn_process_add_flow (process, "f2", "sub", "e", NULL);
  wn_process_add_flow (process, "f3", "in", "e", NULL);
  g_assert_true (wn_process_set_scope (process, "in", "sub"));
  g_assert_true (wn_process_set_scope (process, "out", "sub"));
  g_assert_false (wn_process_finish (process, &error));
  g_assert_error (error, WN_LOAD_ERROR, WN_LOAD_ERROR_INVALID);
  g_assert_cmpstr (error->message, ==, "flow \"f3\" crosses a subProcess's border");
}

/* ---- user tasks ---- */

#define APPROVAL \
  "{`format`: `winnow.process/1`, `id`: `p`, `nodes`: [" \
  " {`id`: `s`, `type`: `startEvent`}," \
  " {`id`: `approve`, `type`: `userTask`, `name`: `Approve`}," \
  " {`id`: `rejected`, `type`: `boundaryEvent`, `attachedTo`: `approve`, `error`: `Rejected`}," \
  " {`id`: `escalate`, `type`: `boundaryEvent`, `attachedTo`: `approve`, `timer`: `1h`}," \
  " {`id`: `ok`, `type`: `endEvent`}, {`id`: `no`, `type`: `endEvent`}, {`id`: `late`, `type`: `endEvent`}]," \
  " `flows`: [{`id`: `f1`, `from`: `s`, `to`: `approve`}, {`id`: `f2`, `from`: `approve`, `to`: `ok`}," \
  "  {`id`: `f3`, `from`: `rejected`, `to`: `no`}, {`id`: `f4`, `from`: `escalate`, `to`: `late`}]}"

/* The session the run leaves replays to the same journal, and so does a
 * rerun (time travel), which copies the run's record. */
static void
assert_replays (WnTestRun *run)
{
  g_autoptr(GPtrArray) rerun_events = NULL;
  g_autoptr(GString) rerun_journal = NULL;
  g_autofree char *session = wn_engine_export_session (run->engine);
  g_autoptr(GError) error = NULL;
  g_autoptr(WnScenario) saved = wn_load_scenario_data (session, -1, "session.json", NULL, &error);
  g_autoptr(GPtrArray) replayed = NULL;
  g_autoptr(GString) live = NULL;
  g_autoptr(GString) again = NULL;
  WnEngine *replay;

  g_assert_no_error (error);
  replay = wn_engine_new (run->process, saved, NULL);
  replayed = wn_test_record (replay);
  wn_engine_run (replay, WN_TIME_NEVER);
  wn_engine_free (replay);
  live = wn_test_journal_of (run->events);
  again = wn_test_journal_of (replayed);
  g_assert_cmpstr (again->str, ==, live->str);

  replay = wn_engine_new_rerun (run->engine);
  rerun_events = wn_test_record (replay);
  wn_engine_run (replay, WN_TIME_NEVER);
  wn_engine_free (replay);
  rerun_journal = wn_test_journal_of (rerun_events);
  g_assert_cmpstr (rerun_journal->str, ==, live->str);
}

/* A rerun of the run's record (time travel, wn-travel.h) journals the same:
 * every field of every command is replayed (a user task's error code and
 * message, a correlation's key). */
static void
assert_reruns (WnTestRun *run)
{
  g_autoptr(GPtrArray) replayed = NULL;
  g_autoptr(GString) live = NULL;
  g_autoptr(GString) again = NULL;
  WnEngine *rerun = wn_engine_new_rerun (run->engine);

  replayed = wn_test_record (rerun);
  wn_engine_run (rerun, WN_TIME_NEVER);
  wn_engine_free (rerun);
  live = wn_test_journal_of (run->events);
  again = wn_test_journal_of (replayed);
  g_assert_cmpstr (again->str, ==, live->str);
}

/* The operator completes a waiting user task with variables, and a saved
 * session replays it to the same journal, as does a rerun. */
static void
test_user_task_operator (void)
{
  g_autoptr(WnTestRun) run = run_new (APPROVAL, "{`format`: `winnow.scenario/1`, `start`: [{`count`: 2}]}", NULL);
  g_autoptr(JsonNode) vars = wn_test_json ("{\"approved\": true, \"by\": \"ana\"}");
  g_autoptr(GError) error = NULL;
  g_autofree char *by = NULL;

  wn_engine_run (run->engine, 10 * WN_USEC_PER_SEC);
  g_assert_cmpuint (wn_test_count (run, WN_EV_USER_TASK, WN_PH_CREATED, "approve"), ==, 2);
  g_assert_true (wn_engine_complete_user_task (run->engine, "i1", "approve", json_node_get_object (vars), &error));
  g_assert_no_error (error);
  g_assert_true (wn_engine_throw_user_task_error (run->engine, "i2", NULL, "Rejected", "no budget", &error));
  g_assert_no_error (error);
  /* nothing left to finish: named errors, nothing changes */
  g_assert_false (wn_engine_complete_user_task (run->engine, "i1", NULL, NULL, &error));
  g_assert_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_NOT_ACTIVE);
  g_clear_error (&error);
  g_assert_false (wn_engine_throw_user_task_error (run->engine, "i2", NULL, "", NULL, &error));
  g_assert_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_INVALID);
  g_clear_error (&error);
  wn_test_run_until (run, WN_TIME_NEVER);
  g_assert_cmpuint (end_count (run, "ok"), ==, 1);
  g_assert_cmpuint (end_count (run, "no"), ==, 1);
  by = wn_test_variable (run, "i1", "by");
  g_assert_cmpstr (by, ==, "\"ana\"");
  g_assert_cmpstr (wn_test_find (run, WN_EV_USER_TASK, WN_PH_COMPLETED, "approve", 0)->action, ==, "operator");
  g_assert_cmpint (wn_test_find (run, WN_EV_FAULT, WN_PH_CAUGHT, "rejected", 0)->t_us, ==, 10 * WN_USEC_PER_SEC);
  g_assert_cmpuint (wn_test_count (run, WN_EV_TIMER, WN_PH_FIRED, NULL), ==, 0);

  assert_replays (run);
  assert_reruns (run);
}

/* The scenario's people: one completes after 30s, one rejects (caught), and a
 * task nobody finishes escalates after its 1h timer. */
static void
test_user_task_scenario (void)
{
  g_autoptr(WnTestRun) run = run_new (APPROVAL,
    "{`format`: `winnow.scenario/1`, `start`: [{`count`: 1}],"
    " `userTasks`: [{`node`: `approve`, `after`: `30s`, `complete`: {`approved`: true}}]}", NULL);
  g_autoptr(WnTestRun) rejected = run_new (APPROVAL,
    "{`format`: `winnow.scenario/1`,"
    " `userTasks`: [{`node`: `approve`, `after`: `2m`, `bpmnError`: {`code`: `Rejected`}}]}", NULL);
  g_autoptr(WnTestRun) nobody = run_new (APPROVAL, NULL, NULL);

  wn_test_run_until (run, WN_TIME_NEVER);
  g_assert_cmpuint (end_count (run, "ok"), ==, 1);
  g_assert_cmpint (wn_engine_now (run->engine), ==, 30 * WN_USEC_PER_SEC);
  g_assert_cmpstr (wn_test_find (run, WN_EV_USER_TASK, WN_PH_COMPLETED, "approve", 0)->action, ==, "scenario");

  wn_test_run_until (rejected, WN_TIME_NEVER);
  g_assert_cmpuint (end_count (rejected, "no"), ==, 1);
  g_assert_cmpint (wn_test_find (rejected, WN_EV_FAULT, WN_PH_THROWN, "approve", 0)->t_us, ==,
                   120 * WN_USEC_PER_SEC);

  wn_test_run_until (nobody, WN_TIME_NEVER);
  g_assert_cmpuint (end_count (nobody, "late"), ==, 1);
  g_assert_cmpint (wn_engine_now (nobody->engine), ==, 3600 * WN_USEC_PER_SEC);
}

static void
test_user_task_load_errors (void)
{
  g_autofree char *json = q ("{`format`: `winnow.scenario/1`, `userTasks`: [\n"
                             " {`node`: `a`, `complete`: {}, `bpmnError`: {`code`: `E`}},\n"
                             " {`node`: `a`, `bpmnError`: {`message`: `m`}},\n"
                             " {`after`: `1s`, `complete`: 3}]}");
  g_autoptr(GError) error = NULL;
  g_autoptr(WnScenario) scenario = wn_load_scenario_data (json, -1, "s.json", NULL, &error);

  g_assert_null (scenario);
  g_assert_error (error, WN_LOAD_ERROR, WN_LOAD_ERROR_INVALID);
  g_assert_cmpstr (error->message, ==,
    "s.json:2:2: userTasks[0]: a user task rule has exactly one of `complete` (variables) and `bpmnError`\n"
    "s.json:3:29: userTasks[1].bpmnError: missing required key \"code\"\n"
    "s.json:4:2: userTasks[2]: missing required key \"node\"\n"
    "s.json:4:30: userTasks[2].complete: must be an object, not a number");
}

/* A pool of two people: first come first served, one task each at a time;
 * the escalation timer takes tasks being worked on (their people go on to the
 * next) and tasks still waiting for someone (they leave the queue). */
static void
test_user_task_people (void)
{
  g_autoptr(WnTestRun) run = run_new (APPROVAL,
    "{`format`: `winnow.scenario/1`, `start`: [{`count`: 5}], `people`: [{`id`: `clerks`, `count`: 2,"
    " `duration`: `40m`}], `userTasks`: [{`node`: `approve`, `by`: `clerks`, `complete`: {`approved`: true}}]}",
    NULL);
  const WnEvent *ev;

  wn_test_run_until (run, WN_TIME_NEVER);
  g_assert_cmpuint (end_count (run, "ok"), ==, 2);
  g_assert_cmpuint (end_count (run, "late"), ==, 3);
  g_assert_cmpuint (wn_test_count (run, WN_EV_USER_TASK, WN_PH_ASSIGNED, "approve"), ==, 4);
  ev = wn_test_find (run, WN_EV_USER_TASK, WN_PH_ASSIGNED, "approve", 1);
  g_assert_cmpstr (ev->instance, ==, "i2");
  g_assert_cmpstr (ev->action, ==, "clerks/2");
  /* i3 and i4 wait until the first two are done; i5 never gets anyone */
  ev = wn_test_find (run, WN_EV_USER_TASK, WN_PH_ASSIGNED, "approve", 2);
  g_assert_cmpstr (ev->instance, ==, "i3");
  g_assert_cmpstr (ev->action, ==, "clerks/1");
  g_assert_cmpint (ev->t_us, ==, 40 * 60 * WN_USEC_PER_SEC);
  ev = wn_test_find (run, WN_EV_USER_TASK, WN_PH_COMPLETED, "approve", 0);
  g_assert_cmpstr (ev->action, ==, "clerks/1");
  g_assert_cmpint (ev->t_us, ==, 40 * 60 * WN_USEC_PER_SEC);
  g_assert_cmpint (wn_engine_now (run->engine), ==, 3600 * WN_USEC_PER_SEC);
}

/* Durations drawn from the run's generator: the same seed draws the same,
 * an exponential's mean is near its parameter, one person works the tasks
 * one after the other. */
static void
test_user_task_people_distribution (void)
{
#define DESK(SEED) \
    "{`format`: `winnow.scenario/1`, `seed`: " SEED ", `start`: [{`count`: 400}], `people`: [{`id`: `desk`," \
    " `duration`: {`exponential`: `1m`}}], `userTasks`: [{`node`: `approve`, `by`: `desk`, `complete`: {}}]}"
  const char *s1 = DESK ("1");
  const char *s2 = DESK ("2");
  g_autoptr(WnTestRun) a = run_new (
    "{`format`: `winnow.process/1`, `id`: `p`, `nodes`: [{`id`: `s`, `type`: `startEvent`},"
    " {`id`: `approve`, `type`: `userTask`}, {`id`: `e`, `type`: `endEvent`}],"
    " `flows`: [{`id`: `f1`, `from`: `s`, `to`: `approve`}, {`id`: `f2`, `from`: `approve`, `to`: `e`}]}", s1, NULL);
  g_autoptr(WnTestRun) b = run_new (
    "{`format`: `winnow.process/1`, `id`: `p`, `nodes`: [{`id`: `s`, `type`: `startEvent`},"
    " {`id`: `approve`, `type`: `userTask`}, {`id`: `e`, `type`: `endEvent`}],"
    " `flows`: [{`id`: `f1`, `from`: `s`, `to`: `approve`}, {`id`: `f2`, `from`: `approve`, `to`: `e`}]}", s2, NULL);
  double mean;

  wn_test_run_until (a, WN_TIME_NEVER);
  wn_test_run_until (b, WN_TIME_NEVER);
  g_assert_cmpuint (end_count (a, "e"), ==, 400);
  /* one person: the run lasts the sum of the 400 draws */
  mean = (double) wn_engine_now (a->engine) / 400 / WN_USEC_PER_SEC;
  g_assert_cmpfloat (mean, >, 50);
  g_assert_cmpfloat (mean, <, 70);
  g_assert_cmpint (wn_engine_now (a->engine), !=, wn_engine_now (b->engine));
  g_assert_cmpuint (wn_test_count (a, WN_EV_USER_TASK, WN_PH_ASSIGNED, NULL), ==, 400);
  for (guint i = 0; i < a->events->len; i++)
    {
      const WnEvent *ev = g_ptr_array_index (a->events, i);

      if (ev->kind == WN_EV_USER_TASK && ev->phase != WN_PH_CREATED)
        g_assert_cmpstr (ev->action, ==, "desk/1");
    }
  assert_replays (a);
}

static void
test_user_task_people_load_errors (void)
{
  g_autofree char *json = q ("{`format`: `winnow.scenario/1`, `people`: [\n"
                             " {`id`: `a`, `count`: 0, `duration`: {`uniform`: [`2m`, `1m`]}},\n"
                             " {`id`: `b`, `duration`: {`exponential`: `1m`, `lognormal`: {}}},\n"
                             " {`id`: `c`, `duration`: {`lognormal`: {`median`: `1m`, `sigma`: -1}}},\n"
                             " {`id`: `d`, `duration`: `1m`}, {`id`: `d`, `duration`: 60000}],\n"
                             " `userTasks`: [{`node`: `t`, `by`: `nobody`, `complete`: {}},\n"
                             "  {`node`: `t`, `by`: `d`, `after`: `1s`, `complete`: {}}]}");
  g_autoptr(GError) error = NULL;
  g_autoptr(WnScenario) scenario = wn_load_scenario_data (json, -1, "s.json", NULL, &error);

  g_assert_null (scenario);
  g_assert_error (error, WN_LOAD_ERROR, WN_LOAD_ERROR_INVALID);
  g_assert_cmpstr (error->message, ==,
    "s.json:2:23: people[0].count: must be ≥ 1\n"
    "s.json:2:57: people[0].duration.uniform[1]: must not be shorter than the minimum\n"
    "s.json:3:26: people[1].duration: a distribution is a duration or has exactly one of `uniform` ([min, max]), "
    "`exponential` (the mean) and `lognormal` ({median, sigma})\n"
    "s.json:4:66: people[2].duration.lognormal.sigma: must be a number from 0 to 10\n"
    "s.json:5:40: people[4].id: duplicate people id \"d\"\n"
    "s.json:6:36: userTasks[0].by: no people \"nobody\" in the scenario's `people`\n"
    "s.json:7:23: userTasks[1].by: a rule with `by` takes no `after`: the people's duration is the time");
}

/* ---- messages ---- */

#define WAITS \
  "{`format`: `winnow.process/1`, `id`: `p`, `variables`: {`k`: 7}, `nodes`: [" \
  " {`id`: `s`, `type`: `startEvent`}," \
  " {`id`: `keyed`, `type`: `receiveTask`, `message`: `go`, `correlation`: `k`}," \
  " {`id`: `any`, `type`: `messageEvent`, `message`: `go`}," \
  " {`id`: `stop`, `type`: `boundaryEvent`, `attachedTo`: `keyed`, `message`: `stop`}," \
  " {`id`: `e`, `type`: `endEvent`}, {`id`: `stopped`, `type`: `endEvent`}]," \
  " `flows`: [{`id`: `f1`, `from`: `s`, `to`: `keyed`}, {`id`: `f2`, `from`: `keyed`, `to`: `any`}," \
  "  {`id`: `f3`, `from`: `any`, `to`: `e`}, {`id`: `f4`, `from`: `stop`, `to`: `stopped`}]}"

/* Correlation by name and key, through the operator and replayed from a
 * saved session; a message nobody waits for is refused by name. */
static void
test_message_correlation (void)
{
  g_autoptr(WnTestRun) run = run_new (WAITS, "{`format`: `winnow.scenario/1`, `start`: [{`count`: 2,"
                                      " `variables`: {`k`: 7}}, {`variables`: {`k`: `x`}}]}", NULL);
  g_autoptr(JsonNode) seven = json_node_init_double (json_node_alloc (), 7.0);
  g_autoptr(JsonNode) eight = json_node_init_int (json_node_alloc (), 8);
  g_autoptr(JsonNode) x = json_node_init_string (json_node_alloc (), "x");
  g_autoptr(JsonNode) vars = wn_test_json ("{\"got\": 1}");
  g_autoptr(GError) error = NULL;
  g_autofree char *got = NULL;

  wn_engine_run (run->engine, WN_USEC_PER_SEC);
  /* a keyed wait refuses another key, and a message without one */
  g_assert_false (wn_engine_correlate_message (run->engine, "go", eight, NULL, &error));
  g_assert_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_NO_SUBSCRIPTION);
  g_clear_error (&error);
  g_assert_false (wn_engine_correlate_message (run->engine, "go", NULL, NULL, &error));
  g_assert_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_NO_SUBSCRIPTION);
  g_clear_error (&error);
  /* "x" is i2's key (the second start's instance comes between the first's two);
   * then 7.0 is the key 7 of i1, the first in start order */
  g_assert_true (wn_engine_correlate_message (run->engine, "go", x, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (wn_test_find (run, WN_EV_MESSAGE, WN_PH_CORRELATED, "keyed", 0)->instance, ==, "i2");
  g_assert_true (wn_engine_correlate_message (run->engine, "go", seven, json_node_get_object (vars), &error));
  g_assert_cmpstr (wn_test_find (run, WN_EV_MESSAGE, WN_PH_CORRELATED, "keyed", 1)->instance, ==, "i1");
  /* the waits without a correlation take any message of their name, first come first served */
  g_assert_true (wn_engine_correlate_message (run->engine, "go", eight, NULL, &error));
  g_assert_cmpstr (wn_test_find (run, WN_EV_MESSAGE, WN_PH_CORRELATED, "any", 0)->instance, ==, "i1");
  /* the boundary interrupts i3's wait */
  g_assert_true (wn_engine_correlate_message (run->engine, "stop", NULL, NULL, &error));
  g_assert_cmpstr (wn_test_find (run, WN_EV_MESSAGE, WN_PH_CORRELATED, "stop", 0)->instance, ==, "i3");
  wn_test_run_until (run, WN_TIME_NEVER);
  g_assert_cmpuint (end_count (run, "e"), ==, 1);     /* i1; i2 still waits at `any` */
  g_assert_cmpuint (end_count (run, "stopped"), ==, 1);
  g_assert_cmpuint (wn_test_count (run, WN_EV_MESSAGE, WN_PH_LOST, NULL), ==, 0);
  got = wn_test_variable (run, "i1", "got");
  g_assert_cmpstr (got, ==, "1");

  assert_replays (run);
  assert_reruns (run);
}

/* The operator can aim a message at one instance: its waits alone are tried
 * (the key still has to match), an unknown instance or one that does not
 * wait is refused and recorded nowhere, and a saved session names the
 * instance, so a replay takes the same one. */
static void
test_message_to_instance (void)
{
  g_autoptr(WnTestRun) run = run_new (WAITS, "{`format`: `winnow.scenario/1`, `start`: [{`count`: 3,"
                                      " `variables`: {`k`: 7}}]}", NULL);
  g_autoptr(JsonNode) seven = json_node_init_int (json_node_alloc (), 7);
  g_autoptr(JsonNode) eight = json_node_init_int (json_node_alloc (), 8);
  g_autoptr(GError) error = NULL;
  g_autofree char *session = NULL;
  guint commands;

  wn_engine_run (run->engine, WN_USEC_PER_SEC);
  commands = wn_engine_get_commands (run->engine)->len;
  g_assert_false (wn_engine_correlate_message_to (run->engine, "i9", "go", seven, NULL, &error));
  g_assert_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_NO_SUCH_INSTANCE);
  g_clear_error (&error);
  g_assert_false (wn_engine_correlate_message_to (run->engine, "i2", "go", eight, NULL, &error));
  g_assert_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_NO_SUBSCRIPTION);
  g_clear_error (&error);
  g_assert_cmpuint (wn_engine_get_commands (run->engine)->len, ==, commands);
  /* i2, though i1 waits for the same message and key */
  g_assert_true (wn_engine_correlate_message_to (run->engine, "i2", "go", seven, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (wn_test_find (run, WN_EV_MESSAGE, WN_PH_CORRELATED, "keyed", 0)->instance, ==, "i2");
  /* i3 waits at `keyed`, which takes key 7 only */
  g_assert_false (wn_engine_correlate_message_to (run->engine, "i3", "go", NULL, NULL, &error));
  g_assert_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_NO_SUBSCRIPTION);
  g_clear_error (&error);
  g_assert_true (wn_engine_correlate_message_to (run->engine, "i2", "go", NULL, NULL, &error));
  g_assert_cmpstr (wn_test_find (run, WN_EV_MESSAGE, WN_PH_CORRELATED, "any", 0)->instance, ==, "i2");
  /* i2 has ended: refused as not active */
  wn_engine_run (run->engine, 2 * WN_USEC_PER_SEC);
  g_assert_false (wn_engine_correlate_message_to (run->engine, "i2", "go", seven, NULL, &error));
  g_assert_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_NOT_ACTIVE);
  session = wn_engine_export_session (run->engine);
  g_assert_nonnull (strstr (session, "\"instance\" : \"i2\""));
  wn_test_run_until (run, WN_TIME_NEVER);
  g_assert_cmpuint (end_count (run, "e"), ==, 1);
  assert_replays (run);
  assert_reruns (run);
}

/* The scenario's messages: taken when something waits, else lost. */
static void
test_message_scenario (void)
{
  g_autoptr(WnTestRun) run = run_new (WAITS,
    "{`format`: `winnow.scenario/1`, `messages`: [{`at`: `1s`, `name`: `go`, `key`: 7},"
    " {`at`: `2s`, `name`: `go`, `key`: 7}, {`at`: `3s`, `name`: `go`}]}", NULL);
  const WnEvent *lost;

  wn_test_run_until (run, WN_TIME_NEVER);
  g_assert_cmpuint (end_count (run, "e"), ==, 1);
  g_assert_cmpint (wn_test_find (run, WN_EV_MESSAGE, WN_PH_CORRELATED, "any", 0)->t_us, ==, 2 * WN_USEC_PER_SEC);
  lost = wn_test_find (run, WN_EV_MESSAGE, WN_PH_LOST, NULL, 0);
  g_assert_nonnull (lost);
  g_assert_cmpint (lost->t_us, ==, 3 * WN_USEC_PER_SEC);
  g_assert_cmpstr (lost->action, ==, "go");
}

/* A scenario's message with a ttl is kept for a wait that begins later: taken
 * when it does, else it expires; one without a ttl is lost at once. */
static void
test_message_ttl (void)
{
  g_autoptr(WnTestRun) run = run_new (
    "{`format`: `winnow.process/1`, `id`: `p`, `nodes`: [{`id`: `s`, `type`: `startEvent`},"
    " {`id`: `later`, `type`: `timerEvent`, `duration`: `10s`},"
    " {`id`: `r`, `type`: `receiveTask`, `message`: `go`, `correlation`: `k`}, {`id`: `e`, `type`: `endEvent`}],"
    " `flows`: [{`id`: `f1`, `from`: `s`, `to`: `later`}, {`id`: `f2`, `from`: `later`, `to`: `r`},"
    "  {`id`: `f3`, `from`: `r`, `to`: `e`}]}",
    "{`format`: `winnow.scenario/1`, `start`: [{`variables`: {`k`: 1}}, {`variables`: {`k`: 2}}],"
    " `messages`: [{`at`: `1s`, `name`: `go`, `key`: 1, `ttl`: `20s`, `variables`: {`got`: true}},"
    " {`at`: `2s`, `name`: `go`, `key`: 2, `ttl`: `5s`}, {`at`: `3s`, `name`: `go`, `key`: 9}]}", NULL);
  const WnEvent *ev;
  g_autofree char *got = NULL;

  wn_test_run_until (run, WN_TIME_NEVER);
  g_assert_cmpuint (wn_test_count (run, WN_EV_MESSAGE, WN_PH_BUFFERED, NULL), ==, 2);
  ev = wn_test_find (run, WN_EV_MESSAGE, WN_PH_BUFFERED, NULL, 0);
  g_assert_cmpint (ev->t_us, ==, WN_USEC_PER_SEC);
  g_assert_cmpint (ev->deadline_us, ==, 21 * WN_USEC_PER_SEC);
  ev = wn_test_find (run, WN_EV_MESSAGE, WN_PH_EXPIRED, NULL, 0);
  g_assert_nonnull (ev);
  g_assert_cmpint (ev->t_us, ==, 7 * WN_USEC_PER_SEC);
  g_assert_cmpint (json_node_get_int (ev->status), ==, 2);
  ev = wn_test_find (run, WN_EV_MESSAGE, WN_PH_CORRELATED, "r", 0);
  g_assert_nonnull (ev);
  g_assert_cmpstr (ev->instance, ==, "i1");
  g_assert_cmpint (ev->t_us, ==, 10 * WN_USEC_PER_SEC);
  g_assert_cmpuint (wn_test_count (run, WN_EV_MESSAGE, WN_PH_CORRELATED, NULL), ==, 1);
  g_assert_cmpuint (wn_test_count (run, WN_EV_MESSAGE, WN_PH_LOST, NULL), ==, 1);
  g_assert_cmpuint (end_count (run, "e"), ==, 1);
  g_assert_cmpint (state_of (run, "i2"), ==, WN_INSTANCE_ACTIVE);
  got = wn_test_variable (run, "i1", "got");
  g_assert_cmpstr (got, ==, "true");
}

/* ---- event-based gateways ---- */

static void
test_event_gateway (void)
{
  g_autoptr(WnTestRun) run = run_new (
    "{`format`: `winnow.process/1`, `id`: `p`, `variables`: {`id`: 1}, `nodes`: ["
    " {`id`: `s`, `type`: `startEvent`}, {`id`: `g`, `type`: `eventBasedGateway`},"
    " {`id`: `paid`, `type`: `messageEvent`, `message`: `paid`, `correlation`: `id`},"
    " {`id`: `week`, `type`: `timerEvent`, `duration`: `1m`},"
    " {`id`: `ok`, `type`: `endEvent`}, {`id`: `remind`, `type`: `endEvent`}],"
    " `flows`: [{`id`: `f1`, `from`: `s`, `to`: `g`}, {`id`: `to-paid`, `from`: `g`, `to`: `paid`},"
    "  {`id`: `to-week`, `from`: `g`, `to`: `week`}, {`id`: `f2`, `from`: `paid`, `to`: `ok`},"
    "  {`id`: `f3`, `from`: `week`, `to`: `remind`}]}",
    "{`format`: `winnow.scenario/1`, `start`: [{`variables`: {`id`: 1}}, {`variables`: {`id`: 2}}],"
    " `messages`: [{`at`: `10s`, `name`: `paid`, `key`: 1}, {`at`: `2m`, `name`: `paid`, `key`: 2}]}", NULL);
  const WnEvent *decided;

  wn_test_run_until (run, WN_TIME_NEVER);
  g_assert_cmpuint (end_count (run, "ok"), ==, 1);
  g_assert_cmpuint (end_count (run, "remind"), ==, 1);
  decided = wn_test_find (run, WN_EV_GATEWAY, WN_PH_DECIDED, "g", 0);
  g_assert_cmpstr (decided->flows[0], ==, "to-paid");
  g_assert_cmpint (decided->t_us, ==, 10 * WN_USEC_PER_SEC);
  decided = wn_test_find (run, WN_EV_GATEWAY, WN_PH_DECIDED, "g", 1);
  g_assert_cmpstr (decided->flows[0], ==, "to-week");
  g_assert_cmpint (decided->t_us, ==, 60 * WN_USEC_PER_SEC);
  /* i1's timer was dropped when its message came; i2's message came too late */
  g_assert_cmpuint (wn_test_count (run, WN_EV_NODE, WN_PH_ENTERED, "week"), ==, 1);
  g_assert_cmpuint (wn_test_count (run, WN_EV_MESSAGE, WN_PH_LOST, NULL), ==, 1);
  g_assert_cmpint (wn_engine_now (run->engine), ==, 120 * WN_USEC_PER_SEC);
}

/* ---- multi-instance ---- */

#define BATCH(MULTI) \
  "{`format`: `winnow.process/1`, `id`: `p`, `engine`: {`trust`: `engineAuthoritative`}," \
  " `variables`: {`items`: [10, 20, 30, 40]}, `nodes`: [" \
  " {`id`: `s`, `type`: `startEvent`}," \
  " {`id`: `each`, `type`: `serviceTask`, `multiInstance`: " MULTI "," \
  "  `worker`: {`topic`: `t`, `input`: [`item`], `retry`: {`policy`: `fixed`, `maxAttempts`: 9, `delay`: `10s`}}}," \
  " {`id`: `slow`, `type`: `boundaryEvent`, `attachedTo`: `each`, `timer`: `1m`}," \
  " {`id`: `e`, `type`: `endEvent`}, {`id`: `late`, `type`: `endEvent`}]," \
  " `flows`: [{`id`: `f1`, `from`: `s`, `to`: `each`}, {`id`: `f2`, `from`: `each`, `to`: `e`}," \
  "  {`id`: `f3`, `from`: `slow`, `to`: `late`}]}"

/* Each iteration of a parallel multi-instance service task is its own job with
 * its own attempts; the activity's timer cancels the iterations still running,
 * each job once. */
static void
test_multi_parallel_timeout (void)
{
  g_autoptr(WnTestRun) run = run_new (BATCH ("{`collection`: `items`, `element`: `item`}"),
    "{`format`: `winnow.scenario/1`, `workers`: [{`id`: `w`, `topic`: `t`, `concurrency`: 4, `responses`: ["
    " {`when`: `input.item > 25`, `after`: `1s`, `fail`: {`code`: `503`}}, {`after`: `1s`, `complete`: {}}]}]}",
    NULL);
  const WnEvent *ev;

  wn_test_run_until (run, WN_TIME_NEVER);
  g_assert_cmpuint (end_count (run, "late"), ==, 1);
  g_assert_cmpuint (end_count (run, "e"), ==, 0);
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_ENQUEUED, "each"), ==, 4);
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_COMPLETED, "each"), ==, 2);
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_CANCELED, "each"), ==, 2);
  /* the loop index names each iteration; the element reached each job's input */
  ev = wn_test_find (run, WN_EV_NODE, WN_PH_PARKED, "each", 3);
  g_assert_cmpuint (ev->loop, ==, 4);
  g_assert_cmpstr (ev->job, ==, "i1/j4");
  g_assert_cmpuint (wn_test_find (run, WN_EV_NODE, WN_PH_ENTERED, "each", 0)->loop, ==, 0);
}

/* Sequential iterations one after the other, ended early by the completion
 * condition; an empty collection completes at once; a collection that is no
 * array fails the activity. */
static void
test_multi_sequential (void)
{
  g_autoptr(WnTestRun) run = run_new (
    BATCH ("{`sequential`: true, `cardinality`: 5, `completion`: `nrOfCompletedInstances >= 2`}"),
    "{`format`: `winnow.scenario/1`, `workers`: [{`id`: `w`, `topic`: `t`, `responses`: ["
    " {`after`: `2s`, `complete`: {}}]}]}", NULL);
  g_autoptr(WnTestRun) empty = run_new (BATCH ("{`collection`: `none`}"),
    "{`format`: `winnow.scenario/1`, `start`: [{`variables`: {`none`: []}}]}", NULL);
  g_autoptr(WnTestRun) wrong = run_new (BATCH ("{`collection`: `items`}"),
    "{`format`: `winnow.scenario/1`, `start`: [{`variables`: {`items`: 3}}]}", NULL);

  wn_test_run_until (run, WN_TIME_NEVER);
  g_assert_cmpuint (end_count (run, "e"), ==, 1);
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_ENQUEUED, "each"), ==, 2);
  g_assert_cmpint (wn_test_find (run, WN_EV_JOB, WN_PH_ENQUEUED, "each", 1)->t_us, ==, 2 * WN_USEC_PER_SEC);
  g_assert_cmpint (wn_engine_now (run->engine), ==, 4 * WN_USEC_PER_SEC);

  wn_test_run_until (empty, WN_TIME_NEVER);
  g_assert_cmpuint (end_count (empty, "e"), ==, 1);
  g_assert_cmpuint (wn_test_count (empty, WN_EV_JOB, WN_PH_ENQUEUED, NULL), ==, 0);

  wn_test_run_until (wrong, WN_TIME_NEVER);
  g_assert_cmpint (state_of (wrong, "i1"), ==, WN_INSTANCE_TERMINATED);
  g_assert_nonnull (strstr (wn_test_find (wrong, WN_EV_NODE, WN_PH_FAILED, "each", 0)->error, "not an array"));
}

/* Each iteration's outputElement at its place in the outputCollection,
 * evaluated as the iteration completes; an iteration the completion
 * condition cancels leaves its null. */
#define DOUBLING(MULTI) \
  "{`format`: `winnow.process/1`, `id`: `p`, `variables`: {`items`: [1, 2, 3]}, `nodes`: [" \
  " {`id`: `s`, `type`: `startEvent`}," \
  " {`id`: `double`, `type`: `scriptTask`, `set`: {`doubled`: `item * 2`}, `multiInstance`: " MULTI "}," \
  " {`id`: `e`, `type`: `endEvent`}]," \
  " `flows`: [{`id`: `f1`, `from`: `s`, `to`: `double`}, {`id`: `f2`, `from`: `double`, `to`: `e`}]}"

static void
test_multi_output (void)
{
  g_autoptr(WnTestRun) parallel = run_new (DOUBLING ("{`collection`: `items`, `element`: `item`, "
                                                     "`outputCollection`: `results`, `outputElement`: `doubled`}"),
                                           NULL, NULL);
  g_autoptr(WnTestRun) early = run_new (DOUBLING ("{`sequential`: true, `collection`: `items`, `element`: `item`,"
                                                  " `completion`: `nrOfCompletedInstances >= 2`,"
                                                  " `outputCollection`: `results`, `outputElement`: `doubled + 100`}"),
                                        NULL, NULL);
  g_autoptr(WnTestRun) broken = run_new (DOUBLING ("{`collection`: `items`, `element`: `item`, "
                                                   "`outputCollection`: `results`, `outputElement`: `missing.x`}"),
                                         NULL, NULL);
  g_autofree char *results = NULL;
  g_autofree char *early_results = NULL;

  wn_test_run_until (parallel, WN_TIME_NEVER);
  results = wn_test_variable (parallel, "i1", "results");
  g_assert_cmpstr (results, ==, "[2,4,6]");

  wn_test_run_until (early, WN_TIME_NEVER);
  early_results = wn_test_variable (early, "i1", "results");
  g_assert_cmpstr (early_results, ==, "[102,104,null]");

  wn_test_run_until (broken, WN_TIME_NEVER);
  g_assert_cmpint (state_of (broken, "i1"), ==, WN_INSTANCE_TERMINATED);
  g_assert_nonnull (strstr (wn_test_find (broken, WN_EV_NODE, WN_PH_FAILED, "double", 0)->error,
                            "outputElement of iteration 1"));
}

static void
test_multi_load_errors (void)
{
  g_autofree char *errors = load_errors (
    "{`format`: `winnow.process/1`, `id`: `p`, `nodes`: [\n"
    " {`id`: `s`, `type`: `startEvent`},\n"
    " {`id`: `a`, `type`: `task`, `multiInstance`: {`cardinality`: 2, `collection`: `x`}},\n"
    " {`id`: `b`, `type`: `task`, `multiInstance`: {`cardinality`: 0, `element`: `i`}},\n"
    " {`id`: `c`, `type`: `timerEvent`, `duration`: 1, `multiInstance`: {`cardinality`: 2}},\n"
    " {`id`: `d`, `type`: `task`, `multiInstance`: {`cardinality`: 2, `outputCollection`: `r`}},\n"
    " {`id`: `e`, `type`: `endEvent`}],\n"
    " `flows`: [{`id`: `f1`, `from`: `s`, `to`: `a`}, {`id`: `f2`, `from`: `a`, `to`: `b`},\n"
    "  {`id`: `f3`, `from`: `b`, `to`: `c`}, {`id`: `f4`, `from`: `c`, `to`: `d`}, {`id`: `f5`, `from`: `d`, `to`: `e`}]}");

  g_assert_nonnull (strstr (errors, "nodes[1].multiInstance: a multiInstance has exactly one of `cardinality` and `collection`"));
  g_assert_nonnull (strstr (errors, "nodes[2].multiInstance.cardinality: must be ≥ 1"));
  g_assert_nonnull (strstr (errors, "nodes[2].multiInstance.element: `element` goes with a `collection`"));
  g_assert_nonnull (strstr (errors, "nodes[3].multiInstance:"));
  g_assert_nonnull (strstr (errors, "nodes[4].multiInstance: `outputCollection` and `outputElement` go together"));
}

/* ---- event sub-processes ---- */

/* A payment in the process, with three event sub-processes: an error one for
 * the worker's CardDeclined, an interrupting message one for a cancellation
 * keyed by the order, and a non-interrupting reminder every 5 s (twice). */
#define EVENT_SUBS \
  "{`format`: `winnow.process/1`, `id`: `p`, `variables`: {`order`: `A-1`}, `nodes`: [" \
  " {`id`: `s`, `type`: `startEvent`}," \
  " {`id`: `charge`, `type`: `serviceTask`, `worker`: {`topic`: `pay`," \
  "   `retry`: {`policy`: `fixed`, `maxAttempts`: 3, `delay`: `10s`}," \
  "   `errorMapper`: [{`code`: `402`, `bpmnError`: {`code`: `CardDeclined`}}]}}," \
  " {`id`: `e`, `type`: `endEvent`}," \
  " {`id`: `declined`, `type`: `subProcess`, `triggeredByEvent`: true, `nodes`: [" \
  "   {`id`: `ds`, `type`: `startEvent`, `error`: `CardDeclined`}," \
  "   {`id`: `notify`, `type`: `task`, `duration`: `1s`}, {`id`: `de`, `type`: `endEvent`}]," \
  "  `flows`: [{`id`: `d1`, `from`: `ds`, `to`: `notify`}, {`id`: `d2`, `from`: `notify`, `to`: `de`}]}," \
  " {`id`: `canceled`, `type`: `subProcess`, `triggeredByEvent`: true, `nodes`: [" \
  "   {`id`: `cs`, `type`: `startEvent`, `message`: `cancel`, `correlation`: `order`}," \
  "   {`id`: `ce`, `type`: `endEvent`}]," \
  "  `flows`: [{`id`: `c1`, `from`: `cs`, `to`: `ce`}]}," \
  " {`id`: `remind`, `type`: `subProcess`, `triggeredByEvent`: true, `nodes`: [" \
  "   {`id`: `rs`, `type`: `startEvent`, `timer`: `5s`, `interrupting`: false, `repeat`: 2}," \
  "   {`id`: `rt`, `type`: `task`, `duration`: `1s`}, {`id`: `re`, `type`: `endEvent`}]," \
  "  `flows`: [{`id`: `r1`, `from`: `rs`, `to`: `rt`}, {`id`: `r2`, `from`: `rt`, `to`: `re`}]}]," \
  " `flows`: [{`id`: `f1`, `from`: `s`, `to`: `charge`}, {`id`: `f2`, `from`: `charge`, `to`: `e`}]}"

/* A worker's BPMN error caught by the process's error event sub-process: the
 * reminders ran beside the job's retries, the payment's track is canceled,
 * the instance completes at the event sub-process's end. */
static void
test_event_sub_error (gconstpointer data)
{
  g_autofree char *scenario = g_strdup_printf (
    "{`format`: `winnow.scenario/1`, `engine`: {`trust`: `%s`}, `workers`: [{`id`: `w`, `topic`: `pay`,"
    " `responses`: [{`attempts`: `1-2`, `after`: `1s`, `fail`: {`code`: `503`}},"
    " {`after`: `1s`, `fail`: {`code`: `402`}}]}]}",
    GPOINTER_TO_INT (data) ? "workerTrusted" : "engineAuthoritative");
  g_autoptr(WnTestRun) run = run_new (EVENT_SUBS, scenario, NULL);
  const WnEvent *caught;

  g_assert_true (run->process->extended);
  g_assert_cmpuint (run->process->event_subs->len, ==, 3);
  wn_test_run_until (run, WN_TIME_NEVER);
  g_assert_cmpint (state_of (run, "i1"), ==, WN_INSTANCE_COMPLETED);
  caught = wn_test_find (run, WN_EV_FAULT, WN_PH_CAUGHT, "ds", 0);
  g_assert_nonnull (caught);
  g_assert_cmpstr (caught->code, ==, "CardDeclined");
  g_assert_cmpstr (caught->track, !=, "i1/t1");
  /* the payment's track ends canceled; the event sub-process runs as a scope */
  g_assert_cmpuint (wn_test_count (run, WN_EV_NODE, WN_PH_CANCELED, "charge"), ==, 1);
  g_assert_nonnull (wn_test_find (run, WN_EV_SCOPE, WN_PH_COMPLETED, "declined", 0));
  g_assert_cmpuint (end_count (run, "de"), ==, 1);
  g_assert_cmpuint (end_count (run, "e"), ==, 0);
  /* the non-interrupting reminders both ran (at 5 s and 10 s) */
  g_assert_cmpuint (wn_test_count (run, WN_EV_TIMER, WN_PH_FIRED, "rs"), ==, 2);
  g_assert_cmpint (wn_test_find (run, WN_EV_TIMER, WN_PH_FIRED, "rs", 1)->t_us, ==, 10 * WN_USEC_PER_SEC);
  g_assert_cmpuint (end_count (run, "re"), ==, 2);
  /* a message for the cancellation after the end finds no wait */
  g_assert_cmpuint (wn_test_count (run, WN_EV_MESSAGE, WN_PH_CORRELATED, NULL), ==, 0);
}

/* An interrupting message start cancels the payment whatever its job's state:
 * locked (the worker's late report is refused) or gated behind a retry's
 * backoff; its reminders stop; a key that is not the instance's is lost. */
static void
test_event_sub_message (gconstpointer data)
{
  gboolean gated = GPOINTER_TO_INT (data);
  g_autofree char *scenario = g_strdup_printf (
    "{`format`: `winnow.scenario/1`, `engine`: {`trust`: `engineAuthoritative`}, `workers`: [{`id`: `w`,"
    " `topic`: `pay`, `responses`: [{`after`: `2s`, `fail`: {`code`: `503`}}]}],"
    " `messages`: [{`at`: `1s`, `name`: `cancel`, `key`: `B-2`}, {`at`: `%s`, `name`: `cancel`, `key`: `A-1`}]}",
    gated ? "3s" : "1500ms");
  g_autoptr(WnTestRun) run = run_new (EVENT_SUBS, scenario, NULL);
  const WnEvent *ev;

  wn_test_run_until (run, WN_TIME_NEVER);
  g_assert_cmpint (state_of (run, "i1"), ==, WN_INSTANCE_COMPLETED);
  g_assert_cmpuint (wn_test_count (run, WN_EV_MESSAGE, WN_PH_LOST, NULL), ==, 1);
  ev = wn_test_find (run, WN_EV_MESSAGE, WN_PH_CORRELATED, "cs", 0);
  g_assert_nonnull (ev);
  ev = wn_test_find (run, WN_EV_JOB, WN_PH_CANCELED, "charge", 0);
  g_assert_nonnull (ev);
  g_assert_nonnull (strstr (ev->error, gated ? "gated" : "locked"));
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_CANCELED, NULL), ==, 1);
  g_assert_cmpuint (wn_test_count (run, WN_EV_JOB, WN_PH_REPORT_REJECTED, NULL), ==, gated ? 0 : 1);
  /* interrupting: the reminders are disarmed with everything else */
  g_assert_cmpuint (wn_test_count (run, WN_EV_TIMER, WN_PH_FIRED, "rs"), ==, 0);
  g_assert_cmpuint (end_count (run, "ce"), ==, 1);
  g_assert_cmpint (wn_engine_now (run->engine), <, 5 * WN_USEC_PER_SEC);
}

/* Inside a sub-process: an error event sub-process of the sub-process catches
 * before the sub-process's own boundary (it is nearer); an error thrown inside
 * that event sub-process skips the event sub-processes of its scope and goes
 * to the boundary. The sub-process ends at the event sub-process's end and its
 * host goes on along its flow. */
#define NESTED_EVENT_SUB(INNER_END) \
  "{`format`: `winnow.process/1`, `id`: `p`, `nodes`: [" \
  " {`id`: `s`, `type`: `startEvent`}," \
  " {`id`: `sub`, `type`: `subProcess`, `nodes`: [" \
  "   {`id`: `in`, `type`: `startEvent`}," \
  "   {`id`: `fork`, `type`: `parallelGateway`}," \
  "   {`id`: `slow`, `type`: `serviceTask`, `worker`: {`topic`: `slow`}}," \
  "   {`id`: `pause`, `type`: `timerEvent`, `duration`: `1s`}," \
  "   {`id`: `boom`, `type`: `endEvent`, `error`: `E`}," \
  "   {`id`: `out`, `type`: `endEvent`}," \
  "   {`id`: `handler`, `type`: `subProcess`, `triggeredByEvent`: true, `nodes`: [" \
  "     {`id`: `hs`, `type`: `startEvent`, `error`: `E`}, " INNER_END "]," \
  "    `flows`: [{`id`: `h1`, `from`: `hs`, `to`: `he`}]}]," \
  "  `flows`: [{`id`: `g1`, `from`: `in`, `to`: `fork`}, {`id`: `g2`, `from`: `fork`, `to`: `slow`}," \
  "   {`id`: `g3`, `from`: `fork`, `to`: `pause`}, {`id`: `g4`, `from`: `slow`, `to`: `out`}," \
  "   {`id`: `g5`, `from`: `pause`, `to`: `boom`}]}," \
  " {`id`: `caught`, `type`: `boundaryEvent`, `attachedTo`: `sub`, `error`: true}," \
  " {`id`: `e`, `type`: `endEvent`}, {`id`: `failed`, `type`: `endEvent`}]," \
  " `flows`: [{`id`: `f1`, `from`: `s`, `to`: `sub`}, {`id`: `f2`, `from`: `sub`, `to`: `e`}," \
  "  {`id`: `f3`, `from`: `caught`, `to`: `failed`}]}"

static void
test_event_sub_nearest (void)
{
  const char *worker = "{`format`: `winnow.scenario/1`, `workers`: [{`id`: `w`, `topic`: `slow`,"
                       " `responses`: [{`after`: `1m`, `complete`: {}}]}]}";
  g_autoptr(WnTestRun) handled = run_new (NESTED_EVENT_SUB ("{`id`: `he`, `type`: `endEvent`}"), worker, NULL);
  g_autoptr(WnTestRun) rethrown = run_new (NESTED_EVENT_SUB ("{`id`: `he`, `type`: `endEvent`, `error`: `E`}"),
                                           worker, NULL);
  const WnEvent *ev;

  wn_test_run_until (handled, WN_TIME_NEVER);
  g_assert_cmpint (state_of (handled, "i1"), ==, WN_INSTANCE_COMPLETED);
  g_assert_nonnull (wn_test_find (handled, WN_EV_FAULT, WN_PH_CAUGHT, "hs", 0));
  g_assert_null (wn_test_find (handled, WN_EV_FAULT, WN_PH_CAUGHT, "caught", 0));
  /* the sibling's locked job left once; the sub-process completed, its host went on at once */
  ev = wn_test_find (handled, WN_EV_JOB, WN_PH_CANCELED, "slow", 0);
  g_assert_nonnull (ev);
  g_assert_cmpstr (ev->worker, ==, "w");
  g_assert_cmpuint (wn_test_count (handled, WN_EV_JOB, WN_PH_REPORT_REJECTED, NULL), ==, 1);
  g_assert_cmpuint (end_count (handled, "he"), ==, 1);
  g_assert_cmpuint (end_count (handled, "e"), ==, 1);
  g_assert_cmpint (wn_test_find (handled, WN_EV_NODE, WN_PH_COMPLETED, "e", 0)->t_us, ==, WN_USEC_PER_SEC);
  /* the event sub-process's events name its own scope, inside the sub-process's */
  ev = wn_test_find (handled, WN_EV_SCOPE, WN_PH_ENTERED, "handler", 0);
  g_assert_cmpstr (ev->scope, ==, "i1/s2");
  g_assert_cmpstr (wn_test_find (handled, WN_EV_NODE, WN_PH_ENTERED, "hs", 0)->scope, ==, "i1/s2");

  wn_test_run_until (rethrown, WN_TIME_NEVER);
  g_assert_cmpint (state_of (rethrown, "i1"), ==, WN_INSTANCE_COMPLETED);
  g_assert_cmpuint (wn_test_count (rethrown, WN_EV_FAULT, WN_PH_CAUGHT, "hs"), ==, 1);
  g_assert_nonnull (wn_test_find (rethrown, WN_EV_FAULT, WN_PH_CAUGHT, "caught", 0));
  g_assert_cmpuint (end_count (rethrown, "failed"), ==, 1);
  g_assert_cmpuint (end_count (rethrown, "e"), ==, 0);
}

/* A multi-instance sub-process's boundary catches an iteration's error for the
 * whole activity (the iteration's own track is no host of it). */
static void
test_multi_sub_boundary (void)
{
  g_autoptr(WnTestRun) run = run_new (
    "{`format`: `winnow.process/1`, `id`: `p`, `nodes`: ["
    " {`id`: `s`, `type`: `startEvent`},"
    " {`id`: `each`, `type`: `subProcess`, `multiInstance`: {`cardinality`: 2}, `nodes`: ["
    "   {`id`: `in`, `type`: `startEvent`}, {`id`: `boom`, `type`: `endEvent`, `error`: `E`}],"
    "  `flows`: [{`id`: `g1`, `from`: `in`, `to`: `boom`}]},"
    " {`id`: `caught`, `type`: `boundaryEvent`, `attachedTo`: `each`, `error`: `E`},"
    " {`id`: `e`, `type`: `endEvent`}, {`id`: `failed`, `type`: `endEvent`}],"
    " `flows`: [{`id`: `f1`, `from`: `s`, `to`: `each`}, {`id`: `f2`, `from`: `each`, `to`: `e`},"
    "  {`id`: `f3`, `from`: `caught`, `to`: `failed`}]}", NULL, NULL);

  wn_test_run_until (run, WN_TIME_NEVER);
  g_assert_cmpint (state_of (run, "i1"), ==, WN_INSTANCE_COMPLETED);
  g_assert_cmpuint (wn_test_count (run, WN_EV_FAULT, WN_PH_CAUGHT, "caught"), ==, 1);
  g_assert_cmpstr (wn_test_find (run, WN_EV_FAULT, WN_PH_CAUGHT, "caught", 0)->track, ==, "i1/t1");
  g_assert_cmpuint (end_count (run, "failed"), ==, 1);
  g_assert_cmpuint (end_count (run, "e"), ==, 0);
}

static void
test_event_sub_load_errors (void)
{
  g_autofree char *errors = load_errors (
    "{`format`: `winnow.process/1`, `id`: `p`, `nodes`: [\n"
    " {`id`: `s`, `type`: `startEvent`, `timer`: `1s`},\n"
    " {`id`: `a`, `type`: `subProcess`, `triggeredByEvent`: true, `nodes`: [\n"
    "   {`id`: `as`, `type`: `startEvent`}, {`id`: `ae`, `type`: `endEvent`}],\n"
    "  `flows`: [{`id`: `a1`, `from`: `as`, `to`: `ae`}]},\n"
    " {`id`: `b`, `type`: `subProcess`, `triggeredByEvent`: true, `nodes`: [\n"
    "   {`id`: `bs`, `type`: `startEvent`, `error`: `E`, `interrupting`: false}, {`id`: `be`, `type`: `endEvent`}],\n"
    "  `flows`: [{`id`: `b1`, `from`: `bs`, `to`: `be`}]},\n"
    " {`id`: `c`, `type`: `subProcess`, `triggeredByEvent`: true, `multiInstance`: {`cardinality`: 2}, `nodes`: [\n"
    "   {`id`: `cs`, `type`: `startEvent`, `message`: `m`, `timer`: `1s`}, {`id`: `ce`, `type`: `endEvent`}],\n"
    "  `flows`: [{`id`: `c1`, `from`: `cs`, `to`: `ce`}]},\n"
    " {`id`: `x`, `type`: `boundaryEvent`, `attachedTo`: `a`, `error`: true},\n"
    " {`id`: `e`, `type`: `endEvent`}],\n"
    " `flows`: [{`id`: `f1`, `from`: `s`, `to`: `e`}, {`id`: `f2`, `from`: `e`, `to`: `a`}]}");

  g_assert_cmpstr (errors, ==,
    "t.json:2:36: nodes[0].timer: key \"timer\" does not apply to a startEvent\n"
    "t.json:4:4: nodes[1].nodes[0]: an event sub-process's startEvent needs `error` (a code, or true for any "
    "code), `timer` or `message`\n"
    "t.json:7:69: nodes[2].nodes[0].interrupting: `interrupting` applies to a timer startEvent only (an error "
    "start event always interrupts)\n"
    "t.json:9:79: nodes[3].multiInstance: an event sub-process cannot be multi-instance\n"
    "t.json:10:50: nodes[3].nodes[0].message: an event sub-process's startEvent has one of `error`, `timer` and "
    "`message`\n"
    "t.json:12:53: nodes[4].attachedTo: an event sub-process takes no boundary events (\"a\" is one)\n"
    "t.json:14:71: flows[1].from: an endEvent cannot have outgoing flows (\"e\" is an endEvent)\n"
    "t.json:14:82: flows[1].to: an event sub-process has no incoming flows (\"a\" starts by its start event's "
    "trigger)");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/engine/Scopes/sub-process-completes", test_subprocess_completes);
  g_test_add_func ("/engine/Scopes/error-goes-outward", test_error_goes_outward);
  g_test_add_func ("/engine/Scopes/nearest-catch-all", test_nearest_catch_all);
  g_test_add_func ("/engine/Scopes/exact-before-catch-all", test_exact_before_catch_all);
  g_test_add_func ("/engine/Scopes/error-end-event", test_error_end_event);
  g_test_add_func ("/engine/Scopes/terminate", test_terminate);
  g_test_add_data_func ("/engine/Scopes/timer/during-gate/task", GINT_TO_POINTER (0), test_timeout_during_gate);
  g_test_add_data_func ("/engine/Scopes/timer/during-gate/sub-process", GINT_TO_POINTER (1), test_timeout_during_gate);
  g_test_add_data_func ("/engine/Scopes/timer/during-lock/engine-authoritative", GINT_TO_POINTER (0),
                        test_timeout_during_lock);
  g_test_add_data_func ("/engine/Scopes/timer/during-lock/worker-trusted", GINT_TO_POINTER (1),
                        test_timeout_during_lock);
  g_test_add_data_func ("/engine/Scopes/timer/during-trusted-retry/task", GINT_TO_POINTER (0),
                        test_timeout_during_trusted_retry);
  g_test_add_data_func ("/engine/Scopes/timer/during-trusted-retry/sub-process", GINT_TO_POINTER (1),
                        test_timeout_during_trusted_retry);
  g_test_add_func ("/engine/Scopes/timer/not-reached", test_timeout_not_reached);
  g_test_add_func ("/engine/Scopes/timer/non-interrupting-cycle", test_non_interrupting_cycle);
  g_test_add_func ("/engine/Scopes/load-errors", test_load_errors);
  g_test_add_func ("/engine/Scopes/builder", test_builder);
  g_test_add_func ("/engine/UserTasks/operator", test_user_task_operator);
  g_test_add_func ("/engine/UserTasks/scenario", test_user_task_scenario);
  g_test_add_func ("/engine/UserTasks/load-errors", test_user_task_load_errors);
  g_test_add_func ("/engine/UserTasks/people", test_user_task_people);
  g_test_add_func ("/engine/UserTasks/people-distribution", test_user_task_people_distribution);
  g_test_add_func ("/engine/UserTasks/people-load-errors", test_user_task_people_load_errors);
  g_test_add_func ("/engine/Messages/correlation", test_message_correlation);
  g_test_add_func ("/engine/Messages/to-instance", test_message_to_instance);
  g_test_add_func ("/engine/Messages/scenario", test_message_scenario);
  g_test_add_func ("/engine/Messages/ttl", test_message_ttl);
  g_test_add_func ("/engine/EventGateways/first-event-wins", test_event_gateway);
  g_test_add_func ("/engine/MultiInstance/parallel-timeout", test_multi_parallel_timeout);
  g_test_add_func ("/engine/MultiInstance/sequential", test_multi_sequential);
  g_test_add_func ("/engine/MultiInstance/load-errors", test_multi_load_errors);
  g_test_add_func ("/engine/MultiInstance/sub-process-boundary", test_multi_sub_boundary);
  g_test_add_func ("/engine/MultiInstance/output", test_multi_output);
  g_test_add_data_func ("/engine/EventSubProcesses/error/engine-authoritative", GINT_TO_POINTER (0),
                        test_event_sub_error);
  g_test_add_data_func ("/engine/EventSubProcesses/error/worker-trusted", GINT_TO_POINTER (1), test_event_sub_error);
  g_test_add_data_func ("/engine/EventSubProcesses/message/during-lock", GINT_TO_POINTER (0), test_event_sub_message);
  g_test_add_data_func ("/engine/EventSubProcesses/message/during-gate", GINT_TO_POINTER (1), test_event_sub_message);
  g_test_add_func ("/engine/EventSubProcesses/nearest-catch", test_event_sub_nearest);
  g_test_add_func ("/engine/EventSubProcesses/load-errors", test_event_sub_load_errors);

  return g_test_run ();
}

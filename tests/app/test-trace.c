/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The trace the timeline and the job inspector read: spans from journal
 * events, ranges by time, and which mapper rule a fault matched. No display. */
#include "config.h"

#include <string.h>

#include "winnow.h"
#include "winnow-trace.h"

static void
emit (WinnowTrace  *trace,
      WnEventKind   kind,
      WnEventPhase  phase,
      WnTime        t,
      const char   *job,
      const char   *worker,
      guint         attempt)
{
  WnEvent ev = WN_EVENT_INIT (kind, phase);

  ev.t_us = t;
  ev.job = job;
  ev.worker = worker;
  ev.attempt = attempt;
  ev.instance = "i1";
  ev.node = "task";
  ev.topic = "topic";
  winnow_trace_add_event (trace, &ev);
}

static void
emit_retry (WinnowTrace  *trace,
            WnEventPhase  phase,
            WnTime        t,
            WnTime        backoff,
            const char   *code)
{
  WnEvent ev = WN_EVENT_INIT (WN_EV_JOB, phase);

  ev.t_us = t;
  ev.job = "i1/j1";
  ev.instance = "i1";
  ev.worker = "w";
  ev.backoff_us = backoff;
  ev.not_before_us = t + backoff;
  ev.code = code;
  ev.error = "unavailable";
  winnow_trace_add_event (trace, &ev);
}

/* An EngineAuthoritative job: fails twice, is re-armed behind gates, completes. */
static void
test_trace_spans (void)
{
  g_autoptr(WinnowTrace) trace = winnow_trace_new ();
  WinnowJobTrace *job;
  const WinnowLane *lanes;
  guint n, first, last;
  WnEvent created = WN_EVENT_INIT (WN_EV_INSTANCE, WN_PH_CREATED);

  created.instance = "i1";
  winnow_trace_add_event (trace, &created);
  emit (trace, WN_EV_JOB, WN_PH_ENQUEUED, 0, "i1/j1", NULL, 0);
  for (guint i = 0; i < 2; i++)
    {
      WnTime t = i * 400;
      WnEvent locked = WN_EVENT_INIT (WN_EV_JOB, WN_PH_LOCKED);

      locked.t_us = t;
      locked.job = "i1/j1";
      locked.worker = "w";
      locked.deadline_us = t + 1000;
      winnow_trace_add_event (trace, &locked);
      emit (trace, WN_EV_JOB, WN_PH_EXECUTING, t, "i1/j1", "w", i + 1);
      emit_retry (trace, WN_PH_RETRY_SCHEDULED, t + 100, 300, "503");
    }
  emit (trace, WN_EV_JOB, WN_PH_LOCKED, 800, "i1/j1", "w", 3);
  emit (trace, WN_EV_JOB, WN_PH_EXECUTING, 800, "i1/j1", "w", 3);
  emit (trace, WN_EV_JOB, WN_PH_COMPLETED, 900, "i1/j1", "w", 3);

  job = winnow_trace_lookup_job (trace, "i1/j1");
  g_assert_nonnull (job);
  g_assert_cmpuint (job->executions->len, ==, 3);
  g_assert_cmpuint (job->gates->len, ==, 2);
  g_assert_cmpuint (job->locks->len, ==, 3);
  g_assert_cmpuint (job->marks->len, ==, 3);
  g_assert_cmpint (g_array_index (job->executions, WinnowExecution, 0).outcome, ==, WINNOW_OUTCOME_RETRY);
  g_assert_cmpint (g_array_index (job->executions, WinnowExecution, 0).gate, ==, 400);
  g_assert_cmpint (g_array_index (job->executions, WinnowExecution, 2).outcome, ==, WINNOW_OUTCOME_COMPLETED);
  g_assert_cmpint (g_array_index (job->locks, WinnowSpan, 0).end, ==, 100);   /* released at the re-arm */
  g_assert_cmpint (job->end, ==, WINNOW_JOB_COMPLETED);
  g_assert_cmpint (job->ended_at, ==, 900);
  g_assert_cmpint (winnow_trace_get_end (trace), ==, 900);

  /* ranges by time */
  winnow_trace_span_range (job->executions, sizeof (WinnowExecution), 150, 450, 900, &first, &last);
  g_assert_cmpuint (first, ==, 1);
  g_assert_cmpuint (last, ==, 2);
  winnow_trace_span_range (job->gates, sizeof (WinnowSpan), 0, 2000, 900, &first, &last);
  g_assert_cmpuint (last - first, ==, 2);
  winnow_trace_span_range (job->gates, sizeof (WinnowSpan), 850, 2000, 900, &first, &last);
  g_assert_cmpuint (last - first, ==, 0);
  winnow_trace_mark_range (job->marks, 100, 500, &first, &last);
  g_assert_cmpuint (last - first, ==, 2);

  /* one header, one job lane */
  lanes = winnow_trace_get_lanes (trace, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_null (lanes[0].job);
  g_assert_true (lanes[1].job == job);
  g_assert_cmpuint (job->lane, ==, 1);

  winnow_trace_clear (trace);
  g_assert_null (winnow_trace_lookup_job (trace, "i1/j1"));
  winnow_trace_get_lanes (trace, &n);
  g_assert_cmpuint (n, ==, 0);
}

/* A WorkerTrusted worker's in-process retry is its own wait, inside its lock,
 * not a dispatcher gate: the views say so (issue 16, polish). */
static void
test_trace_worker_wait (void)
{
  g_autoptr(WinnowTrace) trace = winnow_trace_new ();
  WinnowJobTrace *job;

  emit (trace, WN_EV_JOB, WN_PH_ENQUEUED, 0, "i1/j1", NULL, 0);
  emit (trace, WN_EV_JOB, WN_PH_LOCKED, 0, "i1/j1", "w", 1);
  emit (trace, WN_EV_JOB, WN_PH_EXECUTING, 0, "i1/j1", "w", 1);
  emit_retry (trace, WN_PH_WORKER_RETRY_SCHEDULED, 100, 300, "503");
  emit (trace, WN_EV_JOB, WN_PH_EXECUTING, 400, "i1/j1", "w", 2);
  emit_retry (trace, WN_PH_RETRY_SCHEDULED, 500, 300, "503");

  job = winnow_trace_lookup_job (trace, "i1/j1");
  g_assert_nonnull (job);
  g_assert_cmpuint (job->executions->len, ==, 2);
  g_assert_true (g_array_index (job->executions, WinnowExecution, 0).in_worker);
  g_assert_false (g_array_index (job->executions, WinnowExecution, 1).in_worker);
  g_assert_cmpuint (job->gates->len, ==, 2);
  g_assert_true (g_array_index (job->gates, WinnowSpan, 0).in_worker);
  g_assert_false (g_array_index (job->gates, WinnowSpan, 1).in_worker);
}

/* A lapsed lock taken over, a late report rejected, a job removed with its task. */
static void
test_trace_takeover (void)
{
  g_autoptr(WinnowTrace) trace = winnow_trace_new ();
  WinnowJobTrace *job;
  WnEvent ev = WN_EVENT_INIT (WN_EV_JOB, WN_PH_LOCK_RECLAIMED);
  WnEvent parked = WN_EVENT_INIT (WN_EV_NODE, WN_PH_PARKED);
  WnEvent canceled = WN_EVENT_INIT (WN_EV_NODE, WN_PH_CANCELED);
  WnEvent rejected = WN_EVENT_INIT (WN_EV_JOB, WN_PH_REPORT_REJECTED);

  emit (trace, WN_EV_JOB, WN_PH_ENQUEUED, 0, "i1/j1", NULL, 0);
  parked.track = "i1/t1";
  parked.job = "i1/j1";
  winnow_trace_add_event (trace, &parked);
  emit (trace, WN_EV_JOB, WN_PH_LOCKED, 0, "i1/j1", "a", 1);
  emit (trace, WN_EV_JOB, WN_PH_EXECUTING, 0, "i1/j1", "a", 1);
  ev.t_us = 5000;
  ev.job = "i1/j1";
  ev.worker = "a";
  winnow_trace_add_event (trace, &ev);
  emit (trace, WN_EV_JOB, WN_PH_LOCKED, 5000, "i1/j1", "b", 2);
  emit (trace, WN_EV_JOB, WN_PH_EXECUTING, 5000, "i1/j1", "b", 2);
  canceled.t_us = 6000;
  canceled.track = "i1/t1";
  winnow_trace_add_event (trace, &canceled);
  rejected.t_us = 7000;
  rejected.job = "i1/j1";
  rejected.worker = "a";
  rejected.error = "job not found";
  winnow_trace_add_event (trace, &rejected);

  job = winnow_trace_lookup_job (trace, "i1/j1");
  g_assert_cmpuint (job->executions->len, ==, 2);
  g_assert_cmpint (g_array_index (job->executions, WinnowExecution, 0).outcome, ==, WINNOW_OUTCOME_REJECTED);
  g_assert_cmpint (g_array_index (job->executions, WinnowExecution, 0).end, ==, 5000);
  g_assert_cmpint (g_array_index (job->executions, WinnowExecution, 1).outcome, ==, WINNOW_OUTCOME_CANCELED);
  g_assert_cmpint (g_array_index (job->executions, WinnowExecution, 1).end, ==, 6000);
  g_assert_cmpint (job->end, ==, WINNOW_JOB_REMOVED);
  g_assert_cmpint (g_array_index (job->marks, WinnowMark, 0).kind, ==, WINNOW_MARK_RECLAIMED);
  g_assert_cmpint (g_array_index (job->marks, WinnowMark, 1).kind, ==, WINNOW_MARK_REJECTED);
}

static WnErrorMapper *
make_mapper (void)
{
  g_autoptr(GError) error = NULL;
  WnLite *declined = wn_lite_compile ("body.reason == 'card_declined'", NULL, &error);
  WnLite *slow = wn_lite_compile ("has(\"body.slow\")", NULL, &error);
  g_autoptr(JsonNode) missing = json_node_new (JSON_NODE_VALUE);
  WnErrorRule rules[4] = { { 0 } };
  WnErrorMapper *mapper;

  g_assert_no_error (error);
  json_node_set_string (missing, "NOT_FOUND");
  rules[0] = (WnErrorRule) { "402", declined, WN_CLASS_BPMN_ERROR, "CardDeclined", "declined", NULL };
  rules[1] = (WnErrorRule) { "404", NULL, WN_CLASS_STATUS, NULL, NULL, missing };
  rules[2] = (WnErrorRule) { "503", slow, WN_CLASS_TECHNICAL, NULL, NULL, NULL };
  rules[3] = (WnErrorRule) { "500", NULL, WN_CLASS_TECHNICAL, NULL, NULL, NULL };
  mapper = wn_error_mapper_new (rules, G_N_ELEMENTS (rules));
  wn_lite_unref (declined);
  wn_lite_unref (slow);
  return mapper;
}

static void
test_trace_rules (void)
{
  g_autoptr(WnErrorMapper) mapper = make_mapper ();
  g_autoptr(WinnowTrace) trace = winnow_trace_new ();
  WnEvent ev = WN_EVENT_INIT (WN_EV_JOB, WN_PH_BPMN_ERROR);
  g_autoptr(JsonNode) status = json_node_new (JSON_NODE_VALUE);
  WinnowJobTrace *job;
  int rule;

  emit (trace, WN_EV_JOB, WN_PH_ENQUEUED, 0, "i1/j1", NULL, 0);
  job = winnow_trace_lookup_job (trace, "i1/j1");
  g_assert_cmpint (winnow_job_trace_match_rule (job, mapper, &rule), ==, WINNOW_RULE_UNKNOWN);

  /* technical 500: rule 4 certainly (no clause) */
  emit_retry (trace, WN_PH_RETRY_SCHEDULED, 100, 10, "500");
  g_assert_cmpint (winnow_job_trace_match_rule (job, mapper, &rule), ==, WINNOW_RULE_MATCHED);
  g_assert_cmpint (rule, ==, 3);
  /* technical 503: rule 3 if its clause held, else none: ambiguous */
  emit_retry (trace, WN_PH_RETRY_SCHEDULED, 200, 10, "503");
  g_assert_cmpint (winnow_job_trace_match_rule (job, mapper, &rule), ==, WINNOW_RULE_AMBIGUOUS);
  g_assert_cmpint (rule, ==, 2);
  /* technical 418: no rule has that code */
  emit_retry (trace, WN_PH_RETRY_SCHEDULED, 300, 10, "418");
  g_assert_cmpint (winnow_job_trace_match_rule (job, mapper, &rule), ==, WINNOW_RULE_NONE);
  g_assert_cmpint (rule, ==, -1);

  /* a status: only rule 2 yields it */
  ev.phase = WN_PH_STATUS;
  ev.t_us = 400;
  ev.job = "i1/j1";
  json_node_set_string (status, "NOT_FOUND");
  ev.status = status;
  winnow_trace_add_event (trace, &ev);
  g_assert_cmpint (winnow_job_trace_match_rule (job, mapper, &rule), ==, WINNOW_RULE_MATCHED);
  g_assert_cmpint (rule, ==, 1);

  /* a BPMN error: rule 1, though it has a clause: no other rule yields it */
  emit (trace, WN_EV_JOB, WN_PH_ENQUEUED, 500, "i1/j2", NULL, 0);
  ev = (WnEvent) WN_EVENT_INIT (WN_EV_JOB, WN_PH_BPMN_ERROR);
  ev.t_us = 600;
  ev.job = "i1/j2";
  ev.code = "CardDeclined";
  ev.error = "declined";
  winnow_trace_add_event (trace, &ev);
  job = winnow_trace_lookup_job (trace, "i1/j2");
  g_assert_cmpint (winnow_job_trace_match_rule (job, mapper, &rule), ==, WINNOW_RULE_MATCHED);
  g_assert_cmpint (rule, ==, 0);

  /* no mapper: unknown rule, nothing to match */
  g_assert_cmpint (winnow_job_trace_match_rule (job, NULL, &rule), ==, WINNOW_RULE_UNKNOWN);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/app/Trace/spans", test_trace_spans);
  g_test_add_func ("/app/Trace/takeover", test_trace_takeover);
  g_test_add_func ("/app/Trace/worker-wait", test_trace_worker_wait);
  g_test_add_func ("/app/Trace/rules", test_trace_rules);
  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Trust modes, configuration levels and policy resolution (semantics §4). */
#include "wn-test-util.h"

#define MS(x)  ((WnTime) (x) * WN_USEC_PER_MSEC)
#define SEC(x) ((WnTime) (x) * WN_USEC_PER_SEC)

/* A mapper whose single code-only rule tells it apart from others. */
static WnErrorMapper *
make_mapper (const char *code,
             const char *bpmn_code)
{
  WnErrorRule rule = { 0, };

  rule.code = code;
  rule.outcome = WN_CLASS_BPMN_ERROR;
  rule.bpmn_code = bpmn_code;
  return wn_error_mapper_new (&rule, 1);
}

static WnOutputMapping *
make_empty_mapping (void)
{
  g_autoptr(GError) error = NULL;
  WnOutputMapping *mapping = wn_output_mapping_new (NULL, 0, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (mapping);
  return mapping;
}

static void
assert_same_retry (const WnRetryPolicy *a,
                   const WnRetryPolicy *b)
{
  g_assert_cmpint (a->kind, ==, b->kind);
  g_assert_cmpuint (a->max_attempts, ==, b->max_attempts);
  g_assert_cmpint (a->delay, ==, b->delay);
  g_assert_cmpint (a->base, ==, b->base);
  g_assert_cmpint (a->max, ==, b->max);
  g_assert_cmpint (a->jitter, ==, b->jitter);
}

static void
test_trust_names (void)
{
  WnTrust trust = WN_TRUST_UNSET;

  g_assert_cmpstr (wn_trust_to_string (WN_TRUST_WORKER_TRUSTED), ==, "workerTrusted");
  g_assert_cmpstr (wn_trust_to_string (WN_TRUST_ENGINE_AUTHORITATIVE), ==, "engineAuthoritative");
  g_assert_cmpstr (wn_trust_to_string (WN_TRUST_UNSET), ==, "unset");

  g_assert_cmpstr (wn_trust_to_label (WN_TRUST_WORKER_TRUSTED), ==, "trusted");
  g_assert_cmpstr (wn_trust_to_label (WN_TRUST_ENGINE_AUTHORITATIVE), ==, "authoritative");

  g_assert_true (wn_trust_from_string ("workerTrusted", &trust));
  g_assert_cmpint (trust, ==, WN_TRUST_WORKER_TRUSTED);
  g_assert_true (wn_trust_from_string ("engineAuthoritative", &trust));
  g_assert_cmpint (trust, ==, WN_TRUST_ENGINE_AUTHORITATIVE);

  /* Only the two names, spelled exactly; a refusal leaves *out alone. */
  g_assert_false (wn_trust_from_string ("unset", &trust));
  g_assert_false (wn_trust_from_string ("WorkerTrusted", &trust));
  g_assert_false (wn_trust_from_string ("trusted", &trust));
  g_assert_false (wn_trust_from_string ("", &trust));
  g_assert_false (wn_trust_from_string (NULL, &trust));
  g_assert_cmpint (trust, ==, WN_TRUST_ENGINE_AUTHORITATIVE);

  /* Round trip */
  g_assert_true (wn_trust_from_string (wn_trust_to_string (WN_TRUST_WORKER_TRUSTED), &trust));
  g_assert_cmpint (trust, ==, WN_TRUST_WORKER_TRUSTED);
}

static void
test_on_exhausted_names (void)
{
  WnOnExhausted mode = WN_ON_EXHAUSTED_UNSET;

  g_assert_cmpstr (wn_on_exhausted_to_string (WN_ON_EXHAUSTED_FAIL), ==, "fail");
  g_assert_cmpstr (wn_on_exhausted_to_string (WN_ON_EXHAUSTED_INCIDENT), ==, "incident");
  g_assert_cmpstr (wn_on_exhausted_to_string (WN_ON_EXHAUSTED_UNSET), ==, "unset");

  g_assert_true (wn_on_exhausted_from_string ("incident", &mode));
  g_assert_cmpint (mode, ==, WN_ON_EXHAUSTED_INCIDENT);
  g_assert_true (wn_on_exhausted_from_string ("fail", &mode));
  g_assert_cmpint (mode, ==, WN_ON_EXHAUSTED_FAIL);

  g_assert_false (wn_on_exhausted_from_string ("Fail", &mode));
  g_assert_false (wn_on_exhausted_from_string ("retry", &mode));
  g_assert_false (wn_on_exhausted_from_string ("", &mode));
  g_assert_false (wn_on_exhausted_from_string (NULL, &mode));
  g_assert_cmpint (mode, ==, WN_ON_EXHAUSTED_FAIL);
}

static void
test_resolve_defaults (void)
{
  WnPolicyLevel task = { 0, };
  WnPolicyLevel engine = { 0, };
  WnRetryPolicy dflt = wn_retry_policy_default ();
  g_autoptr(WnPolicy) both_empty = wn_policy_resolve (&task, &engine);
  g_autoptr(WnPolicy) no_levels = wn_policy_resolve (NULL, NULL);

  /* trust → workerTrusted, retry → default, no mapper, no mapping */
  g_assert_cmpint (both_empty->trust, ==, WN_TRUST_WORKER_TRUSTED);
  g_assert_cmpint (both_empty->trust_origin_task, ==, WN_TRUST_UNSET);
  assert_same_retry (&both_empty->retry, &dflt);
  g_assert_null (both_empty->mapper);
  g_assert_null (both_empty->mapping);

  g_assert_cmpint (no_levels->trust, ==, WN_TRUST_WORKER_TRUSTED);
  g_assert_cmpint (no_levels->trust_origin_task, ==, WN_TRUST_UNSET);
  assert_same_retry (&no_levels->retry, &dflt);
  g_assert_null (no_levels->mapper);
  g_assert_null (no_levels->mapping);
}

static void
test_resolve_task_over_engine (void)
{
  WnPolicyLevel task = { 0, };
  WnPolicyLevel engine = { 0, };
  g_autoptr(WnPolicy) policy = NULL;

  task.trust = WN_TRUST_ENGINE_AUTHORITATIVE;
  task.has_retry = TRUE;
  task.retry = wn_retry_policy_fixed (3, MS (300));
  task.mapper = make_mapper ("409", "Conflict");
  task.mapping = make_empty_mapping ();

  engine.trust = WN_TRUST_WORKER_TRUSTED;
  engine.has_retry = TRUE;
  engine.retry = wn_retry_policy_none ();
  engine.mapper = make_mapper ("500", "Engine");

  policy = wn_policy_resolve (&task, &engine);
  g_assert_cmpint (policy->trust, ==, WN_TRUST_ENGINE_AUTHORITATIVE);
  g_assert_cmpint (policy->trust_origin_task, ==, WN_TRUST_ENGINE_AUTHORITATIVE);
  assert_same_retry (&policy->retry, &task.retry);
  g_assert_true (policy->mapper == task.mapper);
  g_assert_true (policy->mapping == task.mapping);

  wn_policy_level_clear (&task);
  wn_policy_level_clear (&engine);
}

static void
test_resolve_engine_fallback (void)
{
  WnPolicyLevel task = { 0, };
  WnPolicyLevel engine = { 0, };
  g_autoptr(WnPolicy) policy = NULL;
  g_autoptr(WnPolicy) without_task = NULL;

  engine.trust = WN_TRUST_ENGINE_AUTHORITATIVE;
  engine.has_retry = TRUE;
  engine.retry = wn_retry_policy_exponential (5, MS (100), SEC (10), FALSE);
  engine.mapper = make_mapper ("503", "Engine");

  /* task level present but unset everywhere */
  policy = wn_policy_resolve (&task, &engine);
  g_assert_cmpint (policy->trust, ==, WN_TRUST_ENGINE_AUTHORITATIVE);
  g_assert_cmpint (policy->trust_origin_task, ==, WN_TRUST_UNSET);
  assert_same_retry (&policy->retry, &engine.retry);
  g_assert_true (policy->mapper == engine.mapper);
  g_assert_null (policy->mapping);

  /* no task level at all */
  without_task = wn_policy_resolve (NULL, &engine);
  g_assert_cmpint (without_task->trust, ==, WN_TRUST_ENGINE_AUTHORITATIVE);
  assert_same_retry (&without_task->retry, &engine.retry);
  g_assert_true (without_task->mapper == engine.mapper);

  wn_policy_level_clear (&engine);
}

static void
test_resolve_per_field (void)
{
  WnPolicyLevel task = { 0, };
  WnPolicyLevel engine = { 0, };
  g_autoptr(WnPolicy) policy = NULL;
  WnRetryPolicy none = wn_retry_policy_none ();

  /* Each field falls through on its own: the task sets only retry (to none,
   * which is a setting, not an absence), the engine only the mapper. */
  task.has_retry = TRUE;
  task.retry = none;
  engine.mapper = make_mapper (NULL, "Any");

  policy = wn_policy_resolve (&task, &engine);
  assert_same_retry (&policy->retry, &none);
  g_assert_true (policy->mapper == engine.mapper);
  g_assert_cmpint (policy->trust, ==, WN_TRUST_WORKER_TRUSTED);

  wn_policy_level_clear (&engine);
}

static void
test_mapping_task_only (void)
{
  WnPolicyLevel task = { 0, };
  WnPolicyLevel engine = { 0, };
  g_autoptr(WnPolicy) policy = NULL;

  /* An output mapping at the engine level is never inherited. */
  engine.mapping = make_empty_mapping ();
  policy = wn_policy_resolve (&task, &engine);
  g_assert_null (policy->mapping);

  wn_policy_level_clear (&engine);
}

static void
test_trust_origin (void)
{
  WnPolicyLevel task = { 0, };
  WnPolicyLevel engine = { 0, };
  g_autoptr(WnPolicy) inherited = NULL;
  g_autoptr(WnPolicy) own = NULL;

  engine.trust = WN_TRUST_ENGINE_AUTHORITATIVE;
  inherited = wn_policy_resolve (&task, &engine);
  g_assert_cmpint (inherited->trust, ==, WN_TRUST_ENGINE_AUTHORITATIVE);
  g_assert_cmpint (inherited->trust_origin_task, ==, WN_TRUST_UNSET);

  task.trust = WN_TRUST_WORKER_TRUSTED;
  own = wn_policy_resolve (&task, &engine);
  g_assert_cmpint (own->trust, ==, WN_TRUST_WORKER_TRUSTED);
  g_assert_cmpint (own->trust_origin_task, ==, WN_TRUST_WORKER_TRUSTED);
}

static void
test_keeps_enqueued_policy (void)
{
  WnPolicyLevel task = { 0, };
  WnPolicyLevel engine = { 0, };
  WnRetryPolicy fixed = wn_retry_policy_fixed (3, SEC (1));
  g_autoptr(WnPolicy) before = NULL;
  g_autoptr(WnPolicy) after = NULL;
  WnErrorMapper *old_mapper;
  WnClassification c;

  engine.trust = WN_TRUST_ENGINE_AUTHORITATIVE;
  engine.has_retry = TRUE;
  engine.retry = fixed;
  engine.mapper = make_mapper ("409", "Conflict");
  old_mapper = engine.mapper;

  before = wn_policy_resolve (&task, &engine);

  /* The setting changes (the UI edits the engine level) … */
  wn_policy_level_clear (&engine);
  engine.trust = WN_TRUST_WORKER_TRUSTED;
  engine.has_retry = TRUE;
  engine.retry = wn_retry_policy_none ();
  engine.mapper = make_mapper ("409", "Other");

  after = wn_policy_resolve (&task, &engine);

  /* … the job enqueued before keeps what it was resolved with, */
  g_assert_cmpint (before->trust, ==, WN_TRUST_ENGINE_AUTHORITATIVE);
  assert_same_retry (&before->retry, &fixed);
  g_assert_true (before->mapper == old_mapper);
  wn_error_mapper_classify (before->mapper, "409", NULL, &c);
  g_assert_cmpint (c.kind, ==, WN_CLASS_BPMN_ERROR);
  g_assert_cmpstr (c.bpmn_code, ==, "Conflict");
  wn_classification_clear (&c);

  /* … and a job enqueued afterwards gets the new settings. */
  g_assert_cmpint (after->trust, ==, WN_TRUST_WORKER_TRUSTED);
  g_assert_cmpint (after->retry.kind, ==, WN_RETRY_NONE);
  wn_error_mapper_classify (after->mapper, "409", NULL, &c);
  g_assert_cmpstr (c.bpmn_code, ==, "Other");
  wn_classification_clear (&c);

  wn_policy_level_clear (&engine);
}

static void
test_level_copy_clear (void)
{
  WnPolicyLevel src = { 0, };
  WnPolicyLevel dst = { 0, };
  WnClassification c;

  src.trust = WN_TRUST_ENGINE_AUTHORITATIVE;
  src.has_retry = TRUE;
  src.retry = wn_retry_policy_fixed (2, MS (50));
  src.mapper = make_mapper ("404", "NotFound");
  src.mapping = make_empty_mapping ();

  wn_policy_level_copy (&src, &dst);
  g_assert_cmpint (dst.trust, ==, WN_TRUST_ENGINE_AUTHORITATIVE);
  g_assert_true (dst.has_retry);
  assert_same_retry (&dst.retry, &src.retry);
  g_assert_true (dst.mapper == src.mapper);
  g_assert_true (dst.mapping == src.mapping);

  /* The copy holds its own references: clearing the source leaves it usable. */
  wn_policy_level_clear (&src);
  g_assert_cmpint (src.trust, ==, WN_TRUST_UNSET);
  g_assert_false (src.has_retry);
  g_assert_null (src.mapper);
  g_assert_null (src.mapping);

  g_assert_cmpuint (wn_error_mapper_get_n_rules (dst.mapper), ==, 1);
  g_assert_cmpuint (wn_output_mapping_get_n_rules (dst.mapping), ==, 0);
  wn_error_mapper_classify (dst.mapper, "404", NULL, &c);
  g_assert_cmpstr (c.bpmn_code, ==, "NotFound");
  wn_classification_clear (&c);

  wn_policy_level_clear (&dst);
  /* Clearing twice is harmless. */
  wn_policy_level_clear (&dst);
  g_assert_null (dst.mapper);
}

static void
test_policy_refcount (void)
{
  WnPolicyLevel task = { 0, };
  WnPolicy *policy;
  WnPolicy *again;

  task.mapper = make_mapper ("1", "One");
  policy = wn_policy_resolve (&task, NULL);
  wn_policy_level_clear (&task);

  /* The policy holds the mapper alive on its own. */
  again = wn_policy_ref (policy);
  g_assert_true (again == policy);
  wn_policy_unref (policy);
  g_assert_cmpuint (wn_error_mapper_get_n_rules (again->mapper), ==, 1);
  wn_policy_unref (again);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/engine/Policy/trust-names", test_trust_names);
  g_test_add_func ("/engine/Policy/on-exhausted-names", test_on_exhausted_names);
  g_test_add_func ("/engine/Policy/resolve-defaults", test_resolve_defaults);
  g_test_add_func ("/engine/Policy/resolve-task-over-engine", test_resolve_task_over_engine);
  g_test_add_func ("/engine/Policy/resolve-engine-fallback", test_resolve_engine_fallback);
  g_test_add_func ("/engine/Policy/resolve-per-field", test_resolve_per_field);
  g_test_add_func ("/engine/Policy/mapping-task-only", test_mapping_task_only);
  g_test_add_func ("/engine/Policy/trust-origin", test_trust_origin);
  g_test_add_func ("/engine/Policy/keeps-enqueued-policy", test_keeps_enqueued_policy);
  g_test_add_func ("/engine/Policy/level-copy-clear", test_level_copy_clear);
  g_test_add_func ("/engine/Policy/refcount", test_policy_refcount);

  return g_test_run ();
}

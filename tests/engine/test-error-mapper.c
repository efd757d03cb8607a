/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The error mapper: classifying a raw fault {code, body} (semantics §6.1). */
#include "wn-test-util.h"

static WnLite *
compile (const char *source)
{
  g_autoptr(GError) error = NULL;
  WnLite *lite = wn_lite_compile (source, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (lite);
  return lite;
}

static char *
to_json (JsonNode *node)
{
  return json_to_string (node, FALSE);
}

/* Rule builders: `when` may be NULL; the builders compile it. The returned
 * rule holds one reference to its clause and status, dropped by rule_free_refs. */
static WnErrorRule
bpmn_rule (const char *code,
           const char *when,
           const char *bpmn_code,
           const char *message)
{
  WnErrorRule rule = { 0, };

  rule.code = code;
  rule.when = when != NULL ? compile (when) : NULL;
  rule.outcome = WN_CLASS_BPMN_ERROR;
  rule.bpmn_code = bpmn_code;
  rule.bpmn_message = message;
  return rule;
}

static WnErrorRule
status_rule (const char *code,
             const char *when,
             const char *status_json)
{
  WnErrorRule rule = { 0, };

  rule.code = code;
  rule.when = when != NULL ? compile (when) : NULL;
  rule.outcome = WN_CLASS_STATUS;
  rule.status = wn_test_json (status_json);
  return rule;
}

static WnErrorRule
technical_rule (const char *code,
                const char *when)
{
  WnErrorRule rule = { 0, };

  rule.code = code;
  rule.when = when != NULL ? compile (when) : NULL;
  rule.outcome = WN_CLASS_TECHNICAL;
  return rule;
}

/* Builds a mapper and drops the builders' references: the mapper must hold
 * its own. */
static WnErrorMapper *
mapper_new (WnErrorRule *rules,
            guint        n_rules)
{
  WnErrorMapper *mapper = wn_error_mapper_new (rules, n_rules);
  guint i;

  for (i = 0; i < n_rules; i++)
    {
      g_clear_pointer (&rules[i].when, wn_lite_unref);
      g_clear_pointer (&rules[i].status, json_node_unref);
    }
  return mapper;
}

static void
classify (const WnErrorMapper *mapper,
          const char          *code,
          const char          *body_json,
          WnClassification    *c)
{
  g_autoptr(JsonNode) body = body_json != NULL ? wn_test_json (body_json) : NULL;

  wn_error_mapper_classify (mapper, code, body, c);
}

static void
assert_technical (const WnClassification *c,
                  int                     rule)
{
  g_assert_cmpint (c->kind, ==, WN_CLASS_TECHNICAL);
  g_assert_cmpint (c->rule, ==, rule);
  g_assert_null (c->bpmn_code);
  g_assert_null (c->bpmn_message);
  g_assert_null (c->status);
  g_assert_null (c->mapper_error);
}

static void
test_code_only_bpmn_error (void)
{
  WnErrorRule rules[] = {
    bpmn_rule ("409", NULL, "Conflict", "duplicate reservation"),
  };
  g_autoptr(WnErrorMapper) mapper = mapper_new (rules, G_N_ELEMENTS (rules));
  WnClassification c;

  classify (mapper, "409", "{\"error\": \"dup\"}", &c);
  g_assert_cmpint (c.kind, ==, WN_CLASS_BPMN_ERROR);
  g_assert_cmpint (c.rule, ==, 0);
  g_assert_cmpstr (c.bpmn_code, ==, "Conflict");
  g_assert_cmpstr (c.bpmn_message, ==, "duplicate reservation");
  g_assert_null (c.status);
  g_assert_null (c.mapper_error);
  wn_classification_clear (&c);

  /* The code must be equal as a string: no prefix, no number coercion. */
  classify (mapper, "4090", NULL, &c);
  assert_technical (&c, -1);
  classify (mapper, "40", NULL, &c);
  assert_technical (&c, -1);
  classify (mapper, " 409", NULL, &c);
  assert_technical (&c, -1);

  /* A rule with a code never matches a fault without one. */
  classify (mapper, NULL, NULL, &c);
  assert_technical (&c, -1);
}

static void
test_bpmn_error_without_message (void)
{
  WnErrorRule rules[] = {
    bpmn_rule ("402", NULL, "Declined", NULL),
  };
  g_autoptr(WnErrorMapper) mapper = mapper_new (rules, G_N_ELEMENTS (rules));
  WnClassification c;

  classify (mapper, "402", NULL, &c);
  g_assert_cmpint (c.kind, ==, WN_CLASS_BPMN_ERROR);
  g_assert_cmpstr (c.bpmn_code, ==, "Declined");
  g_assert_null (c.bpmn_message);
  wn_classification_clear (&c);
}

static void
test_body_clause_status (void)
{
  WnErrorRule rules[] = {
    status_rule (NULL, "body.reason == 'not_found'", "\"NOT_FOUND\""),
    status_rule (NULL, "body.reason == 'partial'", "{\"state\": \"PARTIAL\", \"missing\": [1, 2]}"),
  };
  g_autoptr(WnErrorMapper) mapper = mapper_new (rules, G_N_ELEMENTS (rules));
  g_autofree char *status0 = NULL;
  g_autofree char *status1 = NULL;
  WnClassification c;

  classify (mapper, "404", "{\"reason\": \"not_found\"}", &c);
  g_assert_cmpint (c.kind, ==, WN_CLASS_STATUS);
  g_assert_cmpint (c.rule, ==, 0);
  g_assert_nonnull (c.status);
  status0 = to_json (c.status);
  g_assert_cmpstr (status0, ==, "\"NOT_FOUND\"");
  g_assert_null (c.bpmn_code);
  wn_classification_clear (&c);

  /* A code-less rule matches a fault without a code too; a status may be any JSON. */
  classify (mapper, NULL, "{\"reason\": \"partial\"}", &c);
  g_assert_cmpint (c.kind, ==, WN_CLASS_STATUS);
  g_assert_cmpint (c.rule, ==, 1);
  status1 = to_json (c.status);
  g_assert_cmpstr (status1, ==, "{\"state\":\"PARTIAL\",\"missing\":[1,2]}");
  wn_classification_clear (&c);

  classify (mapper, "404", "{\"reason\": \"gone\"}", &c);
  assert_technical (&c, -1);
}

static void
test_clause_reads_code (void)
{
  WnErrorRule rules[] = {
    bpmn_rule (NULL, "code == '503' or code == '504'", "GatewayDown", NULL),
    status_rule (NULL, "len(code) == 3", "\"THREE_DIGITS\""),
  };
  WnErrorRule nil_rules[] = {
    status_rule (NULL, "code == nil", "\"NO_CODE\""),
  };
  g_autoptr(WnErrorMapper) mapper = mapper_new (rules, G_N_ELEMENTS (rules));
  g_autoptr(WnErrorMapper) nil_mapper = mapper_new (nil_rules, G_N_ELEMENTS (nil_rules));
  WnClassification c;

  classify (mapper, "504", NULL, &c);
  g_assert_cmpint (c.kind, ==, WN_CLASS_BPMN_ERROR);
  g_assert_cmpstr (c.bpmn_code, ==, "GatewayDown");
  g_assert_cmpint (c.rule, ==, 0);
  wn_classification_clear (&c);

  classify (mapper, "503", "{}", &c);
  g_assert_cmpint (c.kind, ==, WN_CLASS_BPMN_ERROR);
  wn_classification_clear (&c);

  /* `code` is a string: "500" is not "503", but it has three characters. */
  classify (mapper, "500", NULL, &c);
  g_assert_cmpint (c.kind, ==, WN_CLASS_STATUS);
  g_assert_cmpint (c.rule, ==, 1);
  wn_classification_clear (&c);

  classify (mapper, "5000", NULL, &c);
  assert_technical (&c, -1);

  /* Comparing a string code with nil is a cross-kind comparison: an
   * evaluation error, so the classification is technical with the message. */
  classify (nil_mapper, "500", NULL, &c);
  g_assert_cmpint (c.kind, ==, WN_CLASS_TECHNICAL);
  g_assert_cmpint (c.rule, ==, 0);
  g_assert_nonnull (c.mapper_error);
  wn_classification_clear (&c);
}

/* A fault without a code binds no `code`: has('code') is false, so the guard
 * the user guide recommends works, and an unguarded read is a missing variable. */
static void
test_fault_without_code (void)
{
  WnErrorRule rules[] = {
    bpmn_rule (NULL, "has('code') and code == '503'", "Unavailable", NULL),
    status_rule (NULL, "not has(\"code\")", "\"NO_CODE\""),
  };
  WnErrorRule unguarded_rules[] = {
    status_rule (NULL, "code == nil", "\"NO_CODE\""),
  };
  g_autoptr(WnErrorMapper) mapper = mapper_new (rules, G_N_ELEMENTS (rules));
  g_autoptr(WnErrorMapper) unguarded = mapper_new (unguarded_rules, G_N_ELEMENTS (unguarded_rules));
  WnClassification c;

  classify (mapper, NULL, "{\"error\": \"down\"}", &c);
  g_assert_null (c.mapper_error);
  g_assert_cmpint (c.kind, ==, WN_CLASS_STATUS);
  g_assert_cmpint (c.rule, ==, 1);
  wn_classification_clear (&c);

  classify (mapper, "503", NULL, &c);
  g_assert_cmpint (c.kind, ==, WN_CLASS_BPMN_ERROR);
  g_assert_cmpint (c.rule, ==, 0);
  wn_classification_clear (&c);

  classify (unguarded, NULL, NULL, &c);
  g_assert_cmpint (c.kind, ==, WN_CLASS_TECHNICAL);
  g_assert_cmpint (c.rule, ==, 0);
  g_assert_cmpstr (c.mapper_error, ==, "at 0: unknown variable 'code'");
  wn_classification_clear (&c);
}

static void
test_no_match_technical (void)
{
  WnErrorRule rules[] = {
    bpmn_rule ("409", NULL, "Conflict", NULL),
    status_rule ("404", NULL, "\"NOT_FOUND\""),
  };
  g_autoptr(WnErrorMapper) mapper = mapper_new (rules, G_N_ELEMENTS (rules));
  g_autoptr(WnErrorMapper) empty = wn_error_mapper_new (NULL, 0);
  WnClassification c;

  classify (mapper, "500", "{\"reason\": \"boom\"}", &c);
  assert_technical (&c, -1);

  /* An empty mapper, and no mapper at all, classify everything technical. */
  g_assert_cmpuint (wn_error_mapper_get_n_rules (empty), ==, 0);
  classify (empty, "409", NULL, &c);
  assert_technical (&c, -1);
  classify (NULL, "409", "{}", &c);
  assert_technical (&c, -1);
}

static void
test_false_clause_falls_through (void)
{
  WnErrorRule rules[] = {
    bpmn_rule ("500", "body.retryable == false", "Fatal", NULL),
    technical_rule ("500", NULL),
    bpmn_rule (NULL, NULL, "Unreachable", NULL),
  };
  g_autoptr(WnErrorMapper) mapper = mapper_new (rules, G_N_ELEMENTS (rules));
  WnClassification c;

  classify (mapper, "500", "{\"retryable\": false}", &c);
  g_assert_cmpint (c.kind, ==, WN_CLASS_BPMN_ERROR);
  g_assert_cmpint (c.rule, ==, 0);
  g_assert_cmpstr (c.bpmn_code, ==, "Fatal");
  wn_classification_clear (&c);

  /* The clause is false: rule 1, an explicit technical rule, matches. */
  classify (mapper, "500", "{\"retryable\": true}", &c);
  assert_technical (&c, 1);

  /* Another code skips both: the catch-all wins. */
  classify (mapper, "502", "{\"retryable\": false}", &c);
  g_assert_cmpint (c.kind, ==, WN_CLASS_BPMN_ERROR);
  g_assert_cmpint (c.rule, ==, 2);
  g_assert_cmpstr (c.bpmn_code, ==, "Unreachable");
  wn_classification_clear (&c);
}

static void
test_non_boolean_clause (void)
{
  WnErrorRule rules[] = {
    bpmn_rule (NULL, "body.count", "Counted", NULL),
    bpmn_rule (NULL, "body.reason", "Reasoned", NULL),
    status_rule (NULL, "body.count > 0", "\"POSITIVE\""),
  };
  g_autoptr(WnErrorMapper) mapper = mapper_new (rules, G_N_ELEMENTS (rules));
  WnClassification c;

  /* A number or a string is not `true`: those rules do not match (no error). */
  classify (mapper, "500", "{\"count\": 3, \"reason\": \"x\"}", &c);
  g_assert_cmpint (c.kind, ==, WN_CLASS_STATUS);
  g_assert_cmpint (c.rule, ==, 2);
  g_assert_null (c.mapper_error);
  wn_classification_clear (&c);
}

static void
test_first_match_wins (void)
{
  WnErrorRule rules[] = {
    technical_rule ("503", NULL),
    bpmn_rule ("409", NULL, "First", NULL),
    bpmn_rule ("409", NULL, "Second", NULL),
    bpmn_rule (NULL, NULL, "CatchAll", NULL),
  };
  g_autoptr(WnErrorMapper) mapper = mapper_new (rules, G_N_ELEMENTS (rules));
  WnClassification c;

  classify (mapper, "409", NULL, &c);
  g_assert_cmpint (c.rule, ==, 1);
  g_assert_cmpstr (c.bpmn_code, ==, "First");
  wn_classification_clear (&c);

  /* A technical rule is a match like any other: it stops the search. */
  classify (mapper, "503", NULL, &c);
  assert_technical (&c, 0);

  classify (mapper, NULL, NULL, &c);
  g_assert_cmpint (c.rule, ==, 3);
  g_assert_cmpstr (c.bpmn_code, ==, "CatchAll");
  wn_classification_clear (&c);
}

static void
test_empty_code_is_any (void)
{
  WnErrorRule rules[] = {
    bpmn_rule ("", NULL, "Any", NULL),
  };
  g_autoptr(WnErrorMapper) mapper = mapper_new (rules, G_N_ELEMENTS (rules));
  WnClassification c;

  classify (mapper, "123", NULL, &c);
  g_assert_cmpstr (c.bpmn_code, ==, "Any");
  wn_classification_clear (&c);
  classify (mapper, NULL, NULL, &c);
  g_assert_cmpstr (c.bpmn_code, ==, "Any");
  wn_classification_clear (&c);
  g_assert_null (wn_error_mapper_get_rule (mapper, 0)->code);
}

static void
test_clause_error_is_technical (void)
{
  WnErrorRule rules[] = {
    bpmn_rule ("409", "body.missing.deep == 1", "NeverHere", NULL),
    bpmn_rule ("500", "body.count == 'three'", "Typed", NULL),
    bpmn_rule (NULL, NULL, "CatchAll", NULL),
  };
  g_autoptr(WnErrorMapper) mapper = mapper_new (rules, G_N_ELEMENTS (rules));
  WnClassification c;

  /* A dead path: the whole classification is technical, later rules are not tried. */
  classify (mapper, "409", "{\"count\": 3}", &c);
  g_assert_cmpint (c.kind, ==, WN_CLASS_TECHNICAL);
  g_assert_cmpint (c.rule, ==, 0);
  g_assert_nonnull (c.mapper_error);
  g_assert_cmpstr (c.mapper_error, !=, "");
  g_assert_null (c.bpmn_code);
  g_assert_null (c.status);
  wn_classification_clear (&c);
  g_assert_null (c.mapper_error);
  g_assert_cmpint (c.rule, ==, -1);

  /* A cross-kind comparison is an error, not a silent false. */
  classify (mapper, "500", "{\"count\": 3}", &c);
  g_assert_cmpint (c.kind, ==, WN_CLASS_TECHNICAL);
  g_assert_cmpint (c.rule, ==, 1);
  g_assert_nonnull (c.mapper_error);
  wn_classification_clear (&c);

  /* A clause whose code does not match is never evaluated. */
  classify (mapper, "502", "{\"count\": 3}", &c);
  g_assert_cmpint (c.kind, ==, WN_CLASS_BPMN_ERROR);
  g_assert_cmpint (c.rule, ==, 2);
  g_assert_null (c.mapper_error);
  wn_classification_clear (&c);
}

static void
test_missing_body (void)
{
  WnErrorRule rules[] = {
    status_rule (NULL, "has(\"body.reason\")", "\"HAS_REASON\""),
    bpmn_rule (NULL, "body == nil", "NoBody", NULL),
  };
  g_autoptr(WnErrorMapper) mapper = mapper_new (rules, G_N_ELEMENTS (rules));
  WnClassification c;

  /* No body reads as JSON null. */
  classify (mapper, "500", NULL, &c);
  g_assert_cmpint (c.kind, ==, WN_CLASS_BPMN_ERROR);
  g_assert_cmpint (c.rule, ==, 1);
  g_assert_null (c.mapper_error);
  wn_classification_clear (&c);

  classify (mapper, "500", "{\"reason\": 1}", &c);
  g_assert_cmpint (c.kind, ==, WN_CLASS_STATUS);
  wn_classification_clear (&c);
}

static void
test_mapper_owns_its_rules (void)
{
  char code[8];
  char bpmn[16];
  WnErrorRule rule = { 0, };
  g_autoptr(WnErrorMapper) mapper = NULL;
  g_autofree char *status = NULL;
  const WnErrorRule *stored;
  WnClassification c;

  g_strlcpy (code, "409", sizeof code);
  g_strlcpy (bpmn, "Conflict", sizeof bpmn);
  rule.code = code;
  rule.when = compile ("body.n > 1");
  rule.outcome = WN_CLASS_BPMN_ERROR;
  rule.bpmn_code = bpmn;
  mapper = wn_error_mapper_new (&rule, 1);
  wn_lite_unref (rule.when);

  /* The caller's buffers change afterwards: the mapper kept copies. */
  g_strlcpy (code, "500", sizeof code);
  g_strlcpy (bpmn, "Changed", sizeof bpmn);

  stored = wn_error_mapper_get_rule (mapper, 0);
  g_assert_cmpstr (stored->code, ==, "409");
  g_assert_cmpstr (stored->bpmn_code, ==, "Conflict");
  g_assert_cmpstr (wn_lite_get_source (stored->when), ==, "body.n > 1");

  classify (mapper, "409", "{\"n\": 2}", &c);
  g_assert_cmpstr (c.bpmn_code, ==, "Conflict");
  wn_classification_clear (&c);
  classify (mapper, "500", "{\"n\": 2}", &c);
  assert_technical (&c, -1);

  /* A status node is kept alive by the mapper. */
  {
    WnErrorRule srule = status_rule ("404", NULL, "[\"gone\"]");
    g_autoptr(WnErrorMapper) smapper = wn_error_mapper_new (&srule, 1);

    json_node_unref (srule.status);
    classify (smapper, "404", NULL, &c);
    status = to_json (c.status);
    g_assert_cmpstr (status, ==, "[\"gone\"]");
    wn_classification_clear (&c);
  }
}

static void
test_accessors (void)
{
  WnErrorRule rules[] = {
    bpmn_rule ("409", NULL, "Conflict", NULL),
    technical_rule ("503", NULL),
  };
  WnErrorRule with_status[] = {
    technical_rule ("503", NULL),
    status_rule ("404", NULL, "\"NOT_FOUND\""),
  };
  g_autoptr(WnErrorMapper) mapper = mapper_new (rules, G_N_ELEMENTS (rules));
  g_autoptr(WnErrorMapper) smapper = mapper_new (with_status, G_N_ELEMENTS (with_status));
  WnErrorMapper *ref;

  g_assert_cmpuint (wn_error_mapper_get_n_rules (mapper), ==, 2);
  g_assert_cmpint (wn_error_mapper_get_rule (mapper, 1)->outcome, ==, WN_CLASS_TECHNICAL);
  g_assert_cmpstr (wn_error_mapper_get_rule (mapper, 1)->code, ==, "503");
  g_assert_false (wn_error_mapper_has_status_rule (mapper));
  g_assert_true (wn_error_mapper_has_status_rule (smapper));

  ref = wn_error_mapper_ref (mapper);
  g_assert_true (ref == mapper);
  wn_error_mapper_unref (ref);
  g_assert_cmpuint (wn_error_mapper_get_n_rules (mapper), ==, 2);
}

static void
test_describe_rule (void)
{
  WnErrorRule rules[] = {
    bpmn_rule ("409", NULL, "Conflict", NULL),
    bpmn_rule ("409", NULL, "Conflict", "duplicate reservation"),
    status_rule (NULL, "body.reason == 'x'", "\"NOT_FOUND\""),
    technical_rule (NULL, NULL),
    bpmn_rule ("503", "code == '503'", "Down", NULL),
    status_rule ("404", NULL, "{\"a\": 1}"),
  };
  static const char * const expected[] = {
    "code 409 → BPMN error Conflict",
    "code 409 → BPMN error Conflict (duplicate reservation)",
    "when body.reason == 'x' → status \"NOT_FOUND\"",
    "any → technical",
    "code 503 when code == '503' → BPMN error Down",
    "code 404 → status {\"a\":1}",
  };
  g_autoptr(WnErrorMapper) mapper = mapper_new (rules, G_N_ELEMENTS (rules));
  guint i;

  for (i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autofree char *text = wn_error_mapper_describe_rule (mapper, i);

      g_assert_cmpstr (text, ==, expected[i]);
    }
}

static void
test_load_error_codes (void)
{
  /* Rejecting a rule with no outcome (or two) is the loader's job; it reports
   * these codes in this domain. */
  g_autoptr(GError) error = g_error_new (WN_ERROR_MAPPER_ERROR,
                                         WN_ERROR_MAPPER_ERROR_NO_OUTCOME, "x");

  g_assert_cmpstr (g_quark_to_string (WN_ERROR_MAPPER_ERROR), ==, "wn-error-mapper-error-quark");
  g_assert_error (error, WN_ERROR_MAPPER_ERROR, WN_ERROR_MAPPER_ERROR_NO_OUTCOME);
  g_assert_cmpint (WN_ERROR_MAPPER_ERROR_NO_OUTCOME, !=, WN_ERROR_MAPPER_ERROR_TWO_OUTCOMES);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/engine/ErrorMapper/code-only-bpmn-error", test_code_only_bpmn_error);
  g_test_add_func ("/engine/ErrorMapper/bpmn-error-without-message", test_bpmn_error_without_message);
  g_test_add_func ("/engine/ErrorMapper/body-clause-status", test_body_clause_status);
  g_test_add_func ("/engine/ErrorMapper/clause-reads-code", test_clause_reads_code);
  g_test_add_func ("/engine/ErrorMapper/fault-without-code", test_fault_without_code);
  g_test_add_func ("/engine/ErrorMapper/no-match-technical", test_no_match_technical);
  g_test_add_func ("/engine/ErrorMapper/false-clause-falls-through", test_false_clause_falls_through);
  g_test_add_func ("/engine/ErrorMapper/non-boolean-clause", test_non_boolean_clause);
  g_test_add_func ("/engine/ErrorMapper/first-match-wins", test_first_match_wins);
  g_test_add_func ("/engine/ErrorMapper/empty-code-is-any", test_empty_code_is_any);
  g_test_add_func ("/engine/ErrorMapper/clause-error-is-technical", test_clause_error_is_technical);
  g_test_add_func ("/engine/ErrorMapper/missing-body", test_missing_body);
  g_test_add_func ("/engine/ErrorMapper/owns-its-rules", test_mapper_owns_its_rules);
  g_test_add_func ("/engine/ErrorMapper/accessors", test_accessors);
  g_test_add_func ("/engine/ErrorMapper/describe-rule", test_describe_rule);
  g_test_add_func ("/engine/ErrorMapper/load-error-codes", test_load_error_codes);

  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-bpmn.c — the BPMN 2.0 importer (wn-bpmn.h): safe parsing, namespaces,
 * positions, the mapping onto the process model, expressions, refusals. */
#include "winnow.h"

#include <string.h>

#define HEAD "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
#define BPMN_NS "http://www.omg.org/spec/BPMN/20100524/MODEL"

static char *
data_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "data", "bpmn", "winnow", name, NULL);
}

static WnProcess *
load_file (const char *name, GError **error)
{
  g_autofree char *path = data_path (name);

  return wn_load_bpmn_file (path, 0, NULL, NULL, NULL, error);
}

/* A one-process document around `body` (flow elements) with prefix bpmn:. */
static char *
doc (const char *body)
{
  return g_strconcat (HEAD "<bpmn:definitions xmlns:bpmn=\"" BPMN_NS "\" "
                      "xmlns:camunda=\"http://camunda.org/schema/1.0/bpmn\" id=\"d\">\n"
                      "<bpmn:process id=\"p\" isExecutable=\"true\">\n", body,
                      "</bpmn:process>\n</bpmn:definitions>\n", NULL);
}

/* A sub-process is open or closed as the modeller saved it: isExpanded, or
 * (without it) whether its content is drawn in its plane. What a closed one
 * holds needs no shape: on a plane of its own (Camunda Modeler 5) or none at
 * all (older modellers), the diagram is kept; before, the first drew the
 * content at its own plane's coordinates, the second dropped the diagram. */
static void
test_collapsed_subprocess (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WnProcess) process = load_file ("subprocesses-c7.bpmn", &error);
  g_autofree char *path = data_path ("subprocesses-c7.bpmn");
  g_autofree char *text = NULL;
  g_autoptr(WnProcess) bare = NULL;
  char *plane;

  g_assert_no_error (error);
  g_assert_nonnull (process->diagram);
  g_assert_nonnull (process->diagram->collapsed);
  g_assert_false (process->diagram->collapsed[wn_process_find_node (process, "pay")->index]);
  g_assert_true (process->diagram->collapsed[wn_process_find_node (process, "ship")->index]);
  g_assert_false (process->diagram->collapsed[wn_process_find_node (process, "audit")->index]);
  g_assert_false (process->diagram->collapsed[wn_process_find_node (process, "book")->index]);
  g_assert_null (process->warnings);

  /* the same model without the closed sub-process's plane */
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  plane = strstr (text, "  <bpmndi:BPMNDiagram id=\"BPMNDiagram_ship\">");
  g_assert_nonnull (plane);
  strcpy (plane, "</bpmn:definitions>\n");
  bare = wn_load_bpmn_data (text, -1, "bare.bpmn", NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (bare->diagram);
  g_assert_null (bare->warnings);
  g_assert_true (bare->diagram->collapsed[wn_process_find_node (bare, "ship")->index]);
  g_assert_cmpfloat (bare->diagram->shapes[wn_process_find_node (bare, "pay")->index].width, ==, 400);
}

static void
test_xxe_refused (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WnProcess) process = load_file ("xxe.bpmn", &error);

  g_assert_null (process);
  g_assert_error (error, WN_LOAD_ERROR, WN_LOAD_ERROR_SYNTAX);
  g_assert_nonnull (strstr (error->message, "xxe.bpmn:2:1: a DOCTYPE is not allowed"));
  g_assert_null (strstr (error->message, "root:"));
}

static void
test_billion_laughs_refused (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WnProcess) process = load_file ("billion-laughs.bpmn", &error);

  g_assert_null (process);
  g_assert_error (error, WN_LOAD_ERROR, WN_LOAD_ERROR_SYNTAX);
  g_assert_nonnull (strstr (error->message, "billion-laughs.bpmn:2:1: a DOCTYPE is not allowed"));
  g_assert_cmpuint (strlen (error->message), <, 400);
}

static void
test_not_well_formed (void)
{
  g_autoptr(GPtrArray) diags = NULL;
  g_autoptr(GError) error = NULL;
  const char *text = HEAD "<definitions xmlns=\"" BPMN_NS "\">\n  <process id=\"p\">\n</definitions>\n";
  g_autoptr(WnProcess) process = wn_load_bpmn_data (text, -1, "bad.bpmn", NULL, NULL, &diags, &error);
  WnDiagnostic *d;

  g_assert_null (process);
  g_assert_error (error, WN_LOAD_ERROR, WN_LOAD_ERROR_SYNTAX);
  g_assert_nonnull (diags);
  g_assert_cmpuint (diags->len, ==, 1);
  d = g_ptr_array_index (diags, 0);
  g_assert_cmpuint (d->line, ==, 4);
  g_assert_cmpuint (d->column, >, 1);
}

/* The same model under bpmn:, bpmn2: and the default namespace loads the
 * same; a bpmn: prefix bound to another URI is not BPMN. */
static void
test_namespaces_by_uri (void)
{
  static const char * const forms[] = {
    HEAD "<bpmn:definitions xmlns:bpmn=\"" BPMN_NS "\"><bpmn:process id=\"p\" isExecutable=\"true\">"
    "<bpmn:startEvent id=\"s\"/><bpmn:endEvent id=\"e\"/><bpmn:sequenceFlow id=\"f\" sourceRef=\"s\" targetRef=\"e\"/>"
    "</bpmn:process></bpmn:definitions>",
    HEAD "<bpmn2:definitions xmlns:bpmn2=\"" BPMN_NS "\"><bpmn2:process id=\"p\" isExecutable=\"true\">"
    "<bpmn2:startEvent id=\"s\"/><bpmn2:endEvent id=\"e\"/><bpmn2:sequenceFlow id=\"f\" sourceRef=\"s\" targetRef=\"e\"/>"
    "</bpmn2:process></bpmn2:definitions>",
    HEAD "<definitions xmlns=\"" BPMN_NS "\"><process id=\"p\" isExecutable=\"true\">"
    "<startEvent id=\"s\"/><x:endEvent xmlns:x=\"" BPMN_NS "\" id=\"e\"/><sequenceFlow id=\"f\" sourceRef=\"s\" targetRef=\"e\"/>"
    "</process></definitions>",
  };

  for (gsize i = 0; i < G_N_ELEMENTS (forms); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(WnProcess) process = wn_load_bpmn_data (forms[i], -1, "ns.bpmn", NULL, NULL, NULL, &error);

      g_assert_no_error (error);
      g_assert_cmpuint (process->n_nodes, ==, 2);
      g_assert_cmpuint (process->n_flows, ==, 1);
    }
  {
    g_autoptr(GError) error = NULL;
    const char *wrong = HEAD "<bpmn:definitions xmlns:bpmn=\"http://example.org/not-bpmn\">"
                        "<bpmn:process id=\"p\"/></bpmn:definitions>";
    g_autoptr(WnProcess) process = wn_load_bpmn_data (wrong, -1, "ns.bpmn", NULL, NULL, NULL, &error);

    g_assert_null (process);
    g_assert_error (error, WN_LOAD_ERROR, WN_LOAD_ERROR_INVALID);
    g_assert_nonnull (strstr (error->message, "ns.bpmn:2:1: (definitions): not a BPMN 2.0 document"));
  }
}

/* Camunda 7: external tasks, failedJobRetryTimeCycle, an error boundary with
 * its code, a timer boundary, a JUEL condition and a gateway default. */
static void
test_camunda7_mapping (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WnProcess) process = load_file ("payment-c7.bpmn", &error);
  g_autofree char *retry = NULL;
  const WnNode *charge, *declined, *slow, *big;
  const WnFlow *flow;

  g_assert_no_error (error);
  g_assert_cmpstr (process->id, ==, "payment");
  g_assert_cmpstr (process->name, ==, "Payment");
  g_assert_cmpuint (process->n_nodes, ==, 9);
  g_assert_cmpuint (process->n_flows, ==, 7);
  charge = wn_process_find_node (process, "charge");
  g_assert_cmpint (charge->type, ==, WN_NODE_SERVICE);
  g_assert_cmpstr (charge->worker->topic, ==, "payment.charge");
  g_assert_true (charge->worker->policy.has_retry);
  retry = wn_retry_policy_describe (&charge->worker->policy.retry);
  g_assert_cmpint (charge->worker->policy.retry.kind, ==, WN_RETRY_FIXED);
  g_assert_cmpuint (charge->worker->policy.retry.max_attempts, ==, 3);
  g_assert_cmpint (charge->worker->policy.retry.delay, ==, 10 * G_TIME_SPAN_SECOND);
  declined = wn_process_find_node (process, "declined");
  g_assert_cmpstr (declined->error_code, ==, "CardDeclined");
  slow = wn_process_find_node (process, "too-slow");
  g_assert_cmpint (slow->timer, ==, 2 * G_TIME_SPAN_MINUTE);
  g_assert_false (slow->non_interrupting);
  big = wn_process_find_node (process, "big");
  g_assert_cmpint (big->type, ==, WN_NODE_EXCLUSIVE);
  flow = wn_process_find_flow (process, "Flow_big");
  g_assert_nonnull (flow->condition);
  g_assert_cmpstr (wn_lite_get_source (flow->condition), ==, "amount > 1000 and currency == 'EUR'");
  /* the modeller's diagram, per node and flow */
  g_assert_nonnull (process->diagram);
  g_assert_cmpuint (process->diagram->n_shapes, ==, process->n_nodes);
  g_assert_cmpfloat (process->diagram->shapes[charge->index].x, ==, 240);
  g_assert_cmpfloat (process->diagram->shapes[charge->index].width, ==, 100);
  g_assert_cmpuint (process->diagram->edges[flow->index].n_points, ==, 3);
  g_assert_cmpfloat (process->diagram->edges[flow->index].points[2].x, ==, 500);
  g_assert_nonnull (process->warnings);
  g_assert_cmpuint (process->warnings->len, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (process->warnings, 0), "payment-c7.bpmn:4:5: payment (process): ignored: documentation"));
}

/* Camunda 8: a FEEL job type, retries and retryBackoff, a sub-process with a
 * repeating non-interrupting timer and a catch-all error boundary, a
 * terminate end, a receive task with a correlation key, a FEEL condition. */
static void
test_zeebe_mapping (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WnProcess) process = load_file ("payment-c8.bpmn", &error);
  const WnNode *n;

  g_assert_no_error (error);
  g_assert_cmpuint (process->n_nodes, ==, 13);
  n = wn_process_find_node (process, "charge");
  g_assert_cmpstr (n->worker->topic, ==, "payment.charge");
  g_assert_cmpuint (n->worker->policy.retry.max_attempts, ==, 5);
  g_assert_cmpint (n->worker->policy.retry.delay, ==, 30 * G_TIME_SPAN_SECOND);
  g_assert_cmpint (n->scope, ==, (int) wn_process_find_node (process, "pay")->index);
  n = wn_process_find_node (process, "reminder");
  g_assert_true (n->non_interrupting);
  g_assert_cmpuint (n->repeat, ==, 2);
  g_assert_cmpint (n->timer, ==, G_TIME_SPAN_MINUTE);
  g_assert_true (wn_process_find_node (process, "any-error")->catch_all);
  g_assert_true (wn_process_find_node (process, "failed")->terminate);
  n = wn_process_find_node (process, "confirm");
  g_assert_cmpint (n->type, ==, WN_NODE_RECEIVE);
  g_assert_cmpstr (n->message, ==, "payment-confirmed");
  g_assert_cmpstr (wn_lite_get_source (n->correlation), ==, "orderId");
  g_assert_cmpstr (wn_lite_get_source (wn_process_find_flow (process, "f-yes")->condition), ==,
                   "amount >= 100 and not (currency == \"USD\")");
  g_assert_cmpint (wn_process_find_node (process, "reminded")->type, ==, WN_NODE_THROW);
}

/* The file is refused, each diagnostic holding its expected text, in order. */
static void
assert_refused (const char *name, const char * const *expected, gsize n)
{
  g_autoptr(GPtrArray) diags = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = data_path (name);
  g_autoptr(WnProcess) process = wn_load_bpmn_file (path, 0, NULL, NULL, &diags, &error);

  g_assert_null (process);
  g_assert_error (error, WN_LOAD_ERROR, WN_LOAD_ERROR_INVALID);
  g_assert_cmpuint (diags->len, ==, n);
  for (gsize i = 0; i < n; i++)
    {
      g_autofree char *line = wn_diagnostic_format (g_ptr_array_index (diags, i));

      if (strstr (line, expected[i]) == NULL)
        g_error ("expected “%s” in: %s", expected[i], line);
    }
}

/* Every unsupported element is listed, with its line, column, id and kind. */
static void
test_unsupported_listed (void)
{
  static const char * const expected[] = {
    ":5:5: fork (inclusiveGateway): inclusive gateways are not supported yet",
    ":6:5: call (callActivity): call activities are not supported",
    ":8:7: each (serviceTask): a multi-instance activity needs a loopCardinality or a collection",
    ":13:7: f2 (sequenceFlow): the condition `${execution.getVariable(\"x\") == 1}`: at 2: `execution` is outside",
  };

  assert_refused ("unsupported.bpmn", expected, G_N_ELEMENTS (expected));
}

/* The process loader's own checks come back at the BPMN element. */
static void
test_loader_errors_mapped (void)
{
  g_autofree char *text = doc ("<bpmn:startEvent id=\"s\"/>\n"
                               "<bpmn:endEvent id=\"e\"/>\n"
                               "  <bpmn:sequenceFlow id=\"f\" sourceRef=\"s\" targetRef=\"nowhere\"/>\n"
                               "<bpmn:sequenceFlow id=\"g\" sourceRef=\"s\" targetRef=\"e\"/>\n");
  g_autoptr(GError) error = NULL;
  g_autoptr(WnProcess) process = wn_load_bpmn_data (text, -1, "m.bpmn", NULL, NULL, NULL, &error);

  g_assert_null (process);
  g_assert_error (error, WN_LOAD_ERROR, WN_LOAD_ERROR_INVALID);
  g_assert_cmpstr (error->message, ==, "m.bpmn:6:3: f (sequenceFlow): unknown node \"nowhere\"");
}

/* A gateway whose flow "c" has the condition `expression`. */
static WnProcess *
load_condition (const char *expression, GError **error)
{
  g_autofree char *flows = g_strdup_printf ("<bpmn:startEvent id=\"s\"/><bpmn:exclusiveGateway id=\"g\" default=\"d\"/>"
                                            "<bpmn:endEvent id=\"e\"/>"
                                            "<bpmn:sequenceFlow id=\"f0\" sourceRef=\"s\" targetRef=\"g\"/>"
                                            "<bpmn:sequenceFlow id=\"c\" sourceRef=\"g\" targetRef=\"e\">"
                                            "<bpmn:conditionExpression>%s</bpmn:conditionExpression>"
                                            "</bpmn:sequenceFlow>"
                                            "<bpmn:sequenceFlow id=\"d\" sourceRef=\"g\" targetRef=\"e\"/>", expression);
  g_autofree char *text = doc (flows);

  return wn_load_bpmn_data (text, -1, "x.bpmn", NULL, NULL, NULL, error);
}

static void
test_expressions (void)
{
  static const struct { const char *in; const char *lite; } ok[] = {
    { "${a == 1}", "a == 1" },
    { "#{ order.total ge 10 and not approved }", "order.total >= 10 and not approved" },
    { "${x.items[0] != null || y mod 2 == 1}", "x.items[0] != nil or y % 2 == 1" },
    { "${!(a &lt; 3) &amp;&amp; b eq \"z\"}", "not (a < 3) and b == \"z\"" },
    { "= a = 1 or (b - 2) * 3 &gt; 7", "a == 1 or (b - 2) * 3 > 7" },
    { "=not(done)", "not (done)" },
  };
  static const struct { const char *in; const char *why; } bad[] = {
    { "${empty list}", "at 2: `empty` is outside the subset of JUEL" },
    { "${bean.check(x)}", "at 7: `check` is outside the subset of JUEL" },
    { "= a &gt; 1 and b in [1,2]", "`in` is outside the subset of FEEL" },
    { "= x[1] = 2", "at 3: `[` is outside the subset of FEEL" },
    { "= name = 'x'", "`'` is outside the subset of FEEL" },
    { "a == 1", "not an expression" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (ok); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(WnProcess) process = load_condition (ok[i].in, &error);

      g_assert_no_error (error);
      g_assert_cmpstr (wn_lite_get_source (wn_process_find_flow (process, "c")->condition), ==, ok[i].lite);
    }
  for (gsize i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(WnProcess) process = load_condition (bad[i].in, &error);

      g_assert_null (process);
      g_assert_error (error, WN_LOAD_ERROR, WN_LOAD_ERROR_INVALID);
      if (strstr (error->message, bad[i].why) == NULL)
        g_error ("%s: expected “%s” in: %s", bad[i].in, bad[i].why, error->message);
    }
}

/* Topics from Java delegates, retries from Zeebe's defaults. */
static void
test_topics (void)
{
  g_autofree char *text = doc (
    "<bpmn:startEvent id=\"s\"/>"
    "<bpmn:serviceTask id=\"a\" camunda:class=\"org.example.Charge\"/>"
    "<bpmn:serviceTask id=\"b\" camunda:delegateExpression=\"${chargeDelegate}\"/>"
    "<bpmn:sendTask id=\"c\" camunda:expression=\"${mailer.send(execution, 'x')}\"/>"
    "<bpmn:businessRuleTask id=\"d\" camunda:decisionRef=\"approve\"/>"
    "<bpmn:serviceTask id=\"z\"><bpmn:extensionElements>"
    "<zeebe:taskDefinition xmlns:zeebe=\"http://camunda.org/schema/zeebe/1.0\" type=\"mail\"/>"
    "</bpmn:extensionElements></bpmn:serviceTask>"
    "<bpmn:endEvent id=\"e\"/>"
    "<bpmn:sequenceFlow id=\"f1\" sourceRef=\"s\" targetRef=\"a\"/>"
    "<bpmn:sequenceFlow id=\"f2\" sourceRef=\"a\" targetRef=\"b\"/>"
    "<bpmn:sequenceFlow id=\"f3\" sourceRef=\"b\" targetRef=\"c\"/>"
    "<bpmn:sequenceFlow id=\"f4\" sourceRef=\"c\" targetRef=\"d\"/>"
    "<bpmn:sequenceFlow id=\"f5\" sourceRef=\"d\" targetRef=\"z\"/>"
    "<bpmn:sequenceFlow id=\"f6\" sourceRef=\"z\" targetRef=\"e\"/>");
  g_autoptr(GError) error = NULL;
  g_autoptr(WnProcess) process = wn_load_bpmn_data (text, -1, "t.bpmn", NULL, NULL, NULL, &error);
  const WnNode *z;

  g_assert_no_error (error);
  g_assert_cmpstr (wn_process_find_node (process, "a")->worker->topic, ==, "java:org.example.Charge");
  g_assert_cmpstr (wn_process_find_node (process, "b")->worker->topic, ==, "delegate:chargeDelegate");
  g_assert_cmpstr (wn_process_find_node (process, "c")->worker->topic, ==, "expression:mailer.send_execution_x");
  g_assert_cmpstr (wn_process_find_node (process, "d")->worker->topic, ==, "dmn:approve");
  z = wn_process_find_node (process, "z");
  g_assert_cmpstr (z->worker->topic, ==, "mail");
  g_assert_cmpuint (z->worker->policy.retry.max_attempts, ==, 3);
  g_assert_cmpint (z->worker->policy.retry.delay, ==, 0);
}

/* A collaboration with two executable processes asks which one. */
static void
test_several_processes (void)
{
  const char *text = HEAD "<definitions xmlns=\"" BPMN_NS "\">"
    "<collaboration id=\"c\"><participant id=\"pa\" processRef=\"a\"/><participant id=\"pb\" processRef=\"b\"/>"
    "<messageFlow id=\"mf\" sourceRef=\"pa\" targetRef=\"pb\"/></collaboration>"
    "<process id=\"a\" isExecutable=\"true\"><startEvent id=\"s1\"/><endEvent id=\"e1\"/>"
    "<sequenceFlow id=\"f1\" sourceRef=\"s1\" targetRef=\"e1\"/></process>"
    "<process id=\"b\" isExecutable=\"true\"><startEvent id=\"s2\"/><endEvent id=\"e2\"/>"
    "<sequenceFlow id=\"f2\" sourceRef=\"s2\" targetRef=\"e2\"/></process></definitions>";
  g_autoptr(GError) error = NULL;
  g_autoptr(WnProcess) none = wn_load_bpmn_data (text, -1, "c.bpmn", NULL, NULL, NULL, &error);
  g_autoptr(WnProcess) b = NULL;
  g_autofree char *json = NULL;

  g_assert_null (none);
  g_assert_error (error, WN_LOAD_ERROR, WN_LOAD_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "2 executable processes (a, b): choose one"));
  g_clear_error (&error);
  b = wn_load_bpmn_data (text, -1, "c.bpmn", "b", &json, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (wn_process_find_node (b, "s2"));
  g_assert_cmpuint (b->warnings->len, ==, 2);
  g_assert_nonnull (strstr (g_ptr_array_index (b->warnings, 0), "c.bpmn:2:1: (definitions): no diagram (BPMNDI): "
                            "the automatic layout is used"));
  g_assert_nonnull (strstr (g_ptr_array_index (b->warnings, 1), "mf (messageFlow): ignored"));
  g_assert_null (b->diagram);
  g_assert_nonnull (strstr (json, "\"format\" : \"winnow.process/1\""));
  g_clear_error (&error);
  g_assert_null (wn_load_bpmn_data (text, -1, "c.bpmn", "zz", NULL, NULL, &error));
  g_assert_nonnull (strstr (error->message, "no process \"zz\" (the processes are: a, b)"));
}

/* Camunda 7: error event definitions become error-mapper rules, output
 * parameters an output mapping, an input that renames is noted. */
static void
test_error_rules_and_outputs (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WnProcess) process = load_file ("mapped-c7.bpmn", &error);
  const WnWorkerSpec *w;
  const WnErrorRule *rule;
  const WnOutputRule *out;
  gboolean noted = FALSE;

  g_assert_no_error (error);
  w = wn_process_find_node (process, "charge")->worker;
  g_assert_nonnull (w->policy.mapper);
  g_assert_cmpuint (wn_error_mapper_get_n_rules (w->policy.mapper), ==, 2);
  rule = wn_error_mapper_get_rule (w->policy.mapper, 0);
  g_assert_cmpint (rule->outcome, ==, WN_CLASS_BPMN_ERROR);
  g_assert_cmpstr (rule->bpmn_code, ==, "CardDeclined");
  g_assert_cmpstr (wn_lite_get_source (rule->when), ==, "body.message == \"declined\"");
  rule = wn_error_mapper_get_rule (w->policy.mapper, 1);
  g_assert_cmpstr (rule->bpmn_code, ==, "Fraud");
  g_assert_cmpstr (wn_lite_get_source (rule->when), ==, "body.details == 'fraud' and body.message != 'declined'");
  g_assert_nonnull (w->policy.mapping);
  g_assert_cmpuint (wn_output_mapping_get_n_rules (w->policy.mapping), ==, 2);
  out = wn_output_mapping_get_rule (w->policy.mapping, 0);
  g_assert_cmpstr (out->var, ==, "receipt");
  g_assert_cmpstr (wn_lite_get_source (out->path), ==, "body.result.receiptId");
  g_assert_true (out->required);
  out = wn_output_mapping_get_rule (w->policy.mapping, 1);
  g_assert_cmpstr (out->var, ==, "chargeState");
  g_assert_cmpstr (wn_lite_get_source (out->path), ==, "'captured'");
  for (guint i = 0; i < process->warnings->len; i++)
    {
      const char *line = g_ptr_array_index (process->warnings, i);

      g_assert_null (strstr (line, "\"amount\""));   /* ${amount} as amount changes nothing */
      g_assert_null (strstr (line, "error event"));
      noted |= strstr (line, "mapped-c7.bpmn:11:11: charge (serviceTask): ignored: the input \"total\" is not applied") != NULL;
    }
  g_assert_true (noted);
}

/* What the mapper or the output mapping cannot express is refused at the element. */
static void
test_error_rules_refused (void)
{
  static const char * const expected[] = {
    ":7:9: d1 (errorEventDefinition): the expression `${externalTask.getErrorDetails().contains('declined')}`: "
    "at 33: `contains` is outside the subset of JUEL",
    ":8:9: d2 (errorEventDefinition): the expression `${amount > 10}`: at 2: `amount`: an error event definition "
    "reads only externalTask.errorMessage and externalTask.errorDetails",
    ":9:9: d3 (errorEventDefinition): errorRef \"Error_nocode\" names no error with an errorCode",
    ":11:49: charge (serviceTask): an output given as a list is not supported",
    ":12:11: charge (serviceTask): the output `${items.size()}` of \"n\": at 8: `size` is outside the subset of JUEL",
  };

  assert_refused ("refused-c7.bpmn", expected, G_N_ELEMENTS (expected));
}

/* Zeebe: outputs become optional output rules; an input that renames is noted. */
static void
test_zeebe_io_mapping (void)
{
  g_autofree char *text = doc (
    "<bpmn:startEvent id=\"s\"/>"
    "<bpmn:serviceTask id=\"z\"><bpmn:extensionElements xmlns:zeebe=\"http://camunda.org/schema/zeebe/1.0\">"
    "<zeebe:taskDefinition type=\"mail\"/>"
    "<zeebe:ioMapping><zeebe:input source=\"=order.id\" target=\"orderId\"/>"
    "<zeebe:output source=\"=result.total * 2\" target=\"order.total\"/></zeebe:ioMapping>"
    "</bpmn:extensionElements></bpmn:serviceTask>"
    "<bpmn:endEvent id=\"e\"/>"
    "<bpmn:sequenceFlow id=\"f1\" sourceRef=\"s\" targetRef=\"z\"/>"
    "<bpmn:sequenceFlow id=\"f2\" sourceRef=\"z\" targetRef=\"e\"/>");
  g_autoptr(GError) error = NULL;
  g_autoptr(WnProcess) process = wn_load_bpmn_data (text, -1, "z.bpmn", NULL, NULL, NULL, &error);
  const WnOutputRule *out;

  g_assert_no_error (error);
  out = wn_output_mapping_get_rule (wn_process_find_node (process, "z")->worker->policy.mapping, 0);
  g_assert_cmpstr (out->var, ==, "order.total");
  g_assert_cmpstr (wn_lite_get_source (out->path), ==, "body.result.total * 2");
  g_assert_false (out->required);
  g_assert_cmpuint (process->warnings->len, ==, 2);   /* no diagram; the input */
  g_assert_nonnull (strstr (g_ptr_array_index (process->warnings, 1), "z.bpmn:4:177: z (serviceTask): ignored: the input \"orderId\" is not applied"));
}

/* timeDate: a date timer (`date`), counted from the scenario's epoch; a date
 * without its zone is refused at the element; a JSON timer has a duration or
 * a date, not both; an epoch is an instant with its zone. */
static void
test_time_date (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WnProcess) process = load_file ("dates-c7.bpmn", &error);
  const WnNode *opens, *closes;
  g_autofree char *text = NULL;
  g_autoptr(WnProcess) refused = NULL;
  g_autoptr(WnProcess) both = NULL;
  g_autoptr(WnScenario) scenario = NULL;

  g_assert_no_error (error);
  opens = wn_process_find_node (process, "opens");
  g_assert_cmpint (opens->type, ==, WN_NODE_TIMER);
  g_assert_true (opens->has_date);
  g_assert_cmpint (opens->date_us, ==, G_GINT64_CONSTANT (1767607200) * G_USEC_PER_SEC);   /* 2026-01-05T10:00:00Z */
  closes = wn_process_find_node (process, "closes");
  g_assert_true (closes->has_date);
  g_assert_cmpint (closes->date_us, ==, G_GINT64_CONSTANT (1767609000) * G_USEC_PER_SEC);  /* 10:30Z */
  g_assert_cmpint (closes->timer, >, 0);   /* a timer boundary */
  g_assert_false (closes->non_interrupting);

  text = doc ("<bpmn:startEvent id=\"s\"/>\n"
              "<bpmn:intermediateCatchEvent id=\"t\"><bpmn:timerEventDefinition>\n"
              "  <bpmn:timeDate>2026-01-05T10:00:00</bpmn:timeDate></bpmn:timerEventDefinition>\n"
              "</bpmn:intermediateCatchEvent><bpmn:endEvent id=\"e\"/>\n"
              "<bpmn:sequenceFlow id=\"f1\" sourceRef=\"s\" targetRef=\"t\"/><bpmn:sequenceFlow id=\"f2\" sourceRef=\"t\" targetRef=\"e\"/>\n");
  refused = wn_load_bpmn_data (text, -1, "d.bpmn", NULL, NULL, NULL, &error);
  g_assert_null (refused);
  g_assert_nonnull (strstr (error->message, "d.bpmn:6:3: t (intermediateCatchEvent): the timeDate `2026-01-05T10:00:00` "
                            "is not an instant Winnow reads"));
  g_clear_error (&error);

  both = wn_load_process_data ("{\"format\":\"winnow.process/1\",\"id\":\"p\",\"nodes\":["
                               "{\"id\":\"s\",\"type\":\"startEvent\"},"
                               "{\"id\":\"t\",\"type\":\"timerEvent\",\"date\":\"2026-01-05T10:00:00Z\",\"duration\":\"1s\"},"
                               "{\"id\":\"e\",\"type\":\"endEvent\"}],\"flows\":["
                               "{\"id\":\"f1\",\"from\":\"s\",\"to\":\"t\"},{\"id\":\"f2\",\"from\":\"t\",\"to\":\"e\"}]}",
                               -1, "p.json", NULL, &error);
  g_assert_null (both);
  g_assert_nonnull (strstr (error->message, "nodes[1].date: a timerEvent waits a `duration` or until a `date`, not both"));
  g_clear_error (&error);
  scenario = wn_load_scenario_data ("{\"format\":\"winnow.scenario/1\",\"epoch\":\"2026-01-05\"}", -1, "s.json", NULL, &error);
  g_assert_null (scenario);
  g_assert_nonnull (strstr (error->message, "s.json:1:39: epoch: must be an RFC 3339 instant with its zone"));
}

/* wn_load_process_file() hands XML to the importer. */
static void
test_process_file_detects_xml (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = data_path ("payment-c7.bpmn");
  g_autoptr(WnProcess) process = wn_load_process_file (path, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpstr (process->id, ==, "payment");
  g_assert_true (wn_load_data_is_xml ("\xEF\xBB\xBF  <x/>", 8));
  g_assert_false (wn_load_data_is_xml ("{\"a\":1}", 7));
}

/* subProcess triggeredByEvent: an event sub-process whose start event's
 * error, timer (a cycle) or message definition is its trigger. */
static void
test_event_subprocesses (void)
{
  const char *text = HEAD
    "<bpmn:definitions xmlns:bpmn=\"" BPMN_NS "\" xmlns:camunda=\"http://camunda.org/schema/1.0/bpmn\" id=\"d\">\n"
    "<bpmn:error id=\"Err\" errorCode=\"CardDeclined\"/>\n"
    "<bpmn:message id=\"Msg\" name=\"cancelOrder\"/>\n"
    "<bpmn:process id=\"p\" isExecutable=\"true\">\n"
    "<bpmn:startEvent id=\"s\"/>\n"
    "<bpmn:serviceTask id=\"charge\" camunda:type=\"external\" camunda:topic=\"pay\"/>\n"
    "<bpmn:endEvent id=\"e\"/>\n"
    "<bpmn:sequenceFlow id=\"f1\" sourceRef=\"s\" targetRef=\"charge\"/>\n"
    "<bpmn:sequenceFlow id=\"f2\" sourceRef=\"charge\" targetRef=\"e\"/>\n"
    "<bpmn:subProcess id=\"declined\" triggeredByEvent=\"true\">\n"
    "  <bpmn:startEvent id=\"ds\"><bpmn:errorEventDefinition errorRef=\"Err\"/></bpmn:startEvent>\n"
    "  <bpmn:endEvent id=\"de\"/>\n"
    "  <bpmn:sequenceFlow id=\"d1\" sourceRef=\"ds\" targetRef=\"de\"/>\n"
    "</bpmn:subProcess>\n"
    "<bpmn:subProcess id=\"remind\" triggeredByEvent=\"true\">\n"
    "  <bpmn:startEvent id=\"rs\" isInterrupting=\"false\"><bpmn:timerEventDefinition>"
    "<bpmn:timeCycle>R2/PT30S</bpmn:timeCycle></bpmn:timerEventDefinition></bpmn:startEvent>\n"
    "  <bpmn:endEvent id=\"re\"/>\n"
    "  <bpmn:sequenceFlow id=\"r1\" sourceRef=\"rs\" targetRef=\"re\"/>\n"
    "</bpmn:subProcess>\n"
    "<bpmn:subProcess id=\"cancel\" triggeredByEvent=\"true\">\n"
    "  <bpmn:startEvent id=\"cs\"><bpmn:messageEventDefinition messageRef=\"Msg\"/></bpmn:startEvent>\n"
    "  <bpmn:endEvent id=\"ce\"/>\n"
    "  <bpmn:sequenceFlow id=\"c1\" sourceRef=\"cs\" targetRef=\"ce\"/>\n"
    "</bpmn:subProcess>\n"
    "</bpmn:process>\n</bpmn:definitions>\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(WnProcess) process = wn_load_bpmn_data (text, -1, "esp.bpmn", NULL, NULL, NULL, &error);
  const WnNode *ds, *rs, *cs;

  g_assert_no_error (error);
  g_assert_nonnull (process->event_subs);
  g_assert_cmpuint (process->event_subs->len, ==, 3);
  g_assert_true (wn_process_find_node (process, "declined")->triggered_by_event);
  ds = wn_process_find_node (process, "ds");
  rs = wn_process_find_node (process, "rs");
  cs = wn_process_find_node (process, "cs");
  g_assert_cmpstr (ds->error_code, ==, "CardDeclined");
  g_assert_false (ds->non_interrupting);
  g_assert_cmpint (rs->timer, ==, 30 * WN_USEC_PER_SEC);
  g_assert_cmpuint (rs->repeat, ==, 2);
  g_assert_true (rs->non_interrupting);
  g_assert_cmpstr (cs->message, ==, "cancelOrder");
  g_assert_false (cs->non_interrupting);

  /* an event sub-process's start needs a trigger, and an error start interrupts */
  {
    g_autofree char *bad = doc ("<bpmn:startEvent id=\"s\"/><bpmn:endEvent id=\"e\"/>\n"
                                "<bpmn:sequenceFlow id=\"f\" sourceRef=\"s\" targetRef=\"e\"/>\n"
                                "<bpmn:subProcess id=\"a\" triggeredByEvent=\"true\">\n"
                                "  <bpmn:startEvent id=\"as\"/><bpmn:endEvent id=\"ae\"/>\n"
                                "  <bpmn:sequenceFlow id=\"a1\" sourceRef=\"as\" targetRef=\"ae\"/></bpmn:subProcess>\n"
                                "<bpmn:subProcess id=\"b\" triggeredByEvent=\"true\">\n"
                                "  <bpmn:startEvent id=\"bs\" isInterrupting=\"false\"><bpmn:errorEventDefinition/>"
                                "</bpmn:startEvent><bpmn:endEvent id=\"be\"/>\n"
                                "  <bpmn:sequenceFlow id=\"b1\" sourceRef=\"bs\" targetRef=\"be\"/></bpmn:subProcess>\n");
    g_autoptr(WnProcess) refused = wn_load_bpmn_data (bad, -1, "bad.bpmn", NULL, NULL, NULL, &error);

    g_assert_null (refused);
    g_assert_nonnull (strstr (error->message, "bad.bpmn:7:3: as (startEvent): the start event of an event "
                                              "sub-process needs an error, timer or message definition"));
    g_assert_nonnull (strstr (error->message, "bad.bpmn:10:3: bs (startEvent): an error start event always "
                                              "interrupts"));
  }
}

/* Zeebe's outputCollection / outputElement on a multi-instance task. */
static void
test_zeebe_output_collection (void)
{
  const char *text = HEAD
    "<bpmn:definitions xmlns:bpmn=\"" BPMN_NS "\" xmlns:zeebe=\"http://camunda.org/schema/zeebe/1.0\" id=\"d\">\n"
    "<bpmn:process id=\"p\" isExecutable=\"true\">\n"
    "<bpmn:startEvent id=\"s\"/>\n"
    "<bpmn:serviceTask id=\"charge\"><bpmn:extensionElements><zeebe:taskDefinition type=\"pay\"/>"
    "</bpmn:extensionElements><bpmn:multiInstanceLoopCharacteristics><bpmn:extensionElements>"
    "<zeebe:loopCharacteristics inputCollection=\"=items\" inputElement=\"item\" outputCollection=\"receipts\""
    " outputElement=\"=charge.receipt\"/></bpmn:extensionElements></bpmn:multiInstanceLoopCharacteristics>"
    "</bpmn:serviceTask>\n"
    "<bpmn:endEvent id=\"e\"/>\n"
    "<bpmn:sequenceFlow id=\"f1\" sourceRef=\"s\" targetRef=\"charge\"/>\n"
    "<bpmn:sequenceFlow id=\"f2\" sourceRef=\"charge\" targetRef=\"e\"/>\n"
    "</bpmn:process>\n</bpmn:definitions>\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(WnProcess) process = wn_load_bpmn_data (text, -1, "mi.bpmn", NULL, NULL, NULL, &error);
  const WnNode *charge;

  g_assert_no_error (error);
  charge = wn_process_find_node (process, "charge");
  g_assert_nonnull (charge->multi);
  g_assert_cmpstr (charge->multi->output_collection, ==, "receipts");
  g_assert_nonnull (charge->multi->output_element);
}

/* Each gateway.decided event's flow and JSON line, for the decision tests. */
static void
gateway_cb (const WnEvent *event,
            gpointer       data)
{
  if (event->kind == WN_EV_GATEWAY && event->phase == WN_PH_DECIDED)
    wn_event_append_json (event, data);
}

/* `instances` runs of the corpus's customer-data process (its gateway decided
 * by the scenario) with `seed` and `decisions` (a JSON object or NULL): the
 * gateway.decided lines, *n_over the instances that took SequenceFlow_4. */
static GString *
run_decided (WnProcess *process, guint64 seed, guint instances, const char *decisions, guint *n_over,
             GPtrArray **notices)
{
  g_autofree char *text = g_strdup_printf (
    "{\"format\":\"winnow.scenario/1\",\"seed\":%" G_GUINT64_FORMAT ",\"start\":[{\"count\":%u}],"
    "\"userTasks\":[{\"node\":\"UserTask_1\",\"complete\":{}},{\"node\":\"UserTask_2\",\"complete\":{}},"
    "{\"node\":\"UserTask_3\",\"complete\":{}}]%s%s}", seed, instances,
    decisions != NULL ? ",\"decisions\":" : "", decisions != NULL ? decisions : "");
  g_autoptr(GError) error = NULL;
  g_autoptr(WnScenario) scenario = wn_load_scenario_data (text, -1, "s.json", NULL, &error);
  WnEngineOptions options = { 0 };
  GString *lines = g_string_new (NULL);
  WnEngine *engine;

  g_assert_no_error (error);
  engine = wn_engine_new (process, scenario, &options);
  wn_journal_subscribe (wn_engine_get_journal (engine), gateway_cb, lines, NULL);
  g_assert_cmpint (wn_engine_run (engine, WN_TIME_NEVER), ==, WN_STOP_QUIESCENT);
  *n_over = 0;
  for (const char *p = lines->str; (p = strstr (p, "\"flows\":[\"SequenceFlow_4\"]")) != NULL; p++)
    (*n_over)++;
  if (notices != NULL)
    *notices = g_ptr_array_ref (wn_engine_get_notices (engine));
  wn_engine_free (engine);
  return lines;
}

/* A condition outside the translated subset (a real Camunda 7 example's
 * `customer.prop("age").numberValue()`): refused by default; with
 * WN_BPMN_IMPORT_SCENARIO_DECIDES its gateway becomes a branch the scenario
 * weighs, listed on load, drawn from the seeded PRNG and journaled. */
static void
test_scenario_decides (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "bpmn", "c7-examples--4-process.bpmn", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(WnProcess) refused = wn_load_bpmn_file (path, 0, NULL, NULL, NULL, &error);
  g_autoptr(WnProcess) process = NULL;
  g_autoptr(GPtrArray) notices = NULL;
  g_autofree char *json = NULL;
  g_autofree char *text = NULL;
  g_autoptr(WnProcess) mixed = NULL;
  GString *lines;
  guint over = 0, over_b = 0, over_c = 0;

  g_assert_null (refused);
  g_assert_nonnull (strstr (error->message, "c7-examples--4-process.bpmn:19:7: SequenceFlow_4 (sequenceFlow): "
                            "the condition `${customer.prop(\"age\").numberValue() >= 21}`: at 11: `prop` is outside"));
  g_clear_error (&error);

  process = wn_load_bpmn_file_with_flags (path, 0, NULL, WN_BPMN_IMPORT_SCENARIO_DECIDES, &json, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (wn_process_find_node (process, "ExclusiveGateway_1")->scenario_decides);
  g_assert_nonnull (strstr (json, "\"decidedBy\" : \"scenario\""));
  g_assert_null (strstr (json, "\"condition\""));
  g_assert_nonnull (process->warnings);
  {
    guint listed = 0;

    for (guint i = 0; i < process->warnings->len; i++)
      {
        const char *w = g_ptr_array_index (process->warnings, i);

        if (strstr (w, "; the scenario decides this branch instead (`decisions` weighs the flows leaving gateway "
                    "ExclusiveGateway_1)") == NULL)
          continue;
        g_assert_nonnull (strstr (w, listed == 0 ? "c7-examples--4-process.bpmn:19:7: SequenceFlow_4 (sequenceFlow): "
                                                 : "c7-examples--4-process.bpmn:22:7: SequenceFlow_5 (sequenceFlow): "));
        listed++;
      }
    g_assert_cmpuint (listed, ==, 2);
  }

  /* the draw is journaled; the same seed, the same branches */
  lines = run_decided (process, 7, 1, "{\"ExclusiveGateway_1\":{\"SequenceFlow_4\":3,\"SequenceFlow_5\":1}}", &over, NULL);
  g_assert_nonnull (strstr (lines->str, "\"kind\":\"gateway\",\"phase\":\"decided\",\"instance\":\"i1\",\"node\":\"ExclusiveGateway_1\""));
  g_assert_nonnull (strstr (lines->str, "],\"by\":\"scenario\"}\n"));
  g_string_free (lines, TRUE);

  /* weights respected: 3 : 1 over 2,000 instances (expected 1,500 ± 4.5 σ, σ ≈ 19.4) */
  lines = run_decided (process, 7, 2000, "{\"ExclusiveGateway_1\":{\"SequenceFlow_4\":3,\"SequenceFlow_5\":1}}", &over, NULL);
  g_assert_cmpuint (over, >, 1413);
  g_assert_cmpuint (over, <, 1587);
  {
    guint again = 0;
    GString *same = run_decided (process, 7, 2000, "{\"ExclusiveGateway_1\":{\"SequenceFlow_4\":3,\"SequenceFlow_5\":1}}",
                                 &again, NULL);

    g_assert_cmpstr (same->str, ==, lines->str);
    g_string_free (same, TRUE);
  }
  /* another seed: other branches for some instances */
  {
    GString *other = run_decided (process, 8, 2000, "{\"ExclusiveGateway_1\":{\"SequenceFlow_4\":3,\"SequenceFlow_5\":1}}",
                                  &over_b, NULL);

    g_assert_cmpstr (other->str, !=, lines->str);
    g_string_free (other, TRUE);
  }
  g_string_free (lines, TRUE);
  /* a weight of 0 is never drawn; no weights: equal ones, and a notice says so */
  g_string_free (run_decided (process, 7, 200, "{\"ExclusiveGateway_1\":{\"SequenceFlow_4\":0,\"SequenceFlow_5\":1}}",
                              &over_c, NULL), TRUE);
  g_assert_cmpuint (over_c, ==, 0);
  g_string_free (run_decided (process, 7, 2000, NULL, &over_c, &notices), TRUE);
  g_assert_cmpuint (over_c, >, 900);
  g_assert_cmpuint (over_c, <, 1100);
  g_assert_true (g_ptr_array_find_with_equal_func (notices,
    "the gateway ExclusiveGateway_1 is decided by the scenario, which gives it no weights (`decisions`): "
    "each of its 2 flows is taken with equal weight", g_str_equal, NULL));
  g_clear_pointer (&notices, g_ptr_array_unref);
  g_string_free (run_decided (process, 7, 1, "{\"Gateway_x\":{\"a\":1},\"ExclusiveGateway_1\":{\"Flow_x\":1}}",
                              &over_c, &notices), TRUE);
  g_assert_true (g_ptr_array_find_with_equal_func (notices,
    "the scenario's decisions name Gateway_x, which is not a gateway the scenario decides: ignored", g_str_equal, NULL));
  g_assert_true (g_ptr_array_find_with_equal_func (notices,
    "the scenario's decisions for gateway ExclusiveGateway_1 weigh Flow_x, which does not leave it: ignored",
    g_str_equal, NULL));

  /* beside a translated condition and a default: both give way to the draw, and say so */
  text = doc ("<bpmn:startEvent id=\"s\"/><bpmn:exclusiveGateway id=\"g\" default=\"f3\"/>\n"
              "<bpmn:endEvent id=\"e\"/>\n"
              "<bpmn:sequenceFlow id=\"f1\" sourceRef=\"s\" targetRef=\"g\"/>\n"
              "<bpmn:sequenceFlow id=\"f2\" sourceRef=\"g\" targetRef=\"e\">\n"
              "  <bpmn:conditionExpression>${amount &gt; 10}</bpmn:conditionExpression></bpmn:sequenceFlow>\n"
              "<bpmn:sequenceFlow id=\"f4\" sourceRef=\"g\" targetRef=\"e\">\n"
              "  <bpmn:conditionExpression>${order.isLarge()}</bpmn:conditionExpression></bpmn:sequenceFlow>\n"
              "<bpmn:sequenceFlow id=\"f3\" sourceRef=\"g\" targetRef=\"e\"/>\n");
  mixed = wn_load_bpmn_data_with_flags (text, -1, "m.bpmn", NULL, WN_BPMN_IMPORT_SCENARIO_DECIDES, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (wn_process_find_node (mixed, "g")->scenario_decides);
  g_assert_cmpint (wn_process_find_node (mixed, "g")->default_flow, ==, -1);
  for (guint i = 0; i < mixed->n_flows; i++)
    g_assert_null (mixed->flows[i].condition);
  g_assert_true (g_ptr_array_find_with_equal_func (mixed->warnings,
    "m.bpmn:8:3: f2 (sequenceFlow): its condition is not used: gateway g is decided by the scenario", g_str_equal, NULL));
  g_assert_true (g_ptr_array_find_with_equal_func (mixed->warnings,
    "m.bpmn:4:26: g (exclusiveGateway): its default flow f3 is not a fallback any more: the scenario decides the "
    "gateway, and may draw any of its flows", g_str_equal, NULL));
  g_assert_nonnull (strstr (g_ptr_array_index (mixed->warnings, 3), "m.bpmn:10:3: f4 (sequenceFlow): the condition "
                            "`${order.isLarge()}`"));
  g_clear_pointer (&refused, wn_process_unref);
  refused = wn_load_bpmn_data (text, -1, "m.bpmn", NULL, NULL, NULL, &error);
  g_assert_null (refused);
  g_assert_nonnull (strstr (error->message, "m.bpmn:10:3: f4 (sequenceFlow): the condition `${order.isLarge()}`"));
  /* the first refused condition, and only the first, says how to import it anyway */
  g_assert_nonnull (strstr (error->message, "; winnow-run --undecidable-conditions=scenario (in the app: the main "
                            "menu's BPMN Conditions Winnow Cannot Translate ▸ Let the Scenario Decide) imports such a "
                            "branch as one the scenario decides"));
  g_assert_null (strstr (strstr (error->message, "undecidable-conditions") + 1, "undecidable-conditions"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/engine/Bpmn/xxe-refused", test_xxe_refused);
  g_test_add_func ("/engine/Bpmn/billion-laughs-refused", test_billion_laughs_refused);
  g_test_add_func ("/engine/Bpmn/not-well-formed", test_not_well_formed);
  g_test_add_func ("/engine/Bpmn/namespaces-by-uri", test_namespaces_by_uri);
  g_test_add_func ("/engine/Bpmn/camunda7-mapping", test_camunda7_mapping);
  g_test_add_func ("/engine/Bpmn/zeebe-mapping", test_zeebe_mapping);
  g_test_add_func ("/engine/Bpmn/unsupported-listed", test_unsupported_listed);
  g_test_add_func ("/engine/Bpmn/loader-errors-mapped", test_loader_errors_mapped);
  g_test_add_func ("/engine/Bpmn/expressions", test_expressions);
  g_test_add_func ("/engine/Bpmn/topics", test_topics);
  g_test_add_func ("/engine/Bpmn/several-processes", test_several_processes);
  g_test_add_func ("/engine/Bpmn/process-file-detects-xml", test_process_file_detects_xml);
  g_test_add_func ("/engine/Bpmn/error-rules-and-outputs", test_error_rules_and_outputs);
  g_test_add_func ("/engine/Bpmn/error-rules-refused", test_error_rules_refused);
  g_test_add_func ("/engine/Bpmn/zeebe-io-mapping", test_zeebe_io_mapping);
  g_test_add_func ("/engine/Bpmn/time-date", test_time_date);
  g_test_add_func ("/engine/Bpmn/event-subprocesses", test_event_subprocesses);
  g_test_add_func ("/engine/Bpmn/zeebe-output-collection", test_zeebe_output_collection);
  g_test_add_func ("/engine/Bpmn/scenario-decides", test_scenario_decides);
  g_test_add_func ("/engine/Bpmn/collapsed-subprocess", test_collapsed_subprocess);
  return g_test_run ();
}

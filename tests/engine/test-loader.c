/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Loader: the JSON reader's positions, the process and scenario formats, and
 * every class of load error with its exact FILE:LINE:COL: PATH: message. */
#include "wn-test-util.h"
#include "wn-json.h"

#include <string.h>

#define MS(x)  ((WnTime) (x) * WN_USEC_PER_MSEC)
#define SEC(x) ((WnTime) (x) * WN_USEC_PER_SEC)

typedef enum {
  LOAD_PROCESS,
  LOAD_SCENARIO,
  LOAD_RESPONSE,
} LoadKind;

/* JSON written with backticks for double quotes, so the tests stay readable. */
static char *
bq (const char *text)
{
  char *copy = g_strdup (text);

  for (char *p = copy; *p; p++)
    if (*p == '`')
      *p = '"';
  return copy;
}

/* Load `text` (backtick-quoted), expect failure with `code`, check that the GError
 * carries exactly the formatted diagnostics, and return that text. */
static char *
load_errors_full (LoadKind kind, const char *text, int code, guint *n_diagnostics)
{
  g_autofree char *json = bq (text);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) diags = NULL;
  g_autoptr(GString) joined = g_string_new (NULL);
  gpointer result = NULL;

  switch (kind)
    {
    case LOAD_PROCESS:
      result = wn_load_process_data (json, -1, "t.json", &diags, &error);
      break;
    case LOAD_SCENARIO:
      result = wn_load_scenario_data (json, -1, "t.json", &diags, &error);
      break;
    case LOAD_RESPONSE:
      result = wn_load_response_data (json, -1, "t.json", &diags, &error);
      break;
    default:
      g_assert_not_reached ();
    }

  g_assert_null (result);
  g_assert_error (error, WN_LOAD_ERROR, code);
  g_assert_nonnull (diags);
  g_assert_cmpuint (diags->len, >, 0);
  for (guint i = 0; i < diags->len; i++)
    {
      g_autofree char *line = wn_diagnostic_format (g_ptr_array_index (diags, i));

      if (i > 0)
        g_string_append_c (joined, '\n');
      g_string_append (joined, line);
    }
  if (diags->len <= WN_LOAD_MAX_ERRORS && n_diagnostics == NULL)
    g_assert_cmpstr (error->message, ==, joined->str);
  if (n_diagnostics != NULL)
    *n_diagnostics = diags->len;
  return g_strdup (error->message);
}

static char *
process_errors (const char *text)
{
  return load_errors_full (LOAD_PROCESS, text, WN_LOAD_ERROR_INVALID, NULL);
}

static char *
scenario_errors (const char *text)
{
  return load_errors_full (LOAD_SCENARIO, text, WN_LOAD_ERROR_INVALID, NULL);
}

static char *
response_errors (const char *text)
{
  return load_errors_full (LOAD_RESPONSE, text, WN_LOAD_ERROR_INVALID, NULL);
}

static WnProcess *
process_ok (const char *text)
{
  g_autofree char *json = bq (text);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) diags = NULL;
  WnProcess *process = wn_load_process_data (json, -1, "t.json", &diags, &error);

  g_assert_no_error (error);
  g_assert_nonnull (process);
  g_assert_null (diags);
  return process;
}

static WnScenario *
scenario_ok (const char *text)
{
  g_autofree char *json = bq (text);
  g_autoptr(GError) error = NULL;
  WnScenario *scenario = wn_load_scenario_data (json, -1, "t.json", NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (scenario);
  return scenario;
}

static WnResponse *
response_ok (const char *text)
{
  g_autofree char *json = bq (text);
  g_autoptr(GError) error = NULL;
  WnResponse *response = wn_load_response_data (json, -1, "t.json", NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (response);
  return response;
}

static int
node_index (const WnProcess *process, const char *id)
{
  const WnNode *node = wn_process_find_node (process, id);

  g_assert_nonnull (node);
  return (int) node->index;
}

static int
flow_index (const WnProcess *process, const char *id)
{
  const WnFlow *flow = wn_process_find_flow (process, id);

  g_assert_nonnull (flow);
  return (int) flow->index;
}

/* A small valid process: start → work → end, with room for a few more nodes. */
#define HEAD \
  "{`format`: `winnow.process/1`, `id`: `p`,\n"

/* ---- the JSON reader ----------------------------------------------------- */

static void
json_error (const char *text, gssize length, guint line, guint column, WnJsonError code, const char *message)
{
  g_autoptr(GError) error = NULL;
  WnJsonPos pos = { 0 };
  WnJsonDoc *doc = wn_json_doc_parse (text, length, &pos, &error);
  g_autofree char *escaped = g_strescape (text, NULL);

  /* a long text (deep nesting) is named by its head: meson's TAP reader
   * splits a 100 KB comment line and reports the rest as unknown output */
  if (strlen (escaped) > 120)
    g_test_message ("parsing %.120s… (%zu bytes)", escaped, strlen (text));
  else
    g_test_message ("parsing %s", escaped);
  g_assert_null (doc);
  g_assert_error (error, WN_JSON_ERROR, (gint) code);
  g_assert_cmpstr (error->message, ==, message);
  g_assert_cmpuint (pos.line, ==, line);
  g_assert_cmpuint (pos.column, ==, column);
}

static void
test_json_values (void)
{
  g_autofree char *text = bq ("{`i`: -42, `big`: 9223372036854775808, `d`: 1.5e3, `t`: true, `f`: false,"
                              " `n`: null, `s`: `a\\u00e9\\ud83d\\ude00\\n\\\"`, `a`: [1, {}], `o`: {`k`: []}}");
  g_autoptr(GError) error = NULL;
  WnJsonDoc *doc = wn_json_doc_parse (text, -1, NULL, &error);
  JsonObject *o;
  const char * const *keys;
  guint n_keys = 0;

  g_assert_no_error (error);
  g_assert_nonnull (doc);
  o = json_node_get_object (wn_json_doc_get_root (doc));
  g_assert_cmpint (json_node_get_value_type (json_object_get_member (o, "i")), ==, G_TYPE_INT64);
  g_assert_cmpint (json_object_get_int_member (o, "i"), ==, -42);
  g_assert_cmpint (json_node_get_value_type (json_object_get_member (o, "big")), ==, G_TYPE_DOUBLE);
  g_assert_cmpfloat (json_object_get_double_member (o, "big"), ==, 9223372036854775808.0);
  g_assert_cmpfloat (json_object_get_double_member (o, "d"), ==, 1500.0);
  g_assert_true (json_object_get_boolean_member (o, "t"));
  g_assert_false (json_object_get_boolean_member (o, "f"));
  g_assert_true (json_object_get_null_member (o, "n"));
  g_assert_cmpstr (json_object_get_string_member (o, "s"), ==, "a\xc3\xa9\xf0\x9f\x98\x80\n\"");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "a")), ==, 2);

  keys = wn_json_doc_get_keys (doc, o, &n_keys);
  g_assert_cmpuint (n_keys, ==, 9);
  g_assert_cmpstr (keys[0], ==, "i");
  g_assert_cmpstr (keys[6], ==, "s");
  g_assert_cmpstr (keys[8], ==, "o");
  wn_json_doc_free (doc);
}

static void
test_json_positions (void)
{
  /* Columns count characters: "é" is two bytes but one column. */
  g_autofree char *text = bq ("{\n  `é`: `x`,\n\t`b`: [1,\n    {`c`: `a\\\"é b`}]\n}");
  g_autoptr(GError) error = NULL;
  WnJsonDoc *doc = wn_json_doc_parse (text, -1, NULL, &error);
  JsonObject *root;
  JsonArray *b;
  JsonNode *c;
  WnJsonPos pos = { 0 };

  g_assert_no_error (error);
  root = json_node_get_object (wn_json_doc_get_root (doc));

  g_assert_true (wn_json_doc_get_pos (doc, wn_json_doc_get_root (doc), &pos));
  g_assert_cmpuint (pos.line, ==, 1);
  g_assert_cmpuint (pos.column, ==, 1);

  g_assert_true (wn_json_doc_get_key_pos (doc, root, "é", &pos));
  g_assert_cmpuint (pos.line, ==, 2);
  g_assert_cmpuint (pos.column, ==, 3);
  g_assert_true (wn_json_doc_get_pos (doc, json_object_get_member (root, "é"), &pos));
  g_assert_cmpuint (pos.line, ==, 2);
  g_assert_cmpuint (pos.column, ==, 8);

  /* A tab is one character. */
  g_assert_true (wn_json_doc_get_key_pos (doc, root, "b", &pos));
  g_assert_cmpuint (pos.line, ==, 3);
  g_assert_cmpuint (pos.column, ==, 2);

  b = json_object_get_array_member (root, "b");
  g_assert_true (wn_json_doc_get_pos (doc, json_array_get_element (b, 1), &pos));
  g_assert_cmpuint (pos.line, ==, 4);
  g_assert_cmpuint (pos.column, ==, 5);

  /* Inside a string: escapes take their written width. "a\"é b" starts at 4:11. */
  c = json_object_get_member (json_node_get_object (json_array_get_element (b, 1)), "c");
  g_assert_true (wn_json_doc_get_pos (doc, c, &pos));
  g_assert_cmpuint (pos.column, ==, 11);
  g_assert_true (wn_json_doc_get_string_pos (doc, c, 0, &pos));
  g_assert_cmpuint (pos.column, ==, 12);   /* a */
  g_assert_true (wn_json_doc_get_string_pos (doc, c, 1, &pos));
  g_assert_cmpuint (pos.column, ==, 13);   /* \" */
  g_assert_true (wn_json_doc_get_string_pos (doc, c, 2, &pos));
  g_assert_cmpuint (pos.column, ==, 15);   /* é, first byte */
  g_assert_true (wn_json_doc_get_string_pos (doc, c, 3, &pos));
  g_assert_cmpuint (pos.column, ==, 15);   /* é, second byte */
  g_assert_true (wn_json_doc_get_string_pos (doc, c, 4, &pos));
  g_assert_cmpuint (pos.column, ==, 16);   /* space */
  g_assert_true (wn_json_doc_get_string_pos (doc, c, 99, &pos));
  g_assert_cmpuint (pos.column, ==, 18);   /* the closing quote */
  g_assert_false (wn_json_doc_get_string_pos (doc, json_array_get_element (b, 0), 0, &pos));

  wn_json_doc_free (doc);
}

static void
test_json_errors (void)
{
  g_autoptr(GString) deep = g_string_new (NULL);
  g_autoptr(GString) ok_deep = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  WnJsonDoc *doc;

  json_error ("{\"a\": [1, 2]]", -1, 1, 13, WN_JSON_ERROR_SYNTAX, "expected ',' or '}' but found ']'");
  json_error ("", -1, 1, 1, WN_JSON_ERROR_SYNTAX, "expected a value but found end of input");
  json_error ("  \n  tru", -1, 2, 3, WN_JSON_ERROR_SYNTAX, "expected a value but found 'tru'");
  json_error ("[1,]", -1, 1, 4, WN_JSON_ERROR_SYNTAX, "expected a value but found ']'");
  json_error ("[", -1, 1, 2, WN_JSON_ERROR_SYNTAX, "expected a value or ']' but found end of input");
  json_error ("{\"a\":1,}", -1, 1, 8, WN_JSON_ERROR_SYNTAX, "expected a string key but found '}'");
  json_error ("{'a':1}", -1, 1, 2, WN_JSON_ERROR_SYNTAX, "expected a string key or '}' but found '''");
  json_error ("{\"k\" 1}", -1, 1, 6, WN_JSON_ERROR_SYNTAX, "expected ':' but found '1'");
  json_error ("[1 2]", -1, 1, 4, WN_JSON_ERROR_SYNTAX, "expected ',' or ']' but found '2'");
  json_error ("1 2", -1, 1, 3, WN_JSON_ERROR_SYNTAX, "expected end of input but found '2'");
  json_error ("{\"a\":1,\n \"a\":2}", -1, 2, 2, WN_JSON_ERROR_DUPLICATE_KEY, "duplicate key \"a\" (first at 1:2)");
  json_error ("\"\\ud83d\"", -1, 1, 2, WN_JSON_ERROR_SYNTAX, "unpaired surrogate \\uD83D");
  json_error ("\"\\ude00\"", -1, 1, 2, WN_JSON_ERROR_SYNTAX, "unpaired surrogate \\uDE00");
  json_error ("\"\\u12G4\"", -1, 1, 6, WN_JSON_ERROR_SYNTAX, "expected a hex digit but found 'G4'");
  json_error ("\"\\u0000\"", -1, 1, 2, WN_JSON_ERROR_SYNTAX, "\\u0000 is not supported in strings");
  json_error ("\"\\x\"", -1, 1, 2, WN_JSON_ERROR_SYNTAX, "invalid escape '\\x'");
  json_error ("\"a\nb\"", -1, 1, 3, WN_JSON_ERROR_SYNTAX,
              "control character U+000A in a string (write it as an escape)");
  json_error ("\"abc", -1, 1, 5, WN_JSON_ERROR_SYNTAX, "expected '\"' but found end of input");
  json_error ("01", -1, 1, 1, WN_JSON_ERROR_SYNTAX, "a number cannot start with 0 followed by digits");
  json_error ("-", -1, 1, 2, WN_JSON_ERROR_SYNTAX, "expected a digit but found end of input");
  json_error ("1.", -1, 1, 3, WN_JSON_ERROR_SYNTAX, "expected a digit after '.' but found end of input");
  json_error ("1e+", -1, 1, 4, WN_JSON_ERROR_SYNTAX, "expected a digit in the exponent but found end of input");
  json_error ("[1e999]", -1, 1, 2, WN_JSON_ERROR_RANGE, "number 1e999 is out of range");
  json_error ("[é]", -1, 1, 2, WN_JSON_ERROR_SYNTAX, "expected a value or ']' but found 'é'");
  json_error ("[nulll]", -1, 1, 2, WN_JSON_ERROR_SYNTAX, "expected a value or ']' but found 'nulll'");
  json_error ("[1] // no comments", -1, 1, 5, WN_JSON_ERROR_SYNTAX, "expected end of input but found '/'");
  json_error ("[\"ab\xff\"]", -1, 1, 5, WN_JSON_ERROR_ENCODING, "invalid UTF-8 (byte 0xFF)");
  json_error ("[1,\0]", 5, 1, 4, WN_JSON_ERROR_ENCODING, "NUL byte in the document");

  /* Nesting is capped: 512 levels parse, 513 do not. */
  for (guint i = 0; i < WN_JSON_MAX_DEPTH; i++)
    g_string_append_c (ok_deep, '[');
  for (guint i = 0; i < WN_JSON_MAX_DEPTH; i++)
    g_string_append_c (ok_deep, ']');
  doc = wn_json_doc_parse (ok_deep->str, -1, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (doc);
  wn_json_doc_free (doc);

  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  json_error (deep->str, -1, 1, WN_JSON_MAX_DEPTH + 1, WN_JSON_ERROR_TOO_DEEP, "nesting deeper than 512 levels");
}

static void
test_json_bom_and_copy (void)
{
  g_autoptr(GError) error = NULL;
  WnJsonDoc *doc = wn_json_doc_parse ("\xEF\xBB\xBF{\"a\": [1, {\"b\": \"c\"}]}", -1, NULL, &error);
  g_autoptr(JsonNode) copy = NULL;
  g_autofree char *text = NULL;
  WnJsonPos pos = { 0 };

  g_assert_no_error (error);
  g_assert_true (wn_json_doc_get_pos (doc, wn_json_doc_get_root (doc), &pos));
  g_assert_cmpuint (pos.column, ==, 1);

  copy = wn_json_node_deep_copy (wn_json_doc_get_root (doc));
  wn_json_doc_free (doc);
  text = json_to_string (copy, FALSE);
  g_assert_cmpstr (text, ==, "{\"a\":[1,{\"b\":\"c\"}]}");
}

/* wn_load_json_data(): one value, as strictly as a file, with the place of a problem. */
static void
test_json_data (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) diags = NULL;
  g_autoptr(JsonNode) value = NULL;
  g_autofree char *text = NULL;
  const WnDiagnostic *d;

  value = wn_load_json_data ("[1, {\"b\": \"c\"}]", -1, NULL, &diags, &error);
  g_assert_no_error (error);
  g_assert_null (diags);
  text = json_to_string (value, FALSE);
  g_assert_cmpstr (text, ==, "[1,{\"b\":\"c\"}]");
  g_clear_pointer (&value, json_node_unref);

  value = wn_load_json_data ("\"DECLINED\"", -1, "status", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_node_get_string (value), ==, "DECLINED");
  g_clear_pointer (&value, json_node_unref);

  value = wn_load_json_data ("{\"a\": 1,\n \"a\": 2}", -1, "body", &diags, &error);
  g_assert_null (value);
  g_assert_error (error, WN_LOAD_ERROR, WN_LOAD_ERROR_SYNTAX);
  g_assert_nonnull (diags);
  g_assert_cmpuint (diags->len, ==, 1);
  d = g_ptr_array_index (diags, 0);
  g_assert_cmpuint (d->line, ==, 2);
  g_assert_cmpuint (d->column, ==, 2);
  g_assert_cmpstr (d->file, ==, "body");
  g_assert_cmpstr (error->message, ==, "body:2:2: duplicate key \"a\" (first at 1:2)");
  g_clear_error (&error);
  g_clear_pointer (&diags, g_ptr_array_unref);

  value = wn_load_json_data ("[1,]", -1, NULL, &diags, &error);
  g_assert_null (value);
  g_assert_error (error, WN_LOAD_ERROR, WN_LOAD_ERROR_SYNTAX);
  g_assert_cmpuint (((WnDiagnostic *) g_ptr_array_index (diags, 0))->column, ==, 4);
}

/* ---- the shared examples -------------------------------------------------- */

static void
check_example_process (WnProcess *process)
{
  const WnNode *reserve = wn_process_find_node (process, "reserve-stock");
  const WnNode *authorize = wn_process_find_node (process, "authorize-payment");
  const WnNode *boundary = wn_process_find_node (process, "gateway-down");
  const WnNode *status = wn_process_find_node (process, "status");
  const WnFlow *f1 = wn_process_find_flow (process, "f1");
  const WnOutputRule *rule;
  JsonObject *order;

  g_assert_cmpstr (process->name, ==, "Order fulfilment");
  g_assert_cmpstr (process->about, ==,
                   "The worked example of SRD-039 FR-9: retries, mapping, status and a caught BPMN error.");
  g_assert_cmpuint (process->n_nodes, ==, 8);
  g_assert_cmpuint (process->n_flows, ==, 6);
  g_assert_cmpuint (process->start, ==, 0);
  g_assert_cmpint (process->nodes[process->start].type, ==, WN_NODE_START);

  order = json_object_get_object_member (process->variables, "order");
  g_assert_nonnull (order);
  g_assert_cmpstr (json_object_get_string_member (order, "id"), ==, "A-1");
  g_assert_cmpint (json_object_get_int_member (order, "amount"), ==, 50);

  /* Engine block absent: nothing set. */
  g_assert_cmpint (process->engine.policy.trust, ==, WN_TRUST_UNSET);
  g_assert_false (process->engine.policy.has_retry);
  g_assert_null (process->engine.policy.mapper);
  g_assert_false (process->engine.has_max_lock);
  g_assert_cmpint (process->engine.on_exhausted, ==, WN_ON_EXHAUSTED_UNSET);

  g_assert_nonnull (reserve);
  g_assert_cmpint (reserve->type, ==, WN_NODE_SERVICE);
  g_assert_cmpstr (reserve->name, ==, "Reserve stock");
  g_assert_nonnull (reserve->worker);
  g_assert_cmpstr (reserve->worker->topic, ==, "reserve");
  g_assert_nonnull (reserve->worker->input);
  g_assert_cmpuint (reserve->worker->input->len, ==, 1);
  g_assert_cmpstr (((WnPath *) g_ptr_array_index (reserve->worker->input, 0))->head, ==, "order");
  g_assert_true (reserve->worker->policy.has_retry);
  g_assert_cmpint (reserve->worker->policy.retry.kind, ==, WN_RETRY_FIXED);
  g_assert_cmpuint (reserve->worker->policy.retry.max_attempts, ==, 3);
  g_assert_cmpint (reserve->worker->policy.retry.delay, ==, MS (300));
  g_assert_cmpint (reserve->worker->policy.trust, ==, WN_TRUST_UNSET);
  g_assert_null (reserve->worker->policy.mapper);
  g_assert_nonnull (reserve->worker->policy.mapping);
  g_assert_cmpuint (wn_output_mapping_get_n_rules (reserve->worker->policy.mapping), ==, 2);
  rule = wn_output_mapping_get_rule (reserve->worker->policy.mapping, 0);
  g_assert_cmpstr (rule->var, ==, "reservationId");
  g_assert_true (rule->required);
  g_assert_cmpstr (wn_lite_get_source (rule->path), ==, "body.reservationId");
  rule = wn_output_mapping_get_rule (reserve->worker->policy.mapping, 1);
  g_assert_cmpstr (rule->var, ==, "warehouseZone");
  g_assert_false (rule->required);
  g_assert_cmpstr (reserve->worker->output_var, ==, "reserve-stock");   /* default: the node id */
  g_assert_null (reserve->worker->status_var);

  g_assert_nonnull (authorize);
  g_assert_cmpstr (authorize->worker->status_var, ==, "paymentStatus");
  g_assert_false (authorize->worker->status_overwrite);
  g_assert_false (authorize->worker->policy.has_retry);
  g_assert_cmpuint (authorize->boundaries->len, ==, 1);
  g_assert_cmpuint (g_array_index (authorize->boundaries, guint, 0), ==, boundary->index);

  g_assert_cmpint (boundary->type, ==, WN_NODE_BOUNDARY);
  g_assert_cmpint (boundary->attached_to, ==, (int) authorize->index);
  g_assert_cmpstr (boundary->error_code, ==, "PaymentGatewayDown");
  g_assert_cmpuint (boundary->outgoing->len, ==, 1);
  g_assert_cmpuint (boundary->incoming->len, ==, 0);

  g_assert_cmpint (status->type, ==, WN_NODE_EXCLUSIVE);
  g_assert_cmpint (status->default_flow, ==, flow_index (process, "to-held"));
  g_assert_cmpuint (status->outgoing->len, ==, 2);
  /* Document order. */
  g_assert_cmpuint (g_array_index (status->outgoing, guint, 0), ==, (guint) flow_index (process, "to-shipped"));
  g_assert_cmpuint (g_array_index (status->outgoing, guint, 1), ==, (guint) flow_index (process, "to-held"));
  g_assert_cmpstr (wn_lite_get_source (process->flows[flow_index (process, "to-shipped")].condition), ==,
                   "paymentStatus == 'AUTHORIZED'");
  g_assert_null (process->flows[flow_index (process, "to-held")].condition);

  g_assert_cmpuint (f1->from, ==, 0);
  g_assert_cmpuint (f1->to, ==, reserve->index);
  g_assert_cmpuint (reserve->incoming->len, ==, 1);
  g_assert_cmpuint (wn_process_find_node (process, "held")->incoming->len, ==, 1);
  g_assert_null (wn_process_find_node (process, "nope"));
  g_assert_null (wn_process_find_flow (process, "nope"));
}

static void
check_example_scenario (WnScenario *scenario)
{
  const WnStartSpec *start;
  WnWorkerConfig *inventory;
  WnWorkerConfig *payments;
  WnResponse *r;

  g_assert_true (scenario->has_seed);
  g_assert_cmpuint (scenario->seed, ==, 7);
  g_assert_true (scenario->has_start);
  g_assert_cmpuint (scenario->start->len, ==, 3);
  start = &g_array_index (scenario->start, WnStartSpec, 1);
  g_assert_cmpint (start->at, ==, 0);
  g_assert_cmpuint (start->count, ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (start->variables, "order"), "id"),
                   ==, "over-limit");
  g_assert_cmpuint (scenario->faults->len, ==, 0);

  g_assert_cmpuint (scenario->workers->len, ==, 2);
  inventory = g_ptr_array_index (scenario->workers, 0);
  g_assert_cmpstr (inventory->id, ==, "inventory");
  g_assert_cmpstr (inventory->topic, ==, "reserve");
  g_assert_cmpuint (inventory->concurrency, ==, 3);
  g_assert_false (inventory->has_lock_duration);
  g_assert_cmpuint (inventory->responses->len, ==, 2);
  r = g_ptr_array_index (inventory->responses, 0);
  g_assert_cmpint (r->kind, ==, WN_RESPONSE_FAIL);
  g_assert_cmpuint (r->attempts_lo, ==, 1);
  g_assert_cmpuint (r->attempts_hi, ==, 2);
  g_assert_cmpint (r->after, ==, MS (100));
  g_assert_cmpstr (r->message, ==, "inventory timeout");
  g_assert_null (r->code);
  r = g_ptr_array_index (inventory->responses, 1);
  g_assert_cmpint (r->kind, ==, WN_RESPONSE_COMPLETE);
  g_assert_cmpuint (r->attempts_lo, ==, 0);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (r->body), "reservationId"), ==, "R-1001");

  payments = g_ptr_array_index (scenario->workers, 1);
  g_assert_cmpuint (payments->responses->len, ==, 3);
  r = g_ptr_array_index (payments->responses, 0);
  g_assert_cmpint (r->kind, ==, WN_RESPONSE_WORKER_ERROR);
  g_assert_cmpstr (r->bpmn_code, ==, "PaymentGatewayDown");
  g_assert_cmpstr (r->message, ==, "payment gateway down");
  g_assert_cmpstr (wn_lite_get_source (r->when), ==, "input.order.amount < 0");
  r = g_ptr_array_index (payments->responses, 2);
  g_assert_cmpint (r->kind, ==, WN_RESPONSE_WORKER_ERROR);
  g_assert_null (r->bpmn_code);
  g_assert_cmpstr (json_node_get_string (r->status), ==, "AUTHORIZED");
  g_assert_null (r->when);
}

static void
test_examples (void)
{
  g_autofree char *process_path = wn_test_source_path ("engine/data/order-fulfilment.process.json");
  g_autofree char *scenario_path = wn_test_source_path ("engine/data/order-fulfilment.scenario.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) diags = NULL;
  g_autoptr(WnProcess) process = NULL;
  g_autoptr(WnScenario) scenario = NULL;

  process = wn_load_process_file (process_path, &diags, &error);
  g_assert_no_error (error);
  g_assert_nonnull (process);
  g_assert_null (diags);
  g_assert_cmpstr (process->filename, ==, process_path);
  g_assert_cmpstr (process->id, ==, "order-fulfilment");
  g_assert_null (process->scenario);
  check_example_process (process);

  scenario = wn_load_scenario_file (scenario_path, &diags, &error);
  g_assert_no_error (error);
  g_assert_nonnull (scenario);
  g_assert_cmpstr (scenario->filename, ==, scenario_path);
  check_example_scenario (scenario);
}

static void
test_embedded_scenario (void)
{
  g_autofree char *path = wn_test_source_path ("engine/data/order-fulfilment.embedded.process.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(WnProcess) process = wn_load_process_file (path, NULL, &error);
  g_autofree char *errors = NULL;

  g_assert_no_error (error);
  g_assert_nonnull (process);
  g_assert_cmpstr (process->id, ==, "order-fulfilment-embedded");
  check_example_process (process);
  g_assert_nonnull (process->scenario);
  check_example_scenario (process->scenario);

  /* Errors inside an embedded scenario carry the "scenario." prefix; its format is optional. */
  errors = process_errors (HEAD
    "`nodes`: [{`id`: `s`, `type`: `startEvent`}, {`id`: `e`, `type`: `endEvent`}],\n"
    "`flows`: [{`id`: `f`, `from`: `s`, `to`: `e`}],\n"
    "`scenario`: {`seed`: -1, `workers`: [{`id`: `w`, `topic`: `t`, `responses`: [{`crash`: false}]}]}}");
  g_assert_cmpstr (errors, ==,
    "t.json:4:22: scenario.seed: must be a whole number from 0 to 9223372036854775807\n"
    "t.json:4:88: scenario.workers[0].responses[0].crash: must be true");
}

static void
test_io_error (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) diags = NULL;
  g_autofree char *text = NULL;

  g_assert_null (wn_load_process_file ("/nonexistent/x.json", &diags, &error));
  g_assert_error (error, WN_LOAD_ERROR, WN_LOAD_ERROR_IO);
  g_assert_nonnull (diags);
  g_assert_cmpuint (diags->len, ==, 1);
  text = wn_diagnostic_format (g_ptr_array_index (diags, 0));
  g_assert_true (g_str_has_prefix (text, "/nonexistent/x.json: cannot read the file: "));
}

/* Devices are refused unread; files beyond the limit are refused by size. */
static void
test_input_limits (void)
{
  g_autofree char *path = wn_test_source_path ("engine/data/order-fulfilment.process.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) diags = NULL;
  g_autoptr(WnProcess) process = NULL;
  g_autoptr(WnScenario) scenario = NULL;
  g_autofree char *text = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;

  /* /dev/zero has no end: it must not be read at all */
  g_assert_null (wn_load_process_file ("/dev/zero", &diags, &error));
  g_assert_error (error, WN_LOAD_ERROR, WN_LOAD_ERROR_IO);
  text = wn_diagnostic_format (g_ptr_array_index (diags, 0));
  g_assert_cmpstr (text, ==, "/dev/zero: cannot read the file: it is a character device; "
                             "only regular files and pipes are read");
  g_clear_error (&error);
  g_clear_pointer (&diags, g_ptr_array_unref);
  g_assert_null (wn_load_scenario_file ("/dev/zero", NULL, &error));
  g_assert_error (error, WN_LOAD_ERROR, WN_LOAD_ERROR_IO);
  g_clear_error (&error);

  g_assert_null (wn_load_process_file ("/", NULL, &error));
  g_assert_error (error, WN_LOAD_ERROR, WN_LOAD_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "it is a directory"));
  g_clear_error (&error);

  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  g_assert_null (wn_load_process_file_full (path, length - 1, &diags, &error));
  g_assert_error (error, WN_LOAD_ERROR, WN_LOAD_ERROR_TOO_LARGE);
  g_assert_cmpuint (diags->len, ==, 1);
  g_clear_error (&error);
  g_clear_pointer (&diags, g_ptr_array_unref);
  process = wn_load_process_file_full (path, length, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (process);
  g_assert_null (wn_load_scenario_file_full (path, 10, NULL, &error));
  g_assert_error (error, WN_LOAD_ERROR, WN_LOAD_ERROR_TOO_LARGE);
  g_assert_cmpuint (WN_LOAD_DEFAULT_MAX_SIZE, ==, 64 * 1024 * 1024);
}

/* ---- process errors ------------------------------------------------------ */

static void
test_syntax_error (void)
{
  guint n = 0;
  g_autofree char *errors = load_errors_full (LOAD_PROCESS,
    "{`format`: `winnow.process/1`,\n"
    "  `nodes`: [\n"
    "    {`id`: `s`, `type`: `startEvent`},\n"
    "    {`id`: `e`, `type`: `endEvent`]\n"
    "}", WN_LOAD_ERROR_SYNTAX, &n);

  /* Only the first syntax error, even though the document also lacks an id. */
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpstr (errors, ==, "t.json:4:35: expected ',' or '}' but found ']'");

  g_clear_pointer (&errors, g_free);
  errors = load_errors_full (LOAD_SCENARIO, "{`a`: 1, `a`: 2}", WN_LOAD_ERROR_SYNTAX, NULL);
  g_assert_cmpstr (errors, ==, "t.json:1:10: duplicate key \"a\" (first at 1:2)");
}

static void
test_not_an_object (void)
{
  g_autofree char *e1 = process_errors ("[1]");
  g_autofree char *e2 = scenario_errors ("\n  `x`");
  g_autofree char *e3 = process_errors ("{`format`: `winnow.scenario/1`, `nonsense`: 1}");
  g_autofree char *e4 = scenario_errors ("{`format`: `winnow.scenario/2`}");
  g_autofree char *e5 = process_errors ("{}");

  g_assert_cmpstr (e1, ==, "t.json:1:1: a process must be a JSON object, not an array");
  g_assert_cmpstr (e2, ==, "t.json:2:3: a scenario must be a JSON object, not a string");
  /* A wrong format stops there: nothing else is reported. */
  g_assert_cmpstr (e3, ==, "t.json:1:12: format: must be \"winnow.process/1\" (this is a scenario)");
  g_assert_cmpstr (e4, ==, "t.json:1:12: format: must be \"winnow.scenario/1\", not \"winnow.scenario/2\"");
  g_assert_cmpstr (e5, ==,
    "t.json:1:1: missing required key \"format\"\n"
    "t.json:1:1: missing required key \"id\"\n"
    "t.json:1:1: missing required key \"nodes\"");
}

static void
test_unknown_keys (void)
{
  g_autofree char *errors = process_errors (HEAD
    "`colour`: `red`, `x-note`: {`anything`: [1, 2]},\n"
    "`nodes`: [\n"
    "  {`id`: `s`, `type`: `startEvent`, `x-pos`: [10, 20], `duration`: `1s`},\n"
    "  {`id`: `e`, `type`: `endEvent`, `duraton`: `1s`}\n"
    "],\n"
    "`flows`: [{`id`: `f`, `from`: `s`, `to`: `e`, `x-label`: `go`, `lable`: `go`}]}");

  g_assert_cmpstr (errors, ==,
    "t.json:2:1: colour: unknown key \"colour\"\n"
    "t.json:4:56: nodes[0].duration: key \"duration\" does not apply to a startEvent\n"
    "t.json:5:35: nodes[1].duraton: unknown key \"duraton\"\n"
    "t.json:7:64: flows[0].lable: unknown key \"lable\"");
}

static void
test_x_keys_accepted (void)
{
  g_autoptr(WnProcess) process = process_ok (HEAD
    "`x-about`: `what it is`, `x-editor`: {`zoom`: 2},\n"
    "`nodes`: [{`id`: `s`, `type`: `startEvent`, `x-pos`: [1, 2]},\n"
    "          {`id`: `e`, `type`: `endEvent`, `x-`: null}],\n"
    "`flows`: [{`id`: `f`, `from`: `s`, `to`: `e`, `x-label`: `go`}],\n"
    "`engine`: {`x-comment`: `defaults`}}");

  g_assert_cmpstr (process->about, ==, "what it is");
  g_assert_cmpuint (process->n_nodes, ==, 2);
  g_assert_null (process->name);
  g_assert_nonnull (process->variables);
  g_assert_cmpuint (json_object_get_size (process->variables), ==, 0);
}

static void
test_node_errors (void)
{
  g_autofree char *errors = process_errors (HEAD
    "`nodes`: [\n"
    "  {`id`: `s`, `type`: `startEvent`},\n"
    "  {`id`: `u`, `type`: `sendTask`, `form`: 1},\n"
    "  {`id`: `s`, `type`: `task`},\n"
    "  {`id`: `a b`, `type`: `task`},\n"
    "  {`type`: `task`},\n"
    "  {`id`: `t`, `type`: `timerEvent`},\n"
    "  42,\n"
    "  {`id`: `e`, `type`: `endEvent`, `error`: ``}\n"
    "],\n"
    "`flows`: []}");

  g_assert_cmpstr (errors, ==,
    "t.json:4:23: nodes[1].type: unknown node type \"sendTask\" (expected startEvent, endEvent, task, "
    "scriptTask, serviceTask, manualTask, boundaryEvent, exclusiveGateway, parallelGateway, timerEvent, "
    "intermediateThrowEvent, subProcess, userTask, messageEvent, receiveTask or eventBasedGateway)\n"
    "t.json:5:10: nodes[2].id: duplicate id \"s\" (first used at nodes[0].id)\n"
    "t.json:6:10: nodes[3].id: \"a b\" is not an identifier (use letters, digits and _ . : -)\n"
    "t.json:7:3: nodes[4]: missing required key \"id\"\n"
    "t.json:8:3: nodes[5]: missing required key \"duration\"\n"
    "t.json:9:3: nodes[6]: must be an object, not a number\n"
    "t.json:10:44: nodes[7].error: must not be empty");
}

static void
test_flow_errors (void)
{
  g_autofree char *errors = process_errors (HEAD
    "`nodes`: [\n"
    "  {`id`: `s`, `type`: `startEvent`},\n"
    "  {`id`: `t`, `type`: `task`},\n"
    "  {`id`: `e`, `type`: `endEvent`}\n"
    "],\n"
    "`flows`: [\n"
    "  {`id`: `f1`, `from`: `s`, `to`: `t`},\n"
    "  {`id`: `f2`, `from`: `t`, `to`: `nowhere`},\n"
    "  {`id`: `f3`, `from`: `t`, `to`: `s`},\n"
    "  {`id`: `f4`, `from`: `e`, `to`: `t`},\n"
    "  {`id`: `t`, `from`: `t`, `to`: `e`},\n"
    "  {`id`: `f5`, `from`: `t`}\n"
    "]}");

  g_assert_cmpstr (errors, ==,
    "t.json:9:35: flows[1].to: unknown node \"nowhere\"\n"
    "t.json:10:35: flows[2].to: a startEvent cannot have incoming flows (\"s\" is the startEvent)\n"
    "t.json:11:24: flows[3].from: an endEvent cannot have outgoing flows (\"e\" is an endEvent)\n"
    "t.json:12:10: flows[4].id: duplicate id \"t\" (first used at nodes[1].id)\n"
    "t.json:13:3: flows[5]: missing required key \"to\"");
}

static void
test_start_and_end (void)
{
  g_autofree char *none = process_errors (HEAD
    "`nodes`: [{`id`: `t`, `type`: `task`}]}");
  g_autofree char *two = process_errors (HEAD
    "`nodes`: [\n"
    "  {`id`: `s1`, `type`: `startEvent`},\n"
    "  {`id`: `s2`, `type`: `startEvent`},\n"
    "  {`id`: `e`, `type`: `endEvent`}\n"
    "],\n"
    "`flows`: [{`id`: `f1`, `from`: `s1`, `to`: `e`}, {`id`: `f2`, `from`: `s2`, `to`: `e`}]}");

  g_assert_cmpstr (none, ==,
    "t.json:2:10: nodes: no startEvent (exactly one is needed)\n"
    "t.json:2:10: nodes: no endEvent (at least one is needed)");
  g_assert_cmpstr (two, ==,
    "t.json:4:24: nodes[1].type: a second startEvent (the first is nodes[0]; exactly one is allowed)");
}

static void
test_unreachable (void)
{
  g_autofree char *errors = process_errors (HEAD
    "`nodes`: [\n"
    "  {`id`: `s`, `type`: `startEvent`},\n"
    "  {`id`: `work`, `type`: `task`},\n"
    "  {`id`: `oops`, `type`: `boundaryEvent`, `attachedTo`: `work`, `error`: `E`},\n"
    "  {`id`: `island`, `type`: `task`},\n"
    "  {`id`: `lost`, `type`: `boundaryEvent`, `attachedTo`: `island`, `error`: `E`},\n"
    "  {`id`: `e`, `type`: `endEvent`}\n"
    "],\n"
    "`flows`: [\n"
    "  {`id`: `f1`, `from`: `s`, `to`: `work`},\n"
    "  {`id`: `f2`, `from`: `work`, `to`: `e`},\n"
    "  {`id`: `f3`, `from`: `oops`, `to`: `e`},\n"
    "  {`id`: `f4`, `from`: `island`, `to`: `e`}\n"
    "]}");

  /* A boundary is reached with its task; one on an unreachable task is unreachable too. */
  g_assert_cmpstr (errors, ==,
    "t.json:6:3: nodes[3]: node \"island\" is unreachable from the start event\n"
    "t.json:7:3: nodes[4]: node \"lost\" is unreachable from the start event");
}

static void
test_boundary_and_default (void)
{
  g_autofree char *errors = process_errors (HEAD
    "`nodes`: [\n"
    "  {`id`: `s`, `type`: `startEvent`},\n"
    "  {`id`: `g`, `type`: `exclusiveGateway`, `default`: `f1`},\n"
    "  {`id`: `g2`, `type`: `exclusiveGateway`, `default`: `nope`},\n"
    "  {`id`: `b1`, `type`: `boundaryEvent`, `attachedTo`: `ghost`, `error`: `E`},\n"
    "  {`id`: `b2`, `type`: `boundaryEvent`, `attachedTo`: `g`, `error`: `E`},\n"
    "  {`id`: `b3`, `type`: `boundaryEvent`, `error`: `E`},\n"
    "  {`id`: `e`, `type`: `endEvent`}\n"
    "],\n"
    "`flows`: [\n"
    "  {`id`: `f1`, `from`: `s`, `to`: `g`},\n"
    "  {`id`: `f2`, `from`: `g`, `to`: `g2`},\n"
    "  {`id`: `f3`, `from`: `g2`, `to`: `e`}\n"
    "]}");

  g_assert_cmpstr (errors, ==,
    "t.json:4:54: nodes[1].default: flow \"f1\" does not leave this gateway (it leaves \"s\")\n"
    "t.json:5:55: nodes[2].default: unknown flow \"nope\"\n"
    "t.json:6:55: nodes[3].attachedTo: unknown node \"ghost\"\n"
    "t.json:7:55: nodes[4].attachedTo: a boundaryEvent attaches to a task, scriptTask, serviceTask, manualTask, userTask, "
    "receiveTask or subProcess "
    "(\"g\" is an exclusiveGateway)\n"
    "t.json:8:3: nodes[5]: missing required key \"attachedTo\"");
}

static void
test_lite_errors (void)
{
  /* The column points into the expression: the byte offset of the problem is converted to
   * characters ("é" is two bytes, one column). */
  g_autofree char *errors = process_errors (HEAD
    "`nodes`: [\n"
    "  {`id`: `s`, `type`: `startEvent`},\n"
    "  {`id`: `g`, `type`: `exclusiveGateway`},\n"
    "  {`id`: `calc`, `type`: `scriptTask`, `set`: {`total`: `a +`, `ok`: `true`, `x-c`: 1, `a.b`: `1`}},\n"
    "  {`id`: `e`, `type`: `endEvent`}\n"
    "],\n"
    "`flows`: [\n"
    "  {`id`: `f1`, `from`: `s`, `to`: `g`},\n"
    "  {`id`: `f2`, `from`: `g`, `to`: `calc`, `condition`: `name == 'é' and (`},\n"
    "  {`id`: `f3`, `from`: `g`, `to`: `e`, `condition`: `nope(1)`},\n"
    "  {`id`: `f4`, `from`: `calc`, `to`: `e`, `condition`: `true`}\n"
    "]}");

  g_assert_cmpstr (errors, ==,
    "t.json:5:61: nodes[2].set.total: at 3: expected a value but found end of input\n"
    "t.json:5:88: nodes[2].set[\"a.b\"]: \"a.b\" is not a variable name\n"
    "t.json:10:74: flows[1].condition: at 18: expected a value but found end of input\n"
    "t.json:11:54: flows[2].condition: at 0: expected has, len or time but found unknown function 'nope'\n"
    "t.json:12:56: flows[3].condition: a condition only applies to a flow leaving an exclusiveGateway");
}

static void
test_script_set_order (void)
{
  g_autoptr(WnProcess) process = process_ok (HEAD
    "`nodes`: [{`id`: `s`, `type`: `startEvent`},\n"
    "  {`id`: `calc`, `type`: `scriptTask`, `duration`: 250, `set`: {`z`: `1`, `a`: `z + 1`, `m`: `a * 2`}},\n"
    "  {`id`: `e`, `type`: `endEvent`, `error`: `Boom`}],\n"
    "`flows`: [{`id`: `f1`, `from`: `s`, `to`: `calc`}, {`id`: `f2`, `from`: `calc`, `to`: `e`}]}");
  const WnNode *calc = wn_process_find_node (process, "calc");

  g_assert_cmpuint (calc->n_set, ==, 3);
  g_assert_cmpstr (calc->set[0].var, ==, "z");
  g_assert_cmpstr (calc->set[1].var, ==, "a");
  g_assert_cmpstr (wn_lite_get_source (calc->set[1].expr), ==, "z + 1");
  g_assert_cmpstr (calc->set[2].var, ==, "m");
  g_assert_cmpint (calc->duration, ==, MS (250));
  g_assert_cmpstr (wn_process_find_node (process, "e")->error_code, ==, "Boom");
}

static void
test_duration_errors (void)
{
  g_autofree char *errors = process_errors (HEAD
    "`engine`: {`maxLock`: `0s`},\n"
    "`nodes`: [\n"
    "  {`id`: `s`, `type`: `startEvent`},\n"
    "  {`id`: `t1`, `type`: `timerEvent`, `duration`: `5x`},\n"
    "  {`id`: `t2`, `type`: `timerEvent`, `duration`: `-5s`},\n"
    "  {`id`: `t3`, `type`: `timerEvent`, `duration`: true},\n"
    "  {`id`: `e`, `type`: `endEvent`}\n"
    "],\n"
    "`flows`: [{`id`: `f1`, `from`: `s`, `to`: `t1`}, {`id`: `f2`, `from`: `t1`, `to`: `t2`},\n"
    "          {`id`: `f3`, `from`: `t2`, `to`: `t3`}, {`id`: `f4`, `from`: `t3`, `to`: `e`}]}");
  g_auto(GStrv) lines = g_strsplit (errors, "\n", -1);

  g_assert_cmpuint (g_strv_length (lines), ==, 4);
  g_assert_cmpstr (lines[0], ==, "t.json:2:23: engine.maxLock: must be longer than 0");
  /* The messages themselves come from the duration parser. */
  g_assert_true (g_str_has_prefix (lines[1], "t.json:5:50: nodes[1].duration: "));
  g_assert_nonnull (strstr (lines[1], "5x"));
  g_assert_true (g_str_has_prefix (lines[2], "t.json:6:50: nodes[2].duration: "));
  g_assert_nonnull (strstr (lines[2], "negative"));
  g_assert_cmpstr (lines[3], ==,
    "t.json:7:50: nodes[3].duration: must be a duration (a string such as \"250ms\" or \"PT2S\", "
    "or a number of milliseconds), not a boolean");
}

static void
test_worker_errors (void)
{
  g_autofree char *errors = process_errors (HEAD
    "`nodes`: [\n"
    "  {`id`: `s`, `type`: `startEvent`},\n"
    "  {`id`: `w`, `type`: `serviceTask`, `duration`: `1s`, `worker`: {\n"
    "    `topic`: `has space`,\n"
    "    `input`: [`order`, `items[`, 3],\n"
    "    `trust`: `paranoid`,\n"
    "    `retry`: {`policy`: `fixed`, `maxAttempts`: 0, `delay`: `1s`, `base`: `1s`},\n"
    "    `status`: {`overwrite`: 1},\n"
    "    `output`: ``\n"
    "  }},\n"
    "  {`id`: `e`, `type`: `endEvent`}\n"
    "],\n"
    "`flows`: [{`id`: `f1`, `from`: `s`, `to`: `w`}, {`id`: `f2`, `from`: `w`, `to`: `e`}]}");

  g_assert_cmpstr (errors, ==,
    "t.json:4:50: nodes[1].duration: a serviceTask with a worker takes no duration "
    "(its worker's responses set the time)\n"
    "t.json:5:14: nodes[1].worker.topic: \"has space\" is not an identifier (use letters, digits and _ . : -)\n"
    "t.json:6:31: nodes[1].worker.input[1]: at 6: expected an index or a quoted key after '[' but found end of input\n"
    "t.json:6:34: nodes[1].worker.input[2]: must be a string, not a number\n"
    "t.json:7:14: nodes[1].worker.trust: unknown trust \"paranoid\" (expected workerTrusted or engineAuthoritative)\n"
    "t.json:8:49: nodes[1].worker.retry.maxAttempts: must be ≥ 1\n"
    "t.json:8:67: nodes[1].worker.retry.base: key \"base\" does not apply to policy \"fixed\"\n"
    "t.json:9:15: nodes[1].worker.status: missing required key \"var\"\n"
    "t.json:9:29: nodes[1].worker.status.overwrite: must be true or false, not a number\n"
    "t.json:10:15: nodes[1].worker.output: must not be empty");
}

static void
test_retry_policies (void)
{
  g_autoptr(WnProcess) process = process_ok (HEAD
    "`engine`: {`retry`: `default`, `trust`: `engineAuthoritative`, `maxLock`: `2m`, `onExhausted`: `incident`},\n"
    "`nodes`: [\n"
    "  {`id`: `s`, `type`: `startEvent`},\n"
    "  {`id`: `a`, `type`: `serviceTask`, `worker`: {`topic`: `a`, `retry`: {`policy`: `none`}, `trust`: `workerTrusted`}},\n"
    "  {`id`: `b`, `type`: `serviceTask`, `worker`: {`topic`: `b`,\n"
    "     `retry`: {`policy`: `exponential`, `maxAttempts`: 5, `base`: `100ms`, `max`: `PT10S`, `jitter`: true}}},\n"
    "  {`id`: `c`, `type`: `serviceTask`, `worker`: {`topic`: `c`, `retry`: {`policy`: `exponential`,\n"
    "     `maxAttempts`: 2, `base`: 50, `max`: `1s`}, `input`: [], `output`: `cOut`}},\n"
    "  {`id`: `d`, `type`: `serviceTask`},\n"
    "  {`id`: `e`, `type`: `endEvent`}\n"
    "],\n"
    "`flows`: [{`id`: `f1`, `from`: `s`, `to`: `a`}, {`id`: `f2`, `from`: `a`, `to`: `b`},\n"
    "          {`id`: `f3`, `from`: `b`, `to`: `c`}, {`id`: `f4`, `from`: `c`, `to`: `d`},\n"
    "          {`id`: `f5`, `from`: `d`, `to`: `e`}]}");
  const WnWorkerSpec *a = wn_process_find_node (process, "a")->worker;
  const WnWorkerSpec *b = wn_process_find_node (process, "b")->worker;
  const WnWorkerSpec *c = wn_process_find_node (process, "c")->worker;
  WnRetryPolicy def = wn_retry_policy_default ();

  g_assert_true (process->engine.policy.has_retry);
  g_assert_cmpint (process->engine.policy.retry.kind, ==, def.kind);
  g_assert_cmpuint (process->engine.policy.retry.max_attempts, ==, def.max_attempts);
  g_assert_cmpint (process->engine.policy.retry.base, ==, def.base);
  g_assert_cmpint (process->engine.policy.trust, ==, WN_TRUST_ENGINE_AUTHORITATIVE);
  g_assert_true (process->engine.has_max_lock);
  g_assert_cmpint (process->engine.max_lock, ==, SEC (120));
  g_assert_cmpint (process->engine.on_exhausted, ==, WN_ON_EXHAUSTED_INCIDENT);

  g_assert_cmpint (a->policy.retry.kind, ==, WN_RETRY_NONE);
  g_assert_cmpint (a->policy.trust, ==, WN_TRUST_WORKER_TRUSTED);
  g_assert_null (a->input);

  g_assert_cmpint (b->policy.retry.kind, ==, WN_RETRY_EXPONENTIAL);
  g_assert_cmpuint (b->policy.retry.max_attempts, ==, 5);
  g_assert_cmpint (b->policy.retry.base, ==, MS (100));
  g_assert_cmpint (b->policy.retry.max, ==, SEC (10));
  g_assert_true (b->policy.retry.jitter);

  g_assert_false (c->policy.retry.jitter);
  g_assert_cmpint (c->policy.retry.base, ==, MS (50));
  g_assert_nonnull (c->input);
  g_assert_cmpuint (c->input->len, ==, 0);
  g_assert_cmpstr (c->output_var, ==, "cOut");

  g_assert_null (wn_process_find_node (process, "d")->worker);
}

static void
test_retry_errors (void)
{
  g_autofree char *errors = process_errors (HEAD
    "`engine`: {`retry`: `sometimes`, `onExhausted`: `panic`, `maxLock`: `1s`, `errorMapper`: {}},\n"
    "`nodes`: [\n"
    "  {`id`: `s`, `type`: `startEvent`},\n"
    "  {`id`: `a`, `type`: `serviceTask`, `worker`: {`topic`: `a`, `retry`: {`policy`: `linear`}}},\n"
    "  {`id`: `b`, `type`: `serviceTask`, `worker`: {`topic`: `b`, `retry`: {`maxAttempts`: 2}}},\n"
    "  {`id`: `c`, `type`: `serviceTask`, `worker`: {`topic`: `c`, `retry`: {`policy`: `exponential`, `maxAttempts`: 1.5}}},\n"
    "  {`id`: `e`, `type`: `endEvent`}\n"
    "],\n"
    "`flows`: [{`id`: `f1`, `from`: `s`, `to`: `a`}, {`id`: `f2`, `from`: `a`, `to`: `b`},\n"
    "          {`id`: `f3`, `from`: `b`, `to`: `c`}, {`id`: `f4`, `from`: `c`, `to`: `e`}]}");

  g_assert_cmpstr (errors, ==,
    "t.json:2:21: engine.retry: must be \"default\" or an object with a \"policy\"\n"
    "t.json:2:49: engine.onExhausted: unknown onExhausted \"panic\" (expected fail or incident)\n"
    "t.json:2:90: engine.errorMapper: must be an array, not an object\n"
    "t.json:5:83: nodes[1].worker.retry.policy: unknown retry policy \"linear\" "
    "(expected none, fixed or exponential)\n"
    "t.json:6:72: nodes[2].worker.retry: missing required key \"policy\"\n"
    "t.json:7:72: nodes[3].worker.retry: missing required key \"base\"\n"
    "t.json:7:72: nodes[3].worker.retry: missing required key \"max\"\n"
    "t.json:7:113: nodes[3].worker.retry.maxAttempts: must be an integer ≥ 1, not a fraction");
}

/* Whole numbers the tree holds as doubles are not "a fraction": 4e0 is a
 * whole number written with an exponent, 2^64 one too large. */
static void
test_whole_number_messages (void)
{
  g_autofree char *errors = scenario_errors (
    "{`format`: `winnow.scenario/1`, `seed`: 9223372036854775808, `workers`: [\n"
    "  {`id`: `a`, `topic`: `a`, `concurrency`: 4e0, `responses`: [{`complete`: 1}]},\n"
    "  {`id`: `b`, `topic`: `b`, `concurrency`: 18446744073709551616, `responses`: [{`complete`: 1}]},\n"
    "  {`id`: `c`, `topic`: `c`, `concurrency`: 2.0, `responses`: [{`complete`: 1}]},\n"
    "  {`id`: `d`, `topic`: `d`, `concurrency`: -1e2, `responses`: [{`complete`: 1}]},\n"
    "  {`id`: `e`, `topic`: `e`, `concurrency`: 2.5, `responses`: [{`complete`: 1}]}]}");
  g_autofree char *retry = process_errors (HEAD
    "`nodes`: [{`id`: `s`, `type`: `startEvent`},\n"
    "  {`id`: `a`, `type`: `serviceTask`, `worker`: {`topic`: `a`, `retry`: {`policy`: `fixed`, `maxAttempts`: 4e0, `delay`: 1}}},\n"
    "  {`id`: `b`, `type`: `serviceTask`, `worker`: {`topic`: `b`, `retry`: {`policy`: `fixed`, `maxAttempts`: 18446744073709551616, `delay`: 1}}},\n"
    "  {`id`: `e`, `type`: `endEvent`}],\n"
    "`flows`: [{`id`: `f1`, `from`: `s`, `to`: `a`}, {`id`: `f2`, `from`: `a`, `to`: `b`}, {`id`: `f3`, `from`: `b`, `to`: `e`}]}");
  g_autoptr(WnScenario) largest_seed = scenario_ok ("{`format`: `winnow.scenario/1`, `seed`: 9223372036854775807}");

  g_assert_cmpstr (errors, ==,
    "t.json:1:41: seed: must be a whole number from 0 to 9223372036854775807\n"
    "t.json:2:44: workers[0].concurrency: must be an integer ≥ 1 written in digits, without a point or an exponent\n"
    "t.json:3:44: workers[1].concurrency: must be at most 4294967295\n"
    "t.json:4:44: workers[2].concurrency: must be an integer ≥ 1 written in digits, without a point or an exponent\n"
    "t.json:5:44: workers[3].concurrency: must be ≥ 1\n"
    "t.json:6:44: workers[4].concurrency: must be an integer ≥ 1, not a fraction");
  g_assert_cmpstr (retry, ==,
    "t.json:3:107: nodes[1].worker.retry.maxAttempts: must be an integer ≥ 1 written in digits, without a point or an exponent\n"
    "t.json:4:107: nodes[2].worker.retry.maxAttempts: must be at most 4294967295");
  g_assert_true (largest_seed->has_seed);
  g_assert_cmpuint (largest_seed->seed, ==, G_MAXINT64);
}

static void
test_error_mapper (void)
{
  g_autoptr(WnProcess) process = process_ok (HEAD
    "`nodes`: [\n"
    "  {`id`: `s`, `type`: `startEvent`},\n"
    "  {`id`: `w`, `type`: `serviceTask`, `worker`: {`topic`: `w`, `status`: {`var`: `st`, `overwrite`: true},\n"
    "    `errorMapper`: [\n"
    "      {`code`: `409`, `bpmnError`: {`code`: `Conflict`, `message`: `dup`}},\n"
    "      {`code`: 404, `status`: {`state`: `NOT_FOUND`}},\n"
    "      {`when`: `body.reason == 'declined'`, `bpmnError`: {`code`: `Declined`}},\n"
    "      {`code`: `503`, `technical`: true}\n"
    "    ]}},\n"
    "  {`id`: `e`, `type`: `endEvent`}\n"
    "],\n"
    "`flows`: [{`id`: `f1`, `from`: `s`, `to`: `w`}, {`id`: `f2`, `from`: `w`, `to`: `e`}]}");
  const WnWorkerSpec *w = wn_process_find_node (process, "w")->worker;
  const WnErrorRule *rule;

  g_assert_nonnull (w->policy.mapper);
  g_assert_cmpuint (wn_error_mapper_get_n_rules (w->policy.mapper), ==, 4);
  g_assert_true (wn_error_mapper_has_status_rule (w->policy.mapper));
  g_assert_cmpstr (w->status_var, ==, "st");
  g_assert_true (w->status_overwrite);

  rule = wn_error_mapper_get_rule (w->policy.mapper, 0);
  g_assert_cmpstr (rule->code, ==, "409");
  g_assert_cmpint (rule->outcome, ==, WN_CLASS_BPMN_ERROR);
  g_assert_cmpstr (rule->bpmn_code, ==, "Conflict");
  g_assert_cmpstr (rule->bpmn_message, ==, "dup");
  rule = wn_error_mapper_get_rule (w->policy.mapper, 1);
  g_assert_cmpstr (rule->code, ==, "404");   /* a number, normalised */
  g_assert_cmpint (rule->outcome, ==, WN_CLASS_STATUS);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (rule->status));
  rule = wn_error_mapper_get_rule (w->policy.mapper, 2);
  g_assert_true (rule->code == NULL || rule->code[0] == '\0');
  g_assert_nonnull (rule->when);
  g_assert_null (rule->bpmn_message);
  rule = wn_error_mapper_get_rule (w->policy.mapper, 3);
  g_assert_cmpint (rule->outcome, ==, WN_CLASS_TECHNICAL);
}

static void
test_error_mapper_errors (void)
{
  g_autofree char *errors = process_errors (HEAD
    "`engine`: {`errorMapper`: [{`status`: `X`}]},\n"
    "`nodes`: [\n"
    "  {`id`: `s`, `type`: `startEvent`},\n"
    "  {`id`: `w`, `type`: `serviceTask`, `worker`: {`topic`: `w`, `errorMapper`: [\n"
    "      {`code`: `409`},\n"
    "      {`bpmnError`: {`code`: `A`}, `technical`: true},\n"
    "      {`status`: `S`},\n"
    "      {`technical`: false, `code`: [1]},\n"
    "      {`bpmnError`: {`message`: `m`}, `when`: `body.`},\n"
    "      {`bpmnError`: {`code`: `A`}, `severity`: 1}\n"
    "  ]}},\n"
    "  {`id`: `v`, `type`: `serviceTask`, `worker`: {`topic`: `v`}},\n"
    "  {`id`: `e`, `type`: `endEvent`}\n"
    "],\n"
    "`flows`: [{`id`: `f1`, `from`: `s`, `to`: `w`}, {`id`: `f2`, `from`: `w`, `to`: `v`},\n"
    "          {`id`: `f3`, `from`: `v`, `to`: `e`}]}");

  g_assert_cmpstr (errors, ==,
    "t.json:2:39: engine.errorMapper[0].status: a status rule, but task \"v\" uses this mapper "
    "and has no worker.status\n"
    "t.json:6:7: nodes[1].worker.errorMapper[0]: a rule needs exactly one of bpmnError, status or technical\n"
    "t.json:7:49: nodes[1].worker.errorMapper[1].technical: a rule has exactly one outcome (it already has bpmnError)\n"
    "t.json:8:18: nodes[1].worker.errorMapper[2].status: a status rule needs the task's worker.status "
    "(where the status is written)\n"
    "t.json:9:21: nodes[1].worker.errorMapper[3].technical: must be true\n"
    "t.json:9:36: nodes[1].worker.errorMapper[3].code: must be a string or a number, not an array\n"
    "t.json:10:21: nodes[1].worker.errorMapper[4].bpmnError: missing required key \"code\"\n"
    "t.json:10:53: nodes[1].worker.errorMapper[4].when: at 5: expected a name after '.' but found end of input\n"
    "t.json:11:36: nodes[1].worker.errorMapper[5].severity: unknown key \"severity\"");
}

static void
test_output_mapping_conflicts (void)
{
  g_autofree char *errors = process_errors (HEAD
    "`nodes`: [\n"
    "  {`id`: `s`, `type`: `startEvent`},\n"
    "  {`id`: `a`, `type`: `serviceTask`, `worker`: {`topic`: `a`, `outputMapping`: [\n"
    "      {`path`: `body.x`, `var`: `order`},\n"
    "      {`path`: `body.y`, `var`: `order.total`}]}},\n"
    "  {`id`: `b`, `type`: `serviceTask`, `worker`: {`topic`: `b`, `outputMapping`: [\n"
    "      {`path`: `body.x`, `var`: `r.a`},\n"
    "      {`path`: `body.y`, `var`: `r.b`},\n"
    "      {`path`: `body.z`, `var`: `r.a.c`}]}},\n"
    "  {`id`: `c`, `type`: `serviceTask`, `worker`: {`topic`: `c`, `outputMapping`: [\n"
    "      {`path`: `body.x`, `var`: `q[`, `required`: `yes`}]}},\n"
    "  {`id`: `e`, `type`: `endEvent`}\n"
    "],\n"
    "`flows`: [{`id`: `f1`, `from`: `s`, `to`: `a`}, {`id`: `f2`, `from`: `a`, `to`: `b`},\n"
    "          {`id`: `f3`, `from`: `b`, `to`: `c`}, {`id`: `f4`, `from`: `c`, `to`: `e`}]}");
  g_auto(GStrv) lines = g_strsplit (errors, "\n", -1);

  /* Positions and paths are the loader's; the wording is the output mapping's. */
  g_assert_cmpuint (g_strv_length (lines), ==, 3);
  g_assert_true (g_str_has_prefix (lines[0], "t.json:6:33: nodes[1].worker.outputMapping[1].var: "));
  g_assert_true (g_str_has_prefix (lines[1], "t.json:10:33: nodes[2].worker.outputMapping[2].var: "));
  g_assert_cmpstr (lines[2], ==,
    "t.json:12:51: nodes[3].worker.outputMapping[0].required: must be true or false, not a string");
}

static void
test_output_mapping_bad_target (void)
{
  g_autofree char *errors = process_errors (HEAD
    "`nodes`: [\n"
    "  {`id`: `s`, `type`: `startEvent`},\n"
    "  {`id`: `c`, `type`: `serviceTask`, `worker`: {`topic`: `c`, `outputMapping`: [\n"
    "      {`path`: `body.x`, `var`: `q[`}]}},\n"
    "  {`id`: `e`, `type`: `endEvent`}\n"
    "],\n"
    "`flows`: [{`id`: `f1`, `from`: `s`, `to`: `c`}, {`id`: `f2`, `from`: `c`, `to`: `e`}]}");

  g_assert_true (g_str_has_prefix (errors, "t.json:5:33: nodes[1].worker.outputMapping[0].var: "));
  g_assert_null (strchr (errors, '\n'));
}

static void
test_multiple_errors (void)
{
  g_autofree char *errors = process_errors (HEAD
    "`nodes`: [\n"
    "  {`id`: `s`, `type`: `startEvent`, `bogus`: 1},\n"
    "  {`id`: `t`, `type`: `timerEvent`, `duration`: `soon`},\n"
    "  {`id`: `w`, `type`: `serviceTask`, `worker`: {`topic`: `w`, `retry`: {`policy`: `fixed`, `maxAttempts`: 0, `delay`: 5}}},\n"
    "  {`id`: `orphan`, `type`: `task`},\n"
    "  {`id`: `e`, `type`: `endEvent`}\n"
    "],\n"
    "`flows`: [{`id`: `f1`, `from`: `s`, `to`: `t`}, {`id`: `f2`, `from`: `t`, `to`: `w`},\n"
    "          {`id`: `f3`, `from`: `w`, `to`: `e`}, {`id`: `f4`, `from`: `orphan`, `to`: `e`}]}");
  g_auto(GStrv) lines = g_strsplit (errors, "\n", -1);

  g_assert_cmpuint (g_strv_length (lines), ==, 4);
  g_assert_cmpstr (lines[0], ==, "t.json:3:37: nodes[0].bogus: unknown key \"bogus\"");
  g_assert_true (g_str_has_prefix (lines[1], "t.json:4:49: nodes[1].duration: "));
  g_assert_cmpstr (lines[2], ==, "t.json:5:107: nodes[2].worker.retry.maxAttempts: must be ≥ 1");
  g_assert_cmpstr (lines[3], ==, "t.json:6:3: nodes[3]: node \"orphan\" is unreachable from the start event");
}

static void
test_error_cap (void)
{
  g_autoptr(GString) json = g_string_new ("{`format`: `winnow.process/1`, `id`: `p`, `nodes`: [\n");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) diags = NULL;
  g_autofree char *text = NULL;
  WnProcess *process;

  for (guint i = 0; i < 120; i++)
    g_string_append_printf (json, "{`id`: `n%u`, `type`: `nope`},\n", i);
  g_string_append (json, "{`id`: `last`, `type`: `nope`}]}");
  text = bq (json->str);

  process = wn_load_process_data (text, -1, "t.json", &diags, &error);
  g_assert_null (process);
  g_assert_error (error, WN_LOAD_ERROR, WN_LOAD_ERROR_INVALID);
  g_assert_cmpuint (diags->len, ==, WN_LOAD_MAX_ERRORS);
  g_assert_true (g_str_has_suffix (error->message, "\nt.json: 71 more errors not shown"));
}

static void
test_hostile_input (void)
{
  /* Deep nesting inside a value is refused cleanly; odd types everywhere do not crash. */
  g_autoptr(GString) deep = g_string_new ("{`format`: `winnow.process/1`, `variables`: {`v`: ");
  static const char * const odd[] = {
    "null", "true", "0", "``", "[]", "[null]",
    "{`format`: null, `id`: 1, `nodes`: {}, `flows`: 1, `engine`: [], `variables`: []}",
    "{`format`: `winnow.process/1`, `id`: `p`, `nodes`: [null, [], {`id`: null, `type`: 1}],"
    " `flows`: [null, {`id`: `f`, `from`: 1, `to`: {}}]}",
    "{`format`: `winnow.process/1`, `id`: `p`, `nodes`: [{`id`: `s`, `type`: `scriptTask`, `set`: []},"
    " {`id`: `w`, `type`: `serviceTask`, `worker`: {`topic`: `t`, `errorMapper`: [1, [], {`bpmnError`: 1}],"
    " `outputMapping`: [1, {}], `status`: 1, `input`: {}}}], `scenario`: []}",
    NULL
  };
  g_autofree char *deep_errors = NULL;

  for (guint i = 0; i < 600; i++)
    g_string_append (deep, "[");
  deep_errors = load_errors_full (LOAD_PROCESS, deep->str, WN_LOAD_ERROR_SYNTAX, NULL);
  g_assert_cmpstr (deep_errors, ==, "t.json:1:561: nesting deeper than 512 levels");

  for (guint i = 0; odd[i] != NULL; i++)
    {
      g_autofree char *p = process_errors (odd[i]);
      g_autofree char *s = scenario_errors (odd[i]);
      g_autofree char *r = response_errors (odd[i]);

      g_test_message ("%s\n%s\n%s", p, s, r);
    }
}

/* ---- scenario ------------------------------------------------------------ */

static void
test_scenario_responses (void)
{
  g_autoptr(WnScenario) scenario = scenario_ok (
    "{`format`: `winnow.scenario/1`,\n"
    " `engine`: {`trust`: `engineAuthoritative`, `maxLock`: `1m`},\n"
    " `start`: [{`at`: `5s`, `count`: 3}, {}],\n"
    " `workers`: [{`id`: `w1`, `topic`: `t`, `lockDuration`: `30s`, `concurrency`: 2, `responses`: [\n"
    "   {`attempts`: `2`, `complete`: null},\n"
    "   {`attempts`: `1-3`, `after`: `200ms`, `fail`: {`code`: 503, `body`: {`e`: 1}, `message`: `down`}},\n"
    "   {`attempts`: `4+`, `when`: `attempt > 4`, `workerError`: {`cause`: `disk full`}},\n"
    "   {`workerError`: {`status`: {`s`: 1}, `message`: `m`}},\n"
    "   {`crash`: true},\n"
    "   {`hang`: true, `after`: 100},\n"
    "   {`hang`: {`late`: true}},\n"
    "   {`random`: [{`p`: 3, `after`: `50ms`, `complete`: {}}, {`p`: 0.5, `fail`: {}}]}\n"
    " ]}],\n"
    " `faults`: [{`at`: `12s`, `topic`: `t`, `next`: {`crash`: true}},\n"
    "            {`worker`: `w1`, `next`: {`after`: `1s`, `fail`: {`code`: `500`}}}]}");
  WnWorkerConfig *w;
  WnResponse *r;
  const WnFaultSpec *fault;

  g_assert_false (scenario->has_seed);
  g_assert_cmpuint (scenario->seed, ==, 1);
  g_assert_cmpint (scenario->engine.policy.trust, ==, WN_TRUST_ENGINE_AUTHORITATIVE);
  g_assert_cmpint (scenario->engine.max_lock, ==, SEC (60));
  g_assert_cmpuint (scenario->start->len, ==, 2);
  g_assert_cmpint (g_array_index (scenario->start, WnStartSpec, 0).at, ==, SEC (5));
  g_assert_cmpuint (g_array_index (scenario->start, WnStartSpec, 0).count, ==, 3);
  g_assert_null (g_array_index (scenario->start, WnStartSpec, 0).variables);
  g_assert_cmpuint (g_array_index (scenario->start, WnStartSpec, 1).count, ==, 1);

  w = g_ptr_array_index (scenario->workers, 0);
  g_assert_true (w->has_lock_duration);
  g_assert_cmpint (w->lock_duration, ==, SEC (30));
  g_assert_cmpuint (w->concurrency, ==, 2);
  g_assert_cmpuint (w->responses->len, ==, 8);

  r = g_ptr_array_index (w->responses, 0);
  g_assert_cmpint (r->kind, ==, WN_RESPONSE_COMPLETE);
  g_assert_cmpuint (r->attempts_lo, ==, 2);
  g_assert_cmpuint (r->attempts_hi, ==, 2);
  g_assert_true (JSON_NODE_HOLDS_NULL (r->body));

  r = g_ptr_array_index (w->responses, 1);
  g_assert_cmpint (r->kind, ==, WN_RESPONSE_FAIL);
  g_assert_cmpuint (r->attempts_lo, ==, 1);
  g_assert_cmpuint (r->attempts_hi, ==, 3);
  g_assert_cmpstr (r->code, ==, "503");
  g_assert_cmpstr (r->message, ==, "down");
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (r->body), "e"), ==, 1);
  g_assert_cmpint (r->after, ==, MS (200));

  r = g_ptr_array_index (w->responses, 2);
  g_assert_cmpint (r->kind, ==, WN_RESPONSE_WORKER_ERROR);
  g_assert_cmpuint (r->attempts_lo, ==, 4);
  g_assert_cmpuint (r->attempts_hi, ==, G_MAXUINT);
  g_assert_cmpstr (r->cause, ==, "disk full");
  g_assert_nonnull (r->when);

  r = g_ptr_array_index (w->responses, 3);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (r->status));
  g_assert_cmpstr (r->message, ==, "m");
  g_assert_null (r->bpmn_code);
  g_assert_null (r->cause);

  r = g_ptr_array_index (w->responses, 4);
  g_assert_cmpint (r->kind, ==, WN_RESPONSE_CRASH);

  r = g_ptr_array_index (w->responses, 5);
  g_assert_cmpint (r->kind, ==, WN_RESPONSE_HANG);
  g_assert_null (r->body);
  g_assert_cmpint (r->after, ==, MS (100));

  r = g_ptr_array_index (w->responses, 6);
  g_assert_cmpint (r->kind, ==, WN_RESPONSE_HANG);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (r->body));

  r = g_ptr_array_index (w->responses, 7);
  g_assert_cmpint (r->kind, ==, WN_RESPONSE_RANDOM);
  g_assert_cmpuint (r->n_choices, ==, 2);
  g_assert_cmpfloat (r->choices[0].p, ==, 3.0);
  g_assert_cmpint (r->choices[0].response->kind, ==, WN_RESPONSE_COMPLETE);
  g_assert_cmpint (r->choices[0].response->after, ==, MS (50));
  g_assert_cmpfloat (r->choices[1].p, ==, 0.5);
  g_assert_cmpint (r->choices[1].response->kind, ==, WN_RESPONSE_FAIL);

  g_assert_cmpuint (scenario->faults->len, ==, 2);
  fault = &g_array_index (scenario->faults, WnFaultSpec, 0);
  g_assert_cmpint (fault->at, ==, SEC (12));
  g_assert_cmpstr (fault->topic, ==, "t");
  g_assert_null (fault->worker);
  g_assert_cmpint (fault->next->kind, ==, WN_RESPONSE_CRASH);
  fault = &g_array_index (scenario->faults, WnFaultSpec, 1);
  g_assert_cmpint (fault->at, ==, 0);
  g_assert_null (fault->topic);
  g_assert_cmpstr (fault->worker, ==, "w1");
  g_assert_cmpstr (fault->next->code, ==, "500");
  g_assert_cmpint (fault->next->after, ==, SEC (1));
}

static void
test_scenario_defaults (void)
{
  g_autoptr(WnScenario) scenario = scenario_ok ("{`format`: `winnow.scenario/1`, `seed`: 0, `start`: []}");

  g_assert_true (scenario->has_seed);
  g_assert_cmpuint (scenario->seed, ==, 0);
  g_assert_true (scenario->has_start);     /* given, and empty: no instances */
  g_assert_cmpuint (scenario->start->len, ==, 0);
  g_assert_cmpuint (scenario->workers->len, ==, 0);
  g_assert_cmpint (scenario->engine.policy.trust, ==, WN_TRUST_UNSET);
}

static void
test_scenario_errors (void)
{
  g_autofree char *errors = scenario_errors (
    "{`format`: `winnow.scenario/1`, `seed`: 1.5, `extra`: 1,\n"
    " `start`: [{`at`: `-1s`, `count`: 0, `variables`: []}],\n"
    " `workers`: [\n"
    "  {`id`: `w`, `topic`: `t`, `concurrency`: 0, `lockDuration`: 0, `responses`: []},\n"
    "  {`id`: `w`, `responses`: [{`complete`: 1}]},\n"
    "  {`id`: `v`, `topic`: `t`, `responses`: [\n"
    "    {`attempts`: `0`, `complete`: 1},\n"
    "    {`attempts`: `3-1`, `complete`: 1},\n"
    "    {`attempts`: 2, `complete`: 1},\n"
    "    {`attempts`: `x+`, `after`: `1s`},\n"
    "    {`complete`: 1, `crash`: true, `p`: 1},\n"
    "    {`when`: `input.`, `hang`: false},\n"
    "    {`workerError`: {`bpmnErrorCode`: `E`, `cause`: `c`}},\n"
    "    {`workerError`: {`message`: `m`}},\n"
    "    {`random`: [{`p`: 0, `complete`: 1}, {`complete`: 1}, {`p`: 1, `attempts`: `1`, `random`: []}], `after`: `1s`}\n"
    "  ]}],\n"
    " `faults`: [{`at`: `1s`, `next`: {`crash`: true}},\n"
    "            {`topic`: `t`, `worker`: `v`, `next`: {`crash`: true}},\n"
    "            {`worker`: `ghost`, `next`: {`when`: `true`, `crash`: true}}]}");

  g_assert_cmpstr (errors, ==,
    "t.json:1:41: seed: must be a whole number from 0 to 9223372036854775807\n"
    "t.json:1:46: extra: unknown key \"extra\"\n"
    "t.json:2:19: start[0].at: duration “-1s” is negative\n"
    "t.json:2:35: start[0].count: must be ≥ 1\n"
    "t.json:2:51: start[0].variables: must be an object, not an array\n"
    "t.json:4:44: workers[0].concurrency: must be ≥ 1\n"
    "t.json:4:63: workers[0].lockDuration: must be longer than 0\n"
    "t.json:4:79: workers[0].responses: must not be empty (a worker needs at least one response)\n"
    "t.json:5:3: workers[1]: missing required key \"topic\"\n"
    "t.json:5:10: workers[1].id: duplicate worker id \"w\" (first used at workers[0].id)\n"
    "t.json:7:18: workers[2].responses[0].attempts: \"0\" is not an attempt selector "
    "(expected \"N\", \"N-M\" or \"N+\", N ≥ 1)\n"
    "t.json:8:18: workers[2].responses[1].attempts: the range \"3-1\" is empty\n"
    "t.json:9:18: workers[2].responses[2].attempts: must be a string, not a number\n"
    "t.json:10:5: workers[2].responses[3]: a response needs exactly one of complete, fail, workerError, "
    "crash, hang or random\n"
    "t.json:11:30: workers[2].responses[4].crash: a response has exactly one outcome (it already has complete)\n"
    "t.json:11:36: workers[2].responses[4].p: key \"p\" does not apply to a worker's response\n"
    "t.json:12:21: workers[2].responses[5].when: at 6: expected a name after '.' but found end of input\n"
    "t.json:12:32: workers[2].responses[5].hang: must be true or an object (the body reported late)\n"
    "t.json:13:53: workers[2].responses[6].workerError.cause: a workerError has exactly one of bpmnErrorCode, "
    "status or cause (it already has bpmnErrorCode)\n"
    "t.json:14:21: workers[2].responses[7].workerError: a workerError needs exactly one of bpmnErrorCode, "
    "status or cause\n"
    "t.json:15:23: workers[2].responses[8].random[0].p: must be a number > 0\n"
    "t.json:15:42: workers[2].responses[8].random[1]: missing required key \"p\"\n"
    "t.json:15:59: workers[2].responses[8].random[2]: a response needs exactly one of complete, fail, "
    "workerError, crash or hang\n"
    "t.json:15:68: workers[2].responses[8].random[2].attempts: key \"attempts\" does not apply to a random choice\n"
    "t.json:15:85: workers[2].responses[8].random[2].random: key \"random\" does not apply to a random choice\n"
    "t.json:15:110: workers[2].responses[8].after: a random response takes no after (give each choice its own)\n"
    "t.json:17:13: faults[0]: a fault needs a \"topic\" or a \"worker\"\n"
    "t.json:18:38: faults[1].worker: a fault names a topic or a worker, not both\n"
    "t.json:19:24: faults[2].worker: unknown worker \"ghost\"\n"
    "t.json:19:42: faults[2].next.when: key \"when\" does not apply to an injected response");
}

/* Weights: each finite and > 0, and their sum finite — 1e308 + 1e308 is
 * infinite, and every draw then took the last entry. */
static void
test_random_weights (void)
{
  g_autofree char *errors = scenario_errors (
    "{`format`: `winnow.scenario/1`, `workers`: [{`id`: `w`, `topic`: `t`, `responses`: [\n"
    "  {`random`: [{`p`: 1e308, `complete`: 1}, {`p`: 1e308, `complete`: 2}]},\n"
    "  {`random`: [{`p`: -1, `complete`: 1}, {`p`: `1`, `complete`: 2}]}]}]}");
  g_autoptr(WnScenario) fine = scenario_ok (
    "{`format`: `winnow.scenario/1`, `workers`: [{`id`: `w`, `topic`: `t`, `responses`: [\n"
    "  {`random`: [{`p`: 1e308, `complete`: 1}, {`p`: 7e307, `complete`: 2}]}]}]}");

  g_assert_cmpstr (errors, ==,
    "t.json:2:14: workers[0].responses[0].random: the weights p add up to more than 1.79769e+308: give smaller ones\n"
    "t.json:3:21: workers[0].responses[1].random[0].p: must be a number > 0\n"
    "t.json:3:47: workers[0].responses[1].random[1].p: must be a number > 0, not a string");
  g_assert_nonnull (fine);
}

static void
test_load_response (void)
{
  g_autoptr(WnResponse) r = response_ok ("{`after`: `2s`, `workerError`: {`bpmnErrorCode`: `Down`, `message`: `gone`}}");
  g_autofree char *errors = response_errors ("{`attempts`: `1`, `crash`: true}");

  g_assert_cmpint (r->kind, ==, WN_RESPONSE_WORKER_ERROR);
  g_assert_cmpstr (r->bpmn_code, ==, "Down");
  g_assert_cmpstr (r->message, ==, "gone");
  g_assert_cmpint (r->after, ==, SEC (2));
  g_assert_cmpstr (errors, ==, "t.json:1:2: attempts: key \"attempts\" does not apply to an injected response");
}

static void
test_response_matches (void)
{
  g_autoptr(WnScenario) scenario = scenario_ok (
    "{`format`: `winnow.scenario/1`, `workers`: [{`id`: `w`, `topic`: `t`, `responses`: [\n"
    "  {`attempts`: `2`, `crash`: true},\n"
    "  {`attempts`: `1-3`, `crash`: true},\n"
    "  {`attempts`: `4+`, `crash`: true},\n"
    "  {`when`: `input.order.total > 100 and attempt >= 2`, `crash`: true},\n"
    "  {`when`: `input.missing > 1`, `crash`: true},\n"
    "  {`when`: `attempt`, `crash`: true},\n"
    "  {`crash`: true}]}]}");
  WnWorkerConfig *w = g_ptr_array_index (scenario->workers, 0);
  g_autoptr(JsonNode) big = json_from_string ("{\"order\": {\"total\": 500}}", NULL);
  g_autoptr(JsonNode) small = json_from_string ("{\"order\": {\"total\": 5}}", NULL);
  WnResponse *two = g_ptr_array_index (w->responses, 0);
  WnResponse *range = g_ptr_array_index (w->responses, 1);
  WnResponse *open = g_ptr_array_index (w->responses, 2);
  WnResponse *when = g_ptr_array_index (w->responses, 3);
  WnResponse *broken = g_ptr_array_index (w->responses, 4);
  WnResponse *not_bool = g_ptr_array_index (w->responses, 5);
  WnResponse *any = g_ptr_array_index (w->responses, 6);
  g_autoptr(GError) error = NULL;

  g_assert_false (wn_response_matches (two, 1, big, NULL));
  g_assert_true (wn_response_matches (two, 2, big, NULL));
  g_assert_false (wn_response_matches (two, 3, big, NULL));

  g_assert_true (wn_response_matches (range, 1, NULL, NULL));
  g_assert_true (wn_response_matches (range, 3, NULL, NULL));
  g_assert_false (wn_response_matches (range, 4, NULL, NULL));

  g_assert_false (wn_response_matches (open, 3, NULL, NULL));
  g_assert_true (wn_response_matches (open, 4, NULL, NULL));
  g_assert_true (wn_response_matches (open, 1000000, NULL, NULL));

  g_assert_false (wn_response_matches (when, 1, big, NULL));
  g_assert_true (wn_response_matches (when, 2, big, NULL));
  g_assert_false (wn_response_matches (when, 2, small, NULL));

  g_assert_true (wn_response_matches (any, 1, NULL, NULL));
  g_assert_true (wn_response_matches (any, 99, small, NULL));

  /* An evaluation error: does not apply, and says why. */
  g_assert_false (wn_response_matches (broken, 1, small, &error));
  g_assert_error (error, WN_LITE_ERROR, WN_LITE_ERROR_MISSING);
  g_clear_error (&error);
  g_assert_false (wn_response_matches (not_bool, 1, small, &error));
  g_assert_nonnull (error);
  g_assert_true (error->domain == WN_LITE_ERROR);
  g_clear_error (&error);
  g_assert_false (wn_response_matches (broken, 1, small, NULL));
}

static void
test_response_describe (void)
{
  g_autoptr(WnResponse) fail = response_ok ("{`after`: `200ms`, `fail`: {`code`: 503}}");
  g_autoptr(WnResponse) crash = response_ok ("{`crash`: true}");
  g_autoptr(WnResponse) complete = response_ok ("{`after`: 100, `complete`: {}}");
  g_autoptr(WnResponse) random = response_ok ("{`random`: [{`p`: 0.8, `crash`: true}, {`p`: 0.2, `hang`: true}]}");
  g_autofree char *d1 = wn_response_describe (fail);
  g_autofree char *d2 = wn_response_describe (crash);
  g_autofree char *d3 = wn_response_describe (complete);
  g_autofree char *d4 = wn_response_describe (random);

  g_assert_cmpstr (d1, ==, "fail 503 after 200ms");
  g_assert_cmpstr (d2, ==, "crash");
  g_assert_cmpstr (d3, ==, "complete after 100ms");
  g_assert_cmpstr (d4, ==, "random { 0.8: crash; 0.2: hang }");
}

/* ---- the by-hand builder and the model helpers ----------------------------- */

static void
test_builder (void)
{
  g_autoptr(WnProcess) process = wn_process_new ("hand");
  g_autoptr(GError) error = NULL;
  WnNode *node;

  wn_process_add_node (process, "s", WN_NODE_START);
  node = wn_process_add_node (process, "w", WN_NODE_SERVICE);
  node->worker = wn_worker_spec_new ("topic");
  wn_process_add_node (process, "b", WN_NODE_BOUNDARY)->error_code = g_strdup ("E");
  wn_process_add_node (process, "g", WN_NODE_EXCLUSIVE);
  for (guint i = 0; i < 20; i++)
    {
      g_autofree char *id = g_strdup_printf ("end%u", i);

      wn_process_add_node (process, id, WN_NODE_END);
    }
  /* Flows may name nodes in any order; defaults and hosts resolve at finish. */
  wn_process_add_flow (process, "f1", "s", "w", NULL);
  wn_process_add_flow (process, "f2", "w", "g", NULL);
  wn_process_add_flow (process, "hi", "g", "end0", "x > 1");
  wn_process_add_flow (process, "lo", "g", "end1", NULL);
  wn_process_add_flow (process, "caught", "b", "end2", NULL);
  g_assert_true (wn_process_set_default_flow (process, "g", "lo"));
  g_assert_true (wn_process_set_attached_to (process, "b", "w"));
  g_assert_false (wn_process_set_attached_to (process, "nope", "w"));

  g_assert_true (wn_process_finish (process, &error));
  g_assert_no_error (error);

  g_assert_cmpuint (process->start, ==, 0);
  g_assert_cmpuint (process->n_nodes, ==, 24);
  node = &process->nodes[node_index (process, "g")];
  g_assert_cmpint (node->default_flow, ==, flow_index (process, "lo"));
  g_assert_cmpuint (node->outgoing->len, ==, 2);
  g_assert_cmpuint (g_array_index (node->outgoing, guint, 0), ==, (guint) flow_index (process, "hi"));
  g_assert_cmpuint (node->incoming->len, ==, 1);
  node = &process->nodes[node_index (process, "w")];
  g_assert_cmpstr (node->worker->output_var, ==, "w");
  g_assert_cmpuint (node->boundaries->len, ==, 1);
  g_assert_cmpint (process->nodes[node_index (process, "b")].attached_to, ==, node_index (process, "w"));
  g_assert_nonnull (process->flows[flow_index (process, "hi")].condition);
  g_assert_cmpuint (process->flows[flow_index (process, "caught")].from, ==, (guint) node_index (process, "b"));
  /* Finishing twice is harmless. */
  g_assert_true (wn_process_finish (process, NULL));
  g_assert_true (wn_process_ref (process) == process);
  wn_process_unref (process);
}

static void
test_builder_errors (void)
{
  g_autoptr(WnProcess) process = wn_process_new ("bad");
  g_autoptr(GError) error = NULL;

  wn_process_add_node (process, "s", WN_NODE_START);
  wn_process_add_node (process, "s", WN_NODE_TASK);
  wn_process_add_node (process, "g", WN_NODE_PARALLEL);
  wn_process_add_node (process, "b", WN_NODE_BOUNDARY);
  wn_process_add_flow (process, "f1", "s", "ghost", NULL);
  wn_process_add_flow (process, "f2", "s", "g", "((");
  wn_process_set_default_flow (process, "g", "f2");
  wn_process_set_attached_to (process, "b", "g");

  g_assert_false (wn_process_finish (process, &error));
  g_assert_error (error, WN_LOAD_ERROR, WN_LOAD_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "flow \"f2\": condition: at 2:"));
  g_assert_nonnull (strstr (error->message, "duplicate node id \"s\""));
  g_assert_nonnull (strstr (error->message, "no end event"));
  g_assert_nonnull (strstr (error->message, "flow \"f1\": unknown node \"ghost\""));
  g_assert_nonnull (strstr (error->message, "node \"g\" is not an exclusive gateway"));
  g_assert_nonnull (strstr (error->message, "boundary \"b\": host \"g\" is a parallelGateway, not a task"));
}

static void
test_node_types_and_config (void)
{
  WnEngineConfig base = { 0 };
  WnEngineConfig over = { 0 };
  WnNodeType type = WN_NODE_START;

  for (guint t = WN_NODE_START; t <= WN_NODE_EVENT_GATEWAY; t++)
    {
      g_assert_true (wn_node_type_from_string (wn_node_type_to_string (t), &type));
      g_assert_cmpint (type, ==, (int) t);
    }
  g_assert_cmpstr (wn_node_type_to_string (WN_NODE_EXCLUSIVE), ==, "exclusiveGateway");
  g_assert_false (wn_node_type_from_string ("sendTask", &type));
  g_assert_false (wn_node_type_from_string (NULL, &type));

  base.policy.trust = WN_TRUST_WORKER_TRUSTED;
  base.has_max_lock = TRUE;
  base.max_lock = SEC (300);
  base.on_exhausted = WN_ON_EXHAUSTED_FAIL;
  over.policy.has_retry = TRUE;
  over.policy.retry = wn_retry_policy_none ();
  over.policy.mapper = wn_error_mapper_new (NULL, 0);
  over.on_exhausted = WN_ON_EXHAUSTED_INCIDENT;

  wn_engine_config_merge (&base, &over);
  g_assert_cmpint (base.policy.trust, ==, WN_TRUST_WORKER_TRUSTED);   /* unset in over: kept */
  g_assert_true (base.policy.has_retry);
  g_assert_cmpint (base.policy.retry.kind, ==, WN_RETRY_NONE);
  g_assert_true (base.policy.mapper == over.policy.mapper);
  g_assert_cmpint (base.max_lock, ==, SEC (300));
  g_assert_cmpint (base.on_exhausted, ==, WN_ON_EXHAUSTED_INCIDENT);

  wn_engine_config_clear (&over);
  wn_engine_config_clear (&base);
  g_assert_null (base.policy.mapper);
  g_assert_false (base.has_max_lock);
}

/* Sizes a run cannot hold are refused where they are written: a worker's
 * `concurrency` (its documented maximum was once 4294967295, which aborted
 * allocating 378 GB) and the instances of all `start` entries together. */
static void
test_scenario_size_limits (void)
{
  g_autofree char *errors = scenario_errors (
    "{`format`: `winnow.scenario/1`, `start`: [{`count`: 4294967295}],\n"
    " `workers`: [{`id`: `w`, `topic`: `t`, `concurrency`: 4294967295, `responses`: [{`complete`: 1}]},\n"
    "             {`id`: `v`, `topic`: `t`, `concurrency`: 10001, `responses`: [{`complete`: 1}]}]}");
  g_autofree char *sum = scenario_errors (
    "{`format`: `winnow.scenario/1`, `start`: [{`count`: 6000000}, {`count`: 4000001}]}");
  g_autoptr(WnScenario) most = scenario_ok (
    "{`format`: `winnow.scenario/1`, `start`: [{`count`: 6000000}, {`count`: 4000000}],\n"
    " `workers`: [{`id`: `w`, `topic`: `t`, `concurrency`: 10000, `responses`: [{`complete`: 1}]}]}");

  g_assert_cmpstr (errors, ==,
    "t.json:1:53: start[0].count: would start 4294967295 instances in all, more than the 10000000 a run can hold\n"
    "t.json:2:55: workers[0].concurrency: must be at most 10000\n"
    "t.json:3:55: workers[1].concurrency: must be at most 10000");
  g_assert_cmpstr (sum, ==,
    "t.json:1:73: start[1].count: would start 10000001 instances in all, more than the 10000000 a run can hold");
  g_assert_cmpuint (g_array_index (most->start, WnStartSpec, 1).count, ==, 4000000);
  g_assert_cmpuint (((WnWorkerConfig *) g_ptr_array_index (most->workers, 0))->concurrency, ==, 10000);
}

/* `decisions` (weights per flow of a gateway the scenario decides) and the
 * process's `decidedBy`: bad weights are refused where they are written. */
static void
test_decisions (void)
{
  g_autofree char *errors = scenario_errors (
    "{`format`: `winnow.scenario/1`, `decisions`: {\n"
    "  `g1`: {`a`: -1, `b`: 2.5},\n"
    "  `g2`: {`a`: 0, `b`: 0},\n"
    "  `g3`: {},\n"
    "  `g4`: [1, 2],\n"
    "  `g5`: {`a`: `3`}}}");
  g_autofree char *not_object = scenario_errors ("{`format`: `winnow.scenario/1`, `decisions`: [1]}");
  g_autofree char *process = process_errors (HEAD
    "`nodes`: [{`id`: `s`, `type`: `startEvent`},\n"
    "  {`id`: `g`, `type`: `exclusiveGateway`, `decidedBy`: `scenario`},\n"
    "  {`id`: `h`, `type`: `exclusiveGateway`, `decidedBy`: `operator`},\n"
    "  {`id`: `k`, `type`: `exclusiveGateway`, `default`: `f6`, `decidedBy`: `scenario`},\n"
    "  {`id`: `e`, `type`: `endEvent`}],\n"
    "`flows`: [{`id`: `f1`, `from`: `s`, `to`: `g`}, {`id`: `f2`, `from`: `g`, `to`: `h`, `condition`: `true`},\n"
    "  {`id`: `f3`, `from`: `g`, `to`: `e`}, {`id`: `f4`, `from`: `h`, `to`: `k`}, {`id`: `f5`, `from`: `k`, `to`: `e`},\n"
    "  {`id`: `f6`, `from`: `k`, `to`: `e`}]}");
  g_autoptr(WnScenario) ok = scenario_ok ("{`format`: `winnow.scenario/1`, `decisions`: "
                                          "{`g`: {`a`: 3, `b`: 0, `c`: 1}}}");
  const WnDecisionSpec *spec;

  g_assert_cmpstr (errors, ==,
    "t.json:2:15: decisions.g1.a: must be ≥ 0\n"
    "t.json:2:24: decisions.g1.b: must be an integer ≥ 0, not a fraction\n"
    "t.json:3:9: decisions.g2: the weights of gateway \"g2\" add up to 0: at least one flow needs a weight ≥ 1\n"
    "t.json:4:9: decisions.g3: gives no flows: weigh each flow leaving gateway \"g3\", such as "
    "{\"Flow_a\": 3, \"Flow_b\": 1}\n"
    "t.json:5:9: decisions.g4: must be an object, not an array\n"
    "t.json:6:15: decisions.g5.a: must be an integer ≥ 0, not a string");
  g_assert_cmpstr (not_object, ==, "t.json:1:46: decisions: must be an object, not an array");
  g_assert_cmpstr (process, ==,
    "t.json:4:56: nodes[2].decidedBy: must be \"scenario\" (the scenario's `decisions` weigh the flows), "
    "not \"operator\"\n"
    "t.json:5:73: nodes[3].decidedBy: a gateway the scenario decides has no `default` flow: every flow "
    "leaving it is one the draw can take\n"
    "t.json:7:99: flows[1].condition: a flow leaving a gateway the scenario decides (\"decidedBy\": "
    "\"scenario\") takes no condition");
  g_assert_cmpuint (ok->decisions->len, ==, 1);
  spec = &g_array_index (ok->decisions, WnDecisionSpec, 0);
  g_assert_cmpstr (spec->gateway, ==, "g");
  g_assert_cmpuint (spec->weights->len, ==, 3);
  g_assert_cmpstr (g_array_index (spec->weights, WnDecisionWeight, 2).flow, ==, "c");
  g_assert_cmpuint (g_array_index (spec->weights, WnDecisionWeight, 0).weight, ==, 3);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/engine/Loader/json-values", test_json_values);
  g_test_add_func ("/engine/Loader/json-positions", test_json_positions);
  g_test_add_func ("/engine/Loader/json-errors", test_json_errors);
  g_test_add_func ("/engine/Loader/json-bom-and-copy", test_json_bom_and_copy);
  g_test_add_func ("/engine/Loader/json-data", test_json_data);
  g_test_add_func ("/engine/Loader/examples", test_examples);
  g_test_add_func ("/engine/Loader/embedded-scenario", test_embedded_scenario);
  g_test_add_func ("/engine/Loader/io-error", test_io_error);
  g_test_add_func ("/engine/Loader/input-limits", test_input_limits);
  g_test_add_func ("/engine/Loader/syntax-error", test_syntax_error);
  g_test_add_func ("/engine/Loader/not-an-object", test_not_an_object);
  g_test_add_func ("/engine/Loader/unknown-keys", test_unknown_keys);
  g_test_add_func ("/engine/Loader/x-keys-accepted", test_x_keys_accepted);
  g_test_add_func ("/engine/Loader/node-errors", test_node_errors);
  g_test_add_func ("/engine/Loader/flow-errors", test_flow_errors);
  g_test_add_func ("/engine/Loader/start-and-end", test_start_and_end);
  g_test_add_func ("/engine/Loader/unreachable", test_unreachable);
  g_test_add_func ("/engine/Loader/boundary-and-default", test_boundary_and_default);
  g_test_add_func ("/engine/Loader/lite-errors", test_lite_errors);
  g_test_add_func ("/engine/Loader/script-set-order", test_script_set_order);
  g_test_add_func ("/engine/Loader/duration-errors", test_duration_errors);
  g_test_add_func ("/engine/Loader/worker-errors", test_worker_errors);
  g_test_add_func ("/engine/Loader/retry-policies", test_retry_policies);
  g_test_add_func ("/engine/Loader/retry-errors", test_retry_errors);
  g_test_add_func ("/engine/Loader/whole-number-messages", test_whole_number_messages);
  g_test_add_func ("/engine/Loader/error-mapper", test_error_mapper);
  g_test_add_func ("/engine/Loader/error-mapper-errors", test_error_mapper_errors);
  g_test_add_func ("/engine/Loader/output-mapping-conflicts", test_output_mapping_conflicts);
  g_test_add_func ("/engine/Loader/output-mapping-bad-target", test_output_mapping_bad_target);
  g_test_add_func ("/engine/Loader/multiple-errors", test_multiple_errors);
  g_test_add_func ("/engine/Loader/error-cap", test_error_cap);
  g_test_add_func ("/engine/Loader/hostile-input", test_hostile_input);
  g_test_add_func ("/engine/Loader/scenario-responses", test_scenario_responses);
  g_test_add_func ("/engine/Loader/scenario-defaults", test_scenario_defaults);
  g_test_add_func ("/engine/Loader/scenario-errors", test_scenario_errors);
  g_test_add_func ("/engine/Loader/random-weights", test_random_weights);
  g_test_add_func ("/engine/Loader/load-response", test_load_response);
  g_test_add_func ("/engine/Loader/response-matches", test_response_matches);
  g_test_add_func ("/engine/Loader/response-describe", test_response_describe);
  g_test_add_func ("/engine/Loader/builder", test_builder);
  g_test_add_func ("/engine/Loader/scenario-size-limits", test_scenario_size_limits);
  g_test_add_func ("/engine/Loader/builder-errors", test_builder_errors);
  g_test_add_func ("/engine/Loader/node-types-and-config", test_node_types_and_config);
  g_test_add_func ("/engine/Loader/decisions", test_decisions);

  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Responses built by hand (the app's fault injection): each is one a scenario
 * file could hold, reads back the same, and is refused with a named error
 * where a file's would be. */
#include "wn-test-util.h"

static char *
to_text (const WnResponse *response)
{
  g_autoptr(JsonNode) node = wn_response_to_json (response);

  return json_to_string (node, FALSE);
}

/* `built` is what the file text `expected` says, and the loader reading that
 * text builds the same response. */
static void
assert_as_file (WnResponse *built,
                const char *expected)
{
  g_autoptr(WnResponse) built_ref = built;
  g_autoptr(WnResponse) loaded = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *loaded_text = NULL;
  g_autofree char *built_line = NULL;
  g_autofree char *loaded_line = NULL;

  g_assert_nonnull (built);
  text = to_text (built);
  g_assert_cmpstr (text, ==, expected);

  loaded = wn_load_response_data (expected, -1, "response", NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (loaded);
  g_assert_cmpint (loaded->kind, ==, built->kind);
  g_assert_cmpint (loaded->after, ==, built->after);
  loaded_text = to_text (loaded);
  g_assert_cmpstr (loaded_text, ==, text);
  built_line = wn_response_describe (built);
  loaded_line = wn_response_describe (loaded);
  g_assert_cmpstr (built_line, ==, loaded_line);
}

static void
test_builders (void)
{
  g_autoptr(JsonNode) output = wn_test_json ("{\"id\": 7, \"items\": [1, 2]}");
  g_autoptr(JsonNode) body = wn_test_json ("{\"retryAfter\": 3}");
  g_autoptr(JsonNode) status = wn_test_json ("\"DECLINED\"");
  g_autoptr(JsonNode) late = wn_test_json ("{\"late\": true}");
  g_autoptr(GError) error = NULL;
  WnResponse *response;

  assert_as_file (wn_response_new_complete (output), "{\"complete\":{\"id\":7,\"items\":[1,2]}}");
  /* no output is {}, as a file must say it */
  assert_as_file (wn_response_new_complete (NULL), "{\"complete\":{}}");

  assert_as_file (wn_response_new_fail ("503", body, "down"),
                  "{\"fail\":{\"code\":\"503\",\"body\":{\"retryAfter\":3},\"message\":\"down\"}}");
  assert_as_file (wn_response_new_fail (NULL, NULL, NULL), "{\"fail\":{}}");

  response = wn_response_new_bpmn_error ("Declined", "card declined", &error);
  g_assert_no_error (error);
  assert_as_file (response, "{\"workerError\":{\"bpmnErrorCode\":\"Declined\",\"message\":\"card declined\"}}");

  response = wn_response_new_status (status, NULL, &error);
  g_assert_no_error (error);
  assert_as_file (response, "{\"workerError\":{\"status\":\"DECLINED\"}}");

  assert_as_file (wn_response_new_cause ("timeout", NULL), "{\"workerError\":{\"cause\":\"timeout\"}}");
  assert_as_file (wn_response_new_crash (), "{\"crash\":true}");

  response = wn_response_new_hang (2 * WN_USEC_PER_SEC, NULL, &error);
  g_assert_no_error (error);
  assert_as_file (response, "{\"after\":\"2000000us\",\"hang\":true}");
  response = wn_response_new_hang (0, late, &error);
  g_assert_no_error (error);
  assert_as_file (response, "{\"hang\":{\"late\":true}}");

  response = wn_response_new_fail ("500", NULL, NULL);
  g_assert_true (wn_response_set_after (response, 250 * WN_USEC_PER_MSEC, &error));
  g_assert_no_error (error);
  assert_as_file (response, "{\"after\":\"250000us\",\"fail\":{\"code\":\"500\"}}");
}

/* Values are copied: the caller's may change or go. */
static void
test_builders_copy (void)
{
  g_autoptr(JsonNode) output = wn_test_json ("{\"n\": 1}");
  g_autoptr(WnResponse) response = wn_response_new_complete (output);
  g_autofree char *text = NULL;

  json_object_set_int_member (json_node_get_object (output), "n", 2);
  g_clear_pointer (&output, json_node_unref);
  text = to_text (response);
  g_assert_cmpstr (text, ==, "{\"complete\":{\"n\":1}}");
}

/* What a file would be refused for, the builders refuse with a code. */
static void
test_builder_errors (void)
{
  g_autoptr(JsonNode) list = wn_test_json ("[1]");
  g_autoptr(WnResponse) random = NULL;
  g_autoptr(WnResponse) crash = wn_response_new_crash ();
  GError *error = NULL;

  g_assert_null (wn_response_new_bpmn_error (NULL, NULL, &error));
  g_assert_error (error, WN_RESPONSE_ERROR, WN_RESPONSE_ERROR_NO_CODE);
  g_clear_error (&error);
  g_assert_null (wn_response_new_bpmn_error ("", "m", &error));
  g_assert_error (error, WN_RESPONSE_ERROR, WN_RESPONSE_ERROR_NO_CODE);
  g_clear_error (&error);
  g_assert_null (wn_load_response_data ("{\"workerError\": {\"bpmnErrorCode\": \"\"}}", -1, "r", NULL, &error));
  g_assert_error (error, WN_LOAD_ERROR, WN_LOAD_ERROR_INVALID);
  g_clear_error (&error);

  g_assert_null (wn_response_new_status (NULL, NULL, &error));
  g_assert_error (error, WN_RESPONSE_ERROR, WN_RESPONSE_ERROR_NO_STATUS);
  g_clear_error (&error);

  g_assert_null (wn_response_new_hang (0, list, &error));
  g_assert_error (error, WN_RESPONSE_ERROR, WN_RESPONSE_ERROR_NOT_OBJECT);
  g_clear_error (&error);
  g_assert_null (wn_load_response_data ("{\"hang\": [1]}", -1, "r", NULL, &error));
  g_assert_error (error, WN_LOAD_ERROR, WN_LOAD_ERROR_INVALID);
  g_clear_error (&error);

  g_assert_null (wn_response_new_hang (-1, NULL, &error));
  g_assert_error (error, WN_RESPONSE_ERROR, WN_RESPONSE_ERROR_NEGATIVE);
  g_clear_error (&error);
  g_assert_false (wn_response_set_after (crash, -WN_USEC_PER_SEC, &error));
  g_assert_error (error, WN_RESPONSE_ERROR, WN_RESPONSE_ERROR_NEGATIVE);
  g_clear_error (&error);
  g_assert_cmpint (crash->after, ==, 0);

  random = wn_load_response_data ("{\"random\": [{\"p\": 1, \"crash\": true}]}", -1, "r", NULL, &error);
  g_assert_no_error (error);
  g_assert_false (wn_response_set_after (random, WN_USEC_PER_SEC, &error));
  g_assert_error (error, WN_RESPONSE_ERROR, WN_RESPONSE_ERROR_NO_AFTER);
  g_clear_error (&error);
}

/* A built response injects and is saved with the session as a file would
 * have it: the saved session replays the same run. */
static void
test_builder_injects_and_replays (void)
{
  const char *process =
    "{\"format\": \"winnow.process/1\", \"id\": \"p\", \"nodes\": ["
    "{\"id\": \"s\", \"type\": \"startEvent\"},"
    "{\"id\": \"w\", \"type\": \"serviceTask\", \"worker\": {\"topic\": \"t\", \"retry\": {\"policy\": \"none\"}}},"
    "{\"id\": \"b\", \"type\": \"boundaryEvent\", \"attachedTo\": \"w\", \"error\": \"Declined\"},"
    "{\"id\": \"ok\", \"type\": \"endEvent\"}, {\"id\": \"caught\", \"type\": \"endEvent\"}],"
    "\"flows\": [{\"id\": \"f1\", \"from\": \"s\", \"to\": \"w\"}, {\"id\": \"f2\", \"from\": \"w\", \"to\": \"ok\"},"
    "{\"id\": \"f3\", \"from\": \"b\", \"to\": \"caught\"}]}";
  g_autoptr(WnTestRun) run = wn_test_run_new (process, NULL, NULL);
  g_autoptr(WnTestRun) replay = NULL;
  g_autoptr(WnResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *saved = NULL;
  WnInstanceInfo info;

  response = wn_response_new_bpmn_error ("Declined", "injected", &error);
  g_assert_no_error (error);
  g_assert_true (wn_response_set_after (response, 100 * WN_USEC_PER_MSEC, &error));
  g_assert_true (wn_engine_inject (run->engine, "t", NULL, response, &error));
  g_assert_no_error (error);
  g_assert_nonnull (wn_engine_start_instance (run->engine, NULL, &error));
  wn_test_run_until (run, WN_TIME_NEVER);
  g_assert_true (wn_engine_lookup_instance (run->engine, "i1", &info));
  g_assert_cmpstr (info.end_node, ==, "caught");
  g_assert_cmpint (info.ended_at, ==, 100 * WN_USEC_PER_MSEC);

  saved = wn_engine_export_session (run->engine);
  replay = wn_test_run_new (process, saved, NULL);
  wn_test_run_until (replay, WN_TIME_NEVER);
  g_assert_cmpuint (replay->events->len, ==, run->events->len);
  for (guint i = 0; i < run->events->len; i++)
    {
      g_autoptr(GString) a = g_string_new (NULL);
      g_autoptr(GString) b = g_string_new (NULL);

      wn_event_append_json (g_ptr_array_index (run->events, i), a);
      wn_event_append_json (g_ptr_array_index (replay->events, i), b);
      g_assert_cmpstr (a->str, ==, b->str);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/engine/Response/builders", test_builders);
  g_test_add_func ("/engine/Response/builders-copy", test_builders_copy);
  g_test_add_func ("/engine/Response/builder-errors", test_builder_errors);
  g_test_add_func ("/engine/Response/builder-injects-and-replays", test_builder_injects_and_replays);

  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The REST API (src/server) endpoint by endpoint, with libsoup's client on
 * the same main context as the server and the engine. */
#include <string.h>

#include <libsoup/soup.h>

#include "wn-test-util.h"
#include "wn-rest-server.h"

#define SEC WN_USEC_PER_SEC

static const char *process_json =
  "{ \"format\": \"winnow.process/1\", \"id\": \"p\","
  "  \"variables\": { \"order\": { \"id\": \"A-1\", \"total\": 50 }, \"n\": 3, \"name\": \"x\" },"
  "  \"engine\": { \"maxLock\": \"1m\" },"
  "  \"nodes\": ["
  "    { \"id\": \"start\", \"type\": \"startEvent\" },"
  "    { \"id\": \"task\", \"type\": \"serviceTask\", \"worker\": { \"topic\": \"t\" } },"
  "    { \"id\": \"raw\", \"type\": \"serviceTask\", \"worker\": { \"topic\": \"r\","
  "        \"trust\": \"engineAuthoritative\", \"retry\": { \"policy\": \"fixed\", \"maxAttempts\": 3, \"delay\": \"1s\" } } },"
  "    { \"id\": \"done\", \"type\": \"endEvent\" } ],"
  "  \"flows\": ["
  "    { \"id\": \"f1\", \"from\": \"start\", \"to\": \"task\" },"
  "    { \"id\": \"f2\", \"from\": \"task\", \"to\": \"raw\" },"
  "    { \"id\": \"f3\", \"from\": \"raw\", \"to\": \"done\" } ] }";

typedef struct {
  WnTestRun    *run;
  WnRestServer *server;
  SoupSession  *session;
  char         *base;
} Fixture;

typedef struct {
  guint     status;
  JsonNode *body;   /* NULL when empty */
  char     *text;
  char     *content_type;
} Answer;

static void
answer_clear (Answer *a)
{
  g_clear_pointer (&a->body, json_node_unref);
  g_clear_pointer (&a->text, g_free);
  g_clear_pointer (&a->content_type, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Answer, answer_clear)

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  WnEngineOptions options = { 0 };

  options.no_implicit_workers = TRUE;
  f->run = wn_test_run_new (process_json, NULL, &options);
  wn_engine_run (f->run->engine, 0);
  f->server = wn_rest_server_new (f->run->engine);
  g_assert_true (wn_rest_server_listen (f->server, NULL, 0, &error));
  g_assert_no_error (error);
  f->base = g_strdup (wn_rest_server_get_url (f->server));
  g_assert_true (g_str_has_prefix (f->base, "http://127.0.0.1:"));
  f->session = soup_session_new ();
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  soup_session_abort (f->session);
  g_object_unref (f->session);
  /* let the server see its clients go before it goes */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  wn_rest_server_free (f->server);
  wn_test_run_free (f->run);
  g_free (f->base);
}

static void
sent_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      data)
{
  GBytes **out = data;
  g_autoptr(GError) error = NULL;

  *out = soup_session_send_and_read_finish (SOUP_SESSION (source), result, &error);
  g_assert_no_error (error);
}

/* Send and wait (the main loop runs the server meanwhile). */
static void
request_full (Fixture    *f,
              const char *method,
              const char *path,
              const char *body,
              gsize       body_len,
              const char *auth,
              Answer     *a)
{
  g_autofree char *url = g_strconcat (f->base, path, NULL);
  g_autoptr(SoupMessage) msg = soup_message_new (method, url);
  GBytes *bytes = NULL;
  const char *type;
  gsize size;

  g_assert_nonnull (msg);
  if (body != NULL)
    {
      g_autoptr(GBytes) payload = g_bytes_new (body, body_len);

      soup_message_set_request_body_from_bytes (msg, "application/json", payload);
    }
  if (auth != NULL)
    soup_message_headers_replace (soup_message_get_request_headers (msg), "Authorization", auth);
  soup_session_send_and_read_async (f->session, msg, G_PRIORITY_DEFAULT, NULL, sent_cb, &bytes);
  while (bytes == NULL)
    g_main_context_iteration (NULL, TRUE);

  memset (a, 0, sizeof *a);
  a->status = soup_message_get_status (msg);
  type = soup_message_headers_get_one (soup_message_get_response_headers (msg), "Content-Type");
  a->content_type = g_strdup (type);
  a->text = g_strndup (g_bytes_get_data (bytes, &size), g_bytes_get_size (bytes));
  if (size > 0)
    {
      g_assert_cmpstr (type, ==, "application/json");
      a->body = wn_test_json (a->text);
    }
  g_bytes_unref (bytes);
}

static void
request (Fixture    *f,
         const char *method,
         const char *path,
         const char *body,
         Answer     *a)
{
  request_full (f, method, path, body, body != NULL ? strlen (body) : 0, NULL, a);
}

/* The message of an error answer, after checking its shape. */
static const char *
error_message (const Answer *a,
               const char   *type)
{
  JsonObject *object;

  g_assert_nonnull (a->body);
  object = json_node_get_object (a->body);
  g_assert_cmpstr (json_object_get_string_member (object, "type"), ==, type);
  return json_object_get_string_member (object, "message");
}

static void
assert_bad_request (Fixture    *f,
                    const char *method,
                    const char *path,
                    const char *body,
                    const char *message)
{
  g_auto(Answer) a;

  request (f, method, path, body, &a);
  g_assert_cmpuint (a.status, ==, 400);
  if (message != NULL)
    g_assert_cmpstr (error_message (&a, "InvalidRequestException"), ==, message);
  else
    error_message (&a, "InvalidRequestException");
}

/* A request whose answer must have `status`; returns nothing else. */
static void
assert_status (Fixture    *f,
               const char *method,
               const char *path,
               const char *body,
               guint       status)
{
  g_auto(Answer) a;

  request (f, method, path, body, &a);
  g_assert_cmpuint (a.status, ==, status);
}

/* The ids a fetchAndLock `body` locks, as "i1/j1 i2/j1". */
static char *
fetch_ids (Fixture    *f,
           const char *body)
{
  g_auto(Answer) a;
  g_autoptr(GString) ids = g_string_new (NULL);
  JsonArray *tasks;

  request (f, "POST", "/external-task/fetchAndLock", body, &a);
  g_assert_cmpuint (a.status, ==, 200);
  tasks = json_node_get_array (a.body);
  for (guint i = 0; i < json_array_get_length (tasks); i++)
    g_string_append_printf (ids, "%s%s", i > 0 ? " " : "",
                            json_object_get_string_member (json_array_get_object_element (tasks, i), "id"));
  return g_string_free (g_steal_pointer (&ids), FALSE);
}

static const char *fetch_t =
  "{\"workerId\": \"w1\", \"maxTasks\": 5, \"topics\": [{\"topicName\": \"t\", \"lockDuration\": 10000}]}";
static const char *fetch_r =
  "{\"workerId\": \"w1\", \"maxTasks\": 5, \"topics\": [{\"topicName\": \"r\", \"lockDuration\": 10000}]}";

/* Lock i1/j1 for w1 (10 s). */
static void
lock_first (Fixture *f)
{
  g_auto(Answer) a;

  request (f, "POST", "/external-task/fetchAndLock", fetch_t, &a);
  g_assert_cmpuint (a.status, ==, 200);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (a.body)), ==, 1);
}

static void
complete_first (Fixture *f)
{
  g_auto(Answer) a;

  request (f, "POST", "/external-task/i1/j1/complete", "{\"workerId\": \"w1\"}", &a);
  g_assert_cmpuint (a.status, ==, 204);
  wn_engine_run (f->run->engine, wn_engine_now (f->run->engine));
}

static void
test_version (Fixture *f, gconstpointer data)
{
  g_auto(Answer) a;
  g_auto(Answer) b;

  request (f, "GET", "/version", NULL, &a);
  g_assert_cmpuint (a.status, ==, 200);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (a.body), "version"), ==, "7.20.0");
  request (f, "POST", "/version", "{}", &b);
  g_assert_cmpuint (b.status, ==, 405);
}

static void
test_unknown_path (Fixture *f, gconstpointer data)
{
  g_auto(Answer) a;

  request (f, "GET", "/nothing-here", NULL, &a);
  g_assert_cmpuint (a.status, ==, 404);
  error_message (&a, "RestException");
}

static void
test_fetch (Fixture *f, gconstpointer data)
{
  g_auto(Answer) a;
  g_auto(Answer) b;
  JsonObject *task, *vars;

  request (f, "POST", "/external-task/fetchAndLock",
           "{\"workerId\": \"w1\", \"maxTasks\": 5, \"usePriority\": true, \"topics\": "
           "[{\"topicName\": \"t\", \"lockDuration\": 10000, \"variables\": [\"order\", \"n\"]}]}", &a);
  g_assert_cmpuint (a.status, ==, 200);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (a.body)), ==, 1);
  task = json_array_get_object_element (json_node_get_array (a.body), 0);
  g_assert_cmpstr (json_object_get_string_member (task, "id"), ==, "i1/j1");
  g_assert_cmpstr (json_object_get_string_member (task, "topicName"), ==, "t");
  g_assert_cmpstr (json_object_get_string_member (task, "workerId"), ==, "w1");
  g_assert_cmpstr (json_object_get_string_member (task, "activityId"), ==, "task");
  g_assert_cmpstr (json_object_get_string_member (task, "processInstanceId"), ==, "i1");
  g_assert_cmpstr (json_object_get_string_member (task, "processDefinitionKey"), ==, "p");
  g_assert_cmpstr (json_object_get_string_member (task, "lockExpirationTime"), ==, "1970-01-01T00:00:10.000+0000");
  g_assert_true (json_object_get_null_member (task, "retries"));
  vars = json_object_get_object_member (task, "variables");
  g_assert_cmpuint (json_object_get_size (vars), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (vars, "order"), "type"), ==, "Json");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (vars, "order"), "value"), ==,
                   "{\"id\":\"A-1\",\"total\":50}");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (vars, "n"), "type"), ==, "Integer");
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (vars, "n"), "value"), ==, 3);
  /* nothing more, for anyone */
  request (f, "POST", "/external-task/fetchAndLock", fetch_t, &b);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (b.body)), ==, 0);
  /* journalled with the worker */
  g_assert_cmpstr (wn_test_find (f->run, WN_EV_JOB, WN_PH_LOCKED, "task", 0)->worker, ==, "w1");
}

static void
test_fetch_filters (Fixture *f, gconstpointer data)
{
  g_auto(Answer) a;
  g_auto(Answer) b;

  /* another process's key: nothing */
  request (f, "POST", "/external-task/fetchAndLock",
           "{\"workerId\": \"w1\", \"maxTasks\": 5, \"topics\": [{\"topicName\": \"t\", \"lockDuration\": 1000,"
           " \"processDefinitionKey\": \"other\"}]}", &a);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (a.body)), ==, 0);
  request (f, "POST", "/external-task/fetchAndLock",
           "{\"workerId\": \"w1\", \"maxTasks\": 0, \"topics\": [{\"topicName\": \"t\", \"lockDuration\": 1000}]}", &b);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (b.body)), ==, 0);
}

static void
test_fetch_bad (Fixture *f, gconstpointer data)
{
  assert_bad_request (f, "POST", "/external-task/fetchAndLock", "{\"maxTasks\": 1, \"topics\": []}",
                      "workerId: is required");
  assert_bad_request (f, "POST", "/external-task/fetchAndLock", "{\"workerId\": \"w\", \"topics\": []}",
                      "maxTasks: is required");
  assert_bad_request (f, "POST", "/external-task/fetchAndLock",
                      "{\"workerId\": \"w\", \"maxTasks\": 1, \"topics\": [], \"extra\": 1}", "extra: unknown field");
  assert_bad_request (f, "POST", "/external-task/fetchAndLock",
                      "{\"workerId\": 7, \"maxTasks\": 1, \"topics\": []}", "workerId: must be a string");
  assert_bad_request (f, "POST", "/external-task/fetchAndLock",
                      "{\"workerId\": \"w\", \"maxTasks\": 1, \"topics\": [{\"topicName\": \"t\", \"lockDuration\": \"1s\"}]}",
                      "topics[0].lockDuration: must be an integer");
  assert_bad_request (f, "POST", "/external-task/fetchAndLock",
                      "{\"workerId\": \"w\", \"maxTasks\": 1, \"topics\": [{\"topicName\": \"t\"}]}",
                      "topics[0].lockDuration: is required");
  assert_bad_request (f, "POST", "/external-task/fetchAndLock",
                      "{\"workerId\": \"w\", \"maxTasks\": 1, \"topics\": [{\"topicName\": \"t\", \"lockDuration\": 1, \"tpyo\": 1}]}",
                      "topics[0].tpyo: unknown field");
  assert_bad_request (f, "POST", "/external-task/fetchAndLock",
                      "{\"workerId\": \"w\", \"maxTasks\": -1, \"topics\": []}",
                      "maxTasks: must be between 0 and 2147483647");
  assert_bad_request (f, "POST", "/external-task/fetchAndLock",
                      "{\"workerId\": \"w\", \"maxTasks\": 1, \"topics\": [{\"topicName\": \"t\", \"lockDuration\": 1, \"variables\": [1]}]}",
                      "topics[0].variables[0]: must be a string");
  assert_bad_request (f, "POST", "/external-task/fetchAndLock", "[1, 2]", "the body must be a JSON object");
  assert_bad_request (f, "POST", "/external-task/fetchAndLock",
                      "{\"workerId\": \"implicit:t\", \"maxTasks\": 1, \"topics\": []}", NULL);
}

static void
test_malformed (Fixture *f, gconstpointer data)
{
  g_auto(Answer) a;
  g_auto(Answer) b;

  request (f, "POST", "/external-task/fetchAndLock", "{\"workerId\": ", &a);
  g_assert_cmpuint (a.status, ==, 400);
  g_assert_true (g_str_has_prefix (error_message (&a, "InvalidRequestException"), "the body is not JSON: "));
  request_full (f, "POST", "/external-task/fetchAndLock", "{\"a\0\": 1}", 9, NULL, &b);
  g_assert_cmpuint (b.status, ==, 400);
}

static void
test_body_cap (Fixture *f, gconstpointer data)
{
  g_autofree char *big = g_strnfill (3000, ' ');
  g_auto(Answer) a;
  g_auto(Answer) b;

  wn_rest_server_set_max_body (f->server, 2000);
  request (f, "POST", "/external-task/fetchAndLock", big, &a);
  g_assert_cmpuint (a.status, ==, 413);
  error_message (&a, "RestException");
  /* under the cap, the same server answers */
  request (f, "POST", "/external-task/fetchAndLock", fetch_t, &b);
  g_assert_cmpuint (b.status, ==, 200);
}

static void
test_basic_auth (Fixture *f, gconstpointer data)
{
  g_autofree char *credentials = g_base64_encode ((const guchar *) "ann:secret", 10);
  g_autofree char *good = g_strdup_printf ("Basic %s", credentials);
  g_auto(Answer) a;
  g_auto(Answer) b;
  g_auto(Answer) c;

  wn_rest_server_set_basic_auth (f->server, "ann", "secret");
  request (f, "GET", "/version", NULL, &a);
  g_assert_cmpuint (a.status, ==, 401);
  request_full (f, "GET", "/version", NULL, 0, "Basic YW5uOndyb25n", &b);
  g_assert_cmpuint (b.status, ==, 401);
  request_full (f, "GET", "/version", NULL, 0, good, &c);
  g_assert_cmpuint (c.status, ==, 200);
}

static void
test_complete (Fixture *f, gconstpointer data)
{
  g_auto(Answer) a;
  g_auto(Answer) b;
  g_autofree char *rid = NULL;
  g_autofree char *doc = NULL;

  lock_first (f);
  request (f, "POST", "/external-task/i1/j1/complete",
           "{\"workerId\": \"w1\", \"variables\": {\"rid\": {\"value\": \"R-1\", \"type\": \"String\", \"valueInfo\": {}},"
           " \"doc\": {\"value\": \"{\\\"a\\\": [1]}\", \"type\": \"json\"}}, \"localVariables\": {\"k\": {\"value\": 2}}}",
           &a);
  g_assert_cmpuint (a.status, ==, 204);
  g_assert_null (a.body);
  wn_engine_run (f->run->engine, 0);
  rid = wn_test_variable (f->run, "i1", "rid");
  doc = wn_test_variable (f->run, "i1", "doc");
  g_assert_cmpstr (rid, ==, "\"R-1\"");
  g_assert_cmpstr (doc, ==, "{\"a\":[1]}");
  /* the job is gone */
  request (f, "POST", "/external-task/i1/j1/complete", "{\"workerId\": \"w1\"}", &b);
  g_assert_cmpuint (b.status, ==, 404);
  g_assert_cmpstr (error_message (&b, "InvalidRequestException"), ==, "External task with id i1/j1 does not exist");
}

static void
test_complete_refused (Fixture *f, gconstpointer data)
{
  g_auto(Answer) a;
  g_auto(Answer) b;
  g_auto(Answer) c;

  request (f, "POST", "/external-task/i1/j1/complete", "{\"workerId\": \"w1\"}", &c);
  g_assert_cmpuint (c.status, ==, 400);
  g_assert_cmpstr (error_message (&c, "InvalidRequestException"), ==,
                   "External Task i1/j1 cannot be completed by worker 'w1'. It is not locked.");
  lock_first (f);
  request (f, "POST", "/external-task/i1/j1/complete", "{\"workerId\": \"w2\"}", &a);
  g_assert_cmpuint (a.status, ==, 400);
  g_assert_cmpstr (error_message (&a, "InvalidRequestException"), ==,
                   "External Task i1/j1 cannot be completed by worker 'w2'. It is locked by worker 'w1'.");
  assert_bad_request (f, "POST", "/external-task/i1/j1/complete",
                      "{\"workerId\": \"w1\", \"variables\": {\"x\": {\"value\": \"a\", \"type\": \"Integer\"}}}",
                      "variables.x.value: must be a whole number");
  assert_bad_request (f, "POST", "/external-task/i1/j1/complete",
                      "{\"workerId\": \"w1\", \"variables\": {\"x\": {\"value\": 1, \"type\": \"Bytes\"}}}",
                      "variables.x.type: type Bytes is not supported by Winnow");
  assert_bad_request (f, "POST", "/external-task/i1/j1/complete",
                      "{\"workerId\": \"w1\", \"variables\": {\"x\": {\"value\": 1, \"tpye\": \"Integer\"}}}",
                      "variables.x.tpye: unknown field");
  assert_bad_request (f, "POST", "/external-task/i1/j1/complete",
                      "{\"workerId\": \"w1\", \"variables\": {\"x\": {\"value\": \"{\", \"type\": \"Json\"}}}", NULL);
  /* its lock lapses in virtual time: the late complete gets a 400 */
  wn_scheduler_step_by (wn_engine_get_scheduler (f->run->engine), 11 * SEC);
  request (f, "POST", "/external-task/i1/j1/complete", "{\"workerId\": \"w1\"}", &b);
  g_assert_cmpuint (b.status, ==, 400);
  g_assert_nonnull (strstr (error_message (&b, "InvalidRequestException"), "Its lock expired at T+00:10.000"));
  g_assert_cmpuint (wn_test_count (f->run, WN_EV_JOB, WN_PH_REPORT_REJECTED, "task"), >=, 3);
}

static void
test_failure (Fixture *f, gconstpointer data)
{
  g_auto(Answer) a;
  g_auto(Answer) b;
  g_auto(Answer) c;
  JsonObject *task;

  lock_first (f);
  request (f, "POST", "/external-task/i1/j1/failure",
           "{\"workerId\": \"w1\", \"errorMessage\": \"down\", \"errorDetails\": \"trace\", \"retries\": 2,"
           " \"retryTimeout\": 1000}", &a);
  g_assert_cmpuint (a.status, ==, 204);
  g_assert_cmpint (wn_test_find (f->run, WN_EV_JOB, WN_PH_WORKER_REARMED, "task", 0)->backoff_us, ==, SEC);
  request (f, "GET", "/external-task/i1/j1", NULL, &b);
  g_assert_cmpuint (b.status, ==, 200);
  task = json_node_get_object (b.body);
  g_assert_cmpint (json_object_get_int_member (task, "retries"), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (task, "errorMessage"), ==, "down");
  g_assert_true (json_object_get_null_member (task, "workerId"));
  assert_bad_request (f, "POST", "/external-task/i1/j1/failure",
                      "{\"workerId\": \"w1\", \"retries\": -1}", "retries: must be between 0 and 2147483647");
  /* the next fetch sees what the failure said */
  wn_scheduler_step_by (wn_engine_get_scheduler (f->run->engine), SEC);
  request (f, "POST", "/external-task/fetchAndLock", fetch_t, &c);
  task = json_array_get_object_element (json_node_get_array (c.body), 0);
  g_assert_cmpstr (json_object_get_string_member (task, "errorDetails"), ==, "trace");
  g_assert_cmpint (json_object_get_int_member (task, "retries"), ==, 2);
}

static void
test_failure_authoritative (Fixture *f, gconstpointer data)
{
  g_auto(Answer) a;
  g_auto(Answer) b;

  lock_first (f);
  complete_first (f);
  request (f, "POST", "/external-task/fetchAndLock", fetch_r, &a);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (a.body)), ==, 1);
  request (f, "POST", "/external-task/i1/j2/failure",
           "{\"workerId\": \"w1\", \"errorMessage\": \"down\", \"retries\": 0, \"retryTimeout\": 0}", &b);
  g_assert_cmpuint (b.status, ==, 204);
  g_assert_nonnull (wn_test_find (f->run, WN_EV_JOB, WN_PH_WORKER_POLICY_IGNORED, "raw", 0));
  g_assert_cmpint (wn_test_find (f->run, WN_EV_JOB, WN_PH_RETRY_SCHEDULED, "raw", 0)->backoff_us, ==, SEC);
}

static void
test_bpmn_error (Fixture *f, gconstpointer data)
{
  g_auto(Answer) a;

  lock_first (f);
  assert_bad_request (f, "POST", "/external-task/i1/j1/bpmnError", "{\"workerId\": \"w1\"}",
                      "errorCode: is required");
  request (f, "POST", "/external-task/i1/j1/bpmnError",
           "{\"workerId\": \"w1\", \"errorCode\": \"Nope\", \"errorMessage\": \"m\", \"variables\": {}}", &a);
  g_assert_cmpuint (a.status, ==, 204);
  g_assert_cmpstr (wn_test_find (f->run, WN_EV_JOB, WN_PH_BPMN_ERROR, "task", 0)->code, ==, "Nope");
}

static void
test_extend_lock (Fixture *f, gconstpointer data)
{
  g_auto(Answer) a;
  g_auto(Answer) b;

  lock_first (f);
  request (f, "POST", "/external-task/i1/j1/extendLock", "{\"workerId\": \"w1\", \"newDuration\": 20000}", &a);
  g_assert_cmpuint (a.status, ==, 204);
  g_assert_cmpint (wn_test_find (f->run, WN_EV_JOB, WN_PH_LOCK_EXTENDED, "task", 0)->deadline_us, ==, 20 * SEC);
  request (f, "POST", "/external-task/i1/j1/extendLock", "{\"workerId\": \"w1\", \"newDuration\": 3600000}", &b);
  g_assert_cmpuint (b.status, ==, 400);
  assert_bad_request (f, "POST", "/external-task/i1/j1/extendLock", "{\"workerId\": \"w1\"}",
                      "newDuration: is required");
  assert_bad_request (f, "POST", "/external-task/i1/j1/extendLock", "{\"workerId\": \"w1\", \"newDuration\": 0}",
                      "newDuration: must be between 1 and 9223372036854775");
}

static void
test_unlock (Fixture *f, gconstpointer data)
{
  g_auto(Answer) a;
  g_auto(Answer) b;
  g_auto(Answer) c;

  lock_first (f);
  request (f, "POST", "/external-task/i1/j1/unlock", NULL, &a);
  g_assert_cmpuint (a.status, ==, 204);
  g_assert_cmpstr (wn_test_find (f->run, WN_EV_JOB, WN_PH_UNLOCKED, "task", 0)->worker, ==, "w1");
  request (f, "POST", "/external-task/i9/j9/unlock", NULL, &b);
  g_assert_cmpuint (b.status, ==, 404);
  request (f, "GET", "/external-task/i1/j1/unlock", NULL, &c);
  g_assert_cmpuint (c.status, ==, 405);
}

static void
test_lock (Fixture *f, gconstpointer data)
{
  g_auto(Answer) a;
  g_autofree char *none = NULL;

  /* an available job: locked, an execution begins, then no fetch gets it */
  assert_status (f, "POST", "/external-task/i1/j1/lock", "{\"workerId\": \"w1\", \"lockDuration\": 5000}", 204);
  g_assert_cmpstr (wn_test_find (f->run, WN_EV_JOB, WN_PH_LOCKED, "task", 0)->worker, ==, "w1");
  g_assert_cmpint (wn_test_find (f->run, WN_EV_JOB, WN_PH_LOCKED, "task", 0)->deadline_us, ==, 5 * SEC);
  g_assert_cmpuint (wn_test_count (f->run, WN_EV_JOB, WN_PH_EXECUTING, "task"), ==, 1);
  none = fetch_ids (f, fetch_t);
  g_assert_cmpstr (none, ==, "");
  /* another worker: Camunda's 400; its holder: a new lock from now */
  assert_bad_request (f, "POST", "/external-task/i1/j1/lock", "{\"workerId\": \"w2\", \"lockDuration\": 5000}",
                      "External Task i1/j1 cannot be locked by worker 'w2'. It is locked by worker 'w1'.");
  assert_status (f, "POST", "/external-task/i1/j1/lock", "{\"workerId\": \"w1\", \"lockDuration\": 8000}", 204);
  g_assert_cmpint (wn_test_find (f->run, WN_EV_JOB, WN_PH_LOCK_EXTENDED, "task", 0)->deadline_us, ==, 8 * SEC);
  /* lapsed: another worker takes it over */
  wn_scheduler_step_by (wn_engine_get_scheduler (f->run->engine), 9 * SEC);
  assert_status (f, "POST", "/external-task/i1/j1/lock", "{\"workerId\": \"w2\", \"lockDuration\": 5000}", 204);
  g_assert_cmpstr (wn_test_find (f->run, WN_EV_JOB, WN_PH_LOCK_RECLAIMED, "task", 0)->worker, ==, "w1");
  /* no such task, bad bodies, the wrong method */
  request (f, "POST", "/external-task/i9/j9/lock", "{\"workerId\": \"w1\", \"lockDuration\": 5000}", &a);
  g_assert_cmpuint (a.status, ==, 404);
  g_assert_cmpstr (error_message (&a, "InvalidRequestException"), ==, "External task with id i9/j9 does not exist");
  assert_bad_request (f, "POST", "/external-task/i1/j1/lock", "{\"workerId\": \"w1\"}", "lockDuration: is required");
  assert_bad_request (f, "POST", "/external-task/i1/j1/lock", "{\"lockDuration\": 1000}", "workerId: is required");
  assert_bad_request (f, "POST", "/external-task/i1/j1/lock", "{\"workerId\": \"w1\", \"lockDuration\": 0}",
                      "lockDuration: must be between 1 and 9223372036854775");
  assert_bad_request (f, "POST", "/external-task/i1/j1/lock",
                      "{\"workerId\": \"w1\", \"lockDuration\": 1, \"x\": 1}", "x: unknown field");
  assert_status (f, "GET", "/external-task/i1/j1/lock", NULL, 405);
}

static void
test_lock_gated (Fixture *f, gconstpointer data)
{
  lock_first (f);
  assert_status (f, "POST", "/external-task/i1/j1/failure",
                 "{\"workerId\": \"w1\", \"retries\": 2, \"retryTimeout\": 3000}", 204);
  assert_bad_request (f, "POST", "/external-task/i1/j1/lock", "{\"workerId\": \"w2\", \"lockDuration\": 1000}",
                      "External Task i1/j1 cannot be locked by worker 'w2'. It waits for its retry until "
                      "T+00:03.000 (virtual time).");
}

static void
test_fetch_process_variables (Fixture *f, gconstpointer data)
{
  g_autofree char *none = NULL;
  g_autofree char *second = NULL;
  g_autofree char *either = NULL;

  assert_status (f, "POST", "/process-definition/key/p/start",
                 "{\"variables\": {\"n\": {\"value\": 4, \"type\": \"Integer\"}}}", 200);
  wn_engine_run (f->run->engine, wn_engine_now (f->run->engine));
  none = fetch_ids (f, "{\"workerId\": \"w1\", \"maxTasks\": 5, \"topics\": [{\"topicName\": \"t\","
                       " \"lockDuration\": 1000, \"processVariables\": {\"n\": 99}}]}");
  g_assert_cmpstr (none, ==, "");
  second = fetch_ids (f, "{\"workerId\": \"w1\", \"maxTasks\": 5, \"topics\": [{\"topicName\": \"t\","
                         " \"lockDuration\": 1000, \"processVariables\": {\"n\": 4}}]}");
  g_assert_cmpstr (second, ==, "i2/j1");
  /* any one of them (OR, as Camunda's), objects compared whole */
  either = fetch_ids (f, "{\"workerId\": \"w1\", \"maxTasks\": 5, \"topics\": [{\"topicName\": \"t\","
                         " \"lockDuration\": 1000, \"processVariables\": {\"n\": 99,"
                         " \"order\": {\"id\": \"A-1\", \"total\": 50}}}]}");
  g_assert_cmpstr (either, ==, "i1/j1");
  assert_bad_request (f, "POST", "/external-task/fetchAndLock",
                      "{\"workerId\": \"w\", \"maxTasks\": 1, \"topics\": [{\"topicName\": \"t\","
                      " \"lockDuration\": 1, \"processVariables\": [1]}]}",
                      "topics[0].processVariables: must be an object");
}

static void
test_query (Fixture *f, gconstpointer data)
{
  g_auto(Answer) a;
  g_auto(Answer) b;
  g_auto(Answer) c;
  g_auto(Answer) d;
  g_auto(Answer) e;
  g_auto(Answer) g;

  wn_engine_start_instance (f->run->engine, NULL, NULL);
  wn_engine_run (f->run->engine, 0);
  request (f, "POST", "/external-task/fetchAndLock", fetch_t, &g);  /* locks both */
  g_assert_cmpuint (json_array_get_length (json_node_get_array (g.body)), ==, 2);
  answer_clear (&g);
  request (f, "GET", "/external-task", NULL, &a);
  g_assert_cmpuint (a.status, ==, 200);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (a.body)), ==, 2);
  request (f, "GET", "/external-task/count?topicName=t&locked=true", NULL, &b);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (b.body), "count"), ==, 2);
  request (f, "GET", "/external-task?processInstanceId=i2&maxResults=5", NULL, &c);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (c.body)), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (json_node_get_array (c.body), 0),
                                                  "id"), ==, "i2/j1");
  request (f, "GET", "/external-task?firstResult=1", NULL, &d);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (d.body)), ==, 1);
  request (f, "GET", "/external-task?locked=maybe", NULL, &e);
  g_assert_cmpuint (e.status, ==, 400);
  g_assert_cmpstr (error_message (&e, "InvalidRequestException"), ==, "locked: must be true or false");
  request (f, "GET", "/external-task?tpyo=1", NULL, &g);
  g_assert_cmpuint (g.status, ==, 400);
}

static void
test_get_task (Fixture *f, gconstpointer data)
{
  g_auto(Answer) a;
  g_auto(Answer) b;

  request (f, "GET", "/external-task/i1/j1", NULL, &a);
  g_assert_cmpuint (a.status, ==, 200);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (a.body), "topicName"), ==, "t");
  g_assert_false (json_object_get_boolean_member (json_node_get_object (a.body), "suspended"));
  request (f, "GET", "/external-task/i1/j7", NULL, &b);
  g_assert_cmpuint (b.status, ==, 404);
}

static void
test_retries (Fixture *f, gconstpointer data)
{
  g_auto(Answer) a;
  g_auto(Answer) b;
  g_auto(Answer) c;

  request (f, "PUT", "/external-task/i1/j1/retries", "{\"retries\": 5}", &a);
  g_assert_cmpuint (a.status, ==, 204);
  g_assert_cmpstr (wn_test_find (f->run, WN_EV_JOB, WN_PH_RETRIES_SET, "task", 0)->action, ==, "retries 5");
  assert_bad_request (f, "PUT", "/external-task/i1/j1/retries", "{}", "retries: is required");
  request (f, "PUT", "/external-task/i1/j1/retries", "{\"retries\": 0}", &b);
  g_assert_cmpuint (b.status, ==, 204);
  request (f, "PUT", "/external-task/i1/j1/retries", "{\"retries\": 1}", &c);
  g_assert_cmpuint (c.status, ==, 404);
}

static void
test_start (Fixture *f, gconstpointer data)
{
  g_auto(Answer) a;
  g_auto(Answer) b;
  g_autofree char *amount = NULL;
  JsonObject *object;

  request (f, "POST", "/process-definition/key/p/start",
           "{\"variables\": {\"amount\": {\"value\": 7, \"type\": \"Long\"}}, \"businessKey\": \"B-1\"}", &a);
  g_assert_cmpuint (a.status, ==, 200);
  object = json_node_get_object (a.body);
  g_assert_cmpstr (json_object_get_string_member (object, "id"), ==, "i2");
  g_assert_cmpstr (json_object_get_string_member (object, "definitionId"), ==, "p:1");
  g_assert_cmpstr (json_object_get_string_member (object, "businessKey"), ==, "B-1");
  g_assert_false (json_object_get_boolean_member (object, "ended"));
  amount = wn_test_variable (f->run, "i2", "amount");
  g_assert_cmpstr (amount, ==, "7");
  request (f, "POST", "/process-definition/key/q/start", "{}", &b);
  g_assert_cmpuint (b.status, ==, 404);
  error_message (&b, "RestException");
}

/* Send a fetch that will wait; returns once the server holds it. */
static SoupMessage *
start_poll (Fixture    *f,
            const char *body,
            GBytes    **bytes)
{
  g_autofree char *url = g_strconcat (f->base, "/external-task/fetchAndLock", NULL);
  SoupMessage *msg = soup_message_new ("POST", url);
  g_autoptr(GBytes) payload = g_bytes_new (body, strlen (body));

  soup_message_set_request_body_from_bytes (msg, "application/json", payload);
  soup_session_send_and_read_async (f->session, msg, G_PRIORITY_DEFAULT, NULL, sent_cb, bytes);
  while (wn_rest_server_get_n_polls (f->server) == 0)
    g_main_context_iteration (NULL, TRUE);
  return msg;
}

/* A long poll waits in virtual time and is answered as soon as a job comes. */
static void
test_long_poll (Fixture *f, gconstpointer data)
{
  WnScheduler *scheduler = wn_engine_get_scheduler (f->run->engine);
  g_autoptr(SoupMessage) msg = NULL;
  GBytes *bytes = NULL;
  g_autoptr(JsonNode) answer = NULL;

  lock_first (f);  /* i1's job is taken: the poll waits */
  msg = start_poll (f, "{\"workerId\": \"w1\", \"maxTasks\": 1, \"asyncResponseTimeout\": 60000, "
                       " \"topics\": [{\"topicName\": \"t\", \"lockDuration\": 10000}]}", &bytes);
  /* ten virtual seconds: no job, still waiting */
  wn_scheduler_step_by (scheduler, 10 * SEC);
  g_main_context_iteration (NULL, FALSE);
  g_assert_null (bytes);
  g_assert_cmpuint (wn_rest_server_get_n_polls (f->server), ==, 1);
  /* an instance starts: the poll gets its job */
  wn_engine_start_instance (f->run->engine, NULL, NULL);
  wn_engine_run (f->run->engine, wn_engine_now (f->run->engine));
  while (bytes == NULL)
    g_main_context_iteration (NULL, TRUE);
  answer = wn_test_json (g_bytes_get_data (bytes, NULL));
  g_assert_cmpuint (json_array_get_length (json_node_get_array (answer)), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (json_node_get_array (answer), 0),
                                                  "id"), ==, "i2/j1");
  g_assert_cmpuint (wn_rest_server_get_n_polls (f->server), ==, 0);
  g_bytes_unref (bytes);
}

static void
test_long_poll_timeout (Fixture *f, gconstpointer data)
{
  GBytes *bytes = NULL;
  g_autoptr(SoupMessage) msg =
    start_poll (f, "{\"workerId\": \"w1\", \"maxTasks\": 1, \"asyncResponseTimeout\": 5000, "
                   " \"topics\": [{\"topicName\": \"nobody\", \"lockDuration\": 10000}]}", &bytes);
  wn_scheduler_step_by (wn_engine_get_scheduler (f->run->engine), 5 * SEC);
  while (bytes == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpstr (g_bytes_get_data (bytes, NULL), ==, "[]");
  g_bytes_unref (bytes);
}

static void
held_cb (gpointer server,
         gpointer data)
{
  (*(guint *) data)++;
}

/* Paused, calls that act wait unanswered and apply one by one (issue 20, point 4). */
static void
test_held_while_paused (Fixture *f, gconstpointer data)
{
  g_autofree char *url = g_strconcat (f->base, "/external-task/fetchAndLock", NULL);
  g_autoptr(SoupMessage) msg = soup_message_new ("POST", url);
  g_autoptr(GBytes) payload = g_bytes_new_static (fetch_t, strlen (fetch_t));
  g_autoptr(JsonNode) answer = NULL;
  GBytes *bytes = NULL;
  guint changes = 0;
  g_auto(Answer) query;

  g_assert_cmpint (wn_scheduler_get_mode (wn_engine_get_scheduler (f->run->engine)), ==, WN_CLOCK_PAUSED);
  wn_rest_server_set_hold_when_paused (f->server, TRUE, held_cb, &changes);
  soup_message_set_request_body_from_bytes (msg, "application/json", payload);
  soup_session_send_and_read_async (f->session, msg, G_PRIORITY_DEFAULT, NULL, sent_cb, &bytes);
  while (wn_rest_server_get_n_held (f->server) == 0)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpstr (wn_rest_server_get_held (f->server, 0), ==, "fetchAndLock by w1");
  g_assert_cmpuint (changes, ==, 1);
  /* a query is answered at once, and shows nothing locked */
  request (f, "GET", "/external-task/count?locked=true", NULL, &query);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (query.body), "count"), ==, 0);
  g_assert_null (bytes);
  g_assert_cmpuint (wn_test_count (f->run, WN_EV_JOB, WN_PH_LOCKED, NULL), ==, 0);
  /* a step applies it */
  g_assert_true (wn_rest_server_apply_held (f->server));
  g_assert_false (wn_rest_server_apply_held (f->server));
  while (bytes == NULL)
    g_main_context_iteration (NULL, TRUE);
  answer = wn_test_json (g_bytes_get_data (bytes, NULL));
  g_assert_cmpuint (json_array_get_length (json_node_get_array (answer)), ==, 1);
  g_assert_cmpuint (changes, ==, 2);
  g_assert_cmpuint (wn_test_count (f->run, WN_EV_JOB, WN_PH_LOCKED, NULL), ==, 1);
  g_bytes_unref (bytes);
}

static void
test_parse_address (void)
{
  g_autoptr(GError) error = NULL;
  char *host = NULL;
  guint port = 0;

  g_assert_true (wn_rest_parse_address ("8080", &host, &port, &error));
  g_assert_null (host);
  g_assert_cmpuint (port, ==, 8080);
  g_assert_true (wn_rest_parse_address ("0.0.0.0:9", &host, &port, &error));
  g_assert_cmpstr (host, ==, "0.0.0.0");
  g_clear_pointer (&host, g_free);
  g_assert_true (wn_rest_parse_address ("[::1]:80", &host, &port, &error));
  g_assert_cmpstr (host, ==, "::1");
  g_clear_pointer (&host, g_free);
  g_assert_false (wn_rest_parse_address ("::1:80", &host, &port, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (wn_rest_parse_address ("host:99999", &host, &port, &error));
  g_clear_error (&error);
  g_assert_false (wn_rest_parse_address (":80", &host, &port, &error));
  g_clear_error (&error);
  g_assert_true (wn_rest_host_is_loopback (NULL));
  g_assert_true (wn_rest_host_is_loopback ("::1"));
  g_assert_false (wn_rest_host_is_loopback ("0.0.0.0"));
}

#define ADD(path, func) g_test_add ("/server/Rest/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  ADD ("version", test_version);
  ADD ("unknown-path", test_unknown_path);
  ADD ("fetch", test_fetch);
  ADD ("fetch-filters", test_fetch_filters);
  ADD ("fetch-bad", test_fetch_bad);
  ADD ("malformed", test_malformed);
  ADD ("body-cap", test_body_cap);
  ADD ("basic-auth", test_basic_auth);
  ADD ("complete", test_complete);
  ADD ("complete-refused", test_complete_refused);
  ADD ("failure", test_failure);
  ADD ("failure-authoritative", test_failure_authoritative);
  ADD ("bpmn-error", test_bpmn_error);
  ADD ("extend-lock", test_extend_lock);
  ADD ("unlock", test_unlock);
  ADD ("lock", test_lock);
  ADD ("lock-gated", test_lock_gated);
  ADD ("fetch-process-variables", test_fetch_process_variables);
  ADD ("query", test_query);
  ADD ("get-task", test_get_task);
  ADD ("retries", test_retries);
  ADD ("start", test_start);
  ADD ("long-poll", test_long_poll);
  ADD ("long-poll-timeout", test_long_poll_timeout);
  ADD ("held-while-paused", test_held_while_paused);
  g_test_add_func ("/server/Rest/parse-address", test_parse_address);
  return g_test_run ();
}

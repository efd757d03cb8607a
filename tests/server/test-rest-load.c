/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The REST API under load and faults (issue 17, item 15): many concurrent
 * clients with nothing lost, clients that die holding locks, 1,000 parked
 * long polls, slow and oversized requests. libsoup's client on the server's
 * own main context; the journal's invariants checked at the end.
 * WINNOW_LOAD_CALLS sets the calls of the load test (default 10,000;
 * docs/reliability.md also gives the figure for 100,000). */
#include <string.h>

#include <gio/gio.h>
#include <libsoup/soup.h>

#include "wn-test-util.h"
#include "wn-rest-server.h"

#define SEC WN_USEC_PER_SEC
#define N_CLIENTS 50
#define LOCK_MS 30000

static const char *process_json =
  "{ \"format\": \"winnow.process/1\", \"id\": \"p\","
  "  \"engine\": { \"maxLock\": \"1m\" },"
  "  \"nodes\": ["
  "    { \"id\": \"start\", \"type\": \"startEvent\" },"
  "    { \"id\": \"task\", \"type\": \"serviceTask\", \"worker\": { \"topic\": \"t\" } },"
  "    { \"id\": \"done\", \"type\": \"endEvent\" } ],"
  "  \"flows\": ["
  "    { \"id\": \"f1\", \"from\": \"start\", \"to\": \"task\" },"
  "    { \"id\": \"f2\", \"from\": \"task\", \"to\": \"done\" } ] }";

typedef struct _Load Load;

typedef struct {
  Load      *load;
  guint      index;
  gboolean   dies;       /* locks once and never reports: killed mid-lock */
  gboolean   dead;
  gboolean   idle;       /* its last fetch found nothing */
  GPtrArray *todo;       /* char*: tasks locked, to complete */
} Client;

struct _Load {
  WnTestRun    *run;
  WnRestServer *server;
  SoupSession  *session;
  char         *base;
  Client        clients[N_CLIENTS];
  guint         in_flight;
  guint64       calls;
  guint64       completed;   /* 204 answers to complete */
  guint64       errors;      /* anything else but a fetch's 200 */
  GHashTable   *done;        /* task ids completed, each once */
};

static void client_next (Client *client);

/* A 204 said to have no body: libsoup 3.2's client otherwise takes it for a
 * response ended by closing and drops the connection after it. */
static void
got_headers_cb (SoupMessage *msg)
{
  if (soup_message_get_status (msg) == 204)
    soup_message_headers_set_encoding (soup_message_get_response_headers (msg), SOUP_ENCODING_NONE);
}

/* libsoup's client sends a POST on a new connection unless told that it may
 * repeat it (SOUP_MESSAGE_IDEMPOTENT): the clients of even index keep their
 * connections alive, as the JS client does, the others open one per call and
 * leave it to the pool to close (as a worker without a pool would). */
static void
post (Load       *load,
      const char *path,
      const char *body,
      GAsyncReadyCallback callback,
      Client     *client)
{
  g_autofree char *url = g_strconcat (load->base, path, NULL);
  SoupMessage *msg = soup_message_new ("POST", url);
  g_autoptr(GBytes) payload = g_bytes_new (body, strlen (body));

  if (client->index % 2 == 0)
    {
      soup_message_add_flags (msg, SOUP_MESSAGE_IDEMPOTENT);
      g_signal_connect (msg, "got-headers", G_CALLBACK (got_headers_cb), NULL);
    }
  soup_message_set_request_body_from_bytes (msg, "application/json", payload);
  load->in_flight++;
  load->calls++;
  soup_session_send_and_read_async (load->session, msg, G_PRIORITY_DEFAULT, NULL, callback, client);
  g_object_unref (msg);
}

static void
completed_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      data)
{
  Client *client = data;
  Load *load = client->load;
  SoupMessage *msg = soup_session_get_async_result_message (SOUP_SESSION (source), result);
  g_autoptr(GBytes) bytes = soup_session_send_and_read_finish (SOUP_SESSION (source), result, NULL);
  g_autofree char *id = g_ptr_array_steal_index (client->todo, 0);

  load->in_flight--;
  if (soup_message_get_status (msg) == 204)
    {
      load->completed++;
      g_assert_true (g_hash_table_add (load->done, g_steal_pointer (&id)));
    }
  else
    load->errors++;
  client_next (client);
}

static void
fetched_cb (GObject      *source,
            GAsyncResult *result,
            gpointer      data)
{
  Client *client = data;
  Load *load = client->load;
  SoupMessage *msg = soup_session_get_async_result_message (SOUP_SESSION (source), result);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = soup_session_send_and_read_finish (SOUP_SESSION (source), result, &error);
  g_autoptr(JsonNode) tasks = NULL;
  JsonArray *array;

  load->in_flight--;
  g_assert_no_error (error);
  g_assert_cmpuint (soup_message_get_status (msg), ==, 200);
  tasks = wn_test_json (g_bytes_get_data (bytes, NULL));
  array = json_node_get_array (tasks);
  for (guint i = 0; i < json_array_get_length (array); i++)
    g_ptr_array_add (client->todo,
                     g_strdup (json_object_get_string_member (json_array_get_object_element (array, i), "id")));
  client->idle = json_array_get_length (array) == 0;
  if (client->dies && client->todo->len > 0)
    {
      /* killed with its locks: it never reports, its connection goes */
      client->dead = TRUE;
      return;
    }
  client_next (client);
}

/* The client's next call: complete what it holds, else fetch (unless the
 * last fetch found nothing: it waits for the driver to wake it). */
static void
client_next (Client *client)
{
  Load *load = client->load;

  if (client->dead)
    return;
  if (client->todo->len > 0)
    {
      g_autofree char *path = g_strdup_printf ("/external-task/%s/complete",
                                               (char *) g_ptr_array_index (client->todo, 0));
      g_autofree char *body = g_strdup_printf ("{\"workerId\": \"c%u\"}", client->index);

      post (load, path, body, completed_cb, client);
      return;
    }
  if (client->idle)
    return;
  {
    g_autofree char *body =
      g_strdup_printf ("{\"workerId\": \"c%u\", \"maxTasks\": %u, \"topics\": [{\"topicName\": \"t\","
                       " \"lockDuration\": %u}]}", client->index, 1 + client->index % 10, LOCK_MS);

    post (load, "/external-task/fetchAndLock", body, fetched_cb, client);
  }
}

static guint64
load_calls (void)
{
  const char *text = g_getenv ("WINNOW_LOAD_CALLS");

  return text != NULL ? g_ascii_strtoull (text, NULL, 10) : 10000;
}

static void
test_many_clients (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *scenario = NULL;
  WnEngineOptions options = { 0 };
  /* per instance: one complete, and about a fifth of a fetch (maxTasks 1…10) */
  guint n_instances = (guint) MAX (load_calls () * 5 / 6, 100);
  gint64 started = g_get_monotonic_time ();
  guint rounds = 0;
  Load load = { 0 };

  options.no_implicit_workers = TRUE;
  scenario = g_strdup_printf ("{ \"format\": \"winnow.scenario/1\", \"start\": [{ \"at\": \"0s\", \"count\": %u }] }",
                              n_instances);
  load.run = wn_test_run_new (process_json, scenario, &options);
  wn_engine_run (load.run->engine, 0);
  load.server = wn_rest_server_new (load.run->engine);
  g_assert_true (wn_rest_server_listen (load.server, NULL, 0, &error));
  load.base = g_strdup (wn_rest_server_get_url (load.server));
  load.session = soup_session_new_with_options ("max-conns", N_CLIENTS, "max-conns-per-host", N_CLIENTS, NULL);
  load.done = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < N_CLIENTS; i++)
    {
      load.clients[i] = (Client) { &load, i, i % 10 == 7, FALSE, FALSE, g_ptr_array_new_with_free_func (g_free) };
    }

  /* rounds: every live client works until nothing is left to fetch; then the
   * dead clients' locks lapse (virtual time moves past them) and the others
   * take their jobs over */
  while (load.completed < n_instances && rounds++ < 4)
    {
      for (guint i = 0; i < N_CLIENTS; i++)
        {
          load.clients[i].idle = FALSE;
          client_next (&load.clients[i]);
        }
      while (load.in_flight > 0)
        {
          g_main_context_iteration (NULL, TRUE);
          wn_engine_run (load.run->engine, wn_engine_now (load.run->engine));
        }
      wn_scheduler_step_by (wn_engine_get_scheduler (load.run->engine), LOCK_MS * WN_USEC_PER_MSEC + 1);
    }
  wn_test_run_until (load.run, WN_TIME_NEVER);

  g_test_message ("%" G_GUINT64_FORMAT " calls from %u clients, %u instances, in %.2f s", load.calls,
                  N_CLIENTS, n_instances, (g_get_monotonic_time () - started) / 1e6);
  /* every task completed exactly once, nothing lost, nothing refused */
  g_assert_cmpuint (load.completed, ==, n_instances);
  g_assert_cmpuint (g_hash_table_size (load.done), ==, n_instances);
  g_assert_cmpuint (load.errors, ==, 0);
  g_assert_cmpuint (wn_test_count (load.run, WN_EV_JOB, WN_PH_COMPLETED, "task"), ==, n_instances);
  g_assert_cmpuint (wn_test_count (load.run, WN_EV_INSTANCE, WN_PH_COMPLETED, NULL), ==, n_instances);
  /* the dead clients' jobs were reclaimed at their deadlines, by others */
  g_assert_cmpuint (wn_test_count (load.run, WN_EV_JOB, WN_PH_LOCK_RECLAIMED, "task"), >, 0);
  for (guint i = 0; i < wn_test_count (load.run, WN_EV_JOB, WN_PH_LOCK_RECLAIMED, "task"); i++)
    {
      const WnEvent *reclaimed = wn_test_find (load.run, WN_EV_JOB, WN_PH_LOCK_RECLAIMED, "task", i);

      g_assert_cmpint (reclaimed->t_us, >, reclaimed->deadline_us);
      g_assert_true (g_str_has_suffix (reclaimed->worker, "7"));
    }
  g_assert_cmpuint (load.calls, >=, load_calls () * 9 / 10);
  wn_test_check_invariants (load.run);

  for (guint i = 0; i < N_CLIENTS; i++)
    g_ptr_array_unref (load.clients[i].todo);
  g_hash_table_unref (load.done);
  soup_session_abort (load.session);
  g_object_unref (load.session);
  wn_rest_server_free (load.server);
  g_free (load.base);
  wn_test_run_free (load.run);
}

static void
poll_answer_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      data)
{
  GPtrArray *answers = data;
  g_autoptr(GBytes) bytes = soup_session_send_and_read_finish (SOUP_SESSION (source), result, NULL);

  g_assert_nonnull (bytes);
  g_ptr_array_add (answers, g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes)));
}

/* 1,000 long polls parked at once, each answered with one job when 1,000
 * instances start. */
static void
test_parked_polls (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) answers = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(WnTestRun) run = NULL;
  g_autoptr(SoupSession) session = NULL;
  WnEngineOptions options = { 0 };
  WnRestServer *server;
  const guint n = 1000;

  options.no_implicit_workers = TRUE;
  run = wn_test_run_new (process_json, "{ \"format\": \"winnow.scenario/1\", \"start\": [] }", &options);
  server = wn_rest_server_new (run->engine);
  g_assert_true (wn_rest_server_listen (server, NULL, 0, &error));
  session = soup_session_new_with_options ("max-conns", n, "max-conns-per-host", n, NULL);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *url = g_strconcat (wn_rest_server_get_url (server), "/external-task/fetchAndLock", NULL);
      g_autofree char *body =
        g_strdup_printf ("{\"workerId\": \"p%u\", \"maxTasks\": 1, \"asyncResponseTimeout\": 600000,"
                         " \"topics\": [{\"topicName\": \"t\", \"lockDuration\": 1000}]}", i);
      g_autoptr(SoupMessage) msg = soup_message_new ("POST", url);
      g_autoptr(GBytes) payload = g_bytes_new (body, strlen (body));

      soup_message_set_request_body_from_bytes (msg, "application/json", payload);
      soup_session_send_and_read_async (session, msg, G_PRIORITY_DEFAULT, NULL, poll_answer_cb, answers);
    }
  while (wn_rest_server_get_n_polls (server) < n)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (answers->len, ==, 0);

  for (guint i = 0; i < n; i++)
    g_assert_nonnull (wn_engine_start_instance (run->engine, NULL, &error));
  while (answers->len < n)
    {
      g_main_context_iteration (NULL, TRUE);
      wn_engine_run (run->engine, wn_engine_now (run->engine));
    }
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(JsonNode) tasks = wn_test_json (g_ptr_array_index (answers, i));
      JsonArray *array = json_node_get_array (tasks);

      g_assert_cmpuint (json_array_get_length (array), ==, 1);
      g_assert_true (g_hash_table_add (ids, g_strdup (json_object_get_string_member (
                                                        json_array_get_object_element (array, 0), "id"))));
    }
  g_assert_cmpuint (wn_rest_server_get_n_polls (server), ==, 0);
  wn_test_check_invariants (run);
  soup_session_abort (session);
  wn_rest_server_free (server);
}

typedef struct {
  const char *url;
  const char *data;
  gsize       length;
  GString    *answer;
  gint64      elapsed_us;
  gint        done;
} Raw;

/* In a thread of its own (the server runs on this test's main context):
 * send, then read until the server closes or has answered. */
static gpointer
raw_thread (gpointer data)
{
  Raw *raw = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GUri) uri = g_uri_parse (raw->url, G_URI_FLAGS_NONE, &error);
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketConnection) connection = NULL;
  gint64 started = g_get_monotonic_time ();
  char buffer[4096];
  gssize got;

  connection = g_socket_client_connect_to_host (client, g_uri_get_host (uri), g_uri_get_port (uri), NULL, &error);
  if (connection != NULL)
    {
      /* a write the server refuses to read on may fail: what counts is what comes back */
      g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (connection)), raw->data,
                                 raw->length, NULL, NULL, NULL);
      while ((got = g_input_stream_read (g_io_stream_get_input_stream (G_IO_STREAM (connection)), buffer,
                                         sizeof buffer, NULL, NULL)) > 0)
        {
          g_string_append_len (raw->answer, buffer, got);
          if (strstr (raw->answer->str, "\r\n\r\n") != NULL && g_str_has_suffix (raw->answer->str, "}"))
            break;
        }
    }
  raw->elapsed_us = g_get_monotonic_time () - started;
  g_atomic_int_set (&raw->done, 1);
  g_main_context_wakeup (NULL);
  return NULL;
}

/* What a raw connection sending `data` gets back (empty when the server
 * closed it with nothing), and how long that took. */
static char *
raw_exchange (const char *url,
              const char *data,
              gsize       length,
              gint64     *elapsed_us)
{
  Raw raw = { url, data, length, g_string_new (NULL), 0, 0 };
  GThread *thread = g_thread_new ("raw client", raw_thread, &raw);
  gint64 started = g_get_monotonic_time ();

  while (!g_atomic_int_get (&raw.done))
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (500);
      g_assert_cmpint (g_get_monotonic_time () - started, <, 20 * G_USEC_PER_SEC);
    }
  g_thread_join (thread);
  *elapsed_us = raw.elapsed_us;
  return g_string_free (raw.answer, FALSE);
}

/* A client that sends half a request and nothing more loses its connection
 * at the request deadline; one with a huge header is refused; the server
 * still answers the next client. */
static void
test_slow_and_oversized (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WnTestRun) run = NULL;
  g_autofree char *url = NULL;
  g_autofree char *slow = NULL;
  g_autofree char *huge = NULL;
  g_autofree char *after = NULL;
  g_autoptr(GString) header = g_string_new ("GET /engine-rest/version HTTP/1.1\r\nHost: x\r\nX-Big: ");
  static const char half[] = "POST /engine-rest/external-task/fetchAndLock HTTP/1.1\r\nHost: x\r\nContent-Le";
  static const char version[] = "GET /engine-rest/version HTTP/1.1\r\nHost: x\r\n\r\n";
  WnEngineOptions options = { 0 };
  WnRestServer *server;
  gint64 elapsed = 0;

  options.no_implicit_workers = TRUE;
  run = wn_test_run_new (process_json, NULL, &options);
  server = wn_rest_server_new (run->engine);
  wn_rest_server_set_request_timeout (server, 300);
  g_assert_true (wn_rest_server_listen (server, NULL, 0, &error));
  url = g_strdup (wn_rest_server_get_url (server));

  slow = raw_exchange (url, half, sizeof half - 1, &elapsed);
  g_assert_cmpstr (slow, ==, "");
  g_assert_cmpint (elapsed, >=, 250 * 1000);

  for (guint i = 0; i < 4 * 1024 * 1024 / 64; i++)
    g_string_append (header, "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
  g_string_append (header, "\r\n\r\n");
  huge = raw_exchange (url, header->str, header->len, &elapsed);
  g_assert_false (g_str_has_prefix (huge, "HTTP/1.1 200"));

  after = raw_exchange (url, version, sizeof version - 1, &elapsed);
  g_assert_true (g_str_has_prefix (after, "HTTP/1.1 200"));
  g_assert_nonnull (strstr (after, "7.20.0"));
  wn_rest_server_free (server);
}

static guint
open_descriptors (void)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc/self/fd", 0, NULL);
  guint n = 0;

  g_assert_nonnull (dir);
  while (g_dir_read_name (dir) != NULL)
    n++;
  return n;
}

/* Clients that make one kept-alive call each and close their connection
 * (curl, a worker without a connection pool): the server lets every
 * connection go. libsoup 3.2 kept them all open, and a long run of such
 * calls ran the process out of descriptors. */
static void
test_closed_connections (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WnTestRun) run = NULL;
  g_autofree char *url = NULL;
  static const char version[] = "GET /engine-rest/version HTTP/1.1\r\nHost: x\r\n\r\n";
  WnEngineOptions options = { 0 };
  WnRestServer *server;
  gint64 elapsed = 0, until;
  guint before;
  const guint n = 200;

  options.no_implicit_workers = TRUE;
  run = wn_test_run_new (process_json, NULL, &options);
  server = wn_rest_server_new (run->engine);
  g_assert_true (wn_rest_server_listen (server, NULL, 0, &error));
  url = g_strdup (wn_rest_server_get_url (server));
  before = open_descriptors ();
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *answer = raw_exchange (url, version, sizeof version - 1, &elapsed);

      /* kept alive: the client is the one that closes */
      g_assert_true (g_str_has_prefix (answer, "HTTP/1.1 200"));
      g_assert_null (strstr (answer, "Connection: close"));
    }
  /* the server's ends close once it has seen the clients' */
  until = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  while (open_descriptors () > before + 4 && g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpuint (open_descriptors (), <=, before + 4);
  wn_rest_server_free (server);
}

/* A complete's 204 and the next request on the same connection: both
 * answered (libsoup 3.2 closed the connection after every 204, so no worker
 * kept one across its completes). */
static void
test_no_content_keeps_connection (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WnTestRun) run = NULL;
  g_autoptr(GPtrArray) locked = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *url = NULL;
  g_autofree char *requests = NULL;
  g_autofree char *answer = NULL;
  static const char complete[] = "{\"workerId\": \"w\"}";
  WnExternalTopic topic = { "t", 10 * SEC, NULL };
  WnEngineOptions options = { 0 };
  WnRestServer *server;
  gint64 elapsed = 0;

  options.no_implicit_workers = TRUE;
  run = wn_test_run_new (process_json, "{ \"format\": \"winnow.scenario/1\", \"start\": [{ \"at\": \"0s\" }] }",
                         &options);
  wn_engine_run (run->engine, 0);
  g_assert_true (wn_external_fetch_and_lock (wn_engine_get_external (run->engine), "w", 1, FALSE, &topic, 1,
                                             locked, &error));
  g_assert_cmpuint (locked->len, ==, 1);
  server = wn_rest_server_new (run->engine);
  g_assert_true (wn_rest_server_listen (server, NULL, 0, &error));
  url = g_strdup (wn_rest_server_get_url (server));
  requests = g_strdup_printf ("POST /engine-rest/external-task/%s/complete HTTP/1.1\r\nHost: x\r\n"
                              "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s"
                              "GET /engine-rest/version HTTP/1.1\r\nHost: x\r\n\r\n",
                              (char *) g_ptr_array_index (locked, 0), strlen (complete), complete);
  answer = raw_exchange (url, requests, strlen (requests), &elapsed);
  g_assert_true (g_str_has_prefix (answer, "HTTP/1.1 204"));
  g_assert_null (strstr (answer, "Content-Length: 0"));
  g_assert_nonnull (strstr (answer, "\r\n\r\nHTTP/1.1 200"));
  g_assert_nonnull (strstr (answer, "7.20.0"));
  wn_rest_server_free (server);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/server/Load/many-clients", test_many_clients);
  g_test_add_func ("/server/Load/parked-polls", test_parked_polls);
  g_test_add_func ("/server/Load/slow-and-oversized", test_slow_and_oversized);
  g_test_add_func ("/server/Load/closed-connections", test_closed_connections);
  g_test_add_func ("/server/Load/no-content-keeps-connection", test_no_content_keeps_connection);
  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-rest-server.c — the HTTP side of outside workers (wn-rest-server.h):
 * listening, auth, the body cap, routing, Camunda's DTOs and error bodies,
 * the long polls, and two workarounds that keep connections right on
 * libsoup 3.2 (a 204's connection kept, one its client closed closed).
 * Every request is answered within the main-loop iteration that read it,
 * except a long poll, which watches the dispatcher and the virtual clock
 * from the main loop (no scheduler action of its own).
 * Past 1,500 lines because it is one concept, the API's surface: each
 * endpoint's route, DTO and error answers sit together (the bodies' parsing
 * is wn-rest-body.c, the calls' effects on the run wn-external.c). */
#include "config.h"

#include <string.h>
#include <sys/socket.h>

#include <libsoup/soup.h>

#include "wn-rest-server.h"
#include "wn-rest-body.h"
#include "wn-rest-vars.h"

/* Camunda's limit for asyncResponseTimeout: 30 min. */
#define MAX_ASYNC_TIMEOUT_MS (30 * 60 * 1000)
#define BODY_KEY "wn-rest-body"
#define DEADLINE_KEY "wn-rest-deadline"
#define IDLE_KEY "wn-rest-idle"
/* Connections waiting to be accepted (the kernel caps it at somaxconn). */
#define LISTEN_BACKLOG 1024

typedef struct {
  char      *name;
  WnTime     lock_duration;
  GPtrArray *variables;      /* char*, or NULL = all */
  JsonObject *process_variables;  /* NULL: no filter */
  gboolean   extension_properties;
  gboolean   excluded;       /* a filter no job of this run can pass */
} FetchTopic;

typedef struct {
  char    *worker;
  guint    max_tasks;
  gboolean use_priority;
  GArray  *topics;           /* FetchTopic */
} Fetch;

typedef struct _Poll Poll;

struct _WnRestServer
{
  WnEngine       *engine;
  WnExternal     *external;
  SoupServer     *soup;
  SoupAuthDomain *auth;
  char           *user;
  char           *password;
  gsize           max_body;
  char           *url;
  GHashTable     *polls;     /* Poll* set */
  GMainContext   *context;   /* the creator's, where the sweep runs */
  GSource        *sweep;     /* while polls wait: fetch for woken ones, time out the others */
  GSource        *sweep_now; /* an idle for woken polls */
  WnTime          swept_at;  /* the clock at the last sweep */
  gboolean        hold;      /* hold calls while the clock is paused */
  GQueue          held;      /* Held*, in arrival order */
  GFunc           held_notify;
  gpointer        held_notify_data;
  GPtrArray      *workers;   /* Seen*, in the order of their first call */
  guint           request_timeout_ms;  /* wall time to read a request whole */
};

/* An outside worker that has called: for the front end's list. */
typedef struct {
  char    *id;
  char    *last_call;
  WnTime   at;
  guint64  n_calls;
} Seen;

static void
seen_free (gpointer data)
{
  Seen *seen = data;

  g_free (seen->id);
  g_free (seen->last_call);
  g_free (seen);
}

/* A call that came while the clock was paused, waiting to be applied. */
typedef struct {
  WnRestServer      *server;
  SoupServerMessage *msg;
  char              *path;
  GHashTable        *params;
  JsonObject        *body;
  char              *summary;
  gulong             disconnected_id;
} Held;

struct _Poll
{
  WnRestServer      *server;
  SoupServerMessage *msg;
  Fetch             *fetch;
  guint              wait_id;        /* the dispatcher watch, 0 once woken */
  gboolean           woken;          /* a job of its topics may be there: fetch again */
  WnTime             deadline;       /* virtual: answer [] once the clock is past it */
  gulong             finished_id;
  gulong             disconnected_id;
};

/* The request's body as read so far, capped. */
typedef struct {
  GByteArray *data;
  gsize       max;
  gboolean    too_large;
} Body;

/* ---- small helpers ---- */

static void
body_free (gpointer data)
{
  Body *body = data;

  g_byte_array_unref (body->data);
  g_free (body);
}

static void
fetch_topic_clear (gpointer data)
{
  FetchTopic *topic = data;

  g_free (topic->name);
  g_clear_pointer (&topic->variables, g_ptr_array_unref);
  g_clear_pointer (&topic->process_variables, json_object_unref);
}

static void
fetch_free (Fetch *fetch)
{
  g_free (fetch->worker);
  g_array_unref (fetch->topics);
  g_free (fetch);
}

static void
respond_json (SoupServerMessage *msg,
              guint              status,
              JsonNode          *node)
{
  char *text = json_to_string (node, FALSE);

  soup_server_message_set_status (msg, status, NULL);
  /* exactly "application/json": the JS client compares the header to it */
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_TAKE, text, strlen (text));
}

static void
respond_error (SoupServerMessage *msg,
               guint              status,
               const char        *type,
               const char        *message)
{
  g_autoptr(JsonBuilder) builder = json_builder_new_immutable ();
  g_autoptr(JsonNode) node = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, type);
  json_builder_set_member_name (builder, "message");
  json_builder_add_string_value (builder, message);
  json_builder_end_object (builder);
  node = json_builder_get_root (builder);
  respond_json (msg, status, node);
}

/* A GError as Camunda's answer: 404 for an unknown id, 400 for the other
 * refusals and bad input, the REST domain's own status otherwise. */
static void
respond_gerror (SoupServerMessage *msg,
                const GError      *error)
{
  if (error->domain == WN_EXTERNAL_ERROR)
    respond_error (msg, error->code == WN_EXTERNAL_ERROR_NOT_FOUND ? 404 : 400,
                   "InvalidRequestException", error->message);
  else if (error->domain == WN_REST_ERROR)
    respond_error (msg, (guint) error->code,
                   error->code == WN_REST_ERROR_BAD_REQUEST ? "InvalidRequestException" : "RestException",
                   error->message);
  else
    respond_error (msg, 500, "ProcessEngineException", error->message);
}

/* libsoup 3.2 closes the connection after every 204: writing the headers it
 * removes the Content-Length a 204 must not have, which makes the response
 * one "ended by closing" when it decides whether to keep the connection. Once
 * the headers are out, saying that the response had no body keeps it. */
static void
no_content_written_cb (SoupServerMessage *msg)
{
  soup_message_headers_set_encoding (soup_server_message_get_response_headers (msg), SOUP_ENCODING_NONE);
}

static void
respond_no_content (SoupServerMessage *msg)
{
  soup_server_message_set_status (msg, 204, NULL);
  g_signal_connect (msg, "wrote-headers", G_CALLBACK (no_content_written_cb), NULL);
}

/* Virtual time as a Camunda date: T+0 is the Unix epoch. */
static char *
virtual_date (WnTime t)
{
  g_autoptr(GDateTime) epoch = g_date_time_new_utc (1970, 1, 1, 0, 0, 0);
  g_autoptr(GDateTime) at = g_date_time_add (epoch, t);
  g_autofree char *base = g_date_time_format (at, "%Y-%m-%dT%H:%M:%S");

  return g_strdup_printf ("%s.%03d+0000", base, (int) ((t / 1000) % 1000));
}

static void
add_string_or_null (JsonBuilder *builder,
                    const char  *name,
                    const char  *value)
{
  json_builder_set_member_name (builder, name);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

static void
add_date_or_null (JsonBuilder *builder,
                  const char  *name,
                  WnTime       t)
{
  g_autofree char *date = t >= 0 ? virtual_date (t) : NULL;

  add_string_or_null (builder, name, date);
}

static char *
definition_id (WnRestServer *self)
{
  return g_strdup_printf ("%s:1", wn_engine_get_process (self->engine)->id);
}

/* ---- the DTOs ---- */

/* The members an ExternalTaskDto and a LockedExternalTaskDto share. */
static void
add_task_members (WnRestServer    *self,
                  JsonBuilder     *builder,
                  const WnJobInfo *info)
{
  const WnExternalReport *report = wn_external_get_report (self->external, info->id);
  g_autofree char *definition = definition_id (self);
  g_autofree char *activity_instance = g_strdup_printf ("%s:%s", info->node ? info->node : "", info->id);

  add_string_or_null (builder, "activityId", info->node);
  add_string_or_null (builder, "activityInstanceId", activity_instance);
  add_string_or_null (builder, "errorMessage", report ? report->error_message : NULL);
  add_string_or_null (builder, "executionId", info->id);
  add_string_or_null (builder, "id", info->id);
  add_date_or_null (builder, "lockExpirationTime", info->worker != NULL ? info->deadline : -1);
  add_date_or_null (builder, "createTime", info->enqueued_at);
  add_string_or_null (builder, "processDefinitionId", definition);
  add_string_or_null (builder, "processDefinitionKey", wn_engine_get_process (self->engine)->id);
  add_string_or_null (builder, "processDefinitionVersionTag", NULL);
  add_string_or_null (builder, "processInstanceId", info->instance);
  add_string_or_null (builder, "tenantId", NULL);
  json_builder_set_member_name (builder, "retries");
  if (report != NULL && report->retries >= 0)
    json_builder_add_int_value (builder, report->retries);
  else
    json_builder_add_null_value (builder);
  add_string_or_null (builder, "workerId", info->worker);
  json_builder_set_member_name (builder, "priority");
  json_builder_add_int_value (builder, 0);
  add_string_or_null (builder, "topicName", info->topic);
  add_string_or_null (builder, "businessKey", NULL);
}

static void
add_external_task (WnRestServer    *self,
                   JsonBuilder     *builder,
                   const WnJobInfo *info)
{
  json_builder_begin_object (builder);
  add_task_members (self, builder, info);
  json_builder_set_member_name (builder, "suspended");
  json_builder_add_boolean_value (builder, FALSE);
  json_builder_end_object (builder);
}

static void
add_locked_task (WnRestServer     *self,
                 JsonBuilder      *builder,
                 const WnJobInfo  *info,
                 const FetchTopic *topic)
{
  const WnExternalReport *report = wn_external_get_report (self->external, info->id);
  JsonObject *input = info->input != NULL && JSON_NODE_HOLDS_OBJECT (info->input)
    ? json_node_get_object (info->input) : NULL;

  json_builder_begin_object (builder);
  add_task_members (self, builder, info);
  add_string_or_null (builder, "errorDetails", report ? report->error_details : NULL);
  json_builder_set_member_name (builder, "variables");
  json_builder_add_value (builder, wn_rest_vars_to_typed (input, topic != NULL ? topic->variables : NULL));
  if (topic != NULL && topic->extension_properties)
    {
      json_builder_set_member_name (builder, "extensionProperties");
      json_builder_begin_object (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);
}

/* ---- fetch and lock, and the long polls ---- */

static const char *const fetch_fields[] = {
  "workerId", "maxTasks", "usePriority", "asyncResponseTimeout", "topics", "sorting", NULL,
};
static const char *const topic_fields[] = {
  "topicName", "lockDuration", "variables", "localVariables", "businessKey",
  "processDefinitionId", "processDefinitionIdIn", "processDefinitionKey", "processDefinitionKeyIn",
  "processDefinitionVersionTag", "withoutTenantId", "tenantIdIn", "processVariables",
  "deserializeValues", "includeExtensionProperties", NULL,
};
static const char *const sorting_fields[] = { "sortBy", "sortOrder", NULL };

static gboolean
parse_topic (WnRestServer *self,
             JsonNode     *node,
             guint         index,
             FetchTopic   *topic,
             GError      **error)
{
  g_autofree char *path = g_strdup_printf ("topics[%u]", index);
  g_autofree char *definition = definition_id (self);
  const char *process_id = wn_engine_get_process (self->engine)->id;
  g_autoptr(GPtrArray) keys = NULL;
  g_autoptr(GPtrArray) ids = NULL;
  g_autoptr(GPtrArray) tenants = NULL;
  g_autoptr(GPtrArray) variables = NULL;
  JsonObject *object, *process_variables;
  const char *name, *key, *id, *business_key, *version_tag;
  gboolean flag = FALSE, has_lock;
  gint64 lock;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, WN_REST_ERROR, WN_REST_ERROR_BAD_REQUEST, "%s: must be an object", path);
      return FALSE;
    }
  object = json_node_get_object (node);
  if (!wn_rest_body_check_known (object, path, topic_fields, error) ||
      !wn_rest_body_get_string (object, path, "topicName", TRUE, &name, error) ||
      !wn_rest_body_get_int (object, path, "lockDuration", 1, G_MAXINT64 / 1000, &has_lock, &lock, error) ||
      !wn_rest_body_get_strings (object, path, "variables", &variables, error) ||
      !wn_rest_body_get_bool (object, path, "localVariables", &flag, error) ||
      !wn_rest_body_get_bool (object, path, "deserializeValues", &flag, error) ||
      !wn_rest_body_get_bool (object, path, "withoutTenantId", &flag, error) ||
      !wn_rest_body_get_string (object, path, "businessKey", FALSE, &business_key, error) ||
      !wn_rest_body_get_string (object, path, "processDefinitionId", FALSE, &id, error) ||
      !wn_rest_body_get_strings (object, path, "processDefinitionIdIn", &ids, error) ||
      !wn_rest_body_get_string (object, path, "processDefinitionKey", FALSE, &key, error) ||
      !wn_rest_body_get_strings (object, path, "processDefinitionKeyIn", &keys, error) ||
      !wn_rest_body_get_string (object, path, "processDefinitionVersionTag", FALSE, &version_tag, error) ||
      !wn_rest_body_get_strings (object, path, "tenantIdIn", &tenants, error) ||
      !wn_rest_body_get_object (object, path, "processVariables", &process_variables, error))
    return FALSE;
  if (!has_lock)
    {
      g_set_error (error, WN_REST_ERROR, WN_REST_ERROR_BAD_REQUEST, "%s.lockDuration: is required", path);
      return FALSE;
    }
  flag = FALSE;
  wn_rest_body_get_bool (object, path, "includeExtensionProperties", &flag, NULL);

  topic->name = g_strdup (name);
  topic->lock_duration = lock * WN_USEC_PER_MSEC;
  topic->variables = g_steal_pointer (&variables);
  if (topic->variables != NULL)
    {
      /* the strings are the body's: keep copies */
      GPtrArray *copy = g_ptr_array_new_with_free_func (g_free);

      for (guint i = 0; i < topic->variables->len; i++)
        g_ptr_array_add (copy, g_strdup (g_ptr_array_index (topic->variables, i)));
      g_ptr_array_unref (topic->variables);
      topic->variables = copy;
    }
  topic->extension_properties = flag;
  /* plain JSON values, as Camunda's FetchExternalTaskTopicDto has them */
  if (process_variables != NULL && json_object_get_size (process_variables) > 0)
    topic->process_variables = json_object_ref (process_variables);
  /* filters the run's one process and its tenant-less, key-less instances fail */
  topic->excluded =
    (key != NULL && strcmp (key, process_id) != 0) ||
    (keys != NULL && !g_ptr_array_find_with_equal_func (keys, process_id, g_str_equal, NULL)) ||
    (id != NULL && strcmp (id, definition) != 0) ||
    (ids != NULL && !g_ptr_array_find_with_equal_func (ids, definition, g_str_equal, NULL)) ||
    version_tag != NULL || business_key != NULL || (tenants != NULL && tenants->len > 0);
  return TRUE;
}

static Fetch *
parse_fetch (WnRestServer *self,
             JsonObject   *body,
             gint64       *timeout_ms,
             GError      **error)
{
  Fetch *fetch = g_new0 (Fetch, 1);
  JsonArray *topics, *sorting;
  const char *worker;
  gboolean has_max = FALSE;
  gint64 max_tasks = 0;

  fetch->topics = g_array_new (FALSE, TRUE, sizeof (FetchTopic));
  g_array_set_clear_func (fetch->topics, fetch_topic_clear);
  *timeout_ms = 0;
  if (!wn_rest_body_check_known (body, "", fetch_fields, error) ||
      !wn_rest_body_get_string (body, "", "workerId", TRUE, &worker, error) ||
      !wn_rest_body_get_int (body, "", "maxTasks", 0, G_MAXINT32, &has_max, &max_tasks, error) ||
      !wn_rest_body_get_bool (body, "", "usePriority", &fetch->use_priority, error) ||
      !wn_rest_body_get_int (body, "", "asyncResponseTimeout", 0, MAX_ASYNC_TIMEOUT_MS, NULL, timeout_ms,
                             error) ||
      !wn_rest_body_get_array (body, "", "topics", TRUE, &topics, error) ||
      !wn_rest_body_get_array (body, "", "sorting", FALSE, &sorting, error))
    goto fail;
  if (!has_max)
    {
      g_set_error_literal (error, WN_REST_ERROR, WN_REST_ERROR_BAD_REQUEST, "maxTasks: is required");
      goto fail;
    }
  for (guint i = 0; sorting != NULL && i < json_array_get_length (sorting); i++)
    {
      JsonNode *node = json_array_get_element (sorting, i);
      g_autofree char *path = g_strdup_printf ("sorting[%u]", i);
      const char *text;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          g_set_error (error, WN_REST_ERROR, WN_REST_ERROR_BAD_REQUEST, "%s: must be an object", path);
          goto fail;
        }
      if (!wn_rest_body_check_known (json_node_get_object (node), path, sorting_fields, error) ||
          !wn_rest_body_get_string (json_node_get_object (node), path, "sortBy", FALSE, &text, error) ||
          !wn_rest_body_get_string (json_node_get_object (node), path, "sortOrder", FALSE, &text, error))
        goto fail;
    }
  for (guint i = 0; i < json_array_get_length (topics); i++)
    {
      FetchTopic topic = { 0 };

      if (!parse_topic (self, json_array_get_element (topics, i), i, &topic, error))
        {
          fetch_topic_clear (&topic);
          goto fail;
        }
      g_array_append_val (fetch->topics, topic);
    }
  fetch->worker = g_strdup (worker);
  fetch->max_tasks = (guint) max_tasks;
  return fetch;

fail:
  g_free (fetch->worker);
  fetch->worker = NULL;
  fetch_free (fetch);
  return NULL;
}

/* Lock what there is; NULL (with `error`) when the engine refused the call,
 * else the answer (an empty array when nothing was there). `n_locked` says how
 * many. */
static JsonNode *
try_fetch (WnRestServer *self,
           Fetch        *fetch,
           guint        *n_locked,
           GError      **error)
{
  g_autoptr(GArray) topics = g_array_new (FALSE, FALSE, sizeof (WnExternalTopic));
  g_autoptr(GPtrArray) locked = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(JsonBuilder) builder = json_builder_new_immutable ();

  for (guint i = 0; i < fetch->topics->len; i++)
    {
      const FetchTopic *topic = &g_array_index (fetch->topics, FetchTopic, i);
      WnExternalTopic t = { topic->name, topic->lock_duration, topic->process_variables };

      if (!topic->excluded)
        g_array_append_val (topics, t);
    }
  if (!wn_external_fetch_and_lock (self->external, fetch->worker, fetch->max_tasks, fetch->use_priority,
                                   (const WnExternalTopic *) topics->data, topics->len, locked, error))
    return NULL;

  json_builder_begin_array (builder);
  for (guint i = 0; i < locked->len; i++)
    {
      WnJobInfo info;
      const FetchTopic *topic = NULL;

      if (!wn_dispatcher_lookup (wn_engine_get_dispatcher (self->engine), g_ptr_array_index (locked, i), &info))
        continue;
      for (guint j = 0; j < fetch->topics->len && topic == NULL; j++)
        if (strcmp (g_array_index (fetch->topics, FetchTopic, j).name, info.topic) == 0)
          topic = &g_array_index (fetch->topics, FetchTopic, j);
      add_locked_task (self, builder, &info, topic);
    }
  json_builder_end_array (builder);
  *n_locked = locked->len;
  return json_builder_get_root (builder);
}

static void poll_wait (Poll *poll);
static void sweep_update (WnRestServer *self);

/* Answer the poll and forget it. */
static void
poll_finish (Poll     *poll,
             JsonNode *answer)
{
  WnRestServer *self = poll->server;

  g_signal_handler_disconnect (poll->msg, poll->finished_id);
  g_signal_handler_disconnect (poll->msg, poll->disconnected_id);
  if (poll->wait_id != 0)
    wn_dispatcher_cancel_wait (wn_engine_get_dispatcher (self->engine), poll->wait_id);
  if (answer != NULL)
    {
      respond_json (poll->msg, 200, answer);
      soup_server_message_unpause (poll->msg);
    }
  g_hash_table_remove (self->polls, poll);
  g_object_unref (poll->msg);
  fetch_free (poll->fetch);
  g_free (poll);
  sweep_update (self);
}

static JsonNode *
empty_array (void)
{
  JsonNode *node = json_node_new (JSON_NODE_ARRAY);

  json_node_take_array (node, json_array_new ());
  return node;
}

/* Fetch for a poll that may find a job now: answered when it does, waiting
 * again when it does not. */
static void
poll_try (Poll *poll)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) answer = NULL;
  guint n = 0;

  poll->woken = FALSE;
  if (poll->wait_id != 0)
    {
      wn_dispatcher_cancel_wait (wn_engine_get_dispatcher (poll->server->engine), poll->wait_id);
      poll->wait_id = 0;
    }
  answer = try_fetch (poll->server, poll->fetch, &n, &error);
  if (answer == NULL)
    {
      respond_gerror (poll->msg, error);
      soup_server_message_unpause (poll->msg);
      poll_finish (poll, NULL);
      return;
    }
  if (n > 0)
    poll_finish (poll, answer);
  else
    poll_wait (poll);
}

/* Whether a gate of the poll's topics has ended or a lock lapsed by `now`
 * (the dispatcher does not wake a watcher for those). */
static gboolean
poll_due (Poll  *poll,
          WnTime now)
{
  WnDispatcher *dispatcher = wn_engine_get_dispatcher (poll->server->engine);

  for (guint i = 0; i < poll->fetch->topics->len; i++)
    {
      const FetchTopic *topic = &g_array_index (poll->fetch->topics, FetchTopic, i);

      if (!topic->excluded && wn_dispatcher_next_available (dispatcher, topic->name) <= now)
        return TRUE;
    }
  return FALSE;
}

/* The polls, looked at from the main loop between two scheduler
 * dispatches: never from inside the run, so that a poll's fetch is an
 * outside call at a point of its own, recorded as any other, and a poll adds
 * no action to the run (docs/rest-api.md, "Recorded calls"). */
static void
sweep (WnRestServer *self,
       gboolean      woken_only)
{
  WnTime now = wn_engine_now (self->engine);
  gboolean moved = now != self->swept_at;
  g_autoptr(GPtrArray) polls = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  self->swept_at = now;
  g_hash_table_iter_init (&iter, self->polls);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (polls, key);
  for (guint i = 0; i < polls->len; i++)
    {
      Poll *poll = g_ptr_array_index (polls, i);

      /* an earlier poll's answer may have finished it (a client that went away) */
      if (!g_hash_table_contains (self->polls, poll))
        continue;
      if (poll->woken || (!woken_only && moved && poll_due (poll, now)))
        poll_try (poll);
      else if (!woken_only && now >= poll->deadline)
        {
          g_autoptr(JsonNode) answer = empty_array ();

          poll_finish (poll, answer);
        }
    }
}

static gboolean
sweep_cb (gpointer data)
{
  sweep (data, FALSE);
  return G_SOURCE_CONTINUE;
}

static gboolean
sweep_now_cb (gpointer data)
{
  WnRestServer *self = data;

  g_clear_pointer (&self->sweep_now, g_source_unref);
  sweep (self, TRUE);
  return G_SOURCE_REMOVE;
}

/* How often (wall time) waiting polls look at the clock. */
#define SWEEP_INTERVAL_MS 10

/* A sweep every SWEEP_INTERVAL_MS while polls wait, none otherwise. */
static void
sweep_update (WnRestServer *self)
{
  gboolean want = g_hash_table_size (self->polls) > 0;

  if (want && self->sweep == NULL)
    {
      self->sweep = g_timeout_source_new (SWEEP_INTERVAL_MS);
      /* the scheduler's own priority: a higher one would starve its clock */
      g_source_set_priority (self->sweep, G_PRIORITY_DEFAULT_IDLE);
      g_source_set_callback (self->sweep, sweep_cb, self, NULL);
      g_source_set_static_name (self->sweep, "WnRestServer polls");
      g_source_attach (self->sweep, self->context);
    }
  else if (!want && self->sweep != NULL)
    {
      g_source_destroy (self->sweep);
      g_clear_pointer (&self->sweep, g_source_unref);
    }
}

/* The dispatcher says a job may be there: inside the run, so only mark the
 * poll and fetch from the main loop. */
static void
poll_woken_cb (gpointer data)
{
  Poll *poll = data;
  WnRestServer *self = poll->server;

  poll->wait_id = 0;
  poll->woken = TRUE;
  if (self->sweep_now == NULL)
    {
      self->sweep_now = g_idle_source_new ();
      /* before the scheduler's next dispatch (G_PRIORITY_DEFAULT_IDLE) */
      g_source_set_priority (self->sweep_now, G_PRIORITY_DEFAULT);
      g_source_set_callback (self->sweep_now, sweep_now_cb, self, NULL);
      g_source_set_static_name (self->sweep_now, "WnRestServer woken polls");
      g_source_attach (self->sweep_now, self->context);
    }
}

/* The client went away while its poll waited. */
static void
poll_gone_cb (Poll *poll)
{
  poll_finish (poll, NULL);
}

static void
poll_wait (Poll *poll)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();

  for (guint i = 0; i < poll->fetch->topics->len; i++)
    {
      const FetchTopic *topic = &g_array_index (poll->fetch->topics, FetchTopic, i);

      if (!topic->excluded)
        g_ptr_array_add (names, topic->name);
    }
  poll->wait_id = wn_dispatcher_watch (wn_engine_get_dispatcher (poll->server->engine),
                                       (const char *const *) names->pdata, names->len, poll_woken_cb, poll);
}

static void
handle_fetch (WnRestServer      *self,
              SoupServerMessage *msg,
              JsonObject        *body)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) answer = NULL;
  gint64 timeout_ms = 0;
  Fetch *fetch;
  Poll *poll;
  guint n = 0;

  fetch = parse_fetch (self, body, &timeout_ms, &error);
  if (fetch == NULL)
    {
      respond_gerror (msg, error);
      return;
    }
  answer = try_fetch (self, fetch, &n, &error);
  if (answer == NULL || n > 0 || timeout_ms == 0 || fetch->max_tasks == 0)
    {
      if (answer == NULL)
        respond_gerror (msg, error);
      else
        respond_json (msg, 200, answer);
      fetch_free (fetch);
      return;
    }

  /* nothing yet: wait for a job, or for the timeout in virtual time */
  poll = g_new0 (Poll, 1);
  poll->server = self;
  poll->msg = g_object_ref (msg);
  poll->fetch = fetch;
  poll->deadline = wn_engine_now (self->engine) + timeout_ms * WN_USEC_PER_MSEC;
  poll->finished_id = g_signal_connect_swapped (msg, "finished", G_CALLBACK (poll_gone_cb), poll);
  poll->disconnected_id = g_signal_connect_swapped (msg, "disconnected", G_CALLBACK (poll_gone_cb), poll);
  g_hash_table_add (self->polls, poll);
  soup_server_message_pause (msg);
  poll_wait (poll);
  sweep_update (self);
}

/* ---- the reports ---- */

static const char *const complete_fields[] = { "workerId", "variables", "localVariables", NULL };
static const char *const failure_fields[] = {
  "workerId", "errorMessage", "errorDetails", "retries", "retryTimeout", "variables", "localVariables", NULL,
};
static const char *const bpmn_error_fields[] = { "workerId", "errorCode", "errorMessage", "variables", NULL };
static const char *const extend_fields[] = { "workerId", "newDuration", NULL };
static const char *const lock_fields[] = { "workerId", "lockDuration", NULL };
static const char *const retries_fields[] = { "retries", NULL };
static const char *const no_fields[] = { NULL };

/* `variables` and then `localVariables` of `body` as one object of Winnow
 * values (Winnow has no local scope). */
static JsonObject *
read_variables (JsonObject *body,
                GError    **error)
{
  static const char *const names[] = { "variables", "localVariables" };
  g_autoptr(JsonObject) all = json_object_new ();

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(JsonObject) values = NULL;
      JsonObject *typed;
      JsonObjectIter iter;
      const char *name;
      JsonNode *value;

      if (!json_object_has_member (body, names[i]))
        continue;
      if (!wn_rest_body_get_object (body, "", names[i], &typed, error))
        return NULL;
      values = wn_rest_vars_from_typed (typed, names[i], error);
      if (values == NULL)
        return NULL;
      json_object_iter_init (&iter, values);
      while (json_object_iter_next (&iter, &name, &value))
        json_object_set_member (all, name, json_node_ref (value));
    }
  return g_steal_pointer (&all);
}

static gboolean
handle_report (WnRestServer *self,
               const char   *id,
               const char   *action,
               JsonObject   *body,
               GError      **error)
{
  const char *worker = NULL;

  if (strcmp (action, "complete") == 0)
    {
      g_autoptr(JsonObject) variables = NULL;

      if (!wn_rest_body_check_known (body, "", complete_fields, error) ||
          !wn_rest_body_get_string (body, "", "workerId", TRUE, &worker, error) ||
          (variables = read_variables (body, error)) == NULL)
        return FALSE;
      return wn_external_complete (self->external, id, worker, variables, error);
    }
  if (strcmp (action, "failure") == 0)
    {
      g_autoptr(JsonObject) variables = NULL;
      const char *message, *details;
      gint64 retries = 0, timeout = 0;

      if (!wn_rest_body_check_known (body, "", failure_fields, error) ||
          !wn_rest_body_get_string (body, "", "workerId", TRUE, &worker, error) ||
          !wn_rest_body_get_string (body, "", "errorMessage", FALSE, &message, error) ||
          !wn_rest_body_get_string (body, "", "errorDetails", FALSE, &details, error) ||
          !wn_rest_body_get_int (body, "", "retries", 0, G_MAXINT32, NULL, &retries, error) ||
          !wn_rest_body_get_int (body, "", "retryTimeout", 0, WN_TIME_MAX / 1000, NULL, &timeout, error) ||
          (variables = read_variables (body, error)) == NULL)
        return FALSE;
      return wn_external_failure (self->external, id, worker, message, details, (gint) retries,
                                  timeout * WN_USEC_PER_MSEC, error);
    }
  if (strcmp (action, "bpmnError") == 0)
    {
      g_autoptr(JsonObject) variables = NULL;
      const char *code, *message;

      if (!wn_rest_body_check_known (body, "", bpmn_error_fields, error) ||
          !wn_rest_body_get_string (body, "", "workerId", TRUE, &worker, error) ||
          !wn_rest_body_get_string (body, "", "errorCode", TRUE, &code, error) ||
          !wn_rest_body_get_string (body, "", "errorMessage", FALSE, &message, error) ||
          (variables = read_variables (body, error)) == NULL)
        return FALSE;
      return wn_external_bpmn_error (self->external, id, worker, code, message, error);
    }
  if (strcmp (action, "extendLock") == 0)
    {
      gint64 duration = 0;

      if (!wn_rest_body_check_known (body, "", extend_fields, error) ||
          !wn_rest_body_get_string (body, "", "workerId", TRUE, &worker, error) ||
          !wn_rest_body_require_int (body, "", "newDuration", 1, WN_TIME_MAX / 1000, &duration, error))
        return FALSE;
      return wn_external_extend_lock (self->external, id, worker, duration * WN_USEC_PER_MSEC, error);
    }
  if (strcmp (action, "lock") == 0)
    {
      gint64 duration = 0;

      if (!wn_rest_body_check_known (body, "", lock_fields, error) ||
          !wn_rest_body_get_string (body, "", "workerId", TRUE, &worker, error) ||
          !wn_rest_body_require_int (body, "", "lockDuration", 1, WN_TIME_MAX / 1000, &duration, error))
        return FALSE;
      return wn_external_lock (self->external, id, worker, duration * WN_USEC_PER_MSEC, error);
    }
  /* unlock */
  if (!wn_rest_body_check_known (body, "", no_fields, error))
    return FALSE;
  return wn_external_unlock (self->external, id, error);
}

/* ---- queries ---- */

typedef struct {
  WnRestServer *server;
  const char   *id;
  const char   *topic;
  const char   *worker;
  const char   *instance;
  const char   *activity;
  gboolean      locked;
  gboolean      not_locked;
  gboolean      with_retries;
  gboolean      no_retries;
  gint64        first;
  gint64        max;
  guint         n_matched;
  JsonBuilder  *builder;     /* NULL: count only */
} Query;

static const char *const query_params[] = {
  "externalTaskId", "topicName", "workerId", "locked", "notLocked", "withRetriesLeft", "noRetriesLeft",
  "processInstanceId", "activityId", "processDefinitionKey", "firstResult", "maxResults",
  "sortBy", "sortOrder", NULL,
};

static gboolean
query_bool (GHashTable  *params,
            const char  *name,
            gboolean    *out,
            GError     **error)
{
  const char *text = params != NULL ? g_hash_table_lookup (params, name) : NULL;

  if (text == NULL)
    return TRUE;
  if (strcmp (text, "true") == 0 || strcmp (text, "false") == 0)
    {
      *out = text[0] == 't';
      return TRUE;
    }
  g_set_error (error, WN_REST_ERROR, WN_REST_ERROR_BAD_REQUEST, "%s: must be true or false", name);
  return FALSE;
}

static gboolean
query_int (GHashTable  *params,
           const char  *name,
           gint64      *out,
           GError     **error)
{
  const char *text = params != NULL ? g_hash_table_lookup (params, name) : NULL;
  guint64 value;

  if (text == NULL)
    return TRUE;
  if (!g_ascii_string_to_unsigned (text, 10, 0, G_MAXINT32, &value, NULL))
    {
      g_set_error (error, WN_REST_ERROR, WN_REST_ERROR_BAD_REQUEST,
                   "%s: must be a whole number from 0 to %d", name, G_MAXINT32);
      return FALSE;
    }
  *out = (gint64) value;
  return TRUE;
}

static gboolean
parse_query (WnRestServer *self,
             GHashTable   *params,
             Query        *query,
             GError      **error)
{
  GHashTableIter iter;
  gpointer key;
  const char *definition_key;

  memset (query, 0, sizeof *query);
  query->server = self;
  query->max = G_MAXINT64;
  if (params != NULL)
    {
      g_hash_table_iter_init (&iter, params);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        if (!g_strv_contains (query_params, key))
          {
            g_set_error (error, WN_REST_ERROR, WN_REST_ERROR_BAD_REQUEST,
                         "%s: unknown query parameter", (const char *) key);
            return FALSE;
          }
      query->id = g_hash_table_lookup (params, "externalTaskId");
      query->topic = g_hash_table_lookup (params, "topicName");
      query->worker = g_hash_table_lookup (params, "workerId");
      query->instance = g_hash_table_lookup (params, "processInstanceId");
      query->activity = g_hash_table_lookup (params, "activityId");
      definition_key = g_hash_table_lookup (params, "processDefinitionKey");
      if (definition_key != NULL && strcmp (definition_key, wn_engine_get_process (self->engine)->id) != 0)
        query->max = 0;
    }
  return query_bool (params, "locked", &query->locked, error) &&
         query_bool (params, "notLocked", &query->not_locked, error) &&
         query_bool (params, "withRetriesLeft", &query->with_retries, error) &&
         query_bool (params, "noRetriesLeft", &query->no_retries, error) &&
         query_int (params, "firstResult", &query->first, error) &&
         (query->max == 0 || query_int (params, "maxResults", &query->max, error));
}

static void
query_cb (const WnJobInfo *info,
          gpointer         data)
{
  Query *query = data;
  const WnExternalReport *report = wn_external_get_report (query->server->external, info->id);
  gboolean locked = info->state == WN_JOB_LOCKED;
  gboolean no_retries = report != NULL && report->retries == 0;

  if ((query->id != NULL && g_strcmp0 (query->id, info->id) != 0) ||
      (query->topic != NULL && g_strcmp0 (query->topic, info->topic) != 0) ||
      (query->worker != NULL && g_strcmp0 (query->worker, info->worker) != 0) ||
      (query->instance != NULL && g_strcmp0 (query->instance, info->instance) != 0) ||
      (query->activity != NULL && g_strcmp0 (query->activity, info->node) != 0) ||
      (query->locked && !locked) || (query->not_locked && locked) ||
      (query->with_retries && no_retries) || (query->no_retries && !no_retries))
    return;
  if (query->n_matched++ < (guint64) query->first)
    return;
  if (query->builder == NULL || (gint64) query->n_matched - query->first > query->max)
    return;
  add_external_task (query->server, query->builder, info);
}

static void
handle_query (WnRestServer      *self,
              SoupServerMessage *msg,
              GHashTable        *params,
              gboolean           count)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonBuilder) builder = json_builder_new_immutable ();
  g_autoptr(JsonNode) answer = NULL;
  Query query;

  if (!parse_query (self, params, &query, &error))
    {
      respond_gerror (msg, error);
      return;
    }
  if (count)
    query.first = 0;
  else
    {
      query.builder = builder;
      json_builder_begin_array (builder);
    }
  if (query.max > 0)
    wn_dispatcher_foreach (wn_engine_get_dispatcher (self->engine), query_cb, &query);
  if (count)
    {
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "count");
      json_builder_add_int_value (builder, query.n_matched);
      json_builder_end_object (builder);
    }
  else
    json_builder_end_array (builder);
  answer = json_builder_get_root (builder);
  respond_json (msg, 200, answer);
}

static void
handle_get_task (WnRestServer      *self,
                 SoupServerMessage *msg,
                 const char        *id)
{
  g_autoptr(JsonBuilder) builder = json_builder_new_immutable ();
  g_autoptr(JsonNode) answer = NULL;
  WnJobInfo info;

  if (!wn_dispatcher_lookup (wn_engine_get_dispatcher (self->engine), id, &info))
    {
      g_autofree char *message = g_strdup_printf ("External task with id %s does not exist", id);

      respond_error (msg, 404, "InvalidRequestException", message);
      return;
    }
  add_external_task (self, builder, &info);
  answer = json_builder_get_root (builder);
  respond_json (msg, 200, answer);
}

/* ---- process start and version ---- */

static const char *const start_fields[] = {
  "variables", "businessKey", "caseInstanceId", "skipCustomListeners", "skipIoMappings",
  "withVariablesInReturn", NULL,
};

static void
handle_start (WnRestServer      *self,
              SoupServerMessage *msg,
              const char        *key,
              JsonObject        *body)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) values = NULL;
  g_autoptr(JsonBuilder) builder = json_builder_new_immutable ();
  g_autoptr(JsonNode) answer = NULL;
  g_autofree char *definition = definition_id (self);
  JsonObject *typed = NULL;
  const char *business_key = NULL, *case_id = NULL, *instance;
  gboolean flag = FALSE, with_variables = FALSE;
  WnInstanceInfo info;

  if (strcmp (key, wn_engine_get_process (self->engine)->id) != 0)
    {
      g_autofree char *message =
        g_strdup_printf ("No matching process definition with key: %s and no tenant-id", key);

      respond_error (msg, 404, "RestException", message);
      return;
    }
  if (!wn_rest_body_check_known (body, "", start_fields, &error) ||
      !wn_rest_body_get_object (body, "", "variables", &typed, &error) ||
      !wn_rest_body_get_string (body, "", "businessKey", FALSE, &business_key, &error) ||
      !wn_rest_body_get_string (body, "", "caseInstanceId", FALSE, &case_id, &error) ||
      !wn_rest_body_get_bool (body, "", "skipCustomListeners", &flag, &error) ||
      !wn_rest_body_get_bool (body, "", "skipIoMappings", &flag, &error) ||
      !wn_rest_body_get_bool (body, "", "withVariablesInReturn", &with_variables, &error) ||
      (values = wn_rest_vars_from_typed (typed, "variables", &error)) == NULL)
    {
      respond_gerror (msg, error);
      return;
    }
  /* a rerun's past: its record's starts come back by themselves */
  if (wn_engine_get_n_future (self->engine) > 0)
    {
      respond_error (msg, 400, "InvalidRequestException",
                     "The run went back in time and replays its recorded calls: a start is not applied "
                     "before they have all come again");
      return;
    }
  instance = wn_engine_start_instance (self->engine, values, &error);
  if (instance == NULL)
    {
      respond_gerror (msg, error);
      return;
    }
  wn_engine_lookup_instance (self->engine, instance, &info);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "links");
  json_builder_begin_array (builder);
  json_builder_end_array (builder);
  add_string_or_null (builder, "id", instance);
  add_string_or_null (builder, "definitionId", definition);
  add_string_or_null (builder, "businessKey", business_key);
  add_string_or_null (builder, "caseInstanceId", case_id);
  json_builder_set_member_name (builder, "ended");
  json_builder_add_boolean_value (builder, info.state != WN_INSTANCE_ACTIVE);
  json_builder_set_member_name (builder, "suspended");
  json_builder_add_boolean_value (builder, FALSE);
  add_string_or_null (builder, "tenantId", NULL);
  if (with_variables)
    {
      json_builder_set_member_name (builder, "variables");
      json_builder_add_value (builder, wn_rest_vars_to_typed (info.variables, NULL));
    }
  json_builder_end_object (builder);
  answer = json_builder_get_root (builder);
  respond_json (msg, 200, answer);
}

static void
handle_version (SoupServerMessage *msg)
{
  g_autoptr(JsonBuilder) builder = json_builder_new_immutable ();
  g_autoptr(JsonNode) answer = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "version");
  json_builder_add_string_value (builder, "7.20.0");
  json_builder_end_object (builder);
  answer = json_builder_get_root (builder);
  respond_json (msg, 200, answer);
}

/* ---- routing ---- */

static const char *const report_actions[] = {
  "complete", "failure", "bpmnError", "extendLock", "lock", "unlock", NULL,
};

/* PUT …/retries. */
static gboolean
set_retries (WnRestServer *self,
             const char   *id,
             JsonObject   *body,
             GError      **error)
{
  gint64 retries = 0;

  return wn_rest_body_check_known (body, "", retries_fields, error) &&
         wn_rest_body_require_int (body, "", "retries", 0, G_MAXINT32, &retries, error) &&
         wn_external_set_retries (self->external, id, (guint) retries, error);
}

static gboolean
method_is (SoupServerMessage *msg,
           const char        *method)
{
  if (strcmp (soup_server_message_get_method (msg), method) == 0)
    return TRUE;
  respond_error (msg, 405, "RestException", "method not allowed for this resource");
  return FALSE;
}

/* `rest` is "ID/ACTION" or "ID" (a job id holds a '/': "i1/j1"). */
static void
route_task (WnRestServer      *self,
            SoupServerMessage *msg,
            const char        *rest,
            GHashTable        *params,
            JsonObject        *body)
{
  g_autoptr(GError) error = NULL;
  const char *slash = strrchr (rest, '/');
  const char *action = slash != NULL ? slash + 1 : NULL;
  g_autofree char *id = slash != NULL ? g_strndup (rest, slash - rest) : NULL;

  if (action != NULL && g_strv_contains (report_actions, action))
    {
      if (!method_is (msg, "POST"))
        return;
      if (handle_report (self, id, action, body, &error))
        respond_no_content (msg);
      else
        respond_gerror (msg, error);
      return;
    }
  if (action != NULL && strcmp (action, "retries") == 0)
    {
      if (!method_is (msg, "PUT"))
        return;
      if (set_retries (self, id, body, &error))
        respond_no_content (msg);
      else
        respond_gerror (msg, error);
      return;
    }
  if (method_is (msg, "GET"))
    handle_get_task (self, msg, rest);
}

static char *describe_call (const char *path, JsonObject *body);

/* Remember who called, what and when (the virtual time it came). */
static void
note_worker (WnRestServer *self,
             const char   *path,
             JsonObject   *body)
{
  const char *worker = NULL;
  Seen *seen = NULL;

  if (body == NULL || !json_object_has_member (body, "workerId") ||
      !wn_rest_body_get_string (body, "", "workerId", FALSE, &worker, NULL) || worker == NULL)
    return;
  for (guint i = 0; i < self->workers->len && seen == NULL; i++)
    if (strcmp (((Seen *) g_ptr_array_index (self->workers, i))->id, worker) == 0)
      seen = g_ptr_array_index (self->workers, i);
  if (seen == NULL)
    {
      seen = g_new0 (Seen, 1);
      seen->id = g_strdup (worker);
      g_ptr_array_add (self->workers, seen);
    }
  g_free (seen->last_call);
  seen->last_call = describe_call (path, NULL);
  seen->at = wn_engine_now (self->engine);
  seen->n_calls++;
}

static void
route (WnRestServer      *self,
       SoupServerMessage *msg,
       const char        *path,
       GHashTable        *params,
       JsonObject        *body)
{
  const char *key;

  note_worker (self, path, body);
  if (strcmp (path, "/version") == 0)
    {
      if (method_is (msg, "GET"))
        handle_version (msg);
    }
  else if (strcmp (path, "/external-task/fetchAndLock") == 0)
    {
      if (method_is (msg, "POST"))
        handle_fetch (self, msg, body);
    }
  else if (strcmp (path, "/external-task") == 0 || strcmp (path, "/external-task/count") == 0)
    {
      if (method_is (msg, "GET"))
        handle_query (self, msg, params, g_str_has_suffix (path, "/count"));
    }
  else if (g_str_has_prefix (path, "/external-task/") && path[strlen ("/external-task/")] != '\0')
    route_task (self, msg, path + strlen ("/external-task/"), params, body);
  else if (g_str_has_prefix (path, "/process-definition/key/") && g_str_has_suffix (path, "/start") &&
           strlen (path) > strlen ("/process-definition/key//start"))
    {
      g_autofree char *k = NULL;

      key = path + strlen ("/process-definition/key/");
      k = g_strndup (key, strlen (key) - strlen ("/start"));
      if (method_is (msg, "POST"))
        handle_start (self, msg, k, body);
    }
  else
    {
      g_autofree char *message = g_strdup_printf ("no resource %s", path);

      respond_error (msg, 404, "RestException", message);
    }
}

static void
held_free (Held *held)
{
  g_signal_handler_disconnect (held->msg, held->disconnected_id);
  g_object_unref (held->msg);
  g_free (held->path);
  g_clear_pointer (&held->params, g_hash_table_unref);
  json_object_unref (held->body);
  g_free (held->summary);
  g_free (held);
}

static void
held_changed (WnRestServer *self)
{
  if (self->held_notify != NULL)
    self->held_notify (self, self->held_notify_data);
}

static void
held_gone_cb (Held *held)
{
  WnRestServer *self = held->server;

  g_queue_remove (&self->held, held);
  held_free (held);
  held_changed (self);
}

/* Whether a call is one to hold: it acts on the run (a query or the version
 * does not). */
static gboolean
acts_on_run (SoupServerMessage *msg,
             const char        *path)
{
  return strcmp (soup_server_message_get_method (msg), "GET") != 0 && strcmp (path, "/version") != 0;
}

/* "fetchAndLock by w1", "complete i1/j1 by w1". */
static char *
describe_call (const char *path,
               JsonObject *body)
{
  const char *worker = NULL;
  const char *slash;

  if (body != NULL && json_object_has_member (body, "workerId"))
    wn_rest_body_get_string (body, "", "workerId", FALSE, &worker, NULL);
  path = g_str_has_prefix (path, "/external-task/") ? path + strlen ("/external-task/") : path;
  slash = strrchr (path, '/');
  if (slash != NULL && strchr (path, '/') != slash)
    {
      g_autofree char *id = g_strndup (path, slash - path);

      return worker != NULL ? g_strdup_printf ("%s %s by %s", slash + 1, id, worker)
                            : g_strdup_printf ("%s %s", slash + 1, id);
    }
  return worker != NULL ? g_strdup_printf ("%s by %s", path, worker) : g_strdup (path);
}

static void
hold (WnRestServer      *self,
      SoupServerMessage *msg,
      const char        *path,
      GHashTable        *params,
      JsonObject        *body)
{
  Held *held = g_new0 (Held, 1);

  held->server = self;
  held->msg = g_object_ref (msg);
  held->path = g_strdup (path);
  held->params = params != NULL ? g_hash_table_ref (params) : NULL;
  held->body = json_object_ref (body);
  held->summary = describe_call (path, body);
  held->disconnected_id = g_signal_connect_swapped (msg, "disconnected", G_CALLBACK (held_gone_cb), held);
  soup_server_message_pause (msg);
  g_queue_push_tail (&self->held, held);
  held_changed (self);
}

static void
handler_cb (SoupServer        *soup,
            SoupServerMessage *msg,
            const char        *path,
            GHashTable        *params,
            gpointer           data)
{
  WnRestServer *self = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) body = NULL;
  g_autofree char *decoded = g_uri_unescape_string (path, NULL);
  Body *read = g_object_get_data (G_OBJECT (msg), BODY_KEY);
  const char *rest;

  if (read != NULL && read->too_large)
    {
      g_autofree char *message = g_strdup_printf ("the request body is larger than %" G_GSIZE_FORMAT " bytes",
                                                  self->max_body);

      respond_error (msg, 413, "RestException", message);
      return;
    }
  if (decoded == NULL || !g_str_has_prefix (decoded, "/engine-rest") ||
      (decoded[strlen ("/engine-rest")] != '/' && decoded[strlen ("/engine-rest")] != '\0'))
    {
      respond_error (msg, 404, "RestException", "no resource here: the API is under /engine-rest");
      return;
    }
  rest = decoded + strlen ("/engine-rest");
  if (strcmp (soup_server_message_get_method (msg), "GET") != 0)
    {
      body = wn_rest_body_parse (read != NULL ? (const char *) read->data->data : NULL,
                                 read != NULL ? read->data->len : 0, &error);
      if (body == NULL)
        {
          respond_gerror (msg, error);
          return;
        }
    }
  else
    body = json_object_new ();
  if (self->hold && acts_on_run (msg, rest) &&
      wn_scheduler_get_mode (wn_engine_get_scheduler (self->engine)) == WN_CLOCK_PAUSED)
    {
      hold (self, msg, rest, params, body);
      return;
    }
  route (self, msg, rest, params, body);
}

static void
got_chunk_cb (SoupServerMessage *msg,
              GBytes            *chunk,
              gpointer           data)
{
  Body *body = data;
  gsize size;
  gconstpointer bytes = g_bytes_get_data (chunk, &size);

  if (body->too_large)
    return;
  if (size > body->max - body->data->len)
    {
      body->too_large = TRUE;
      g_byte_array_set_size (body->data, 0);
      return;
    }
  g_byte_array_append (body->data, bytes, (guint) size);
}

/* Before the body is read: refuse one announced too large at once, and read
 * the others ourselves up to the cap instead of letting libsoup keep them whole. */
static void
early_cb (SoupServer        *soup,
          SoupServerMessage *msg,
          const char        *path,
          GHashTable        *params,
          gpointer           data)
{
  WnRestServer *self = data;
  goffset length = soup_message_headers_get_content_length (soup_server_message_get_request_headers (msg));
  Body *body;

  if (length > 0 && (guint64) length > self->max_body)
    {
      g_autofree char *message = g_strdup_printf ("the request body is larger than %" G_GSIZE_FORMAT " bytes",
                                                  self->max_body);

      soup_message_headers_append (soup_server_message_get_response_headers (msg), "Connection", "close");
      respond_error (msg, 413, "RestException", message);
      return;
    }
  body = g_new0 (Body, 1);
  body->data = g_byte_array_new ();
  body->max = self->max_body;
  g_object_set_data_full (G_OBJECT (msg), BODY_KEY, body, body_free);
  soup_message_body_set_accumulate (soup_server_message_get_request_body (msg), FALSE);
  /* the body, not the server: a request may outlive the server (its free) */
  g_signal_connect (msg, "got-chunk", G_CALLBACK (got_chunk_cb), body);
}

static gboolean
auth_cb (SoupAuthDomain    *domain,
         SoupServerMessage *msg,
         const char        *user,
         const char        *password,
         gpointer           data)
{
  WnRestServer *self = data;

  return g_strcmp0 (user, self->user) == 0 && g_strcmp0 (password, self->password) == 0;
}

/* ---- API ---- */

/* A request not read whole in time (a slow-loris client): its connection
 * is shut, which libsoup takes as the client going away. */
static gboolean
request_late_cb (gpointer data)
{
  SoupServerMessage *msg = data;
  GSocket *socket = soup_server_message_get_socket (msg);

  if (socket != NULL)
    g_socket_shutdown (socket, TRUE, TRUE, NULL);
  g_object_set_data (G_OBJECT (msg), DEADLINE_KEY, NULL);
  return G_SOURCE_REMOVE;
}

static void
source_free (gpointer data)
{
  g_source_destroy (data);
  g_source_unref (data);
}

/* A kept-alive connection between two requests. libsoup 3.2 does not close
 * one the client closes (fixed in 3.3.0, "server: do not leak idle
 * connections closed by the client"): its descriptor stayed open for ever,
 * and a client that opens a connection per call ran the process out of
 * descriptors (the 10⁵-call load test's lost request). The watch looks at
 * the socket when it becomes readable, without reading: the end of the
 * stream closes the socket (libsoup's source then reads a closed GSocket,
 * which fails without touching the descriptor); the first bytes of a next
 * request end the watch (request-started does too). */
static gboolean
idle_readable_cb (GSocket      *socket,
                  GIOCondition  condition,
                  gpointer      data)
{
  char byte;

  /* never blocking: libsoup's source may have read what made it readable */
  if (!g_socket_is_closed (socket) && recv (g_socket_get_fd (socket), &byte, 1, MSG_PEEK | MSG_DONTWAIT) == 0)
    g_socket_close (socket, NULL);
  /* else a request is coming (libsoup reads it), or the socket failed (libsoup sees it) */
  /* the socket owns the watch: drop it from there (which destroys it) */
  g_object_set_data (G_OBJECT (socket), IDLE_KEY, NULL);
  return G_SOURCE_REMOVE;
}

static void
request_finished_cb (SoupServer        *soup,
                     SoupServerMessage *msg,
                     WnRestServer      *self)
{
  GSocket *socket = soup_server_message_get_socket (msg);
  GSource *watch;

  if (socket == NULL || g_socket_is_closed (socket))
    return;
  watch = g_socket_create_source (socket, G_IO_IN | G_IO_HUP | G_IO_ERR | G_IO_NVAL, NULL);
  /* libsoup's own priority: a lower one starves while calls keep coming */
  g_source_set_priority (watch, G_PRIORITY_DEFAULT);
  g_source_set_callback (watch, (GSourceFunc) (void (*) (void)) idle_readable_cb, NULL, NULL);
  g_source_set_static_name (watch, "WnRestServer idle connection");
  g_source_attach (watch, self->context);
  g_object_set_data_full (G_OBJECT (socket), IDLE_KEY, watch, source_free);
}

static void
request_started_cb (SoupServer        *soup,
                    SoupServerMessage *msg,
                    WnRestServer      *self)
{
  GSource *deadline = g_timeout_source_new (self->request_timeout_ms);
  GSocket *socket = soup_server_message_get_socket (msg);

  if (socket != NULL)
    g_object_set_data (G_OBJECT (socket), IDLE_KEY, NULL);

  /* the message owns the timer; the callback gets it unreferenced */
  g_source_set_callback (deadline, request_late_cb, msg, NULL);
  g_source_set_static_name (deadline, "WnRestServer request deadline");
  g_source_attach (deadline, self->context);
  g_object_set_data_full (G_OBJECT (msg), DEADLINE_KEY, deadline, source_free);
}

static void
request_read_cb (SoupServer        *soup,
                 SoupServerMessage *msg,
                 WnRestServer      *self)
{
  g_object_set_data (G_OBJECT (msg), DEADLINE_KEY, NULL);
}

WnRestServer *
wn_rest_server_new (WnEngine *engine)
{
  WnRestServer *self;

  g_return_val_if_fail (engine != NULL, NULL);

  self = g_new0 (WnRestServer, 1);
  self->engine = engine;
  /* the engine's own: the one its replays go through, so failure reports agree */
  self->external = wn_engine_get_external (engine);
  self->context = g_main_context_ref_thread_default ();
  self->swept_at = -1;
  self->max_body = WN_REST_DEFAULT_MAX_BODY;
  self->polls = g_hash_table_new (g_direct_hash, g_direct_equal);
  self->workers = g_ptr_array_new_with_free_func (seen_free);
  self->soup = soup_server_new ("server-header", "winnow/" PACKAGE_VERSION " ", NULL);
  self->request_timeout_ms = WN_REST_DEFAULT_REQUEST_TIMEOUT_MS;
  g_signal_connect (self->soup, "request-started", G_CALLBACK (request_started_cb), self);
  g_signal_connect (self->soup, "request-read", G_CALLBACK (request_read_cb), self);
  g_signal_connect (self->soup, "request-finished", G_CALLBACK (request_finished_cb), self);
  soup_server_add_early_handler (self->soup, NULL, early_cb, self, NULL);
  soup_server_add_handler (self->soup, NULL, handler_cb, self, NULL);
  return self;
}

void
wn_rest_server_set_request_timeout (WnRestServer *self,
                                    guint         timeout_ms)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (timeout_ms > 0);

  self->request_timeout_ms = timeout_ms;
}

void
wn_rest_server_set_hold_when_paused (WnRestServer *self,
                                     gboolean      hold_calls,
                                     GFunc         notify,
                                     gpointer      data)
{
  g_return_if_fail (self != NULL);

  self->hold = hold_calls;
  self->held_notify = notify;
  self->held_notify_data = data;
}

guint
wn_rest_server_get_n_held (WnRestServer *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->held.length;
}

const char *
wn_rest_server_get_held (WnRestServer *self,
                         guint         index)
{
  Held *held;

  g_return_val_if_fail (self != NULL, NULL);

  held = g_queue_peek_nth (&self->held, index);
  return held != NULL ? held->summary : NULL;
}

gboolean
wn_rest_server_apply_held (WnRestServer *self)
{
  Held *held;

  g_return_val_if_fail (self != NULL, FALSE);

  held = g_queue_pop_head (&self->held);
  if (held == NULL)
    return FALSE;
  route (self, held->msg, held->path, held->params, held->body);
  /* answered: let it go; a long poll it became stays paused until answered */
  if (soup_server_message_get_status (held->msg) != SOUP_STATUS_NONE)
    soup_server_message_unpause (held->msg);
  held_free (held);
  held_changed (self);
  return TRUE;
}

guint
wn_rest_server_get_n_workers (WnRestServer *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->workers->len;
}

const char *
wn_rest_server_get_worker (WnRestServer *self,
                           guint         index,
                           const char  **last_call,
                           WnTime       *at,
                           guint64      *n_calls)
{
  const Seen *seen;

  g_return_val_if_fail (self != NULL, NULL);

  if (index >= self->workers->len)
    return NULL;
  seen = g_ptr_array_index (self->workers, index);
  if (last_call != NULL)
    *last_call = seen->last_call;
  if (at != NULL)
    *at = seen->at;
  if (n_calls != NULL)
    *n_calls = seen->n_calls;
  return seen->id;
}

void
wn_rest_server_shutdown (WnRestServer *self)
{
  g_return_if_fail (self != NULL);

  self->hold = FALSE;
  while (wn_rest_server_apply_held (self))
    ;
  while (g_hash_table_size (self->polls) > 0)
    {
      GHashTableIter iter;
      gpointer poll;
      g_autoptr(JsonNode) answer = empty_array ();

      g_hash_table_iter_init (&iter, self->polls);
      g_hash_table_iter_next (&iter, &poll, NULL);
      poll_finish (poll, answer);
    }
}

static gboolean
release_soup_cb (gpointer data)
{
  soup_server_disconnect (data);
  g_object_unref (data);
  return G_SOURCE_REMOVE;
}

void
wn_rest_server_free (WnRestServer *self)
{
  if (self == NULL)
    return;
  wn_rest_server_shutdown (self);
  g_hash_table_unref (self->polls);
  g_ptr_array_unref (self->workers);
  if (self->sweep_now != NULL)
    g_source_destroy (self->sweep_now);
  g_clear_pointer (&self->sweep_now, g_source_unref);
  g_main_context_unref (self->context);
  /* the answers just given still have to go out: the libsoup server lives on
   * a moment without anything of ours (requests that come meanwhile get
   * libsoup's 404), so a client never waits on a connection nobody serves */
  g_signal_handlers_disconnect_by_data (self->soup, self);
  soup_server_remove_handler (self->soup, NULL);
  if (self->auth != NULL)
    soup_server_remove_auth_domain (self->soup, self->auth);
  g_clear_object (&self->auth);
  g_timeout_add_seconds (1, release_soup_cb, self->soup);
  g_free (self->user);
  g_free (self->password);
  g_free (self->url);
  g_free (self);
}

void
wn_rest_server_set_basic_auth (WnRestServer *self,
                               const char   *user,
                               const char   *password)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (user != NULL && password != NULL);

  g_free (self->user);
  g_free (self->password);
  self->user = g_strdup (user);
  self->password = g_strdup (password);
  if (self->auth == NULL)
    {
      self->auth = soup_auth_domain_basic_new ("realm", "Winnow", NULL);
      soup_auth_domain_basic_set_auth_callback (self->auth, auth_cb, self, NULL);
      soup_auth_domain_add_path (self->auth, "/");
      soup_server_add_auth_domain (self->soup, self->auth);
    }
}

void
wn_rest_server_set_max_body (WnRestServer *self,
                             gsize         max_body)
{
  g_return_if_fail (self != NULL);

  self->max_body = max_body;
}

gboolean
wn_rest_server_listen (WnRestServer *self,
                       const char   *host,
                       guint         port,
                       GError      **error)
{
  g_autoptr(GSocketAddress) address = NULL;
  g_autoptr(GSocket) socket = NULL;
  GSList *listeners;

  g_return_val_if_fail (self != NULL, FALSE);

  if (host == NULL || g_ascii_strcasecmp (host, "localhost") == 0)
    host = "127.0.0.1";
  if (port > 65535)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "port %u is out of range", port);
      return FALSE;
    }
  address = g_inet_socket_address_new_from_string (host, port);
  if (address == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "%s is not an IP address (use 127.0.0.1, ::1, 0.0.0.0 or an interface's address)", host);
      return FALSE;
    }
  /* a socket of our own: libsoup's listens with GLib's backlog of 10, and
   * dozens of clients connecting at once were reset */
  socket = g_socket_new (g_socket_address_get_family (address), G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP,
                         error);
  if (socket == NULL)
    return FALSE;
  g_socket_set_listen_backlog (socket, LISTEN_BACKLOG);
  if (!g_socket_bind (socket, address, TRUE, error) || !g_socket_listen (socket, error) ||
      !soup_server_listen_socket (self->soup, socket, 0, error))
    return FALSE;

  /* the port from the listening socket (soup_server_get_uris() leaks in 3.2) */
  listeners = soup_server_get_listeners (self->soup);
  if (listeners != NULL)
    {
      g_autoptr(GSocketAddress) local = g_socket_get_local_address (listeners->data, NULL);
      gboolean v6 = strchr (host, ':') != NULL;

      g_free (self->url);
      self->url = g_strdup_printf ("http://%s%s%s:%u/engine-rest", v6 ? "[" : "", host, v6 ? "]" : "",
                                   local != NULL ? g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (local))
                                                 : port);
    }
  g_slist_free (listeners);
  return TRUE;
}

const char *
wn_rest_server_get_url (WnRestServer *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->url;
}

guint
wn_rest_server_get_n_polls (WnRestServer *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return g_hash_table_size (self->polls);
}

gboolean
wn_rest_server_apply_body (WnRestServer *self,
                           const char   *endpoint,
                           const char   *id,
                           const char   *data,
                           gsize         length,
                           GError      **error)
{
  g_autoptr(JsonObject) body = NULL;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (endpoint != NULL, FALSE);

  body = wn_rest_body_parse (data, length, error);
  if (body == NULL)
    return FALSE;
  if (strcmp (endpoint, "fetchAndLock") == 0)
    {
      g_autoptr(JsonNode) answer = NULL;
      gint64 timeout_ms = 0;
      Fetch *fetch = parse_fetch (self, body, &timeout_ms, error);
      guint n = 0;

      if (fetch == NULL)
        return FALSE;
      answer = try_fetch (self, fetch, &n, error);
      fetch_free (fetch);
      return answer != NULL;
    }
  if (strcmp (endpoint, "retries") == 0)
    return set_retries (self, id, body, error);
  if (!g_strv_contains (report_actions, endpoint))
    {
      g_set_error (error, WN_REST_ERROR, WN_REST_ERROR_NOT_FOUND, "no endpoint %s", endpoint);
      return FALSE;
    }
  return handle_report (self, id, endpoint, body, error);
}

gboolean
wn_rest_parse_address (const char *spec,
                       char      **host,
                       guint      *port,
                       GError    **error)
{
  const char *colon;
  const char *port_text = spec;
  guint64 value;

  g_return_val_if_fail (spec != NULL, FALSE);

  *host = NULL;
  if (spec[0] == '[')
    {
      const char *end = strchr (spec, ']');

      if (end == NULL || end[1] != ':')
        goto bad;
      *host = g_strndup (spec + 1, end - spec - 1);
      port_text = end + 2;
    }
  else if ((colon = strrchr (spec, ':')) != NULL)
    {
      if (strchr (spec, ':') != colon)
        goto bad;  /* an IPv6 address needs its brackets */
      *host = g_strndup (spec, colon - spec);
      port_text = colon + 1;
    }
  if ((*host != NULL && **host == '\0') ||
      !g_ascii_string_to_unsigned (port_text, 10, 0, 65535, &value, NULL))
    goto bad;
  *port = (guint) value;
  return TRUE;

bad:
  g_clear_pointer (host, g_free);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
               "'%s' is not [ADDR:]PORT (e.g. 8080, 127.0.0.1:8080, [::1]:8080)", spec);
  return FALSE;
}

gboolean
wn_rest_host_is_loopback (const char *host)
{
  g_autoptr(GInetAddress) address = NULL;

  if (host == NULL || g_ascii_strcasecmp (host, "localhost") == 0)
    return TRUE;
  address = g_inet_address_new_from_string (host);
  return address != NULL && g_inet_address_get_is_loopback (address);
}

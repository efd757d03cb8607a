/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-external.c — outside workers on the dispatcher (wn-external.h): each
 * Camunda operation checked as Camunda checks it (job → lock → holder →
 * expiry), then handed to the dispatcher under the job's trust mode. */
#include "config.h"

#include <string.h>

#include "wn-external.h"
#include "wn-engine-private.h"
#include "wn-dispatcher-private.h"
#include "wn-duration.h"
#include "wn-output-mapping.h"
#include "wn-loader-private.h"
#include "wn-json.h"
#include "wn-travel.h"

G_DEFINE_QUARK (wn-external-error-quark, wn_external_error)

typedef struct {
  WnExternalReport report;
  char            *message;
  char            *details;
} Report;

struct _WnExternal
{
  WnEngine   *engine;
  GHashTable *reports;   /* job id → Report: what its last failure said */
};

static void
report_free (gpointer data)
{
  Report *report = data;

  g_free (report->message);
  g_free (report->details);
  g_free (report);
}

/* The job's report, made when it has none (retries unset). */
static Report *
report_for (WnExternal *self,
            const char *id)
{
  Report *report = g_hash_table_lookup (self->reports, id);

  if (report == NULL)
    {
      report = g_new0 (Report, 1);
      report->report.retries = -1;
      g_hash_table_insert (self->reports, g_strdup (id), report);
    }
  return report;
}

static WnDispatcher *
dispatcher_of (WnExternal *self)
{
  return wn_engine_get_dispatcher (self->engine);
}

static WnTime
now_of (WnExternal *self)
{
  return wn_engine_now (self->engine);
}

/* Emit a job event about `info`'s job (or only `id` when there is no info). */
static void
emit_job (WnExternal      *self,
          WnEvent         *event,
          const WnJobInfo *info,
          const char      *id)
{
  WnJournal *journal = wn_engine_get_journal (self->engine);

  if (!wn_journal_is_active (journal))
    {
      wn_journal_skip (journal);
      return;
    }
  event->job = id;
  if (info != NULL)
    {
      event->job = info->id;
      event->instance = info->instance;
      event->node = info->node;
      event->topic = info->topic;
      event->trust = info->policy != NULL ? info->policy->trust : WN_TRUST_UNSET;
    }
  wn_journal_emit (journal, now_of (self), event);
}

/* A refused call: journalled as job.reportRejected, as the dispatcher journals
 * its own refusals, and a named error. */
static gboolean
refuse (WnExternal      *self,
        const WnJobInfo *info,
        const char      *id,
        const char      *worker,
        WnExternalError  code,
        char            *message,
        GError         **error)
{
  WnEvent event = WN_EVENT_INIT (WN_EV_JOB, WN_PH_REPORT_REJECTED);

  event.worker = worker;
  event.error = message;
  emit_job (self, &event, info, id);
  g_set_error_literal (error, WN_EXTERNAL_ERROR, code, message);
  g_free (message);
  return FALSE;
}

static gboolean
check_worker (WnExternal  *self,
              const char  *worker,
              GError     **error)
{
  WnScenario *scenario = wn_engine_get_scenario (self->engine);

  if (worker == NULL || *worker == '\0')
    {
      g_set_error_literal (error, WN_EXTERNAL_ERROR, WN_EXTERNAL_ERROR_INVALID, "the worker id is empty");
      return FALSE;
    }
  if (g_str_has_prefix (worker, "implicit:"))
    goto simulated;
  for (guint i = 0; i < scenario->workers->len; i++)
    if (g_strcmp0 (((const WnWorkerConfig *) g_ptr_array_index (scenario->workers, i))->id, worker) == 0)
      goto simulated;
  return TRUE;

simulated:
  g_set_error (error, WN_EXTERNAL_ERROR, WN_EXTERNAL_ERROR_SIMULATED_WORKER,
               "worker id '%s' is a simulated worker's: an outside worker needs an id of its own", worker);
  return FALSE;
}

/* The job `id` when `worker` holds its unexpired lock, in Camunda's order:
 * exists → locked → holder → expiry. `verb` says what was refused. */
static gboolean
check_held (WnExternal  *self,
            const char  *id,
            const char  *worker,
            const char  *verb,
            WnJobInfo   *info,
            GError     **error)
{
  if (!check_worker (self, worker, error))
    return FALSE;
  if (id == NULL || !wn_dispatcher_lookup (dispatcher_of (self), id, info))
    return refuse (self, NULL, id, worker, WN_EXTERNAL_ERROR_NOT_FOUND,
                   g_strdup_printf ("External task with id %s does not exist", id ? id : ""), error);
  if (info->worker == NULL)
    return refuse (self, info, id, worker, WN_EXTERNAL_ERROR_NOT_LOCKED,
                   g_strdup_printf ("External Task %s cannot be %s by worker '%s'. It is not locked.",
                                    id, verb, worker), error);
  if (strcmp (info->worker, worker) != 0)
    return refuse (self, info, id, worker, WN_EXTERNAL_ERROR_WRONG_WORKER,
                   g_strdup_printf ("External Task %s cannot be %s by worker '%s'. It is locked by worker '%s'.",
                                    id, verb, worker, info->worker), error);
  if (now_of (self) > info->deadline)
    {
      g_autofree char *at = wn_time_format_clock (info->deadline);

      return refuse (self, info, id, worker, WN_EXTERNAL_ERROR_LOCK_EXPIRED,
                     g_strdup_printf ("External Task %s cannot be %s by worker '%s'. "
                                      "Its lock expired at %s (virtual time).", id, verb, worker, at),
                     error);
    }
  return TRUE;
}

static gboolean
engine_authoritative (const WnJobInfo *info)
{
  return info->policy != NULL && info->policy->trust == WN_TRUST_ENGINE_AUTHORITATIVE;
}

/* A dispatcher error as one of ours (the checks above catch the usual ones first). */
static gboolean
translate (GError  *from,
           GError **error)
{
  WnExternalError code = WN_EXTERNAL_ERROR_INVALID;

  if (from->domain == WN_DISPATCHER_ERROR)
    switch (from->code)
      {
      case WN_DISPATCHER_ERROR_NOT_FOUND:
        code = WN_EXTERNAL_ERROR_NOT_FOUND;
        break;
      case WN_DISPATCHER_ERROR_NOT_HOLDER:
        code = WN_EXTERNAL_ERROR_WRONG_WORKER;
        break;
      case WN_DISPATCHER_ERROR_LOCK_EXPIRED:
        code = WN_EXTERNAL_ERROR_LOCK_EXPIRED;
        break;
      case WN_DISPATCHER_ERROR_MAX_LOCK:
        code = WN_EXTERNAL_ERROR_MAX_LOCK;
        break;
      default:
        break;
      }
  g_set_error_literal (error, WN_EXTERNAL_ERROR, code, from->message);
  g_error_free (from);
  return FALSE;
}

/* The call ended the job: what its failures said goes with it. */
static gboolean
ended (WnExternal *self,
       const char *id)
{
  g_hash_table_remove (self->reports, id);
  return TRUE;
}

static JsonNode *
object_node (JsonObject *object)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_node_set_object (node, object);
  return node;
}

static void
set_string_or_null (JsonObject *object,
                    const char *name,
                    const char *value)
{
  if (value != NULL)
    json_object_set_string_member (object, name, value);
  else
    json_object_set_null_member (object, name);
}

/* An EngineAuthoritative report as the raw fault {name1: value1, name2:
 * value2} with `code`, for the mapper and the retry policy. */
static gboolean
raw_fault (WnExternal  *self,
           const char  *id,
           const char  *worker,
           const char  *code,
           const char  *name1,
           const char  *value1,
           const char  *name2,
           const char  *value2,
           const char  *message,
           GError     **error)
{
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(JsonNode) body = NULL;
  GError *local_error = NULL;

  set_string_or_null (object, name1, value1);
  set_string_or_null (object, name2, value2);
  body = object_node (object);
  if (!wn_dispatcher_fail (dispatcher_of (self), id, worker, code, body, message, &local_error))
    return translate (local_error, error);
  /* retried, the job is still there; classified or exhausted, it has ended */
  if (!wn_dispatcher_lookup (dispatcher_of (self), id, NULL))
    ended (self, id);
  return TRUE;
}

/* ---- the record (docs/rest-api.md, "Recorded calls") ---- */

/* A call being recorded: the command (NULL when none is: inside a command
 * the scenario issues itself) and the events journalled before it. */
typedef struct {
  WnCommand *command;
  guint64    events;
} Recording;

static JsonObject *
call_begin (WnExternal *self,
            const char *endpoint,
            const char *task,
            const char *worker,
            Recording  *recording)
{
  JsonObject *call;

  recording->events = wn_journal_get_n_events (wn_engine_get_journal (self->engine));
  recording->command = _wn_engine_record (self->engine, WN_COMMAND_EXTERNAL);
  if (recording->command == NULL)
    return NULL;
  call = json_object_new ();
  json_object_set_string_member (call, "endpoint", endpoint);
  if (task != NULL)
    json_object_set_string_member (call, "taskId", task);
  if (worker != NULL)
    json_object_set_string_member (call, "workerId", worker);
  recording->command->call = call;
  return call;
}

/* The call is over: one that changed nothing and journalled nothing (an
 * empty fetch, a call refused before any check journals) leaves the record;
 * a refused one that journalled its refusal stays, marked. */
static gboolean
call_end (WnExternal  *self,
          Recording   *recording,
          gboolean     ok,
          gboolean     changed,
          GError     **error)
{
  guint64 events = wn_journal_get_n_events (wn_engine_get_journal (self->engine));

  if (recording->command == NULL)
    return ok;
  if (!changed && events == recording->events)
    _wn_engine_forget (self->engine, recording->command);
  else if (!ok)
    json_object_set_string_member (recording->command->call, "refused",
                                   error != NULL && *error != NULL ? (*error)->message : "refused");
  return ok;
}

static void
set_duration (JsonObject *call,
              const char *name,
              WnTime      us)
{
  g_autofree char *text = g_strdup_printf ("%" G_GINT64_FORMAT "us", us);

  json_object_set_string_member (call, name, text);
}

static void
set_optional_string (JsonObject *call,
                     const char *name,
                     const char *value)
{
  if (value != NULL)
    json_object_set_string_member (call, name, value);
}

/* A run that went back in time replays its recorded calls: an outside
 * worker's live call is not applied there, never twice (docs/rest-api.md). */
static gboolean
refuse_replaying (WnExternal  *self,
                  const char  *id,
                  const char  *worker,
                  const char  *verb,
                  GError     **error)
{
  g_autofree char *by = NULL;

  if (!_wn_engine_replaying_future (self->engine))
    return FALSE;
  by = worker != NULL ? g_strdup_printf (" by worker '%s'", worker) : g_strdup ("");
  g_set_error (error, WN_EXTERNAL_ERROR, WN_EXTERNAL_ERROR_REPLAYING,
               "External Task %s cannot be %s%s. The run went back in time and replays "
               "its recorded calls (%u still to come): a call is not applied twice.",
               id ? id : "", verb, by, wn_engine_get_n_future (self->engine));
  return TRUE;
}

/* An execution of the job just locked begins; its id joins `locked`. */
static void
begin (WnExternal *self,
       const char *job,
       const char *worker,
       GPtrArray  *locked)
{
  char *id = g_strdup (job);

  /* 0: the job executed too often at one instant and has ended */
  if (wn_dispatcher_begin_execution (dispatcher_of (self), id, worker, NULL) > 0)
    {
      self->engine->executions++;
      g_ptr_array_add (locked, id);
    }
  else
    g_free (id);
}

typedef struct {
  WnExternal            *self;
  const WnExternalTopic *topic;
  WnTime                 now;
  char                  *id;     /* the first available job of the topic that passes */
} Matching;

/* Whether the instance has one of the filter's variables with that value. */
static gboolean
instance_matches (WnExternal *self,
                  const char *instance,
                  JsonObject *filter)
{
  WnInstanceInfo info;
  JsonObjectIter iter;
  const char *name;
  JsonNode *want;

  if (!wn_engine_lookup_instance (self->engine, instance, &info) || info.variables == NULL)
    return FALSE;
  json_object_iter_init (&iter, filter);
  while (json_object_iter_next (&iter, &name, &want))
    {
      JsonNode *have = json_object_get_member (info.variables, name);

      if (have != NULL && json_node_equal (have, want))
        return TRUE;
    }
  return FALSE;
}

static void
matching_cb (const WnJobInfo *info,
             gpointer         data)
{
  Matching *m = data;
  gboolean available = info->state == WN_JOB_AVAILABLE ||
                       (info->state == WN_JOB_LOCKED && info->deadline < m->now);

  if (m->id != NULL || !available || g_strcmp0 (info->topic, m->topic->name) != 0 ||
      (info->not_before > m->now))
    return;
  if (instance_matches (m->self, info->instance, m->topic->process_variables))
    m->id = g_strdup (info->id);
}

/* Lock the first available job of the topic (enqueue order) whose instance
 * passes its processVariables filter. */
static gboolean
lock_matching (WnExternal            *self,
               const char            *worker,
               const WnExternalTopic *topic,
               WnJobInfo             *info)
{
  Matching m = { self, topic, now_of (self), NULL };
  gboolean ok;

  wn_dispatcher_foreach (dispatcher_of (self), matching_cb, &m);
  if (m.id == NULL)
    return FALSE;
  ok = _wn_dispatcher_lock_job (dispatcher_of (self), m.id, worker, topic->lock_duration, info);
  g_free (m.id);
  return ok;
}

static gboolean
positive (WnTime       duration,
          const char  *name,
          GError     **error)
{
  if (duration > 0)
    return TRUE;
  g_set_error (error, WN_EXTERNAL_ERROR, WN_EXTERNAL_ERROR_INVALID, "%s must be greater than 0", name);
  return FALSE;
}

/* ---- API ---- */

WnExternal *
wn_external_new (WnEngine *engine)
{
  WnExternal *self;

  g_return_val_if_fail (engine != NULL, NULL);

  self = g_new0 (WnExternal, 1);
  self->engine = engine;
  self->reports = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, report_free);
  return self;
}

void
wn_external_free (WnExternal *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->reports);
  g_free (self);
}

WnExternal *
wn_engine_get_external (WnEngine *engine)
{
  g_return_val_if_fail (engine != NULL, NULL);

  if (engine->external == NULL)
    engine->external = wn_external_new (engine);
  return engine->external;
}

WnEngine *
wn_external_get_engine (WnExternal *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->engine;
}

gboolean
wn_external_fetch_and_lock (WnExternal            *self,
                            const char            *worker,
                            guint                  max_tasks,
                            gboolean               use_priority,
                            const WnExternalTopic *topics,
                            guint                  n_topics,
                            GPtrArray             *locked,
                            GError               **error)
{
  WnDispatcher *dispatcher;
  Recording recording = { NULL, 0 };
  JsonObject *call = NULL;
  guint before;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (topics != NULL || n_topics == 0, FALSE);
  g_return_val_if_fail (locked != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_worker (self, worker, error))
    return FALSE;
  for (guint i = 0; i < n_topics; i++)
    if (topics[i].name == NULL || *topics[i].name == '\0')
      {
        g_set_error (error, WN_EXTERNAL_ERROR, WN_EXTERNAL_ERROR_INVALID, "topic %u has no name", i);
        return FALSE;
      }
  /* going back in time: the record's fetches lock what they locked, a live one nothing */
  if (_wn_engine_replaying_future (self->engine))
    return TRUE;

  call = call_begin (self, "fetchAndLock", NULL, worker, &recording);
  if (call != NULL)
    {
      JsonArray *list = json_array_new ();

      json_object_set_int_member (call, "maxTasks", max_tasks);
      json_object_set_boolean_member (call, "usePriority", use_priority);
      for (guint i = 0; i < n_topics; i++)
        {
          JsonObject *topic = json_object_new ();

          json_object_set_string_member (topic, "topicName", topics[i].name);
          set_duration (topic, "lockDuration", topics[i].lock_duration);
          if (topics[i].process_variables != NULL && json_object_get_size (topics[i].process_variables) > 0)
            json_object_set_object_member (topic, "processVariables",
                                           wn_json_object_deep_copy (topics[i].process_variables));
          json_array_add_object_element (list, topic);
        }
      json_object_set_array_member (call, "topics", list);
    }
  before = locked->len;

  /* every job has priority 0: with or without use_priority, topics in order, FIFO */
  dispatcher = dispatcher_of (self);
  for (guint i = 0; i < n_topics; i++)
    {
      const char *names[1] = { topics[i].name };
      gboolean filtered = topics[i].process_variables != NULL &&
                          json_object_get_size (topics[i].process_variables) > 0;
      WnJobInfo info;

      while (locked->len < max_tasks &&
             (filtered ? lock_matching (self, worker, &topics[i], &info)
                       : wn_dispatcher_fetch (dispatcher, worker, names, 1, topics[i].lock_duration, &info)))
        begin (self, info.id, worker, locked);
    }
  if (call != NULL)
    {
      JsonArray *ids = json_array_new ();

      for (guint i = before; i < locked->len; i++)
        json_array_add_string_element (ids, g_ptr_array_index (locked, i));
      json_object_set_array_member (call, "locked", ids);
    }
  return call_end (self, &recording, TRUE, locked->len > before, NULL);
}

gboolean
wn_external_complete (WnExternal  *self,
                      const char  *id,
                      const char  *worker,
                      JsonObject  *variables,
                      GError     **error)
{
  GError *local_error = NULL;
  Recording recording = { NULL, 0 };
  JsonObject *call;
  WnJobInfo info;
  gboolean ok;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (refuse_replaying (self, id, worker, "completed", error))
    return FALSE;
  call = call_begin (self, "complete", id, worker, &recording);
  if (call != NULL && variables != NULL)
    json_object_set_object_member (call, "variables", wn_json_object_deep_copy (variables));
  if (!check_held (self, id, worker, "completed", &info, error))
    return call_end (self, &recording, FALSE, FALSE, error);

  if (engine_authoritative (&info))
    {
      /* raw: the variables are the body the output mapping reads */
      g_autoptr(JsonNode) body = variables != NULL ? object_node (variables) : NULL;

      ok = wn_dispatcher_complete (dispatcher_of (self), id, worker, body, &local_error);
    }
  else
    {
      /* trusted: the variables are committed as given */
      g_autoptr(GArray) bindings = wn_bindings_new ();

      if (variables != NULL)
        {
          JsonObjectIter iter;
          const char *name;
          JsonNode *value;

          json_object_iter_init (&iter, variables);
          while (json_object_iter_next (&iter, &name, &value))
            {
              WnBinding binding = { g_strdup (name), json_node_ref (value) };

              g_array_append_val (bindings, binding);
            }
        }
      ok = wn_dispatcher_complete_mapped (dispatcher_of (self), id, worker, bindings, &local_error);
    }
  ok = ok ? ended (self, id) : translate (local_error, error);
  return call_end (self, &recording, ok, ok, error);
}

static gboolean failure (WnExternal *self, const char *id, const char *worker, const char *error_message,
                         const char *error_details, gint retries, WnTime retry_timeout, GError **error);

gboolean
wn_external_failure (WnExternal  *self,
                     const char  *id,
                     const char  *worker,
                     const char  *error_message,
                     const char  *error_details,
                     gint         retries,
                     WnTime       retry_timeout,
                     GError     **error)
{
  Recording recording = { NULL, 0 };
  JsonObject *call;
  gboolean ok;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (retries < 0 || retry_timeout < 0)
    {
      g_set_error_literal (error, WN_EXTERNAL_ERROR, WN_EXTERNAL_ERROR_INVALID,
                           retries < 0 ? "retries must not be negative" : "retryTimeout must not be negative");
      return FALSE;
    }
  if (refuse_replaying (self, id, worker, "failed", error))
    return FALSE;
  call = call_begin (self, "failure", id, worker, &recording);
  if (call != NULL)
    {
      set_optional_string (call, "errorMessage", error_message);
      set_optional_string (call, "errorDetails", error_details);
      json_object_set_int_member (call, "retries", retries);
      set_duration (call, "retryTimeout", retry_timeout);
    }
  ok = failure (self, id, worker, error_message, error_details, retries, retry_timeout, error);
  return call_end (self, &recording, ok, ok, error);
}

static gboolean
failure (WnExternal  *self,
         const char  *id,
         const char  *worker,
         const char  *error_message,
         const char  *error_details,
         gint         retries,
         WnTime       retry_timeout,
         GError     **error)
{
  GError *local_error = NULL;
  WnJobInfo info;
  Report *report;

  if (!check_held (self, id, worker, "failed", &info, error))
    return FALSE;

  if (engine_authoritative (&info))
    {
      g_autofree char *timeout = wn_duration_format (retry_timeout);
      g_autofree char *text =
        g_strdup_printf ("the worker's retries (%d) and retryTimeout (%s) are ignored: "
                         "the job is engineAuthoritative, its retry policy decides", retries, timeout);
      WnEvent event = WN_EVENT_INIT (WN_EV_JOB, WN_PH_WORKER_POLICY_IGNORED);

      event.worker = worker;
      event.error = text;
      emit_job (self, &event, &info, id);

      return raw_fault (self, id, worker, NULL, "message", error_message, "details", error_details,
                        error_message, error);
    }

  /* trusted: the worker's own policy, as it says */
  report = report_for (self, id);
  g_free (report->message);
  g_free (report->details);
  report->message = g_strdup (error_message);
  report->details = g_strdup (error_details);
  report->report.retries = retries;
  report->report.error_message = report->message;
  report->report.error_details = report->details;

  if (retries > 0)
    {
      if (!_wn_dispatcher_rearm_trusted (dispatcher_of (self), id, worker, retry_timeout,
                                         error_message, &local_error))
        return translate (local_error, error);
      self->engine->worker_retries++;
      return TRUE;
    }

  {
    const char *text = error_message != NULL ? error_message : "worker failed";
    g_autofree char *diagnostic =
      g_strdup_printf ("retries exhausted for topic %s after %u attempt%s: %s", info.topic,
                       info.executions, info.executions == 1 ? "" : "s", text);
    WnEvent event = WN_EVENT_INIT (WN_EV_JOB, WN_PH_RETRIES_EXHAUSTED);

    event.worker = worker;
    event.attempts = info.executions;
    event.error = text;
    emit_job (self, &event, &info, id);
    self->engine->worker_exhausted++;
    if (!wn_dispatcher_report_fault (dispatcher_of (self), id, worker, NULL, diagnostic, TRUE, &local_error))
      return translate (local_error, error);
    return ended (self, id);
  }
}

gboolean
wn_external_bpmn_error (WnExternal  *self,
                        const char  *id,
                        const char  *worker,
                        const char  *error_code,
                        const char  *error_message,
                        GError     **error)
{
  GError *local_error = NULL;
  Recording recording = { NULL, 0 };
  JsonObject *call;
  WnJobInfo info;
  gboolean ok;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (error_code == NULL || *error_code == '\0')
    {
      g_set_error_literal (error, WN_EXTERNAL_ERROR, WN_EXTERNAL_ERROR_INVALID, "errorCode is empty");
      return FALSE;
    }
  if (refuse_replaying (self, id, worker, "reported a BPMN error", error))
    return FALSE;
  call = call_begin (self, "bpmnError", id, worker, &recording);
  if (call != NULL)
    {
      json_object_set_string_member (call, "errorCode", error_code);
      set_optional_string (call, "errorMessage", error_message);
    }
  if (!check_held (self, id, worker, "reported a BPMN error", &info, error))
    return call_end (self, &recording, FALSE, FALSE, error);

  /* not trusted: a raw fault whose code is the error code, for the mapper */
  if (engine_authoritative (&info))
    ok = raw_fault (self, id, worker, error_code, "errorCode", error_code, "errorMessage", error_message,
                    error_message, error);
  else
    {
      ok = wn_dispatcher_report_bpmn_error (dispatcher_of (self), id, worker, error_code, error_message,
                                            &local_error);
      ok = ok ? ended (self, id) : translate (local_error, error);
    }
  return call_end (self, &recording, ok, ok, error);
}

gboolean
wn_external_extend_lock (WnExternal  *self,
                         const char  *id,
                         const char  *worker,
                         WnTime       new_duration,
                         GError     **error)
{
  GError *local_error = NULL;
  Recording recording = { NULL, 0 };
  JsonObject *call;
  WnJobInfo info;
  gboolean ok;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!positive (new_duration, "newDuration", error))
    return FALSE;
  if (refuse_replaying (self, id, worker, "extended", error))
    return FALSE;
  call = call_begin (self, "extendLock", id, worker, &recording);
  if (call != NULL)
    set_duration (call, "newDuration", new_duration);
  if (!check_held (self, id, worker, "extended", &info, error))
    return call_end (self, &recording, FALSE, FALSE, error);
  ok = wn_dispatcher_extend_lock (dispatcher_of (self), id, worker, new_duration, &local_error) ||
       translate (local_error, error);
  return call_end (self, &recording, ok, ok, error);
}

gboolean
wn_external_lock (WnExternal  *self,
                  const char  *id,
                  const char  *worker,
                  WnTime       lock_duration,
                  GError     **error)
{
  Recording recording = { NULL, 0 };
  g_autoptr(GPtrArray) locked = g_ptr_array_new_with_free_func (g_free);
  JsonObject *call;
  WnJobInfo info;
  gboolean ok;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!positive (lock_duration, "lockDuration", error))
    return FALSE;
  if (!check_worker (self, worker, error) || refuse_replaying (self, id, worker, "locked", error))
    return FALSE;
  call = call_begin (self, "lock", id, worker, &recording);
  if (call != NULL)
    set_duration (call, "lockDuration", lock_duration);
  if (id == NULL || !wn_dispatcher_lookup (dispatcher_of (self), id, &info))
    ok = refuse (self, NULL, id, worker, WN_EXTERNAL_ERROR_NOT_FOUND,
                 g_strdup_printf ("External task with id %s does not exist", id ? id : ""), error);
  else if (info.worker != NULL && info.deadline >= now_of (self) && strcmp (info.worker, worker) != 0)
    ok = refuse (self, &info, id, worker, WN_EXTERNAL_ERROR_WRONG_WORKER,
                 g_strdup_printf ("External Task %s cannot be locked by worker '%s'. It is locked by worker '%s'.",
                                  id, worker, info.worker), error);
  else if (info.worker != NULL && info.deadline >= now_of (self))
    {
      /* its own lock: the new one from now */
      GError *local_error = NULL;

      ok = wn_dispatcher_extend_lock (dispatcher_of (self), id, worker, lock_duration, &local_error) ||
           translate (local_error, error);
    }
  else if (info.not_before > now_of (self))
    {
      g_autofree char *at = wn_time_format_clock (info.not_before);

      ok = refuse (self, &info, id, worker, WN_EXTERNAL_ERROR_NOT_AVAILABLE,
                   g_strdup_printf ("External Task %s cannot be locked by worker '%s'. It waits for its retry "
                                    "until %s (virtual time).", id, worker, at), error);
    }
  else if (!_wn_dispatcher_lock_job (dispatcher_of (self), id, worker, lock_duration, &info))
    ok = refuse (self, &info, id, worker, WN_EXTERNAL_ERROR_NOT_AVAILABLE,
                 g_strdup_printf ("External Task %s cannot be locked by worker '%s'. It is not available.",
                                  id, worker), error);
  else
    {
      begin (self, id, worker, locked);
      ok = TRUE;
    }
  return call_end (self, &recording, ok, ok, error);
}

gboolean
wn_external_unlock (WnExternal  *self,
                    const char  *id,
                    GError     **error)
{
  GError *local_error = NULL;
  Recording recording = { NULL, 0 };

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (refuse_replaying (self, id, NULL, "unlocked", error))
    return FALSE;
  call_begin (self, "unlock", id, NULL, &recording);
  if (id == NULL || !_wn_dispatcher_unlock (dispatcher_of (self), id, &local_error))
    {
      g_clear_error (&local_error);
      g_set_error (error, WN_EXTERNAL_ERROR, WN_EXTERNAL_ERROR_NOT_FOUND,
                   "External task with id %s does not exist", id ? id : "");
      return call_end (self, &recording, FALSE, FALSE, error);
    }
  return call_end (self, &recording, TRUE, TRUE, error);
}

gboolean
wn_external_set_retries (WnExternal  *self,
                         const char  *id,
                         guint        retries,
                         GError     **error)
{
  Recording recording = { NULL, 0 };
  JsonObject *call;
  WnJobInfo info;
  Report *report;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (refuse_replaying (self, id, NULL, "given retries", error))
    return FALSE;
  call = call_begin (self, "retries", id, NULL, &recording);
  if (call != NULL)
    json_object_set_int_member (call, "retries", retries);
  if (id == NULL || !wn_dispatcher_lookup (dispatcher_of (self), id, &info))
    {
      g_set_error (error, WN_EXTERNAL_ERROR, WN_EXTERNAL_ERROR_NOT_FOUND,
                   "External task with id %s does not exist", id ? id : "");
      return call_end (self, &recording, FALSE, FALSE, error);
    }
  if (engine_authoritative (&info))
    {
      g_set_error (error, WN_EXTERNAL_ERROR, WN_EXTERNAL_ERROR_NOT_TRUSTED,
                   "External task %s is engineAuthoritative: its retry policy sets its retries", id);
      return call_end (self, &recording, FALSE, FALSE, error);
    }

  {
    g_autofree char *action = g_strdup_printf ("retries %u", retries);
    WnEvent event = WN_EVENT_INIT (WN_EV_JOB, WN_PH_RETRIES_SET);

    event.action = action;
    emit_job (self, &event, &info, id);
  }
  if (retries == 0)
    {
      g_autofree char *diagnostic =
        g_strdup_printf ("retries exhausted for topic %s after %u attempt%s: retries set to 0",
                         info.topic, info.executions, info.executions == 1 ? "" : "s");

      self->engine->worker_exhausted++;
      _wn_dispatcher_exhaust (dispatcher_of (self), id, diagnostic, NULL);
      ended (self, id);
      return call_end (self, &recording, TRUE, TRUE, error);
    }

  report = report_for (self, id);
  report->report.retries = (gint) MIN (retries, (guint) G_MAXINT);
  return call_end (self, &recording, TRUE, TRUE, error);
}

const WnExternalReport *
wn_external_get_report (WnExternal *self,
                        const char *id)
{
  Report *report;

  g_return_val_if_fail (self != NULL, NULL);

  if (id == NULL)
    return NULL;
  report = g_hash_table_lookup (self->reports, id);
  if (report == NULL)
    return NULL;
  if (!wn_dispatcher_lookup (dispatcher_of (self), id, NULL))
    {
      /* the job left the store some other way (a boundary, a cancel) */
      g_hash_table_remove (self->reports, id);
      return NULL;
    }
  return &report->report;
}

/* ---- replaying the record ---- */

static gboolean
bad_call (GError    **error,
          const char *member,
          const char *why)
{
  g_set_error (error, WN_EXTERNAL_ERROR, WN_EXTERNAL_ERROR_INVALID, "%s: %s", member, why);
  return FALSE;
}

/* A string member (NULL when absent and not required). */
static gboolean
call_string (JsonObject  *call,
             const char  *name,
             gboolean     required,
             const char **out,
             GError     **error)
{
  JsonNode *node = json_object_get_member (call, name);

  *out = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return !required || bad_call (error, name, "missing");
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return bad_call (error, name, "must be a string");
  *out = json_node_get_string (node);
  return TRUE;
}

static gboolean
call_int (JsonObject  *call,
          const char  *name,
          gint64       max,
          gint64      *out,
          GError     **error)
{
  JsonNode *node = json_object_get_member (call, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64 ||
      json_node_get_int (node) < 0 || json_node_get_int (node) > max)
    return bad_call (error, name, "must be a whole number from 0");
  *out = json_node_get_int (node);
  return TRUE;
}

static gboolean
call_duration (JsonObject  *call,
               const char  *name,
               WnTime      *out,
               GError     **error)
{
  JsonNode *node = json_object_get_member (call, name);

  if (node == NULL || !wn_duration_from_json (node, out, NULL) || *out < 0)
    return bad_call (error, name, "must be a duration (\"1500us\")");
  return TRUE;
}

/* The topics of a recorded fetch, as an array of WnExternalTopic (names borrowed). */
static GArray *
call_topics (JsonObject  *call,
             GError     **error)
{
  JsonNode *node = json_object_get_member (call, "topics");
  g_autoptr(GArray) topics = g_array_new (FALSE, FALSE, sizeof (WnExternalTopic));
  JsonArray *array;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    {
      bad_call (error, "topics", "must be an array");
      return NULL;
    }
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      g_autofree char *path = g_strdup_printf ("topics[%u]", i);
      g_autoptr(GError) local_error = NULL;
      WnExternalTopic topic;

      JsonNode *filter;

      if (!JSON_NODE_HOLDS_OBJECT (element) ||
          !call_string (json_node_get_object (element), "topicName", TRUE, &topic.name, &local_error) ||
          !call_duration (json_node_get_object (element), "lockDuration", &topic.lock_duration, &local_error))
        {
          bad_call (error, path, local_error != NULL ? local_error->message : "must be an object");
          return NULL;
        }
      filter = json_object_get_member (json_node_get_object (element), "processVariables");
      if (filter != NULL && !JSON_NODE_HOLDS_OBJECT (filter))
        {
          bad_call (error, path, "processVariables: must be an object");
          return NULL;
        }
      topic.process_variables = filter != NULL ? json_node_get_object (filter) : NULL;
      g_array_append_val (topics, topic);
    }
  return g_steal_pointer (&topics);
}

/* Whether the ids locked now are those the record says were. */
static gboolean
same_locked (JsonObject *call,
             GPtrArray  *locked)
{
  JsonNode *node = json_object_get_member (call, "locked");
  JsonArray *array;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return locked->len == 0;
  array = json_node_get_array (node);
  if (json_array_get_length (array) != locked->len)
    return FALSE;
  for (guint i = 0; i < locked->len; i++)
    if (g_strcmp0 (json_array_get_string_element (array, i), g_ptr_array_index (locked, i)) != 0)
      return FALSE;
  return TRUE;
}

/* Read a recorded call and, when `self` is given, apply it: FALSE with
 * WN_EXTERNAL_ERROR_INVALID naming the member when it cannot be read; the
 * applied call's own result in *ok, and whether it went as it went live in
 * *same. */
static gboolean
run_call (WnExternal  *self,
          JsonObject  *call,
          gboolean    *same,
          GError     **error)
{
  const char *endpoint, *task, *worker, *message = NULL, *details = NULL, *code = NULL;
  g_autoptr(GError) result = NULL;
  gboolean refused = json_object_has_member (call, "refused");
  gboolean ok = TRUE;
  gint64 number = 0;
  WnTime duration = 0;

  if (!call_string (call, "endpoint", TRUE, &endpoint, error) ||
      !call_string (call, "taskId", FALSE, &task, error) ||
      !call_string (call, "workerId", FALSE, &worker, error))
    return FALSE;

  if (g_str_equal (endpoint, "fetchAndLock"))
    {
      g_autoptr(GArray) topics = NULL;
      g_autoptr(GPtrArray) locked = g_ptr_array_new_with_free_func (g_free);
      JsonNode *priority = json_object_get_member (call, "usePriority");

      if (worker == NULL)
        return bad_call (error, "workerId", "missing");
      if (!call_int (call, "maxTasks", G_MAXUINT, &number, error) || (topics = call_topics (call, error)) == NULL)
        return FALSE;
      if (self == NULL)
        return TRUE;
      ok = wn_external_fetch_and_lock (self, worker, (guint) number,
                                       priority != NULL && JSON_NODE_HOLDS_VALUE (priority) &&
                                       json_node_get_boolean (priority),
                                       (const WnExternalTopic *) (void *) topics->data, topics->len, locked,
                                       &result);
      *same = ok != refused && same_locked (call, locked);
      return TRUE;
    }
  if (task == NULL)
    return bad_call (error, "taskId", "missing");
  if (g_str_equal (endpoint, "complete"))
    {
      JsonNode *variables = json_object_get_member (call, "variables");

      if (variables != NULL && !JSON_NODE_HOLDS_OBJECT (variables))
        return bad_call (error, "variables", "must be an object");
      if (self != NULL)
        ok = wn_external_complete (self, task, worker,
                                   variables != NULL ? json_node_get_object (variables) : NULL, &result);
    }
  else if (g_str_equal (endpoint, "failure"))
    {
      if (!call_string (call, "errorMessage", FALSE, &message, error) ||
          !call_string (call, "errorDetails", FALSE, &details, error) ||
          !call_int (call, "retries", G_MAXINT, &number, error) ||
          !call_duration (call, "retryTimeout", &duration, error))
        return FALSE;
      if (self != NULL)
        ok = wn_external_failure (self, task, worker, message, details, (gint) number, duration, &result);
    }
  else if (g_str_equal (endpoint, "bpmnError"))
    {
      if (!call_string (call, "errorCode", TRUE, &code, error) ||
          !call_string (call, "errorMessage", FALSE, &message, error))
        return FALSE;
      if (self != NULL)
        ok = wn_external_bpmn_error (self, task, worker, code, message, &result);
    }
  else if (g_str_equal (endpoint, "extendLock"))
    {
      if (!call_duration (call, "newDuration", &duration, error))
        return FALSE;
      if (self != NULL)
        ok = wn_external_extend_lock (self, task, worker, duration, &result);
    }
  else if (g_str_equal (endpoint, "lock"))
    {
      if (worker == NULL)
        return bad_call (error, "workerId", "missing");
      if (!call_duration (call, "lockDuration", &duration, error))
        return FALSE;
      if (self != NULL)
        ok = wn_external_lock (self, task, worker, duration, &result);
    }
  else if (g_str_equal (endpoint, "unlock"))
    {
      if (self != NULL)
        ok = wn_external_unlock (self, task, &result);
    }
  else if (g_str_equal (endpoint, "retries"))
    {
      if (!call_int (call, "retries", G_MAXUINT, &number, error))
        return FALSE;
      if (self != NULL)
        ok = wn_external_set_retries (self, task, (guint) number, &result);
    }
  else
    return bad_call (error, "endpoint", "must be fetchAndLock, complete, failure, bpmnError, extendLock, "
                                        "lock, unlock or retries");
  if (self != NULL)
    *same = ok != refused;
  return TRUE;
}

gboolean
_wn_external_check_call (JsonObject  *call,
                         GError     **error)
{
  return run_call (NULL, call, NULL, error);
}

gboolean
_wn_external_replay (WnExternal  *self,
                     JsonObject  *call,
                     GError     **error)
{
  gboolean same = TRUE;

  if (!run_call (self, call, &same, error))
    return FALSE;
  if (!same)
    {
      g_set_error_literal (error, WN_EXTERNAL_ERROR, WN_EXTERNAL_ERROR_INVALID,
                           json_object_has_member (call, "refused")
                           ? "the outside worker's call was refused live and is not now"
                           : "the outside worker's call does not go as it went live");
      return FALSE;
    }
  return TRUE;
}

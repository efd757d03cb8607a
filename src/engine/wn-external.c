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

  /* every job has priority 0: with or without use_priority, topics in order, FIFO */
  (void) use_priority;
  dispatcher = dispatcher_of (self);
  for (guint i = 0; i < n_topics; i++)
    {
      const char *names[1] = { topics[i].name };
      WnJobInfo info;

      while (locked->len < max_tasks &&
             wn_dispatcher_fetch (dispatcher, worker, names, 1, topics[i].lock_duration, &info))
        {
          char *id = g_strdup (info.id);

          /* 0: the job executed too often at one instant and has ended */
          if (wn_dispatcher_begin_execution (dispatcher, id, worker, NULL) > 0)
            {
              self->engine->executions++;
              g_ptr_array_add (locked, id);
            }
          else
            g_free (id);
        }
    }
  return TRUE;
}

gboolean
wn_external_complete (WnExternal  *self,
                      const char  *id,
                      const char  *worker,
                      JsonObject  *variables,
                      GError     **error)
{
  GError *local_error = NULL;
  WnJobInfo info;
  gboolean ok;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_held (self, id, worker, "completed", &info, error))
    return FALSE;

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
  return ok ? ended (self, id) : translate (local_error, error);
}

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
  GError *local_error = NULL;
  WnJobInfo info;
  Report *report;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (retries < 0 || retry_timeout < 0)
    {
      g_set_error_literal (error, WN_EXTERNAL_ERROR, WN_EXTERNAL_ERROR_INVALID,
                           retries < 0 ? "retries must not be negative" : "retryTimeout must not be negative");
      return FALSE;
    }
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
  WnJobInfo info;
  gboolean ok;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (error_code == NULL || *error_code == '\0')
    {
      g_set_error_literal (error, WN_EXTERNAL_ERROR, WN_EXTERNAL_ERROR_INVALID, "errorCode is empty");
      return FALSE;
    }
  if (!check_held (self, id, worker, "reported a BPMN error", &info, error))
    return FALSE;

  /* not trusted: a raw fault whose code is the error code, for the mapper */
  if (engine_authoritative (&info))
    return raw_fault (self, id, worker, error_code, "errorCode", error_code, "errorMessage", error_message,
                      error_message, error);
  ok = wn_dispatcher_report_bpmn_error (dispatcher_of (self), id, worker, error_code, error_message,
                                        &local_error);
  return ok ? ended (self, id) : translate (local_error, error);
}

gboolean
wn_external_extend_lock (WnExternal  *self,
                         const char  *id,
                         const char  *worker,
                         WnTime       new_duration,
                         GError     **error)
{
  GError *local_error = NULL;
  WnJobInfo info;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (new_duration <= 0)
    {
      g_set_error_literal (error, WN_EXTERNAL_ERROR, WN_EXTERNAL_ERROR_INVALID,
                           "newDuration must be greater than 0");
      return FALSE;
    }
  if (!check_held (self, id, worker, "extended", &info, error))
    return FALSE;
  if (!wn_dispatcher_extend_lock (dispatcher_of (self), id, worker, new_duration, &local_error))
    return translate (local_error, error);
  return TRUE;
}

gboolean
wn_external_unlock (WnExternal  *self,
                    const char  *id,
                    GError     **error)
{
  GError *local_error = NULL;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (id == NULL || !_wn_dispatcher_unlock (dispatcher_of (self), id, &local_error))
    {
      g_clear_error (&local_error);
      g_set_error (error, WN_EXTERNAL_ERROR, WN_EXTERNAL_ERROR_NOT_FOUND,
                   "External task with id %s does not exist", id ? id : "");
      return FALSE;
    }
  return TRUE;
}

gboolean
wn_external_set_retries (WnExternal  *self,
                         const char  *id,
                         guint        retries,
                         GError     **error)
{
  WnJobInfo info;
  Report *report;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (id == NULL || !wn_dispatcher_lookup (dispatcher_of (self), id, &info))
    {
      g_set_error (error, WN_EXTERNAL_ERROR, WN_EXTERNAL_ERROR_NOT_FOUND,
                   "External task with id %s does not exist", id ? id : "");
      return FALSE;
    }
  if (engine_authoritative (&info))
    {
      g_set_error (error, WN_EXTERNAL_ERROR, WN_EXTERNAL_ERROR_NOT_TRUSTED,
                   "External task %s is engineAuthoritative: its retry policy sets its retries", id);
      return FALSE;
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
      return ended (self, id);
    }

  report = report_for (self, id);
  report->report.retries = (gint) MIN (retries, (guint) G_MAXINT);
  return TRUE;
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

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-scenario.c — workers, load and faults around a process. */
#include "wn-scenario.h"
#include "wn-loader-private.h"

#include "wn-duration.h"
#include "wn-journal.h"
#include "wn-json.h"

#include <math.h>
#include <string.h>

static void
start_spec_clear (gpointer data)
{
  WnStartSpec *spec = data;

  g_clear_pointer (&spec->variables, json_object_unref);
}

static void
fault_spec_clear (gpointer data)
{
  WnFaultSpec *spec = data;

  g_clear_pointer (&spec->topic, g_free);
  g_clear_pointer (&spec->worker, g_free);
  g_clear_pointer (&spec->next, wn_response_unref);
}

static void
user_task_spec_clear (gpointer data)
{
  WnUserTaskSpec *spec = data;

  g_clear_pointer (&spec->node, g_free);
  g_clear_pointer (&spec->when, wn_lite_unref);
  g_clear_pointer (&spec->variables, json_object_unref);
  g_clear_pointer (&spec->code, g_free);
  g_clear_pointer (&spec->message, g_free);
  g_clear_pointer (&spec->by, g_free);
}

static void
people_spec_clear (gpointer data)
{
  WnPeopleSpec *spec = data;

  g_clear_pointer (&spec->id, g_free);
}

static void
message_spec_clear (gpointer data)
{
  WnMessageSpec *spec = data;

  g_clear_pointer (&spec->name, g_free);
  g_clear_pointer (&spec->key, json_node_unref);
  g_clear_pointer (&spec->variables, json_object_unref);
}

static void
worker_config_free (gpointer data)
{
  WnWorkerConfig *worker = data;

  g_free (worker->id);
  g_free (worker->topic);
  g_ptr_array_unref (worker->responses);
  g_free (worker);
}

static void
append_outcome (GString *out, const WnResponse *r)
{
  switch (r->kind)
    {
    case WN_RESPONSE_COMPLETE:
      g_string_append (out, "complete");
      break;

    case WN_RESPONSE_FAIL:
      g_string_append (out, "fail");
      if (r->code != NULL)
        g_string_append_printf (out, " %s", r->code);
      if (r->message != NULL)
        g_string_append_printf (out, " \"%s\"", r->message);
      break;

    case WN_RESPONSE_WORKER_ERROR:
      if (r->bpmn_code != NULL)
        {
          g_string_append_printf (out, "BPMN error %s", r->bpmn_code);
        }
      else if (r->status != NULL)
        {
          g_autofree char *text = json_to_string (r->status, FALSE);

          g_string_append_printf (out, "status %s", text);
        }
      else
        {
          g_string_append_printf (out, "technical error %s", r->cause != NULL ? r->cause : "");
        }
      break;

    case WN_RESPONSE_CRASH:
      g_string_append (out, "crash");
      break;

    case WN_RESPONSE_HANG:
      g_string_append (out, "hang");
      break;

    case WN_RESPONSE_RANDOM:
      g_string_append (out, "random {");
      for (guint i = 0; i < r->n_choices; i++)
        {
          g_autofree char *inner = wn_response_describe (r->choices[i].response);

          g_string_append_printf (out, "%s%g: %s", i > 0 ? "; " : " ", r->choices[i].p, inner);
        }
      g_string_append (out, " }");
      break;

    default:
      g_string_append (out, "?");
      break;
    }

  if (r->after > 0 && r->kind != WN_RESPONSE_RANDOM)
    {
      g_autofree char *d = wn_duration_format (r->after);

      g_string_append_printf (out, " after %s", d);
    }
}

WnResponse *
wn_response_new (WnResponseKind kind)
{
  WnResponse *response = g_new0 (WnResponse, 1);

  response->ref_count = 1;
  response->kind = kind;
  return response;
}

G_DEFINE_QUARK (wn-response-error-quark, wn_response_error)

WnResponse *
wn_response_new_complete (JsonNode *output)
{
  WnResponse *response = wn_response_new (WN_RESPONSE_COMPLETE);

  if (output != NULL)
    response->body = wn_json_node_deep_copy (output);
  else
    {
      response->body = json_node_new (JSON_NODE_OBJECT);
      json_node_take_object (response->body, json_object_new ());
    }
  return response;
}

WnResponse *
wn_response_new_fail (const char *code,
                      JsonNode   *body,
                      const char *message)
{
  WnResponse *response = wn_response_new (WN_RESPONSE_FAIL);

  response->code = g_strdup (code);
  response->body = body != NULL ? wn_json_node_deep_copy (body) : NULL;
  response->message = g_strdup (message);
  return response;
}

static WnResponse *
worker_error_new (const char *message)
{
  WnResponse *response = wn_response_new (WN_RESPONSE_WORKER_ERROR);

  response->message = g_strdup (message);
  return response;
}

WnResponse *
wn_response_new_bpmn_error (const char  *code,
                            const char  *message,
                            GError     **error)
{
  WnResponse *response;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (code == NULL || *code == '\0')
    {
      g_set_error_literal (error, WN_RESPONSE_ERROR, WN_RESPONSE_ERROR_NO_CODE,
                           "a BPMN error needs a code");
      return NULL;
    }
  response = worker_error_new (message);
  response->bpmn_code = g_strdup (code);
  return response;
}

WnResponse *
wn_response_new_status (JsonNode    *status,
                        const char  *message,
                        GError     **error)
{
  WnResponse *response;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (status == NULL)
    {
      g_set_error_literal (error, WN_RESPONSE_ERROR, WN_RESPONSE_ERROR_NO_STATUS,
                           "a status needs a value");
      return NULL;
    }
  response = worker_error_new (message);
  response->status = wn_json_node_deep_copy (status);
  return response;
}

WnResponse *
wn_response_new_cause (const char *cause,
                       const char *message)
{
  WnResponse *response;

  g_return_val_if_fail (cause != NULL, NULL);

  response = worker_error_new (message);
  response->cause = g_strdup (cause);
  return response;
}

WnResponse *
wn_response_new_crash (void)
{
  return wn_response_new (WN_RESPONSE_CRASH);
}

WnResponse *
wn_response_new_hang (WnTime      duration,
                      JsonNode   *late_body,
                      GError    **error)
{
  WnResponse *response;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (late_body != NULL && !JSON_NODE_HOLDS_OBJECT (late_body))
    {
      g_set_error_literal (error, WN_RESPONSE_ERROR, WN_RESPONSE_ERROR_NOT_OBJECT,
                           "the body a hang reports late must be an object");
      return NULL;
    }
  response = wn_response_new (WN_RESPONSE_HANG);
  if (!wn_response_set_after (response, duration, error))
    {
      wn_response_unref (response);
      return NULL;
    }
  response->body = late_body != NULL ? wn_json_node_deep_copy (late_body) : NULL;
  return response;
}

gboolean
wn_response_set_after (WnResponse  *response,
                       WnTime       after,
                       GError     **error)
{
  g_return_val_if_fail (response != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (response->kind == WN_RESPONSE_RANDOM)
    {
      g_set_error_literal (error, WN_RESPONSE_ERROR, WN_RESPONSE_ERROR_NO_AFTER,
                           "a random response takes no after (give each choice its own)");
      return FALSE;
    }
  if (after < 0)
    {
      g_set_error_literal (error, WN_RESPONSE_ERROR, WN_RESPONSE_ERROR_NEGATIVE,
                           "after must not be negative");
      return FALSE;
    }
  response->after = after;
  return TRUE;
}

WnResponse *
wn_response_ref (WnResponse *response)
{
  g_return_val_if_fail (response != NULL, NULL);
  g_return_val_if_fail (response->ref_count > 0, NULL);

  g_atomic_int_inc (&response->ref_count);
  return response;
}

void
wn_response_unref (WnResponse *response)
{
  g_return_if_fail (response != NULL);
  g_return_if_fail (response->ref_count > 0);

  if (!g_atomic_int_dec_and_test (&response->ref_count))
    return;

  g_clear_pointer (&response->when, wn_lite_unref);
  g_clear_pointer (&response->body, json_node_unref);
  g_free (response->code);
  g_free (response->message);
  g_free (response->bpmn_code);
  g_clear_pointer (&response->status, json_node_unref);
  g_free (response->cause);
  for (guint i = 0; i < response->n_choices; i++)
    g_clear_pointer (&response->choices[i].response, wn_response_unref);
  g_free (response->choices);
  g_free (response);
}

char *
wn_response_describe (const WnResponse *response)
{
  GString *out;

  g_return_val_if_fail (response != NULL, NULL);

  out = g_string_new (NULL);
  append_outcome (out, response);

  if (response->attempts_lo != 0)
    {
      if (response->attempts_hi == G_MAXUINT)
        g_string_append_printf (out, " (attempts %u+)", response->attempts_lo);
      else if (response->attempts_hi == response->attempts_lo)
        g_string_append_printf (out, " (attempt %u)", response->attempts_lo);
      else
        g_string_append_printf (out, " (attempts %u-%u)", response->attempts_lo, response->attempts_hi);
    }
  if (response->when != NULL)
    g_string_append_printf (out, " when %s", wn_lite_get_source (response->when));

  return g_string_free (out, FALSE);
}

gboolean
wn_response_matches (const WnResponse *r, guint n, JsonNode *input, GError **error)
{
  g_autoptr(JsonNode) attempt = NULL;
  g_autoptr(JsonNode) null_input = NULL;
  WnLiteRoot roots[2];
  WnLiteScope scope = { 0 };
  gboolean result = FALSE;

  g_return_val_if_fail (r != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (r->attempts_lo != 0 && (n < r->attempts_lo || n > r->attempts_hi))
    return FALSE;
  if (r->when == NULL)
    return TRUE;

  attempt = json_node_init_int (json_node_alloc (), n);
  if (input == NULL)
    input = null_input = json_node_init_null (json_node_alloc ());

  roots[0].name = "input";
  roots[0].node = input;
  roots[1].name = "attempt";
  roots[1].node = attempt;
  scope.roots = roots;
  scope.n_roots = G_N_ELEMENTS (roots);

  if (!wn_lite_eval_bool (r->when, &scope, &result, error))
    return FALSE;
  return result;
}

static void
scenario_branch_free (gpointer data)
{
  WnScenarioBranch *branch = data;

  g_free (branch->name);
  g_ptr_array_unref (branch->commands);
  g_free (branch);
}

static void
decision_weight_clear (gpointer data)
{
  g_free (((WnDecisionWeight *) data)->flow);
}

static void
decision_spec_clear (gpointer data)
{
  WnDecisionSpec *spec = data;

  g_free (spec->gateway);
  g_clear_pointer (&spec->weights, g_array_unref);
}

/* An empty `decisions` entry for `gateway`, its weights cleared with it. */
void
_wn_decision_spec_init (WnDecisionSpec *spec, const char *gateway)
{
  spec->gateway = g_strdup (gateway);
  spec->weights = g_array_new (FALSE, TRUE, sizeof (WnDecisionWeight));
  g_array_set_clear_func (spec->weights, decision_weight_clear);
}

WnScenario *
wn_scenario_new (void)
{
  WnScenario *scenario = g_new0 (WnScenario, 1);

  scenario->ref_count = 1;
  scenario->seed = 1;
  scenario->start = g_array_new (FALSE, TRUE, sizeof (WnStartSpec));
  g_array_set_clear_func (scenario->start, start_spec_clear);
  scenario->workers = g_ptr_array_new_with_free_func (worker_config_free);
  scenario->faults = g_array_new (FALSE, TRUE, sizeof (WnFaultSpec));
  g_array_set_clear_func (scenario->faults, fault_spec_clear);
  scenario->commands = g_ptr_array_new_with_free_func ((GDestroyNotify) wn_command_free);
  scenario->branches = g_ptr_array_new_with_free_func (scenario_branch_free);
  scenario->user_tasks = g_array_new (FALSE, TRUE, sizeof (WnUserTaskSpec));
  g_array_set_clear_func (scenario->user_tasks, user_task_spec_clear);
  scenario->messages = g_array_new (FALSE, TRUE, sizeof (WnMessageSpec));
  g_array_set_clear_func (scenario->messages, message_spec_clear);
  scenario->people = g_array_new (FALSE, TRUE, sizeof (WnPeopleSpec));
  g_array_set_clear_func (scenario->people, people_spec_clear);
  scenario->decisions = g_array_new (FALSE, TRUE, sizeof (WnDecisionSpec));
  g_array_set_clear_func (scenario->decisions, decision_spec_clear);
  return scenario;
}

WnScenario *
wn_scenario_ref (WnScenario *scenario)
{
  g_return_val_if_fail (scenario != NULL, NULL);
  g_return_val_if_fail (scenario->ref_count > 0, NULL);

  g_atomic_int_inc (&scenario->ref_count);
  return scenario;
}

void
wn_scenario_unref (WnScenario *scenario)
{
  g_return_if_fail (scenario != NULL);
  g_return_if_fail (scenario->ref_count > 0);

  if (!g_atomic_int_dec_and_test (&scenario->ref_count))
    return;

  g_free (scenario->filename);
  wn_engine_config_clear (&scenario->engine);
  g_array_unref (scenario->start);
  g_ptr_array_unref (scenario->workers);
  g_array_unref (scenario->faults);
  g_ptr_array_unref (scenario->commands);
  g_ptr_array_unref (scenario->branches);
  g_array_unref (scenario->user_tasks);
  g_array_unref (scenario->messages);
  g_array_unref (scenario->people);
  g_array_unref (scenario->decisions);
  g_clear_pointer (&scenario->source, json_node_unref);
  g_free (scenario);
}

WnWorkerConfig *
wn_scenario_add_worker (WnScenario *scenario, const char *id, const char *topic)
{
  WnWorkerConfig *worker;

  g_return_val_if_fail (scenario != NULL, NULL);
  g_return_val_if_fail (id != NULL, NULL);
  g_return_val_if_fail (topic != NULL, NULL);

  worker = g_new0 (WnWorkerConfig, 1);
  worker->id = g_strdup (id);
  worker->topic = g_strdup (topic);
  worker->concurrency = 1;
  worker->responses = g_ptr_array_new_with_free_func ((GDestroyNotify) wn_response_unref);
  g_ptr_array_add (scenario->workers, worker);
  return worker;
}

void
wn_scenario_add_start (WnScenario *scenario, WnTime at, guint count, JsonObject *variables)
{
  WnStartSpec spec = { 0 };

  g_return_if_fail (scenario != NULL);

  spec.at = at;
  spec.count = MAX (count, 1);
  spec.variables = variables != NULL ? json_object_ref (variables) : NULL;
  g_array_append_val (scenario->start, spec);
  scenario->has_start = TRUE;
}

void
wn_scenario_add_fault (WnScenario *scenario,
                       WnTime      at,
                       const char *topic,
                       const char *worker,
                       WnResponse *next)
{
  WnFaultSpec spec = { 0 };

  g_return_if_fail (scenario != NULL);
  g_return_if_fail ((topic == NULL) != (worker == NULL));
  g_return_if_fail (next != NULL);

  spec.at = at;
  spec.topic = g_strdup (topic);
  spec.worker = g_strdup (worker);
  spec.next = wn_response_ref (next);
  g_array_append_val (scenario->faults, spec);
}

/* ---- serialising: responses and commands ---- */

static void
set_duration_member (JsonObject *object,
                     const char *key,
                     WnTime      us)
{
  g_autofree char *text = g_strdup_printf ("%" G_GINT64_FORMAT "us", us);

  json_object_set_string_member (object, key, text);
}

static JsonNode *
object_node (JsonObject *object)
{
  JsonNode *node = json_node_init_object (json_node_alloc (), object);

  json_object_unref (object);
  return node;
}

static void
set_copy (JsonObject *object,
          const char *key,
          JsonNode   *value)
{
  if (value != NULL)
    json_object_set_member (object, key, json_node_copy (value));
}

JsonNode *
wn_response_to_json (const WnResponse *r)
{
  JsonObject *o = json_object_new ();

  g_return_val_if_fail (r != NULL, NULL);

  if (r->attempts_lo > 0)
    {
      g_autofree char *sel = r->attempts_hi == G_MAXUINT ? g_strdup_printf ("%u+", r->attempts_lo)
                           : r->attempts_hi == r->attempts_lo ? g_strdup_printf ("%u", r->attempts_lo)
                           : g_strdup_printf ("%u-%u", r->attempts_lo, r->attempts_hi);
      json_object_set_string_member (o, "attempts", sel);
    }
  if (r->when != NULL)
    json_object_set_string_member (o, "when", wn_lite_get_source (r->when));
  if (r->after > 0 && r->kind != WN_RESPONSE_RANDOM)
    set_duration_member (o, "after", r->after);

  switch (r->kind)
    {
    case WN_RESPONSE_COMPLETE:
      if (r->body != NULL)
        set_copy (o, "complete", r->body);
      else
        json_object_set_object_member (o, "complete", json_object_new ());
      break;

    case WN_RESPONSE_FAIL:
      {
        JsonObject *f = json_object_new ();
        if (r->code != NULL)
          json_object_set_string_member (f, "code", r->code);
        set_copy (f, "body", r->body);
        if (r->message != NULL)
          json_object_set_string_member (f, "message", r->message);
        json_object_set_object_member (o, "fail", f);
        break;
      }

    case WN_RESPONSE_WORKER_ERROR:
      {
        JsonObject *w = json_object_new ();
        if (r->bpmn_code != NULL)
          json_object_set_string_member (w, "bpmnErrorCode", r->bpmn_code);
        else if (r->status != NULL)
          set_copy (w, "status", r->status);
        else
          json_object_set_string_member (w, "cause", r->cause ? r->cause : "");
        if (r->message != NULL)
          json_object_set_string_member (w, "message", r->message);
        json_object_set_object_member (o, "workerError", w);
        break;
      }

    case WN_RESPONSE_CRASH:
      json_object_set_boolean_member (o, "crash", TRUE);
      break;

    case WN_RESPONSE_HANG:
      if (r->body != NULL)
        set_copy (o, "hang", r->body);
      else
        json_object_set_boolean_member (o, "hang", TRUE);
      break;

    case WN_RESPONSE_RANDOM:
      {
        JsonArray *choices = json_array_new ();
        for (guint i = 0; i < r->n_choices; i++)
          {
            JsonNode *choice = wn_response_to_json (r->choices[i].response);
            json_object_set_double_member (json_node_get_object (choice), "p", r->choices[i].p);
            json_array_add_element (choices, choice);
          }
        json_object_set_array_member (o, "random", choices);
        break;
      }

    default:
      g_assert_not_reached ();
    }
  return object_node (o);
}

WnCommand *
wn_command_new (WnCommandKind kind,
                guint64       after,
                WnTime        at)
{
  WnCommand *command = g_new0 (WnCommand, 1);

  command->kind = kind;
  command->after = after;
  command->at = at;
  return command;
}

void
wn_command_free (WnCommand *command)
{
  if (command == NULL)
    return;
  g_clear_pointer (&command->variables, json_object_unref);
  g_clear_pointer (&command->response, wn_response_unref);
  g_free (command->topic);
  g_free (command->worker);
  g_free (command->node);
  g_free (command->instance);
  g_free (command->action);
  g_free (command->code);
  g_free (command->message);
  g_clear_pointer (&command->key, json_node_unref);
  g_clear_pointer (&command->call, json_object_unref);
  g_free (command);
}

static const char *command_ops[] = {
  "start", "inject", "trustDefault", "taskTrust", "incidentRetry", "incidentResolve", "cancel", "clock",
  "userTaskComplete", "userTaskError", "correlate", "external", "topicSimulated", "cancelInjection",
};

const char *
wn_command_kind_to_string (WnCommandKind kind)
{
  g_return_val_if_fail (kind < G_N_ELEMENTS (command_ops), "?");
  return command_ops[kind];
}

gboolean
wn_command_kind_from_string (const char    *text,
                             WnCommandKind *out)
{
  for (guint i = 0; i < G_N_ELEMENTS (command_ops); i++)
    if (g_strcmp0 (text, command_ops[i]) == 0)
      {
        *out = i;
        return TRUE;
      }
  return FALSE;
}

JsonNode *
wn_command_to_json (const WnCommand *c)
{
  JsonObject *o = json_object_new ();

  json_object_set_int_member (o, "after", (gint64) c->after);
  set_duration_member (o, "at", c->at);
  json_object_set_string_member (o, "op", wn_command_kind_to_string (c->kind));
  switch (c->kind)
    {
    case WN_COMMAND_START:
      if (c->variables != NULL)
        json_object_set_object_member (o, "variables", json_object_ref (c->variables));
      break;
    case WN_COMMAND_INJECT:
      if (c->topic != NULL)
        json_object_set_string_member (o, "topic", c->topic);
      else
        json_object_set_string_member (o, "worker", c->worker);
      json_object_set_member (o, "next", wn_response_to_json (c->response));
      break;
    case WN_COMMAND_TRUST_DEFAULT:
      json_object_set_string_member (o, "trust", wn_trust_to_string (c->trust));
      break;
    case WN_COMMAND_TASK_TRUST:
      json_object_set_string_member (o, "node", c->node);
      json_object_set_string_member (o, "trust", c->trust == WN_TRUST_UNSET ? "inherit" : wn_trust_to_string (c->trust));
      break;
    case WN_COMMAND_INCIDENT_RETRY:
    case WN_COMMAND_INCIDENT_RESOLVE:
      json_object_set_string_member (o, "instance", c->instance);
      if (c->node != NULL)
        json_object_set_string_member (o, "node", c->node);
      break;
    case WN_COMMAND_CANCEL:
      json_object_set_string_member (o, "instance", c->instance);
      break;
    case WN_COMMAND_CLOCK:
      json_object_set_string_member (o, "phase", wn_event_phase_to_string (c->phase));
      if (c->action != NULL)
        json_object_set_string_member (o, "action", c->action);
      break;
    case WN_COMMAND_USER_COMPLETE:
    case WN_COMMAND_USER_ERROR:
      json_object_set_string_member (o, "instance", c->instance);
      if (c->node != NULL)
        json_object_set_string_member (o, "node", c->node);
      if (c->variables != NULL)
        json_object_set_object_member (o, "variables", json_object_ref (c->variables));
      if (c->code != NULL)
        json_object_set_string_member (o, "code", c->code);
      if (c->message != NULL)
        json_object_set_string_member (o, "message", c->message);
      break;
    case WN_COMMAND_CORRELATE:
      if (c->instance != NULL)
        json_object_set_string_member (o, "instance", c->instance);
      json_object_set_string_member (o, "message", c->message);
      if (c->key != NULL)
        json_object_set_member (o, "key", json_node_copy (c->key));
      if (c->variables != NULL)
        json_object_set_object_member (o, "variables", json_object_ref (c->variables));
      break;
    case WN_COMMAND_EXTERNAL:
      json_object_set_object_member (o, "call", json_object_ref (c->call));
      break;
    case WN_COMMAND_TOPIC_SIMULATED:
      json_object_set_string_member (o, "topic", c->topic);
      json_object_set_boolean_member (o, "simulated", c->on);
      break;
    case WN_COMMAND_CANCEL_INJECTION:
      json_object_set_int_member (o, "injection", c->injection);
      break;
    default:
      g_assert_not_reached ();
    }
  return object_node (o);
}

/* ---- duration distributions ---- */

static WnTime
clamp_time (double us)
{
  /* NaN and negative draws are 0; the end of virtual time is never reached */
  if (!(us > 0))
    return 0;
  if (us >= (double) (WN_TIME_NEVER - 1))
    return WN_TIME_NEVER - 1;
  return (WnTime) (us + 0.5);
}

WnTime
wn_distribution_draw (const WnDistribution *distribution,
                      WnRng                *rng)
{
  const WnDistribution *d = distribution;

  switch (d->kind)
    {
    case WN_DISTRIBUTION_UNIFORM:
      return d->a + wn_rng_range (rng, d->b - d->a);
    case WN_DISTRIBUTION_EXPONENTIAL:
      /* 1 − u is in (0, 1]: the log is finite */
      return clamp_time (-(double) d->a * log (1.0 - wn_rng_double (rng)));
    case WN_DISTRIBUTION_LOGNORMAL:
      {
        /* Box–Muller: one standard normal from two uniforms */
        double u1 = 1.0 - wn_rng_double (rng);
        double u2 = wn_rng_double (rng);
        double z = sqrt (-2.0 * log (u1)) * cos (2.0 * G_PI * u2);

        return clamp_time ((double) d->a * exp (d->sigma * z));
      }
    case WN_DISTRIBUTION_FIXED:
    default:
      return d->a;
    }
}

char *
wn_distribution_describe (const WnDistribution *distribution)
{
  g_autofree char *a = wn_duration_format (distribution->a);
  g_autofree char *b = NULL;

  switch (distribution->kind)
    {
    case WN_DISTRIBUTION_UNIFORM:
      b = wn_duration_format (distribution->b);
      return g_strdup_printf ("uniform %s–%s", a, b);
    case WN_DISTRIBUTION_EXPONENTIAL:
      return g_strdup_printf ("exponential, mean %s", a);
    case WN_DISTRIBUTION_LOGNORMAL:
      return g_strdup_printf ("lognormal, median %s, σ %g", a, distribution->sigma);
    case WN_DISTRIBUTION_FIXED:
    default:
      return g_strdup (a);
    }
}

/* wn-scenario.c — workers, load and faults around a process. */
#include "wn-scenario.h"

#include "wn-duration.h"

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

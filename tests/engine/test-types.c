/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Types: the GTypes of the engine's enums, for the front ends' properties, and the
 * automatic cleanups of its types. */
#include "wn-test-util.h"

typedef const char *(*ToString) (int value);

typedef struct {
  GType       (*get_type) (void);
  const char   *name;
  guint         n_values;
  ToString      to_string;   /* the engine's own names; NULL when it has none */
} EnumCase;

static void
test_enum_gtypes (void)
{
  const EnumCase cases[] = {
    { wn_trust_get_type, "WnTrust", 3, (ToString) wn_trust_to_string },
    { wn_on_exhausted_get_type, "WnOnExhausted", 3, (ToString) wn_on_exhausted_to_string },
    { wn_clock_mode_get_type, "WnClockMode", 3, NULL },
    { wn_event_kind_get_type, "WnEventKind", WN_EV_N_KINDS, (ToString) wn_event_kind_to_string },
    { wn_event_phase_get_type, "WnEventPhase", WN_PH_N_PHASES, (ToString) wn_event_phase_to_string },
    { wn_job_state_get_type, "WnJobState", WN_JOB_EXPIRED + 1, (ToString) wn_job_state_to_string },
    { wn_instance_state_get_type, "WnInstanceState", WN_INSTANCE_TERMINATED + 1,
      (ToString) wn_instance_state_to_string },
    { wn_track_state_get_type, "WnTrackState", WN_TRACK_FAILED + 1, (ToString) wn_track_state_to_string },
    { wn_node_type_get_type, "WnNodeType", WN_NODE_EVENT_GATEWAY + 1, (ToString) wn_node_type_to_string },
    { wn_response_kind_get_type, "WnResponseKind", WN_RESPONSE_RANDOM + 1, NULL },
    { wn_command_kind_get_type, "WnCommandKind", WN_COMMAND_CANCEL_INJECTION + 1, (ToString) wn_command_kind_to_string },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      GType type = cases[i].get_type ();
      g_autoptr(GEnumClass) klass = NULL;

      g_assert_true (G_TYPE_IS_ENUM (type));
      g_assert_cmpstr (g_type_name (type), ==, cases[i].name);
      klass = g_type_class_ref (type);
      /* Every value, in order, and no sentinel (WN_EV_N_KINDS is skipped). */
      g_assert_cmpuint (klass->n_values, ==, cases[i].n_values);
      for (guint v = 0; v < cases[i].n_values; v++)
        {
          GEnumValue *value = g_enum_get_value (klass, (int) v);

          g_assert_nonnull (value);
          /* The nicks are the files' and the journal's names. */
          if (cases[i].to_string != NULL)
            g_assert_cmpstr (value->value_nick, ==, cases[i].to_string ((int) v));
        }
    }
}

/* A property of an engine enum type: what a front end's row or session declares. */
static void
test_enum_property (void)
{
  g_autoptr(GEnumClass) klass = g_type_class_ref (WN_TYPE_TRUST);
  GParamSpec *pspec = g_param_spec_enum ("trust", NULL, NULL, WN_TYPE_TRUST, WN_TRUST_UNSET,
                                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  GValue value = G_VALUE_INIT;

  g_param_spec_ref_sink (pspec);
  g_value_init (&value, WN_TYPE_TRUST);
  g_value_set_enum (&value, WN_TRUST_ENGINE_AUTHORITATIVE);
  g_assert_false (g_param_value_validate (pspec, &value));
  g_assert_cmpint (g_value_get_enum (&value), ==, WN_TRUST_ENGINE_AUTHORITATIVE);
  /* The app's settings schema names trust by these nicks. */
  g_assert_cmpint (g_enum_get_value_by_nick (klass, "workerTrusted")->value, ==, WN_TRUST_WORKER_TRUSTED);
  g_assert_cmpint (g_enum_get_value_by_nick (klass, "engineAuthoritative")->value, ==,
                   WN_TRUST_ENGINE_AUTHORITATIVE);
  g_value_set_enum (&value, 7);
  g_assert_true (g_param_value_validate (pspec, &value));
  g_assert_cmpint (g_value_get_enum (&value), ==, WN_TRUST_UNSET);
  g_value_unset (&value);
  g_param_spec_unref (pspec);
}

/* Every public type frees itself with g_autoptr / g_auto (under the valgrind
 * setup a missing or wrong cleanup is a leak). */
static void
test_autocleanups (void)
{
  g_autoptr(WnProcess) process = wn_test_load_process (
    "{\"format\": \"winnow.process/1\", \"id\": \"p\", \"nodes\": ["
    "{\"id\": \"s\", \"type\": \"startEvent\"},"
    "{\"id\": \"w\", \"type\": \"serviceTask\", \"worker\": {\"topic\": \"t\"}},"
    "{\"id\": \"e\", \"type\": \"endEvent\"}],"
    "\"flows\": [{\"id\": \"f1\", \"from\": \"s\", \"to\": \"w\"},"
    "{\"id\": \"f2\", \"from\": \"w\", \"to\": \"e\"}]}");
  g_autoptr(WnScheduler) scheduler = wn_scheduler_new ();
  g_autoptr(WnJournal) journal = wn_journal_new ();
  g_autoptr(WnCommand) command = wn_command_new (WN_COMMAND_CANCEL, 0, 0);
  g_autoptr(WnWorkerSpec) spec = wn_worker_spec_new ("topic");
  g_autoptr(GPtrArray) diagnostics = NULL;
  g_autoptr(WnDiagnostic) diagnostic = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(WnEngineConfig) config = { 0 };
  g_auto(WnPolicyLevel) level = { 0 };
  g_auto(WnBinding) binding = { 0 };
  g_auto(WnClassification) classification = { 0 };
  g_auto(WnLiteValue) value = { 0 };
  WnRng rng;

  wn_rng_init (&rng, 1);
  {
    g_autoptr(WnEngine) engine = wn_engine_new (process, NULL, NULL);

    g_assert_nonnull (wn_engine_start_instance (engine, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpint (wn_engine_run (engine, WN_TIME_NEVER), ==, WN_STOP_QUIESCENT);
  }
  {
    g_autoptr(WnDispatcher) dispatcher = wn_dispatcher_new (scheduler, journal, &rng, NULL, NULL);
    WnJobSpec job = { .id = "j1", .topic = "t" };

    g_assert_true (wn_dispatcher_enqueue (dispatcher, &job, &error));
    g_assert_no_error (error);
  }

  g_assert_null (wn_load_process_data ("{", -1, "x.json", &diagnostics, &error));
  g_assert_error (error, WN_LOAD_ERROR, WN_LOAD_ERROR_SYNTAX);
  diagnostic = g_ptr_array_steal_index (diagnostics, 0);
  g_assert_cmpuint (diagnostic->line, ==, 1);

  config.policy.mapper = wn_error_mapper_new (NULL, 0);
  level.mapper = wn_error_mapper_ref (config.policy.mapper);
  binding.var = g_strdup ("x");
  binding.value = json_node_init_int (json_node_alloc (), 1);
  classification.mapper_error = g_strdup ("boom");
  value.kind = WN_LITE_STRING;
  value.owned_str = TRUE;
  value.str = g_strdup ("owned");
  value.len = 5;
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/engine/Types/enum-gtypes", test_enum_gtypes);
  g_test_add_func ("/engine/Types/enum-property", test_enum_property);
  g_test_add_func ("/engine/Types/autocleanups", test_autocleanups);

  return g_test_run ();
}

/* Types: the GTypes of the engine's enums, for the front ends' properties. */
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
    { wn_node_type_get_type, "WnNodeType", WN_NODE_TIMER + 1, (ToString) wn_node_type_to_string },
    { wn_response_kind_get_type, "WnResponseKind", WN_RESPONSE_RANDOM + 1, NULL },
    { wn_command_kind_get_type, "WnCommandKind", WN_COMMAND_CLOCK + 1, (ToString) wn_command_kind_to_string },
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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/engine/Types/enum-gtypes", test_enum_gtypes);
  g_test_add_func ("/engine/Types/enum-property", test_enum_property);

  return g_test_run ();
}

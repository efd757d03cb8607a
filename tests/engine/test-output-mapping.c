/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Output mapping: shaping a completion body into variables (semantics §6.2). */
#include "wn-test-util.h"

typedef struct {
  const char *path;
  const char *var;
  gboolean    required;
} RuleSpec;

/* Compiles the paths and builds the mapping; the mapping must keep its own
 * references, so the compiled paths are dropped here. */
static WnOutputMapping *
mapping_build (const RuleSpec *specs,
               guint           n_specs,
               guint          *bad_rule,
               GError        **error)
{
  g_autofree WnOutputRule *rules = g_new0 (WnOutputRule, MAX (n_specs, 1));
  WnOutputMapping *mapping;
  guint i;

  for (i = 0; i < n_specs; i++)
    {
      g_autoptr(GError) lite_error = NULL;

      rules[i].path = wn_lite_compile (specs[i].path, NULL, &lite_error);
      g_assert_no_error (lite_error);
      rules[i].var = specs[i].var;
      rules[i].required = specs[i].required;
    }

  mapping = wn_output_mapping_new (rules, n_specs, bad_rule, error);

  for (i = 0; i < n_specs; i++)
    wn_lite_unref (rules[i].path);
  return mapping;
}

static WnOutputMapping *
mapping_ok (const RuleSpec *specs,
            guint           n_specs)
{
  g_autoptr(GError) error = NULL;
  guint bad_rule = 999;
  WnOutputMapping *mapping = mapping_build (specs, n_specs, &bad_rule, &error);

  g_assert_no_error (error);
  g_assert_nonnull (mapping);
  g_assert_cmpuint (bad_rule, ==, 999);   /* untouched on success */
  return mapping;
}

static void
assert_load_error (const RuleSpec       *specs,
                   guint                 n_specs,
                   WnOutputMappingError  code,
                   guint                 expected_bad_rule)
{
  g_autoptr(GError) error = NULL;
  guint bad_rule = 999;
  WnOutputMapping *mapping = mapping_build (specs, n_specs, &bad_rule, &error);

  g_assert_null (mapping);
  g_assert_error (error, WN_OUTPUT_MAPPING_ERROR, (gint) code);
  g_assert_cmpuint (bad_rule, ==, expected_bad_rule);
}

static void
assert_binding (GArray     *out,
                guint       i,
                const char *var,
                const char *value_json)
{
  WnBinding *binding;
  g_autofree char *text = NULL;

  g_assert_cmpuint (i, <, out->len);
  binding = &g_array_index (out, WnBinding, i);
  g_assert_cmpstr (binding->var, ==, var);
  g_assert_nonnull (binding->value);
  text = json_to_string (binding->value, FALSE);
  g_assert_cmpstr (text, ==, value_json);
}

/* --- mapping at run time --------------------------------------------- */

static void
test_path_into_variable (void)
{
  static const RuleSpec specs[] = {
    { "body.reservationId", "reservationId", TRUE },
    { "body.warehouse.zone", "warehouseZone", FALSE },
    { "body.warehouse", "warehouse", FALSE },
    { "body.lines[1] * 2", "doubled", FALSE },
  };
  g_autoptr(WnOutputMapping) mapping = mapping_ok (specs, G_N_ELEMENTS (specs));
  g_autoptr(JsonNode) body = wn_test_json ("{\"reservationId\": \"R-7\", \"warehouse\": {\"zone\": \"B\"},"
                                   " \"lines\": [1, 21]}");
  g_autoptr(GArray) out = wn_bindings_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (wn_output_mapping_apply (mapping, body, out, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (out->len, ==, 4);
  assert_binding (out, 0, "reservationId", "\"R-7\"");
  assert_binding (out, 1, "warehouseZone", "\"B\"");
  assert_binding (out, 2, "warehouse", "{\"zone\":\"B\"}");
  assert_binding (out, 3, "doubled", "42");
}

static void
test_values_are_copies (void)
{
  static const RuleSpec specs[] = {
    { "body.warehouse", "warehouse", TRUE },
  };
  g_autoptr(WnOutputMapping) mapping = mapping_ok (specs, G_N_ELEMENTS (specs));
  g_autoptr(JsonNode) body = wn_test_json ("{\"warehouse\": {\"zone\": \"B\"}}");
  g_autoptr(GArray) out = wn_bindings_new ();

  g_assert_true (wn_output_mapping_apply (mapping, body, out, NULL));

  /* Changing the body afterwards does not reach the committed variable. */
  json_object_set_string_member (json_node_get_object (
      json_object_get_member (json_node_get_object (body), "warehouse")), "zone", "Z");
  assert_binding (out, 0, "warehouse", "{\"zone\":\"B\"}");
}

static void
test_direct_default (void)
{
  g_autoptr(JsonNode) body = wn_test_json ("{\"reservationId\": \"R-7\", \"n\": [1, 2]}");
  g_autoptr(GArray) out = wn_bindings_new ();

  /* No mapping configured: the raw output, whole, under the output variable. */
  wn_output_direct ("reserveResult", body, out);
  g_assert_cmpuint (out->len, ==, 1);
  assert_binding (out, 0, "reserveResult", "{\"reservationId\":\"R-7\",\"n\":[1,2]}");
  g_assert_true (g_array_index (out, WnBinding, 0).value == body);

  /* A completion without a body commits nothing. */
  wn_output_direct ("reserveResult", NULL, out);
  g_assert_cmpuint (out->len, ==, 1);

  /* Any JSON, scalars too. */
  {
    g_autoptr(JsonNode) scalar = wn_test_json ("\"AUTHORIZED\"");

    wn_output_direct ("charge", scalar, out);
    g_assert_cmpuint (out->len, ==, 2);
    assert_binding (out, 1, "charge", "\"AUTHORIZED\"");
  }
}

static void
test_required_missing (void)
{
  static const RuleSpec specs[] = {
    { "body.warehouse.zone", "warehouseZone", FALSE },
    { "body.reservationId", "reservationId", TRUE },
  };
  g_autoptr(WnOutputMapping) mapping = mapping_ok (specs, G_N_ELEMENTS (specs));
  g_autoptr(JsonNode) body = wn_test_json ("{\"warehouse\": {\"zone\": \"B\"}}");
  g_autoptr(GArray) out = wn_bindings_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) earlier = wn_test_json ("1");

  /* `out` already holds a binding: a failed apply leaves it exactly so. */
  wn_output_direct ("earlier", earlier, out);

  g_assert_false (wn_output_mapping_apply (mapping, body, out, &error));
  g_assert_error (error, WN_OUTPUT_MAPPING_ERROR, WN_OUTPUT_MAPPING_ERROR_MISSING);
  g_assert_true (g_str_has_prefix (error->message, "required output path body.reservationId is missing: "));
  g_assert_cmpuint (out->len, ==, 1);
  assert_binding (out, 0, "earlier", "1");
  g_clear_error (&error);

  /* No body at all: the required path is missing too. */
  g_assert_false (wn_output_mapping_apply (mapping, NULL, out, &error));
  g_assert_error (error, WN_OUTPUT_MAPPING_ERROR, WN_OUTPUT_MAPPING_ERROR_MISSING);
  g_assert_cmpuint (out->len, ==, 1);
}

static void
test_evaluation_error_is_missing (void)
{
  static const RuleSpec specs[] = {
    { "body.amount + 1", "next", TRUE },
  };
  g_autoptr(WnOutputMapping) mapping = mapping_ok (specs, G_N_ELEMENTS (specs));
  g_autoptr(JsonNode) body = wn_test_json ("{\"amount\": \"ten\"}");
  g_autoptr(GArray) out = wn_bindings_new ();
  g_autoptr(GError) error = NULL;

  /* Any failure to evaluate (here: a string plus a number) counts as missing. */
  g_assert_false (wn_output_mapping_apply (mapping, body, out, &error));
  g_assert_error (error, WN_OUTPUT_MAPPING_ERROR, WN_OUTPUT_MAPPING_ERROR_MISSING);
  g_assert_cmpuint (out->len, ==, 0);
}

static void
test_optional_missing_skipped (void)
{
  static const RuleSpec specs[] = {
    { "body.reservationId", "reservationId", TRUE },
    { "body.warehouse.zone", "warehouseZone", FALSE },
    { "body.note", "note", FALSE },
  };
  g_autoptr(WnOutputMapping) mapping = mapping_ok (specs, G_N_ELEMENTS (specs));
  g_autoptr(JsonNode) body = wn_test_json ("{\"reservationId\": \"R-7\", \"warehouse\": 3}");
  g_autoptr(GArray) out = wn_bindings_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (wn_output_mapping_apply (mapping, body, out, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (out->len, ==, 1);
  assert_binding (out, 0, "reservationId", "\"R-7\"");
}

static void
test_record_beside_plain (void)
{
  static const RuleSpec specs[] = {
    { "body.total", "order.total", TRUE },
    { "body.id", "orderId", TRUE },
    { "body.lines[0].price", "order.items[0].price", TRUE },
  };
  g_autoptr(WnOutputMapping) mapping = mapping_ok (specs, G_N_ELEMENTS (specs));
  g_autoptr(JsonNode) body = wn_test_json ("{\"id\": \"A-1\", \"total\": 50, \"lines\": [{\"price\": 9.5}]}");
  g_autoptr(GArray) out = wn_bindings_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (wn_output_mapping_apply (mapping, body, out, &error));
  g_assert_no_error (error);

  /* One binding per head, in order of first appearance. */
  g_assert_cmpuint (out->len, ==, 2);
  assert_binding (out, 0, "order", "{\"total\":50,\"items\":[{\"price\":9.5}]}");
  assert_binding (out, 1, "orderId", "\"A-1\"");
}

static void
test_record_shapes (void)
{
  static const RuleSpec specs[] = {
    { "body.eur", "rates[\"EUR\"]", TRUE },
    { "body.usd", "rates[\"US D\"]", TRUE },
    { "body.c", "grid[2][1]", TRUE },
    { "body.a", "grid[0][0]", TRUE },
    { "body.obj", "deep.a.b", TRUE },
    { "body.a", "deep.a.c[1]", TRUE },
  };
  g_autoptr(WnOutputMapping) mapping = mapping_ok (specs, G_N_ELEMENTS (specs));
  g_autoptr(JsonNode) body = wn_test_json ("{\"eur\": 1.25, \"usd\": 1.5, \"a\": \"A\", \"c\": \"C\","
                                   " \"obj\": {\"k\": [true]}}");
  g_autoptr(GArray) out = wn_bindings_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (wn_output_mapping_apply (mapping, body, out, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (out->len, ==, 3);
  assert_binding (out, 0, "rates", "{\"EUR\":1.25,\"US D\":1.5}");
  /* Arrays are padded with nulls up to the index; a padding slot becomes a
   * container when a later rule needs one there. */
  assert_binding (out, 1, "grid", "[[\"A\"],null,[null,\"C\"]]");
  assert_binding (out, 2, "deep", "{\"a\":{\"b\":{\"k\":[true]},\"c\":[null,\"A\"]}}");
}

static void
test_record_partly_skipped (void)
{
  static const RuleSpec specs[] = {
    { "body.total", "order.total", FALSE },
    { "body.currency", "order.currency", FALSE },
    { "body.missing", "extra.a", FALSE },
    { "body.gone", "extra.b", FALSE },
    { "body.id", "orderId", FALSE },
  };
  g_autoptr(WnOutputMapping) mapping = mapping_ok (specs, G_N_ELEMENTS (specs));
  g_autoptr(JsonNode) body = wn_test_json ("{\"total\": 50, \"id\": 7}");
  g_autoptr(GArray) out = wn_bindings_new ();

  /* order keeps what it got; extra got nothing, so no binding at all. */
  g_assert_true (wn_output_mapping_apply (mapping, body, out, NULL));
  g_assert_cmpuint (out->len, ==, 2);
  assert_binding (out, 0, "order", "{\"total\":50}");
  assert_binding (out, 1, "orderId", "7");

  /* Nothing present: nothing bound, and that is a success. */
  g_array_set_size (out, 0);
  g_assert_true (wn_output_mapping_apply (mapping, NULL, out, NULL));
  g_assert_cmpuint (out->len, ==, 0);
}

static void
test_apply_twice (void)
{
  static const RuleSpec specs[] = {
    { "body.n", "rec.n", TRUE },
  };
  g_autoptr(WnOutputMapping) mapping = mapping_ok (specs, G_N_ELEMENTS (specs));
  g_autoptr(JsonNode) one = wn_test_json ("{\"n\": 1}");
  g_autoptr(JsonNode) two = wn_test_json ("{\"n\": 2}");
  g_autoptr(GArray) out = wn_bindings_new ();

  /* A mapping is reusable: each apply builds fresh records. */
  g_assert_true (wn_output_mapping_apply (mapping, one, out, NULL));
  g_assert_true (wn_output_mapping_apply (mapping, two, out, NULL));
  g_assert_cmpuint (out->len, ==, 2);
  assert_binding (out, 0, "rec", "{\"n\":1}");
  assert_binding (out, 1, "rec", "{\"n\":2}");
}

static void
test_accessors (void)
{
  static const RuleSpec specs[] = {
    { "body.a", "x.a", TRUE },
    { "body.b", "y", FALSE },
  };
  g_autoptr(WnOutputMapping) mapping = mapping_ok (specs, G_N_ELEMENTS (specs));
  const WnOutputRule *rule;
  WnOutputMapping *ref;

  g_assert_cmpuint (wn_output_mapping_get_n_rules (mapping), ==, 2);
  rule = wn_output_mapping_get_rule (mapping, 0);
  g_assert_cmpstr (rule->var, ==, "x.a");
  g_assert_true (rule->required);
  g_assert_cmpstr (wn_lite_get_source (rule->path), ==, "body.a");
  rule = wn_output_mapping_get_rule (mapping, 1);
  g_assert_cmpstr (rule->var, ==, "y");
  g_assert_false (rule->required);

  ref = wn_output_mapping_ref (mapping);
  g_assert_true (ref == mapping);
  wn_output_mapping_unref (ref);
  g_assert_cmpuint (wn_output_mapping_get_n_rules (mapping), ==, 2);
}

static void
test_empty_mapping (void)
{
  g_autoptr(WnOutputMapping) mapping = mapping_ok (NULL, 0);
  g_autoptr(JsonNode) body = wn_test_json ("{\"a\": 1}");
  g_autoptr(GArray) out = wn_bindings_new ();

  g_assert_cmpuint (wn_output_mapping_get_n_rules (mapping), ==, 0);
  g_assert_true (wn_output_mapping_apply (mapping, body, out, NULL));
  g_assert_cmpuint (out->len, ==, 0);
}

/* --- checks at load ---------------------------------------------------- */

static void
test_load_mixed_target (void)
{
  static const RuleSpec plain_first[] = {
    { "body.a", "order", FALSE },
    { "body.b", "other", FALSE },
    { "body.c", "order.total", FALSE },
  };
  static const RuleSpec structural_first[] = {
    { "body.c", "order[0]", FALSE },
    { "body.a", "order", FALSE },
  };

  assert_load_error (plain_first, G_N_ELEMENTS (plain_first), WN_OUTPUT_MAPPING_ERROR_MIXED_TARGET, 2);
  assert_load_error (structural_first, G_N_ELEMENTS (structural_first), WN_OUTPUT_MAPPING_ERROR_MIXED_TARGET, 1);
}

static void
test_load_conflicts (void)
{
  static const RuleSpec prefix[] = {
    { "body.a", "a.b", FALSE },
    { "body.b", "a.b.c", FALSE },
  };
  static const RuleSpec prefix_reversed[] = {
    { "body.x", "z", FALSE },
    { "body.b", "a.b.c", FALSE },
    { "body.a", "a.b", FALSE },
  };
  static const RuleSpec same_structural[] = {
    { "body.a", "a.b", FALSE },
    { "body.b", "a.c", FALSE },
    { "body.c", "a.b", FALSE },
  };
  static const RuleSpec same_plain[] = {
    { "body.a", "total", FALSE },
    { "body.b", "total", TRUE },
  };
  static const RuleSpec same_key_spelled_twice[] = {
    { "body.a", "a.b", FALSE },
    { "body.b", "a[\"b\"]", FALSE },
  };
  static const RuleSpec object_and_array[] = {
    { "body.a", "a.b", FALSE },
    { "body.b", "a[0]", FALSE },
  };
  static const RuleSpec deep_object_and_array[] = {
    { "body.a", "a.items[0].price", FALSE },
    { "body.b", "a.items.count", FALSE },
  };
  static const RuleSpec index_prefix[] = {
    { "body.a", "a[0].x", FALSE },
    { "body.b", "a[0]", FALSE },
  };

  assert_load_error (prefix, G_N_ELEMENTS (prefix), WN_OUTPUT_MAPPING_ERROR_CONFLICT, 1);
  assert_load_error (prefix_reversed, G_N_ELEMENTS (prefix_reversed), WN_OUTPUT_MAPPING_ERROR_CONFLICT, 2);
  assert_load_error (same_structural, G_N_ELEMENTS (same_structural), WN_OUTPUT_MAPPING_ERROR_CONFLICT, 2);
  assert_load_error (same_plain, G_N_ELEMENTS (same_plain), WN_OUTPUT_MAPPING_ERROR_CONFLICT, 1);
  assert_load_error (same_key_spelled_twice, G_N_ELEMENTS (same_key_spelled_twice),
                     WN_OUTPUT_MAPPING_ERROR_CONFLICT, 1);
  assert_load_error (object_and_array, G_N_ELEMENTS (object_and_array), WN_OUTPUT_MAPPING_ERROR_CONFLICT, 1);
  assert_load_error (deep_object_and_array, G_N_ELEMENTS (deep_object_and_array),
                     WN_OUTPUT_MAPPING_ERROR_CONFLICT, 1);
  assert_load_error (index_prefix, G_N_ELEMENTS (index_prefix), WN_OUTPUT_MAPPING_ERROR_CONFLICT, 1);
}

static void
test_load_no_conflict (void)
{
  /* Siblings, different indices, and similar names on other heads are fine. */
  static const RuleSpec specs[] = {
    { "body.a", "a.b", FALSE },
    { "body.b", "a.c", FALSE },
    { "body.c", "a.bc", FALSE },
    { "body.d", "ab", FALSE },
    { "body.e", "a.list[0]", FALSE },
    { "body.f", "a.list[1].x", FALSE },
    { "body.g", "a.list[1].y", FALSE },
    { "body.h", "b", FALSE },
  };
  g_autoptr(WnOutputMapping) mapping = mapping_ok (specs, G_N_ELEMENTS (specs));

  g_assert_cmpuint (wn_output_mapping_get_n_rules (mapping), ==, G_N_ELEMENTS (specs));
}

static void
test_load_bad_targets (void)
{
  static const char * const bad[] = {
    "a..b", "", "a.", ".a", "1x", "a b", "a.b.", "a[", "a[0", "a[-1]", "a[x]",
    "a.1b", "order.total + 1", "true", "nil", "and", "a[99999999]", "-a", "a-b",
    NULL,
  };
  guint i;

  for (i = 0; bad[i] != NULL; i++)
    {
      /* The bad target comes second so the index of the offender is visible. */
      RuleSpec specs[] = {
        { "body.ok", "fine", FALSE },
        { "body.x", bad[i], FALSE },
      };

      g_test_message ("target “%s”", bad[i]);
      assert_load_error (specs, G_N_ELEMENTS (specs), WN_OUTPUT_MAPPING_ERROR_BAD_TARGET, 1);
    }

  /* A NULL target is as bad as an empty one. */
  {
    RuleSpec specs[] = { { "body.x", NULL, FALSE } };

    assert_load_error (specs, G_N_ELEMENTS (specs), WN_OUTPUT_MAPPING_ERROR_BAD_TARGET, 0);
  }
}

static void
test_load_good_targets (void)
{
  static const char * const good[] = {
    "a", "_a", "a_1", "A9", "order.items[0].price", "rates[\"EUR\"]",
    "a.b[2][\"x y\"]", "a[65535]",
    NULL,
  };
  guint i;

  for (i = 0; good[i] != NULL; i++)
    {
      RuleSpec specs[] = { { "body.x", good[i], FALSE } };
      g_autoptr(WnOutputMapping) mapping = NULL;

      g_test_message ("target “%s”", good[i]);
      mapping = mapping_ok (specs, G_N_ELEMENTS (specs));
    }
}

static void
test_load_error_without_bad_rule (void)
{
  static const RuleSpec specs[] = {
    { "body.a", "a..b", FALSE },
  };
  g_autoptr(GError) error = NULL;

  /* bad_rule is optional. */
  g_assert_null (mapping_build (specs, G_N_ELEMENTS (specs), NULL, &error));
  g_assert_error (error, WN_OUTPUT_MAPPING_ERROR, WN_OUTPUT_MAPPING_ERROR_BAD_TARGET);
}

static void
test_bindings_array (void)
{
  GArray *out = wn_bindings_new ();
  g_autoptr(JsonNode) body = wn_test_json ("[1, 2, 3]");

  /* The array clears its bindings (var and value) itself. */
  wn_output_direct ("a", body, out);
  wn_output_direct ("b", body, out);
  g_assert_cmpuint (out->len, ==, 2);
  g_assert_cmpuint (g_array_get_element_size (out), ==, sizeof (WnBinding));
  g_array_remove_index (out, 0);
  assert_binding (out, 0, "b", "[1,2,3]");
  g_array_unref (out);

  /* wn_binding_clear resets the fields. */
  {
    WnBinding binding = { g_strdup ("x"), json_node_ref (body) };

    wn_binding_clear (&binding);
    g_assert_null (binding.var);
    g_assert_null (binding.value);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/engine/OutputMapping/path-into-variable", test_path_into_variable);
  g_test_add_func ("/engine/OutputMapping/values-are-copies", test_values_are_copies);
  g_test_add_func ("/engine/OutputMapping/direct-default", test_direct_default);
  g_test_add_func ("/engine/OutputMapping/required-missing", test_required_missing);
  g_test_add_func ("/engine/OutputMapping/evaluation-error-is-missing", test_evaluation_error_is_missing);
  g_test_add_func ("/engine/OutputMapping/optional-missing-skipped", test_optional_missing_skipped);
  g_test_add_func ("/engine/OutputMapping/record-beside-plain", test_record_beside_plain);
  g_test_add_func ("/engine/OutputMapping/record-shapes", test_record_shapes);
  g_test_add_func ("/engine/OutputMapping/record-partly-skipped", test_record_partly_skipped);
  g_test_add_func ("/engine/OutputMapping/apply-twice", test_apply_twice);
  g_test_add_func ("/engine/OutputMapping/accessors", test_accessors);
  g_test_add_func ("/engine/OutputMapping/empty-mapping", test_empty_mapping);
  g_test_add_func ("/engine/OutputMapping/load-mixed-target", test_load_mixed_target);
  g_test_add_func ("/engine/OutputMapping/load-conflicts", test_load_conflicts);
  g_test_add_func ("/engine/OutputMapping/load-no-conflict", test_load_no_conflict);
  g_test_add_func ("/engine/OutputMapping/load-bad-targets", test_load_bad_targets);
  g_test_add_func ("/engine/OutputMapping/load-good-targets", test_load_good_targets);
  g_test_add_func ("/engine/OutputMapping/load-error-without-bad-rule", test_load_error_without_bad_rule);
  g_test_add_func ("/engine/OutputMapping/bindings-array", test_bindings_array);

  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-output-mapping.c — shape a completion body into variables.
 *
 * Rules are grouped by the head of their target. A head is either plain (one
 * rule, `var` = the name) or structural (one or more rules with steps, which
 * build one record). The checks at load guarantee that the targets of a head
 * never overlap and never need one container to be both an object and an
 * array, so assembly at run time cannot fail.
 */
#include "config.h"

#include <string.h>

#include "wn-output-mapping.h"

/* Largest array index a target may name: the record is padded with nulls up to
 * it, so an absurd index would allocate without bound. */
#define MAX_TARGET_INDEX 65535

typedef struct {
  WnOutputRule rule;       /* owned: var copied, path referenced */
  WnPath      *target;
  guint        head;       /* index into heads */
} Rule;

typedef struct {
  char   *name;
  GArray *rules;           /* guint indices into WnOutputMapping.rules, in order */
  gboolean structural;
} Head;

struct _WnOutputMapping {
  grefcount ref_count;
  Rule     *rules;
  guint     n_rules;
  Head     *heads;
  guint     n_heads;
};

G_DEFINE_QUARK (wn-output-mapping-error-quark, wn_output_mapping_error)

void
wn_binding_clear (WnBinding *binding)
{
  g_return_if_fail (binding != NULL);

  g_clear_pointer (&binding->var, g_free);
  g_clear_pointer (&binding->value, json_node_unref);
}

GArray *
wn_bindings_new (void)
{
  GArray *array = g_array_new (FALSE, TRUE, sizeof (WnBinding));

  g_array_set_clear_func (array, (GDestroyNotify) wn_binding_clear);
  return array;
}

static gboolean
is_name (const char *s)
{
  guint i;

  if (s == NULL || !(g_ascii_isalpha (*s) || *s == '_'))
    return FALSE;
  for (i = 1; s[i] != '\0'; i++)
    if (!(g_ascii_isalnum (s[i]) || s[i] == '_'))
      return FALSE;
  return TRUE;
}

/* Words of lite that can never be read back as a variable. */
static gboolean
is_keyword (const char *s)
{
  static const char * const keywords[] = { "and", "or", "not", "true", "false", "nil" };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (keywords); i++)
    if (strcmp (s, keywords[i]) == 0)
      return TRUE;
  return FALSE;
}

/* Parse and check one target. */
static WnPath *
parse_target (const char *var,
              GError    **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(WnPath) path = NULL;
  guint i;

  if (var == NULL || var[0] == '\0')
    {
      g_set_error (error, WN_OUTPUT_MAPPING_ERROR, WN_OUTPUT_MAPPING_ERROR_BAD_TARGET,
                   "the target variable is empty");
      return NULL;
    }

  path = wn_path_parse (var, &local_error);
  if (path == NULL)
    {
      g_set_error (error, WN_OUTPUT_MAPPING_ERROR, WN_OUTPUT_MAPPING_ERROR_BAD_TARGET,
                   "“%s” is not a variable name or a structural path: %s",
                   var, local_error->message);
      return NULL;
    }

  if (!is_name (path->head))
    {
      g_set_error (error, WN_OUTPUT_MAPPING_ERROR, WN_OUTPUT_MAPPING_ERROR_BAD_TARGET,
                   "“%s” does not start with a variable name ([A-Za-z_][A-Za-z0-9_]*)", var);
      return NULL;
    }
  if (is_keyword (path->head))
    {
      g_set_error (error, WN_OUTPUT_MAPPING_ERROR, WN_OUTPUT_MAPPING_ERROR_BAD_TARGET,
                   "“%s” is a keyword, not a variable name", path->head);
      return NULL;
    }

  for (i = 0; i < path->n_steps; i++)
    {
      if (path->steps[i].kind == WN_PATH_INDEX && path->steps[i].index > MAX_TARGET_INDEX)
        {
          g_set_error (error, WN_OUTPUT_MAPPING_ERROR, WN_OUTPUT_MAPPING_ERROR_BAD_TARGET,
                       "“%s”: index %u is too large (at most %u)",
                       var, path->steps[i].index, (guint) MAX_TARGET_INDEX);
          return NULL;
        }
    }

  return g_steal_pointer (&path);
}

typedef enum {
  CLASH_NONE,
  CLASH_OVERLAP,     /* equal, or one is a prefix of the other */
  CLASH_KIND,        /* one container would be both an object and an array */
} Clash;

/* How two structural targets of one head clash, if they do. */
static Clash
targets_clash (const WnPath *a,
               const WnPath *b)
{
  guint n = MIN (a->n_steps, b->n_steps);
  guint i;

  for (i = 0; i < n; i++)
    {
      const WnPathStep *sa = &a->steps[i];
      const WnPathStep *sb = &b->steps[i];

      if (sa->kind != sb->kind)
        return CLASH_KIND;
      if (sa->kind == WN_PATH_KEY && strcmp (sa->key, sb->key) != 0)
        return CLASH_NONE;
      if (sa->kind == WN_PATH_INDEX && sa->index != sb->index)
        return CLASH_NONE;
    }
  return CLASH_OVERLAP;
}

static void
mapping_free (WnOutputMapping *mapping)
{
  guint i;

  for (i = 0; i < mapping->n_rules; i++)
    {
      Rule *rule = &mapping->rules[i];

      g_free ((char *) rule->rule.var);
      g_clear_pointer (&rule->rule.path, wn_lite_unref);
      g_clear_pointer (&rule->target, wn_path_free);
    }
  for (i = 0; i < mapping->n_heads; i++)
    {
      g_free (mapping->heads[i].name);
      g_clear_pointer (&mapping->heads[i].rules, g_array_unref);
    }
  g_free (mapping->rules);
  g_free (mapping->heads);
  g_free (mapping);
}

WnOutputMapping *
wn_output_mapping_new (const WnOutputRule *rules,
                       guint               n_rules,
                       guint              *bad_rule,
                       GError            **error)
{
  WnOutputMapping *mapping;
  guint i;

  g_return_val_if_fail (rules != NULL || n_rules == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  for (i = 0; i < n_rules; i++)
    g_return_val_if_fail (rules[i].path != NULL, NULL);

  mapping = g_new0 (WnOutputMapping, 1);
  g_ref_count_init (&mapping->ref_count);
  mapping->rules = g_new0 (Rule, MAX (n_rules, 1));
  mapping->heads = g_new0 (Head, MAX (n_rules, 1));

  for (i = 0; i < n_rules; i++)
    {
      Rule *rule = &mapping->rules[i];
      Head *head = NULL;
      WnPath *target;
      guint h;
      guint k;

      target = parse_target (rules[i].var, error);
      if (target == NULL)
        goto fail;

      rule->rule.var = g_strdup (rules[i].var);
      rule->rule.path = wn_lite_ref (rules[i].path);
      rule->rule.required = !!rules[i].required;
      rule->target = target;
      mapping->n_rules = i + 1;

      for (h = 0; h < mapping->n_heads; h++)
        {
          if (strcmp (mapping->heads[h].name, target->head) == 0)
            {
              head = &mapping->heads[h];
              break;
            }
        }

      if (head == NULL)
        {
          h = mapping->n_heads++;
          head = &mapping->heads[h];
          head->name = g_strdup (target->head);
          head->rules = g_array_new (FALSE, FALSE, sizeof (guint));
          head->structural = target->n_steps > 0;
        }
      else
        {
          for (k = 0; k < head->rules->len; k++)
            {
              guint other_index = g_array_index (head->rules, guint, k);
              const Rule *other = &mapping->rules[other_index];
              Clash clash;

              if ((other->target->n_steps > 0) != (target->n_steps > 0))
                {
                  g_set_error (error, WN_OUTPUT_MAPPING_ERROR,
                               WN_OUTPUT_MAPPING_ERROR_MIXED_TARGET,
                               "“%s” mixes a plain and a structural target on “%s” "
                               "(rule %u targets “%s”)",
                               rules[i].var, target->head, other_index, other->rule.var);
                  goto fail;
                }
              clash = target->n_steps == 0 ? CLASH_OVERLAP : targets_clash (other->target, target);
              if (clash != CLASH_NONE)
                {
                  g_set_error (error, WN_OUTPUT_MAPPING_ERROR,
                               WN_OUTPUT_MAPPING_ERROR_CONFLICT,
                               clash == CLASH_KIND
                               ? "“%s” conflicts with “%s” (rule %u): one place would be "
                                 "both an object and an array"
                               : "“%s” conflicts with “%s” (rule %u): one target overlaps "
                                 "the other",
                               rules[i].var, other->rule.var, other_index);
                  goto fail;
                }
            }
        }

      rule->head = h;
      g_array_append_val (head->rules, i);
    }

  return mapping;

fail:
  if (bad_rule != NULL)
    *bad_rule = i;
  mapping_free (mapping);
  return NULL;
}

WnOutputMapping *
wn_output_mapping_ref (WnOutputMapping *mapping)
{
  g_return_val_if_fail (mapping != NULL, NULL);

  g_ref_count_inc (&mapping->ref_count);
  return mapping;
}

void
wn_output_mapping_unref (WnOutputMapping *mapping)
{
  g_return_if_fail (mapping != NULL);

  if (g_ref_count_dec (&mapping->ref_count))
    mapping_free (mapping);
}

guint
wn_output_mapping_get_n_rules (const WnOutputMapping *mapping)
{
  g_return_val_if_fail (mapping != NULL, 0);

  return mapping->n_rules;
}

const WnOutputRule *
wn_output_mapping_get_rule (const WnOutputMapping *mapping,
                            guint                  i)
{
  g_return_val_if_fail (mapping != NULL, NULL);
  g_return_val_if_fail (i < mapping->n_rules, NULL);

  return &mapping->rules[i].rule;
}

static void
node_unref0 (gpointer node)
{
  if (node != NULL)
    json_node_unref (node);
}

/* Make `slot` (a null placeholder or a fresh node) hold what `value` holds. */
static void
node_assign (JsonNode *slot,
             JsonNode *value)
{
  switch (json_node_get_node_type (value))
    {
    case JSON_NODE_OBJECT:
      json_node_init_object (slot, json_node_get_object (value));
      break;

    case JSON_NODE_ARRAY:
      json_node_init_array (slot, json_node_get_array (value));
      break;

    case JSON_NODE_VALUE:
      {
        GValue gvalue = G_VALUE_INIT;

        json_node_get_value (value, &gvalue);
        json_node_init (slot, JSON_NODE_VALUE);
        json_node_set_value (slot, &gvalue);
        g_value_unset (&gvalue);
      }
      break;

    case JSON_NODE_NULL:
      json_node_init_null (slot);
      break;

    default:
      g_assert_not_reached ();
    }
}

/* Ensure `node` is a container of the kind `step` needs (turning a null
 * placeholder into one). */
static void
ensure_container (JsonNode         *node,
                  const WnPathStep *step)
{
  if (step->kind == WN_PATH_KEY && !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_autoptr(JsonObject) object = json_object_new ();

      json_node_init_object (node, object);
    }
  else if (step->kind == WN_PATH_INDEX && !JSON_NODE_HOLDS_ARRAY (node))
    {
      g_autoptr(JsonArray) array = json_array_new ();

      json_node_init_array (node, array);
    }
}

/* The child slot of container `node` for `step`, created as a null when absent
 * (arrays padded with nulls up to the index). */
static JsonNode *
child_slot (JsonNode         *node,
            const WnPathStep *step)
{
  if (step->kind == WN_PATH_KEY)
    {
      JsonObject *object = json_node_get_object (node);
      JsonNode *child = json_object_get_member (object, step->key);

      if (child == NULL)
        {
          child = json_node_new (JSON_NODE_NULL);
          json_object_set_member (object, step->key, child);
        }
      return child;
    }
  else
    {
      JsonArray *array = json_node_get_array (node);

      while (json_array_get_length (array) <= step->index)
        json_array_add_null_element (array);
      return json_array_get_element (array, step->index);
    }
}

/* Place `value` at the target's steps inside `root`. */
static void
record_insert (JsonNode     *root,
               const WnPath *target,
               JsonNode     *value)
{
  JsonNode *node = root;
  guint i;

  for (i = 0; i < target->n_steps; i++)
    {
      ensure_container (node, &target->steps[i]);
      node = child_slot (node, &target->steps[i]);
    }
  node_assign (node, value);
}

gboolean
wn_output_mapping_apply (const WnOutputMapping *mapping,
                         JsonNode              *body,
                         GArray                *out,
                         GError               **error)
{
  g_autoptr(JsonNode) null_body = NULL;
  g_autoptr(GPtrArray) values = NULL;
  WnLiteRoot root;
  WnLiteScope scope = { &root, 1, NULL };
  guint i;
  guint h;

  g_return_val_if_fail (mapping != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (body == NULL)
    null_body = json_node_new (JSON_NODE_NULL);
  root.name = "body";
  root.node = body != NULL ? body : null_body;

  /* Evaluate every path first, so a required miss leaves `out` untouched. */
  values = g_ptr_array_new_full (mapping->n_rules, node_unref0);
  for (i = 0; i < mapping->n_rules; i++)
    {
      const Rule *rule = &mapping->rules[i];
      g_autoptr(GError) local_error = NULL;
      JsonNode *value;

      value = wn_lite_eval_json (rule->rule.path, &scope, &local_error);
      if (value == NULL && rule->rule.required)
        {
          g_set_error (error, WN_OUTPUT_MAPPING_ERROR, WN_OUTPUT_MAPPING_ERROR_MISSING,
                       "required output path %s is missing: %s",
                       wn_lite_get_source (rule->rule.path),
                       local_error != NULL ? local_error->message : "no value");
          return FALSE;
        }
      /* NULL entries (skipped optional paths) are fine in the array. */
      g_ptr_array_add (values, value);
    }

  for (h = 0; h < mapping->n_heads; h++)
    {
      const Head *head = &mapping->heads[h];
      JsonNode *result = NULL;
      WnBinding binding;
      guint k;

      for (k = 0; k < head->rules->len; k++)
        {
          guint r = g_array_index (head->rules, guint, k);
          JsonNode *value = g_ptr_array_index (values, r);

          if (value == NULL)
            continue;

          if (!head->structural)
            {
              result = json_node_ref (value);
              break;
            }

          if (result == NULL)
            result = json_node_new (JSON_NODE_NULL);
          record_insert (result, mapping->rules[r].target, value);
        }

      if (result == NULL)
        continue;

      binding.var = g_strdup (head->name);
      binding.value = result;
      g_array_append_val (out, binding);
    }

  return TRUE;
}

void
wn_output_direct (const char *var,
                  JsonNode   *body,
                  GArray     *out)
{
  WnBinding binding;

  g_return_if_fail (var != NULL);
  g_return_if_fail (out != NULL);

  if (body == NULL)
    return;

  binding.var = g_strdup (var);
  binding.value = json_node_ref (body);
  g_array_append_val (out, binding);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-error-mapper.c — ordered rules classifying a raw fault {code, body}. */
#include "config.h"

#include "wn-error-mapper.h"

struct _WnErrorMapper {
  grefcount    ref_count;
  WnErrorRule *rules;      /* owned copies; an empty code is stored as NULL */
  guint        n_rules;
  gboolean     has_status;
};

G_DEFINE_QUARK (wn-error-mapper-error-quark, wn_error_mapper_error)

static void
rule_copy (const WnErrorRule *src,
           WnErrorRule       *dst)
{
  dst->code = (src->code != NULL && src->code[0] != '\0') ? g_strdup (src->code) : NULL;
  dst->when = src->when != NULL ? wn_lite_ref (src->when) : NULL;
  dst->outcome = src->outcome;
  dst->bpmn_code = g_strdup (src->bpmn_code);
  dst->bpmn_message = g_strdup (src->bpmn_message);
  dst->status = src->status != NULL ? json_node_ref (src->status) : NULL;
}

static void
rule_clear (WnErrorRule *rule)
{
  g_free ((char *) rule->code);
  g_free ((char *) rule->bpmn_code);
  g_free ((char *) rule->bpmn_message);
  g_clear_pointer (&rule->when, wn_lite_unref);
  g_clear_pointer (&rule->status, json_node_unref);
}

void
wn_classification_clear (WnClassification *c)
{
  g_return_if_fail (c != NULL);

  g_clear_pointer (&c->mapper_error, g_free);
  c->kind = WN_CLASS_TECHNICAL;
  c->rule = -1;
  c->bpmn_code = NULL;
  c->bpmn_message = NULL;
  c->status = NULL;
}

WnErrorMapper *
wn_error_mapper_new (const WnErrorRule *rules,
                     guint              n_rules)
{
  WnErrorMapper *mapper;
  guint i;

  g_return_val_if_fail (rules != NULL || n_rules == 0, NULL);

  mapper = g_new0 (WnErrorMapper, 1);
  g_ref_count_init (&mapper->ref_count);
  mapper->n_rules = n_rules;
  mapper->rules = g_new0 (WnErrorRule, MAX (n_rules, 1));
  for (i = 0; i < n_rules; i++)
    {
      rule_copy (&rules[i], &mapper->rules[i]);
      if (rules[i].outcome == WN_CLASS_STATUS)
        mapper->has_status = TRUE;
    }

  return mapper;
}

WnErrorMapper *
wn_error_mapper_ref (WnErrorMapper *mapper)
{
  g_return_val_if_fail (mapper != NULL, NULL);

  g_ref_count_inc (&mapper->ref_count);
  return mapper;
}

void
wn_error_mapper_unref (WnErrorMapper *mapper)
{
  guint i;

  g_return_if_fail (mapper != NULL);

  if (!g_ref_count_dec (&mapper->ref_count))
    return;

  for (i = 0; i < mapper->n_rules; i++)
    rule_clear (&mapper->rules[i]);
  g_free (mapper->rules);
  g_free (mapper);
}

guint
wn_error_mapper_get_n_rules (const WnErrorMapper *mapper)
{
  g_return_val_if_fail (mapper != NULL, 0);

  return mapper->n_rules;
}

const WnErrorRule *
wn_error_mapper_get_rule (const WnErrorMapper *mapper,
                          guint                i)
{
  g_return_val_if_fail (mapper != NULL, NULL);
  g_return_val_if_fail (i < mapper->n_rules, NULL);

  return &mapper->rules[i];
}

gboolean
wn_error_mapper_has_status_rule (const WnErrorMapper *mapper)
{
  g_return_val_if_fail (mapper != NULL, FALSE);

  return mapper->has_status;
}

void
wn_error_mapper_classify (const WnErrorMapper *mapper,
                          const char          *code,
                          JsonNode            *body,
                          WnClassification    *result)
{
  g_autoptr(JsonNode) code_node = NULL;
  g_autoptr(JsonNode) null_body = NULL;
  WnLiteRoot roots[2];
  WnLiteScope scope = { roots, 0, NULL };
  guint i;

  g_return_if_fail (result != NULL);

  result->kind = WN_CLASS_TECHNICAL;
  result->rule = -1;
  result->bpmn_code = NULL;
  result->bpmn_message = NULL;
  result->status = NULL;
  result->mapper_error = NULL;

  if (mapper == NULL)
    return;

  for (i = 0; i < mapper->n_rules; i++)
    {
      const WnErrorRule *rule = &mapper->rules[i];

      if (rule->code != NULL && g_strcmp0 (rule->code, code) != 0)
        continue;

      if (rule->when != NULL)
        {
          g_autoptr(GError) error = NULL;
          WnLiteValue value;
          gboolean matched;

          /* The scope is built on the first clause that needs it. A fault
           * without a code binds no `code`, so has('code') is false and reading
           * it is a missing variable, not a nil to compare. */
          if (scope.n_roots == 0)
            {
              if (code != NULL)
                {
                  code_node = json_node_new (JSON_NODE_VALUE);
                  json_node_set_string (code_node, code);
                  roots[scope.n_roots].name = "code";
                  roots[scope.n_roots++].node = code_node;
                }
              if (body == NULL)
                null_body = json_node_new (JSON_NODE_NULL);
              roots[scope.n_roots].name = "body";
              roots[scope.n_roots++].node = body != NULL ? body : null_body;
            }

          if (!wn_lite_eval (rule->when, &scope, &value, &error))
            {
              result->rule = (int) i;
              result->mapper_error = g_strdup (error->message);
              return;
            }
          matched = value.kind == WN_LITE_BOOL && value.b;
          wn_lite_value_clear (&value);
          if (!matched)
            continue;
        }

      result->kind = rule->outcome;
      result->rule = (int) i;
      if (rule->outcome == WN_CLASS_BPMN_ERROR)
        {
          result->bpmn_code = rule->bpmn_code;
          result->bpmn_message = rule->bpmn_message;
        }
      else if (rule->outcome == WN_CLASS_STATUS)
        {
          result->status = rule->status;
        }
      return;
    }
}

char *
wn_error_mapper_describe_rule (const WnErrorMapper *mapper,
                               guint                i)
{
  const WnErrorRule *rule;
  GString *str;

  g_return_val_if_fail (mapper != NULL, NULL);
  g_return_val_if_fail (i < mapper->n_rules, NULL);

  rule = &mapper->rules[i];
  str = g_string_new (NULL);

  if (rule->code != NULL)
    g_string_append_printf (str, "code %s", rule->code);
  if (rule->when != NULL)
    g_string_append_printf (str, "%swhen %s", str->len > 0 ? " " : "",
                            wn_lite_get_source (rule->when));
  if (str->len == 0)
    g_string_append (str, "any");

  g_string_append (str, " → ");

  switch (rule->outcome)
    {
    case WN_CLASS_BPMN_ERROR:
      g_string_append_printf (str, "BPMN error %s", rule->bpmn_code != NULL ? rule->bpmn_code : "");
      if (rule->bpmn_message != NULL && rule->bpmn_message[0] != '\0')
        g_string_append_printf (str, " (%s)", rule->bpmn_message);
      break;

    case WN_CLASS_STATUS:
      {
        g_autofree char *json = rule->status != NULL
          ? json_to_string (rule->status, FALSE) : g_strdup ("null");

        g_string_append_printf (str, "status %s", json);
      }
      break;

    case WN_CLASS_TECHNICAL:
      g_string_append (str, "technical");
      break;

    default:
      g_string_append (str, "?");
      break;
    }

  return g_string_free (str, FALSE);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-policy-loader.c — the policy pieces a process and a scenario both carry:
 * trust, retry, errorMapper and the "engine" block that holds them. */
#include "wn-loader-private.h"

#include <string.h>

static const char * const engine_keys[] = {
  "trust", "retry", "errorMapper", "maxLock", "onExhausted", NULL
};
static const char * const retry_keys_all[] = {
  "policy", "maxAttempts", "delay", "base", "max", "jitter", NULL
};
static const char * const rule_keys[] = {
  "code", "when", "bpmnError", "status", "technical", NULL
};
static const char * const bpmn_error_keys[] = { "code", "message", NULL };

/* ---- engine-level pieces ------------------------------------------------ */

gboolean
_wn_load_trust (WnCheck *ctx, JsonNode *node, const char *path, WnTrust *out)
{
  const char *s = _wn_check_string (ctx, node, path);

  if (s == NULL)
    return FALSE;
  if (!wn_trust_from_string (s, out) || *out == WN_TRUST_UNSET)
    {
      _wn_check_report (ctx, node, path, "unknown trust \"%s\" (expected workerTrusted or engineAuthoritative)", s);
      return FALSE;
    }
  return TRUE;
}

gboolean
_wn_load_retry (WnCheck *ctx, JsonNode *node, const char *path, WnRetryPolicy *out)
{
  static const char * const none_keys[] = { "policy", NULL };
  static const char * const fixed_keys[] = { "policy", "maxAttempts", "delay", NULL };
  static const char * const exp_keys[] = { "policy", "maxAttempts", "base", "max", "jitter", NULL };
  g_autofree char *policy_path = NULL;
  JsonNode *policy_node;
  const char *policy;
  guint before = _wn_check_n_errors (ctx);

  if (_wn_check_holds_type (node, G_TYPE_STRING))
    {
      if (strcmp (json_node_get_string (node), "default") == 0)
        {
          *out = wn_retry_policy_default ();
          return TRUE;
        }
      _wn_check_report (ctx, node, path, "must be \"default\" or an object with a \"policy\"");
      return FALSE;
    }
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      _wn_check_report (ctx, node, path, "must be \"default\" or an object with a \"policy\", not %s",
              _wn_check_type_name (node));
      return FALSE;
    }

  policy_node = _wn_check_member (ctx, node, path, "policy", TRUE);
  if (policy_node == NULL)
    {
      _wn_check_keys (ctx, node, path, retry_keys_all, NULL, NULL);
      return FALSE;
    }
  policy_path = _wn_check_path_key (path, "policy");
  policy = _wn_check_string (ctx, policy_node, policy_path);
  if (policy == NULL)
    return FALSE;

  if (strcmp (policy, "none") == 0)
    {
      _wn_check_keys (ctx, node, path, none_keys, retry_keys_all, "policy \"none\"");
      *out = wn_retry_policy_none ();
    }
  else if (strcmp (policy, "fixed") == 0)
    {
      guint max_attempts = 1;
      WnTime delay = 0;

      _wn_check_keys (ctx, node, path, fixed_keys, retry_keys_all, "policy \"fixed\"");
      _wn_check_member_uint (ctx, node, path, "maxAttempts", TRUE, 1, &max_attempts);
      _wn_check_member_duration (ctx, node, path, "delay", TRUE, FALSE, &delay);
      *out = wn_retry_policy_fixed (max_attempts, delay);
    }
  else if (strcmp (policy, "exponential") == 0)
    {
      guint max_attempts = 1;
      WnTime base = 0;
      WnTime max = 0;
      gboolean jitter = FALSE;

      _wn_check_keys (ctx, node, path, exp_keys, retry_keys_all, "policy \"exponential\"");
      _wn_check_member_uint (ctx, node, path, "maxAttempts", TRUE, 1, &max_attempts);
      _wn_check_member_duration (ctx, node, path, "base", TRUE, FALSE, &base);
      _wn_check_member_duration (ctx, node, path, "max", TRUE, FALSE, &max);
      _wn_check_member_bool (ctx, node, path, "jitter", FALSE, &jitter);
      *out = wn_retry_policy_exponential (max_attempts, base, max, jitter);
    }
  else
    {
      _wn_check_report (ctx, policy_node, policy_path,
              "unknown retry policy \"%s\" (expected none, fixed or exponential)", policy);
      return FALSE;
    }

  return _wn_check_n_errors (ctx) == before;
}

static void
free_rule_strings (WnErrorRule *rules, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      g_free ((char *) rules[i].code);
      g_clear_pointer (&rules[i].when, wn_lite_unref);
      g_free ((char *) rules[i].bpmn_code);
      g_free ((char *) rules[i].bpmn_message);
      g_clear_pointer (&rules[i].status, json_node_unref);
    }
  g_free (rules);
}

gboolean
_wn_load_error_mapper (WnCheck        *ctx,
                       JsonNode       *node,
                       const char     *path,
                       WnErrorMapper **out,
                       WnStatusRules  *status_rules)
{
  JsonArray *array = _wn_check_array (ctx, node, path);
  WnErrorRule *rules;
  guint n;
  guint before = _wn_check_n_errors (ctx);

  if (array == NULL)
    return FALSE;

  n = json_array_get_length (array);
  rules = g_new0 (WnErrorRule, n + 1);

  for (guint i = 0; i < n; i++)
    {
      JsonNode *rule = json_array_get_element (array, i);
      g_autofree char *rp = _wn_check_path_index (path, i);
      const char *first_outcome = NULL;
      guint n_outcomes = 0;
      JsonNode *m;

      if (!_wn_check_object (ctx, rule, rp))
        continue;
      _wn_check_keys (ctx, rule, rp, rule_keys, NULL, NULL);

      rules[i].code = _wn_check_member_code (ctx, rule, rp, "code", FALSE);
      rules[i].when = _wn_check_member_lite (ctx, rule, rp, "when", FALSE);

      {
        guint nk = 0;
        const char * const *keys = wn_json_doc_get_keys (ctx->doc, json_node_get_object (rule), &nk);

        for (guint k = 0; k < nk; k++)
          {
            const char *key = keys[k];
            g_autofree char *p = NULL;

            if (strcmp (key, "bpmnError") != 0 && strcmp (key, "status") != 0 &&
                strcmp (key, "technical") != 0)
              continue;
            m = json_object_get_member (json_node_get_object (rule), key);
            p = _wn_check_path_key (rp, key);
            n_outcomes++;
            if (n_outcomes > 1)
              {
                _wn_check_report (ctx, m, p, "a rule has exactly one outcome (it already has %s)", first_outcome);
                continue;
              }
            first_outcome = key;

            if (strcmp (key, "bpmnError") == 0)
              {
                rules[i].outcome = WN_CLASS_BPMN_ERROR;
                if (_wn_check_object (ctx, m, p))
                  {
                    JsonNode *c;

                    _wn_check_keys (ctx, m, p, bpmn_error_keys, NULL, NULL);
                    if ((c = _wn_check_member (ctx, m, p, "code", TRUE)) != NULL)
                      {
                        g_autofree char *cp = _wn_check_path_key (p, "code");
                        const char *s = _wn_check_nonempty (ctx, c, cp);

                        rules[i].bpmn_code = g_strdup (s);
                      }
                    if ((c = _wn_check_member (ctx, m, p, "message", FALSE)) != NULL)
                      {
                        g_autofree char *cp = _wn_check_path_key (p, "message");
                        const char *s = _wn_check_string (ctx, c, cp);

                        rules[i].bpmn_message = g_strdup (s);
                      }
                  }
              }
            else if (strcmp (key, "status") == 0)
              {
                rules[i].outcome = WN_CLASS_STATUS;
                rules[i].status = wn_json_node_deep_copy (m);
                if (status_rules != NULL)
                  {
                    g_ptr_array_add (status_rules->nodes, m);
                    g_ptr_array_add (status_rules->paths, g_strdup (p));
                  }
              }
            else
              {
                rules[i].outcome = WN_CLASS_TECHNICAL;
                _wn_check_true (ctx, m, p);
              }
          }

        if (n_outcomes == 0)
          _wn_check_report (ctx, rule, rp, "a rule needs exactly one of bpmnError, status or technical");
      }
    }

  if (_wn_check_n_errors (ctx) == before)
    *out = wn_error_mapper_new (rules, n);
  free_rule_strings (rules, n);
  return _wn_check_n_errors (ctx) == before;
}


void
_wn_load_engine_block (WnCheck        *ctx,
                       JsonNode       *node,
                       const char     *path,
                       WnEngineConfig *config,
                       WnStatusRules  *status_rules)
{
  JsonNode *m;

  if (!_wn_check_object (ctx, node, path))
    return;
  _wn_check_keys (ctx, node, path, engine_keys, NULL, NULL);

  if ((m = _wn_check_member (ctx, node, path, "trust", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "trust");

      _wn_load_trust (ctx, m, p, &config->policy.trust);
    }
  if ((m = _wn_check_member (ctx, node, path, "retry", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "retry");

      config->policy.has_retry = _wn_load_retry (ctx, m, p, &config->policy.retry);
    }
  if ((m = _wn_check_member (ctx, node, path, "errorMapper", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "errorMapper");

      _wn_load_error_mapper (ctx, m, p, &config->policy.mapper, status_rules);
    }
  if ((m = _wn_check_member (ctx, node, path, "maxLock", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "maxLock");

      config->has_max_lock = _wn_check_duration (ctx, m, p, TRUE, &config->max_lock);
    }
  if ((m = _wn_check_member (ctx, node, path, "onExhausted", FALSE)) != NULL)
    {
      g_autofree char *p = _wn_check_path_key (path, "onExhausted");
      const char *s = _wn_check_string (ctx, m, p);

      if (s != NULL && (!wn_on_exhausted_from_string (s, &config->on_exhausted) ||
                        config->on_exhausted == WN_ON_EXHAUSTED_UNSET))
        {
          config->on_exhausted = WN_ON_EXHAUSTED_UNSET;
          _wn_check_report (ctx, m, p, "unknown onExhausted \"%s\" (expected fail or incident)", s);
        }
    }
}

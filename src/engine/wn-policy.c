/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-policy.c — trust modes, configuration levels and the resolved policy. */
#include "config.h"

#include "wn-policy.h"

/* The public struct first, so a WnPolicy* is a PolicyBox*. */
typedef struct {
  WnPolicy  policy;
  grefcount ref_count;
} PolicyBox;

const char *
wn_trust_to_string (WnTrust trust)
{
  switch (trust)
    {
    case WN_TRUST_UNSET:
      return "unset";
    case WN_TRUST_WORKER_TRUSTED:
      return "workerTrusted";
    case WN_TRUST_ENGINE_AUTHORITATIVE:
      return "engineAuthoritative";
    default:
      g_return_val_if_reached ("unset");
    }
}

gboolean
wn_trust_from_string (const char *text,
                      WnTrust    *out)
{
  WnTrust trust;

  if (g_strcmp0 (text, "workerTrusted") == 0)
    trust = WN_TRUST_WORKER_TRUSTED;
  else if (g_strcmp0 (text, "engineAuthoritative") == 0)
    trust = WN_TRUST_ENGINE_AUTHORITATIVE;
  else
    return FALSE;

  if (out != NULL)
    *out = trust;
  return TRUE;
}

const char *
wn_trust_to_label (WnTrust trust)
{
  switch (trust)
    {
    case WN_TRUST_UNSET:
      return "unset";
    case WN_TRUST_WORKER_TRUSTED:
      return "trusted";
    case WN_TRUST_ENGINE_AUTHORITATIVE:
      return "authoritative";
    default:
      g_return_val_if_reached ("unset");
    }
}

const char *
wn_on_exhausted_to_string (WnOnExhausted mode)
{
  switch (mode)
    {
    case WN_ON_EXHAUSTED_UNSET:
      return "unset";
    case WN_ON_EXHAUSTED_FAIL:
      return "fail";
    case WN_ON_EXHAUSTED_INCIDENT:
      return "incident";
    default:
      g_return_val_if_reached ("unset");
    }
}

gboolean
wn_on_exhausted_from_string (const char    *text,
                             WnOnExhausted *out)
{
  WnOnExhausted mode;

  if (g_strcmp0 (text, "fail") == 0)
    mode = WN_ON_EXHAUSTED_FAIL;
  else if (g_strcmp0 (text, "incident") == 0)
    mode = WN_ON_EXHAUSTED_INCIDENT;
  else
    return FALSE;

  if (out != NULL)
    *out = mode;
  return TRUE;
}

/* Releases the references and resets every field to "not set". */
void
wn_policy_level_clear (WnPolicyLevel *level)
{
  g_return_if_fail (level != NULL);

  g_clear_pointer (&level->mapper, wn_error_mapper_unref);
  g_clear_pointer (&level->mapping, wn_output_mapping_unref);
  level->trust = WN_TRUST_UNSET;
  level->has_retry = FALSE;
  level->retry = wn_retry_policy_none ();
}

/* dst is overwritten, not cleared first: clear it yourself if it held references. */
void
wn_policy_level_copy (const WnPolicyLevel *src,
                      WnPolicyLevel       *dst)
{
  g_return_if_fail (src != NULL);
  g_return_if_fail (dst != NULL);

  if (src == dst)
    return;

  *dst = *src;
  if (dst->mapper != NULL)
    wn_error_mapper_ref (dst->mapper);
  if (dst->mapping != NULL)
    wn_output_mapping_ref (dst->mapping);
}

WnPolicy *
wn_policy_resolve (const WnPolicyLevel *task,
                   const WnPolicyLevel *engine)
{
  PolicyBox *box = g_new0 (PolicyBox, 1);
  WnPolicy *policy = &box->policy;
  WnErrorMapper *mapper = NULL;

  g_ref_count_init (&box->ref_count);

  /* error mapper: task → engine → none */
  if (task != NULL && task->mapper != NULL)
    mapper = task->mapper;
  else if (engine != NULL)
    mapper = engine->mapper;
  policy->mapper = mapper != NULL ? wn_error_mapper_ref (mapper) : NULL;

  /* retry: task → engine → default */
  if (task != NULL && task->has_retry)
    policy->retry = task->retry;
  else if (engine != NULL && engine->has_retry)
    policy->retry = engine->retry;
  else
    policy->retry = wn_retry_policy_default ();

  /* trust: task → engine → workerTrusted */
  if (task != NULL && task->trust != WN_TRUST_UNSET)
    policy->trust = task->trust;
  else if (engine != NULL && engine->trust != WN_TRUST_UNSET)
    policy->trust = engine->trust;
  else
    policy->trust = WN_TRUST_WORKER_TRUSTED;
  policy->trust_origin_task = task != NULL ? task->trust : WN_TRUST_UNSET;

  /* output mapping: the task's only */
  policy->mapping = (task != NULL && task->mapping != NULL)
    ? wn_output_mapping_ref (task->mapping) : NULL;

  return policy;
}

WnPolicy *
wn_policy_ref (WnPolicy *policy)
{
  PolicyBox *box = (PolicyBox *) policy;

  g_return_val_if_fail (policy != NULL, NULL);

  g_ref_count_inc (&box->ref_count);
  return policy;
}

void
wn_policy_unref (WnPolicy *policy)
{
  PolicyBox *box = (PolicyBox *) policy;

  g_return_if_fail (policy != NULL);

  if (g_ref_count_dec (&box->ref_count))
    {
      g_clear_pointer (&policy->mapper, wn_error_mapper_unref);
      g_clear_pointer (&policy->mapping, wn_output_mapping_unref);
      g_free (box);
    }
}

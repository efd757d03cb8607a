/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-retry-policy.c — none / fixed / exponential retry policies. */
#include "config.h"

#include "wn-retry-policy.h"
#include "wn-duration.h"

WnRetryPolicy
wn_retry_policy_none (void)
{
  WnRetryPolicy policy = { 0, };

  policy.kind = WN_RETRY_NONE;
  return policy;
}

WnRetryPolicy
wn_retry_policy_fixed (guint  max_attempts,
                       WnTime delay)
{
  WnRetryPolicy policy = { 0, };

  policy.kind = WN_RETRY_FIXED;
  policy.max_attempts = max_attempts;
  policy.delay = delay;
  return policy;
}

WnRetryPolicy
wn_retry_policy_exponential (guint    max_attempts,
                             WnTime   base,
                             WnTime   max,
                             gboolean jitter)
{
  WnRetryPolicy policy = { 0, };

  policy.kind = WN_RETRY_EXPONENTIAL;
  policy.max_attempts = max_attempts;
  policy.base = base;
  policy.max = max;
  policy.jitter = !!jitter;
  return policy;
}

WnRetryPolicy
wn_retry_policy_default (void)
{
  return wn_retry_policy_exponential (3, 500 * WN_USEC_PER_MSEC, 30 * WN_USEC_PER_SEC, TRUE);
}

/* base × 2^(n−1), capped at max; a shift that would overflow yields max. */
static WnTime
exponential_delay (WnTime base,
                   WnTime max,
                   guint  n)
{
  guint shift = n > 0 ? n - 1 : 0;

  if (base <= 0)
    return 0;
  if (max < 0)
    return 0;
  if (shift >= 63)
    return max;
  /* base << shift > max  ⟺  base > max >> shift (for non-negative values) */
  if (base > (max >> shift))
    return max;
  return base << shift;
}

gboolean
wn_retry_policy_retry (const WnRetryPolicy *policy,
                       guint                n,
                       WnRng               *rng,
                       WnTime              *backoff)
{
  WnTime d = 0;
  gboolean retry = FALSE;

  g_return_val_if_fail (policy != NULL, FALSE);

  switch (policy->kind)
    {
    case WN_RETRY_NONE:
      break;

    case WN_RETRY_FIXED:
      if (n < policy->max_attempts)
        {
          retry = TRUE;
          d = MAX (policy->delay, 0);
        }
      break;

    case WN_RETRY_EXPONENTIAL:
      if (n < policy->max_attempts)
        {
          retry = TRUE;
          d = exponential_delay (policy->base, policy->max, n);
          if (policy->jitter)
            {
              WnTime half = d / 2;

              g_return_val_if_fail (rng != NULL, FALSE);
              /* [d/2, d]: half + uniform[0, d − half] */
              d = half + wn_rng_range (rng, d - half);
            }
        }
      break;

    default:
      g_return_val_if_reached (FALSE);
    }

  if (backoff != NULL)
    *backoff = retry ? d : 0;
  return retry;
}

char *
wn_retry_policy_describe (const WnRetryPolicy *policy)
{
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;

  g_return_val_if_fail (policy != NULL, NULL);

  switch (policy->kind)
    {
    case WN_RETRY_NONE:
      return g_strdup ("no retry");

    case WN_RETRY_FIXED:
      a = wn_duration_format (policy->delay);
      return g_strdup_printf ("fixed ×%u, %s", policy->max_attempts, a);

    case WN_RETRY_EXPONENTIAL:
      a = wn_duration_format (policy->base);
      b = wn_duration_format (policy->max);
      return g_strdup_printf ("exponential ×%u, %s→%s%s", policy->max_attempts,
                              a, b, policy->jitter ? ", jitter" : "");

    default:
      g_return_val_if_reached (NULL);
    }
}

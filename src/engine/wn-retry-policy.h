/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-retry-policy.h — none / fixed / exponential retry policies (SRD-038 §3.1, semantics §6.3). */
#pragma once

#if !defined (WINNOW_INSIDE) && !defined (WINNOW_COMPILATION)
# error "Only winnow.h can be included directly"
#endif

#include <glib.h>
#include <json-glib/json-glib.h>
#include "wn-types.h"
#include "wn-rng.h"

G_BEGIN_DECLS

typedef enum {
  WN_RETRY_NONE,
  WN_RETRY_FIXED,
  WN_RETRY_EXPONENTIAL,
} WnRetryKind;

/* A plain value type: copy it freely. */
typedef struct {
  WnRetryKind kind;
  guint       max_attempts;  /* fixed, exponential: ≥ 1 */
  WnTime      delay;         /* fixed */
  WnTime      base;          /* exponential */
  WnTime      max;           /* exponential: the cap */
  gboolean    jitter;        /* exponential */
} WnRetryPolicy;

WnRetryPolicy wn_retry_policy_none        (void);
WnRetryPolicy wn_retry_policy_fixed       (guint max_attempts, WnTime delay);
WnRetryPolicy wn_retry_policy_exponential (guint max_attempts, WnTime base, WnTime max, gboolean jitter);
/* exponential(3, 500ms, 30s, jitter) */
WnRetryPolicy wn_retry_policy_default     (void);

/* n = 1-based number of the execution that just failed. Returns TRUE and the
 * backoff when the policy retries; FALSE when exhausted. Jitter draws from rng
 * (which may be NULL only for policies without jitter). */
gboolean      wn_retry_policy_retry       (const WnRetryPolicy *policy,
                                           guint                n,
                                           WnRng               *rng,
                                           WnTime              *backoff);
/* For people: "no retry", "fixed ×3, 300ms", "exponential ×3, 500ms→30s, jitter". */
char         *wn_retry_policy_describe    (const WnRetryPolicy *policy);

G_END_DECLS

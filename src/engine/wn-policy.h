/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-policy.h — trust modes and the resolved policy bundle (semantics §4, SRD-039 §3). */
#pragma once

#if !defined (WINNOW_INSIDE) && !defined (WINNOW_COMPILATION)
# error "Only winnow.h can be included directly"
#endif

#include <glib.h>
#include "wn-types.h"
#include "wn-retry-policy.h"
#include "wn-error-mapper.h"
#include "wn-output-mapping.h"

G_BEGIN_DECLS

/* "workerTrusted" / "engineAuthoritative"; "unset" for WN_TRUST_UNSET. */
const char *wn_trust_to_string   (WnTrust trust);
/* FALSE for anything but the two names. */
gboolean    wn_trust_from_string (const char *text, WnTrust *out);
/* Short label for tables: "trusted" / "authoritative". */
const char *wn_trust_to_label    (WnTrust trust);

const char *wn_on_exhausted_to_string   (WnOnExhausted mode);
gboolean    wn_on_exhausted_from_string (const char *text, WnOnExhausted *out);

/* One configuration level (a task's, or the engine's). Unset fields fall through. */
typedef struct {
  WnTrust          trust;         /* WN_TRUST_UNSET = not set here */
  gboolean         has_retry;
  WnRetryPolicy    retry;
  WnErrorMapper   *mapper;        /* NULL = not set here (owned ref) */
  WnOutputMapping *mapping;       /* task level only; NULL = none (owned ref) */
} WnPolicyLevel;

void wn_policy_level_clear (WnPolicyLevel *level);
void wn_policy_level_copy  (const WnPolicyLevel *src, WnPolicyLevel *dst);

/* The bundle a job carries, resolved once at enqueue. Refcounted, immutable. */
typedef struct {
  WnTrust          trust;         /* never UNSET */
  WnRetryPolicy    retry;         /* never empty: default when unset */
  WnErrorMapper   *mapper;        /* may be NULL: no mapper → technical */
  WnOutputMapping *mapping;       /* may be NULL: direct default */
  WnTrust          trust_origin_task;  /* the task level's trust as configured (for the inspector) */
} WnPolicy;

/* task over engine over default (mapper, retry, trust); mapping from the task only. */
WnPolicy *wn_policy_resolve (const WnPolicyLevel *task, const WnPolicyLevel *engine);
WnPolicy *wn_policy_ref     (WnPolicy *policy);
void      wn_policy_unref   (WnPolicy *policy);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WnPolicy, wn_policy_unref)
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (WnPolicyLevel, wn_policy_level_clear)

G_END_DECLS

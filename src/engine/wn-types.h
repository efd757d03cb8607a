/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-types.h — small types shared by every engine module. */
#pragma once

#if !defined (WINNOW_INSIDE) && !defined (WINNOW_COMPILATION)
# error "Only winnow.h can be included directly"
#endif

#include <glib.h>

G_BEGIN_DECLS

/* Virtual time: microseconds since the simulation started (t = 0). */
typedef gint64 WnTime;

#define WN_TIME_NEVER G_MAXINT64
/* The last instant of virtual time: WN_TIME_NEVER stands for "never", so
 * nothing can be due at it. The longest duration a file may give, too. */
#define WN_TIME_MAX (WN_TIME_NEVER - 1)
#define WN_USEC_PER_MSEC ((WnTime) 1000)
#define WN_USEC_PER_SEC  ((WnTime) 1000000)

/* t + d (d ≥ 0) in *sum; FALSE when that is past WN_TIME_MAX (the sum is
 * then WN_TIME_MAX: a lock or gate that far away lasts to the end of time). */
static inline gboolean
wn_time_add (WnTime  t,
             WnTime  d,
             WnTime *sum)
{
  if (d > WN_TIME_MAX - t)
    {
      *sum = WN_TIME_MAX;
      return FALSE;
    }
  *sum = t + d;
  return TRUE;
}

/* Trust mode of a worker-dispatched task (SRD-039). UNSET is the resolution
 * sentinel: "not configured at this level".
 *
 * The engine's enums have GTypes (wn-enum-types.h, WN_TYPE_TRUST and so on)
 * whose nicks are the names the files and the journal use ("workerTrusted",
 * "retryScheduled", "startEvent"), so a GSettings enum key with those nicks
 * binds to an enum property directly. */
typedef enum {
  WN_TRUST_UNSET = 0,
  WN_TRUST_WORKER_TRUSTED,        /*< nick=workerTrusted >*/
  WN_TRUST_ENGINE_AUTHORITATIVE,  /*< nick=engineAuthoritative >*/
} WnTrust;

/* What the engine does with a failed task. */
typedef enum {
  WN_ON_EXHAUSTED_UNSET = 0,
  WN_ON_EXHAUSTED_FAIL,
  WN_ON_EXHAUSTED_INCIDENT,
} WnOnExhausted;

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-lab-error.h — the policy lab's error domain. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define WN_LAB_ERROR (wn_lab_error_quark ())
GQuark wn_lab_error_quark (void);

typedef enum {
  WN_LAB_ERROR_INVALID,     /* a sweep file or a summary row that is not valid */
  WN_LAB_ERROR_MISMATCH,    /* rows of different sweeps, or of one variant that disagree */
  WN_LAB_ERROR_DUPLICATE,   /* the same seed of a variant twice in a merge */
  WN_LAB_ERROR_SHARD,       /* a shard spec that is not K/N with 1 ≤ K ≤ N */
} WnLabError;

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-rng.h — the run's seeded PRNG (xoshiro256**, seeded by splitmix64). */
#pragma once

#if !defined (WINNOW_INSIDE) && !defined (WINNOW_COMPILATION)
# error "Only winnow.h can be included directly"
#endif

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint64 s[4];
} WnRng;

void     wn_rng_init      (WnRng *rng, guint64 seed);
guint64  wn_rng_next      (WnRng *rng);
/* Uniform in [0, 1). */
double   wn_rng_double    (WnRng *rng);
/* Uniform in [0, bound] inclusive; bound ≥ 0. */
gint64   wn_rng_range     (WnRng *rng, gint64 bound);

G_END_DECLS

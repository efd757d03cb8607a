/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-rng.c — xoshiro256** (Blackman & Vigna), its state filled by splitmix64. */
#include "config.h"

#include "wn-rng.h"

static inline guint64
rotl (guint64 x,
      int     k)
{
  return (x << k) | (x >> (64 - k));
}

static guint64
splitmix64_next (guint64 *state)
{
  guint64 z = (*state += G_GUINT64_CONSTANT (0x9e3779b97f4a7c15));

  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94d049bb133111eb);
  return z ^ (z >> 31);
}

void
wn_rng_init (WnRng   *rng,
             guint64  seed)
{
  guint64 state = seed;
  guint i;

  g_return_if_fail (rng != NULL);

  /* splitmix64 never yields four zero words in a row, so the state is valid. */
  for (i = 0; i < G_N_ELEMENTS (rng->s); i++)
    rng->s[i] = splitmix64_next (&state);
}

guint64
wn_rng_next (WnRng *rng)
{
  guint64 *s;
  guint64 result;
  guint64 t;

  g_return_val_if_fail (rng != NULL, 0);

  s = rng->s;
  result = rotl (s[1] * 5, 7) * 9;
  t = s[1] << 17;

  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl (s[3], 45);

  return result;
}

double
wn_rng_double (WnRng *rng)
{
  /* The top 53 bits, scaled by 2^-53. */
  return (double) (wn_rng_next (rng) >> 11) * (1.0 / 9007199254740992.0);
}

gint64
wn_rng_range (WnRng  *rng,
              gint64  bound)
{
  guint64 span;
  guint64 threshold;
  guint64 r;

  g_return_val_if_fail (rng != NULL, 0);
  g_return_val_if_fail (bound >= 0, 0);

  /* span ≤ 2^63, never 0. Values below `threshold` = 2^64 mod span are
   * rejected so that every residue is equally likely (one draw always happens,
   * even for bound 0, so the stream does not depend on the bound). */
  span = (guint64) bound + 1;
  threshold = (0 - span) % span;
  do
    r = wn_rng_next (rng);
  while (r < threshold);

  return (gint64) (r % span);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Retry policies (semantics §6.3) and the run's PRNG they draw jitter from. */
#include <string.h>

#include "wn-test-util.h"

#define MS(x)  ((WnTime) (x) * WN_USEC_PER_MSEC)
#define SEC(x) ((WnTime) (x) * WN_USEC_PER_SEC)

/* Asks the policy about execution n; returns the backoff, or -1 when exhausted. */
static WnTime
ask (const WnRetryPolicy *policy,
     guint                n,
     WnRng               *rng)
{
  WnTime backoff = -42;

  if (wn_retry_policy_retry (policy, n, rng, &backoff))
    {
      g_assert_cmpint (backoff, >=, 0);
      return backoff;
    }
  g_assert_cmpint (backoff, ==, 0);
  return -1;
}

/* --- the PRNG --------------------------------------------------------- */

static void
test_rng_reference_vectors (void)
{
  WnRng rng;

  /* xoshiro256** from the state {1, 2, 3, 4} (the reference implementation). */
  rng.s[0] = 1;
  rng.s[1] = 2;
  rng.s[2] = 3;
  rng.s[3] = 4;
  g_assert_cmpuint (wn_rng_next (&rng), ==, 11520);
  g_assert_cmpuint (wn_rng_next (&rng), ==, 0);
  g_assert_cmpuint (wn_rng_next (&rng), ==, 1509978240);
  g_assert_cmpuint (wn_rng_next (&rng), ==, G_GUINT64_CONSTANT (1215971899390074240));

  /* Seeding fills the state with splitmix64's stream. */
  wn_rng_init (&rng, 0);
  g_assert_cmpuint (rng.s[0], ==, G_GUINT64_CONSTANT (0xe220a8397b1dcdaf));
  g_assert_cmpuint (rng.s[1], ==, G_GUINT64_CONSTANT (0x6e789e6aa1b965f4));
  g_assert_cmpuint (rng.s[2], ==, G_GUINT64_CONSTANT (0x06c45d188009454f));
  g_assert_cmpuint (rng.s[3], ==, G_GUINT64_CONSTANT (0xf88bb8a8724c81ec));

  /* The stream of seed 1 (the scenario default) is pinned: journals depend on it. */
  wn_rng_init (&rng, 1);
  g_assert_cmpuint (wn_rng_next (&rng), ==, G_GUINT64_CONSTANT (0xb3f2af6d0fc710c5));
  g_assert_cmpuint (wn_rng_next (&rng), ==, G_GUINT64_CONSTANT (0x853b559647364cea));
  g_assert_cmpuint (wn_rng_next (&rng), ==, G_GUINT64_CONSTANT (0x92f89756082a4514));
}

static void
test_rng_seeds (void)
{
  WnRng a, b, c;
  guint same_ac = 0;
  guint i;

  wn_rng_init (&a, 42);
  wn_rng_init (&b, 42);
  wn_rng_init (&c, 43);
  for (i = 0; i < 1000; i++)
    {
      guint64 va = wn_rng_next (&a);

      g_assert_cmpuint (va, ==, wn_rng_next (&b));
      if (va == wn_rng_next (&c))
        same_ac++;
    }
  g_assert_cmpuint (same_ac, ==, 0);
}

static void
test_rng_double (void)
{
  WnRng rng;
  double sum = 0;
  guint i;

  wn_rng_init (&rng, 7);
  for (i = 0; i < 10000; i++)
    {
      double d = wn_rng_double (&rng);

      g_assert_cmpfloat (d, >=, 0.0);
      g_assert_cmpfloat (d, <, 1.0);
      sum += d;
    }
  g_assert_cmpfloat_with_epsilon (sum / 10000, 0.5, 0.02);
}

static void
test_rng_range (void)
{
  guint counts[4] = { 0, };
  WnRng rng;
  guint i;

  wn_rng_init (&rng, 3);

  /* bound 0 → always 0 */
  for (i = 0; i < 100; i++)
    g_assert_cmpint (wn_rng_range (&rng, 0), ==, 0);

  /* inclusive and even: every value of [0, 3] about a quarter of the time */
  for (i = 0; i < 40000; i++)
    {
      gint64 v = wn_rng_range (&rng, 3);

      g_assert_cmpint (v, >=, 0);
      g_assert_cmpint (v, <=, 3);
      counts[v]++;
    }
  for (i = 0; i < G_N_ELEMENTS (counts); i++)
    {
      g_assert_cmpuint (counts[i], >, 9500);
      g_assert_cmpuint (counts[i], <, 10500);
    }

  /* the widest bound works */
  for (i = 0; i < 100; i++)
    g_assert_cmpint (wn_rng_range (&rng, G_MAXINT64), >=, 0);
}

static void
test_rng_range_unbiased (void)
{
  /* span = bound + 1 ≈ 0.4 · 2^64, so 2^64 ≈ 2.5 spans: a plain `% span` would
   * give the lower half of the range 3 chances in 5 instead of 1 in 2. */
  gint64 bound = (G_MAXINT64 / 5) * 4;
  guint low = 0;
  WnRng rng;
  guint i;

  wn_rng_init (&rng, 11);
  for (i = 0; i < 20000; i++)
    if (wn_rng_range (&rng, bound) < bound / 2)
      low++;

  /* Without rejection `low` would be about 12 000. */
  g_assert_cmpuint (low, >, 9500);
  g_assert_cmpuint (low, <, 10500);
}

/* --- the policies ----------------------------------------------------- */

static void
test_none (void)
{
  WnRetryPolicy policy = wn_retry_policy_none ();
  guint n;

  g_assert_cmpint (policy.kind, ==, WN_RETRY_NONE);
  for (n = 1; n <= 5; n++)
    g_assert_cmpint (ask (&policy, n, NULL), ==, -1);
}

static void
test_fixed (void)
{
  WnRetryPolicy policy = wn_retry_policy_fixed (3, SEC (2));

  g_assert_cmpint (policy.kind, ==, WN_RETRY_FIXED);
  g_assert_cmpuint (policy.max_attempts, ==, 3);
  g_assert_cmpint (policy.delay, ==, SEC (2));

  g_assert_cmpint (ask (&policy, 1, NULL), ==, SEC (2));
  g_assert_cmpint (ask (&policy, 2, NULL), ==, SEC (2));
  g_assert_cmpint (ask (&policy, 3, NULL), ==, -1);
  g_assert_cmpint (ask (&policy, 4, NULL), ==, -1);
}

static void
test_fixed_single_attempt (void)
{
  WnRetryPolicy policy = wn_retry_policy_fixed (1, SEC (1));

  g_assert_cmpint (ask (&policy, 1, NULL), ==, -1);
}

static void
test_exponential (void)
{
  WnRetryPolicy policy = wn_retry_policy_exponential (4, MS (100), SEC (3600), FALSE);

  g_assert_cmpint (policy.kind, ==, WN_RETRY_EXPONENTIAL);
  g_assert_cmpint (ask (&policy, 1, NULL), ==, MS (100));
  g_assert_cmpint (ask (&policy, 2, NULL), ==, MS (200));
  g_assert_cmpint (ask (&policy, 3, NULL), ==, MS (400));
  g_assert_cmpint (ask (&policy, 4, NULL), ==, -1);
}

static void
test_exponential_cap (void)
{
  WnRetryPolicy policy = wn_retry_policy_exponential (10, SEC (1), SEC (2), FALSE);

  g_assert_cmpint (ask (&policy, 1, NULL), ==, SEC (1));
  g_assert_cmpint (ask (&policy, 2, NULL), ==, SEC (2));
  g_assert_cmpint (ask (&policy, 3, NULL), ==, SEC (2));
  g_assert_cmpint (ask (&policy, 9, NULL), ==, SEC (2));
  g_assert_cmpint (ask (&policy, 10, NULL), ==, -1);
}

static void
test_exponential_overflow (void)
{
  WnRetryPolicy capped = wn_retry_policy_exponential (G_MAXUINT, SEC (1), SEC (30), FALSE);
  WnRetryPolicy uncapped = wn_retry_policy_exponential (G_MAXUINT, SEC (1), G_MAXINT64, FALSE);
  WnRetryPolicy huge_base = wn_retry_policy_exponential (G_MAXUINT, G_MAXINT64 / 2, G_MAXINT64, FALSE);

  /* a shift past the width of the type, or far past it, is the cap */
  g_assert_cmpint (ask (&capped, 63, NULL), ==, SEC (30));
  g_assert_cmpint (ask (&capped, 64, NULL), ==, SEC (30));
  g_assert_cmpint (ask (&capped, 65, NULL), ==, SEC (30));
  g_assert_cmpint (ask (&capped, 1000, NULL), ==, SEC (30));
  g_assert_cmpint (ask (&capped, G_MAXUINT - 1, NULL), ==, SEC (30));

  /* with the widest cap: exact while it fits, the cap once it would not */
  g_assert_cmpint (ask (&uncapped, 40, NULL), ==, SEC (1) << 39);
  g_assert_cmpint (ask (&uncapped, 44, NULL), ==, SEC (1) << 43);
  g_assert_cmpint (ask (&uncapped, 45, NULL), ==, G_MAXINT64);
  g_assert_cmpint (ask (&uncapped, 200, NULL), ==, G_MAXINT64);

  g_assert_cmpint (ask (&huge_base, 1, NULL), ==, G_MAXINT64 / 2);
  g_assert_cmpint (ask (&huge_base, 2, NULL), ==, (G_MAXINT64 / 2) * 2);
  g_assert_cmpint (ask (&huge_base, 3, NULL), ==, G_MAXINT64);
}

static void
test_exponential_zero_base (void)
{
  WnRetryPolicy policy = wn_retry_policy_exponential (3, 0, SEC (1), TRUE);
  WnRng rng;

  wn_rng_init (&rng, 1);
  g_assert_cmpint (ask (&policy, 1, &rng), ==, 0);
  g_assert_cmpint (ask (&policy, 2, &rng), ==, 0);
  g_assert_cmpint (ask (&policy, 3, &rng), ==, -1);
}

/* Draws `count` jittered backoffs for execution n into a new array. */
static GArray *
draw_jitter (const WnRetryPolicy *policy,
             guint                n,
             guint64              seed,
             guint                count)
{
  GArray *draws = g_array_sized_new (FALSE, FALSE, sizeof (WnTime), count);
  WnRng rng;
  guint i;

  wn_rng_init (&rng, seed);
  for (i = 0; i < count; i++)
    {
      WnTime b = ask (policy, n, &rng);

      g_array_append_val (draws, b);
    }
  return draws;
}

static void
test_jitter_range (void)
{
  WnRetryPolicy policy = wn_retry_policy_exponential (5, MS (100), SEC (30), TRUE);
  guint n;

  for (n = 1; n <= 4; n++)
    {
      g_autoptr(GArray) draws = draw_jitter (&policy, n, 1, 10000);
      WnTime d = MS (100) << (n - 1);
      WnTime lo = G_MAXINT64;
      WnTime hi = 0;
      double sum = 0;
      guint i;

      for (i = 0; i < draws->len; i++)
        {
          WnTime b = g_array_index (draws, WnTime, i);

          g_assert_cmpint (b, >=, d / 2);
          g_assert_cmpint (b, <=, d);
          lo = MIN (lo, b);
          hi = MAX (hi, b);
          sum += b;
        }

      /* It really spreads over [d/2, d]: both ends reached closely, mean ≈ 3d/4. */
      g_assert_cmpint (lo, <, d / 2 + d / 100);
      g_assert_cmpint (hi, >, d - d / 100);
      g_assert_cmpfloat_with_epsilon (sum / draws->len, 0.75 * d, 0.01 * d);
    }

  /* n = 5 is the last attempt: exhausted, no draw needed. */
  g_assert_cmpint (ask (&policy, 5, NULL), ==, -1);
}

static void
test_jitter_capped (void)
{
  WnRetryPolicy policy = wn_retry_policy_exponential (10, SEC (1), SEC (2), TRUE);
  g_autoptr(GArray) draws = draw_jitter (&policy, 8, 5, 10000);
  guint i;

  for (i = 0; i < draws->len; i++)
    {
      g_assert_cmpint (g_array_index (draws, WnTime, i), >=, SEC (1));
      g_assert_cmpint (g_array_index (draws, WnTime, i), <=, SEC (2));
    }
}

static void
test_jitter_odd_and_tiny (void)
{
  /* d = 1µs: the backoff is 0 or 1, and both happen */
  WnRetryPolicy one = wn_retry_policy_exponential (3, 1, 1, TRUE);
  /* d = 3µs: within [1, 3] */
  WnRetryPolicy three = wn_retry_policy_exponential (3, 3, 3, TRUE);
  g_autoptr(GArray) a = draw_jitter (&one, 1, 9, 1000);
  g_autoptr(GArray) b = draw_jitter (&three, 1, 9, 1000);
  gboolean seen[4] = { FALSE, };
  guint i;

  for (i = 0; i < a->len; i++)
    {
      WnTime v = g_array_index (a, WnTime, i);

      g_assert_cmpint (v, >=, 0);
      g_assert_cmpint (v, <=, 1);
      seen[v] = TRUE;
    }
  g_assert_true (seen[0]);
  g_assert_true (seen[1]);

  memset (seen, 0, sizeof seen);
  for (i = 0; i < b->len; i++)
    {
      WnTime v = g_array_index (b, WnTime, i);

      g_assert_cmpint (v, >=, 1);
      g_assert_cmpint (v, <=, 3);
      seen[v] = TRUE;
    }
  g_assert_true (seen[1]);
  g_assert_true (seen[2]);
  g_assert_true (seen[3]);
}

static void
test_jitter_reproducible (void)
{
  WnRetryPolicy policy = wn_retry_policy_exponential (3, MS (500), SEC (30), TRUE);
  g_autoptr(GArray) first = draw_jitter (&policy, 2, 42, 10000);
  g_autoptr(GArray) again = draw_jitter (&policy, 2, 42, 10000);
  g_autoptr(GArray) other = draw_jitter (&policy, 2, 43, 10000);
  guint differ = 0;
  guint i;

  g_assert_cmpmem (first->data, first->len * sizeof (WnTime),
                   again->data, again->len * sizeof (WnTime));

  for (i = 0; i < first->len; i++)
    if (g_array_index (first, WnTime, i) != g_array_index (other, WnTime, i))
      differ++;
  g_assert_cmpuint (differ, >, 9900);
}

static void
test_no_jitter_needs_no_rng (void)
{
  WnRetryPolicy exp = wn_retry_policy_exponential (3, MS (500), SEC (30), FALSE);
  WnRetryPolicy fixed = wn_retry_policy_fixed (3, MS (300));

  /* backoff may be NULL too */
  g_assert_true (wn_retry_policy_retry (&exp, 1, NULL, NULL));
  g_assert_false (wn_retry_policy_retry (&exp, 3, NULL, NULL));
  g_assert_true (wn_retry_policy_retry (&fixed, 2, NULL, NULL));
  g_assert_false (wn_retry_policy_retry (&fixed, 3, NULL, NULL));
}

static void
test_default (void)
{
  WnRetryPolicy policy = wn_retry_policy_default ();
  WnRng rng;
  WnTime b;

  g_assert_cmpint (policy.kind, ==, WN_RETRY_EXPONENTIAL);
  g_assert_cmpuint (policy.max_attempts, ==, 3);
  g_assert_cmpint (policy.base, ==, MS (500));
  g_assert_cmpint (policy.max, ==, SEC (30));
  g_assert_true (policy.jitter);

  wn_rng_init (&rng, 1);
  b = ask (&policy, 1, &rng);
  g_assert_cmpint (b, >=, MS (250));
  g_assert_cmpint (b, <=, MS (500));
  b = ask (&policy, 2, &rng);
  g_assert_cmpint (b, >=, MS (500));
  g_assert_cmpint (b, <=, MS (1000));
  g_assert_cmpint (ask (&policy, 3, &rng), ==, -1);
}

static void
test_describe (void)
{
  static const struct {
    WnRetryPolicy policy;
    const char   *text;
  } cases[] = {
    { { WN_RETRY_NONE, 0, 0, 0, 0, FALSE }, "no retry" },
    { { WN_RETRY_FIXED, 3, MS (300), 0, 0, FALSE }, "fixed ×3, 300ms" },
    { { WN_RETRY_FIXED, 5, MS (1500), 0, 0, FALSE }, "fixed ×5, 1.5s" },
    { { WN_RETRY_EXPONENTIAL, 3, 0, MS (500), SEC (30), TRUE }, "exponential ×3, 500ms→30s, jitter" },
    { { WN_RETRY_EXPONENTIAL, 4, 0, MS (100), SEC (120), FALSE }, "exponential ×4, 100ms→2m" },
  };
  g_autofree char *dflt = NULL;
  WnRetryPolicy p;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = wn_retry_policy_describe (&cases[i].policy);

      g_assert_cmpstr (text, ==, cases[i].text);
    }

  p = wn_retry_policy_default ();
  dflt = wn_retry_policy_describe (&p);
  g_assert_cmpstr (dflt, ==, "exponential ×3, 500ms→30s, jitter");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/engine/Rng/reference-vectors", test_rng_reference_vectors);
  g_test_add_func ("/engine/Rng/seeds", test_rng_seeds);
  g_test_add_func ("/engine/Rng/double", test_rng_double);
  g_test_add_func ("/engine/Rng/range", test_rng_range);
  g_test_add_func ("/engine/Rng/range-unbiased", test_rng_range_unbiased);

  g_test_add_func ("/engine/RetryPolicy/none-never-retries", test_none);
  g_test_add_func ("/engine/RetryPolicy/fixed", test_fixed);
  g_test_add_func ("/engine/RetryPolicy/fixed-single-attempt", test_fixed_single_attempt);
  g_test_add_func ("/engine/RetryPolicy/exponential", test_exponential);
  g_test_add_func ("/engine/RetryPolicy/exponential-cap", test_exponential_cap);
  g_test_add_func ("/engine/RetryPolicy/exponential-overflow", test_exponential_overflow);
  g_test_add_func ("/engine/RetryPolicy/exponential-zero-base", test_exponential_zero_base);
  g_test_add_func ("/engine/RetryPolicy/jitter-range", test_jitter_range);
  g_test_add_func ("/engine/RetryPolicy/jitter-capped", test_jitter_capped);
  g_test_add_func ("/engine/RetryPolicy/jitter-odd-and-tiny", test_jitter_odd_and_tiny);
  g_test_add_func ("/engine/RetryPolicy/jitter-reproducible", test_jitter_reproducible);
  g_test_add_func ("/engine/RetryPolicy/no-jitter-needs-no-rng", test_no_jitter_needs_no_rng);
  g_test_add_func ("/engine/RetryPolicy/default", test_default);
  g_test_add_func ("/engine/RetryPolicy/describe", test_describe);

  return g_test_run ();
}

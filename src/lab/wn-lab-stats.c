/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-lab-stats.c — closed-form 95 % intervals (see the header). */
#include "config.h"

#include <math.h>

#include "wn-lab-stats.h"

void
wn_lab_wilson (guint64        k,
               guint64        n,
               double         z,
               WnLabInterval *out)
{
  double p, z2n, centre, half;

  if (n == 0)
    {
      *out = (WnLabInterval) { 0.0, 0.0, 1.0 };
      return;
    }
  p = (double) k / (double) n;
  z2n = z * z / (double) n;
  centre = (p + z2n / 2.0) / (1.0 + z2n);
  half = z / (1.0 + z2n) * sqrt (p * (1.0 - p) / (double) n + z2n / (4.0 * (double) n));
  out->value = p;
  out->lo = MAX (0.0, centre - half);
  out->hi = MIN (1.0, centre + half);
  /* at k = 0 and k = n the bounds are 0 and 1 exactly, not rounding noise */
  if (k == 0)
    out->lo = 0.0;
  if (k == n)
    out->hi = 1.0;
}

void
wn_lab_rate_difference (guint64        k1,
                        guint64        n1,
                        guint64        k2,
                        guint64        n2,
                        WnLabInterval *out)
{
  WnLabInterval a, b;
  double d;

  wn_lab_wilson (k1, n1, WN_LAB_Z95, &a);
  wn_lab_wilson (k2, n2, WN_LAB_Z95, &b);
  d = a.value - b.value;
  out->value = d;
  out->lo = d - sqrt ((a.value - a.lo) * (a.value - a.lo) + (b.hi - b.value) * (b.hi - b.value));
  out->hi = d + sqrt ((a.hi - a.value) * (a.hi - a.value) + (b.value - b.lo) * (b.value - b.lo));
}

double
wn_lab_t975 (guint df)
{
  static const double table[] = {
    12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004,
    2.262157, 2.228139, 2.200985, 2.178813, 2.160369, 2.144787, 2.131450, 2.119905,
    2.109816, 2.100922, 2.093024, 2.085963, 2.079614, 2.073873, 2.068658, 2.063899,
    2.059539, 2.055529, 2.051831, 2.048407, 2.045230, 2.042272,
  };
  const double z = WN_LAB_Z95;
  double n;

  g_return_val_if_fail (df >= 1, NAN);
  if (df <= G_N_ELEMENTS (table))
    return table[df - 1];
  /* Cornish–Fisher expansion: below 1e-4 off from df = 31 on */
  n = (double) df;
  return z + (z * z * z + z) / (4.0 * n) + (5.0 * pow (z, 5) + 16.0 * z * z * z + 3.0 * z) / (96.0 * n * n);
}

double
wn_lab_stddev (const double *values,
               guint         n)
{
  double mean = 0.0, ss = 0.0;

  if (n < 2)
    return 0.0;
  for (guint i = 0; i < n; i++)
    mean += values[i];
  mean /= (double) n;
  for (guint i = 0; i < n; i++)
    ss += (values[i] - mean) * (values[i] - mean);
  return sqrt (ss / (double) (n - 1));
}

void
wn_lab_percentile_interval (const WnLabHistogram *pooled,
                            double                p,
                            const double         *per_seed,
                            guint                 n_seeds,
                            WnLabInterval        *out)
{
  guint64 n = wn_lab_histogram_get_count (pooled);
  double value = (double) wn_lab_histogram_percentile (pooled, p);

  out->value = value;
  if (n == 0)
    {
      out->lo = out->hi = 0.0;
      return;
    }
  if (n_seeds >= 2)
    {
      double half = wn_lab_t975 (n_seeds - 1) * wn_lab_stddev (per_seed, n_seeds) / sqrt ((double) n_seeds);

      out->lo = MAX (0.0, value - half);
      out->hi = value + half;
    }
  else
    {
      double q = p / 100.0;
      double np = (double) n * q;
      double spread = WN_LAB_Z95 * sqrt ((double) n * q * (1.0 - q));
      double l = floor (np - spread), u = ceil (np + spread);

      out->lo = (double) wn_lab_histogram_value_at_rank (pooled, (guint64) CLAMP (l, 1.0, (double) n));
      out->hi = (double) wn_lab_histogram_value_at_rank (pooled, (guint64) CLAMP (u, 1.0, (double) n));
      out->lo = MIN (out->lo, value);
      out->hi = MAX (out->hi, value);
    }
}

void
wn_lab_interval_difference (const WnLabInterval *a,
                            const WnLabInterval *b,
                            WnLabInterval       *out)
{
  double d = a->value - b->value;
  double lo = sqrt ((a->value - a->lo) * (a->value - a->lo) + (b->hi - b->value) * (b->hi - b->value));
  double hi = sqrt ((a->hi - a->value) * (a->hi - a->value) + (b->value - b->lo) * (b->value - b->lo));

  out->value = d;
  out->lo = d - lo;
  out->hi = d + hi;
}

gboolean
wn_lab_interval_excludes_zero (const WnLabInterval *difference)
{
  return difference->lo > 0.0 || difference->hi < 0.0;
}

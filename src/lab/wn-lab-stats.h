/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-lab-stats.h — confidence intervals for the policy lab (95 %).
 *
 * Rates: Wilson's score interval. A difference of two rates: Newcombe's
 * hybrid score interval, built from the two Wilson intervals. A percentile:
 * across seeds, the pooled value ± t(K−1) · s / √K with s the standard
 * deviation of the seeds' own percentiles; with one seed, the distribution-free
 * order-statistic interval [x(l), x(u)] with l, u = n·p ∓ z·√(n·p·(1−p)).
 * Everything is closed-form: no random draws, the same numbers everywhere.
 */
#pragma once

#include <glib.h>
#include "wn-lab-histogram.h"

G_BEGIN_DECLS

/* The standard normal's 0.975 quantile. */
#define WN_LAB_Z95 1.959963984540054

typedef struct {
  double value;
  double lo;
  double hi;
} WnLabInterval;

/* k successes out of n; n = 0 gives [0, 1] around 0. */
void   wn_lab_wilson              (guint64 k, guint64 n, double z, WnLabInterval *out);
/* p1 − p2 for k1/n1 and k2/n2 (Newcombe 1998, method 10). */
void   wn_lab_rate_difference     (guint64 k1, guint64 n1, guint64 k2, guint64 n2,
                                   WnLabInterval *out);
/* Student's t 0.975 quantile with df ≥ 1 degrees of freedom. */
double wn_lab_t975                (guint df);
/* The sample standard deviation of n values (0 for n < 2). */
double wn_lab_stddev              (const double *values, guint n);
/* The p-th percentile (0 < p < 100) of `pooled` with its interval: across
 * the n_seeds per-seed values when n_seeds ≥ 2, else by order statistics. */
void   wn_lab_percentile_interval (const WnLabHistogram *pooled, double p,
                                   const double *per_seed, guint n_seeds,
                                   WnLabInterval *out);
/* a − b with the half-widths of the two intervals combined in quadrature
 * (for percentiles). */
void   wn_lab_interval_difference (const WnLabInterval *a, const WnLabInterval *b,
                                   WnLabInterval *out);
/* Whether an interval of a difference excludes 0. */
gboolean wn_lab_interval_excludes_zero (const WnLabInterval *difference);

G_END_DECLS

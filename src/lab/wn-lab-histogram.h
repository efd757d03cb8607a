/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-lab-histogram.h — a mergeable log-bucket histogram of durations (µs).
 *
 * Values below 128 µs have a bucket each; above, every power of two
 * [2^k, 2^(k+1)) is cut into 128 equal buckets, so a bucket is at most 1/128 of
 * its lower bound wide. A percentile is answered with the middle of its bucket
 * (clamped to the exact minimum and maximum), within WN_LAB_HISTOGRAM_REL_ERROR
 * of the exact nearest-rank value. Bucket boundaries are integers fixed by the
 * scheme, so two histograms merge exactly by adding counts, in any order.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include "wn-lab-error.h"

G_BEGIN_DECLS

#define WN_LAB_HISTOGRAM_SCHEME "log2-128"
/* Half a bucket over its lower bound: 1/256. */
#define WN_LAB_HISTOGRAM_REL_ERROR (1.0 / 256.0)

typedef struct _WnLabHistogram WnLabHistogram;

WnLabHistogram *wn_lab_histogram_new        (void);
WnLabHistogram *wn_lab_histogram_copy       (const WnLabHistogram *self);
void            wn_lab_histogram_free       (WnLabHistogram *self);

/* value ≥ 0 (negative values count as 0). */
void            wn_lab_histogram_add        (WnLabHistogram *self, gint64 value);
void            wn_lab_histogram_add_n      (WnLabHistogram *self, gint64 value, guint64 n);
void            wn_lab_histogram_merge      (WnLabHistogram *self, const WnLabHistogram *other);

guint64         wn_lab_histogram_get_count  (const WnLabHistogram *self);
/* Exact; 0 when empty. */
gint64          wn_lab_histogram_get_min    (const WnLabHistogram *self);
gint64          wn_lab_histogram_get_max    (const WnLabHistogram *self);
/* Exact mean (the sum is kept); 0 when empty. */
double          wn_lab_histogram_get_mean   (const WnLabHistogram *self);
/* The value of rank `rank` (1-based, ≤ count) in sorted order, within the
 * bound; 0 when empty. */
gint64          wn_lab_histogram_value_at_rank (const WnLabHistogram *self, guint64 rank);
/* Nearest-rank percentile, 0 < p ≤ 100. */
gint64          wn_lab_histogram_percentile (const WnLabHistogram *self, double p);

/* Each non-empty bucket in increasing order: its lower bound, width and count. */
typedef void (*WnLabBucketFunc) (gint64 lower, gint64 width, guint64 count, gpointer data);
void            wn_lab_histogram_foreach    (const WnLabHistogram *self, WnLabBucketFunc func, gpointer data);

/* The bucket that holds `value`: its index, lower bound and width. */
guint           wn_lab_histogram_bucket_of  (gint64 value);
gint64          wn_lab_histogram_bucket_lower (guint index);
gint64          wn_lab_histogram_bucket_width (guint index);

/* {"scheme":"log2-128","count":N,"min":…,"max":…,"sum":…,"buckets":[[lower,count],…]}
 * with the non-empty buckets in increasing order. */
JsonNode       *wn_lab_histogram_to_json    (const WnLabHistogram *self);
/* NULL with WN_LAB_ERROR_INVALID in *error for anything
 * to_json would not write: another scheme, a lower bound that is not a
 * bucket's, counts that do not add up. */
WnLabHistogram *wn_lab_histogram_from_json  (JsonNode *node, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WnLabHistogram, wn_lab_histogram_free)

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-lab-histogram.c — log-bucket histograms (see the header for the scheme). */
#include "config.h"

#include <string.h>

#include "wn-lab-histogram.h"

/* Values 0 … 127 exactly; then 128 buckets per power of two from 2^7 to 2^62. */
#define SUB_BITS 7
#define SUB      (1u << SUB_BITS)
#define N_BUCKETS (SUB + (63 - SUB_BITS) * SUB)

struct _WnLabHistogram {
  /* buckets first … first + n_counts − 1 only: memory follows the values'
   * spread (40 ms to 40 s is 1 280 buckets), not the scheme's 7 296 */
  guint64 *counts;
  guint    first;
  guint    n_counts;
  guint64  count;
  gint64   min;
  gint64   max;
  gint64   sum;        /* saturates at G_MAXINT64 */
};

guint
wn_lab_histogram_bucket_of (gint64 value)
{
  guint k;

  if (value < (gint64) SUB)
    return value < 0 ? 0 : (guint) value;
  k = 63 - (guint) __builtin_clzll ((unsigned long long) value);    /* 2^k ≤ value */
  return SUB + (k - SUB_BITS) * SUB + (guint) ((value >> (k - SUB_BITS)) - SUB);
}

gint64
wn_lab_histogram_bucket_lower (guint index)
{
  guint k;

  if (index < SUB)
    return index;
  k = (index - SUB) / SUB + SUB_BITS;
  return (gint64) (SUB + (index - SUB) % SUB) << (k - SUB_BITS);
}

gint64
wn_lab_histogram_bucket_width (guint index)
{
  if (index < SUB)
    return 1;
  return (gint64) 1 << ((index - SUB) / SUB);
}

WnLabHistogram *
wn_lab_histogram_new (void)
{
  return g_new0 (WnLabHistogram, 1);
}

WnLabHistogram *
wn_lab_histogram_copy (const WnLabHistogram *self)
{
  WnLabHistogram *copy = g_new0 (WnLabHistogram, 1);

  *copy = *self;
  if (self->counts != NULL)
    copy->counts = g_memdup2 (self->counts, self->n_counts * sizeof (guint64));
  return copy;
}

void
wn_lab_histogram_free (WnLabHistogram *self)
{
  if (self == NULL)
    return;
  g_free (self->counts);
  g_free (self);
}

/* Make buckets lo … hi part of the stored range. */
static void
cover (WnLabHistogram *self,
       guint           lo,
       guint           hi)
{
  guint first, last;
  guint64 *counts;

  if (self->counts != NULL && lo >= self->first && hi < self->first + self->n_counts)
    return;
  first = self->counts != NULL ? MIN (lo, self->first) : lo;
  last = self->counts != NULL ? MAX (hi, self->first + self->n_counts - 1) : hi;
  counts = g_new0 (guint64, last - first + 1);
  if (self->counts != NULL)
    memcpy (counts + (self->first - first), self->counts, self->n_counts * sizeof (guint64));
  g_free (self->counts);
  self->counts = counts;
  self->first = first;
  self->n_counts = last - first + 1;
}

static guint64
count_at (const WnLabHistogram *self,
          guint                 index)
{
  if (self->counts == NULL || index < self->first || index >= self->first + self->n_counts)
    return 0;
  return self->counts[index - self->first];
}

void
wn_lab_histogram_add_n (WnLabHistogram *self,
                        gint64          value,
                        guint64         n)
{
  if (n == 0)
    return;
  if (value < 0)
    value = 0;
  {
    guint index = wn_lab_histogram_bucket_of (value);

    cover (self, index, index);
    self->counts[index - self->first] += n;
  }
  if (self->count == 0 || value < self->min)
    self->min = value;
  if (self->count == 0 || value > self->max)
    self->max = value;
  self->count += n;
  if (n > (guint64) G_MAXINT64 / (guint64) MAX (value, 1) || self->sum > G_MAXINT64 - value * (gint64) n)
    self->sum = G_MAXINT64;
  else
    self->sum += value * (gint64) n;
}

void
wn_lab_histogram_add (WnLabHistogram *self,
                      gint64          value)
{
  wn_lab_histogram_add_n (self, value, 1);
}

void
wn_lab_histogram_merge (WnLabHistogram       *self,
                        const WnLabHistogram *other)
{
  if (other->count == 0)
    return;
  cover (self, other->first, other->first + other->n_counts - 1);
  for (guint i = 0; i < other->n_counts; i++)
    self->counts[other->first + i - self->first] += other->counts[i];
  if (self->count == 0 || other->min < self->min)
    self->min = other->min;
  if (self->count == 0 || other->max > self->max)
    self->max = other->max;
  self->count += other->count;
  self->sum = self->sum > G_MAXINT64 - other->sum ? G_MAXINT64 : self->sum + other->sum;
}

guint64
wn_lab_histogram_get_count (const WnLabHistogram *self)
{
  return self->count;
}

gint64
wn_lab_histogram_get_min (const WnLabHistogram *self)
{
  return self->min;
}

gint64
wn_lab_histogram_get_max (const WnLabHistogram *self)
{
  return self->max;
}

double
wn_lab_histogram_get_mean (const WnLabHistogram *self)
{
  return self->count == 0 ? 0.0 : (double) self->sum / (double) self->count;
}

gint64
wn_lab_histogram_value_at_rank (const WnLabHistogram *self,
                                guint64               rank)
{
  guint64 seen = 0;

  if (self->count == 0)
    return 0;
  rank = CLAMP (rank, 1, self->count);
  if (rank == 1)
    return self->min;
  if (rank == self->count)
    return self->max;
  for (guint i = self->first; i < self->first + self->n_counts; i++)
    {
      seen += count_at (self, i);
      if (seen >= rank)
        {
          /* the middle of the bucket (its values are lower … lower + width − 1) */
          gint64 value = wn_lab_histogram_bucket_lower (i) + (wn_lab_histogram_bucket_width (i) - 1) / 2;

          return CLAMP (value, self->min, self->max);
        }
    }
  return self->max;
}

void
wn_lab_histogram_foreach (const WnLabHistogram *self,
                          WnLabBucketFunc       func,
                          gpointer              data)
{
  for (guint i = self->first; self->counts != NULL && i < self->first + self->n_counts; i++)
    if (count_at (self, i) > 0)
      func (wn_lab_histogram_bucket_lower (i), wn_lab_histogram_bucket_width (i), count_at (self, i), data);
}

gint64
wn_lab_histogram_percentile (const WnLabHistogram *self,
                             double                p)
{
  guint64 rank;

  if (self->count == 0)
    return 0;
  /* nearest rank, as winnow-run's summary: ⌈p/100 · n⌉ */
  rank = (guint64) (p / 100.0 * (double) self->count + 0.999999);
  return wn_lab_histogram_value_at_rank (self, rank);
}

JsonNode *
wn_lab_histogram_to_json (const WnLabHistogram *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "scheme");
  json_builder_add_string_value (b, WN_LAB_HISTOGRAM_SCHEME);
  json_builder_set_member_name (b, "count");
  json_builder_add_int_value (b, (gint64) self->count);
  json_builder_set_member_name (b, "min");
  json_builder_add_int_value (b, self->min);
  json_builder_set_member_name (b, "max");
  json_builder_add_int_value (b, self->max);
  json_builder_set_member_name (b, "sum");
  json_builder_add_int_value (b, self->sum);
  json_builder_set_member_name (b, "buckets");
  json_builder_begin_array (b);
  for (guint i = self->first; self->counts != NULL && i < self->first + self->n_counts; i++)
    if (count_at (self, i) > 0)
      {
        json_builder_begin_array (b);
        json_builder_add_int_value (b, wn_lab_histogram_bucket_lower (i));
        json_builder_add_int_value (b, (gint64) count_at (self, i));
        json_builder_end_array (b);
      }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static gboolean
get_int (JsonObject  *o,
         const char  *key,
         gint64      *out)
{
  JsonNode *n = json_object_get_member (o, key);

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_INT64)
    return FALSE;
  *out = json_node_get_int (n);
  return *out >= 0;
}

WnLabHistogram *
wn_lab_histogram_from_json (JsonNode  *node,
                            GError   **error)
{
  g_autoptr(WnLabHistogram) h = wn_lab_histogram_new ();
  JsonObject *o;
  JsonArray *buckets;
  gint64 count, min, max, sum;
  guint64 total = 0;
  gint last = -1;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    goto invalid;
  o = json_node_get_object (node);
  if (g_strcmp0 (json_object_get_string_member_with_default (o, "scheme", ""), WN_LAB_HISTOGRAM_SCHEME) != 0)
    {
      g_set_error (error, WN_LAB_ERROR, WN_LAB_ERROR_INVALID,
                   "histogram: scheme must be \"%s\"", WN_LAB_HISTOGRAM_SCHEME);
      return NULL;
    }
  if (!get_int (o, "count", &count) || !get_int (o, "min", &min) || !get_int (o, "max", &max) ||
      !get_int (o, "sum", &sum) || !json_object_has_member (o, "buckets") ||
      !JSON_NODE_HOLDS_ARRAY (json_object_get_member (o, "buckets")))
    goto invalid;
  buckets = json_object_get_array_member (o, "buckets");
  for (guint i = 0; i < json_array_get_length (buckets); i++)
    {
      JsonNode *e = json_array_get_element (buckets, i);
      JsonArray *pair;
      gint64 lower, n;
      guint index;

      if (!JSON_NODE_HOLDS_ARRAY (e) || json_array_get_length (pair = json_node_get_array (e)) != 2 ||
          json_node_get_value_type (json_array_get_element (pair, 0)) != G_TYPE_INT64 ||
          json_node_get_value_type (json_array_get_element (pair, 1)) != G_TYPE_INT64)
        goto invalid;
      lower = json_array_get_int_element (pair, 0);
      n = json_array_get_int_element (pair, 1);
      if (lower < 0 || n <= 0 || count == 0)
        goto invalid;
      index = wn_lab_histogram_bucket_of (lower);
      if (wn_lab_histogram_bucket_lower (index) != lower || (gint) index <= last)
        goto invalid;
      last = (gint) index;
      cover (h, index, index);
      h->counts[index - h->first] = (guint64) n;
      total += (guint64) n;
    }
  if (total != (guint64) count ||
      (count > 0 && (min > max || count_at (h, wn_lab_histogram_bucket_of (min)) == 0 ||
                     count_at (h, wn_lab_histogram_bucket_of (max)) == 0)))
    goto invalid;
  h->count = (guint64) count;
  h->min = min;
  h->max = max;
  h->sum = sum;
  return g_steal_pointer (&h);

invalid:
  g_set_error_literal (error, WN_LAB_ERROR, WN_LAB_ERROR_INVALID,
                       "histogram: not a histogram as winnow-run writes one");
  return NULL;
}

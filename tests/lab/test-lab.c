/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The policy lab: intervals against hand computations and published values,
 * the histogram's bound, sweep files, shards and merges. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "wn-lab.h"

#define assert_near(a, b, tol) g_assert_cmpfloat_with_epsilon ((a), (b), (tol))

/* Newcombe (1998), "Two-sided confidence intervals for the single proportion",
 * Table I: 81/263 → 0.2553 – 0.3662 (Wilson score). 0/10 by hand: the upper
 * bound is z²/(n + z²) = 3.8415/13.8415 = 0.2775, and 10/10 mirrors it. */
static void
test_wilson (void)
{
  WnLabInterval iv;

  wn_lab_wilson (81, 263, WN_LAB_Z95, &iv);
  assert_near (iv.value, 81.0 / 263.0, 1e-12);
  assert_near (iv.lo, 0.2553, 5e-5);
  assert_near (iv.hi, 0.3662, 5e-5);

  wn_lab_wilson (0, 10, WN_LAB_Z95, &iv);
  g_assert_cmpfloat (iv.lo, ==, 0.0);
  assert_near (iv.hi, 0.2775, 5e-5);
  wn_lab_wilson (10, 10, WN_LAB_Z95, &iv);
  assert_near (iv.lo, 0.7225, 5e-5);
  g_assert_cmpfloat (iv.hi, ==, 1.0);

  /* nothing observed: all of [0, 1] */
  wn_lab_wilson (0, 0, WN_LAB_Z95, &iv);
  g_assert_cmpfloat (iv.lo, ==, 0.0);
  g_assert_cmpfloat (iv.hi, ==, 1.0);
}

/* Newcombe (1998), "Interval estimation for the difference between
 * independent proportions", example (a): 56/70 − 48/80 = 0.2000,
 * method 10 (hybrid score) 0.0524 – 0.3339. */
static void
test_rate_difference (void)
{
  WnLabInterval iv;

  wn_lab_rate_difference (56, 70, 48, 80, &iv);
  assert_near (iv.value, 0.2, 1e-12);
  assert_near (iv.lo, 0.0524, 5e-5);
  assert_near (iv.hi, 0.3339, 5e-5);
  g_assert_true (wn_lab_interval_excludes_zero (&iv));

  /* 9/10 vs 8/10 cannot be told apart */
  wn_lab_rate_difference (9, 10, 8, 10, &iv);
  g_assert_false (wn_lab_interval_excludes_zero (&iv));
}

/* Student's t, 0.975: tables give 12.706 (1), 2.228 (10), 2.042 (30),
 * 2.021 (40), 1.984 (100), 1.960 (∞). */
static void
test_t975 (void)
{
  assert_near (wn_lab_t975 (1), 12.706, 1e-3);
  assert_near (wn_lab_t975 (10), 2.228, 1e-3);
  assert_near (wn_lab_t975 (30), 2.042, 1e-3);
  assert_near (wn_lab_t975 (40), 2.021, 1e-3);
  assert_near (wn_lab_t975 (100), 1.984, 1e-3);
  assert_near (wn_lab_t975 (1000000), 1.960, 1e-3);
}

/* Across seeds: per-seed p50s of 10, 12, 14 (s = 2): half-width
 * t(2) · 2 / √3 = 4.3027 · 1.1547 = 4.968 around the pooled value. By order
 * statistics (one seed), values 1 … 100: n·p = 50, z·√(n·p·(1−p)) = 9.8, so
 * ranks 40 and 60. */
static void
test_percentile_interval (void)
{
  g_autoptr(WnLabHistogram) h = wn_lab_histogram_new ();
  const double seeds[] = { 10, 12, 14 };
  WnLabInterval iv;

  for (int v = 1; v <= 100; v++)
    wn_lab_histogram_add (h, v);
  wn_lab_percentile_interval (h, 50, NULL, 0, &iv);
  g_assert_cmpfloat (iv.value, ==, 50);
  g_assert_cmpfloat (iv.lo, ==, 40);
  g_assert_cmpfloat (iv.hi, ==, 60);

  wn_lab_percentile_interval (h, 50, seeds, 3, &iv);
  g_assert_cmpfloat (iv.value, ==, 50);
  assert_near (iv.hi - iv.value, 4.3027 * 2.0 / sqrt (3.0), 1e-3);
  assert_near (iv.value - iv.lo, 4.3027 * 2.0 / sqrt (3.0), 1e-3);
}

static void
test_histogram_buckets (void)
{
  /* exact below 128; then 128 buckets per power of two */
  g_assert_cmpuint (wn_lab_histogram_bucket_of (0), ==, 0);
  g_assert_cmpuint (wn_lab_histogram_bucket_of (127), ==, 127);
  g_assert_cmpuint (wn_lab_histogram_bucket_of (128), ==, 128);
  g_assert_cmpint (wn_lab_histogram_bucket_lower (wn_lab_histogram_bucket_of (255)), ==, 255);
  g_assert_cmpint (wn_lab_histogram_bucket_lower (wn_lab_histogram_bucket_of (257)), ==, 256);
  g_assert_cmpint (wn_lab_histogram_bucket_width (wn_lab_histogram_bucket_of (257)), ==, 2);
  g_assert_cmpint (wn_lab_histogram_bucket_lower (wn_lab_histogram_bucket_of (1000001)), ==, 999424);
  g_assert_cmpint (wn_lab_histogram_bucket_width (wn_lab_histogram_bucket_of (1000001)), ==, 4096);
  /* every bucket's width over its lower bound is at most 1/128 */
  for (gint64 v = 128; v > 0 && v < G_MAXINT64 / 3; v = v * 3 + 1)
    {
      guint b = wn_lab_histogram_bucket_of (v);
      gint64 lo = wn_lab_histogram_bucket_lower (b);

      g_assert_cmpint (lo, <=, v);
      g_assert_cmpint (v, <, lo + wn_lab_histogram_bucket_width (b));
      g_assert_cmpfloat ((double) wn_lab_histogram_bucket_width (b) / (double) lo, <=, 1.0 / 128.0);
    }
}

static void
add_bucket_cb (gint64   lower,
               gint64   width,
               guint64  count,
               gpointer data)
{
  GArray *seen = data;
  gint64 row[3] = { lower, width, (gint64) count };

  g_array_append_vals (seen, row, 3);
}

/* The non-empty buckets, in order, with counts adding up to the values. */
static void
test_histogram_foreach (void)
{
  g_autoptr(WnLabHistogram) h = wn_lab_histogram_new ();
  g_autoptr(GArray) seen = g_array_new (FALSE, FALSE, sizeof (gint64));

  wn_lab_histogram_foreach (h, add_bucket_cb, seen);
  g_assert_cmpuint (seen->len, ==, 0);
  wn_lab_histogram_add_n (h, 5, 2);
  wn_lab_histogram_add (h, 257);
  wn_lab_histogram_add (h, 1000001);
  wn_lab_histogram_add (h, 256);
  wn_lab_histogram_foreach (h, add_bucket_cb, seen);
  g_assert_cmpuint (seen->len, ==, 9);
  g_assert_cmpint (g_array_index (seen, gint64, 0), ==, 5);
  g_assert_cmpint (g_array_index (seen, gint64, 2), ==, 2);
  g_assert_cmpint (g_array_index (seen, gint64, 3), ==, 256);
  g_assert_cmpint (g_array_index (seen, gint64, 4), ==, 2);
  g_assert_cmpint (g_array_index (seen, gint64, 5), ==, 2);
  g_assert_cmpint (g_array_index (seen, gint64, 6), ==, 999424);
  g_assert_cmpint (g_array_index (seen, gint64, 8), ==, 1);
}

static int
compare_int64 (gconstpointer a,
               gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

/* 10⁵ log-uniform draws from 1 µs to 10⁴ s: every percentile within the
 * stated relative error of the exact nearest-rank value; two halves merged
 * are the whole, byte for byte. */
static void
test_histogram_bound_and_merge (void)
{
  g_autoptr(WnLabHistogram) whole = wn_lab_histogram_new ();
  g_autoptr(WnLabHistogram) a = wn_lab_histogram_new ();
  g_autoptr(WnLabHistogram) b = wn_lab_histogram_new ();
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(JsonNode) jw = NULL;
  g_autoptr(JsonNode) jm = NULL;
  g_autofree char *tw = NULL;
  g_autofree char *tm = NULL;
  const double ps[] = { 1, 10, 50, 90, 99, 99.9, 100 };
  WnRng rng;
  guint n = 100000;

  wn_rng_init (&rng, 7);
  for (guint i = 0; i < n; i++)
    {
      gint64 v = (gint64) exp (wn_rng_double (&rng) * log (1e10));

      g_array_append_val (values, v);
      wn_lab_histogram_add (whole, v);
      wn_lab_histogram_add (i % 2 ? a : b, v);
    }
  g_array_sort (values, compare_int64);
  for (guint i = 0; i < G_N_ELEMENTS (ps); i++)
    {
      guint rank = (guint) (ps[i] / 100.0 * n + 0.999999);
      gint64 exact = g_array_index (values, gint64, rank - 1);
      gint64 estimate = wn_lab_histogram_percentile (whole, ps[i]);

      g_assert_cmpfloat (fabs ((double) (estimate - exact)) / (double) exact, <=, WN_LAB_HISTOGRAM_REL_ERROR);
    }
  g_assert_cmpint (wn_lab_histogram_get_max (whole), ==, g_array_index (values, gint64, n - 1));
  g_assert_cmpint (wn_lab_histogram_get_min (whole), ==, g_array_index (values, gint64, 0));

  wn_lab_histogram_merge (a, b);
  jw = wn_lab_histogram_to_json (whole);
  jm = wn_lab_histogram_to_json (a);
  tw = json_to_string (jw, FALSE);
  tm = json_to_string (jm, FALSE);
  g_assert_cmpstr (tw, ==, tm);
}

static void
test_histogram_json (void)
{
  g_autoptr(WnLabHistogram) h = wn_lab_histogram_new ();
  g_autoptr(WnLabHistogram) back = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonNode) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *t1 = NULL;
  g_autofree char *t2 = NULL;
  const char *bad[] = {
    "{\"scheme\":\"ddsketch\",\"count\":0,\"min\":0,\"max\":0,\"sum\":0,\"buckets\":[]}",
    /* 300 is no bucket's lower bound (the bucket is 300 … 301: 300 is; 301 is not) */
    "{\"scheme\":\"log2-128\",\"count\":1,\"min\":301,\"max\":301,\"sum\":301,\"buckets\":[[301,1]]}",
    /* counts that do not add up */
    "{\"scheme\":\"log2-128\",\"count\":2,\"min\":5,\"max\":5,\"sum\":10,\"buckets\":[[5,1]]}",
  };

  wn_lab_histogram_add_n (h, 40000, 3);
  wn_lab_histogram_add (h, 5);
  node = wn_lab_histogram_to_json (h);
  back = wn_lab_histogram_from_json (node, &error);
  g_assert_no_error (error);
  again = wn_lab_histogram_to_json (back);
  t1 = json_to_string (node, FALSE);
  t2 = json_to_string (again, FALSE);
  g_assert_cmpstr (t1, ==, t2);

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(JsonNode) n = json_from_string (bad[i], NULL);
      g_autoptr(WnLabHistogram) none = wn_lab_histogram_from_json (n, &error);

      g_assert_null (none);
      g_assert_error (error, WN_LAB_ERROR, WN_LAB_ERROR_INVALID);
      g_clear_error (&error);
    }
}

/* ---- sweeps ---- */

static char *
example (const char *name)
{
  const char *dir = g_getenv ("WINNOW_EXAMPLES_DIR");

  g_assert_nonnull (dir);
  return g_build_filename (dir, name, NULL);
}

static WnLabSweep *
sweep_from (const char *text,
            GError    **error)
{
  g_autofree char *dir = example ("");

  return wn_lab_sweep_load_data (text, -1, "test.sweep.json", dir, WN_LOAD_DEFAULT_MAX_SIZE, NULL, error);
}

/* The rows as a run writes them, each compared with the first. */
static char *
rows_text (GPtrArray *summaries)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < summaries->len; i++)
    {
      wn_lab_summary_append_json (g_ptr_array_index (summaries, i), g_ptr_array_index (summaries, 0), out);
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}

#define FLAKY_GRID \
  "{\"format\":\"winnow.sweep/1\",\"process\":\"flaky-service.process.json\",\"instances\":300,\"seeds\":4," \
  "\"grid\":[{\"param\":\"engine.retry.maxAttempts\",\"values\":[1,5]}," \
  "{\"param\":\"tasks.quote.trust\",\"values\":[\"engineAuthoritative\",\"workerTrusted\"]}]}"

/* A variant's name writes a fraction as people do: 0.6, not the
 * 0.59999999999999998 JSON writes, and keeps every digit a value needs. */
static void
test_sweep_name_fraction (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WnLabSweep) sweep = sweep_from (
    "{\"format\":\"winnow.sweep/1\",\"process\":\"flaky-service.process.json\",\"instances\":10,"
    "\"grid\":[{\"param\":\"workers.quotes.failure\",\"values\":[0.6,0.1234567890123,0]}]}", &error);

  g_assert_no_error (error);
  g_assert_cmpstr (wn_lab_sweep_get_variant_name (sweep, 0), ==, "workers.quotes.failure=0.6");
  g_assert_cmpstr (wn_lab_sweep_get_variant_name (sweep, 1), ==, "workers.quotes.failure=0.1234567890123");
  g_assert_cmpstr (wn_lab_sweep_get_variant_name (sweep, 2), ==, "workers.quotes.failure=0");
}

static void
test_sweep_grid (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WnLabSweep) sweep = sweep_from (FLAKY_GRID, &error);
  g_autoptr(GPtrArray) rows = NULL;
  WnLabSeedStats none, five;
  gboolean differs[4];
  g_autofree char *sentence = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (wn_lab_sweep_get_n_variants (sweep), ==, 4);
  g_assert_cmpuint (wn_lab_sweep_get_n_cells (sweep), ==, 16);
  /* the last axis varies fastest */
  g_assert_cmpstr (wn_lab_sweep_get_variant_name (sweep, 1), ==,
                   "engine.retry.maxAttempts=1 tasks.quote.trust=workerTrusted");
  rows = wn_lab_sweep_run (sweep, 1, 1, 1, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, 4);
  wn_lab_summary_get_totals (g_ptr_array_index (rows, 0), &none);
  wn_lab_summary_get_totals (g_ptr_array_index (rows, 2), &five);
  /* one attempt: one execution per order, about 30 % fail */
  g_assert_cmpuint (none.instances, ==, 1200);
  g_assert_cmpuint (none.executions, ==, 1200);
  g_assert_cmpuint (none.terminated, >, 300);
  g_assert_cmpuint (none.terminated, <, 420);
  g_assert_cmpuint (five.terminated, <, 10);
  g_assert_cmpuint (wn_lab_summary_get_n_seeds (g_ptr_array_index (rows, 0)), ==, 4);

  sentence = wn_lab_summary_compare (g_ptr_array_index (rows, 2), g_ptr_array_index (rows, 0), NULL, differs);
  g_assert_true (differs[0]);
  g_assert_nonnull (strstr (sentence, "differs from"));

  /* attempts per job: one each with one attempt; with five, the executions
   * spread over 1 … 5 and add up, and they survive a row's round trip */
  {
    const WnLabHistogram *one = wn_lab_summary_get_attempts (g_ptr_array_index (rows, 0));
    const WnLabHistogram *up_to_five = wn_lab_summary_get_attempts (g_ptr_array_index (rows, 2));
    g_autoptr(GString) line = g_string_new (NULL);
    g_autoptr(JsonNode) node = NULL;
    g_autoptr(WnLabSummary) back = NULL;

    g_assert_cmpuint (wn_lab_histogram_get_count (one), ==, 1200);
    g_assert_cmpint (wn_lab_histogram_get_max (one), ==, 1);
    g_assert_cmpuint (wn_lab_histogram_get_count (up_to_five), ==, 1200);
    g_assert_cmpint (wn_lab_histogram_get_min (up_to_five), ==, 1);
    g_assert_cmpint (wn_lab_histogram_get_max (up_to_five), ==, 5);
    g_assert_cmpfloat (wn_lab_histogram_get_mean (up_to_five) * 1200, ==, (double) five.executions);

    wn_lab_summary_append_json (g_ptr_array_index (rows, 2), NULL, line);
    node = json_from_string (line->str, &error);
    g_assert_no_error (error);
    back = wn_lab_summary_from_json (node, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (wn_lab_histogram_get_count (wn_lab_summary_get_attempts (back)), ==, 1200);
    g_assert_cmpfloat (wn_lab_histogram_get_mean (wn_lab_summary_get_attempts (back)), ==,
                       wn_lab_histogram_get_mean (up_to_five));
  }
}

/* The same variant twice: not distinguishable, said in a sentence. */
static void
test_sweep_not_distinguishable (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WnLabSweep) sweep = sweep_from (
    "{\"format\":\"winnow.sweep/1\",\"process\":\"flaky-service.process.json\",\"instances\":200,"
    "\"seeds\":{\"first\":1,\"count\":3},\"variants\":[{\"name\":\"A\"},{\"name\":\"B\",\"set\":{\"engine.retry.maxAttempts\":4}}]}",
    &error);
  g_autoptr(GPtrArray) rows = NULL;
  g_autofree char *sentence = NULL;
  gboolean differs[4];

  g_assert_no_error (error);
  rows = wn_lab_sweep_run (sweep, 1, 1, 1, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  sentence = wn_lab_summary_compare (g_ptr_array_index (rows, 1), g_ptr_array_index (rows, 0), NULL, differs);
  for (guint i = 0; i < 4; i++)
    g_assert_false (differs[i]);
  g_assert_true (g_str_has_prefix (sentence, "“B” and “A” are not distinguishable at 600 and 600 instances over 3 and 3 seeds: failed"));
}

/* Shards merged are the unsharded run, byte for byte (the histograms merge
 * exactly, so even the percentiles agree); threads change nothing. */
static void
test_shards_merge (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WnLabSweep) sweep = sweep_from (FLAKY_GRID, &error);
  g_autoptr(GPtrArray) whole = NULL;
  g_autoptr(GPtrArray) threaded = NULL;
  g_autoptr(GPtrArray) merged = NULL;
  g_autofree char *t_whole = NULL;
  g_autofree char *t_threaded = NULL;
  g_autofree char *t_merged = NULL;

  g_assert_no_error (error);
  whole = wn_lab_sweep_run (sweep, 1, 1, 1, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  threaded = wn_lab_sweep_run (sweep, 1, 1, 3, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  for (guint k = 1; k <= 3; k++)
    {
      g_autoptr(GPtrArray) part = wn_lab_sweep_run (sweep, k, 3, 1, NULL, NULL, NULL, &error);

      g_assert_no_error (error);
      /* through the row format, as --merge reads them */
      for (guint v = 0; v < part->len; v++)
        {
          g_autoptr(GString) line = g_string_new (NULL);
          g_autoptr(JsonNode) node = NULL;
          g_autoptr(WnLabSummary) back = NULL;

          wn_lab_summary_append_json (g_ptr_array_index (part, v), NULL, line);
          node = json_from_string (line->str, &error);
          g_assert_no_error (error);
          back = wn_lab_summary_from_json (node, &error);
          g_assert_no_error (error);
          if (merged == NULL || merged->len <= v)
            {
              if (merged == NULL)
                merged = g_ptr_array_new_with_free_func ((GDestroyNotify) wn_lab_summary_free);
              g_ptr_array_add (merged, g_steal_pointer (&back));
            }
          else
            {
              g_assert_true (wn_lab_summary_merge (g_ptr_array_index (merged, v), back, &error));
              g_assert_no_error (error);
            }
        }
    }
  t_whole = rows_text (whole);
  t_threaded = rows_text (threaded);
  t_merged = rows_text (merged);
  g_assert_cmpstr (t_whole, ==, t_threaded);
  g_assert_cmpstr (t_whole, ==, t_merged);

  /* a seed merged twice is refused */
  g_assert_false (wn_lab_summary_merge (g_ptr_array_index (merged, 0), g_ptr_array_index (whole, 0), &error));
  g_assert_error (error, WN_LAB_ERROR, WN_LAB_ERROR_DUPLICATE);
}

/* The id is a digest of the sweep and every byte of the files it names:
 * the same files give the same id, another process another one. (It once
 * hashed a length read before it was set: a crash under ThreadSanitizer.) */
static void
test_sweep_id (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WnLabSweep) a = sweep_from (FLAKY_GRID, &error);
  g_autoptr(WnLabSweep) b = sweep_from (FLAKY_GRID, &error);
  g_autoptr(WnLabSweep) other = sweep_from (
    "{\"format\":\"winnow.sweep/1\",\"process\":\"order-fulfilment.process.json\",\"instances\":300,\"seeds\":4,"
    "\"grid\":[{\"param\":\"engine.retry.maxAttempts\",\"values\":[1,5]},"
    "{\"param\":\"engine.trust\",\"values\":[\"engineAuthoritative\",\"workerTrusted\"]}]}", &error);

  g_assert_no_error (error);
  g_assert_cmpuint (strlen (wn_lab_sweep_get_id (a)), ==, 16);
  g_assert_cmpstr (wn_lab_sweep_get_id (a), ==, wn_lab_sweep_get_id (b));
  g_assert_cmpstr (wn_lab_sweep_get_id (a), !=, wn_lab_sweep_get_id (other));
}

/* A cancelled run stops between slices of a cell and says so. */
static void
test_sweep_cancel (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WnLabSweep) sweep = sweep_from (
    "{\"format\":\"winnow.sweep/1\",\"process\":\"flaky-service.process.json\",\"instances\":200000}", &error);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(WnLabSummary) into = NULL;
  g_autoptr(GPtrArray) rows = NULL;

  g_assert_no_error (error);
  into = wn_lab_sweep_new_summary (sweep, 0);
  g_cancellable_cancel (cancellable);
  g_assert_false (wn_lab_sweep_run_cell (sweep, 0, into, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_cmpuint (wn_lab_summary_get_n_seeds (into), ==, 0);
  rows = wn_lab_sweep_run (sweep, 1, 1, 2, cancellable, NULL, NULL, &error);
  g_assert_null (rows);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

static void
test_shard_parse (void)
{
  g_autoptr(GError) error = NULL;
  const char *bad[] = { "0/3", "4/3", "1", "1/0", "a/b", "1/2/3", "-1/2", "" };
  guint k, n;

  g_assert_true (wn_lab_shard_parse ("2/5", &k, &n, &error));
  g_assert_cmpuint (k, ==, 2);
  g_assert_cmpuint (n, ==, 5);
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_assert_false (wn_lab_shard_parse (bad[i], &k, &n, &error));
      g_assert_error (error, WN_LAB_ERROR, WN_LAB_ERROR_SHARD);
      g_clear_error (&error);
    }
  /* every cell in exactly one shard */
  for (guint c = 0; c < 20; c++)
    {
      guint owners = 0;

      for (guint s = 1; s <= 3; s++)
        owners += wn_lab_shard_has (s, 3, c);
      g_assert_cmpuint (owners, ==, 1);
    }
}

/* Errors name the sweep file, the line and column of the value and its path. */
static void
test_sweep_errors (void)
{
  const struct {
    const char *text;
    const char *message;
  } cases[] = {
    { "{\"format\":\"winnow.sweep/1\",\"process\":\"flaky-service.process.json\",\n"
      " \"grid\":[{\"param\":\"engine.retry.maxAttempts\",\"values\":[3,0]}]}",
      "test.sweep.json:2:58: grid[0].values[1]: must be a whole number from 1 to 4294967295" },
    { "{\"format\":\"winnow.sweep/1\",\"process\":\"flaky-service.process.json\",\n"
      " \"set\":{\"engine.retry.delay\":\"1s\"}}",
      "test.sweep.json:2:30: set[\"engine.retry.delay\"]: variant 0 (variant 0): the retry policy here is "
      "exponential, which has no delay: set the whole retry policy instead" },
    { "{\"format\":\"winnow.sweep/1\",\"process\":\"flaky-service.process.json\",\n"
      " \"set\":{\"tasks.nope.trust\":\"workerTrusted\"}}",
      "test.sweep.json:2:28: set[\"tasks.nope.trust\"]: variant 0 (variant 0): the process has no service task nope with a worker" },
    { "{\"format\":\"winnow.sweep/1\",\"process\":\"flaky-service.process.json\",\n"
      " \"set\":{\"workers.quotes.failure\":1.5}}",
      "test.sweep.json:2:34: set[\"workers.quotes.failure\"]: must be a probability from 0 to 1" },
    { "{\"format\":\"winnow.sweep/1\",\"process\":\"flaky-service.process.json\",\"seeds\":[1,1]}",
      "test.sweep.json:1:78: seeds[1]: seed 1 is given twice" },
    { "{\"format\":\"winnow.sweep/1\",\"process\":\"flaky-service.process.json\",\"colour\":1}",
      "test.sweep.json:1:76: colour: unknown key (expected one of format, process, scenario, instances, seeds, "
      "until, set, variants, grid, or x-…)" },
    { "{\"format\":\"winnow.sweep/2\"}", "test.sweep.json:1:11: format: must be \"winnow.sweep/1\"" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) diagnostics = NULL;
      g_autofree char *dir = example ("");
      g_autoptr(WnLabSweep) sweep = wn_lab_sweep_load_data (cases[i].text, -1, "test.sweep.json", dir,
                                                            WN_LOAD_DEFAULT_MAX_SIZE, &diagnostics, &error);
      g_autofree char *first = NULL;

      g_assert_null (sweep);
      g_assert_error (error, WN_LOAD_ERROR, WN_LOAD_ERROR_INVALID);
      g_assert_nonnull (diagnostics);
      g_assert_cmpuint (diagnostics->len, ==, 1);
      first = wn_diagnostic_format (g_ptr_array_index (diagnostics, 0));
      g_assert_cmpstr (first, ==, cases[i].message);
    }
}

/* Worker settings change the world: failure 0 fails no order. */
static void
test_sweep_worker_settings (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WnLabSweep) sweep = sweep_from (
    "{\"format\":\"winnow.sweep/1\",\"process\":\"flaky-service.process.json\",\"instances\":100,"
    "\"set\":{\"engine.retry\":{\"policy\":\"none\"}},"
    "\"grid\":[{\"param\":\"workers.quotes.failure\",\"values\":[0,1]}]}", &error);
  g_autoptr(GPtrArray) rows = NULL;
  WnLabSeedStats ok, bad;

  g_assert_no_error (error);
  rows = wn_lab_sweep_run (sweep, 1, 1, 1, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  wn_lab_summary_get_totals (g_ptr_array_index (rows, 0), &ok);
  wn_lab_summary_get_totals (g_ptr_array_index (rows, 1), &bad);
  g_assert_cmpuint (ok.completed, ==, 100);
  g_assert_cmpuint (bad.terminated, ==, 100);
  /* 100 single executions on 50 slots, all within the first virtual second:
   * the busiest second has all 100 */
  g_assert_cmpuint (ok.peak_per_s, ==, 100);
  g_assert_cmpuint (bad.peak_per_s, ==, 100);
  /* and the load over time is that one second */
  {
    const GArray *load = wn_lab_summary_get_load (g_ptr_array_index (rows, 0));

    g_assert_cmpuint (load->len, ==, 1);
    g_assert_cmpuint (g_array_index (load, guint64, 0), ==, 100);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/lab/Stats/wilson", test_wilson);
  g_test_add_func ("/lab/Stats/rate-difference", test_rate_difference);
  g_test_add_func ("/lab/Stats/t975", test_t975);
  g_test_add_func ("/lab/Stats/percentile-interval", test_percentile_interval);
  g_test_add_func ("/lab/Histogram/buckets", test_histogram_buckets);
  g_test_add_func ("/lab/Histogram/foreach", test_histogram_foreach);
  g_test_add_func ("/lab/Sweep/name-fraction", test_sweep_name_fraction);
  g_test_add_func ("/lab/Histogram/bound-and-merge", test_histogram_bound_and_merge);
  g_test_add_func ("/lab/Histogram/json", test_histogram_json);
  g_test_add_func ("/lab/Sweep/grid", test_sweep_grid);
  g_test_add_func ("/lab/Sweep/not-distinguishable", test_sweep_not_distinguishable);
  g_test_add_func ("/lab/Sweep/errors", test_sweep_errors);
  g_test_add_func ("/lab/Sweep/worker-settings", test_sweep_worker_settings);
  g_test_add_func ("/lab/Sweep/id", test_sweep_id);
  g_test_add_func ("/lab/Sweep/cancel", test_sweep_cancel);
  g_test_add_func ("/lab/Shard/parse", test_shard_parse);
  g_test_add_func ("/lab/Shard/merge-equals-whole", test_shards_merge);
  return g_test_run ();
}

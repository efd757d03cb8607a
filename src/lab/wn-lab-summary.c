/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-lab-summary.c — one variant's statistics: collected, merged, written. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <glib/gi18n-lib.h>

#include "wn-lab-summary.h"

struct _WnLabSummary {
  char           *sweep;
  guint           variant;
  char           *name;
  JsonObject     *settings;       /* never NULL */
  guint           seeds_planned;
  GArray         *seeds;          /* WnLabSeedStats, in increasing seed order */
  GHashTable     *ends;           /* end node id → guint64* (completed instances) */
  WnLabHistogram *completion;     /* completion times of completed instances, µs */
  GArray         *load;           /* guint64 executions per virtual second, summed over seeds */
  WnLabHistogram *attempts;       /* executions per job, over all seeds' jobs */
};

static const double percentiles[] = { 50, 90, 99 };

WnLabSummary *
wn_lab_summary_new (const char *sweep,
                    guint       variant,
                    const char *name,
                    JsonObject *settings,
                    guint       seeds_planned)
{
  WnLabSummary *self = g_new0 (WnLabSummary, 1);

  self->sweep = g_strdup (sweep);
  self->variant = variant;
  self->name = g_strdup (name);
  self->settings = settings != NULL ? json_object_ref (settings) : json_object_new ();
  self->seeds_planned = seeds_planned;
  self->seeds = g_array_new (FALSE, TRUE, sizeof (WnLabSeedStats));
  self->ends = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->completion = wn_lab_histogram_new ();
  self->load = g_array_new (FALSE, TRUE, sizeof (guint64));
  self->attempts = wn_lab_histogram_new ();
  return self;
}

void
wn_lab_summary_free (WnLabSummary *self)
{
  if (self == NULL)
    return;
  g_free (self->sweep);
  g_free (self->name);
  json_object_unref (self->settings);
  g_array_unref (self->seeds);
  g_hash_table_unref (self->ends);
  wn_lab_histogram_free (self->completion);
  g_array_unref (self->load);
  wn_lab_histogram_free (self->attempts);
  g_free (self);
}

const char *
wn_lab_summary_get_sweep (const WnLabSummary *self)
{
  return self->sweep;
}

guint
wn_lab_summary_get_variant (const WnLabSummary *self)
{
  return self->variant;
}

const char *
wn_lab_summary_get_name (const WnLabSummary *self)
{
  return self->name;
}

JsonObject *
wn_lab_summary_get_settings (const WnLabSummary *self)
{
  return self->settings;
}

guint
wn_lab_summary_get_seeds_planned (const WnLabSummary *self)
{
  return self->seeds_planned;
}

guint
wn_lab_summary_get_n_seeds (const WnLabSummary *self)
{
  return self->seeds->len;
}

const WnLabSeedStats *
wn_lab_summary_get_seed (const WnLabSummary *self,
                         guint               i)
{
  g_return_val_if_fail (i < self->seeds->len, NULL);
  return &g_array_index (self->seeds, WnLabSeedStats, i);
}

const WnLabHistogram *
wn_lab_summary_get_histogram (const WnLabSummary *self)
{
  return self->completion;
}

const WnLabHistogram *
wn_lab_summary_get_attempts (const WnLabSummary *self)
{
  return self->attempts;
}

const GArray *
wn_lab_summary_get_load (const WnLabSummary *self)
{
  return self->load;
}

static void
add_load (WnLabSummary *self,
          const GArray *load)
{
  if (load->len > self->load->len)
    g_array_set_size (self->load, load->len);
  for (guint i = 0; i < load->len; i++)
    g_array_index (self->load, guint64, i) += g_array_index (load, guint64, i);
}

static GPtrArray *sorted_ends (const WnLabSummary *self);

GPtrArray *
wn_lab_summary_get_ends (const WnLabSummary *self)
{
  return sorted_ends (self);
}

guint64
wn_lab_summary_get_end_count (const WnLabSummary *self,
                              const char         *end)
{
  guint64 *count = g_hash_table_lookup (self->ends, end);

  return count != NULL ? *count : 0;
}

void
wn_lab_summary_get_totals (const WnLabSummary *self,
                           WnLabSeedStats     *t)
{
  memset (t, 0, sizeof *t);
  for (guint i = 0; i < self->seeds->len; i++)
    {
      const WnLabSeedStats *s = &g_array_index (self->seeds, WnLabSeedStats, i);

      t->instances += s->instances;
      t->completed += s->completed;
      t->terminated += s->terminated;
      t->incidents += s->incidents;
      t->active += s->active;
      t->executions += s->executions;
      t->retries += s->retries;
      t->exhausted += s->exhausted;
      t->virtual_time_us = MAX (t->virtual_time_us, s->virtual_time_us);
      t->peak_per_s = MAX (t->peak_per_s, s->peak_per_s);
    }
  t->p50 = t->p90 = t->p99 = t->max = -1;
  if (wn_lab_histogram_get_count (self->completion) > 0)
    {
      t->p50 = wn_lab_histogram_percentile (self->completion, 50);
      t->p90 = wn_lab_histogram_percentile (self->completion, 90);
      t->p99 = wn_lab_histogram_percentile (self->completion, 99);
      t->max = wn_lab_histogram_get_max (self->completion);
    }
}

/* Keep the seeds in increasing order; FALSE when `seed` is there already. */
static gboolean
insert_seed (WnLabSummary         *self,
             const WnLabSeedStats *stats)
{
  guint i = 0;

  while (i < self->seeds->len && g_array_index (self->seeds, WnLabSeedStats, i).seed < stats->seed)
    i++;
  if (i < self->seeds->len && g_array_index (self->seeds, WnLabSeedStats, i).seed == stats->seed)
    return FALSE;
  g_array_insert_val (self->seeds, i, *stats);
  return TRUE;
}

static void
add_end (WnLabSummary *self,
         const char   *node,
         guint64       count)
{
  guint64 *slot = g_hash_table_lookup (self->ends, node);

  if (slot == NULL)
    {
      slot = g_new0 (guint64, 1);
      g_hash_table_insert (self->ends, g_strdup (node), slot);
    }
  *slot += count;
}

/* Nearest rank over a sorted array of completion times, as winnow-run's summary. */
static gint64
nearest_rank (GArray *sorted,
              double  p)
{
  guint rank;

  if (sorted->len == 0)
    return -1;
  rank = (guint) (p / 100.0 * sorted->len + 0.999999);
  rank = CLAMP (rank, 1, sorted->len);
  return g_array_index (sorted, WnTime, rank - 1);
}

void
wn_lab_load_init (WnLabLoad *load)
{
  load->second = -1;
  load->count = 0;
  load->peak = 0;
  load->per_second = g_array_new (FALSE, TRUE, sizeof (guint64));
  load->jobs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

void
wn_lab_load_clear (WnLabLoad *load)
{
  g_clear_pointer (&load->per_second, g_array_unref);
  g_clear_pointer (&load->jobs, g_hash_table_unref);
}

void
wn_lab_load_cb (const WnEvent *event,
                gpointer       data)
{
  WnLabLoad *load = data;
  gint64 second;

  if (event->kind != WN_EV_JOB || event->phase != WN_PH_EXECUTING)
    return;
  /* events come in time order: one second at a time, in O(1) memory */
  second = event->t_us / WN_USEC_PER_SEC;
  if (second != load->second)
    {
      load->second = second;
      load->count = 0;
    }
  load->count++;
  load->peak = MAX (load->peak, load->count);
  if (event->job != NULL)
    {
      gpointer n;

      if (g_hash_table_lookup_extended (load->jobs, event->job, NULL, &n))
        g_hash_table_insert (load->jobs, g_strdup (event->job), GUINT_TO_POINTER (GPOINTER_TO_UINT (n) + 1));
      else
        g_hash_table_insert (load->jobs, g_strdup (event->job), GUINT_TO_POINTER (1));
    }
  if (second < WN_LAB_LOAD_SECONDS)
    {
      if ((guint) second >= load->per_second->len)
        g_array_set_size (load->per_second, (guint) second + 1);
      g_array_index (load->per_second, guint64, second)++;
    }
}

void
wn_lab_summary_add_run (WnLabSummary    *self,
                        WnEngine        *engine,
                        guint64          seed,
                        const WnLabLoad *load)
{
  g_autoptr(GArray) times = wn_engine_get_completion_times (engine);
  WnProcess *process = wn_engine_get_process (engine);
  WnRunStats run;
  WnLabSeedStats s = { 0 };
  gboolean fresh;

  wn_engine_get_stats (engine, &run);
  s.seed = seed;
  s.instances = run.instances;
  s.completed = run.completed;
  s.terminated = run.terminated;
  s.incidents = run.incidents;
  s.active = run.active - MIN (run.active, run.incidents);
  s.executions = run.executions;
  s.retries = run.retries;
  s.exhausted = run.exhausted;
  s.virtual_time_us = wn_engine_now (engine);
  s.peak_per_s = load->peak;
  s.p50 = nearest_rank (times, 50);
  s.p90 = nearest_rank (times, 90);
  s.p99 = nearest_rank (times, 99);
  s.max = times->len > 0 ? g_array_index (times, WnTime, times->len - 1) : -1;
  fresh = insert_seed (self, &s);
  g_return_if_fail (fresh);

  for (guint i = 0; i < times->len; i++)
    wn_lab_histogram_add (self->completion, g_array_index (times, WnTime, i));
  add_load (self, load->per_second);
  if (load->jobs != NULL)
    {
      GHashTableIter iter;
      gpointer n;

      g_hash_table_iter_init (&iter, load->jobs);
      while (g_hash_table_iter_next (&iter, NULL, &n))
        wn_lab_histogram_add (self->attempts, GPOINTER_TO_UINT (n));
    }
  for (guint i = 0; i < process->n_nodes; i++)
    {
      guint count = wn_engine_get_end_count (engine, i);

      if (count > 0)
        add_end (self, process->nodes[i].id, count);
    }
}

gboolean
wn_lab_summary_merge (WnLabSummary        *self,
                      const WnLabSummary  *other,
                      GError             **error)
{
  GHashTableIter iter;
  gpointer key, value;

  if (g_strcmp0 (self->sweep, other->sweep) != 0)
    {
      g_set_error (error, WN_LAB_ERROR, WN_LAB_ERROR_MISMATCH,
                   _("rows of different sweeps (%s and %s): the sweep file, the process or the scenario changed"),
                   self->sweep, other->sweep);
      return FALSE;
    }
  if (self->variant != other->variant || g_strcmp0 (self->name, other->name) != 0 ||
      self->seeds_planned != other->seeds_planned)
    {
      g_set_error (error, WN_LAB_ERROR, WN_LAB_ERROR_MISMATCH,
                   _("variant %u is “%s” in one row and “%s” in another"),
                   self->variant, self->name, other->name);
      return FALSE;
    }
  for (guint i = 0; i < other->seeds->len; i++)
    for (guint j = 0; j < self->seeds->len; j++)
      if (g_array_index (other->seeds, WnLabSeedStats, i).seed == g_array_index (self->seeds, WnLabSeedStats, j).seed)
        {
          g_set_error (error, WN_LAB_ERROR, WN_LAB_ERROR_DUPLICATE,
                       _("variant %u (%s): seed %" PRIu64 " is in two rows"),
                       self->variant, self->name, g_array_index (self->seeds, WnLabSeedStats, j).seed);
          return FALSE;
        }
  for (guint i = 0; i < other->seeds->len; i++)
    insert_seed (self, &g_array_index (other->seeds, WnLabSeedStats, i));
  g_hash_table_iter_init (&iter, other->ends);
  while (g_hash_table_iter_next (&iter, &key, &value))
    add_end (self, key, *(guint64 *) value);
  wn_lab_histogram_merge (self->completion, other->completion);
  add_load (self, other->load);
  wn_lab_histogram_merge (self->attempts, other->attempts);
  return TRUE;
}

void
wn_lab_summary_completed_rate (const WnLabSummary *self,
                               WnLabInterval      *out)
{
  WnLabSeedStats t;

  wn_lab_summary_get_totals (self, &t);
  wn_lab_wilson (t.completed, t.instances, WN_LAB_Z95, out);
}

void
wn_lab_summary_failed_rate (const WnLabSummary *self,
                            WnLabInterval      *out)
{
  WnLabSeedStats t;

  wn_lab_summary_get_totals (self, &t);
  wn_lab_wilson (t.terminated + t.incidents, t.instances, WN_LAB_Z95, out);
}

void
wn_lab_summary_percentile (const WnLabSummary *self,
                           double              p,
                           WnLabInterval      *out)
{
  g_autofree double *values = g_new0 (double, self->seeds->len + 1);
  guint n = 0;

  /* seeds where nothing completed have no percentile */
  for (guint i = 0; i < self->seeds->len; i++)
    {
      const WnLabSeedStats *s = &g_array_index (self->seeds, WnLabSeedStats, i);
      gint64 v = p == 50 ? s->p50 : p == 90 ? s->p90 : s->p99;

      if (v >= 0)
        values[n++] = (double) v;
    }
  wn_lab_percentile_interval (self->completion, p, values, n, out);
}

void
wn_lab_summary_peak_load (const WnLabSummary *self,
                          WnLabInterval      *out)
{
  g_autofree double *values = g_new0 (double, self->seeds->len + 1);
  double mean = 0.0, half = 0.0;
  guint n = self->seeds->len;

  for (guint i = 0; i < n; i++)
    mean += values[i] = (double) g_array_index (self->seeds, WnLabSeedStats, i).peak_per_s;
  mean = n > 0 ? mean / n : 0.0;
  if (n >= 2)
    half = wn_lab_t975 (n - 1) * wn_lab_stddev (values, n) / sqrt ((double) n);
  out->value = mean;
  out->lo = MAX (0.0, mean - half);
  out->hi = mean + half;
}

/* ---- writing ---- */

static void
append_number (GString *out,
               double   value,
               gboolean integral)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (value))
    g_string_append (out, "null");
  else if (integral)
    g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.0f", value));
  else
    g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.6g", value));
}

static void
append_interval (GString             *out,
                 const char          *key,
                 const WnLabInterval *iv,
                 gboolean             integral)
{
  g_string_append_printf (out, "\"%s\":{\"value\":", key);
  append_number (out, iv->value, integral);
  g_string_append (out, ",\"lo\":");
  append_number (out, iv->lo, integral);
  g_string_append (out, ",\"hi\":");
  append_number (out, iv->hi, integral);
  g_string_append_c (out, '}');
}

static void
append_json_node (GString  *out,
                  JsonNode *node)
{
  g_autofree char *text = json_to_string (node, FALSE);

  g_string_append (out, text);
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char **) a, *(const char **) b);
}

/* The end node ids, sorted. */
static GPtrArray *
sorted_ends (const WnLabSummary *self)
{
  GPtrArray *keys = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, self->ends);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (keys, key);
  g_ptr_array_sort (keys, compare_strings);
  return keys;
}

static WnTime
round_duration (double us)
{
  double mag;

  if (fabs (us) < 1000.0)
    return (WnTime) llround (us);
  mag = pow (10.0, floor (log10 (fabs (us))) - 2.0);
  return (WnTime) (llround (us / mag) * mag);
}

char *
wn_lab_format_duration (double us)
{
  return wn_duration_format (round_duration (MAX (us, 0.0)));
}

static void
format_rate (GString *out,
             double   rate)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append_printf (out, "%s %%", g_ascii_formatd (buf, sizeof buf, "%.2f", rate * 100.0));
}

static void
format_signed (GString    *out,
               double      value,
               gboolean    rate)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (rate)
    g_string_append_printf (out, "%s%s", value >= 0 ? "+" : "−",
                            g_ascii_formatd (buf, sizeof buf, "%.2f", fabs (value) * 100.0));
  else
    {
      g_autofree char *d = wn_duration_format (round_duration (fabs (value)));

      g_string_append_printf (out, "%s%s", value >= 0 ? "+" : "−", d);
    }
}

static void
format_value (GString *out,
              double   value,
              gboolean rate)
{
  if (rate)
    format_rate (out, value);
  else
    {
      g_autofree char *d = wn_duration_format (round_duration (value));

      g_string_append (out, d);
    }
}

char *
wn_lab_summary_compare (const WnLabSummary *self,
                        const WnLabSummary *baseline,
                        WnLabInterval       out[4],
                        gboolean            distinguishable[4])
{
  static const char *labels[] = { N_("failed"), "p50", "p90", "p99" };
  WnLabInterval mine[4], theirs[4], diff[4];
  gboolean differs[4];
  WnLabSeedStats ta, tb;
  g_autoptr(GString) said = g_string_new (NULL);
  g_autoptr(GString) same = g_string_new (NULL);
  GString *sentence = g_string_new (NULL);
  gboolean comparable = TRUE;
  guint n_differ = 0;

  wn_lab_summary_get_totals (self, &ta);
  wn_lab_summary_get_totals (baseline, &tb);
  wn_lab_summary_failed_rate (self, &mine[0]);
  wn_lab_summary_failed_rate (baseline, &theirs[0]);
  wn_lab_rate_difference (ta.terminated + ta.incidents, ta.instances,
                          tb.terminated + tb.incidents, tb.instances, &diff[0]);
  for (guint i = 0; i < 3; i++)
    {
      wn_lab_summary_percentile (self, percentiles[i], &mine[i + 1]);
      wn_lab_summary_percentile (baseline, percentiles[i], &theirs[i + 1]);
      wn_lab_interval_difference (&mine[i + 1], &theirs[i + 1], &diff[i + 1]);
    }
  if (wn_lab_histogram_get_count (self->completion) == 0 || wn_lab_histogram_get_count (baseline->completion) == 0)
    comparable = FALSE;

  for (guint i = 0; i < 4; i++)
    {
      gboolean rate = i == 0;

      differs[i] = (rate || comparable) && wn_lab_interval_excludes_zero (&diff[i]);
      if (out != NULL)
        out[i] = diff[i];
      if (distinguishable != NULL)
        distinguishable[i] = differs[i];
      if (!rate && !comparable)
        continue;
      {
        GString *into = differs[i] ? said : same;

        /* "failed 0.23 % vs 2.68 %" */
        if (into->len > 0)
          g_string_append (into, differs[i] ? "; " : ", ");
        g_string_append_printf (into, "%s ", i == 0 ? _(labels[i]) : labels[i]);
        format_value (into, mine[i].value, rate);
        g_string_append (into, _(" vs "));
        format_value (into, theirs[i].value, rate);
      }
      if (differs[i])
        {
          n_differ++;
          g_string_append (said, " (");
          format_signed (said, diff[i].value, rate);
          g_string_append (said, rate ? _(" points, 95 % CI ") : _(", 95 % CI "));
          format_signed (said, diff[i].lo, rate);
          g_string_append (said, _(" to "));
          format_signed (said, diff[i].hi, rate);
          g_string_append_c (said, ')');
        }
    }

  if (n_differ == 0)
    /* Translators: "“attempts=5” and “attempts=3” are not distinguishable at 30000 instances over 3 seeds: failed 0.91 % vs 0.95 %, p50 …" */
    g_string_append_printf (sentence, _("“%s” and “%s” are not distinguishable at %" PRIu64
                                        " and %" PRIu64 " instances over %u and %u seeds: %s."),
                            self->name, baseline->name, ta.instances, tb.instances,
                            self->seeds->len, baseline->seeds->len, same->str);
  else
    {
      g_string_append_printf (sentence, _("“%s” differs from “%s”: %s."), self->name, baseline->name, said->str);
      if (same->len > 0)
        g_string_append_printf (sentence, _(" Not distinguishable: %s."), same->str);
    }
  return g_string_free (sentence, FALSE);
}

void
wn_lab_summary_append_json (const WnLabSummary *self,
                            const WnLabSummary *baseline,
                            GString            *out)
{
  g_autoptr(JsonNode) settings = json_node_init_object (json_node_alloc (), self->settings);
  g_autoptr(JsonNode) name = json_node_init_string (json_node_alloc (), self->name);
  g_autoptr(JsonNode) sweep = json_node_init_string (json_node_alloc (), self->sweep);
  g_autoptr(JsonNode) histogram = wn_lab_histogram_to_json (self->completion);
  g_autoptr(JsonNode) attempts = wn_lab_histogram_to_json (self->attempts);
  g_autoptr(GPtrArray) ends = sorted_ends (self);
  WnLabSeedStats t;
  WnLabInterval iv;
  double n;

  wn_lab_summary_get_totals (self, &t);
  n = t.instances > 0 ? (double) t.instances : NAN;
  g_string_append (out, "{\"format\":\"" WN_LAB_ROW_FORMAT "\",\"sweep\":");
  append_json_node (out, sweep);
  g_string_append_printf (out, ",\"variant\":%u,\"name\":", self->variant);
  append_json_node (out, name);
  g_string_append (out, ",\"settings\":");
  append_json_node (out, settings);
  g_string_append_printf (out, ",\"seeds_planned\":%u,\"seeds\":[", self->seeds_planned);
  for (guint i = 0; i < self->seeds->len; i++)
    g_string_append_printf (out, "%s%" G_GUINT64_FORMAT, i ? "," : "", g_array_index (self->seeds, WnLabSeedStats, i).seed);
  g_string_append_printf (out, "],\"instances\":%" G_GUINT64_FORMAT ",\"completed\":%" G_GUINT64_FORMAT
                          ",\"terminated\":%" G_GUINT64_FORMAT ",\"incidents\":%" G_GUINT64_FORMAT
                          ",\"active\":%" G_GUINT64_FORMAT ",\"executions\":%" G_GUINT64_FORMAT
                          ",\"retries\":%" G_GUINT64_FORMAT ",\"exhausted\":%" G_GUINT64_FORMAT
                          ",\"virtual_time_us\":%" G_GINT64_FORMAT ",\"executions_per_instance\":",
                          t.instances, t.completed, t.terminated, t.incidents, t.active, t.executions,
                          t.retries, t.exhausted, t.virtual_time_us);
  append_number (out, (double) t.executions / n, FALSE);
  g_string_append (out, ",\"retries_per_instance\":");
  append_number (out, (double) t.retries / n, FALSE);
  g_string_append_c (out, ',');
  wn_lab_summary_peak_load (self, &iv);
  append_interval (out, "peak_executions_per_s", &iv, FALSE);
  g_string_append (out, ",\"ends\":{");
  for (guint i = 0; i < ends->len; i++)
    {
      g_autoptr(JsonNode) key = json_node_init_string (json_node_alloc (), g_ptr_array_index (ends, i));

      if (i > 0)
        g_string_append_c (out, ',');
      append_json_node (out, key);
      g_string_append_printf (out, ":%" G_GUINT64_FORMAT, *(guint64 *) g_hash_table_lookup (self->ends, g_ptr_array_index (ends, i)));
    }
  g_string_append (out, "},\"rates\":{");
  wn_lab_summary_completed_rate (self, &iv);
  append_interval (out, "completed", &iv, FALSE);
  g_string_append_c (out, ',');
  wn_lab_summary_failed_rate (self, &iv);
  append_interval (out, "failed", &iv, FALSE);
  g_string_append (out, "},\"completion_us\":");
  if (wn_lab_histogram_get_count (self->completion) == 0)
    g_string_append (out, "null");
  else
    {
      g_string_append_c (out, '{');
      for (guint i = 0; i < G_N_ELEMENTS (percentiles); i++)
        {
          g_autofree char *key = g_strdup_printf ("p%.0f", percentiles[i]);

          wn_lab_summary_percentile (self, percentiles[i], &iv);
          append_interval (out, key, &iv, TRUE);
          g_string_append_c (out, ',');
        }
      g_string_append_printf (out, "\"max\":%" G_GINT64_FORMAT ",\"mean\":", wn_lab_histogram_get_max (self->completion));
      append_number (out, wn_lab_histogram_get_mean (self->completion), TRUE);
      g_string_append (out, ",\"relative_error\":");
      append_number (out, WN_LAB_HISTOGRAM_REL_ERROR, FALSE);
      g_string_append_printf (out, ",\"interval\":\"%s\"}", self->seeds->len >= 2 ? "seeds" : "order");
    }
  if (baseline != NULL && baseline != self)
    {
      static const char *keys[] = { "failed", "p50", "p90", "p99" };
      WnLabInterval diff[4];
      gboolean differs[4];
      g_autofree char *text = wn_lab_summary_compare (self, baseline, diff, differs);
      g_autoptr(JsonNode) sentence = json_node_init_string (json_node_alloc (), text);

      g_string_append_printf (out, ",\"compare\":{\"baseline\":%u,", baseline->variant);
      for (guint i = 0; i < 4; i++)
        {
          append_interval (out, keys[i], &diff[i], i > 0);
          /* append_interval closed the object: reopen it for the verdict */
          g_string_truncate (out, out->len - 1);
          g_string_append_printf (out, ",\"distinguishable\":%s},", differs[i] ? "true" : "false");
        }
      g_string_append (out, "\"sentence\":");
      append_json_node (out, sentence);
      g_string_append_c (out, '}');
    }
  g_string_append (out, ",\"per_seed\":[");
  for (guint i = 0; i < self->seeds->len; i++)
    {
      const WnLabSeedStats *s = &g_array_index (self->seeds, WnLabSeedStats, i);

      g_string_append_printf (out, "%s{\"seed\":%" G_GUINT64_FORMAT ",\"instances\":%" G_GUINT64_FORMAT
                              ",\"completed\":%" G_GUINT64_FORMAT ",\"terminated\":%" G_GUINT64_FORMAT
                              ",\"incidents\":%" G_GUINT64_FORMAT ",\"active\":%" G_GUINT64_FORMAT
                              ",\"executions\":%" G_GUINT64_FORMAT ",\"retries\":%" G_GUINT64_FORMAT
                              ",\"exhausted\":%" G_GUINT64_FORMAT ",\"virtual_time_us\":%" G_GINT64_FORMAT
                              ",\"p50\":%" G_GINT64_FORMAT ",\"p90\":%" G_GINT64_FORMAT
                              ",\"p99\":%" G_GINT64_FORMAT ",\"max\":%" G_GINT64_FORMAT
                              ",\"peak_per_s\":%" G_GUINT64_FORMAT "}",
                              i ? "," : "", s->seed, s->instances, s->completed, s->terminated, s->incidents,
                              s->active, s->executions, s->retries, s->exhausted, s->virtual_time_us,
                              s->p50, s->p90, s->p99, s->max, s->peak_per_s);
    }
  g_string_append (out, "],\"load_per_s\":[");
  for (guint i = 0; i < self->load->len; i++)
    g_string_append_printf (out, "%s%" G_GUINT64_FORMAT, i ? "," : "", g_array_index (self->load, guint64, i));
  g_string_append (out, "],\"histogram\":");
  append_json_node (out, histogram);
  g_string_append (out, ",\"attempts\":");
  append_json_node (out, attempts);
  g_string_append_c (out, '}');
}

/* ---- reading ---- */

/* A whole number ≥ min (0, or −1 for "none"). */
static gboolean
read_whole (JsonObject  *o,
            const char  *key,
            gint64       min,
            gint64      *out,
            GError     **error)
{
  JsonNode *n = json_object_get_member (o, key);

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_INT64 ||
      json_node_get_int (n) < min)
    {
      g_set_error (error, WN_LAB_ERROR, WN_LAB_ERROR_INVALID,
                   min < 0 ? _("%s: must be a whole number ≥ −1") : _("%s: must be a whole number ≥ 0"), key);
      return FALSE;
    }
  *out = json_node_get_int (n);
  return TRUE;
}

static gboolean
read_uint (JsonObject  *o,
           const char  *key,
           guint64     *out,
           GError     **error)
{
  return read_whole (o, key, 0, (gint64 *) out, error);
}

static gboolean
read_int (JsonObject  *o,
          const char  *key,
          gint64      *out,
          GError     **error)
{
  return read_whole (o, key, -1, out, error);
}

static const char *
read_string (JsonObject  *o,
             const char  *key,
             GError     **error)
{
  JsonNode *n = json_object_get_member (o, key);

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
    {
      g_set_error (error, WN_LAB_ERROR, WN_LAB_ERROR_INVALID, _("%s: must be a string"), key);
      return NULL;
    }
  return json_node_get_string (n);
}

static JsonObject *
read_object (JsonObject  *o,
             const char  *key,
             GError     **error)
{
  JsonNode *n = json_object_get_member (o, key);

  if (n == NULL || !JSON_NODE_HOLDS_OBJECT (n))
    {
      g_set_error (error, WN_LAB_ERROR, WN_LAB_ERROR_INVALID, _("%s: must be an object"), key);
      return NULL;
    }
  return json_node_get_object (n);
}

WnLabSummary *
wn_lab_summary_from_json (JsonNode  *node,
                          GError   **error)
{
  g_autoptr(WnLabSummary) self = NULL;
  g_autoptr(WnLabHistogram) histogram = NULL;
  JsonObject *o, *settings, *ends;
  JsonNode *per_seed;
  const char *format, *sweep, *name;
  guint64 variant, planned;
  GList *members;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error_literal (error, WN_LAB_ERROR, WN_LAB_ERROR_INVALID, _("a row must be a JSON object"));
      return NULL;
    }
  o = json_node_get_object (node);
  if ((format = read_string (o, "format", error)) == NULL)
    return NULL;
  if (!g_str_equal (format, WN_LAB_ROW_FORMAT))
    {
      g_set_error (error, WN_LAB_ERROR, WN_LAB_ERROR_INVALID,
                   _("format: must be \"%s\" (a row of winnow-run --sweep or --shard in JSON lines)"),
                   WN_LAB_ROW_FORMAT);
      return NULL;
    }
  if ((sweep = read_string (o, "sweep", error)) == NULL || (name = read_string (o, "name", error)) == NULL ||
      !read_uint (o, "variant", &variant, error) || !read_uint (o, "seeds_planned", &planned, error) ||
      (settings = read_object (o, "settings", error)) == NULL || (ends = read_object (o, "ends", error)) == NULL)
    return NULL;
  if (variant > G_MAXUINT || planned > G_MAXUINT)
    {
      g_set_error_literal (error, WN_LAB_ERROR, WN_LAB_ERROR_INVALID, _("variant or seeds_planned out of range"));
      return NULL;
    }
  histogram = wn_lab_histogram_from_json (json_object_get_member (o, "histogram"), error);
  if (histogram == NULL)
    return NULL;
  self = wn_lab_summary_new (sweep, (guint) variant, name, settings, (guint) planned);
  wn_lab_histogram_free (self->completion);
  self->completion = g_steal_pointer (&histogram);
  /* rows written before the attempts were counted have none */
  if (json_object_has_member (o, "attempts"))
    {
      WnLabHistogram *attempts = wn_lab_histogram_from_json (json_object_get_member (o, "attempts"), error);

      if (attempts == NULL)
        {
          g_prefix_error (error, "attempts: ");
          return NULL;
        }
      wn_lab_histogram_free (self->attempts);
      self->attempts = attempts;
    }

  per_seed = json_object_get_member (o, "per_seed");
  if (per_seed == NULL || !JSON_NODE_HOLDS_ARRAY (per_seed))
    {
      g_set_error_literal (error, WN_LAB_ERROR, WN_LAB_ERROR_INVALID, _("per_seed: must be an array"));
      return NULL;
    }
  for (guint i = 0; i < json_array_get_length (json_node_get_array (per_seed)); i++)
    {
      JsonNode *e = json_array_get_element (json_node_get_array (per_seed), i);
      WnLabSeedStats s = { 0 };
      JsonObject *so;
      guint64 vt;

      if (!JSON_NODE_HOLDS_OBJECT (e))
        {
          g_set_error (error, WN_LAB_ERROR, WN_LAB_ERROR_INVALID, _("per_seed[%u]: must be an object"), i);
          return NULL;
        }
      so = json_node_get_object (e);
      if (!read_uint (so, "seed", &s.seed, error) || !read_uint (so, "instances", &s.instances, error) ||
          !read_uint (so, "completed", &s.completed, error) || !read_uint (so, "terminated", &s.terminated, error) ||
          !read_uint (so, "incidents", &s.incidents, error) || !read_uint (so, "active", &s.active, error) ||
          !read_uint (so, "executions", &s.executions, error) || !read_uint (so, "retries", &s.retries, error) ||
          !read_uint (so, "exhausted", &s.exhausted, error) || !read_uint (so, "virtual_time_us", &vt, error) ||
          !read_int (so, "p50", &s.p50, error) || !read_int (so, "p90", &s.p90, error) ||
          !read_int (so, "p99", &s.p99, error) || !read_int (so, "max", &s.max, error) ||
          !read_uint (so, "peak_per_s", &s.peak_per_s, error))
        {
          g_prefix_error (error, "per_seed[%u].", i);
          return NULL;
        }
      s.virtual_time_us = (gint64) vt;
      if (!insert_seed (self, &s))
        {
          g_set_error (error, WN_LAB_ERROR, WN_LAB_ERROR_DUPLICATE,
                       _("per_seed[%u]: seed %" PRIu64 " twice"), i, s.seed);
          return NULL;
        }
    }
  {
    JsonNode *load = json_object_get_member (o, "load_per_s");
    JsonArray *a;

    if (load == NULL || !JSON_NODE_HOLDS_ARRAY (load) ||
        json_array_get_length (a = json_node_get_array (load)) > WN_LAB_LOAD_SECONDS)
      {
        g_set_error (error, WN_LAB_ERROR, WN_LAB_ERROR_INVALID,
                     _("load_per_s: must be an array of at most %d counts"), WN_LAB_LOAD_SECONDS);
        return NULL;
      }
    g_array_set_size (self->load, json_array_get_length (a));
    for (guint i = 0; i < json_array_get_length (a); i++)
      {
        JsonNode *e = json_array_get_element (a, i);

        if (!JSON_NODE_HOLDS_VALUE (e) || json_node_get_value_type (e) != G_TYPE_INT64 || json_node_get_int (e) < 0)
          {
            g_set_error (error, WN_LAB_ERROR, WN_LAB_ERROR_INVALID, _("load_per_s[%u]: must be a whole number ≥ 0"), i);
            return NULL;
          }
        g_array_index (self->load, guint64, i) = (guint64) json_node_get_int (e);
      }
  }
  members = json_object_get_members (ends);
  for (GList *l = members; l != NULL; l = l->next)
    {
      guint64 count;

      if (!read_uint (ends, l->data, &count, error))
        {
          g_prefix_error (error, "ends.");
          g_list_free (members);
          return NULL;
        }
      add_end (self, l->data, count);
    }
  g_list_free (members);
  return g_steal_pointer (&self);
}

/* ---- CSV ---- */

static void
append_csv_field (GString    *out,
                  const char *text)
{
  if (strpbrk (text, ",\"\n\r") == NULL)
    {
      g_string_append (out, text);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

GPtrArray *
wn_lab_summaries_get_params (GPtrArray *summaries)
{
  GPtrArray *params = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < summaries->len; i++)
    {
      g_autoptr(GList) members = json_object_get_members (((WnLabSummary *) g_ptr_array_index (summaries, i))->settings);

      for (GList *l = members; l != NULL; l = l->next)
        {
          gboolean known = FALSE;

          for (guint j = 0; j < params->len && !known; j++)
            known = g_str_equal (g_ptr_array_index (params, j), l->data);
          if (!known)
            g_ptr_array_add (params, g_strdup (l->data));
        }
    }
  return params;
}

void
wn_lab_summary_append_csv_header (GPtrArray *params,
                                  GString   *out)
{
  g_string_append (out, "variant,name");
  for (guint i = 0; params != NULL && i < params->len; i++)
    {
      g_string_append_c (out, ',');
      append_csv_field (out, g_ptr_array_index (params, i));
    }
  g_string_append (out, ",seeds,instances,completed,terminated,incidents,active,executions,retries,exhausted,"
                        "executions_per_instance,completed_rate,completed_lo,completed_hi,"
                        "failed_rate,failed_lo,failed_hi,p50_us,p50_lo_us,p50_hi_us,p90_us,p90_lo_us,p90_hi_us,"
                        "p99_us,p99_lo_us,p99_hi_us,max_us,peak_per_s,peak_per_s_lo,peak_per_s_hi,ends,compare\n");
}

static void
append_csv_interval (GString             *out,
                     const WnLabInterval *iv,
                     gboolean             integral)
{
  g_string_append_c (out, ',');
  append_number (out, iv->value, integral);
  g_string_append_c (out, ',');
  append_number (out, iv->lo, integral);
  g_string_append_c (out, ',');
  append_number (out, iv->hi, integral);
}

void
wn_lab_summary_append_csv (const WnLabSummary *self,
                           const WnLabSummary *baseline,
                           GPtrArray          *params,
                           GString            *out)
{
  g_autoptr(GPtrArray) ends = sorted_ends (self);
  g_autoptr(GString) field = g_string_new (NULL);
  WnLabSeedStats t;
  WnLabInterval iv;
  gboolean any = wn_lab_histogram_get_count (self->completion) > 0;

  wn_lab_summary_get_totals (self, &t);
  g_string_append_printf (out, "%u,", self->variant);
  append_csv_field (out, self->name);
  for (guint i = 0; params != NULL && i < params->len; i++)
    {
      JsonNode *value = json_object_get_member (self->settings, g_ptr_array_index (params, i));

      g_string_append_c (out, ',');
      if (value == NULL)
        continue;
      if (JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING)
        append_csv_field (out, json_node_get_string (value));
      else
        {
          g_autofree char *text = json_to_string (value, FALSE);

          append_csv_field (out, text);
        }
    }
  g_string_append_printf (out, ",%u,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT
                          ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT
                          ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",",
                          self->seeds->len, t.instances, t.completed, t.terminated, t.incidents, t.active,
                          t.executions, t.retries, t.exhausted);
  append_number (out, t.instances > 0 ? (double) t.executions / (double) t.instances : NAN, FALSE);
  wn_lab_summary_completed_rate (self, &iv);
  append_csv_interval (out, &iv, FALSE);
  wn_lab_summary_failed_rate (self, &iv);
  append_csv_interval (out, &iv, FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (percentiles); i++)
    {
      if (!any)
        {
          g_string_append (out, ",,,");
          continue;
        }
      wn_lab_summary_percentile (self, percentiles[i], &iv);
      append_csv_interval (out, &iv, TRUE);
    }
  g_string_append_c (out, ',');
  if (any)
    g_string_append_printf (out, "%" G_GINT64_FORMAT, wn_lab_histogram_get_max (self->completion));
  wn_lab_summary_peak_load (self, &iv);
  append_csv_interval (out, &iv, FALSE);
  for (guint i = 0; i < ends->len; i++)
    g_string_append_printf (field, "%s%s=%" G_GUINT64_FORMAT, i ? " " : "", (char *) g_ptr_array_index (ends, i),
                            *(guint64 *) g_hash_table_lookup (self->ends, g_ptr_array_index (ends, i)));
  g_string_append_c (out, ',');
  append_csv_field (out, field->str);
  g_string_append_c (out, ',');
  if (baseline != NULL && baseline != self)
    {
      g_autofree char *text = wn_lab_summary_compare (self, baseline, NULL, NULL);

      append_csv_field (out, text);
    }
  g_string_append_c (out, '\n');
}

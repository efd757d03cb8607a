/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-bench — Winnow's benchmarks (docs/performance.md; run them with bench/run.sh).
 *
 * Everything the engine must never do, the bench may: it reads clocks. Each
 * measure runs several times and the table shows the median with the spread.
 *
 *   throughput   job executions per second of CPU time, fast-forward, with the
 *                journal off and with a JSON-lines subscriber writing to /dev/null
 *   fetch        CPU cost of one fetch-and-lock with 10³ … 10⁶ gated jobs on the topic
 *   memory       peak RSS per instance parked on a worker task (a child process each run)
 *   load         loading and validating a generated 1 000-node process
 *   gui          the app's start to first frame and its frame times (when the app reports them)
 *   travel       Step Back by a rerun from T+0, then Step Back and scrubs from the nearest of
 *                4 checkpoints (wn-travel.h), the pool's fill time and memory
 *   travel-app   Step Back and scrubs in the app, key to picture (the frame probe's travel mode)
 *   peer         winnow-run -n 10000 against bpmn-engine on the same topology, and
 *                Winnow's BPMN importer against bpmn-moddle on the same generated model
 *   sweep        winnow-run --sweep of 20 variants × 10⁵ instances with -j 1 and -j 2: the speed-up
 *   rest         external tasks completed per second through the REST server (fetchAndLock
 *                with maxTasks 100, then a complete each, kept-alive libsoup clients), beside
 *                a bare libsoup server giving the same answers; the JS client with its defaults
 *                against winnow-run --serve; 1,000 parked long polls (resident size)
 */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include <libsoup/soup.h>

#include "winnow.h"
#include "wn-rest-server.h"
#include "wn-bench-ideal.h"

#define MAX_RUNS 64

typedef struct {
  double v[MAX_RUNS];
  guint  n;
} Series;

typedef struct {
  guint       runs;
  gboolean    quick;
  char      **only;
  const char *data_dir;
  const char *winnow_run;
  const char *peer_dir;
  const char *interop_dir;
  const char *app;
  const char *probe;
  const char *schemas;
  const char *csv;
  const char *rows;
  FILE       *csv_out;
  const char *self;
  const char *tab;          /* the gui rows: a tab the probe shows first, or NULL */
  gboolean    compare;      /* the gui rows: a comparison kept running meanwhile */
} Bench;

/* ---- clocks and memory ---- */

static double
cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

static double
wall_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/* Resident set size now, in KiB. */
static double
rss_now_kib (void)
{
  g_autofree char *text = NULL;
  unsigned long size = 0, resident = 0;

  if (!g_file_get_contents ("/proc/self/statm", &text, NULL, NULL) ||
      sscanf (text, "%lu %lu", &size, &resident) != 2)
    return 0;
  return (double) resident * (double) sysconf (_SC_PAGESIZE) / 1024.0;
}

static long
minor_faults (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

/* The peak resident set size of this program image so far, in KiB. Not
 * ru_maxrss: a child keeps the peak of the parent it was forked from across exec. */
static double
rss_peak_kib (void)
{
  g_autofree char *text = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &text, NULL, NULL) ||
      (line = strstr (text, "\nVmHWM:")) == NULL)
    return 0;
  return g_ascii_strtod (line + strlen ("\nVmHWM:"), NULL);
}

/* ---- series ---- */

static void
series_add (Series *s,
            double  value)
{
  if (s->n < MAX_RUNS)
    s->v[s->n++] = value;
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return (x > y) - (x < y);
}

static double
series_median (const Series *s)
{
  double sorted[MAX_RUNS];

  if (s->n == 0)
    return NAN;
  memcpy (sorted, s->v, s->n * sizeof (double));
  qsort (sorted, s->n, sizeof (double), compare_doubles);
  if (s->n % 2 == 1)
    return sorted[s->n / 2];
  return (sorted[s->n / 2 - 1] + sorted[s->n / 2]) / 2;
}

static double
series_min (const Series *s)
{
  double m = INFINITY;

  for (guint i = 0; i < s->n; i++)
    m = MIN (m, s->v[i]);
  return m;
}

static double
series_max (const Series *s)
{
  double m = -INFINITY;

  for (guint i = 0; i < s->n; i++)
    m = MAX (m, s->v[i]);
  return m;
}

/* ---- the table ---- */

/* 1234567 → "1 234 567"; large values keep three significant figures of their unit. */
static char *
format_number (double value,
               int    decimals)
{
  g_autofree char *plain = g_strdup_printf ("%.*f", decimals, value);
  GString *out = g_string_new (NULL);
  const char *dot = strchr (plain, '.');
  gsize int_len = dot != NULL ? (gsize) (dot - plain) : strlen (plain);
  gsize start = plain[0] == '-' ? 1 : 0;

  if (start == 1)
    g_string_append_c (out, '-');
  for (gsize i = start; i < int_len; i++)
    {
      if (i > start && (int_len - i) % 3 == 0)
        g_string_append_c (out, ' ');
      g_string_append_c (out, plain[i]);
    }
  if (dot != NULL)
    g_string_append (out, dot);
  return g_string_free (out, FALSE);
}

typedef enum {
  TARGET_NONE,
  TARGET_AT_LEAST,
  TARGET_AT_MOST,
  TARGET_BELOW,
} TargetKind;

/* What a target is measured against: a ratio of two measures taken in the
 * same run (the machine's speed and load cancel out), or an absolute budget
 * a user feels (a frame, opening a file) or that does not depend on speed
 * (bytes). */
typedef enum {
  BASIS_NONE,
  BASIS_RATIO,
  BASIS_BUDGET,
} TargetBasis;

static guint n_failed_targets;
static guint n_rows;

static void
print_header (void)
{
  g_print ("%-52s %16s  %-27s %-16s %-7s%s\n", "measure", "median", "min – max", "target", "", "basis");
  g_print ("%s\n", "-----------------------------------------------------------------------------------------------------------------------------");
}

static void
print_section (const char *title)
{
  g_print ("%s\n", title);
}

/* One row: the median, the spread, and the verdict against the target. */
static void
print_row (const char   *label,
           const Series *s,
           int           decimals,
           const char   *unit,
           TargetKind    kind,
           double        target,
           TargetBasis   basis)
{
  g_autofree char *median = NULL;
  g_autofree char *lo = NULL;
  g_autofree char *hi = NULL;
  g_autofree char *value = NULL;
  g_autofree char *spread = NULL;
  g_autofree char *goal = NULL;
  g_autofree char *goal_number = NULL;
  const char *verdict = "";
  double m = series_median (s);

  n_rows++;
  median = format_number (m, decimals);
  lo = format_number (series_min (s), decimals);
  hi = format_number (series_max (s), decimals);
  value = g_strdup_printf ("%s %s", median, unit);
  spread = g_strdup_printf ("%s – %s", lo, hi);
  if (kind != TARGET_NONE)
    {
      gboolean ok;

      goal_number = format_number (target, target < 10 ? 2 : 0);
      switch (kind)
        {
        case TARGET_AT_LEAST:
          goal = g_strdup_printf ("≥ %s", goal_number);
          ok = m >= target;
          break;
        case TARGET_AT_MOST:
          goal = g_strdup_printf ("≤ %s", goal_number);
          ok = m <= target;
          break;
        case TARGET_BELOW:
        case TARGET_NONE:
        default:
          goal = g_strdup_printf ("< %s", goal_number);
          ok = m < target;
          break;
        }
      verdict = ok ? "ok" : "MISSED";
      if (!ok)
        n_failed_targets++;
    }
  /* %-Ns counts bytes: pad by hand for the multi-byte dashes and signs */
  g_print ("  %s%*s %16s  %s%*s %s%*s %-7s%s\n",
           label, (int) MAX (0, 50 - (glong) g_utf8_strlen (label, -1)), "",
           value,
           spread, (int) MAX (0, 27 - (glong) g_utf8_strlen (spread, -1)), "",
           goal ? goal : "", (int) MAX (0, 16 - (goal ? (glong) g_utf8_strlen (goal, -1) : 0)), "",
           verdict,
           kind == TARGET_NONE ? "" : basis == BASIS_RATIO ? "ratio, this run" : "budget");
}

static void
print_na (const char *label,
          const char *reason)
{
  n_rows++;
  g_print ("  %s%*s %16s  %s\n", label, (int) MAX (0, 50 - (glong) g_utf8_strlen (label, -1)), "",
           "n/a", reason);
}

static void
csv_row (Bench      *bench,
         const char *series,
         double      x,
         double      y)
{
  if (bench->csv_out != NULL)
    fprintf (bench->csv_out, "%s,%.0f,%.6g\n", series, x, y);
}

/* ---- loading ---- */

static WnProcess *
load_data_process (Bench      *bench,
                   const char *name)
{
  g_autofree char *path = g_build_filename (bench->data_dir, name, NULL);
  g_autoptr(GError) error = NULL;
  WnProcess *process = wn_load_process_file (path, NULL, &error);

  if (process == NULL)
    {
      g_printerr ("wn-bench: %s\n", error->message);
      exit (2);
    }
  return process;
}

/* ---- throughput ---- */

/* One run: executions per CPU second, from creating the engine to quiescence. */
static double
throughput_once (WnProcess *process,
                 guint      instances,
                 WnTrust    trust,
                 gboolean   journal,
                 guint64    expected_executions)
{
  WnEngineOptions options = { 0 };
  g_autoptr(WnOutput) sink = NULL;
  WnRunStats stats;
  WnEngine *engine;
  double t0, t1;
  long faults;

  options.instances = instances;
  options.trust = trust;
  if (journal)
    {
      g_autoptr(GError) error = NULL;

      sink = wn_output_open ("/dev/null", &error);
      if (sink == NULL)
        {
          g_printerr ("wn-bench: %s\n", error->message);
          exit (2);
        }
    }

  faults = minor_faults ();
  t0 = cpu_seconds ();
  engine = wn_engine_new (process, NULL, &options);
  if (journal)
    /* the journal as winnow-run --journal writes it */
    wn_journal_subscribe (wn_engine_get_journal (engine), wn_output_journal_func, sink, NULL);
  wn_engine_run (engine, WN_TIME_NEVER);
  /* the journal's last bytes are part of its cost */
  if (sink != NULL && !wn_output_commit (sink, NULL))
    {
      g_printerr ("wn-bench: the journal could not be written to /dev/null\n");
      exit (1);
    }
  t1 = cpu_seconds ();
  faults = minor_faults () - faults;
  if (g_getenv ("WN_BENCH_VERBOSE") != NULL)
    g_printerr ("  [%u instances: %.3f s CPU, %ld page faults]\n", instances, t1 - t0, faults);
  wn_engine_get_stats (engine, &stats);
  if (stats.completed != instances || stats.executions != expected_executions)
    {
      g_printerr ("wn-bench: expected %u completed instances and %" G_GUINT64_FORMAT " executions, "
                  "got %u and %" G_GUINT64_FORMAT "\n",
                  instances, expected_executions, stats.completed, stats.executions);
      exit (1);
    }
  wn_engine_free (engine);
  return (double) stats.executions / (t1 - t0);
}

/* One run of the ideal engine (wn-bench-ideal.c): executions per CPU second. */
static double
ideal_once (guint executions)
{
  double t0 = cpu_seconds ();
  guint64 checksum = wn_bench_ideal_run (executions);
  double t1 = cpu_seconds ();

  if (checksum != (guint64) executions * (executions + 1) / 2)
    {
      g_printerr ("wn-bench: the ideal engine lost a job\n");
      exit (1);
    }
  return executions / (t1 - t0);
}

/* One workload with the journal off and on, and the ideal engine for the
 * same number of executions, run after run in turn: each run's ratios compare
 * measures taken under the same load. */
typedef struct {
  Series off;
  Series on;
  Series ratio;        /* on / off, per run */
  Series ideal;        /* the ideal engine */
  Series to_ideal;     /* off / ideal, per run */
} ThroughputPair;

static void
throughput_pair (Bench          *bench,
                 WnProcess      *process,
                 guint           instances,
                 guint           executions_per_instance,
                 WnTrust         trust,
                 ThroughputPair *pair)
{
  guint64 executions = (guint64) instances * executions_per_instance;

  memset (pair, 0, sizeof *pair);
  for (guint i = 0; i < bench->runs; i++)
    {
      double off = throughput_once (process, instances, trust, FALSE, executions);
      double on = throughput_once (process, instances, trust, TRUE, executions);
      double limit = ideal_once ((guint) executions);

      series_add (&pair->off, off);
      series_add (&pair->on, on);
      series_add (&pair->ratio, on / off);
      series_add (&pair->ideal, limit);
      series_add (&pair->to_ideal, off / limit);
    }
}

/* --rows TEXT: the workloads whose name contains TEXT, or whose rows TEXT names
 * ("(a)", "(a) instant worker, journal off"). */
static gboolean
rows_wanted (Bench      *bench,
             const char *name)
{
  return bench->rows == NULL || strstr (name, bench->rows) != NULL || strstr (bench->rows, name) != NULL;
}

/* Winnow against the ideal engine. They stand for the absolute targets they
 * replaced (10⁶ executions/s on (a), 3·10⁵ on (b)) on the machine of
 * docs/performance.md, where the ideal engine runs ≈ 10⁷ executions/s. */
#define LIMIT_RATIO_A 0.1
#define LIMIT_RATIO_B 0.03

/* The journal's cost: at least half of the journal-off rate (issue 23). */
#define JOURNAL_RATIO_TARGET 0.5

static void
print_pair (const char           *name,
            const ThroughputPair *pair)
{
  g_autofree char *off = g_strdup_printf ("%s, journal off", name);
  g_autofree char *on = g_strdup_printf ("%s, journal → /dev/null", name);
  g_autofree char *ratio = g_strdup_printf ("%s, journal on / off", name);

  print_row (off, &pair->off, 0, "/s", TARGET_NONE, 0, BASIS_NONE);
  print_row (on, &pair->on, 0, "/s", TARGET_NONE, 0, BASIS_NONE);
  print_row (ratio, &pair->ratio, 2, "×", TARGET_AT_LEAST, JOURNAL_RATIO_TARGET, BASIS_RATIO);
}

/* In a child process: one run of (a) in a fresh process, every page of its
 * memory touched for the first time, as a winnow-run invocation does. */
static int
child_throughput (Bench *bench,
                  guint  instances)
{
  g_autoptr(WnProcess) instant = load_data_process (bench, "instant.process.json");

  g_print ("%.1f\n", throughput_once (instant, instances, WN_TRUST_UNSET, FALSE, instances));
  return 0;
}

static void
child_throughput_series (Bench  *bench,
                         guint   instances,
                         Series *s)
{
  g_autofree char *count = g_strdup_printf ("%u", instances);
  const char *argv[] = { bench->self, "--data", bench->data_dir, "--child-throughput", count, NULL };
  g_auto(GStrv) lines = NULL;
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_LEAVE_DESCRIPTORS_OPEN, NULL, NULL, &out, NULL,
                     &status, &error) ||
      !g_spawn_check_wait_status (status, &error))
    {
      g_printerr ("wn-bench: throughput child: %s\n", error->message);
      exit (1);
    }
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (*lines[i] != '\0')
      series_add (s, g_ascii_strtod (lines[i], NULL));
}

static void
bench_throughput (Bench *bench)
{
  g_autoptr(WnProcess) instant = load_data_process (bench, "instant.process.json");
  g_autoptr(WnProcess) flaky = load_data_process (bench, "fail-twice.process.json");
  guint n = bench->quick ? 10000 : 100000;

  ThroughputPair a = { 0 }, ea = { 0 }, wt = { 0 };
  gboolean want_a = rows_wanted (bench, "(a) instant worker");
  gboolean want_ea = rows_wanted (bench, "(b) engineAuthoritative");
  gboolean want_wt = rows_wanted (bench, "(b) workerTrusted");

  print_section ("throughput: job executions per CPU second, fast-forward, 10⁵ instances; (b) fails twice");
  /* warm the allocator and the caches with one run of the full size */
  throughput_once (instant, n, WN_TRUST_UNSET, FALSE, n);

  if (want_a)
    {
      throughput_pair (bench, instant, n, 1, WN_TRUST_UNSET, &a);
      print_pair ("(a) instant worker", &a);
    }
  if (want_ea)
    {
      throughput_pair (bench, flaky, n, 3, WN_TRUST_ENGINE_AUTHORITATIVE, &ea);
      print_pair ("(b) engineAuthoritative", &ea);
    }
  if (want_wt)
    {
      throughput_pair (bench, flaky, n, 3, WN_TRUST_WORKER_TRUSTED, &wt);
      print_pair ("(b) workerTrusted", &wt);
    }
  if (rows_wanted (bench, "(a) journal off, each run in a fresh process"))
    {
      Series fresh = { { 0 }, 0 };

      /* what one winnow-run invocation sees: every page touched for the first time */
      for (guint i = 0; i < bench->runs; i++)
        child_throughput_series (bench, n, &fresh);
      print_row ("(a) journal off, each run in a fresh process", &fresh, 0, "/s", TARGET_NONE, 0, BASIS_NONE);
    }

  print_section ("limit: an ideal engine doing only the unavoidable work, the same executions, in the same runs");
  if (want_a)
    {
      print_row ("ideal engine, as many executions as (a)", &a.ideal, 0, "/s", TARGET_NONE, 0, BASIS_NONE);
      print_row ("(a) journal off / ideal engine", &a.to_ideal, 3, "×", TARGET_AT_LEAST, LIMIT_RATIO_A,
                 BASIS_RATIO);
    }
  if (want_ea)
    print_row ("(b) engineAuthoritative, journal off / ideal", &ea.to_ideal, 3, "×", TARGET_AT_LEAST,
               LIMIT_RATIO_B, BASIS_RATIO);
  if (want_wt)
    print_row ("(b) workerTrusted, journal off / ideal", &wt.to_ideal, 3, "×", TARGET_AT_LEAST,
               LIMIT_RATIO_B, BASIS_RATIO);

  /* growth curve: the same run at other sizes */
  if (bench->csv_out != NULL)
    {
      guint sizes[] = { 1000, 3000, 10000, 30000, 100000, 300000, 1000000 };

      for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
        {
          Series s = { { 0 }, 0 };

          Series on = { { 0 }, 0 };

          for (guint r = 0; r < 3; r++)
            {
              series_add (&s, throughput_once (instant, sizes[i], WN_TRUST_UNSET, FALSE, sizes[i]));
              series_add (&on, throughput_once (instant, sizes[i], WN_TRUST_UNSET, TRUE, sizes[i]));
            }
          csv_row (bench, "throughput_a", sizes[i], series_median (&s));
          csv_row (bench, "throughput_a_journal", sizes[i], series_median (&on));
        }
    }
}

/* ---- fetch scaling ---- */

#define FETCH_BATCH 1000

typedef struct {
  double  ns;            /* CPU ns per fetch-and-lock */
  double  comparisons;   /* heap comparisons per fetch-and-lock */
} FetchCost;

/* The dispatcher alone: n gated jobs on one topic (each failed once, re-armed an
 * hour ahead), then rounds of FETCH_BATCH available jobs, fetched one by one. */
static FetchCost
fetch_cost (guint n_gated,
            guint rounds)
{
  const char *topics[] = { "t" };
  WnScheduler *scheduler = wn_scheduler_new ();
  WnDispatcher *dispatcher = wn_dispatcher_new (scheduler, NULL, NULL, NULL, NULL);
  WnPolicyLevel level = { 0 };
  g_autoptr(WnPolicy) policy = NULL;
  g_autoptr(JsonNode) input = json_node_new (JSON_NODE_OBJECT);
  WnJobSpec spec = { 0 };
  Series ns = { { 0 }, 0 };
  Series comparisons = { { 0 }, 0 };
  char id[32];
  FetchCost cost;

  json_node_take_object (input, json_object_new ());
  level.trust = WN_TRUST_ENGINE_AUTHORITATIVE;
  level.has_retry = TRUE;
  level.retry = wn_retry_policy_fixed (2, 3600 * WN_USEC_PER_SEC);
  policy = wn_policy_resolve (&level, NULL);

  spec.topic = "t";
  spec.instance = "i1";
  spec.node = "work";
  spec.input = input;
  spec.policy = policy;
  spec.id = id;

  for (guint i = 0; i < n_gated; i++)
    {
      g_snprintf (id, sizeof id, "g%u", i);
      if (!wn_dispatcher_enqueue (dispatcher, &spec, NULL) ||
          !wn_dispatcher_fetch (dispatcher, "w", topics, 1, 0, NULL) ||
          !wn_dispatcher_fail (dispatcher, id, "w", "503", NULL, NULL, NULL))
        g_error ("fetch bench: could not gate job %s", id);
    }

  for (guint r = 0; r < rounds; r++)
    {
      double t0, t1;
      guint64 c0, c1;

      for (guint k = 0; k < FETCH_BATCH; k++)
        {
          g_snprintf (id, sizeof id, "a%u.%u", r, k);
          wn_dispatcher_enqueue (dispatcher, &spec, NULL);
        }
      c0 = wn_dispatcher_get_n_comparisons (dispatcher);
      t0 = cpu_seconds ();
      for (guint k = 0; k < FETCH_BATCH; k++)
        if (!wn_dispatcher_fetch (dispatcher, "w", topics, 1, 0, NULL))
          g_error ("fetch bench: nothing to fetch");
      t1 = cpu_seconds ();
      c1 = wn_dispatcher_get_n_comparisons (dispatcher);
      series_add (&ns, (t1 - t0) * 1e9 / FETCH_BATCH);
      series_add (&comparisons, (double) (c1 - c0) / FETCH_BATCH);

      for (guint k = 0; k < FETCH_BATCH; k++)
        {
          g_snprintf (id, sizeof id, "a%u.%u", r, k);
          wn_dispatcher_complete (dispatcher, id, "w", NULL, NULL);
        }
      wn_scheduler_run_instant (scheduler);
    }
  if (wn_dispatcher_get_n_jobs (dispatcher) != n_gated)
    g_error ("fetch bench: %u jobs left, expected %u", wn_dispatcher_get_n_jobs (dispatcher), n_gated);

  wn_dispatcher_free (dispatcher);
  wn_scheduler_free (scheduler);
  cost.ns = series_median (&ns);
  cost.comparisons = series_median (&comparisons);
  return cost;
}

static void
bench_fetch (Bench *bench)
{
  guint sizes[] = { 1000, 10000, 100000, 1000000 };
  Series per_size[G_N_ELEMENTS (sizes)];
  Series ratio = { { 0 }, 0 };
  double comparisons[G_N_ELEMENTS (sizes)] = { 0 };
  guint n_sizes = bench->quick ? 3 : G_N_ELEMENTS (sizes);

  memset (per_size, 0, sizeof per_size);
  print_section ("fetch-and-lock: CPU ns per fetch with N gated jobs on the topic (dispatcher alone)");
  for (guint run = 0; run < bench->runs; run++)
    for (guint i = 0; i < n_sizes; i++)
      {
        FetchCost cost = fetch_cost (sizes[i], 9);

        series_add (&per_size[i], cost.ns);
        comparisons[i] = cost.comparisons;
      }
  for (guint run = 0; run < bench->runs; run++)
    series_add (&ratio, per_size[n_sizes - 1].v[run] / per_size[0].v[run]);

  for (guint i = 0; i < n_sizes; i++)
    {
      g_autofree char *label = g_strdup_printf ("N = %u gated (%.1f heap comparisons)", sizes[i], comparisons[i]);

      print_row (label, &per_size[i], 0, "ns", TARGET_NONE, 0, BASIS_NONE);
      csv_row (bench, "fetch_ns", sizes[i], series_median (&per_size[i]));
    }
  print_row (bench->quick ? "ratio N = 10⁵ / N = 10³" : "ratio N = 10⁶ / N = 10³", &ratio, 2, "×", TARGET_BELOW, 3, BASIS_RATIO);

  /* growth curve at the sizes in between */
  if (bench->csv_out != NULL)
    {
      guint more[] = { 3000, 30000, 300000 };

      for (guint i = 0; i < G_N_ELEMENTS (more); i++)
        csv_row (bench, "fetch_ns", more[i], fetch_cost (more[i], 9).ns);
    }
}

/* ---- memory ---- */

/* In a fresh child process: peak RSS growth per instance parked on a worker task. */
static int
child_memory (Bench *bench,
              guint  instances)
{
  g_autoptr(WnProcess) process = load_data_process (bench, "parked.process.json");
  WnEngineOptions options = { 0 };
  WnRunStats stats;
  WnEngine *engine;
  double before, peak;

  options.instances = instances;
  before = rss_now_kib ();
  engine = wn_engine_new (process, NULL, &options);
  wn_engine_run (engine, WN_USEC_PER_SEC);
  peak = rss_peak_kib ();
  wn_engine_get_stats (engine, &stats);
  if (stats.active != instances)
    {
      g_printerr ("wn-bench: expected %u parked instances, got %u active\n", instances, stats.active);
      return 1;
    }
  g_print ("%.3f\n", (peak - before) * 1024.0 / instances);
  wn_engine_free (engine);
  return 0;
}

static double
memory_once (Bench *bench,
             guint  instances)
{
  g_autofree char *count = g_strdup_printf ("%u", instances);
  const char *argv[] = { bench->self, "--data", bench->data_dir, "--child-memory", count, NULL };
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_LEAVE_DESCRIPTORS_OPEN, NULL, NULL, &out, NULL,
                     &status, &error) ||
      !g_spawn_check_wait_status (status, &error))
    {
      g_printerr ("wn-bench: memory child: %s\n", error->message);
      exit (1);
    }
  return g_ascii_strtod (out, NULL);
}

static void
bench_memory (Bench *bench)
{
  guint n = bench->quick ? 10000 : 100000;
  Series s = { { 0 }, 0 };

  print_section ("memory: peak RSS growth per instance parked on a worker task, 10⁵ instances");
  for (guint i = 0; i < bench->runs; i++)
    series_add (&s, memory_once (bench, n));
  print_row ("bytes per parked instance", &s, 0, "B", TARGET_AT_MOST, 1024, BASIS_BUDGET);

  if (bench->csv_out != NULL)
    {
      guint sizes[] = { 10000, 30000, 100000, 300000, 1000000 };

      for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
        csv_row (bench, "rss_per_instance", sizes[i], memory_once (bench, sizes[i]));
    }
}

/* ---- time travel ---- */

typedef struct {
  WnEngine *engine;
  WnSteps   steps;
} TravelSteps;

static void
travel_steps_cb (const WnEvent *event,
                 gpointer       data)
{
  TravelSteps *t = data;

  wn_steps_note (&t->steps, t->engine, event);
}

/* Step Back at the end of a run of `instances`: a rerun of its record taken
 * to the step before the last, its journal listened to as the app listens;
 * wall-clock ms. *events: the run's; *rss_kib: the rerun's resident growth. */
static double
travel_once (WnProcess *process,
             guint      instances,
             guint64   *events,
             double    *rss_kib)
{
  WnEngineOptions options = { 0 };
  TravelSteps live = { 0 }, back = { 0 };
  g_autoptr(GError) error = NULL;
  double started, elapsed, before;

  options.instances = instances;
  live.engine = wn_engine_new (process, NULL, &options);
  wn_journal_subscribe (wn_engine_get_journal (live.engine), travel_steps_cb, &live, NULL);
  wn_engine_run (live.engine, WN_TIME_NEVER);
  *events = wn_journal_get_n_events (wn_engine_get_journal (live.engine));

  before = rss_now_kib ();
  started = wall_seconds ();
  back.engine = wn_engine_new_rerun (live.engine);
  wn_journal_subscribe (wn_engine_get_journal (back.engine), travel_steps_cb, &back, NULL);
  if (!wn_engine_run_to_position (back.engine, &live.steps.previous, G_MAXUINT, &error))
    {
      g_printerr ("wn-bench: step back: %s\n", error ? error->message : "out of budget");
      exit (1);
    }
  elapsed = wall_seconds () - started;
  *rss_kib = rss_now_kib () - before;
  wn_engine_free (back.engine);
  wn_engine_free (live.engine);
  return elapsed * 1000.0;
}

/* The two sizes of the travel rows (fail-twice journals 17 events per
 * instance) and their targets. */
typedef struct {
  const char *label;
  guint       instances;
  double      target_ms;
} TravelSize;

static const TravelSize travel_sizes[] = {
  { "10⁵ events (5 883 instances)", 5883, 100 },
  { "10⁶ events (58 824 instances)", 58824, 1000 },
};

static void
bench_travel (Bench *bench)
{
  g_autoptr(WnProcess) process = load_data_process (bench, "fail-twice.process.json");
  const TravelSize *sizes = travel_sizes;

  print_section ("time travel: Step Back at a run's end, a rerun from T+0 to the step before (wall ms)");
  for (guint i = 0; i < G_N_ELEMENTS (travel_sizes); i++)
    {
      Series s = { { 0 }, 0 };
      Series rss = { { 0 }, 0 };
      guint instances = bench->quick ? sizes[i].instances / 10 : sizes[i].instances;
      g_autofree char *label = NULL;
      g_autofree char *rss_label = NULL;
      guint64 events = 0;

      for (guint r = 0; r < bench->runs; r++)
        {
          double kib;

          series_add (&s, travel_once (process, instances, &events, &kib));
          series_add (&rss, kib / 1024.0);
        }
      label = g_strdup_printf ("%s, engine", bench->quick ? "quick size" : sizes[i].label);
      print_row (label, &s, 1, "ms", bench->quick ? TARGET_NONE : TARGET_BELOW, sizes[i].target_ms,
                 bench->quick ? BASIS_NONE : BASIS_BUDGET);
      rss_label = g_strdup_printf ("  resident growth of the rerun (%" G_GUINT64_FORMAT " events)", events);
      print_row (rss_label, &rss, 1, "MiB", TARGET_NONE, 0, BASIS_NONE);
      csv_row (bench, "travel_us_per_event", (double) events, series_median (&s) * 1000.0 / (double) events);
    }
  /* growth curve: the same step back at smaller and in-between sizes */
  if (bench->csv_out != NULL && !bench->quick)
    {
      guint more[] = { 59, 588, 1765, 17647 };   /* 10³, 10⁴, 3·10⁴, 3·10⁵ events */

      for (guint i = 0; i < G_N_ELEMENTS (more); i++)
        {
          Series s = { { 0 }, 0 };
          guint64 events = 0;
          double kib;

          for (guint r = 0; r < 3; r++)
            series_add (&s, travel_once (process, more[i], &events, &kib));
          csv_row (bench, "travel_us_per_event", (double) events, series_median (&s) * 1000.0 / (double) events);
        }
    }
}

/* Scrubs served from checkpoints (wn-travel.h): a run of `instances` played
 * to its end, the pool filled (4 engines, as the app keeps), then a Step Back
 * and a go-to for each of 90 %, 50 %, 80 % and 20 % of the journal, each from
 * the nearest checkpoint before it (the pool made whole again between moves,
 * untimed): every move's wall ms into `moves`; the pool's fill in *fill_ms,
 * its resident growth in *rss_kib. */
static void
checkpoints_once (WnProcess *process,
                  guint      instances,
                  Series    *moves,
                  double    *fill_ms,
                  double    *rss_kib)
{
  WnEngineOptions options = { 0 };
  TravelSteps live = { 0 };
  WnCheckpoints *pool = wn_checkpoints_new (4, 10000);
  guint64 end;
  double started, before;
  guint64 targets[5];

  options.instances = instances;
  live.engine = wn_engine_new (process, NULL, &options);
  wn_journal_subscribe (wn_engine_get_journal (live.engine), travel_steps_cb, &live, NULL);
  wn_engine_run (live.engine, WN_TIME_NEVER);
  end = wn_journal_get_n_events (wn_engine_get_journal (live.engine));
  targets[0] = live.steps.previous.events;
  targets[1] = end * 9 / 10;
  targets[2] = end / 2;
  targets[3] = end * 8 / 10;
  targets[4] = end / 5;

  before = rss_now_kib ();
  started = wall_seconds ();
  while (wn_checkpoints_fill (pool, live.engine, end, 4096))
    ;
  *fill_ms = (wall_seconds () - started) * 1000.0;
  *rss_kib = rss_now_kib () - before;

  for (guint i = 0; i < G_N_ELEMENTS (targets); i++)
    {
      WnPosition bound = { G_MAXUINT64, G_MAXUINT, G_MAXINT64, targets[i] - 1 };
      TravelSteps moved = { 0 };
      WnEngine *engine;

      started = wall_seconds ();
      engine = wn_checkpoints_take (pool, live.engine, &bound, &moved.steps);
      if (engine == NULL)
        engine = wn_engine_new_rerun (live.engine);
      moved.engine = engine;
      wn_journal_subscribe (wn_engine_get_journal (engine), travel_steps_cb, &moved, NULL);
      if (wn_engine_run_to_event (engine, targets[i], WN_TIME_NEVER, G_MAXUINT) != WN_STOP_REQUESTED)
        {
          g_printerr ("wn-bench: scrub from a checkpoint: event %" G_GUINT64_FORMAT " not reached\n", targets[i]);
          exit (1);
        }
      series_add (moves, (wall_seconds () - started) * 1000.0);
      wn_engine_free (engine);
      while (wn_checkpoints_fill (pool, live.engine, end, 4096))
        ;
    }
  wn_checkpoints_free (pool);
  wn_engine_free (live.engine);
}

static void
bench_checkpoints (Bench *bench)
{
  g_autoptr(WnProcess) process = load_data_process (bench, "fail-twice.process.json");
  const TravelSize *sizes = travel_sizes;

  print_section ("time travel: Step Back and scrubs (90 %, 50 %, 80 %, 20 %) from the nearest of 4 checkpoints "
                 "(wall ms, every move)");
  for (guint i = 0; i < G_N_ELEMENTS (travel_sizes); i++)
    {
      Series moves = { { 0 }, 0 };
      Series fill = { { 0 }, 0 };
      Series rss = { { 0 }, 0 };
      guint instances = bench->quick ? sizes[i].instances / 10 : sizes[i].instances;
      const char *size = bench->quick ? "quick size" : sizes[i].label;
      g_autofree char *l1 = g_strdup_printf ("%s, engine, from a checkpoint", size);
      g_autofree char *l2 = g_strdup_printf ("  filling the pool, from the run's end (once)");
      g_autofree char *l3 = g_strdup_printf ("  resident growth of the pool (4 engines)");

      for (guint r = 0; r < bench->runs; r++)
        {
          double ms, kib;

          checkpoints_once (process, instances, &moves, &ms, &kib);
          series_add (&fill, ms);
          series_add (&rss, kib / 1024.0);
        }
      print_row (l1, &moves, 1, "ms", bench->quick ? TARGET_NONE : TARGET_BELOW, sizes[i].target_ms / 10,
                 bench->quick ? BASIS_NONE : BASIS_BUDGET);
      print_row (l2, &fill, 1, "ms", TARGET_NONE, 0, BASIS_NONE);
      print_row (l3, &rss, 1, "MiB", TARGET_NONE, 0, BASIS_NONE);
    }
}

/* ---- load ---- */

/* A valid process of exactly `n_nodes` nodes (n_nodes ≥ 8): a chain of service
 * tasks (retry, error mapper, output mapping, status, an error boundary),
 * script tasks, exclusive gateways, timers and plain tasks. */
static char *
generate_process (guint n_nodes)
{
  GString *out = g_string_new (NULL);
  GString *flows = g_string_new (NULL);
  guint body = n_nodes - 2;   /* besides start and end */
  guint made = 0, n_flows = 0;
  const char *prev = "start";
  g_autofree char *prev_owned = NULL;

  g_string_append (out,
                   "{\n  \"format\": \"winnow.process/1\",\n  \"id\": \"generated\",\n"
                   "  \"variables\": { \"x\": 1, \"order\": { \"total\": 50 } },\n"
                   "  \"engine\": { \"retry\": { \"policy\": \"exponential\", \"maxAttempts\": 3, "
                   "\"base\": \"100ms\", \"max\": \"5s\", \"jitter\": true } },\n"
                   "  \"nodes\": [\n    { \"id\": \"start\", \"type\": \"startEvent\" }");

  while (made < body)
    {
      guint kind = made % 6;
      g_autofree char *id = g_strdup_printf ("n%u", made);

      /* a boundary needs the service task before it; never start a pair at the end */
      if (kind == 0 && body - made < 2)
        kind = 5;
      switch (kind)
        {
        case 0:
          g_string_append_printf (out,
            ",\n    { \"id\": \"%s\", \"type\": \"serviceTask\", \"name\": \"Service %u\", \"worker\": {"
            " \"topic\": \"topic.%u\", \"input\": [\"order\", \"x\"], \"trust\": \"%s\","
            " \"retry\": { \"policy\": \"fixed\", \"maxAttempts\": 3, \"delay\": \"300ms\" },"
            " \"errorMapper\": ["
            " { \"code\": \"409\", \"bpmnError\": { \"code\": \"Conflict\", \"message\": \"duplicate\" } },"
            " { \"code\": \"404\", \"status\": \"NOT_FOUND\" },"
            " { \"when\": \"body.reason == 'card_declined' and code != '500'\", \"bpmnError\": { \"code\": \"Declined\" } },"
            " { \"code\": \"503\", \"technical\": true } ],"
            " \"outputMapping\": ["
            " { \"path\": \"body.id\", \"var\": \"id%u\", \"required\": true },"
            " { \"path\": \"body.items[0].price\", \"var\": \"price%u.value\" } ],"
            " \"status\": { \"var\": \"status%u\", \"overwrite\": true } } }",
            id, made, made % 16, made % 2 ? "engineAuthoritative" : "workerTrusted", made, made, made);
          break;
        case 1:
          g_string_append_printf (out,
            ",\n    { \"id\": \"%s\", \"type\": \"boundaryEvent\", \"attachedTo\": \"n%u\", \"error\": \"Conflict\" }",
            id, made - 1);
          g_string_append_printf (flows, ",\n    { \"id\": \"b%u\", \"from\": \"%s\", \"to\": \"end\" }", n_flows++, id);
          made++;
          continue;   /* not in the chain */
        case 2:
          g_string_append_printf (out,
            ",\n    { \"id\": \"%s\", \"type\": \"scriptTask\", \"set\": { \"x\": \"x + 1\", \"big\": \"order.total > 100 or x >= 7\" } }",
            id);
          break;
        case 3:
          g_string_append_printf (out,
            ",\n    { \"id\": \"%s\", \"type\": \"exclusiveGateway\", \"default\": \"d%u\" }", id, made);
          g_string_append_printf (flows, ",\n    { \"id\": \"d%u\", \"from\": \"%s\", \"to\": \"end\" }", made, id);
          break;
        case 4:
          g_string_append_printf (out, ",\n    { \"id\": \"%s\", \"type\": \"timerEvent\", \"duration\": \"PT1.5S\" }", id);
          break;
        case 5:
        default:
          g_string_append_printf (out, ",\n    { \"id\": \"%s\", \"type\": \"task\", \"duration\": \"10ms\" }", id);
          break;
        }
      /* chain: prev → this; the flow out of a gateway carries a condition */
      if (g_str_has_prefix (prev, "n") && (atoi (prev + 1) % 6) == 3)
        g_string_append_printf (flows, ",\n    { \"id\": \"c%u\", \"from\": \"%s\", \"to\": \"%s\", \"condition\": \"x < 1000 and order.total <= 5000\" }",
                                n_flows++, prev, id);
      else
        g_string_append_printf (flows, ",\n    { \"id\": \"c%u\", \"from\": \"%s\", \"to\": \"%s\" }", n_flows++, prev, id);
      g_free (prev_owned);
      prev = prev_owned = g_steal_pointer (&id);
      made++;
    }
  g_string_append (out, ",\n    { \"id\": \"end\", \"type\": \"endEvent\" }\n  ],\n  \"flows\": [\n");
  g_string_append_printf (out, "    { \"id\": \"last\", \"from\": \"%s\", \"to\": \"end\" }", prev);
  g_string_append (out, flows->str);
  g_string_append (out, "\n  ]\n}\n");
  g_string_free (flows, TRUE);
  return g_string_free (out, FALSE);
}

/* The same kind of chain as a BPMN 2.0 model of exactly `n_nodes` nodes, as
 * Camunda Modeler writes one: external tasks with a retry cycle and an error
 * boundary, exclusive gateways with JUEL conditions, timers, plain tasks, and
 * a diagram (a shape per node, an edge per flow). */
static char *
generate_bpmn (guint n_nodes)
{
  GString *out = g_string_new (NULL);
  GString *flows = g_string_new (NULL);
  GString *di = g_string_new (NULL);
  guint body = n_nodes - 2;
  guint made = 0, n_flows = 0;
  g_autofree char *prev = g_strdup ("start");

  g_string_append (out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                   "<bpmn:definitions xmlns:bpmn=\"http://www.omg.org/spec/BPMN/20100524/MODEL\" "
                   "xmlns:bpmndi=\"http://www.omg.org/spec/BPMN/20100524/DI\" "
                   "xmlns:dc=\"http://www.omg.org/spec/DD/20100524/DC\" xmlns:di=\"http://www.omg.org/spec/DD/20100524/DI\" "
                   "xmlns:camunda=\"http://camunda.org/schema/1.0/bpmn\" id=\"d\">\n"
                   "  <bpmn:error id=\"conflict\" errorCode=\"Conflict\"/>\n"
                   "  <bpmn:process id=\"generated\" isExecutable=\"true\">\n"
                   "    <bpmn:startEvent id=\"start\"/>\n");
  while (made < body)
    {
      guint kind = made % 6;
      g_autofree char *id = g_strdup_printf ("n%u", made);

      if (kind == 0 && body - made < 2)
        kind = 5;
      switch (kind)
        {
        case 0:
          g_string_append_printf (out, "    <bpmn:serviceTask id=\"%s\" name=\"Service %u\" camunda:type=\"external\" "
                                  "camunda:topic=\"topic.%u\">\n      <bpmn:extensionElements>\n"
                                  "        <camunda:failedJobRetryTimeCycle>R3/PT0.3S</camunda:failedJobRetryTimeCycle>\n"
                                  "      </bpmn:extensionElements>\n    </bpmn:serviceTask>\n", id, made, made % 16);
          break;
        case 1:
          g_string_append_printf (out, "    <bpmn:boundaryEvent id=\"%s\" attachedToRef=\"n%u\">"
                                  "<bpmn:errorEventDefinition errorRef=\"conflict\"/></bpmn:boundaryEvent>\n",
                                  id, made - 1);
          g_string_append_printf (flows, "    <bpmn:sequenceFlow id=\"b%u\" sourceRef=\"%s\" targetRef=\"end\"/>\n",
                                  n_flows++, id);
          g_string_append_printf (di, "      <bpmndi:BPMNShape id=\"%s_di\" bpmnElement=\"%s\"><dc:Bounds x=\"%u\" "
                                  "y=\"160\" width=\"36\" height=\"36\"/></bpmndi:BPMNShape>\n", id, id, made * 150);
          made++;
          continue;
        case 3:
          g_string_append_printf (out, "    <bpmn:exclusiveGateway id=\"%s\" default=\"d%u\"/>\n", id, made);
          g_string_append_printf (flows, "    <bpmn:sequenceFlow id=\"d%u\" sourceRef=\"%s\" targetRef=\"end\"/>\n",
                                  made, id);
          break;
        case 4:
          g_string_append_printf (out, "    <bpmn:intermediateCatchEvent id=\"%s\"><bpmn:timerEventDefinition>"
                                  "<bpmn:timeDuration>PT1.5S</bpmn:timeDuration></bpmn:timerEventDefinition>"
                                  "</bpmn:intermediateCatchEvent>\n", id);
          break;
        default:
          g_string_append_printf (out, "    <bpmn:task id=\"%s\"/>\n", id);
          break;
        }
      g_string_append_printf (di, "      <bpmndi:BPMNShape id=\"%s_di\" bpmnElement=\"%s\"><dc:Bounds x=\"%u\" "
                              "y=\"80\" width=\"100\" height=\"80\"/></bpmndi:BPMNShape>\n", id, id, made * 150);
      if (g_str_has_prefix (prev, "n") && (atoi (prev + 1) % 6) == 3)
        g_string_append_printf (flows, "    <bpmn:sequenceFlow id=\"c%u\" sourceRef=\"%s\" targetRef=\"%s\">"
                                "<bpmn:conditionExpression>${x &lt; 1000 &amp;&amp; order.total &lt;= 5000}"
                                "</bpmn:conditionExpression></bpmn:sequenceFlow>\n", n_flows++, prev, id);
      else
        g_string_append_printf (flows, "    <bpmn:sequenceFlow id=\"c%u\" sourceRef=\"%s\" targetRef=\"%s\"/>\n",
                                n_flows++, prev, id);
      g_string_append_printf (di, "      <bpmndi:BPMNEdge id=\"c%u_di\" bpmnElement=\"c%u\"><di:waypoint x=\"%u\" y=\"120\"/>"
                              "<di:waypoint x=\"%u\" y=\"120\"/></bpmndi:BPMNEdge>\n",
                              n_flows - 1, n_flows - 1, made * 150 - 50, made * 150);
      g_free (prev);
      prev = g_steal_pointer (&id);
      made++;
    }
  g_string_append (out, "    <bpmn:endEvent id=\"end\"/>\n");
  g_string_append_printf (out, "    <bpmn:sequenceFlow id=\"last\" sourceRef=\"%s\" targetRef=\"end\"/>\n", prev);
  g_string_append (out, flows->str);
  g_string_append (out, "  </bpmn:process>\n  <bpmndi:BPMNDiagram id=\"dia\"><bpmndi:BPMNPlane id=\"plane\" "
                   "bpmnElement=\"generated\">\n"
                   "      <bpmndi:BPMNShape id=\"start_di\" bpmnElement=\"start\"><dc:Bounds x=\"-100\" y=\"102\" "
                   "width=\"36\" height=\"36\"/></bpmndi:BPMNShape>\n"
                   "      <bpmndi:BPMNShape id=\"end_di\" bpmnElement=\"end\"><dc:Bounds x=\"0\" y=\"400\" "
                   "width=\"36\" height=\"36\"/></bpmndi:BPMNShape>\n");
  g_string_append (out, di->str);
  g_string_append (out, "  </bpmndi:BPMNPlane></bpmndi:BPMNDiagram>\n</bpmn:definitions>\n");
  g_string_free (flows, TRUE);
  g_string_free (di, TRUE);
  return g_string_free (out, FALSE);
}

/* The time to load `text` (median over `runs` after a warm-up), checking it
 * has `n_nodes` nodes. */
static void
time_load (const char *text, gboolean bpmn, guint runs, Series *s)
{
  for (guint i = 0; i < runs + 1; i++)
    {
      g_autoptr(GPtrArray) diagnostics = NULL;
      g_autoptr(GError) error = NULL;
      WnProcess *process;
      double t0, t1;

      t0 = cpu_seconds ();
      process = bpmn ? wn_load_bpmn_data (text, -1, "generated.bpmn", NULL, NULL, &diagnostics, &error)
                     : wn_load_process_data (text, -1, "generated.process.json", &diagnostics, &error);
      t1 = cpu_seconds ();
      if (process == NULL)
        {
          g_printerr ("wn-bench: the generated process does not load:\n%s\n", error->message);
          exit (1);
        }
      if (process->n_nodes != 1000)
        g_error ("generated %u nodes, not 1000", process->n_nodes);
      wn_process_unref (process);
      if (i > 0)   /* the first run warms up */
        series_add (s, (t1 - t0) * 1000.0);
    }
}

static void
bench_load (Bench *bench)
{
  g_autofree char *text = generate_process (1000);
  Series s = { { 0 }, 0 };
  guint runs = MAX (bench->runs, 21);

  print_section ("load: parse and validate a generated process");
  time_load (text, FALSE, runs, &s);
  {
    g_autofree char *label = g_strdup_printf ("1 000 nodes (%zu KiB of JSON)", strlen (text) / 1024);

    print_row (label, &s, 1, "ms", TARGET_BELOW, 50, BASIS_BUDGET);
  }
  {
    g_autofree char *bpmn = generate_bpmn (1000);
    g_autofree char *label = g_strdup_printf ("1 000 BPMN nodes (%zu KiB of XML, with a diagram)",
                                              strlen (bpmn) / 1024);
    Series b = { { 0 }, 0 };

    time_load (bpmn, TRUE, runs, &b);
    print_row (label, &b, 1, "ms", TARGET_BELOW, 50, BASIS_BUDGET);
  }

  if (bench->csv_out != NULL)
    {
      guint sizes[] = { 100, 300, 1000, 3000, 10000 };

      for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
        {
          g_autofree char *generated = generate_process (sizes[i]);
          Series t = { { 0 }, 0 };

          for (guint r = 0; r < 5; r++)
            {
              double t0 = cpu_seconds ();
              WnProcess *process = wn_load_process_data (generated, -1, "generated.process.json", NULL, NULL);

              series_add (&t, (cpu_seconds () - t0) * 1000.0);
              if (process == NULL)
                g_error ("the generated process of %u nodes does not load", sizes[i]);
              wn_process_unref (process);
            }
          csv_row (bench, "load_us_per_node", sizes[i], series_median (&t) * 1000.0 / sizes[i]);
        }
      for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
        {
          g_autofree char *generated = generate_bpmn (sizes[i]);
          Series t = { { 0 }, 0 };

          for (guint r = 0; r < 5; r++)
            {
              g_autoptr(GPtrArray) diagnostics = NULL;
              double t0 = cpu_seconds ();
              WnProcess *process = wn_load_bpmn_data (generated, -1, "generated.bpmn", NULL, NULL, &diagnostics, NULL);

              series_add (&t, (cpu_seconds () - t0) * 1000.0);
              if (process == NULL)
                g_error ("the generated BPMN model of %u nodes does not load", sizes[i]);
              wn_process_unref (process);
            }
          csv_row (bench, "bpmn_load_us_per_node", sizes[i], series_median (&t) * 1000.0 / sizes[i]);
        }
    }
}

/* ---- the BPMN parser peer ---- */

/* bpmn-moddle (bench/peer/moddle.mjs) parses the same generated 1 000-node
 * model as Winnow's importer, in the same run: CPU ms per parse, and the
 * ratio to Winnow's parse-and-validate of the same file. */
static void
bench_moddle (Bench *bench)
{
  g_autofree char *bpmn = generate_bpmn (1000);
  g_autofree char *path = NULL;
  g_autofree char *script = NULL;
  g_autofree char *runs = NULL;
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  Series winnow = { { 0 }, 0 };
  Series peer = { { 0 }, 0 };
  Series ratio = { { 0 }, 0 };
  int fd, status;

  print_section ("peer: parse a generated 1 000-node BPMN model (with its diagram), CPU ms");
  time_load (bpmn, TRUE, bench->runs, &winnow);
  print_row ("Winnow's importer: parse, map and validate", &winnow, 1, "ms", TARGET_NONE, 0, BASIS_NONE);
  if (bench->peer_dir == NULL)
    {
      print_na ("bpmn-moddle", "(no --peer directory)");
      return;
    }
  fd = g_file_open_tmp ("wn-bench-XXXXXX.bpmn", &path, &error);
  if (fd < 0 || !g_file_set_contents (path, bpmn, -1, &error))
    {
      print_na ("bpmn-moddle", error->message);
      if (fd >= 0)
        close (fd);
      return;
    }
  close (fd);
  script = g_build_filename (bench->peer_dir, "moddle.mjs", NULL);
  runs = g_strdup_printf ("%u", bench->runs);
  {
    const char *argv[] = { "node", script, path, runs, NULL };

    if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_LEAVE_DESCRIPTORS_OPEN,
                       NULL, NULL, &out, NULL, &status, &error) ||
        !g_spawn_check_wait_status (status, &error))
      {
        g_unlink (path);
        print_na ("bpmn-moddle", error->message);
        return;
      }
  }
  g_unlink (path);
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *p = strstr (lines[i], "\"ms\":");
      const char *e = strstr (lines[i], "\"elements\":");

      /* the model's 1 000 nodes and their flows: it read all of it */
      if (p != NULL && e != NULL && atoi (e + strlen ("\"elements\":")) > 1000)
        series_add (&peer, g_ascii_strtod (p + strlen ("\"ms\":"), NULL));
    }
  if (peer.n == 0)
    {
      print_na ("bpmn-moddle", "(no result from the peer script)");
      return;
    }
  print_row ("bpmn-moddle 9.0.4 fromXML, timed in node", &peer, 1, "ms", TARGET_NONE, 0, BASIS_NONE);
  for (guint i = 0; i < peer.n; i++)
    series_add (&ratio, peer.v[i] / series_median (&winnow));
  print_row ("ratio bpmn-moddle / Winnow", &ratio, 2, "×", TARGET_AT_LEAST, 1, BASIS_RATIO);
}

/* ---- GUI ---- */

typedef struct {
  double first_frame_ms;
  double work_p50_ms;
  double work_p95_ms;
  double interval_p95_ms;
  double work_cpu_p50_ms;   /* the GTK thread's CPU time in a frame */
  double work_cpu_p95_ms;
  guint  frames;
  guint  compares;          /* comparisons the probe started (bench->compare) */
} GuiRun;

static double
probe_field (const char *line,
             const char *key)
{
  g_autofree char *needle = g_strdup_printf (" %s=", key);
  const char *p = strstr (line, needle);

  return p != NULL ? g_ascii_strtod (p + strlen (needle), NULL) : -1;
}

/* Launch the app with `env` and return the frame probe's report line (its
 * "wn-frame-probe:" line that is not a progress note), or NULL and *reason. */
static char *
probe_report (const char **argv,
              char       **env,
              char       **reason)
{
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  int status;

  /* the app's stderr is the user's: GTK's notes about the session bus */
  if (!g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_LEAVE_DESCRIPTORS_OPEN | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, &out, NULL, &status, &error))
    {
      *reason = g_strdup_printf ("(%s)", error->message);
      return NULL;
    }
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];

      if (!g_str_has_prefix (line, "wn-frame-probe:"))
        continue;
      if (strstr (line, "error=") != NULL)
        {
          *reason = g_strdup_printf ("(%s)", strstr (line, "error=") + strlen ("error="));
          return NULL;
        }
      return g_strdup (line);
    }
  *reason = g_strdup_printf ("(no report from the app; exit status %d)", status);
  return NULL;
}

/* One launch of the app with the frame probe (bench/wn-frame-probe.c): the
 * Monte-Carlo example with 10⁴ instances, set to fast-forward and played once
 * the first frame is up. `renderer` NULL keeps GTK's choice; `gl_off` keeps
 * GTK from initialising GL at all (GDK_DEBUG=gl-disable). */
static gboolean
gui_once (Bench      *bench,
          const char *renderer,
          gboolean    gl_off,
          GuiRun     *run,
          char      **reason)
{
  g_autofree char *example = g_build_filename (BENCH_EXAMPLES_DIR, "flaky-service.process.json", NULL);
  const char *argv[] = { bench->app, "-n", "10000", example, NULL };
  g_auto(GStrv) env = g_get_environ ();
  g_autofree char *spawn_us = NULL;
  g_autofree char *line = NULL;

  env = g_environ_setenv (env, "LD_PRELOAD", bench->probe, TRUE);
  env = g_environ_setenv (env, "GSETTINGS_BACKEND", "memory", TRUE);
  env = g_environ_setenv (env, "WN_PROBE_SECONDS", "5", TRUE);
  if (bench->tab != NULL)
    env = g_environ_setenv (env, "WN_PROBE_TAB", bench->tab, TRUE);
  else
    env = g_environ_unsetenv (env, "WN_PROBE_TAB");
  if (bench->compare)
    /* orders enough for a comparison to outlast the frames recorded */
    env = g_environ_setenv (env, "WN_PROBE_COMPARE", "100000", TRUE);
  else
    env = g_environ_unsetenv (env, "WN_PROBE_COMPARE");
  if (bench->schemas != NULL)
    env = g_environ_setenv (env, "GSETTINGS_SCHEMA_DIR", bench->schemas, TRUE);
  if (renderer != NULL)
    env = g_environ_setenv (env, "GSK_RENDERER", renderer, TRUE);
  else
    env = g_environ_unsetenv (env, "GSK_RENDERER");
  if (gl_off)
    env = g_environ_setenv (env, "GDK_DEBUG", "gl-disable", TRUE);
  else
    env = g_environ_unsetenv (env, "GDK_DEBUG");
  spawn_us = g_strdup_printf ("%" G_GINT64_FORMAT, g_get_monotonic_time ());
  env = g_environ_setenv (env, "WN_PROBE_SPAWN_US", spawn_us, TRUE);

  line = probe_report (argv, env, reason);
  if (line == NULL)
    return FALSE;
  run->first_frame_ms = probe_field (line, "first_frame_us") / 1000.0;
  run->work_p50_ms = probe_field (line, "work_p50_us") / 1000.0;
  run->work_p95_ms = probe_field (line, "work_p95_us") / 1000.0;
  run->interval_p95_ms = probe_field (line, "interval_p95_us") / 1000.0;
  run->work_cpu_p50_ms = probe_field (line, "work_cpu_p50_us") / 1000.0;
  run->work_cpu_p95_ms = probe_field (line, "work_cpu_p95_us") / 1000.0;
  run->frames = (guint) MAX (0, probe_field (line, "frames"));
  run->compares = (guint) MAX (0, probe_field (line, "compares"));
  if (run->frames == 0)
    {
      *reason = g_strdup ("(the app drew no frame while running)");
      return FALSE;
    }
  if (bench->compare && run->compares == 0)
    {
      *reason = g_strdup ("(no comparison started: no Compare tab, or its Run was never enabled)");
      return FALSE;
    }
  return TRUE;
}

static void
gui_rows (Bench      *bench,
          const char *renderer,
          gboolean    gl_off,
          const char *name,
          gboolean    targets)
{
  Series first = { { 0 }, 0 }, p50 = { { 0 }, 0 }, p95 = { { 0 }, 0 }, interval = { { 0 }, 0 };
  Series cpu50 = { { 0 }, 0 }, cpu95 = { { 0 }, 0 };
  g_autofree char *l1 = g_strdup_printf ("start to first frame (%s)", name);
  g_autofree char *l2 = g_strdup_printf ("frame work p50 (%s)", name);
  g_autofree char *l3 = g_strdup_printf ("frame work p95 (%s)", name);
  g_autofree char *l4 = g_strdup_printf ("frame interval p95 (%s)", name);
  /* what a loaded machine lengthens least: the frame's own CPU time */
  g_autofree char *l5 = g_strdup_printf ("  frame work p50, GTK thread's CPU (%s)", name);
  g_autofree char *l6 = g_strdup_printf ("  frame work p95, GTK thread's CPU (%s)", name);

  for (guint i = 0; i < bench->runs; i++)
    {
      g_autofree char *reason = NULL;
      GuiRun run = { 0 };

      if (!gui_once (bench, renderer, gl_off, &run, &reason))
        {
          print_na (l1, reason);
          print_na (l3, reason);
          return;
        }
      series_add (&first, run.first_frame_ms);
      series_add (&p50, run.work_p50_ms);
      series_add (&p95, run.work_p95_ms);
      series_add (&interval, run.interval_p95_ms);
      series_add (&cpu50, run.work_cpu_p50_ms);
      series_add (&cpu95, run.work_cpu_p95_ms);
    }
  print_row (l1, &first, 0, "ms", targets ? TARGET_BELOW : TARGET_NONE, 500, BASIS_BUDGET);
  print_row (l2, &p50, 1, "ms", TARGET_NONE, 0, BASIS_NONE);
  print_row (l3, &p95, 1, "ms", targets ? TARGET_BELOW : TARGET_NONE, 16, BASIS_BUDGET);
  print_row (l4, &interval, 1, "ms", TARGET_NONE, 0, BASIS_NONE);
  print_row (l5, &cpu50, 1, "ms", TARGET_NONE, 0, BASIS_NONE);
  print_row (l6, &cpu95, 1, "ms", TARGET_NONE, 0, BASIS_NONE);
}

/* The same 10⁴ orders played with the Timeline tab shown: its aggregate
 * view (above 500 instances) folds the events of each frame and counts its
 * columns. Then the same while the Compare tab's variants run on the other
 * threads (the probe starts a comparison whenever none runs), with the
 * Timeline tab shown and with the Compare tab's own plots shown. */
static void
gui_timeline_rows (Bench *bench)
{
  bench->tab = "timeline";
  gui_rows (bench, "cairo", FALSE, "cairo, Timeline tab aggregated", TRUE);
  bench->compare = TRUE;
  gui_rows (bench, "cairo", FALSE, "cairo, Timeline aggregated, a Compare running", TRUE);
  bench->tab = "compare";
  gui_rows (bench, "cairo", FALSE, "cairo, Compare tab, a Compare running", TRUE);
  bench->compare = FALSE;
  bench->tab = NULL;
}

/* `all` FALSE: the Timeline and Compare rows alone (--only gui-timeline). */
static void
bench_gui (Bench    *bench,
           gboolean  all)
{
  print_section ("GUI: the app under Xvfb, Monte-Carlo example (-n 10000) at fast-forward, 5 s of frames");
  if (bench->app == NULL || bench->probe == NULL)
    {
      print_na ("start to first frame", "(the app or the frame probe was not built)");
      print_na ("frame work p95", "(the app or the frame probe was not built)");
      return;
    }
  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      print_na ("start to first frame", "(no display: run under xvfb-run, as bench/run.sh does)");
      print_na ("frame work p95", "(no display: run under xvfb-run, as bench/run.sh does)");
      return;
    }
  /* Xvfb has no GPU: GTK's GL renderer there runs on Mesa's software
   * rasterizer, so the targets apply to the cairo renderer, which measures the
   * app's own drawing; the default renderer is shown for comparison. */
  if (all)
    {
      gui_rows (bench, "cairo", FALSE, "GSK_RENDERER=cairo", TRUE);
      /* GTK 4.8 on X11 loads GL (here Mesa with LLVM) to choose the window's
       * visual even when cairo draws; this shows what that costs at start */
      gui_rows (bench, "cairo", TRUE, "cairo, GDK_DEBUG=gl-disable", FALSE);
      gui_rows (bench, NULL, FALSE, "GTK's default renderer", FALSE);
    }
  gui_timeline_rows (bench);
}

/* ---- time travel in the app ---- */

typedef struct {
  Series back;        /* ms */
  Series scrub;       /* ms */
  Series back_cpu;    /* ms of the app's CPU time */
  Series scrub_cpu;
} TravelAppRun;

/* The probe's " NAME_us=12;15;11", into `s` as ms: each move is a sample. */
static void
travel_app_series (const char *line,
                   const char *name,
                   Series     *s)
{
  g_autofree char *needle = g_strdup_printf (" %s_us=", name);
  const char *p = strstr (line, needle);
  char *end;

  if (p == NULL)
    return;
  p += strlen (needle);
  while (*p >= '0' && *p <= '9')
    {
      series_add (s, g_ascii_strtod (p, &end) / 1000.0);
      p = *end == ';' ? end + 1 : end;
    }
}

/* One launch of the app with the frame probe in its travel mode: fail-twice
 * with `instances` played to its end, then `backs` Step Backs and a scrub to
 * each of 90 %, 50 %, 80 % and 20 % of the journal. */
static gboolean
travel_app_once (Bench        *bench,
                 guint         instances,
                 guint64       events,
                 guint         backs,
                 TravelAppRun *run,
                 char        **reason)
{
  g_autofree char *process = g_build_filename (bench->data_dir, "fail-twice.process.json", NULL);
  g_autofree char *count = g_strdup_printf ("%u", instances);
  const char *argv[] = { bench->app, "-n", count, process, NULL };
  g_auto(GStrv) env = g_get_environ ();
  g_autofree char *backs_text = g_strdup_printf ("%u", backs);
  g_autofree char *scrub = g_strdup_printf ("%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT
                                            ",%" G_GUINT64_FORMAT, events * 9 / 10, events / 2,
                                            events * 8 / 10, events / 5);
  g_autofree char *line = NULL;

  env = g_environ_setenv (env, "LD_PRELOAD", bench->probe, TRUE);
  env = g_environ_setenv (env, "GSETTINGS_BACKEND", "memory", TRUE);
  env = g_environ_setenv (env, "GSK_RENDERER", "cairo", TRUE);
  env = g_environ_setenv (env, "WN_PROBE_TRAVEL", backs_text, TRUE);
  env = g_environ_setenv (env, "WN_PROBE_SCRUB", scrub, TRUE);
  if (bench->schemas != NULL)
    env = g_environ_setenv (env, "GSETTINGS_SCHEMA_DIR", bench->schemas, TRUE);
  line = probe_report (argv, env, reason);
  if (line == NULL)
    return FALSE;
  travel_app_series (line, "back", &run->back);
  travel_app_series (line, "scrub", &run->scrub);
  travel_app_series (line, "back_cpu", &run->back_cpu);
  travel_app_series (line, "scrub_cpu", &run->scrub_cpu);
  return run->back.n > 0;
}

static void
bench_travel_app (Bench *bench)
{
  const struct {
    const char *label;
    guint       instances;
    double      target_ms;
  } sizes[] = {
    { "10⁵ events", 5883, 100 },
    { "10⁶ events", 58824, 1000 },
  };

  print_section ("time travel in the app under Xvfb (cairo): key to the first frame after it, fail-twice "
                 "played to its end (every move of every launch)");
  if (bench->app == NULL || bench->probe == NULL ||
      (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL))
    {
      print_na ("Step Back in the app", "(no app, no frame probe or no display: run under xvfb-run)");
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      TravelAppRun run = { { { 0 }, 0 }, { { 0 }, 0 }, { { 0 }, 0 }, { { 0 }, 0 } };
      guint instances = bench->quick ? sizes[i].instances / 10 : sizes[i].instances;
      const char *size = bench->quick ? "quick size" : sizes[i].label;
      g_autofree char *l1 = g_strdup_printf ("Step Back, %s", size);
      g_autofree char *l2 = g_strdup_printf ("scrub back and forth, %s", size);
      g_autofree char *l3 = g_strdup_printf ("  Step Back, the app's CPU time, %s", size);
      g_autofree char *l4 = g_strdup_printf ("  scrub, the app's CPU time, %s", size);
      gboolean ok = TRUE;

      /* fail-twice journals 17 events per instance */
      for (guint r = 0; r < bench->runs && ok; r++)
        {
          g_autofree char *reason = NULL;

          if (!travel_app_once (bench, instances, (guint64) instances * 17, 3, &run, &reason))
            {
              print_na (l1, reason);
              ok = FALSE;
            }
        }
      if (!ok)
        continue;
      print_row (l1, &run.back, 1, "ms", bench->quick ? TARGET_NONE : TARGET_BELOW, sizes[i].target_ms,
                 bench->quick ? BASIS_NONE : BASIS_BUDGET);
      print_row (l2, &run.scrub, 1, "ms", bench->quick ? TARGET_NONE : TARGET_BELOW, sizes[i].target_ms,
                 bench->quick ? BASIS_NONE : BASIS_BUDGET);
      print_row (l3, &run.back_cpu, 1, "ms", TARGET_NONE, 0, BASIS_NONE);
      print_row (l4, &run.scrub_cpu, 1, "ms", TARGET_NONE, 0, BASIS_NONE);
    }
}

/* ---- peer comparison ---- */

static double
winnow_run_once (Bench *bench,
                 guint  instances)
{
  g_autofree char *process = g_build_filename (bench->data_dir, "instant.process.json", NULL);
  g_autofree char *count = g_strdup_printf ("%u", instances);
  const char *argv[] = { bench->winnow_run, process, "-n", count, "-q", "--summary", "json", NULL };
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  int status;
  double t0, t1;

  t0 = wall_seconds ();
  /* LEAVE_DESCRIPTORS_OPEN lets GLib use posix_spawn: forking this big
   * process would otherwise be timed with the runner */
  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_LEAVE_DESCRIPTORS_OPEN, NULL, NULL, &out, NULL,
                     &status, &error) ||
      !g_spawn_check_wait_status (status, &error))
    {
      g_printerr ("wn-bench: %s: %s\n", bench->winnow_run, error->message);
      exit (1);
    }
  t1 = wall_seconds ();
  if (strstr (out, "\"completed\":10000") == NULL && instances == 10000)
    {
      g_printerr ("wn-bench: winnow-run did not complete every instance:\n%s", out);
      exit (1);
    }
  return instances / (t1 - t0);
}

static void
bench_peer (Bench *bench)
{
  guint n = 10000;
  Series winnow = { { 0 }, 0 };
  Series peer = { { 0 }, 0 };
  Series ratio = { { 0 }, 0 };
  g_autofree char *script = NULL;
  g_autofree char *count = NULL;
  g_autofree char *runs = NULL;
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  int status;

  print_section ("peer: start → service task → end, 10⁴ instances (instances per wall second)");
  for (guint i = 0; i < bench->runs; i++)
    series_add (&winnow, winnow_run_once (bench, n));
  print_row ("winnow-run -n 10000 (whole process)", &winnow, 0, "/s", TARGET_NONE, 0, BASIS_NONE);

  if (bench->peer_dir == NULL)
    {
      print_na ("bpmn-engine", "(no --peer directory)");
      return;
    }
  script = g_build_filename (bench->peer_dir, "run.mjs", NULL);
  count = g_strdup_printf ("%u", bench->quick ? 1000 : n);
  runs = g_strdup_printf ("%u", bench->runs);
  {
    const char *argv[] = { "node", script, count, runs, NULL };

    if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_LEAVE_DESCRIPTORS_OPEN,
                       NULL, NULL, &out, NULL, &status, &error) ||
        !g_spawn_check_wait_status (status, &error))
      {
        print_na ("bpmn-engine", error->message);
        return;
      }
  }
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *p = strstr (lines[i], "\"per_second\":");

      if (p != NULL)
        series_add (&peer, g_ascii_strtod (p + strlen ("\"per_second\":"), NULL));
    }
  if (peer.n == 0)
    {
      print_na ("bpmn-engine", "(no result from the peer script)");
      return;
    }
  {
    g_autofree char *label = g_strdup_printf ("bpmn-engine, %s per run, timed in node", count);

    print_row (label, &peer, 0, "/s", TARGET_NONE, 0, BASIS_NONE);
  }
  for (guint i = 0; i < MIN (winnow.n, peer.n); i++)
    series_add (&ratio, winnow.v[i] / series_median (&peer));
  print_row ("ratio winnow / bpmn-engine", &ratio, 0, "×", TARGET_AT_LEAST, 1000, BASIS_RATIO);
}

/* ---- sweeps on two cores ---- */

/* The CPU time (user + system) the bench's children have used, s. */
static double
children_cpu_seconds (void)
{
  struct rusage usage;

  getrusage (RUSAGE_CHILDREN, &usage);
  return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

/* One winnow-run --sweep with -j `jobs`: its wall and CPU time, s; its rows. */
static char *
sweep_once (Bench      *bench,
            const char *sweep,
            guint       jobs,
            double     *wall,
            double     *cpu)
{
  g_autofree char *j = g_strdup_printf ("%u", jobs);
  const char *argv[] = { bench->winnow_run, "--sweep", sweep, "-j", j, NULL };
  g_autoptr(GError) error = NULL;
  char *out = NULL;
  int status;
  double t0 = wall_seconds (), c0 = children_cpu_seconds ();

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_LEAVE_DESCRIPTORS_OPEN | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, &out, NULL, &status, &error))
    {
      g_printerr ("wn-bench: %s: %s\n", bench->winnow_run, error->message);
      exit (1);
    }
  *wall = wall_seconds () - t0;
  *cpu = children_cpu_seconds () - c0;
  /* a sweep of retry policies exits 1: some orders fail */
  if (!WIFEXITED (status) || WEXITSTATUS (status) > 1)
    {
      g_printerr ("wn-bench: winnow-run --sweep %s -j %u failed (status %d)\n", sweep, jobs, status);
      exit (1);
    }
  return out;
}

/* -j 1 and -j 2 in turns, so that both see the same machine; the speed-up
 * per pair, and what the CPU times say it would be with two idle cores. */
static void
bench_sweep (Bench *bench)
{
  g_autofree char *sweep = g_build_filename (bench->data_dir, "sweep-20.sweep.json", NULL);
  Series one = { { 0 }, 0 }, two = { { 0 }, 0 }, ratio = { { 0 }, 0 }, estimate = { { 0 }, 0 };
  g_autofree char *first_rows = NULL;
  double load[3];

  if (getloadavg (load, 1) < 1)
    load[0] = -1;
  print_section ("sweep: 20 variants × 10⁵ instances (2·10⁶ orders), -j 1 and -j 2 in turns, wall time");
  for (guint i = 0; i < bench->runs; i++)
    {
      double w1, c1, w2, c2;
      g_autofree char *rows1 = sweep_once (bench, sweep, 1, &w1, &c1);
      g_autofree char *rows2 = sweep_once (bench, sweep, 2, &w2, &c2);

      if (g_strcmp0 (rows1, rows2) != 0 || (first_rows != NULL && g_strcmp0 (rows1, first_rows) != 0))
        {
          g_printerr ("wn-bench: the sweep's rows differ between runs or between -j 1 and -j 2\n");
          exit (1);
        }
      if (first_rows == NULL)
        first_rows = g_steal_pointer (&rows1);
      series_add (&one, w1);
      series_add (&two, w2);
      series_add (&ratio, w1 / w2);
      series_add (&estimate, 2 * c1 / c2);
    }
  print_row ("-j 1", &one, 2, "s", TARGET_NONE, 0, BASIS_NONE);
  print_row ("-j 2", &two, 2, "s", TARGET_NONE, 0, BASIS_NONE);
  print_row ("speed-up -j 2 over -j 1 (wall)", &ratio, 2, "×", TARGET_AT_LEAST, 1.8, BASIS_RATIO);
  print_row ("speed-up with two idle cores (2 CPU₁ / CPU₂)", &estimate, 2, "×", TARGET_NONE, 0, BASIS_NONE);
  if (load[0] >= 0)
    g_print ("  (load average %.1f before the sweep rows: the wall speed-up needs both cores free)\n", load[0]);
}

/* ---- the REST server against a bare libsoup server ---- */

#define REST_TASKS 10000       /* tasks completed a run (a tenth with --quick) */
#define REST_WORKERS 4         /* concurrent clients of one SoupSession, one connection each */
#define REST_MAX_TASKS 100
#define REST_JS_TASKS 300      /* the JS client with its defaults: about 33 tasks a second */
#define REST_POLLS 1000

static const char rest_fetch_body[] =
  "{\"workerId\":\"bench\",\"maxTasks\":100,\"usePriority\":true,"
  "\"topics\":[{\"topicName\":\"work\",\"lockDuration\":600000}]}";
static const char rest_complete_body[] = "{\"workerId\":\"bench\"}";

typedef struct _RestClient RestClient;

typedef struct {
  RestClient *client;
  GPtrArray  *todo;         /* char*: the ids its last fetch locked */
  guint       next;         /* the next of them to complete */
} RestWorker;

/* Workers that fetch 100 tasks, complete them one by one, and fetch again
 * until `target` tasks have been asked for; in a thread of their own, so
 * that the server's thread serves and only serves. */
struct _RestClient {
  char         *base;       /* …/engine-rest */
  guint         tasks;      /* tasks of the timed round */
  guint         warm;       /* tasks of the untimed first round */
  guint         target;     /* of the round under way */
  guint         asked;
  guint         completed;
  guint         busy;       /* workers not yet done */
  GBytes       *first;      /* the body of the first fetch's answer */
  char         *failure;
  GMainLoop    *loop;
  SoupSession  *session;
  RestWorker    workers[REST_WORKERS];
  double        seconds;    /* the timed round */
  gint          done;       /* atomic: the thread has finished */
  GMainContext *server_context;
};

static void rest_worker_next (RestWorker *worker);

static void
rest_fail (RestClient *client,
           char       *message)
{
  if (client->failure == NULL)
    client->failure = message;
  else
    g_free (message);
  g_main_loop_quit (client->loop);
}

/* libsoup 3.2's client, as its server, takes a 204 without a length for a
 * response ended by closing, and drops the connection after it: said to
 * have no body, the connection is kept. */
static void
rest_got_headers (SoupMessage *message)
{
  if (soup_message_get_status (message) == SOUP_STATUS_NO_CONTENT)
    soup_message_headers_set_encoding (soup_message_get_response_headers (message), SOUP_ENCODING_NONE);
}

static void
rest_post (RestWorker          *worker,
           const char          *path,
           const char          *body,
           gsize                length,
           GAsyncReadyCallback  callback)
{
  g_autofree char *url = g_strconcat (worker->client->base, path, NULL);
  g_autoptr(SoupMessage) message = soup_message_new (SOUP_METHOD_POST, url);
  g_autoptr(GBytes) bytes = g_bytes_new_static (body, length);

  /* a POST reuses a kept-alive connection only when flagged repeatable */
  soup_message_add_flags (message, SOUP_MESSAGE_IDEMPOTENT);
  g_signal_connect (message, "got-headers", G_CALLBACK (rest_got_headers), NULL);
  soup_message_set_request_body_from_bytes (message, "application/json", bytes);
  soup_session_send_and_read_async (worker->client->session, message, G_PRIORITY_DEFAULT, NULL, callback, worker);
}

/* The answer, checked to have `status`; NULL (the client failed) otherwise. */
static GBytes *
rest_answer (RestWorker   *worker,
             GObject      *source,
             GAsyncResult *result,
             guint         status)
{
  g_autoptr(GError) error = NULL;
  GBytes *body = soup_session_send_and_read_finish (SOUP_SESSION (source), result, &error);
  SoupMessage *message = soup_session_get_async_result_message (SOUP_SESSION (source), result);

  if (body == NULL || soup_message_get_status (message) != status)
    {
      rest_fail (worker->client, g_strdup_printf ("%s: %s", g_uri_get_path (soup_message_get_uri (message)),
                                                  error != NULL ? error->message
                                                  : soup_message_get_reason_phrase (message)));
      g_clear_pointer (&body, g_bytes_unref);
    }
  return body;
}

static void
rest_completed (GObject      *source,
                GAsyncResult *result,
                gpointer      data)
{
  RestWorker *worker = data;
  g_autoptr(GBytes) body = rest_answer (worker, source, result, 204);

  if (body == NULL)
    return;
  worker->client->completed++;
  worker->next++;
  rest_worker_next (worker);
}

static void
rest_fetched (GObject      *source,
              GAsyncResult *result,
              gpointer      data)
{
  RestWorker *worker = data;
  RestClient *client = worker->client;
  g_autoptr(GBytes) body = rest_answer (worker, source, result, 200);
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(GError) error = NULL;
  gsize size = 0;
  const char *text;
  JsonNode *root;

  if (body == NULL)
    return;
  text = g_bytes_get_data (body, &size);
  if (!json_parser_load_from_data (parser, text, (gssize) size, &error) ||
      !JSON_NODE_HOLDS_ARRAY (root = json_parser_get_root (parser)) ||
      json_array_get_length (json_node_get_array (root)) == 0)
    {
      rest_fail (client, g_strdup_printf ("fetchAndLock: no task in %.*s", (int) MIN (size, 200), text));
      return;
    }
  if (client->first == NULL)
    client->first = g_bytes_ref (body);
  g_ptr_array_set_size (worker->todo, 0);
  worker->next = 0;
  for (guint i = 0; i < json_array_get_length (json_node_get_array (root)); i++)
    {
      JsonObject *task = json_array_get_object_element (json_node_get_array (root), i);

      g_ptr_array_add (worker->todo, g_strdup_printf ("/external-task/%s/complete",
                                                      json_object_get_string_member (task, "id")));
    }
  rest_worker_next (worker);
}

static void
rest_worker_next (RestWorker *worker)
{
  RestClient *client = worker->client;

  if (worker->next < worker->todo->len)
    rest_post (worker, g_ptr_array_index (worker->todo, worker->next), rest_complete_body,
               sizeof rest_complete_body - 1, rest_completed);
  else if (client->asked < client->target)
    {
      client->asked += REST_MAX_TASKS;
      rest_post (worker, "/external-task/fetchAndLock", rest_fetch_body, sizeof rest_fetch_body - 1,
                 rest_fetched);
    }
  else if (--client->busy == 0)
    g_main_loop_quit (client->loop);
}

/* One round: every worker works until `target` tasks have been asked for. */
static void
rest_round (RestClient *client,
            guint       target)
{
  client->target = target;
  client->asked = 0;
  client->completed = 0;
  client->busy = REST_WORKERS;
  for (guint i = 0; i < REST_WORKERS; i++)
    rest_worker_next (&client->workers[i]);
  g_main_loop_run (client->loop);
}

static gpointer
rest_client_thread (gpointer data)
{
  RestClient *client = data;
  GMainContext *context = g_main_context_new ();
  double t0;

  g_main_context_push_thread_default (context);
  client->loop = g_main_loop_new (context, FALSE);
  client->session = soup_session_new_with_options ("max-conns-per-host", REST_WORKERS, NULL);
  for (guint i = 0; i < REST_WORKERS; i++)
    client->workers[i] = (RestWorker) { client, g_ptr_array_new_with_free_func (g_free), 0 };
  /* untimed: the connections opened, the first answer kept for the bare server */
  rest_round (client, client->warm);
  t0 = wall_seconds ();
  if (client->failure == NULL)
    rest_round (client, client->tasks);
  client->seconds = wall_seconds () - t0;
  if (client->failure == NULL && client->completed != client->tasks)
    client->failure = g_strdup_printf ("%u tasks completed of %u", client->completed, client->tasks);
  for (guint i = 0; i < REST_WORKERS; i++)
    g_ptr_array_unref (client->workers[i].todo);
  soup_session_abort (client->session);
  g_object_unref (client->session);
  g_main_loop_unref (client->loop);
  g_main_context_pop_thread_default (context);
  g_main_context_unref (context);
  g_atomic_int_set (&client->done, 1);
  g_main_context_wakeup (client->server_context);
  return NULL;
}

/* Tasks completed per wall second by the workers against the server at
 * `base`, which this thread's main loop serves meanwhile. `first`, when not
 * NULL, receives the first fetch's answer. */
static double
rest_completion_rate (const char *base,
                      guint       tasks,
                      GBytes    **first)
{
  RestClient client = { 0 };
  GThread *thread;

  client.base = g_strdup (base);
  client.warm = REST_WORKERS * REST_MAX_TASKS;
  client.tasks = tasks;
  client.server_context = g_main_context_default ();
  thread = g_thread_new ("rest client", rest_client_thread, &client);
  while (!g_atomic_int_get (&client.done))
    g_main_context_iteration (NULL, TRUE);
  g_thread_join (thread);
  if (client.failure != NULL)
    {
      g_printerr ("wn-bench: %s: %s\n", base, client.failure);
      exit (1);
    }
  if (first != NULL)
    *first = g_steal_pointer (&client.first);
  g_clear_pointer (&client.first, g_bytes_unref);
  g_free (client.base);
  return tasks / client.seconds;
}

/* The bare server: Winnow's first answer to every fetchAndLock, 204 to
 * every complete, nothing looked at. As Winnow's server does, it says after
 * the headers of a 204 that it had no body, or libsoup 3.2 would close the
 * connection after every complete (wn-rest-server.c, respond_no_content). */
static void
bare_no_content_written (SoupServerMessage *message)
{
  soup_message_headers_set_encoding (soup_server_message_get_response_headers (message), SOUP_ENCODING_NONE);
}

static void
bare_answer (SoupServer        *server,
             SoupServerMessage *message,
             const char        *path,
             GHashTable        *query,
             gpointer           data)
{
  GBytes **answer = data;

  if (g_str_has_suffix (path, "/fetchAndLock"))
    {
      gsize size = 0;
      gconstpointer bytes = g_bytes_get_data (*answer, &size);

      soup_server_message_set_status (message, SOUP_STATUS_OK, NULL);
      soup_server_message_set_response (message, "application/json", SOUP_MEMORY_COPY, bytes, size);
    }
  else
    {
      soup_server_message_set_status (message, SOUP_STATUS_NO_CONTENT, NULL);
      g_signal_connect (message, "wrote-headers", G_CALLBACK (bare_no_content_written), NULL);
    }
}

/* Winnow's side of one pair: a fresh run of `tasks` jobs (and the warm-up
 * round's) served as winnow-run --serve serves them, the clock at 1×. */
static double
rest_winnow_once (WnProcess *process,
                  guint      tasks,
                  GBytes   **first)
{
  g_autoptr(GError) error = NULL;
  WnEngineOptions options = { 0 };
  g_autofree char *base = NULL;
  WnScheduler *scheduler;
  WnRestServer *server;
  WnEngine *engine;
  WnRunStats stats;
  double rate;

  options.instances = tasks + REST_WORKERS * REST_MAX_TASKS;
  options.no_implicit_workers = TRUE;
  engine = wn_engine_new (process, NULL, &options);
  wn_engine_run (engine, 0);
  scheduler = wn_engine_get_scheduler (engine);
  server = wn_rest_server_new (engine);
  if (!wn_rest_server_listen (server, "127.0.0.1", 0, &error))
    {
      g_printerr ("wn-bench: cannot listen: %s\n", error->message);
      exit (2);
    }
  wn_scheduler_set_speed (scheduler, 1.0);
  wn_scheduler_attach (scheduler, NULL);
  wn_scheduler_resume (scheduler);
  base = g_strdup (wn_rest_server_get_url (server));
  rate = rest_completion_rate (base, tasks, first);
  /* the completions' continuations, then every instance must have ended */
  wn_scheduler_pause (scheduler);
  wn_scheduler_detach (scheduler);
  wn_engine_run (engine, WN_TIME_NEVER);
  wn_engine_get_stats (engine, &stats);
  if (stats.active != 0 || stats.instances != options.instances)
    {
      g_printerr ("wn-bench: rest: %u of %u instances still active\n", stats.active, stats.instances);
      exit (1);
    }
  wn_rest_server_free (server);
  wn_engine_free (engine);
  return rate;
}

static void
bench_rest_completions (Bench     *bench,
                        WnProcess *process)
{
  g_autoptr(SoupServer) bare = soup_server_new (NULL, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) answer = NULL;
  g_autofree char *bare_base = NULL;
  g_autofree char *title = NULL;
  Series winnow = { { 0 }, 0 }, peer = { { 0 }, 0 }, ratio = { { 0 }, 0 };
  guint tasks = bench->quick ? REST_TASKS / 10 : REST_TASKS;
  GSList *uris;

  if (!soup_server_listen_local (bare, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error))
    {
      g_printerr ("wn-bench: cannot listen: %s\n", error->message);
      exit (2);
    }
  soup_server_add_handler (bare, "/engine-rest/external-task", bare_answer, &answer, NULL);
  uris = soup_server_get_uris (bare);
  bare_base = g_strdup_printf ("http://127.0.0.1:%d/engine-rest", g_uri_get_port (uris->data));
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);

  title = g_strdup_printf ("rest: tasks completed per second, fetchAndLock (maxTasks %u) then a complete each, "
                           "%u kept-alive libsoup clients, %u tasks a run", REST_MAX_TASKS, REST_WORKERS, tasks);
  print_section (title);
  for (guint i = 0; i < bench->runs; i++)
    {
      /* in turns, so that both see the same machine; the bare server
       * answers every fetch with Winnow's first answer of this pair */
      g_autoptr(GBytes) first = NULL;
      double w = rest_winnow_once (process, tasks, &first);
      double b;

      g_clear_pointer (&answer, g_bytes_unref);
      answer = g_steal_pointer (&first);
      b = rest_completion_rate (bare_base, tasks, NULL);
      series_add (&winnow, w);
      series_add (&peer, b);
      series_add (&ratio, w / b);
    }
  print_row ("Winnow's REST server (the run at 1×)", &winnow, 0, "/s", TARGET_NONE, 0, BASIS_NONE);
  print_row ("bare libsoup server, the same answers", &peer, 0, "/s", TARGET_NONE, 0, BASIS_NONE);
  print_row ("ratio Winnow / bare server", &ratio, 2, "×", TARGET_AT_LEAST, 0.5, BASIS_RATIO);
  soup_server_disconnect (bare);
}

/* The real JS client with its defaults against winnow-run --serve: the
 * wall seconds it took to complete `tasks`, as its script measured them. */
static double
rest_js_once (Bench      *bench,
              const char *script,
              const char *process_path,
              guint       tasks)
{
  g_autofree char *count = g_strdup_printf ("%u", tasks);
  const char *serve_argv[] = { bench->winnow_run, "--serve", "127.0.0.1:0", "-n", count, "-q",
                               "--summary", "json", process_path, NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  g_autofree char *out = NULL;
  char line[4096];
  FILE *errors;
  GPid pid;
  int err_fd, status;

  if (!g_spawn_async_with_pipes (NULL, (char **) serve_argv, NULL,
                                 G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                                 NULL, NULL, &pid, NULL, NULL, &err_fd, &error))
    {
      g_printerr ("wn-bench: %s: %s\n", bench->winnow_run, error->message);
      exit (1);
    }
  errors = fdopen (err_fd, "r");
  /* "winnow-run: serving … at http://127.0.0.1:PORT/engine-rest (…)", in any language */
  while (url == NULL && errors != NULL && fgets (line, sizeof line, errors) != NULL)
    {
      const char *at = strstr (line, "http://");

      if (at != NULL)
        url = g_strndup (at, strcspn (at, " \n"));
    }
  if (url == NULL)
    {
      g_printerr ("wn-bench: winnow-run --serve ended before it served\n");
      exit (1);
    }
  {
    const char *node_argv[] = { "node", script, url, count, NULL };

    if (!g_spawn_sync (NULL, (char **) node_argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, NULL,
                       &status, &error) ||
        !g_spawn_check_wait_status (status, &error))
      {
        g_printerr ("wn-bench: %s: %s\n", script, error->message);
        kill (pid, SIGTERM);
        exit (1);
      }
  }
  /* every instance has ended: the runner ends by itself (what it still says is read, not kept) */
  while (fgets (line, sizeof line, errors) != NULL)
    ;
  fclose (errors);
  if (waitpid (pid, &status, 0) != pid || !g_spawn_check_wait_status (status, &error))
    {
      g_printerr ("wn-bench: winnow-run --serve: %s\n", error != NULL ? error->message : g_strerror (errno));
      exit (1);
    }
  g_spawn_close_pid (pid);
  return g_ascii_strtod (out, NULL);
}

static void
bench_rest_js (Bench *bench)
{
  g_autofree char *script = NULL;
  g_autofree char *process_path = g_build_filename (bench->data_dir, "rest.process.json", NULL);
  g_autofree char *label = NULL;
  guint tasks = bench->quick ? REST_JS_TASKS / 3 : REST_JS_TASKS;
  Series s = { { 0 }, 0 };

  label = g_strdup_printf ("JS client, its defaults, %u tasks", tasks);
  if (bench->interop_dir == NULL || bench->winnow_run == NULL)
    {
      print_na (label, "needs --interop DIR (bench/run.sh installs the client) and --winnow-run");
      return;
    }
  script = g_build_filename (bench->interop_dir, "rest-js.mjs", NULL);
  print_section ("rest: camunda-external-task-client-js 3.1.0 against winnow-run --serve, tasks completed per second");
  for (guint i = 0; i < bench->runs; i++)
    series_add (&s, rest_js_once (bench, script, process_path, tasks));
  print_row (label, &s, 1, "/s", TARGET_NONE, 0, BASIS_NONE);
}

/* ---- parked long polls ---- */

/* In a fresh child process: serve, say where, and once `polls` long polls
 * are parked, print the resident size (now and at its peak, KiB) and the
 * CPU time one wall second of holding them costs, then end. */
static int
child_polls (Bench *bench,
             guint  polls)
{
  static const char no_start[] = "{\"format\": \"winnow.scenario/1\", \"start\": []}";
  g_autoptr(WnProcess) process = load_data_process (bench, "rest.process.json");
  g_autoptr(WnScenario) scenario = wn_load_scenario_data (no_start, -1, "polls", NULL, NULL);
  g_autoptr(GError) error = NULL;
  WnEngineOptions options = { 0 };
  WnRestServer *server;
  WnEngine *engine;
  double give_up, cpu, wall;

  /* no instance: every poll waits */
  options.no_implicit_workers = TRUE;
  engine = wn_engine_new (process, scenario, &options);
  server = wn_rest_server_new (engine);
  if (!wn_rest_server_listen (server, "127.0.0.1", 0, &error))
    {
      g_printerr ("wn-bench: cannot listen: %s\n", error->message);
      return 2;
    }
  wn_scheduler_set_speed (wn_engine_get_scheduler (engine), 1.0);
  wn_scheduler_attach (wn_engine_get_scheduler (engine), NULL);
  wn_scheduler_resume (wn_engine_get_scheduler (engine));
  g_print ("%s\n", wn_rest_server_get_url (server));
  fflush (stdout);
  give_up = wall_seconds () + 120;
  while (wn_rest_server_get_n_polls (server) < polls)
    {
      g_main_context_iteration (NULL, TRUE);
      if (wall_seconds () > give_up)
        {
          g_printerr ("wn-bench: %u of %u polls parked\n", wn_rest_server_get_n_polls (server), polls);
          return 1;
        }
    }
  cpu = cpu_seconds ();
  wall = wall_seconds ();
  while (wall_seconds () < wall + 1)
    g_main_context_iteration (NULL, TRUE);
  cpu = (cpu_seconds () - cpu) / (wall_seconds () - wall);
  if (wn_rest_server_get_n_polls (server) != polls)
    {
      g_printerr ("wn-bench: a parked poll was answered\n");
      return 1;
    }
  g_print ("%.0f %.0f %.4f\n", rss_now_kib (), rss_peak_kib (), cpu);
  fflush (stdout);
  return 0;
}

static void
polls_answered (GObject      *source,
                GAsyncResult *result,
                gpointer      data)
{
  g_autoptr(GBytes) body = soup_session_send_and_read_finish (SOUP_SESSION (source), result, NULL);
}

/* The child's resident size and CPU share with `polls` parked polls sent
 * from this process, each on its own connection. */
static void
polls_once (Bench  *bench,
            guint   polls,
            double *rss_mib,
            double *peak_mib,
            double *cpu_share)
{
  g_autofree char *count = g_strdup_printf ("%u", polls);
  const char *argv[] = { bench->self, "--data", bench->data_dir, "--child-polls", count, NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(SoupSession) session = soup_session_new_with_options ("max-conns", polls + 1,
                                                                  "max-conns-per-host", polls + 1, NULL);
  g_autofree char *target = NULL;
  char line[4096];
  gboolean figures = FALSE;
  FILE *out;
  GPid pid;
  int out_fd, status;

  if (!g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid,
                                 NULL, &out_fd, NULL, &error))
    {
      g_printerr ("wn-bench: polls child: %s\n", error->message);
      exit (1);
    }
  out = fdopen (out_fd, "r");
  if (out == NULL || fgets (line, sizeof line, out) == NULL)
    {
      g_printerr ("wn-bench: polls child ended before it served\n");
      exit (1);
    }
  line[strcspn (line, "\n")] = '\0';
  target = g_strconcat (line, "/external-task/fetchAndLock", NULL);
  for (guint i = 0; i < polls; i++)
    {
      g_autofree char *body =
        g_strdup_printf ("{\"workerId\":\"poll%u\",\"maxTasks\":1,\"asyncResponseTimeout\":600000,"
                         "\"topics\":[{\"topicName\":\"work\",\"lockDuration\":10000}]}", i);
      g_autoptr(SoupMessage) message = soup_message_new (SOUP_METHOD_POST, target);
      g_autoptr(GBytes) bytes = g_bytes_new (body, strlen (body));

      soup_message_set_request_body_from_bytes (message, "application/json", bytes);
      soup_session_send_and_read_async (session, message, G_PRIORITY_DEFAULT, NULL, polls_answered, NULL);
    }
  /* send them while the child waits for them, until it gives its figures */
  while (!figures)
    {
      GPollFD fd = { out_fd, G_IO_IN | G_IO_HUP, 0 };

      g_main_context_iteration (NULL, FALSE);
      if (g_poll (&fd, 1, 5) > 0)
        {
          if (fgets (line, sizeof line, out) == NULL ||
              sscanf (line, "%lf %lf %lf", rss_mib, peak_mib, cpu_share) != 3)
            {
              g_printerr ("wn-bench: polls child ended without its figures\n");
              exit (1);
            }
          figures = TRUE;
        }
    }
  fclose (out);
  *rss_mib /= 1024;
  *peak_mib /= 1024;
  if (waitpid (pid, &status, 0) != pid || !g_spawn_check_wait_status (status, &error))
    {
      g_printerr ("wn-bench: polls child: %s\n", error != NULL ? error->message : g_strerror (errno));
      exit (1);
    }
  g_spawn_close_pid (pid);
  soup_session_abort (session);
}

static void
bench_rest_polls (Bench *bench)
{
  Series rss = { { 0 }, 0 }, peak = { { 0 }, 0 }, cpu = { { 0 }, 0 };

  print_section ("rest: 1 000 long polls parked at once on one server (a child process each run)");
  for (guint i = 0; i < bench->runs; i++)
    {
      double r, p, c;

      polls_once (bench, REST_POLLS, &r, &p, &c);
      series_add (&rss, r);
      series_add (&peak, p);
      series_add (&cpu, c * 100);
    }
  print_row ("resident size of the whole process, peak", &peak, 1, "MiB", TARGET_BELOW, 50, BASIS_BUDGET);
  print_row ("resident size, polls held", &rss, 1, "MiB", TARGET_NONE, 0, BASIS_NONE);
  print_row ("CPU while they wait (one wall second)", &cpu, 1, "%", TARGET_NONE, 0, BASIS_NONE);
}

static void
bench_rest (Bench *bench)
{
  g_autoptr(WnProcess) process = load_data_process (bench, "rest.process.json");
  double load[3];

  if (getloadavg (load, 1) < 1)
    load[0] = -1;
  bench_rest_completions (bench, process);
  bench_rest_js (bench);
  bench_rest_polls (bench);
  if (load[0] >= 0)
    g_print ("  (load average %.1f before the rest rows; the C clients run in a thread of their own)\n", load[0]);
}

/* ---- main ---- */

static gboolean
wanted (Bench      *bench,
        const char *name)
{
  return bench->only == NULL || g_strv_contains ((const char * const *) bench->only, name);
}

int
main (int    argc,
      char **argv)
{
  Bench bench = { 0 };
  int runs = 5;
  int status = 0;
  int child_memory_instances = 0;
  int child_throughput_instances = 0;
  int child_polls_count = 0;
  char *only = NULL;
  char *data_dir = NULL;
  char *winnow_run = NULL;
  char *peer_dir = NULL;
  char *interop_dir = NULL;
  char *app = NULL;
  char *probe = NULL;
  char *schemas = NULL;
  char *csv = NULL;
  char *rows = NULL;
  gboolean quick = FALSE;
  GOptionEntry entries[] = {
    { "runs", 'r', 0, G_OPTION_ARG_INT, &runs, "Runs per measure (the table shows the median)", "N" },
    { "quick", 0, 0, G_OPTION_ARG_NONE, &quick, "Smaller sizes, for a smoke test", NULL },
    { "only", 0, 0, G_OPTION_ARG_STRING, &only, "Comma-separated: throughput,fetch,memory,travel,travel-app,load,gui (gui-timeline: its Timeline and Compare rows alone),peer,sweep,rest", "LIST" },
    { "data", 0, 0, G_OPTION_ARG_FILENAME, &data_dir, "The bench's process files", "DIR" },
    { "winnow-run", 0, 0, G_OPTION_ARG_FILENAME, &winnow_run, "The runner to compare with the peer", "PATH" },
    { "peer", 0, 0, G_OPTION_ARG_FILENAME, &peer_dir, "The peer's directory (run.mjs, node_modules)", "DIR" },
    { "interop", 0, 0, G_OPTION_ARG_FILENAME, &interop_dir, "camunda-external-task-client-js installed with rest-js.mjs (the JS rest row)", "DIR" },
    { "app", 0, 0, G_OPTION_ARG_FILENAME, &app, "The GTK app, for the GUI measures", "PATH" },
    { "probe", 0, 0, G_OPTION_ARG_FILENAME, &probe, "wn-frame-probe.so, loaded into the app", "PATH" },
    { "schemas", 0, 0, G_OPTION_ARG_FILENAME, &schemas, "The app's compiled GSettings schema directory", "DIR" },
    { "csv", 0, 0, G_OPTION_ARG_FILENAME, &csv, "Also measure the growth curves and write them here", "FILE" },
    { "rows", 0, 0, G_OPTION_ARG_STRING, &rows, "Only the throughput workloads whose name contains TEXT, or that TEXT names: (a), (b), workerTrusted …", "TEXT" },
    { "child-memory", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_INT, &child_memory_instances, NULL, NULL },
    { "child-throughput", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_INT, &child_throughput_instances, NULL, NULL },
    { "child-polls", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_INT, &child_polls_count, NULL, NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;

  setlocale (LC_ALL, "");
  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_summary (context, "Winnow's benchmarks; bench/run.sh runs them all.");
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("wn-bench: %s\n", error->message);
      return 2;
    }

  bench.runs = CLAMP (runs, 1, MAX_RUNS);
  bench.quick = quick;
  bench.only = only != NULL ? g_strsplit (only, ",", -1) : NULL;
  bench.data_dir = data_dir != NULL ? data_dir : BENCH_DATA_DIR;
  bench.winnow_run = winnow_run;
  bench.peer_dir = peer_dir;
  bench.interop_dir = interop_dir;
  bench.app = app;
  bench.probe = probe;
  bench.schemas = schemas;
  bench.csv = csv;
  bench.rows = rows;
  bench.self = "/proc/self/exe";

  if (child_memory_instances > 0)
    return child_memory (&bench, (guint) child_memory_instances);
  if (child_throughput_instances > 0)
    return child_throughput (&bench, (guint) child_throughput_instances);
  if (child_polls_count > 0)
    return child_polls (&bench, (guint) child_polls_count);

  if (csv != NULL)
    {
      bench.csv_out = fopen (csv, "w");
      if (bench.csv_out == NULL)
        {
          g_printerr ("wn-bench: %s: %s\n", csv, g_strerror (errno));
          return 2;
        }
      fprintf (bench.csv_out, "series,x,y\n");
    }

  g_print ("Winnow benchmarks — %s, %ld CPUs online; median of %u runs (min – max)\n\n",
           quick ? "QUICK sizes" : "release build", sysconf (_SC_NPROCESSORS_ONLN), bench.runs);
  print_header ();
  if (wanted (&bench, "throughput"))
    bench_throughput (&bench);
  if (wanted (&bench, "fetch"))
    bench_fetch (&bench);
  if (wanted (&bench, "memory"))
    bench_memory (&bench);
  if (wanted (&bench, "travel"))
    {
      bench_travel (&bench);
      bench_checkpoints (&bench);
    }
  if (wanted (&bench, "load"))
    bench_load (&bench);
  if (wanted (&bench, "gui"))
    bench_gui (&bench, TRUE);
  else if (wanted (&bench, "gui-timeline"))
    bench_gui (&bench, FALSE);
  if (wanted (&bench, "travel-app"))
    bench_travel_app (&bench);
  if (wanted (&bench, "peer") && bench.winnow_run != NULL)
    bench_peer (&bench);
  if (wanted (&bench, "peer"))
    bench_moddle (&bench);
  if (wanted (&bench, "sweep") && bench.winnow_run != NULL)
    bench_sweep (&bench);
  if (wanted (&bench, "rest"))
    bench_rest (&bench);

  g_print ("\n%u rows; %u target%s missed\n", n_rows, n_failed_targets, n_failed_targets == 1 ? "" : "s");
  /* the table and the curves' figures are the bench's output: a lost write
   * is an error, as for winnow-run (exit 4) */
  if (bench.csv_out != NULL && (ferror (bench.csv_out) | fclose (bench.csv_out)) != 0)
    {
      g_printerr ("wn-bench: %s: could not be written whole\n", csv);
      status = 4;
    }
  if (fflush (stdout) != 0 || ferror (stdout))
    {
      g_printerr ("wn-bench: standard output: %s\n", g_strerror (errno));
      status = 4;
    }
  g_strfreev (bench.only);
  g_free (only);
  g_free (data_dir);
  g_free (winnow_run);
  g_free (peer_dir);
  g_free (interop_dir);
  g_free (app);
  g_free (probe);
  g_free (schemas);
  g_free (csv);
  g_free (rows);
  return status;
}

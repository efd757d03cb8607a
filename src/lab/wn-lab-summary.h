/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-lab-summary.h — the statistics of one variant over the seeds it ran.
 *
 * A summary keeps what merges exactly: per seed, the run's counts and its own
 * percentiles; over all seeds, the end events reached and the completion-time
 * histogram. Everything else (rates, intervals, pooled percentiles, the
 * comparison with a baseline) is derived when it is written, so merging the
 * rows of shards and writing them gives what one unsharded run writes.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include "winnow.h"
#include "wn-lab-error.h"
#include "wn-lab-histogram.h"
#include "wn-lab-stats.h"

G_BEGIN_DECLS

#define WN_LAB_ROW_FORMAT "winnow.sweep-row/1"

/* One run (one seed) of a variant, or the totals over several. */
typedef struct {
  guint64 seed;
  guint64 instances;
  guint64 completed;
  guint64 terminated;
  guint64 incidents;       /* instances holding an open incident at the end */
  guint64 active;
  guint64 executions;
  guint64 retries;
  guint64 exhausted;
  gint64  virtual_time_us; /* totals: the longest run */
  guint64 peak_per_s;      /* executions in the run's busiest virtual second; totals: the highest */
  gint64  p50, p90, p99, max;   /* exact nearest rank of this run; -1: none completed */
} WnLabSeedStats;

typedef struct _WnLabSummary WnLabSummary;

/* settings: the variant's settings object (copied), or NULL. */
WnLabSummary *wn_lab_summary_new        (const char *sweep, guint variant, const char *name,
                                         JsonObject *settings, guint seeds_planned);
void          wn_lab_summary_free       (WnLabSummary *self);

const char   *wn_lab_summary_get_sweep  (const WnLabSummary *self);
guint         wn_lab_summary_get_variant (const WnLabSummary *self);
const char   *wn_lab_summary_get_name   (const WnLabSummary *self);
JsonObject   *wn_lab_summary_get_settings (const WnLabSummary *self);
guint         wn_lab_summary_get_seeds_planned (const WnLabSummary *self);
guint         wn_lab_summary_get_n_seeds (const WnLabSummary *self);
const WnLabSeedStats *wn_lab_summary_get_seed (const WnLabSummary *self, guint i);
void          wn_lab_summary_get_totals (const WnLabSummary *self, WnLabSeedStats *totals);
const WnLabHistogram *wn_lab_summary_get_histogram (const WnLabSummary *self);
/* The end events completed instances reached, sorted by id (char*, borrowed;
 * the array is the caller's), and how many reached one. */
GPtrArray    *wn_lab_summary_get_ends   (const WnLabSummary *self);
guint64       wn_lab_summary_get_end_count (const WnLabSummary *self, const char *end);

typedef struct _WnLabLoad WnLabLoad;

/* Add a finished run of `engine` with seed `seed` and the load its journal
 * showed (wn_lab_load_*). */
void          wn_lab_summary_add_run    (WnLabSummary *self, WnEngine *engine, guint64 seed,
                                         const WnLabLoad *load);
/* Add other's seeds to self: both must be of the same sweep and variant, and
 * share no seed (WN_LAB_ERROR_MISMATCH, WN_LAB_ERROR_DUPLICATE). */
gboolean      wn_lab_summary_merge      (WnLabSummary *self, const WnLabSummary *other, GError **error);

/* Intervals derived from the data. */
void          wn_lab_summary_completed_rate (const WnLabSummary *self, WnLabInterval *out);
/* failed = terminated or holding an incident */
void          wn_lab_summary_failed_rate (const WnLabSummary *self, WnLabInterval *out);
void          wn_lab_summary_percentile (const WnLabSummary *self, double p, WnLabInterval *out);
/* The downstream load: executions in the busiest virtual second, the mean
 * over the seeds with its across-seed interval. */
void          wn_lab_summary_peak_load  (const WnLabSummary *self, WnLabInterval *out);

/* The load over time: executions per virtual second (second s at index s),
 * summed over the seeds, for the first WN_LAB_LOAD_SECONDS seconds; divide
 * by the seeds for a run's mean. Borrowed. */
#define WN_LAB_LOAD_SECONDS 3600
const GArray *wn_lab_summary_get_load   (const WnLabSummary *self);

/* Executions per job (its attempts, a takeover's cut-off one included),
 * over every job of every seed; exact below 128. Borrowed. */
const WnLabHistogram *wn_lab_summary_get_attempts (const WnLabSummary *self);

/* Counting a run's executions per virtual second, from its journal. */
struct _WnLabLoad {
  gint64  second;
  guint64 count;
  guint64 peak;
  GArray *per_second;      /* guint64, the first WN_LAB_LOAD_SECONDS seconds */
  GHashTable *jobs;        /* job id → its executions so far (GUINT_TO_POINTER) */
};

void          wn_lab_load_init          (WnLabLoad *load);
void          wn_lab_load_clear         (WnLabLoad *load);
/* A WnJournalFunc; data: a WnLabLoad. */
void          wn_lab_load_cb            (const WnEvent *event, gpointer data);

/* Compare self with baseline on the failed rate and p50, p90, p99: the
 * differences (self − baseline) with their intervals in out[4] (failed,
 * p50, p90, p99; any may be NULL) and one plain sentence (the caller's). */
char         *wn_lab_summary_compare    (const WnLabSummary *self, const WnLabSummary *baseline,
                                         WnLabInterval out[4], gboolean distinguishable[4]);

/* One JSON line (no newline) with everything above; with a baseline, a
 * "compare" member too. */
void          wn_lab_summary_append_json (const WnLabSummary *self, const WnLabSummary *baseline,
                                          GString *out);
/* A row parsed back; only its primary data is read (the derived members are
 * recomputed when it is written again). */
WnLabSummary *wn_lab_summary_from_json  (JsonNode *node, GError **error);

/* Every parameter the summaries' settings name, in the order they first
 * appear (char*, the caller's). */
GPtrArray    *wn_lab_summaries_get_params (GPtrArray *summaries);
/* CSV: a header naming `params` as settings columns, then one row per summary. */
void          wn_lab_summary_append_csv_header (GPtrArray *params, GString *out);
void          wn_lab_summary_append_csv (const WnLabSummary *self, const WnLabSummary *baseline,
                                         GPtrArray *params, GString *out);

/* A duration for people, to three significant digits: "2.84s", not
 * "2.842623s" (the figures are estimates, within 0.4 % at best). */
char         *wn_lab_format_duration    (double us);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WnLabSummary, wn_lab_summary_free)

G_END_DECLS

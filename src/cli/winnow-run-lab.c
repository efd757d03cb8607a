/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-run-lab.c — sweeps, shards and merges from the command line. */
#include "config.h"

#include <signal.h>
#include <string.h>
#include <glib/gi18n.h>

#include "winnow-run-lab.h"
#include "wn-lab.h"

enum {
  EXIT_COMPLETED = 0,
  EXIT_FAILED = 1,
  EXIT_INPUT = 2,
  EXIT_STOPPED = 3,
  EXIT_OUTPUT = 4,
};

/* Option callbacks get the main group's data (the v1 options): the lab's own
 * values are reached through this. */
static WinnowRunLab *the_lab;

/* -j/--jobs N and --seeds K. */
static gboolean
parse_count_cb (const char  *name,
                const char  *value,
                gpointer     data,
                GError     **error)
{
  gboolean jobs = !g_str_equal (name, "--seeds");
  guint64 n;

  if (!parse_decimal (jobs ? "--jobs" : "--seeds", value, 1, jobs ? 1024 : 1000000, &n, error))
    return FALSE;
  if (jobs)
    the_lab->jobs = (guint) n;
  else
    the_lab->seeds = (guint) n;
  return TRUE;
}

void
winnow_run_lab_add_entries (GOptionGroup *group,
                            WinnowRunLab *lab)
{
  GOptionEntry entries[] = {
    { "sweep", 0, 0, G_OPTION_ARG_FILENAME, &lab->sweep, N_("Run the variants × seeds of a sweep file; one summary row per variant"), N_("SWEEP.json") },
    { "seeds", 0, 0, G_OPTION_ARG_CALLBACK, parse_count_cb, N_("Run the process with K seeds (from --seed on) and print a summary row"), N_("K") },
    { "shard", 0, 0, G_OPTION_ARG_STRING, &lab->shard, N_("Run only shard K of N of the sweep’s (or the seeds’) runs"), N_("K/N") },
    { "jobs", 'j', 0, G_OPTION_ARG_CALLBACK, parse_count_cb, N_("Run N runs at a time on threads of their own (default 1)"), N_("N") },
    { "merge", 0, 0, G_OPTION_ARG_NONE, &lab->merge, N_("Merge the summary rows of shards (the files given) into one row per variant"), NULL },
    { "format", 0, 0, G_OPTION_ARG_STRING, &lab->format, N_("Summary rows as jsonl (default) or csv"), N_("FORMAT") },
    { NULL }
  };

  the_lab = lab;
  g_option_group_add_entries (group, entries);
}

gboolean
winnow_run_lab_requested (const WinnowRunLab *lab)
{
  return lab->sweep != NULL || lab->merge || lab->shard != NULL || lab->jobs > 0 ||
         lab->format != NULL || lab->seeds > 0;
}

void
winnow_run_lab_clear (WinnowRunLab *lab)
{
  g_clear_pointer (&lab->sweep, g_free);
  g_clear_pointer (&lab->shard, g_free);
  g_clear_pointer (&lab->format, g_free);
}

/* The exit status a run with these totals has (journal-and-cli.md). */
static int
status_of (GPtrArray *summaries)
{
  guint64 active = 0, failed = 0;

  for (guint i = 0; i < summaries->len; i++)
    {
      WnLabSeedStats t;

      wn_lab_summary_get_totals (g_ptr_array_index (summaries, i), &t);
      active += t.active;
      failed += t.terminated + t.incidents;
    }
  return active > 0 ? EXIT_STOPPED : failed > 0 ? EXIT_FAILED : EXIT_COMPLETED;
}

/* Rows to stdout; with `compare`, each row after the first is compared with
 * the first. FALSE when stdout could not be written (said on stderr). */
static gboolean
write_rows (GPtrArray  *summaries,
            GPtrArray  *params,
            gboolean    csv,
            gboolean    compare,
            WnOutput   *out)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  const WnLabSummary *baseline = compare && summaries->len > 1 ? g_ptr_array_index (summaries, 0) : NULL;

  if (csv)
    wn_lab_summary_append_csv_header (params, text);
  for (guint i = 0; i < summaries->len; i++)
    {
      if (csv)
        wn_lab_summary_append_csv (g_ptr_array_index (summaries, i), baseline, params, text);
      else
        {
          wn_lab_summary_append_json (g_ptr_array_index (summaries, i), baseline, text);
          g_string_append_c (text, '\n');
        }
      wn_output_write (out, text->str, text->len);
      g_string_truncate (text, 0);
    }
  if (!wn_output_commit (out, &error))
    {
      g_printerr ("winnow-run: %s\n", error->message);
      return FALSE;
    }
  return TRUE;
}

/* Between cells and every quarter second: a signal stops the runs. */
static void
watch_signals_cb (guint    done,
                  guint    total,
                  gpointer cancellable)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
  if (stopped_by () != 0)
    g_cancellable_cancel (cancellable);
}

/* A run sharded (or given --seeds) without a sweep file: a sweep of one
 * variant, written from the options, so that both go through one path. */
static char *
sweep_for_run (const char          *process,
               const WinnowRunLab  *lab,
               const WinnowRunBase *base)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "format");
  json_builder_add_string_value (b, WN_LAB_SWEEP_FORMAT);
  json_builder_set_member_name (b, "process");
  json_builder_add_string_value (b, process);
  if (base->scenario != NULL)
    {
      json_builder_set_member_name (b, "scenario");
      json_builder_add_string_value (b, base->scenario);
    }
  if (base->instances > 0)
    {
      json_builder_set_member_name (b, "instances");
      json_builder_add_int_value (b, base->instances);
    }
  json_builder_set_member_name (b, "seeds");
  json_builder_begin_object (b);
  if (base->has_seed)
    {
      json_builder_set_member_name (b, "first");
      json_builder_add_int_value (b, (gint64) base->seed);
    }
  json_builder_set_member_name (b, "count");
  json_builder_add_int_value (b, MAX (lab->seeds, 1));
  json_builder_end_object (b);
  if (base->until != NULL)
    {
      json_builder_set_member_name (b, "until");
      json_builder_add_string_value (b, base->until);
    }
  json_builder_set_member_name (b, "set");
  json_builder_begin_object (b);
  if (base->trust != NULL)
    {
      json_builder_set_member_name (b, "engine.trust");
      json_builder_add_string_value (b, base->trust);
    }
  if (base->on_exhausted != NULL)
    {
      json_builder_set_member_name (b, "engine.onExhausted");
      json_builder_add_string_value (b, base->on_exhausted);
    }
  json_builder_end_object (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  return json_to_string (root, FALSE);
}

static int
merge_main (char              **files,
            gboolean            csv,
            const WinnowRunBase *base,
            WnOutput           *out)
{
  g_autoptr(WnLabRows) rows = wn_lab_rows_new ();
  g_autoptr(GPtrArray) summaries = NULL;
  g_autoptr(GPtrArray) params = NULL;

  if (files == NULL || files[0] == NULL)
    {
      g_printerr ("winnow-run: %s\n", _("--merge needs the files of summary rows to merge"));
      return EXIT_INPUT;
    }
  for (guint i = 0; files[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;

      if (!wn_lab_rows_add_file (rows, files[i], base->max_input, &error))
        {
          /* the lab's messages start with the file and the line */
          if (error->domain == WN_LAB_ERROR)
            g_printerr ("%s\n", error->message);
          else
            g_printerr ("winnow-run: %s\n", error->message);
          return EXIT_INPUT;
        }
    }
  summaries = wn_lab_rows_steal_summaries (rows);
  if (summaries->len == 0)
    {
      g_printerr ("winnow-run: %s\n", _("--merge: the files hold no rows"));
      return EXIT_INPUT;
    }
  for (guint i = 0; i < summaries->len; i++)
    {
      WnLabSummary *s = g_ptr_array_index (summaries, i);

      if (wn_lab_summary_get_n_seeds (s) < wn_lab_summary_get_seeds_planned (s))
        g_printerr (_("winnow-run: notice: variant %u (%s) has %u of its %u seeds: a shard is missing\n"),
                    wn_lab_summary_get_variant (s), wn_lab_summary_get_name (s),
                    wn_lab_summary_get_n_seeds (s), wn_lab_summary_get_seeds_planned (s));
    }
  params = wn_lab_summaries_get_params (summaries);
  if (!write_rows (summaries, params, csv, TRUE, out))
    return EXIT_OUTPUT;
  return status_of (summaries);
}

int
winnow_run_lab_main (WinnowRunLab        *lab,
                     char               **files,
                     const WinnowRunBase *base,
                     WnOutput            *out)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) diagnostics = NULL;
  g_autoptr(WnLabSweep) sweep = NULL;
  g_autoptr(GPtrArray) summaries = NULL;
  g_autoptr(GCancellable) cancellable = NULL;
  guint shard_k = 1, shard_n = 1, finished = 0, cells = 0;
  gboolean csv = FALSE;

  if (lab->format != NULL)
    {
      if (g_str_equal (lab->format, "csv"))
        csv = TRUE;
      else if (!g_str_equal (lab->format, "jsonl"))
        {
          g_printerr ("winnow-run: %s\n", _("--format takes jsonl or csv"));
          return EXIT_INPUT;
        }
    }
  if (base->v1_output != NULL)
    {
      g_printerr (_("winnow-run: %s is for a single run: sweeps, shards and merges print summary rows (--format)\n"),
                  base->v1_output);
      return EXIT_INPUT;
    }
  if (lab->merge)
    {
      if (lab->sweep != NULL || lab->shard != NULL || lab->seeds > 0 || lab->jobs > 0)
        {
          g_printerr ("winnow-run: %s\n", _("--merge takes only files of rows (and --format)"));
          return EXIT_INPUT;
        }
      return merge_main (files, csv, base, out);
    }
  if (lab->shard != NULL && !wn_lab_shard_parse (lab->shard, &shard_k, &shard_n, &error))
    {
      g_printerr ("winnow-run: %s\n", error->message);
      return EXIT_INPUT;
    }
  if (lab->sweep != NULL)
    {
      if (files != NULL && files[0] != NULL)
        {
          g_printerr ("winnow-run: %s\n", _("--sweep names the process in the sweep file: give no process file"));
          return EXIT_INPUT;
        }
      if (base->scenario != NULL || base->has_seed || base->instances > 0 || base->until != NULL ||
          base->trust != NULL || base->on_exhausted != NULL || lab->seeds > 0)
        {
          g_printerr ("winnow-run: %s\n",
                      _("with --sweep, the scenario, seeds, instances, time limit, trust and onExhausted "
                        "are set in the sweep file"));
          return EXIT_INPUT;
        }
      sweep = wn_lab_sweep_load_file (lab->sweep, base->max_input, &diagnostics, &error);
    }
  else
    {
      g_autofree char *text = NULL;
      g_autofree char *cwd = g_get_current_dir ();

      if (files == NULL || files[0] == NULL || files[1] != NULL)
        {
          g_printerr ("winnow-run: %s\n", _("give exactly one process file (see --help)"));
          return EXIT_INPUT;
        }
      text = sweep_for_run (files[0], lab, base);
      sweep = wn_lab_sweep_load_data (text, -1, "winnow-run", cwd, base->max_input, &diagnostics, &error);
    }
  if (sweep == NULL)
    {
      print_diagnostics (diagnostics, error);
      return EXIT_INPUT;
    }
  if (base->validate)
    return EXIT_COMPLETED;

  /* this thread looks at the signals while the runs go on threads of their own */
  cancellable = g_cancellable_new ();
  stop_on_signals ();
  summaries = wn_lab_sweep_run_partial (sweep, shard_k, shard_n, MAX (lab->jobs, 1), cancellable, watch_signals_cb,
                                        cancellable, &finished, &cells, &error);
  if (summaries == NULL)
    {
      g_printerr ("winnow-run: %s\n", error->message);
      return EXIT_INPUT;
    }
  if (finished < cells)
    g_printerr (_("winnow-run: interrupted by %s after %u of %u runs: the rows hold the runs that finished\n"),
                stopped_by () == SIGINT ? "SIGINT" : "SIGTERM", finished, cells);
  /* a shard's rows are partial: they are compared once merged */
  if (!write_rows (summaries, wn_lab_sweep_get_params (sweep), csv, shard_n == 1, out))
    return EXIT_OUTPUT;
  return finished < cells ? EXIT_STOPPED : status_of (summaries);
}

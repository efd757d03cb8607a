/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-run — the headless runner (journal-and-cli.md). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <glib-unix.h>

#include "winnow.h"
#include "winnow-run-lab.h"
#include "winnow-run-serve.h"

enum {
  EXIT_COMPLETED = 0,
  EXIT_FAILED = 1,
  EXIT_INPUT = 2,
  EXIT_STOPPED = 3,
  EXIT_OUTPUT = 4,
};

/* Actions run between two looks at the main loop (signals). */
#define RUN_SLICE 1024

typedef struct {
  char     *scenario;
  gint64    seed;
  gboolean  has_seed;
  guint     instances;
  char     *until;
  char     *trust;
  char     *on_exhausted;
  gboolean  jsonl;
  char     *journal;
  char     *save_session;
  char     *summary;
  gboolean  quiet;
  gboolean  validate;
  char     *process_id;
  char     *undecidable;
  char     *export_json;
  gboolean  version;
  gsize     max_input;
  char    **breaks;
  char    **files;
  char     *serve;
  char     *speed;
  char     *basic_auth;
  char    **external_topics;
  guint64   at;             /* --at EVENT_SEQ; 0: not given */
} Options;

static void
options_clear (Options *o)
{
  g_clear_pointer (&o->scenario, g_free);
  g_clear_pointer (&o->until, g_free);
  g_clear_pointer (&o->trust, g_free);
  g_clear_pointer (&o->on_exhausted, g_free);
  g_clear_pointer (&o->journal, g_free);
  g_clear_pointer (&o->save_session, g_free);
  g_clear_pointer (&o->summary, g_free);
  g_clear_pointer (&o->process_id, g_free);
  g_clear_pointer (&o->undecidable, g_free);
  g_clear_pointer (&o->export_json, g_free);
  g_clear_pointer (&o->breaks, g_strfreev);
  g_clear_pointer (&o->files, g_strfreev);
  g_clear_pointer (&o->serve, g_free);
  g_clear_pointer (&o->speed, g_free);
  g_clear_pointer (&o->basic_auth, g_free);
  g_clear_pointer (&o->external_topics, g_strfreev);
}

/* Every way out of main() releases the parsed options. */
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Options, options_clear)

/* The readable trace (and the journal file's output, which takes JSON lines
 * through wn_output_journal_func): one line per event. */
typedef struct {
  WnOutput *out;
  GString  *line;
} Sink;

static void
sink_cb (const WnEvent *event,
         gpointer       data)
{
  Sink *sink = data;

  /* a failure is kept by the output; the run loop stops on it */
  g_string_truncate (sink->line, 0);
  wn_event_append_text (event, sink->line);
  g_string_append_c (sink->line, '\n');
  wn_output_write (sink->out, sink->line->str, sink->line->len);
}

/* Where stdout goes: the trace, the summary, the break state. */
static WnOutput *stdout_out;

/* Like g_print (text in the console’s charset), but into stdout_out, checked. */
static void G_GNUC_PRINTF (1, 2)
print_out (const char *format, ...)
{
  g_autofree char *text = NULL;
  const char *charset;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  if (!g_get_console_charset (&charset))
    {
      char *converted = g_convert_with_fallback (text, -1, charset, "UTF-8", "?", NULL, NULL, NULL);

      if (converted != NULL)
        {
          g_free (text);
          text = converted;
        }
    }
  wn_output_write (stdout_out, text, strlen (text));
}

/* Signals: the first SIGINT or SIGTERM ends the run after the action in
 * progress; a second one, with GLib's handlers gone, acts at once. */
static struct {
  guint int_source;
  guint term_source;
  int   caught;       /* the signal, 0 while none came */
} stop;

static gboolean
stop_cb (gpointer data)
{
  stop.caught = GPOINTER_TO_INT (data);
  /* this source ends by returning; the other one is removed here */
  if (stop.caught == SIGINT)
    {
      stop.int_source = 0;
      g_clear_handle_id (&stop.term_source, g_source_remove);
    }
  else
    {
      stop.term_source = 0;
      g_clear_handle_id (&stop.int_source, g_source_remove);
    }
  return G_SOURCE_REMOVE;
}

void
stop_on_signals (void)
{
  stop.int_source = g_unix_signal_add (SIGINT, stop_cb, GINT_TO_POINTER (SIGINT));
  stop.term_source = g_unix_signal_add (SIGTERM, stop_cb, GINT_TO_POINTER (SIGTERM));
}

int
stopped_by (void)
{
  return stop.caught;
}

/* A closed standard descriptor would be handed to the next file opened (the
 * journal), and the trace would land in it: hold the slot with a descriptor
 * that refuses the direction, so writes fail as on a closed one. */
static void
hold_standard_fds (void)
{
  for (int fd = 0; fd <= 2; fd++)
    if (fcntl (fd, F_GETFD) < 0 && errno == EBADF)
      {
        int held = open ("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);

        if (held >= 0 && held != fd)
          {
            dup2 (held, fd);
            close (held);
          }
      }
}

/* When `path` is the file `input` (the same inode), say so and refuse. */
static gboolean
overwrites_input (const struct stat *output,
                  const char        *output_name,
                  const char        *input)
{
  struct stat st;

  if (input == NULL || g_stat (input, &st) != 0 || !S_ISREG (st.st_mode))
    return FALSE;
  if (st.st_dev != output->st_dev || st.st_ino != output->st_ino)
    return FALSE;
  g_printerr (_("winnow-run: %s is the input file %s: refusing to write over it\n"), output_name, input);
  return TRUE;
}

/* stdout or the journal file on an input: the run would destroy it. */
static gboolean
outputs_overwrite_inputs (const char *journal,
                          const char *process,
                          const char *scenario)
{
  struct stat st;

  if (journal != NULL && g_stat (journal, &st) == 0 &&
      (overwrites_input (&st, journal, process) || overwrites_input (&st, journal, scenario)))
    return TRUE;
  if (fstat (STDOUT_FILENO, &st) == 0 && S_ISREG (st.st_mode) &&
      (overwrites_input (&st, _("standard output"), process) ||
       overwrites_input (&st, _("standard output"), scenario)))
    return TRUE;
  return FALSE;
}

static void
sink_clear (Sink *sink)
{
  /* stdout_out is not the trace's to free */
  if (sink->out != stdout_out)
    g_clear_pointer (&sink->out, wn_output_free);
  sink->out = NULL;
  if (sink->line != NULL)
    g_string_free (sink->line, TRUE);
  sink->line = NULL;
}

static gboolean
outputs_failed (WnOutput *journal)
{
  return wn_output_has_failed (stdout_out) || (journal != NULL && wn_output_has_failed (journal));
}

/* The run in slices, looking at the main loop (the signal sources) between
 * them: it stops after a slice when a signal came or an output failed.
 * With `at` (--at), step by step to the step that journals event `at`. */
static WnStopReason
run (WnEngine *engine,
     WnTime    until,
     guint64   at,
     WnOutput *journal)
{
  WnStopReason reason;

  do
    {
      reason = at > 0 ? wn_engine_run_to_event (engine, at, until, RUN_SLICE)
                      : wn_engine_run_budget (engine, until, RUN_SLICE);
      while (g_main_context_iteration (NULL, FALSE))
        ;
    }
  while (reason == WN_STOP_BUDGET && stop.caught == 0 && !outputs_failed (journal));
  return reason;
}

static gboolean
serve_should_stop (gpointer journal)
{
  return stop.caught != 0 || outputs_failed (journal);
}

/* Commit an output; FALSE (the reason on stderr) when it could not be written. */
static gboolean
finish_output (WnOutput *output)
{
  g_autoptr(GError) error = NULL;

  if (output == NULL || wn_output_commit (output, &error))
    return TRUE;
  g_printerr ("winnow-run: %s\n", error->message);
  return FALSE;
}

/* A whole number from min to max in decimal digits only, as the help says: no
 * sign, no leading space, no octal "010" or hex "0x10" (GLib's own int options
 * take those). */
gboolean
parse_decimal (const char  *option,
               const char  *value,
               guint64      min,
               guint64      max,
               guint64     *out,
               GError     **error)
{
  g_autofree char *lo = NULL;
  g_autofree char *hi = NULL;

  if (g_ascii_string_to_unsigned (value, 10, min, max, out, NULL))
    return TRUE;
  lo = g_strdup_printf ("%" G_GUINT64_FORMAT, min);
  hi = g_strdup_printf ("%" G_GUINT64_FORMAT, max);
  /* Translators: "--seed takes a whole number from 0 to 9223372036854775807, not “0x10”" */
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               _("%s takes a whole number from %s to %s, not “%s”"), option, lo, hi, value);
  return FALSE;
}

/* The range a scenario's seed has (a JSON integer), so a run's seed can be
 * written to a saved session and read back. */
static gboolean
parse_seed_cb (const char  *name,
               const char  *value,
               gpointer     data,
               GError     **error)
{
  Options *options = data;
  guint64 seed;

  if (!parse_decimal ("--seed", value, 0, G_MAXINT64, &seed, error))
    return FALSE;
  options->seed = (gint64) seed;
  options->has_seed = TRUE;
  return TRUE;
}

/* -n 0 is refused rather than read as "not given" (and so silently running the
 * scenario's own instances), as the app refuses it. */
static gboolean
parse_instances_cb (const char  *name,
                    const char  *value,
                    gpointer     data,
                    GError     **error)
{
  Options *options = data;
  guint64 instances;

  if (!parse_decimal ("--instances", value, 1, WN_MAX_INSTANCES, &instances, error))
    return FALSE;
  options->instances = (guint) instances;
  return TRUE;
}

static gboolean
parse_at_cb (const char  *name,
             const char  *value,
             gpointer     data,
             GError     **error)
{
  Options *options = data;

  return parse_decimal ("--at", value, 1, G_MAXINT64, &options->at, error);
}

/* --max-input-size: bytes, or with K, M or G (binary: 1024, 1024², 1024³). */
static gboolean
parse_size_cb (const char  *name,
               const char  *value,
               gpointer     data,
               GError     **error)
{
  Options *options = data;
  g_autofree char *digits = g_strdup (value);
  gsize len = strlen (digits);
  guint shift = 0;
  guint64 size;

  if (len > 0)
    switch (g_ascii_toupper (digits[len - 1]))
      {
      case 'K': shift = 10; break;
      case 'M': shift = 20; break;
      case 'G': shift = 30; break;
      default: break;
      }
  if (shift > 0)
    digits[len - 1] = '\0';
  if (!parse_decimal ("--max-input-size", digits, 1, G_MAXSSIZE >> shift, &size, NULL))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--max-input-size takes a positive number of bytes, optionally with K, M or G, not “%s”"),
                   value);
      return FALSE;
    }
  options->max_input = (gsize) size << shift;
  return TRUE;
}

void
print_diagnostics (GPtrArray  *diagnostics,
                   GError     *error)
{
  if (diagnostics != NULL && diagnostics->len > 0)
    for (guint i = 0; i < diagnostics->len; i++)
      {
        g_autofree char *line = wn_diagnostic_format (g_ptr_array_index (diagnostics, i));
        g_printerr ("%s\n", line);
      }
  else if (error != NULL)
    g_printerr ("%s\n", error->message);
  if (g_error_matches (error, WN_LOAD_ERROR, WN_LOAD_ERROR_TOO_LARGE))
    g_printerr ("winnow-run: %s\n", _("--max-input-size raises the limit"));
}

static WnTime
percentile (GArray *sorted,
            double  p)
{
  guint rank;

  if (sorted->len == 0)
    return 0;
  /* nearest rank */
  rank = (guint) (p / 100.0 * sorted->len + 0.999999);
  rank = CLAMP (rank, 1, sorted->len);
  return g_array_index (sorted, WnTime, rank - 1);
}

static void
print_summary_json (WnEngine *engine)
{
  WnRunStats stats;
  g_autoptr(GArray) times = wn_engine_get_completion_times (engine);
  WnProcess *process = wn_engine_get_process (engine);
  g_autoptr(GString) out = g_string_new (NULL);
  gboolean first = TRUE;

  wn_engine_get_stats (engine, &stats);
  g_string_append_printf (out,
                          "{\"instances\":%u,\"completed\":%u,\"terminated\":%u,\"incidents\":%u,\"active\":%u,"
                          "\"virtual_time_us\":%" G_GINT64_FORMAT ",\"executions\":%" G_GUINT64_FORMAT
                          ",\"retries\":%" G_GUINT64_FORMAT ",\"exhausted\":%" G_GUINT64_FORMAT ",",
                          stats.instances, stats.completed, stats.terminated, stats.incidents, stats.active,
                          wn_engine_now (engine), stats.executions, stats.retries, stats.exhausted);
  if (times->len > 0)
    g_string_append_printf (out,
                            "\"completion_us\":{\"p50\":%" G_GINT64_FORMAT ",\"p90\":%" G_GINT64_FORMAT
                            ",\"p99\":%" G_GINT64_FORMAT ",\"max\":%" G_GINT64_FORMAT "},",
                            percentile (times, 50), percentile (times, 90), percentile (times, 99),
                            g_array_index (times, WnTime, times->len - 1));
  else
    g_string_append (out, "\"completion_us\":null,");
  g_string_append (out, "\"ends\":{");
  for (guint i = 0; i < process->n_nodes; i++)
    {
      guint count = wn_engine_get_end_count (engine, i);

      if (count == 0)
        continue;
      g_string_append_printf (out, "%s\"%s\":%u", first ? "" : ",", process->nodes[i].id, count);
      first = FALSE;
    }
  g_string_append (out, "}}\n");
  wn_output_write (stdout_out, out->str, out->len);
}

static void
print_summary_text (WnEngine *engine)
{
  WnRunStats stats;
  g_autoptr(GArray) times = wn_engine_get_completion_times (engine);
  WnProcess *process = wn_engine_get_process (engine);
  g_autofree char *now = wn_time_format_clock (wn_engine_now (engine));
  g_autoptr(GString) line = g_string_new (NULL);

  wn_engine_get_stats (engine, &stats);
  print_out (ngettext ("%u instance: %u completed, %u terminated, %u with incidents, %u active\n",
                       "%u instances: %u completed, %u terminated, %u with incidents, %u active\n",
                       stats.instances),
             stats.instances, stats.completed, stats.terminated, stats.incidents, stats.active);
  print_out (_("virtual time %s; %" PRIu64 " executions, %" PRIu64 " retries, %" PRIu64 " exhausted\n"),
             now, (uint64_t) stats.executions, (uint64_t) stats.retries, (uint64_t) stats.exhausted);
  if (times->len > 0)
    {
      g_autofree char *p50 = wn_duration_format (percentile (times, 50));
      g_autofree char *p90 = wn_duration_format (percentile (times, 90));
      g_autofree char *p99 = wn_duration_format (percentile (times, 99));
      g_autofree char *max = wn_duration_format (g_array_index (times, WnTime, times->len - 1));
      print_out (_("completion: p50 %s, p90 %s, p99 %s, max %s\n"), p50, p90, p99, max);
    }
  for (guint i = 0; i < process->n_nodes; i++)
    {
      guint count = wn_engine_get_end_count (engine, i);

      if (count > 0)
        g_string_append_printf (line, "%s%s %u", line->len ? ", " : "", process->nodes[i].id, count);
    }
  if (line->len > 0)
    print_out (_("ends: %s\n"), line->str);
}

static void
print_job_cb (const WnJobInfo *job,
              gpointer         data)
{
  g_autoptr(GString) line = g_string_new (NULL);

  g_string_append_printf (line, "  %-10s %-20s %-8s attempt %u, executions %u", job->id, job->topic,
                          wn_job_state_to_string (job->state), job->attempt, job->executions);
  if (job->not_before > 0)
    {
      g_autofree char *at = wn_time_format_clock (job->not_before);
      g_string_append_printf (line, ", not before %s", at);
    }
  if (job->worker != NULL)
    {
      g_autofree char *at = wn_time_format_clock (job->deadline);
      g_string_append_printf (line, ", locked by %s until %s", job->worker, at);
    }
  g_string_append_printf (line, ", %s\n", wn_trust_to_string (job->policy->trust));
  wn_output_write (stdout_out, line->str, line->len);
}

static void
print_track_cb (const WnTrackInfo *track,
                gpointer           data)
{
  print_out ("  %-10s %-20s %-8s%s%s\n", track->id, track->node, wn_track_state_to_string (track->state),
             track->job ? " on " : "", track->job ? track->job : "");
}

static void
print_break_state (WnEngine *engine)
{
  const WnEvent *event = NULL;
  guint id = wn_engine_get_last_hit (engine, &event);
  guint n = 0;
  const WnBreakpoint *bps = wn_engine_get_breakpoints (engine, &n);
  g_autofree char *now = wn_time_format_clock (wn_engine_now (engine));
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    if (bps[i].id == id)
      print_out (_("Stopped at %s: breakpoint %s.%s%s%s (hit %u)\n"), now,
                 wn_event_kind_to_string (bps[i].kind), wn_event_phase_to_string (bps[i].phase),
                 bps[i].node ? "@" : "", bps[i].node ? bps[i].node : "", bps[i].hits);
  if (event != NULL)
    {
      wn_event_append_text (event, text);
      print_out ("%s\n", text->str);
    }
  print_out (_("Jobs in the dispatcher:\n"));
  wn_dispatcher_foreach (wn_engine_get_dispatcher (engine), print_job_cb, NULL);
  print_out (_("Tracks:\n"));
  wn_engine_foreach_track (engine, FALSE, print_track_cb, NULL);
}

/* The policy lab's options (winnow-run-lab.c). */
static WinnowRunLab lab_options;
/* --export-json: the imported process as winnow.process/1; never over the input. */
static int
export_json (const char *target, const char *input, const char *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) a = NULL;
  g_autoptr(GFile) b = NULL;
  g_autofree char *text = g_strconcat (json, "\n", NULL);

  if (strcmp (target, "-") == 0)
    {
      wn_output_write (stdout_out, text, strlen (text));
      if (!wn_output_commit (stdout_out, &error))
        {
          g_printerr ("winnow-run: %s\n", error->message);
          return EXIT_OUTPUT;
        }
      return EXIT_COMPLETED;
    }
  a = g_file_new_for_commandline_arg (target);
  b = g_file_new_for_commandline_arg (input);
  if (g_file_equal (a, b))
    {
      g_printerr (_("winnow-run: --export-json: %s is the input file\n"), target);
      return EXIT_INPUT;
    }
  if (!wn_output_write_file (target, text, strlen (text), &error))
    {
      g_printerr ("winnow-run: --export-json: %s\n", error->message);
      return EXIT_OUTPUT;
    }
  return EXIT_COMPLETED;
}

/* The end of a run that was not cut short by an output: commit the outputs. */
static int
finish_run (WnEngine *engine,
            int       status,
            Sink     *file_sink,
            Sink     *trace)
{
  wn_engine_free (engine);
  if (!finish_output (file_sink->out))
    status = EXIT_OUTPUT;
  if (!finish_output (stdout_out))
    status = EXIT_OUTPUT;
  sink_clear (file_sink);
  sink_clear (trace);
  g_clear_pointer (&stdout_out, wn_output_free);
  return status;
}

/* --at: the state where the run stopped, or why it never got there. */
static int
print_state_at (WnEngine *engine,
                guint64   seq)
{
  guint64 events = wn_journal_get_n_events (wn_engine_get_journal (engine));
  g_autofree char *state = NULL;
  g_autofree char *now = NULL;

  if (stop.caught != 0 && events < seq)
    {
      now = wn_time_format_clock (wn_engine_now (engine));
      g_printerr (_("winnow-run: interrupted by %s at %s, before event %" PRIu64 "\n"),
                  stop.caught == SIGINT ? "SIGINT" : "SIGTERM", now, seq);
      return EXIT_STOPPED;
    }
  if (events < seq)
    {
      now = wn_time_format_clock (wn_engine_now (engine));
      g_printerr (_("winnow-run: --at: the run journals %" PRIu64 " events up to %s, no event %" PRIu64 "\n"),
                  events, now, seq);
      return EXIT_INPUT;
    }
  state = wn_engine_dump_state (engine);
  print_out ("%s\n", state);
  return EXIT_COMPLETED;
}

static gboolean
parse_options (int       *argc,
               char    ***argv,
               Options   *o,
               GError   **error)
{
  GOptionEntry entries[] = {
    { "scenario", 's', 0, G_OPTION_ARG_FILENAME, &o->scenario, N_("Scenario (replaces one embedded in the process)"), N_("FILE") },
    { "seed", 0, 0, G_OPTION_ARG_CALLBACK, parse_seed_cb, N_("PRNG seed (overrides the scenario’s)"), N_("N") },
    { "instances", 'n', 0, G_OPTION_ARG_CALLBACK, parse_instances_cb, N_("Start N instances at t = 0, N ≥ 1 (overrides “start”)"), N_("N") },
    { "until", 0, 0, G_OPTION_ARG_STRING, &o->until, N_("Stop at this virtual time"), N_("DURATION") },
    { "trust", 0, 0, G_OPTION_ARG_STRING, &o->trust, N_("Engine-wide trust: workerTrusted | engineAuthoritative"), N_("MODE") },
    { "on-exhausted", 0, 0, G_OPTION_ARG_STRING, &o->on_exhausted, N_("fail | incident"), N_("MODE") },
    { "jsonl", 0, 0, G_OPTION_ARG_NONE, &o->jsonl, N_("Write the journal as JSON lines to stdout"), NULL },
    { "journal", 0, 0, G_OPTION_ARG_FILENAME, &o->journal, N_("Write the JSON-lines journal to FILE"), N_("FILE") },
    { "save-session", 0, 0, G_OPTION_ARG_FILENAME, &o->save_session, N_("At the end, write the run as a session (a winnow.scenario/1 file with its commands and outside workers’ calls) to FILE, which --scenario replays"), N_("FILE") },
    { "summary", 0, 0, G_OPTION_ARG_STRING, &o->summary, N_("Summary format: text (default) | json"), N_("FORMAT") },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &o->quiet, N_("No journal, summary only"), NULL },
    { "validate", 0, 0, G_OPTION_ARG_NONE, &o->validate, N_("Load and validate only; print nothing on success"), NULL },
    { "process", 0, 0, G_OPTION_ARG_STRING, &o->process_id, N_("BPMN: the process to import when the file has several executable ones"), N_("ID") },
    { "undecidable-conditions", 0, 0, G_OPTION_ARG_STRING, &o->undecidable, N_("BPMN: what a condition outside the subset translated to lite does: refuse (the default: the model is refused) | scenario (its exclusive gateway becomes a branch the scenario’s “decisions” weigh, drawn from the seeded PRNG)"), N_("MODE") },
    { "export-json", 0, 0, G_OPTION_ARG_FILENAME, &o->export_json, N_("BPMN: write the imported process as winnow.process/1 to FILE (- for standard output) and exit"), N_("FILE") },
    { "break", 'b', 0, G_OPTION_ARG_STRING_ARRAY, &o->breaks, N_("Stop after the first event matching KIND.PHASE[@NODE] and print the state (repeatable)"), N_("SPEC") },
    { "at", 0, 0, G_OPTION_ARG_CALLBACK, parse_at_cb, N_("Stop right after the step that journals event EVENT_SEQ and print the whole state there as one JSON line"), N_("EVENT_SEQ") },
    { "max-input-size", 0, 0, G_OPTION_ARG_CALLBACK, parse_size_cb, N_("Read input files of up to SIZE bytes (a K, M or G suffix: KiB, MiB, GiB; default 64M)"), N_("SIZE") },
    { "serve", 0, 0, G_OPTION_ARG_STRING, &o->serve, N_("Serve Camunda’s external-task REST API for outside workers on [ADDR:]PORT (127.0.0.1 unless ADDR is given), the clock at 1× on the wall, until every instance has ended"), N_("[ADDR:]PORT") },
    { "speed", 0, 0, G_OPTION_ARG_STRING, &o->speed, N_("With --serve: virtual seconds per wall second (default 1)"), N_("FACTOR") },
    { "basic-auth", 0, 0, G_OPTION_ARG_STRING, &o->basic_auth, N_("With --serve: require HTTP basic auth"), N_("USER:PASSWORD") },
    { "external-topic", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->external_topics, N_("With --serve: switch the simulated workers of TOPIC off, so outside workers get all its jobs (repeatable)"), N_("TOPIC") },
    { "version", 0, 0, G_OPTION_ARG_NONE, &o->version, N_("Print the version and exit"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o->files, NULL, NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("PROCESS.json"));
  GOptionGroup *group = g_option_group_new (NULL, NULL, NULL, o, NULL);

  g_option_group_add_entries (group, entries);
  winnow_run_lab_add_entries (group, &lab_options);
  g_option_group_set_translation_domain (group, GETTEXT_PACKAGE);
  g_option_context_set_main_group (context, group);
  g_option_context_set_summary (context, _("Run a Winnow process headless, in fast-forward on the virtual clock."));
  g_option_context_set_description (context,
    _("Exit status: 0 every instance completed; 1 an instance terminated or holds an open incident;\n"
      "2 usage or input error; 3 stopped with instances still active;\n"
      "4 an output (the journal, the trace, the summary) could not be written.\n"
      "A journal file is replaced only once complete; an input file is never written over.\n"
      "SIGINT or SIGTERM ends the run between two events: the journal keeps whole lines,\n"
      "the summary so far is printed, exit status 3; a second signal ends it at once.\n"
      "With --sweep or --seeds the runs in progress stop and the rows of the runs that\n"
      "finished are printed, exit status 3.\n"
      "--serve runs the clock at 1× wall time (--speed) and serves Camunda’s external-task REST API\n"
      "under /engine-rest until every instance has ended (docs/rest-api.md)."));
  return g_option_context_parse (context, argc, argv, error);
}

/* --sweep, --shard, --merge, -j, --format, --seeds: winnow-run-lab.c. */
static int
run_lab (Options *o)
{
  WinnowRunBase base = {
    o->scenario, o->has_seed, (guint64) o->seed, o->instances, o->until, o->trust, o->on_exhausted,
    o->max_input > 0 ? o->max_input : WN_LOAD_DEFAULT_MAX_SIZE, o->validate,
    o->jsonl ? "--jsonl" : o->journal ? "--journal" : o->summary ? "--summary" : o->breaks ? "--break" : NULL,
  };
  int status = winnow_run_lab_main (&lab_options, o->files, &base, stdout_out);

  winnow_run_lab_clear (&lab_options);
  g_clear_pointer (&stdout_out, wn_output_free);
  return status;
}

int
main (int argc, char **argv)
{
  g_auto(Options) o = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) diagnostics = NULL;
  g_autoptr(WnProcess) process = NULL;
  g_autoptr(WnScenario) scenario = NULL;
  g_autofree char *exported = NULL;
  WnEngineOptions options = { 0 };
  WnBpmnImportFlags import_flags = WN_BPMN_IMPORT_DEFAULT;
  WnTime until = WN_TIME_NEVER;
  gboolean summary_json = FALSE;
  Sink trace = { NULL, NULL };
  Sink file_sink = { NULL, NULL };
  ServeOptions serve = { 0 };
  WnEngine *engine;
  WnStopReason reason;
  WnRunStats stats;
  int status;

  hold_standard_fds ();
  /* a closed pipe is a write error like any other, reported */
  signal (SIGPIPE, SIG_IGN);
  stdout_out = wn_output_new_for_fd (STDOUT_FILENO, _("standard output"));

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, g_getenv ("WINNOW_LOCALEDIR") ? g_getenv ("WINNOW_LOCALEDIR") : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  if (!parse_options (&argc, &argv, &o, &error))
    {
      g_printerr ("winnow-run: %s\n", error->message);
      return EXIT_INPUT;
    }
  if (o.version)
    {
      print_out ("winnow-run %s\n", PACKAGE_VERSION);
      return finish_output (stdout_out) ? EXIT_COMPLETED : EXIT_OUTPUT;
    }
  if (winnow_run_lab_requested (&lab_options) && o.undecidable != NULL)
    {
      g_printerr ("winnow-run: %s\n", _("--undecidable-conditions applies to one run: for a sweep, write the "
                                         "process with --export-json first and sweep that file"));
      return EXIT_INPUT;
    }
  if (winnow_run_lab_requested (&lab_options))
    return run_lab (&o);
  if (o.files == NULL || o.files[0] == NULL || o.files[1] != NULL)
    {
      g_printerr ("winnow-run: %s\n", _("give exactly one process file (see --help)"));
      return EXIT_INPUT;
    }
  if (o.summary != NULL)
    {
      if (g_str_equal (o.summary, "json"))
        summary_json = TRUE;
      else if (!g_str_equal (o.summary, "text"))
        {
          g_printerr ("winnow-run: %s\n", _("--summary takes text or json"));
          return EXIT_INPUT;
        }
    }
  if (o.trust != NULL && !wn_trust_from_string (o.trust, &options.trust))
    {
      g_printerr ("winnow-run: %s\n", _("--trust takes workerTrusted or engineAuthoritative"));
      return EXIT_INPUT;
    }
  if (o.on_exhausted != NULL && !wn_on_exhausted_from_string (o.on_exhausted, &options.on_exhausted))
    {
      g_printerr ("winnow-run: %s\n", _("--on-exhausted takes fail or incident"));
      return EXIT_INPUT;
    }
  if (o.until != NULL && !wn_duration_parse (o.until, &until, &error))
    {
      g_printerr ("winnow-run: --until: %s\n", error->message);
      return EXIT_INPUT;
    }
  if (o.max_input == 0)
    o.max_input = WN_LOAD_DEFAULT_MAX_SIZE;
  if (o.undecidable != NULL && strcmp (o.undecidable, "scenario") == 0)
    import_flags |= WN_BPMN_IMPORT_SCENARIO_DECIDES;
  else if (o.undecidable != NULL && strcmp (o.undecidable, "refuse") != 0)
    {
      g_printerr ("winnow-run: %s\n", _("--undecidable-conditions takes refuse or scenario"));
      return EXIT_INPUT;
    }
  if (o.process_id != NULL || o.export_json != NULL)
    process = wn_load_bpmn_file_with_flags (o.files[0], o.max_input, o.process_id, import_flags, &exported,
                                            &diagnostics, &error);
  else if (import_flags != WN_BPMN_IMPORT_DEFAULT)
    process = wn_load_process_or_bpmn_file_with_flags (o.files[0], o.max_input, NULL, import_flags, NULL,
                                                       &diagnostics, &error);
  else
    process = wn_load_process_file_full (o.files[0], o.max_input, &diagnostics, &error);
  if (process == NULL)
    {
      print_diagnostics (diagnostics, error);
      return EXIT_INPUT;
    }
  for (guint i = 0; process->warnings != NULL && i < process->warnings->len; i++)
    g_printerr (_("winnow-run: warning: %s\n"), (const char *) g_ptr_array_index (process->warnings, i));
  if (o.export_json != NULL)
    return export_json (o.export_json, o.files[0], exported);
  if (o.scenario != NULL)
    {
      g_clear_pointer (&diagnostics, g_ptr_array_unref);
      g_clear_error (&error);
      scenario = wn_load_scenario_file_full (o.scenario, o.max_input, &diagnostics, &error);
      if (scenario == NULL)
        {
          print_diagnostics (diagnostics, error);
          return EXIT_INPUT;
        }
    }
  if (o.validate)
    return EXIT_COMPLETED;
  if (outputs_overwrite_inputs (o.journal, o.files[0], o.scenario) ||
      outputs_overwrite_inputs (o.save_session, o.files[0], o.scenario))
    return EXIT_INPUT;

  for (guint i = 0; o.breaks != NULL && o.breaks[i] != NULL; i++)
    {
      WnEventKind kind;
      WnEventPhase phase;
      g_autofree char *node = NULL;

      if (!wn_breakpoint_parse (o.breaks[i], &kind, &phase, &node, &error))
        {
          g_printerr ("winnow-run: --break: %s\n", error->message);
          return EXIT_INPUT;
        }
      if (node != NULL && wn_process_find_node (process, node) == NULL)
        {
          g_printerr (_("winnow-run: --break: the process has no node %s\n"), node);
          return EXIT_INPUT;
        }
    }

  if (o.at > 0 && (o.breaks != NULL || o.serve != NULL))
    {
      g_printerr ("winnow-run: %s\n", _("--at cannot be combined with --break or --serve"));
      return EXIT_INPUT;
    }

  options.has_seed = o.has_seed;
  options.seed = (guint64) o.seed;
  options.instances = o.instances;
  if (o.serve == NULL && (o.speed != NULL || o.basic_auth != NULL || o.external_topics != NULL))
    {
      g_printerr ("winnow-run: %s\n", _("--speed, --basic-auth and --external-topic need --serve"));
      return EXIT_INPUT;
    }
  /* served, a topic no simulated worker serves waits for outside workers */
  options.no_implicit_workers = o.serve != NULL;
  engine = wn_engine_new (process, scenario, &options);
  serve.address = o.serve;
  serve.speed = o.speed != NULL ? g_ascii_strtod (o.speed, NULL) : 1.0;
  serve.basic_auth = o.basic_auth;
  serve.external_topics = o.external_topics;
  serve.until = until;
  serve.instances = o.instances;
  if (o.serve != NULL && !serve_prepare (engine, &serve, &error))
    {
      g_printerr ("winnow-run: %s\n", error->message);
      wn_engine_free (engine);
      return EXIT_INPUT;
    }

  for (const char * const *t = wn_engine_get_implicit_topics (engine); *t != NULL; t++)
    g_printerr (_("winnow-run: notice: no worker serves topic %s; an implicit worker completes its jobs at once\n"), *t);

  stop_on_signals ();
  if (o.journal != NULL)
    {
      file_sink.out = wn_output_open (o.journal, &error);
      if (file_sink.out == NULL)
        {
          g_printerr ("winnow-run: %s\n", error->message);
          wn_engine_free (engine);
          return EXIT_OUTPUT;
        }
      /* JSON lines: formatted straight into the output (a failure stays in it;
       * the run loop stops on it) */
      wn_journal_subscribe (wn_engine_get_journal (engine), wn_output_journal_func, file_sink.out, NULL);
    }
  if (!o.quiet)
    {
      trace.out = stdout_out;
      trace.line = g_string_new (NULL);
      if (o.jsonl)
        wn_journal_subscribe (wn_engine_get_journal (engine), wn_output_journal_func, stdout_out, NULL);
      else
        wn_journal_subscribe (wn_engine_get_journal (engine), sink_cb, &trace, NULL);
    }

  for (guint i = 0; o.breaks != NULL && o.breaks[i] != NULL; i++)
    {
      WnEventKind kind;
      WnEventPhase phase;
      g_autofree char *node = NULL;

      wn_breakpoint_parse (o.breaks[i], &kind, &phase, &node, NULL);
      wn_engine_add_breakpoint (engine, kind, phase, node);
    }

  if (o.serve != NULL)
    {
      if (!serve_run (engine, &serve, serve_should_stop, file_sink.out, &reason, &error))
        {
          g_printerr ("winnow-run: --serve: %s\n", error->message);
          sink_clear (&file_sink);
          sink_clear (&trace);
          wn_engine_free (engine);
          g_clear_pointer (&stdout_out, wn_output_free);
          return EXIT_INPUT;
        }
    }
  else
    reason = run (engine, until, o.at, file_sink.out);
  if (outputs_failed (file_sink.out))
    {
      /* cut short by an output: say which; the journal is not committed (a
       * file it replaces stays as it was) */
      if (file_sink.out != NULL && wn_output_has_failed (file_sink.out))
        finish_output (file_sink.out);
      sink_clear (&file_sink);
      finish_output (stdout_out);
      sink_clear (&trace);
      g_clear_pointer (&stdout_out, wn_output_free);
      wn_engine_free (engine);
      return EXIT_OUTPUT;
    }
  {
    GPtrArray *notices = wn_engine_get_notices (engine);

    for (guint i = 0; i < notices->len; i++)
      g_printerr ("winnow-run: notice: %s\n", (const char *) g_ptr_array_index (notices, i));
  }
  if (o.save_session != NULL)
    {
      g_autofree char *session = wn_engine_export_session (engine);
      g_autoptr(GError) save_error = NULL;

      if (!wn_output_write_file (o.save_session, session, strlen (session), &save_error))
        {
          g_printerr ("winnow-run: --save-session: %s\n", save_error->message);
          sink_clear (&file_sink);
          sink_clear (&trace);
          wn_engine_free (engine);
          g_clear_pointer (&stdout_out, wn_output_free);
          return EXIT_OUTPUT;
        }
    }
  if (o.at > 0)
    return finish_run (engine, print_state_at (engine, o.at), &file_sink, &trace);
  if (wn_engine_get_failure (engine) != NULL)
    g_printerr ("winnow-run: %s\n", wn_engine_get_failure (engine));
  else if (reason == WN_STOP_REQUESTED)
    print_break_state (engine);
  wn_engine_get_stats (engine, &stats);

  if (stop.caught != 0 && stats.active > 0)
    {
      g_autofree char *now = wn_time_format_clock (wn_engine_now (engine));

      g_printerr (_("winnow-run: interrupted by %s at %s with %u instances active\n"),
                  stop.caught == SIGINT ? "SIGINT" : "SIGTERM", now, stats.active);
      status = EXIT_STOPPED;
    }
  else if (stats.active > stats.incidents)
    {
      g_autofree char *now = wn_time_format_clock (wn_engine_now (engine));
      /* out of memory: no line per waiting instance */
      g_autoptr(GPtrArray) waiting = wn_engine_get_failure (engine) != NULL
                                     ? g_ptr_array_new () : wn_engine_describe_waiting (engine);

      if (wn_engine_get_failure (engine) != NULL)
        g_printerr (_("winnow-run: stopped at %s with %u instances active\n"), now, stats.active);
      else if (reason == WN_STOP_REQUESTED)
        g_printerr (_("winnow-run: stopped at a breakpoint at %s with %u instances active\n"), now, stats.active);
      else if (reason == WN_STOP_LIMIT)
        g_printerr (ngettext ("winnow-run: stopped at the time limit %s with %u instance active\n",
                              "winnow-run: stopped at the time limit %s with %u instances active\n",
                              stats.active), now, stats.active);
      else
        g_printerr (_("winnow-run: nothing can progress at %s; still waiting:\n"), now);
      for (guint i = 0; i < waiting->len; i++)
        g_printerr ("  %s\n", (char *) g_ptr_array_index (waiting, i));
      status = EXIT_STOPPED;
    }
  else if (stats.terminated > 0 || stats.incidents > 0)
    status = EXIT_FAILED;
  else
    status = EXIT_COMPLETED;

  if (!o.jsonl || o.summary != NULL)
    {
      if (summary_json)
        print_summary_json (engine);
      else
        print_summary_text (engine);
    }

  return finish_run (engine, status, &file_sink, &trace);
}

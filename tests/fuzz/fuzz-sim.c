/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-sim.c — a bounded run of whatever the loader targets managed to load.
 *
 * A document that loads is a promise: the engine must run it without crashing,
 * keep its contracts, and replay a saved session of it exactly. The bounds keep
 * each input to a few milliseconds: a handful of instances, a budget of
 * scheduler actions, a virtual-time limit. Inputs that ask for more (millions
 * of instances, thousands of worker slots) are loaded but not run: their cost
 * is the user's choice, not a defect.
 */
#include "fuzz-sim.h"

#include <string.h>

#define MAX_INSTANCES 16
#define MAX_SLOTS     64
/* A worker whose every execution outlasts its lock keeps a job cycling forever
 * (as in any engine with locks): the budget stops such a run in well under the
 * fuzzers' per-input timeout. */
#define BUDGET        5000
#define LIMIT         (3600 * WN_USEC_PER_SEC)
#define MAX_COMMANDS  4

/* Not g_assert(): these checks hold side effects and must survive G_DISABLE_ASSERT. */
#define check(cond) \
  G_STMT_START { if (!(cond)) g_error ("%s:%d: check failed: %s", __FILE__, __LINE__, #cond); } G_STMT_END

void
fuzz_init (void)
{
  g_log_set_always_fatal (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
}

typedef struct {
  GString *json;
  GString *text;
} Recorder;

static void
record_cb (const WnEvent *event,
           gpointer       data)
{
  Recorder *recorder = data;

  wn_event_append_json (event, recorder->json);
  g_string_truncate (recorder->text, 0);
  wn_event_append_text (event, recorder->text);
}

static void
track_cb (const WnTrackInfo *track,
          gpointer           data)
{
  gsize *sum = data;

  *sum += strlen (track->id) + strlen (track->node) + strlen (wn_track_state_to_string (track->state));
  if (track->job != NULL)
    *sum += strlen (track->job);
}

static void
job_cb (const WnJobInfo *job,
        gpointer         data)
{
  gsize *sum = data;

  *sum += strlen (job->id) + strlen (wn_job_state_to_string (job->state)) + job->executions;
}

static void
incident_cb (const WnInstanceInfo *info,
             gpointer              data)
{
  GPtrArray *ids = data;

  if (info->state == WN_INSTANCE_ACTIVE && info->n_incidents > 0 && ids->len < MAX_COMMANDS)
    g_ptr_array_add (ids, g_strdup (info->id));
}

/* Read everything a front end reads after a run. */
static void
inspect (WnEngine *engine)
{
  g_autoptr(GPtrArray) waiting = wn_engine_describe_waiting (engine);
  g_autoptr(GArray) times = wn_engine_get_completion_times (engine);
  WnRunStats stats;
  gsize sum = 0;

  wn_engine_get_stats (engine, &stats);
  check (stats.completed + stats.terminated + stats.active == stats.instances);
  for (guint i = 0; i < waiting->len; i++)
    sum += strlen (g_ptr_array_index (waiting, i));
  wn_engine_foreach_track (engine, TRUE, track_cb, &sum);
  wn_dispatcher_foreach (wn_engine_get_dispatcher (engine), job_cb, &sum);
  check (times->len == stats.completed);
  (void) sum;
}

static WnStopReason
run (WnEngine *engine,
     guint64  *budget)
{
  WnScheduler *scheduler = wn_engine_get_scheduler (engine);
  guint64 before = wn_scheduler_get_n_run (scheduler);
  WnStopReason reason;

  if (*budget == 0)
    return WN_STOP_BUDGET;
  reason = wn_scheduler_run_budget (scheduler, LIMIT, (guint) *budget);
  *budget -= MIN (*budget, wn_scheduler_get_n_run (scheduler) - before);
  return reason;
}

static guint64
count_starts (WnScenario *scenario)
{
  guint64 n = 0;

  if (scenario == NULL || !scenario->has_start)
    return 1;
  for (guint i = 0; i < scenario->start->len; i++)
    n += g_array_index (scenario->start, WnStartSpec, i).count;
  return n;
}

static guint64
count_slots (WnScenario *scenario)
{
  guint64 n = 0;

  for (guint i = 0; scenario != NULL && i < scenario->workers->len; i++)
    n += ((WnWorkerConfig *) g_ptr_array_index (scenario->workers, i))->concurrency;
  return n;
}

static guint64
count_command_starts (WnScenario *scenario)
{
  guint64 n = 0;

  for (guint i = 0; scenario != NULL && scenario->commands != NULL && i < scenario->commands->len; i++)
    if (((WnCommand *) g_ptr_array_index (scenario->commands, i))->kind == WN_COMMAND_START)
      n++;
  return n;
}

void
fuzz_simulate (WnProcess  *process,
               WnScenario *scenario)
{
  WnScenario *effective = scenario != NULL ? scenario : process->scenario;
  WnEngineOptions options = { 0 };
  Recorder live = { g_string_new (NULL), g_string_new (NULL) };
  g_autoptr(GPtrArray) incidents = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(WnScenario) saved = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *session = NULL;
  guint64 budget = BUDGET;
  gboolean finished;
  WnEngine *engine;

  if (count_slots (effective) > MAX_SLOTS || count_command_starts (effective) > MAX_INSTANCES)
    goto out;
  if (count_starts (effective) > MAX_INSTANCES)
    options.instances = 2;

  engine = wn_engine_new (process, scenario, &options);
  wn_journal_subscribe (wn_engine_get_journal (engine), record_cb, &live, NULL);
  finished = run (engine, &budget) == WN_STOP_QUIESCENT;
  inspect (engine);

  /* an operator at work: clock notes, incident commands, a start */
  wn_engine_note_clock (engine, WN_PH_PAUSED, NULL);
  wn_engine_foreach_instance (engine, incident_cb, incidents);
  for (guint i = 0; i < incidents->len; i++)
    {
      const char *id = g_ptr_array_index (incidents, i);

      switch (i % 3)
        {
        case 0:
          check (wn_engine_incident_retry (engine, id, NULL, NULL));
          break;
        case 1:
          check (wn_engine_incident_resolve (engine, id, NULL, NULL));
          break;
        default:
          check (wn_engine_cancel_instance (engine, id, NULL));
          break;
        }
    }
  wn_engine_note_clock (engine, WN_PH_RESUMED, NULL);
  if (finished)
    finished = run (engine, &budget) == WN_STOP_QUIESCENT;
  inspect (engine);

  /* a saved session loads back and, replayed, gives the same journal */
  session = wn_engine_export_session (engine);
  wn_engine_free (engine);
  saved = wn_load_scenario_data (session, -1, "session.scenario.json", NULL, &error);
  if (saved == NULL)
    g_error ("an exported session does not load: %s\n%s", error->message, session);

  if (finished && options.instances == 0)
    {
      Recorder replay = { g_string_new (NULL), g_string_new (NULL) };

      budget = BUDGET;
      engine = wn_engine_new (process, saved, &options);
      wn_journal_subscribe (wn_engine_get_journal (engine), record_cb, &replay, NULL);
      run (engine, &budget);
      if (!g_str_equal (live.json->str, replay.json->str))
        {
          gsize at = 0;

          while (live.json->str[at] != '\0' && live.json->str[at] == replay.json->str[at])
            at++;
          while (at > 0 && live.json->str[at - 1] != '\n')
            at--;
          g_error ("a replayed session differs from the live run at:\n  live:   %.300s\n  replay: %.300s",
                   live.json->str + at, replay.json->str + at);
        }
      wn_engine_free (engine);
      g_string_free (replay.json, TRUE);
      g_string_free (replay.text, TRUE);
    }

out:
  g_string_free (live.json, TRUE);
  g_string_free (live.text, TRUE);
}

void
fuzz_loaded (WnProcess    *process,
             GPtrArray    *diagnostics,
             const GError *error)
{
  if (process == NULL)
    {
      if (error == NULL || diagnostics == NULL)
        g_error ("a refused process has no error or no diagnostics");
      for (guint i = 0; i < diagnostics->len; i++)
        g_free (wn_diagnostic_format (g_ptr_array_index (diagnostics, i)));
      return;
    }
  if (error != NULL)
    g_error ("a loaded process also set an error: %s", error->message);
  fuzz_simulate (process, NULL);
}

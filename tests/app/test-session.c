/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The session: loading a file, and its tables while the clock runs at
 * fast-forward. Its snapshots are then incremental: they look up only the
 * jobs and tracks the journal named (winnow-session-tables.c). After every
 * flush of a running clock, the tables, the diagram's counts and the open
 * incidents must still say exactly what a walk over the engine says. No
 * display. */
#include "config.h"

#include <glib/gstdio.h>

#include <string.h>

#include "winnow.h"
#include "winnow-event-row.h"
#include "winnow-job-row.h"
#include "winnow-session.h"
#include "winnow-track-row.h"
#include "wn-test-util.h"

#include <libsoup/soup.h>

typedef struct {
  GHashTable *states;    /* id → state + 1 */
  WinnowNodeCounts *counts;
  WnProcess *process;
  GPtrArray *incidents;  /* track ids, in walk order */
  GHashTable *named;     /* the track ids the journal has named (borrowed) */
  GHashTable *listed;    /* the track ids the session lists */
  guint unnamed;         /* tracks the walk left out: no event named them yet */
} Walk;

static void
walk_job_cb (const WnJobInfo *info,
             gpointer         data)
{
  Walk *walk = data;
  const WnNode *node = wn_process_find_node (walk->process, info->node);

  g_hash_table_insert (walk->states, g_strdup (info->id), GINT_TO_POINTER (info->state + 1));
  /* the diagram tells gated jobs from locked ones (issue 16, polish) */
  if (info->state == WN_JOB_GATED)
    walk->counts[node->index].gated++;
  else if (info->state == WN_JOB_LOCKED)
    walk->counts[node->index].locked++;
}

static guint checked_gated, checked_locked;

static void
walk_track_cb (const WnTrackInfo *info,
               gpointer           data)
{
  Walk *walk = data;
  const WnNode *node = wn_process_find_node (walk->process, info->node);

  /* A batch can end just after a parallel gateway made a track, before that
   * track's first event: an incremental pass follows the journal (the next
   * batch names it), a full pass lists it. Such a track has done nothing. */
  if (walk->named != NULL && !g_hash_table_contains (walk->named, info->id) &&
      !g_hash_table_contains (walk->listed, info->id))
    {
      g_assert_cmpint (info->state, ==, WN_TRACK_ACTIVE);
      walk->unnamed++;
      return;
    }
  g_hash_table_insert (walk->states, g_strdup (info->id), GINT_TO_POINTER (info->state + 1));
  g_assert_nonnull (node);
  if (info->state == WN_TRACK_ACTIVE || info->state == WN_TRACK_JOINING)
    walk->counts[node->index].active++;
  else if (info->state == WN_TRACK_PARKED)
    walk->counts[node->index].parked++;
  else if (info->state == WN_TRACK_INCIDENT)
    {
      walk->counts[node->index].incident++;
      g_ptr_array_add (walk->incidents, g_strdup (info->id));
    }
}

/* What the session lists is what the engine holds, row for row; with
 * `named`, of the tracks the journal has named (a running clock's tables). */
static void
check_tables (WinnowSession *session,
              GHashTable    *named)
{
  WnEngine *engine = winnow_session_get_engine (session);
  WnProcess *process = winnow_session_get_process (session);
  GListModel *jobs = winnow_session_get_jobs (session);
  GListModel *tracks = winnow_session_get_tracks (session);
  GPtrArray *incidents = winnow_session_get_incidents (session);   /* borrowed */
  Walk walk = { 0 };

  walk.process = process;
  walk.named = named;
  walk.listed = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < g_list_model_get_n_items (tracks); i++)
    {
      g_autoptr(WinnowTrackRow) row = g_list_model_get_item (tracks, i);

      /* (the list holds the row, and the row its id) */
      g_hash_table_add (walk.listed, (gpointer) winnow_row_get_id (WINNOW_ROW (row)));
    }
  walk.counts = g_new0 (WinnowNodeCounts, process->n_nodes);
  walk.incidents = g_ptr_array_new_with_free_func (g_free);

  walk.states = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  wn_dispatcher_foreach (wn_engine_get_dispatcher (engine), walk_job_cb, &walk);
  g_assert_cmpuint (g_list_model_get_n_items (jobs), ==, g_hash_table_size (walk.states));
  for (guint i = 0; i < g_list_model_get_n_items (jobs); i++)
    {
      g_autoptr(WinnowJobRow) row = g_list_model_get_item (jobs, i);
      gpointer state = g_hash_table_lookup (walk.states, winnow_row_get_id (WINNOW_ROW (row)));

      g_assert_nonnull (state);
      g_assert_cmpint (winnow_job_row_get_state (row), ==, GPOINTER_TO_INT (state) - 1);
    }
  g_hash_table_unref (walk.states);

  walk.states = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  wn_engine_foreach_track (engine, FALSE, walk_track_cb, &walk);
  g_assert_cmpuint (g_list_model_get_n_items (tracks), ==, g_hash_table_size (walk.states));
  for (guint i = 0; i < g_list_model_get_n_items (tracks); i++)
    {
      g_autoptr(WinnowTrackRow) row = g_list_model_get_item (tracks, i);
      gpointer state = g_hash_table_lookup (walk.states, winnow_row_get_id (WINNOW_ROW (row)));

      g_assert_nonnull (state);
      g_assert_cmpint (winnow_track_row_get_state (row), ==, GPOINTER_TO_INT (state) - 1);
    }
  g_hash_table_unref (walk.states);

  for (guint i = 0; i < process->n_nodes; i++)
    {
      WinnowNodeCounts counts = winnow_session_get_node_counts (session, process->nodes[i].id);

      g_assert_cmpuint (counts.active, ==, walk.counts[i].active);
      g_assert_cmpuint (counts.parked, ==, walk.counts[i].parked);
      g_assert_cmpuint (counts.incident, ==, walk.counts[i].incident);
      g_assert_cmpuint (counts.gated, ==, walk.counts[i].gated);
      g_assert_cmpuint (counts.locked, ==, walk.counts[i].locked);
      checked_gated += counts.gated;
      checked_locked += counts.locked;
    }

  g_assert_cmpuint (incidents->len, ==, walk.incidents->len);
  for (guint i = 0; i < incidents->len; i++)
    g_assert_cmpstr (((WinnowIncident *) g_ptr_array_index (incidents, i))->track, ==,
                     g_ptr_array_index (walk.incidents, i));

  g_ptr_array_unref (walk.incidents);
  g_hash_table_unref (walk.listed);
  g_free (walk.counts);
  /* no more than one fork's worth: a batch ends on one action */
  g_assert_cmpuint (walk.unnamed, <=, process->n_nodes);
}

static void
name_track_cb (const WnTrackInfo *info,
               gpointer           data)
{
  g_hash_table_add (data, g_strdup (info->id));
}

static void
named_event_cb (const WnEvent *event,
                gpointer       data)
{
  if (event->track != NULL && !g_hash_table_contains (data, event->track))
    g_hash_table_add (data, g_strdup (event->track));
}

/* Plays `example` with `n` instances at fast-forward in batches of `batch`
 * actions (fixed: a window sizes them by the time they take, which would
 * move where they end from one run to the next), flushing as a window would,
 * and checks the tables after every flush that left nothing pending;
 * returns how many checks ran while the clock was running. */
static guint
play_and_check (const char *example,
                guint       n,
                guint       batch)
{
  g_autofree char *path = g_build_filename (EXAMPLES_DIR, example, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(WinnowSession) session = winnow_session_new ();
  g_autoptr(GError) error = NULL;
  WnEngineOptions options = { 0 };
  guint checks = 0;
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  g_autoptr(GHashTable) named = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint journal_id;

  options.instances = n;
  options.has_seed = TRUE;
  options.seed = 7;
  g_assert_true (winnow_session_load_file (session, file, &options, NULL, &error));
  g_assert_no_error (error);
  winnow_session_set_speed (session, 0);
  winnow_session_set_batch (session, batch);
  /* the tracks there already, then every one an event names */
  wn_engine_foreach_track (winnow_session_get_engine (session), FALSE, name_track_cb, named);
  journal_id = wn_journal_subscribe (wn_engine_get_journal (winnow_session_get_engine (session)), named_event_cb,
                                     named, NULL);
  winnow_session_play (session);
  while (winnow_session_is_playing (session) || winnow_session_has_pending (session))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, FALSE);
      if (!winnow_session_has_pending (session))
        continue;
      winnow_session_flush (session);
      if (winnow_session_is_playing (session) && !winnow_session_has_pending (session))
        {
          check_tables (session, named);
          checks++;
        }
    }
  /* stopped: the last full pass agrees too, on every track */
  check_tables (session, NULL);
  wn_journal_unsubscribe (wn_engine_get_journal (winnow_session_get_engine (session)), journal_id);
  g_test_message ("%u checks while running in batches of %u", checks, batch);
  return checks;
}

static void
test_flaky_service (void)
{
  /* retries, locks that expire, instances that end: rows come and go */
  g_assert_cmpuint (play_and_check ("flaky-service.process.json", 2000, 97), >, 3);
  g_assert_cmpuint (play_and_check ("flaky-service.process.json", 2000, 1000), >, 3);
  /* the checks saw jobs both behind their gates and in a worker's hands */
  g_test_message ("checked %u gated and %u locked jobs", checked_gated, checked_locked);
  g_assert_cmpuint (checked_gated, >, 0);
  g_assert_cmpuint (checked_locked, >, 0);
}

static void
test_incidents (void)
{
  /* tracks that stop on an incident: counts and the incidents list */
  for (guint batch = 1; batch <= 257; batch = batch * 4 + 1)
    g_assert_cmpuint (play_and_check ("incident-on-exhaustion.process.json", 300, batch), >, 0);
}

static void
test_parallel (void)
{
  /* instances with several tracks, some cancelled by a sibling's failure */
  /* (batches of every size end on every kind of action somewhere: after a
   * fork, in the middle of one instant, …) */
  for (guint batch = 1; batch <= 257; batch = batch * 4 + 1)
    g_assert_cmpuint (play_and_check ("parallel-branch-failure.process.json", 300, batch), >, 0);
}

static void
count_finished_cb (WinnowSession  *session,
                   int             kind,
                   guint           count,
                   gpointer        first,
                   guint          *finished)
{
  if (kind == WINNOW_ALERT_FINISHED)
    (*finished)++;
}

/* Stepping with F10 to the end of a run says the run has finished, as
 * playing to its end does, once; the clock stands at the last event. */
static void
test_step_to_the_end (void)
{
  g_autofree char *path = g_build_filename (EXAMPLES_DIR, "order-fulfilment.process.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(WinnowSession) session = winnow_session_new ();
  g_autoptr(GError) error = NULL;
  GListModel *events;
  guint finished = 0;
  guint steps = 0;

  g_assert_true (winnow_session_load_file (session, file, NULL, NULL, &error));
  g_assert_no_error (error);
  g_signal_connect (session, "alert", G_CALLBACK (count_finished_cb), &finished);
  while (winnow_session_step_next (session))
    {
      winnow_session_flush (session);
      g_assert_cmpuint (steps++, <, 10000);
      if (winnow_session_get_next_time (session) != WN_TIME_NEVER)
        g_assert_cmpuint (finished, ==, 0);
    }
  winnow_session_flush (session);
  g_assert_cmpuint (finished, ==, 1);
  g_assert_false (winnow_session_step_next (session));
  winnow_session_flush (session);
  g_assert_cmpuint (finished, ==, 1);
  /* stepping by Δ past the end says nothing more */
  winnow_session_step_by (session, WN_USEC_PER_SEC);
  winnow_session_flush (session);
  g_assert_cmpuint (finished, ==, 1);
  events = winnow_session_get_events (session);
  g_assert_cmpuint (g_list_model_get_n_items (events), >, 0);
}

static void
count_notice_cb (WinnowSession *session,
                 const char    *text,
                 GPtrArray     *notices)
{
  g_ptr_array_add (notices, g_strdup (text));
}

static guint
count_events (WinnowSession *session,
              WnEventKind    kind,
              WnEventPhase   phase)
{
  GListModel *events = winnow_session_get_events (session);
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (events); i++)
    {
      g_autoptr(WinnowEventRow) row = g_list_model_get_item (events, i);
      const WnEvent *event = winnow_event_row_get_event (row);

      n += event->kind == kind && event->phase == phase;
    }
  return n;
}

/* Run the main loop until the step under way is over. */
static void
finish_step (WinnowSession *session)
{
  gint64 deadline = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;

  while (winnow_session_is_stepping (session))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, FALSE);
      if (winnow_session_has_pending (session))
        winnow_session_flush (session);
    }
  winnow_session_flush (session);
}

/* F10 on an instant of a million actions does not hold the main loop: the
 * step runs in slices from it, Pause stops it where it is, and a step that
 * runs too long stops by itself and says so; stepping again goes on, and
 * the instant ends as it does headless. */
static void
test_step_in_slices (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("winnow-step-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "loop.process.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(WinnowSession) session = winnow_session_new ();
  g_autoptr(GPtrArray) stopped = g_ptr_array_new_with_free_func (g_free);
  WnEngineOptions options = { 0 };
  WnRunStats stats;
  guint64 n_run;
  guint steps = 0;

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path, WN_TEST_LOOP_PROCESS, -1, &error));
  g_assert_no_error (error);
  options.instances = 40;
  g_assert_true (winnow_session_load_file (session, file, &options, NULL, &error));
  g_assert_no_error (error);
  g_signal_connect (session, "stopped", G_CALLBACK (count_notice_cb), stopped);

  /* the step returns with the instant under way, not run to its end */
  g_assert_true (winnow_session_step_next (session));
  wn_engine_get_stats (winnow_session_get_engine (session), &stats);
  g_assert_cmpuint (stats.terminated, <, 40);
  g_assert_cmpuint (stats.executions, <, 40 * 10000);
  g_assert_true (winnow_session_is_stepping (session));
  g_assert_true (winnow_session_is_playing (session));
  g_assert_cmpint (winnow_session_get_mode (session), ==, WN_CLOCK_PAUSED);

  /* Pause stops it where it is */
  n_run = wn_scheduler_get_n_run (wn_engine_get_scheduler (winnow_session_get_engine (session)));
  winnow_session_pause (session);
  g_assert_false (winnow_session_is_stepping (session));
  g_main_context_iteration (NULL, FALSE);
  g_assert_cmpuint (wn_scheduler_get_n_run (wn_engine_get_scheduler (winnow_session_get_engine (session))), ==, n_run);
  winnow_session_flush (session);
  g_assert_cmpuint (count_events (session, WN_EV_CLOCK, WN_PH_STEPPED), ==, 1);
  g_assert_cmpuint (stopped->len, ==, 0);

  /* a step left to run stops by itself after its budget, and says so */
  g_assert_true (winnow_session_step_next (session));
  finish_step (session);
  g_assert_cmpuint (stopped->len, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (stopped, 0), "This step ran 200000 actions"));
  wn_engine_get_stats (winnow_session_get_engine (session), &stats);
  g_assert_cmpuint (stats.terminated, <, 40);
  g_assert_cmpint (winnow_session_get_now (session), ==, 0);

  /* stepping again goes on to the instant's end: every loop ended by the engine */
  while (winnow_session_get_next_time (session) == 0)
    {
      g_assert_cmpuint (steps++, <, 40);
      g_assert_true (winnow_session_step_next (session));
      finish_step (session);
    }
  wn_engine_get_stats (winnow_session_get_engine (session), &stats);
  g_assert_cmpuint (stats.terminated, ==, 40);
  g_assert_cmpuint (stats.executions, ==, 40 * 10000);
  g_unlink (path);
  g_rmdir (dir);
}

/* A replayed session's command that names nothing the run has is said, once,
 * through the session's notice signal (the window shows it). */
static void
test_notices (void)
{
  g_autofree char *path = g_build_filename (EXAMPLES_DIR, "flaky-service.process.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(WinnowSession) session = winnow_session_new ();
  g_autoptr(GPtrArray) notices = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("winnow-notice-XXXXXX", &error);
  g_autofree char *scenario = g_build_filename (dir, "edited.scenario.json", NULL);
  g_autoptr(GFile) scenario_file = g_file_new_for_path (scenario);

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (scenario,
                                      "{\"format\": \"winnow.scenario/1\", \"start\": [{\"at\": \"0s\", \"count\": 1}],"
                                      " \"x-winnow\": {\"commands\": [{\"after\": 0, \"at\": \"0s\", \"op\": \"cancel\","
                                      " \"instance\": \"i999\"}]}}", -1, &error));
  g_assert_true (winnow_session_load_file (session, file, NULL, NULL, &error));
  g_assert_no_error (error);
  g_signal_connect (session, "notice", G_CALLBACK (count_notice_cb), notices);
  g_assert_true (winnow_session_load_scenario (session, scenario_file, NULL, &error));
  g_assert_no_error (error);
  while (winnow_session_step_next (session))
    winnow_session_flush (session);
  winnow_session_flush (session);
  g_assert_cmpuint (notices->len, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (notices, 0), "no instance i999"));
  winnow_session_flush (session);
  g_assert_cmpuint (notices->len, ==, 1);
  g_unlink (scenario);
  g_rmdir (dir);
}

static WinnowSession *
load_example (const char     *example,
              WnTrust         trust,
              gboolean       *loaded,
              GError        **error)
{
  g_autofree char *path = g_build_filename (EXAMPLES_DIR, example, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  WinnowSession *session = winnow_session_new ();
  WnEngineOptions options = { 0 };

  options.trust = trust;
  options.instances = 3;
  *loaded = winnow_session_load_file (session, file, &options, NULL, error);
  return session;
}

/* The one way a file becomes a run: the trust it is given is the default for
 * a process that sets none, the other options are overrides, and a file that
 * does not load (or is not local) changes nothing. */
static void
test_load_file (void)
{
  g_autoptr(WinnowSession) plain = NULL;
  g_autoptr(WinnowSession) own = NULL;
  g_autoptr(WinnowSession) remote = winnow_session_new ();
  g_autoptr(GFile) uri = g_file_new_for_uri ("https://example.com/order.process.json");
  g_autoptr(GFile) missing = g_file_new_for_path (EXAMPLES_DIR "/no-such.process.json");
  g_autoptr(GPtrArray) diagnostics = NULL;
  g_autoptr(GError) error = NULL;
  WnEngine *engine;
  gboolean loaded = FALSE;

  /* a process that sets no trust takes the one given */
  plain = load_example ("order-fulfilment.process.json", WN_TRUST_ENGINE_AUTHORITATIVE, &loaded, &error);
  g_assert_no_error (error);
  g_assert_true (loaded);
  g_assert_true (winnow_session_is_loaded (plain));
  g_assert_cmpint (winnow_session_get_trust_default (plain), ==, WN_TRUST_ENGINE_AUTHORITATIVE);
  g_assert_cmpint (winnow_session_get_options (plain)->trust, ==, WN_TRUST_ENGINE_AUTHORITATIVE);
  g_assert_cmpuint (winnow_session_get_options (plain)->instances, ==, 3);

  /* one that sets its own keeps it, and the run records no override */
  own = load_example ("order-fulfilment-authoritative.process.json", WN_TRUST_WORKER_TRUSTED, &loaded, &error);
  g_assert_no_error (error);
  g_assert_true (loaded);
  g_assert_cmpint (winnow_session_get_trust_default (own), ==, WN_TRUST_ENGINE_AUTHORITATIVE);
  g_assert_cmpint (winnow_session_get_options (own)->trust, ==, WN_TRUST_UNSET);
  g_assert_cmpuint (winnow_session_get_options (own)->instances, ==, 3);

  /* a file that does not load leaves the run as it was */
  engine = winnow_session_get_engine (own);
  g_assert_false (winnow_session_load_file (own, missing, NULL, &diagnostics, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_true (winnow_session_get_engine (own) == engine);
  g_assert_cmpint (winnow_session_get_trust_default (own), ==, WN_TRUST_ENGINE_AUTHORITATIVE);

  /* only local files open */
  g_assert_false (winnow_session_load_file (remote, uri, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_assert_false (winnow_session_is_loaded (remote));
}

/* The clock's mode is a WnClockMode property that follows play and pause. */
static int
mode_property (WinnowSession *session)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (session), "mode");
  GValue value = G_VALUE_INIT;
  int mode;

  g_assert_nonnull (pspec);
  g_assert_cmpstr (g_type_name (pspec->value_type), ==, g_type_name (WN_TYPE_CLOCK_MODE));
  g_value_init (&value, WN_TYPE_CLOCK_MODE);
  g_object_get_property (G_OBJECT (session), "mode", &value);
  mode = g_value_get_enum (&value);
  g_value_unset (&value);
  return mode;
}

static void
test_mode (void)
{
  g_autoptr(WinnowSession) session = NULL;
  g_autoptr(GError) error = NULL;
  gboolean loaded = FALSE;

  session = load_example ("order-fulfilment.process.json", WN_TRUST_UNSET, &loaded, &error);
  g_assert_no_error (error);
  g_assert_true (loaded);
  g_assert_cmpint (mode_property (session), ==, WN_CLOCK_PAUSED);
  winnow_session_play (session);
  g_assert_cmpint (mode_property (session), ==, WN_CLOCK_RUNNING);
  g_assert_cmpint (winnow_session_get_mode (session), ==, WN_CLOCK_RUNNING);
  winnow_session_pause (session);
  g_assert_cmpint (mode_property (session), ==, WN_CLOCK_PAUSED);
}

static void
sent_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      data)
{
  *(GBytes **) data = soup_session_send_and_read_finish (SOUP_SESSION (source), result, NULL);
}

/* Accepting outside workers: a call that comes while paused waits, a step
 * applies it; the server follows the session from run to run. */
static void
test_serve (void)
{
  g_autofree char *path = g_build_filename (EXAMPLES_DIR, "order-fulfilment.process.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(WinnowSession) session = winnow_session_new ();
  g_autoptr(SoupSession) client = soup_session_new ();
  g_autoptr(SoupMessage) msg = NULL;
  g_autoptr(GBytes) payload = g_bytes_new_static ("{\"retries\": 1}", 14);
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  WnRestServer *server;
  GBytes *bytes = NULL;
  GBytes *poll_answer = NULL;

  g_assert_true (winnow_session_load_file (session, file, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_null (winnow_session_get_server (session));
  g_assert_false (winnow_session_serve (session, "nonsense", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_true (winnow_session_serve (session, "127.0.0.1:0", &error));
  g_assert_no_error (error);
  server = winnow_session_get_server (session);
  g_assert_nonnull (server);

  url = g_strconcat (wn_rest_server_get_url (server), "/external-task/i1/j9/retries", NULL);
  msg = soup_message_new ("PUT", url);
  soup_message_set_request_body_from_bytes (msg, "application/json", payload);
  soup_session_send_and_read_async (client, msg, G_PRIORITY_DEFAULT, NULL, sent_cb, &bytes);
  while (wn_rest_server_get_n_held (server) == 0)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpstr (wn_rest_server_get_held (server, 0), ==, "retries i1/j9");
  /* the step applies the call, not the clock */
  g_assert_true (winnow_session_step_next (session));
  g_assert_cmpint (winnow_session_get_now (session), ==, 0);
  while (bytes == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (soup_message_get_status (msg), ==, 404);
  g_bytes_unref (bytes);

  /* a long poll held while paused, then fast-forward: applied, and said */
  {
    g_autofree char *fetch_url = g_strconcat (wn_rest_server_get_url (server), "/external-task/fetchAndLock",
                                              NULL);
    g_autoptr(SoupMessage) poll = soup_message_new ("POST", fetch_url);
    static const char text[] =
      "{\"workerId\": \"py\", \"maxTasks\": 1, \"asyncResponseTimeout\": 60000,"
      " \"topics\": [{\"topicName\": \"nothing\", \"lockDuration\": 1000}]}";
    g_autoptr(GBytes) body = g_bytes_new_static (text, sizeof text - 1);
    g_autoptr(GPtrArray) notices = g_ptr_array_new_with_free_func (g_free);

    soup_message_set_request_body_from_bytes (poll, "application/json", body);
    soup_session_send_and_read_async (client, poll, G_PRIORITY_DEFAULT, NULL, sent_cb, &poll_answer);
    while (wn_rest_server_get_n_held (server) == 0)
      g_main_context_iteration (NULL, TRUE);
    g_signal_connect (session, "notice", G_CALLBACK (count_notice_cb), notices);
    winnow_session_set_speed (session, 0);
    winnow_session_play (session);
    g_assert_cmpuint (wn_rest_server_get_n_held (server), ==, 0);
    g_assert_cmpuint (wn_rest_server_get_n_polls (server), ==, 1);
    g_assert_cmpuint (notices->len, ==, 1);
    g_assert_nonnull (strstr (g_ptr_array_index (notices, 0), "1 polls waiting"));
    winnow_session_pause (session);
    g_signal_handlers_disconnect_by_func (session, count_notice_cb, notices);
  }

  /* a new run: the old server answers its poll with nothing, a new one serves */
  winnow_session_restart (session);
  while (poll_answer == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (g_bytes_get_size (poll_answer), ==, 2);
  g_bytes_unref (poll_answer);
  g_assert_nonnull (winnow_session_get_server (session));
  g_assert_true (winnow_session_serve (session, NULL, &error));
  g_assert_null (winnow_session_get_server (session));
  soup_session_abort (client);
}

/* A call to the session's server that waits while the clock is paused: one
 * step applies it; returns the answer's status (and the answer in *answer). */
static guint
call_held (SoupSession   *client,
           WinnowSession *session,
           const char    *method,
           const char    *path,
           const char    *text,
           GBytes       **answer)
{
  WnRestServer *server = winnow_session_get_server (session);
  g_autofree char *url = g_strconcat (wn_rest_server_get_url (server), path, NULL);
  g_autoptr(SoupMessage) msg = soup_message_new (method, url);
  g_autoptr(GBytes) body = g_bytes_new (text, strlen (text));
  guint before = wn_rest_server_get_n_held (server);

  *answer = NULL;
  soup_message_set_request_body_from_bytes (msg, "application/json", body);
  soup_session_send_and_read_async (client, msg, G_PRIORITY_DEFAULT, NULL, sent_cb, answer);
  while (wn_rest_server_get_n_held (server) == before)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (winnow_session_step_next (session));
  while (*answer == NULL)
    g_main_context_iteration (NULL, TRUE);
  return soup_message_get_status (msg);
}

static void
find_reserve_cb (const WnJobInfo *info,
                 gpointer         data)
{
  if (g_strcmp0 (info->topic, "reserve") == 0 && info->state == WN_JOB_AVAILABLE && *(char **) data == NULL)
    *(char **) data = g_strdup (info->id);
}

static guint
count_external (WnEngine *engine)
{
  GPtrArray *commands = wn_engine_get_commands (engine);
  guint n = 0;

  for (guint i = 0; i < commands->len; i++)
    n += ((WnCommand *) g_ptr_array_index (commands, i))->kind == WN_COMMAND_EXTERNAL;
  return n;
}

/* Serving with a topic switched to outside workers: a worker's lock and
 * complete are recorded; going back reruns them, the worker's call sent again
 * is refused (never applied twice) and the run comes back to the same end. */
static void
test_serve_travel (void)
{
  g_autofree char *path = g_build_filename (EXAMPLES_DIR, "order-fulfilment.process.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(WinnowSession) session = winnow_session_new ();
  g_autoptr(SoupSession) client = soup_session_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) answer = NULL;
  g_autoptr(JsonNode) tasks = NULL;
  g_autofree char *job = NULL;
  g_autofree char *report = NULL;
  g_auto(GStrv) topics = NULL;
  const char *last = NULL;
  WnJobInfo info;
  guint steps = 0;

  g_assert_true (winnow_session_load_file (session, file, NULL, NULL, &error));
  topics = winnow_session_dup_simulated_topics (session);
  g_assert_true (g_strv_contains ((const char *const *) topics, "reserve"));
  g_assert_true (winnow_session_set_topic_simulated (session, "reserve", FALSE, &error));
  g_assert_no_error (error);
  g_assert_true (winnow_session_serve (session, "127.0.0.1:0", &error));

  while (job == NULL && steps++ < 500)
    {
      g_assert_true (winnow_session_step_next (session));
      wn_dispatcher_foreach (wn_engine_get_dispatcher (winnow_session_get_engine (session)), find_reserve_cb, &job);
    }
  g_assert_nonnull (job);
  g_assert_cmpuint (call_held (client, session, "POST", "/external-task/fetchAndLock",
                               "{\"workerId\": \"py\", \"maxTasks\": 1,"
                               " \"topics\": [{\"topicName\": \"reserve\", \"lockDuration\": 60000}]}",
                               &answer), ==, 200);
  tasks = wn_test_json (g_bytes_get_data (answer, NULL));
  g_assert_cmpuint (json_array_get_length (json_node_get_array (tasks)), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (json_node_get_array (tasks), 0),
                                                  "id"), ==, job);
  g_clear_pointer (&answer, g_bytes_unref);
  report = g_strdup_printf ("/external-task/%s/complete", job);
  g_assert_cmpuint (call_held (client, session, "POST", report, "{\"workerId\": \"py\"}", &answer), ==, 204);
  g_clear_pointer (&answer, g_bytes_unref);
  g_assert_false (wn_dispatcher_lookup (wn_engine_get_dispatcher (winnow_session_get_engine (session)), job, NULL));
  g_assert_cmpuint (count_external (winnow_session_get_engine (session)), ==, 2);
  g_assert_cmpuint (wn_rest_server_get_n_workers (winnow_session_get_server (session)), ==, 1);
  g_assert_cmpstr (wn_rest_server_get_worker (winnow_session_get_server (session), 0, &last, NULL, NULL), ==, "py");
  g_assert_true (g_str_has_prefix (last, "complete ") && g_str_equal (last + strlen ("complete "), job));

  /* back, while serving, to before the complete: the job is py's again */
  g_assert_true (winnow_session_can_step_back (session));
  g_assert_true (winnow_session_step_back (session));
  g_assert_nonnull (winnow_session_get_server (session));
  g_assert_true (wn_dispatcher_lookup (wn_engine_get_dispatcher (winnow_session_get_engine (session)), job, &info));
  g_assert_cmpint (info.state, ==, WN_JOB_LOCKED);
  g_assert_cmpstr (info.worker, ==, "py");
  g_assert_cmpuint (wn_engine_get_n_future (winnow_session_get_engine (session)), >, 0);

  /* the worker sends its complete again: refused, the record's comes instead */
  g_assert_cmpuint (call_held (client, session, "POST", report, "{\"workerId\": \"py\"}", &answer), ==, 400);
  g_assert_nonnull (strstr (g_bytes_get_data (answer, NULL), "went back in time"));
  g_clear_pointer (&answer, g_bytes_unref);
  for (steps = 0; wn_engine_get_n_future (winnow_session_get_engine (session)) > 0 && steps < 500; steps++)
    g_assert_true (winnow_session_step_next (session));
  g_assert_cmpuint (wn_engine_get_n_future (winnow_session_get_engine (session)), ==, 0);
  g_assert_false (wn_dispatcher_lookup (wn_engine_get_dispatcher (winnow_session_get_engine (session)), job, NULL));
  g_assert_cmpuint (count_external (winnow_session_get_engine (session)), ==, 2);

  /* Restart keeps the switch */
  winnow_session_restart (session);
  g_assert_false (wn_engine_get_topic_simulated (winnow_session_get_engine (session), "reserve"));
  g_assert_true (winnow_session_serve (session, NULL, &error));
  soup_session_abort (client);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/Session/load-file", test_load_file);
  g_test_add_func ("/app/Session/step-to-the-end", test_step_to_the_end);
  g_test_add_func ("/app/Session/notices", test_notices);
  g_test_add_func ("/app/Session/step-in-slices", test_step_in_slices);
  g_test_add_func ("/app/Session/mode", test_mode);
  g_test_add_func ("/app/Session/serve", test_serve);
  g_test_add_func ("/app/Session/serve-travel", test_serve_travel);
  g_test_add_func ("/app/Session/incremental/flaky-service", test_flaky_service);
  g_test_add_func ("/app/Session/incremental/incidents", test_incidents);
  g_test_add_func ("/app/Session/incremental/parallel", test_parallel);
  return g_test_run ();
}

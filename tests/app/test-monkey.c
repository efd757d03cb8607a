/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The operator monkey (issue 17, item 17): the window driven at random for
 * WINNOW_MONKEY_SECONDS (60 by default) as an impatient user would — steps,
 * plays and pauses at every speed, Step Back, scrubs to events and instants,
 * runs to the next event of a kind, injections, trust changes, new
 * instances, incident actions, cancels, restarts, branch switches and the
 * Branches dialog, saves, and opens of good and bad process and session
 * files (cut short, edited by hand, not JSON, missing) — with every warning
 * and critical fatal (g_test_init; CI runs it under ASan and UBSan too).
 *
 * The moves come from WINNOW_MONKEY_SEED (20261202 by default, so CI repeats
 * the same sequence); a fatal message prints the seed and the last moves.
 * The run is bounded by time, not by moves: a slower machine makes fewer of
 * the same moves. */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "winnow-app-test.h"

#define TRAIL 40

typedef struct {
  GRand        *rand;
  guint32       seed;
  WinnowWindow *window;
  char         *dir;          /* the bad files and the saves */
  GPtrArray    *good;         /* example process paths */
  GPtrArray    *bad;          /* process paths that do not load */
  GPtrArray    *bad_sessions; /* session paths that do not load */
  char         *saved;        /* a session saved by the monkey */
  char         *trail[TRAIL]; /* the last moves, a ring */
  guint         moves;
} Monkey;

static Monkey monkey;

static void
note (const char *format,
      ...) G_GNUC_PRINTF (1, 2);

static void
note (const char *format,
      ...)
{
  va_list args;
  guint slot = monkey.moves++ % TRAIL;

  g_free (monkey.trail[slot]);
  va_start (args, format);
  monkey.trail[slot] = g_strdup_vprintf (format, args);
  va_end (args);
}

/* A fatal message: say how to repeat it first. */
static gboolean
fatal_cb (const char     *log_domain,
          GLogLevelFlags  log_level,
          const char     *message,
          gpointer        data)
{
  if (!winnow_test_ignore_bus_warning (log_domain, log_level, message, data))
    return FALSE;
  g_printerr ("\ntest-monkey: fatal after %u moves; repeat with WINNOW_MONKEY_SEED=%u. The last moves:\n",
              monkey.moves, monkey.seed);
  for (guint i = monkey.moves > TRAIL ? monkey.moves - TRAIL : 0; i < monkey.moves; i++)
    g_printerr ("  %u: %s\n", i + 1, monkey.trail[i % TRAIL]);
  return TRUE;
}

/* Let the main loop run for up to `ms` (frames, slices, fast-forward batches). */
static void
pump (guint ms)
{
  gint64 until = g_get_monotonic_time () + (gint64) ms * 1000;

  do
    g_main_context_iteration (NULL, FALSE);
  while (g_get_monotonic_time () < until);
}

static WinnowSession *
session (void)
{
  return winnow_window_get_session (monkey.window);
}

static guint
pick (guint n)
{
  return n > 0 ? (guint) g_rand_int_range (monkey.rand, 0, (gint32) n) : 0;
}

static void
activate (const char *action,
          GVariant   *param)
{
  GActionGroup *group = G_ACTION_GROUP (monkey.window);

  if (param != NULL)
    g_variant_ref_sink (param);
  if (g_action_group_get_action_enabled (group, action))
    g_action_group_activate_action (group, action, param);
  if (param != NULL)
    g_variant_unref (param);
}

/* The dialogs a move opened (Branches, Go to Time, load errors …) close. */
static void
close_dialogs (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = g_list_model_get_n_items (toplevels); i > 0; i--)
    {
      g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i - 1);

      if (window != GTK_WINDOW (monkey.window) && gtk_widget_get_visible (GTK_WIDGET (window)))
        gtk_window_destroy (window);
    }
}

static const char *
random_node (gboolean service_task)
{
  WnProcess *process = winnow_session_get_process (session ());
  guint n = process ? process->n_nodes : 0;

  for (guint tries = 0; tries < 8 && n > 0; tries++)
    {
      const WnNode *node = &process->nodes[pick (n)];

      if (!service_task || node->worker != NULL)
        return node->id;
    }
  return NULL;
}

static char *
random_instance (void)
{
  GListModel *instances = winnow_session_get_instances (session ());
  guint n = g_list_model_get_n_items (instances);
  g_autoptr(GObject) row = n > 0 ? g_list_model_get_item (instances, pick (n)) : NULL;
  char *id = NULL;

  if (row != NULL)
    g_object_get (row, "id", &id, NULL);
  return id;
}

static void
move (void)
{
  WinnowSession *s = session ();
  WnEngine *engine = winnow_session_get_engine (s);
  guint64 events = engine ? wn_journal_get_n_events (wn_engine_get_journal (engine)) : 0;
  g_autoptr(GError) error = NULL;
  guint what = pick (100);

  if (what < 14)
    {
      note ("step");
      activate ("step-next", NULL);
    }
  else if (what < 24)
    {
      note ("step back");
      activate ("step-back", NULL);
    }
  else if (what < 31)
    {
      guint64 seq = 1 + (guint64) pick ((guint) MIN (events + 20, G_MAXINT32));

      note ("go to event %" G_GUINT64_FORMAT, seq);
      activate ("go-to-event", g_variant_new_uint64 (seq));
    }
  else if (what < 36)
    {
      g_autofree char *at = g_strdup_printf ("%ums", pick (20000));

      note ("go to time %s", at);
      activate ("go-to-time", g_variant_new_string (at));
    }
  else if (what < 40)
    {
      const char *specs[] = { "job.completed", "job.retryScheduled", "instance.completed", "incident.raised",
                              "node.entered", "job", "no.such" };
      const char *spec = specs[pick (G_N_ELEMENTS (specs))];

      note ("run to %s", spec);
      if (!g_str_equal (spec, "no.such"))
        activate ("run-to", g_variant_new_string (spec));
    }
  else if (what < 48)
    {
      const char *speeds[] = { "ff", "1", "10", "0.5" };
      const char *speed = speeds[pick (G_N_ELEMENTS (speeds))];

      note ("play/pause at %s", speed);
      activate ("set-speed", g_variant_new_string (speed));
      activate ("play-pause", NULL);
    }
  else if (what < 54)
    {
      const char *topic = NULL;
      g_autoptr(WnResponse) response = pick (2) ? wn_response_new_crash () : NULL;
      const char *node = random_node (TRUE);
      WnProcess *process = winnow_session_get_process (s);
      const WnNode *task = node && process ? wn_process_find_node (process, node) : NULL;

      if (task != NULL && task->worker != NULL)
        topic = task->worker->topic;
      note ("inject %s on %s", response ? "a crash" : "nothing", topic ? topic : "no topic");
      if (response != NULL && topic != NULL)
        winnow_session_inject (s, topic, NULL, response, NULL);
    }
  else if (what < 60)
    {
      const char *node = random_node (TRUE);
      WnTrust trust = pick (2) ? WN_TRUST_WORKER_TRUSTED : WN_TRUST_ENGINE_AUTHORITATIVE;

      note ("trust %s %s", node ? node : "engine-wide", wn_trust_to_string (trust));
      if (engine == NULL)
        ;
      else if (node != NULL && pick (2))
        winnow_session_set_task_trust (s, node, pick (3) == 0 ? WN_TRUST_UNSET : trust, NULL);
      else
        winnow_session_set_trust_default (s, trust);
    }
  else if (what < 64)
    {
      note ("start an instance");
      winnow_session_start_instance (s, NULL, NULL);
    }
  else if (what < 68)
    {
      GPtrArray *incidents = winnow_session_get_incidents (s);
      g_autofree char *instance = random_instance ();

      if (incidents->len > 0 && pick (2))
        {
          const WinnowIncident *incident = g_ptr_array_index (incidents, pick (incidents->len));
          g_autofree char *id = g_strdup (incident->instance);
          g_autofree char *node = g_strdup (incident->node);

          if (pick (2))
            {
              note ("incident retry at %s", node);
              winnow_session_incident_retry (s, id, node, NULL);
            }
          else
            {
              note ("incident resolve at %s", node);
              winnow_session_incident_resolve (s, id, node, NULL);
            }
        }
      else
        {
          note ("cancel %s", instance ? instance : "nothing");
          if (instance != NULL)
            winnow_session_cancel_instance (s, instance, NULL);
        }
    }
  else if (what < 72)
    {
      guint n = winnow_session_get_n_branches (s);
      guint to = pick (n + 1);

      note ("switch to branch %u of %u", to, n);
      activate ("switch-branch", g_variant_new_uint32 (to));
    }
  else if (what < 74)
    {
      note ("the Branches dialog");
      activate ("show-branches", NULL);
      pump (20);
      close_dialogs ();
    }
  else if (what < 78)
    {
      note ("restart");
      activate ("restart", NULL);
    }
  else if (what < 82)
    {
      const char *path = g_ptr_array_index (monkey.good, pick (monkey.good->len));
      g_autoptr(GFile) file = g_file_new_for_path (path);

      note ("open %s", path);
      winnow_window_open_file (monkey.window, file);
    }
  else if (what < 86)
    {
      const char *path = g_ptr_array_index (monkey.bad, pick (monkey.bad->len));
      g_autoptr(GFile) file = g_file_new_for_path (path);

      note ("open the bad %s", path);
      g_assert_false (winnow_window_open_file (monkey.window, file));
      close_dialogs ();
    }
  else if (what < 90)
    {
      g_autoptr(GFile) file = g_file_new_for_path (monkey.saved);

      note ("save the session");
      if (engine != NULL && !winnow_window_save_session (monkey.window, file, &error))
        g_error ("saving %s: %s", monkey.saved, error->message);
    }
  else if (what < 94)
    {
      g_autoptr(GFile) file = g_file_new_for_path (monkey.saved);

      note ("open the saved session");
      if (engine != NULL && g_file_test (monkey.saved, G_FILE_TEST_EXISTS))
        winnow_window_open_scenario (monkey.window, file);
      close_dialogs ();
    }
  else if (what < 97)
    {
      const char *path = g_ptr_array_index (monkey.bad_sessions, pick (monkey.bad_sessions->len));
      g_autoptr(GFile) file = g_file_new_for_path (path);

      note ("open the bad session %s", path);
      if (engine != NULL)
        g_assert_false (winnow_window_open_scenario (monkey.window, file));
      close_dialogs ();
    }
  else
    {
      const char *job = NULL;
      GListModel *jobs = winnow_session_get_jobs (s);
      guint n = g_list_model_get_n_items (jobs);
      g_autoptr(GObject) row = n > 0 ? g_list_model_get_item (jobs, pick (n)) : NULL;
      g_autofree char *id = NULL;

      if (row != NULL)
        g_object_get (row, "id", &id, NULL);
      job = id;
      note ("select %s and %s", job ? job : "no job", pick (2) ? "a node" : "no node");
      winnow_session_set_selected_job (s, job);
      winnow_session_set_selected_node (s, pick (2) ? random_node (FALSE) : NULL);
    }
  /* a user's pace: now at once, now after a few frames */
  pump (pick (8) == 0 ? 20 + pick (40) : pick (3));
}

/* Files that do not load: cut short, edited, not JSON, empty, missing, a folder. */
static void
make_bad_files (void)
{
  g_autofree char *text = NULL;
  gsize length = 0;
  g_autoptr(GError) error = NULL;
  const char *example = g_ptr_array_index (monkey.good, 0);
  struct {
    const char *name;
    char       *content;
    gssize      length;
  } bad[] = {
    { "cut.process.json", NULL, 0 },
    { "edited.process.json", NULL, -1 },
    { "binary.process.json", g_memdup2 ("\x89PNG\r\n\x1a\n\xff\xfe\x00garbage", 19), 19 },
    { "empty.process.json", g_strdup (""), 0 },
  };

  g_assert_true (g_file_get_contents (example, &text, &length, &error));
  bad[0].content = g_strndup (text, length / 2);
  bad[0].length = (gssize) (length / 2);
  bad[1].content = g_strdup (text);
  {
    char *nodes = strstr (bad[1].content, "\"nodes\"");

    g_assert_nonnull (nodes);
    memcpy (nodes, "\"nodez\"", 7);
  }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      char *path = g_build_filename (monkey.dir, bad[i].name, NULL);

      g_assert_true (g_file_set_contents (path, bad[i].content, bad[i].length, &error));
      g_ptr_array_add (monkey.bad, path);
      g_free (bad[i].content);
    }
  g_ptr_array_add (monkey.bad, g_build_filename (monkey.dir, "missing.process.json", NULL));
  g_ptr_array_add (monkey.bad, g_strdup (monkey.dir));

  /* sessions: cut short and edited, from a real saved one */
  {
    const char *cuts[] = { "cut-a.scenario.json", "cut-b.scenario.json", "cut-c.scenario.json" };
    g_autofree char *saved = NULL;
    WinnowWindow *window = winnow_window_new (NULL);
    g_autoptr(GFile) file = g_file_new_for_path (example);
    gsize n;

    g_assert_true (winnow_window_open_file (window, file));
    for (int i = 0; i < 5; i++)
      winnow_session_step_next (winnow_window_get_session (window));
    saved = winnow_session_export_session (winnow_window_get_session (window));
    gtk_window_destroy (GTK_WINDOW (window));
    n = strlen (saved);
    for (guint i = 0; i < G_N_ELEMENTS (cuts); i++)
      {
        char *path = g_build_filename (monkey.dir, cuts[i], NULL);

        g_assert_true (g_file_set_contents (path, saved, (gssize) (n * (i + 1) / 4), &error));
        g_ptr_array_add (monkey.bad_sessions, path);
      }
    {
      char *path = g_build_filename (monkey.dir, "edited.scenario.json", NULL);
      char *after = strstr (saved, "\"after\"");

      g_assert_nonnull (after);
      memcpy (after, "\"afteR\"", 7);
      g_assert_true (g_file_set_contents (path, saved, -1, &error));
      g_ptr_array_add (monkey.bad_sessions, path);
    }
  }
}

static void
test_monkey (void)
{
  const char *seed = g_getenv ("WINNOW_MONKEY_SEED");
  const char *seconds = g_getenv ("WINNOW_MONKEY_SECONDS");
  gint64 duration = (gint64) ((seconds != NULL ? g_ascii_strtod (seconds, NULL) : 60.0) * G_USEC_PER_SEC);
  const char *names[] = { "order-fulfilment.process.json", "flaky-service.process.json",
                          "incident-on-exhaustion.process.json", "parallel-branch-failure.process.json",
                          "crashed-worker.process.json", "payment-timeout.process.json",
                          "manual-approval.process.json", "batch-payments.process.json" };
  g_autoptr(GError) error = NULL;
  gint64 until;

  monkey.seed = seed != NULL ? (guint32) g_ascii_strtoull (seed, NULL, 10) : 20261202;
  monkey.rand = g_rand_new_with_seed (monkey.seed);
  g_printerr ("test-monkey: WINNOW_MONKEY_SEED=%u, %.0f s\n", monkey.seed, duration / 1e6);
  monkey.dir = g_dir_make_tmp ("winnow-monkey-XXXXXX", &error);
  g_assert_no_error (error);
  monkey.good = g_ptr_array_new_with_free_func (g_free);
  monkey.bad = g_ptr_array_new_with_free_func (g_free);
  monkey.bad_sessions = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_ptr_array_add (monkey.good, winnow_test_example_path (names[i]));
  monkey.saved = g_build_filename (monkey.dir, "saved.scenario.json", NULL);
  make_bad_files ();

  monkey.window = winnow_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (monkey.window), 1280, 860);
  gtk_window_present (GTK_WINDOW (monkey.window));
  {
    g_autoptr(GFile) file = g_file_new_for_path (g_ptr_array_index (monkey.good, 0));

    g_assert_true (winnow_window_open_file (monkey.window, file));
  }
  winnow_test_settle (GTK_WIDGET (monkey.window));

  until = g_get_monotonic_time () + duration;
  while (g_get_monotonic_time () < until)
    move ();
  g_test_message ("%u moves in %.0f s (WINNOW_MONKEY_SEED=%u)", monkey.moves, duration / 1e6, monkey.seed);
  g_printerr ("test-monkey: %u moves\n", monkey.moves);

  activate ("play-pause", NULL);
  winnow_session_pause (session ());
  close_dialogs ();
  gtk_window_destroy (GTK_WINDOW (monkey.window));
  pump (50);
  for (guint i = 0; i < monkey.bad->len; i++)
    g_unlink (g_ptr_array_index (monkey.bad, i));
  for (guint i = 0; i < monkey.bad_sessions->len; i++)
    g_unlink (g_ptr_array_index (monkey.bad_sessions, i));
  g_unlink (monkey.saved);
  g_rmdir (monkey.dir);
  for (guint i = 0; i < TRAIL; i++)
    g_free (monkey.trail[i]);
  g_ptr_array_unref (monkey.good);
  g_ptr_array_unref (monkey.bad);
  g_ptr_array_unref (monkey.bad_sessions);
  g_free (monkey.saved);
  g_free (monkey.dir);
  g_rand_free (monkey.rand);
}

int
main (int argc, char **argv)
{
  wn_test_require_display ("test-monkey");
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GTK_A11Y", "none", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  g_test_log_set_fatal_handler (fatal_cb, NULL);
  adw_init ();
  if (g_getenv ("WINNOW_EXAMPLES_DIR") == NULL)
    {
      g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "..", "..", "data", "examples", NULL);
      g_setenv ("WINNOW_EXAMPLES_DIR", dir, TRUE);
    }
  g_test_add_func ("/app/Monkey/sixty-seconds", test_monkey);
  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The main window driven the way a user does: through its actions. */
#include "config.h"

#include <locale.h>
#include <signal.h>
#include <glib/gi18n.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <glib/gstdio.h>
#include <adwaita.h>

#include "winnow-load-errors.h"
#include "winnow-run-panel.h"
#include "winnow-transport.h"
#include "winnow-window-private.h"
#include "winnow-wrap-box.h"

#include "winnow.h"
#include "winnow-application.h"
#include "winnow-event-row.h"
#include "winnow-job-row.h"
#include "winnow-session.h"
#include "winnow-track-row.h"
#include "winnow-window.h"
#include "winnow-app-test.h"

#define WAIT_US WINNOW_TEST_WAIT_US

static const char broken_process[] =
  "{\n"
  "  \"format\": \"winnow.process/1\",\n"
  "  \"id\": \"broken\",\n"
  "  \"nodes\": [\n"
  "    { \"id\": \"start\", \"type\": \"startEvent\" },\n"
  "    { \"id\": \"work\", \"type\": \"serviceTask\",\n"
  "      \"worker\": { \"topic\": \"work\", \"retry\": { \"policy\": \"fixed\", \"maxAttempts\": 0, \"delay\": \"1s\" } } },\n"
  "    { \"id\": \"end\", \"type\": \"endEvent\" }\n"
  "  ],\n"
  "  \"flows\": [\n"
  "    { \"id\": \"f1\", \"from\": \"start\", \"to\": \"work\" },\n"
  "    { \"id\": \"f2\", \"from\": \"work\", \"to\": \"nowhere\" }\n"
  "  ]\n"
  "}\n";

static WinnowJobRow *
find_job (WinnowSession *session,
          const char    *id)
{
  GListModel *jobs = winnow_session_get_jobs (session);
  guint n = g_list_model_get_n_items (jobs);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(WinnowJobRow) row = g_list_model_get_item (jobs, i);

      if (g_strcmp0 (winnow_row_get_id (WINNOW_ROW (row)), id) == 0)
        return row;
    }
  return NULL;
}

static GtkWidget *
find_label_with_prefix (GtkWidget  *root,
                        const char *prefix)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (GTK_IS_LABEL (child) && g_str_has_prefix (gtk_label_get_text (GTK_LABEL (child)), prefix))
        return child;
      if ((found = find_label_with_prefix (child, prefix)) != NULL)
        return found;
    }
  return NULL;
}

static void
test_window_run (void)
{
  g_autoptr(WinnowApplication) app = winnow_application_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) authoritative = NULL;
  g_autoptr(GSettings) settings = NULL;
  g_autofree char *authoritative_path = winnow_test_example_path ("order-fulfilment-authoritative.process.json");
  g_autofree char *broken_path = NULL;
  g_autofree char *not_before_text = NULL;
  g_autoptr(GFile) broken = NULL;
  g_autoptr(GPtrArray) diagnostics = NULL;
  g_autoptr(WnProcess) not_loaded = NULL;
  g_autofree char *first_diagnostic = NULL;
  g_autofree char *expected_prefix = NULL;
  WinnowWindow *window;
  WinnowSession *session;
  const WnEvent *retry;
  const WnEvent *applied;
  WinnowJobRow *job;
  WinnowJobRow *crashed;
  GtkWidget *widget;
  GtkWidget *label;
  GtkWidget *revealer;
  WnEngine *engine;
  WnTime now;
  char retry_job[32];
  guint steps;
  int fd;

  /* a window size for the screenshot, when the schema is there */
  {
    GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
    g_autoptr(GSettingsSchema) schema = source ? g_settings_schema_source_lookup (source, APPLICATION_ID, TRUE) : NULL;

    if (schema != NULL)
      {
        settings = g_settings_new_full (schema, NULL, NULL);
        g_settings_set_int (settings, "window-width", 1400);
        g_settings_set_int (settings, "window-height", 900);
        g_settings_set_int (settings, "side-pane-position", 1030);
        g_settings_set_int (settings, "main-pane-position", 400);
      }
  }

  /* launch: no file → the bundled example, paused at T+0 */
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);
  g_application_activate (G_APPLICATION (app));
  window = WINNOW_WINDOW (gtk_application_get_windows (GTK_APPLICATION (app))->data);
  session = winnow_window_get_session (window);
  g_assert_true (winnow_session_is_loaded (session));
  g_assert_cmpstr (winnow_session_get_process (session)->id, ==, "order-fulfilment");
  g_assert_cmpint (winnow_session_get_now (session), ==, 0);
  g_assert_cmpint (winnow_session_get_mode (session), ==, WN_CLOCK_PAUSED);
  winnow_test_settle (GTK_WIDGET (window));

  /* open the EngineAuthoritative variant through the application */
  authoritative = g_file_new_for_path (authoritative_path);
  g_application_open (G_APPLICATION (app), &authoritative, 1, "");
  g_assert_cmpstr (winnow_session_get_process (session)->id, ==, "order-fulfilment-authoritative");
  g_assert_cmpint (winnow_session_get_now (session), ==, 0);
  g_assert_cmpint (wn_engine_get_trust_default (winnow_session_get_engine (session)), ==,
                   WN_TRUST_ENGINE_AUTHORITATIVE);

  /* step until the dispatcher re-arms a job behind a gate */
  for (steps = 0; steps < 50; steps++)
    {
      winnow_test_activate (window, "step-next", NULL);
      if ((retry = winnow_test_find_event (session, WN_EV_JOB, WN_PH_RETRY_SCHEDULED, NULL, NULL)) != NULL)
        break;
    }
  g_assert_nonnull (retry);
  g_assert_cmpuint (retry->attempt, ==, 1);
  g_assert_cmpint (retry->t_us, ==, 100 * WN_USEC_PER_MSEC);
  g_assert_cmpint (retry->not_before_us, ==, retry->t_us + retry->backoff_us);
  g_strlcpy (retry_job, retry->job, sizeof retry_job);

  job = find_job (session, retry_job);
  g_assert_nonnull (job);
  g_assert_cmpint (winnow_job_row_get_state (job), ==, WN_JOB_GATED);
  g_assert_cmpuint (winnow_job_row_get_attempt (job), ==, 1);
  {
    g_autofree char *attempt_text = NULL;

    /* the table counts executions as the journal does: gated after the first, the job waits for its second of three */
    g_autofree char *trust_text = NULL;

    g_object_get (job, "attempt-text", &attempt_text, "trust-text", &trust_text, NULL);
    g_assert_cmpstr (attempt_text, ==, "2 of 3");
    /* one name for each trust mode, in the table as in the inspector and the menus */
    g_assert_cmpstr (trust_text, ==, "Engine authoritative");
    g_assert_cmpstr (trust_text, ==, winnow_trust_name (WN_TRUST_ENGINE_AUTHORITATIVE));
  }
  g_assert_cmpint (winnow_job_row_get_not_before (job), ==, 400 * WN_USEC_PER_MSEC);
  g_assert_cmpint (winnow_job_row_get_not_before (job), ==, retry->not_before_us);
  g_assert_null (winnow_job_row_get_worker (job));
  g_object_get (job, "not-before-text", &not_before_text, NULL);
  /* read the way the tracks' "(1.2s ago)" reads (issue 16, polish) */
  g_assert_cmpstr (not_before_text, ==, "T+00:00.400 (in 300ms)");
  g_assert_cmpint (winnow_job_row_get_trust (job), ==, WN_TRUST_ENGINE_AUTHORITATIVE);

  /* the picture for people: the dispatcher during the retry, the task selected */
  g_action_group_activate_action (G_ACTION_GROUP (window), "show-tab", g_variant_new_string ("dispatcher"));
  winnow_session_set_selected_node (session, "reserve-stock");
  winnow_test_settle (GTK_WIDGET (window));
  winnow_test_save_screenshot (GTK_WIDGET (window), "main-window.png");
  winnow_session_set_selected_node (session, NULL);

  /* switch the engine-wide default: jobs in the store keep theirs, the next one resolves anew */
  adw_combo_row_set_selected (ADW_COMBO_ROW (winnow_test_find_named (GTK_WIDGET (window), "run-trust")), 0);
  g_assert_cmpint (wn_engine_get_trust_default (winnow_session_get_engine (session)), ==, WN_TRUST_WORKER_TRUSTED);
  g_assert_cmpint (winnow_job_row_get_trust (find_job (session, retry_job)), ==, WN_TRUST_ENGINE_AUTHORITATIVE);

  /* fault injection through the inspector: bad JSON is refused and changes nothing */
  winnow_session_set_selected_node (session, "authorize-payment");
  winnow_test_wait_for_flush (session);
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "inject-fault"));
  widget = winnow_test_find_named (GTK_WIDGET (window), "fault-kind");
  g_assert_true (ADW_IS_COMBO_ROW (widget));
  adw_combo_row_set_selected (ADW_COMBO_ROW (widget), 2);   /* status */
  gtk_editable_set_text (GTK_EDITABLE (winnow_test_find_named (GTK_WIDGET (window), "fault-json")), "{not json");
  winnow_test_activate (window, "inject-fault", NULL);
  label = winnow_test_find_named (GTK_WIDGET (window), "fault-error");
  g_assert_true (gtk_widget_get_visible (label));
  g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (label)), "Not valid JSON"));
  g_assert_null (winnow_test_find_event (session, WN_EV_INJECT, WN_PH_APPLIED, NULL, NULL));

  /* a crash: the next execution on the topic kills its worker slot */
  adw_combo_row_set_selected (ADW_COMBO_ROW (widget), 3);   /* crash */
  winnow_test_activate (window, "inject-fault", NULL);
  g_assert_false (gtk_widget_get_visible (label));
  applied = winnow_test_find_event (session, WN_EV_INJECT, WN_PH_APPLIED, NULL, NULL);
  g_assert_nonnull (applied);
  g_assert_cmpstr (applied->topic, ==, "authorize");
  g_assert_cmpstr (applied->action, ==, "crash");
  winnow_session_set_selected_node (session, NULL);

  /* step until the first authorize job is in the store */
  crashed = NULL;
  for (steps = 0; steps < 50 && crashed == NULL; steps++)
    {
      winnow_test_activate (window, "step-next", NULL);
      crashed = find_job (session, "i1/j2");
    }
  g_assert_nonnull (crashed);
  g_object_ref (crashed);
  g_assert_cmpint (winnow_job_row_get_trust (crashed), ==, WN_TRUST_WORKER_TRUSTED);
  g_assert_cmpint (winnow_job_row_get_state (crashed), ==, WN_JOB_LOCKED);
  g_assert_cmpstr (winnow_job_row_get_worker (crashed), ==, "payments");
  g_assert_cmpuint (winnow_job_row_get_executions (crashed), ==, 1);

  /* ... and it stays locked by the dead worker while the other orders finish */
  for (steps = 0; steps < 40; steps++)
    {
      if (winnow_test_find_event (session, WN_EV_INSTANCE, WN_PH_COMPLETED, NULL, "i2") != NULL &&
          winnow_test_find_event (session, WN_EV_INSTANCE, WN_PH_COMPLETED, NULL, "i3") != NULL)
        break;
      winnow_test_activate (window, "step-next", NULL);
    }
  g_assert_nonnull (winnow_test_find_event (session, WN_EV_INSTANCE, WN_PH_COMPLETED, NULL, "i2"));
  g_assert_nonnull (winnow_test_find_event (session, WN_EV_INSTANCE, WN_PH_COMPLETED, NULL, "i3"));
  g_assert_cmpint (winnow_session_get_now (session), <, 5 * 60 * WN_USEC_PER_SEC);
  g_assert_true (find_job (session, "i1/j2") == crashed);
  g_assert_cmpint (winnow_job_row_get_state (crashed), ==, WN_JOB_LOCKED);
  g_assert_cmpstr (winnow_job_row_get_worker (crashed), ==, "payments");
  g_assert_cmpuint (winnow_job_row_get_executions (crashed), ==, 1);
  g_assert_null (winnow_test_find_event (session, WN_EV_JOB, WN_PH_COMPLETED, "i1/j2", NULL));
  g_assert_null (winnow_test_find_event (session, WN_EV_INSTANCE, WN_PH_COMPLETED, NULL, "i1"));
  g_object_unref (crashed);

  /* a file with semantic errors: every problem shown, the run untouched */
  engine = winnow_session_get_engine (session);
  now = winnow_session_get_now (session);
  fd = g_file_open_tmp ("winnow-broken-XXXXXX.process.json", &broken_path, &error);
  g_assert_no_error (error);
  g_close (fd, NULL);
  g_assert_true (g_file_set_contents (broken_path, broken_process, -1, &error));
  not_loaded = wn_load_process_file (broken_path, &diagnostics, NULL);
  g_assert_null (not_loaded);
  g_assert_cmpuint (diagnostics->len, ==, 2);

  broken = g_file_new_for_path (broken_path);
  g_assert_false (winnow_window_open_file (window, broken));
  winnow_test_wait_for_flush (session);
  for (guint i = 0; i < diagnostics->len; i++)
    {
      const WnDiagnostic *d = g_ptr_array_index (diagnostics, i);

      g_free (expected_prefix);
      expected_prefix = g_strdup_printf ("%s:%u:%u:", broken_path, d->line, d->column);
      label = find_label_with_prefix (GTK_WIDGET (window), expected_prefix);
      g_assert_nonnull (label);
      revealer = gtk_widget_get_ancestor (label, GTK_TYPE_REVEALER);
      g_assert_nonnull (revealer);
      g_assert_true (gtk_revealer_get_reveal_child (GTK_REVEALER (revealer)));
    }
  first_diagnostic = wn_diagnostic_format (g_ptr_array_index (diagnostics, 0));
  g_assert_nonnull (find_label_with_prefix (GTK_WIDGET (window), first_diagnostic));
  g_assert_true (winnow_session_get_engine (session) == engine);
  g_assert_cmpint (winnow_session_get_now (session), ==, now);
  g_assert_cmpstr (winnow_session_get_process (session)->id, ==, "order-fulfilment-authoritative");

  /* restart: T+0 again, same seed */
  winnow_test_activate (window, "restart", NULL);
  g_assert_cmpint (winnow_session_get_now (session), ==, 0);
  g_assert_cmpuint (wn_engine_get_seed (winnow_session_get_engine (session)), ==, 7);
  g_assert_cmpuint (g_list_model_get_n_items (winnow_session_get_jobs (session)), ==, 0);

  g_unlink (broken_path);
  gtk_window_destroy (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* A Camunda Modeler file opens with its author's layout, the import's
 * warnings in the load report, and runs to the end. */
static void
test_window_bpmn (void)
{
  /* G_TEST_SRCDIR is tests/app here */
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "bpmn", "winnow", "payment-c7.bpmn", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  WinnowWindow *window = winnow_window_new (NULL);
  WinnowSession *session = winnow_window_get_session (window);
  WnProcess *process;
  GtkWidget *report;
  GtkRevealer *revealer;

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  winnow_test_settle (GTK_WIDGET (window));
  g_assert_true (winnow_window_open_file (window, file));
  process = winnow_session_get_process (session);
  g_assert_cmpstr (process->id, ==, "payment");
  g_assert_nonnull (process->diagram);
  g_assert_nonnull (process->warnings);
  winnow_test_settle (GTK_WIDGET (window));
  /* the load report shows what was left out as a warning, not a refusal */
  report = winnow_test_find_type (GTK_WIDGET (window), WINNOW_TYPE_LOAD_ERRORS);
  g_assert_nonnull (report);
  revealer = GTK_REVEALER (gtk_widget_get_first_child (report));
  g_assert_true (gtk_revealer_get_reveal_child (revealer));
  g_assert_true (gtk_widget_has_css_class (gtk_revealer_get_child (revealer), "warning"));
  winnow_test_save_screenshot (GTK_WIDGET (window), "bpmn-window.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The menu's BPMN Conditions choice: a condition outside lite's subset
 * refuses the model, or, chosen, makes its gateway the scenario's to decide. */
static void
test_window_undecidable_conditions (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "bpmn", "c7-examples--4-process.bpmn", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  WinnowWindow *window = winnow_window_new (NULL);
  WinnowSession *session = winnow_window_get_session (window);
  g_autoptr(GVariant) state = NULL;
  WnProcess *process;
  guint decided = 0;

  gtk_window_present (GTK_WINDOW (window));
  winnow_test_settle (GTK_WIDGET (window));
  state = g_action_group_get_action_state (G_ACTION_GROUP (window), "undecidable-conditions");
  g_assert_cmpstr (g_variant_get_string (state, NULL), ==, "refuse");
  g_assert_false (winnow_window_open_file (window, file));
  g_action_group_change_action_state (G_ACTION_GROUP (window), "undecidable-conditions",
                                      g_variant_new_string ("scenario"));
  g_assert_true (winnow_window_open_file (window, file));
  process = winnow_session_get_process (session);
  g_assert_nonnull (process);
  for (guint i = 0; i < process->n_nodes; i++)
    decided += process->nodes[i].scenario_decides;
  g_assert_cmpuint (decided, ==, 1);
  winnow_test_settle (GTK_WIDGET (window));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* File ▸ Save as Winnow Process…: the import as winnow.process/1, the same
 * model when it is opened again; never over the BPMN file; a failed write
 * is an error; a JSON process has nothing to save this way. */
static void
test_window_save_process (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "bpmn", "winnow", "mapped-c7.bpmn", NULL);
  g_autofree char *dir = g_dir_make_tmp ("winnow-save-process-XXXXXX", NULL);
  g_autofree char *out_path = g_build_filename (dir, "mapped.process.json", NULL);
  g_autofree char *example = winnow_test_example_path ("order-fulfilment.process.json");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) out = g_file_new_for_path (out_path);
  g_autoptr(GFile) nowhere = g_file_new_for_path ("/nonexistent-winnow-dir/x.process.json");
  g_autoptr(GFile) json_file = g_file_new_for_path (example);
  g_autoptr(GError) error = NULL;
  g_autoptr(WnProcess) saved = NULL;
  WinnowWindow *window = winnow_window_new (NULL);
  WinnowSession *session = winnow_window_get_session (window);
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (window), "save-process");
  const WnNode *charge;

  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (winnow_window_open_file (window, file));
  g_assert_true (g_action_get_enabled (action));
  g_assert_true (winnow_window_save_process (window, out, &error));
  g_assert_no_error (error);
  saved = wn_load_process_file (out_path, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (saved->id, ==, "mapped");
  g_assert_cmpuint (saved->n_nodes, ==, winnow_session_get_process (session)->n_nodes);
  charge = wn_process_find_node (saved, "charge");
  g_assert_cmpuint (wn_error_mapper_get_n_rules (charge->worker->policy.mapper), ==, 2);
  g_assert_null (saved->diagram);   /* a Winnow file has no BPMNDI */
  /* not over the model */
  g_assert_false (winnow_window_save_process (window, file, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS);
  g_clear_error (&error);
  /* a write that fails says so */
  g_assert_false (winnow_window_save_process (window, nowhere, &error));
  g_assert_nonnull (error);
  g_assert_true (g_str_has_prefix (error->message, "Could not save the process: "));
  g_clear_error (&error);
  /* a JSON process: nothing to save this way */
  g_assert_true (winnow_window_open_file (window, json_file));
  g_assert_false (g_action_get_enabled (action));
  g_assert_false (winnow_window_save_process (window, out, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_FAILED);
  g_unlink (out_path);
  g_rmdir (dir);
  gtk_window_destroy (GTK_WINDOW (window));
  winnow_test_drain ();
}

static AdwMessageDialog *
find_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();   /* not ours */

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) w = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (w))
        return ADW_MESSAGE_DIALOG (w);
    }
  return NULL;
}

/* A collaboration with two executable processes asks which one; the choice
 * opens that one, and Reload keeps it. */
static void
test_window_process_chooser (void)
{
  g_autofree char *dir = g_dir_make_tmp ("winnow-chooser-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "two.bpmn", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  WinnowWindow *window = winnow_window_new (NULL);
  WinnowSession *session = winnow_window_get_session (window);
  AdwMessageDialog *dialog;
  GtkDropDown *list;
  GListModel *labels;

  g_assert_true (g_file_set_contents (path,
    "<definitions xmlns=\"http://www.omg.org/spec/BPMN/20100524/MODEL\">"
    "<process id=\"a\" name=\"Orders\" isExecutable=\"true\"><startEvent id=\"s1\"/><endEvent id=\"e1\"/>"
    "<sequenceFlow id=\"f1\" sourceRef=\"s1\" targetRef=\"e1\"/></process>"
    "<process id=\"b\" isExecutable=\"true\"><startEvent id=\"s2\"/><endEvent id=\"e2\"/>"
    "<sequenceFlow id=\"f2\" sourceRef=\"s2\" targetRef=\"e2\"/></process>"
    "<process id=\"c\"><startEvent id=\"s3\"/></process></definitions>", -1, NULL));
  gtk_window_present (GTK_WINDOW (window));
  g_assert_null (find_dialog ());
  g_assert_false (winnow_window_open_file (window, file));
  g_assert_false (winnow_session_is_loaded (session));
  dialog = find_dialog ();
  g_assert_nonnull (dialog);
  list = GTK_DROP_DOWN (adw_message_dialog_get_extra_child (dialog));
  labels = gtk_drop_down_get_model (list);
  g_assert_cmpuint (g_list_model_get_n_items (labels), ==, 2);
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (labels), 0), ==, "Orders (a)");
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (labels), 1), ==, "b");
  winnow_test_settle (GTK_WIDGET (dialog));
  winnow_test_save_screenshot (GTK_WIDGET (dialog), "bpmn-process-chooser.png");
  gtk_drop_down_set_selected (list, 1);
  adw_message_dialog_response (dialog, "open");
  winnow_test_drain ();
  g_assert_true (winnow_session_is_loaded (session));
  g_assert_cmpstr (winnow_session_get_process (session)->id, ==, "b");
  g_assert_cmpstr (winnow_session_get_bpmn_process_id (session), ==, "b");
  g_assert_true (winnow_session_reload (session, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (winnow_session_get_process (session)->id, ==, "b");
  g_assert_nonnull (strstr (winnow_session_get_imported_json (session), "\"id\" : \"s2\""));
  g_unlink (path);
  g_rmdir (dir);
  gtk_window_destroy (GTK_WINDOW (window));
  winnow_test_drain ();
}

static gboolean
look_and_quit (gpointer data)
{
  GApplication *app = data;
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (app));
  WinnowSession *session = windows != NULL ? winnow_window_get_session (windows->data) : NULL;

  if (session != NULL && winnow_session_is_loaded (session))
    {
      g_object_set_data_full (G_OBJECT (app), "winnow-opened", g_strdup (winnow_session_get_process (session)->id),
                              g_free);
      g_object_set_data (G_OBJECT (app), "winnow-diagram",
                         GINT_TO_POINTER (winnow_session_get_process (session)->diagram != NULL));
    }
  /* destroying a window takes it out of the application's list: walk a copy */
  windows = g_list_copy (windows);
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_destroy (l->data);
  g_list_free (windows);
  return G_SOURCE_REMOVE;
}

/* `winnow model.bpmn`: the command line opens the BPMN file given, with its
 * diagram, as Open does. */
static void
test_window_command_line_bpmn (void)
{
  g_autoptr(WinnowApplication) app = winnow_application_new ();
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "bpmn", "winnow", "payment-c7.bpmn", NULL);
  char *argv[] = { (char *) "winnow", path, NULL };
  int status;

  /* a process of its own: an application sets the program's name once */
  if (!g_test_subprocess ())
    {
      g_test_trap_subprocess (NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDERR);
      g_test_trap_assert_passed ();
      return;
    }
  g_timeout_add (500, look_and_quit, app);
  status = g_application_run (G_APPLICATION (app), 2, argv);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpstr (g_object_get_data (G_OBJECT (app), "winnow-opened"), ==, "payment");
  g_assert_true (GPOINTER_TO_INT (g_object_get_data (G_OBJECT (app), "winnow-diagram")));
}

/* A chain of `n` worker tasks, as winnow.process/1 (`bpmn` FALSE; a flow
 * of `bad_at` names a node that does not exist, when not 0) or as a BPMN
 * model without a diagram (the import lays it out), in a new folder. */
static char *
write_chain (guint    n,
             gboolean bpmn,
             guint    bad_at)
{
  g_autofree char *dir = g_dir_make_tmp ("winnow-big-XXXXXX", NULL);
  char *path = g_build_filename (dir, bpmn ? "chain.bpmn" : "chain.process.json", NULL);
  GString *text = g_string_new (NULL);
  GString *flows = g_string_new ("");

  if (bpmn)
    g_string_append (text, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                     "<bpmn:definitions xmlns:bpmn=\"http://www.omg.org/spec/BPMN/20100524/MODEL\" "
                     "xmlns:camunda=\"http://camunda.org/schema/1.0/bpmn\" id=\"d\">\n"
                     "<bpmn:process id=\"chain\" isExecutable=\"true\">\n<bpmn:startEvent id=\"start\"/>\n");
  else
    g_string_append (text, "{ \"format\": \"winnow.process/1\", \"id\": \"chain\", \"nodes\": [\n"
                     "{ \"id\": \"start\", \"type\": \"startEvent\" }");
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *from = i == 0 ? g_strdup ("start") : g_strdup_printf ("s%u", i - 1);
      g_autofree char *to = i == bad_at && bad_at > 0 ? g_strdup ("nowhere") : g_strdup_printf ("s%u", i);

      if (bpmn)
        {
          g_string_append_printf (text, "<bpmn:serviceTask id=\"s%u\" name=\"Step %u\" camunda:type=\"external\""
                                  " camunda:topic=\"work\"/>\n", i, i);
          g_string_append_printf (flows, "<bpmn:sequenceFlow id=\"f%u\" sourceRef=\"%s\" targetRef=\"%s\"/>\n",
                                  i, from, to);
        }
      else
        {
          g_string_append_printf (text, ",\n{ \"id\": \"s%u\", \"type\": \"serviceTask\", \"name\": \"Step %u\","
                                  " \"x-about\": \"one of the chain's many worker tasks\","
                                  " \"worker\": { \"topic\": \"work\" } }", i, i);
          g_string_append_printf (flows, "%s{ \"id\": \"f%u\", \"from\": \"%s\", \"to\": \"%s\" }",
                                  i == 0 ? "" : ",\n", i, from, to);
        }
    }
  if (bpmn)
    g_string_append_printf (text, "<bpmn:endEvent id=\"end\"/>\n%s"
                            "<bpmn:sequenceFlow id=\"last\" sourceRef=\"s%u\" targetRef=\"end\"/>\n"
                            "</bpmn:process>\n</bpmn:definitions>\n", flows->str, n - 1);
  else
    g_string_append_printf (text, ",\n{ \"id\": \"end\", \"type\": \"endEvent\" } ],\n\"flows\": [\n%s,\n"
                            "{ \"id\": \"last\", \"from\": \"s%u\", \"to\": \"end\" } ] }\n", flows->str, n - 1);
  g_assert_cmpuint (text->len, >, 1024 * 1024 + 200 * 1024);
  g_assert_true (g_file_set_contents (path, text->str, (gssize) text->len, NULL));
  g_string_free (text, TRUE);
  g_string_free (flows, TRUE);
  return path;
}

static void
remove_chain (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);

  g_unlink (path);
  g_rmdir (dir);
}

/* The frames the window draws while it loads: a tick callback per frame. */
typedef struct {
  WinnowWindow *window;
  guint         frames;
  guint         late;        /* while the engine or the layout was being made */
  gint64        last;
  gint64        longest;     /* µs between two frames */
} Frames;

static gboolean
frame_tick_cb (GtkWidget     *widget,
               GdkFrameClock *clock,
               gpointer       data)
{
  Frames *frames = data;
  GtkWidget *progress = winnow_test_find_named (widget, "loading-progress");
  gint64 now = g_get_monotonic_time ();

  if (frames->last > 0)
    frames->longest = MAX (frames->longest, now - frames->last);

  frames->last = now;
  if (!winnow_window_is_loading (frames->window))
    return G_SOURCE_CONTINUE;
  frames->frames++;
  /* the stages after the read: building the engine, laying out */
  if (progress != NULL && gtk_progress_bar_get_fraction (GTK_PROGRESS_BAR (progress)) > 0.3)
    frames->late++;
  return G_SOURCE_CONTINUE;
}

/* Open `path` as the Recent menu does (after `first`, opened at once,
 * when not NULL) and run the main loop until it has loaded, counting
 * frames; returns the window, shown at 1200×800. */
static WinnowWindow *
load_big (const char *path,
          GFile      *first,
          Frames     *frames)
{
  WinnowWindow *window = winnow_window_new (NULL);
  WinnowSession *session = winnow_window_get_session (window);
  g_autofree char *uri = g_filename_to_uri (path, NULL, NULL);
  g_autofree char *name = g_path_get_basename (path);
  GtkWidget *page;
  WnProcess *before;
  guint tick_id;
  gint64 deadline, start;

  memset (frames, 0, sizeof *frames);
  frames->window = window;
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  winnow_test_settle (GTK_WIDGET (window));
  if (first != NULL)
    g_assert_true (winnow_window_open_file (window, first));
  before = winnow_session_get_process (session);

  tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (window), frame_tick_cb, frames, NULL);
  start = g_get_monotonic_time ();
  g_action_group_activate_action (G_ACTION_GROUP (window), "open-recent", g_variant_new_string (uri));
  /* back at once: nothing loaded yet, the pane says what it is opening */
  g_assert_true (winnow_session_get_process (session) == before);
  g_assert_true (winnow_window_is_loading (window));
  page = winnow_test_find_named (GTK_WIDGET (window), "loading-page");
  g_assert_nonnull (page);
  g_assert_true (gtk_widget_get_child_visible (page));
  g_assert_nonnull (strstr (adw_status_page_get_title (ADW_STATUS_PAGE (page)), name));
  g_assert_nonnull (winnow_test_find_named (page, "loading-progress"));
  g_assert_nonnull (winnow_test_find_named (page, "loading-cancel"));

  deadline = g_get_monotonic_time () + 120 * G_TIME_SPAN_SECOND;
  while (winnow_window_is_loading (window) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (winnow_window_is_loading (window));
  /* and the first frames of the new diagram */
  winnow_test_settle (GTK_WIDGET (window));
  gtk_widget_remove_tick_callback (GTK_WIDGET (window), tick_id);
  g_test_message ("%s: %u frames in %.2f s of loading, %u of them while the run and the diagram were made; "
                  "the longest time between two frames %.0f ms", name, frames->frames,
                  (g_get_monotonic_time () - start) / 1e6, frames->late, frames->longest / 1e3);
  g_assert_false (gtk_widget_get_mapped (page));
  return window;
}

/* A big process (a 30 000-node chain, 6 MB) opened the way the menus, the
 * command line and a drop open one loads off the GTK thread: reading and
 * checking it, building its engine and laying out its diagram. The window
 * shows that it is opening it and how far it has come, and keeps drawing
 * frames through every stage; the run comes when the thread is done
 * (issue 17.14: a 250 000-node file showed no window for about 50 s, then
 * froze it for seconds while the engine and the diagram were made). */
static void
test_window_loads_big_file (void)
{
  g_autofree char *path = write_chain (30000, FALSE, 0);
  Frames frames;
  WinnowWindow *window = load_big (path, NULL, &frames);
  WinnowSession *session = winnow_window_get_session (window);
  WinnowDiagram *diagram = winnow_diagram_pane_get_diagram (window->diagram_pane);
  graphene_rect_t bounds;
  gint64 deadline;

  g_assert_nonnull (winnow_session_get_process (session));
  g_assert_cmpuint (winnow_session_get_process (session)->n_nodes, ==, 30002);
  g_assert_true (winnow_session_is_loaded (session));
  g_assert_true (winnow_diagram_get_process (diagram) == winnow_session_get_process (session));
  g_assert_true (winnow_diagram_get_node_bounds (diagram, "s29999", &bounds));
  g_assert_cmpfloat (bounds.size.width, >, 0);
  g_assert_cmpuint (frames.frames, >=, 3);
  /* frames came while the engine was built and the diagram laid out */
  g_assert_cmpuint (frames.late, >=, 1);
  /* and it runs */
  winnow_test_activate (window, "step-next", NULL);
  deadline = g_get_monotonic_time () + WINNOW_TEST_WAIT_US;
  while (g_list_model_get_n_items (winnow_session_get_events (session)) == 0 && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (g_list_model_get_n_items (winnow_session_get_events (session)), >, 0);

  gtk_window_destroy (GTK_WINDOW (window));
  remove_chain (path);
}

/* A big BPMN model loads off the GTK thread too: the import and its layout
 * (it has no diagram of its own) included. */
static void
test_window_loads_big_bpmn (void)
{
  g_autofree char *path = write_chain (12000, TRUE, 0);
  Frames frames;
  WinnowWindow *window = load_big (path, NULL, &frames);
  WinnowSession *session = winnow_window_get_session (window);

  g_assert_nonnull (winnow_session_get_process (session));
  g_assert_cmpstr (winnow_session_get_process (session)->id, ==, "chain");
  g_assert_cmpuint (winnow_session_get_process (session)->n_nodes, ==, 12002);
  g_assert_nonnull (winnow_session_get_imported_json (session));
  g_assert_cmpuint (frames.frames, >=, 3);
  g_assert_cmpuint (frames.late, >=, 1);
  gtk_window_destroy (GTK_WINDOW (window));
  remove_chain (path);
}

/* An example opened from the menu while a big file is still loading: the
 * example is what the user asked for last, so the load is given up and its
 * result, when the thread ends, never replaces the example. */
static void
test_window_open_during_load (void)
{
  g_autofree char *example = winnow_test_example_path ("order-fulfilment.process.json");
  g_autofree char *path = write_chain (30000, FALSE, 0);
  g_autofree char *uri = g_filename_to_uri (path, NULL, NULL);
  WinnowWindow *window = winnow_window_new (NULL);
  WinnowSession *session = winnow_window_get_session (window);
  GtkWidget *page;
  WnProcess *process;
  gint64 until;

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  winnow_test_settle (GTK_WIDGET (window));
  g_action_group_activate_action (G_ACTION_GROUP (window), "open-recent", g_variant_new_string (uri));
  g_assert_true (winnow_window_is_loading (window));
  g_action_group_activate_action (G_ACTION_GROUP (window), "open-example", g_variant_new_string (example));
  g_assert_false (winnow_window_is_loading (window));
  process = winnow_session_get_process (session);
  g_assert_nonnull (process);
  g_assert_cmpstr (process->id, ==, "order-fulfilment");
  winnow_test_settle (GTK_WIDGET (window));
  page = winnow_test_find_named (GTK_WIDGET (window), "loading-page");
  g_assert_true (page == NULL || !gtk_widget_get_mapped (page));

  /* long enough for the thread to finish: its result is dropped */
  until = g_get_monotonic_time () + 8 * G_TIME_SPAN_SECOND;
  while (g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, FALSE);
  g_assert_true (winnow_session_get_process (session) == process);
  g_assert_true (winnow_diagram_get_process (winnow_diagram_pane_get_diagram (window->diagram_pane)) == process);

  gtk_window_destroy (GTK_WINDOW (window));
  remove_chain (path);
}

/* Cancel on the loading page: the run on screen stays as it was (the same
 * engine, at the same instant, its diagram back), and what the thread made
 * never replaces it. */
static void
test_window_cancel_load (void)
{
  g_autofree char *example = winnow_test_example_path ("order-fulfilment.process.json");
  g_autoptr(GFile) file = g_file_new_for_path (example);
  g_autofree char *path = write_chain (30000, FALSE, 0);
  g_autofree char *uri = g_filename_to_uri (path, NULL, NULL);
  WinnowWindow *window = winnow_window_new (NULL);
  WinnowSession *session = winnow_window_get_session (window);
  GtkWidget *cancel, *diagram;
  WnEngine *engine;
  WnProcess *process;
  WnTime now;
  gint64 until;

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  winnow_test_settle (GTK_WIDGET (window));
  g_assert_true (winnow_window_open_file (window, file));
  for (guint i = 0; i < 3; i++)
    winnow_test_activate (window, "step-next", NULL);
  engine = winnow_session_get_engine (session);
  process = winnow_session_get_process (session);
  now = winnow_session_get_now (session);
  g_assert_cmpint (now, >, 0);

  g_action_group_activate_action (G_ACTION_GROUP (window), "open-recent", g_variant_new_string (uri));
  g_assert_true (winnow_window_is_loading (window));
  for (guint i = 0; i < 3; i++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_true (winnow_window_is_loading (window));   /* a 30 000-node file takes a second or more */
  cancel = winnow_test_find_named (GTK_WIDGET (window), "loading-cancel");
  g_assert_nonnull (cancel);
  g_assert_true (gtk_widget_is_sensitive (cancel));
  g_signal_emit_by_name (cancel, "clicked");
  g_assert_false (winnow_window_is_loading (window));
  diagram = GTK_WIDGET (winnow_diagram_pane_get_diagram (window->diagram_pane));
  winnow_test_settle (GTK_WIDGET (window));
  g_assert_true (gtk_widget_get_mapped (diagram));

  /* long enough for the thread to finish: its result is dropped */
  until = g_get_monotonic_time () + 8 * G_TIME_SPAN_SECOND;
  while (g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, FALSE);
  g_assert_true (winnow_session_get_engine (session) == engine);
  g_assert_true (winnow_session_get_process (session) == process);
  g_assert_true (winnow_diagram_get_process (WINNOW_DIAGRAM (diagram)) == process);
  g_assert_cmpint (winnow_session_get_now (session), ==, now);
  g_assert_true (gtk_widget_get_mapped (diagram));
  /* the run goes on */
  winnow_test_activate (window, "step-next", NULL);
  g_assert_cmpint (winnow_session_get_now (session), >, now);

  gtk_window_destroy (GTK_WINDOW (window));
  remove_chain (path);
}

/* The first problem label of the load report. */
static const char *
first_diagnostic (GtkWidget *root)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      const char *found;

      if (GTK_IS_LABEL (child) && gtk_widget_has_css_class (child, "diagnostic"))
        return gtk_label_get_text (GTK_LABEL (child));
      if ((found = first_diagnostic (child)) != NULL)
        return found;
    }
  return NULL;
}

/* A big file with a mistake deep inside is refused off the GTK thread with
 * the problem's position, and the run on screen stays. */
static void
test_window_big_file_refused (void)
{
  g_autofree char *example = winnow_test_example_path ("order-fulfilment.process.json");
  g_autoptr(GFile) file = g_file_new_for_path (example);
  g_autofree char *path = write_chain (30000, FALSE, 20000);
  Frames frames;
  WinnowWindow *window = load_big (path, file, &frames);
  WinnowSession *session = winnow_window_get_session (window);
  GtkWidget *report = winnow_test_find_type (GTK_WIDGET (window), WINNOW_TYPE_LOAD_ERRORS);
  const char *text;

  g_assert_cmpstr (winnow_session_get_process (session)->id, ==, "order-fulfilment");
  g_assert_nonnull (report);
  g_assert_true (gtk_revealer_get_reveal_child (GTK_REVEALER (gtk_widget_get_first_child (report))));
  text = first_diagnostic (report);
  g_assert_nonnull (text);
  g_test_message ("%s", text);
  /* the flow f20000, on line 50005 of the file, goes nowhere */
  g_assert_nonnull (strstr (text, "chain.process.json:50005:"));
  g_assert_nonnull (strstr (text, "nowhere"));
  gtk_window_destroy (GTK_WINDOW (window));
  remove_chain (path);
}

/* Is there a label that says `text` under `root`? */
static gboolean
has_label (GtkWidget  *root,
           const char *text)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if ((GTK_IS_LABEL (child) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (child)), text) == 0) ||
        has_label (child, text))
      return TRUE;
  return FALSE;
}

/* Reload (win.reload) the big file on screen, counting frames until the
 * thread is done; back at once with the current run still there. */
static void
reload_big (WinnowWindow *window,
            Frames       *frames)
{
  WinnowSession *session = winnow_window_get_session (window);
  WnEngine *engine = winnow_session_get_engine (session);
  guint tick_id;
  gint64 deadline;

  memset (frames, 0, sizeof *frames);
  frames->window = window;
  tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (window), frame_tick_cb, frames, NULL);
  g_action_group_activate_action (G_ACTION_GROUP (window), "reload", NULL);   /* no draining after it */
  g_assert_true (winnow_window_is_loading (window));
  g_assert_true (winnow_session_get_engine (session) == engine);
  g_assert_nonnull (winnow_test_find_named (GTK_WIDGET (window), "loading-cancel"));
  deadline = g_get_monotonic_time () + 120 * G_TIME_SPAN_SECOND;
  while (winnow_window_is_loading (window) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (winnow_window_is_loading (window));
  winnow_test_settle (GTK_WIDGET (window));
  gtk_widget_remove_tick_callback (GTK_WIDGET (window), tick_id);
  g_test_message ("reload: %u frames while loading, %u while the run and the diagram were made; "
                  "the longest time between two frames %.0f ms", frames->frames, frames->late,
                  frames->longest / 1e3);
}

/* Reload of a big file goes through the thread as opening it does: frames
 * keep coming while the file is read, the run built and the diagram laid
 * out; then the new run replaces the old one, with what a reload keeps
 * (the breakpoints, the run's options) and the toast. */
static void
test_window_reloads_big_file (void)
{
  g_autofree char *path = write_chain (30000, FALSE, 0);
  Frames frames;
  WinnowWindow *window = load_big (path, NULL, &frames);
  WinnowSession *session = winnow_window_get_session (window);
  WinnowDiagram *diagram = winnow_diagram_pane_get_diagram (window->diagram_pane);
  WnProcess *before = winnow_session_get_process (session);
  WnEngineOptions options = *winnow_session_get_options (session);
  guint breakpoint;

  breakpoint = winnow_session_add_breakpoint (session, WN_EV_NODE, WN_PH_ENTERED, "s100");
  g_assert_cmpuint (breakpoint, >, 0);
  winnow_test_activate (window, "step-next", NULL);
  reload_big (window, &frames);

  g_assert_cmpuint (frames.frames, >=, 3);
  g_assert_cmpuint (frames.late, >=, 1);
  g_assert_true (winnow_session_get_process (session) != before);
  g_assert_cmpuint (winnow_session_get_process (session)->n_nodes, ==, 30002);
  g_assert_cmpint (winnow_session_get_now (session), ==, 0);
  g_assert_true (winnow_diagram_get_process (diagram) == winnow_session_get_process (session));
  g_assert_cmpstr (g_file_peek_path (winnow_session_get_file (session)), ==, path);
  g_assert_cmpint (winnow_session_get_options (session)->trust, ==, options.trust);
  g_assert_cmpuint (winnow_session_get_options (session)->instances, ==, options.instances);
  g_assert_cmpuint (g_list_model_get_n_items (winnow_session_get_breakpoints (session)), ==, 1);
  g_assert_cmpuint (winnow_session_find_breakpoint (session, WN_EV_NODE, WN_PH_ENTERED, "s100"), >, 0);
  g_assert_true (has_label (GTK_WIDGET (window), _("Reloaded from disk")));
  gtk_window_destroy (GTK_WINDOW (window));
  remove_chain (path);
}

/* Cancel during a big reload: the current run stays, where it was. */
static void
test_window_cancel_reload (void)
{
  g_autofree char *path = write_chain (30000, FALSE, 0);
  Frames frames;
  WinnowWindow *window = load_big (path, NULL, &frames);
  WinnowSession *session = winnow_window_get_session (window);
  WnEngine *engine;
  WnProcess *process;
  guint64 events;
  gint64 until;

  for (guint i = 0; i < 3; i++)
    winnow_test_activate (window, "step-next", NULL);
  engine = winnow_session_get_engine (session);
  process = winnow_session_get_process (session);
  winnow_test_wait_for_flush (session);
  events = wn_journal_get_n_events (wn_engine_get_journal (engine));
  g_assert_cmpuint (events, >, 0);

  g_action_group_activate_action (G_ACTION_GROUP (window), "reload", NULL);   /* no draining after it */
  g_assert_true (winnow_window_is_loading (window));
  g_signal_emit_by_name (winnow_test_find_named (GTK_WIDGET (window), "loading-cancel"), "clicked");
  g_assert_false (winnow_window_is_loading (window));
  until = g_get_monotonic_time () + 8 * G_TIME_SPAN_SECOND;
  while (g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, FALSE);
  g_assert_true (winnow_session_get_engine (session) == engine);
  g_assert_true (winnow_session_get_process (session) == process);
  g_assert_true (winnow_diagram_get_process (winnow_diagram_pane_get_diagram (window->diagram_pane)) == process);
  g_assert_cmpuint (wn_journal_get_n_events (wn_engine_get_journal (engine)), ==, events);
  gtk_window_destroy (GTK_WINDOW (window));
  remove_chain (path);
}

/* A big file edited on disk into one with a mistake deep inside, then
 * reloaded: the problem with its position, and the run stays. */
static void
test_window_big_reload_refused (void)
{
  g_autofree char *path = write_chain (30000, FALSE, 0);
  g_autofree char *bad = write_chain (30000, FALSE, 20000);
  Frames frames;
  WinnowWindow *window = load_big (path, NULL, &frames);
  WinnowSession *session = winnow_window_get_session (window);
  WnEngine *engine = winnow_session_get_engine (session);
  WnProcess *process = winnow_session_get_process (session);
  GtkWidget *report = winnow_test_find_type (GTK_WIDGET (window), WINNOW_TYPE_LOAD_ERRORS);
  const char *text;

  g_assert_cmpint (g_rename (bad, path), ==, 0);
  reload_big (window, &frames);
  g_assert_cmpuint (frames.frames, >=, 2);
  g_assert_true (winnow_session_get_engine (session) == engine);
  g_assert_true (winnow_session_get_process (session) == process);
  g_assert_true (gtk_revealer_get_reveal_child (GTK_REVEALER (gtk_widget_get_first_child (report))));
  text = first_diagnostic (report);
  g_assert_nonnull (text);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "chain.process.json:50005:"));
  g_assert_nonnull (strstr (text, "nowhere"));
  g_assert_false (has_label (GTK_WIDGET (window), _("Reloaded from disk")));
  gtk_window_destroy (GTK_WINDOW (window));
  remove_chain (bad);   /* its folder */
  remove_chain (path);
}

/* Fast-forward with 10 000 instances: the window keeps drawing, and Pause lands
 * at once and stops the clock. */
static void
test_window_responsive (void)
{
  g_autofree char *path = winnow_test_example_path ("flaky-service.process.json");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  WinnowWindow *window = winnow_window_new (NULL);
  WinnowSession *session = winnow_window_get_session (window);
  GdkFrameClock *clock;
  gint64 start, elapsed, frames;
  gboolean paused_once = FALSE;

  winnow_window_set_instances (window, 10000);
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);
  gtk_window_present (GTK_WINDOW (window));
  winnow_test_settle (GTK_WIDGET (window));
  g_assert_true (winnow_window_open_file (window, file));
  clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  g_assert_nonnull (clock);

  g_action_group_activate_action (G_ACTION_GROUP (window), "set-speed", g_variant_new_string ("ff"));
  g_action_group_activate_action (G_ACTION_GROUP (window), "play-pause", NULL);
  g_assert_cmpint (winnow_session_get_mode (session), ==, WN_CLOCK_FAST_FORWARD);

  /* The first frames carry the 10 000 starts (one engine action each, run in
   * batches between frames) and their rows; wait until every instance is listed. */
  start = g_get_monotonic_time ();
  while (g_get_monotonic_time () - start < 30 * G_USEC_PER_SEC &&
         g_list_model_get_n_items (winnow_session_get_instances (session)) < 10000)
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpuint (g_list_model_get_n_items (winnow_session_get_instances (session)), ==, 10000);
  g_assert_true (winnow_session_is_playing (session));

  /* Then, for up to a second of fast-forward: frames keep coming, and a click
   * on Pause is handled at once. */
  start = g_get_monotonic_time ();
  frames = gdk_frame_clock_get_frame_counter (clock);
  while (g_get_monotonic_time () - start < G_USEC_PER_SEC && winnow_session_is_playing (session))
    {
      g_main_context_iteration (NULL, FALSE);

      /* pause a few frames in, while the run surely goes on: on a quiet
       * machine the whole run takes well under a second */
      if (!paused_once && gdk_frame_clock_get_frame_counter (clock) - frames >= 3 &&
          winnow_session_is_playing (session))
        {
          WnTime paused_at;

          /* Pause takes effect in the action itself: nothing runs after it */
          g_action_group_activate_action (G_ACTION_GROUP (window), "play-pause", NULL);
          g_assert_cmpint (winnow_session_get_mode (session), ==, WN_CLOCK_PAUSED);
          paused_at = winnow_session_get_now (session);
          for (int i = 0; i < 50; i++)
            g_main_context_iteration (NULL, FALSE);
          g_assert_cmpint (winnow_session_get_now (session), ==, paused_at);
          g_assert_cmpint (winnow_session_get_mode (session), ==, WN_CLOCK_PAUSED);
          g_action_group_activate_action (G_ACTION_GROUP (window), "play-pause", NULL);
          g_assert_cmpint (winnow_session_get_mode (session), ==, WN_CLOCK_FAST_FORWARD);
          paused_once = TRUE;
        }
    }
  elapsed = g_get_monotonic_time () - start;
  frames = gdk_frame_clock_get_frame_counter (clock) - frames;
  g_test_message ("%" G_GINT64_FORMAT " frames in %" G_GINT64_FORMAT " ms of fast-forward; "
                  "%u events listed, clock at %" G_GINT64_FORMAT " ms",
                  frames, elapsed / 1000,
                  g_list_model_get_n_items (winnow_session_get_events (session)),
                  winnow_session_get_now (session) / 1000);
  g_assert_true (paused_once);
  /* The window kept drawing while the engine ran flat out. Frame rates are
   * measured by bench/, not asserted here: this machine is shared. */
  g_assert_cmpint (frames, >, 0);

  gtk_window_destroy (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* Save or export with writes past `limit` bytes failing (EFBIG, as on a full
 * disk); returns whether it succeeded. */
static gboolean
write_limited (WinnowWindow *window,
               gboolean      session,
               GFile        *file,
               rlim_t        limit,
               GError      **error)
{
  struct rlimit old, low;
  void (*old_handler) (int) = signal (SIGXFSZ, SIG_IGN);
  gboolean ok;

  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &old), ==, 0);
  low = old;
  low.rlim_cur = limit;
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &low), ==, 0);
  ok = session ? winnow_window_save_session (window, file, error)
               : winnow_window_export_journal (window, file, error);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &old), ==, 0);
  signal (SIGXFSZ, old_handler);
  return ok;
}

/* A save that cannot be written says so, with the file and the reason, and
 * loses nothing: not the file it would have replaced, not the run. */
static void
test_window_failed_save (void)
{
  g_autofree char *path = winnow_test_example_path ("order-fulfilment.process.json");
  g_autoptr(GFile) process = g_file_new_for_path (path);
  WinnowWindow *window = winnow_window_new (NULL);
  WinnowSession *session = winnow_window_get_session (window);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("winnow-save-XXXXXX", &error);
  g_autofree char *target = g_build_filename (dir, "saved.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (target);
  g_autoptr(GFile) full = g_file_new_for_path ("/dev/full");
  g_autofree char *journal = NULL;
  g_autofree char *contents = NULL;
  guint64 events;

  g_assert_no_error (error);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (winnow_window_open_file (window, process));
  winnow_test_activate (window, "set-speed", g_variant_new_string ("ff"));
  winnow_test_activate (window, "play-pause", NULL);
  while (winnow_session_is_playing (session))
    g_main_context_iteration (NULL, TRUE);
  winnow_test_wait_for_flush (session);
  journal = winnow_session_get_journal_text (session, NULL);
  g_assert_cmpuint (strlen (journal), >, 1024);
  events = g_list_model_get_n_items (winnow_session_get_events (session));

  for (guint i = 0; i < 2; i++)
    {
      gboolean save_session = i == 0;

      g_assert_true (g_file_set_contents (target, "the old file\n", -1, &error));
      g_assert_no_error (error);
      g_assert_false (write_limited (window, save_session, file, 256, &error));
      g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED);   /* EFBIG has no code of its own */
      g_assert_true (g_str_has_prefix (error->message, save_session ? "Could not save the session: "
                                                                    : "Could not export the journal: "));
      g_assert_nonnull (strstr (error->message, target));
      g_assert_nonnull (strstr (error->message, g_strerror (EFBIG)));
      g_clear_error (&error);
      g_assert_true (g_file_get_contents (target, &contents, NULL, &error));
      g_assert_cmpstr (contents, ==, "the old file\n");
      g_clear_pointer (&contents, g_free);
      {
        g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);

        /* no temporary file left beside it */
        g_assert_cmpstr (g_dir_read_name (listing), ==, "saved.json");
        g_assert_null (g_dir_read_name (listing));
      }
    }

  g_assert_false (winnow_window_export_journal (window, full, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOSPC);
  g_assert_nonnull (strstr (error->message, "/dev/full"));
  g_clear_error (&error);

  /* the run is as it was, and the next save works */
  g_assert_cmpuint (g_list_model_get_n_items (winnow_session_get_events (session)), ==, events);
  g_assert_true (winnow_window_export_journal (window, file, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (target, &contents, NULL, &error));
  g_assert_cmpstr (contents, ==, journal);

  g_unlink (target);
  g_rmdir (dir);
  gtk_window_destroy (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* With no examples installed, the empty window offers none: not in its
 * page, not in the Examples menu. */
static void
test_window_no_examples (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *empty = g_dir_make_tmp ("winnow-no-examples-XXXXXX", &error);
  g_autofree char *saved = g_strdup (g_getenv ("WINNOW_EXAMPLES_DIR"));
  WinnowWindow *window;
  GtkWidget *page, *run;

  g_assert_no_error (error);
  g_setenv ("WINNOW_EXAMPLES_DIR", empty, TRUE);
  window = winnow_window_new (NULL);
  page = winnow_test_find_named (GTK_WIDGET (window), "empty-page");
  g_assert_nonnull (page);
  g_assert_null (strstr (adw_status_page_get_description (ADW_STATUS_PAGE (page)), "example"));
  /* nothing is open: no run to set, no instance to start */
  run = gtk_widget_get_ancestor (winnow_test_find_named (GTK_WIDGET (window), "variables"), WINNOW_TYPE_RUN_PANEL);
  g_assert_nonnull (run);
  g_assert_false (gtk_widget_get_visible (run));
  gtk_window_destroy (GTK_WINDOW (window));
  g_setenv ("WINNOW_EXAMPLES_DIR", saved, TRUE);
  g_rmdir (empty);

  /* and with them, it does; and with a file open, the run panel shows */
  window = winnow_window_new (NULL);
  page = winnow_test_find_named (GTK_WIDGET (window), "empty-page");
  g_assert_nonnull (strstr (adw_status_page_get_description (ADW_STATUS_PAGE (page)), "example"));
  g_assert_true (winnow_window_open_default (window));
  run = gtk_widget_get_ancestor (winnow_test_find_named (GTK_WIDGET (window), "variables"), WINNOW_TYPE_RUN_PANEL);
  g_assert_true (gtk_widget_get_visible (run));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A save proposes a folder the user can write: after opening a file from a
 * read-only folder (the installed examples), not that one. */
static void
test_window_save_folder (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *example = winnow_test_example_path ("order-fulfilment.process.json");
  g_autofree char *contents = NULL;
  g_autofree char *open_folder = NULL;
  g_autofree char *save_folder = NULL;
  g_autoptr(GFile) file = NULL;
  WinnowWindow *window;

  if (geteuid () == 0)
    {
      g_test_skip ("root can write into any folder");
      return;
    }
  dir = g_dir_make_tmp ("winnow-read-only-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "order.process.json", NULL);
  g_assert_true (g_file_get_contents (example, &contents, NULL, &error));
  g_assert_true (g_file_set_contents (path, contents, -1, &error));
  g_assert_cmpint (g_chmod (dir, 0555), ==, 0);
  file = g_file_new_for_path (path);
  window = winnow_window_new (NULL);
  g_assert_true (winnow_window_open_file (window, file));

  open_folder = _winnow_window_chooser_folder (window, FALSE);
  save_folder = _winnow_window_chooser_folder (window, TRUE);
  g_assert_cmpstr (open_folder, ==, dir);
  g_assert_nonnull (save_folder);
  g_assert_cmpstr (save_folder, !=, dir);
  g_assert_cmpint (g_access (save_folder, W_OK), ==, 0);

  gtk_window_destroy (GTK_WINDOW (window));
  g_chmod (dir, 0755);
  g_unlink (path);
  g_rmdir (dir);
}

/* The Engine II examples open, run to their end step by step and draw, with
 * every view following, and no warning (g_test_init makes them fatal). */
static void
test_window_engine_ii (void)
{
  const char *names[] = {
    "payment-timeout.process.json", "order-terminate.process.json", "reminder-cycle.process.json",
    "manual-approval.process.json", "payment-messages.process.json",
    "invoice-reminder.process.json", "batch-payments.process.json", "order-cancellation.process.json",
  };
  WinnowWindow *window = winnow_window_new (NULL);
  WinnowSession *session = winnow_window_get_session (window);

  gtk_window_present (GTK_WINDOW (window));
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = winnow_test_example_path (names[i]);
      g_autoptr(GFile) file = g_file_new_for_path (path);
      guint steps = 0;

      g_assert_true (winnow_window_open_file (window, file));
      winnow_test_settle (GTK_WIDGET (window));
      while (winnow_session_step_next (session) && steps++ < 500)
        winnow_test_wait_for_flush (session);
      g_assert_cmpint (winnow_session_get_next_time (session), ==, WN_TIME_NEVER);
      g_assert_nonnull (winnow_test_find_event (session, WN_EV_INSTANCE, WN_PH_COMPLETED, NULL, NULL));
      if (i == 0)   /* the payment's 2-minute timer */
        g_assert_nonnull (winnow_test_find_event (session, WN_EV_TIMER, WN_PH_FIRED, NULL, NULL));
      winnow_test_settle (GTK_WIDGET (window));
      {
        g_autofree char *shot = g_strdup_printf ("engine-ii-%u.png", i + 1);

        winnow_test_save_screenshot (GTK_WIDGET (window), shot);
      }
    }
  gtk_window_destroy (GTK_WINDOW (window));
  winnow_test_drain ();
}

/* The app's stylesheet, as the application loads it (these windows have no
 * application): its paddings and fonts count in a minimum width. Remove
 * it with remove_app_style(). */
static GtkCssProvider *
add_app_style (void)
{
  GtkCssProvider *style = gtk_css_provider_new ();

  gtk_css_provider_load_from_resource (style, RESOURCE_BASE "/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (style),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  return style;
}

static void
remove_app_style (GtkCssProvider *style)
{
  gtk_style_context_remove_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (style));
  g_object_unref (style);
}

/* The window fits half a 1920 px screen and a 1366 px laptop: it can be
 * made 800 px wide (issue 16.11), in English and with a file open, styled
 * as the app styles it (without the stylesheet it measured 797 px while the
 * app needed 857). */
static void
test_window_narrow (void)
{
  GtkCssProvider *style = add_app_style ();
  g_autofree char *path = winnow_test_example_path ("order-fulfilment.process.json");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  WinnowWindow *window = winnow_window_new (NULL);
  int min = 0, nat = 0;

  g_assert_true (winnow_window_open_file (window, file));
  gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1, &min, &nat, NULL, NULL);
  g_test_message ("minimum width %d px, natural %d px", min, nat);
  g_assert_cmpint (min, <=, 800);
  gtk_window_destroy (GTK_WINDOW (window));
  remove_app_style (style);
}

/* Switch the app's messages to `language` ("de"; NULL: back to the
 * source strings) for the windows made from now on. FALSE when the build
 * has no compiled catalog for it. */
static gboolean
use_language (const char *language)
{
  const char *dir = g_getenv ("WINNOW_TEST_LOCALEDIR");

  if (language != NULL)
    {
      g_autofree char *mo = dir ? g_build_filename (dir, language, "LC_MESSAGES", GETTEXT_PACKAGE ".mo", NULL) : NULL;

      if (mo == NULL || !g_file_test (mo, G_FILE_TEST_EXISTS))
        return FALSE;
      g_setenv ("LANGUAGE", language, TRUE);
      bindtextdomain (GETTEXT_PACKAGE, dir);
      bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
      textdomain (GETTEXT_PACKAGE);
    }
  else
    g_unsetenv ("LANGUAGE");
  /* gettext looks again after a locale change */
  setlocale (LC_ALL, "");
  return TRUE;
}

/* Labels under `root` that Pango had to shorten. */
static guint
count_ellipsized (GtkWidget *root, GString *names)
{
  guint n = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (!gtk_widget_get_mapped (child))
        continue;
      if (GTK_IS_LABEL (child) && gtk_label_get_ellipsize (GTK_LABEL (child)) != PANGO_ELLIPSIZE_NONE &&
          pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (child))))
        {
          g_string_append_printf (names, " “%s”", gtk_label_get_text (GTK_LABEL (child)));
          n++;
        }
      n += count_ellipsized (child, names);
    }
  return n;
}

/* Horizontal scrollers under `root` whose content is wider than they are. */
static guint
count_overflowing (GtkWidget *root, GString *names)
{
  guint n = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (!gtk_widget_get_mapped (child))
        continue;
      if (GTK_IS_SCROLLED_WINDOW (child))
        {
          GtkAdjustment *h = gtk_scrolled_window_get_hadjustment (GTK_SCROLLED_WINDOW (child));

          if (gtk_adjustment_get_upper (h) > gtk_adjustment_get_page_size (h) + 0.5)
            {
              g_string_append_printf (names, " %s (%.0f > %.0f px)", gtk_widget_get_name (child),
                                      gtk_adjustment_get_upper (h), gtk_adjustment_get_page_size (h));
              n++;
            }
        }
      if (WINNOW_IS_WRAP_BOX (child))
        for (GtkWidget *item = gtk_widget_get_first_child (child); item != NULL;
             item = gtk_widget_get_next_sibling (item))
          {
            graphene_rect_t r;

            g_assert_true (gtk_widget_compute_bounds (item, child, &r));
            if (r.origin.x < 0 || r.origin.x + r.size.width > gtk_widget_get_width (child) + 0.5)
              {
                g_string_append_printf (names, " a field of %s (%.0f to %.0f of %d px)", gtk_widget_get_name (child),
                                        r.origin.x, r.origin.x + r.size.width, gtk_widget_get_width (child));
                n++;
              }
          }
      n += count_overflowing (child, names);
    }
  return n;
}

typedef struct {
  int      min_width;      /* the window's, with the widest page shown */
  guint    compare_overflow;   /* at 1024 and at 800 px */
  guint    summary_ellipsized;
} LayoutFigures;

/* The Compare tab's fields that do not fit, and the Summary tab's shortened
 * labels, at the window's size now; screenshots of both. */
static void
check_pages (WinnowWindow  *window,
             const char    *language,
             LayoutFigures *out)
{
  g_autoptr(GString) names = g_string_new (NULL);
  int width = gtk_widget_get_width (GTK_WIDGET (window));
  g_autofree char *compare_shot = g_strdup_printf ("compare-%s-%d.png", language, width);
  g_autofree char *summary_shot = g_strdup_printf ("summary-%s-%d.png", language, width);
  guint n;

  adw_view_stack_set_visible_child_name (window->view_stack, "compare");
  winnow_test_settle (GTK_WIDGET (window));
  n = count_overflowing (GTK_WIDGET (window->view_stack), names);
  g_test_message ("%s at %d px: Compare fields that do not fit:%s", language, width, names->str);
  out->compare_overflow += n;
  if (width < 900)   /* the pictures worth a look: the narrow window */
    winnow_test_save_screenshot (GTK_WIDGET (window), compare_shot);

  g_string_truncate (names, 0);
  adw_view_stack_set_visible_child_name (window->view_stack, "summary");
  winnow_test_settle (GTK_WIDGET (window));
  n = count_ellipsized (GTK_WIDGET (window->view_stack), names);
  g_test_message ("%s at %d px: Summary labels shortened:%s", language, width, names->str);
  out->summary_ellipsized += n;
  if (width < 900)
    winnow_test_save_screenshot (GTK_WIDGET (window), summary_shot);
}

/* The window at 1024×640 with a run finished, in the current language:
 * its minimum width over every tab, the Compare tab's rows that need
 * scrolling, and the Summary tab's shortened labels. */
static void
measure_layout (const char *language, LayoutFigures *out)
{
  g_autofree char *path = winnow_test_example_path ("order-fulfilment.process.json");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  WinnowWindow *window = winnow_window_new (NULL);
  WinnowSession *session = winnow_window_get_session (window);
  const char *tabs[] = { "tracks", "dispatcher", "journal", "instances", "timeline", "incidents",
                         "breakpoints", "compare", "summary", "workers" };
  gint64 deadline;

  out->min_width = 0;
  gtk_window_set_default_size (GTK_WINDOW (window), 1024, 640);
  gtk_window_present (GTK_WINDOW (window));
  winnow_test_settle (GTK_WIDGET (window));
  g_assert_true (winnow_window_open_file (window, file));
  /* the run to its end at fast-forward: the Summary has every row */
  winnow_session_set_speed (session, 0);
  winnow_session_play (session);
  deadline = g_get_monotonic_time () + WINNOW_TEST_WAIT_US;
  while (winnow_session_is_playing (session))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, FALSE);
    }
  winnow_test_wait_for_flush (session);
  g_assert_nonnull (winnow_test_find_event (session, WN_EV_INSTANCE, WN_PH_COMPLETED, NULL, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (tabs); i++)
    {
      int min = 0;

      adw_view_stack_set_visible_child_name (window->view_stack, tabs[i]);
      winnow_test_drain ();
      gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
      g_test_message ("%s: %s tab: minimum width %d px", language, tabs[i], min);
      out->min_width = MAX (out->min_width, min);
    }

  out->compare_overflow = out->summary_ellipsized = 0;
  /* the pane below the diagram as tall as a 640 px screen leaves it */
  gtk_paned_set_position (window->main_paned, 330);
  check_pages (window, language, out);
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 640);
  winnow_test_settle (GTK_WIDGET (window));
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), <, 850);
  check_pages (window, language, out);
  gtk_window_destroy (GTK_WINDOW (window));
  winnow_test_drain ();
}

/* German needs no wider window than English, and at 1024×640 the Compare
 * tab's rows fit and the Summary's labels are whole, in both (issue 16:
 * 884 px against 857, a first row that scrolled, three labels cut). */
static void
test_window_german_layout (void)
{
  LayoutFigures en, de;
  GtkCssProvider *style = add_app_style ();

  measure_layout ("en", &en);
  if (!use_language ("de"))
    {
      remove_app_style (style);
      g_test_skip ("no compiled German catalog in the build");
      return;
    }
  measure_layout ("de", &de);
  use_language (NULL);
  g_test_message ("minimum width: English %d px, German %d px", en.min_width, de.min_width);
  g_assert_cmpint (en.min_width, <=, 800);
  g_assert_cmpint (de.min_width, <=, MAX (en.min_width, 800));
  g_assert_cmpuint (en.compare_overflow, ==, 0);
  g_assert_cmpuint (de.compare_overflow, ==, 0);
  g_assert_cmpuint (en.summary_ellipsized, ==, 0);
  g_assert_cmpuint (de.summary_ellipsized, ==, 0);
  remove_app_style (style);
}

/* F10 on an instant of a million actions: the window keeps drawing while the
 * step runs in slices, the transport says so, Space stops it, and a step
 * that runs out of its budget says so in a toast that stays. */
static void
test_window_step_in_slices (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("winnow-step-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "loop.process.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  WinnowWindow *window = winnow_window_new (NULL);
  WinnowSession *session = winnow_window_get_session (window);
  GtkWidget *state;
  GdkFrameClock *clock;
  gint64 frames, deadline;
  WnRunStats stats;

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path, WN_TEST_LOOP_PROCESS, -1, &error));
  winnow_window_set_instances (window, 40);
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);
  gtk_window_present (GTK_WINDOW (window));
  winnow_test_settle (GTK_WIDGET (window));
  g_assert_true (winnow_window_open_file (window, file));
  winnow_test_wait_for_flush (session);
  clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  state = find_label_with_prefix (GTK_WIDGET (window), "paused");
  g_assert_nonnull (state);

  /* F10: back at once, with the instant under way */
  g_action_group_activate_action (G_ACTION_GROUP (window), "step-next", NULL);
  wn_engine_get_stats (winnow_session_get_engine (session), &stats);
  g_assert_cmpuint (stats.executions, <, 40 * 10000);
  g_assert_true (winnow_session_is_stepping (session));

  /* frames keep coming while it steps, and the transport says it steps */
  frames = gdk_frame_clock_get_frame_counter (clock);
  deadline = g_get_monotonic_time () + WAIT_US;
  while (gdk_frame_clock_get_frame_counter (clock) < frames + 3 && winnow_session_is_stepping (session))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, FALSE);
    }
  g_assert_true (winnow_session_is_stepping (session));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (state)), ==, "stepping");

  /* Space stops it where it is */
  g_action_group_activate_action (G_ACTION_GROUP (window), "play-pause", NULL);
  g_assert_false (winnow_session_is_stepping (session));
  g_assert_false (winnow_session_is_playing (session));
  winnow_test_wait_for_flush (session);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (state)), ==, "paused");

  /* the next step runs to its budget and says so until dismissed */
  winnow_test_activate (window, "step-next", NULL);
  g_assert_false (winnow_session_is_stepping (session));
  winnow_test_settle (GTK_WIDGET (window));
  {
    GtkWidget *title = winnow_test_find_named (GTK_WIDGET (window), "hit-title");
    GtkWidget *why = winnow_test_find_named (GTK_WIDGET (window), "hit-event");

    g_assert_true (gtk_revealer_get_reveal_child (GTK_REVEALER (gtk_widget_get_ancestor (title, GTK_TYPE_REVEALER))));
    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (title)), ==, "The clock stopped by itself at T+00:00.000");
    g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (why)), "This step ran 200000 actions"));
  }
  winnow_test_save_screenshot (GTK_WIDGET (window), "step-budget.png");

  gtk_window_destroy (GTK_WINDOW (window));
  winnow_test_drain ();
  g_unlink (path);
  g_rmdir (dir);
}

/* A window at 1400×900 with the example open and laid out. */
static WinnowWindow *
open_example_window (const char *example)
{
  g_autofree char *path = winnow_test_example_path (example);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  WinnowWindow *window = winnow_window_new (NULL);

  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (winnow_window_open_file (window, file));
  winnow_test_wait_for_flush (winnow_window_get_session (window));
  winnow_test_settle (GTK_WIDGET (window));
  return window;
}

static int
natural_width (GtkWidget *widget)
{
  int min = 0, nat = 0;

  gtk_widget_measure (widget, GTK_ORIENTATION_HORIZONTAL, -1, &min, &nat, NULL, NULL);
  return nat;
}

/* The transport keeps its width whatever the clock's state says (issue 16,
 * polish): the buttons do not move under the pointer when it changes. */
static void
test_window_transport_steady (void)
{
  WinnowWindow *window = open_example_window ("flaky-service.process.json");
  WinnowSession *session = winnow_window_get_session (window);
  GtkWidget *transport;
  GtkWidget *state;
  int paused;

  state = find_label_with_prefix (GTK_WIDGET (window), "paused");
  g_assert_nonnull (state);
  transport = gtk_widget_get_ancestor (state, WINNOW_TYPE_TRANSPORT);
  g_assert_nonnull (transport);
  /* (the speed button shows the speed: each speed is measured paused first) */
  for (guint i = 0; i < 2; i++)
    {
      winnow_test_activate (window, "set-speed", g_variant_new_string (i == 0 ? "1000" : "ff"));
      winnow_transport_update (WINNOW_TRANSPORT (transport));
      paused = natural_width (transport);
      g_action_group_activate_action (G_ACTION_GROUP (window), "play-pause", NULL);
      winnow_transport_update (WINNOW_TRANSPORT (transport));
      g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (state)), ==, i == 0 ? "running 1000×" : "fast-forward");
      g_assert_cmpint (natural_width (transport), ==, paused);
      winnow_session_pause (session);
      winnow_transport_update (WINNOW_TRANSPORT (transport));
      g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (state)), ==, "paused");
      g_assert_cmpint (natural_width (transport), ==, paused);
    }
  gtk_window_destroy (GTK_WINDOW (window));
  winnow_test_drain ();
}

/* The header says what runs (issue 16, polish): the run's engine-wide trust as
 * it is now and the seed, the scenario opened over the process, and the
 * process's own x-about in the title's tooltip (and a toast as it opens). */
static void
test_window_header (void)
{
  g_autofree char *scenario_path = winnow_test_example_path ("flaky-service.fixed.scenario.json");
  g_autoptr(GFile) scenario = g_file_new_for_path (scenario_path);
  WinnowWindow *window = open_example_window ("flaky-service.process.json");
  WinnowSession *session = winnow_window_get_session (window);
  GtkWidget *run, *title;

  run = find_label_with_prefix (GTK_WIDGET (window), "Worker trusted · seed 11");
  g_assert_nonnull (run);
  title = find_label_with_prefix (GTK_WIDGET (window), "Flaky service (Monte-Carlo)");
  g_assert_nonnull (title);
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (title), "A quote service that fails 30% of the time"));
  g_assert_nonnull (find_label_with_prefix (GTK_WIDGET (window), "A quote service that fails 30% of the time"));

  /* the run's trust changes: the header follows */
  winnow_session_set_trust_default (session, WN_TRUST_ENGINE_AUTHORITATIVE);
  winnow_test_wait_for_flush (session);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (run)), ==, "Engine authoritative · seed 11");

  /* a scenario opened over it is named */
  g_assert_true (winnow_window_open_scenario (window, scenario));
  winnow_test_wait_for_flush (session);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (title)), ==,
                   "Flaky service (Monte-Carlo) · flaky-service.fixed.scenario.json");
  winnow_test_settle (GTK_WIDGET (window));
  winnow_test_save_screenshot (GTK_WIDGET (window), "header.png");
  gtk_window_destroy (GTK_WINDOW (window));
  winnow_test_drain ();
}

/* The Dispatcher marks a lock whose holder crashed with the job (issue 16,
 * polish): it can only lapse, and the table and the inspector say so. */
static void
test_window_crashed_holder (void)
{
  WinnowWindow *window = open_example_window ("crashed-worker.process.json");
  WinnowSession *session = winnow_window_get_session (window);
  g_autofree char *text = NULL;
  WinnowJobRow *row;

  winnow_test_activate (window, "set-step-delta", g_variant_new_string ("1s"));
  winnow_test_activate (window, "step-by", NULL);
  winnow_test_activate (window, "show-tab", g_variant_new_string ("dispatcher"));
  row = find_job (session, "i1/j1");
  g_assert_nonnull (row);
  g_object_get (row, "worker-text", &text, NULL);
  g_assert_cmpstr (text, ==, "printer-1 (crashed)");
  g_assert_true (winnow_job_row_get_holder_gone (row));
  g_clear_pointer (&text, g_free);
  row = find_job (session, "i2/j1");
  g_assert_nonnull (row);
  g_object_get (row, "worker-text", &text, NULL);
  g_assert_cmpstr (text, ==, "printer-2");
  winnow_session_set_selected_job (session, "i1/j1");
  winnow_test_settle (GTK_WIDGET (window));
  g_assert_nonnull (find_label_with_prefix (GTK_WIDGET (window), "locked by printer-1, which crashed with it"));
  winnow_test_save_screenshot (GTK_WIDGET (window), "crashed-holder.png");
  gtk_window_destroy (GTK_WINDOW (window));
  winnow_test_drain ();
}

/* Issue 18: the operator completes a waiting user task from the node
 * inspector; bad JSON is refused inline with its place, Enter submits, the
 * journal names the operator, the saved session records the command, and
 * Step Back takes it back. */
static void
test_window_operator_user_task (void)
{
  WinnowWindow *window = open_example_window ("manual-approval.process.json");
  WinnowSession *session = winnow_window_get_session (window);
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;
  g_autofree char *saved = NULL;
  g_autoptr(GError) error = NULL;
  GtkWidget *vars, *label, *reason, *submit;
  const WnEvent *done;
  guint steps;

  winnow_session_set_selected_node (session, "approve");
  winnow_test_settle (GTK_WIDGET (window));
  submit = winnow_test_find_named (GTK_WIDGET (window), "operator-submit");
  reason = winnow_test_find_named (GTK_WIDGET (window), "operator-reason");
  g_assert_true (gtk_widget_get_visible (winnow_test_find_named (GTK_WIDGET (window), "operator")));
  /* nothing waits yet: off, with the reason */
  g_assert_false (gtk_widget_get_sensitive (submit));
  g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (reason)), "Nothing waits here"));

  for (steps = 0; steps < 50 && winnow_test_find_event (session, WN_EV_USER_TASK, WN_PH_CREATED, NULL, "i1") == NULL; steps++)
    winnow_test_activate (window, "step-next", NULL);
  g_assert_nonnull (winnow_test_find_event (session, WN_EV_USER_TASK, WN_PH_CREATED, NULL, "i1"));
  winnow_test_settle (GTK_WIDGET (window));
  g_assert_true (gtk_widget_get_sensitive (submit));
  /* several wait: the first is chosen */
  g_assert_true (g_str_has_suffix (gtk_label_get_text (GTK_LABEL (reason)), "instances wait here: the one chosen above is acted on"));
  g_assert_cmpuint (adw_combo_row_get_selected (ADW_COMBO_ROW (winnow_test_find_named (GTK_WIDGET (window), "operator-instance"))), ==, 0);

  /* bad JSON: refused inline, with its line and column, and nothing changes */
  vars = winnow_test_find_named (GTK_WIDGET (window), "operator-variables");
  gtk_editable_set_text (GTK_EDITABLE (vars), "{\"approved\": tru}");
  g_signal_emit_by_name (vars, "entry-activated");
  label = winnow_test_find_named (GTK_WIDGET (window), "operator-error");
  g_assert_true (gtk_widget_get_visible (label));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (label)), "Not valid JSON (line 1, column "));
  g_assert_null (winnow_test_find_event (session, WN_EV_USER_TASK, WN_PH_COMPLETED, NULL, NULL));
  gtk_editable_set_text (GTK_EDITABLE (vars), "[1]");
  g_signal_emit_by_name (vars, "entry-activated");
  g_assert_true (gtk_widget_get_visible (label));
  g_assert_null (winnow_test_find_event (session, WN_EV_USER_TASK, WN_PH_COMPLETED, NULL, NULL));

  /* Enter completes it */
  gtk_editable_set_text (GTK_EDITABLE (vars), "{\"approved\": true}");
  g_signal_emit_by_name (vars, "entry-activated");
  g_assert_false (gtk_widget_get_visible (label));
  winnow_test_wait_for_flush (session);
  done = winnow_test_find_event (session, WN_EV_USER_TASK, WN_PH_COMPLETED, NULL, "i1");
  g_assert_nonnull (done);
  g_assert_cmpstr (done->action, ==, "operator");
  winnow_test_settle (GTK_WIDGET (window));
  winnow_test_save_screenshot (GTK_WIDGET (window), "operator-user-task.png");

  /* the saved session records the command */
  path = g_build_filename (g_get_tmp_dir (), "winnow-operator-XXXXXX.session.json", NULL);
  g_close (g_mkstemp (path), NULL);
  file = g_file_new_for_path (path);
  g_assert_true (winnow_window_save_session (window, file, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &saved, NULL, NULL));
  g_assert_nonnull (strstr (saved, "userTaskComplete"));
  g_unlink (path);

  /* Step Back undoes it: the task waits again */
  g_assert_true (winnow_session_step_back (session));
  winnow_test_wait_for_flush (session);
  winnow_test_settle (GTK_WIDGET (window));
  g_assert_null (winnow_test_find_event (session, WN_EV_USER_TASK, WN_PH_COMPLETED, NULL, "i1"));
  g_assert_true (gtk_widget_get_sensitive (submit));

  gtk_window_destroy (GTK_WINDOW (window));
  winnow_test_drain ();
}

/* The instance the operator's list shows at `index` ("i2 · since …"), by its id. */
static char *
picker_instance (GtkWidget *picker, guint index)
{
  GListModel *model = adw_combo_row_get_model (ADW_COMBO_ROW (picker));
  const char *label;

  g_assert_cmpuint (index, <, g_list_model_get_n_items (model));
  label = gtk_string_list_get_string (GTK_STRING_LIST (model), index);
  return g_strndup (label, strcspn (label, " "));
}

/* The operator's list at the node: the row chosen for `instance`. */
static void
pick_instance (GtkWidget *picker, const char *instance)
{
  GListModel *model = adw_combo_row_get_model (ADW_COMBO_ROW (picker));

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autofree char *id = picker_instance (picker, i);

      if (g_strcmp0 (id, instance) == 0)
        {
          adw_combo_row_set_selected (ADW_COMBO_ROW (picker), i);
          return;
        }
    }
  g_error ("%s is not in the operator's list", instance);
}

/* Issue 18: the operator chooses which waiting instance a user task action
 * goes to (the first by default), completes one and throws a BPMN error from
 * another through the inspector's list, fields and buttons; the journal says
 * the operator did it to those instances, a missing code is refused inline,
 * and the saved session names them. */
static void
test_window_operator_instance_picker (void)
{
  WinnowWindow *window = open_example_window ("manual-approval.process.json");
  WinnowSession *session = winnow_window_get_session (window);
  g_autofree char *path = NULL;
  g_autofree char *saved = NULL;
  g_autofree char *first = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  GtkWidget *picker, *vars, *code, *message, *submit, *throw, *label;
  const WnEvent *done, *thrown;
  guint steps, waiting;

  winnow_session_set_selected_node (session, "approve");
  winnow_test_settle (GTK_WIDGET (window));
  picker = winnow_test_find_named (GTK_WIDGET (window), "operator-instance");
  g_assert_false (gtk_widget_get_visible (picker));
  for (steps = 0; steps < 80 && winnow_test_find_event (session, WN_EV_USER_TASK, WN_PH_CREATED, NULL, "i3") == NULL; steps++)
    winnow_test_activate (window, "step-next", NULL);
  winnow_test_settle (GTK_WIDGET (window));
  g_assert_true (gtk_widget_get_visible (picker));
  waiting = g_list_model_get_n_items (adw_combo_row_get_model (ADW_COMBO_ROW (picker)));
  g_assert_cmpuint (waiting, >=, 3);
  first = picker_instance (picker, 0);
  g_assert_cmpstr (first, ==, "i1");
  g_assert_cmpuint (adw_combo_row_get_selected (ADW_COMBO_ROW (picker)), ==, 0);

  /* complete i2's, not the first's */
  pick_instance (picker, "i2");
  vars = winnow_test_find_named (GTK_WIDGET (window), "operator-variables");
  submit = winnow_test_find_named (GTK_WIDGET (window), "operator-submit");
  gtk_editable_set_text (GTK_EDITABLE (vars), "{\"approvedBy\": \"lee\"}");
  g_signal_emit_by_name (submit, "clicked");
  winnow_test_wait_for_flush (session);
  done = winnow_test_find_event (session, WN_EV_USER_TASK, WN_PH_COMPLETED, NULL, NULL);
  g_assert_nonnull (done);
  g_assert_cmpstr (done->instance, ==, "i2");
  g_assert_cmpstr (done->action, ==, "operator");
  winnow_test_settle (GTK_WIDGET (window));
  /* i2 has left the list; the choice falls back to the first */
  g_assert_cmpuint (g_list_model_get_n_items (adw_combo_row_get_model (ADW_COMBO_ROW (picker))), ==, waiting - 1);
  g_clear_pointer (&first, g_free);
  first = picker_instance (picker, adw_combo_row_get_selected (ADW_COMBO_ROW (picker)));
  g_assert_cmpstr (first, ==, "i1");

  /* a BPMN error from i3: without a code it is refused inline, with one it is thrown */
  pick_instance (picker, "i3");
  throw = winnow_test_find_named (GTK_WIDGET (window), "operator-throw");
  code = winnow_test_find_named (GTK_WIDGET (window), "operator-code");
  message = winnow_test_find_named (GTK_WIDGET (window), "operator-error-message");
  label = winnow_test_find_named (GTK_WIDGET (window), "operator-error");
  g_signal_emit_by_name (throw, "clicked");
  g_assert_true (gtk_widget_get_visible (label));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, "A BPMN error needs a code");
  g_assert_null (winnow_test_find_event (session, WN_EV_FAULT, WN_PH_THROWN, NULL, NULL));
  gtk_editable_set_text (GTK_EDITABLE (code), "Rejected");
  gtk_editable_set_text (GTK_EDITABLE (message), "not this one");
  g_signal_emit_by_name (message, "entry-activated");   /* Enter in the message field throws */
  winnow_test_wait_for_flush (session);
  thrown = winnow_test_find_event (session, WN_EV_FAULT, WN_PH_THROWN, NULL, NULL);
  g_assert_nonnull (thrown);
  g_assert_cmpstr (thrown->instance, ==, "i3");
  g_assert_cmpstr (thrown->code, ==, "Rejected");
  g_assert_cmpstr (thrown->error, ==, "not this one");
  g_assert_cmpstr (thrown->action, ==, "operator");
  g_assert_false (gtk_widget_get_visible (label));
  /* i1 still waits */
  g_assert_null (winnow_test_find_event (session, WN_EV_USER_TASK, WN_PH_COMPLETED, NULL, "i1"));
  winnow_test_settle (GTK_WIDGET (window));
  winnow_test_save_screenshot (GTK_WIDGET (window), "operator-instance-picker.png");

  path = g_build_filename (g_get_tmp_dir (), "winnow-picker-XXXXXX.session.json", NULL);
  g_close (g_mkstemp (path), NULL);
  file = g_file_new_for_path (path);
  g_assert_true (winnow_window_save_session (window, file, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &saved, NULL, NULL));
  g_assert_nonnull (strstr (saved, "\"op\" : \"userTaskComplete\",\n        \"instance\" : \"i2\""));
  g_assert_nonnull (strstr (saved, "\"op\" : \"userTaskError\",\n        \"instance\" : \"i3\""));
  g_unlink (path);

  gtk_window_destroy (GTK_WINDOW (window));
  winnow_test_drain ();
}

/* Issue 18: the operator correlates a message from the inspector of a
 * receive task, to the instance chosen in the list: a key that is not JSON
 * and a key the chosen instance's wait does not take are refused inline
 * (nothing is journaled), the right one correlates to that instance only,
 * and the saved session names the instance. */
static void
test_window_operator_message (void)
{
  WinnowWindow *window = open_example_window ("payment-messages.process.json");
  WinnowSession *session = winnow_window_get_session (window);
  g_autofree char *path = NULL;
  g_autofree char *saved = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  GtkWidget *picker, *name, *key, *vars, *submit, *label, *reason;
  const WnEvent *correlated;
  guint steps;

  winnow_session_set_selected_node (session, "confirmed");
  winnow_test_settle (GTK_WIDGET (window));
  picker = winnow_test_find_named (GTK_WIDGET (window), "operator-instance");
  name = winnow_test_find_named (GTK_WIDGET (window), "operator-message-name");
  key = winnow_test_find_named (GTK_WIDGET (window), "operator-key");
  vars = winnow_test_find_named (GTK_WIDGET (window), "operator-variables");
  submit = winnow_test_find_named (GTK_WIDGET (window), "operator-submit");
  label = winnow_test_find_named (GTK_WIDGET (window), "operator-error");
  reason = winnow_test_find_named (GTK_WIDGET (window), "operator-reason");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (name)), ==, "paymentConfirmed");
  g_assert_false (gtk_widget_get_sensitive (submit));
  g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (reason)), "Nothing waits here"));
  /* all three orders wait for their payment's confirmation */
  for (steps = 0; steps < 200; steps++)
    {
      winnow_test_settle (GTK_WIDGET (window));
      if (gtk_widget_get_visible (picker) &&
          g_list_model_get_n_items (adw_combo_row_get_model (ADW_COMBO_ROW (picker))) == 3)
        break;
      winnow_test_activate (window, "step-next", NULL);
    }
  g_assert_cmpuint (g_list_model_get_n_items (adw_combo_row_get_model (ADW_COMBO_ROW (picker))), ==, 3);
  g_assert_true (gtk_widget_get_sensitive (submit));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (reason)), ==,
                   "3 instances wait for this message: it goes to the one chosen above");
  g_assert_null (winnow_test_find_event (session, WN_EV_MESSAGE, WN_PH_CORRELATED, NULL, NULL));

  pick_instance (picker, "i2");
  /* not JSON */
  gtk_editable_set_text (GTK_EDITABLE (key), "B");
  g_signal_emit_by_name (key, "entry-activated");
  g_assert_true (gtk_widget_get_visible (label));
  g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (label)), "Correlation key (JSON, optional): "));
  /* order A's key: i2 (order B) does not take it, though i1 would */
  gtk_editable_set_text (GTK_EDITABLE (key), "\"A\"");
  g_signal_emit_by_name (submit, "clicked");
  g_assert_true (gtk_widget_get_visible (label));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, "instance i2 does not wait for message paymentConfirmed");
  winnow_test_wait_for_flush (session);
  g_assert_null (winnow_test_find_event (session, WN_EV_MESSAGE, WN_PH_CORRELATED, NULL, NULL));
  /* its own key, with variables: Enter in the key field correlates */
  gtk_editable_set_text (GTK_EDITABLE (key), "\"B\"");
  gtk_editable_set_text (GTK_EDITABLE (vars), "{\"paid\": true}");
  g_signal_emit_by_name (key, "entry-activated");
  g_assert_false (gtk_widget_get_visible (label));
  winnow_test_wait_for_flush (session);
  correlated = winnow_test_find_event (session, WN_EV_MESSAGE, WN_PH_CORRELATED, NULL, NULL);
  g_assert_nonnull (correlated);
  g_assert_cmpstr (correlated->instance, ==, "i2");
  g_assert_cmpstr (correlated->node, ==, "confirmed");
  g_assert_cmpstr (correlated->action, ==, "paymentConfirmed");
  g_assert_null (winnow_test_find_event (session, WN_EV_MESSAGE, WN_PH_CORRELATED, NULL, "i1"));
  winnow_test_settle (GTK_WIDGET (window));
  g_assert_cmpuint (g_list_model_get_n_items (adw_combo_row_get_model (ADW_COMBO_ROW (picker))), ==, 2);

  path = g_build_filename (g_get_tmp_dir (), "winnow-correlate-XXXXXX.session.json", NULL);
  g_close (g_mkstemp (path), NULL);
  file = g_file_new_for_path (path);
  g_assert_true (winnow_window_save_session (window, file, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &saved, NULL, NULL));
  g_assert_nonnull (strstr (saved, "\"op\" : \"correlate\",\n        \"instance\" : \"i2\",\n"
                                   "        \"message\" : \"paymentConfirmed\""));
  g_unlink (path);

  gtk_window_destroy (GTK_WINDOW (window));
  winnow_test_drain ();
}

int
main (int argc, char **argv)
{
  g_autofree char *style = NULL;

  wn_test_require_display ("test-window");
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GTK_A11Y", "none", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  g_test_log_set_fatal_handler (winnow_test_ignore_bus_warning, NULL);
  adw_init ();
  if (g_getenv ("WINNOW_EXAMPLES_DIR") == NULL)
    {
      g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "..", "..", "data", "examples", NULL);
      g_setenv ("WINNOW_EXAMPLES_DIR", dir, TRUE);
    }

  g_test_add_func ("/app/Window/no-examples", test_window_no_examples);
  g_test_add_func ("/app/Window/narrow", test_window_narrow);
  g_test_add_func ("/app/Window/german-layout", test_window_german_layout);
  g_test_add_func ("/app/Window/engine-ii", test_window_engine_ii);
  g_test_add_func ("/app/Window/save-folder", test_window_save_folder);
  g_test_add_func ("/app/Window/run", test_window_run);
  g_test_add_func ("/app/Window/bpmn", test_window_bpmn);
  g_test_add_func ("/app/Window/loads-big-file", test_window_loads_big_file);
  g_test_add_func ("/app/Window/loads-big-bpmn", test_window_loads_big_bpmn);
  g_test_add_func ("/app/Window/cancel-load", test_window_cancel_load);
  g_test_add_func ("/app/Window/open-during-load", test_window_open_during_load);
  g_test_add_func ("/app/Window/big-file-refused", test_window_big_file_refused);
  g_test_add_func ("/app/Window/reloads-big-file", test_window_reloads_big_file);
  g_test_add_func ("/app/Window/cancel-reload", test_window_cancel_reload);
  g_test_add_func ("/app/Window/big-reload-refused", test_window_big_reload_refused);
  g_test_add_func ("/app/Window/bpmn-save-process", test_window_save_process);
  g_test_add_func ("/app/Window/bpmn-process-chooser", test_window_process_chooser);
  g_test_add_func ("/app/Window/bpmn-command-line", test_window_command_line_bpmn);
  g_test_add_func ("/app/Window/bpmn-undecidable-conditions", test_window_undecidable_conditions);
  g_test_add_func ("/app/Window/fast-forward-10000", test_window_responsive);
  g_test_add_func ("/app/Window/failed-save", test_window_failed_save);
  g_test_add_func ("/app/Window/step-in-slices", test_window_step_in_slices);
  g_test_add_func ("/app/Window/transport-steady", test_window_transport_steady);
  g_test_add_func ("/app/Window/header", test_window_header);
  g_test_add_func ("/app/Window/crashed-holder", test_window_crashed_holder);
  g_test_add_func ("/app/Window/operator-user-task", test_window_operator_user_task);
  g_test_add_func ("/app/Window/operator-instance-picker", test_window_operator_instance_picker);
  g_test_add_func ("/app/Window/operator-message", test_window_operator_message);
  return g_test_run ();
}

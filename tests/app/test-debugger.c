/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The debugger, driven the way a user does: breakpoints, the job inspector,
 * incidents, the timeline, and sessions that replay headless. */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>
#include <adwaita.h>

#include "winnow.h"
#include "winnow-application.h"
#include "winnow-diagram.h"
#include "winnow-diagram-pane.h"
#include "winnow-inspector.h"
#include "winnow-event-row.h"
#include "winnow-session.h"
#include "winnow-timeline.h"
#include "winnow-timeline-aggregate.h"
#include "winnow-trace.h"
#include "winnow-window.h"
#include "winnow-app-test.h"

#define WAIT_US WINNOW_TEST_WAIT_US

/* The application: it loads the stylesheet, as when the app runs. */
static WinnowApplication *app;

/* Play until the clock stops by itself (a breakpoint, or nothing left to
 * run), within wait_us. */
static void
play_until_paused_within (WinnowWindow *window,
                          gint64        wait_us)
{
  WinnowSession *session = winnow_window_get_session (window);
  gint64 deadline = g_get_monotonic_time () + wait_us;

  winnow_test_activate (window, "play-pause", NULL);
  while (winnow_session_is_playing (session))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, FALSE);
    }
  winnow_test_wait_for_flush (session);
}

static void
play_until_paused (WinnowWindow *window)
{
  play_until_paused_within (window, WAIT_US);
}

static void
fast_forward (WinnowWindow *window)
{
  winnow_test_activate (window, "set-speed", g_variant_new_string ("ff"));
  play_until_paused (window);
}

static void set_panes (WinnowWindow *window, int top, int side);

static WinnowWindow *
open_window (const char *example)
{
  g_autofree char *path = winnow_test_example_path (example);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  WinnowWindow *window = winnow_window_new (GTK_APPLICATION (app));

  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);
  gtk_window_present (GTK_WINDOW (window));
  winnow_test_settle (GTK_WIDGET (window));
  g_assert_true (winnow_window_open_file (window, file));
  winnow_test_wait_for_flush (winnow_window_get_session (window));
  /* the panes remember their places across windows (GSettings) */
  set_panes (window, 420, 1000);
  return window;
}

static void
close_window (WinnowWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  winnow_test_drain ();
}

static GtkWidget *
find_button (GtkWidget  *root,
             const char *label)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (GTK_IS_BUTTON (child) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (child)), label) == 0)
        return child;
      if ((found = find_button (child, label)) != NULL)
        return found;
    }
  return NULL;
}

static guint
count_rows (GtkWidget *list)
{
  guint n = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (list); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_BOX_ROW (child))
      n++;
  return n;
}

/* The window's content without the toasts over its tabs, for pictures.
 * (A toast can time out while the window settles: its widget goes, so the
 * list holds them until they are shown again.) */
static void
save_content_screenshot (WinnowWindow *window,
                         const char   *name)
{
  GtkWidget *overlay = winnow_test_find_named (GTK_WIDGET (window), "AdwToastOverlay");
  g_autoptr(GPtrArray) hidden = g_ptr_array_new_with_free_func (g_object_unref);
  GtkWidget *tabs;

  g_assert_true (ADW_IS_TOAST_OVERLAY (overlay));
  tabs = adw_toast_overlay_get_child (ADW_TOAST_OVERLAY (overlay));
  for (GtkWidget *child = gtk_widget_get_first_child (overlay); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (child != tabs && gtk_widget_get_opacity (child) > 0)
      {
        gtk_widget_set_opacity (child, 0);
        g_ptr_array_add (hidden, g_object_ref (child));
      }
  winnow_test_settle (GTK_WIDGET (window));
  winnow_test_save_screenshot (adw_application_window_get_content (ADW_APPLICATION_WINDOW (window)), name);
  for (guint i = 0; i < hidden->len; i++)
    gtk_widget_set_opacity (g_ptr_array_index (hidden, i), 1);
}

static void
set_panes (WinnowWindow *window,
           int           top,
           int           side)
{
  GtkWidget *main_paned = winnow_test_find_named (GTK_WIDGET (window), "GtkPaned");

  g_assert_true (GTK_IS_PANED (main_paned));
  gtk_paned_set_position (GTK_PANED (main_paned), top);
  gtk_paned_set_position (GTK_PANED (gtk_paned_get_start_child (GTK_PANED (main_paned))), side);
  winnow_test_settle (GTK_WIDGET (window));
}

/* ---- breakpoints ---- */

static void
test_breakpoint_stops (void)
{
  WinnowWindow *window = open_window ("order-fulfilment-authoritative.process.json");
  WinnowSession *session = winnow_window_get_session (window);
  GtkWidget *dropdown = winnow_test_find_named (GTK_WIDGET (window), "breakpoint-kind");
  GtkWidget *title = winnow_test_find_named (GTK_WIDGET (window), "hit-title");
  GtkWidget *revealer;
  GListModel *bps;
  g_autoptr(WnBreakpointItem) bp = NULL;
  const WnEvent *hit = NULL;
  g_autofree char *at = NULL;
  WnTime first_stop;

  /* Breakpoints ▸ "A job's retries are exhausted" ▸ Add */
  g_assert_true (GTK_IS_DROP_DOWN (dropdown));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (dropdown), 2);
  winnow_test_activate (window, "add-breakpoint", NULL);
  bps = winnow_session_get_breakpoints (session);
  g_assert_cmpuint (g_list_model_get_n_items (bps), ==, 1);
  bp = g_list_model_get_item (bps, 0);
  g_assert_cmpint (wn_breakpoint_item_get_kind (bp), ==, WN_EV_JOB);
  g_assert_cmpint (wn_breakpoint_item_get_phase (bp), ==, WN_PH_RETRIES_EXHAUSTED);
  g_assert_null (wn_breakpoint_item_get_node (bp));
  g_assert_true (wn_breakpoint_item_get_enabled (bp));

  /* fast-forward: the clock stops right after the first exhaustion, as
   * `winnow-run --break job.retriesExhausted` does (seed 7: T+00:02.157) */
  fast_forward (window);
  g_assert_cmpint (winnow_session_get_mode (session), ==, WN_CLOCK_PAUSED);
  g_assert_cmpuint (winnow_session_get_hit (session, &hit), ==, wn_breakpoint_item_get_id (bp));
  g_assert_nonnull (hit);
  g_assert_cmpint (hit->kind, ==, WN_EV_JOB);
  g_assert_cmpint (hit->phase, ==, WN_PH_RETRIES_EXHAUSTED);
  at = wn_time_format_clock (winnow_session_get_now (session));
  g_assert_cmpstr (at, ==, "T+00:02.157");
  g_assert_cmpint (hit->t_us, ==, winnow_session_get_now (session));
  g_assert_cmpstr (hit->job, ==, "i3/j2");
  g_assert_cmpuint (wn_breakpoint_item_get_hits (bp), ==, 1);
  /* nothing ran after the action that hit it: no instance ended yet */
  g_assert_null (winnow_test_find_event (session, WN_EV_INSTANCE, WN_PH_TERMINATED, NULL, NULL));

  /* announced: the banner names the breakpoint and the time, the hit is selected */
  revealer = gtk_widget_get_ancestor (title, GTK_TYPE_REVEALER);
  g_assert_true (gtk_revealer_get_reveal_child (GTK_REVEALER (revealer)));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (title)), "T+00:02.157"));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (title)), "job.retriesExhausted"));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (winnow_test_find_named (GTK_WIDGET (window), "hit-event"))),
                            "retriesExhausted"));
  g_assert_cmpstr (winnow_session_get_selected_job (session), ==, "i3/j2");
  g_assert_cmpstr (winnow_session_get_selected_node (session), ==, "authorize-payment");
  g_assert_true (gtk_widget_get_visible (winnow_test_find_named (GTK_WIDGET (window), "job-group")));
  winnow_test_activate (window, "show-tab", g_variant_new_string ("breakpoints"));
  winnow_test_settle (GTK_WIDGET (window));
  save_content_screenshot (window, "breakpoint-hit.png");

  /* Continue: the banner goes, the clock runs to the next exhaustion */
  first_stop = winnow_session_get_now (session);
  play_until_paused (window);
  g_assert_cmpint (winnow_session_get_now (session), >, first_stop);
  g_assert_cmpuint (wn_breakpoint_item_get_hits (bp), ==, 2);
  g_assert_cmpuint (winnow_session_get_hit (session, &hit), ==, wn_breakpoint_item_get_id (bp));
  g_assert_cmpint (hit->t_us, ==, winnow_session_get_now (session));

  /* disabled, it no longer stops the run: it runs to the end */
  winnow_test_activate (window, "clear-job-selection", NULL);
  g_assert_true (winnow_session_enable_breakpoint (session, wn_breakpoint_item_get_id (bp), FALSE));
  play_until_paused (window);
  g_assert_cmpuint (winnow_session_get_hit (session, NULL), ==, 0);
  g_assert_false (gtk_revealer_get_reveal_child (GTK_REVEALER (revealer)));
  g_assert_nonnull (winnow_test_find_event (session, WN_EV_INSTANCE, WN_PH_TERMINATED, NULL, NULL));
  g_assert_cmpuint (winnow_session_get_next_time (session) == WN_TIME_NEVER, ==, TRUE);
  close_window (window);
}

/* A node breakpoint from the diagram: double-click = "node-activated". */
static void
test_breakpoint_node (void)
{
  WinnowWindow *window = open_window ("order-fulfilment.process.json");
  WinnowSession *session = winnow_window_get_session (window);
  GtkWidget *diagram = winnow_test_find_named (GTK_WIDGET (window), "WinnowDiagram");
  GtkWidget *toggle;
  const WnEvent *hit = NULL;

  g_assert_nonnull (diagram);
  g_signal_emit_by_name (diagram, "node-activated", "authorize-payment");
  winnow_test_wait_for_flush (session);
  g_assert_cmpuint (winnow_session_find_breakpoint (session, WN_EV_NODE, WN_PH_ENTERED, "authorize-payment"), !=, 0);
  g_assert_true (winnow_diagram_get_breakpoint (WINNOW_DIAGRAM (diagram), "authorize-payment"));
  toggle = winnow_test_find_named (GTK_WIDGET (window), "node-breakpoint");
  g_assert_true (gtk_switch_get_active (GTK_SWITCH (toggle)));

  fast_forward (window);
  g_assert_cmpuint (winnow_session_get_hit (session, &hit), !=, 0);
  g_assert_cmpint (hit->kind, ==, WN_EV_NODE);
  g_assert_cmpint (hit->phase, ==, WN_PH_ENTERED);
  g_assert_cmpstr (hit->node, ==, "authorize-payment");

  /* breakpoints outlive a restart */
  winnow_test_activate (window, "restart", NULL);
  g_assert_cmpuint (g_list_model_get_n_items (winnow_session_get_breakpoints (session)), ==, 1);
  g_assert_true (winnow_diagram_get_breakpoint (WINNOW_DIAGRAM (diagram), "authorize-payment"));

  /* the inspector's switch removes it */
  winnow_session_set_selected_node (session, "authorize-payment");
  winnow_test_wait_for_flush (session);
  gtk_switch_set_active (GTK_SWITCH (toggle), FALSE);
  winnow_test_wait_for_flush (session);
  g_assert_cmpuint (g_list_model_get_n_items (winnow_session_get_breakpoints (session)), ==, 0);
  g_assert_false (winnow_diagram_get_breakpoint (WINNOW_DIAGRAM (diagram), "authorize-payment"));
  close_window (window);
}

/* The run's breakpoints are the engine's own: one added through the engine
 * is on the page at once, follows the engine's changes, and a restart gives
 * the new run a copy (the same id, still disabled, no hits). */
static void
test_breakpoint_engine_model (void)
{
  WinnowWindow *window = open_window ("order-fulfilment-authoritative.process.json");
  WinnowSession *session = winnow_window_get_session (window);
  GtkWidget *page = winnow_test_find_named (GTK_WIDGET (window), "WinnowBreakpointsPage");
  GtkListBox *list = GTK_LIST_BOX (winnow_test_find_named (GTK_WIDGET (window), "breakpoints"));
  WnEngine *engine = winnow_session_get_engine (session);
  g_autoptr(WnBreakpointItem) bp = NULL;
  GtkListBoxRow *row;
  const WnEvent *hit = NULL;
  guint n_breakpoints = 0;
  guint id;

  g_assert_true (winnow_session_get_breakpoints (session) == wn_engine_get_breakpoint_model (engine));
  id = wn_engine_add_breakpoint (engine, WN_EV_JOB, WN_PH_RETRIES_EXHAUSTED, NULL);
  g_assert_cmpuint (winnow_session_find_breakpoint (session, WN_EV_JOB, WN_PH_RETRIES_EXHAUSTED, NULL), ==, id);
  row = gtk_list_box_get_row_at_index (list, 0);
  g_assert_nonnull (row);
  g_assert_null (gtk_list_box_get_row_at_index (list, 1));
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), ==, "job.retriesExhausted");
  g_object_get (page, "badge", &n_breakpoints, NULL);
  g_assert_cmpuint (n_breakpoints, ==, 1);

  /* disabled through the engine: the row says so */
  g_assert_true (wn_engine_enable_breakpoint (engine, id, FALSE));
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), "disabled"));

  /* a restart: the new run's model, with the same breakpoint in it */
  winnow_test_activate (window, "restart", NULL);
  winnow_test_wait_for_flush (session);
  engine = winnow_session_get_engine (session);
  g_assert_true (winnow_session_get_breakpoints (session) == wn_engine_get_breakpoint_model (engine));
  g_assert_cmpuint (g_list_model_get_n_items (winnow_session_get_breakpoints (session)), ==, 1);
  bp = g_list_model_get_item (winnow_session_get_breakpoints (session), 0);
  g_assert_cmpuint (wn_breakpoint_item_get_id (bp), ==, id);
  g_assert_false (wn_breakpoint_item_get_enabled (bp));
  row = gtk_list_box_get_row_at_index (list, 0);
  g_assert_nonnull (row);
  g_assert_null (gtk_list_box_get_row_at_index (list, 1));
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), "disabled"));

  /* enabled again, it stops the new run, and the row counts the hit */
  g_assert_true (winnow_session_enable_breakpoint (session, id, TRUE));
  fast_forward (window);
  g_assert_cmpuint (winnow_session_get_hit (session, &hit), ==, id);
  g_assert_cmpuint (wn_breakpoint_item_get_hits (bp), ==, 1);
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), "1 hit in this run"));
  g_assert_null (strstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), "disabled"));

  /* removed through the engine: the page is empty */
  g_assert_true (wn_engine_remove_breakpoint (engine, id));
  g_assert_null (gtk_list_box_get_row_at_index (list, 0));
  g_object_get (page, "badge", &n_breakpoints, NULL);
  g_assert_cmpuint (n_breakpoints, ==, 0);
  close_window (window);
}

/* ---- the job inspector ---- */

static GtkWidget *
find_row_with_class (GtkWidget  *list,
                     const char *css_class,
                     guint      *index)
{
  guint i = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (list); child != NULL;
       child = gtk_widget_get_next_sibling (child), i++)
    if (gtk_widget_has_css_class (child, css_class))
      {
        *index = i;
        return child;
      }
  return NULL;
}

static void
test_inspector_rule (void)
{
  WinnowWindow *window = open_window ("error-mapper-showcase.process.json");
  WinnowSession *session = winnow_window_get_session (window);
  GtkWidget *mapper = winnow_test_find_named (GTK_WIDGET (window), "job-mapper");
  GtkWidget *history = winnow_test_find_named (GTK_WIDGET (window), "job-history");
  GtkWidget *timeline = winnow_test_find_named (GTK_WIDGET (window), "WinnowTimeline");
  GtkWidget *matched;
  WinnowJobTrace *job;
  const char *title;
  double y;
  guint index = 0;

  fast_forward (window);
  /* every order is done: the jobs have left the store, their history has not */
  g_assert_cmpuint (g_list_model_get_n_items (winnow_session_get_jobs (session)), ==, 0);
  job = winnow_trace_lookup_job (winnow_session_get_trace (session), "i2/j1");
  g_assert_nonnull (job);
  g_assert_cmpint (job->end, ==, WINNOW_JOB_BPMN_ERROR);

  /* click its lane in the timeline: the job is selected everywhere */
  winnow_test_activate (window, "show-tab", g_variant_new_string ("timeline"));
  winnow_test_settle (GTK_WIDGET (window));
  y = winnow_timeline_job_y (WINNOW_TIMELINE (timeline), "i2/j1");
  g_assert_cmpfloat (y, >, 0);
  g_assert_cmpstr (winnow_timeline_job_at (WINNOW_TIMELINE (timeline), WINNOW_TIMELINE_LABEL_WIDTH + 40, y), ==, "i2/j1");
  winnow_timeline_set_selected_job (WINNOW_TIMELINE (timeline), "i2/j1");
  winnow_test_wait_for_flush (session);
  g_assert_cmpstr (winnow_session_get_selected_job (session), ==, "i2/j1");

  /* the 402 job: rule 1 (code 402 when … → BPMN error CardDeclined) matched */
  g_assert_true (gtk_widget_get_visible (winnow_test_find_named (GTK_WIDGET (window), "job-group")));
  g_assert_cmpuint (count_rows (mapper), ==, 3);
  matched = find_row_with_class (mapper, "matched-rule", &index);
  g_assert_nonnull (matched);
  g_assert_cmpuint (index, ==, 0);
  title = adw_preferences_row_get_title (ADW_PREFERENCES_ROW (matched));
  g_test_message ("matched rule: %s", title);
  g_assert_nonnull (strstr (title, "402"));
  g_assert_nonnull (strstr (title, "CardDeclined"));
  g_assert_cmpuint (count_rows (history), ==, 1);

  /* the 503 job: technical, retried twice, then completed; rule 3 matched */
  winnow_session_set_selected_job (session, "i1/j1");
  winnow_test_wait_for_flush (session);
  matched = find_row_with_class (mapper, "matched-rule", &index);
  g_assert_nonnull (matched);
  g_assert_cmpuint (index, ==, 2);
  g_assert_cmpuint (count_rows (history), ==, 3);
  /* its first execution, in words: a technical fault, retried, with its code */
  {
    GtkListBoxRow *first = gtk_list_box_get_row_at_index (GTK_LIST_BOX (history), 0);
    const char *subtitle = adw_action_row_get_subtitle (ADW_ACTION_ROW (first));

    g_test_message ("first execution: %s", subtitle);
    g_assert_nonnull (strstr (subtitle, "retried"));
    g_assert_nonnull (strstr (subtitle, "503"));
  }

  /* the picture: the inspector on the 402 job, the timeline below */
  winnow_session_set_selected_job (session, "i2/j1");
  winnow_test_wait_for_flush (session);
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 1060);
  set_panes (window, 820, 860);
  save_content_screenshot (window, "inspector.png");
  close_window (window);
}

/* A job of the first instances whose last execution still runs, or NULL. */
static WinnowJobTrace *
running_job (WinnowSession *session)
{
  WinnowTrace *trace = winnow_session_get_trace (session);

  for (guint i = 1; i <= 3; i++)
    for (guint j = 1; j <= 6; j++)
      {
        g_autofree char *id = g_strdup_printf ("i%u/j%u", i, j);
        WinnowJobTrace *job = winnow_trace_lookup_job (trace, id);

        if (job != NULL && job->executions->len > 0 &&
            g_array_index (job->executions, WinnowExecution, job->executions->len - 1).end < 0)
          return job;
      }
  return NULL;
}

/* While the inspected job's execution runs, the clock moving on updates its
 * duration in the history row in place; the lists are not rebuilt. */
static void
test_inspector_running (void)
{
  WinnowWindow *window = open_window ("order-fulfilment.process.json");
  WinnowSession *session = winnow_window_get_session (window);
  GtkListBox *history = GTK_LIST_BOX (winnow_test_find_named (GTK_WIDGET (window), "job-history"));
  WinnowJobTrace *job = NULL;
  GtkListBoxRow *row;
  g_autofree char *before = NULL;
  int last;

  for (guint steps = 0; steps < 60 && job == NULL; steps++)
    {
      winnow_test_activate (window, "step-next", NULL);
      winnow_test_wait_for_flush (session);
      job = running_job (session);
    }
  g_assert_nonnull (job);
  winnow_session_set_selected_job (session, job->id);
  winnow_test_wait_for_flush (session);
  last = (int) job->executions->len - 1;
  row = gtk_list_box_get_row_at_index (history, last);
  g_assert_true (ADW_IS_ACTION_ROW (row));
  before = g_strdup (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)));

  winnow_session_step_by (session, 1000);   /* 1 ms */
  winnow_test_wait_for_flush (session);
  g_assert_true (running_job (session) == job);
  g_assert_true (gtk_list_box_get_row_at_index (history, last) == row);
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), !=, before);
  close_window (window);
}

/* ---- incidents ---- */

static void
test_incident_retry (void)
{
  WinnowWindow *window = open_window ("incident-on-exhaustion.process.json");
  WinnowSession *session = winnow_window_get_session (window);
  GtkWidget *list = winnow_test_find_named (GTK_WIDGET (window), "incidents");
  GtkWidget *kind, *retry;
  GPtrArray *incidents;
  const WinnowIncident *incident;

  fast_forward (window);
  incidents = winnow_session_get_incidents (session);
  g_assert_cmpuint (incidents->len, ==, 1);
  incident = g_ptr_array_index (incidents, 0);
  g_assert_cmpstr (incident->instance, ==, "i1");
  g_assert_cmpstr (incident->node, ==, "ship");
  g_assert_cmpuint (count_rows (list), ==, 1);
  g_assert_null (winnow_test_find_event (session, WN_EV_INSTANCE, WN_PH_COMPLETED, NULL, "i1"));
  winnow_test_activate (window, "show-tab", g_variant_new_string ("incidents"));
  winnow_test_settle (GTK_WIDGET (window));
  save_content_screenshot (window, "incidents.png");

  /* the carrier is back: its next execution completes */
  winnow_session_set_selected_node (session, "ship");
  winnow_test_wait_for_flush (session);
  kind = winnow_test_find_named (GTK_WIDGET (window), "fault-kind");
  adw_combo_row_set_selected (ADW_COMBO_ROW (kind), 5);   /* complete */
  gtk_editable_set_text (GTK_EDITABLE (winnow_test_find_named (GTK_WIDGET (window), "fault-json")), "{\"booking\": \"B-1\"}");
  winnow_test_activate (window, "inject-fault", NULL);
  g_assert_nonnull (winnow_test_find_event (session, WN_EV_INJECT, WN_PH_APPLIED, NULL, NULL));

  /* press Retry in the Incidents tab */
  winnow_test_activate (window, "show-tab", g_variant_new_string ("incidents"));
  retry = find_button (list, "_Retry");
  g_assert_nonnull (retry);
  g_signal_emit_by_name (retry, "clicked");
  winnow_test_wait_for_flush (session);
  g_assert_nonnull (winnow_test_find_event (session, WN_EV_INCIDENT, WN_PH_RETRIED, NULL, "i1"));

  fast_forward (window);
  g_assert_nonnull (winnow_test_find_event (session, WN_EV_INSTANCE, WN_PH_COMPLETED, NULL, "i1"));
  g_assert_cmpuint (winnow_session_get_incidents (session)->len, ==, 0);
  g_assert_cmpuint (count_rows (list), ==, 0);
  close_window (window);
}

/* ---- bad input changes nothing ---- */

static void
test_bad_input (void)
{
  WinnowWindow *window = open_window ("order-fulfilment.process.json");
  WinnowSession *session = winnow_window_get_session (window);
  WnEngine *engine = winnow_session_get_engine (session);
  GtkWidget *variables = winnow_test_find_named (GTK_WIDGET (window), "variables");
  GtkWidget *start_error = winnow_test_find_named (GTK_WIDGET (window), "start-error");
  GtkWidget *fault_error = winnow_test_find_named (GTK_WIDGET (window), "fault-error");
  GtkWidget *bp_error = winnow_test_find_named (GTK_WIDGET (window), "breakpoint-error");
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (variables));
  guint commands = wn_engine_get_commands (engine)->len;
  const char *bad_variables[] = { "{\"order\": ", "[1, 2]", "{\"a\": 1,}", "{\"a\": 1, \"a\": 2}", "nul" };
  const char *bad_specs[] = { "", "job", "job.entered", "node.entered@nowhere", "nokind.entered", "node.entered@" };

  /* start an instance: JSON that is not an object is refused, next to the field */
  for (guint i = 0; i < G_N_ELEMENTS (bad_variables); i++)
    {
      gtk_text_buffer_set_text (buffer, bad_variables[i], -1);
      winnow_test_activate (window, "start-instance", NULL);
      g_assert_true (gtk_widget_get_visible (start_error));
      g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (start_error)), !=, "");
      g_assert_cmpuint (wn_engine_get_commands (engine)->len, ==, commands);
    }
  g_assert_cmpuint (g_list_model_get_n_items (winnow_session_get_instances (session)), ==, 0);

  /* fault injection: a status needs JSON, a completion body must be JSON */
  winnow_session_set_selected_node (session, "reserve-stock");
  winnow_test_wait_for_flush (session);
  adw_combo_row_set_selected (ADW_COMBO_ROW (winnow_test_find_named (GTK_WIDGET (window), "fault-kind")), 2);
  gtk_editable_set_text (GTK_EDITABLE (winnow_test_find_named (GTK_WIDGET (window), "fault-json")), "");
  winnow_test_activate (window, "inject-fault", NULL);
  g_assert_true (gtk_widget_get_visible (fault_error));
  adw_combo_row_set_selected (ADW_COMBO_ROW (winnow_test_find_named (GTK_WIDGET (window), "fault-kind")), 5);
  gtk_editable_set_text (GTK_EDITABLE (winnow_test_find_named (GTK_WIDGET (window), "fault-json")), "{\"a\": tru}");
  winnow_test_activate (window, "inject-fault", NULL);
  g_assert_true (gtk_widget_get_visible (fault_error));
  g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (fault_error)), "Not valid JSON (line 1"));
  g_assert_null (winnow_test_find_event (session, WN_EV_INJECT, WN_PH_APPLIED, NULL, NULL));
  g_assert_cmpuint (wn_engine_get_commands (engine)->len, ==, commands);

  /* breakpoints typed by hand */
  for (guint i = 0; i < G_N_ELEMENTS (bad_specs); i++)
    {
      winnow_test_activate (window, "add-breakpoint-spec", g_variant_new_string (bad_specs[i]));
      g_assert_true (gtk_widget_get_visible (bp_error));
      g_assert_cmpuint (g_list_model_get_n_items (winnow_session_get_breakpoints (session)), ==, 0);
    }
  winnow_test_activate (window, "add-breakpoint-spec", g_variant_new_string (" job.lockExtended "));
  g_assert_false (gtk_widget_get_visible (bp_error));
  g_assert_cmpuint (g_list_model_get_n_items (winnow_session_get_breakpoints (session)), ==, 1);

  /* a node breakpoint from the dropdown needs a selected node */
  winnow_session_set_selected_node (session, NULL);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (winnow_test_find_named (GTK_WIDGET (window), "breakpoint-kind")), 0);
  winnow_test_activate (window, "add-breakpoint", NULL);
  g_assert_true (gtk_widget_get_visible (bp_error));
  g_assert_cmpuint (g_list_model_get_n_items (winnow_session_get_breakpoints (session)), ==, 1);

  /* nothing of it reached the engine */
  g_assert_cmpuint (wn_engine_get_commands (engine)->len, ==, commands);
  g_assert_cmpint (winnow_session_get_now (session), ==, 0);
  close_window (window);
}

/* Fault injection as a user fills it in: a Hang takes the duration typed, a
 * message about the fields goes as soon as they are edited again, and Enter
 * in a field injects. */
static void
test_fault_fields (void)
{
  WinnowWindow *window = open_window ("order-fulfilment.process.json");
  WinnowSession *session = winnow_window_get_session (window);
  GtkWidget *kind = winnow_test_find_named (GTK_WIDGET (window), "fault-kind");
  GtkWidget *code = winnow_test_find_named (GTK_WIDGET (window), "fault-code");
  GtkWidget *duration = winnow_test_find_named (GTK_WIDGET (window), "fault-duration");
  GtkWidget *fault_error = winnow_test_find_named (GTK_WIDGET (window), "fault-error");
  GtkTextBuffer *variables = gtk_text_view_get_buffer (GTK_TEXT_VIEW (winnow_test_find_named (GTK_WIDGET (window), "variables")));
  GtkWidget *start_error = winnow_test_find_named (GTK_WIDGET (window), "start-error");
  const WnEvent *event;

  /* variables that are not an object are refused; editing them takes the message away */
  gtk_text_buffer_set_text (variables, "[1]", -1);
  winnow_test_activate (window, "start-instance", NULL);
  g_assert_true (gtk_widget_get_visible (start_error));
  gtk_text_buffer_set_text (variables, "{}", -1);
  g_assert_false (gtk_widget_get_visible (start_error));

  winnow_session_set_selected_node (session, "reserve-stock");
  winnow_test_wait_for_flush (session);

  /* a BPMN error without a code is refused; typing the code takes the message away */
  adw_combo_row_set_selected (ADW_COMBO_ROW (kind), 1);
  gtk_editable_set_text (GTK_EDITABLE (code), "");
  winnow_test_activate (window, "inject-fault", NULL);
  g_assert_true (gtk_widget_get_visible (fault_error));
  gtk_editable_set_text (GTK_EDITABLE (code), "OutOfStock");
  g_assert_false (gtk_widget_get_visible (fault_error));
  /* Enter in the field injects */
  g_signal_emit_by_name (code, "entry-activated");
  winnow_test_wait_for_flush (session);
  event = winnow_test_find_event (session, WN_EV_INJECT, WN_PH_APPLIED, NULL, NULL);
  g_assert_nonnull (event);
  g_assert_nonnull (strstr (event->action, "OutOfStock"));

  /* a hang for the time typed; what is not a duration is said so */
  adw_combo_row_set_selected (ADW_COMBO_ROW (kind), 4);
  g_assert_true (gtk_widget_get_visible (duration));
  gtk_editable_set_text (GTK_EDITABLE (duration), "soon");
  winnow_test_activate (window, "inject-fault", NULL);
  g_assert_true (gtk_widget_get_visible (fault_error));
  gtk_editable_set_text (GTK_EDITABLE (duration), "7m");
  g_assert_false (gtk_widget_get_visible (fault_error));
  winnow_test_activate (window, "inject-fault", NULL);
  g_assert_false (gtk_widget_get_visible (fault_error));
  {
    GListModel *events = winnow_session_get_events (session);
    guint hangs = 0;

    for (guint i = 0; i < g_list_model_get_n_items (events); i++)
      {
        g_autoptr(WinnowEventRow) row = g_list_model_get_item (events, i);
        const WnEvent *e = winnow_event_row_get_event (row);

        if (e->kind == WN_EV_INJECT && strstr (e->action, "hang") != NULL)
          {
            g_assert_nonnull (strstr (e->action, "7m"));
            hangs++;
          }
      }
    g_assert_cmpuint (hangs, ==, 1);
  }
  close_window (window);
}

/* Injections wait in the fault panel until an execution takes them; Cancel
 * takes one back, the journal says so, the session records it and Step Back
 * brings it back (issue 16, polish). */
static void
test_pending_injections (void)
{
  WinnowWindow *window = open_window ("order-fulfilment.process.json");
  WinnowSession *session = winnow_window_get_session (window);
  GtkWidget *kind = winnow_test_find_named (GTK_WIDGET (window), "fault-kind");
  GtkWidget *code = winnow_test_find_named (GTK_WIDGET (window), "fault-code");
  GtkWidget *group = winnow_test_find_named (GTK_WIDGET (window), "pending-injections");
  GtkWidget *row;
  g_autofree char *saved = NULL;
  const WnEvent *event;

  winnow_session_set_selected_node (session, "reserve-stock");
  winnow_test_wait_for_flush (session);
  g_assert_false (gtk_widget_get_visible (group));
  adw_combo_row_set_selected (ADW_COMBO_ROW (kind), 3);    /* crash */
  winnow_test_activate (window, "inject-fault", NULL);
  adw_combo_row_set_selected (ADW_COMBO_ROW (kind), 0);    /* fail */
  gtk_editable_set_text (GTK_EDITABLE (code), "503");
  winnow_test_activate (window, "inject-fault", NULL);
  g_assert_true (gtk_widget_get_visible (group));
  row = winnow_test_find_named (group, "pending-injection-1");
  g_assert_nonnull (row);
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), ==, "crash");
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==,
                   "for the topic’s next execution · injected at T+00:00.000");
  g_assert_nonnull (winnow_test_find_named (group, "pending-injection-2"));
  winnow_test_settle (GTK_WIDGET (window));
  {
    GtkWidget *scroller = winnow_test_find_named (GTK_WIDGET (window), "inspector-scroller");
    GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));

    graphene_point_t at;

    /* the fault section from its top */
    g_assert_true (gtk_widget_compute_point (winnow_test_find_named (GTK_WIDGET (window), "fault-kind"),
                                             gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scroller)),
                                             &GRAPHENE_POINT_INIT (0, 0), &at));
    gtk_adjustment_set_value (adj, at.y - 60);
    winnow_test_settle (GTK_WIDGET (window));
    winnow_test_save_screenshot (scroller, "pending-injections.png");
  }

  /* another task's topic has none pending */
  winnow_session_set_selected_node (session, "authorize-payment");
  winnow_test_wait_for_flush (session);
  g_assert_false (gtk_widget_get_visible (group));
  winnow_session_set_selected_node (session, "reserve-stock");
  winnow_test_wait_for_flush (session);
  g_assert_true (gtk_widget_get_visible (group));

  /* Cancel on the crash: gone from the list, journalled, recorded */
  g_signal_emit_by_name (find_button (winnow_test_find_named (group, "pending-injection-1"), "_Cancel"), "clicked");
  winnow_test_wait_for_flush (session);
  g_assert_cmpuint (winnow_session_get_injections (session)->len, ==, 1);
  g_assert_null (winnow_test_find_named (group, "pending-injection-1"));
  g_assert_nonnull (winnow_test_find_named (group, "pending-injection-2"));
  event = winnow_test_find_event (session, WN_EV_INJECT, WN_PH_CANCELED, NULL, NULL);
  g_assert_nonnull (event);
  g_assert_cmpstr (event->action, ==, "crash");
  g_assert_true (winnow_session_has_unsaved_actions (session));
  saved = winnow_session_export_session (session);
  g_assert_nonnull (strstr (saved, "\"cancelInjection\""));
  /* an id no longer pending is refused, and says so */
  g_assert_false (winnow_session_cancel_injection (session, 1, NULL));

  /* Step Back goes to before the cancel: both wait again */
  winnow_test_activate (window, "step-back", NULL);
  winnow_test_wait_for_flush (session);
  g_assert_nonnull (winnow_test_find_named (group, "pending-injection-1"));
  g_assert_nonnull (winnow_test_find_named (group, "pending-injection-2"));
  close_window (window);
}

/* A small window can give the side panel's room to the diagram and take it
 * back: F9, the diagram's corner button, the menu (issue 16.11: collapse
 * the side panel). */
static void
test_side_panel_toggle (void)
{
  WinnowWindow *window = open_window ("order-fulfilment.process.json");
  GtkWidget *inspector = winnow_test_find_type (GTK_WIDGET (window), WINNOW_TYPE_INSPECTOR);
  GtkWidget *pane = winnow_test_find_type (GTK_WIDGET (window), WINNOW_TYPE_DIAGRAM_PANE);
  GtkWidget *toggle = winnow_test_find_named (GTK_WIDGET (window), "side-panel-toggle");
  g_autofree char **accels = NULL;
  g_autoptr(GVariant) state = NULL;
  int with_panel;

  accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.show-side-panel");
  g_assert_cmpstr (accels[0], ==, "F9");
  g_assert_true (gtk_widget_get_mapped (toggle));
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 640);
  winnow_test_settle (GTK_WIDGET (window));
  g_assert_true (gtk_widget_get_visible (inspector));
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (toggle)));
  with_panel = gtk_widget_get_width (pane);

  winnow_test_activate (window, "show-side-panel", NULL);
  winnow_test_settle (GTK_WIDGET (window));
  state = g_action_group_get_action_state (G_ACTION_GROUP (window), "show-side-panel");
  g_assert_false (g_variant_get_boolean (state));
  g_assert_false (gtk_widget_get_visible (inspector));
  g_assert_false (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (toggle)));
  g_test_message ("diagram %d px wide with the side panel, %d px without", with_panel, gtk_widget_get_width (pane));
  g_assert_cmpint (gtk_widget_get_width (pane), >, with_panel + 300);
  g_assert_cmpint (gtk_widget_get_width (pane), >=, gtk_widget_get_width (GTK_WIDGET (window)) - 20);
  winnow_test_save_screenshot (GTK_WIDGET (window), "side-panel-hidden.png");

  /* the corner button brings it back */
  g_signal_emit_by_name (toggle, "clicked");
  winnow_test_settle (GTK_WIDGET (window));
  g_assert_true (gtk_widget_get_visible (inspector));
  g_assert_cmpint (gtk_widget_get_width (pane), ==, with_panel);

  /* a narrow diagram: the legend wraps rather than run under the buttons */
  set_panes (window, 420, 340);
  {
    GtkWidget *legend = winnow_test_find_named (pane, "legend");
    graphene_rect_t a, b;

    g_assert_true (gtk_widget_compute_bounds (legend, pane, &a));
    g_assert_true (gtk_widget_compute_bounds (gtk_widget_get_parent (toggle), pane, &b));
    g_test_message ("legend %.0f–%.0f, buttons from %.0f, in %d px", a.origin.x, a.origin.x + a.size.width,
                    b.origin.x, gtk_widget_get_width (pane));
    g_assert_false (graphene_rect_intersection (&a, &b, NULL));
    g_assert_cmpfloat (a.origin.x + a.size.width, <=, gtk_widget_get_width (pane));
  }
  close_window (window);
}

/* A new selection shows from its top: the side panel does not keep the
 * scroll position the last one left. */
static void
test_inspector_scrolls_to_top (void)
{
  WinnowWindow *window = open_window ("order-fulfilment.process.json");
  WinnowSession *session = winnow_window_get_session (window);
  GtkScrolledWindow *scroller = GTK_SCROLLED_WINDOW (winnow_test_find_named (GTK_WIDGET (window), "inspector-scroller"));
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (scroller);

  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 640);
  winnow_session_set_selected_node (session, "authorize-payment");
  winnow_test_wait_for_flush (session);
  winnow_test_settle (GTK_WIDGET (window));
  /* the task's sections are taller than the panel at this size */
  g_assert_cmpfloat (gtk_adjustment_get_upper (adj), >, gtk_adjustment_get_page_size (adj));
  gtk_adjustment_set_value (adj, gtk_adjustment_get_upper (adj));
  g_assert_cmpfloat (gtk_adjustment_get_value (adj), >, 0);

  winnow_session_set_selected_node (session, "reserve-stock");
  winnow_test_wait_for_flush (session);
  winnow_test_settle (GTK_WIDGET (window));
  g_assert_cmpfloat (gtk_adjustment_get_value (adj), ==, 0);
  close_window (window);
}

/* ---- alerts ---- */

/* A new run takes the last run's alert toasts away: all at once, while the
 * first is on show and the next wait their turn. libadwaita 1.2 frees a
 * toast whose hide animation ends before its show animation, and the show
 * animation's end then touches it: dismissing the one on show first starts
 * the next one's show, dismissing that one at once ends its hide first. */
static void
test_alerts_restart (void)
{
  WinnowWindow *window = open_window ("incident-on-exhaustion.process.json");
  WinnowSession *session = winnow_window_get_session (window);

  fast_forward (window);
  g_assert_cmpint (winnow_session_get_next_time (session), ==, WN_TIME_NEVER);
  g_assert_cmpuint (winnow_session_get_incidents (session)->len, >, 0);
  /* the toasts come with the tabs' frame; then a new run at once */
  winnow_test_drain ();
  winnow_test_activate (window, "restart", NULL);
  g_assert_cmpint (winnow_session_get_now (session), ==, 0);
  /* past every animation: nothing touches a freed toast */
  winnow_test_settle (GTK_WIDGET (window));
  winnow_test_settle (GTK_WIDGET (window));
  g_assert_cmpint (winnow_session_get_now (session), ==, 0);
  close_window (window);
}

/* The close button of the toast on show (not one hiding), or NULL when
 * none shows. (libadwaita's toast widget is private: found by its name.) */
static GtkWidget *
toast_close_button (GtkWidget *root)
{
  GType toast_widget = g_type_from_name ("AdwToastWidget");

  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (toast_widget != 0 && G_TYPE_CHECK_INSTANCE_TYPE (child, toast_widget))
        {
          if (!gtk_widget_get_can_target (child))
            continue;
          for (found = gtk_widget_get_first_child (child); found != NULL; found = gtk_widget_get_next_sibling (found))
            if (GTK_IS_BUTTON (found) && gtk_widget_has_css_class (found, "circular"))
              return found;
          continue;
        }
      if ((found = toast_close_button (child)) != NULL)
        return found;
    }
  return NULL;
}

/* A new run just after an alert toast took over from another (the user
 * closed the process's about toast, or it timed out): libadwaita 1.2 gives
 * that toast a long show animation, and a hide begun at once ends first and
 * frees the toast the show's end then touches. The window waits for the
 * show before it takes the old run's toast away. */
static void
test_alerts_restart_after_replace (void)
{
  WinnowWindow *window = open_window ("order-fulfilment.process.json");
  WinnowSession *session = winnow_window_get_session (window);
  GtkWidget *close;

  /* the about toast shows; the run's alerts wait behind it */
  fast_forward (window);
  g_assert_cmpint (winnow_session_get_next_time (session), ==, WN_TIME_NEVER);
  winnow_test_drain ();
  close = toast_close_button (GTK_WIDGET (window));
  g_assert_nonnull (close);
  /* closed (a click: activating the button would click it 250 ms later):
   * the alert takes over, and a new run comes in the same moment */
  g_signal_emit_by_name (close, "clicked");
  close = toast_close_button (GTK_WIDGET (window));
  g_assert_nonnull (close);
  winnow_test_activate (window, "restart", NULL);
  g_assert_cmpint (winnow_session_get_now (session), ==, 0);
  /* past every animation: nothing touches a freed toast, and the old run's
   * alert has gone */
  winnow_test_settle (GTK_WIDGET (window));
  winnow_test_settle (GTK_WIDGET (window));
  g_assert_null (toast_close_button (GTK_WIDGET (window)));
  close_window (window);
}

/* ---- sessions replay headless ---- */

static char *
run_replay (const char *process,
            const char *scenario)
{
  const char *runner = g_getenv ("WINNOW_RUN");
  const char *argv[] = { runner, process, "--scenario", scenario, "--jsonl", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_assert_nonnull (runner);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error));
  g_assert_no_error (error);
  g_test_message ("winnow-run: exit %d; %s", status, err ? err : "");
  return g_steal_pointer (&out);
}

static void
compare_lines (const char *expected,
               const char *actual)
{
  g_auto(GStrv) a = g_strsplit (expected, "\n", -1);
  g_auto(GStrv) b = g_strsplit (actual, "\n", -1);

  for (guint i = 0; a[i] != NULL || b[i] != NULL; i++)
    {
      if (a[i] == NULL || b[i] == NULL || strcmp (a[i], b[i]) != 0)
        {
          g_test_message ("first difference at line %u:\n  app:    %s\n  replay: %s", i + 1,
                          a[i] ? a[i] : "(end)", b[i] ? b[i] : "(end)");
          break;
        }
      if (a[i] == NULL)
        break;
    }
  g_assert_cmpstr (expected, ==, actual);
}

/* The journal without clock events and sequence numbers. */
static char *
without_clock (const char *jsonl)
{
  g_auto(GStrv) lines = g_strsplit (jsonl, "\n", -1);
  GString *out = g_string_new (NULL);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *rest = strstr (lines[i], "\"t_us\"");

      if (*lines[i] == '\0' || strstr (lines[i], "\"kind\":\"clock\"") != NULL || rest == NULL)
        continue;
      g_string_append (out, rest);
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}

/* Speed, step and the default trust are settings-backed actions: the
 * actions write the settings, a setting changed elsewhere (another window,
 * dconf) reaches the session and the buttons, and a target the setting does
 * not take changes nothing. */
static void
test_settings_actions (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = source ? g_settings_schema_source_lookup (source, APPLICATION_ID, TRUE) : NULL;
  g_autoptr(GSettings) settings = NULL;
  g_autoptr(GVariant) state = NULL;
  g_autofree char *text = NULL;
  WinnowWindow *window;
  WinnowSession *session;
  WnTime before;

  if (schema == NULL)
    {
      g_test_skip ("the settings schema is not installed");
      return;
    }
  settings = g_settings_new (APPLICATION_ID);
  window = open_window ("order-fulfilment.process.json");
  session = winnow_window_get_session (window);

  winnow_test_activate (window, "set-speed", g_variant_new_string ("ff"));
  text = g_settings_get_string (settings, "set-speed");
  g_assert_cmpstr (text, ==, "ff");
  g_clear_pointer (&text, g_free);
  g_assert_cmpfloat (winnow_session_get_speed (session), ==, 0);

  g_settings_set_string (settings, "set-speed", "10");
  g_assert_cmpfloat (winnow_session_get_speed (session), ==, 10);
  state = g_action_group_get_action_state (G_ACTION_GROUP (window), "set-speed");
  g_assert_cmpstr (g_variant_get_string (state, NULL), ==, "10");
  g_clear_pointer (&state, g_variant_unref);

  /* not a speed the menu offers: refused, nothing changes */
  winnow_test_activate (window, "set-speed", g_variant_new_string ("-3"));
  g_assert_cmpfloat (winnow_session_get_speed (session), ==, 10);
  text = g_settings_get_string (settings, "set-speed");
  g_assert_cmpstr (text, ==, "10");
  g_clear_pointer (&text, g_free);

  /* the step set elsewhere is the step Step By takes */
  g_settings_set_string (settings, "set-step-delta", "10ms");
  before = winnow_session_get_now (session);
  winnow_test_activate (window, "step-by", NULL);
  g_assert_cmpint (winnow_session_get_now (session), ==, before + 10 * WN_USEC_PER_MSEC);
  winnow_test_activate (window, "set-step-delta", g_variant_new_string ("1m"));
  text = g_settings_get_string (settings, "set-step-delta");
  g_assert_cmpstr (text, ==, "1m");
  g_clear_pointer (&text, g_free);

  /* the default trust is a preference for the next file: the run keeps its own */
  winnow_test_activate (window, "default-trust", g_variant_new_string ("engineAuthoritative"));
  g_assert_cmpint (g_settings_get_enum (settings, "default-trust"), ==, WN_TRUST_ENGINE_AUTHORITATIVE);
  g_assert_cmpint (winnow_session_get_trust_default (session), ==, WN_TRUST_WORKER_TRUSTED);

  close_window (window);
  g_settings_reset (settings, "set-speed");
  g_settings_reset (settings, "set-step-delta");
  g_settings_reset (settings, "default-trust");
}

/* A run's trust choices belong to the run: the engine-wide trust (the run
 * panel's row) and a task's survive Restart, the row shows the effective
 * one, a saved session records them, and none of it touches the preference
 * for other files. Reload reads the files afresh. */
static void
test_restart_keeps_trust (void)
{
  WinnowWindow *window = open_window ("order-fulfilment.process.json");
  WinnowSession *session = winnow_window_get_session (window);
  AdwComboRow *row = ADW_COMBO_ROW (winnow_test_find_named (GTK_WIDGET (window), "run-trust"));
  g_autoptr(GVariant) preference = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *saved = NULL;
  g_autofree char *process = winnow_test_example_path ("order-fulfilment.process.json");
  g_autofree char *dir = NULL;
  g_autofree char *session_path = NULL;
  g_autofree char *journal = NULL;
  g_autofree char *replayed = NULL;
  WnEngine *engine;

  g_assert_nonnull (row);
  engine = winnow_session_get_engine (session);
  g_assert_cmpint (wn_engine_get_trust_default (engine), ==, WN_TRUST_WORKER_TRUSTED);
  g_assert_cmpint (wn_engine_get_task_trust (engine, "reserve-stock"), ==, WN_TRUST_UNSET);
  g_assert_cmpuint (adw_combo_row_get_selected (row), ==, 0);

  adw_combo_row_set_selected (row, 1);
  g_assert_cmpint (wn_engine_get_trust_default (engine), ==, WN_TRUST_ENGINE_AUTHORITATIVE);
  g_assert_true (winnow_session_set_task_trust (session, "reserve-stock", WN_TRUST_WORKER_TRUSTED, &error));
  g_assert_no_error (error);
  winnow_test_activate (window, "step-next", NULL);
  winnow_test_activate (window, "step-next", NULL);

  /* the row follows the run's trust whoever sets it (here the session, as a
   * replayed command does) */
  winnow_session_set_trust_default (session, WN_TRUST_WORKER_TRUSTED);
  winnow_test_settle (GTK_WIDGET (window));
  g_assert_cmpuint (adw_combo_row_get_selected (row), ==, 0);
  winnow_session_set_trust_default (session, WN_TRUST_ENGINE_AUTHORITATIVE);
  winnow_test_settle (GTK_WIDGET (window));
  g_assert_cmpuint (adw_combo_row_get_selected (row), ==, 1);

  winnow_test_activate (window, "restart", NULL);
  winnow_test_wait_for_flush (session);
  engine = winnow_session_get_engine (session);
  g_assert_cmpint (winnow_session_get_now (session), ==, 0);
  g_assert_cmpint (wn_engine_get_trust_default (engine), ==, WN_TRUST_ENGINE_AUTHORITATIVE);
  g_assert_cmpint (wn_engine_get_task_trust (engine, "reserve-stock"), ==, WN_TRUST_WORKER_TRUSTED);
  g_assert_cmpint (wn_engine_get_task_trust (engine, "authorize-payment"), ==, WN_TRUST_UNSET);
  g_assert_cmpuint (adw_combo_row_get_selected (row), ==, 1);

  /* the preference for files that set none is the menu's, not the run's */
  preference = g_action_group_get_action_state (G_ACTION_GROUP (window), "default-trust");
  g_assert_cmpstr (g_variant_get_string (preference, NULL), ==, "workerTrusted");

  /* a saved session carries them (as commands at T+0) */
  saved = winnow_session_export_session (session);
  g_assert_nonnull (strstr (saved, "\"engineAuthoritative\""));
  g_assert_nonnull (strstr (saved, "\"reserve-stock\""));

  /* and replays headless to the journal of the restarted run */
  fast_forward (window);
  winnow_session_flush (session);
  g_clear_pointer (&saved, g_free);
  saved = winnow_session_export_session (session);
  dir = g_dir_make_tmp ("winnow-trust-XXXXXX", &error);
  g_assert_no_error (error);
  session_path = g_build_filename (dir, "restarted.scenario.json", NULL);
  g_assert_true (g_file_set_contents (session_path, saved, -1, &error));
  g_assert_no_error (error);
  journal = winnow_session_get_journal_text (session, NULL);
  replayed = run_replay (process, session_path);
  compare_lines (journal, replayed);
  g_unlink (session_path);
  g_rmdir (dir);

  /* twice over: a restart of the restarted run keeps them too */
  winnow_test_activate (window, "restart", NULL);
  engine = winnow_session_get_engine (session);
  g_assert_cmpint (wn_engine_get_trust_default (engine), ==, WN_TRUST_ENGINE_AUTHORITATIVE);
  g_assert_cmpint (wn_engine_get_task_trust (engine, "reserve-stock"), ==, WN_TRUST_WORKER_TRUSTED);

  /* Reload runs what the files say */
  winnow_test_activate (window, "reload", NULL);
  engine = winnow_session_get_engine (session);
  g_assert_cmpint (wn_engine_get_trust_default (engine), ==, WN_TRUST_WORKER_TRUSTED);
  g_assert_cmpint (wn_engine_get_task_trust (engine, "reserve-stock"), ==, WN_TRUST_UNSET);
  g_assert_cmpuint (adw_combo_row_get_selected (row), ==, 0);

  close_window (window);
}

static void
test_session_round_trip (void)
{
  g_autofree char *process = winnow_test_example_path ("order-fulfilment.process.json");
  WinnowWindow *window = open_window ("order-fulfilment.process.json");
  WinnowSession *session = winnow_window_get_session (window);
  GtkWidget *variables = winnow_test_find_named (GTK_WIDGET (window), "variables");
  g_autofree char *dir = NULL;
  g_autofree char *session_path = NULL;
  g_autofree char *journal_path = NULL;
  g_autofree char *journal = NULL;
  g_autofree char *replayed = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GFile) session_file = NULL;
  g_autoptr(GFile) journal_file = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *original = NULL;
  g_autofree char *again = NULL;
  GListModel *bps;
  g_autoptr(WnBreakpointItem) bp = NULL;
  WnRunStats before, after;
  WnTime end;
  gint64 until;

  /* a few steps, a step by Δ, an injection, a trust change, a started
   * instance, a breakpoint stop, a short real-time play, then the rest */
  winnow_test_activate (window, "step-next", NULL);
  winnow_test_activate (window, "step-next", NULL);
  winnow_test_activate (window, "set-step-delta", g_variant_new_string ("100ms"));
  winnow_test_activate (window, "step-by", NULL);
  winnow_session_set_selected_node (session, "authorize-payment");
  winnow_test_wait_for_flush (session);
  adw_combo_row_set_selected (ADW_COMBO_ROW (winnow_test_find_named (GTK_WIDGET (window), "fault-kind")), 0);   /* fail */
  gtk_editable_set_text (GTK_EDITABLE (winnow_test_find_named (GTK_WIDGET (window), "fault-code")), "503");
  gtk_editable_set_text (GTK_EDITABLE (winnow_test_find_named (GTK_WIDGET (window), "fault-json")), "{\"reason\": \"maintenance\"}");
  winnow_test_activate (window, "inject-fault", NULL);
  adw_combo_row_set_selected (ADW_COMBO_ROW (winnow_test_find_named (GTK_WIDGET (window), "run-trust")), 1);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (variables)),
                            "{\"order\": {\"id\": \"B-9\", \"amount\": 20}}", -1);
  winnow_test_activate (window, "start-instance", NULL);
  winnow_test_activate (window, "step-next", NULL);
  winnow_test_activate (window, "add-breakpoint-spec", g_variant_new_string ("job.completed"));
  winnow_test_activate (window, "set-speed", g_variant_new_string ("ff"));
  play_until_paused (window);
  g_assert_cmpuint (winnow_session_get_hit (session, NULL), !=, 0);
  winnow_test_activate (window, "step-next", NULL);
  bps = winnow_session_get_breakpoints (session);
  g_assert_cmpuint (g_list_model_get_n_items (bps), ==, 1);
  bp = g_list_model_get_item (bps, 0);
  g_assert_true (winnow_session_remove_breakpoint (session, wn_breakpoint_item_get_id (bp)));

  /* play in real time (100×) for a moment: pause lands between events */
  winnow_test_activate (window, "set-speed", g_variant_new_string ("100"));
  winnow_test_activate (window, "play-pause", NULL);
  until = g_get_monotonic_time () + G_USEC_PER_SEC / 20;
  while (g_get_monotonic_time () < until && winnow_session_is_playing (session))
    g_main_context_iteration (NULL, FALSE);
  if (winnow_session_is_playing (session))
    winnow_test_activate (window, "play-pause", NULL);
  winnow_test_wait_for_flush (session);

  fast_forward (window);
  g_assert_cmpint (winnow_session_get_next_time (session), ==, WN_TIME_NEVER);

  /* File ▸ Save Session… and Export Journal… */
  dir = g_dir_make_tmp ("winnow-session-XXXXXX", &error);
  g_assert_no_error (error);
  session_path = g_build_filename (dir, "order-fulfilment-session.scenario.json", NULL);
  journal_path = g_build_filename (dir, "order-fulfilment.journal.jsonl", NULL);
  session_file = g_file_new_for_path (session_path);
  journal_file = g_file_new_for_path (journal_path);
  g_assert_true (winnow_window_save_session (window, session_file, &error));
  g_assert_no_error (error);
  g_assert_true (winnow_window_export_journal (window, journal_file, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (journal_path, &journal, NULL, &error));
  g_assert_no_error (error);
  g_assert_nonnull (strstr (journal, "\"kind\":\"clock\",\"phase\":\"stepped\""));
  g_assert_nonnull (strstr (journal, "\"kind\":\"inject\""));
  g_assert_nonnull (strstr (journal, "\"kind\":\"clock\",\"phase\":\"paused\""));

  /* headless, the saved session gives the very same journal */
  replayed = run_replay (process, session_path);
  compare_lines (journal, replayed);

  /* and File ▸ Open Scenario… runs it again in the app, to where it was
   * saved (here the run's end): the same run, the same journal */
  wn_engine_get_stats (winnow_session_get_engine (session), &before);
  end = winnow_session_get_now (session);
  g_assert_true (winnow_window_open_scenario (window, session_file));
  winnow_test_wait_for_flush (session);
  g_assert_cmpint (winnow_session_get_now (session), ==, end);
  g_assert_false (winnow_session_is_playing (session));
  wn_engine_get_stats (winnow_session_get_engine (session), &after);
  g_assert_cmpuint (after.instances, ==, before.instances);
  g_assert_cmpuint (after.completed, ==, before.completed);
  g_assert_cmpuint (after.terminated, ==, before.terminated);
  g_assert_cmpuint (after.executions, ==, before.executions);
  text = winnow_session_get_journal_text (session, NULL);
  compare_lines (journal, text);
  /* played again from there, nothing is left: the same events, and the
   * app's own play and pause on top */
  fast_forward (window);
  original = without_clock (journal);
  g_clear_pointer (&text, g_free);
  text = winnow_session_get_journal_text (session, NULL);
  again = without_clock (text);
  compare_lines (original, again);

  g_unlink (session_path);
  g_unlink (journal_path);
  g_rmdir (dir);
  close_window (window);
}

/* The Journal opens at the newest event after a run finished on another tab
 * (issue 16.16): the list is attached again when its tab shows, and the
 * list's jump back to its top then is no scroll of the user's. */
static void
test_journal_follows (void)
{
  WinnowWindow *window = open_window ("order-fulfilment.process.json");
  WinnowSession *session = winnow_window_get_session (window);
  GtkWidget *follow = NULL;
  GtkScrolledWindow *scroller;
  GtkAdjustment *adj;

  winnow_test_activate (window, "show-tab", g_variant_new_string ("journal"));
  for (guint i = 0; i < 6; i++)
    winnow_test_activate (window, "step-next", NULL);
  winnow_test_settle (GTK_WIDGET (window));
  scroller = GTK_SCROLLED_WINDOW (gtk_widget_get_ancestor (winnow_test_find_named (GTK_WIDGET (window), "journal-view"),
                                                           GTK_TYPE_SCROLLED_WINDOW));
  follow = winnow_test_find_named (GTK_WIDGET (window), "journal-follow");
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (follow)));

  for (guint round = 0; round < 3; round++)
    {
      /* the run goes on (and ends) while another tab shows */
      winnow_test_activate (window, "show-tab", g_variant_new_string (round % 2 ? "dispatcher" : "tracks"));
      winnow_test_settle (GTK_WIDGET (window));
      if (round == 0)
        fast_forward (window);
      else
        winnow_test_activate (window, "restart", NULL), fast_forward (window);
      winnow_test_activate (window, "show-tab", g_variant_new_string ("journal"));
      winnow_test_settle (GTK_WIDGET (window));

      adj = gtk_scrolled_window_get_vadjustment (scroller);
      g_test_message ("round %u: value %g, upper %g, page %g", round, gtk_adjustment_get_value (adj),
                      gtk_adjustment_get_upper (adj), gtk_adjustment_get_page_size (adj));
      g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (follow)));
      g_assert_cmpfloat (gtk_adjustment_get_upper (adj), >, 2 * gtk_adjustment_get_page_size (adj));
      g_assert_cmpfloat (gtk_adjustment_get_value (adj), >=,
                         gtk_adjustment_get_upper (adj) - gtk_adjustment_get_page_size (adj) - 4);
    }
  g_assert_cmpint (winnow_session_get_next_time (session), ==, WN_TIME_NEVER);
  save_content_screenshot (window, "journal-follows.png");
  close_window (window);
}

/* The breakpoint banner's title, or NULL when the banner is hidden. */
static const char *
banner_title (WinnowWindow *window)
{
  GtkWidget *title = winnow_test_find_named (GTK_WIDGET (window), "hit-title");

  if (!gtk_revealer_get_reveal_child (GTK_REVEALER (gtk_widget_get_ancestor (title, GTK_TYPE_REVEALER))))
    return NULL;
  return gtk_label_get_text (GTK_LABEL (title));
}

/* A session saved at a breakpoint reopens there (issue 16.12): its
 * breakpoints set again (enabled or not), the clock where it stood, the
 * stop announced, and the journal byte for byte the one exported when it
 * was saved. Headless, the same session replays that journal and runs on
 * to the run's end. */
static void
test_session_reopens_where_saved (void)
{
  g_autofree char *process = winnow_test_example_path ("order-fulfilment-authoritative.process.json");
  WinnowWindow *window = open_window ("order-fulfilment-authoritative.process.json");
  WinnowSession *session = winnow_window_get_session (window);
  WinnowWindow *again;
  WinnowSession *reopened;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("winnow-reopen-XXXXXX", &error);
  g_autofree char *session_path = g_build_filename (dir, "at-breakpoint.scenario.json", NULL);
  g_autofree char *journal_path = g_build_filename (dir, "at-breakpoint.journal.jsonl", NULL);
  g_autoptr(GFile) session_file = g_file_new_for_path (session_path);
  g_autoptr(GFile) journal_file = g_file_new_for_path (journal_path);
  g_autofree char *journal = NULL;
  g_autofree char *replayed = NULL;
  g_autofree char *text = NULL;
  g_autofree char *title = NULL;
  const WnBreakpoint *bps;
  WnTime saved_at;
  guint64 saved_after;
  guint n, disabled;

  g_assert_no_error (error);
  winnow_test_activate (window, "add-breakpoint-spec", g_variant_new_string ("node.entered@shipped"));
  disabled = winnow_session_find_breakpoint (session, WN_EV_NODE, WN_PH_ENTERED, "shipped");
  g_assert_true (winnow_session_enable_breakpoint (session, disabled, FALSE));
  winnow_test_activate (window, "add-breakpoint-spec", g_variant_new_string ("job.retriesExhausted"));
  winnow_test_activate (window, "step-next", NULL);
  winnow_test_activate (window, "start-instance", NULL);
  g_assert_true (winnow_session_has_unsaved_actions (session));
  fast_forward (window);
  g_assert_cmpuint (winnow_session_get_hit (session, NULL), !=, 0);
  title = g_strdup (banner_title (window));
  g_assert_nonnull (title);
  saved_at = winnow_session_get_now (session);
  saved_after = wn_scheduler_get_n_run (wn_engine_get_scheduler (winnow_session_get_engine (session)));

  g_assert_true (winnow_window_save_session (window, session_file, &error));
  g_assert_no_error (error);
  g_assert_false (winnow_session_has_unsaved_actions (session));
  g_assert_true (winnow_window_export_journal (window, journal_file, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (journal_path, &journal, NULL, &error));
  g_assert_no_error (error);

  /* headless: the exported journal, then the rest of the run */
  replayed = run_replay (process, session_path);
  g_assert_true (g_str_has_prefix (replayed, journal));
  g_assert_cmpuint (strlen (replayed), >, strlen (journal));

  /* a new window opens it where it was saved */
  again = open_window ("order-fulfilment-authoritative.process.json");
  reopened = winnow_window_get_session (again);
  g_assert_true (winnow_window_open_scenario (again, session_file));
  winnow_test_wait_for_flush (reopened);
  winnow_test_settle (GTK_WIDGET (again));
  g_assert_false (winnow_session_is_playing (reopened));
  g_assert_cmpint (winnow_session_get_now (reopened), ==, saved_at);
  g_assert_cmpuint (wn_scheduler_get_n_run (wn_engine_get_scheduler (winnow_session_get_engine (reopened))), ==,
                    saved_after);
  /* (the engine's breakpoints: the session's are those) */
  bps = wn_engine_get_breakpoints (winnow_session_get_engine (reopened), &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpint (bps[0].kind, ==, WN_EV_NODE);
  g_assert_cmpstr (bps[0].node, ==, "shipped");
  g_assert_false (bps[0].enabled);
  g_assert_cmpint (bps[1].phase, ==, WN_PH_RETRIES_EXHAUSTED);
  g_assert_true (bps[1].enabled);
  g_assert_cmpuint (bps[1].hits, ==, 1);
  g_assert_cmpuint (wn_engine_get_last_hit (winnow_session_get_engine (reopened), NULL), ==, bps[1].id);
  g_assert_cmpuint (winnow_session_get_hit (reopened, NULL), !=, 0);
  g_assert_cmpstr (banner_title (again), ==, title);
  text = winnow_session_get_journal_text (reopened, NULL);
  compare_lines (journal, text);
  g_assert_false (winnow_session_has_unsaved_actions (reopened));
  save_content_screenshot (again, "session-reopened.png");

  g_unlink (session_path);
  g_unlink (journal_path);
  g_rmdir (dir);
  close_window (again);
  close_window (window);
}

static GtkWidget *
find_toplevel (const char *name)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) widget = g_list_model_get_item (toplevels, i);

      if (g_strcmp0 (gtk_widget_get_name (widget), name) == 0 && gtk_widget_get_visible (widget))
        return widget;
    }
  return NULL;
}

/* Closing a window (Ctrl+W, or Ctrl+Q for all of them) with operator actions
 * not saved asks first (issue 16.12): Cancel keeps it, Discard closes it; a
 * run with nothing to save, or just saved, closes at once. */
static void
test_close_asks_to_save (void)
{
  WinnowWindow *window = open_window ("order-fulfilment.process.json");
  WinnowWindow *plain = open_window ("order-fulfilment.process.json");
  GtkWidget *prompt;
  g_autofree char *heading = NULL;

  /* play and steps alone are nothing to save */
  g_object_add_weak_pointer (G_OBJECT (plain), (gpointer *) &plain);
  winnow_test_activate (plain, "step-next", NULL);
  gtk_window_close (GTK_WINDOW (plain));
  winnow_test_drain ();
  g_assert_null (plain);
  g_assert_null (find_toplevel ("close-prompt"));

  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
  winnow_test_activate (window, "start-instance", NULL);
  gtk_window_close (GTK_WINDOW (window));
  winnow_test_drain ();
  g_assert_nonnull (window);
  prompt = find_toplevel ("close-prompt");
  g_assert_true (ADW_IS_MESSAGE_DIALOG (prompt));
  g_object_get (prompt, "heading", &heading, NULL);
  g_assert_cmpstr (heading, ==, "Save the Session?");
  g_assert_true (adw_message_dialog_has_response (ADW_MESSAGE_DIALOG (prompt), "save"));
  winnow_test_settle (prompt);
  winnow_test_save_screenshot (prompt, "close-prompt.png");
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (prompt), "cancel");
  winnow_test_drain ();
  g_assert_nonnull (window);

  gtk_window_close (GTK_WINDOW (window));
  winnow_test_drain ();
  prompt = find_toplevel ("close-prompt");
  g_assert_nonnull (prompt);
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (prompt), "discard");
  winnow_test_drain ();
  g_assert_null (window);
}

/* F10 steps, and the primary menu stays reachable from the keyboard: Ctrl+F10
 * opens it (issue 16, polish). */
static void
test_primary_menu_key (void)
{
  WinnowWindow *window = open_window ("order-fulfilment.process.json");
  GtkWidget *button = winnow_test_find_named (GTK_WIDGET (window), "primary-menu-button");
  g_auto(GStrv) step = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.step-next");
  g_auto(GStrv) menu = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.show-primary-menu");
  GtkPopover *popover;

  g_assert_cmpstr (step[0], ==, "F10");
  g_assert_nonnull (menu[0]);
  g_assert_cmpstr (menu[0], ==, "<Control>F10");
  g_assert_true (GTK_IS_MENU_BUTTON (button));
  winnow_test_activate (window, "show-primary-menu", NULL);
  winnow_test_settle (GTK_WIDGET (window));
  popover = gtk_menu_button_get_popover (GTK_MENU_BUTTON (button));
  g_assert_nonnull (popover);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (popover)));
  winnow_test_save_screenshot (GTK_WIDGET (window), "primary-menu.png");
  gtk_menu_button_popdown (GTK_MENU_BUTTON (button));
  close_window (window);
}

/* ---- the timeline ---- */

static void
test_timeline (void)
{
  WinnowWindow *window = open_window ("order-fulfilment-authoritative.process.json");
  WinnowSession *session = winnow_window_get_session (window);
  WinnowTimeline *timeline = WINNOW_TIMELINE (winnow_test_find_named (GTK_WIDGET (window), "WinnowTimeline"));
  WinnowTrace *trace = winnow_session_get_trace (session);
  WinnowJobTrace *job;
  WnTime start, end;
  guint lanes, items, n_lanes;

  winnow_test_activate (window, "show-tab", g_variant_new_string ("timeline"));
  set_panes (window, 330, 960);
  fast_forward (window);
  winnow_test_settle (GTK_WIDGET (window));

  /* 3 instances, 2 jobs each: 9 lanes */
  winnow_trace_get_lanes (trace, &n_lanes);
  g_assert_cmpuint (n_lanes, ==, 9);
  job = winnow_trace_lookup_job (trace, "i1/j2");
  g_assert_nonnull (job);
  g_assert_cmpuint (job->executions->len, ==, 3);
  g_assert_cmpuint (job->gates->len, ==, 2);
  g_assert_cmpint (g_array_index (job->marks, WinnowMark, job->marks->len - 1).kind, ==, WINNOW_MARK_EXHAUSTED);

  /* fit shows the whole run */
  g_assert_true (winnow_timeline_get_fit (timeline));
  winnow_timeline_get_range (timeline, &start, &end);
  g_assert_cmpint (start, ==, 0);
  g_assert_cmpint (end, >=, winnow_trace_get_end (trace));
  winnow_timeline_get_drawn (timeline, &lanes, &items);
  g_assert_cmpuint (lanes, ==, 9);
  g_assert_cmpuint (items, >, 20);

  winnow_session_set_selected_job (session, "i2/j2");
  winnow_test_wait_for_flush (session);
  winnow_test_settle (GTK_WIDGET (window));
  save_content_screenshot (window, "timeline.png");

  /* zoom in around the middle: the range narrows, fit is off */
  winnow_timeline_zoom (timeline, 4, -1);
  winnow_timeline_get_range (timeline, &start, &end);
  g_assert_false (winnow_timeline_get_fit (timeline));
  g_assert_cmpint (start, >, 0);
  g_assert_cmpint (end - start, <, winnow_trace_get_end (trace) / 2);
  winnow_test_activate (window, "timeline-zoom", g_variant_new_int32 (0));
  g_assert_true (winnow_timeline_get_fit (timeline));
  close_window (window);
}

/* The flaky-service example with `instances` orders, run to its end with
 * the Timeline tab shown (10⁴ of them take long on a busy machine). */
static WinnowWindow *
open_many_on_timeline (guint instances)
{
  g_autofree char *path = winnow_test_example_path ("flaky-service.process.json");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  WinnowWindow *window = winnow_window_new (GTK_APPLICATION (app));

  winnow_window_set_instances (window, instances);
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);
  gtk_window_present (GTK_WINDOW (window));
  winnow_test_settle (GTK_WIDGET (window));
  g_assert_true (winnow_window_open_file (window, file));
  winnow_test_activate (window, "show-tab", g_variant_new_string ("timeline"));
  winnow_test_activate (window, "set-speed", g_variant_new_string ("ff"));
  play_until_paused_within (window, MAX (WAIT_US, (gint64) instances * 20000));
  winnow_test_settle (GTK_WIDGET (window));
  return window;
}

/* Thousands of lanes: only what shows is drawn. */
static void
test_timeline_many (void)
{
  WinnowWindow *window = open_many_on_timeline (3000);
  WinnowSession *session = winnow_window_get_session (window);
  WinnowTimeline *timeline = WINNOW_TIMELINE (winnow_test_find_named (GTK_WIDGET (window), "WinnowTimeline"));
  GtkScrolledWindow *scroller;
  GtkAdjustment *adj;
  guint lanes, n_lanes;
  gint64 started, took;

  winnow_trace_get_lanes (winnow_session_get_trace (session), &n_lanes);
  g_assert_cmpuint (n_lanes, >=, 6000);
  /* 3000 instances are aggregated by themselves; the button says so, and
   * turns the lanes on */
  {
    GtkToggleButton *aggregate = GTK_TOGGLE_BUTTON (winnow_test_find_named (GTK_WIDGET (window), "aggregate"));

    g_assert_true (winnow_timeline_get_aggregated (timeline));
    g_assert_true (gtk_toggle_button_get_active (aggregate));
    gtk_toggle_button_set_active (aggregate, FALSE);
    g_assert_false (winnow_timeline_get_aggregated (timeline));
    g_assert_cmpint (winnow_timeline_get_view (timeline), ==, WINNOW_TIMELINE_VIEW_LANES);
    winnow_test_settle (GTK_WIDGET (window));
  }
  scroller = GTK_SCROLLED_WINDOW (gtk_widget_get_ancestor (GTK_WIDGET (timeline), GTK_TYPE_SCROLLED_WINDOW));
  adj = gtk_scrolled_window_get_vadjustment (scroller);
  g_assert_cmpfloat (gtk_adjustment_get_upper (adj), >=, (double) n_lanes * WINNOW_TIMELINE_LANE_HEIGHT);

  /* scroll to the middle and draw */
  gtk_adjustment_set_value (adj, gtk_adjustment_get_upper (adj) / 2);
  started = g_get_monotonic_time ();
  winnow_test_settle (GTK_WIDGET (window));
  winnow_test_save_screenshot (GTK_WIDGET (timeline), "timeline-many.png");
  took = g_get_monotonic_time () - started;
  winnow_timeline_get_drawn (timeline, &lanes, NULL);
  g_test_message ("%u lanes, %u drawn, %" G_GINT64_FORMAT " ms", n_lanes, lanes, took / 1000);
  g_assert_cmpuint (lanes, >, 0);
  g_assert_cmpuint (lanes, <=, gtk_widget_get_height (GTK_WIDGET (timeline)) / WINNOW_TIMELINE_LANE_HEIGHT + 2);
  close_window (window);
}

/* The timeline's work for one frame, in µs: its snapshot (the aggregate
 * counted again, as while a run plays) in snap[i], and the render of the
 * node in render[i]. */
static void
timeline_frame_us (WinnowTimeline *timeline,
                   WnTime          now,
                   gint64         *snap,
                   gint64         *render)
{
  GtkWidget *widget = GTK_WIDGET (timeline);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  gint64 started = g_get_monotonic_time ();

  winnow_timeline_update (timeline, now);
  GTK_WIDGET_GET_CLASS (widget)->snapshot (widget, snapshot);
  node = gtk_snapshot_free_to_node (snapshot);
  *snap = g_get_monotonic_time () - started;
  g_assert_nonnull (node);
  started = g_get_monotonic_time ();
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (widget),
                                                              gtk_widget_get_height (widget)));
  *render = g_get_monotonic_time () - started;
}

static int
compare_gint64 (gconstpointer a,
                gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

/* The medians of 21 frames, and their ranges (a figure, not a limit). */
static void
timeline_frames (WinnowTimeline *timeline,
                 WnTime          now,
                 const char     *what)
{
  gint64 snap[21], render[21];
  guint n = G_N_ELEMENTS (snap);

  for (guint i = 0; i < n; i++)
    timeline_frame_us (timeline, now, &snap[i], &render[i]);
  qsort (snap, n, sizeof snap[0], compare_gint64);
  qsort (render, n, sizeof render[0], compare_gint64);
  g_test_message ("timeline frame, %s: snapshot median %.2f ms (%.2f to %.2f), render of the node "
                  "median %.2f ms (%.2f to %.2f)", what, snap[n / 2] / 1000.0, snap[0] / 1000.0,
                  snap[n - 1] / 1000.0, render[n / 2] / 1000.0, render[0] / 1000.0, render[n - 1] / 1000.0);
}

/* 10⁴ orders (issue 21): not 20,000 lanes but rows of counts over time,
 * which add up to what the run did; the user can go back to the lanes. */
static void
test_timeline_aggregate (void)
{
  WinnowWindow *window = open_many_on_timeline (10000);
  WinnowSession *session = winnow_window_get_session (window);
  WinnowTimeline *timeline = WINNOW_TIMELINE (winnow_test_find_named (GTK_WIDGET (window), "WinnowTimeline"));
  GtkToggleButton *aggregate = GTK_TOGGLE_BUTTON (winnow_test_find_named (GTK_WIDGET (window), "aggregate"));
  g_autoptr(WinnowAggregate) counts = winnow_aggregate_new ();
  WnTime now;
  guint lanes, items, n_lanes;
  double peak;
  const double *active;

  now = winnow_session_get_now (session);

  winnow_trace_get_lanes (winnow_session_get_trace (session), &n_lanes);
  g_assert_cmpuint (n_lanes, >=, 20000);
  g_assert_true (winnow_timeline_get_aggregated (timeline));
  g_assert_true (gtk_toggle_button_get_active (aggregate));
  winnow_test_save_screenshot (GTK_WIDGET (timeline), "timeline-aggregate.png");
  winnow_test_save_screenshot (GTK_WIDGET (window), "timeline-aggregate-window.png");
  winnow_timeline_get_drawn (timeline, &lanes, &items);
  /* the instances' row and the quote task's three */
  g_assert_cmpuint (lanes, ==, 4);
  g_assert_cmpuint (items, >, 0);
  g_assert_cmpuint (items, <=, 4 * gtk_widget_get_width (GTK_WIDGET (timeline)));

  /* the counts: every order active from t = 0, none at the end */
  /* figures: folding the whole trace (a travel's frame) and counting it
   * again (a frame while zooming or panning) */
  {
    gint64 copy[11], count[11];

    for (guint i = 0; i < G_N_ELEMENTS (copy); i++)
      {
        g_autoptr(WinnowAggregate) fresh = winnow_aggregate_new ();
        gint64 started = g_get_monotonic_time ();

        winnow_aggregate_compute (fresh, winnow_session_get_trace (session), 0, 1000, 1200, now);
        copy[i] = g_get_monotonic_time () - started;
        started = g_get_monotonic_time ();
        winnow_aggregate_compute (fresh, winnow_session_get_trace (session), 0, 2000, 1200, now);
        count[i] = g_get_monotonic_time () - started;
      }
    qsort (copy, G_N_ELEMENTS (copy), sizeof copy[0], compare_gint64);
    qsort (count, G_N_ELEMENTS (count), sizeof count[0], compare_gint64);
    g_test_message ("aggregate of 10^4 instances: folded and counted median %.2f ms (%.2f to %.2f), "
                    "counted again median %.2f ms (%.2f to %.2f)", copy[5] / 1000.0, copy[0] / 1000.0,
                    copy[10] / 1000.0, count[5] / 1000.0, count[0] / 1000.0, count[10] / 1000.0);
  }
  winnow_aggregate_compute (counts, winnow_session_get_trace (session), 0, 1000, (guint) (now / 1000) + 1, now);
  g_assert_cmpuint (winnow_aggregate_get_n_rows (counts), ==, 4);
  g_assert_cmpstr (winnow_aggregate_row_task (counts, 1), ==, "quote");
  active = winnow_aggregate_row_counts (counts, 0, &peak);
  g_assert_cmpfloat (active[0], ==, 10000);
  g_assert_cmpfloat (peak, ==, 10000);
  g_assert_cmpfloat (active[now / 1000], <=, 1);
  /* executions in progress: never more than the worker's 50 slots */
  winnow_aggregate_row_counts (counts, 1, &peak);
  g_assert_cmpfloat (peak, >, 40);
  g_assert_cmpfloat (peak, <=, 50.0001);
  /* failed attempts are points: they add up to the technical faults */
  {
    const double *failed = winnow_aggregate_row_counts (counts, 3, NULL);
    WnRunStats stats;
    double sum = 0;

    for (guint c = 0; c < winnow_aggregate_get_n_columns (counts); c++)
      sum += failed[c];
    wn_engine_get_stats (winnow_session_get_engine (session), &stats);
    g_assert_cmpfloat (sum, ==, (double) (stats.retries + stats.exhausted));
  }
  timeline_frames (timeline, now, "10^4 instances, aggregated");

  /* the lanes on demand, the aggregate again */
  gtk_toggle_button_set_active (aggregate, FALSE);
  winnow_test_settle (GTK_WIDGET (window));
  g_assert_false (winnow_timeline_get_aggregated (timeline));
  winnow_timeline_get_drawn (timeline, &lanes, NULL);
  g_assert_cmpuint (lanes, >, 4);
  timeline_frames (timeline, now, "10^4 instances, lanes");
  gtk_toggle_button_set_active (aggregate, TRUE);
  g_assert_true (winnow_timeline_get_aggregated (timeline));
  close_window (window);
}

/* Time travel as a new user tries it (issue 22): run the worked example to
 * its end, go back to a job's second retry (its journal row), step back once
 * more, scrub on the timeline's ruler, inject a crash there and run on. */
static void
test_time_travel (void)
{
  WinnowWindow *window = open_window ("order-fulfilment.process.json");
  WinnowSession *session = winnow_window_get_session (window);
  WinnowTimeline *timeline = WINNOW_TIMELINE (winnow_test_find_named (GTK_WIDGET (window), "WinnowTimeline"));
  GListModel *events = winnow_session_get_events (session);
  g_autoptr(WnResponse) crash = wn_response_new_crash ();
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.step-back");
  guint64 end, second = 0, seq;
  guint retries = 0;

  g_assert_cmpstr (accels[0], ==, "<Shift>F10");
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "step-back"));
  fast_forward (window);
  end = wn_journal_get_n_events (wn_engine_get_journal (winnow_session_get_engine (session)));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "step-back"));

  /* i1/j1's second retry, as its journal row says */
  for (guint i = 0; i < g_list_model_get_n_items (events) && second == 0; i++)
    {
      g_autoptr(WinnowEventRow) row = g_list_model_get_item (events, i);
      const WnEvent *ev = winnow_event_row_get_event (row);

      if (ev->phase == WN_PH_WORKER_RETRY_SCHEDULED && g_strcmp0 (ev->job, "i1/j1") == 0 && ++retries == 2)
        second = ev->seq;
    }
  g_assert_cmpuint (second, >, 0);
  winnow_test_activate (window, "show-tab", g_variant_new_string ("journal"));
  winnow_test_activate (window, "go-to-event", g_variant_new_uint64 (second));
  g_assert_true (winnow_session_is_in_past (session));
  seq = wn_journal_get_n_events (wn_engine_get_journal (winnow_session_get_engine (session)));
  g_assert_cmpuint (seq, >=, second);
  g_assert_cmpuint (seq, <, end);
  g_assert_cmpuint (g_list_model_get_n_items (events), ==, seq);
  g_assert_cmpuint (winnow_session_get_travel_end (session), ==, end);
  winnow_session_set_selected_job (session, "i1/j1");
  winnow_test_wait_for_flush (session);
  winnow_test_save_screenshot (adw_application_window_get_content (ADW_APPLICATION_WINDOW (window)), "travel-retry.png");

  /* Step Back: right after the step before */
  winnow_test_activate (window, "step-back", NULL);
  g_assert_cmpuint (wn_journal_get_n_events (wn_engine_get_journal (winnow_session_get_engine (session))), <, second);

  /* the ruler: a press goes to that instant, earlier or later */
  winnow_test_activate (window, "show-tab", g_variant_new_string ("timeline"));
  g_signal_emit_by_name (timeline, "seek", (gint64) 150 * WN_USEC_PER_MSEC);
  winnow_test_wait_for_flush (session);
  g_assert_cmpint (winnow_session_get_now (session), ==, 150 * WN_USEC_PER_MSEC);
  g_signal_emit_by_name (timeline, "seek", (gint64) 300 * WN_USEC_PER_MSEC);
  winnow_test_wait_for_flush (session);
  g_assert_cmpint (winnow_session_get_now (session), ==, 300 * WN_USEC_PER_MSEC);
  winnow_test_activate (window, "go-to-time", g_variant_new_string ("T+00:00.200"));
  g_assert_cmpint (winnow_session_get_now (session), ==, 200 * WN_USEC_PER_MSEC);
  winnow_test_settle (GTK_WIDGET (window));
  winnow_test_save_screenshot (adw_application_window_get_content (ADW_APPLICATION_WINDOW (window)), "travel-timeline.png");

  /* run to the next retry of any job, then of the selected one */
  winnow_test_activate (window, "run-to", g_variant_new_string ("job.workerRetryScheduled"));
  g_assert_cmpint (winnow_test_find_event (session, WN_EV_JOB, WN_PH_WORKER_RETRY_SCHEDULED, NULL, NULL)->seq, >, 0);
  winnow_test_activate (window, "run-to", g_variant_new_string ("job"));
  g_assert_true (winnow_session_is_in_past (session));

  /* a crash for the inventory worker there: the rest of the old run goes */
  g_assert_true (winnow_session_inject (session, NULL, "inventory", crash, &error));
  g_assert_no_error (error);
  g_assert_false (winnow_session_is_in_past (session));
  fast_forward (window);
  g_assert_nonnull (winnow_test_find_event (session, WN_EV_INJECT, WN_PH_APPLIED, NULL, NULL));
  winnow_test_activate (window, "show-tab", g_variant_new_string ("instances"));
  winnow_test_settle (GTK_WIDGET (window));
  winnow_test_save_screenshot (adw_application_window_get_content (ADW_APPLICATION_WINDOW (window)), "travel-crash.png");

  /* two branches: the run as it went, and the crash */
  g_assert_cmpuint (winnow_session_get_n_branches (session), ==, 2);
  g_assert_cmpuint (winnow_session_get_current_branch (session), ==, 1);
  winnow_test_activate (window, "show-branches", NULL);
  {
    GList *toplevels = gtk_window_list_toplevels ();
    GtkWidget *dialog = NULL;
    GtkWidget *button;

    for (GList *l = toplevels; l != NULL; l = l->next)
      if (ADW_IS_MESSAGE_DIALOG (l->data))
        dialog = l->data;
    g_list_free (toplevels);
    g_assert_nonnull (dialog);
    winnow_test_settle (dialog);
    winnow_test_save_screenshot (dialog, "travel-branches.png");
    /* its Switch button closes it and shows the other branch */
    button = find_button (dialog, "Switch");
    g_assert_nonnull (button);
    g_assert_true (gtk_widget_is_sensitive (button));
    g_signal_emit_by_name (button, "clicked");
    winnow_test_wait_for_flush (session);
  }
  g_assert_cmpuint (winnow_session_get_current_branch (session), ==, 0);
  g_assert_null (winnow_test_find_event (session, WN_EV_INJECT, WN_PH_APPLIED, NULL, NULL));
  g_assert_cmpuint (wn_journal_get_n_events (wn_engine_get_journal (winnow_session_get_engine (session))), ==, end);
  winnow_test_settle (GTK_WIDGET (window));
  winnow_test_save_screenshot (adw_application_window_get_content (ADW_APPLICATION_WINDOW (window)),
                               "travel-parent.png");
  close_window (window);
}

int
main (int argc, char **argv)
{
  int status;

  wn_test_require_display ("test-debugger");
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

  app = winnow_application_new ();
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));

  g_test_add_func ("/app/Debugger/breakpoint", test_breakpoint_stops);
  g_test_add_func ("/app/Debugger/breakpoint-node", test_breakpoint_node);
  g_test_add_func ("/app/Debugger/breakpoint-engine-model", test_breakpoint_engine_model);
  g_test_add_func ("/app/Debugger/inspector-rule", test_inspector_rule);
  g_test_add_func ("/app/Debugger/inspector-running", test_inspector_running);
  g_test_add_func ("/app/Debugger/incident-retry", test_incident_retry);
  g_test_add_func ("/app/Debugger/bad-input", test_bad_input);
  g_test_add_func ("/app/Debugger/fault-fields", test_fault_fields);
  g_test_add_func ("/app/Debugger/pending-injections", test_pending_injections);
  g_test_add_func ("/app/Debugger/side-panel-toggle", test_side_panel_toggle);
  g_test_add_func ("/app/Debugger/inspector-scrolls-to-top", test_inspector_scrolls_to_top);
  g_test_add_func ("/app/Debugger/alerts-restart", test_alerts_restart);
  g_test_add_func ("/app/Debugger/alerts-restart-after-replace", test_alerts_restart_after_replace);
  g_test_add_func ("/app/Debugger/settings-actions", test_settings_actions);
  g_test_add_func ("/app/Debugger/restart-keeps-trust", test_restart_keeps_trust);
  g_test_add_func ("/app/Debugger/session-round-trip", test_session_round_trip);
  g_test_add_func ("/app/Debugger/journal-follows", test_journal_follows);
  g_test_add_func ("/app/Debugger/primary-menu-key", test_primary_menu_key);
  g_test_add_func ("/app/Debugger/session-reopens-where-saved", test_session_reopens_where_saved);
  g_test_add_func ("/app/Debugger/close-asks-to-save", test_close_asks_to_save);
  g_test_add_func ("/app/Debugger/timeline", test_timeline);
  g_test_add_func ("/app/Debugger/timeline-many", test_timeline_many);
  g_test_add_func ("/app/Debugger/timeline-aggregate", test_timeline_aggregate);
  g_test_add_func ("/app/Debugger/time-travel", test_time_travel);
  status = g_test_run ();
  g_clear_object (&app);
  return status;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Summary tab: the run's figures as the policy lab counts them, equal to
 * the engine's totals; it follows the run while shown, the histogram holds
 * every completed instance and its tooltip names the bar and the marks.
 * And the Instances tab's search, state filter and durations. Leaves
 * summary.png and instances-filter.png here. */
#include "config.h"

#include <string.h>

#include "winnow-app-test.h"
#include "winnow-instances-page.h"
#include "winnow-instance-row.h"
#include "winnow-lab-histogram.h"
#include "winnow-table-view.h"
#include "winnow-summary-page.h"

static void
test_summary_run (void)
{
  g_autofree char *path = winnow_test_example_path ("order-fulfilment.process.json");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  WinnowWindow *window = winnow_window_new (NULL);
  WinnowSession *session = winnow_window_get_session (window);
  WinnowSummaryPage *page;
  WinnowLabHistogram *histogram;
  const WnLabSummary *summary;
  WnLabSeedStats t;
  WnRunStats run;
  g_autoptr(GPtrArray) ends = NULL;
  g_autofree char *tip = NULL;
  guint64 ended = 0;
  gint64 start;

  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);
  gtk_window_present (GTK_WINDOW (window));
  winnow_test_settle (GTK_WIDGET (window));
  page = WINNOW_SUMMARY_PAGE (winnow_test_find_type (GTK_WIDGET (window), WINNOW_TYPE_SUMMARY_PAGE));
  g_assert_nonnull (page);
  histogram = WINNOW_LAB_HISTOGRAM (winnow_test_find_type (GTK_WIDGET (page), WINNOW_TYPE_LAB_HISTOGRAM));
  g_assert_nonnull (histogram);

  /* nothing open: nothing counted */
  winnow_summary_page_update (page);
  g_assert_null (winnow_summary_page_get_summary (page));

  g_assert_true (winnow_window_open_file (window, file));
  winnow_test_wait_for_flush (session);
  adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (gtk_widget_get_ancestor (GTK_WIDGET (page), ADW_TYPE_VIEW_STACK)),
                                         "summary");
  winnow_test_settle (GTK_WIDGET (window));
  g_assert_nonnull (winnow_summary_page_get_summary (page));

  /* while shown, the page follows the run without being asked */
  winnow_test_activate (window, "set-speed", g_variant_new_string ("ff"));
  winnow_test_activate (window, "play-pause", NULL);
  while (winnow_session_is_playing (session))
    g_main_context_iteration (NULL, TRUE);
  winnow_test_wait_for_flush (session);
  start = g_get_monotonic_time ();
  wn_engine_get_stats (winnow_session_get_engine (session), &run);
  g_assert_cmpuint (run.completed, >, 0);
  while (g_get_monotonic_time () - start < WINNOW_TEST_WAIT_US)
    {
      summary = winnow_summary_page_get_summary (page);
      wn_lab_summary_get_totals (summary, &t);
      if (t.executions == run.executions && t.completed == run.completed)
        break;
      g_main_context_iteration (NULL, TRUE);
    }

  summary = winnow_summary_page_get_summary (page);
  wn_lab_summary_get_totals (summary, &t);
  g_assert_cmpuint (t.instances, ==, run.instances);
  g_assert_cmpuint (t.completed, ==, run.completed);
  g_assert_cmpuint (t.terminated, ==, run.terminated);
  g_assert_cmpuint (t.incidents, ==, run.incidents);
  g_assert_cmpuint (t.executions, ==, run.executions);
  g_assert_cmpuint (t.retries, ==, run.retries);
  g_assert_cmpuint (t.exhausted, ==, run.exhausted);
  ends = wn_lab_summary_get_ends (summary);
  for (guint i = 0; i < ends->len; i++)
    ended += wn_lab_summary_get_end_count (summary, g_ptr_array_index (ends, i));
  g_assert_cmpuint (ended, ==, run.completed);

  /* every completed instance is in a bar; the tooltip says which and the marks */
  g_assert_cmpuint (winnow_lab_histogram_get_total (histogram), ==, run.completed);
  g_assert_cmpuint (winnow_lab_histogram_get_n_bars (histogram), >=, WINNOW_LAB_HISTOGRAM_BARS_PER_DECADE);
  winnow_test_settle (GTK_WIDGET (window));
  tip = winnow_lab_histogram_describe_at (histogram, gtk_widget_get_width (GTK_WIDGET (histogram)) / 2.0);
  g_assert_nonnull (tip);
  g_assert_nonnull (strstr (tip, "p99"));
  g_assert_null (winnow_lab_histogram_describe_at (histogram, 1.0));

  winnow_test_save_screenshot (GTK_WIDGET (window), "summary.png");
  gtk_window_destroy (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* Until the table shows `n` rows (a search entry waits a moment). */
static void
wait_for_rows (WinnowLiveTable *table,
               guint            n)
{
  gint64 start = g_get_monotonic_time ();

  while (winnow_live_table_get_n_matching (table) != n && g_get_monotonic_time () - start < WINNOW_TEST_WAIT_US)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (winnow_live_table_get_n_matching (table), ==, n);
}

/* The Instances tab: a search over ids and outcomes, a state filter, and
 * each instance's duration (ended − started). */
static void
test_instances_filter (void)
{
  g_autofree char *path = winnow_test_example_path ("order-fulfilment.process.json");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  WinnowWindow *window = winnow_window_new (NULL);
  WinnowSession *session = winnow_window_get_session (window);
  GtkWidget *page;
  WinnowLiveTable *table;
  GtkEditable *search;
  GtkDropDown *state;
  GListModel *instances;
  guint n;

  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);
  gtk_window_present (GTK_WINDOW (window));
  winnow_test_settle (GTK_WIDGET (window));
  g_assert_true (winnow_window_open_file (window, file));
  winnow_test_activate (window, "set-speed", g_variant_new_string ("ff"));
  winnow_test_activate (window, "play-pause", NULL);
  while (winnow_session_is_playing (session))
    g_main_context_iteration (NULL, TRUE);
  winnow_test_wait_for_flush (session);

  page = winnow_test_find_type (GTK_WIDGET (window), WINNOW_TYPE_INSTANCES_PAGE);
  adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (gtk_widget_get_ancestor (page, ADW_TYPE_VIEW_STACK)), "instances");
  winnow_test_settle (GTK_WIDGET (window));
  table = winnow_table_view_get_table (WINNOW_TABLE_VIEW (winnow_test_find_type (page, WINNOW_TYPE_TABLE_VIEW)));
  instances = winnow_session_get_instances (session);
  n = g_list_model_get_n_items (instances);
  g_assert_cmpuint (n, ==, 3);
  wait_for_rows (table, n);

  /* every instance ended: its duration is ended − started */
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(WinnowInstanceRow) row = g_list_model_get_item (instances, i);
      WnInstanceInfo info;
      gint64 duration;

      g_assert_true (wn_engine_lookup_instance (winnow_session_get_engine (session),
                                                winnow_row_get_id (WINNOW_ROW (row)), &info));
      g_object_get (row, "duration", &duration, NULL);
      g_assert_cmpint (info.ended_at, >=, 0);
      g_assert_cmpint (duration, ==, info.ended_at - info.started_at);
    }

  /* the search matches outcomes ("ended at shipped") and ids */
  search = GTK_EDITABLE (winnow_test_find_type (page, GTK_TYPE_SEARCH_ENTRY));
  gtk_editable_set_text (search, "SHIPPED");
  wait_for_rows (table, 1);
  gtk_editable_set_text (search, "i2");
  wait_for_rows (table, 1);
  gtk_editable_set_text (search, "");
  wait_for_rows (table, 3);

  /* the state filter: none terminated, all completed */
  state = GTK_DROP_DOWN (winnow_test_find_type (page, GTK_TYPE_DROP_DOWN));
  gtk_drop_down_set_selected (state, 3);
  wait_for_rows (table, 0);
  winnow_test_settle (GTK_WIDGET (window));
  /* the page's box: the filter bar, then the stack of the list and the empty state */
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (gtk_widget_get_last_child (gtk_widget_get_first_child (page)))),
                   ==, "empty");
  gtk_drop_down_set_selected (state, 2);
  wait_for_rows (table, 3);
  gtk_editable_set_text (search, "held");
  wait_for_rows (table, 1);
  winnow_test_settle (GTK_WIDGET (window));
  winnow_test_save_screenshot (GTK_WIDGET (window), "instances-filter.png");

  gtk_window_destroy (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

int
main (int argc, char **argv)
{
  wn_test_require_display ("test-summary");
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GTK_A11Y", "none", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  g_test_log_set_fatal_handler (winnow_test_ignore_bus_warning, NULL);
  adw_init ();
  g_test_add_func ("/app/Summary/run", test_summary_run);
  g_test_add_func ("/app/Instances/filter", test_instances_filter);
  return g_test_run ();
}

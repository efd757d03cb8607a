/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Compare tab: four variants of the flaky-service example run off the
 * GTK thread while the window keeps drawing; the plot gets a curve per
 * variant, the table a row, and the figures are winnow-run --sweep's.
 * Leaves compare.png here. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "winnow-app-test.h"
#include "winnow-compare-page.h"
#include "winnow-lab-attempts.h"
#include "winnow-lab-bars.h"
#include "winnow-lab-plot.h"
#include "wn-lab.h"

static void
wait_for (WinnowComparePage *page)
{
  gint64 start = g_get_monotonic_time ();

  while (winnow_compare_page_is_running (page) && g_get_monotonic_time () - start < WINNOW_TEST_WAIT_US)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (winnow_compare_page_is_running (page));
}

static void
test_compare_runs (void)
{
  g_autofree char *path = winnow_test_example_path ("flaky-service.process.json");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  WinnowWindow *window = winnow_window_new (NULL);
  WinnowComparePage *page;
  GtkWidget *widget;
  GPtrArray *rows;
  g_autoptr(GError) error = NULL;
  g_autoptr(WnLabSweep) sweep = NULL;
  g_autoptr(GPtrArray) headless = NULL;
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *text = NULL;
  AdwViewStack *stack;

  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 1000);
  gtk_window_present (GTK_WINDOW (window));
  winnow_test_settle (GTK_WIDGET (window));
  g_assert_true (winnow_window_open_file (window, file));
  winnow_test_wait_for_flush (winnow_window_get_session (window));

  page = WINNOW_COMPARE_PAGE (winnow_test_find_type (GTK_WIDGET (window), WINNOW_TYPE_COMPARE_PAGE));
  g_assert_nonnull (page);
  stack = ADW_VIEW_STACK (gtk_widget_get_ancestor (GTK_WIDGET (page), ADW_TYPE_VIEW_STACK));
  adw_view_stack_set_visible_child_name (stack, "compare");

  /* 3 or 5 attempts, with both trust modes: four variants */
  widget = winnow_test_find_type (GTK_WIDGET (page), GTK_TYPE_SPIN_BUTTON);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (widget), 500);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (winnow_test_find_named (GTK_WIDGET (page), "trust")), 1);
  g_assert_true (winnow_compare_page_run (page));
  g_assert_true (winnow_compare_page_is_running (page));
  /* one at a time */
  g_assert_false (winnow_compare_page_run (page));
  wait_for (page);

  rows = winnow_compare_page_get_summaries (page);
  g_assert_nonnull (rows);
  g_assert_cmpuint (rows->len, ==, 4);
  g_assert_cmpuint (winnow_lab_plot_get_n_curves (WINNOW_LAB_PLOT (winnow_test_find_type (GTK_WIDGET (page), WINNOW_TYPE_LAB_PLOT))), ==, 4);
  g_assert_cmpuint (winnow_lab_bars_get_n_bars (WINNOW_LAB_BARS (winnow_test_find_type (GTK_WIDGET (page), WINNOW_TYPE_LAB_BARS))), ==, 4);
  g_assert_cmpstr (wn_lab_summary_get_name (g_ptr_array_index (rows, 3)), ==,
                   "engine.trust=workerTrusted engine.retry.maxAttempts=5");
  /* attempts per job: up to 3 or 5, every order's one job counted once */
  {
    WinnowLabAttempts *attempts = WINNOW_LAB_ATTEMPTS (winnow_test_find_type (GTK_WIDGET (page), WINNOW_TYPE_LAB_ATTEMPTS));
    g_autofree char *tip = NULL;

    g_assert_cmpuint (winnow_lab_attempts_get_n_groups (attempts), ==, 5);
    for (guint v = 0; v < 4; v++)
      {
        guint64 jobs = 0;

        for (guint k = 1; k <= 5; k++)
          jobs += winnow_lab_attempts_get_count (attempts, v, k);
        g_assert_cmpuint (jobs, ==, 2500);
      }
    g_assert_cmpuint (winnow_lab_attempts_get_count (attempts, 0, 4), ==, 0);
    g_assert_cmpuint (winnow_lab_attempts_get_count (attempts, 1, 4), >, 0);
    gtk_stack_set_visible_child_name (GTK_STACK (gtk_widget_get_parent (GTK_WIDGET (attempts))), "attempts");
    winnow_test_settle (GTK_WIDGET (window));
    tip = winnow_lab_attempts_describe_at (attempts, gtk_widget_get_width (GTK_WIDGET (attempts)) / 2.0);
    g_assert_nonnull (tip);
    g_assert_nonnull (strstr (tip, "executions"));
    winnow_test_save_screenshot (GTK_WIDGET (page), "compare-attempts.png");
    gtk_stack_set_visible_child_name (GTK_STACK (gtk_widget_get_parent (GTK_WIDGET (attempts))), "times");
  }

  /* the same sweep headless gives the same figures */
  text = g_strdup_printf ("{\"format\":\"winnow.sweep/1\",\"process\":\"%s\",\"instances\":500,\"seeds\":5,"
                          "\"set\":{\"tasks.quote.trust\":\"inherit\"},"
                          "\"grid\":[{\"param\":\"engine.trust\",\"values\":[\"engineAuthoritative\",\"workerTrusted\"]},"
                          "{\"param\":\"engine.retry.maxAttempts\",\"values\":[3,5]}]}", path);
  sweep = wn_lab_sweep_load_data (text, -1, "test", dir, WN_LOAD_DEFAULT_MAX_SIZE, NULL, &error);
  g_assert_no_error (error);
  headless = wn_lab_sweep_run (sweep, 1, 1, 1, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < 4; i++)
    {
      WnLabSeedStats a, b;

      wn_lab_summary_get_totals (g_ptr_array_index (rows, i), &a);
      wn_lab_summary_get_totals (g_ptr_array_index (headless, i), &b);
      g_assert_cmpuint (a.instances, ==, 2500);
      g_assert_cmpuint (a.terminated, ==, b.terminated);
      g_assert_cmpuint (a.executions, ==, b.executions);
      g_assert_cmpint (a.p99, ==, b.p99);
    }

  winnow_test_settle (GTK_WIDGET (window));
  winnow_test_save_screenshot (GTK_WIDGET (window), "compare.png");
  winnow_test_save_screenshot (GTK_WIDGET (page), "compare-page.png");
  /* the load over time: the same variants, a curve each */
  {
    GtkStack *plots = GTK_STACK (gtk_widget_get_parent (winnow_test_find_type (GTK_WIDGET (page), WINNOW_TYPE_LAB_PLOT)));
    const GArray *load = wn_lab_summary_get_load (g_ptr_array_index (rows, 0));
    guint64 executions = 0;
    WnLabSeedStats t;

    gtk_stack_set_visible_child_name (plots, "load");
    g_assert_cmpuint (winnow_lab_plot_get_n_curves (WINNOW_LAB_PLOT (gtk_stack_get_visible_child (plots))), ==, 4);
    winnow_test_settle (GTK_WIDGET (window));
    winnow_test_save_screenshot (GTK_WIDGET (page), "compare-load.png");
    /* every execution of every run is in some virtual second */
    for (guint i = 0; i < load->len; i++)
      executions += g_array_index (load, guint64, i);
    wn_lab_summary_get_totals (g_ptr_array_index (rows, 0), &t);
    g_assert_cmpuint (executions, ==, t.executions);
    gtk_stack_set_visible_child_name (plots, "times");
  }

  /* exports: the plot as SVG and PNG, the table as the runner's CSV */
  {
    g_autofree char *tmp = g_dir_make_tmp ("winnow-compare-XXXXXX", &error);
    g_autofree char *svg_path = g_build_filename (tmp, "plot.svg", NULL);
    g_autofree char *png_path = g_build_filename (tmp, "plot.png", NULL);
    g_autofree char *csv_path = g_build_filename (tmp, "table.csv", NULL);
    g_autoptr(GFile) svg = g_file_new_for_path (svg_path);
    g_autoptr(GFile) png = g_file_new_for_path (png_path);
    g_autoptr(GFile) csv = g_file_new_for_path (csv_path);
    g_autofree char *data = NULL;
    g_auto(GStrv) lines = NULL;
    gsize n;

    g_assert_no_error (error);
    g_assert_true (winnow_compare_page_export_plot (page, svg, &error));
    g_assert_no_error (error);
    g_assert_true (g_file_get_contents (svg_path, &data, &n, NULL));
    g_assert_nonnull (strstr (data, "<svg"));
    g_clear_pointer (&data, g_free);
    g_assert_true (winnow_compare_page_export_plot (page, png, &error));
    g_assert_true (g_file_get_contents (png_path, &data, &n, NULL));
    g_assert_cmpuint (n, >, 8);
    g_assert_cmpint (memcmp (data, "\x89PNG", 4), ==, 0);
    g_clear_pointer (&data, g_free);
    /* the attempts per job export too, as what they show */
    {
      GtkStack *plots = GTK_STACK (gtk_widget_get_parent (winnow_test_find_type (GTK_WIDGET (page), WINNOW_TYPE_LAB_ATTEMPTS)));
      g_autofree char *times_svg = NULL;
      g_autofree char *bad_path = g_build_filename (tmp, "no-such-folder", "plot.svg", NULL);
      g_autoptr(GFile) bad = g_file_new_for_path (bad_path);

      g_assert_true (g_file_get_contents (svg_path, &times_svg, NULL, NULL));
      gtk_stack_set_visible_child_name (plots, "attempts");
      g_assert_true (winnow_compare_page_export_plot (page, svg, &error));
      g_assert_no_error (error);
      g_assert_true (g_file_get_contents (svg_path, &data, &n, NULL));
      g_assert_nonnull (strstr (data, "<svg"));
      g_assert_cmpstr (data, !=, times_svg);
      g_clear_pointer (&data, g_free);
      g_assert_true (winnow_compare_page_export_plot (page, png, &error));
      g_assert_no_error (error);
      g_assert_true (g_file_get_contents (png_path, &data, &n, NULL));
      g_assert_cmpint (memcmp (data, "\x89PNG", 4), ==, 0);
      g_clear_pointer (&data, g_free);
      /* a write that fails says why */
      g_assert_false (winnow_compare_page_export_plot (page, bad, &error));
      g_assert_nonnull (error);
      g_assert_nonnull (strstr (error->message, "no-such-folder"));
      g_clear_error (&error);
      gtk_stack_set_visible_child_name (plots, "times");
    }
    g_assert_true (winnow_compare_page_export_table (page, csv, &error));
    g_assert_true (g_file_get_contents (csv_path, &data, &n, NULL));
    lines = g_strsplit (data, "\n", -1);
    g_assert_cmpuint (g_strv_length (lines), ==, 6);    /* header, 4 rows, the last newline */
    g_assert_true (g_str_has_prefix (lines[0], "variant,name,"));
    g_assert_true (g_str_has_prefix (lines[4], "3,engine.trust=workerTrusted engine.retry.maxAttempts=5,"));
    /* a saved comparison opens again as it was; a file of no rows changes nothing */
    {
      g_autofree char *rows_path = g_build_filename (tmp, "compare.rows.jsonl", NULL);
      g_autoptr(GFile) rows_file = g_file_new_for_path (rows_path);
      g_autoptr(GString) before = g_string_new (NULL);
      g_autoptr(GString) after = g_string_new (NULL);
      GPtrArray *reopened;

      g_assert_true (winnow_compare_page_save (page, rows_file, &error));
      g_assert_no_error (error);
      for (guint i = 0; i < rows->len; i++)
        wn_lab_summary_append_json (g_ptr_array_index (rows, i), NULL, before);
      g_assert_true (winnow_compare_page_open (page, rows_file, &error));
      g_assert_no_error (error);
      reopened = winnow_compare_page_get_summaries (page);
      g_assert_cmpuint (reopened->len, ==, 4);
      for (guint i = 0; i < reopened->len; i++)
        wn_lab_summary_append_json (g_ptr_array_index (reopened, i), NULL, after);
      g_assert_cmpstr (before->str, ==, after->str);
      rows = reopened;
      g_assert_false (winnow_compare_page_open (page, csv, &error));
      g_assert_error (error, WN_LAB_ERROR, WN_LAB_ERROR_INVALID);
      g_clear_error (&error);
      g_assert_true (winnow_compare_page_get_summaries (page) == rows);
      g_unlink (rows_path);
    }
    g_unlink (svg_path);
    g_unlink (png_path);
    g_unlink (csv_path);
    g_rmdir (tmp);
  }

  /* the worker's failure probability and latency, onExhausted and a task's
   * own retry policy as variants: the page writes them as the sweep's
   * parameters, and the runs differ as they should */
  {
    GtkEditable *failure = GTK_EDITABLE (winnow_test_find_named (GTK_WIDGET (page), "failure"));
    GtkEditable *latency = GTK_EDITABLE (winnow_test_find_named (GTK_WIDGET (page), "latency"));
    GtkDropDown *worker = GTK_DROP_DOWN (winnow_test_find_named (GTK_WIDGET (page), "worker"));
    GtkDropDown *task = GTK_DROP_DOWN (winnow_test_find_named (GTK_WIDGET (page), "task"));
    GtkDropDown *exhausted = GTK_DROP_DOWN (winnow_test_find_named (GTK_WIDGET (page), "exhausted"));
    GtkDropDown *trust = GTK_DROP_DOWN (winnow_test_find_named (GTK_WIDGET (page), "trust"));
    GPtrArray *varied;
    WnLabSeedStats low, high;

    /* the scenario's one worker is chosen already */
    g_assert_cmpuint (gtk_drop_down_get_selected (worker), ==, 1);
    g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (task)), ==, 2);
    gtk_drop_down_set_selected (trust, 0);
    gtk_editable_set_text (GTK_EDITABLE (winnow_test_find_type (GTK_WIDGET (page), GTK_TYPE_ENTRY)), "3");
    gtk_editable_set_text (failure, "0.1, 0.6");
    gtk_spin_button_set_value (GTK_SPIN_BUTTON (widget), 300);
    g_assert_true (winnow_compare_page_run (page));
    wait_for (page);
    varied = winnow_compare_page_get_summaries (page);
    g_assert_cmpuint (varied->len, ==, 2);
    g_assert_nonnull (strstr (wn_lab_summary_get_name (g_ptr_array_index (varied, 1)), "workers.quotes.failure=0.6"));
    wn_lab_summary_get_totals (g_ptr_array_index (varied, 0), &low);
    wn_lab_summary_get_totals (g_ptr_array_index (varied, 1), &high);
    g_assert_cmpuint (high.terminated, >, low.terminated);
    g_assert_cmpuint (high.retries, >, low.retries);

    /* a task's own policy, both onExhausted, two latencies: 2 × 2 variants */
    gtk_editable_set_text (failure, "");
    gtk_editable_set_text (latency, "40ms, 400ms");
    gtk_drop_down_set_selected (task, 1);
    gtk_drop_down_set_selected (exhausted, 3);
    g_assert_true (winnow_compare_page_run (page));
    wait_for (page);
    varied = winnow_compare_page_get_summaries (page);
    g_assert_cmpuint (varied->len, ==, 4);
    g_assert_cmpstr (wn_lab_summary_get_name (g_ptr_array_index (varied, 3)), ==,
                     "tasks.quote.retry.maxAttempts=3 engine.onExhausted=incident workers.quotes.latency=400ms");
    wn_lab_summary_get_totals (g_ptr_array_index (varied, 0), &low);
    /* variant 2: exhausted jobs raise incidents instead of failing */
    wn_lab_summary_get_totals (g_ptr_array_index (varied, 2), &high);
    g_assert_cmpuint (low.incidents, ==, 0);
    g_assert_cmpuint (high.terminated, ==, 0);
    g_assert_cmpuint (high.incidents, >, 0);
    winnow_test_settle (GTK_WIDGET (window));
    winnow_test_save_screenshot (GTK_WIDGET (page), "compare-worker.png");

    /* a value that is none: said, nothing runs */
    gtk_editable_set_text (failure, "1.5");
    g_assert_false (winnow_compare_page_run (page));
    gtk_editable_set_text (failure, "");
    gtk_editable_set_text (latency, "soon");
    g_assert_false (winnow_compare_page_run (page));
    gtk_editable_set_text (latency, "");
    gtk_drop_down_set_selected (task, 0);
    gtk_drop_down_set_selected (exhausted, 0);
    gtk_drop_down_set_selected (trust, 1);
    rows = varied;
  }

  /* the retry policy's kind, delay and cap as variants: fixed and
   * exponential, two delays, one cap: 4 variants, each a whole policy */
  {
    GtkDropDown *kind = GTK_DROP_DOWN (winnow_test_find_named (GTK_WIDGET (page), "kind"));
    GtkEditable *delay = GTK_EDITABLE (winnow_test_find_named (GTK_WIDGET (page), "delay"));
    GtkEditable *cap = GTK_EDITABLE (winnow_test_find_named (GTK_WIDGET (page), "cap"));
    GtkDropDown *trust = GTK_DROP_DOWN (winnow_test_find_named (GTK_WIDGET (page), "trust"));
    GtkDropDown *jitter = GTK_DROP_DOWN (winnow_test_find_named (GTK_WIDGET (page), "jitter"));
    GtkLabel *said = GTK_LABEL (winnow_test_find_named (GTK_WIDGET (page), "error"));
    GPtrArray *varied;
    WnLabSeedStats fast, slow, exp_fast, exp_slow;

    gtk_drop_down_set_selected (trust, 0);
    gtk_editable_set_text (GTK_EDITABLE (winnow_test_find_type (GTK_WIDGET (page), GTK_TYPE_ENTRY)), "3");
    gtk_spin_button_set_value (GTK_SPIN_BUTTON (widget), 300);
    gtk_drop_down_set_selected (kind, 3);
    gtk_editable_set_text (delay, "100ms, 2s");
    gtk_editable_set_text (cap, "5s");
    g_assert_true (winnow_compare_page_run (page));
    wait_for (page);
    varied = winnow_compare_page_get_summaries (page);
    g_assert_cmpuint (varied->len, ==, 4);
    g_assert_cmpstr (wn_lab_summary_get_name (g_ptr_array_index (varied, 0)), ==,
                     "fixed delay=100ms engine.retry.maxAttempts=3");
    g_assert_cmpstr (wn_lab_summary_get_name (g_ptr_array_index (varied, 3)), ==,
                     "exponential base=2s max=5s engine.retry.maxAttempts=3");
    wn_lab_summary_get_totals (g_ptr_array_index (varied, 0), &fast);
    wn_lab_summary_get_totals (g_ptr_array_index (varied, 1), &slow);
    wn_lab_summary_get_totals (g_ptr_array_index (varied, 2), &exp_fast);
    wn_lab_summary_get_totals (g_ptr_array_index (varied, 3), &exp_slow);
    /* the retried orders wait 2 s instead of 0.1 s */
    g_assert_cmpint (slow.p99, >, fast.p99 + 1500000);
    /* exponential from 2 s doubles its second wait (up to the 5 s cap; the
     * example's jitter kept, which draws from the upper half) */
    g_assert_cmpint (exp_slow.p99, >, slow.p99 + 500000);
    g_assert_cmpint (exp_fast.p99, <, slow.p99);

    /* what a fixed delay has not: said, nothing runs */
    gtk_drop_down_set_selected (kind, 1);
    g_assert_false (winnow_compare_page_run (page));
    g_assert_nonnull (strstr (gtk_label_get_text (said), "Cap"));
    gtk_editable_set_text (cap, "");
    gtk_drop_down_set_selected (jitter, 2);
    g_assert_false (winnow_compare_page_run (page));
    g_assert_nonnull (strstr (gtk_label_get_text (said), "Jitter"));
    gtk_drop_down_set_selected (jitter, 0);
    gtk_editable_set_text (delay, "later");
    g_assert_false (winnow_compare_page_run (page));
    g_assert_nonnull (strstr (gtk_label_get_text (said), "Delay"));
    gtk_editable_set_text (delay, "");
    gtk_drop_down_set_selected (kind, 0);
    gtk_drop_down_set_selected (trust, 1);
    g_assert_true (winnow_compare_page_get_summaries (page) == varied);
    rows = varied;
  }

  /* too many variants: said on the page, nothing runs */
  gtk_editable_set_text (GTK_EDITABLE (winnow_test_find_type (GTK_WIDGET (page), GTK_TYPE_ENTRY)), "1, 2, 3, 4, 5");
  g_assert_false (winnow_compare_page_run (page));
  g_assert_false (winnow_compare_page_is_running (page));

  /* cancel: the page stops and keeps the last rows */
  gtk_editable_set_text (GTK_EDITABLE (winnow_test_find_type (GTK_WIDGET (page), GTK_TYPE_ENTRY)), "3");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (widget), 100000);
  g_assert_true (winnow_compare_page_run (page));
  winnow_compare_page_cancel (page);
  wait_for (page);
  g_assert_true (winnow_compare_page_get_summaries (page) == rows);

  gtk_window_destroy (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

#ifdef __linux__
/* The nice value of thread `tid` of this process, or G_MININT when it has
 * gone; with `name`, only if it is so named. */
static int
thread_nice (const char *tid,
             const char *name)
{
  g_autofree char *comm_path = g_build_filename ("/proc/self/task", tid, "comm", NULL);
  g_autofree char *stat_path = g_build_filename ("/proc/self/task", tid, "stat", NULL);
  g_autofree char *comm = NULL;
  g_autofree char *stat = NULL;
  g_auto(GStrv) fields = NULL;
  const char *after;

  if ((name != NULL && (!g_file_get_contents (comm_path, &comm, NULL, NULL) || strcmp (g_strstrip (comm), name) != 0)) ||
      !g_file_get_contents (stat_path, &stat, NULL, NULL) || (after = strrchr (stat, ')')) == NULL)
    return G_MININT;
  /* after the name: the state (field 3) … the nice value (field 19) */
  fields = g_strsplit (after + 2, " ", -1);
  return g_strv_length (fields) > 16 ? atoi (fields[16]) : G_MININT;
}

/* The highest nice value of the threads named `name`, G_MININT when none runs. */
static int
threads_nice (const char *name)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc/self/task", 0, NULL);
  const char *tid;
  int nice = G_MININT;

  while (dir != NULL && (tid = g_dir_read_name (dir)) != NULL)
    nice = MAX (nice, thread_nice (tid, name));
  return nice;
}

/* The variants run nicer than the window, so that its frames come first
 * when the cores are all taken (issue 21). */
static void
test_compare_background (void)
{
  g_autofree char *path = winnow_test_example_path ("flaky-service.process.json");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autofree char *self_tid = g_strdup_printf ("%d", (int) getpid ());
  WinnowWindow *window = winnow_window_new (NULL);
  WinnowComparePage *page;
  gint64 start;
  int window_nice, lab_nice = G_MININT;

  gtk_window_present (GTK_WINDOW (window));
  winnow_test_settle (GTK_WIDGET (window));
  g_assert_true (winnow_window_open_file (window, file));
  winnow_test_wait_for_flush (winnow_window_get_session (window));
  page = WINNOW_COMPARE_PAGE (winnow_test_find_type (GTK_WIDGET (window), WINNOW_TYPE_COMPARE_PAGE));
  /* long enough to be seen running */
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (winnow_test_find_type (GTK_WIDGET (page), GTK_TYPE_SPIN_BUTTON)), 200000);
  g_assert_true (winnow_compare_page_run (page));
  start = g_get_monotonic_time ();
  while (lab_nice == G_MININT && winnow_compare_page_is_running (page) &&
         g_get_monotonic_time () - start < WINNOW_TEST_WAIT_US)
    {
      g_main_context_iteration (NULL, FALSE);
      lab_nice = threads_nice ("wn-lab");
      g_usleep (1000);
    }
  window_nice = thread_nice (self_tid, NULL);
  g_assert_cmpint (window_nice, !=, G_MININT);
  g_assert_cmpint (lab_nice, ==, MIN (window_nice + WINNOW_COMPARE_NICE, 19));
  winnow_compare_page_cancel (page);
  wait_for (page);
  gtk_window_destroy (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
}
#endif

int
main (int argc, char **argv)
{
  wn_test_require_display ("test-compare");
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GTK_A11Y", "none", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  g_test_log_set_fatal_handler (winnow_test_ignore_bus_warning, NULL);
  adw_init ();
  g_test_add_func ("/app/Compare/runs", test_compare_runs);
#ifdef __linux__
  g_test_add_func ("/app/Compare/background", test_compare_background);
#endif
  return g_test_run ();
}

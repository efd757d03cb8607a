/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-summary-page.c — the Summary tab (see the header). The figures are
 * a WnLabSummary of the session's engine, made anew on each update: the
 * engine keeps its totals as it goes, so counting is the completion times'
 * sort and little else. */
#include "config.h"

#include <glib/gi18n.h>

#include "winnow-summary-page.h"
#include "winnow-lab-histogram.h"

/* While the run plays: at most this often, ms. */
#define UPDATE_INTERVAL_MS 250

struct _WinnowSummaryPage
{
  WinnowPanel         parent_instance;

  GtkStack           *stack;
  GtkGrid            *outcomes;
  GtkGrid            *work;
  WinnowLabHistogram *histogram;

  WnLabSummary       *summary;   /* NULL: nothing open */
  guint               update_id; /* a throttled update is due */
  gboolean            stale;     /* the run moved while the page was hidden */
};

G_DEFINE_FINAL_TYPE (WinnowSummaryPage, winnow_summary_page, WINNOW_TYPE_PANEL)

static void
add_row (GtkGrid    *grid,
         int         row,
         const char *name,
         const char *value,
         gboolean    indent)
{
  GtkWidget *label = gtk_label_new (name);
  GtkWidget *figure = gtk_label_new (value);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_widget_set_margin_start (label, indent ? 18 : 0);
  /* a long name (another language, an end event's id) wraps rather than
   * lose its middle */
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 32);
  gtk_widget_set_tooltip_text (label, name);
  if (!indent)
    gtk_widget_add_css_class (label, "heading");
  gtk_label_set_xalign (GTK_LABEL (figure), 1.0);
  gtk_widget_add_css_class (figure, "numeric");
  gtk_grid_attach (grid, label, 0, row, 1, 1);
  gtk_grid_attach (grid, figure, 1, row, 1, 1);
}

static void
clear_grid (GtkGrid *grid)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (grid))) != NULL)
    gtk_grid_remove (grid, child);
}

/* "9905 (99.05 %)" */
static char *
count_of (guint64 count,
          guint64 whole)
{
  return g_strdup_printf ("%" G_GUINT64_FORMAT " (%.2f %%)", count,
                          whole > 0 ? 100.0 * (double) count / (double) whole : 0.0);
}

static void
add_count_row (GtkGrid    *grid,
               int         row,
               const char *name,
               guint64     count,
               guint64     whole,
               gboolean    indent)
{
  g_autofree char *text = count_of (count, whole);

  add_row (grid, row, name, text, indent);
}

static void
add_duration_row (GtkGrid    *grid,
                  int         row,
                  const char *name,
                  double      us,
                  gboolean    any)
{
  g_autofree char *text = any ? wn_lab_format_duration (us) : g_strdup ("—");

  add_row (grid, row, name, text, TRUE);
}

static void
show_summary (WinnowSummaryPage *self)
{
  const WnLabHistogram *h = wn_lab_summary_get_histogram (self->summary);
  g_autoptr(GPtrArray) ends = wn_lab_summary_get_ends (self->summary);
  gboolean any = wn_lab_histogram_get_count (h) > 0;
  g_autofree char *instances = NULL;
  g_autofree char *per = NULL;
  WnLabSeedStats t;
  int row = 0;

  wn_lab_summary_get_totals (self->summary, &t);
  clear_grid (self->outcomes);
  clear_grid (self->work);

  instances = g_strdup_printf ("%" G_GUINT64_FORMAT, t.instances);
  add_row (self->outcomes, row++, _("Instances"), instances, FALSE);
  add_count_row (self->outcomes, row++, _("Completed"), t.completed, t.instances, FALSE);
  for (guint i = 0; i < ends->len; i++)
    {
      const char *end = g_ptr_array_index (ends, i);
      /* Translators: completed instances by the end event they reached: "at shipped" */
      g_autofree char *name = g_strdup_printf (_("at %s"), end);

      add_count_row (self->outcomes, row++, name, wn_lab_summary_get_end_count (self->summary, end), t.instances, TRUE);
    }
  add_count_row (self->outcomes, row++, _("Terminated"), t.terminated, t.instances, FALSE);
  add_count_row (self->outcomes, row++, _("Holding an incident"), t.incidents, t.instances, FALSE);
  add_count_row (self->outcomes, row++, _("Active"), t.active, t.instances, FALSE);

  row = 0;
  {
    g_autofree char *executions = g_strdup_printf ("%" G_GUINT64_FORMAT, t.executions);
    g_autofree char *retries = g_strdup_printf ("%" G_GUINT64_FORMAT, t.retries);
    g_autofree char *exhausted = g_strdup_printf ("%" G_GUINT64_FORMAT, t.exhausted);

    add_row (self->work, row++, _("Executions"), executions, FALSE);
    add_row (self->work, row++, _("Retries"), retries, TRUE);
    add_row (self->work, row++, _("Retries exhausted"), exhausted, TRUE);
  }
  per = g_strdup_printf ("%.3f", t.instances > 0 ? (double) t.executions / (double) t.instances : 0.0);
  add_row (self->work, row++, _("Executions per instance"), per, TRUE);
  add_row (self->work, row++, _("Completion time"), "", FALSE);
  add_duration_row (self->work, row++, "p50", (double) wn_lab_histogram_percentile (h, 50), any);
  add_duration_row (self->work, row++, "p90", (double) wn_lab_histogram_percentile (h, 90), any);
  add_duration_row (self->work, row++, "p99", (double) wn_lab_histogram_percentile (h, 99), any);
  add_duration_row (self->work, row++, C_("percentile", "max"), (double) wn_lab_histogram_get_max (h), any);
  add_duration_row (self->work, row++, _("mean"), wn_lab_histogram_get_mean (h), any);

  winnow_lab_histogram_set_histogram (self->histogram, h);
}

void
winnow_summary_page_update (WinnowSummaryPage *self)
{
  WinnowSession *session;
  WnEngine *engine;
  WnLabLoad load;

  g_return_if_fail (WINNOW_IS_SUMMARY_PAGE (self));

  self->stale = FALSE;
  g_clear_pointer (&self->summary, wn_lab_summary_free);
  session = winnow_panel_get_session (WINNOW_PANEL (self));
  engine = session != NULL && winnow_session_is_loaded (session) ? winnow_session_get_engine (session) : NULL;
  if (engine == NULL)
    {
      winnow_lab_histogram_set_histogram (self->histogram, NULL);
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }
  /* the load over time is the Compare tab's: not counted here */
  wn_lab_load_init (&load);
  self->summary = wn_lab_summary_new ("", 0, winnow_session_get_title (session), NULL, 1);
  wn_lab_summary_add_run (self->summary, engine, 0, &load);
  wn_lab_load_clear (&load);
  show_summary (self);
  gtk_stack_set_visible_child_name (self->stack, "summary");
}

static gboolean
update_cb (gpointer data)
{
  WinnowSummaryPage *self = data;

  self->update_id = 0;
  winnow_summary_page_update (self);
  return G_SOURCE_REMOVE;
}

/* The run moved: count again soon if the page is shown, when it is otherwise. */
static void
queue_update (WinnowSummaryPage *self)
{
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      self->stale = TRUE;
      return;
    }
  if (self->update_id == 0)
    self->update_id = g_timeout_add (UPDATE_INTERVAL_MS, update_cb, self);
}

static void
flushed_cb (WinnowSession     *session,
            WinnowSummaryPage *self)
{
  queue_update (self);
}

static void
run_changed_cb (WinnowSession     *session,
                WinnowSummaryPage *self)
{
  queue_update (self);
}

static void
winnow_summary_page_session_changed (WinnowPanel   *panel,
                                     WinnowSession *old)
{
  WinnowSummaryPage *self = WINNOW_SUMMARY_PAGE (panel);

  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    winnow_summary_page_update (self);
  else
    self->stale = TRUE;
}

static void
winnow_summary_page_map (GtkWidget *widget)
{
  WinnowSummaryPage *self = WINNOW_SUMMARY_PAGE (widget);

  GTK_WIDGET_CLASS (winnow_summary_page_parent_class)->map (widget);
  if (self->stale)
    winnow_summary_page_update (self);
}

static void
winnow_summary_page_dispose (GObject *object)
{
  WinnowSummaryPage *self = WINNOW_SUMMARY_PAGE (object);

  g_clear_handle_id (&self->update_id, g_source_remove);
  g_clear_pointer (&self->summary, wn_lab_summary_free);
  G_OBJECT_CLASS (winnow_summary_page_parent_class)->dispose (object);
}

static void
winnow_summary_page_class_init (WinnowSummaryPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  WinnowPanelClass *panel_class = WINNOW_PANEL_CLASS (klass);

  object_class->dispose = winnow_summary_page_dispose;
  widget_class->map = winnow_summary_page_map;
  panel_class->session_changed = winnow_summary_page_session_changed;
  winnow_panel_class_follow (panel_class, "run-changed", G_CALLBACK (run_changed_cb));
  winnow_panel_class_follow (panel_class, "flushed", G_CALLBACK (flushed_cb));

  g_type_ensure (WINNOW_TYPE_LAB_HISTOGRAM);
  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "/winnow-summary-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WinnowSummaryPage, stack);
  gtk_widget_class_bind_template_child (widget_class, WinnowSummaryPage, outcomes);
  gtk_widget_class_bind_template_child (widget_class, WinnowSummaryPage, work);
  gtk_widget_class_bind_template_child (widget_class, WinnowSummaryPage, histogram);
}

static void
winnow_summary_page_init (WinnowSummaryPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->stale = TRUE;
  gtk_stack_set_visible_child_name (self->stack, "empty");
}

const WnLabSummary *
winnow_summary_page_get_summary (WinnowSummaryPage *self)
{
  g_return_val_if_fail (WINNOW_IS_SUMMARY_PAGE (self), NULL);
  return self->summary;
}

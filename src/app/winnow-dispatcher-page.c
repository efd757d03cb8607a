/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-dispatcher-page.c — the Dispatcher tab: a table of the jobs in the
 * store, filtered by a topic search, a state and the selected node, with
 * their count. Its selection is the session's selected job, both ways. The
 * window calls winnow_dispatcher_page_update() on the frame that shows the
 * tabs. */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "winnow-dispatcher-page.h"
#include "winnow-table-page.h"
#include "winnow-job-row.h"

struct _WinnowDispatcherPage
{
  WinnowTablePage  parent_instance;

  GtkDropDown     *state_dropdown;
  GtkLabel        *count_label;

  int              state_filter;   /* WnJobState, or -1 */
  gboolean         syncing_selection;
};

G_DEFINE_FINAL_TYPE (WinnowDispatcherPage, winnow_dispatcher_page, WINNOW_TYPE_TABLE_PAGE)

/* Sort keys read straight from the rows (WinnowSortKeyFunc). */
static const char *job_id_key (gpointer row) { return winnow_row_get_id (WINNOW_ROW (row)); }
static const char *job_instance_key (gpointer row) { return winnow_job_row_get_instance (row); }
static const char *job_topic_key (gpointer row) { return winnow_job_row_get_topic (row); }
static const char *job_state_key (gpointer row) { return wn_job_state_to_string (winnow_job_row_get_state (row)); }
static const char *job_worker_key (gpointer row) { return winnow_job_row_get_worker (row); }
static const char *job_trust_key (gpointer row) { return winnow_trust_name (winnow_job_row_get_trust (row)); }

static const WinnowColumnSpec job_columns[] = {
  { "job", N_("Job"), "id", WINNOW_CELL_MONO, FALSE, WINNOW_SORT_NATURAL, NULL, job_id_key, FALSE, 9 },
  { "instance", N_("Instance"), "instance", WINNOW_CELL_MONO, FALSE, WINNOW_SORT_NATURAL, NULL, job_instance_key, FALSE, 8 },
  { "topic", N_("Topic"), "topic", WINNOW_CELL_TEXT, FALSE, WINNOW_SORT_NATURAL, NULL, job_topic_key, TRUE, 14 },
  { "state", N_("State"), "state-name", WINNOW_CELL_STATE, FALSE, WINNOW_SORT_NATURAL, NULL, job_state_key, FALSE, 9 },
  { "attempt", N_("Attempt"), "attempt-text", WINNOW_CELL_NUMBER, FALSE, WINNOW_SORT_NUMERIC, "attempt", NULL, FALSE, 4 },
  { "not-before", N_("Not before"), "not-before-text", WINNOW_CELL_MONO, TRUE, WINNOW_SORT_NUMERIC, "not-before", NULL, FALSE, 22 },
  { "worker", N_("Worker"), "worker-text", WINNOW_CELL_TEXT, FALSE, WINNOW_SORT_NATURAL, NULL, job_worker_key, FALSE, 16 },
  { "deadline", N_("Lock deadline"), "deadline-text", WINNOW_CELL_MONO, TRUE, WINNOW_SORT_NUMERIC, "deadline", NULL, FALSE, 22 },
  { "trust", N_("Trust"), "trust-text", WINNOW_CELL_TEXT, FALSE, WINNOW_SORT_NATURAL, NULL, job_trust_key, FALSE, 12 },
};

static GListModel *
winnow_dispatcher_page_rows (WinnowTablePage *page,
                             WinnowSession   *session)
{
  return winnow_session_get_jobs (session);
}

static gboolean
winnow_dispatcher_page_filtering (WinnowTablePage *page)
{
  WinnowDispatcherPage *self = WINNOW_DISPATCHER_PAGE (page);

  return winnow_session_get_selected_node (winnow_panel_get_session (WINNOW_PANEL (page))) != NULL ||
         self->state_filter >= 0 || winnow_table_page_get_needle (page) != NULL;
}

static gboolean
winnow_dispatcher_page_match (WinnowTablePage *page,
                              gpointer         item)
{
  WinnowDispatcherPage *self = WINNOW_DISPATCHER_PAGE (page);
  WinnowJobRow *row = item;
  const char *node = winnow_session_get_selected_node (winnow_panel_get_session (WINNOW_PANEL (self)));
  const char *needle = winnow_table_page_get_needle (page);

  if (node != NULL && g_strcmp0 (winnow_job_row_get_node (row), node) != 0)
    return FALSE;
  if (self->state_filter >= 0 && (int) winnow_job_row_get_state (row) != self->state_filter)
    return FALSE;
  if (needle != NULL)
    {
      g_autofree char *topic = g_utf8_casefold (winnow_job_row_get_topic (row), -1);

      if (strstr (topic, needle) == NULL)
        return FALSE;
    }
  return TRUE;
}

static void
winnow_dispatcher_page_update_empty (WinnowTablePage *page,
                                     guint            n_jobs,
                                     guint            n_all_jobs)
{
  WinnowDispatcherPage *self = WINNOW_DISPATCHER_PAGE (page);
  gboolean pending = winnow_session_get_next_time (winnow_panel_get_session (WINNOW_PANEL (page))) != WN_TIME_NEVER;
  g_autofree char *jobs_count = NULL;

  if (n_all_jobs > 0)
    winnow_table_page_set_empty (page, _("No Job Matches"),
                                 _("Clear the topic, state or node filter to see every job in the store."));
  else
    winnow_table_page_set_empty (page, _("No Job Waits"), pending
                                 ? _("The dispatcher’s store is empty. Press F10 to run to the next event.")
                                 : _("The dispatcher’s store is empty and nothing is left to run."));

  if (n_jobs == n_all_jobs)
    jobs_count = g_strdup_printf (ngettext ("%u job", "%u jobs", n_all_jobs), n_all_jobs);
  else
    /* Translators: "3 of 12 jobs" */
    jobs_count = g_strdup_printf (ngettext ("%u of %u job", "%u of %u jobs", n_all_jobs), n_jobs, n_all_jobs);
  gtk_label_set_text (self->count_label, jobs_count);
}

/* The jobs table shows the shared selection. */
static void
sync_jobs_selection (WinnowDispatcherPage *self)
{
  const char *id = winnow_session_get_selected_job (winnow_panel_get_session (WINNOW_PANEL (self)));
  WinnowLiveTable *table = winnow_table_page_get_table (WINNOW_TABLE_PAGE (self));
  GtkSelectionModel *selection = winnow_live_table_get_selection (table);
  WinnowJobRow *selected = gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (selection));
  guint position = GTK_INVALID_LIST_POSITION;

  /* already there: the user's own click, or a table that kept its row */
  if (selected != NULL && id != NULL && g_strcmp0 (winnow_row_get_id (WINNOW_ROW (selected)), id) == 0)
    return;
  for (guint i = 0; id != NULL && position == GTK_INVALID_LIST_POSITION; i++)
    {
      /* the rows themselves: no display row is made for the search */
      g_autoptr(WinnowJobRow) row = winnow_live_table_get_row (table, i);

      if (row == NULL)
        break;
      if (g_strcmp0 (winnow_row_get_id (WINNOW_ROW (row)), id) == 0)
        position = i;
    }
  self->syncing_selection = TRUE;
  winnow_live_table_select (table, position);
  self->syncing_selection = FALSE;
}

static void
winnow_dispatcher_page_row_selected (WinnowTablePage *page,
                                     gpointer         row)
{
  WinnowDispatcherPage *self = WINNOW_DISPATCHER_PAGE (page);

  /* a job that leaves the store drops out of the table, not out of the inspector */
  if (!self->syncing_selection)
    winnow_session_set_selected_job (winnow_panel_get_session (WINNOW_PANEL (self)), winnow_row_get_id (WINNOW_ROW (row)));
}

/* The shared selection moved: the jobs table follows. */
static void
selected_job_cb (WinnowSession        *session,
                 GParamSpec           *pspec,
                 WinnowDispatcherPage *self)
{
  sync_jobs_selection (self);
}

static void
state_filter_cb (GtkDropDown          *dropdown,
                 GParamSpec           *pspec,
                 WinnowDispatcherPage *self)
{
  static const int states[] = { -1, WN_JOB_AVAILABLE, WN_JOB_GATED, WN_JOB_LOCKED, WN_JOB_EXPIRED };
  guint selected = gtk_drop_down_get_selected (dropdown);

  self->state_filter = selected < G_N_ELEMENTS (states) ? states[selected] : -1;
  winnow_table_page_refilter (WINNOW_TABLE_PAGE (self));
}

static void
selected_node_cb (WinnowSession        *session,
                  GParamSpec           *pspec,
                  WinnowDispatcherPage *self)
{
  winnow_table_page_refilter (WINNOW_TABLE_PAGE (self));
}

/* On the frame that shows the tabs: jobs change state under the state filter. */
static void
winnow_dispatcher_page_update (WinnowTablePage *page)
{
  if (WINNOW_DISPATCHER_PAGE (page)->state_filter >= 0)
    winnow_table_page_rows_changed (page);
}

static void
winnow_dispatcher_page_session_changed (WinnowPanel   *panel,
                                        WinnowSession *old)
{
  WINNOW_PANEL_CLASS (winnow_dispatcher_page_parent_class)->session_changed (panel, old);
  if (winnow_panel_get_session (panel) == NULL)
    return;
  /* a table that goes live or back shows other rows: the shared selection follows */
  g_signal_connect_object (winnow_table_page_get_table (WINNOW_TABLE_PAGE (panel)), "notify::live",
                           G_CALLBACK (sync_jobs_selection), panel, G_CONNECT_SWAPPED);
}

static void
winnow_dispatcher_page_class_init (WinnowDispatcherPageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  WinnowPanelClass *panel_class = WINNOW_PANEL_CLASS (klass);
  WinnowTablePageClass *page_class = WINNOW_TABLE_PAGE_CLASS (klass);

  panel_class->session_changed = winnow_dispatcher_page_session_changed;
  page_class->rows = winnow_dispatcher_page_rows;
  page_class->filtering = winnow_dispatcher_page_filtering;
  page_class->match = winnow_dispatcher_page_match;
  page_class->update_empty = winnow_dispatcher_page_update_empty;
  page_class->row_selected = winnow_dispatcher_page_row_selected;
  page_class->update = winnow_dispatcher_page_update;
  winnow_panel_class_follow (panel_class, "notify::selected-job", G_CALLBACK (selected_job_cb));
  winnow_panel_class_follow (panel_class, "notify::selected-node", G_CALLBACK (selected_node_cb));

  winnow_table_page_class_set_table (page_class, RESOURCE_BASE "/winnow-dispatcher-page.ui", WINNOW_TYPE_JOB_ROW,
                                     job_columns, G_N_ELEMENTS (job_columns));
  gtk_widget_class_bind_template_child_full (widget_class, "box", FALSE, 0);   /* disposed with the template */
  gtk_widget_class_bind_template_child (widget_class, WinnowDispatcherPage, state_dropdown);
  gtk_widget_class_bind_template_child (widget_class, WinnowDispatcherPage, count_label);
  gtk_widget_class_bind_template_callback (widget_class, state_filter_cb);
}

static void
winnow_dispatcher_page_init (WinnowDispatcherPage *self)
{
  self->state_filter = -1;
  gtk_widget_init_template (GTK_WIDGET (self));
}

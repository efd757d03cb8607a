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
#include "winnow-table-view.h"
#include "winnow-job-row.h"

struct _WinnowDispatcherPage
{
  WinnowPanel      parent_instance;

  GtkSearchEntry  *topic_entry;
  GtkDropDown     *state_dropdown;
  GtkLabel        *count_label;
  GtkStack        *stack;
  WinnowTableView *table;
  AdwStatusPage   *empty;

  GtkFilter       *filter;         /* update_filter */
  char            *topic_needle;
  int              state_filter;   /* WnJobState, or -1 */
  gboolean         syncing_selection;
};

G_DEFINE_FINAL_TYPE (WinnowDispatcherPage, winnow_dispatcher_page, WINNOW_TYPE_PANEL)

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

static gboolean
jobs_filter_func (gpointer item,
                  gpointer data)
{
  WinnowDispatcherPage *self = data;
  WinnowJobRow *row = item;
  const char *node = winnow_session_get_selected_node (winnow_panel_get_session (WINNOW_PANEL (self)));

  if (node != NULL && g_strcmp0 (winnow_job_row_get_node (row), node) != 0)
    return FALSE;
  if (self->state_filter >= 0 && (int) winnow_job_row_get_state (row) != self->state_filter)
    return FALSE;
  if (self->topic_needle != NULL)
    {
      g_autofree char *topic = g_utf8_casefold (winnow_job_row_get_topic (row), -1);

      if (strstr (topic, self->topic_needle) == NULL)
        return FALSE;
    }
  return TRUE;
}

/* The filter runs its function only while it has something to do, as the
 * Tracks tab's (winnow-tracks-page.c, update_filter). */
static void
update_filter (WinnowDispatcherPage *self)
{
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  gboolean node = session != NULL && winnow_session_get_selected_node (session) != NULL;
  GtkCustomFilterFunc func = node || self->state_filter >= 0 || self->topic_needle != NULL ? jobs_filter_func : NULL;

  gtk_custom_filter_set_filter_func (GTK_CUSTOM_FILTER (self->filter), func, func ? self : NULL, NULL);
}

static void
update_empty_state (WinnowDispatcherPage *self)
{
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  guint n_jobs = winnow_live_table_get_n_matching (winnow_table_view_get_table (self->table));
  guint n_all_jobs = g_list_model_get_n_items (winnow_session_get_jobs (session));
  gboolean pending = winnow_session_get_next_time (session) != WN_TIME_NEVER;
  g_autofree char *jobs_count = NULL;

  gtk_stack_set_visible_child_name (self->stack, n_jobs ? "list" : "empty");

  if (n_all_jobs > 0)
    {
      adw_status_page_set_title (self->empty, _("No Job Matches"));
      adw_status_page_set_description (self->empty,
                                       _("Clear the topic, state or node filter to see every job in the store."));
    }
  else
    {
      adw_status_page_set_title (self->empty, _("No Job Waits"));
      adw_status_page_set_description (self->empty, pending
                                       ? _("The dispatcher’s store is empty. Press F10 to run to the next event.")
                                       : _("The dispatcher’s store is empty and nothing is left to run."));
    }

  if (n_jobs == n_all_jobs)
    jobs_count = g_strdup_printf (ngettext ("%u job", "%u jobs", n_all_jobs), n_all_jobs);
  else
    /* Translators: "3 of 12 jobs" */
    jobs_count = g_strdup_printf (ngettext ("%u of %u job", "%u of %u jobs", n_all_jobs), n_jobs, n_all_jobs);
  gtk_label_set_text (self->count_label, jobs_count);
}

static void
refilter (WinnowDispatcherPage *self)
{
  update_filter (self);
  if (winnow_panel_get_session (WINNOW_PANEL (self)) != NULL)
    update_empty_state (self);
}

/* The jobs table shows the shared selection. */
static void
sync_jobs_selection (WinnowDispatcherPage *self)
{
  const char *id = winnow_session_get_selected_job (winnow_panel_get_session (WINNOW_PANEL (self)));
  GtkSelectionModel *selection = winnow_live_table_get_selection (winnow_table_view_get_table (self->table));
  GListModel *model = G_LIST_MODEL (selection);
  WinnowJobRow *selected = gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (selection));
  guint n = g_list_model_get_n_items (model);
  guint position = GTK_INVALID_LIST_POSITION;

  /* already there: the user's own click, or a table that kept its row */
  if (selected != NULL && id != NULL && g_strcmp0 (winnow_row_get_id (WINNOW_ROW (selected)), id) == 0)
    return;
  for (guint i = 0; id != NULL && i < n; i++)
    {
      g_autoptr(WinnowJobRow) row = g_list_model_get_item (model, i);

      if (g_strcmp0 (winnow_row_get_id (WINNOW_ROW (row)), id) == 0)
        {
          position = i;
          break;
        }
    }
  self->syncing_selection = TRUE;
  gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (selection), position);
  self->syncing_selection = FALSE;
}

static void
jobs_selection_cb (GtkSingleSelection   *selection,
                   GParamSpec           *pspec,
                   WinnowDispatcherPage *self)
{
  WinnowJobRow *row = gtk_single_selection_get_selected_item (selection);

  /* a job that leaves the store drops out of the table, not out of the inspector */
  if (row != NULL && !self->syncing_selection &&
      !winnow_live_table_is_following (winnow_table_view_get_table (self->table)))
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
topic_changed_cb (GtkSearchEntry       *entry,
                  WinnowDispatcherPage *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));

  g_clear_pointer (&self->topic_needle, g_free);
  if (*text != '\0')
    self->topic_needle = g_utf8_casefold (text, -1);
  refilter (self);
}

static void
state_filter_cb (GtkDropDown          *dropdown,
                 GParamSpec           *pspec,
                 WinnowDispatcherPage *self)
{
  static const int states[] = { -1, WN_JOB_AVAILABLE, WN_JOB_GATED, WN_JOB_LOCKED, WN_JOB_EXPIRED };
  guint selected = gtk_drop_down_get_selected (dropdown);

  self->state_filter = selected < G_N_ELEMENTS (states) ? states[selected] : -1;
  refilter (self);
}

static void
selected_node_cb (WinnowSession        *session,
                  GParamSpec           *pspec,
                  WinnowDispatcherPage *self)
{
  refilter (self);
}

static void
run_changed_cb (WinnowSession        *session,
                WinnowDispatcherPage *self)
{
  update_empty_state (self);
}

static void
winnow_dispatcher_page_dispose (GObject *object)
{
  WinnowDispatcherPage *self = WINNOW_DISPATCHER_PAGE (object);

  /* the template first: the table's live table holds the filter */
  G_OBJECT_CLASS (winnow_dispatcher_page_parent_class)->dispose (object);
  g_clear_object (&self->filter);
}

static void
winnow_dispatcher_page_finalize (GObject *object)
{
  WinnowDispatcherPage *self = WINNOW_DISPATCHER_PAGE (object);

  g_clear_pointer (&self->topic_needle, g_free);
  G_OBJECT_CLASS (winnow_dispatcher_page_parent_class)->finalize (object);
}

static void
winnow_dispatcher_page_session_changed (WinnowPanel   *panel,
                                        WinnowSession *old)
{
  WinnowDispatcherPage *self = WINNOW_DISPATCHER_PAGE (panel);
  WinnowSession *session = winnow_panel_get_session (panel);
  WinnowLiveTable *table;

  update_filter (self);
  if (session == NULL)
    return;
  winnow_table_view_set_model (self->table, winnow_session_get_jobs (session), WINNOW_TYPE_JOB_ROW,
                               job_columns, G_N_ELEMENTS (job_columns),
                               self->filter, (WinnowAssignFunc) winnow_job_row_assign);
  table = winnow_table_view_get_table (self->table);
  /* a table that goes live or back shows other rows: the shared selection follows */
  g_signal_connect_object (table, "notify::live", G_CALLBACK (sync_jobs_selection), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (winnow_live_table_get_selection (table), "notify::selected-item",
                           G_CALLBACK (jobs_selection_cb), self, 0);
  update_empty_state (self);
}

static void
winnow_dispatcher_page_class_init (WinnowDispatcherPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  WinnowPanelClass *panel_class = WINNOW_PANEL_CLASS (klass);

  object_class->dispose = winnow_dispatcher_page_dispose;
  object_class->finalize = winnow_dispatcher_page_finalize;
  panel_class->session_changed = winnow_dispatcher_page_session_changed;
  winnow_panel_class_follow (panel_class, "notify::selected-job", G_CALLBACK (selected_job_cb));
  winnow_panel_class_follow (panel_class, "notify::selected-node", G_CALLBACK (selected_node_cb));
  winnow_panel_class_follow (panel_class, "run-changed", G_CALLBACK (run_changed_cb));

  g_type_ensure (WINNOW_TYPE_TABLE_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "/winnow-dispatcher-page.ui");
  gtk_widget_class_bind_template_child_full (widget_class, "box", FALSE, 0);   /* disposed with the template */
  gtk_widget_class_bind_template_child (widget_class, WinnowDispatcherPage, topic_entry);
  gtk_widget_class_bind_template_child (widget_class, WinnowDispatcherPage, state_dropdown);
  gtk_widget_class_bind_template_child (widget_class, WinnowDispatcherPage, count_label);
  gtk_widget_class_bind_template_child (widget_class, WinnowDispatcherPage, stack);
  gtk_widget_class_bind_template_child (widget_class, WinnowDispatcherPage, table);
  gtk_widget_class_bind_template_child (widget_class, WinnowDispatcherPage, empty);
}

static void
winnow_dispatcher_page_init (WinnowDispatcherPage *self)
{
  self->state_filter = -1;
  self->filter = GTK_FILTER (gtk_custom_filter_new (NULL, NULL, NULL));
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect (self->topic_entry, "search-changed", G_CALLBACK (topic_changed_cb), self);
  g_signal_connect (self->state_dropdown, "notify::selected", G_CALLBACK (state_filter_cb), self);
}

void
winnow_dispatcher_page_update (WinnowDispatcherPage *self)
{
  g_return_if_fail (WINNOW_IS_DISPATCHER_PAGE (self));

  if (winnow_panel_get_session (WINNOW_PANEL (self)) == NULL)
    return;
  if (self->state_filter >= 0)
    gtk_filter_changed (self->filter, GTK_FILTER_CHANGE_DIFFERENT);   /* states moved */
  winnow_table_view_update (self->table);
  update_empty_state (self);
}

gboolean
winnow_dispatcher_page_is_live (WinnowDispatcherPage *self)
{
  g_return_val_if_fail (WINNOW_IS_DISPATCHER_PAGE (self), FALSE);
  return winnow_table_view_is_live (self->table);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-instances-page.c — the Instances tab: a table of every instance
 * the run started, filtered by a search (the id or the outcome) and a
 * state, with how long each ran (or has been running). The window calls winnow_instances_page_update() on the
 * frame that shows the tabs; the tab's badge (terminated instances not seen
 * yet) is the window's, with the other alerts. */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "winnow-instances-page.h"
#include "winnow-table-view.h"
#include "winnow-instance-row.h"

struct _WinnowInstancesPage
{
  WinnowPanel      parent_instance;

  GtkWidget       *box;            /* the template's top */
  GtkSearchEntry  *search_entry;
  GtkDropDown     *state_dropdown;
  GtkLabel        *count_label;
  GtkStack        *stack;
  WinnowTableView *table;
  AdwStatusPage   *empty;

  GtkFilter       *filter;         /* update_filter */
  char            *needle;         /* casefolded search, or NULL */
  guint            state_filter;   /* STATE_* */
};

/* The state dropdown's items, in order. */
enum {
  STATE_ALL,
  STATE_ACTIVE,
  STATE_COMPLETED,
  STATE_TERMINATED,
  STATE_INCIDENT,
};

G_DEFINE_FINAL_TYPE (WinnowInstancesPage, winnow_instances_page, WINNOW_TYPE_PANEL)

/* Sort keys read straight from the rows (WinnowSortKeyFunc). */
static const char *instance_id_key (gpointer row) { return winnow_row_get_id (WINNOW_ROW (row)); }
static const char *instance_state_key (gpointer row) { return wn_instance_state_to_string (winnow_instance_row_get_state (row)); }

static const WinnowColumnSpec instance_columns[] = {
  { "instance", N_("Instance"), "id", WINNOW_CELL_MONO, FALSE, WINNOW_SORT_NATURAL, NULL, instance_id_key, FALSE, 8 },
  { "state", N_("State"), "state-name", WINNOW_CELL_STATE, FALSE, WINNOW_SORT_NATURAL, NULL, instance_state_key, FALSE, 10 },
  { "started", N_("Started"), "started-text", WINNOW_CELL_MONO, FALSE, WINNOW_SORT_NONE, NULL, NULL, FALSE, 12 },
  { "ended", N_("Ended"), "ended-text", WINNOW_CELL_MONO, FALSE, WINNOW_SORT_NONE, NULL, NULL, FALSE, 12 },
  { "duration", N_("Duration"), "duration-text", WINNOW_CELL_MONO, TRUE, WINNOW_SORT_NUMERIC, "duration", NULL, FALSE, 10 },
  { "incidents", N_("Incidents"), "incidents", WINNOW_CELL_NUMBER, FALSE, WINNOW_SORT_NUMERIC, "incidents", NULL, FALSE, 4 },
  { "outcome", N_("Outcome"), "outcome", WINNOW_CELL_TEXT, FALSE, WINNOW_SORT_NONE, NULL, NULL, TRUE, 30 },
};

static gboolean
instances_filter_func (gpointer item,
                       gpointer data)
{
  WinnowInstancesPage *self = data;
  WinnowInstanceRow *row = item;
  WnInstanceState state = winnow_instance_row_get_state (row);

  switch (self->state_filter)
    {
    case STATE_ACTIVE: if (state != WN_INSTANCE_ACTIVE) return FALSE; break;
    case STATE_COMPLETED: if (state != WN_INSTANCE_COMPLETED) return FALSE; break;
    case STATE_TERMINATED: if (state != WN_INSTANCE_TERMINATED) return FALSE; break;
    case STATE_INCIDENT: if (winnow_instance_row_get_incidents (row) == 0) return FALSE; break;
    default: break;
    }
  if (self->needle != NULL)
    {
      g_autofree char *id = g_utf8_casefold (winnow_row_get_id (WINNOW_ROW (row)), -1);
      g_autofree char *outcome = NULL;
      g_autofree char *folded = NULL;

      if (strstr (id, self->needle) != NULL)
        return TRUE;
      g_object_get (row, "outcome", &outcome, NULL);
      folded = g_utf8_casefold (outcome != NULL ? outcome : "", -1);
      return strstr (folded, self->needle) != NULL;
    }
  return TRUE;
}

/* The filter runs its function only while it has something to do. */
static void
update_filter (WinnowInstancesPage *self)
{
  GtkCustomFilterFunc func = self->state_filter != STATE_ALL || self->needle != NULL ? instances_filter_func : NULL;

  gtk_custom_filter_set_filter_func (GTK_CUSTOM_FILTER (self->filter), func, func ? self : NULL, NULL);
}

static void
update_empty_state (WinnowInstancesPage *self)
{
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  guint n_instances = g_list_model_get_n_items (winnow_session_get_instances (session));
  guint n_shown = winnow_live_table_get_n_matching (winnow_table_view_get_table (self->table));
  g_autofree char *count = NULL;

  gtk_stack_set_visible_child_name (self->stack, n_shown ? "list" : "empty");
  if (n_instances > 0)
    {
      adw_status_page_set_title (self->empty, _("No Instance Matches"));
      adw_status_page_set_description (self->empty, _("Clear the search or the state filter to see every instance."));
    }
  else
    {
      adw_status_page_set_title (self->empty, _("No Instance Started Yet"));
      adw_status_page_set_description (self->empty,
                                       _("The scenario’s instances start at their times. Press F10 to run to the next event."));
    }
  if (n_shown == n_instances)
    count = g_strdup_printf (ngettext ("%u instance", "%u instances", n_instances), n_instances);
  else
    /* Translators: "3 of 12 instances" */
    count = g_strdup_printf (ngettext ("%u of %u instance", "%u of %u instances", n_instances), n_shown, n_instances);
  gtk_label_set_text (self->count_label, count);
}

static void
refilter (WinnowInstancesPage *self)
{
  update_filter (self);
  if (winnow_panel_get_session (WINNOW_PANEL (self)) != NULL &&
      winnow_table_view_get_table (self->table) != NULL)
    update_empty_state (self);
}

static void
search_changed_cb (GtkSearchEntry      *entry,
                   WinnowInstancesPage *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));

  g_clear_pointer (&self->needle, g_free);
  if (*text != '\0')
    self->needle = g_utf8_casefold (text, -1);
  refilter (self);
}

static void
state_filter_cb (GtkDropDown         *dropdown,
                 GParamSpec          *pspec,
                 WinnowInstancesPage *self)
{
  guint selected = gtk_drop_down_get_selected (dropdown);

  self->state_filter = selected <= STATE_INCIDENT ? selected : STATE_ALL;
  refilter (self);
}

static void
run_changed_cb (WinnowSession       *session,
                WinnowInstancesPage *self)
{
  update_empty_state (self);
}

static void
winnow_instances_page_session_changed (WinnowPanel   *panel,
                                       WinnowSession *old)
{
  WinnowInstancesPage *self = WINNOW_INSTANCES_PAGE (panel);
  WinnowSession *session = winnow_panel_get_session (panel);

  if (session == NULL)
    return;
  winnow_table_view_set_model (self->table, winnow_session_get_instances (session), WINNOW_TYPE_INSTANCE_ROW,
                               instance_columns, G_N_ELEMENTS (instance_columns),
                               self->filter, (WinnowAssignFunc) winnow_instance_row_assign);
  update_empty_state (self);
}

static void
winnow_instances_page_dispose (GObject *object)
{
  WinnowInstancesPage *self = WINNOW_INSTANCES_PAGE (object);

  /* the template first: the table's live table holds the filter */
  G_OBJECT_CLASS (winnow_instances_page_parent_class)->dispose (object);
  g_clear_object (&self->filter);
}

static void
winnow_instances_page_finalize (GObject *object)
{
  WinnowInstancesPage *self = WINNOW_INSTANCES_PAGE (object);

  g_clear_pointer (&self->needle, g_free);
  G_OBJECT_CLASS (winnow_instances_page_parent_class)->finalize (object);
}

static void
winnow_instances_page_class_init (WinnowInstancesPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  WinnowPanelClass *panel_class = WINNOW_PANEL_CLASS (klass);

  object_class->dispose = winnow_instances_page_dispose;
  object_class->finalize = winnow_instances_page_finalize;

  panel_class->session_changed = winnow_instances_page_session_changed;
  winnow_panel_class_follow (panel_class, "run-changed", G_CALLBACK (run_changed_cb));

  g_type_ensure (WINNOW_TYPE_TABLE_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "/winnow-instances-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WinnowInstancesPage, box);
  gtk_widget_class_bind_template_child (widget_class, WinnowInstancesPage, search_entry);
  gtk_widget_class_bind_template_child (widget_class, WinnowInstancesPage, state_dropdown);
  gtk_widget_class_bind_template_child (widget_class, WinnowInstancesPage, count_label);
  gtk_widget_class_bind_template_child (widget_class, WinnowInstancesPage, stack);
  gtk_widget_class_bind_template_child (widget_class, WinnowInstancesPage, table);
  gtk_widget_class_bind_template_child (widget_class, WinnowInstancesPage, empty);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, state_filter_cb);
}

static void
winnow_instances_page_init (WinnowInstancesPage *self)
{
  self->filter = GTK_FILTER (gtk_custom_filter_new (NULL, NULL, NULL));
  gtk_widget_init_template (GTK_WIDGET (self));
}

void
winnow_instances_page_update (WinnowInstancesPage *self)
{
  g_return_if_fail (WINNOW_IS_INSTANCES_PAGE (self));

  if (winnow_panel_get_session (WINNOW_PANEL (self)) == NULL)
    return;
  winnow_table_view_update (self->table);
  update_empty_state (self);
}

gboolean
winnow_instances_page_is_live (WinnowInstancesPage *self)
{
  g_return_val_if_fail (WINNOW_IS_INSTANCES_PAGE (self), FALSE);
  return winnow_table_view_is_live (self->table);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-instances-page.c — the Instances tab: a table of every instance
 * the run started. The window calls winnow_instances_page_update() on the
 * frame that shows the tabs; the tab's badge (terminated instances not seen
 * yet) is the window's, with the other alerts. */
#include "config.h"

#include <glib/gi18n.h>

#include "winnow-instances-page.h"
#include "winnow-table-view.h"
#include "winnow-instance-row.h"

struct _WinnowInstancesPage
{
  WinnowPanel      parent_instance;

  GtkStack        *stack;
  WinnowTableView *table;
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
  { "incidents", N_("Incidents"), "incidents", WINNOW_CELL_NUMBER, FALSE, WINNOW_SORT_NUMERIC, "incidents", NULL, FALSE, 4 },
  { "outcome", N_("Outcome"), "outcome", WINNOW_CELL_TEXT, FALSE, WINNOW_SORT_NONE, NULL, NULL, TRUE, 30 },
};

static void
update_empty_state (WinnowInstancesPage *self)
{
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  guint n_instances = g_list_model_get_n_items (winnow_session_get_instances (session));

  gtk_stack_set_visible_child_name (self->stack, n_instances ? "list" : "empty");
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
                               NULL, (WinnowAssignFunc) winnow_instance_row_assign);
  update_empty_state (self);
}

static void
winnow_instances_page_class_init (WinnowInstancesPageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  WinnowPanelClass *panel_class = WINNOW_PANEL_CLASS (klass);

  panel_class->session_changed = winnow_instances_page_session_changed;
  winnow_panel_class_follow (panel_class, "run-changed", G_CALLBACK (run_changed_cb));

  g_type_ensure (WINNOW_TYPE_TABLE_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "/winnow-instances-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WinnowInstancesPage, stack);
  gtk_widget_class_bind_template_child (widget_class, WinnowInstancesPage, table);
}

static void
winnow_instances_page_init (WinnowInstancesPage *self)
{
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

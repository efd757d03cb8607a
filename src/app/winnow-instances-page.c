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
#include "winnow-table-page.h"
#include "winnow-instance-row.h"

struct _WinnowInstancesPage
{
  WinnowTablePage  parent_instance;

  GtkLabel        *count_label;

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

G_DEFINE_FINAL_TYPE (WinnowInstancesPage, winnow_instances_page, WINNOW_TYPE_TABLE_PAGE)

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

static GListModel *
winnow_instances_page_rows (WinnowTablePage *page,
                            WinnowSession   *session)
{
  return winnow_session_get_instances (session);
}

static gboolean
winnow_instances_page_filtering (WinnowTablePage *page)
{
  return WINNOW_INSTANCES_PAGE (page)->state_filter != STATE_ALL || winnow_table_page_get_needle (page) != NULL;
}

static gboolean
winnow_instances_page_match (WinnowTablePage *page,
                             gpointer         item)
{
  WinnowInstancesPage *self = WINNOW_INSTANCES_PAGE (page);
  WinnowInstanceRow *row = item;
  WnInstanceState state = winnow_instance_row_get_state (row);
  const char *needle = winnow_table_page_get_needle (page);

  switch (self->state_filter)
    {
    case STATE_ACTIVE: if (state != WN_INSTANCE_ACTIVE) return FALSE; break;
    case STATE_COMPLETED: if (state != WN_INSTANCE_COMPLETED) return FALSE; break;
    case STATE_TERMINATED: if (state != WN_INSTANCE_TERMINATED) return FALSE; break;
    case STATE_INCIDENT: if (winnow_instance_row_get_incidents (row) == 0) return FALSE; break;
    default: break;
    }
  if (needle != NULL)
    {
      g_autofree char *id = g_utf8_casefold (winnow_row_get_id (WINNOW_ROW (row)), -1);
      g_autofree char *outcome = NULL;
      g_autofree char *folded = NULL;

      if (strstr (id, needle) != NULL)
        return TRUE;
      g_object_get (row, "outcome", &outcome, NULL);
      folded = g_utf8_casefold (outcome != NULL ? outcome : "", -1);
      return strstr (folded, needle) != NULL;
    }
  return TRUE;
}

static void
winnow_instances_page_update_empty (WinnowTablePage *page,
                                    guint            n_shown,
                                    guint            n_instances)
{
  WinnowInstancesPage *self = WINNOW_INSTANCES_PAGE (page);
  g_autofree char *count = NULL;

  if (n_instances > 0)
    winnow_table_page_set_empty (page, _("No Instance Matches"),
                                 _("Clear the search or the state filter to see every instance."));
  else
    winnow_table_page_set_empty (page, _("No Instance Started Yet"),
                                 _("The scenario’s instances start at their times. Press F10 to run to the next event."));
  if (n_shown == n_instances)
    count = g_strdup_printf (ngettext ("%u instance", "%u instances", n_instances), n_instances);
  else
    /* Translators: "3 of 12 instances" */
    count = g_strdup_printf (ngettext ("%u of %u instance", "%u of %u instances", n_instances), n_shown, n_instances);
  gtk_label_set_text (self->count_label, count);
}

static void
state_filter_cb (GtkDropDown         *dropdown,
                 GParamSpec          *pspec,
                 WinnowInstancesPage *self)
{
  guint selected = gtk_drop_down_get_selected (dropdown);

  self->state_filter = selected <= STATE_INCIDENT ? selected : STATE_ALL;
  winnow_table_page_refilter (WINNOW_TABLE_PAGE (self));
}

static void
winnow_instances_page_class_init (WinnowInstancesPageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  WinnowTablePageClass *page_class = WINNOW_TABLE_PAGE_CLASS (klass);

  page_class->rows = winnow_instances_page_rows;
  page_class->filtering = winnow_instances_page_filtering;
  page_class->match = winnow_instances_page_match;
  page_class->update_empty = winnow_instances_page_update_empty;

  winnow_table_page_class_set_table (page_class, RESOURCE_BASE "/winnow-instances-page.ui", WINNOW_TYPE_INSTANCE_ROW,
                                     instance_columns, G_N_ELEMENTS (instance_columns));
  gtk_widget_class_bind_template_child_full (widget_class, "box", FALSE, 0);   /* disposed with the template */
  gtk_widget_class_bind_template_child (widget_class, WinnowInstancesPage, count_label);
  gtk_widget_class_bind_template_callback (widget_class, state_filter_cb);
}

static void
winnow_instances_page_init (WinnowInstancesPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

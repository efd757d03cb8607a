/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-incidents-page.c — the Incidents tab. The window calls
 * winnow_incidents_page_update() on the frame that shows the tabs; the
 * page's own actions (incidents.retry, .resolve, .cancel-instance) are the
 * buttons of its rows. */
#include "config.h"

#include <glib/gi18n.h>

#include "winnow-incidents-page.h"
#include "winnow-panel-util.h"

struct _WinnowIncidentsPage
{
  WinnowPanel    parent_instance;

  GtkStack      *stack;
  GtkListBox    *list;

  guint          shown;          /* the incidents' version on show */
};

G_DEFINE_FINAL_TYPE (WinnowIncidentsPage, winnow_incidents_page, WINNOW_TYPE_PANEL)

static GtkWidget *
command_button (const char *mnemonic,
                const char *tooltip,
                const char *style,
                const char *action,
                GVariant   *target)
{
  GtkWidget *button = gtk_button_new_with_mnemonic (mnemonic);

  gtk_widget_set_tooltip_text (button, tooltip);
  if (style != NULL)
    gtk_widget_add_css_class (button, style);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (button), target);
  return button;
}

static GtkWidget *
incident_row (const WinnowIncident *incident,
              WnProcess            *process)
{
  const WnNode *node = process ? wn_process_find_node (process, incident->node) : NULL;
  g_autofree char *since = wn_time_format_clock (incident->since);
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;
  GtkWidget *row, *box;

  /* Translators: an incident row: "i1 · Book shipment" */
  title = g_strdup_printf (_("%s · %s"), incident->instance, node && node->name ? node->name : incident->node);
  /* Translators: "retries exhausted for … \nsince T+00:02.300, track i1/t1" */
  subtitle = g_strdup_printf (_("%s\nsince %s, track %s"),
                              incident->error ? incident->error : _("no diagnostic"), since, incident->track);
  row = winnow_property_row_new (title, subtitle);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 4);
  gtk_widget_add_css_class (row, "incident-row");
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), gtk_image_new_from_icon_name ("dialog-warning-symbolic"));

  box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_valign (box, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (box),
                  command_button (_("_Retry"), _("Run the task again with a fresh retry budget"), "suggested-action",
                                  "incidents.retry", g_variant_new ("(ss)", incident->instance, incident->node)));
  gtk_box_append (GTK_BOX (box),
                  command_button (_("Re_solve"), _("Skip the task: the token continues on its outgoing flows"), NULL,
                                  "incidents.resolve", g_variant_new ("(ss)", incident->instance, incident->node)));
  gtk_box_append (GTK_BOX (box),
                  command_button (_("_Cancel Instance"), _("Terminate the whole instance"), "destructive-action",
                                  "incidents.cancel-instance", g_variant_new_string (incident->instance)));
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), box);
  return row;
}

/* The session flushes after the command (its needs-flush), so the views
 * catch up on the next frame. */
static void
command_done (WinnowIncidentsPage *self,
              gboolean             ok,
              GError              *error,
              const char          *done)
{
  winnow_panel_toast (GTK_WIDGET (self), ok ? done : error ? error->message : _("The command failed"));
}

/* incidents.retry and incidents.resolve, on (instance, node). */
static void
incident_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *param)
{
  WinnowIncidentsPage *self = WINNOW_INCIDENTS_PAGE (widget);
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  gboolean retry = g_strcmp0 (action_name, "incidents.retry") == 0;
  const char *instance, *node;
  g_autoptr(GError) error = NULL;
  g_autofree char *done = NULL;
  gboolean ok;

  if (session == NULL)
    return;
  g_variant_get (param, "(&s&s)", &instance, &node);
  if (retry)
    {
      ok = winnow_session_incident_retry (session, instance, *node ? node : NULL, &error);
      /* Translators: %s is an instance id */
      done = g_strdup_printf (_("Retrying the task in %s"), instance);
    }
  else
    {
      ok = winnow_session_incident_resolve (session, instance, *node ? node : NULL, &error);
      /* Translators: %s is an instance id */
      done = g_strdup_printf (_("Resolved: %s goes on past the task"), instance);
    }
  command_done (self, ok, error, done);
}

static void
cancel_instance_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  WinnowIncidentsPage *self = WINNOW_INCIDENTS_PAGE (widget);
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  const char *instance = g_variant_get_string (param, NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *done = NULL;
  gboolean ok;

  if (session == NULL)
    return;
  ok = winnow_session_cancel_instance (session, instance, &error);
  /* Translators: %s is an instance id */
  done = g_strdup_printf (_("Canceled %s"), instance);
  command_done (self, ok, error, done);
}

static void
run_changed_cb (WinnowSession       *session,
                WinnowIncidentsPage *self)
{
  self->shown = G_MAXUINT;
  winnow_incidents_page_update (self);
}


static void
winnow_incidents_page_session_changed (WinnowPanel   *panel,
                                       WinnowSession *old)
{
  WinnowIncidentsPage *self = WINNOW_INCIDENTS_PAGE (panel);

  self->shown = G_MAXUINT;
  if (winnow_panel_get_session (panel) != NULL)
    winnow_incidents_page_update (self);
}

static void
winnow_incidents_page_class_init (WinnowIncidentsPageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  WinnowPanelClass *panel_class = WINNOW_PANEL_CLASS (klass);

  panel_class->session_changed = winnow_incidents_page_session_changed;
  winnow_panel_class_follow (panel_class, "run-changed", G_CALLBACK (run_changed_cb));

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "/winnow-incidents-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WinnowIncidentsPage, stack);
  gtk_widget_class_bind_template_child (widget_class, WinnowIncidentsPage, list);

  gtk_widget_class_install_action (widget_class, "incidents.retry", "(ss)", incident_action);
  gtk_widget_class_install_action (widget_class, "incidents.resolve", "(ss)", incident_action);
  gtk_widget_class_install_action (widget_class, "incidents.cancel-instance", "s", cancel_instance_action);
}

static void
winnow_incidents_page_init (WinnowIncidentsPage *self)
{
  self->shown = G_MAXUINT;
  gtk_widget_init_template (GTK_WIDGET (self));
}

void
winnow_incidents_page_update (WinnowIncidentsPage *self)
{
  WinnowSession *session;
  GPtrArray *incidents;
  WnProcess *process;
  guint version;

  g_return_if_fail (WINNOW_IS_INCIDENTS_PAGE (self));

  session = winnow_panel_get_session (WINNOW_PANEL (self));
  if (session == NULL)
    return;
  incidents = winnow_session_get_incidents (session);
  version = winnow_session_get_incidents_version (session);
  if (version == self->shown)
    return;
  self->shown = version;
  process = winnow_session_get_process (session);
  winnow_list_box_clear (self->list);
  for (guint i = 0; i < incidents->len; i++)
    gtk_list_box_append (self->list, incident_row (g_ptr_array_index (incidents, i), process));
  gtk_stack_set_visible_child_name (self->stack, incidents->len > 0 ? "list" : "empty");
  winnow_panel_set_badge (WINNOW_PANEL (self), incidents->len);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-workers-page.c — the Workers tab: the switch that makes the session
 * accept outside workers (winnow-session-serve.c), their calls waiting while
 * the clock is paused, and the locks they hold. Updated on every flush. */
#include "config.h"

#include <glib/gi18n.h>

#include "winnow-workers-page.h"
#include "winnow-panel-util.h"

struct _WinnowWorkersPage
{
  WinnowPanel   parent_instance;

  AdwActionRow *accept_row;
  GtkSwitch    *accept_switch;
  AdwEntryRow  *address_row;
  GtkListBox   *held_list;
  GtkListBox   *locks_list;
  gboolean      syncing;
};

G_DEFINE_FINAL_TYPE (WinnowWorkersPage, winnow_workers_page, WINNOW_TYPE_PANEL)

static void
accept_changed_cb (WinnowWorkersPage *self)
{
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  g_autoptr(GError) error = NULL;
  gboolean on = gtk_switch_get_active (self->accept_switch);

  if (self->syncing || session == NULL)
    return;
  if (!winnow_session_serve (session, on ? gtk_editable_get_text (GTK_EDITABLE (self->address_row)) : NULL,
                             &error))
    {
      winnow_panel_toast (GTK_WIDGET (self), error->message);
      self->syncing = TRUE;
      gtk_switch_set_active (self->accept_switch, FALSE);
      self->syncing = FALSE;
    }
  winnow_workers_page_update (self);
}

static void
apply_next_action (GtkWidget  *widget,
                   const char *action,
                   GVariant   *parameter)
{
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (widget));
  WnRestServer *server = session != NULL ? winnow_session_get_server (session) : NULL;

  if (server != NULL)
    winnow_session_step_next (session);
}

typedef struct {
  WnScenario *scenario;
  GtkListBox *list;
} Locks;

static void
lock_cb (const WnJobInfo *info,
         gpointer         data)
{
  Locks *locks = data;
  g_autofree char *until = NULL;
  g_autofree char *subtitle = NULL;

  if (info->worker == NULL || info->state != WN_JOB_LOCKED || g_str_has_prefix (info->worker, "implicit:"))
    return;
  for (guint i = 0; i < locks->scenario->workers->len; i++)
    if (g_strcmp0 (((WnWorkerConfig *) g_ptr_array_index (locks->scenario->workers, i))->id, info->worker) == 0)
      return;
  until = wn_time_format_clock (info->deadline);
  /* Translators: "by js-inventory until T+00:10.541, execution 2" */
  subtitle = g_strdup_printf (_("by %s until %s, execution %u"), info->worker, until, info->executions);
  gtk_list_box_append (locks->list, winnow_property_row_new (info->id, subtitle));
}

/* The session flushed, or a new run replaced the last one. */
static void
follow_cb (WinnowSession     *session,
           WinnowWorkersPage *self)
{
  winnow_workers_page_update (self);
}

static void
winnow_workers_page_session_changed (WinnowPanel   *panel,
                                     WinnowSession *old)
{
  winnow_workers_page_update (WINNOW_WORKERS_PAGE (panel));
}

static void
winnow_workers_page_class_init (WinnowWorkersPageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  WinnowPanelClass *panel_class = WINNOW_PANEL_CLASS (klass);

  panel_class->session_changed = winnow_workers_page_session_changed;
  winnow_panel_class_follow (panel_class, "flushed", G_CALLBACK (follow_cb));
  winnow_panel_class_follow (panel_class, "run-changed", G_CALLBACK (follow_cb));

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "/winnow-workers-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WinnowWorkersPage, accept_row);
  gtk_widget_class_bind_template_child (widget_class, WinnowWorkersPage, accept_switch);
  gtk_widget_class_bind_template_child (widget_class, WinnowWorkersPage, address_row);
  gtk_widget_class_bind_template_child (widget_class, WinnowWorkersPage, held_list);
  gtk_widget_class_bind_template_child (widget_class, WinnowWorkersPage, locks_list);
  gtk_widget_class_install_action (widget_class, "workers.apply-next", NULL, apply_next_action);
}

static void
winnow_workers_page_init (WinnowWorkersPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect_swapped (self->accept_switch, "notify::active", G_CALLBACK (accept_changed_cb), self);
}

void
winnow_workers_page_update (WinnowWorkersPage *self)
{
  WinnowSession *session;
  WnRestServer *server;
  WnEngine *engine;
  guint n_held;

  g_return_if_fail (WINNOW_IS_WORKERS_PAGE (self));

  session = winnow_panel_get_session (WINNOW_PANEL (self));
  server = session != NULL ? winnow_session_get_server (session) : NULL;
  engine = session != NULL ? winnow_session_get_engine (session) : NULL;

  self->syncing = TRUE;
  gtk_switch_set_active (self->accept_switch, server != NULL);
  self->syncing = FALSE;
  gtk_widget_set_sensitive (GTK_WIDGET (self->address_row), server == NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->accept_row), engine != NULL);
  winnow_row_set_subtitle (self->accept_row, server != NULL ? wn_rest_server_get_url (server)
                                                            : _("Off: only the scenario’s simulated workers serve"));

  winnow_list_box_clear (self->held_list);
  n_held = server != NULL ? wn_rest_server_get_n_held (server) : 0;
  for (guint i = 0; i < n_held; i++)
    gtk_list_box_append (self->held_list,
                         winnow_property_row_new (wn_rest_server_get_held (server, i),
                                                  i == 0 ? _("next") : NULL));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "workers.apply-next", n_held > 0);

  winnow_list_box_clear (self->locks_list);
  if (engine != NULL && server != NULL)
    {
      Locks locks = { wn_engine_get_scenario (engine), self->locks_list };

      wn_dispatcher_foreach (wn_engine_get_dispatcher (engine), lock_cb, &locks);
    }
}

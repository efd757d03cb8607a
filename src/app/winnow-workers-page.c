/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-workers-page.c — the Workers tab: the switch that makes the session
 * accept outside workers (winnow-session-serve.c), a switch per topic for its
 * simulated workers, the outside workers that called with their last call
 * and locks, their calls waiting while the clock is paused, and the locks
 * they hold. Updated on every flush; the topic rows are remade per run. */
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
  GtkListBox   *topics_list;
  GtkListBox   *workers_list;
  GtkListBox   *held_list;
  GtkListBox   *locks_list;
  GPtrArray    *topic_switches;  /* GtkSwitch*, one per topics_list row; "topic" data */
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

static void
topic_switched_cb (GtkSwitch         *toggle,
                   GParamSpec        *pspec,
                   WinnowWorkersPage *self)
{
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  g_autoptr(GError) error = NULL;

  if (self->syncing || session == NULL)
    return;
  if (!winnow_session_set_topic_simulated (session, g_object_get_data (G_OBJECT (toggle), "topic"),
                                           gtk_switch_get_active (toggle), &error))
    winnow_panel_toast (GTK_WIDGET (self), error->message);
  winnow_workers_page_update (self);
}

/* A row per topic the scenario's simulated workers serve, for this run. */
static void
rebuild_topics (WinnowWorkersPage *self)
{
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  g_auto(GStrv) topics = session != NULL ? winnow_session_dup_simulated_topics (session) : NULL;

  winnow_list_box_clear (self->topics_list);
  g_ptr_array_set_size (self->topic_switches, 0);
  for (guint i = 0; topics != NULL && topics[i] != NULL; i++)
    {
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *toggle = gtk_switch_new ();

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), topics[i]);
      gtk_widget_set_valign (toggle, GTK_ALIGN_CENTER);
      g_object_set_data_full (G_OBJECT (toggle), "topic", g_strdup (topics[i]), g_free);
      gtk_accessible_update_property (GTK_ACCESSIBLE (toggle), GTK_ACCESSIBLE_PROPERTY_LABEL, topics[i], -1);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), toggle);
      adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), toggle);
      g_signal_connect (toggle, "notify::active", G_CALLBACK (topic_switched_cb), self);
      g_ptr_array_add (self->topic_switches, toggle);
      gtk_list_box_append (self->topics_list, row);
    }
}

typedef struct {
  const char *id;
  GString    *locks;
  guint       n_locks;
} Worker;

/* The jobs `worker` holds, as "locks i1/j2 (until T+00:11.250), …". */
static void
worker_lock_cb (const WnJobInfo *info,
                gpointer         data)
{
  Worker *worker = data;
  g_autofree char *until = NULL;

  if (info->state != WN_JOB_LOCKED || g_strcmp0 (info->worker, worker->id) != 0)
    return;
  until = wn_time_format_clock (info->deadline);
  if (worker->n_locks++ == 0)
    /* Translators: the start of the list of a worker's locks: "locks i1/j2 (until T+00:11.250)" */
    g_string_append_printf (worker->locks, _("locks %s (until %s)"), info->id, until);
  else
    g_string_append_printf (worker->locks, _(", %s (until %s)"), info->id, until);
}

/* The session flushed. */
static void
follow_cb (WinnowSession     *session,
           WinnowWorkersPage *self)
{
  winnow_workers_page_update (self);
}

/* A new run replaced the last one. */
static void
run_changed_cb (WinnowSession     *session,
                WinnowWorkersPage *self)
{
  rebuild_topics (self);
  winnow_workers_page_update (self);
}

static void
winnow_workers_page_session_changed (WinnowPanel   *panel,
                                     WinnowSession *old)
{
  rebuild_topics (WINNOW_WORKERS_PAGE (panel));
  winnow_workers_page_update (WINNOW_WORKERS_PAGE (panel));
}

static void
winnow_workers_page_finalize (GObject *object)
{
  g_ptr_array_unref (WINNOW_WORKERS_PAGE (object)->topic_switches);
  G_OBJECT_CLASS (winnow_workers_page_parent_class)->finalize (object);
}

static void
winnow_workers_page_class_init (WinnowWorkersPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  WinnowPanelClass *panel_class = WINNOW_PANEL_CLASS (klass);

  object_class->finalize = winnow_workers_page_finalize;
  panel_class->session_changed = winnow_workers_page_session_changed;
  winnow_panel_class_follow (panel_class, "flushed", G_CALLBACK (follow_cb));
  winnow_panel_class_follow (panel_class, "run-changed", G_CALLBACK (run_changed_cb));

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "/winnow-workers-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WinnowWorkersPage, accept_row);
  gtk_widget_class_bind_template_child (widget_class, WinnowWorkersPage, accept_switch);
  gtk_widget_class_bind_template_child (widget_class, WinnowWorkersPage, address_row);
  gtk_widget_class_bind_template_child (widget_class, WinnowWorkersPage, topics_list);
  gtk_widget_class_bind_template_child (widget_class, WinnowWorkersPage, workers_list);
  gtk_widget_class_bind_template_child (widget_class, WinnowWorkersPage, held_list);
  gtk_widget_class_bind_template_child (widget_class, WinnowWorkersPage, locks_list);
  gtk_widget_class_install_action (widget_class, "workers.apply-next", NULL, apply_next_action);
}

static void
winnow_workers_page_init (WinnowWorkersPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->topic_switches = g_ptr_array_new ();
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

  for (guint i = 0; i < self->topic_switches->len; i++)
    {
      GtkSwitch *toggle = g_ptr_array_index (self->topic_switches, i);
      gboolean on = engine != NULL &&
                    wn_engine_get_topic_simulated (engine, g_object_get_data (G_OBJECT (toggle), "topic"));
      GtkWidget *row = gtk_widget_get_ancestor (GTK_WIDGET (toggle), ADW_TYPE_ACTION_ROW);

      self->syncing = TRUE;
      gtk_switch_set_active (toggle, on);
      self->syncing = FALSE;
      winnow_row_set_subtitle (ADW_ACTION_ROW (row), on ? _("Simulated workers serve it")
                                                        : _("Off: only outside workers get its jobs"));
    }

  winnow_list_box_clear (self->workers_list);
  for (guint i = 0; server != NULL && i < wn_rest_server_get_n_workers (server); i++)
    {
      const char *last = NULL;
      WnTime at = 0;
      guint64 n_calls = 0;
      const char *id = wn_rest_server_get_worker (server, i, &last, &at, &n_calls);
      g_autofree char *when = wn_time_format_clock (at);
      Worker worker = { id, g_string_new (NULL), 0 };
      g_autofree char *subtitle = NULL;

      wn_dispatcher_foreach (wn_engine_get_dispatcher (engine), worker_lock_cb, &worker);
      /* Translators: "last call complete i1/j1 at T+00:01.250, 12 calls; locks i1/j2 (until T+00:11.250)" */
      subtitle = g_strdup_printf (ngettext ("last call %s at %s, %u call; %s",
                                            "last call %s at %s, %u calls; %s", (gulong) MIN (n_calls, G_MAXUINT)),
                                  last, when, (guint) MIN (n_calls, G_MAXUINT),
                                  worker.n_locks > 0 ? worker.locks->str : _("no locks"));
      g_string_free (worker.locks, TRUE);
      gtk_list_box_append (self->workers_list, winnow_property_row_new (id, subtitle));
    }

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

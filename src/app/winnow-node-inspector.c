/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-node-inspector.c — the side panel's node section. It follows the
 * session's selected node itself; the window calls
 * winnow_node_inspector_update() on the frame that shows the views above the
 * tabs (the live counts), and its switch sets or removes the node's breakpoint. */
#include "config.h"

#include <glib/gi18n.h>

#include "winnow-node-inspector.h"
#include "winnow-panel-util.h"

struct _WinnowNodeInspector
{
  WinnowPanel          parent_instance;

  /* template children */
  AdwPreferencesGroup *node_group;
  AdwActionRow        *node_type_row;
  AdwActionRow        *topic_row;
  AdwActionRow        *retry_row;
  AdwActionRow        *counts_row;
  AdwActionRow        *node_break_row;
  GtkSwitch           *node_break_switch;
  AdwComboRow         *task_trust_row;

  gboolean             updating;
};

G_DEFINE_FINAL_TYPE (WinnowNodeInspector, winnow_node_inspector, WINNOW_TYPE_PANEL)

static char *
describe_task_retry (WinnowNodeInspector *self,
                     const WnNode        *node)
{
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  WnEngine *engine = winnow_session_get_engine (session);
  WnPolicyOrigin from = WN_POLICY_FROM_DEFAULT;
  WnPolicy *policy = engine ? wn_engine_get_task_policy (engine, node->id, &from, NULL) : NULL;
  g_autofree char *text = NULL;
  /* Translators: where a retry policy comes from */
  const char *origin = from == WN_POLICY_FROM_TASK ? _("set on the task") :
                       from == WN_POLICY_FROM_ENGINE ? _("engine-wide") : _("the default");

  if (policy == NULL)
    return g_strdup ("—");
  text = wn_retry_policy_describe (&policy->retry);
  return g_strdup_printf ("%s (%s)", text, origin);
}

static void
update_node_counts_row (WinnowNodeInspector *self)
{
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  const char *node = winnow_session_get_selected_node (session);
  WinnowNodeCounts counts = winnow_session_get_node_counts (session, node);
  g_autofree char *text = NULL;

  if (node == NULL)
    return;
  /* Translators: live tracks at the selected node */
  text = g_strdup_printf (_("%u active · %u parked · %u incident"), counts.active, counts.parked, counts.incident);
  winnow_row_set_subtitle (self->counts_row, text);
}

static void
update_node_inspector (WinnowNodeInspector *self)
{
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  const WnNode *node = winnow_panel_selected_node (session);
  WnEngine *engine = winnow_session_get_engine (session);
  gboolean worker = node != NULL && node->worker != NULL;

  self->updating = TRUE;

  /* the whole section: the side panel's hint shows when it hides */
  gtk_widget_set_visible (GTK_WIDGET (self), node != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->topic_row), worker);
  gtk_widget_set_visible (GTK_WIDGET (self->retry_row), worker);
  gtk_widget_set_visible (GTK_WIDGET (self->task_trust_row), worker);
  if (node != NULL)
    {
      adw_preferences_group_set_title (self->node_group, node->name ? node->name : node->id);
      adw_preferences_group_set_description (self->node_group, node->name ? node->id : NULL);
      winnow_row_set_subtitle (self->node_type_row, wn_node_type_to_string (node->type));
      gtk_switch_set_active (self->node_break_switch, winnow_session_node_breaks (session, node->id));
      update_node_counts_row (self);
    }
  if (worker)
    {
      g_autofree char *retry = describe_task_retry (self, node);
      WnTrust trust = engine ? wn_engine_get_task_trust (engine, node->id) : node->worker->policy.trust;

      winnow_row_set_subtitle (self->topic_row, node->worker->topic);
      winnow_row_set_subtitle (self->retry_row, retry);
      adw_combo_row_set_selected (self->task_trust_row,
                                  trust == WN_TRUST_WORKER_TRUSTED ? 1 :
                                  trust == WN_TRUST_ENGINE_AUTHORITATIVE ? 2 : 0);
    }

  self->updating = FALSE;
}

static void
selected_node_cb (WinnowSession       *session,
                  GParamSpec          *pspec,
                  WinnowNodeInspector *self)
{
  update_node_inspector (self);
}

/* a new run, or the breakpoints changed: the section as the session has it */
static void
run_changed_cb (WinnowSession       *session,
                WinnowNodeInspector *self)
{
  update_node_inspector (self);
}

static void
task_trust_selected_cb (AdwComboRow         *row,
                        GParamSpec          *pspec,
                        WinnowNodeInspector *self)
{
  static const WnTrust trusts[] = { WN_TRUST_UNSET, WN_TRUST_WORKER_TRUSTED, WN_TRUST_ENGINE_AUTHORITATIVE };
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  const WnNode *node = session ? winnow_panel_selected_node (session) : NULL;
  guint selected = adw_combo_row_get_selected (row);
  g_autoptr(GError) error = NULL;

  if (self->updating || node == NULL || node->worker == NULL || selected >= G_N_ELEMENTS (trusts))
    return;
  if (!winnow_session_set_task_trust (session, node->id, trusts[selected], &error))
    winnow_panel_toast (GTK_WIDGET (self), error->message);
}

/* The session keeps the breakpoints: the switch toggles the node's, and the
 * session's breakpoints-changed sets the switch (update_node_inspector). */
static void
node_break_switch_cb (GtkSwitch           *toggle,
                      GParamSpec          *pspec,
                      WinnowNodeInspector *self)
{
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  const char *node = session ? winnow_session_get_selected_node (session) : NULL;
  gboolean want = gtk_switch_get_active (toggle);

  if (self->updating || node == NULL || want == winnow_session_node_breaks (session, node))
    return;
  winnow_session_toggle_node_breakpoint (session, node);
}

static void
winnow_node_inspector_session_changed (WinnowPanel   *panel,
                                       WinnowSession *old)
{
  if (winnow_panel_get_session (panel) != NULL)
    update_node_inspector (WINNOW_NODE_INSPECTOR (panel));
}

static void
winnow_node_inspector_class_init (WinnowNodeInspectorClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  WinnowPanelClass *panel_class = WINNOW_PANEL_CLASS (klass);

  panel_class->session_changed = winnow_node_inspector_session_changed;
  winnow_panel_class_follow (panel_class, "notify::selected-node", G_CALLBACK (selected_node_cb));
  winnow_panel_class_follow (panel_class, "run-changed", G_CALLBACK (run_changed_cb));
  winnow_panel_class_follow (panel_class, "breakpoints-changed", G_CALLBACK (run_changed_cb));

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "/winnow-node-inspector.ui");
#define BIND(name) gtk_widget_class_bind_template_child (widget_class, WinnowNodeInspector, name)
  BIND (node_group);
  BIND (node_type_row);
  BIND (topic_row);
  BIND (retry_row);
  BIND (counts_row);
  BIND (node_break_row);
  BIND (node_break_switch);
  BIND (task_trust_row);
#undef BIND
  gtk_widget_class_bind_template_callback (widget_class, task_trust_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, node_break_switch_cb);
}

static void
winnow_node_inspector_init (WinnowNodeInspector *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

void
winnow_node_inspector_update (WinnowNodeInspector *self)
{
  g_return_if_fail (WINNOW_IS_NODE_INSPECTOR (self));

  if (winnow_panel_get_session (WINNOW_PANEL (self)) != NULL)
    update_node_counts_row (self);
}

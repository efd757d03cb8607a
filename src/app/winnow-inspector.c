/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-inspector.c — the window's side panel. Its sections are panels of
 * their own, bound to its session in its template; each follows the
 * session's selection itself and hides while it has nothing to show, and
 * the hint shows while the job and node sections are both hidden. */
#include "config.h"

#include "winnow-inspector.h"
#include "winnow-job-inspector.h"

struct _WinnowInspector
{
  WinnowPanel          parent_instance;

  /* template children */
  GtkScrolledWindow   *scroller;
  GtkLabel            *select_hint;
  WinnowJobInspector  *job_inspector;
  WinnowNodeInspector *node_inspector;
  WinnowFaultPanel    *fault_panel;
  WinnowRunPanel      *run_panel;
};

G_DEFINE_FINAL_TYPE (WinnowInspector, winnow_inspector, WINNOW_TYPE_PANEL)

/* The hint shows while the side panel has nothing else to show. */
static void
update_select_hint (WinnowInspector *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->select_hint),
                          !gtk_widget_get_visible (GTK_WIDGET (self->node_inspector)) &&
                          !gtk_widget_get_visible (GTK_WIDGET (self->job_inspector)));
}

/* A new selection is read from its title down: the panel goes back to its
 * top rather than keep the last one's scroll position. */
static void
selection_changed_cb (WinnowSession   *session,
                      GParamSpec      *pspec,
                      WinnowInspector *self)
{
  gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (self->scroller), 0);
}


static void
winnow_inspector_class_init (WinnowInspectorClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  WinnowPanelClass *panel_class = WINNOW_PANEL_CLASS (klass);

  winnow_panel_class_follow (panel_class, "notify::selected-node", G_CALLBACK (selection_changed_cb));
  winnow_panel_class_follow (panel_class, "notify::selected-job", G_CALLBACK (selection_changed_cb));

  g_type_ensure (WINNOW_TYPE_JOB_INSPECTOR);
  g_type_ensure (WINNOW_TYPE_NODE_INSPECTOR);
  g_type_ensure (WINNOW_TYPE_FAULT_PANEL);
  g_type_ensure (WINNOW_TYPE_RUN_PANEL);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "/winnow-inspector.ui");
#define BIND(name) gtk_widget_class_bind_template_child (widget_class, WinnowInspector, name)
  BIND (scroller);
  BIND (select_hint);
  BIND (job_inspector);
  BIND (node_inspector);
  BIND (fault_panel);
  BIND (run_panel);
#undef BIND
}

static void
winnow_inspector_init (WinnowInspector *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect_swapped (self->job_inspector, "notify::visible", G_CALLBACK (update_select_hint), self);
  g_signal_connect_swapped (self->node_inspector, "notify::visible", G_CALLBACK (update_select_hint), self);
  update_select_hint (self);
}

void
winnow_inspector_update (WinnowInspector *self)
{
  WinnowSession *session;

  g_return_if_fail (WINNOW_IS_INSPECTOR (self));

  session = winnow_panel_get_session (WINNOW_PANEL (self));
  if (session == NULL)
    return;
  winnow_run_panel_update (self->run_panel);
  winnow_node_inspector_update (self->node_inspector);
  if (winnow_session_get_selected_job (session) != NULL)
    winnow_job_inspector_update (self->job_inspector);
}


WinnowFaultPanel *
winnow_inspector_get_fault_panel (WinnowInspector *self)
{
  g_return_val_if_fail (WINNOW_IS_INSPECTOR (self), NULL);
  return self->fault_panel;
}

WinnowRunPanel *
winnow_inspector_get_run_panel (WinnowInspector *self)
{
  g_return_val_if_fail (WINNOW_IS_INSPECTOR (self), NULL);
  return self->run_panel;
}

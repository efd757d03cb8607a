/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-breakpoints-page.c — the Breakpoints tab: a list box bound to the
 * run's breakpoints (the engine's model, the session's "breakpoints"), whose
 * rows follow their items' "enabled" and "hits". Its Add button is its breakpoints.add action; the window's
 * win.add-breakpoint and win.add-breakpoint-spec call
 * winnow_breakpoints_page_add() and _add_spec(). */
#include "config.h"

#include <glib/gi18n.h>

#include "winnow-breakpoints-page.h"
#include "winnow-event-row.h"
#include "winnow-panel-util.h"

struct _WinnowBreakpointsPage
{
  WinnowPanel    parent_instance;

  GtkWidget     *box;            /* the template's top (dispose_template) */
  GtkDropDown   *kind_dropdown;
  GtkEntry      *spec_entry;
  GtkLabel      *error;
  GtkStack      *stack;
  GtkListBox    *list;

  GListModel    *model;          /* the session's breakpoints, bound to `list` */
};

G_DEFINE_FINAL_TYPE (WinnowBreakpointsPage, winnow_breakpoints_page, WINNOW_TYPE_PANEL)

/* The breakpoints the Breakpoints tab offers, in the order of its dropdown;
 * the first one is "a token enters the selected node". */
static const struct {
  WnEventKind  kind;
  WnEventPhase phase;
  const char  *label;
} breakpoint_kinds[] = {
  { WN_EV_NODE, WN_PH_ENTERED, N_("A token enters the selected node") },
  { WN_EV_JOB, WN_PH_RETRY_SCHEDULED, N_("A job is re-armed for a retry") },
  { WN_EV_JOB, WN_PH_RETRIES_EXHAUSTED, N_("A job’s retries are exhausted") },
  { WN_EV_FAULT, WN_PH_THROWN, N_("A BPMN error is thrown") },
  { WN_EV_FAULT, WN_PH_UNCAUGHT, N_("A BPMN error goes uncaught") },
  { WN_EV_INCIDENT, WN_PH_RAISED, N_("An incident is raised") },
  { WN_EV_JOB, WN_PH_LOCK_RECLAIMED, N_("A lapsed lock is reclaimed") },
  { WN_EV_JOB, WN_PH_REPORT_REJECTED, N_("A report is rejected") },
  { WN_EV_JOB, WN_PH_WORKER_RETRY_SCHEDULED, N_("A trusted worker backs off to retry in its lock") },
};

static WinnowSession *
get_session (WinnowBreakpointsPage *self)
{
  return winnow_panel_get_session (WINNOW_PANEL (self));
}

static const char *
breakpoint_label (WnEventKind  kind,
                  WnEventPhase phase)
{
  for (guint i = 1; i < G_N_ELEMENTS (breakpoint_kinds); i++)
    if (breakpoint_kinds[i].kind == kind && breakpoint_kinds[i].phase == phase)
      return _(breakpoint_kinds[i].label);
  return NULL;
}

static char *
describe_breakpoint (WinnowBreakpointsPage *self,
                     WnBreakpointItem      *bp)
{
  WnProcess *process = winnow_session_get_process (get_session (self));
  WnEventKind kind = wn_breakpoint_item_get_kind (bp);
  WnEventPhase phase = wn_breakpoint_item_get_phase (bp);
  const char *node_id = wn_breakpoint_item_get_node (bp);
  guint n_hits = wn_breakpoint_item_get_hits (bp);
  const WnNode *node = process && node_id ? wn_process_find_node (process, node_id) : NULL;
  const char *node_name = node ? (node->name ? node->name : node->id) : node_id;
  const char *label = breakpoint_label (kind, phase);
  g_autofree char *what = NULL;
  g_autofree char *hits = g_strdup_printf (ngettext ("%u hit in this run", "%u hits in this run", n_hits), n_hits);

  if (kind == WN_EV_NODE && phase == WN_PH_ENTERED && node_id != NULL)
    /* Translators: %s is a node's name */
    what = g_strdup_printf (_("A token enters “%s”"), node_name);
  else if (label != NULL && node_id != NULL)
    /* Translators: a breakpoint limited to one node: "An incident is raised, at “Book shipment”" */
    what = g_strdup_printf (_("%s, at “%s”"), label, node_name);
  else if (label != NULL)
    what = g_strdup (label);
  else
    /* Translators: a breakpoint on any event: "After every job.lockExtended event" */
    what = g_strdup_printf (_("After every %s.%s event"), wn_event_kind_to_string (kind),
                            wn_event_phase_to_string (phase));
  if (!wn_breakpoint_item_get_enabled (bp))
    return g_strdup_printf ("%s · %s · %s", what, hits, _("disabled"));
  return g_strdup_printf ("%s · %s", what, hits);
}

static void
breakpoint_switch_cb (GtkSwitch             *toggle,
                      GParamSpec            *pspec,
                      WinnowBreakpointsPage *self)
{
  WnBreakpointItem *bp = g_object_get_data (G_OBJECT (toggle), "winnow-breakpoint");
  gboolean active = gtk_switch_get_active (toggle);

  if (active != wn_breakpoint_item_get_enabled (bp))
    winnow_session_enable_breakpoint (get_session (self), wn_breakpoint_item_get_id (bp), active);
}

static void
breakpoint_remove_cb (GtkButton             *button,
                      WinnowBreakpointsPage *self)
{
  WnBreakpointItem *bp = g_object_get_data (G_OBJECT (button), "winnow-breakpoint");

  winnow_session_remove_breakpoint (get_session (self), wn_breakpoint_item_get_id (bp));
}

/* The item's "enabled" or "hits" changed: its row follows. */
static void
breakpoint_notify_cb (WnBreakpointItem *bp,
                      GParamSpec       *pspec,
                      AdwActionRow     *row)
{
  WinnowBreakpointsPage *self = WINNOW_BREAKPOINTS_PAGE (gtk_widget_get_ancestor (GTK_WIDGET (row), WINNOW_TYPE_BREAKPOINTS_PAGE));
  GtkWidget *dot = g_object_get_data (G_OBJECT (row), "winnow-dot");
  GtkWidget *toggle = g_object_get_data (G_OBJECT (row), "winnow-switch");
  gboolean enabled = wn_breakpoint_item_get_enabled (bp);
  g_autofree char *subtitle = NULL;

  if (self == NULL)
    return;
  subtitle = describe_breakpoint (self, bp);
  winnow_row_set_subtitle (row, subtitle);
  if (enabled)
    gtk_widget_remove_css_class (dot, "disabled");
  else
    gtk_widget_add_css_class (dot, "disabled");
  gtk_switch_set_active (GTK_SWITCH (toggle), enabled);
}

/* A row of the list box bound to the run's breakpoints. */
static GtkWidget *
create_breakpoint_row (gpointer item,
                       gpointer data)
{
  WinnowBreakpointsPage *self = data;
  WnBreakpointItem *bp = item;
  g_autofree char *spec = wn_breakpoint_item_dup_spec (bp);
  g_autofree char *subtitle = describe_breakpoint (self, bp);
  GtkWidget *row = winnow_property_row_new (spec, subtitle);
  GtkWidget *dot = gtk_label_new ("●");
  GtkWidget *toggle = gtk_switch_new ();
  GtkWidget *remove = gtk_button_new_from_icon_name ("user-trash-symbolic");

  gtk_widget_add_css_class (row, "breakpoint-row");
  gtk_widget_add_css_class (dot, "breakpoint-dot");
  if (!wn_breakpoint_item_get_enabled (bp))
    gtk_widget_add_css_class (dot, "disabled");
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), dot);

  gtk_switch_set_active (GTK_SWITCH (toggle), wn_breakpoint_item_get_enabled (bp));
  gtk_widget_set_valign (toggle, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (toggle, _("Enabled"));
  g_object_set_data_full (G_OBJECT (toggle), "winnow-breakpoint", g_object_ref (bp), g_object_unref);
  g_signal_connect (toggle, "notify::active", G_CALLBACK (breakpoint_switch_cb), self);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), toggle);

  gtk_widget_set_valign (remove, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (remove, "flat");
  gtk_widget_set_tooltip_text (remove, _("Remove"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (remove), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Remove"), -1);
  g_object_set_data_full (G_OBJECT (remove), "winnow-breakpoint", g_object_ref (bp), g_object_unref);
  g_signal_connect (remove, "clicked", G_CALLBACK (breakpoint_remove_cb), self);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), remove);

  g_object_set_data (G_OBJECT (row), "winnow-dot", dot);
  g_object_set_data (G_OBJECT (row), "winnow-switch", toggle);
  g_signal_connect_object (bp, "notify::enabled", G_CALLBACK (breakpoint_notify_cb), row, 0);
  g_signal_connect_object (bp, "notify::hits", G_CALLBACK (breakpoint_notify_cb), row, 0);
  return row;
}

/* The count (the tab's badge) and the empty state. */
static void
breakpoints_changed_cb (GListModel            *model,
                        guint                  position,
                        guint                  removed,
                        guint                  added,
                        WinnowBreakpointsPage *self)
{
  guint n = g_list_model_get_n_items (model);

  gtk_stack_set_visible_child_name (self->stack, n > 0 ? "list" : "empty");
  winnow_panel_set_badge (WINNOW_PANEL (self), n);
}

/* The list shows the run's breakpoints: a new run has a new model. */
static void
bind_breakpoints (WinnowBreakpointsPage *self)
{
  WinnowSession *session = get_session (self);
  GListModel *model = session ? winnow_session_get_breakpoints (session) : NULL;
  gboolean loaded = session != NULL && winnow_session_is_loaded (session);

  if (self->model != NULL)
    g_signal_handlers_disconnect_by_func (self->model, breakpoints_changed_cb, self);
  g_set_object (&self->model, model);
  gtk_list_box_bind_model (self->list, model, create_breakpoint_row, self, NULL);
  if (model != NULL)
    {
      g_signal_connect_object (model, "items-changed", G_CALLBACK (breakpoints_changed_cb), self, 0);
      breakpoints_changed_cb (model, 0, 0, 0, self);
    }
  /* breakpoints belong to a run: none before a process is open */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "breakpoints.add", loaded);
  gtk_widget_set_sensitive (GTK_WIDGET (self->kind_dropdown), loaded);
  gtk_widget_set_sensitive (GTK_WIDGET (self->spec_entry), loaded);
}

static void
set_breakpoint_error (WinnowBreakpointsPage *self,
                      const char            *message)
{
  winnow_field_set_error (self->error, message);
  if (message != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->spec_entry), "error");
}

static void
spec_activate_cb (GtkEntry              *entry,
                  WinnowBreakpointsPage *self)
{
  winnow_breakpoints_page_add_spec (self, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

static void
spec_changed_cb (GtkEditable           *editable,
                 WinnowBreakpointsPage *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->error), FALSE);
  gtk_widget_remove_css_class (GTK_WIDGET (self->spec_entry), "error");
}

/* breakpoints.add: the Add button */
static void
add_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *param)
{
  winnow_breakpoints_page_add (WINNOW_BREAKPOINTS_PAGE (widget));
}

static void
breakpoints_notify_cb (WinnowSession         *session,
                       GParamSpec            *pspec,
                       WinnowBreakpointsPage *self)
{
  bind_breakpoints (self);
}

static void
winnow_breakpoints_page_finalize (GObject *object)
{
  WinnowBreakpointsPage *self = WINNOW_BREAKPOINTS_PAGE (object);

  g_clear_object (&self->model);
  G_OBJECT_CLASS (winnow_breakpoints_page_parent_class)->finalize (object);
}


static void
winnow_breakpoints_page_session_changed (WinnowPanel   *panel,
                                         WinnowSession *old)
{
  bind_breakpoints (WINNOW_BREAKPOINTS_PAGE (panel));
}

static void
winnow_breakpoints_page_class_init (WinnowBreakpointsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  WinnowPanelClass *panel_class = WINNOW_PANEL_CLASS (klass);

  object_class->finalize = winnow_breakpoints_page_finalize;
  panel_class->session_changed = winnow_breakpoints_page_session_changed;
  winnow_panel_class_follow (panel_class, "notify::breakpoints", G_CALLBACK (breakpoints_notify_cb));

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "/winnow-breakpoints-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WinnowBreakpointsPage, box);
  gtk_widget_class_bind_template_child (widget_class, WinnowBreakpointsPage, kind_dropdown);
  gtk_widget_class_bind_template_child (widget_class, WinnowBreakpointsPage, spec_entry);
  gtk_widget_class_bind_template_child (widget_class, WinnowBreakpointsPage, error);
  gtk_widget_class_bind_template_child (widget_class, WinnowBreakpointsPage, stack);
  gtk_widget_class_bind_template_child (widget_class, WinnowBreakpointsPage, list);

  gtk_widget_class_install_action (widget_class, "breakpoints.add", NULL, add_action);
}

static void
winnow_breakpoints_page_init (WinnowBreakpointsPage *self)
{
  GtkStringList *kinds = gtk_string_list_new (NULL);

  gtk_widget_init_template (GTK_WIDGET (self));

  for (guint i = 0; i < G_N_ELEMENTS (breakpoint_kinds); i++)
    {
      g_autofree char *item = NULL;

      if (breakpoint_kinds[i].kind == WN_EV_NODE)
        item = g_strdup_printf ("%s  (node.entered@…)", _(breakpoint_kinds[i].label));
      else
        item = g_strdup_printf ("%s  (%s.%s)", _(breakpoint_kinds[i].label),
                                wn_event_kind_to_string (breakpoint_kinds[i].kind),
                                wn_event_phase_to_string (breakpoint_kinds[i].phase));
      gtk_string_list_append (kinds, item);
    }
  gtk_drop_down_set_model (self->kind_dropdown, G_LIST_MODEL (kinds));
  gtk_drop_down_set_selected (self->kind_dropdown, 2);
  /* the longest kind (German's is 546 px) must not set the window's minimum */
  winnow_drop_down_shorten (self->kind_dropdown);
  g_object_unref (kinds);

  g_signal_connect (self->spec_entry, "activate", G_CALLBACK (spec_activate_cb), self);
  g_signal_connect (self->spec_entry, "changed", G_CALLBACK (spec_changed_cb), self);
}

void
winnow_breakpoints_page_add (WinnowBreakpointsPage *self)
{
  WinnowSession *session;
  guint selected;
  const char *node;

  g_return_if_fail (WINNOW_IS_BREAKPOINTS_PAGE (self));

  session = get_session (self);
  if (session == NULL || !winnow_session_is_loaded (session))
    return;
  selected = gtk_drop_down_get_selected (self->kind_dropdown);
  node = winnow_session_get_selected_node (session);
  if (selected >= G_N_ELEMENTS (breakpoint_kinds))
    return;
  if (breakpoint_kinds[selected].kind == WN_EV_NODE)
    {
      if (node == NULL)
        {
          winnow_field_set_error (self->error, _("Select a node in the diagram first: this breakpoint stops when a token enters it."));
          return;
        }
      winnow_session_add_breakpoint (session, WN_EV_NODE, WN_PH_ENTERED, node);
    }
  else
    winnow_session_add_breakpoint (session, breakpoint_kinds[selected].kind, breakpoint_kinds[selected].phase, NULL);
  winnow_field_set_error (self->error, NULL);
}

void
winnow_breakpoints_page_add_spec (WinnowBreakpointsPage *self,
                                  const char            *text)
{
  g_autofree char *spec = NULL;
  g_autofree char *node = NULL;
  g_autofree char *message = NULL;
  g_autoptr(GError) error = NULL;
  WinnowSession *session;
  WnProcess *process;
  WnEventKind kind;
  WnEventPhase phase;

  g_return_if_fail (WINNOW_IS_BREAKPOINTS_PAGE (self));
  g_return_if_fail (text != NULL);

  session = get_session (self);
  if (session == NULL || !winnow_session_is_loaded (session))
    return;
  spec = g_strstrip (g_strdup (text));
  process = winnow_session_get_process (session);
  if (*spec == '\0')
    message = g_strdup (_("Type a breakpoint as kind.phase or kind.phase@node, e.g. job.retriesExhausted"));
  else if (!wn_breakpoint_parse (spec, &kind, &phase, &node, &error))
    message = g_strdup (error->message);   /* a phase of another kind, too */
  else if (node != NULL && (process == NULL || wn_process_find_node (process, node) == NULL))
    /* Translators: %s is a node id */
    message = g_strdup_printf (_("This process has no node “%s”"), node);
  if (message != NULL)
    {
      set_breakpoint_error (self, message);
      return;
    }
  winnow_session_add_breakpoint (session, kind, phase, node);
  set_breakpoint_error (self, NULL);
  gtk_editable_set_text (GTK_EDITABLE (self->spec_entry), "");
}

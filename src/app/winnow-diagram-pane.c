/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-diagram-pane.c — the diagram area. The pane shows each new run's
 * process; the window calls winnow_diagram_pane_update() on the frame that
 * reads the journal, for the badges, and reaches the diagram itself
 * (breakpoints, selection, zoom to fit) through
 * winnow_diagram_pane_get_diagram(). */
#include "config.h"

#include <glib/gi18n.h>

#include "winnow-diagram-pane.h"
#include "winnow-wrap-box.h"
#include "winnow-panel-util.h"

struct _WinnowDiagramPane
{
  WinnowPanel       parent_instance;

  GtkStack         *stack;
  WinnowDiagram    *diagram;
  WinnowWrapBox    *legend;
  AdwStatusPage    *empty_page;
  GtkBox           *examples;
  AdwStatusPage    *loading_page;  /* made on the first load off the GTK thread */
  GtkProgressBar   *loading_progress;

  GBinding         *selection;     /* the session's selected node, both ways */
  WinnowNodeCounts *last_counts;   /* per node of the process, as shown */
  guint             n_last_counts;
};

G_DEFINE_FINAL_TYPE (WinnowDiagramPane, winnow_diagram_pane, WINNOW_TYPE_PANEL)

static void
setup_legend (WinnowDiagramPane *self)
{
  const struct {
    const char *style;
    const char *label;
  } keys[] = {
    { "active", N_("active") },
    { "parked", N_("parked") },
    { "gated", N_("gated") },
    { "locked", N_("locked") },
    { "incident", N_("incident") },
  };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      g_autofree char *dot_class = g_strconcat ("dot-", keys[i].style, NULL);
      GtkWidget *dot = gtk_label_new ("●");
      GtkWidget *text = gtk_label_new (_(keys[i].label));

      GtkWidget *key = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);

      gtk_widget_add_css_class (dot, "legend-dot");
      gtk_widget_add_css_class (dot, dot_class);
      gtk_box_append (GTK_BOX (key), dot);
      gtk_widget_set_margin_end (text, 10);
      gtk_box_append (GTK_BOX (key), text);
      winnow_wrap_box_append (self->legend, key);
    }
}

/* The diagram marks the nodes that stop the clock when a token enters them. */
static void
sync_breakpoints (WinnowSession     *session,
                  WinnowDiagramPane *self)
{
  WnProcess *process = winnow_session_get_process (session);

  for (guint i = 0; process != NULL && i < process->n_nodes; i++)
    winnow_diagram_set_breakpoint (self->diagram, process->nodes[i].id,
                                   winnow_session_node_breaks (session, process->nodes[i].id));
}

/* A double click on a node selects it and sets a breakpoint there, or
 * removes the one it has. */
static void
node_activated_cb (WinnowDiagram     *diagram,
                   const char        *node_id,
                   WinnowDiagramPane *self)
{
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  WnProcess *process = session ? winnow_session_get_process (session) : NULL;
  const WnNode *node = process ? wn_process_find_node (process, node_id) : NULL;
  g_autofree char *text = NULL;
  const char *name;

  if (node == NULL)
    return;
  winnow_session_set_selected_node (session, node_id);
  name = node->name ? node->name : node->id;
  if (winnow_session_toggle_node_breakpoint (session, node_id))
    /* Translators: %s is a node's name */
    text = g_strdup_printf (_("The clock will stop when a token enters “%s”"), name);
  else
    /* Translators: %s is a node's name */
    text = g_strdup_printf (_("Breakpoint at “%s” removed"), name);
  winnow_panel_toast (GTK_WIDGET (self), text);
}

/* A rerun stands in for the run: the same process, another engine. */
static void
travelled_cb (WinnowSession     *session,
              WinnowDiagramPane *self)
{
  winnow_diagram_set_engine (self->diagram, winnow_session_get_engine (session));
}

static void
run_changed_cb (WinnowSession     *session,
                WinnowDiagramPane *self)
{
  WnProcess *process = winnow_session_get_process (session);

  winnow_diagram_set_process (self->diagram, process);
  winnow_diagram_set_engine (self->diagram, winnow_session_get_engine (session));
  winnow_diagram_clear_badges (self->diagram);
  winnow_diagram_zoom_to_fit (self->diagram);
  g_clear_pointer (&self->last_counts, g_free);
  self->n_last_counts = process ? process->n_nodes : 0;
  self->last_counts = g_new0 (WinnowNodeCounts, MAX (self->n_last_counts, 1));
  gtk_stack_set_visible_child_name (self->stack, process ? "diagram" : "empty");
  sync_breakpoints (session, self);
}

static void
winnow_diagram_pane_finalize (GObject *object)
{
  WinnowDiagramPane *self = WINNOW_DIAGRAM_PANE (object);

  g_clear_pointer (&self->last_counts, g_free);
  G_OBJECT_CLASS (winnow_diagram_pane_parent_class)->finalize (object);
}

static void
winnow_diagram_pane_session_changed (WinnowPanel   *panel,
                                     WinnowSession *old)
{
  WinnowDiagramPane *self = WINNOW_DIAGRAM_PANE (panel);
  WinnowSession *session = winnow_panel_get_session (panel);

  g_clear_pointer (&self->selection, g_binding_unbind);
  if (session == NULL)
    return;
  self->selection = g_object_bind_property (session, "selected-node", self->diagram, "selected-node",
                                            G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
}

static void
winnow_diagram_pane_class_init (WinnowDiagramPaneClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  WinnowPanelClass *panel_class = WINNOW_PANEL_CLASS (klass);

  object_class->finalize = winnow_diagram_pane_finalize;
  panel_class->session_changed = winnow_diagram_pane_session_changed;
  winnow_panel_class_follow (panel_class, "run-changed", G_CALLBACK (run_changed_cb));
  winnow_panel_class_follow (panel_class, "travelled", G_CALLBACK (travelled_cb));
  winnow_panel_class_follow (panel_class, "breakpoints-changed", G_CALLBACK (sync_breakpoints));

  g_type_ensure (WINNOW_TYPE_DIAGRAM);
  g_type_ensure (WINNOW_TYPE_WRAP_BOX);
  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "/winnow-diagram-pane.ui");
  gtk_widget_class_bind_template_child (widget_class, WinnowDiagramPane, stack);
  gtk_widget_class_bind_template_child (widget_class, WinnowDiagramPane, diagram);
  gtk_widget_class_bind_template_child (widget_class, WinnowDiagramPane, legend);
  gtk_widget_class_bind_template_child (widget_class, WinnowDiagramPane, empty_page);
  gtk_widget_class_bind_template_child (widget_class, WinnowDiagramPane, examples);
}

static void
winnow_diagram_pane_init (WinnowDiagramPane *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  setup_legend (self);
  g_signal_connect (self->diagram, "node-activated", G_CALLBACK (node_activated_cb), self);
  gtk_stack_set_visible_child_name (self->stack, "empty");
}

WinnowDiagram *
winnow_diagram_pane_get_diagram (WinnowDiagramPane *self)
{
  g_return_val_if_fail (WINNOW_IS_DIAGRAM_PANE (self), NULL);
  return self->diagram;
}

void
winnow_diagram_pane_update (WinnowDiagramPane *self)
{
  WinnowSession *session;
  WnProcess *process;

  g_return_if_fail (WINNOW_IS_DIAGRAM_PANE (self));

  session = winnow_panel_get_session (WINNOW_PANEL (self));
  process = session ? winnow_session_get_process (session) : NULL;
  if (process == NULL || self->last_counts == NULL)
    return;
  for (guint i = 0; i < process->n_nodes && i < self->n_last_counts; i++)
    {
      WinnowNodeCounts counts = winnow_session_get_node_counts (session, process->nodes[i].id);
      WinnowNodeCounts *last = &self->last_counts[i];

      if (counts.active == last->active && counts.parked == last->parked && counts.incident == last->incident &&
          counts.gated == last->gated && counts.locked == last->locked)
        continue;
      *last = counts;
      winnow_diagram_set_badges (self->diagram, process->nodes[i].id, counts.active, counts.parked, counts.incident);
      winnow_diagram_set_job_badges (self->diagram, process->nodes[i].id, counts.gated, counts.locked);
    }
}

void
winnow_diagram_pane_add_example (WinnowDiagramPane *self,
                                 const char        *label,
                                 const char        *path)
{
  GtkWidget *button;

  g_return_if_fail (WINNOW_IS_DIAGRAM_PANE (self));
  g_return_if_fail (label != NULL && path != NULL);

  /* the empty page offers examples only when there are some */
  adw_status_page_set_description (self->empty_page,
                                   _("Open a winnow.process/1 file, drop one here, or start from an example."));
  button = gtk_button_new_with_label (label);
  gtk_widget_add_css_class (button, "pill");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "win.open-example");
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (button), g_variant_new_string (path));
  gtk_box_append (self->examples, button);
}

void
winnow_diagram_pane_show_loading (WinnowDiagramPane *self,
                                  const char        *name)
{
  g_return_if_fail (WINNOW_IS_DIAGRAM_PANE (self));

  if (name == NULL)
    {
      WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));

      gtk_stack_set_visible_child_name (self->stack,
                                        session && winnow_session_get_process (session) ? "diagram" : "empty");
      return;
    }
  if (self->loading_page == NULL)
    {
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 18);
      GtkWidget *spinner = gtk_spinner_new ();
      GtkWidget *progress = gtk_progress_bar_new ();
      GtkWidget *cancel = gtk_button_new_with_mnemonic (_("_Cancel"));

      gtk_spinner_set_spinning (GTK_SPINNER (spinner), TRUE);
      gtk_widget_set_size_request (spinner, 32, 32);
      gtk_widget_set_name (progress, "loading-progress");
      gtk_widget_set_size_request (progress, 240, -1);
      gtk_widget_set_halign (progress, GTK_ALIGN_CENTER);
      gtk_widget_set_name (cancel, "loading-cancel");
      gtk_widget_set_halign (cancel, GTK_ALIGN_CENTER);
      gtk_widget_add_css_class (cancel, "pill");
      gtk_actionable_set_action_name (GTK_ACTIONABLE (cancel), "win.cancel-load");
      gtk_box_append (GTK_BOX (box), spinner);
      gtk_box_append (GTK_BOX (box), progress);
      gtk_box_append (GTK_BOX (box), cancel);
      self->loading_progress = GTK_PROGRESS_BAR (progress);
      self->loading_page = ADW_STATUS_PAGE (adw_status_page_new ());
      gtk_widget_set_name (GTK_WIDGET (self->loading_page), "loading-page");
      adw_status_page_set_child (self->loading_page, box);
      gtk_stack_add_named (self->stack, GTK_WIDGET (self->loading_page), "loading");
    }
  adw_status_page_set_description (self->loading_page, _("Reading and checking the process"));
  gtk_progress_bar_set_fraction (self->loading_progress, 0);
  {
    /* Translators: %s is a file name */
    g_autofree char *title = g_strdup_printf (_("Opening “%s”…"), name);

    adw_status_page_set_title (self->loading_page, title);
  }
  gtk_stack_set_visible_child_name (self->stack, "loading");
}

void
winnow_diagram_pane_set_loading_stage (WinnowDiagramPane *self,
                                       const char        *what,
                                       double             fraction)
{
  g_return_if_fail (WINNOW_IS_DIAGRAM_PANE (self));

  if (self->loading_page == NULL)
    return;
  adw_status_page_set_description (self->loading_page, what);
  gtk_progress_bar_set_fraction (self->loading_progress, CLAMP (fraction, 0, 1));
}

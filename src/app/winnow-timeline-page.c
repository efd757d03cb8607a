/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-timeline-page.c — the Timeline tab. The page fits each new run;
 * the window calls winnow_timeline_page_update() on the frame that shows
 * the tabs and when the tab comes to show. The page's timeline.zoom action
 * is its zoom buttons' (the window's win.timeline-zoom calls
 * winnow_timeline_page_zoom() too). */
#include "config.h"

#include <glib/gi18n.h>

#include "winnow-timeline-page.h"
#include "winnow-timeline.h"

struct _WinnowTimelinePage
{
  WinnowPanel     parent_instance;

  GtkWidget      *box;            /* the template's top (dispose_template) */
  GtkBox         *legend;
  GtkStack       *stack;
  WinnowTimeline *timeline;
  GtkToggleButton *aggregate;     /* shows which view is on; pressed, it chooses */

  GBinding       *selected_job;   /* the session's, both ways */
};

G_DEFINE_FINAL_TYPE (WinnowTimelinePage, winnow_timeline_page, WINNOW_TYPE_PANEL)

static void
add_legend_item (GtkBox     *box,
                 GtkWidget  *swatch,
                 const char *label)
{
  GtkWidget *text = gtk_label_new (label);

  gtk_widget_set_valign (swatch, GTK_ALIGN_CENTER);
  gtk_box_append (box, swatch);
  gtk_widget_set_margin_end (text, 8);
  gtk_box_append (box, text);
}

static void
setup_legend (WinnowTimelinePage *self)
{
  static const struct {
    WinnowMarkKind kind;
    const char    *label;
  } marks[] = {
    { WINNOW_MARK_COMPLETED, N_("completed") },
    { WINNOW_MARK_BPMN_ERROR, N_("BPMN error") },
    { WINNOW_MARK_STATUS, N_("status") },
    { WINNOW_MARK_FAULT, N_("technical fault") },
    { WINNOW_MARK_EXHAUSTED, N_("retries exhausted") },
    { WINNOW_MARK_RECLAIMED, N_("lock reclaimed") },
    { WINNOW_MARK_REJECTED, N_("report rejected") },
  };

  add_legend_item (self->legend, winnow_timeline_swatch_new (WINNOW_SWATCH_EXECUTION), _("execution"));
  add_legend_item (self->legend, winnow_timeline_swatch_new (WINNOW_SWATCH_GATE), _("backoff gate"));
  /* Translators: the legend for a WorkerTrusted worker's wait between its own retries */
  add_legend_item (self->legend, winnow_timeline_swatch_new (WINNOW_SWATCH_WORKER_WAIT), _("in-process wait"));
  add_legend_item (self->legend, winnow_timeline_swatch_new (WINNOW_SWATCH_LOCK), _("lock (expired)"));
  for (guint i = 0; i < G_N_ELEMENTS (marks); i++)
    add_legend_item (self->legend, winnow_timeline_glyph_new (marks[i].kind), _(marks[i].label));
}

/* timeline.zoom: in (1), out (-1), fit (0) */
static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  winnow_timeline_page_zoom (WINNOW_TIMELINE_PAGE (widget), g_variant_get_int32 (param));
}

/* The button says which view is on: the timeline's own choice, or the user's. */
static void
sync_aggregate (WinnowTimelinePage *self)
{
  gboolean on = winnow_timeline_get_aggregated (self->timeline);

  if (gtk_toggle_button_get_active (self->aggregate) == on)
    return;
  g_object_set_data (G_OBJECT (self->aggregate), "winnow-syncing", GINT_TO_POINTER (1));
  gtk_toggle_button_set_active (self->aggregate, on);
  g_object_set_data (G_OBJECT (self->aggregate), "winnow-syncing", NULL);
}

static void
aggregate_toggled_cb (GtkToggleButton    *button,
                      WinnowTimelinePage *self)
{
  if (g_object_get_data (G_OBJECT (button), "winnow-syncing") != NULL)
    return;
  winnow_timeline_set_view (self->timeline, gtk_toggle_button_get_active (button) ? WINNOW_TIMELINE_VIEW_AGGREGATE
                                                                                : WINNOW_TIMELINE_VIEW_LANES);
}

static void
run_changed_cb (WinnowSession      *session,
                WinnowTimelinePage *self)
{
  /* a new run: the view is chosen by its size again */
  winnow_timeline_set_view (self->timeline, WINNOW_TIMELINE_VIEW_AUTO);
  winnow_timeline_zoom_to_fit (self->timeline);
  winnow_timeline_page_update (self);
}

/* The ruler: the session goes to that instant, earlier or later. */
static void
seek_cb (WinnowTimeline     *timeline,
         gint64              instant,
         WinnowTimelinePage *self)
{
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));

  if (session != NULL && winnow_session_is_loaded (session) && instant != winnow_session_get_now (session))
    winnow_session_go_to_time (session, instant);
}

static void
winnow_timeline_page_session_changed (WinnowPanel   *panel,
                                      WinnowSession *old)
{
  WinnowTimelinePage *self = WINNOW_TIMELINE_PAGE (panel);
  WinnowSession *session = winnow_panel_get_session (panel);

  g_clear_pointer (&self->selected_job, g_binding_unbind);
  winnow_timeline_set_trace (self->timeline, session ? winnow_session_get_trace (session) : NULL);
  if (session == NULL)
    return;
  self->selected_job = g_object_bind_property (session, "selected-job", self->timeline, "selected-job",
                                               G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  winnow_timeline_page_update (self);
}

static void
winnow_timeline_page_class_init (WinnowTimelinePageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  WinnowPanelClass *panel_class = WINNOW_PANEL_CLASS (klass);

  panel_class->session_changed = winnow_timeline_page_session_changed;
  winnow_panel_class_follow (panel_class, "run-changed", G_CALLBACK (run_changed_cb));

  g_type_ensure (WINNOW_TYPE_TIMELINE);
  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "/winnow-timeline-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WinnowTimelinePage, box);
  gtk_widget_class_bind_template_child (widget_class, WinnowTimelinePage, legend);
  gtk_widget_class_bind_template_child (widget_class, WinnowTimelinePage, stack);
  gtk_widget_class_bind_template_child (widget_class, WinnowTimelinePage, timeline);
  gtk_widget_class_bind_template_child (widget_class, WinnowTimelinePage, aggregate);

  gtk_widget_class_install_action (widget_class, "timeline.zoom", "i", zoom_action);
}

static void
winnow_timeline_page_init (WinnowTimelinePage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  setup_legend (self);
  g_signal_connect (self->timeline, "seek", G_CALLBACK (seek_cb), self);
  g_signal_connect (self->aggregate, "toggled", G_CALLBACK (aggregate_toggled_cb), self);
}

void
winnow_timeline_page_update (WinnowTimelinePage *self)
{
  WinnowSession *session;
  WinnowTrace *trace;

  g_return_if_fail (WINNOW_IS_TIMELINE_PAGE (self));

  session = winnow_panel_get_session (WINNOW_PANEL (self));
  if (session == NULL)
    return;
  trace = winnow_session_get_trace (session);
  gtk_stack_set_visible_child_name (self->stack, winnow_trace_get_n_jobs (trace) > 0 ? "list" : "empty");
  winnow_timeline_update (self->timeline, winnow_session_get_now (session));
  sync_aggregate (self);
}

void
winnow_timeline_page_zoom (WinnowTimelinePage *self,
                           int                 direction)
{
  g_return_if_fail (WINNOW_IS_TIMELINE_PAGE (self));

  if (direction == 0)
    winnow_timeline_zoom_to_fit (self->timeline);
  else
    winnow_timeline_zoom (self->timeline, direction > 0 ? 2.0 : 0.5, -1);
}

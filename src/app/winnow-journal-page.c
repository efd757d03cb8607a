/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-journal-page.c — the Journal tab: every event of the run, newest at
 * the bottom, searched and filtered by kind, instance and the selected node,
 * with their count, and the list following the newest event until the user
 * scrolls away (the follow button). The window calls
 * winnow_journal_page_update() on the frame that shows the tabs. */
#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>

#include "winnow-journal-page.h"
#include "winnow-event-row.h"
#include "winnow-panel-util.h"

struct _WinnowJournalPage
{
  WinnowPanel        parent_instance;

  GtkSearchEntry    *search;
  GtkDropDown       *kind_dropdown;
  GtkEntry          *instance_entry;
  GtkLabel          *count_label;
  GtkToggleButton   *follow_button;
  GtkStack          *stack;
  GtkScrolledWindow *scroller;
  GtkListView       *view;
  AdwStatusPage     *empty;

  GtkFilter         *journal_filter;
  GListModel        *journal_filtered;   /* the session's events, through the filter while it filters */
  GtkSelectionModel *journal_selection;
  char              *journal_needle;
  int                kind_filter;        /* WnEventKind, or -1 */
  char              *instance_filter;
  gboolean           follow;
  gboolean           scrolling;
  guint              reattached;         /* frames to go until the view has laid out the model it got back */
  guint              follow_id;
  double             journal_upper;
  double             journal_page_size;
};

G_DEFINE_FINAL_TYPE (WinnowJournalPage, winnow_journal_page, WINNOW_TYPE_PANEL)

static void
journal_setup_cb (GtkSignalListItemFactory *factory,
                  GtkListItem              *item,
                  gpointer                  data)
{
  GtkWidget *line = gtk_inscription_new (NULL);

  gtk_inscription_set_nat_chars (GTK_INSCRIPTION (line), 110);
  gtk_inscription_set_text_overflow (GTK_INSCRIPTION (line), GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END);
  gtk_widget_add_css_class (line, "monospace");
  gtk_widget_add_css_class (line, "journal-line");
  gtk_list_item_set_child (item, line);
}

static void
journal_bind_cb (GtkSignalListItemFactory *factory,
                 GtkListItem              *item,
                 gpointer                  data)
{
  GtkWidget *line = gtk_list_item_get_child (item);
  WinnowEventRow *row = gtk_list_item_get_item (item);
  const char *style = winnow_event_row_get_style (row);
  const char *old = g_object_get_data (G_OBJECT (line), "winnow-style");

  gtk_inscription_set_text (GTK_INSCRIPTION (line), winnow_event_row_get_text (row));
  gtk_widget_set_tooltip_text (line, winnow_event_row_get_text (row));
  if (g_strcmp0 (old, style) != 0)
    {
      if (old != NULL && *old != '\0')
        {
          g_autofree char *old_class = g_strconcat ("event-", old, NULL);
          gtk_widget_remove_css_class (line, old_class);
        }
      if (*style != '\0')
        {
          g_autofree char *new_class = g_strconcat ("event-", style, NULL);
          gtk_widget_add_css_class (line, new_class);
        }
      g_object_set_data (G_OBJECT (line), "winnow-style", (gpointer) style);
    }
}

static gboolean
journal_filter_func (gpointer item,
                     gpointer data)
{
  WinnowJournalPage *self = data;
  const WnEvent *event = winnow_event_row_get_event (item);
  const char *node = winnow_session_get_selected_node (winnow_panel_get_session (WINNOW_PANEL (self)));

  if (node != NULL && g_strcmp0 (event->node, node) != 0)
    return FALSE;
  if (self->kind_filter >= 0 && (int) event->kind != self->kind_filter)
    return FALSE;
  if (self->instance_filter != NULL && g_strcmp0 (event->instance, self->instance_filter) != 0)
    return FALSE;
  return winnow_event_row_matches (item, self->journal_needle);
}

static void
update_empty_state (WinnowJournalPage *self)
{
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  guint n_events = g_list_model_get_n_items (self->journal_filtered);
  guint n_all_events = g_list_model_get_n_items (winnow_session_get_events (session));
  g_autofree char *events_count = NULL;

  gtk_stack_set_visible_child_name (self->stack, n_events ? "list" : "empty");

  if (n_all_events > 0)
    {
      adw_status_page_set_title (self->empty, _("No Event Matches"));
      adw_status_page_set_description (self->empty, _("Clear the search or the filters to see the whole journal."));
    }
  else
    {
      adw_status_page_set_title (self->empty, _("Nothing Has Happened Yet"));
      adw_status_page_set_description (self->empty,
                                       _("Every state change of the run lands here. Press F10 to step, or Space to play."));
    }

  if (n_events == n_all_events)
    events_count = g_strdup_printf (ngettext ("%u event", "%u events", n_all_events), n_all_events);
  else
    events_count = g_strdup_printf (ngettext ("%u of %u event", "%u of %u events", n_all_events), n_events, n_all_events);
  if (winnow_session_get_n_dropped (session) > 0)
    {
      g_autofree char *with_dropped =
        /* Translators: the journal count, then how many old events are no longer shown */
        g_strdup_printf (_("%s (%" PRIu64 " older not shown)"), events_count,
                         (uint64_t) winnow_session_get_n_dropped (session));
      gtk_label_set_text (self->count_label, with_dropped);
    }
  else
    gtk_label_set_text (self->count_label, events_count);
}

/* The journal's filter is in the chain only while it has something to do: a
 * custom filter makes the filter model build a row for every event that
 * arrives, tens of thousands a second in a fast-forward. */
static void
update_journal_filter (WinnowJournalPage *self)
{
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  gboolean active = winnow_session_get_selected_node (session) != NULL || self->kind_filter >= 0 ||
                    self->instance_filter != NULL || self->journal_needle != NULL;
  GtkFilterListModel *model = GTK_FILTER_LIST_MODEL (self->journal_filtered);
  GtkFilter *want = active ? self->journal_filter : NULL;

  if (gtk_filter_list_model_get_filter (model) != want)
    gtk_filter_list_model_set_filter (model, want);
  else if (want != NULL)
    gtk_filter_changed (want, GTK_FILTER_CHANGE_DIFFERENT);
}

static void
refilter (WinnowJournalPage *self)
{
  if (winnow_panel_get_session (WINNOW_PANEL (self)) == NULL)
    return;
  update_journal_filter (self);
  update_empty_state (self);
}

static gboolean
journal_follow_cb (GtkWidget     *widget,
                   GdkFrameClock *clock,
                   gpointer       data)
{
  WinnowJournalPage *self = data;
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (self->scroller);
  double target = gtk_adjustment_get_upper (adj) - gtk_adjustment_get_page_size (adj);

  if (self->follow && gtk_adjustment_get_value (adj) < target)
    {
      self->scrolling = TRUE;
      gtk_adjustment_set_value (adj, target);
      self->scrolling = FALSE;
    }
  /* a view given its model back lays it out (from its top) on the frame
   * after: follow on that one too */
  if (self->reattached > 0 && --self->reattached > 0)
    return G_SOURCE_CONTINUE;
  self->follow_id = 0;
  return G_SOURCE_REMOVE;
}

/* Scroll to the newest event on the view's next frame, with what its last
 * layout measured; a layout that measures more changes the adjustment,
 * which asks again. (A frame, not an idle: an idle below redraw priority
 * waited for seconds behind the frames of a toast's animation.) */
static void
journal_scroll_to_end (WinnowJournalPage *self)
{
  if (self->follow_id == 0)
    self->follow_id = gtk_widget_add_tick_callback (GTK_WIDGET (self->view), journal_follow_cb, self, NULL);
}

/* The journal's model is attached to the view only while its tab shows: a
 * hidden list costs nothing. */
static void
winnow_journal_page_attach (WinnowPanel *panel,
                            gboolean     shown)
{
  WinnowJournalPage *self = WINNOW_JOURNAL_PAGE (panel);
  GtkSelectionModel *journal = shown ? self->journal_selection : NULL;

  if (gtk_list_view_get_model (self->view) != journal)
    {
      gtk_list_view_set_model (self->view, journal);
      /* A list given its model starts at its top when it next lays out,
       * with bounds it may already have had: that move is no scroll of the
       * user's, and following goes on over the next two frames. */
      self->reattached = journal != NULL && self->follow ? 2 : 0;
      if (self->reattached)
        journal_scroll_to_end (self);
    }
}

static void
journal_adjustment_changed_cb (GtkAdjustment     *adj,
                               WinnowJournalPage *self)
{
  self->journal_upper = gtk_adjustment_get_upper (adj);
  self->journal_page_size = gtk_adjustment_get_page_size (adj);
  if (self->follow)
    journal_scroll_to_end (self);
}

static void
journal_value_changed_cb (GtkAdjustment     *adj,
                          WinnowJournalPage *self)
{
  double upper = gtk_adjustment_get_upper (adj);
  double page = gtk_adjustment_get_page_size (adj);
  gboolean at_end;

  /* Only a move the user made counts: when rows arrive or the view is
   * rebuilt the bounds change too, and following must go on. */
  if (self->scrolling || upper != self->journal_upper || page != self->journal_page_size)
    {
      self->journal_upper = upper;
      self->journal_page_size = page;
      return;
    }
  at_end = gtk_adjustment_get_value (adj) >= upper - page - 4;
  if (self->reattached > 0)
    return;   /* the list's own jump to its top: the next frame scrolls back */
  if (at_end != self->follow)
    gtk_toggle_button_set_active (self->follow_button, at_end);
}

static void
follow_toggled_cb (GtkToggleButton   *button,
                   WinnowJournalPage *self)
{
  self->follow = gtk_toggle_button_get_active (button);
  if (self->follow)
    journal_scroll_to_end (self);
}

static void
journal_search_cb (GtkSearchEntry    *entry,
                   WinnowJournalPage *self)
{
  winnow_search_set_needle (GTK_EDITABLE (entry), &self->journal_needle);
  refilter (self);
}

static void
kind_filter_cb (GtkDropDown       *dropdown,
                GParamSpec        *pspec,
                WinnowJournalPage *self)
{
  guint selected = gtk_drop_down_get_selected (dropdown);

  self->kind_filter = selected == 0 || selected == GTK_INVALID_LIST_POSITION ? -1 : (int) selected - 1;
  refilter (self);
}

static void
instance_filter_cb (GtkEditable       *editable,
                    WinnowJournalPage *self)
{
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (editable)));

  g_clear_pointer (&self->instance_filter, g_free);
  if (*text != '\0')
    self->instance_filter = g_steal_pointer (&text);
  refilter (self);
}

static void
selected_node_cb (WinnowSession     *session,
                  GParamSpec        *pspec,
                  WinnowJournalPage *self)
{
  refilter (self);
}

static void
run_changed_cb (WinnowSession     *session,
                WinnowJournalPage *self)
{
  update_empty_state (self);
  gtk_toggle_button_set_active (self->follow_button, TRUE);
}

/* A row activated (double-click, Enter): the run goes to right after that
 * event (winnow-session-travel.c). */
static void
journal_activate_cb (GtkListView       *view,
                     guint              position,
                     WinnowJournalPage *self)
{
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  GListModel *model = G_LIST_MODEL (gtk_list_view_get_model (view));
  g_autoptr(WinnowEventRow) row = model ? g_list_model_get_item (model, position) : NULL;

  if (session != NULL && row != NULL)
    winnow_session_go_to_event (session, winnow_event_row_get_event (row)->seq);
}

static void
winnow_journal_page_dispose (GObject *object)
{
  WinnowJournalPage *self = WINNOW_JOURNAL_PAGE (object);

  if (self->follow_id != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self->view), self->follow_id);
  self->follow_id = 0;
  /* the template first: the view holds the models */
  G_OBJECT_CLASS (winnow_journal_page_parent_class)->dispose (object);
  g_clear_object (&self->journal_filtered);
  g_clear_object (&self->journal_selection);
  g_clear_object (&self->journal_filter);
}

static void
winnow_journal_page_finalize (GObject *object)
{
  WinnowJournalPage *self = WINNOW_JOURNAL_PAGE (object);

  g_clear_pointer (&self->journal_needle, g_free);
  g_clear_pointer (&self->instance_filter, g_free);
  G_OBJECT_CLASS (winnow_journal_page_parent_class)->finalize (object);
}

static void
winnow_journal_page_session_changed (WinnowPanel   *panel,
                                     WinnowSession *old)
{
  WinnowJournalPage *self = WINNOW_JOURNAL_PAGE (panel);
  WinnowSession *session = winnow_panel_get_session (panel);
  GtkFilterListModel *journal;

  winnow_journal_page_attach (WINNOW_PANEL (self), FALSE);
  g_clear_object (&self->journal_selection);
  g_clear_object (&self->journal_filtered);
  if (session == NULL)
    return;
  journal = gtk_filter_list_model_new (g_object_ref (winnow_session_get_events (session)), NULL);
  self->journal_filtered = G_LIST_MODEL (journal);
  self->journal_selection = GTK_SELECTION_MODEL (gtk_no_selection_new (g_object_ref (G_LIST_MODEL (journal))));
  winnow_journal_page_attach (WINNOW_PANEL (self), gtk_widget_get_mapped (GTK_WIDGET (self)));
  update_journal_filter (self);
  update_empty_state (self);
}

static void
winnow_journal_page_class_init (WinnowJournalPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  WinnowPanelClass *panel_class = WINNOW_PANEL_CLASS (klass);

  object_class->dispose = winnow_journal_page_dispose;
  object_class->finalize = winnow_journal_page_finalize;
  WINNOW_PANEL_CLASS (klass)->attach = winnow_journal_page_attach;
  panel_class->session_changed = winnow_journal_page_session_changed;
  winnow_panel_class_follow (panel_class, "notify::selected-node", G_CALLBACK (selected_node_cb));
  winnow_panel_class_follow (panel_class, "run-changed", G_CALLBACK (run_changed_cb));

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "/winnow-journal-page.ui");
  gtk_widget_class_bind_template_child_full (widget_class, "box", FALSE, 0);   /* disposed with the template */
  gtk_widget_class_bind_template_child (widget_class, WinnowJournalPage, search);
  gtk_widget_class_bind_template_child (widget_class, WinnowJournalPage, kind_dropdown);
  gtk_widget_class_bind_template_child (widget_class, WinnowJournalPage, instance_entry);
  gtk_widget_class_bind_template_child (widget_class, WinnowJournalPage, count_label);
  gtk_widget_class_bind_template_child (widget_class, WinnowJournalPage, follow_button);
  gtk_widget_class_bind_template_child (widget_class, WinnowJournalPage, stack);
  gtk_widget_class_bind_template_child (widget_class, WinnowJournalPage, scroller);
  gtk_widget_class_bind_template_child (widget_class, WinnowJournalPage, view);
  gtk_widget_class_bind_template_child (widget_class, WinnowJournalPage, empty);
}

static void
winnow_journal_page_init (WinnowJournalPage *self)
{
  GtkListItemFactory *factory;
  GtkStringList *kinds;
  GtkAdjustment *adj;

  self->kind_filter = -1;
  self->follow = TRUE;
  gtk_widget_init_template (GTK_WIDGET (self));
  self->journal_filter = GTK_FILTER (gtk_custom_filter_new (journal_filter_func, self, NULL));

  /* the journal: newest at the bottom */
  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (journal_setup_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (journal_bind_cb), NULL);
  gtk_list_view_set_factory (self->view, factory);
  g_object_unref (factory);
  g_signal_connect (self->view, "activate", G_CALLBACK (journal_activate_cb), self);

  kinds = gtk_string_list_new (NULL);
  gtk_string_list_append (kinds, _("All kinds"));
  for (int k = 0; k < WN_EV_N_KINDS; k++)
    gtk_string_list_append (kinds, wn_event_kind_to_string ((WnEventKind) k));
  gtk_drop_down_set_model (self->kind_dropdown, G_LIST_MODEL (kinds));
  g_object_unref (kinds);

  adj = gtk_scrolled_window_get_vadjustment (self->scroller);
  g_signal_connect (adj, "changed", G_CALLBACK (journal_adjustment_changed_cb), self);
  g_signal_connect (adj, "value-changed", G_CALLBACK (journal_value_changed_cb), self);
  g_signal_connect (self->follow_button, "toggled", G_CALLBACK (follow_toggled_cb), self);

  g_signal_connect (self->search, "search-changed", G_CALLBACK (journal_search_cb), self);
  g_signal_connect (self->kind_dropdown, "notify::selected", G_CALLBACK (kind_filter_cb), self);
  g_signal_connect (self->instance_entry, "changed", G_CALLBACK (instance_filter_cb), self);
}

void
winnow_journal_page_update (WinnowJournalPage *self)
{
  g_return_if_fail (WINNOW_IS_JOURNAL_PAGE (self));

  if (winnow_panel_get_session (WINNOW_PANEL (self)) == NULL)
    return;
  update_empty_state (self);
  if (self->follow)
    journal_scroll_to_end (self);
}

void
winnow_journal_page_focus_search (WinnowJournalPage *self)
{
  g_return_if_fail (WINNOW_IS_JOURNAL_PAGE (self));
  gtk_widget_grab_focus (GTK_WIDGET (self->search));
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-window-private.h — what the window's files share: its instance
 * struct and the helpers its actions call (winnow-window-actions.c). */
#pragma once

#include "winnow-window.h"
#include "winnow-diagram.h"
#include "winnow-timeline.h"
#include "winnow-transport.h"
#include "winnow-incidents-page.h"
#include "winnow-timeline-page.h"
#include "winnow-breakpoints-page.h"
#include "winnow-diagram-pane.h"
#include "winnow-hit-banner.h"
#include "winnow-load-errors.h"
#include "winnow-tracks-page.h"
#include "winnow-dispatcher-page.h"
#include "winnow-instances-page.h"
#include "winnow-journal-page.h"
#include "winnow-inspector.h"
#include "winnow-toast-queue.h"

G_BEGIN_DECLS

#define MAX_RECENT 8

struct _WinnowWindow
{
  AdwApplicationWindow  parent_instance;

  /* template children */
  AdwToastOverlay      *toast_overlay;   /* its toasts come and go through `toasts` */
  AdwSplitButton       *open_button;
  GtkLabel             *file_label;
  WinnowTransport      *transport;
  GtkMenuButton        *primary_menu_button;
  GMenuModel           *primary_menu;
  GtkLabel             *seed_label;
  WinnowLoadErrors     *load_errors;
  GtkPaned             *main_paned;
  GtkPaned             *side_paned;
  WinnowDiagramPane    *diagram_pane;
  WinnowInspector      *inspector;
  WinnowHitBanner      *hit_banner;
  AdwViewStackPage     *incidents_page;
  WinnowTimelinePage   *timeline;
  WinnowIncidentsPage  *incidents;
  WinnowBreakpointsPage *breakpoints;
  GtkLabel             *live_note;
  GtkButton            *node_filter_button;
  GtkLabel             *node_filter_label;
  AdwViewStack         *view_stack;
  AdwViewStackPage     *journal_page;
  AdwViewStackPage     *instances_page;
  WinnowTracksPage     *tracks;
  WinnowDispatcherPage *dispatcher;
  WinnowInstancesPage  *instances;
  WinnowJournalPage    *journal;

  /* state */
  WinnowSession        *session;
  GSettings            *settings;        /* NULL when the schema is not installed */
  guint                 tick_id;
  gboolean              lower_stale;      /* the tabs, left by the last flush (tick_cb) */
  gboolean              tab_badges_stale;
  gboolean              toasts_waiting;  /* for the next frame (update_alerts) */
  char                 *alert_titles[WINNOW_ALERT_FINISHED + 1];  /* for the toasts, not shown yet */
  const char           *alert_tabs[WINNOW_ALERT_FINISHED + 1];    /* the tab each one's button shows */
  guint                 instances_option;
  GTask                *loading;       /* the file being loaded off the GTK thread, or NULL */
  guint                 loading_poll;  /* the timeout that shows how far it has come */
  WnTime                step_delta;
  AdwToast             *alert_toasts[WINNOW_ALERT_FINISHED + 1];
  WinnowToastQueue     *toasts;          /* every toast of the window's */
  guint                 alert_serials[WINNOW_ALERT_FINISHED + 1];   /* the order they came in */
  guint                 alert_serial;
  guint                 alert_counts[WINNOW_ALERT_FINISHED + 1];
  guint                 unseen_instances;
  guint                 unseen_journal;
  gboolean              close_confirmed;  /* the operator chose to close without saving */
  gboolean              close_after_save; /* Save… in the close prompt: close once saved */
  GMenu                *recent_menu;
  GMenu                *examples_menu;
};

/* winnow-window.c */
void  _winnow_window_show_toast       (WinnowWindow *self, const char *title);
void  _winnow_window_ensure_tick      (WinnowWindow *self);
void  _winnow_window_sync_trust_default (WinnowWindow *self);

/* winnow-window-files.c */
void  _winnow_window_rebuild_recent_menu (WinnowWindow *self);
void  _winnow_window_populate_examples   (WinnowWindow *self);
void  _winnow_window_setup_drop          (WinnowWindow *self);
/* Drop a load in progress, as the window goes (winnow-window-files.c). */
void  _winnow_window_stop_loading        (WinnowWindow *self);
void  _winnow_window_reload              (WinnowWindow *self);
void  _winnow_window_reloaded            (WinnowWindow *self);

/* winnow-window-actions.c */
/* The folder a file dialog opens in (saving: one the user can write); NULL: GTK's choice. */
char *_winnow_window_chooser_folder       (WinnowWindow *self, gboolean saving);
void  _winnow_window_remove_setting_actions (WinnowWindow *self);
void  _winnow_window_add_actions      (WinnowWindow *self);
/* Closing with operator actions not saved: ask first (TRUE: the close waits). */
gboolean _winnow_window_ask_before_close (WinnowWindow *self);

/* winnow-window-travel.c */
void  _winnow_window_add_travel_actions (WinnowWindow *self);

G_END_DECLS

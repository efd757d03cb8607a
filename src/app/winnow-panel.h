/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-panel.h — the base of the window's panels: a widget with its own
 * template that shows one session. */
#pragma once

#include <adwaita.h>

#include "winnow-session.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_PANEL (winnow_panel_get_type ())
G_DECLARE_DERIVABLE_TYPE (WinnowPanel, winnow_panel, WINNOW, PANEL, GtkWidget)

struct _WinnowPanelClass
{
  GtkWidgetClass parent_class;

  /* The panel now shows `winnow_panel_get_session (self)` (NULL: none).
   * Handlers the panel connected to `old` with itself as data are already
   * gone, those winnow_panel_class_follow() names are connected to the new
   * one; connect what else it needs and catch up. */
  void (*session_changed) (WinnowPanel   *self,
                           WinnowSession *old);
  /* The panel is about to show (`shown`: before its children map) or has
   * just been hidden (after they unmapped): a panel that gives its view a
   * model only while it shows (a hidden tab costs nothing) attaches and
   * detaches it here. May be NULL. */
  void (*attach)          (WinnowPanel   *self,
                           gboolean       shown);

  gpointer padding[3];
};

/* In class_init: while a panel of this class shows a session, `callback`
 * follows the session's `detailed_signal`, with the panel as its data
 * ("run-changed", "notify::selected-node"…). */
void           winnow_panel_class_follow (WinnowPanelClass *klass,
                                          const char       *detailed_signal,
                                          GCallback         callback);

WinnowSession *winnow_panel_get_session (WinnowPanel   *self);
/* The number a tab's badge shows for the panel (the "badge" property, 0:
 * none); setting it notifies only when it changes. */
guint          winnow_panel_get_badge   (WinnowPanel   *self);
void           winnow_panel_set_badge   (WinnowPanel   *self,
                                         guint          badge);
void           winnow_panel_set_session (WinnowPanel   *self,
                                         WinnowSession *session);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helpers shared by the app suites: drive the window as a user does. */
#pragma once

#include <adwaita.h>

#include "winnow.h"
#include "winnow-session.h"
#include "winnow-window.h"
#include "wn-test-util.h"

G_BEGIN_DECLS

/* How long a test waits for the session before failing. */
#define WINNOW_TEST_WAIT_US (30 * G_USEC_PER_SEC)

/* A GTestLogFatalFunc: CI has a display but no session bus; GtkApplication
 * warns about it and carries on. */
gboolean       winnow_test_ignore_bus_warning (const char *log_domain, GLogLevelFlags log_level,
                                               const char *message, gpointer data);
char          *winnow_test_example_path   (const char *name);
/* Run the main loop until nothing is pending. */
void           winnow_test_drain          (void);
/* Until the session has applied everything queued (once per frame), then drain. */
void           winnow_test_wait_for_flush (WinnowSession *session);
/* Activate an enabled window action, then wait for the session. */
void           winnow_test_activate       (WinnowWindow *window, const char *action, GVariant *param);
/* Render frames until the window has been laid out at its size. */
void           winnow_test_settle         (GtkWidget *window);
GtkWidget     *winnow_test_find_named     (GtkWidget *root, const char *name);
/* The first widget of `type` under root, depth first. */
GtkWidget     *winnow_test_find_type      (GtkWidget *root, GType type);
/* The first event of that kind and phase (and job, and instance, when given);
 * valid as long as the session (rows are made on demand: the session keeps
 * the ones this returned). */
const WnEvent *winnow_test_find_event     (WinnowSession *session, WnEventKind kind, WnEventPhase phase,
                                           const char *job, const char *instance);
/* Render `widget` into G_TEST_BUILDDIR/`name` (PNG) for people to look at. */
void           winnow_test_save_screenshot (GtkWidget *widget, const char *name);

G_END_DECLS

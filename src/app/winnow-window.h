/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "winnow-session.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_WINDOW (winnow_window_get_type ())
G_DECLARE_FINAL_TYPE (WinnowWindow, winnow_window, WINNOW, WINDOW, AdwApplicationWindow)

WinnowWindow  *winnow_window_new           (GtkApplication *application);
WinnowSession *winnow_window_get_session   (WinnowWindow   *self);
/* Start runs with this many instances at t = 0 (0: the scenario's own start). */
void           winnow_window_set_instances (WinnowWindow   *self,
                                            guint           instances);
/* Load `file` and start a paused run. A file that fails to load shows every
 * problem in the window and leaves the current run as it was. */
gboolean       winnow_window_open_file     (WinnowWindow   *self,
                                            GFile          *file);
/* The same for the BPMN process `process_id` of a file with several (NULL:
 * its only one; a file with several then asks which, and returns FALSE). */
gboolean       winnow_window_open_bpmn_process (WinnowWindow *self,
                                                GFile        *file,
                                                const char   *process_id);
/* File ▸ Save as Winnow Process…: the BPMN import as winnow.process/1, as
 * winnow-run --export-json writes it; never over the model it came from. */
gboolean       winnow_window_save_process  (WinnowWindow   *self,
                                            GFile          *file,
                                            GError        **error);
/* Open `file` as winnow_window_open_file() does, but load a big file (over
 * 1 MiB, winnow.process/1 or BPMN) on a thread of its own while the window
 * shows that it is opening it, how far it has come and a Cancel button:
 * reading, checking or importing, building the engine and laying out the
 * diagram all happen there, and the GTK thread only takes the result. The
 * window stays responsive, and the new run (or the problems, or the question
 * which process of a collaboration) comes when the thread is done. A later
 * open supersedes one still loading. */
void           winnow_window_load_file     (WinnowWindow   *self,
                                            GFile          *file);
/* Whether a file is being loaded off the GTK thread (winnow_window_load_file()). */
gboolean       winnow_window_is_loading    (WinnowWindow   *self);
/* Drop the load in progress (win.cancel-load, the loading page's Cancel):
 * the current run stays as it was; the thread frees what it made. */
void           winnow_window_cancel_load   (WinnowWindow   *self);
/* Open the bundled example; FALSE when it cannot be found. */
gboolean       winnow_window_open_default  (WinnowWindow   *self);
/* Run the current process with a scenario (a saved session replays); on
 * failure the problems show in the window and the run stays. */
gboolean       winnow_window_open_scenario (WinnowWindow   *self,
                                            GFile          *file);
/* What File ▸ Save Session… and Export Journal… write. The file is replaced
 * only once the new one is whole: on a failure (FALSE, the error names the
 * file and the reason) the old file, and the run, are as they were. */
gboolean       winnow_window_save_session  (WinnowWindow   *self,
                                            GFile          *file,
                                            GError        **error);
gboolean       winnow_window_export_journal (WinnowWindow  *self,
                                            GFile          *file,
                                            GError        **error);
/* The folder of bundled examples: $WINNOW_EXAMPLES_DIR, else PKGDATADIR/examples. */
char          *winnow_find_examples_dir    (void);

G_END_DECLS

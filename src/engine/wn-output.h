/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-output.h — the files the front ends write: every write checked, nothing
 * half-replaced.
 *
 * A regular file, or one that does not exist yet, is written to a temporary
 * file beside it and renamed over it by wn_output_commit(): a write that fails
 * or is abandoned leaves the old file as it was, and no partial one. What is
 * not a regular file (a FIFO, /dev/null, /dev/full, a terminal) cannot be
 * replaced and is written directly. Errors are G_FILE_ERROR codes whose message
 * names the file and the system's reason ("cannot write x.jsonl: No space left
 * on device").
 */
#pragma once

#if !defined (WINNOW_INSIDE) && !defined (WINNOW_COMPILATION)
# error "Only winnow.h can be included directly"
#endif

#include <glib.h>
#include "wn-journal.h"

G_BEGIN_DECLS

typedef struct _WnOutput WnOutput;

WnOutput   *wn_output_open        (const char *filename, GError **error);
/* Write to a descriptor the caller opened (standard output): directly, at once
 * when it is a terminal; commit closes it. `name` is how messages call it. */
WnOutput   *wn_output_new_for_fd  (int fd, const char *name);
void        wn_output_free        (WnOutput *output);

/* Buffered. FALSE when this write or an earlier one failed; from the first
 * failure on nothing more is written. */
gboolean    wn_output_write       (WnOutput *output, const char *data, gsize length);
/* One journal line (wn_event_append_json()), formatted straight into the
 * buffer; otherwise as wn_output_write(). A journal subscriber's whole job. */
gboolean    wn_output_write_event (WnOutput *output, const WnEvent *event);
/* A WnJournalFunc writing each event to the WnOutput it is given as data:
 * wn_journal_subscribe (journal, wn_output_journal_func, output, NULL). A
 * failure stays in the output (wn_output_has_failed()). */
void        wn_output_journal_func (const WnEvent *event, gpointer output);
/* Write what is buffered now (whole lines stay whole). */
gboolean    wn_output_flush       (WnOutput *output);
gboolean    wn_output_has_failed  (const WnOutput *output);
/* Flush, sync and close; a temporary file replaces the target. FALSE, with the
 * first failure of any write, when the output could not be completed: then a
 * temporary file is removed and the target left as it was. Once only. */
gboolean    wn_output_commit      (WnOutput *output, GError **error);

/* The whole of `data` into `filename`, replaced atomically where it can be. */
gboolean    wn_output_write_file  (const char *filename, const char *data, gsize length, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WnOutput, wn_output_free)

G_END_DECLS

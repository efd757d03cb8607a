/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-journal.h — every event of a run, kept compactly.
 *
 * The engine hands events out on its stack; the app keeps them all (the
 * journal view, searches, the JSON-lines export). A copy per event
 * (wn_event_copy: a struct and up to nine strings, each its own allocation) and
 * a JSON line per event cost a Monte-Carlo run of 10⁵ events tens of
 * megabytes, and on a VM every first-touched page is a fault in some frame.
 * Here an event is one fixed-size record in blocks that never move, its
 * strings interned once per run (ids, nodes, topics, workers and errors
 * repeat), and the JSON is written only when someone asks for it.
 *
 * Plain data, no GTK; refcounted so rows made from it may outlive the run.
 */
#pragma once

#include <glib.h>

#include "winnow.h"

G_BEGIN_DECLS

typedef struct _WinnowJournal WinnowJournal;

WinnowJournal *winnow_journal_new          (void);
WinnowJournal *winnow_journal_ref          (WinnowJournal  *self);
void           winnow_journal_unref        (WinnowJournal  *self);

/* Keeps what `event` says (it may live on the caller's stack). */
void           winnow_journal_append       (WinnowJournal  *self,
                                            const WnEvent  *event);
guint          winnow_journal_get_n_events (WinnowJournal  *self);
/* Fills `out` with event `index`; its strings, status and flows belong to the
 * journal and stay valid as long as it does. */
void           winnow_journal_get_event    (WinnowJournal  *self,
                                            guint           index,
                                            WnEvent        *out);
/* Whether event `index` says exactly what `event` says (every field, the
 * status and the flows included; `whole` FALSE: its numbers only, seq, time,
 * kind and phase among them): a rerun's event against the one the run
 * journalled there (winnow-session-travel.c). */
gboolean       winnow_journal_event_equal  (WinnowJournal  *self,
                                            guint           index,
                                            const WnEvent  *event,
                                            gboolean        whole);
/* Keep the first `n_events` events only (no-op when it has no more): a
 * travel to an earlier point. What events handed out before (strings, status,
 * flows) stays valid as long as the journal does: rows made from a dropped
 * event keep showing it. */
void           winnow_journal_truncate     (WinnowJournal  *self,
                                            guint           n_events);
/* Events [from, to) as JSON lines (wn_event_append_json). */
void           winnow_journal_append_json  (WinnowJournal  *self,
                                            guint           from,
                                            guint           to,
                                            GString        *out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WinnowJournal, winnow_journal_unref)

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-event-log.h — the journal as a list model.
 *
 * The newest `max` events of a WinnowJournal, as WinnowEventRow items made
 * only when someone asks for one (a bound list row, a filter pass): a
 * fast-forward that journals 10⁵ events a second costs the model nothing per
 * event. New events show when the log is synced, once a frame: one
 * items-changed to append them, one to drop the oldest past `max`.
 */
#pragma once

#include <gio/gio.h>

#include "winnow-journal.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_EVENT_LOG (winnow_event_log_get_type ())
G_DECLARE_FINAL_TYPE (WinnowEventLog, winnow_event_log, WINNOW, EVENT_LOG, GObject)

WinnowEventLog *winnow_event_log_new          (guint           max);
/* A new run's journal (a reference is taken): the rows of the old one go. */
void            winnow_event_log_set_journal  (WinnowEventLog *self,
                                               WinnowJournal  *journal);
WinnowJournal  *winnow_event_log_get_journal  (WinnowEventLog *self);
/* Cut the journal back to its first `n_events` (winnow_journal_truncate): a
 * travel to an earlier point. The rows past them leave on the next sync. */
void            winnow_event_log_truncate     (WinnowEventLog *self,
                                               guint           n_events);
/* Show what the journal gained since the last sync (returns how many
 * events); after a cut, what it holds now, as a journal that only ever had
 * those events would show it, in one items-changed (returns the events past
 * the cut). */
guint           winnow_event_log_sync         (WinnowEventLog *self);
gboolean        winnow_event_log_has_pending  (WinnowEventLog *self);
/* Events of the journal no longer shown (dropped from the front). */
guint           winnow_event_log_get_n_dropped (WinnowEventLog *self);

G_END_DECLS

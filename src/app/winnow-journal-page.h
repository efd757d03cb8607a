/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-journal-page.h — the Journal tab: every event of the run, newest at
 * the bottom, with a search, a kind and an instance filter. */
#pragma once

#include "winnow-panel.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_JOURNAL_PAGE (winnow_journal_page_get_type ())
G_DECLARE_FINAL_TYPE (WinnowJournalPage, winnow_journal_page, WINNOW, JOURNAL_PAGE, WinnowPanel)

/* On the frame that shows the tabs: the count, the empty state, and the
 * newest event in view while following. */
void winnow_journal_page_update       (WinnowJournalPage *self);
/* Keyboard focus to the search (win.find). */
void winnow_journal_page_focus_search (WinnowJournalPage *self);

G_END_DECLS

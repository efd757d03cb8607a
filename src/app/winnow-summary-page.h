/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-summary-page.h — the Summary tab: the open run's figures as the
 * policy lab counts them (src/lab, the same as winnow-run --sweep's rows):
 * outcomes by end event, incidents, executions, retries, exhaustions,
 * executions per instance, and the completion-time distribution with p50,
 * p90, p99 and the maximum marked. It follows the run while it plays, a few
 * times a second at most, and only while it is shown. */
#pragma once

#include "winnow-panel.h"
#include "wn-lab.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_SUMMARY_PAGE (winnow_summary_page_get_type ())
G_DECLARE_FINAL_TYPE (WinnowSummaryPage, winnow_summary_page, WINNOW, SUMMARY_PAGE, WinnowPanel)

/* Count the run again now, shown or not. */
void                winnow_summary_page_update      (WinnowSummaryPage *self);
/* The figures shown (borrowed), or NULL with nothing open. */
const WnLabSummary *winnow_summary_page_get_summary (WinnowSummaryPage *self);

G_END_DECLS

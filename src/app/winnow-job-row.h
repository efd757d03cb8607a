/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-job-row.h — a row of the Dispatcher table (a WinnowRow: its id, marks and clock). */
#pragma once

#include "winnow-row.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_JOB_ROW (winnow_job_row_get_type ())
G_DECLARE_FINAL_TYPE (WinnowJobRow, winnow_job_row, WINNOW, JOB_ROW, WinnowRow)

WinnowJobRow *winnow_job_row_new            (const char      *id);
/* Copy a dispatcher snapshot; notifies the properties that changed. */
void          winnow_job_row_update         (WinnowJobRow    *self,
                                             const WnJobInfo *info,
                                             WnTime           now);
const char   *winnow_job_row_get_instance   (WinnowJobRow    *self);
const char   *winnow_job_row_get_node       (WinnowJobRow    *self);
const char   *winnow_job_row_get_topic      (WinnowJobRow    *self);
WnJobState    winnow_job_row_get_state      (WinnowJobRow    *self);
guint         winnow_job_row_get_attempt    (WinnowJobRow    *self);
guint         winnow_job_row_get_executions (WinnowJobRow    *self);
WnTime        winnow_job_row_get_not_before (WinnowJobRow    *self);
const char   *winnow_job_row_get_worker     (WinnowJobRow    *self);
/* The lock's holder crashed with the job: the lock can only lapse. */
gboolean      winnow_job_row_get_holder_gone (WinnowJobRow    *self);
WnTime        winnow_job_row_get_deadline   (WinnowJobRow    *self);
/* When the clock alone changes the state (WnJobInfo.next_change). */
WnTime        winnow_job_row_get_next_change (WinnowJobRow   *self);
WnTime        winnow_job_row_get_enqueued_at (WinnowJobRow   *self);
WnTrust       winnow_job_row_get_trust      (WinnowJobRow    *self);
/* The policy resolved at enqueue (borrowed; may be NULL). */
WnPolicy     *winnow_job_row_get_policy     (WinnowJobRow    *self);

/* The one name the app gives each trust mode, in every view (translated):
 * "Worker trusted", "Engine authoritative", and "Inherited" for unset. */
const char   *winnow_trust_name             (WnTrust          trust);

G_END_DECLS

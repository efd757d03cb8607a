/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-job-inspector.h — the side panel's job section: the selected job
 * now, its error mapper and output mapping, and its history. */
#pragma once

#include "winnow-panel.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_JOB_INSPECTOR (winnow_job_inspector_get_type ())
G_DECLARE_FINAL_TYPE (WinnowJobInspector, winnow_job_inspector, WINNOW, JOB_INSPECTOR, WinnowPanel)

/* Catch up with the selected job: its lists are rebuilt when its history
 * moved on, else only a running execution's row changes. The section hides
 * itself while no job is selected. */
void winnow_job_inspector_update (WinnowJobInspector *self);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-inspector.h — the window's side panel: a hint while nothing is
 * selected, then the selected job, the selected node, fault injection for a
 * selected task, and the run. */
#pragma once

#include "winnow-panel.h"
#include "winnow-fault-panel.h"
#include "winnow-node-inspector.h"
#include "winnow-run-panel.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_INSPECTOR (winnow_inspector_get_type ())
G_DECLARE_FINAL_TYPE (WinnowInspector, winnow_inspector, WINNOW, INSPECTOR, WinnowPanel)

/* Catch up with the run: its totals, the selected node's tracks and the
 * selected job (on the frame that shows the views above the tabs). */
void                 winnow_inspector_update             (WinnowInspector *self);
/* Its sections the window's actions reach (win.inject-fault,
 * win.start-instance). */
WinnowFaultPanel    *winnow_inspector_get_fault_panel    (WinnowInspector *self);
WinnowRunPanel      *winnow_inspector_get_run_panel      (WinnowInspector *self);

G_END_DECLS

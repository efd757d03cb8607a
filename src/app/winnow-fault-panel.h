/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-fault-panel.h — the side panel's fault injection: the response the
 * selected task's topic gets on its next execution. */
#pragma once

#include "winnow-panel.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_FAULT_PANEL (winnow_fault_panel_get_type ())
G_DECLARE_FINAL_TYPE (WinnowFaultPanel, winnow_fault_panel, WINNOW, FAULT_PANEL, WinnowPanel)

/* Inject what the fields say on the selected task's topic (win.inject-fault).
 * FALSE, with the reason under the fields, when nothing was injected. */
gboolean winnow_fault_panel_inject (WinnowFaultPanel *self);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-run-panel.h — the side panel's run section: the engine-wide default
 * trust, the run's totals, and starting an instance with variables. */
#pragma once

#include "winnow-panel.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_RUN_PANEL (winnow_run_panel_get_type ())
G_DECLARE_FINAL_TYPE (WinnowRunPanel, winnow_run_panel, WINNOW, RUN_PANEL, WinnowPanel)

/* Catch up with the run's totals. */
void     winnow_run_panel_update            (WinnowRunPanel *self);
/* What the trust row shows (the run's engine-wide trust); choosing a row
 * sets the run's. */
void     winnow_run_panel_set_trust_default (WinnowRunPanel *self,
                                             WnTrust         trust);
/* Start an instance with the variables typed in (win.start-instance).
 * FALSE, with the reason under the field, when none started. */
gboolean winnow_run_panel_start_instance    (WinnowRunPanel *self);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-load-errors.h — the banner that lists every problem of a file
 * that could not be opened, each as FILE:LINE:COL: path: message. */
#pragma once

#include "winnow-panel.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_LOAD_ERRORS (winnow_load_errors_get_type ())
G_DECLARE_FINAL_TYPE (WinnowLoadErrors, winnow_load_errors, WINNOW, LOAD_ERRORS, WinnowPanel)

/* Show why `file` could not be opened: its `diagnostics` (WnDiagnostic),
 * or `error` when there are none. */
void winnow_load_errors_show  (WinnowLoadErrors *self,
                               GFile            *file,
                               GPtrArray        *diagnostics,
                               const GError     *error);
/* Empty the banner and hide it. */
void winnow_load_errors_clear (WinnowLoadErrors *self);
/* What a BPMN import left out (process->warnings); clears when there is nothing. */
void winnow_load_errors_show_warnings (WinnowLoadErrors *self,
                                       GFile            *file,
                                       GPtrArray        *warnings);

G_END_DECLS

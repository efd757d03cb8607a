/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-transport.h — the header bar's transport: restart, play/pause,
 * step, step by Δ, the speed, and the clock. */
#pragma once

#include "winnow-panel.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_TRANSPORT (winnow_transport_get_type ())
G_DECLARE_FINAL_TYPE (WinnowTransport, winnow_transport, WINNOW, TRANSPORT, WinnowPanel)

/* The clock, its state and the play button, as the session stands now. */
void  winnow_transport_update          (WinnowTransport *self);
void  winnow_transport_set_speed_label (WinnowTransport *self,
                                        const char      *label);
void  winnow_transport_set_step_label  (WinnowTransport *self,
                                        const char      *label);
/* "fast-forward" or "10×": the speed as the clock's state says it. */
char *winnow_transport_describe_speed  (double           speed);

G_END_DECLS

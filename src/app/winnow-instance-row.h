/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-instance-row.h — a row of the Instances table (a WinnowRow). */
#pragma once

#include "winnow-row.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_INSTANCE_ROW (winnow_instance_row_get_type ())
G_DECLARE_FINAL_TYPE (WinnowInstanceRow, winnow_instance_row, WINNOW, INSTANCE_ROW, WinnowRow)

WinnowInstanceRow *winnow_instance_row_new            (const char           *id);
/* Copy an instance snapshot; notifies the properties that changed. */
void               winnow_instance_row_update         (WinnowInstanceRow    *self,
                                                       const WnInstanceInfo *info);
WnInstanceState    winnow_instance_row_get_state      (WinnowInstanceRow    *self);
guint              winnow_instance_row_get_incidents  (WinnowInstanceRow    *self);

G_END_DECLS

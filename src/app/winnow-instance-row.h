/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "winnow.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_INSTANCE_ROW (winnow_instance_row_get_type ())
G_DECLARE_FINAL_TYPE (WinnowInstanceRow, winnow_instance_row, WINNOW, INSTANCE_ROW, GObject)

WinnowInstanceRow *winnow_instance_row_new            (const char           *id);
/* Copy an instance snapshot; notifies the properties that changed. */
void               winnow_instance_row_update         (WinnowInstanceRow    *self,
                                                       const WnInstanceInfo *info);
const char        *winnow_instance_row_get_id         (WinnowInstanceRow    *self);
WnInstanceState    winnow_instance_row_get_state      (WinnowInstanceRow    *self);
guint              winnow_instance_row_get_incidents  (WinnowInstanceRow    *self);

/* Make `self` show what `from` shows: when anything it shows differs, every
 * property notifies (once, in one freeze/thaw); otherwise none does. */
void winnow_instance_row_assign (WinnowInstanceRow *self, WinnowInstanceRow *from);

G_END_DECLS

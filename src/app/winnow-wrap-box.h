/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-wrap-box.h — a row of widgets that wraps onto more lines when it is
 * narrower than they are, each at its natural width (libadwaita 1.2 has no
 * wrap box; GtkFlowBox lines its children up in columns). */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define WINNOW_TYPE_WRAP_BOX (winnow_wrap_box_get_type ())
G_DECLARE_FINAL_TYPE (WinnowWrapBox, winnow_wrap_box, WINNOW, WRAP_BOX, GtkWidget)

GtkWidget *winnow_wrap_box_new    (int            spacing);
/* Children are added in .ui files as <child>, or here; they keep their order. */
void       winnow_wrap_box_append (WinnowWrapBox *self,
                                   GtkWidget     *child);

G_END_DECLS

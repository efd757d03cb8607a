/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-panel-util.h — small helpers the window's panels share: rows of a
 * boxed list, a field's error label, and a toast from anywhere in the window. */
#pragma once

#include <adwaita.h>

#include "winnow-session.h"

G_BEGIN_DECLS

/* An AdwActionRow with `title` and `subtitle` (either may hold markup
 * characters: both are escaped). */
GtkWidget *winnow_property_row_new  (const char   *title,
                                     const char   *subtitle);
void       winnow_row_set_subtitle  (AdwActionRow *row,
                                     const char   *text);
void       winnow_list_box_clear    (GtkListBox   *list);
/* Show `message` in a field's error label, or hide the label when NULL. */
void       winnow_field_set_error   (GtkLabel     *label,
                                     const char   *message);
/* Parse `text` as one JSON value, as strictly as the loader reads files;
 * NULL and a message naming the place when it is not JSON. */
JsonNode  *winnow_parse_json        (const char   *text,
                                     char        **message);
/* The session's selected node in its process, NULL when none. */
const WnNode *winnow_panel_selected_node (WinnowSession *session);
/* Give `button` its menu on its first click: a menu button builds its popover
 * when it gets its menu, and one that waits keeps it out of the first frame. */
void       winnow_menu_button_set_menu_lazily (GtkMenuButton *button,
                                               GMenuModel    *menu);
/* A search field's text as a filter compares it: `*needle` becomes the
 * casefolded text of `entry`, or NULL when it is empty. */
void       winnow_search_set_needle (GtkEditable  *entry,
                                     char        **needle);
/* A dropdown of strings (a GtkStringList) whose button shortens the chosen
 * one with "…" when room is short, while its list shows each whole: its
 * longest item no longer sets the window's minimum width. */
void       winnow_drop_down_shorten (GtkDropDown  *drop_down);
/* A short confirmation in the window's toast overlay (its win.toast action). */
void       winnow_panel_toast       (GtkWidget    *widget,
                                     const char   *title);

G_END_DECLS

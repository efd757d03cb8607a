/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "winnow-panel-util.h"

GtkWidget *
winnow_property_row_new (const char *title,
                         const char *subtitle)
{
  GtkWidget *row = adw_action_row_new ();
  g_autofree char *escaped_title = g_markup_escape_text (title, -1);
  g_autofree char *escaped_subtitle = subtitle ? g_markup_escape_text (subtitle, -1) : NULL;

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), escaped_title);
  if (escaped_subtitle != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), escaped_subtitle);
  return row;
}

void
winnow_row_set_subtitle (AdwActionRow *row,
                         const char   *text)
{
  adw_action_row_set_subtitle (row, text ? text : "");
}

void
winnow_list_box_clear (GtkListBox *list)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (list))) != NULL)
    gtk_list_box_remove (list, child);
}

void
winnow_field_set_error (GtkLabel   *label,
                        const char *message)
{
  gtk_label_set_text (label, message ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (label), message != NULL);
}

/* Parse `text` as one JSON value, as strictly as the loader reads files;
 * NULL and a message naming the place when it is not JSON. */
JsonNode *
winnow_parse_json (const char  *text,
                   char       **message)
{
  g_autoptr(GPtrArray) diagnostics = NULL;
  const WnDiagnostic *problem;
  JsonNode *value;

  if (text == NULL || *text == '\0')
    {
      *message = g_strdup (_("Not valid JSON: the text is empty"));
      return NULL;
    }
  value = wn_load_json_data (text, -1, NULL, &diagnostics, NULL);
  if (value == NULL)
    {
      problem = diagnostics != NULL && diagnostics->len > 0 ? g_ptr_array_index (diagnostics, 0) : NULL;
      /* Translators: "Not valid JSON (line 1, column 2): expected a string" */
      *message = g_strdup_printf (_("Not valid JSON (line %u, column %u): %s"),
                                  problem ? problem->line : 0, problem ? problem->column : 0,
                                  problem ? problem->message : "?");
      return NULL;
    }
  return value;
}

const WnNode *
winnow_panel_selected_node (WinnowSession *session)
{
  WnProcess *process = winnow_session_get_process (session);
  const char *id = winnow_session_get_selected_node (session);

  if (process == NULL || id == NULL)
    return NULL;
  return wn_process_find_node (process, id);
}

void
winnow_panel_toast (GtkWidget  *widget,
                    const char *title)
{
  gtk_widget_activate_action (widget, "win.toast", "s", title);
}

static void
create_popup_cb (GtkMenuButton *button,
                 gpointer       menu)
{
  gtk_menu_button_set_create_popup_func (button, NULL, NULL, NULL);
  gtk_menu_button_set_menu_model (button, G_MENU_MODEL (menu));
}

void
winnow_menu_button_set_menu_lazily (GtkMenuButton *button,
                                    GMenuModel    *menu)
{
  gtk_menu_button_set_create_popup_func (button, create_popup_cb, menu, NULL);
}

void
winnow_search_set_needle (GtkEditable  *entry,
                          char        **needle)
{
  const char *text = gtk_editable_get_text (entry);

  g_clear_pointer (needle, g_free);
  if (*text != '\0')
    *needle = g_utf8_casefold (text, -1);
}

static void
string_item_setup_cb (GtkSignalListItemFactory *factory,
                      GtkListItem              *item,
                      gpointer                  shorten)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  if (shorten != NULL)
    gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_list_item_set_child (item, label);
}

static void
string_item_bind_cb (GtkSignalListItemFactory *factory,
                     GtkListItem              *item,
                     gpointer                  data)
{
  GtkStringObject *string = gtk_list_item_get_item (item);

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), gtk_string_object_get_string (string));
}

static GtkListItemFactory *
string_factory_new (gboolean shorten)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (string_item_setup_cb), shorten ? factory : NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (string_item_bind_cb), NULL);
  return factory;
}

void
winnow_drop_down_shorten (GtkDropDown *drop_down)
{
  g_autoptr(GtkListItemFactory) button = string_factory_new (TRUE);
  g_autoptr(GtkListItemFactory) list = string_factory_new (FALSE);

  gtk_drop_down_set_factory (drop_down, button);
  gtk_drop_down_set_list_factory (drop_down, list);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-load-errors.c — the load-error banner: every problem of a file
 * that could not be opened, visible without scrolling. The window calls
 * winnow_load_errors_show() when opening fails and _clear() when it
 * succeeds — or _show_warnings() when an imported BPMN model left something
 * out; the banner's close button is its load-errors.dismiss action. */
#include "config.h"

#include <glib/gi18n.h>

#include "winnow-load-errors.h"
#include "winnow-panel-util.h"

struct _WinnowLoadErrors
{
  WinnowPanel  parent_instance;

  GtkRevealer *revealer;
  GtkWidget   *error_panel;
  GtkImage    *icon;
  GtkLabel    *title;
  GtkLabel    *subtitle;
  GtkListBox  *list;
};

G_DEFINE_FINAL_TYPE (WinnowLoadErrors, winnow_load_errors, WINNOW_TYPE_PANEL)

static void
add_error_line (WinnowLoadErrors *self,
                const char       *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "monospace");
  gtk_widget_add_css_class (label, "diagnostic");
  gtk_list_box_append (self->list, label);
}

/* load-errors.dismiss: its close button */
static void
dismiss_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  WinnowLoadErrors *self = WINNOW_LOAD_ERRORS (widget);

  gtk_revealer_set_reveal_child (self->revealer, FALSE);
}

static void
winnow_load_errors_class_init (WinnowLoadErrorsClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "/winnow-load-errors.ui");
  gtk_widget_class_bind_template_child (widget_class, WinnowLoadErrors, revealer);
  gtk_widget_class_bind_template_child (widget_class, WinnowLoadErrors, title);
  gtk_widget_class_bind_template_child (widget_class, WinnowLoadErrors, subtitle);
  gtk_widget_class_bind_template_child (widget_class, WinnowLoadErrors, error_panel);
  gtk_widget_class_bind_template_child (widget_class, WinnowLoadErrors, icon);
  gtk_widget_class_bind_template_child (widget_class, WinnowLoadErrors, list);

  gtk_widget_class_install_action (widget_class, "load-errors.dismiss", NULL, dismiss_action);
}

static void
winnow_load_errors_init (WinnowLoadErrors *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/* A refused file is an error; what an opened file left out is a warning. */
static void
set_warning (WinnowLoadErrors *self,
             gboolean          warning)
{
  if (warning)
    gtk_widget_add_css_class (self->error_panel, "warning");
  else
    gtk_widget_remove_css_class (self->error_panel, "warning");
  gtk_image_set_from_icon_name (self->icon, warning ? "dialog-warning-symbolic" : "dialog-error-symbolic");
}

void
winnow_load_errors_clear (WinnowLoadErrors *self)
{
  g_return_if_fail (WINNOW_IS_LOAD_ERRORS (self));

  winnow_list_box_clear (self->list);
  gtk_revealer_set_reveal_child (self->revealer, FALSE);
}

void
winnow_load_errors_show (WinnowLoadErrors *self,
                         GFile            *file,
                         GPtrArray        *diagnostics,
                         const GError     *error)
{
  WinnowSession *session;
  g_autofree char *name = NULL;
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;
  guint n = diagnostics ? diagnostics->len : 0;

  g_return_if_fail (WINNOW_IS_LOAD_ERRORS (self));
  g_return_if_fail (G_IS_FILE (file));

  session = winnow_panel_get_session (WINNOW_PANEL (self));
  name = g_file_get_basename (file);
  winnow_load_errors_clear (self);
  /* Translators: %s is a file name */
  title = g_strdup_printf (_("Could not open “%s”"), name);
  if (n > 0)
    {
      for (guint i = 0; i < n; i++)
        {
          g_autofree char *line = wn_diagnostic_format (g_ptr_array_index (diagnostics, i));
          add_error_line (self, line);
        }
      subtitle = g_strdup_printf (ngettext ("%u problem was found.", "%u problems were found.", n), n);
    }
  else
    {
      add_error_line (self, error ? error->message : _("Unknown error"));
      subtitle = g_strdup (_("The file could not be read."));
    }
  if (session != NULL && winnow_session_is_loaded (session))
    {
      g_autofree char *with_note = g_strdup_printf ("%s %s", subtitle, _("The current run is unchanged."));
      g_free (subtitle);
      subtitle = g_steal_pointer (&with_note);
    }
  gtk_label_set_text (self->title, title);
  gtk_label_set_text (self->subtitle, subtitle);
  set_warning (self, FALSE);
  gtk_revealer_set_reveal_child (self->revealer, TRUE);
}

void
winnow_load_errors_show_warnings (WinnowLoadErrors *self,
                                  GFile            *file,
                                  GPtrArray        *warnings)
{
  g_autofree char *name = NULL;
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;
  guint n = warnings != NULL ? warnings->len : 0;

  g_return_if_fail (WINNOW_IS_LOAD_ERRORS (self));
  g_return_if_fail (G_IS_FILE (file));

  winnow_load_errors_clear (self);
  if (n == 0)
    return;
  name = g_file_get_basename (file);
  for (guint i = 0; i < n; i++)
    add_error_line (self, g_ptr_array_index (warnings, i));
  /* Translators: %s is a file name */
  title = g_strdup_printf (_("Opened “%s”"), name);
  subtitle = g_strdup_printf (ngettext ("%u thing in the model does not change how it runs and was left out.",
                                        "%u things in the model do not change how it runs and were left out.", n), n);
  gtk_label_set_text (self->title, title);
  gtk_label_set_text (self->subtitle, subtitle);
  set_warning (self, TRUE);
  gtk_revealer_set_reveal_child (self->revealer, TRUE);
}

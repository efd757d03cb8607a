/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-panel.c — what every panel of the window has in common: the
 * `session` property the window's template binds, the handlers on that
 * session dropped when it changes, a child laid out to fill the panel, and
 * its template disposed with it. A panel subclasses WinnowPanel, sets its
 * template in class_init and does its work in session_changed. */
#include "config.h"

#include "winnow-panel.h"

typedef struct
{
  WinnowSession *session;
} WinnowPanelPrivate;

enum {
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (WinnowPanel, winnow_panel, GTK_TYPE_WIDGET)

static void
winnow_panel_dispose (GObject *object)
{
  WinnowPanel *self = WINNOW_PANEL (object);

  GtkWidget *child;

  winnow_panel_set_session (self, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), G_OBJECT_TYPE (self));
  /* and the template's top widget, bound or not */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (winnow_panel_parent_class)->dispose (object);
}

static void
winnow_panel_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  WinnowPanel *self = WINNOW_PANEL (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, winnow_panel_get_session (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_panel_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  WinnowPanel *self = WINNOW_PANEL (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      winnow_panel_set_session (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_panel_class_init (WinnowPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = winnow_panel_dispose;
  object_class->get_property = winnow_panel_get_property;
  object_class->set_property = winnow_panel_set_property;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, WINNOW_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
winnow_panel_init (WinnowPanel *self)
{
}

WinnowSession *
winnow_panel_get_session (WinnowPanel *self)
{
  WinnowPanelPrivate *priv = winnow_panel_get_instance_private (self);

  g_return_val_if_fail (WINNOW_IS_PANEL (self), NULL);
  return priv->session;
}

void
winnow_panel_set_session (WinnowPanel   *self,
                          WinnowSession *session)
{
  WinnowPanelPrivate *priv = winnow_panel_get_instance_private (self);
  g_autoptr(WinnowSession) old = NULL;

  g_return_if_fail (WINNOW_IS_PANEL (self));
  g_return_if_fail (session == NULL || WINNOW_IS_SESSION (session));

  if (priv->session == session)
    return;
  old = g_steal_pointer (&priv->session);
  if (old != NULL)
    g_signal_handlers_disconnect_by_data (old, self);
  priv->session = session ? g_object_ref (session) : NULL;
  if (WINNOW_PANEL_GET_CLASS (self)->session_changed != NULL)
    WINNOW_PANEL_GET_CLASS (self)->session_changed (self, old);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

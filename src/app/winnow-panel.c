/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-panel.c — what every panel of the window has in common: the
 * `session` property the window's template binds, the handlers on that
 * session dropped when it changes, a child laid out to fill the panel, and
 * its template disposed with it. A panel subclasses WinnowPanel, sets its
 * template and the session signals it follows (winnow_panel_class_follow)
 * in class_init, catches up with a new session in session_changed, and may
 * attach its view's model only while it is mapped (attach). */
#include "config.h"

#include "winnow-panel.h"

typedef struct
{
  WinnowSession *session;
  guint          badge;
} WinnowPanelPrivate;

enum {
  PROP_0,
  PROP_SESSION,
  PROP_BADGE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* What a panel class follows (winnow_panel_class_follow), kept on its GType. */
typedef struct
{
  const char *detailed_signal;
  GCallback   callback;
} Follow;

static GQuark follow_quark;

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
winnow_panel_map (GtkWidget *widget)
{
  if (WINNOW_PANEL_GET_CLASS (widget)->attach != NULL)
    WINNOW_PANEL_GET_CLASS (widget)->attach (WINNOW_PANEL (widget), TRUE);
  GTK_WIDGET_CLASS (winnow_panel_parent_class)->map (widget);
}

static void
winnow_panel_unmap (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (winnow_panel_parent_class)->unmap (widget);
  if (WINNOW_PANEL_GET_CLASS (widget)->attach != NULL)
    WINNOW_PANEL_GET_CLASS (widget)->attach (WINNOW_PANEL (widget), FALSE);
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
    case PROP_BADGE:
      g_value_set_uint (value, winnow_panel_get_badge (self));
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
  widget_class->map = winnow_panel_map;
  widget_class->unmap = winnow_panel_unmap;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, WINNOW_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* for the tab's badge (winnow_panel_set_badge) */
  properties[PROP_BADGE] =
    g_param_spec_uint ("badge", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  follow_quark = g_quark_from_static_string ("winnow-panel-follow");
}

static void
winnow_panel_init (WinnowPanel *self)
{
}

/* The signals the panel's classes follow, connected to `session`. */
static void
connect_follows (WinnowPanel   *self,
                 WinnowSession *session)
{
  for (GType type = G_OBJECT_TYPE (self); type != WINNOW_TYPE_PANEL; type = g_type_parent (type))
    {
      GArray *follows = g_type_get_qdata (type, follow_quark);

      for (guint i = 0; follows != NULL && i < follows->len; i++)
        {
          const Follow *follow = &g_array_index (follows, Follow, i);

          g_signal_connect_object (session, follow->detailed_signal, follow->callback, self, 0);
        }
    }
}

void
winnow_panel_class_follow (WinnowPanelClass *klass,
                           const char       *detailed_signal,
                           GCallback         callback)
{
  GType type = G_TYPE_FROM_CLASS (klass);
  GArray *follows = g_type_get_qdata (type, follow_quark);
  Follow follow = { g_intern_string (detailed_signal), callback };

  g_return_if_fail (WINNOW_IS_PANEL_CLASS (klass));

  if (follows == NULL)
    {
      /* kept as long as the class: the process */
      follows = g_array_new (FALSE, FALSE, sizeof (Follow));
      g_type_set_qdata (type, follow_quark, follows);
    }
  g_array_append_val (follows, follow);
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
  if (session != NULL)
    connect_follows (self, session);
  if (WINNOW_PANEL_GET_CLASS (self)->session_changed != NULL)
    WINNOW_PANEL_GET_CLASS (self)->session_changed (self, old);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

guint
winnow_panel_get_badge (WinnowPanel *self)
{
  WinnowPanelPrivate *priv = winnow_panel_get_instance_private (self);

  g_return_val_if_fail (WINNOW_IS_PANEL (self), 0);
  return priv->badge;
}

void
winnow_panel_set_badge (WinnowPanel *self,
                        guint        badge)
{
  WinnowPanelPrivate *priv = winnow_panel_get_instance_private (self);

  g_return_if_fail (WINNOW_IS_PANEL (self));

  if (priv->badge == badge)
    return;
  priv->badge = badge;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BADGE]);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-row.c — the base of the table rows (winnow-row.h). */
#include "config.h"

#include "winnow-row.h"

typedef struct
{
  char           *id;
  WnTime          now;
  WinnowRowMarks  marks;
} WinnowRowPrivate;

enum {
  PROP_0,
  PROP_ID,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (WinnowRow, winnow_row, G_TYPE_OBJECT)

static void
winnow_row_finalize (GObject *object)
{
  WinnowRowPrivate *priv = winnow_row_get_instance_private (WINNOW_ROW (object));

  g_clear_pointer (&priv->id, g_free);

  G_OBJECT_CLASS (winnow_row_parent_class)->finalize (object);
}

static void
winnow_row_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  WinnowRowPrivate *priv = winnow_row_get_instance_private (WINNOW_ROW (object));

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_string (value, priv->id);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_row_class_init (WinnowRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = winnow_row_finalize;
  object_class->get_property = winnow_row_get_property;

  properties[PROP_ID] =
    g_param_spec_string ("id", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
winnow_row_init (WinnowRow *self)
{
}

const char *
winnow_row_get_id (WinnowRow *self)
{
  WinnowRowPrivate *priv = winnow_row_get_instance_private (self);

  g_return_val_if_fail (WINNOW_IS_ROW (self), NULL);
  return priv->id;
}

WinnowRowMarks *
winnow_row_get_marks (WinnowRow *self)
{
  WinnowRowPrivate *priv = winnow_row_get_instance_private (self);

  g_return_val_if_fail (WINNOW_IS_ROW (self), NULL);
  return &priv->marks;
}

WnTime
winnow_row_get_now (WinnowRow *self)
{
  WinnowRowPrivate *priv = winnow_row_get_instance_private (self);

  g_return_val_if_fail (WINNOW_IS_ROW (self), 0);
  return priv->now;
}

void
winnow_row_set_now (WinnowRow *self,
                    WnTime     now)
{
  WinnowRowPrivate *priv = winnow_row_get_instance_private (self);

  g_return_if_fail (WINNOW_IS_ROW (self));
  priv->now = now;
}

void
winnow_row_set_id (WinnowRow  *self,
                   const char *id)
{
  WinnowRowPrivate *priv = winnow_row_get_instance_private (self);

  g_return_if_fail (WINNOW_IS_ROW (self));
  winnow_str_replace (&priv->id, id);
}

void
winnow_row_class_set_pspecs (WinnowRowClass *klass,
                             GParamSpec    **pspecs,
                             guint           n_props)
{
  g_return_if_fail (WINNOW_IS_ROW_CLASS (klass));

  klass->pspecs = pspecs;
  klass->n_pspecs = n_props;
}

void
winnow_row_assign_from (gpointer self,
                        gpointer from)
{
  WinnowRowPrivate *priv;
  WinnowRowPrivate *from_priv;
  WinnowRowClass *klass;
  gboolean changed;

  g_return_if_fail (WINNOW_IS_ROW (self));
  g_return_if_fail (WINNOW_IS_ROW (from) && G_OBJECT_TYPE (from) == G_OBJECT_TYPE (self));

  if (self == from)
    return;
  priv = winnow_row_get_instance_private (self);
  from_priv = winnow_row_get_instance_private (from);
  klass = WINNOW_ROW_GET_CLASS (self);
  priv->now = from_priv->now;
  changed = winnow_str_replace (&priv->id, from_priv->id);
  changed |= klass->assign (self, from);
  if (changed)
    {
      g_object_freeze_notify (G_OBJECT (self));
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ID]);
      winnow_notify_range (G_OBJECT (self), klass->pspecs, 1, klass->n_pspecs);
      g_object_thaw_notify (G_OBJECT (self));
    }
}

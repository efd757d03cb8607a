/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "winnow-instance-row.h"

struct _WinnowInstanceRow
{
  WinnowRow        parent_instance;

  WnInstanceState  state;
  WnTime           started_at;
  WnTime           ended_at;
  char            *end_node;
  char            *reason;
  guint            n_incidents;
  gboolean         filled;
};

enum {
  PROP_0,
  PROP_STATE,
  PROP_STATE_NAME,
  PROP_STARTED_TEXT,
  PROP_ENDED_TEXT,
  PROP_OUTCOME,
  PROP_INCIDENTS,
  PROP_STYLE,
  PROP_DURATION,
  PROP_DURATION_TEXT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static gboolean winnow_instance_row_assign (WinnowRow *row, WinnowRow *other);

G_DEFINE_FINAL_TYPE (WinnowInstanceRow, winnow_instance_row, WINNOW_TYPE_ROW)

static const char *
instance_style (WinnowInstanceRow *self)
{
  if (self->state == WN_INSTANCE_TERMINATED)
    return "failed";
  if (self->n_incidents > 0)
    return "incident";
  if (self->state == WN_INSTANCE_COMPLETED)
    return "completed";
  return "active";
}

static char *
outcome_text (WinnowInstanceRow *self)
{
  switch (self->state)
    {
    case WN_INSTANCE_COMPLETED:
      /* Translators: an instance that ended at an end event, e.g. "ended at shipped" */
      return self->end_node ? g_strdup_printf (_("ended at %s"), self->end_node) : g_strdup (_("completed"));
    case WN_INSTANCE_TERMINATED:
      return g_strdup (self->reason ? self->reason : _("terminated"));
    case WN_INSTANCE_ACTIVE:
    default:
      if (self->n_incidents > 0)
        return g_strdup_printf (ngettext ("%u open incident", "%u open incidents", self->n_incidents),
                                self->n_incidents);
      return g_strdup ("—");
    }
}

/* Started to ended, or to now while active (µs). */
static WnTime
duration (WinnowInstanceRow *self)
{
  WnTime until = self->ended_at >= 0 ? self->ended_at : winnow_row_get_now (WINNOW_ROW (self));

  return MAX (until - self->started_at, 0);
}

static void
winnow_instance_row_finalize (GObject *object)
{
  WinnowInstanceRow *self = WINNOW_INSTANCE_ROW (object);

  g_clear_pointer (&self->end_node, g_free);
  g_clear_pointer (&self->reason, g_free);

  G_OBJECT_CLASS (winnow_instance_row_parent_class)->finalize (object);
}

static void
winnow_instance_row_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  WinnowInstanceRow *self = WINNOW_INSTANCE_ROW (object);

  switch (prop_id)
    {
    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;
    case PROP_STATE_NAME:
      g_value_set_string (value, wn_instance_state_to_string (self->state));
      break;
    case PROP_STARTED_TEXT:
      g_value_take_string (value, wn_time_format_clock (self->started_at));
      break;
    case PROP_ENDED_TEXT:
      g_value_take_string (value, self->ended_at >= 0 ? wn_time_format_clock (self->ended_at) : g_strdup ("—"));
      break;
    case PROP_OUTCOME:
      g_value_take_string (value, outcome_text (self));
      break;
    case PROP_INCIDENTS:
      g_value_set_uint (value, self->n_incidents);
      break;
    case PROP_STYLE:
      g_value_set_string (value, instance_style (self));
      break;
    case PROP_DURATION:
      g_value_set_int64 (value, duration (self));
      break;
    case PROP_DURATION_TEXT:
      g_value_take_string (value, wn_duration_format (duration (self)));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_instance_row_class_init (WinnowInstanceRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->finalize = winnow_instance_row_finalize;
  object_class->get_property = winnow_instance_row_get_property;

  properties[PROP_STATE] = g_param_spec_enum ("state", NULL, NULL, WN_TYPE_INSTANCE_STATE, WN_INSTANCE_ACTIVE, flags);
  properties[PROP_STATE_NAME] = g_param_spec_string ("state-name", NULL, NULL, NULL, flags);
  properties[PROP_STARTED_TEXT] = g_param_spec_string ("started-text", NULL, NULL, NULL, flags);
  properties[PROP_ENDED_TEXT] = g_param_spec_string ("ended-text", NULL, NULL, NULL, flags);
  properties[PROP_OUTCOME] = g_param_spec_string ("outcome", NULL, NULL, NULL, flags);
  properties[PROP_INCIDENTS] = g_param_spec_uint ("incidents", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_STYLE] = g_param_spec_string ("style", NULL, NULL, NULL, flags);
  properties[PROP_DURATION] = g_param_spec_int64 ("duration", NULL, NULL, 0, G_MAXINT64, 0, flags);
  properties[PROP_DURATION_TEXT] = g_param_spec_string ("duration-text", NULL, NULL, NULL, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  WINNOW_ROW_CLASS (klass)->assign = winnow_instance_row_assign;
  winnow_row_class_set_pspecs (WINNOW_ROW_CLASS (klass), properties, N_PROPS);
}

static void
winnow_instance_row_init (WinnowInstanceRow *self)
{
  self->ended_at = -1;
}

WinnowInstanceRow *
winnow_instance_row_new (const char *id)
{
  WinnowInstanceRow *self = g_object_new (WINNOW_TYPE_INSTANCE_ROW, NULL);

  winnow_row_set_id (WINNOW_ROW (self), id);
  return self;
}

void
winnow_instance_row_update (WinnowInstanceRow    *self,
                            const WnInstanceInfo *info)
{
  gboolean changed;

  g_return_if_fail (WINNOW_IS_INSTANCE_ROW (self));
  g_return_if_fail (info != NULL);

  changed = !self->filled;
  changed |= WINNOW_SET_FIELD (self->state, info->state);
  changed |= WINNOW_SET_FIELD (self->ended_at, info->ended_at);
  changed |= WINNOW_SET_FIELD (self->n_incidents, info->n_incidents);
  changed |= winnow_str_replace (&self->end_node, info->end_node);
  changed |= winnow_str_replace (&self->reason, info->reason);
  if (!changed)
    return;
  self->started_at = info->started_at;

  if (!self->filled)
    {
      self->filled = TRUE;
      return;
    }
  winnow_notify_range (G_OBJECT (self), properties, PROP_STATE, N_PROPS);
}


WnInstanceState
winnow_instance_row_get_state (WinnowInstanceRow *self)
{
  g_return_val_if_fail (WINNOW_IS_INSTANCE_ROW (self), WN_INSTANCE_ACTIVE);
  return self->state;
}

guint
winnow_instance_row_get_incidents (WinnowInstanceRow *self)
{
  g_return_val_if_fail (WINNOW_IS_INSTANCE_ROW (self), 0);
  return self->n_incidents;
}

/* The fields a display row copies (winnow_row_assign_from). */
static gboolean
winnow_instance_row_assign (WinnowRow *row,
                            WinnowRow *other)
{
  WinnowInstanceRow *self = WINNOW_INSTANCE_ROW (row);
  WinnowInstanceRow *from = WINNOW_INSTANCE_ROW (other);
  gboolean changed = FALSE;

  changed |= winnow_str_replace (&self->end_node, from->end_node);
  changed |= winnow_str_replace (&self->reason, from->reason);
  changed |= WINNOW_SET_FIELD (self->state, from->state);
  changed |= WINNOW_SET_FIELD (self->started_at, from->started_at);
  changed |= WINNOW_SET_FIELD (self->ended_at, from->ended_at);
  changed |= WINNOW_SET_FIELD (self->n_incidents, from->n_incidents);
  return changed;
}

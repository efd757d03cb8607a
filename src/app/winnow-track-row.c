/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "winnow-track-row.h"

struct _WinnowTrackRow
{
  WinnowRow       parent_instance;

  char           *instance;
  char           *node;
  char           *node_name;
  char           *job;
  char           *error;
  WnTrackState    state;
  WnTime          since;
  guint           instance_number;   /* the id "i<instance_number>/t<number>" as numbers */
  guint           number;
  gboolean        filled;
};

enum {
  PROP_0,
  PROP_INSTANCE,
  PROP_NODE,
  PROP_NODE_NAME,
  PROP_STATE,
  PROP_STATE_NAME,
  PROP_SINCE,
  PROP_SINCE_TEXT,
  PROP_JOB,
  PROP_JOB_TEXT,
  PROP_ERROR,
  PROP_STYLE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static gboolean winnow_track_row_assign (WinnowRow *row, WinnowRow *other);

G_DEFINE_FINAL_TYPE (WinnowTrackRow, winnow_track_row, WINNOW_TYPE_ROW)

static const char *
track_style (WnTrackState state)
{
  switch (state)
    {
    case WN_TRACK_ACTIVE:
      return "active";
    case WN_TRACK_PARKED:
      return "parked";
    case WN_TRACK_INCIDENT:
      return "incident";
    case WN_TRACK_JOINING:
      return "joining";
    case WN_TRACK_DONE:
      return "completed";
    case WN_TRACK_CANCELED:
      return "canceled";
    case WN_TRACK_FAILED:
      return "failed";
    default:
      return "";
    }
}

static char *
since_text (WinnowTrackRow *self)
{
  g_autofree char *clock = wn_time_format_clock (self->since);
  g_autofree char *ago = NULL;

  if (winnow_row_get_now (WINNOW_ROW (self)) <= self->since)
    return g_steal_pointer (&clock);
  ago = wn_duration_format ((winnow_row_get_now (WINNOW_ROW (self)) - self->since) / WN_USEC_PER_MSEC * WN_USEC_PER_MSEC);
  /* Translators: when a track entered its state, and how long ago: "T+00:00.100 (1.2s ago)" */
  return g_strdup_printf (_("%s (%s ago)"), clock, ago);
}

static void
winnow_track_row_finalize (GObject *object)
{
  WinnowTrackRow *self = WINNOW_TRACK_ROW (object);

  g_clear_pointer (&self->instance, g_free);
  g_clear_pointer (&self->node, g_free);
  g_clear_pointer (&self->node_name, g_free);
  g_clear_pointer (&self->job, g_free);
  g_clear_pointer (&self->error, g_free);

  G_OBJECT_CLASS (winnow_track_row_parent_class)->finalize (object);
}

static void
winnow_track_row_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  WinnowTrackRow *self = WINNOW_TRACK_ROW (object);

  switch (prop_id)
    {
    case PROP_INSTANCE:
      g_value_set_string (value, self->instance);
      break;
    case PROP_NODE:
      g_value_set_string (value, self->node);
      break;
    case PROP_NODE_NAME:
      g_value_set_string (value, self->node_name ? self->node_name : self->node);
      break;
    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;
    case PROP_STATE_NAME:
      g_value_set_string (value, wn_track_state_to_string (self->state));
      break;
    case PROP_SINCE:
      g_value_set_int64 (value, self->since);
      break;
    case PROP_SINCE_TEXT:
      g_value_take_string (value, since_text (self));
      break;
    case PROP_JOB:
      g_value_set_string (value, self->job);
      break;
    case PROP_JOB_TEXT:
      g_value_set_string (value, self->job ? self->job : "—");
      break;
    case PROP_ERROR:
      g_value_set_string (value, self->error);
      break;
    case PROP_STYLE:
      g_value_set_string (value, track_style (self->state));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_track_row_class_init (WinnowTrackRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->finalize = winnow_track_row_finalize;
  object_class->get_property = winnow_track_row_get_property;

  properties[PROP_INSTANCE] = g_param_spec_string ("instance", NULL, NULL, NULL, flags);
  properties[PROP_NODE] = g_param_spec_string ("node", NULL, NULL, NULL, flags);
  properties[PROP_NODE_NAME] = g_param_spec_string ("node-name", NULL, NULL, NULL, flags);
  properties[PROP_STATE] = g_param_spec_enum ("state", NULL, NULL, WN_TYPE_TRACK_STATE, WN_TRACK_ACTIVE, flags);
  properties[PROP_STATE_NAME] = g_param_spec_string ("state-name", NULL, NULL, NULL, flags);
  properties[PROP_SINCE] = g_param_spec_int64 ("since", NULL, NULL, G_MININT64, G_MAXINT64, 0, flags);
  properties[PROP_SINCE_TEXT] = g_param_spec_string ("since-text", NULL, NULL, NULL, flags);
  properties[PROP_JOB] = g_param_spec_string ("job", NULL, NULL, NULL, flags);
  properties[PROP_JOB_TEXT] = g_param_spec_string ("job-text", NULL, NULL, NULL, flags);
  properties[PROP_ERROR] = g_param_spec_string ("error", NULL, NULL, NULL, flags);
  properties[PROP_STYLE] = g_param_spec_string ("style", NULL, NULL, NULL, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  WINNOW_ROW_CLASS (klass)->assign = winnow_track_row_assign;
  winnow_row_class_set_pspecs (WINNOW_ROW_CLASS (klass), properties, N_PROPS);
}

static void
winnow_track_row_init (WinnowTrackRow *self)
{
}

WinnowTrackRow *
winnow_track_row_new (const char *id)
{
  WinnowTrackRow *self = g_object_new (WINNOW_TYPE_TRACK_ROW, NULL);

  winnow_row_set_id (WINNOW_ROW (self), id);
  return self;
}

void
winnow_track_row_update (WinnowTrackRow    *self,
                         const WnTrackInfo *info,
                         const char        *node_name,
                         WnTime             now)
{
  GObject *object = G_OBJECT (self);
  gboolean since_changed;

  g_return_if_fail (WINNOW_IS_TRACK_ROW (self));
  g_return_if_fail (info != NULL);

  if (!self->filled)
    {
      self->instance = g_strdup (info->instance);
      self->instance_number = info->instance_number;
      self->number = info->number;
      self->node = g_strdup (info->node);
      self->node_name = g_strdup (node_name);
      self->state = info->state;
      self->since = info->since;
      self->job = g_strdup (info->job);
      self->error = g_strdup (info->error);
      winnow_row_set_now (WINNOW_ROW (self), now);
      self->filled = TRUE;
      return;
    }

  if (winnow_str_replace (&self->node, info->node))
    {
      winnow_str_replace (&self->node_name, node_name);
      WINNOW_NOTIFY (object, properties, PROP_NODE, PROP_NODE_NAME);
    }
  if (WINNOW_SET_FIELD (self->state, info->state))
    WINNOW_NOTIFY (object, properties, PROP_STATE, PROP_STATE_NAME, PROP_STYLE);
  since_changed = WINNOW_SET_FIELD (self->since, info->since);
  if (since_changed)
    WINNOW_NOTIFY (object, properties, PROP_SINCE);
  /* "(1.2s ago)" moves with the clock: the view refreshes visible cells per frame. */
  winnow_row_set_now (WINNOW_ROW (self), now);
  if (since_changed)
    WINNOW_NOTIFY (object, properties, PROP_SINCE_TEXT);
  if (winnow_str_replace (&self->job, info->job))
    WINNOW_NOTIFY (object, properties, PROP_JOB, PROP_JOB_TEXT);
  if (winnow_str_replace (&self->error, info->error))
    WINNOW_NOTIFY (object, properties, PROP_ERROR);
}


guint
winnow_track_row_get_instance_number (WinnowTrackRow *self)
{
  g_return_val_if_fail (WINNOW_IS_TRACK_ROW (self), 0);
  return self->instance_number;
}

guint
winnow_track_row_get_number (WinnowTrackRow *self)
{
  g_return_val_if_fail (WINNOW_IS_TRACK_ROW (self), 0);
  return self->number;
}

const char *
winnow_track_row_get_instance (WinnowTrackRow *self)
{
  g_return_val_if_fail (WINNOW_IS_TRACK_ROW (self), NULL);
  return self->instance;
}

const char *
winnow_track_row_get_node (WinnowTrackRow *self)
{
  g_return_val_if_fail (WINNOW_IS_TRACK_ROW (self), NULL);
  return self->node;
}

const char *
winnow_track_row_get_node_name (WinnowTrackRow *self)
{
  g_return_val_if_fail (WINNOW_IS_TRACK_ROW (self), NULL);
  return self->node_name ? self->node_name : self->node;
}

WnTrackState
winnow_track_row_get_state (WinnowTrackRow *self)
{
  g_return_val_if_fail (WINNOW_IS_TRACK_ROW (self), WN_TRACK_ACTIVE);
  return self->state;
}

WnTime
winnow_track_row_get_since (WinnowTrackRow *self)
{
  g_return_val_if_fail (WINNOW_IS_TRACK_ROW (self), 0);
  return self->since;
}

const char *
winnow_track_row_get_job (WinnowTrackRow *self)
{
  g_return_val_if_fail (WINNOW_IS_TRACK_ROW (self), NULL);
  return self->job;
}

const char *
winnow_track_row_get_error (WinnowTrackRow *self)
{
  g_return_val_if_fail (WINNOW_IS_TRACK_ROW (self), NULL);
  return self->error;
}



/* The fields a display row copies (winnow_row_assign_from). */
static gboolean
winnow_track_row_assign (WinnowRow *row,
                         WinnowRow *other)
{
  WinnowTrackRow *self = WINNOW_TRACK_ROW (row);
  WinnowTrackRow *from = WINNOW_TRACK_ROW (other);
  gboolean changed = FALSE;

  changed |= winnow_str_replace (&self->instance, from->instance);
  /* they follow the id */
  self->instance_number = from->instance_number;
  self->number = from->number;
  changed |= winnow_str_replace (&self->node, from->node);
  changed |= winnow_str_replace (&self->node_name, from->node_name);
  changed |= winnow_str_replace (&self->job, from->job);
  changed |= winnow_str_replace (&self->error, from->error);
  changed |= WINNOW_SET_FIELD (self->state, from->state);
  changed |= WINNOW_SET_FIELD (self->since, from->since);
  return changed;
}

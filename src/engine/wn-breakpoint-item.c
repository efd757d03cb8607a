/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-breakpoint-item.c — a breakpoint as a GObject, for list models. */
#include "wn-breakpoint-item.h"

#include "wn-engine-private.h"
#include "wn-enum-types.h"

struct _WnBreakpointItem
{
  GObject       parent_instance;

  guint         id;
  WnEventKind   kind;
  WnEventPhase  phase;
  char         *node;
  gboolean      enabled;
  guint         hits;
};

enum {
  PROP_0,
  PROP_ID,
  PROP_KIND,
  PROP_PHASE,
  PROP_NODE,
  PROP_SPEC,
  PROP_ENABLED,
  PROP_HITS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (WnBreakpointItem, wn_breakpoint_item, G_TYPE_OBJECT)

static void
wn_breakpoint_item_finalize (GObject *object)
{
  WnBreakpointItem *self = WN_BREAKPOINT_ITEM (object);

  g_free (self->node);

  G_OBJECT_CLASS (wn_breakpoint_item_parent_class)->finalize (object);
}

static void
wn_breakpoint_item_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  WnBreakpointItem *self = WN_BREAKPOINT_ITEM (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_uint (value, self->id);
      break;
    case PROP_KIND:
      g_value_set_enum (value, self->kind);
      break;
    case PROP_PHASE:
      g_value_set_enum (value, self->phase);
      break;
    case PROP_NODE:
      g_value_set_string (value, self->node);
      break;
    case PROP_SPEC:
      g_value_take_string (value, wn_breakpoint_item_dup_spec (self));
      break;
    case PROP_ENABLED:
      g_value_set_boolean (value, self->enabled);
      break;
    case PROP_HITS:
      g_value_set_uint (value, self->hits);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
wn_breakpoint_item_class_init (WnBreakpointItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->finalize = wn_breakpoint_item_finalize;
  object_class->get_property = wn_breakpoint_item_get_property;

  properties[PROP_ID] = g_param_spec_uint ("id", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_KIND] = g_param_spec_enum ("kind", NULL, NULL, WN_TYPE_EVENT_KIND, WN_EV_INSTANCE, flags);
  properties[PROP_PHASE] = g_param_spec_enum ("phase", NULL, NULL, WN_TYPE_EVENT_PHASE, WN_PH_CREATED, flags);
  properties[PROP_NODE] = g_param_spec_string ("node", NULL, NULL, NULL, flags);
  properties[PROP_SPEC] = g_param_spec_string ("spec", NULL, NULL, NULL, flags);
  properties[PROP_ENABLED] = g_param_spec_boolean ("enabled", NULL, NULL, TRUE, flags);
  properties[PROP_HITS] = g_param_spec_uint ("hits", NULL, NULL, 0, G_MAXUINT, 0, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
wn_breakpoint_item_init (WnBreakpointItem *self)
{
  self->enabled = TRUE;
}

/* ---- private (wn-engine.c) ---- */

WnBreakpointItem *
_wn_breakpoint_item_new (const WnBreakpoint *bp)
{
  WnBreakpointItem *self = g_object_new (WN_TYPE_BREAKPOINT_ITEM, NULL);

  self->id = bp->id;
  self->kind = bp->kind;
  self->phase = bp->phase;
  self->node = g_strdup (bp->node);
  self->enabled = bp->enabled;
  self->hits = bp->hits;
  return self;
}

/* Follow the engine's breakpoint `bp` (the same id); notifies what changed. */
void
_wn_breakpoint_item_sync (WnBreakpointItem   *self,
                          const WnBreakpoint *bp)
{
  g_return_if_fail (WN_IS_BREAKPOINT_ITEM (self));
  g_return_if_fail (bp->id == self->id);

  if (self->enabled != bp->enabled)
    {
      self->enabled = bp->enabled;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ENABLED]);
    }
  if (self->hits != bp->hits)
    {
      self->hits = bp->hits;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HITS]);
    }
}

/* ---- public ---- */

guint
wn_breakpoint_item_get_id (WnBreakpointItem *self)
{
  g_return_val_if_fail (WN_IS_BREAKPOINT_ITEM (self), 0);
  return self->id;
}

WnEventKind
wn_breakpoint_item_get_kind (WnBreakpointItem *self)
{
  g_return_val_if_fail (WN_IS_BREAKPOINT_ITEM (self), WN_EV_INSTANCE);
  return self->kind;
}

WnEventPhase
wn_breakpoint_item_get_phase (WnBreakpointItem *self)
{
  g_return_val_if_fail (WN_IS_BREAKPOINT_ITEM (self), WN_PH_CREATED);
  return self->phase;
}

const char *
wn_breakpoint_item_get_node (WnBreakpointItem *self)
{
  g_return_val_if_fail (WN_IS_BREAKPOINT_ITEM (self), NULL);
  return self->node;
}

gboolean
wn_breakpoint_item_get_enabled (WnBreakpointItem *self)
{
  g_return_val_if_fail (WN_IS_BREAKPOINT_ITEM (self), FALSE);
  return self->enabled;
}

guint
wn_breakpoint_item_get_hits (WnBreakpointItem *self)
{
  g_return_val_if_fail (WN_IS_BREAKPOINT_ITEM (self), 0);
  return self->hits;
}

char *
wn_breakpoint_item_dup_spec (WnBreakpointItem *self)
{
  g_return_val_if_fail (WN_IS_BREAKPOINT_ITEM (self), NULL);
  return wn_breakpoint_to_spec (self->kind, self->phase, self->node);
}

char *
wn_breakpoint_to_spec (WnEventKind   kind,
                       WnEventPhase  phase,
                       const char   *node)
{
  if (node != NULL)
    return g_strdup_printf ("%s.%s@%s", wn_event_kind_to_string (kind), wn_event_phase_to_string (phase), node);
  return g_strdup_printf ("%s.%s", wn_event_kind_to_string (kind), wn_event_phase_to_string (phase));
}

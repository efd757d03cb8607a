/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-session-breakpoints.c — the session's breakpoints are the engine's
 * own (wn_engine_get_breakpoint_model()): the session's commands change the
 * current run's, a new run gets a copy of them (wn_engine_copy_breakpoints()),
 * and the stop the clock makes at one is announced once.
 */
#include "config.h"

#include "winnow-session-private.h"

/* The current run's breakpoint `id`, or NULL (borrowed). */
static const WnBreakpoint *
find_breakpoint (WinnowSession *self,
                 guint          id)
{
  const WnBreakpoint *bps;
  guint n = 0;

  if (self->engine == NULL || id == 0)
    return NULL;
  bps = wn_engine_get_breakpoints (self->engine, &n);
  for (guint i = 0; i < n; i++)
    if (bps[i].id == id)
      return &bps[i];
  return NULL;
}

static void
breakpoint_enabled_cb (WnBreakpointItem *item,
                       GParamSpec       *pspec,
                       WinnowSession    *self)
{
  _winnow_session_breakpoints_changed (self);
}

static void
watch_items (WinnowSession *self,
             guint          position,
             guint          n_items)
{
  for (guint i = position; i < position + n_items; i++)
    {
      g_autoptr(WnBreakpointItem) item = g_list_model_get_item (self->breakpoints, i);

      g_signal_connect_object (item, "notify::enabled", G_CALLBACK (breakpoint_enabled_cb), self, 0);
    }
}

static void
breakpoints_items_changed_cb (GListModel    *model,
                              guint          position,
                              guint          removed,
                              guint          added,
                              WinnowSession *self)
{
  watch_items (self, position, added);
  _winnow_session_breakpoints_changed (self);
}

/* The last run's model (a view may still hold it) no longer speaks to us. */
static void
unwatch (WinnowSession *self)
{
  for (guint i = 0; i < g_list_model_get_n_items (self->breakpoints); i++)
    {
      g_autoptr(WnBreakpointItem) item = g_list_model_get_item (self->breakpoints, i);

      g_signal_handlers_disconnect_by_data (item, self);
    }
  g_signal_handlers_disconnect_by_data (self->breakpoints, self);
}

/* ---- private API ---- */

void
_winnow_session_breakpoints_init (WinnowSession *self)
{
  /* no run yet: no breakpoints */
  self->breakpoints = G_LIST_MODEL (g_list_store_new (WN_TYPE_BREAKPOINT_ITEM));
}

void
_winnow_session_breakpoints_finalize (WinnowSession *self)
{
  if (self->breakpoints != NULL)
    unwatch (self);
  g_clear_object (&self->breakpoints);
}

gboolean
_winnow_session_breakpoints_arm (WinnowSession *self,
                                 WnEngine      *previous)
{
  /* a checkpoint has them already, their hits counted from T+0 */
  gboolean has = g_list_model_get_n_items (wn_engine_get_breakpoint_model (self->engine)) > 0;
  guint dropped = previous != NULL && !has ? wn_engine_copy_breakpoints (self->engine, previous) : 0;

  unwatch (self);
  g_set_object (&self->breakpoints, wn_engine_get_breakpoint_model (self->engine));
  watch_items (self, 0, g_list_model_get_n_items (self->breakpoints));
  g_signal_connect_object (self->breakpoints, "items-changed", G_CALLBACK (breakpoints_items_changed_cb), self, 0);
  _winnow_session_notify_breakpoints (self);
  return dropped > 0;
}

void
_winnow_session_check_hit (WinnowSession *self)
{
  const WnEvent *event = NULL;
  guint hit;
  g_autoptr(WinnowEventRow) row = NULL;

  if (self->engine == NULL)
    return;
  hit = wn_engine_get_last_hit (self->engine, &event);
  if (hit == 0 || hit == self->announced_hit || event == NULL)
    return;
  self->announced_hit = hit;
  if (self->resumed)
    {
      const WnBreakpoint *bp = find_breakpoint (self, hit);
      g_autofree char *spec = bp ? wn_breakpoint_to_spec (bp->kind, bp->phase, bp->node) : NULL;
      /* journal data, like the engine's own text: not translated */
      g_autofree char *action = g_strdup_printf ("at breakpoint %s", spec ? spec : "?");

      /* the scheduler has paused itself; the journal and the session say so */
      self->resumed = FALSE;
      wn_engine_note_clock (self->engine, WN_PH_PAUSED, action);
      _winnow_session_request_flush (self);
    }
  _winnow_session_update_mode (self);
  row = winnow_event_row_new (wn_event_copy (event));
  _winnow_session_breakpoint_hit (self, find_breakpoint (self, hit) ? hit : 0, row);
}

void
_winnow_session_leave_hit (WinnowSession *self)
{
  _winnow_session_check_hit (self);
  if (self->announced_hit != 0 || wn_engine_get_last_hit (self->engine, NULL) != 0)
    {
      wn_engine_clear_hit (self->engine);
      self->announced_hit = 0;
    }
}

/* ---- public API ---- */

GListModel *
winnow_session_get_breakpoints (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  return self->breakpoints;
}

char *
winnow_session_dup_breakpoint_spec (WinnowSession *self,
                                    guint          id)
{
  const WnBreakpoint *bp;

  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);

  bp = find_breakpoint (self, id);
  return bp ? wn_breakpoint_to_spec (bp->kind, bp->phase, bp->node) : NULL;
}

guint
winnow_session_find_breakpoint (WinnowSession *self,
                                WnEventKind    kind,
                                WnEventPhase   phase,
                                const char    *node)
{
  const WnBreakpoint *bps;
  guint n = 0;

  g_return_val_if_fail (WINNOW_IS_SESSION (self), 0);

  if (self->engine == NULL)
    return 0;
  bps = wn_engine_get_breakpoints (self->engine, &n);
  for (guint i = 0; i < n; i++)
    if (bps[i].kind == kind && bps[i].phase == phase && g_strcmp0 (bps[i].node, node) == 0)
      return bps[i].id;
  return 0;
}

gboolean
winnow_session_node_breaks (WinnowSession *self,
                            const char    *node)
{
  const WnBreakpoint *bp;

  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);

  bp = find_breakpoint (self, winnow_session_find_breakpoint (self, WN_EV_NODE, WN_PH_ENTERED, node));
  return bp != NULL && bp->enabled;
}

gboolean
winnow_session_toggle_node_breakpoint (WinnowSession *self,
                                       const char    *node)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);
  g_return_val_if_fail (node != NULL, FALSE);

  if (winnow_session_node_breaks (self, node))
    {
      winnow_session_remove_breakpoint (self, winnow_session_find_breakpoint (self, WN_EV_NODE, WN_PH_ENTERED, node));
      return FALSE;
    }
  return winnow_session_add_breakpoint (self, WN_EV_NODE, WN_PH_ENTERED, node) != 0;
}

guint
winnow_session_add_breakpoint (WinnowSession *self,
                               WnEventKind    kind,
                               WnEventPhase   phase,
                               const char    *node)
{
  guint existing;

  g_return_val_if_fail (WINNOW_IS_SESSION (self), 0);
  g_return_val_if_fail (kind < WN_EV_N_KINDS && phase < WN_PH_N_PHASES, 0);

  if (self->engine == NULL)
    return 0;
  if (node != NULL && *node == '\0')
    node = NULL;
  existing = winnow_session_find_breakpoint (self, kind, phase, node);
  if (existing != 0)
    {
      winnow_session_enable_breakpoint (self, existing, TRUE);
      return existing;
    }
  return wn_engine_add_breakpoint (self->engine, kind, phase, node);
}

gboolean
winnow_session_remove_breakpoint (WinnowSession *self,
                                  guint          id)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);

  return find_breakpoint (self, id) != NULL && wn_engine_remove_breakpoint (self->engine, id);
}

gboolean
winnow_session_enable_breakpoint (WinnowSession *self,
                                  guint          id,
                                  gboolean       enabled)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);

  return find_breakpoint (self, id) != NULL && wn_engine_enable_breakpoint (self->engine, id, enabled);
}

guint
winnow_session_get_hit (WinnowSession  *self,
                        const WnEvent **event)
{
  guint hit;

  g_return_val_if_fail (WINNOW_IS_SESSION (self), 0);

  if (event != NULL)
    *event = NULL;
  if (self->engine == NULL)
    return 0;
  hit = wn_engine_get_last_hit (self->engine, event);
  return find_breakpoint (self, hit) != NULL ? hit : 0;
}

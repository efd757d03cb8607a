/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-session-breakpoints.c — the session's breakpoints: kept across
 * runs, given to each new engine, and the stop the clock makes at one
 * announced once.
 */
#include "config.h"

#include "winnow-session-private.h"

static void
breakpoint_clear (gpointer data)
{
  g_free (((WinnowBreakpoint *) data)->node);
}

static WinnowBreakpoint *
find_breakpoint_by_engine_id (WinnowSession *self,
                              guint          engine_id)
{
  for (guint i = 0; i < self->breakpoints->len; i++)
    {
      WinnowBreakpoint *bp = &g_array_index (self->breakpoints, WinnowBreakpoint, i);

      if (bp->engine_id == engine_id)
        return bp;
    }
  return NULL;
}

static WinnowBreakpoint *
find_breakpoint (WinnowSession *self,
                 guint          id,
                 guint         *index)
{
  for (guint i = 0; i < self->breakpoints->len; i++)
    {
      WinnowBreakpoint *bp = &g_array_index (self->breakpoints, WinnowBreakpoint, i);

      if (bp->id == id)
        {
          if (index != NULL)
            *index = i;
          return bp;
        }
    }
  return NULL;
}

/* ---- private API ---- */

void
_winnow_session_breakpoints_init (WinnowSession *self)
{
  self->breakpoints = g_array_new (FALSE, TRUE, sizeof (WinnowBreakpoint));
  g_array_set_clear_func (self->breakpoints, breakpoint_clear);
}

gboolean
_winnow_session_breakpoints_arm (WinnowSession *self)
{
  gboolean dropped = FALSE;

  for (guint i = self->breakpoints->len; i > 0; i--)
    {
      WinnowBreakpoint *bp = &g_array_index (self->breakpoints, WinnowBreakpoint, i - 1);

      if (bp->node != NULL && wn_process_find_node (self->process, bp->node) == NULL)
        {
          g_array_remove_index (self->breakpoints, i - 1);
          dropped = TRUE;
        }
    }
  for (guint i = 0; i < self->breakpoints->len; i++)
    {
      WinnowBreakpoint *bp = &g_array_index (self->breakpoints, WinnowBreakpoint, i);

      bp->hits = 0;
      bp->engine_id = wn_engine_add_breakpoint (self->engine, bp->kind, bp->phase, bp->node);
      if (!bp->enabled)
        wn_engine_enable_breakpoint (self->engine, bp->engine_id, FALSE);
    }
  return dropped;
}

void
_winnow_session_check_hit (WinnowSession *self)
{
  const WnEvent *event = NULL;
  guint hit;
  WinnowBreakpoint *bp;
  g_autoptr(WinnowEventRow) row = NULL;

  if (self->engine == NULL)
    return;
  hit = wn_engine_get_last_hit (self->engine, &event);
  if (hit == 0 || hit == self->announced_hit || event == NULL)
    return;
  self->announced_hit = hit;
  bp = find_breakpoint_by_engine_id (self, hit);
  if (self->resumed)
    {
      g_autofree char *spec = bp ? winnow_breakpoint_to_spec (bp) : NULL;
      /* journal data, like the engine's own text: not translated */
      g_autofree char *action = g_strdup_printf ("at breakpoint %s", spec ? spec : "?");

      /* the scheduler has paused itself; the journal and the session say so */
      self->resumed = FALSE;
      wn_engine_note_clock (self->engine, WN_PH_PAUSED, action);
      _winnow_session_request_flush (self);
    }
  _winnow_session_update_mode (self);
  row = winnow_event_row_new (wn_event_copy (event));
  _winnow_session_breakpoint_hit (self, bp ? bp->id : 0, row);
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

char *
winnow_breakpoint_to_spec (const WinnowBreakpoint *bp)
{
  g_return_val_if_fail (bp != NULL, NULL);

  return wn_breakpoint_to_spec (bp->kind, bp->phase, bp->node);
}

guint
winnow_session_find_breakpoint (WinnowSession *self,
                                WnEventKind    kind,
                                WnEventPhase   phase,
                                const char    *node)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), 0);

  for (guint i = 0; i < self->breakpoints->len; i++)
    {
      WinnowBreakpoint *bp = &g_array_index (self->breakpoints, WinnowBreakpoint, i);

      if (bp->kind == kind && bp->phase == phase && g_strcmp0 (bp->node, node) == 0)
        return bp->id;
    }
  return 0;
}

gboolean
winnow_session_node_breaks (WinnowSession *self,
                            const char    *node)
{
  guint id;

  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);

  id = winnow_session_find_breakpoint (self, WN_EV_NODE, WN_PH_ENTERED, node);
  for (guint i = 0; id != 0 && i < self->breakpoints->len; i++)
    {
      WinnowBreakpoint *bp = &g_array_index (self->breakpoints, WinnowBreakpoint, i);

      if (bp->id == id)
        return bp->enabled;
    }
  return FALSE;
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
  winnow_session_add_breakpoint (self, WN_EV_NODE, WN_PH_ENTERED, node);
  return TRUE;
}

guint
winnow_session_add_breakpoint (WinnowSession *self,
                               WnEventKind    kind,
                               WnEventPhase   phase,
                               const char    *node)
{
  WinnowBreakpoint bp = { 0 };
  guint existing;

  g_return_val_if_fail (WINNOW_IS_SESSION (self), 0);
  g_return_val_if_fail (kind < WN_EV_N_KINDS && phase < WN_PH_N_PHASES, 0);

  if (node != NULL && *node == '\0')
    node = NULL;
  existing = winnow_session_find_breakpoint (self, kind, phase, node);
  if (existing != 0)
    {
      winnow_session_enable_breakpoint (self, existing, TRUE);
      return existing;
    }
  bp.id = ++self->next_breakpoint;
  bp.kind = kind;
  bp.phase = phase;
  bp.node = g_strdup (node);
  bp.enabled = TRUE;
  if (self->engine != NULL)
    bp.engine_id = wn_engine_add_breakpoint (self->engine, kind, phase, node);
  g_array_append_val (self->breakpoints, bp);
  _winnow_session_breakpoints_changed (self);
  return bp.id;
}

gboolean
winnow_session_remove_breakpoint (WinnowSession *self,
                                  guint          id)
{
  WinnowBreakpoint *bp;
  guint index;

  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);

  bp = find_breakpoint (self, id, &index);
  if (bp == NULL)
    return FALSE;
  if (self->engine != NULL && bp->engine_id != 0)
    wn_engine_remove_breakpoint (self->engine, bp->engine_id);
  g_array_remove_index (self->breakpoints, index);
  _winnow_session_breakpoints_changed (self);
  return TRUE;
}

gboolean
winnow_session_enable_breakpoint (WinnowSession *self,
                                  guint          id,
                                  gboolean       enabled)
{
  WinnowBreakpoint *bp;

  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);

  bp = find_breakpoint (self, id, NULL);
  if (bp == NULL)
    return FALSE;
  enabled = !!enabled;
  if (bp->enabled == enabled)
    return TRUE;
  bp->enabled = enabled;
  if (self->engine != NULL && bp->engine_id != 0)
    wn_engine_enable_breakpoint (self->engine, bp->engine_id, enabled);
  _winnow_session_breakpoints_changed (self);
  return TRUE;
}

const WinnowBreakpoint *
winnow_session_get_breakpoints (WinnowSession *self,
                                guint         *n_breakpoints)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  g_return_val_if_fail (n_breakpoints != NULL, NULL);

  if (self->engine != NULL)
    {
      guint n = 0;
      const WnBreakpoint *engine_bps = wn_engine_get_breakpoints (self->engine, &n);

      for (guint i = 0; i < n; i++)
        {
          WinnowBreakpoint *bp = find_breakpoint_by_engine_id (self, engine_bps[i].id);

          if (bp != NULL)
            bp->hits = engine_bps[i].hits;
        }
    }
  *n_breakpoints = self->breakpoints->len;
  return (const WinnowBreakpoint *) (gpointer) self->breakpoints->data;
}

guint
winnow_session_get_hit (WinnowSession  *self,
                        const WnEvent **event)
{
  WinnowBreakpoint *bp;
  guint hit;

  g_return_val_if_fail (WINNOW_IS_SESSION (self), 0);

  if (event != NULL)
    *event = NULL;
  if (self->engine == NULL)
    return 0;
  hit = wn_engine_get_last_hit (self->engine, event);
  bp = hit ? find_breakpoint_by_engine_id (self, hit) : NULL;
  return bp ? bp->id : 0;
}

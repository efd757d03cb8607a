/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-session-state.c — what a saved session keeps beside the engine's
 * commands, so that it reopens where it was saved: the breakpoints and the
 * run's position (the number of scheduler actions run, and the clock), in
 * the file's "x-winnow" block as "breakpoints" and "position", and the
 * what-if branches as "branches" (winnow-session-branches.c). The engine
 * writes and replays the commands (wn_engine_export_session); this file adds
 * the two on save (read from the engine's breakpoints) and, when a session
 * opens, sets the breakpoints again and runs the replay to the position (in
 * slices, winnow-session-step.c). winnow-run reads the commands only: other
 * tools ignore what they do not know under an x- key. And whether the
 * operator did something since the last save (Quit asks).
 */
#include "config.h"

#include <glib/gi18n.h>

#include "winnow-session-private.h"

/* What the operator did in this run (not the clock's plays, pauses and steps,
 * which change no outcome): starts, injections, trust, incidents, cancels. */
static guint
count_actions (WinnowSession *self)
{
  GPtrArray *commands;
  guint n = 0;

  if (self->engine == NULL)
    return 0;
  commands = wn_engine_get_commands (self->engine);
  for (guint i = 0; i < commands->len; i++)
    if (((WnCommand *) g_ptr_array_index (commands, i))->kind != WN_COMMAND_CLOCK)
      n++;
  return n;
}

static JsonArray *
breakpoints_to_json (WnEngine *engine)
{
  JsonArray *array = json_array_new ();
  guint n = 0;
  const WnBreakpoint *bps = wn_engine_get_breakpoints (engine, &n);

  for (guint i = 0; i < n; i++)
    {
      JsonObject *o = json_object_new ();
      g_autofree char *spec = g_strdup_printf ("%s.%s%s%s", wn_event_kind_to_string (bps[i].kind),
                                               wn_event_phase_to_string (bps[i].phase),
                                               bps[i].node ? "@" : "", bps[i].node ? bps[i].node : "");

      json_object_set_string_member (o, "spec", spec);
      json_object_set_boolean_member (o, "enabled", bps[i].enabled);
      json_array_add_object_element (array, o);
    }
  return array;
}

char *
winnow_session_export_session (WinnowSession *self)
{
  g_autofree char *text = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonGenerator) generator = NULL;
  g_autofree char *at = NULL;
  JsonObject *root, *xw, *position;
  WnScheduler *scheduler;

  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);

  if (self->engine == NULL)
    return NULL;
  text = wn_engine_export_session (self->engine);
  if (!json_parser_load_from_data (parser, text, -1, NULL))
    return g_steal_pointer (&text);   /* the engine's own output: cannot happen */
  root = json_node_get_object (json_parser_get_root (parser));
  xw = json_object_get_object_member (root, "x-winnow");
  json_object_set_array_member (xw, "breakpoints", breakpoints_to_json (self->engine));
  scheduler = wn_engine_get_scheduler (self->engine);
  position = json_object_new ();
  json_object_set_int_member (position, "after", (gint64) wn_scheduler_get_n_run (scheduler));
  at = g_strdup_printf ("%" G_GINT64_FORMAT "us", (gint64) wn_scheduler_now (scheduler));
  json_object_set_string_member (position, "at", at);
  /* the furthest event the run reached (further than `after` in the past) */
  json_object_set_int_member (position, "end", (gint64) winnow_session_get_travel_end (self));
  json_object_set_object_member (xw, "position", position);
  _winnow_session_branches_save (self, xw);

  generator = json_generator_new ();
  json_generator_set_root (generator, json_parser_get_root (parser));
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  return json_generator_to_data (generator, NULL);
}

/* A saved breakpoint that cannot be set again is said, and left out. */
static void
restore_breakpoint (WinnowSession *self,
                    guint          index,
                    JsonNode      *node)
{
  JsonObject *o = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  const char *spec = o ? json_object_get_string_member_with_default (o, "spec", NULL) : NULL;
  g_autofree char *at_node = NULL;
  g_autoptr(GError) error = NULL;
  WnEventKind kind;
  WnEventPhase phase;
  guint id;

  if (spec == NULL)
    g_set_error (&error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_INVALID, _("it has no “spec”"));
  else if (wn_breakpoint_parse (spec, &kind, &phase, &at_node, &error) &&
           at_node != NULL && wn_process_find_node (self->process, at_node) == NULL)
    g_set_error (&error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_INVALID, _("the process has no node “%s”"), at_node);
  if (error != NULL)
    {
      /* Translators: a saved session's breakpoint that cannot be set: "Saved breakpoint 2 left out: …" */
      g_autofree char *text = g_strdup_printf (_("Saved breakpoint %u left out: %s"), index + 1, error->message);

      g_signal_emit_by_name (self, "notice", text);
      return;
    }
  id = winnow_session_add_breakpoint (self, kind, phase, at_node);
  winnow_session_enable_breakpoint (self, id, json_object_get_boolean_member_with_default (o, "enabled", TRUE));
}

void
_winnow_session_restore_state (WinnowSession *self)
{
  JsonObject *root, *xw, *position;
  JsonArray *breakpoints;
  const char *at_text;
  WnTime at = 0;
  gint64 after;

  self->saved_actions = 0;
  _winnow_session_branches_restore (self);
  if (self->scenario == NULL || self->scenario->source == NULL || !JSON_NODE_HOLDS_OBJECT (self->scenario->source))
    return;
  root = json_node_get_object (self->scenario->source);
  if (!json_object_has_member (root, "x-winnow") ||
      !JSON_NODE_HOLDS_OBJECT (json_object_get_member (root, "x-winnow")))
    return;
  xw = json_object_get_object_member (root, "x-winnow");

  if (json_object_has_member (xw, "breakpoints") &&
      JSON_NODE_HOLDS_ARRAY (json_object_get_member (xw, "breakpoints")))
    {
      breakpoints = json_object_get_array_member (xw, "breakpoints");
      for (guint i = 0; i < json_array_get_length (breakpoints); i++)
        restore_breakpoint (self, i, json_array_get_element (breakpoints, i));
    }

  if (!json_object_has_member (xw, "position") ||
      !JSON_NODE_HOLDS_OBJECT (json_object_get_member (xw, "position")))
    return;
  position = json_object_get_object_member (xw, "position");
  after = json_object_get_int_member_with_default (position, "after", -1);
  at_text = json_object_get_string_member_with_default (position, "at", "0us");
  if (after < 0 || !wn_duration_parse (at_text, &at, NULL))
    {
      g_signal_emit_by_name (self, "notice", _("The saved position is not valid: the session opens at T+0"));
      return;
    }
  /* how far the run had gone: past the position when it was saved in the past */
  self->travel_end = (guint64) MAX (0, json_object_get_int_member_with_default (position, "end", 0));
  _winnow_session_run_to (self, (guint64) after, at);
}

void
_winnow_session_state_restored (WinnowSession *self)
{
  /* saved in the past: the rest of the record is that point's future, as
   * it was (a command given now starts a branch) */
  if (self->engine != NULL && self->travel_end > wn_journal_get_n_events (wn_engine_get_journal (self->engine)))
    _winnow_session_travel_rerun_here (self);
  self->saved_actions = count_actions (self);
}

/* ---- public API ---- */

gboolean
winnow_session_has_unsaved_actions (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);
  return count_actions (self) > self->saved_actions;
}

void
winnow_session_mark_saved (WinnowSession *self)
{
  g_return_if_fail (WINNOW_IS_SESSION (self));
  self->saved_actions = count_actions (self);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-session-branches.c — what-if branches of a run (issue 22).
 *
 * A command given in the past (winnow-session-travel.c) makes the engine
 * drop the rest of the record and hand it over (wn_engine_take_dropped_
 * record): the session keeps it as the parent branch and goes on in a new
 * one that shares the parent's journal up to the fork. A branch is its
 * record (the operator's commands) and how far it ran; switching to one
 * reruns its record to there, like any travel, and comparing two reruns
 * both headless, without the models.
 */
#include "config.h"

#include <inttypes.h>
#include <string.h>
#include <glib/gi18n.h>

#include "winnow-session-private.h"

/* A comparison shows at most this many differing journal lines a side. */
#define DIFF_LINES 12

void
_winnow_session_branch_free (gpointer data)
{
  WinnowBranch *branch = data;

  g_free (branch->name);
  g_clear_pointer (&branch->record, g_ptr_array_unref);
  g_free (branch);
}

static WinnowBranch *
branch_new (guint   number,
            guint   parent,
            guint64 fork)
{
  WinnowBranch *branch = g_new0 (WinnowBranch, 1);

  /* Translators: a what-if branch of a run, numbered from 1 */
  branch->name = g_strdup_printf (_("Branch %u"), number);
  branch->parent = parent;
  branch->fork = fork;
  return branch;
}

static guint64
n_events (WinnowSession *self)
{
  return wn_journal_get_n_events (wn_engine_get_journal (self->engine));
}

void
_winnow_session_branches_reset (WinnowSession *self)
{
  g_ptr_array_set_size (self->branches, 0);
  self->branch = 0;
}

/* The current branch's record and reach, as the engine has them now. */
static void
save_current (WinnowSession *self)
{
  WinnowBranch *current = g_ptr_array_index (self->branches, self->branch);

  g_clear_pointer (&current->record, g_ptr_array_unref);
  current->record = wn_engine_dup_record (self->engine);
  current->end = winnow_session_get_travel_end (self);
}

void
_winnow_session_branches_check (WinnowSession *self)
{
  g_autoptr(GPtrArray) parent = NULL;
  WinnowBranch *old;
  guint64 fork = 0;

  if (self->engine == NULL || (parent = wn_engine_take_dropped_record (self->engine, &fork)) == NULL)
    return;
  if (self->branches->len == 0)
    g_ptr_array_add (self->branches, branch_new (1, G_MAXUINT, 0));
  /* the old future stays, as the parent branch */
  old = g_ptr_array_index (self->branches, self->branch);
  g_clear_pointer (&old->record, g_ptr_array_unref);
  old->record = g_steal_pointer (&parent);
  old->end = MAX (old->end, self->travel_end);
  g_ptr_array_add (self->branches, branch_new (self->branches->len + 1, self->branch, fork));
  self->branch = self->branches->len - 1;
  /* what this branch reached is where it stands */
  self->travel_end = n_events (self);
  g_signal_emit_by_name (self, "branches-changed");
}

guint
winnow_session_get_n_branches (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), 0);
  return self->branches->len;
}

const WinnowBranch *
winnow_session_get_branch (WinnowSession *self,
                           guint          index)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  g_return_val_if_fail (index < self->branches->len, NULL);

  if (index == self->branch && self->engine != NULL)
    save_current (self);
  return g_ptr_array_index (self->branches, index);
}

guint
winnow_session_get_current_branch (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), 0);
  return self->branch;
}

gboolean
winnow_session_switch_branch (WinnowSession *self,
                              guint          index)
{
  WinnowBranch *target;

  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);

  if (self->engine == NULL || index >= self->branches->len)
    return FALSE;
  if (index == self->branch)
    return TRUE;
  save_current (self);
  target = g_ptr_array_index (self->branches, index);
  self->branch = index;
  _winnow_session_travel_to_record (self, target->record, target->end);
  g_signal_emit_by_name (self, "branches-changed");
  return TRUE;
}

/* ---- saved with a session ---- */

static JsonArray *
record_to_json (GPtrArray *record)
{
  JsonArray *array = json_array_new ();

  for (guint i = 0; record != NULL && i < record->len; i++)
    json_array_add_element (array, wn_command_to_json (g_ptr_array_index (record, i)));
  return array;
}

void
_winnow_session_branches_save (WinnowSession *self,
                               JsonObject    *xw)
{
  g_autoptr(GPtrArray) shown = NULL;
  JsonObject *branches;
  JsonArray *list;

  if (self->engine == NULL)
    return;
  _winnow_session_branches_check (self);
  /* in the past the shown branch's future is its record too: the file
   * replays it to the end, and the app reopens at the position in the past */
  shown = wn_engine_dup_record (self->engine);
  json_object_set_array_member (xw, "commands", record_to_json (shown));
  if (self->branches->len == 0)
    return;
  save_current (self);
  list = json_array_new ();
  for (guint i = 0; i < self->branches->len; i++)
    {
      const WinnowBranch *branch = g_ptr_array_index (self->branches, i);
      JsonObject *o = json_object_new ();

      json_object_set_string_member (o, "name", branch->name);
      if (branch->parent == G_MAXUINT)
        json_object_set_null_member (o, "parent");
      else
        json_object_set_int_member (o, "parent", branch->parent);
      json_object_set_int_member (o, "fork", (gint64) branch->fork);
      json_object_set_int_member (o, "end", (gint64) branch->end);
      json_object_set_array_member (o, "commands", record_to_json (branch->record));
      json_array_add_object_element (list, o);
    }
  branches = json_object_new ();
  json_object_set_int_member (branches, "shown", self->branch);
  json_object_set_array_member (branches, "list", list);
  json_object_set_object_member (xw, "branches", branches);
}

static GPtrArray *
copy_record (GPtrArray *commands)
{
  GPtrArray *record = g_ptr_array_new_with_free_func ((GDestroyNotify) wn_command_free);

  for (guint i = 0; i < commands->len; i++)
    g_ptr_array_add (record, wn_command_copy (g_ptr_array_index (commands, i)));
  return record;
}

void
_winnow_session_branches_restore (WinnowSession *self)
{
  if (self->scenario == NULL || self->scenario->branches->len == 0)
    return;
  g_ptr_array_set_size (self->branches, 0);
  for (guint i = 0; i < self->scenario->branches->len; i++)
    {
      const WnScenarioBranch *saved = g_ptr_array_index (self->scenario->branches, i);
      WinnowBranch *branch = g_new0 (WinnowBranch, 1);

      branch->name = g_strdup (saved->name);
      branch->parent = saved->parent < 0 ? G_MAXUINT : (guint) saved->parent;
      branch->fork = saved->fork;
      branch->end = saved->end;
      branch->record = copy_record (saved->commands);
      g_ptr_array_add (self->branches, branch);
    }
  self->branch = MIN (self->scenario->branch_shown, self->branches->len - 1);
  g_signal_emit_by_name (self, "branches-changed");
}

/* ---- comparing ---- */

typedef struct {
  GPtrArray *lines;     /* char*, the JSON lines from `from` on */
  guint64    from;
  GString   *line;
} Lines;

static void
lines_cb (const WnEvent *event,
          gpointer       data)
{
  Lines *lines = data;

  if (event->seq < lines->from)
    return;
  g_string_truncate (lines->line, 0);
  wn_event_append_json (event, lines->line);
  if (lines->line->len > 0 && lines->line->str[lines->line->len - 1] == '\n')
    g_string_truncate (lines->line, lines->line->len - 1);
  g_ptr_array_add (lines->lines, g_strdup (lines->line->str));
}

typedef struct {
  WnRunStats  stats;
  WnTime      now;
  char       *ends;
  GPtrArray  *lines;
} Outcome;

static void
outcome_clear (Outcome *o)
{
  g_free (o->ends);
  g_clear_pointer (&o->lines, g_ptr_array_unref);
}

/* A branch run headless to where it reached: its totals, the ends its
 * instances reached, and its journal from event `from` on. */
static void
run_branch (WinnowSession *self,
            WinnowBranch  *branch,
            guint64        from,
            Outcome       *out)
{
  g_autoptr(WnEngine) engine = wn_engine_new_rerun_of (self->engine, branch->record);
  g_autoptr(GString) ends = g_string_new (NULL);
  g_autoptr(GString) line = g_string_new (NULL);
  Lines lines = { g_ptr_array_new_with_free_func (g_free), from, line };

  wn_journal_subscribe (wn_engine_get_journal (engine), lines_cb, &lines, NULL);
  wn_engine_run_to_event (engine, branch->end, WN_TIME_NEVER, G_MAXUINT);
  wn_engine_get_stats (engine, &out->stats);
  out->now = wn_engine_now (engine);
  for (guint i = 0; i < self->process->n_nodes; i++)
    {
      guint count = wn_engine_get_end_count (engine, i);

      if (count > 0)
        g_string_append_printf (ends, "%s%s %u", ends->len ? ", " : "", self->process->nodes[i].id, count);
    }
  out->ends = g_strdup (ends->len > 0 ? ends->str : "—");
  out->lines = lines.lines;
}

static void
append_outcome (GString       *out,
                const char    *name,
                const Outcome *o)
{
  g_autofree char *now = wn_time_format_clock (o->now);

  /* Translators: one branch's outcome in a comparison */
  g_string_append_printf (out, _("%s: %u instances, %u completed, %u terminated, %u with incidents, "
                                 "%u active at %s; ends: %s\n"),
                          name, o->stats.instances, o->stats.completed, o->stats.terminated,
                          o->stats.incidents, o->stats.active, now, o->ends);
}

char *
winnow_session_compare_branches (WinnowSession *self,
                                 guint          a,
                                 guint          b)
{
  WinnowBranch *ba, *bb;
  Outcome oa = { { 0 } }, ob = { { 0 } };
  GString *out;
  guint64 fork;
  guint same = 0;

  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  g_return_val_if_fail (a < self->branches->len && b < self->branches->len, NULL);

  if (self->engine == NULL)
    return NULL;
  save_current (self);
  ba = g_ptr_array_index (self->branches, a);
  bb = g_ptr_array_index (self->branches, b);
  /* where they part: the later fork of the two (a child's, against its parent) */
  fork = MAX (ba->parent == G_MAXUINT ? 0 : ba->fork, bb->parent == G_MAXUINT ? 0 : bb->fork);
  run_branch (self, ba, fork + 1, &oa);
  run_branch (self, bb, fork + 1, &ob);

  out = g_string_new (NULL);
  append_outcome (out, ba->name, &oa);
  append_outcome (out, bb->name, &ob);
  while (same < oa.lines->len && same < ob.lines->len &&
         strcmp (g_ptr_array_index (oa.lines, same), g_ptr_array_index (ob.lines, same)) == 0)
    same++;
  g_string_append_printf (out, _("\nThe journals are the same up to event %" PRIu64
                                 " (the fork is after event %" PRIu64 "); "
                                 "then %s has %u more events, %s %u:\n"),
                          fork + same, fork, ba->name, oa.lines->len - same, bb->name, ob.lines->len - same);
  for (guint i = same; i < MIN (oa.lines->len, same + DIFF_LINES); i++)
    g_string_append_printf (out, "− %s\n", (const char *) g_ptr_array_index (oa.lines, i));
  for (guint i = same; i < MIN (ob.lines->len, same + DIFF_LINES); i++)
    g_string_append_printf (out, "+ %s\n", (const char *) g_ptr_array_index (ob.lines, i));
  outcome_clear (&oa);
  outcome_clear (&ob);
  return g_string_free (out, FALSE);
}

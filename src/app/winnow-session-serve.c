/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-session-serve.c — a session that accepts outside workers: the
 * REST server (src/server) on the session's run, remade with each new run,
 * its calls held while the clock is paused and applied one per step, all on
 * resume (issue 20, point 4). */
#include "config.h"

#include <glib/gi18n.h>

#include "winnow-session-private.h"

static void
keep_moving_cb (gpointer data)
{
}

/* Running, the clock keeps pace with the wall while only an outside worker's
 * lock is pending (a timer at the end of virtual time); paused or in
 * fast-forward it has none, so fast-forward never jumps to the end. */
static void
update_keep_moving (WinnowSession *self)
{
  WnScheduler *scheduler;
  gboolean want;

  if (self->engine == NULL)
    return;
  scheduler = wn_engine_get_scheduler (self->engine);
  want = self->server != NULL && wn_scheduler_get_mode (scheduler) == WN_CLOCK_RUNNING;
  if (want && self->keep_moving == 0)
    self->keep_moving = wn_scheduler_at (scheduler, WN_TIME_MAX, keep_moving_cb, NULL);
  else if (!want && self->keep_moving != 0)
    {
      wn_scheduler_cancel (scheduler, self->keep_moving);
      self->keep_moving = 0;
    }
}

static void
held_changed_cb (gpointer server,
                 gpointer data)
{
  _winnow_session_request_flush (data);
}

static gboolean
start_server (WinnowSession *self,
              GError       **error)
{
  g_autoptr(WnRestServer) server = NULL;
  g_autofree char *host = NULL;
  guint port = 0;

  if (!wn_rest_parse_address (self->serve_address, &host, &port, error))
    return FALSE;
  server = wn_rest_server_new (self->engine);
  wn_rest_server_set_hold_when_paused (server, TRUE, held_changed_cb, self);
  if (!wn_rest_server_listen (server, host, port, error))
    return FALSE;
  self->server = g_steal_pointer (&server);
  update_keep_moving (self);
  return TRUE;
}

void
_winnow_session_serve_detach (WinnowSession *self)
{
  if (self->engine != NULL && self->keep_moving != 0)
    wn_scheduler_cancel (wn_engine_get_scheduler (self->engine), self->keep_moving);
  self->keep_moving = 0;
  g_clear_pointer (&self->server, wn_rest_server_free);
}

void
_winnow_session_serve_attach (WinnowSession *self)
{
  g_autoptr(GError) error = NULL;

  if (self->serve_address == NULL || self->engine == NULL)
    return;
  if (!start_server (self, &error))
    {
      g_autofree char *text = g_strdup_printf ("%s: %s", self->serve_address, error->message);

      g_clear_pointer (&self->serve_address, g_free);
      g_signal_emit_by_name (self, "notice", text);
    }
}

typedef struct {
  WnScenario *scenario;
  guint       n;
} Outside;

/* Locks held by a worker that is not one of the scenario's (nor implicit). */
static void
count_outside_cb (const WnJobInfo *info,
                  gpointer         data)
{
  Outside *outside = data;

  if (info->state != WN_JOB_LOCKED || info->worker == NULL || g_str_has_prefix (info->worker, "implicit:"))
    return;
  for (guint i = 0; i < outside->scenario->workers->len; i++)
    if (g_strcmp0 (((WnWorkerConfig *) g_ptr_array_index (outside->scenario->workers, i))->id, info->worker) == 0)
      return;
  outside->n++;
}

/* Fast-forward does not wait for outside workers: say so when it leaves
 * some with locks or polls behind (issue 20, point 4). */
static void
warn_fast_forward (WinnowSession *self)
{
  Outside outside = { wn_engine_get_scenario (self->engine), 0 };
  guint polls = wn_rest_server_get_n_polls (self->server);
  g_autofree char *text = NULL;

  wn_dispatcher_foreach (wn_engine_get_dispatcher (self->engine), count_outside_cb, &outside);
  if (outside.n == 0 && polls == 0)
    return;
  /* Translators: a notice when the user fast-forwards while outside workers hold locks */
  text = g_strdup_printf (_("Fast-forward does not wait for outside workers: their locks lapse and their "
                            "long polls time out as virtual time jumps (%u locked, %u polls waiting)"),
                          outside.n, polls);
  g_signal_emit_by_name (self, "notice", text);
}

void
_winnow_session_serve_mode_changed (WinnowSession *self)
{
  if (self->server == NULL)
    return;
  update_keep_moving (self);
  if (winnow_session_get_mode (self) != WN_CLOCK_PAUSED)
    while (wn_rest_server_apply_held (self->server))
      ;
  if (winnow_session_get_mode (self) == WN_CLOCK_FAST_FORWARD)
    warn_fast_forward (self);
}

gboolean
_winnow_session_serve_step (WinnowSession *self)
{
  return self->server != NULL && wn_rest_server_apply_held (self->server);
}

gboolean
winnow_session_serve (WinnowSession *self,
                      const char    *address,
                      GError       **error)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);

  _winnow_session_serve_detach (self);
  g_clear_pointer (&self->serve_address, g_free);
  if (address == NULL)
    {
      _winnow_session_request_flush (self);
      return TRUE;
    }
  if (self->engine == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, "no run to serve");
      return FALSE;
    }
  self->serve_address = g_strdup (address);
  if (!start_server (self, error))
    {
      g_clear_pointer (&self->serve_address, g_free);
      return FALSE;
    }
  _winnow_session_request_flush (self);
  return TRUE;
}

WnRestServer *
winnow_session_get_server (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);

  return self->server;
}

char **
winnow_session_dup_simulated_topics (WinnowSession *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  WnScenario *scenario;

  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);

  scenario = self->engine != NULL ? wn_engine_get_scenario (self->engine) : NULL;
  for (guint i = 0; scenario != NULL && i < scenario->workers->len; i++)
    {
      const char *topic = ((WnWorkerConfig *) g_ptr_array_index (scenario->workers, i))->topic;

      if (topic != NULL && g_hash_table_add (seen, (gpointer) topic))
        g_strv_builder_add (builder, topic);
    }
  return g_strv_builder_end (builder);
}

gboolean
winnow_session_set_topic_simulated (WinnowSession *self,
                                    const char    *topic,
                                    gboolean       on,
                                    GError       **error)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);
  g_return_val_if_fail (topic != NULL, FALSE);

  if (self->engine == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, "no run");
      return FALSE;
    }
  if (wn_engine_get_topic_simulated (self->engine, topic) == on)
    return TRUE;
  if (!wn_engine_set_topic_simulated (self->engine, topic, on, error))
    return FALSE;
  _winnow_session_request_flush (self);
  return TRUE;
}

char **
_winnow_session_topics_off (WinnowSession *self)
{
  g_auto(GStrv) topics = winnow_session_dup_simulated_topics (self);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; topics[i] != NULL; i++)
    if (!wn_engine_get_topic_simulated (self->engine, topics[i]))
      g_strv_builder_add (builder, topics[i]);
  return g_strv_builder_end (builder);
}

void
_winnow_session_topics_restore (WinnowSession *self,
                                char         **off)
{
  /* a topic the new run's scenario does not have is left out */
  for (guint i = 0; off != NULL && off[i] != NULL; i++)
    wn_engine_set_topic_simulated (self->engine, off[i], FALSE, NULL);
}

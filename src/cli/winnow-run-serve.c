/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-run-serve.c — winnow-run --serve (winnow-run-serve.h).
 *
 * The clock couples to the wall (docs/decisions.md, "Serving outside
 * workers"): the scheduler is attached to the main context and runs at
 * `speed`, so virtual time moves speed × wall time, and lock durations,
 * retryTimeouts and long-poll waits are virtual. A timer at the end of
 * virtual time keeps the clock moving while nothing else is due (an outside
 * worker holding a lock), as the wall does. The front end reads the wall
 * clock through the main loop; the engine does not. */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "winnow-run-serve.h"
#include "wn-rest-server.h"

/* How often (wall time) the loop looks at whether the run is over. */
#define CHECK_INTERVAL_MS 20

typedef struct {
  WnEngine *engine;
  gboolean  at_limit;
} Serving;

static void
keep_moving_cb (gpointer data)
{
}

static void
until_cb (gpointer data)
{
  Serving *serving = data;

  serving->at_limit = TRUE;
  wn_scheduler_request_stop (wn_engine_get_scheduler (serving->engine));
}

/* The instances the run starts by itself: -n, else the scenario's starts,
 * else one. */
static guint
expected_instances (WnEngine           *engine,
                    const ServeOptions *options)
{
  WnScenario *scenario = wn_engine_get_scenario (engine);
  guint n = 0;

  if (options->instances > 0)
    return options->instances;
  if (!scenario->has_start)
    return 1;
  for (guint i = 0; i < scenario->start->len; i++)
    n += g_array_index (scenario->start, WnStartSpec, i).count;
  return n;
}

static gboolean
tick_cb (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

gboolean
serve_prepare (WnEngine           *engine,
               const ServeOptions *options,
               GError            **error)
{
  if (!(options->speed > 0) || options->speed > 1e6)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--speed takes a factor above 0 and up to 1000000"));
      return FALSE;
    }
  if (options->basic_auth != NULL && strchr (options->basic_auth, ':') == NULL)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--basic-auth takes USER:PASSWORD"));
      return FALSE;
    }
  for (guint i = 0; options->external_topics != NULL && options->external_topics[i] != NULL; i++)
    if (!wn_engine_set_topic_simulated (engine, options->external_topics[i], FALSE, error))
      return FALSE;
  return TRUE;
}

gboolean
serve_run (WnEngine           *engine,
           const ServeOptions *options,
           ServeStopFunc       stop,
           gpointer            stop_data,
           WnStopReason       *reason,
           GError            **error)
{
  g_autoptr(WnRestServer) server = wn_rest_server_new (engine);
  g_autofree char *host = NULL;
  WnScheduler *scheduler = wn_engine_get_scheduler (engine);
  Serving serving = { engine, FALSE };
  guint expected = expected_instances (engine, options);
  guint port = 0, tick;
  WnTimerId keep, limit = 0;

  if (!wn_rest_parse_address (options->address, &host, &port, error))
    return FALSE;
  if (options->basic_auth != NULL)
    {
      const char *colon = strchr (options->basic_auth, ':');
      g_autofree char *user = g_strndup (options->basic_auth, colon - options->basic_auth);

      wn_rest_server_set_basic_auth (server, user, colon + 1);
    }
  if (!wn_rest_server_listen (server, host, port, error))
    return FALSE;
  if (!wn_rest_host_is_loopback (host))
    g_printerr (_("winnow-run: warning: listening on %s, not only this machine: anyone who reaches it "
                  "can drive the run%s\n"), host,
                options->basic_auth != NULL ? "" : _(" (no --basic-auth)"));
  g_printerr (_("winnow-run: serving Camunda’s external-task API at %s (virtual clock at %g×)\n"),
              wn_rest_server_get_url (server), options->speed);

  keep = wn_scheduler_at (scheduler, WN_TIME_MAX, keep_moving_cb, NULL);
  if (options->until != WN_TIME_NEVER)
    limit = wn_scheduler_at (scheduler, options->until, until_cb, &serving);
  wn_scheduler_set_speed (scheduler, options->speed);
  wn_scheduler_attach (scheduler, NULL);
  wn_scheduler_resume (scheduler);
  /* wake the loop now and then, to see whether the run is over */
  tick = g_timeout_add (CHECK_INTERVAL_MS, tick_cb, NULL);

  *reason = WN_STOP_QUIESCENT;
  for (;;)
    {
      WnRunStats stats;

      g_main_context_iteration (NULL, TRUE);
      wn_engine_get_stats (engine, &stats);
      if (stop (stop_data))
        break;
      if (serving.at_limit)
        {
          *reason = WN_STOP_LIMIT;
          break;
        }
      if (wn_scheduler_get_mode (scheduler) == WN_CLOCK_PAUSED)
        {
          /* a breakpoint, or the engine stopped the run itself */
          *reason = WN_STOP_REQUESTED;
          break;
        }
      if (stats.instances >= expected && stats.active == 0)
        break;
    }

  g_source_remove (tick);
  wn_scheduler_pause (scheduler);
  wn_scheduler_detach (scheduler);
  wn_scheduler_cancel (scheduler, keep);
  if (limit != 0)
    wn_scheduler_cancel (scheduler, limit);
  /* answer the waiting polls, and let their answers go out */
  wn_rest_server_shutdown (server);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  return TRUE;
}

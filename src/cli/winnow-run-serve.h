/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-run-serve.h — winnow-run --serve: the run as a server for outside
 * workers (Camunda's external-task REST API), on the wall clock. */
#pragma once

#include "winnow.h"

G_BEGIN_DECLS

typedef struct {
  const char  *address;          /* "[ADDR:]PORT" */
  double       speed;            /* virtual seconds per wall second */
  const char  *basic_auth;       /* "USER:PASSWORD" or NULL */
  char       **external_topics;  /* topics whose simulated workers are off, or NULL */
  WnTime       until;            /* WN_TIME_NEVER: no limit */
  guint        instances;        /* -n, or 0 */
} ServeOptions;

/* Whether the runner must stop now (a signal, a failed output). */
typedef gboolean (*ServeStopFunc) (gpointer data);

/* Check the options and switch the simulated workers off; FALSE with a message. */
gboolean     serve_prepare (WnEngine *engine, const ServeOptions *options, GError **error);
/* Serve until every instance the run starts by itself has ended (and those
 * started through the API), the virtual time reaches `until`, a breakpoint
 * stops the clock, or `stop` says so; prints the address on stderr.
 * WN_STOP_QUIESCENT, _LIMIT or _REQUESTED; FALSE with a message when the
 * server could not listen. */
gboolean     serve_run     (WnEngine *engine, const ServeOptions *options, ServeStopFunc stop,
                            gpointer stop_data, WnStopReason *reason, GError **error);

G_END_DECLS

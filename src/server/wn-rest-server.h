/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-rest-server.h — Camunda 7's external-task REST API on a Winnow run.
 *
 * An HTTP server (libsoup 3) on the thread-default GMainContext of its
 * creator, which must be the one the engine's scheduler is attached to: one
 * thread, as the rest of the engine. It answers under /engine-rest with
 * Camunda's JSON shapes and status codes (docs/rest-api.md) and acts on the
 * run through wn-external.h; a long poll (asyncResponseTimeout) waits on the
 * dispatcher and on the virtual clock. Safe by default: 127.0.0.1, bodies
 * capped, optional basic auth.
 */
#pragma once

#include <glib.h>
#include "winnow.h"

G_BEGIN_DECLS

/* Request bodies larger than this get a 413. */
#define WN_REST_DEFAULT_MAX_BODY (1024 * 1024)
/* A request (line, headers and body) not read whole within this much wall
 * time has its connection shut: slow clients cannot hold connections open. */
#define WN_REST_DEFAULT_REQUEST_TIMEOUT_MS 10000

typedef struct _WnRestServer WnRestServer;

WnRestServer *wn_rest_server_new            (WnEngine *engine);
void          wn_rest_server_free           (WnRestServer *server);
/* Require HTTP basic auth with these credentials (copied). */
void          wn_rest_server_set_basic_auth (WnRestServer *server, const char *user, const char *password);
void          wn_rest_server_set_max_body   (WnRestServer *server, gsize max_body);
void          wn_rest_server_set_request_timeout (WnRestServer *server, guint timeout_ms);
/* Listen on `host` (an IP address or "localhost"; NULL = 127.0.0.1) and `port`
 * (0 = any free one). */
gboolean      wn_rest_server_listen         (WnRestServer *server, const char *host, guint port,
                                             GError **error);
/* "http://127.0.0.1:8080/engine-rest" once listening (owned by the server). */
const char   *wn_rest_server_get_url        (WnRestServer *server);
/* Long polls waiting for a job right now. */
guint         wn_rest_server_get_n_polls    (WnRestServer *server);
/* Point 4 of issue 20: with `hold` on, a call that acts on the run (not a
 * query) arriving while the clock is paused waits in a queue, unanswered,
 * until the front end applies it: one by one as the user steps, or all when
 * the clock resumes. `notify` (may be NULL) is called with the server and
 * `data` whenever the queue changes. A client that goes away leaves it. */
void          wn_rest_server_set_hold_when_paused (WnRestServer *server, gboolean hold, GFunc notify,
                                                   gpointer data);
guint         wn_rest_server_get_n_held     (WnRestServer *server);
/* "complete i1/j1 by w1" for the `index`th held call, or NULL. */
const char   *wn_rest_server_get_held       (WnRestServer *server, guint index);
/* Apply the oldest held call now, as if it had just arrived with the clock
 * running; FALSE when none waits. */
gboolean      wn_rest_server_apply_held     (WnRestServer *server);
/* The outside workers that have called this server (a body with a
 * workerId), in the order of their first call: the `index`th one's id, or
 * NULL; its last call ("complete i1/j1", "fetchAndLock"),
 * the virtual time that call came and how many it made. */
guint         wn_rest_server_get_n_workers  (WnRestServer *server);
const char   *wn_rest_server_get_worker     (WnRestServer *server, guint index, const char **last_call,
                                             WnTime *at, guint64 *n_calls);
/* Apply the held calls and answer every waiting long poll with what it has
 * (nothing); the server goes on answering until it is freed. Freeing it
 * shuts it down too, and lets the answers go out (the connections close a
 * second later, on the main context). */
void          wn_rest_server_shutdown       (WnRestServer *server);

/* One request body for `endpoint` ("fetchAndLock", "complete", "failure",
 * "bpmnError", "extendLock", "lock", "unlock", "retries") on the task `id`, read and
 * applied as the HTTP side does, without HTTP (no long poll): for the fuzz
 * target. FALSE with the error the request would be answered with. */
gboolean      wn_rest_server_apply_body     (WnRestServer *server, const char *endpoint, const char *id,
                                             const char *data, gsize length, GError **error);

/* "[ADDR:]PORT" ("8080", "0.0.0.0:8080", "[::1]:8080"): host (NULL when not
 * given) and port. */
gboolean      wn_rest_parse_address         (const char *spec, char **host, guint *port, GError **error);
/* Whether `host` (NULL = the default) is a loopback address. */
gboolean      wn_rest_host_is_loopback      (const char *host);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WnRestServer, wn_rest_server_free)

G_END_DECLS

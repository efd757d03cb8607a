/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-rest-body.h — strict reading of the REST API's JSON request bodies.
 *
 * Camunda's DTOs, checked field by field: a body that is not JSON, a member
 * of the wrong type and a member no DTO has are refused with the field's path
 * in the message ("topics[0].lockDuration: must be an integer"), which the
 * server answers with a 400. JSON null is taken as an absent member, as
 * Camunda's Jackson does.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define WN_REST_ERROR (wn_rest_error_quark ())
GQuark wn_rest_error_quark (void);

/* Each code is the HTTP status the server answers with. */
typedef enum {
  WN_REST_ERROR_BAD_REQUEST = 400,
  WN_REST_ERROR_UNAUTHORIZED = 401,
  WN_REST_ERROR_NOT_FOUND = 404,
  WN_REST_ERROR_METHOD = 405,
  WN_REST_ERROR_TOO_LARGE = 413,
  WN_REST_ERROR_UNSUPPORTED_TYPE = 415,
  WN_REST_ERROR_INTERNAL = 500,
} WnRestError;

/* The body as a JSON object (an empty body is an empty object). */
JsonObject *wn_rest_body_parse       (const char *data, gsize length, GError **error);

/* FALSE when `object` has a member not in `known` (NULL-terminated); `path`
 * ("" or "topics[0]") prefixes the name in the message. */
gboolean    wn_rest_body_check_known (JsonObject *object, const char *path,
                                      const char *const *known, GError **error);

/* The member `name` of `object`, or NULL when absent or null; each getter
 * refuses another type. *present says whether it was there. */
gboolean    wn_rest_body_get_string  (JsonObject *object, const char *path, const char *name,
                                      gboolean required, const char **out, GError **error);
gboolean    wn_rest_body_get_int     (JsonObject *object, const char *path, const char *name,
                                      gint64 min, gint64 max, gboolean *present, gint64 *out,
                                      GError **error);
/* The same, the member required ("is required" when absent). */
gboolean    wn_rest_body_require_int (JsonObject *object, const char *path, const char *name,
                                      gint64 min, gint64 max, gint64 *out, GError **error);
gboolean    wn_rest_body_get_bool    (JsonObject *object, const char *path, const char *name,
                                      gboolean *out, GError **error);
gboolean    wn_rest_body_get_array   (JsonObject *object, const char *path, const char *name,
                                      gboolean required, JsonArray **out, GError **error);
gboolean    wn_rest_body_get_object  (JsonObject *object, const char *path, const char *name,
                                      JsonObject **out, GError **error);
/* An array of strings (NULL when absent), elements checked. */
gboolean    wn_rest_body_get_strings (JsonObject *object, const char *path, const char *name,
                                      GPtrArray **out, GError **error);

/* "path.name" or "name". */
char       *wn_rest_body_path        (const char *path, const char *name);

G_END_DECLS

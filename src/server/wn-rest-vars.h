/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-rest-vars.h — Camunda's typed variables and Winnow's JSON values.
 *
 * Camunda sends and expects {"value": …, "type": "String" | "Integer" |
 * "Short" | "Long" | "Double" | "Boolean" | "Json" | "Date" | "Null",
 * "valueInfo": {}}. A Json value travels as JSON text (a string), as
 * Camunda serializes it; Winnow keeps the JSON itself. Types are read
 * regardless of case (the JS client sends "string", "json"). Winnow's
 * objects and arrays go out as Json, whole numbers as Integer (or Long past
 * 32 bits), other numbers as Double.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* `typed` (name → typed value) as name → Winnow value; `path` names the
 * object in messages ("variables"). WN_REST_ERROR_BAD_REQUEST names the field. */
JsonObject *wn_rest_vars_from_typed (JsonObject *typed, const char *path, GError **error);
/* One Winnow value as a typed value. */
JsonNode   *wn_rest_vars_typed      (JsonNode *value);
/* `values` (name → Winnow value) typed; only `names` (char*) when not NULL. */
JsonNode   *wn_rest_vars_to_typed   (JsonObject *values, GPtrArray *names);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-json.h — a strict JSON reader (RFC 8259) that remembers where things are.
 *
 * Builds ordinary json-glib trees, and records the 1-based line and column (in
 * characters) of every value and of every object member's key, so the loader can
 * point at the offending value. json-glib's own parser keeps no positions.
 *
 * Strict: UTF-8 only (a leading BOM is skipped), no comments, no trailing commas,
 * no duplicate keys, no "\u0000", no lone surrogates, nesting capped at
 * WN_JSON_MAX_DEPTH. Integers that fit a gint64 are int nodes, other numbers
 * double nodes.
 */
#pragma once

#ifndef WINNOW_COMPILATION
# error "wn-json.h is internal to the engine: include winnow.h"
#endif

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define WN_JSON_ERROR (wn_json_error_quark ())
GQuark wn_json_error_quark (void);

typedef enum {
  WN_JSON_ERROR_SYNTAX,          /* not well-formed */
  WN_JSON_ERROR_ENCODING,        /* not UTF-8, or a NUL byte */
  WN_JSON_ERROR_DUPLICATE_KEY,   /* the same key twice in one object */
  WN_JSON_ERROR_TOO_DEEP,        /* nesting deeper than WN_JSON_MAX_DEPTH */
  WN_JSON_ERROR_RANGE,           /* a number too large for a double */
} WnJsonError;

#define WN_JSON_MAX_DEPTH 512

typedef struct {
  guint line;      /* 1-based */
  guint column;    /* 1-based, in characters */
  gsize offset;    /* byte offset in the document */
} WnJsonPos;

typedef struct _WnJsonDoc WnJsonDoc;

/* Parse `data` (`length` bytes, or NUL-terminated when -1). On error returns NULL,
 * sets *error (message without the location) and *error_pos (when given) to the
 * place of the problem. */
WnJsonDoc  *wn_json_doc_parse        (const char *data,
                                      gssize      length,
                                      WnJsonPos  *error_pos,
                                      GError    **error);
void        wn_json_doc_free         (WnJsonDoc *doc);

/* Borrowed; valid while the document lives. */
JsonNode   *wn_json_doc_get_root     (const WnJsonDoc *doc);

/* Where `node` (a node of this document's tree) starts. FALSE when unknown. */
gboolean    wn_json_doc_get_pos      (const WnJsonDoc *doc,
                                      JsonNode        *node,
                                      WnJsonPos       *pos);
/* Where the key `key` of `object` (an object of this document) is written. */
gboolean    wn_json_doc_get_key_pos  (const WnJsonDoc *doc,
                                      JsonObject      *object,
                                      const char      *key,
                                      WnJsonPos       *pos);
/* The member names of `object` in document order (borrowed), or NULL when the
 * object is not from this document. */
const char * const *wn_json_doc_get_keys (const WnJsonDoc *doc,
                                          JsonObject      *object,
                                          guint           *n_keys);
/* Where byte `byte_offset` of the decoded value of string node `node` is written in
 * the document (escapes accounted for). An offset at or past the end of the string
 * gives the closing quote. FALSE when `node` is not a string node of this document. */
gboolean    wn_json_doc_get_string_pos (const WnJsonDoc *doc,
                                        JsonNode        *node,
                                        gsize            byte_offset,
                                        WnJsonPos       *pos);

/* A copy sharing nothing with `node` (json_node_copy shares containers). */
JsonNode   *wn_json_node_deep_copy   (JsonNode *node);
JsonObject *wn_json_object_deep_copy (JsonObject *object);

/* The bytes `node` holds, as a measure for limits: a string's length, 8 for any
 * other scalar, an object's keys and members, an array's elements. A subtree
 * shared twice counts twice, as it is written out twice. */
gsize       wn_json_node_size        (JsonNode *node);

G_END_DECLS

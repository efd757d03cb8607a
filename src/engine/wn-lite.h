/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-lite.h — the `lite` expression language: compile once, evaluate many times.
 *
 * See shared spec lite.md. An expression is compiled at load into a WnLite;
 * evaluation reads JSON data from a WnLiteScope (a small set of named roots)
 * and yields a WnLiteValue. Scalar results allocate nothing.
 */
#pragma once

#if !defined (WINNOW_INSIDE) && !defined (WINNOW_COMPILATION)
# error "Only winnow.h can be included directly"
#endif

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define WN_LITE_ERROR (wn_lite_error_quark ())
GQuark wn_lite_error_quark (void);

typedef enum {
  WN_LITE_ERROR_SYNTAX,        /* parse error: bad token, unexpected token, unknown function */
  WN_LITE_ERROR_TYPE,          /* operand of the wrong kind, cross-kind comparison */
  WN_LITE_ERROR_MISSING,       /* reading a missing variable or a dead path */
  WN_LITE_ERROR_DIVISION,      /* division or remainder by zero */
  WN_LITE_ERROR_NIL,           /* the whole expression yielded nil */
  WN_LITE_ERROR_VALUE,         /* a bad argument value, e.g. time("not a time") */
  WN_LITE_ERROR_LIMIT,         /* a value over a size limit, e.g. WN_LITE_MAX_STRING */
} WnLiteError;

/* The longest string `+` may build, in bytes. Lite builds no arrays or objects:
 * those are read from data, whose size the files bound. */
#define WN_LITE_MAX_STRING (1024 * 1024)

typedef enum {
  WN_LITE_NIL,
  WN_LITE_BOOL,
  WN_LITE_NUMBER,
  WN_LITE_STRING,
  WN_LITE_TIME,     /* microseconds since the Unix epoch, UTC */
  WN_LITE_JSON,     /* an array or object read from data */
} WnLiteKind;

/* A value. `str` and `json` are borrowed (from the expression or the scope)
 * unless `owned_str` is set; release with wn_lite_value_clear(). */
typedef struct {
  WnLiteKind kind;
  gboolean   owned_str;
  union {
    gboolean     b;
    double       num;
    gint64       time_us;
    struct { const char *str; gsize len; };
    JsonNode    *json;   /* borrowed: array or object node */
  };
} WnLiteValue;

void       wn_lite_value_clear   (WnLiteValue *value);
/* A new JsonNode for the value (strings, numbers, bools, null; times as RFC 3339 strings;
 * arrays/objects are deep copies). */
JsonNode  *wn_lite_value_to_json (const WnLiteValue *value);

/* The names an expression can read. Roots are looked up by name; a root may be
 * any JSON node (a scalar root such as `code` is a string node). */
typedef struct {
  const char *name;
  JsonNode   *node;
} WnLiteRoot;

typedef struct {
  const WnLiteRoot *roots;
  guint             n_roots;
  JsonObject       *variables;   /* optional: further names, e.g. instance variables */
} WnLiteScope;

typedef struct _WnLite WnLite;

/* Compile `source`. On error returns NULL and sets WN_LITE_ERROR_SYNTAX with a
 * message "at N: expected X but found Y" (N = byte offset in `source`); the offset
 * is also stored in *error_offset when given. */
WnLite     *wn_lite_compile     (const char  *source,
                                 gsize       *error_offset,
                                 GError     **error);
WnLite     *wn_lite_ref         (WnLite      *lite);
void        wn_lite_unref       (WnLite      *lite);
const char *wn_lite_get_source  (const WnLite *lite);

/* Evaluate. On error returns FALSE and sets a WN_LITE_ERROR with a message
 * naming the byte offset ("at N: ...") and what was expected or found. */
gboolean    wn_lite_eval        (const WnLite      *lite,
                                 const WnLiteScope *scope,
                                 WnLiteValue       *result,
                                 GError           **error);

/* Convenience: evaluate and require a bool. */
gboolean    wn_lite_eval_bool   (const WnLite      *lite,
                                 const WnLiteScope *scope,
                                 gboolean          *result,
                                 GError           **error);

/* Convenience: evaluate and return the result as a new JsonNode. */
JsonNode   *wn_lite_eval_json   (const WnLite      *lite,
                                 const WnLiteScope *scope,
                                 GError           **error);

/* Structural paths (the data-reference token of lite, used alone by output
 * mapping targets and job inputs): `a`, `a.b`, `a[0]`, `a["k"]`, `a.b[2]["x y"]`. */
typedef enum {
  WN_PATH_KEY,
  WN_PATH_INDEX,
} WnPathStepKind;

typedef struct {
  WnPathStepKind kind;
  char          *key;     /* for WN_PATH_KEY */
  guint          index;   /* for WN_PATH_INDEX */
} WnPathStep;

typedef struct {
  char       *head;       /* the variable name */
  WnPathStep *steps;
  guint       n_steps;
} WnPath;

/* Parse a whole string as one structural path; NULL + WN_LITE_ERROR_SYNTAX
 * ("at N: ...") when it is not exactly one well-formed path. */
WnPath     *wn_path_parse       (const char *source, GError **error);
void        wn_path_free        (WnPath *path);
/* Resolve a path: the head is looked up in `roots`, then each step; NULL when
 * the path is dead (the result is borrowed from `roots`). */
JsonNode   *wn_path_lookup      (const WnPath *path, JsonObject *roots);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WnLite, wn_lite_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WnPath, wn_path_free)
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (WnLiteValue, wn_lite_value_clear)

#ifdef WINNOW_COMPILATION
/* Internal: an RFC 3339 instant with its zone (`time()`'s argument) in µs
 * since the Unix epoch; the loaders read dates with it too. */
gboolean _wn_lite_parse_time (const char *text, gint64 *time_us);
#endif

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-loader-private.h — what the process loader (wn-process-loader.c) and the
 * scenario loader (wn-scenario-loader.c) share: the checker (wn-check.c), which
 * walks a positioned JSON document and collects every problem as a
 * WnDiagnostic, and the policy pieces both formats carry (wn-policy-loader.c).
 *
 * A _wn_check_* function that takes a value either returns it or reports why not
 * (at the value, under `path`) and returns NULL/FALSE; loading goes on, so one
 * pass finds every problem. */
#pragma once

#ifndef WINNOW_COMPILATION
# error "wn-loader-private.h is internal to the engine: include winnow.h"
#endif

#include "wn-loader.h"
#include "wn-json.h"

G_BEGIN_DECLS

#define WN_PROCESS_FORMAT  "winnow.process/1"
#define WN_SCENARIO_FORMAT "winnow.scenario/1"

typedef struct {
  WnJsonDoc  *doc;
  const char *file;
  GPtrArray  *diags;     /* WnDiagnostic* */
  guint       dropped;
} WnCheck;

/* What the process check needs to know about the status rules of a mapper. */
typedef struct {
  GPtrArray *nodes;      /* JsonNode*: each status rule's `status` value */
  GPtrArray *paths;      /* char* */
} WnStatusRules;

/* wn-check.c: a load from start to end */

/* Parse `data`; on a syntax error, fail (as wn_load_*_data() do) and return FALSE. */
gboolean     _wn_check_begin       (WnCheck *ctx, const char *data, gssize length,
                                    const char *display_name, GPtrArray **diagnostics,
                                    GError **error);
/* Free the document; a NULL result (!ok) or any problem found → FALSE, with the
 * problems handed out as wn_load_*_data() document. */
gboolean     _wn_check_end         (WnCheck *ctx, gboolean ok, GPtrArray **diagnostics,
                                    GError **error);
/* The file's contents, at most `max_size` bytes (wn_load_process_file_full()),
 * or NULL with a WN_LOAD_ERROR_IO or _TOO_LARGE error and diagnostic. */
/* What a loader makes of a document's root (NULL: nothing worth keeping). */
typedef gpointer (*WnCheckParseFunc) (WnCheck *ctx, JsonNode *root);
/* A loader's entry point (wn_load_process_data() and friends). */
typedef gpointer (*WnCheckLoadFunc)  (const char *data, gssize length, const char *display_name,
                                      GPtrArray **diagnostics, GError **error);
/* Begin, `parse` the root, end: the result, or NULL with the diagnostics and
 * the error when the document or its checks failed (`free_result` then frees
 * what `parse` made). */
gpointer     _wn_check_load        (const char *data, gssize length, const char *display_name,
                                    WnCheckParseFunc parse, GDestroyNotify free_result,
                                    GPtrArray **diagnostics, GError **error);
/* Read `filename` (at most `max_size` bytes) and give its text to `load`. */
gpointer     _wn_check_load_file   (const char *filename, gsize max_size, WnCheckLoadFunc load,
                                    GPtrArray **diagnostics, GError **error);
char        *_wn_check_read_file   (const char *filename, gsize max_size, GPtrArray **diagnostics,
                                    GError **error, gsize *length);

/* wn-check.c: reporting */

void         _wn_check_report      (WnCheck *ctx, JsonNode *at, const char *path,
                                    const char *format, ...) G_GNUC_PRINTF (4, 5);
/* At the key `key` of the object node `object` (at the object when the key has
 * no position). */
void         _wn_check_report_key  (WnCheck *ctx, JsonNode *object, const char *key,
                                    const char *path, const char *format, ...) G_GNUC_PRINTF (5, 6);
/* Problems found so far. */
guint        _wn_check_n_errors    (const WnCheck *ctx);

/* wn-check.c: paths and small tests */

char        *_wn_check_path_key    (const char *parent, const char *key);
char        *_wn_check_path_index  (const char *parent, guint i);
gboolean     _wn_check_in_list     (const char * const *list, const char *key);
/* "an object", "a string", … */
const char  *_wn_check_type_name   (JsonNode *node);
/* "a" or "an" for `word`. */
const char  *_wn_check_article     (const char *word);
gboolean     _wn_check_holds_type  (JsonNode *node, GType type);
gboolean     _wn_check_holds_number (JsonNode *node);

/* wn-check.c: values */

/* Report the keys of `object` that are neither allowed nor free ("x-…"). Keys in
 * `known` but not `allowed` "do not apply to <what>". */
void         _wn_check_keys        (WnCheck *ctx, JsonNode *object, const char *path,
                                    const char * const *allowed, const char * const *known,
                                    const char *what);
/* The member `key` of the object node `object`; a missing required one is
 * reported at the object. */
JsonNode    *_wn_check_member      (WnCheck *ctx, JsonNode *object, const char *path,
                                    const char *key, gboolean required);
gboolean     _wn_check_object      (WnCheck *ctx, JsonNode *node, const char *path);
JsonArray   *_wn_check_array       (WnCheck *ctx, JsonNode *node, const char *path);
const char  *_wn_check_string      (WnCheck *ctx, JsonNode *node, const char *path);
const char  *_wn_check_nonempty    (WnCheck *ctx, JsonNode *node, const char *path);
const char  *_wn_check_identifier  (WnCheck *ctx, JsonNode *node, const char *path);
gboolean     _wn_check_bool        (WnCheck *ctx, JsonNode *node, const char *path, gboolean *out);
gboolean     _wn_check_true        (WnCheck *ctx, JsonNode *node, const char *path);
gboolean     _wn_check_uint        (WnCheck *ctx, JsonNode *node, const char *path, guint min,
                                    guint *out);
gboolean     _wn_check_duration    (WnCheck *ctx, JsonNode *node, const char *path,
                                    gboolean positive, WnTime *out);
/* The member `key` of `object` checked as by the functions above, at its own
 * path; FALSE where it is missing (reported when `required`) or invalid. */
gboolean     _wn_check_member_bool (WnCheck *ctx, JsonNode *object, const char *path,
                                    const char *key, gboolean required, gboolean *out);
gboolean     _wn_check_member_uint (WnCheck *ctx, JsonNode *object, const char *path,
                                    const char *key, gboolean required, guint min, guint *out);
gboolean     _wn_check_member_duration (WnCheck *ctx, JsonNode *object, const char *path,
                                        const char *key, gboolean required, gboolean positive,
                                        WnTime *out);
/* A compiled lite expression; a parse error is reported inside the string. */
WnLite      *_wn_check_lite        (WnCheck *ctx, JsonNode *node, const char *path);
/* The member `key` of `object` read by _wn_check_string(), _identifier(),
 * _lite() or _code() at its own path; NULL where it is missing (reported when
 * `required`) or invalid. */
const char  *_wn_check_member_string (WnCheck *ctx, JsonNode *object, const char *path,
                                      const char *key, gboolean required);
const char  *_wn_check_member_identifier (WnCheck *ctx, JsonNode *object, const char *path,
                                          const char *key, gboolean required);
WnLite      *_wn_check_member_lite (WnCheck *ctx, JsonNode *object, const char *path,
                                    const char *key, gboolean required);
char        *_wn_check_member_code (WnCheck *ctx, JsonNode *object, const char *path,
                                    const char *key, gboolean required);
/* A variable name or path (a worker's input). */
WnPath      *_wn_check_var_path    (WnCheck *ctx, JsonNode *node, const char *path);
/* A fault or rule code: a string, or a number normalised to its decimal form. */
char        *_wn_check_code        (WnCheck *ctx, JsonNode *node, const char *path);

/* wn-policy-loader.c */

gboolean     _wn_load_trust        (WnCheck *ctx, JsonNode *node, const char *path, WnTrust *out);
gboolean     _wn_load_retry        (WnCheck *ctx, JsonNode *node, const char *path,
                                    WnRetryPolicy *out);
/* `status_rules` (may be NULL) collects the rules with a status outcome. */
gboolean     _wn_load_error_mapper (WnCheck *ctx, JsonNode *node, const char *path,
                                    WnErrorMapper **out, WnStatusRules *status_rules);
void         _wn_load_engine_block (WnCheck *ctx, JsonNode *node, const char *path,
                                    WnEngineConfig *config, WnStatusRules *status_rules);

/* wn-scenario-loader.c */

/* A scenario document, or a process's embedded "scenario" (`embedded`: no
 * "format" needed) under `prefix`. */
WnScenario  *_wn_load_scenario_object (WnCheck *ctx, JsonNode *root, const char *prefix,
                                       gboolean embedded);
/* wn-scenario.c: an empty `decisions` entry for `gateway`. */
void         _wn_decision_spec_init (WnDecisionSpec *spec, const char *gateway);

/* wn-external.c: whether an outside worker's recorded call (a session's
 * "external" command) can be read; the error names the member. */
gboolean     _wn_external_check_call (JsonObject *call, GError **error);

G_END_DECLS

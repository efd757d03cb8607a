/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-output-mapping.h — shape a completion body into variables (semantics §6.2). */
#pragma once

#if !defined (WINNOW_INSIDE) && !defined (WINNOW_COMPILATION)
# error "Only winnow.h can be included directly"
#endif

#include <glib.h>
#include <json-glib/json-glib.h>
#include "wn-lite.h"

G_BEGIN_DECLS

#define WN_OUTPUT_MAPPING_ERROR (wn_output_mapping_error_quark ())
GQuark wn_output_mapping_error_quark (void);

typedef enum {
  WN_OUTPUT_MAPPING_ERROR_BAD_TARGET,     /* load: `var` is not a variable name or structural path */
  WN_OUTPUT_MAPPING_ERROR_MIXED_TARGET,   /* load: a plain and a structural rule on one head */
  WN_OUTPUT_MAPPING_ERROR_CONFLICT,       /* load: `a.b` and `a.b.c`, or the same target twice */
  WN_OUTPUT_MAPPING_ERROR_MISSING,        /* run: a required path is missing */
} WnOutputMappingError;

typedef struct {
  WnLite     *path;       /* lite over `body` (the mapping takes a ref) */
  const char *var;        /* target: name or structural path */
  gboolean    required;
} WnOutputRule;

/* One committed variable. */
typedef struct {
  char     *var;
  JsonNode *value;
} WnBinding;

void wn_binding_clear (WnBinding *binding);
/* A GArray of WnBinding with a clear func set. */
GArray *wn_bindings_new (void);

typedef struct _WnOutputMapping WnOutputMapping;

/* Build and check at load. On error NULL, the GError, and *bad_rule = the index of
 * the offending rule (the later one of a conflicting pair). */
WnOutputMapping *wn_output_mapping_new    (const WnOutputRule *rules,
                                           guint               n_rules,
                                           guint              *bad_rule,
                                           GError            **error);
WnOutputMapping *wn_output_mapping_ref    (WnOutputMapping *mapping);
void             wn_output_mapping_unref  (WnOutputMapping *mapping);
guint            wn_output_mapping_get_n_rules (const WnOutputMapping *mapping);
const WnOutputRule *wn_output_mapping_get_rule (const WnOutputMapping *mapping, guint i);

/* Apply to a body: appends one binding per head to `out` (records assembled by
 * head, in order of first appearance). A missing optional path is skipped; a missing
 * required path fails with WN_OUTPUT_MAPPING_ERROR_MISSING and leaves `out` as it was. */
gboolean         wn_output_mapping_apply  (const WnOutputMapping *mapping,
                                           JsonNode              *body,
                                           GArray                *out,
                                           GError               **error);

/* The direct default: the whole body under `var` (a new reference). */
void             wn_output_direct         (const char *var, JsonNode *body, GArray *out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WnOutputMapping, wn_output_mapping_unref)
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (WnBinding, wn_binding_clear)

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-error-mapper.h — classify a raw fault {code, body} (semantics §6.1). */
#pragma once

#if !defined (WINNOW_INSIDE) && !defined (WINNOW_COMPILATION)
# error "Only winnow.h can be included directly"
#endif

#include <glib.h>
#include <json-glib/json-glib.h>
#include "wn-lite.h"

G_BEGIN_DECLS

#define WN_ERROR_MAPPER_ERROR (wn_error_mapper_error_quark ())
GQuark wn_error_mapper_error_quark (void);

typedef enum {
  WN_ERROR_MAPPER_ERROR_NO_OUTCOME,     /* a rule without bpmnError/status/technical */
  WN_ERROR_MAPPER_ERROR_TWO_OUTCOMES,   /* a rule with more than one outcome */
} WnErrorMapperError;

typedef enum {
  WN_CLASS_TECHNICAL,
  WN_CLASS_BPMN_ERROR,
  WN_CLASS_STATUS,
} WnClassKind;

/* One rule as written. The mapper takes its own references/copies. */
typedef struct {
  const char *code;            /* NULL or "" = any code */
  WnLite     *when;            /* NULL = always */
  WnClassKind outcome;
  const char *bpmn_code;       /* WN_CLASS_BPMN_ERROR */
  const char *bpmn_message;    /* WN_CLASS_BPMN_ERROR, optional */
  JsonNode   *status;          /* WN_CLASS_STATUS */
} WnErrorRule;

typedef struct {
  WnClassKind kind;
  int         rule;            /* index of the matching rule, -1 = none matched */
  const char *bpmn_code;       /* borrowed from the mapper */
  const char *bpmn_message;    /* borrowed, may be NULL */
  JsonNode   *status;          /* borrowed from the mapper */
  char       *mapper_error;    /* set (owned) when a clause failed: the whole result is technical */
} WnClassification;

void wn_classification_clear (WnClassification *c);

typedef struct _WnErrorMapper WnErrorMapper;

/* An empty mapper (n_rules = 0) is valid and classifies everything technical. */
WnErrorMapper *wn_error_mapper_new        (const WnErrorRule *rules, guint n_rules);
WnErrorMapper *wn_error_mapper_ref        (WnErrorMapper *mapper);
void           wn_error_mapper_unref      (WnErrorMapper *mapper);
guint          wn_error_mapper_get_n_rules (const WnErrorMapper *mapper);
const WnErrorRule *wn_error_mapper_get_rule (const WnErrorMapper *mapper, guint i);
/* Whether any rule yields a status (the loader checks that the task has `status`). */
gboolean       wn_error_mapper_has_status_rule (const WnErrorMapper *mapper);

/* Classify. `code` may be NULL (no code: only code-less rules can match);
 * `body` may be NULL (JSON null). mapper may be NULL (→ technical). */
void           wn_error_mapper_classify   (const WnErrorMapper *mapper,
                                           const char          *code,
                                           JsonNode            *body,
                                           WnClassification    *result);
/* For people, one line per rule: `code 409 → BPMN error Conflict`. */
char          *wn_error_mapper_describe_rule (const WnErrorMapper *mapper, guint i);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WnErrorMapper, wn_error_mapper_unref)
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (WnClassification, wn_classification_clear)

G_END_DECLS

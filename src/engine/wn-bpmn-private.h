/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-bpmn-private.h — what the BPMN importer (wn-bpmn.c) uses of the
 * expression translator (wn-bpmn-expr.c). */
#pragma once

#ifndef WINNOW_COMPILATION
# error "wn-bpmn-private.h is internal to the engine: include winnow.h"
#endif

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  WN_BPMN_EXPR_NONE,    /* not an expression: a literal text */
  WN_BPMN_EXPR_JUEL,    /* ${…} or #{…} (Camunda 7, Activiti, Flowable) */
  WN_BPMN_EXPR_FEEL,    /* =… (Camunda 8) */
} WnBpmnExprKind;

/* Which dialect `text` is written in (leading and trailing blanks ignored). */
WnBpmnExprKind _wn_bpmn_expr_kind     (const char *text);

/* `text` (JUEL or FEEL) translated to lite, compiled to check it; NULL and
 * *why ("at N: `tok` …", N a byte offset in `text`) when it uses anything
 * outside the subset the dialects share with lite, or is not an expression. */
char          *_wn_bpmn_expr_to_lite  (const char *text, char **why);

/* The head of a path at text[at] (a variable name, *len bytes long) as lite
 * reads it where the expression is evaluated: a replacement such as
 * "body.total" (*len may grow to take in more of the text), or NULL with *why
 * set (or left NULL: "outside the subset") when the name cannot be read there. */
typedef char *(*WnBpmnExprRoot) (const char *text, gsize at, gsize *len, gpointer data, char **why);

/* _wn_bpmn_expr_to_lite() with each path's head given to `root`. */
char          *_wn_bpmn_expr_to_lite_rooted (const char     *text,
                                             WnBpmnExprRoot  root,
                                             gpointer        data,
                                             char          **why);

/* The value of a constant expression (a FEEL or JUEL string or number literal,
 * or plain text), or NULL when it depends on anything. */
char          *_wn_bpmn_expr_constant (const char *text);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-lab-json-pos.h — where each value of a JSON document is written.
 *
 * The engine's loaders keep positions in a reader of their own, private to
 * the engine; the lab reads its sweep files through the engine's public strict
 * parser (wn_load_json_data()) and finds positions here: one pass over the
 * (already validated) text gives the line and column of every value by its
 * path, written as the messages write it: `grid[1].values[0]`,
 * `set["engine.retry.maxAttempts"]`.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint line;     /* 1-based */
  guint column;   /* 1-based, in characters */
} WnLabPos;

/* path → WnLabPos; the text must be well-formed JSON. */
GHashTable *wn_lab_json_positions   (const char *text, gsize length);
/* "parent.key", "key" at the root, or parent["key"] for keys that are not
 * plain words. */
char       *wn_lab_json_path_member (const char *parent, const char *key);
char       *wn_lab_json_path_index  (const char *parent, guint index);

G_END_DECLS

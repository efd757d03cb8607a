/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-lab-json-pos.c — one pass over a JSON text, noting where each value starts. */
#include "config.h"

#include <string.h>

#include "wn-lab-json-pos.h"

typedef struct {
  const char *p;
  const char *end;
  guint       line;
  const char *line_start;
  GHashTable *positions;
} Scan;

static gboolean
plain_word (const char *key)
{
  if (!g_ascii_isalpha (key[0]) && key[0] != '_')
    return FALSE;
  for (const char *c = key; *c != '\0'; c++)
    if (!g_ascii_isalnum (*c) && *c != '_' && *c != '-')
      return FALSE;
  return TRUE;
}

char *
wn_lab_json_path_member (const char *parent,
                         const char *key)
{
  g_autoptr(GString) out = g_string_new (parent);

  if (plain_word (key))
    {
      if (out->len > 0)
        g_string_append_c (out, '.');
      g_string_append (out, key);
    }
  else
    {
      g_string_append (out, "[\"");
      for (const char *c = key; *c != '\0'; c++)
        {
          if (*c == '"' || *c == '\\')
            g_string_append_c (out, '\\');
          g_string_append_c (out, *c);
        }
      g_string_append (out, "\"]");
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

char *
wn_lab_json_path_index (const char *parent,
                        guint       index)
{
  return g_strdup_printf ("%s[%u]", parent, index);
}

static void
skip_space (Scan *s)
{
  while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
    {
      if (*s->p == '\n')
        {
          s->line++;
          s->line_start = s->p + 1;
        }
      s->p++;
    }
}

static void
note (Scan       *s,
      const char *path)
{
  WnLabPos *pos = g_new (WnLabPos, 1);
  guint column = 1;

  /* characters, not bytes: count the UTF-8 lead bytes */
  for (const char *c = s->line_start; c < s->p; c++)
    if (((guchar) *c & 0xC0) != 0x80)
      column++;
  pos->line = s->line;
  pos->column = column;
  g_hash_table_replace (s->positions, g_strdup (path), pos);
}

/* A string at s->p (the opening quote); returns its decoded text. */
static char *
scan_string (Scan *s)
{
  g_autoptr(GString) out = g_string_new (NULL);

  s->p++;
  while (s->p < s->end && *s->p != '"')
    {
      if (*s->p == '\\' && s->p + 1 < s->end)
        {
          s->p++;
          switch (*s->p)
            {
            case 'n': g_string_append_c (out, '\n'); break;
            case 't': g_string_append_c (out, '\t'); break;
            case 'r': g_string_append_c (out, '\r'); break;
            case 'b': g_string_append_c (out, '\b'); break;
            case 'f': g_string_append_c (out, '\f'); break;
            case 'u':
              {
                /* keys are compared for positions only: a \u escape is kept
                 * as written, which is enough to tell members apart */
                g_string_append (out, "\\u");
                break;
              }
            default: g_string_append_c (out, *s->p); break;
            }
          s->p++;
          continue;
        }
      g_string_append_c (out, *s->p);
      s->p++;
    }
  s->p++;
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static void
scan_value (Scan       *s,
            const char *path)
{
  skip_space (s);
  if (s->p >= s->end)
    return;
  note (s, path);
  if (*s->p == '{')
    {
      s->p++;
      for (;;)
        {
          g_autofree char *key = NULL;
          g_autofree char *child = NULL;

          skip_space (s);
          if (s->p >= s->end || *s->p == '}')
            break;
          if (*s->p == ',')
            {
              s->p++;
              continue;
            }
          key = scan_string (s);
          skip_space (s);
          if (s->p < s->end && *s->p == ':')
            s->p++;
          child = wn_lab_json_path_member (path, key);
          scan_value (s, child);
        }
      s->p++;
    }
  else if (*s->p == '[')
    {
      guint index = 0;

      s->p++;
      for (;;)
        {
          g_autofree char *child = NULL;

          skip_space (s);
          if (s->p >= s->end || *s->p == ']')
            break;
          if (*s->p == ',')
            {
              s->p++;
              continue;
            }
          child = wn_lab_json_path_index (path, index++);
          scan_value (s, child);
        }
      s->p++;
    }
  else if (*s->p == '"')
    g_free (scan_string (s));
  else
    while (s->p < s->end && strchr (" \t\r\n,]}", *s->p) == NULL)
      s->p++;
}

GHashTable *
wn_lab_json_positions (const char *text,
                       gsize       length)
{
  Scan s = { text, text + length, 1, text, NULL };

  s.positions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  /* a byte-order mark is no column */
  if (length >= 3 && memcmp (text, "\xEF\xBB\xBF", 3) == 0)
    s.p = s.line_start = text + 3;
  scan_value (&s, "");
  return s.positions;
}

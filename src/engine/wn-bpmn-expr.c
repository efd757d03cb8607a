/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-bpmn-expr.c — JUEL (${…}, #{…}) and FEEL (=…) expressions translated to
 * lite, token by token, in the subset the three share: variables and paths,
 * literals, comparisons, and/or/not, arithmetic and parentheses. Anything
 * else is refused at its token (docs/user-guide.md, BPMN import). */
#include "wn-bpmn-private.h"
#include "wn-lite.h"

#include <string.h>

static const char *
skip_blanks (const char *p)
{
  while (*p != '\0' && g_ascii_isspace (*p))
    p++;
  return p;
}

WnBpmnExprKind
_wn_bpmn_expr_kind (const char *text)
{
  const char *p = skip_blanks (text);

  if ((p[0] == '$' || p[0] == '#') && p[1] == '{')
    return WN_BPMN_EXPR_JUEL;
  if (p[0] == '=')
    return WN_BPMN_EXPR_FEEL;
  return WN_BPMN_EXPR_NONE;
}

/* The body of the expression: [*start, *end) within text. */
static gboolean
expr_body (const char *text, WnBpmnExprKind kind, gsize *start, gsize *end, char **why)
{
  const char *p = skip_blanks (text);
  gsize n = strlen (text);

  while (n > 0 && g_ascii_isspace (text[n - 1]))
    n--;
  if (kind == WN_BPMN_EXPR_FEEL)
    {
      *start = (gsize) (p - text) + 1;
      *end = n;
      return TRUE;
    }
  if (n == 0 || text[n - 1] != '}')
    {
      *why = g_strdup_printf ("at %zu: a JUEL expression ends with `}`", n);
      return FALSE;
    }
  *start = (gsize) (p - text) + 2;
  *end = n - 1;
  return TRUE;
}

static gboolean
is_word_start (char c)
{
  return g_ascii_isalpha (c) || c == '_';
}

static gboolean
is_word_char (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

/* A word operator or literal of the dialect, as lite writes it; NULL when
 * the word is a variable name, "" when it is refused. */
static const char *
translate_word (const char *word, WnBpmnExprKind kind)
{
  static const char * const common[][2] = {
    { "and", "and" }, { "or", "or" }, { "not", "not" },
    { "true", "true" }, { "false", "false" }, { "null", "nil" },
  };
  static const char * const juel[][2] = {
    { "eq", "==" }, { "ne", "!=" }, { "lt", "<" }, { "gt", ">" }, { "le", "<=" }, { "ge", ">=" },
    { "div", "/" }, { "mod", "%" },
  };
  static const char * const refused_juel[] = { "empty", "instanceof", "execution", "task", NULL };
  static const char * const refused_feel[] = {
    "if", "then", "else", "for", "some", "every", "in", "return", "satisfies", "between",
    "instance", "of", "function", "execution", NULL
  };

  for (gsize i = 0; i < G_N_ELEMENTS (common); i++)
    if (strcmp (word, common[i][0]) == 0)
      return common[i][1];
  if (kind == WN_BPMN_EXPR_JUEL)
    {
      for (gsize i = 0; i < G_N_ELEMENTS (juel); i++)
        if (strcmp (word, juel[i][0]) == 0)
          return juel[i][1];
      return g_strv_contains (refused_juel, word) ? "" : NULL;
    }
  return g_strv_contains (refused_feel, word) ? "" : NULL;
}

/* A symbol operator at p: its length and lite form, or 0. */
static gsize
translate_symbol (const char *p, WnBpmnExprKind kind, const char **lite)
{
  static const char * const both[][2] = {
    { "!=", "!=" }, { "<=", "<=" }, { ">=", ">=" }, { "<", "<" }, { ">", ">" },
    { "+", "+" }, { "-", "-" }, { "*", "*" }, { "/", "/" }, { "(", "(" }, { ")", ")" }, { ".", "." },
  };
  static const char * const juel[][2] = {
    { "!=", "!=" }, { "==", "==" }, { "&&", "and" }, { "||", "or" }, { "!", "not" }, { "%", "%" }, { "[", "[" }, { "]", "]" },
  };
  static const char * const feel[][2] = { { "=", "==" } };

  if (kind == WN_BPMN_EXPR_FEEL && (strncmp (p, "**", 2) == 0 || strncmp (p, "..", 2) == 0))
    return 0;
  if (kind == WN_BPMN_EXPR_JUEL)
    for (gsize i = 0; i < G_N_ELEMENTS (juel); i++)
      if (strncmp (p, juel[i][0], strlen (juel[i][0])) == 0)
        {
          *lite = juel[i][1];
          return strlen (juel[i][0]);
        }
  for (gsize i = 0; i < G_N_ELEMENTS (both); i++)
    if (strncmp (p, both[i][0], strlen (both[i][0])) == 0)
      {
        *lite = both[i][1];
        return strlen (both[i][0]);
      }
  if (kind == WN_BPMN_EXPR_FEEL)
    for (gsize i = 0; i < G_N_ELEMENTS (feel); i++)
      if (strncmp (p, feel[i][0], strlen (feel[i][0])) == 0)
        {
          *lite = feel[i][1];
          return strlen (feel[i][0]);
        }
  return 0;
}

static char *
refuse (const char *text, gsize at, gsize len, WnBpmnExprKind kind)
{
  g_autofree char *token = g_strndup (text + at, MAX (len, 1));

  return g_strdup_printf ("at %zu: `%s` is outside the subset of %s that Winnow translates to lite "
                          "(variables and paths, literals, comparisons, and/or/not, arithmetic, parentheses)",
                          at, token, kind == WN_BPMN_EXPR_JUEL ? "JUEL" : "FEEL");
}

/* The length of the string literal at text[at] (quote included), or 0 when it is not closed. */
static gsize
string_length (const char *text, gsize at, gsize end)
{
  char quote = text[at];

  for (gsize i = at + 1; i < end; i++)
    {
      if (text[i] == '\\' && i + 1 < end)
        i++;
      else if (text[i] == quote)
        return i - at + 1;
    }
  return 0;
}

char *
_wn_bpmn_expr_to_lite (const char *text, char **why)
{
  return _wn_bpmn_expr_to_lite_rooted (text, NULL, NULL, why);
}

char *
_wn_bpmn_expr_to_lite_rooted (const char     *text,
                              WnBpmnExprRoot  root,
                              gpointer        data,
                              char          **why)
{
  WnBpmnExprKind kind = _wn_bpmn_expr_kind (text);
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(WnLite) lite = NULL;
  gsize start, end;

  g_return_val_if_fail (text != NULL && why != NULL, NULL);

  if (kind == WN_BPMN_EXPR_NONE)
    {
      *why = g_strdup ("not an expression: a condition is written ${…} or #{…} (JUEL) or =… (FEEL)");
      return NULL;
    }
  if (!expr_body (text, kind, &start, &end, why))
    return NULL;

  for (gsize i = start; i < end;)
    {
      char c = text[i];
      const char *sym = NULL;
      gsize len;

      if (g_ascii_isspace (c))
        {
          i++;
          continue;
        }
      /* tokens apart by one space, paths and parentheses written tight */
      if (out->len > 0 && strchr ("([.", out->str[out->len - 1]) == NULL && strchr (")].[", c) == NULL)
        g_string_append_c (out, ' ');
      if (c == '\'' || c == '"')
        {
          if (kind == WN_BPMN_EXPR_FEEL && c == '\'')
            {
              *why = refuse (text, i, 1, kind);
              return NULL;
            }
          len = string_length (text, i, end);
          if (len == 0)
            {
              *why = g_strdup_printf ("at %zu: the string is not closed", i);
              return NULL;
            }
          g_string_append_len (out, text + i, (gssize) len);
          i += len;
          continue;
        }
      if (g_ascii_isdigit (c))
        {
          len = 0;
          while (i + len < end && (g_ascii_isdigit (text[i + len]) || text[i + len] == '.'))
            len++;
          if (i + len < end && is_word_char (text[i + len]))
            {
              *why = refuse (text, i, len + 1, kind);
              return NULL;
            }
          g_string_append_len (out, text + i, (gssize) len);
          i += len;
          continue;
        }
      if (is_word_start (c))
        {
          g_autofree char *word = NULL;
          const char *lite_word;
          gsize next;

          len = 0;
          while (i + len < end && is_word_char (text[i + len]))
            len++;
          word = g_strndup (text + i, len);
          next = i + len;
          while (next < end && g_ascii_isspace (text[next]))
            next++;
          lite_word = translate_word (word, kind);
          /* a call (a method, a FEEL function); an operator before a parenthesis (FEEL's not(x)) is none */
          if (next < end && text[next] == '(' && (lite_word == NULL || *lite_word == '\0'))
            {
              *why = refuse (text, i, len, kind);
              return NULL;
            }
          if (lite_word != NULL && *lite_word == '\0')
            {
              *why = refuse (text, i, len, kind);
              return NULL;
            }
          /* the head of a path: the caller names what it reads */
          if (lite_word == NULL && root != NULL && (out->len == 0 || out->str[out->len - 1] != '.'))
            {
              g_autofree char *head = root (text, i, &len, data, why);

              if (head == NULL)
                {
                  if (*why == NULL)
                    *why = refuse (text, i, len, kind);
                  return NULL;
                }
              g_string_append (out, head);
              i += len;
              continue;
            }
          g_string_append (out, lite_word != NULL ? lite_word : word);
          i += len;
          continue;
        }
      len = translate_symbol (text + i, kind, &sym);
      if (len == 0)
        {
          *why = refuse (text, i, 1, kind);
          return NULL;
        }
      g_string_append (out, sym);
      i += len;
    }

  if (out->len == 0)
    {
      *why = g_strdup_printf ("at %zu: the expression is empty", start);
      return NULL;
    }
  lite = wn_lite_compile (out->str, NULL, &error);
  if (lite == NULL)
    {
      *why = g_strdup_printf ("translated to lite as `%s`, which does not compile: %s", out->str, error->message);
      return NULL;
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

char *
_wn_bpmn_expr_constant (const char *text)
{
  WnBpmnExprKind kind = _wn_bpmn_expr_kind (text);
  g_autofree char *body = NULL;
  gsize start, end;
  char *why = NULL;

  if (kind == WN_BPMN_EXPR_NONE)
    return g_strstrip (g_strdup (text));
  if (!expr_body (text, kind, &start, &end, &why))
    {
      g_free (why);
      return NULL;
    }
  body = g_strstrip (g_strndup (text + start, end - start));
  if (body[0] == '"' || (body[0] == '\'' && kind == WN_BPMN_EXPR_JUEL))
    {
      gsize len = string_length (body, 0, strlen (body));

      if (len == strlen (body) && len >= 2 && strchr (body, '\\') == NULL)
        return g_strndup (body + 1, len - 2);
      return NULL;
    }
  for (const char *p = body; *p != '\0'; p++)
    if (!g_ascii_isdigit (*p))
      return NULL;
  return *body != '\0' ? g_steal_pointer (&body) : NULL;
}

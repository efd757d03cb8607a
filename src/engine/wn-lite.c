/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-lite.c — the `lite` expression language (shared spec lite.md). One
 * file past 1,500 lines because lexer, parser and evaluator share one node
 * array and one error type, and the language is one concept.
 *
 * Compilation: a hand-written lexer feeds a recursive-descent parser that
 * emits a flat array of nodes, children before parents, the root last.
 * Literal strings are unescaped once and kept with the expression; data
 * references are parsed into WnPath once.
 *
 * Grammar, loosest to tightest:
 *   or      := and ("or" and)*
 *   and     := not ("and" not)*
 *   not     := "not" not | cmp
 *   cmp     := add [("==" | "!=" | "<" | "<=" | ">" | ">=") add]
 *   add     := mul (("+" | "-") mul)*
 *   mul     := unary (("*" | "/" | "%") unary)*
 *   unary   := "-" unary | primary
 *   primary := number | string | "true" | "false" | "nil" | path
 *            | ("has" | "len" | "time") "(" arg ")" | "(" or ")"
 * Comparisons do not chain: `a < b < c` is a syntax error.
 *
 * Lexical details:
 *  - numbers: digits, an optional fraction (".5" needs a digit on each side)
 *    and an optional exponent ("1e3", "2.5E-2");
 *  - strings: single or double quotes; the escapes are \' \" and \\ (any
 *    other backslash sequence is a syntax error);
 *  - a data reference is one token: a name ([A-Za-z_][A-Za-z0-9_]*) followed,
 *    with no blanks, by steps `.name`, `[digits]`, `["key"]` or `['key']`;
 *  - a bare name followed by "(" is a function call; only has, len and time
 *    exist, any other is a syntax error;
 *  - `and or not true false nil` are keywords, never variable names.
 *
 * Evaluation recurses over the node array with WnLiteValue results on the
 * stack: a scalar result allocates nothing (string concatenation aside, whose
 * result is owned). `time()` of a literal is converted at compile time.
 * Every error message starts "at N: " with N the byte offset of the
 * offending token (for operators, the operator).
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "wn-lite.h"

/* Deepest nesting of parentheses, unary operators and operator chains. */
#define MAX_DEPTH 256

G_DEFINE_QUARK (wn-lite-error-quark, wn_lite_error)

typedef enum {
  OP_NUMBER,
  OP_STRING,
  OP_BOOL,
  OP_NIL,
  OP_TIME_CONST,
  OP_PATH,
  OP_HAS,
  OP_LEN,
  OP_TIME,
  OP_NEG,
  OP_NOT,
  OP_AND,
  OP_OR,
  OP_EQ,
  OP_NE,
  OP_LT,
  OP_LE,
  OP_GT,
  OP_GE,
  OP_ADD,
  OP_SUB,
  OP_MUL,
  OP_DIV,
  OP_MOD,
} Op;

typedef struct {
  Op     op;
  guint  offset;   /* byte offset of the node's token in the source */
  guint  aux;      /* OP_PATH: token length; OP_LEN/OP_TIME: offset of the argument */
  guint  lhs;      /* operand (unary, builtin argument) or left operand */
  guint  rhs;      /* right operand */
  guint  depth;    /* height of the subtree, bounded by MAX_DEPTH */
  union {
    gboolean b;
    double   num;
    gint64   time_us;
    guint    path;  /* index in WnLite.paths */
    struct {
      const char *str;
      gsize       len;
    } s;
  } v;
} Node;

struct _WnLite {
  gatomicrefcount ref_count;
  char           *source;
  Node           *nodes;
  guint           n_nodes;
  GPtrArray      *strings;  /* char*: unescaped literals */
  GPtrArray      *paths;    /* WnPath* */
};

typedef enum {
  TOK_END,
  TOK_NUMBER,
  TOK_STRING,
  TOK_PATH,
  TOK_CALL,
  TOK_TRUE,
  TOK_FALSE,
  TOK_NIL,
  TOK_AND,
  TOK_OR,
  TOK_NOT,
  TOK_LPAREN,
  TOK_RPAREN,
  TOK_COMMA,
  TOK_PLUS,
  TOK_MINUS,
  TOK_STAR,
  TOK_SLASH,
  TOK_PERCENT,
  TOK_EQ,
  TOK_NE,
  TOK_LT,
  TOK_LE,
  TOK_GT,
  TOK_GE,
} TokKind;

typedef struct {
  TokKind kind;
  gsize   start;
  gsize   end;
} Token;

/* A compile error before it becomes a GError: offsets may still need
 * translating (a path inside a has() string). */
typedef struct {
  gsize  offset;
  char  *message;
} Fault;

typedef struct {
  const char *src;
  Token       tok;
  GArray     *nodes;    /* Node */
  GPtrArray  *strings;
  GPtrArray  *paths;
  guint       depth;
  Fault       fault;
} Parser;

/* Parses one level of the grammar into a node index. */
typedef gboolean (*ParseFn) (Parser *p,
                             guint  *out);

/* A token of a binary level and the operator it writes. */
typedef struct {
  TokKind tok;
  Op      op;
} BinaryOp;

static const struct {
  const char *word;
  TokKind     kind;
} keywords[] = {
  { "and", TOK_AND },
  { "or", TOK_OR },
  { "not", TOK_NOT },
  { "true", TOK_TRUE },
  { "false", TOK_FALSE },
  { "nil", TOK_NIL },
};

/* Faults and descriptions */

static void fault_set (Fault *fault, gsize offset, const char *format, ...) G_GNUC_PRINTF (3, 4);

static void
fault_set (Fault      *fault,
           gsize       offset,
           const char *format,
           ...)
{
  va_list args;

  g_assert (fault->message == NULL);

  va_start (args, format);
  fault->offset = offset;
  fault->message = g_strdup_vprintf (format, args);
  va_end (args);
}

static void
fault_propagate (Fault   *fault,
                 GError **error)
{
  g_set_error (error, WN_LITE_ERROR, WN_LITE_ERROR_SYNTAX,
               "at %" G_GSIZE_FORMAT ": %s", fault->offset, fault->message);
  g_clear_pointer (&fault->message, g_free);
}

static void set_eval_error (GError **error, WnLiteError code, guint offset,
                            const char *format, ...) G_GNUC_PRINTF (4, 5);

static void
set_eval_error (GError      **error,
                WnLiteError   code,
                guint         offset,
                const char   *format,
                ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, WN_LITE_ERROR, code, "at %u: %s", offset, message);
}

/* Characters of a token a message quotes: a long one (a 300 KB string literal)
 * is quoted from its start, where the offset points, up to this many. */
#define EXCERPT_CHARS 40

/* `len` bytes of (UTF-8) `text` as a message quotes them: whole when short,
 * else the first EXCERPT_CHARS characters and "…". */
static char *
excerpt (const char *text,
         gsize       len)
{
  const char *end = text + len;
  const char *p = text;

  for (guint n = 0; p < end && n < EXCERPT_CHARS; n++)
    p = g_utf8_next_char (p);
  if (p >= end)
    return g_strndup (text, len);
  return g_strdup_printf ("%.*s…", (int) (p - text), text);
}

/* "end of input" or the (UTF-8) character at `pos`, quoted. */
static char *
describe_char (const char *src,
               gsize       pos)
{
  const char *p = src + pos;

  if (*p == '\0')
    return g_strdup ("end of input");
  if ((guchar) *p < 0x20 || *p == 0x7f)
    return g_strdup_printf ("character 0x%02x", (guint) (guchar) *p);
  return g_strdup_printf ("'%.*s'", (int) (g_utf8_next_char (p) - p), p);
}

static const char *
kind_name (const WnLiteValue *value)
{
  switch (value->kind)
    {
    case WN_LITE_NIL:
      return "nil";
    case WN_LITE_BOOL:
      return "boolean";
    case WN_LITE_NUMBER:
      return "number";
    case WN_LITE_STRING:
      return "string";
    case WN_LITE_TIME:
      return "time";
    case WN_LITE_JSON:
      return JSON_NODE_HOLDS_ARRAY (value->json) ? "array" : "object";
    default:
      g_assert_not_reached ();
    }
}

static const char *
op_symbol (Op op)
{
  switch (op)
    {
    case OP_NEG:
    case OP_SUB:
      return "-";
    case OP_NOT:
      return "not";
    case OP_AND:
      return "and";
    case OP_OR:
      return "or";
    case OP_EQ:
      return "==";
    case OP_NE:
      return "!=";
    case OP_LT:
      return "<";
    case OP_LE:
      return "<=";
    case OP_GT:
      return ">";
    case OP_GE:
      return ">=";
    case OP_ADD:
      return "+";
    case OP_MUL:
      return "*";
    case OP_DIV:
      return "/";
    case OP_MOD:
      return "%";
    case OP_NUMBER:
    case OP_STRING:
    case OP_BOOL:
    case OP_NIL:
    case OP_TIME_CONST:
    case OP_PATH:
    case OP_HAS:
    case OP_LEN:
    case OP_TIME:
    default:
      g_assert_not_reached ();
    }
}

/* Scanning (shared by the expression lexer and wn_path_parse) */

static inline gboolean
is_name_start (char c)
{
  return g_ascii_isalpha (c) || c == '_';
}

static inline gboolean
is_name_char (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

static gsize
scan_name (const char *src,
           gsize       pos)
{
  if (!is_name_start (src[pos]))
    return pos;
  pos++;
  while (is_name_char (src[pos]))
    pos++;
  return pos;
}

/* A quoted string starting at src[pos] (a quote). Sets *end past the closing
 * quote and appends the unescaped text to `out` when given. */
static gboolean
scan_string (const char *src,
             gsize       pos,
             gsize      *end,
             GString    *out,
             Fault      *fault)
{
  char quote = src[pos];
  gsize i = pos + 1;

  g_assert (quote == '\'' || quote == '"');

  for (;;)
    {
      char c = src[i];

      if (c == '\0')
        {
          fault_set (fault, pos, "unterminated string: expected %c but found end of input", quote);
          return FALSE;
        }
      if (c == quote)
        break;
      if (c == '\\')
        {
          char e = src[i + 1];

          if (e != '\'' && e != '"' && e != '\\')
            {
              g_autofree char *found = NULL;

              if (e == '\0')
                {
                  fault_set (fault, pos, "unterminated string: expected %c but found end of input",
                             quote);
                  return FALSE;
                }
              found = describe_char (src, i + 1);
              fault_set (fault, i, "expected \\' or \\\" or \\\\ but found a backslash before %s",
                         found);
              return FALSE;
            }
          if (out != NULL)
            g_string_append_c (out, e);
          i += 2;
          continue;
        }
      if (out != NULL)
        g_string_append_c (out, c);
      i++;
    }

  *end = i + 1;
  return TRUE;
}

static void
path_step_clear (gpointer data)
{
  WnPathStep *step = data;

  g_clear_pointer (&step->key, g_free);
}

/* A structural path starting at src[pos]. Sets *end past it and builds *out
 * when `out` is given. */
static gboolean
scan_path (const char *src,
           gsize       pos,
           gsize      *end,
           WnPath    **out,
           Fault      *fault)
{
  g_autoptr(GArray) steps = NULL;
  gsize head_end;
  gsize i;

  head_end = scan_name (src, pos);
  if (head_end == pos)
    {
      g_autofree char *found = describe_char (src, pos);

      fault_set (fault, pos, "expected a name but found %s", found);
      return FALSE;
    }

  if (out != NULL)
    {
      steps = g_array_new (FALSE, FALSE, sizeof (WnPathStep));
      g_array_set_clear_func (steps, path_step_clear);
    }

  i = head_end;
  for (;;)
    {
      WnPathStep step = { 0, };

      if (src[i] == '.')
        {
          gsize key_end = scan_name (src, i + 1);

          if (key_end == i + 1)
            {
              g_autofree char *found = describe_char (src, i + 1);

              fault_set (fault, i + 1, "expected a name after '.' but found %s", found);
              return FALSE;
            }
          step.kind = WN_PATH_KEY;
          if (out != NULL)
            step.key = g_strndup (src + i + 1, key_end - i - 1);
          i = key_end;
        }
      else if (src[i] == '[')
        {
          gsize j = i + 1;

          if (g_ascii_isdigit (src[j]))
            {
              guint64 index = 0;

              while (g_ascii_isdigit (src[j]))
                {
                  index = index * 10 + (guint64) (src[j] - '0');
                  if (index > G_MAXUINT)
                    {
                      g_autofree char *digits = NULL;

                      while (g_ascii_isdigit (src[j]))
                        j++;
                      digits = excerpt (src + i + 1, j - i - 1);
                      fault_set (fault, i + 1, "expected an index up to %u but found '%s'",
                                 G_MAXUINT, digits);
                      return FALSE;
                    }
                  j++;
                }
              step.kind = WN_PATH_INDEX;
              step.index = (guint) index;
            }
          else if (src[j] == '\'' || src[j] == '"')
            {
              g_autoptr(GString) key = out != NULL ? g_string_new (NULL) : NULL;

              if (!scan_string (src, j, &j, key, fault))
                return FALSE;
              step.kind = WN_PATH_KEY;
              if (key != NULL)
                step.key = g_string_free (g_steal_pointer (&key), FALSE);
            }
          else
            {
              g_autofree char *found = describe_char (src, j);

              fault_set (fault, j, "expected an index or a quoted key after '[' but found %s",
                         found);
              return FALSE;
            }

          if (src[j] != ']')
            {
              g_autofree char *found = describe_char (src, j);

              g_free (step.key);
              fault_set (fault, j, "expected ']' but found %s", found);
              return FALSE;
            }
          i = j + 1;
        }
      else
        {
          break;
        }

      if (steps != NULL)
        g_array_append_val (steps, step);
    }

  *end = i;
  if (out != NULL)
    {
      WnPath *path = g_new0 (WnPath, 1);

      path->head = g_strndup (src + pos, head_end - pos);
      path->n_steps = steps->len;
      g_array_set_clear_func (steps, NULL);
      path->steps = (WnPathStep *) (void *) g_array_free (g_steal_pointer (&steps), FALSE);
      *out = path;
    }
  return TRUE;
}

/* A whole string as exactly one path. */
static WnPath *
parse_whole_path (const char *src,
                  Fault      *fault)
{
  g_autoptr(WnPath) path = NULL;
  const char *bad;
  gsize end;

  if (!g_utf8_validate (src, -1, &bad))
    {
      fault_set (fault, (gsize) (bad - src), "expected valid UTF-8 but found byte 0x%02x",
                 (guint) (guchar) *bad);
      return NULL;
    }
  if (!scan_path (src, 0, &end, &path, fault))
    return NULL;
  if (src[end] != '\0')
    {
      g_autofree char *found = describe_char (src, end);

      fault_set (fault, end, "expected end of path but found %s", found);
      return NULL;
    }
  return g_steal_pointer (&path);
}

/* Lexer */

static gboolean
lex (const char *src,
     gsize       pos,
     Token      *tok,
     Fault      *fault)
{
  char c;

  while (src[pos] == ' ' || src[pos] == '\t' || src[pos] == '\n' || src[pos] == '\r')
    pos++;

  tok->start = pos;
  c = src[pos];

  if (c == '\0')
    {
      tok->kind = TOK_END;
      tok->end = pos;
      return TRUE;
    }

  if (g_ascii_isdigit (c))
    {
      gsize i = pos;

      while (g_ascii_isdigit (src[i]))
        i++;
      if (src[i] == '.')
        {
          if (!g_ascii_isdigit (src[i + 1]))
            {
              g_autofree char *found = describe_char (src, i + 1);

              fault_set (fault, i + 1, "expected a digit after '.' but found %s", found);
              return FALSE;
            }
          i++;
          while (g_ascii_isdigit (src[i]))
            i++;
        }
      if (src[i] == 'e' || src[i] == 'E')
        {
          gsize j = i + 1;

          if (src[j] == '+' || src[j] == '-')
            j++;
          if (g_ascii_isdigit (src[j]))
            {
              while (g_ascii_isdigit (src[j]))
                j++;
              i = j;
            }
        }
      if (is_name_char (src[i]))
        {
          g_autofree char *found = describe_char (src, i);

          fault_set (fault, i, "expected an operator after a number but found %s", found);
          return FALSE;
        }
      tok->kind = TOK_NUMBER;
      tok->end = i;
      return TRUE;
    }

  if (c == '\'' || c == '"')
    {
      tok->kind = TOK_STRING;
      return scan_string (src, pos, &tok->end, NULL, fault);
    }

  if (is_name_start (c))
    {
      gsize name_end = scan_name (src, pos);
      gsize i;

      for (i = 0; i < G_N_ELEMENTS (keywords); i++)
        {
          if (strlen (keywords[i].word) == name_end - pos &&
              memcmp (keywords[i].word, src + pos, name_end - pos) == 0)
            {
              tok->kind = keywords[i].kind;
              tok->end = name_end;
              return TRUE;
            }
        }

      if (src[name_end] != '.' && src[name_end] != '[')
        {
          i = name_end;
          while (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r')
            i++;
          if (src[i] == '(')
            {
              tok->kind = TOK_CALL;
              tok->end = name_end;
              return TRUE;
            }
        }

      tok->kind = TOK_PATH;
      return scan_path (src, pos, &tok->end, NULL, fault);
    }

  tok->end = pos + 1;
  switch (c)
    {
    case '(':
      tok->kind = TOK_LPAREN;
      return TRUE;
    case ')':
      tok->kind = TOK_RPAREN;
      return TRUE;
    case ',':
      tok->kind = TOK_COMMA;
      return TRUE;
    case '+':
      tok->kind = TOK_PLUS;
      return TRUE;
    case '-':
      tok->kind = TOK_MINUS;
      return TRUE;
    case '*':
      tok->kind = TOK_STAR;
      return TRUE;
    case '/':
      tok->kind = TOK_SLASH;
      return TRUE;
    case '%':
      tok->kind = TOK_PERCENT;
      return TRUE;
    case '<':
    case '>':
      if (src[pos + 1] == '=')
        {
          tok->kind = c == '<' ? TOK_LE : TOK_GE;
          tok->end = pos + 2;
        }
      else
        {
          tok->kind = c == '<' ? TOK_LT : TOK_GT;
        }
      return TRUE;
    case '=':
    case '!':
      if (src[pos + 1] == '=')
        {
          tok->kind = c == '=' ? TOK_EQ : TOK_NE;
          tok->end = pos + 2;
          return TRUE;
        }
      fault_set (fault, pos, "expected '%c=' but found '%c'", c, c);
      return FALSE;
    default:
      {
        g_autofree char *found = describe_char (src, pos);

        fault_set (fault, pos, "unexpected character %s", found);
        return FALSE;
      }
    }
}

/* Parser */

static char *
describe_token (const Parser *p,
                const Token  *tok)
{
  g_autofree char *text = excerpt (p->src + tok->start, tok->end - tok->start);

  switch (tok->kind)
    {
    case TOK_END:
      return g_strdup ("end of input");
    case TOK_NUMBER:
      return g_strdup_printf ("number %s", text);
    case TOK_STRING:
      return g_strdup_printf ("string %s", text);
    case TOK_PATH:
      return g_strdup_printf ("name '%s'", text);
    default:
      return g_strdup_printf ("'%s'", text);
    }
}

static gboolean
fail_expected (Parser     *p,
               const char *expected)
{
  g_autofree char *found = describe_token (p, &p->tok);

  fault_set (&p->fault, p->tok.start, "expected %s but found %s", expected, found);
  return FALSE;
}

static gboolean
advance (Parser *p)
{
  return lex (p->src, p->tok.end, &p->tok, &p->fault);
}

static gboolean
enter (Parser *p)
{
  if (++p->depth > MAX_DEPTH)
    {
      fault_set (&p->fault, p->tok.start, "expression nested too deeply (more than %d levels)",
                 MAX_DEPTH);
      return FALSE;
    }
  return TRUE;
}

static void
leave (Parser *p)
{
  p->depth--;
}

static inline Node *
node_at (Parser *p,
         guint   index)
{
  return &g_array_index (p->nodes, Node, index);
}

/* Appends `node` (whose operands are set) and stores its index in *out. */
static gboolean
emit (Parser *p,
      Node   *node,
      guint   n_operands,
      guint  *out)
{
  node->depth = 1;
  if (n_operands >= 1)
    node->depth = MAX (node->depth, node_at (p, node->lhs)->depth + 1);
  if (n_operands >= 2)
    node->depth = MAX (node->depth, node_at (p, node->rhs)->depth + 1);
  /* enter() bounds the nesting the text writes (parentheses, not, unary -);
   * what grows the tree past it here is a chain of operators, as in a flat
   * 1 + 1 + … + 1, which nests nothing as written */
  if (node->depth > MAX_DEPTH)
    {
      fault_set (&p->fault, node->offset, "expression too long: more than %d operators in one chain",
                 MAX_DEPTH);
      return FALSE;
    }
  g_array_append_val (p->nodes, *node);
  *out = p->nodes->len - 1;
  return TRUE;
}

static gboolean
emit_binary (Parser *p,
             Op      op,
             gsize   offset,
             guint   lhs,
             guint   rhs,
             guint  *out)
{
  Node node = { .op = op, .offset = (guint) offset, .lhs = lhs, .rhs = rhs };

  return emit (p, &node, 2, out);
}

static gboolean
emit_unary (Parser *p,
            Op      op,
            gsize   offset,
            guint   operand,
            guint  *out)
{
  Node node = { .op = op, .offset = (guint) offset, .lhs = operand };

  return emit (p, &node, 1, out);
}

/* An RFC 3339 instant (with its zone) in µs since the Unix epoch (wn-loader-private.h). */
gboolean
_wn_lite_parse_time (const char *text,
                   gint64     *time_us)
{
  g_autoptr(GDateTime) dt = NULL;
  char upper[64];
  gsize i;

  /* RFC 3339 allows a lower-case 't' and 'z'; GLib wants upper case. */
  for (i = 0; text[i] != '\0' && i < sizeof upper - 1; i++)
    upper[i] = text[i] == 't' || text[i] == 'z' ? g_ascii_toupper (text[i]) : text[i];
  if (text[i] != '\0')
    return FALSE;
  upper[i] = '\0';

  dt = g_date_time_new_from_iso8601 (upper, NULL);
  if (dt == NULL)
    return FALSE;
  *time_us = g_date_time_to_unix (dt) * G_USEC_PER_SEC + g_date_time_get_microsecond (dt);
  return TRUE;
}

/* The source offset of byte `index` of the unescaped text of the string token
 * starting at `start`. */
static gsize
string_source_offset (const char *src,
                      gsize       start,
                      gsize       index)
{
  gsize i = start + 1;
  gsize n;

  for (n = 0; n < index && src[i] != '\0'; n++)
    i += src[i] == '\\' ? 2 : 1;
  return i;
}

static gboolean parse_or (Parser *p, guint *out);

static gboolean
parse_has (Parser *p,
           gsize   call_offset,
           guint  *out)
{
  Node node = { .op = OP_HAS, .offset = (guint) call_offset };
  WnPath *path = NULL;

  if (p->tok.kind == TOK_STRING)
    {
      g_autoptr(GString) text = g_string_new (NULL);
      gsize end;
      Fault inner = { 0, NULL };

      if (!scan_string (p->src, p->tok.start, &end, text, &p->fault))
        return FALSE;
      path = parse_whole_path (text->str, &inner);
      if (path == NULL)
        {
          p->fault.offset = string_source_offset (p->src, p->tok.start, inner.offset);
          p->fault.message = g_strdup_printf ("bad path in has(): %s", inner.message);
          g_free (inner.message);
          return FALSE;
        }
    }
  else if (p->tok.kind == TOK_PATH)
    {
      gsize end;

      if (!scan_path (p->src, p->tok.start, &end, &path, &p->fault))
        return FALSE;
    }
  else
    {
      return fail_expected (p, "a path string");
    }

  node.aux = (guint) (p->tok.end - p->tok.start);
  node.v.path = p->paths->len;
  g_ptr_array_add (p->paths, path);
  if (!advance (p))
    return FALSE;
  return emit (p, &node, 0, out);
}

static gboolean
parse_call (Parser *p,
            guint  *out)
{
  const char *name = p->src + p->tok.start;
  gsize name_len = p->tok.end - p->tok.start;
  gsize call_offset = p->tok.start;
  gsize arg_offset;
  Op op;

  if (name_len == 3 && memcmp (name, "has", 3) == 0)
    op = OP_HAS;
  else if (name_len == 3 && memcmp (name, "len", 3) == 0)
    op = OP_LEN;
  else if (name_len == 4 && memcmp (name, "time", 4) == 0)
    op = OP_TIME;
  else
    {
      g_autofree char *text = excerpt (name, name_len);

      fault_set (&p->fault, call_offset, "expected has, len or time but found unknown function '%s'", text);
      return FALSE;
    }

  if (!advance (p))
    return FALSE;
  g_assert (p->tok.kind == TOK_LPAREN);
  if (!advance (p))
    return FALSE;

  arg_offset = p->tok.start;
  if (op == OP_HAS)
    {
      if (!parse_has (p, call_offset, out))
        return FALSE;
    }
  else
    {
      guint arg;
      Node *arg_node;

      if (!parse_or (p, &arg))
        return FALSE;
      arg_node = node_at (p, arg);
      if (op == OP_TIME && arg_node->op == OP_STRING)
        {
          gint64 time_us;

          if (_wn_lite_parse_time (arg_node->v.s.str, &time_us))
            {
              /* Reuse the literal's slot: nothing else refers to it. */
              arg_node->op = OP_TIME_CONST;
              arg_node->v.time_us = time_us;
              arg_node->offset = (guint) call_offset;
              *out = arg;
              goto close;
            }
        }
      {
        Node node = { .op = op, .offset = (guint) call_offset, .aux = (guint) arg_offset, .lhs = arg };

        if (!emit (p, &node, 1, out))
          return FALSE;
      }
    }

close:
  if (p->tok.kind != TOK_RPAREN)
    return fail_expected (p, "')'");
  return advance (p);
}

static gboolean
parse_primary (Parser *p,
               guint  *out)
{
  Node node = { .offset = (guint) p->tok.start };

  switch (p->tok.kind)
    {
    case TOK_NUMBER:
      {
        g_autofree char *text = g_strndup (p->src + p->tok.start, p->tok.end - p->tok.start);

        node.op = OP_NUMBER;
        node.v.num = g_ascii_strtod (text, NULL);
        break;
      }
    case TOK_STRING:
      {
        GString *text = g_string_new (NULL);
        gsize end;

        if (!scan_string (p->src, p->tok.start, &end, text, &p->fault))
          {
            g_string_free (text, TRUE);
            return FALSE;
          }
        node.op = OP_STRING;
        node.v.s.len = text->len;
        node.v.s.str = g_string_free (text, FALSE);
        g_ptr_array_add (p->strings, (char *) node.v.s.str);
        break;
      }
    case TOK_TRUE:
    case TOK_FALSE:
      node.op = OP_BOOL;
      node.v.b = p->tok.kind == TOK_TRUE;
      break;
    case TOK_NIL:
      node.op = OP_NIL;
      break;
    case TOK_PATH:
      {
        WnPath *path = NULL;
        gsize end;

        if (!scan_path (p->src, p->tok.start, &end, &path, &p->fault))
          return FALSE;
        node.op = OP_PATH;
        node.aux = (guint) (end - p->tok.start);
        node.v.path = p->paths->len;
        g_ptr_array_add (p->paths, path);
        break;
      }
    case TOK_CALL:
      return parse_call (p, out);
    case TOK_LPAREN:
      if (!advance (p) || !parse_or (p, out))
        return FALSE;
      if (p->tok.kind != TOK_RPAREN)
        return fail_expected (p, "')'");
      return advance (p);
    default:
      return fail_expected (p, "a value");
    }

  if (!advance (p))
    return FALSE;
  return emit (p, &node, 0, out);
}

/* A prefix operator: `prefix` applies `op` to what `self` parses after it
 * (so `- - x` and `not not x` nest, each inside enter()); without it the
 * level is what `next` parses. */
static gboolean
parse_prefix (Parser  *p,
              TokKind  prefix,
              Op       op,
              ParseFn  self,
              ParseFn  next,
              guint   *out)
{
  gsize offset = p->tok.start;
  guint operand;
  gboolean ok;

  if (p->tok.kind != prefix)
    return next (p, out);

  if (!advance (p) || !enter (p))
    return FALSE;
  ok = self (p, &operand);
  leave (p);
  return ok && emit_unary (p, op, offset, operand, out);
}

/* One level of left-associative binary operators: operands that `operand`
 * parses, joined by any of the `n_ops` tokens in `ops`. */
static gboolean
parse_chain (Parser         *p,
             ParseFn         operand,
             const BinaryOp *ops,
             gsize           n_ops,
             guint          *out)
{
  guint lhs;

  if (!operand (p, &lhs))
    return FALSE;

  for (;;)
    {
      gsize offset = p->tok.start;
      const BinaryOp *found = NULL;
      guint rhs;

      for (gsize i = 0; i < n_ops && found == NULL; i++)
        if (p->tok.kind == ops[i].tok)
          found = &ops[i];
      if (found == NULL)
        break;

      if (!advance (p) || !operand (p, &rhs) || !emit_binary (p, found->op, offset, lhs, rhs, &lhs))
        return FALSE;
    }

  *out = lhs;
  return TRUE;
}

static gboolean
parse_unary (Parser *p,
             guint  *out)
{
  return parse_prefix (p, TOK_MINUS, OP_NEG, parse_unary, parse_primary, out);
}

static gboolean
parse_mul (Parser *p,
           guint  *out)
{
  static const BinaryOp ops[] = {
    { TOK_STAR, OP_MUL },
    { TOK_SLASH, OP_DIV },
    { TOK_PERCENT, OP_MOD },
  };

  return parse_chain (p, parse_unary, ops, G_N_ELEMENTS (ops), out);
}

static gboolean
parse_add (Parser *p,
           guint  *out)
{
  static const BinaryOp ops[] = {
    { TOK_PLUS, OP_ADD },
    { TOK_MINUS, OP_SUB },
  };

  return parse_chain (p, parse_mul, ops, G_N_ELEMENTS (ops), out);
}

/* The comparison `kind` writes, or FALSE where it is not one. */
static gboolean
comparison_op (TokKind  kind,
               Op      *op)
{
  switch (kind)
    {
    case TOK_EQ:
      *op = OP_EQ;
      return TRUE;
    case TOK_NE:
      *op = OP_NE;
      return TRUE;
    case TOK_LT:
      *op = OP_LT;
      return TRUE;
    case TOK_LE:
      *op = OP_LE;
      return TRUE;
    case TOK_GT:
      *op = OP_GT;
      return TRUE;
    case TOK_GE:
      *op = OP_GE;
      return TRUE;
    default:
      return FALSE;
    }
}

static gboolean
parse_cmp (Parser *p,
           guint  *out)
{
  gsize offset;
  guint lhs;
  guint rhs;
  Op op;

  if (!parse_add (p, &lhs))
    return FALSE;

  offset = p->tok.start;
  if (!comparison_op (p->tok.kind, &op))
    {
      *out = lhs;
      return TRUE;
    }

  if (!advance (p) || !parse_add (p, &rhs) || !emit_binary (p, op, offset, lhs, rhs, out))
    return FALSE;

  if (comparison_op (p->tok.kind, &op))
    {
      g_autofree char *found = describe_token (p, &p->tok);

      fault_set (&p->fault, p->tok.start,
                 "expected 'and', 'or' or end of input but found %s "
                 "(comparisons do not chain; use 'and')", found);
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_not (Parser *p,
           guint  *out)
{
  return parse_prefix (p, TOK_NOT, OP_NOT, parse_not, parse_cmp, out);
}

static gboolean
parse_and (Parser *p,
           guint  *out)
{
  static const BinaryOp ops[] = { { TOK_AND, OP_AND } };

  return parse_chain (p, parse_not, ops, G_N_ELEMENTS (ops), out);
}

static gboolean
parse_or (Parser *p,
          guint  *out)
{
  static const BinaryOp ops[] = { { TOK_OR, OP_OR } };
  gboolean ok;

  if (!enter (p))
    return FALSE;
  ok = parse_chain (p, parse_and, ops, G_N_ELEMENTS (ops), out);
  leave (p);
  return ok;
}

/* Data access */

static JsonNode *
step_node (JsonNode         *node,
           const WnPathStep *step)
{
  if (step->kind == WN_PATH_KEY)
    {
      if (!JSON_NODE_HOLDS_OBJECT (node))
        return NULL;
      return json_object_get_member (json_node_get_object (node), step->key);
    }
  else
    {
      JsonArray *array;

      if (!JSON_NODE_HOLDS_ARRAY (node))
        return NULL;
      array = json_node_get_array (node);
      if (step->index >= json_array_get_length (array))
        return NULL;
      return json_array_get_element (array, step->index);
    }
}

static JsonNode *
scope_lookup (const WnLiteScope *scope,
              const char        *name)
{
  guint i;

  if (scope == NULL)
    return NULL;
  for (i = 0; i < scope->n_roots; i++)
    {
      if (scope->roots[i].node != NULL && g_strcmp0 (scope->roots[i].name, name) == 0)
        return scope->roots[i].node;
    }
  if (scope->variables != NULL)
    return json_object_get_member (scope->variables, name);
  return NULL;
}

/* Resolves `path` in `scope`. When it is dead, *failed_at is the index of the
 * step that failed (or -1 for the head) and *parent the last live node. */
static JsonNode *
resolve_path (const WnLiteScope *scope,
              const WnPath      *path,
              int               *failed_at,
              JsonNode         **parent)
{
  JsonNode *node = scope_lookup (scope, path->head);
  guint i;

  *failed_at = -1;
  *parent = NULL;
  for (i = 0; node != NULL && i < path->n_steps; i++)
    {
      JsonNode *next = step_node (node, &path->steps[i]);

      if (next == NULL)
        {
          *failed_at = (int) i;
          *parent = node;
        }
      node = next;
    }
  return node;
}

static void
node_to_value (JsonNode    *node,
               WnLiteValue *value)
{
  value->owned_str = FALSE;
  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
    case JSON_NODE_ARRAY:
      value->kind = WN_LITE_JSON;
      value->json = node;
      return;
    case JSON_NODE_NULL:
      value->kind = WN_LITE_NIL;
      return;
    case JSON_NODE_VALUE:
      break;
    default:
      g_assert_not_reached ();
    }

  switch (json_node_get_value_type (node))
    {
    case G_TYPE_INT64:
      value->kind = WN_LITE_NUMBER;
      value->num = (double) json_node_get_int (node);
      break;
    case G_TYPE_DOUBLE:
      value->kind = WN_LITE_NUMBER;
      value->num = json_node_get_double (node);
      break;
    case G_TYPE_BOOLEAN:
      value->kind = WN_LITE_BOOL;
      value->b = json_node_get_boolean (node);
      break;
    case G_TYPE_STRING:
      value->kind = WN_LITE_STRING;
      value->str = json_node_get_string (node);
      if (value->str == NULL)
        value->str = "";
      value->len = strlen (value->str);
      break;
    default:
      value->kind = WN_LITE_NIL;
      break;
    }
}

static const char *
json_kind_name (JsonNode *node)
{
  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      return "an object";
    case JSON_NODE_ARRAY:
      return "an array";
    case JSON_NODE_NULL:
      return "nil";
    case JSON_NODE_VALUE:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_STRING:
          return "a string";
        case G_TYPE_BOOLEAN:
          return "a boolean";
        default:
          return "a number";
        }
    default:
      g_assert_not_reached ();
    }
}

/* Evaluation */

static gboolean eval_node (const WnLite *lite, guint index, const WnLiteScope *scope,
                           WnLiteValue *out, GError **error);

static gboolean
eval_path (const WnLite      *lite,
           const Node        *node,
           const WnLiteScope *scope,
           WnLiteValue       *out,
           GError           **error)
{
  const WnPath *path = lite->paths->pdata[node->v.path];
  JsonNode *parent;
  JsonNode *found;
  int failed_at;

  found = resolve_path (scope, path, &failed_at, &parent);
  if (found != NULL)
    {
      node_to_value (found, out);
      return TRUE;
    }

  if (failed_at < 0)
    {
      g_autofree char *head = excerpt (path->head, strlen (path->head));

      set_eval_error (error, WN_LITE_ERROR_MISSING, node->offset, "unknown variable '%s'", head);
    }
  else
    {
      const WnPathStep *step = &path->steps[failed_at];
      g_autofree char *text = excerpt (lite->source + node->offset, node->aux);
      g_autofree char *key = step->kind == WN_PATH_KEY ? excerpt (step->key, strlen (step->key)) : NULL;
      g_autofree char *why = NULL;

      if (step->kind == WN_PATH_KEY && JSON_NODE_HOLDS_OBJECT (parent))
        why = g_strdup_printf ("no key '%s'", key);
      else if (step->kind == WN_PATH_INDEX && JSON_NODE_HOLDS_ARRAY (parent))
        why = g_strdup_printf ("no index %u in an array of %u",
                               step->index, json_array_get_length (json_node_get_array (parent)));
      else if (step->kind == WN_PATH_KEY)
        why = g_strdup_printf ("cannot read key '%s' of %s", key, json_kind_name (parent));
      else
        why = g_strdup_printf ("cannot read index %u of %s", step->index, json_kind_name (parent));

      set_eval_error (error, WN_LITE_ERROR_MISSING, node->offset, "dead path '%s': %s", text, why);
    }
  return FALSE;
}

static gboolean
values_equal (const WnLiteValue *a,
              const WnLiteValue *b)
{
  switch (a->kind)
    {
    case WN_LITE_NIL:
      return TRUE;
    case WN_LITE_BOOL:
      return !a->b == !b->b;
    case WN_LITE_NUMBER:
      return a->num == b->num;
    case WN_LITE_STRING:
      return a->len == b->len && memcmp (a->str, b->str, a->len) == 0;
    case WN_LITE_TIME:
      return a->time_us == b->time_us;
    case WN_LITE_JSON:
      return json_node_equal (a->json, b->json);
    default:
      g_assert_not_reached ();
    }
}

static gboolean
eval_compare (const Node        *node,
              const WnLiteValue *a,
              const WnLiteValue *b,
              WnLiteValue       *out,
              GError           **error)
{
  int cmp;

  if (a->kind != b->kind || (a->kind == WN_LITE_JSON && strcmp (kind_name (a), kind_name (b)) != 0))
    {
      set_eval_error (error, WN_LITE_ERROR_TYPE, node->offset,
                      "cannot compare %s with %s", kind_name (a), kind_name (b));
      return FALSE;
    }

  out->kind = WN_LITE_BOOL;
  out->owned_str = FALSE;

  if (node->op == OP_EQ || node->op == OP_NE)
    {
      out->b = values_equal (a, b) == (node->op == OP_EQ);
      return TRUE;
    }

  switch (a->kind)
    {
    case WN_LITE_NUMBER:
      switch (node->op)
        {
        case OP_LT:
          out->b = a->num < b->num;
          return TRUE;
        case OP_LE:
          out->b = a->num <= b->num;
          return TRUE;
        case OP_GT:
          out->b = a->num > b->num;
          return TRUE;
        case OP_GE:
          out->b = a->num >= b->num;
          return TRUE;
        default:
          g_assert_not_reached ();
        }
    case WN_LITE_STRING:
      cmp = memcmp (a->str, b->str, MIN (a->len, b->len));
      if (cmp == 0)
        cmp = a->len < b->len ? -1 : a->len > b->len ? 1 : 0;
      break;
    case WN_LITE_TIME:
      cmp = a->time_us < b->time_us ? -1 : a->time_us > b->time_us ? 1 : 0;
      break;
    case WN_LITE_NIL:
    case WN_LITE_BOOL:
    case WN_LITE_JSON:
    default:
      out->kind = WN_LITE_NIL;
      set_eval_error (error, WN_LITE_ERROR_TYPE, node->offset,
                      "expected numbers, strings or times for '%s' but found %s",
                      op_symbol (node->op), kind_name (a));
      return FALSE;
    }

  switch (node->op)
    {
    case OP_LT:
      out->b = cmp < 0;
      break;
    case OP_LE:
      out->b = cmp <= 0;
      break;
    case OP_GT:
      out->b = cmp > 0;
      break;
    case OP_GE:
      out->b = cmp >= 0;
      break;
    default:
      g_assert_not_reached ();
    }
  return TRUE;
}

static gboolean
eval_arith (const Node        *node,
            const WnLiteValue *a,
            const WnLiteValue *b,
            WnLiteValue       *out,
            GError           **error)
{
  if (node->op == OP_ADD && a->kind == WN_LITE_STRING && b->kind == WN_LITE_STRING)
    {
      char *joined;

      if (a->len + b->len > WN_LITE_MAX_STRING)
        {
          set_eval_error (error, WN_LITE_ERROR_LIMIT, node->offset,
                          "'+' would make a string of %" G_GSIZE_FORMAT " bytes, over the limit of %d",
                          a->len + b->len, WN_LITE_MAX_STRING);
          return FALSE;
        }
      joined = g_malloc (a->len + b->len + 1);

      memcpy (joined, a->str, a->len);
      memcpy (joined + a->len, b->str, b->len);
      joined[a->len + b->len] = '\0';
      out->kind = WN_LITE_STRING;
      out->owned_str = TRUE;
      out->str = joined;
      out->len = a->len + b->len;
      return TRUE;
    }

  if (a->kind != WN_LITE_NUMBER || b->kind != WN_LITE_NUMBER)
    {
      set_eval_error (error, WN_LITE_ERROR_TYPE, node->offset,
                      "expected two numbers%s for '%s' but found %s and %s",
                      node->op == OP_ADD ? " or two strings" : "",
                      op_symbol (node->op), kind_name (a), kind_name (b));
      return FALSE;
    }

  out->kind = WN_LITE_NUMBER;
  out->owned_str = FALSE;
  switch (node->op)
    {
    case OP_ADD:
      out->num = a->num + b->num;
      break;
    case OP_SUB:
      out->num = a->num - b->num;
      break;
    case OP_MUL:
      out->num = a->num * b->num;
      break;
    case OP_DIV:
    case OP_MOD:
      if (b->num == 0)
        {
          out->kind = WN_LITE_NIL;
          set_eval_error (error, WN_LITE_ERROR_DIVISION, node->offset,
                          "expected a non-zero divisor for '%s' but found 0",
                          op_symbol (node->op));
          return FALSE;
        }
      out->num = node->op == OP_DIV ? a->num / b->num : fmod (a->num, b->num);
      break;
    default:
      g_assert_not_reached ();
    }
  return TRUE;
}

static gboolean
eval_builtin (const WnLite      *lite,
              const Node        *node,
              const WnLiteScope *scope,
              WnLiteValue       *out,
              GError           **error)
{
  WnLiteValue arg;
  gboolean ok = TRUE;

  if (!eval_node (lite, node->lhs, scope, &arg, error))
    return FALSE;

  if (node->op == OP_LEN)
    {
      out->kind = WN_LITE_NUMBER;
      out->owned_str = FALSE;
      if (arg.kind == WN_LITE_STRING)
        out->num = (double) g_utf8_strlen (arg.str, (gssize) arg.len);
      else if (arg.kind == WN_LITE_JSON && JSON_NODE_HOLDS_ARRAY (arg.json))
        out->num = json_array_get_length (json_node_get_array (arg.json));
      else if (arg.kind == WN_LITE_JSON)
        out->num = json_object_get_size (json_node_get_object (arg.json));
      else
        {
          out->kind = WN_LITE_NIL;
          set_eval_error (error, WN_LITE_ERROR_TYPE, node->aux,
                          "expected a string, array or object for len() but found %s",
                          kind_name (&arg));
          ok = FALSE;
        }
    }
  else
    {
      g_assert (node->op == OP_TIME);

      out->kind = WN_LITE_TIME;
      out->owned_str = FALSE;
      if (arg.kind != WN_LITE_STRING)
        {
          out->kind = WN_LITE_NIL;
          set_eval_error (error, WN_LITE_ERROR_TYPE, node->aux,
                          "expected a string for time() but found %s", kind_name (&arg));
          ok = FALSE;
        }
      else if (strlen (arg.str) != arg.len || !_wn_lite_parse_time (arg.str, &out->time_us))
        {
          g_autofree char *text = excerpt (arg.str, strlen (arg.str));

          out->kind = WN_LITE_NIL;
          set_eval_error (error, WN_LITE_ERROR_VALUE, node->aux,
                          "expected an RFC 3339 time for time() but found '%s'", text);
          ok = FALSE;
        }
    }

  wn_lite_value_clear (&arg);
  return ok;
}

static gboolean
eval_node (const WnLite      *lite,
           guint              index,
           const WnLiteScope *scope,
           WnLiteValue       *out,
           GError           **error)
{
  const Node *node = &lite->nodes[index];
  WnLiteValue a;
  WnLiteValue b;
  gboolean ok;

  out->kind = WN_LITE_NIL;
  out->owned_str = FALSE;

  switch (node->op)
    {
    case OP_NUMBER:
      out->kind = WN_LITE_NUMBER;
      out->num = node->v.num;
      return TRUE;

    case OP_STRING:
      out->kind = WN_LITE_STRING;
      out->str = node->v.s.str;
      out->len = node->v.s.len;
      return TRUE;

    case OP_BOOL:
      out->kind = WN_LITE_BOOL;
      out->b = node->v.b;
      return TRUE;

    case OP_NIL:
      return TRUE;

    case OP_TIME_CONST:
      out->kind = WN_LITE_TIME;
      out->time_us = node->v.time_us;
      return TRUE;

    case OP_PATH:
      return eval_path (lite, node, scope, out, error);

    case OP_HAS:
      {
        JsonNode *parent;
        int failed_at;

        out->kind = WN_LITE_BOOL;
        out->b = resolve_path (scope, lite->paths->pdata[node->v.path], &failed_at, &parent) != NULL;
        return TRUE;
      }

    case OP_LEN:
    case OP_TIME:
      return eval_builtin (lite, node, scope, out, error);

    case OP_NEG:
      if (!eval_node (lite, node->lhs, scope, &a, error))
        return FALSE;
      if (a.kind != WN_LITE_NUMBER)
        {
          set_eval_error (error, WN_LITE_ERROR_TYPE, node->offset,
                          "expected a number for unary '-' but found %s", kind_name (&a));
          wn_lite_value_clear (&a);
          return FALSE;
        }
      out->kind = WN_LITE_NUMBER;
      out->num = -a.num;
      return TRUE;

    case OP_NOT:
      if (!eval_node (lite, node->lhs, scope, &a, error))
        return FALSE;
      if (a.kind != WN_LITE_BOOL)
        {
          set_eval_error (error, WN_LITE_ERROR_TYPE, node->offset,
                          "expected a boolean for 'not' but found %s", kind_name (&a));
          wn_lite_value_clear (&a);
          return FALSE;
        }
      out->kind = WN_LITE_BOOL;
      out->b = !a.b;
      return TRUE;

    case OP_AND:
    case OP_OR:
      {
        /* `and` stops on false, `or` on true. */
        gboolean stop_on = node->op == OP_OR;

        if (!eval_node (lite, node->lhs, scope, &a, error))
          return FALSE;
        if (a.kind != WN_LITE_BOOL)
          {
            set_eval_error (error, WN_LITE_ERROR_TYPE, node->offset,
                            "expected a boolean on the left of '%s' but found %s",
                            op_symbol (node->op), kind_name (&a));
            wn_lite_value_clear (&a);
            return FALSE;
          }
        if (!a.b == !stop_on)
          {
            out->kind = WN_LITE_BOOL;
            out->b = stop_on;
            return TRUE;
          }
        if (!eval_node (lite, node->rhs, scope, &b, error))
          return FALSE;
        if (b.kind != WN_LITE_BOOL)
          {
            set_eval_error (error, WN_LITE_ERROR_TYPE, node->offset,
                            "expected a boolean on the right of '%s' but found %s",
                            op_symbol (node->op), kind_name (&b));
            wn_lite_value_clear (&b);
            return FALSE;
          }
        out->kind = WN_LITE_BOOL;
        out->b = !!b.b;
        return TRUE;
      }

    case OP_EQ:
    case OP_NE:
    case OP_LT:
    case OP_LE:
    case OP_GT:
    case OP_GE:
    case OP_ADD:
    case OP_SUB:
    case OP_MUL:
    case OP_DIV:
    case OP_MOD:
      if (!eval_node (lite, node->lhs, scope, &a, error))
        return FALSE;
      if (!eval_node (lite, node->rhs, scope, &b, error))
        {
          wn_lite_value_clear (&a);
          return FALSE;
        }
      if (node->op >= OP_ADD)
        ok = eval_arith (node, &a, &b, out, error);
      else
        ok = eval_compare (node, &a, &b, out, error);
      wn_lite_value_clear (&a);
      wn_lite_value_clear (&b);
      return ok;

    default:
      g_assert_not_reached ();
    }
}

static JsonNode *
json_deep_copy (JsonNode *node)
{
  JsonNode *copy;

  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *src = json_node_get_object (node);
        g_autoptr(JsonObject) dst = json_object_new ();
        g_autoptr(GList) members = json_object_get_members (src);
        GList *l;

        for (l = members; l != NULL; l = l->next)
          json_object_set_member (dst, l->data, json_deep_copy (json_object_get_member (src, l->data)));
        copy = json_node_new (JSON_NODE_OBJECT);
        json_node_set_object (copy, dst);
        return copy;
      }
    case JSON_NODE_ARRAY:
      {
        JsonArray *src = json_node_get_array (node);
        guint n = json_array_get_length (src);
        g_autoptr(JsonArray) dst = json_array_sized_new (n);
        guint i;

        for (i = 0; i < n; i++)
          json_array_add_element (dst, json_deep_copy (json_array_get_element (src, i)));
        copy = json_node_new (JSON_NODE_ARRAY);
        json_node_set_array (copy, dst);
        return copy;
      }
    case JSON_NODE_VALUE:
    case JSON_NODE_NULL:
      return json_node_copy (node);
    default:
      g_assert_not_reached ();
    }
}

/* Public API: values */

void
wn_lite_value_clear (WnLiteValue *value)
{
  g_return_if_fail (value != NULL);

  if (value->kind == WN_LITE_STRING && value->owned_str)
    g_free ((char *) value->str);
  value->kind = WN_LITE_NIL;
  value->owned_str = FALSE;
}

JsonNode *
wn_lite_value_to_json (const WnLiteValue *value)
{
  JsonNode *node;

  g_return_val_if_fail (value != NULL, NULL);

  switch (value->kind)
    {
    case WN_LITE_NIL:
      return json_node_new (JSON_NODE_NULL);

    case WN_LITE_BOOL:
      node = json_node_new (JSON_NODE_VALUE);
      json_node_set_boolean (node, value->b);
      return node;

    case WN_LITE_NUMBER:
      node = json_node_new (JSON_NODE_VALUE);
      /* Whole numbers go out as JSON integers, as they usually came in. */
      if (value->num == floor (value->num) && fabs (value->num) <= 9007199254740992.0)
        json_node_set_int (node, (gint64) value->num);
      else
        json_node_set_double (node, value->num);
      return node;

    case WN_LITE_STRING:
      {
        g_autofree char *text = g_strndup (value->str, value->len);

        node = json_node_new (JSON_NODE_VALUE);
        json_node_set_string (node, text);
        return node;
      }

    case WN_LITE_TIME:
      {
        gint64 secs = value->time_us / G_USEC_PER_SEC;
        gint64 usecs = value->time_us % G_USEC_PER_SEC;
        g_autoptr(GDateTime) whole = NULL;
        g_autoptr(GDateTime) dt = NULL;
        g_autofree char *text = NULL;

        if (usecs < 0)
          {
            usecs += G_USEC_PER_SEC;
            secs--;
          }
        whole = g_date_time_new_from_unix_utc (secs);
        if (whole != NULL)
          dt = g_date_time_add (whole, usecs);
        if (dt != NULL)
          text = g_date_time_format_iso8601 (dt);
        node = json_node_new (JSON_NODE_VALUE);
        json_node_set_string (node, text != NULL ? text : "");
        return node;
      }

    case WN_LITE_JSON:
      return json_deep_copy (value->json);

    default:
      g_return_val_if_reached (NULL);
    }
}

/* Public API: expressions */

WnLite *
wn_lite_compile (const char  *source,
                 gsize       *error_offset,
                 GError     **error)
{
  g_autoptr(GArray) nodes = NULL;
  g_autoptr(GPtrArray) strings = NULL;
  g_autoptr(GPtrArray) paths = NULL;
  Parser p = { 0, };
  const char *bad;
  WnLite *lite;
  guint root = 0;
  gboolean ok;

  g_return_val_if_fail (source != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  nodes = g_array_new (FALSE, FALSE, sizeof (Node));
  strings = g_ptr_array_new_with_free_func (g_free);
  paths = g_ptr_array_new_with_free_func ((GDestroyNotify) wn_path_free);

  p.src = source;
  p.nodes = nodes;
  p.strings = strings;
  p.paths = paths;

  if (!g_utf8_validate (source, -1, &bad))
    {
      fault_set (&p.fault, (gsize) (bad - source), "expected valid UTF-8 but found byte 0x%02x",
                 (guint) (guchar) *bad);
      ok = FALSE;
    }
  else if (strlen (source) >= G_MAXUINT / 2)
    {
      fault_set (&p.fault, 0, "expected an expression shorter than %u bytes", G_MAXUINT / 2);
      ok = FALSE;
    }
  else
    {
      ok = lex (source, 0, &p.tok, &p.fault) && parse_or (&p, &root);
      if (ok && p.tok.kind != TOK_END)
        ok = fail_expected (&p, "an operator or end of input");
    }

  if (!ok)
    {
      if (error_offset != NULL)
        *error_offset = p.fault.offset;
      fault_propagate (&p.fault, error);
      return NULL;
    }

  /* The root is always the last node emitted. */
  g_assert (root == nodes->len - 1);

  lite = g_new0 (WnLite, 1);
  g_atomic_ref_count_init (&lite->ref_count);
  lite->source = g_strdup (source);
  lite->n_nodes = nodes->len;
  lite->nodes = (Node *) (void *) g_array_free (g_steal_pointer (&nodes), FALSE);
  lite->strings = g_steal_pointer (&strings);
  lite->paths = g_steal_pointer (&paths);
  return lite;
}

WnLite *
wn_lite_ref (WnLite *lite)
{
  g_return_val_if_fail (lite != NULL, NULL);

  g_atomic_ref_count_inc (&lite->ref_count);
  return lite;
}

void
wn_lite_unref (WnLite *lite)
{
  g_return_if_fail (lite != NULL);

  if (!g_atomic_ref_count_dec (&lite->ref_count))
    return;

  g_free (lite->source);
  g_free (lite->nodes);
  g_ptr_array_unref (lite->strings);
  g_ptr_array_unref (lite->paths);
  g_free (lite);
}

const char *
wn_lite_get_source (const WnLite *lite)
{
  g_return_val_if_fail (lite != NULL, NULL);

  return lite->source;
}

gboolean
wn_lite_eval (const WnLite      *lite,
              const WnLiteScope *scope,
              WnLiteValue       *result,
              GError           **error)
{
  const Node *root;

  g_return_val_if_fail (result != NULL, FALSE);
  result->kind = WN_LITE_NIL;
  result->owned_str = FALSE;
  g_return_val_if_fail (lite != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!eval_node (lite, lite->n_nodes - 1, scope, result, error))
    {
      wn_lite_value_clear (result);
      return FALSE;
    }

  if (result->kind == WN_LITE_NIL)
    {
      root = &lite->nodes[lite->n_nodes - 1];
      set_eval_error (error, WN_LITE_ERROR_NIL, root->offset,
                      "expected a value but the expression yielded nil");
      return FALSE;
    }
  return TRUE;
}

gboolean
wn_lite_eval_bool (const WnLite      *lite,
                   const WnLiteScope *scope,
                   gboolean          *result,
                   GError           **error)
{
  WnLiteValue value;

  g_return_val_if_fail (lite != NULL, FALSE);
  g_return_val_if_fail (result != NULL, FALSE);

  if (!wn_lite_eval (lite, scope, &value, error))
    return FALSE;

  if (value.kind != WN_LITE_BOOL)
    {
      set_eval_error (error, WN_LITE_ERROR_TYPE, 0,
                      "expected a boolean but found %s", kind_name (&value));
      wn_lite_value_clear (&value);
      return FALSE;
    }

  *result = value.b;
  return TRUE;
}

JsonNode *
wn_lite_eval_json (const WnLite      *lite,
                   const WnLiteScope *scope,
                   GError           **error)
{
  WnLiteValue value;
  JsonNode *node;

  g_return_val_if_fail (lite != NULL, NULL);

  if (!wn_lite_eval (lite, scope, &value, error))
    return NULL;

  node = wn_lite_value_to_json (&value);
  wn_lite_value_clear (&value);
  return node;
}

/* Public API: structural paths */

WnPath *
wn_path_parse (const char  *source,
               GError     **error)
{
  Fault fault = { 0, NULL };
  WnPath *path;

  g_return_val_if_fail (source != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  path = parse_whole_path (source, &fault);
  if (path == NULL)
    fault_propagate (&fault, error);
  return path;
}

void
wn_path_free (WnPath *path)
{
  guint i;

  if (path == NULL)
    return;

  for (i = 0; i < path->n_steps; i++)
    g_free (path->steps[i].key);
  g_free (path->steps);
  g_free (path->head);
  g_free (path);
}

JsonNode *
wn_path_lookup (const WnPath *path,
                JsonObject   *roots)
{
  JsonNode *node;
  guint i;

  g_return_val_if_fail (path != NULL, NULL);

  if (roots == NULL)
    return NULL;

  node = json_object_get_member (roots, path->head);
  for (i = 0; node != NULL && i < path->n_steps; i++)
    node = step_node (node, &path->steps[i]);
  return node;
}

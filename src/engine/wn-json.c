/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-json.c — a strict JSON reader that records positions.
 *
 * Recursive descent over the bytes of a document already checked to be UTF-8.
 * Every value's start and every key's opening quote is recorded; the columns
 * count characters, not bytes.
 */
#include "wn-json.h"

#include <errno.h>
#include <math.h>
#include <string.h>

typedef struct {
  const char *key;       /* in the document's key chunk */
  WnJsonPos   pos;
} MemberInfo;

typedef struct {
  JsonNode  *node;
  WnJsonPos  pos;
} NodePos;

/* One allocation per object, made when the object closes. */
typedef struct {
  guint        n_members;
  const char **keys;       /* NULL-terminated, document order; in this block */
  GHashTable  *index;      /* key → GUINT_TO_POINTER (i + 1), built on demand for big objects */
  MemberInfo   members[];  /* document order */
} ObjectInfo;

struct _WnJsonDoc {
  char       *text;        /* a copy of the document */
  gsize       length;
  JsonNode   *root;
  GArray     *positions;   /* NodePos, in document order */
  GHashTable *node_pos;    /* JsonNode* → GUINT_TO_POINTER (i + 1) into positions; built
                            * on the first lookup, which only a diagnostic makes */
  GHashTable *objects;     /* JsonObject* → ObjectInfo* */
  GStringChunk *keys;      /* the member names of every object */
};

typedef struct {
  WnJsonDoc  *doc;
  const char *start;
  const char *p;
  const char *end;
  guint       line;
  guint       column;
  guint       depth;
  WnJsonPos   error_pos;
  GError     *error;
  GString    *scratch;     /* parse_string() decodes here, one string at a time */
  GArray     *members;     /* MemberInfo of the objects being parsed, innermost last */
} Parser;

G_DEFINE_QUARK (wn-json-error-quark, wn_json_error)

/* Objects with more members than this get a hash index on first lookup. */
#define LINEAR_LOOKUP_MAX 16

/* The members `first` … `n` of the parser's stack, as one block. */
static ObjectInfo *
object_info_new (const MemberInfo *first,
                 guint             n)
{
  gsize members_size = n * sizeof (MemberInfo);
  ObjectInfo *info = g_malloc (sizeof (ObjectInfo) + members_size + (n + 1) * sizeof (const char *));

  info->n_members = n;
  info->index = NULL;
  if (n > 0)
    memcpy (info->members, first, members_size);
  info->keys = (const char **) ((char *) info->members + members_size);
  for (guint i = 0; i < n; i++)
    info->keys[i] = first[i].key;
  info->keys[n] = NULL;
  return info;
}

static void
object_info_free (gpointer data)
{
  ObjectInfo *info = data;

  g_clear_pointer (&info->index, g_hash_table_unref);
  g_free (info);
}

/* The index of `key` among the members, or -1. */
static int
object_info_find (ObjectInfo *info, const char *key)
{
  guint n = info->n_members;

  if (n <= LINEAR_LOOKUP_MAX)
    {
      for (guint i = 0; i < n; i++)
        if (strcmp (info->members[i].key, key) == 0)
          return (int) i;
      return -1;
    }

  if (info->index == NULL)
    {
      info->index = g_hash_table_new (g_str_hash, g_str_equal);
      for (guint i = 0; i < n; i++)
        g_hash_table_insert (info->index, (gpointer) info->members[i].key, GUINT_TO_POINTER (i + 1));
    }
  return (int) GPOINTER_TO_UINT (g_hash_table_lookup (info->index, key)) - 1;
}

static inline WnJsonPos
here (const Parser *ps)
{
  WnJsonPos pos = { ps->line, ps->column, (gsize) (ps->p - ps->start) };

  return pos;
}

static inline void
advance (Parser *ps)
{
  guchar c = (guchar) *ps->p++;

  if (c == '\n')
    {
      ps->line++;
      ps->column = 1;
    }
  else if ((c & 0xC0) != 0x80)
    {
      ps->column++;
    }
}

static inline void
skip_ws (Parser *ps)
{
  while (ps->p < ps->end)
    {
      char c = *ps->p;

      if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
        break;
      advance (ps);
    }
}

static inline gboolean
is_word_char (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

/* What is at the current position, for "expected X but found Y". */
static char *
describe_found (const Parser *ps)
{
  const char *p = ps->p;
  gunichar ch;

  if (p >= ps->end)
    return g_strdup ("end of input");

  if (is_word_char (*p))
    {
      const char *q = p;

      while (q < ps->end && is_word_char (*q) && q - p < 24)
        q++;
      if (q < ps->end && is_word_char (*q))
        return g_strdup_printf ("'%.*s…'", (int) (q - p), p);
      return g_strdup_printf ("'%.*s'", (int) (q - p), p);
    }

  ch = g_utf8_get_char (p);
  if (ch < 0x80 && g_ascii_isgraph ((char) ch))
    return g_strdup_printf ("'%c'", (char) ch);
  if (ch >= 0x80 && g_unichar_isgraph (ch))
    return g_strdup_printf ("'%.*s'", (int) g_utf8_skip[(guchar) *p], p);
  return g_strdup_printf ("U+%04X", ch);
}

static void fail_at (Parser *ps, const WnJsonPos *pos, WnJsonError code,
                     const char *format, ...) G_GNUC_PRINTF (4, 5);

static void
fail_at (Parser          *ps,
         const WnJsonPos *pos,
         WnJsonError      code,
         const char      *format,
         ...)
{
  va_list args;

  if (ps->error != NULL)
    return;

  va_start (args, format);
  ps->error = g_error_new_valist (WN_JSON_ERROR, code, format, args);
  va_end (args);
  ps->error_pos = *pos;
}

/* "expected <what> but found <whatever is here>" at the current position. */
static void
fail_expected (Parser *ps, const char *what)
{
  g_autofree char *found = describe_found (ps);
  WnJsonPos pos = here (ps);

  fail_at (ps, &pos, WN_JSON_ERROR_SYNTAX, "expected %s but found %s", what, found);
}

static void
record_node (Parser *ps, JsonNode *node, const WnJsonPos *pos)
{
  NodePos entry = { node, *pos };

  g_array_append_val (ps->doc->positions, entry);
}

static int
hex_value (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* At the first of four hex digits. */
static gboolean
read_hex4 (Parser *ps, gunichar *out)
{
  gunichar value = 0;

  for (int i = 0; i < 4; i++)
    {
      int h = ps->p < ps->end ? hex_value (*ps->p) : -1;

      if (h < 0)
        {
          fail_expected (ps, "a hex digit");
          return FALSE;
        }
      value = (value << 4) | (gunichar) h;
      advance (ps);
    }
  *out = value;
  return TRUE;
}

/* At the opening quote. Returns the decoded string, or NULL. It lives in the
 * parser's scratch buffer: valid until the next call (the callers copy it). */
static const char *
parse_string (Parser *ps)
{
  GString *out = ps->scratch;

  g_string_truncate (out, 0);
  advance (ps);   /* the opening quote */

  for (;;)
    {
      const char *run = ps->p;
      guchar c;

      while (ps->p < ps->end)
        {
          c = (guchar) *ps->p;
          if (c == '"' || c == '\\' || c < 0x20)
            break;
          advance (ps);
        }
      g_string_append_len (out, run, ps->p - run);

      if (ps->p >= ps->end)
        {
          fail_expected (ps, "'\"'");
          goto error;
        }

      c = (guchar) *ps->p;
      if (c == '"')
        {
          advance (ps);
          return out->str;
        }

      if (c < 0x20)
        {
          WnJsonPos pos = here (ps);

          fail_at (ps, &pos, WN_JSON_ERROR_SYNTAX,
                   "control character U+%04X in a string (write it as an escape)", c);
          goto error;
        }

      /* An escape. */
      {
        WnJsonPos esc_pos = here (ps);
        gunichar ch;

        advance (ps);   /* the backslash */
        if (ps->p >= ps->end)
          {
            fail_expected (ps, "an escape character");
            goto error;
          }

        switch (*ps->p)
          {
          case '"':  g_string_append_c (out, '"');  advance (ps); continue;
          case '\\': g_string_append_c (out, '\\'); advance (ps); continue;
          case '/':  g_string_append_c (out, '/');  advance (ps); continue;
          case 'b':  g_string_append_c (out, '\b'); advance (ps); continue;
          case 'f':  g_string_append_c (out, '\f'); advance (ps); continue;
          case 'n':  g_string_append_c (out, '\n'); advance (ps); continue;
          case 'r':  g_string_append_c (out, '\r'); advance (ps); continue;
          case 't':  g_string_append_c (out, '\t'); advance (ps); continue;
          case 'u':
            advance (ps);
            if (!read_hex4 (ps, &ch))
              goto error;
            break;
          default:
            {
              gunichar bad = g_utf8_get_char (ps->p);

              if (bad < 0x80 && g_ascii_isgraph ((char) bad))
                fail_at (ps, &esc_pos, WN_JSON_ERROR_SYNTAX, "invalid escape '\\%c'", (char) bad);
              else
                fail_at (ps, &esc_pos, WN_JSON_ERROR_SYNTAX, "invalid escape '\\' + U+%04X", bad);
              goto error;
            }
          }

        if (ch >= 0xDC00 && ch <= 0xDFFF)
          {
            fail_at (ps, &esc_pos, WN_JSON_ERROR_SYNTAX,
                     "unpaired surrogate \\u%04X", ch);
            goto error;
          }
        if (ch >= 0xD800 && ch <= 0xDBFF)
          {
            gunichar low;

            if (ps->end - ps->p < 2 || ps->p[0] != '\\' || ps->p[1] != 'u')
              {
                fail_at (ps, &esc_pos, WN_JSON_ERROR_SYNTAX,
                         "unpaired surrogate \\u%04X", ch);
                goto error;
              }
            advance (ps);
            advance (ps);
            if (!read_hex4 (ps, &low))
              goto error;
            if (low < 0xDC00 || low > 0xDFFF)
              {
                fail_at (ps, &esc_pos, WN_JSON_ERROR_SYNTAX,
                         "unpaired surrogate \\u%04X", ch);
                goto error;
              }
            ch = 0x10000 + ((ch - 0xD800) << 10) + (low - 0xDC00);
          }
        if (ch == 0)
          {
            fail_at (ps, &esc_pos, WN_JSON_ERROR_SYNTAX,
                     "\\u0000 is not supported in strings");
            goto error;
          }
        g_string_append_unichar (out, ch);
      }
    }

error:
  return NULL;
}

static gboolean
at_digit (const Parser *ps)
{
  return ps->p < ps->end && g_ascii_isdigit (*ps->p);
}

static JsonNode *
parse_number (Parser *ps)
{
  WnJsonPos pos = here (ps);
  const char *begin = ps->p;
  gboolean integral = TRUE;
  g_autofree char *text = NULL;
  JsonNode *node;
  double d;

  if (*ps->p == '-')
    advance (ps);

  if (ps->p < ps->end && *ps->p == '0')
    {
      advance (ps);
      if (at_digit (ps))
        {
          fail_at (ps, &pos, WN_JSON_ERROR_SYNTAX, "a number cannot start with 0 followed by digits");
          return NULL;
        }
    }
  else if (at_digit (ps))
    {
      while (at_digit (ps))
        advance (ps);
    }
  else
    {
      fail_expected (ps, "a digit");
      return NULL;
    }

  if (ps->p < ps->end && *ps->p == '.')
    {
      integral = FALSE;
      advance (ps);
      if (!at_digit (ps))
        {
          fail_expected (ps, "a digit after '.'");
          return NULL;
        }
      while (at_digit (ps))
        advance (ps);
    }

  if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E'))
    {
      integral = FALSE;
      advance (ps);
      if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-'))
        advance (ps);
      if (!at_digit (ps))
        {
          fail_expected (ps, "a digit in the exponent");
          return NULL;
        }
      while (at_digit (ps))
        advance (ps);
    }

  text = g_strndup (begin, ps->p - begin);
  node = json_node_alloc ();

  if (integral)
    {
      gint64 v;

      errno = 0;
      v = g_ascii_strtoll (text, NULL, 10);
      if (errno == 0)
        {
          json_node_init_int (node, v);
          record_node (ps, node, &pos);
          return node;
        }
    }

  errno = 0;
  d = g_ascii_strtod (text, NULL);
  if (!isfinite (d))
    {
      json_node_unref (node);
      fail_at (ps, &pos, WN_JSON_ERROR_RANGE, "number %s is out of range", text);
      return NULL;
    }
  json_node_init_double (node, d);
  record_node (ps, node, &pos);
  return node;
}

static JsonNode *
parse_literal (Parser *ps, const char *expected)
{
  WnJsonPos pos = here (ps);
  const char *begin = ps->p;
  gsize len = 0;
  JsonNode *node;

  while (begin + len < ps->end && is_word_char (begin[len]))
    len++;

  if (len == 4 && memcmp (begin, "true", 4) == 0)
    node = json_node_init_boolean (json_node_alloc (), TRUE);
  else if (len == 5 && memcmp (begin, "false", 5) == 0)
    node = json_node_init_boolean (json_node_alloc (), FALSE);
  else if (len == 4 && memcmp (begin, "null", 4) == 0)
    node = json_node_init_null (json_node_alloc ());
  else
    {
      fail_expected (ps, expected);
      return NULL;
    }

  for (gsize i = 0; i < len; i++)
    advance (ps);
  record_node (ps, node, &pos);
  return node;
}

static JsonNode *parse_value (Parser *ps, const char *expected);

static gboolean
enter (Parser *ps)
{
  if (ps->depth >= WN_JSON_MAX_DEPTH)
    {
      WnJsonPos pos = here (ps);

      fail_at (ps, &pos, WN_JSON_ERROR_TOO_DEEP,
               "nesting deeper than %d levels", WN_JSON_MAX_DEPTH);
      return FALSE;
    }
  ps->depth++;
  return TRUE;
}

static JsonNode *
parse_object (Parser *ps)
{
  WnJsonPos pos = here (ps);
  JsonObject *object;
  JsonNode *node;
  guint base = ps->members->len;   /* this object's members are pushed above */
  gboolean after_comma = FALSE;

  if (!enter (ps))
    return NULL;
  advance (ps);   /* { */

  object = json_object_new ();
  node = json_node_init_object (json_node_alloc (), object);
  json_object_unref (object);
  record_node (ps, node, &pos);

  skip_ws (ps);
  if (ps->p < ps->end && *ps->p == '}')
    {
      advance (ps);
      ps->depth--;
      g_hash_table_insert (ps->doc->objects, object, object_info_new (NULL, 0));
      return node;
    }

  for (;;)
    {
      WnJsonPos key_pos;
      const char *key;
      JsonNode *value;

      if (ps->p >= ps->end || *ps->p != '"')
        {
          fail_expected (ps, after_comma ? "a string key" : "a string key or '}'");
          goto error;
        }
      key_pos = here (ps);
      if (parse_string (ps) == NULL)
        goto error;
      /* the value's strings reuse the scratch buffer: keep the key apart */
      key = g_string_chunk_insert_len (ps->doc->keys, ps->scratch->str, (gssize) ps->scratch->len);

      if (json_object_has_member (object, key))
        {
          const WnJsonPos *first = &key_pos;

          for (guint i = base; i < ps->members->len; i++)
            if (strcmp (g_array_index (ps->members, MemberInfo, i).key, key) == 0)
              {
                first = &g_array_index (ps->members, MemberInfo, i).pos;
                break;
              }
          fail_at (ps, &key_pos, WN_JSON_ERROR_DUPLICATE_KEY,
                   "duplicate key \"%s\" (first at %u:%u)", key, first->line, first->column);
          goto error;
        }

      skip_ws (ps);
      if (ps->p >= ps->end || *ps->p != ':')
        {
          fail_expected (ps, "':'");
          goto error;
        }
      advance (ps);
      skip_ws (ps);

      value = parse_value (ps, "a value");
      if (value == NULL)
        goto error;
      json_object_set_member (object, key, value);
      {
        MemberInfo member = { key, key_pos };

        g_array_append_val (ps->members, member);
      }

      skip_ws (ps);
      if (ps->p < ps->end && *ps->p == ',')
        {
          advance (ps);
          skip_ws (ps);
          after_comma = TRUE;
          continue;
        }
      if (ps->p < ps->end && *ps->p == '}')
        {
          advance (ps);
          break;
        }
      fail_expected (ps, "',' or '}'");
      goto error;
    }

  ps->depth--;
  g_hash_table_insert (ps->doc->objects, object,
                       object_info_new (&g_array_index (ps->members, MemberInfo, base), ps->members->len - base));
  g_array_set_size (ps->members, base);
  return node;

error:
  g_array_set_size (ps->members, base);
  json_node_unref (node);
  return NULL;
}

static JsonNode *
parse_array (Parser *ps)
{
  WnJsonPos pos = here (ps);
  JsonArray *array;
  JsonNode *node;

  if (!enter (ps))
    return NULL;
  advance (ps);   /* [ */

  array = json_array_new ();
  node = json_node_init_array (json_node_alloc (), array);
  json_array_unref (array);
  record_node (ps, node, &pos);

  skip_ws (ps);
  if (ps->p < ps->end && *ps->p == ']')
    {
      advance (ps);
      ps->depth--;
      return node;
    }

  for (gboolean first = TRUE;; first = FALSE)
    {
      JsonNode *value = parse_value (ps, first ? "a value or ']'" : "a value");

      if (value == NULL)
        goto error;
      json_array_add_element (array, value);

      skip_ws (ps);
      if (ps->p < ps->end && *ps->p == ',')
        {
          advance (ps);
          skip_ws (ps);
          continue;
        }
      if (ps->p < ps->end && *ps->p == ']')
        {
          advance (ps);
          break;
        }
      fail_expected (ps, "',' or ']'");
      goto error;
    }

  ps->depth--;
  return node;

error:
  json_node_unref (node);
  return NULL;
}

static JsonNode *
parse_value (Parser *ps, const char *expected)
{
  if (ps->p >= ps->end)
    {
      fail_expected (ps, expected);
      return NULL;
    }

  switch (*ps->p)
    {
    case '{':
      return parse_object (ps);
    case '[':
      return parse_array (ps);
    case '"':
      {
        WnJsonPos pos = here (ps);
        const char *text = parse_string (ps);
        JsonNode *node;

        if (text == NULL)
          return NULL;
        node = json_node_init_string (json_node_alloc (), text);
        record_node (ps, node, &pos);
        return node;
      }
    case '-':
    case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
      return parse_number (ps);
    case 't':
    case 'f':
    case 'n':
      return parse_literal (ps, expected);
    default:
      fail_expected (ps, expected);
      return NULL;
    }
}

static void
position_of (const char *start, const char *at, WnJsonPos *pos)
{
  Parser ps = { 0 };

  ps.start = start;
  ps.p = start;
  ps.end = at;
  ps.line = 1;
  ps.column = 1;
  if (at - start >= 3 && memcmp (start, "\xEF\xBB\xBF", 3) == 0)
    ps.p += 3;
  while (ps.p < at)
    advance (&ps);
  *pos = here (&ps);
}

WnJsonDoc *
wn_json_doc_parse (const char *data,
                   gssize      length,
                   WnJsonPos  *error_pos,
                   GError    **error)
{
  WnJsonDoc *doc;
  Parser ps = { 0 };
  const char *bad = NULL;
  gsize len;

  g_return_val_if_fail (data != NULL || length == 0, NULL);

  len = length < 0 ? strlen (data) : (gsize) length;

  if (!g_utf8_validate_len (data ? data : "", len, &bad))
    {
      WnJsonPos pos;

      position_of (data, bad, &pos);
      if (error_pos != NULL)
        *error_pos = pos;
      if (*bad == '\0')
        g_set_error_literal (error, WN_JSON_ERROR, WN_JSON_ERROR_ENCODING,
                             "NUL byte in the document");
      else
        g_set_error (error, WN_JSON_ERROR, WN_JSON_ERROR_ENCODING,
                     "invalid UTF-8 (byte 0x%02X)", (guchar) *bad);
      return NULL;
    }

  doc = g_new0 (WnJsonDoc, 1);
  doc->text = g_malloc (len + 1);
  if (len > 0)
    memcpy (doc->text, data, len);
  doc->text[len] = '\0';
  doc->length = len;
  doc->positions = g_array_sized_new (FALSE, FALSE, sizeof (NodePos), MAX (len / 16, 16));
  doc->objects = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, object_info_free);
  doc->keys = g_string_chunk_new (MAX (len / 4, 256));

  ps.doc = doc;
  ps.scratch = g_string_sized_new (256);
  ps.members = g_array_sized_new (FALSE, FALSE, sizeof (MemberInfo), 64);
  ps.start = doc->text;
  ps.p = doc->text;
  ps.end = doc->text + len;
  ps.line = 1;
  ps.column = 1;

  if (len >= 3 && memcmp (ps.p, "\xEF\xBB\xBF", 3) == 0)
    ps.p += 3;

  skip_ws (&ps);
  doc->root = parse_value (&ps, "a value");
  if (doc->root != NULL)
    {
      skip_ws (&ps);
      if (ps.p < ps.end)
        fail_expected (&ps, "end of input");
    }

  g_string_free (ps.scratch, TRUE);
  g_array_unref (ps.members);
  if (ps.error != NULL)
    {
      if (error_pos != NULL)
        *error_pos = ps.error_pos;
      g_propagate_error (error, ps.error);
      wn_json_doc_free (doc);
      return NULL;
    }

  return doc;
}

void
wn_json_doc_free (WnJsonDoc *doc)
{
  if (doc == NULL)
    return;

  /* The side tables only hold pointers as keys: drop them before the tree. */
  g_clear_pointer (&doc->node_pos, g_hash_table_unref);
  g_hash_table_unref (doc->objects);
  g_array_unref (doc->positions);
  g_string_chunk_free (doc->keys);
  g_clear_pointer (&doc->root, json_node_unref);
  g_free (doc->text);
  g_free (doc);
}

JsonNode *
wn_json_doc_get_root (const WnJsonDoc *doc)
{
  g_return_val_if_fail (doc != NULL, NULL);

  return doc->root;
}

gboolean
wn_json_doc_get_pos (const WnJsonDoc *doc,
                     JsonNode        *node,
                     WnJsonPos       *pos)
{
  guint i;

  g_return_val_if_fail (doc != NULL, FALSE);
  g_return_val_if_fail (pos != NULL, FALSE);

  if (node == NULL)
    return FALSE;
  if (doc->node_pos == NULL)
    {
      GHashTable *index = g_hash_table_new (g_direct_hash, g_direct_equal);

      for (i = 0; i < doc->positions->len; i++)
        g_hash_table_insert (index, g_array_index (doc->positions, NodePos, i).node, GUINT_TO_POINTER (i + 1));
      ((WnJsonDoc *) doc)->node_pos = index;   /* a cache: the document does not change */
    }
  i = GPOINTER_TO_UINT (g_hash_table_lookup (doc->node_pos, node));
  if (i == 0)
    return FALSE;
  *pos = g_array_index (doc->positions, NodePos, i - 1).pos;
  return TRUE;
}

gboolean
wn_json_doc_get_key_pos (const WnJsonDoc *doc,
                         JsonObject      *object,
                         const char      *key,
                         WnJsonPos       *pos)
{
  ObjectInfo *info;
  int i;

  g_return_val_if_fail (doc != NULL, FALSE);
  g_return_val_if_fail (pos != NULL, FALSE);

  if (object == NULL || key == NULL)
    return FALSE;
  info = g_hash_table_lookup (doc->objects, object);
  if (info == NULL)
    return FALSE;
  i = object_info_find (info, key);
  if (i < 0)
    return FALSE;
  *pos = info->members[i].pos;
  return TRUE;
}

const char * const *
wn_json_doc_get_keys (const WnJsonDoc *doc,
                      JsonObject      *object,
                      guint           *n_keys)
{
  ObjectInfo *info;

  g_return_val_if_fail (doc != NULL, NULL);

  info = object != NULL ? g_hash_table_lookup (doc->objects, object) : NULL;
  if (n_keys != NULL)
    *n_keys = info != NULL ? info->n_members : 0;
  if (info == NULL)
    return NULL;
  return info->keys;
}

gboolean
wn_json_doc_get_string_pos (const WnJsonDoc *doc,
                            JsonNode        *node,
                            gsize            byte_offset,
                            WnJsonPos       *pos)
{
  WnJsonPos start;
  const char *p;
  const char *end;
  gsize decoded = 0;
  guint column;

  g_return_val_if_fail (doc != NULL, FALSE);
  g_return_val_if_fail (pos != NULL, FALSE);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return FALSE;
  if (!wn_json_doc_get_pos (doc, node, &start))
    return FALSE;

  p = doc->text + start.offset;
  end = doc->text + doc->length;
  if (p >= end || *p != '"')
    return FALSE;
  p++;
  column = start.column + 1;

  while (p < end && *p != '"')
    {
      gsize raw;
      gsize dlen;

      if (*p == '\\')
        {
          if (end - p >= 6 && p[1] == 'u')
            {
              gunichar ch = 0;

              for (int i = 2; i < 6; i++)
                ch = (ch << 4) | (gunichar) MAX (hex_value (p[i]), 0);
              raw = 6;
              if (ch >= 0xD800 && ch <= 0xDBFF && end - p >= 12 && p[6] == '\\' && p[7] == 'u')
                {
                  raw = 12;
                  dlen = 4;
                }
              else
                {
                  dlen = ch < 0x80 ? 1 : ch < 0x800 ? 2 : 3;
                }
            }
          else
            {
              raw = 2;
              dlen = 1;
            }
          if (decoded + dlen > byte_offset)
            break;
          p += MIN (raw, (gsize) (end - p));
          column += (guint) raw;
        }
      else
        {
          raw = g_utf8_skip[(guchar) *p];
          dlen = raw;
          if (decoded + dlen > byte_offset)
            break;
          p += MIN (raw, (gsize) (end - p));
          column += 1;
        }
      decoded += dlen;
    }

  pos->line = start.line;
  pos->column = column;
  pos->offset = (gsize) (p - doc->text);
  return TRUE;
}

JsonObject *
wn_json_object_deep_copy (JsonObject *object)
{
  JsonObject *copy;
  JsonObjectIter iter;
  const char *name;
  JsonNode *member;

  g_return_val_if_fail (object != NULL, NULL);

  copy = json_object_new ();
  json_object_iter_init_ordered (&iter, object);
  while (json_object_iter_next_ordered (&iter, &name, &member))
    json_object_set_member (copy, name, wn_json_node_deep_copy (member));
  return copy;
}

JsonNode *
wn_json_node_deep_copy (JsonNode *node)
{
  JsonNode *copy;

  if (node == NULL)
    return NULL;

  copy = json_node_alloc ();
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *object = wn_json_object_deep_copy (json_node_get_object (node));

        json_node_init_object (copy, object);
        json_object_unref (object);
      }
      break;

    case JSON_NODE_ARRAY:
      {
        JsonArray *src = json_node_get_array (node);
        guint n = json_array_get_length (src);
        JsonArray *array = json_array_sized_new (n);

        for (guint i = 0; i < n; i++)
          json_array_add_element (array, wn_json_node_deep_copy (json_array_get_element (src, i)));
        json_node_init_array (copy, array);
        json_array_unref (array);
      }
      break;

    case JSON_NODE_VALUE:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_INT64:
          json_node_init_int (copy, json_node_get_int (node));
          break;
        case G_TYPE_DOUBLE:
          json_node_init_double (copy, json_node_get_double (node));
          break;
        case G_TYPE_BOOLEAN:
          json_node_init_boolean (copy, json_node_get_boolean (node));
          break;
        case G_TYPE_STRING:
          json_node_init_string (copy, json_node_get_string (node));
          break;
        default:
          json_node_init_null (copy);
          break;
        }
      break;

    case JSON_NODE_NULL:
    default:
      json_node_init_null (copy);
      break;
    }

  return copy;
}

gsize
wn_json_node_size (JsonNode *node)
{
  gsize size = 0;

  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;

        json_object_iter_init (&iter, json_node_get_object (node));
        while (json_object_iter_next (&iter, &name, &member))
          size += strlen (name) + wn_json_node_size (member);
        return size;
      }

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        guint n = json_array_get_length (array);

        for (guint i = 0; i < n; i++)
          size += wn_json_node_size (json_array_get_element (array, i));
        return size;
      }

    case JSON_NODE_VALUE:
      if (json_node_get_value_type (node) == G_TYPE_STRING)
        return strlen (json_node_get_string (node));
      return 8;

    case JSON_NODE_NULL:
    default:
      return 8;
    }
}

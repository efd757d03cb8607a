/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-check.c — the checker both loaders share (wn-loader-private.h).
 *
 * A document is parsed by wn-json (which keeps positions), then walked once by
 * the process or the scenario loader; every problem becomes a WnDiagnostic
 * pointing at the offending value. Nothing is built until the whole document
 * checks out.
 */
#include "wn-loader-private.h"

#include "wn-duration.h"
#include "wn-decimal-private.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>

/* Diagnostics kept before sorting and capping (bounds memory on hostile input). */
#define HARD_LIMIT 10000

G_DEFINE_QUARK (wn-load-error-quark, wn_load_error)

/* ---- diagnostics ------------------------------------------------------- */

static void
add_diag (WnCheck *ctx, const WnJsonPos *pos, const char *path, char *message)
{
  WnDiagnostic *d;

  if (ctx->diags->len >= HARD_LIMIT)
    {
      ctx->dropped++;
      g_free (message);
      return;
    }

  d = g_new0 (WnDiagnostic, 1);
  d->file = g_strdup (ctx->file);
  d->line = pos != NULL ? pos->line : 0;
  d->column = pos != NULL ? pos->column : 0;
  d->path = g_strdup (path != NULL ? path : "");
  d->message = message;
  g_ptr_array_add (ctx->diags, d);
}

/* At the value `at`. */
void
_wn_check_report (WnCheck    *ctx,
                  JsonNode   *at,
                  const char *path,
                  const char *format,
                  ...)
{
  WnJsonPos pos = { 0 };
  va_list args;
  char *message;

  wn_json_doc_get_pos (ctx->doc, at, &pos);
  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  add_diag (ctx, &pos, path, message);
}

/* At the key `key` of the object node `object`. */
void
_wn_check_report_key (WnCheck    *ctx,
                      JsonNode   *object,
                      const char *key,
                      const char *path,
                      const char *format,
                      ...)
{
  WnJsonPos pos = { 0 };
  va_list args;
  char *message;

  if (!wn_json_doc_get_key_pos (ctx->doc, json_node_get_object (object), key, &pos))
    wn_json_doc_get_pos (ctx->doc, object, &pos);
  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  add_diag (ctx, &pos, path, message);
}

guint
_wn_check_n_errors (const WnCheck *ctx)
{
  return ctx->diags->len + ctx->dropped;
}

/* ---- paths and small checks -------------------------------------------- */

static gboolean
is_simple_key (const char *key)
{
  if (*key == '\0')
    return FALSE;
  for (const char *p = key; *p; p++)
    if (!g_ascii_isalnum (*p) && *p != '_' && *p != '-')
      return FALSE;
  return TRUE;
}

/* A path is built for every value the loader checks: these two skip printf. */
char *
_wn_check_path_key (const char *parent, const char *key)
{
  if (is_simple_key (key))
    {
      gsize parent_len, key_len;
      char *path;

      if (parent == NULL || *parent == '\0')
        return g_strdup (key);
      parent_len = strlen (parent);
      key_len = strlen (key);
      path = g_malloc (parent_len + 1 + key_len + 1);
      memcpy (path, parent, parent_len);
      path[parent_len] = '.';
      memcpy (path + parent_len + 1, key, key_len + 1);
      return path;
    }
  else
    {
      GString *out = g_string_new (parent);

      g_string_append (out, "[\"");
      for (const char *p = key; *p; p++)
        {
          if (*p == '"' || *p == '\\')
            g_string_append_c (out, '\\');
          g_string_append_c (out, *p);
        }
      g_string_append (out, "\"]");
      return g_string_free (out, FALSE);
    }
}

char *
_wn_check_path_index (const char *parent, guint i)
{
  gsize parent_len = strlen (parent);
  char digits[WN_DECIMAL_SIZE];
  gsize n_digits = _wn_format_decimal (digits, i);
  char *path, *p;

  path = p = g_malloc (parent_len + n_digits + 3);
  memcpy (p, parent, parent_len);
  p += parent_len;
  *p++ = '[';
  memcpy (p, digits, n_digits);
  p += n_digits;
  *p++ = ']';
  *p = '\0';
  return path;
}

gboolean
_wn_check_in_list (const char * const *list, const char *key)
{
  for (guint i = 0; list != NULL && list[i] != NULL; i++)
    if (strcmp (list[i], key) == 0)
      return TRUE;
  return FALSE;
}

const char *
_wn_check_type_name (JsonNode *node)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      return "an object";
    case JSON_NODE_ARRAY:
      return "an array";
    case JSON_NODE_NULL:
      return "null";
    case JSON_NODE_VALUE:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_STRING:
          return "a string";
        case G_TYPE_BOOLEAN:
          return "a boolean";
        case G_TYPE_INT64:
        case G_TYPE_DOUBLE:
          return "a number";
        default:
          return "a value";
        }
    default:
      return "a value";
    }
}

/* "a task", "an endEvent". */
const char *
_wn_check_article (const char *word)
{
  return word[0] != '\0' && strchr ("aeiouAEIOU", word[0]) != NULL ? "an" : "a";
}

gboolean
_wn_check_holds_type (JsonNode *node, GType type)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == type;
}

gboolean
_wn_check_holds_number (JsonNode *node)
{
  return _wn_check_holds_type (node, G_TYPE_INT64) || _wn_check_holds_type (node, G_TYPE_DOUBLE);
}

static gboolean
is_identifier (const char *text)
{
  if (*text == '\0')
    return FALSE;
  for (const char *p = text; *p; p++)
    if (!g_ascii_isalnum (*p) && *p != '_' && *p != '.' && *p != ':' && *p != '-')
      return FALSE;
  return TRUE;
}

/* Report the keys of `object` that are neither allowed nor free ("x-…"). Keys in
 * `known` but not `allowed` "do not apply to <what>". */
void
_wn_check_keys (WnCheck            *ctx,
                JsonNode           *object,
                const char         *path,
                const char * const *allowed,
                const char * const *known,
                const char         *what)
{
  guint n = 0;
  const char * const *keys = wn_json_doc_get_keys (ctx->doc, json_node_get_object (object), &n);

  for (guint i = 0; i < n; i++)
    {
      const char *key = keys[i];
      g_autofree char *child = NULL;

      if (g_str_has_prefix (key, "x-") || _wn_check_in_list (allowed, key))
        continue;
      child = _wn_check_path_key (path, key);
      if (known != NULL && what != NULL && _wn_check_in_list (known, key))
        _wn_check_report_key (ctx, object, key, child, "key \"%s\" does not apply to %s", key, what);
      else
        _wn_check_report_key (ctx, object, key, child, "unknown key \"%s\"", key);
    }
}

/* The member `key` of the object node `object`; a missing required one is reported
 * at the object. */
JsonNode *
_wn_check_member (WnCheck *ctx, JsonNode *object, const char *path, const char *key, gboolean required)
{
  JsonNode *m = json_object_get_member (json_node_get_object (object), key);

  if (m == NULL && required)
    _wn_check_report (ctx, object, path, "missing required key \"%s\"", key);
  return m;
}

gboolean
_wn_check_object (WnCheck *ctx, JsonNode *node, const char *path)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    return TRUE;
  _wn_check_report (ctx, node, path, "must be an object, not %s", _wn_check_type_name (node));
  return FALSE;
}

JsonArray *
_wn_check_array (WnCheck *ctx, JsonNode *node, const char *path)
{
  if (JSON_NODE_HOLDS_ARRAY (node))
    return json_node_get_array (node);
  _wn_check_report (ctx, node, path, "must be an array, not %s", _wn_check_type_name (node));
  return NULL;
}

const char *
_wn_check_string (WnCheck *ctx, JsonNode *node, const char *path)
{
  if (_wn_check_holds_type (node, G_TYPE_STRING))
    return json_node_get_string (node);
  _wn_check_report (ctx, node, path, "must be a string, not %s", _wn_check_type_name (node));
  return NULL;
}

const char *
_wn_check_nonempty (WnCheck *ctx, JsonNode *node, const char *path)
{
  const char *s = _wn_check_string (ctx, node, path);

  if (s != NULL && *s == '\0')
    {
      _wn_check_report (ctx, node, path, "must not be empty");
      return NULL;
    }
  return s;
}

const char *
_wn_check_identifier (WnCheck *ctx, JsonNode *node, const char *path)
{
  const char *s = _wn_check_string (ctx, node, path);

  if (s == NULL)
    return NULL;
  if (!is_identifier (s))
    {
      if (*s == '\0')
        _wn_check_report (ctx, node, path, "must not be empty");
      else
        _wn_check_report (ctx, node, path, "\"%s\" is not an identifier (use letters, digits and _ . : -)", s);
      return NULL;
    }
  return s;
}

gboolean
_wn_check_bool (WnCheck *ctx, JsonNode *node, const char *path, gboolean *out)
{
  if (_wn_check_holds_type (node, G_TYPE_BOOLEAN))
    {
      *out = json_node_get_boolean (node);
      return TRUE;
    }
  _wn_check_report (ctx, node, path, "must be true or false, not %s", _wn_check_type_name (node));
  return FALSE;
}

gboolean
_wn_check_true (WnCheck *ctx, JsonNode *node, const char *path)
{
  if (_wn_check_holds_type (node, G_TYPE_BOOLEAN) && json_node_get_boolean (node))
    return TRUE;
  _wn_check_report (ctx, node, path, "must be true");
  return FALSE;
}

gboolean
_wn_check_uint (WnCheck *ctx, JsonNode *node, const char *path, guint min, guint *out)
{
  gint64 v;

  if (!_wn_check_holds_type (node, G_TYPE_INT64))
    {
      /* a double node may still be a whole number: one too large for an
       * int node (2^64), or one written with an exponent or a point (4e0) */
      double d = _wn_check_holds_number (node) ? json_node_get_double (node) : 0.5;

      if (d != floor (d))
        _wn_check_report (ctx, node, path, "must be an integer ≥ %u, not %s", min,
                          _wn_check_holds_number (node) ? "a fraction" : _wn_check_type_name (node));
      else if (d < min)
        _wn_check_report (ctx, node, path, "must be ≥ %u", min);
      else if (d > G_MAXUINT)
        _wn_check_report (ctx, node, path, "must be at most %u", G_MAXUINT);
      else
        _wn_check_report (ctx, node, path,
                          "must be an integer ≥ %u written in digits, without a point or an exponent", min);
      return FALSE;
    }
  v = json_node_get_int (node);
  if (v < (gint64) min)
    {
      _wn_check_report (ctx, node, path, "must be ≥ %u", min);
      return FALSE;
    }
  if (v > (gint64) G_MAXUINT)
    {
      _wn_check_report (ctx, node, path, "must be at most %u", G_MAXUINT);
      return FALSE;
    }
  *out = (guint) v;
  return TRUE;
}

gboolean
_wn_check_duration (WnCheck *ctx, JsonNode *node, const char *path, gboolean positive, WnTime *out)
{
  g_autoptr(GError) error = NULL;
  WnTime value = 0;

  if (!_wn_check_holds_type (node, G_TYPE_STRING) && !_wn_check_holds_number (node))
    {
      _wn_check_report (ctx, node, path, "must be a duration (a string such as \"250ms\" or \"PT2S\", "
              "or a number of milliseconds), not %s", _wn_check_type_name (node));
      return FALSE;
    }
  if (!wn_duration_from_json (node, &value, &error))
    {
      _wn_check_report (ctx, node, path, "%s", error != NULL ? error->message : "invalid duration");
      return FALSE;
    }
  if (positive && value <= 0)
    {
      _wn_check_report (ctx, node, path, "must be longer than 0");
      return FALSE;
    }
  *out = value;
  return TRUE;
}

/* _wn_check_member(), with the member's path in *member_path where it is present. */
static JsonNode *
member_at (WnCheck *ctx, JsonNode *object, const char *path, const char *key, gboolean required,
           char **member_path)
{
  JsonNode *m = _wn_check_member (ctx, object, path, key, required);

  if (m != NULL)
    *member_path = _wn_check_path_key (path, key);
  return m;
}

/* A check that returns what it read (_wn_check_string() and the like). */
typedef gpointer (*CheckFunc) (WnCheck *ctx, JsonNode *node, const char *path);

/* The member `key` read by `check` at its own path. */
static gpointer
member_checked (WnCheck *ctx, JsonNode *object, const char *path, const char *key, gboolean required,
                CheckFunc check)
{
  g_autofree char *p = NULL;
  JsonNode *m = member_at (ctx, object, path, key, required, &p);

  return m != NULL ? check (ctx, m, p) : NULL;
}

const char *
_wn_check_member_string (WnCheck *ctx, JsonNode *object, const char *path, const char *key, gboolean required)
{
  return member_checked (ctx, object, path, key, required, (CheckFunc) _wn_check_string);
}

const char *
_wn_check_member_identifier (WnCheck *ctx, JsonNode *object, const char *path, const char *key, gboolean required)
{
  return member_checked (ctx, object, path, key, required, (CheckFunc) _wn_check_identifier);
}

WnLite *
_wn_check_member_lite (WnCheck *ctx, JsonNode *object, const char *path, const char *key, gboolean required)
{
  return member_checked (ctx, object, path, key, required, (CheckFunc) _wn_check_lite);
}

char *
_wn_check_member_code (WnCheck *ctx, JsonNode *object, const char *path, const char *key, gboolean required)
{
  return member_checked (ctx, object, path, key, required, (CheckFunc) _wn_check_code);
}

gboolean
_wn_check_member_bool (WnCheck *ctx, JsonNode *object, const char *path, const char *key,
                       gboolean required, gboolean *out)
{
  g_autofree char *p = NULL;
  JsonNode *m = member_at (ctx, object, path, key, required, &p);

  return m != NULL && _wn_check_bool (ctx, m, p, out);
}

gboolean
_wn_check_member_uint (WnCheck *ctx, JsonNode *object, const char *path, const char *key,
                       gboolean required, guint min, guint *out)
{
  g_autofree char *p = NULL;
  JsonNode *m = member_at (ctx, object, path, key, required, &p);

  return m != NULL && _wn_check_uint (ctx, m, p, min, out);
}

gboolean
_wn_check_member_duration (WnCheck *ctx, JsonNode *object, const char *path, const char *key,
                           gboolean required, gboolean positive, WnTime *out)
{
  g_autofree char *p = NULL;
  JsonNode *m = member_at (ctx, object, path, key, required, &p);

  return m != NULL && _wn_check_duration (ctx, m, p, positive, out);
}

/* Report an error found at byte `offset` inside the string value `node`. */
static void
report_in_string (WnCheck *ctx, JsonNode *node, const char *path, gsize offset, const char *message)
{
  WnJsonPos pos = { 0 };

  if (!wn_json_doc_get_string_pos (ctx->doc, node, offset, &pos))
    wn_json_doc_get_pos (ctx->doc, node, &pos);
  add_diag (ctx, &pos, path, g_strdup (message));
}

/* The byte offset a lite message names ("at N: …"), or 0. */
static gsize
offset_from_message (const char *message)
{
  guint64 v = 0;

  if (message != NULL && g_str_has_prefix (message, "at "))
    {
      const char *p = message + 3;
      char *end = NULL;

      v = g_ascii_strtoull (p, &end, 10);
      if (end == p)
        v = 0;
    }
  return (gsize) v;
}

WnLite *
_wn_check_lite (WnCheck *ctx, JsonNode *node, const char *path)
{
  g_autoptr(GError) error = NULL;
  const char *source = _wn_check_string (ctx, node, path);
  gsize offset = 0;
  WnLite *lite;

  if (source == NULL)
    return NULL;
  lite = wn_lite_compile (source, &offset, &error);
  if (lite == NULL)
    report_in_string (ctx, node, path, offset,
                      error != NULL ? error->message : "the expression does not parse");
  return lite;
}

WnPath *
_wn_check_var_path (WnCheck *ctx, JsonNode *node, const char *path)
{
  g_autoptr(GError) error = NULL;
  const char *source = _wn_check_string (ctx, node, path);
  WnPath *result;

  if (source == NULL)
    return NULL;
  result = wn_path_parse (source, &error);
  if (result == NULL)
    {
      const char *message = error != NULL ? error->message : "not a variable name or path";

      report_in_string (ctx, node, path, offset_from_message (message), message);
    }
  return result;
}

/* A fault or rule code: a string, or a number normalised to its decimal form. */
char *
_wn_check_code (WnCheck *ctx, JsonNode *node, const char *path)
{
  if (_wn_check_holds_type (node, G_TYPE_STRING))
    return g_strdup (json_node_get_string (node));
  if (_wn_check_holds_type (node, G_TYPE_INT64))
    return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
  if (_wn_check_holds_type (node, G_TYPE_DOUBLE))
    {
      double d = json_node_get_double (node);
      char buf[G_ASCII_DTOSTR_BUF_SIZE];

      if (d == floor (d) && fabs (d) < 1e15)
        return g_strdup_printf ("%.0f", d);
      return g_strdup (g_ascii_dtostr (buf, sizeof buf, d));
    }
  _wn_check_report (ctx, node, path, "must be a string or a number, not %s", _wn_check_type_name (node));
  return NULL;
}

/* ---- entry points ------------------------------------------------------- */

static gint
compare_diag (gconstpointer a, gconstpointer b)
{
  const WnDiagnostic *x = *(WnDiagnostic * const *) a;
  const WnDiagnostic *y = *(WnDiagnostic * const *) b;

  if (x->line != y->line)
    return x->line < y->line ? -1 : 1;
  if (x->column != y->column)
    return x->column < y->column ? -1 : 1;
  return 0;
}

/* Hand the collected problems out (sorted, capped); always frees ctx->diags. */
static void
fail_with_diags (WnCheck *ctx, int code, GPtrArray **diagnostics, GError **error)
{
  GString *message = g_string_new (NULL);
  guint extra;

  g_ptr_array_sort (ctx->diags, compare_diag);
  extra = ctx->dropped;
  if (ctx->diags->len > WN_LOAD_MAX_ERRORS)
    {
      extra += ctx->diags->len - WN_LOAD_MAX_ERRORS;
      g_ptr_array_set_size (ctx->diags, WN_LOAD_MAX_ERRORS);
    }

  for (guint i = 0; i < ctx->diags->len; i++)
    {
      g_autofree char *line = wn_diagnostic_format (g_ptr_array_index (ctx->diags, i));

      if (i > 0)
        g_string_append_c (message, '\n');
      g_string_append (message, line);
    }
  if (extra > 0)
    g_string_append_printf (message, "\n%s: %u more error%s not shown", ctx->file, extra,
                            extra == 1 ? "" : "s");

  g_set_error_literal (error, WN_LOAD_ERROR, code, message->str);
  g_string_free (message, TRUE);

  if (diagnostics != NULL)
    *diagnostics = g_steal_pointer (&ctx->diags);
  else
    g_clear_pointer (&ctx->diags, g_ptr_array_unref);
}

gboolean
_wn_check_begin (WnCheck     *ctx,
                 const char  *data,
                 gssize       length,
                 const char  *display_name,
                 GPtrArray  **diagnostics,
                 GError     **error)
{
  g_autoptr(GError) json_error = NULL;
  WnJsonPos pos = { 0 };

  memset (ctx, 0, sizeof *ctx);
  ctx->file = display_name != NULL ? display_name : "<data>";
  ctx->diags = g_ptr_array_new_with_free_func ((GDestroyNotify) wn_diagnostic_free);

  if (diagnostics != NULL)
    *diagnostics = NULL;

  ctx->doc = wn_json_doc_parse (data != NULL ? data : "", data != NULL ? length : 0, &pos, &json_error);
  if (ctx->doc == NULL)
    {
      add_diag (ctx, &pos, "", g_strdup (json_error->message));
      fail_with_diags (ctx, WN_LOAD_ERROR_SYNTAX, diagnostics, error);
      return FALSE;
    }
  return TRUE;
}

/* Finish a load: NULL result or collected problems → failure. */
gboolean
_wn_check_end (WnCheck *ctx, gboolean ok, GPtrArray **diagnostics, GError **error)
{
  g_clear_pointer (&ctx->doc, wn_json_doc_free);

  if (ok && _wn_check_n_errors (ctx) == 0)
    {
      g_clear_pointer (&ctx->diags, g_ptr_array_unref);
      return TRUE;
    }

  if (ctx->diags->len == 0 && ctx->dropped == 0)
    add_diag (ctx, NULL, "", g_strdup ("the document is not valid"));
  fail_with_diags (ctx, WN_LOAD_ERROR_INVALID, diagnostics, error);
  return FALSE;
}

gpointer
_wn_check_load (const char        *data,
                gssize             length,
                const char        *display_name,
                WnCheckParseFunc   parse,
                GDestroyNotify     free_result,
                GPtrArray        **diagnostics,
                GError           **error)
{
  WnCheck ctx;
  gpointer result;

  if (!_wn_check_begin (&ctx, data, length, display_name, diagnostics, error))
    return NULL;
  result = parse (&ctx, wn_json_doc_get_root (ctx.doc));
  if (!_wn_check_end (&ctx, result != NULL, diagnostics, error))
    {
      g_clear_pointer (&result, free_result);
      return NULL;
    }
  return result;
}

gpointer
_wn_check_load_file (const char       *filename,
                     gsize             max_size,
                     WnCheckLoadFunc   load,
                     GPtrArray       **diagnostics,
                     GError          **error)
{
  g_autofree char *contents = NULL;
  gsize length = 0;

  g_return_val_if_fail (filename != NULL, NULL);
  g_return_val_if_fail (max_size > 0 && max_size < G_MAXSIZE, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  contents = _wn_check_read_file (filename, max_size, diagnostics, error, &length);
  if (contents == NULL)
    return NULL;
  return load (contents, (gssize) length, filename, diagnostics, error);
}

/* TRUE for a regular file or a pipe; else *why says what it is. */
static gboolean
readable_kind (const struct stat *st, char **why)
{
  const char *kind;

  if (S_ISREG (st->st_mode) || S_ISFIFO (st->st_mode))
    return TRUE;
  if (S_ISDIR (st->st_mode))
    kind = "a directory";
  else if (S_ISCHR (st->st_mode))
    kind = "a character device";
  else if (S_ISBLK (st->st_mode))
    kind = "a block device";
  else if (S_ISSOCK (st->st_mode))
    kind = "a socket";
  else
    kind = "not a regular file";
  *why = g_strdup_printf ("cannot read the file: it is %s; only regular files and pipes are read", kind);
  return FALSE;
}

/* "64 MiB", "1536 KiB", "1000 bytes": exact, in the unit the limit was given in. */
static char *
format_bytes (gsize size)
{
  static const char *units[] = { "GiB", "MiB", "KiB" };

  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    {
      gsize unit = (gsize) 1 << (10 * (3 - i));

      if (size >= unit && size % unit == 0)
        return g_strdup_printf ("%" G_GSIZE_FORMAT " %s", size / unit, units[i]);
    }
  return g_strdup_printf ("%" G_GSIZE_FORMAT " bytes", size);
}

static char *
too_large (gsize max_size, WnLoadError *code, char **why)
{
  g_autofree char *limit = format_bytes (max_size);

  *code = WN_LOAD_ERROR_TOO_LARGE;
  *why = g_strdup_printf ("the file is larger than the input limit of %s", limit);
  return NULL;
}

/* Regular files and pipes (a FIFO, /dev/stdin from a pipe, a shell's <(…)) are
 * read, up to `max_size` bytes; devices, which may have no end (/dev/zero),
 * are refused unopened. NULL with *code and *why on failure. */
static char *
read_bounded (const char *filename, gsize max_size, gsize *length, WnLoadError *code, char **why)
{
  struct stat st;
  g_autofree char *data = NULL;
  gsize size = 0, capacity;
  int fd;

  *code = WN_LOAD_ERROR_IO;
  if (g_stat (filename, &st) != 0)
    {
      *why = g_strdup_printf ("cannot read the file: %s", g_strerror (errno));
      return NULL;
    }
  if (!readable_kind (&st, why))
    return NULL;
  if (S_ISREG (st.st_mode) && (guint64) st.st_size > (guint64) max_size)
    return too_large (max_size, code, why);
  fd = g_open (filename, O_RDONLY | O_CLOEXEC | O_NOCTTY, 0);
  if (fd < 0)
    {
      *why = g_strdup_printf ("cannot read the file: %s", g_strerror (errno));
      return NULL;
    }
  /* what was opened is what was looked at */
  if (fstat (fd, &st) != 0 || !readable_kind (&st, why))
    {
      if (*why == NULL)
        *why = g_strdup_printf ("cannot read the file: %s", g_strerror (errno));
      close (fd);
      return NULL;
    }

  /* a regular file's size, plus a byte to see it end; a pipe's in steps */
  capacity = S_ISREG (st.st_mode) ? (gsize) st.st_size + 1 : MIN (65536, max_size + 1);
  for (;;)
    {
      gssize n;

      if (data == NULL || size == capacity)
        {
          char *bigger;

          if (data != NULL && size > max_size)
            break;
          if (data != NULL)
            capacity = capacity > (max_size + 1) / 2 ? max_size + 1 : capacity * 2;
          bigger = g_try_realloc (data, capacity + 1);
          if (bigger == NULL)
            {
              g_autofree char *want = format_bytes (capacity);

              close (fd);
              *why = g_strdup_printf ("cannot read the file: not enough memory for %s", want);
              return NULL;
            }
          data = bigger;
        }
      n = read (fd, data + size, capacity - size);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int errsv = errno;

          close (fd);
          *why = g_strdup_printf ("cannot read the file: %s", g_strerror (errsv));
          return NULL;
        }
      if (n == 0)
        break;
      size += (gsize) n;
    }
  close (fd);
  if (size > max_size)
    return too_large (max_size, code, why);
  data[size] = '\0';
  *length = size;
  return g_steal_pointer (&data);
}

char *
_wn_check_read_file (const char *filename, gsize max_size, GPtrArray **diagnostics, GError **error,
                     gsize *length)
{
  g_autofree char *why = NULL;
  WnLoadError code;
  char *contents;

  if (diagnostics != NULL)
    *diagnostics = NULL;

  contents = read_bounded (filename, max_size, length, &code, &why);
  if (contents == NULL)
    {
      WnDiagnostic *d = g_new0 (WnDiagnostic, 1);

      d->file = g_strdup (filename);
      d->path = g_strdup ("");
      d->message = g_steal_pointer (&why);
      g_set_error (error, WN_LOAD_ERROR, code, "%s: %s", filename, d->message);
      if (diagnostics != NULL)
        {
          *diagnostics = g_ptr_array_new_with_free_func ((GDestroyNotify) wn_diagnostic_free);
          g_ptr_array_add (*diagnostics, d);
        }
      else
        {
          wn_diagnostic_free (d);
        }
      return NULL;
    }
  return contents;
}

void
wn_diagnostic_free (WnDiagnostic *d)
{
  if (d == NULL)
    return;
  g_free (d->file);
  g_free (d->path);
  g_free (d->message);
  g_free (d);
}

char *
wn_diagnostic_format (const WnDiagnostic *d)
{
  g_return_val_if_fail (d != NULL, NULL);

  if (d->line == 0)
    {
      if (d->path == NULL || *d->path == '\0')
        return g_strdup_printf ("%s: %s", d->file, d->message);
      return g_strdup_printf ("%s: %s: %s", d->file, d->path, d->message);
    }
  if (d->path == NULL || *d->path == '\0')
    return g_strdup_printf ("%s:%u:%u: %s", d->file, d->line, d->column, d->message);
  return g_strdup_printf ("%s:%u:%u: %s: %s", d->file, d->line, d->column, d->path, d->message);
}

static gpointer
copy_root (WnCheck  *ctx,
           JsonNode *root)
{
  return wn_json_node_deep_copy (root);
}

JsonNode *
wn_load_json_data (const char  *data,
                   gssize       length,
                   const char  *display_name,
                   GPtrArray  **diagnostics,
                   GError     **error)
{
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return _wn_check_load (data, length, display_name, copy_root, (GDestroyNotify) json_node_unref,
                         diagnostics, error);
}

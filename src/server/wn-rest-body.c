/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-rest-body.c — strict reading of request bodies (wn-rest-body.h). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "wn-rest-body.h"

G_DEFINE_QUARK (wn-rest-error-quark, wn_rest_error)

char *
wn_rest_body_path (const char *path,
                   const char *name)
{
  if (path == NULL || *path == '\0')
    return g_strdup (name);
  return g_strdup_printf ("%s.%s", path, name);
}

static gboolean
bad (GError    **error,
     const char *path,
     const char *name,
     const char *what)
{
  g_autofree char *field = wn_rest_body_path (path, name);

  g_set_error (error, WN_REST_ERROR, WN_REST_ERROR_BAD_REQUEST, "%s: %s", field, what);
  return FALSE;
}

JsonObject *
wn_rest_body_parse (const char *data,
                    gsize       length,
                    GError    **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) local_error = NULL;
  JsonNode *root;

  if (data == NULL || length == 0)
    return json_object_new ();
  if (memchr (data, '\0', length) != NULL || !g_utf8_validate (data, length, NULL))
    {
      g_set_error_literal (error, WN_REST_ERROR, WN_REST_ERROR_BAD_REQUEST,
                           "the body is not JSON: it is not UTF-8 text");
      return NULL;
    }
  parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser, data, (gssize) length, &local_error))
    {
      g_set_error (error, WN_REST_ERROR, WN_REST_ERROR_BAD_REQUEST, "the body is not JSON: %s",
                   local_error->message);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL)
    return json_object_new ();
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error_literal (error, WN_REST_ERROR, WN_REST_ERROR_BAD_REQUEST,
                           "the body must be a JSON object");
      return NULL;
    }
  return json_object_ref (json_node_get_object (root));
}

gboolean
wn_rest_body_check_known (JsonObject        *object,
                          const char        *path,
                          const char *const *known,
                          GError           **error)
{
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;

  json_object_iter_init (&iter, object);
  while (json_object_iter_next (&iter, &name, &value))
    if (!g_strv_contains (known, name))
      return bad (error, path, name, "unknown field");
  return TRUE;
}

/* The member, or NULL when absent or null. */
static JsonNode *
member (JsonObject *object,
        const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  return node != NULL && !JSON_NODE_HOLDS_NULL (node) ? node : NULL;
}

/* The member `name` in *node (NULL when absent or null: an error when it is
 * required); FALSE with "must be WHAT" when `holds` refuses it. */
static gboolean
typed_member (JsonObject  *object,
              const char  *path,
              const char  *name,
              gboolean     required,
              gboolean   (*holds) (JsonNode *node),
              const char  *what,
              JsonNode   **node,
              GError     **error)
{
  *node = member (object, name);
  if (*node == NULL)
    return required ? bad (error, path, name, "is required") : TRUE;
  if (!holds (*node))
    {
      g_autofree char *message = g_strdup_printf ("must be %s", what);

      *node = NULL;
      return bad (error, path, name, message);
    }
  return TRUE;
}

static gboolean
holds_string (JsonNode *node)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING;
}

static gboolean
holds_bool (JsonNode *node)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_BOOLEAN;
}

static gboolean
holds_array (JsonNode *node)
{
  return JSON_NODE_HOLDS_ARRAY (node);
}

static gboolean
holds_object (JsonNode *node)
{
  return JSON_NODE_HOLDS_OBJECT (node);
}

gboolean
wn_rest_body_get_string (JsonObject  *object,
                         const char  *path,
                         const char  *name,
                         gboolean     required,
                         const char **out,
                         GError     **error)
{
  JsonNode *node;

  *out = NULL;
  if (!typed_member (object, path, name, required, holds_string, "a string", &node, error))
    return FALSE;
  if (node != NULL)
    *out = json_node_get_string (node);
  return TRUE;
}

gboolean
wn_rest_body_get_int (JsonObject  *object,
                      const char  *path,
                      const char  *name,
                      gint64       min,
                      gint64       max,
                      gboolean    *present,
                      gint64      *out,
                      GError     **error)
{
  JsonNode *node = member (object, name);
  gint64 value;

  if (present != NULL)
    *present = FALSE;
  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node))
    return bad (error, path, name, "must be an integer");
  if (json_node_get_value_type (node) == G_TYPE_INT64)
    value = json_node_get_int (node);
  else if (json_node_get_value_type (node) == G_TYPE_DOUBLE)
    {
      double d = json_node_get_double (node);

      if (!isfinite (d) || d != floor (d) || d < -9.2e18 || d > 9.2e18)
        return bad (error, path, name, "must be an integer");
      value = (gint64) d;
    }
  else
    return bad (error, path, name, "must be an integer");
  if (value < min || value > max)
    {
      g_autofree char *what = g_strdup_printf ("must be between %" G_GINT64_FORMAT " and %" G_GINT64_FORMAT,
                                               min, max);
      return bad (error, path, name, what);
    }
  if (present != NULL)
    *present = TRUE;
  *out = value;
  return TRUE;
}

gboolean
wn_rest_body_require_int (JsonObject  *object,
                          const char  *path,
                          const char  *name,
                          gint64       min,
                          gint64       max,
                          gint64      *out,
                          GError     **error)
{
  gboolean present = FALSE;

  if (!wn_rest_body_get_int (object, path, name, min, max, &present, out, error))
    return FALSE;
  return present || bad (error, path, name, "is required");
}

gboolean
wn_rest_body_get_bool (JsonObject  *object,
                       const char  *path,
                       const char  *name,
                       gboolean    *out,
                       GError     **error)
{
  JsonNode *node;

  if (!typed_member (object, path, name, FALSE, holds_bool, "true or false", &node, error))
    return FALSE;
  if (node != NULL)
    *out = json_node_get_boolean (node);
  return TRUE;
}

gboolean
wn_rest_body_get_array (JsonObject  *object,
                        const char  *path,
                        const char  *name,
                        gboolean     required,
                        JsonArray  **out,
                        GError     **error)
{
  JsonNode *node;

  *out = NULL;
  if (!typed_member (object, path, name, required, holds_array, "an array", &node, error))
    return FALSE;
  if (node != NULL)
    *out = json_node_get_array (node);
  return TRUE;
}

gboolean
wn_rest_body_get_object (JsonObject  *object,
                         const char  *path,
                         const char  *name,
                         JsonObject **out,
                         GError     **error)
{
  JsonNode *node;

  *out = NULL;
  if (!typed_member (object, path, name, FALSE, holds_object, "an object", &node, error))
    return FALSE;
  if (node != NULL)
    *out = json_node_get_object (node);
  return TRUE;
}

gboolean
wn_rest_body_get_strings (JsonObject  *object,
                          const char  *path,
                          const char  *name,
                          GPtrArray  **out,
                          GError     **error)
{
  JsonArray *array;

  *out = NULL;
  if (!wn_rest_body_get_array (object, path, name, FALSE, &array, error))
    return FALSE;
  if (array == NULL)
    return TRUE;
  *out = g_ptr_array_new ();
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (!JSON_NODE_HOLDS_VALUE (element) || json_node_get_value_type (element) != G_TYPE_STRING)
        {
          g_autofree char *item = g_strdup_printf ("%s[%u]", name, i);

          g_clear_pointer (out, g_ptr_array_unref);
          return bad (error, path, item, "must be a string");
        }
      g_ptr_array_add (*out, (gpointer) json_node_get_string (element));
    }
  return TRUE;
}

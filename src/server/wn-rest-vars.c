/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-rest-vars.c — typed variables (wn-rest-vars.h). */
#include "config.h"

#include <math.h>

#include "wn-rest-vars.h"
#include "wn-rest-body.h"

static const char *const typed_fields[] = { "value", "type", "valueInfo", NULL };

static gboolean
bad (GError    **error,
     const char *field,
     const char *what)
{
  g_set_error (error, WN_REST_ERROR, WN_REST_ERROR_BAD_REQUEST, "%s: %s", field, what);
  return FALSE;
}

static gboolean
holds (JsonNode *node,
       GType     type)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == type;
}

static gboolean
is_whole (JsonNode *node)
{
  double d;

  if (holds (node, G_TYPE_INT64))
    return TRUE;
  if (!holds (node, G_TYPE_DOUBLE))
    return FALSE;
  d = json_node_get_double (node);
  return isfinite (d) && d == floor (d) && fabs (d) < 9.2e18;
}

static JsonNode *
parse_json_text (const char *text,
                 const char *field,
                 GError    **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(GError) local_error = NULL;
  JsonNode *root;

  if (!json_parser_load_from_data (parser, text, -1, &local_error) ||
      (root = json_parser_get_root (parser)) == NULL)
    {
      g_autofree char *what = g_strdup_printf ("a Json value must hold JSON text: %s",
                                               local_error ? local_error->message : "it is empty");
      bad (error, field, what);
      return NULL;
    }
  return json_node_copy (root);
}

/* One typed value at `field` as a Winnow value (new), or NULL with an error. */
static JsonNode *
from_typed (JsonNode   *typed,
            const char *field,
            GError    **error)
{
  g_autofree char *type_field = g_strdup_printf ("%s.type", field);
  g_autofree char *value_field = g_strdup_printf ("%s.value", field);
  g_autofree char *info_field = g_strdup_printf ("%s.valueInfo", field);
  g_autofree char *type = NULL;
  JsonObject *object;
  JsonNode *value, *type_node, *info;

  if (typed == NULL || !JSON_NODE_HOLDS_OBJECT (typed))
    {
      bad (error, field, "must be an object {\"value\", \"type\", \"valueInfo\"}");
      return NULL;
    }
  object = json_node_get_object (typed);
  if (!wn_rest_body_check_known (object, field, typed_fields, error))
    return NULL;
  value = json_object_get_member (object, "value");
  if (value != NULL && JSON_NODE_HOLDS_NULL (value))
    value = NULL;
  type_node = json_object_get_member (object, "type");
  info = json_object_get_member (object, "valueInfo");
  if (info != NULL && !JSON_NODE_HOLDS_NULL (info) && !JSON_NODE_HOLDS_OBJECT (info))
    {
      bad (error, info_field, "must be an object");
      return NULL;
    }
  if (type_node != NULL && !JSON_NODE_HOLDS_NULL (type_node))
    {
      if (!holds (type_node, G_TYPE_STRING))
        {
          bad (error, type_field, "must be a string");
          return NULL;
        }
      type = g_ascii_strdown (json_node_get_string (type_node), -1);
    }

  if (type == NULL)
    return value != NULL ? json_node_copy (value) : json_node_new (JSON_NODE_NULL);
  if (value == NULL || g_str_equal (type, "null"))
    {
      if (value != NULL)
        {
          bad (error, value_field, "must be null for type Null");
          return NULL;
        }
      return json_node_new (JSON_NODE_NULL);
    }
  if (g_str_equal (type, "string") || g_str_equal (type, "date"))
    {
      if (!holds (value, G_TYPE_STRING))
        {
          bad (error, value_field, "must be a string");
          return NULL;
        }
      return json_node_copy (value);
    }
  if (g_str_equal (type, "integer") || g_str_equal (type, "short") || g_str_equal (type, "long"))
    {
      JsonNode *node;

      if (!is_whole (value))
        {
          bad (error, value_field, "must be a whole number");
          return NULL;
        }
      node = json_node_new (JSON_NODE_VALUE);
      json_node_set_int (node, holds (value, G_TYPE_INT64) ? json_node_get_int (value)
                                                          : (gint64) json_node_get_double (value));
      return node;
    }
  if (g_str_equal (type, "double"))
    {
      JsonNode *node;

      if (!holds (value, G_TYPE_INT64) && !holds (value, G_TYPE_DOUBLE))
        {
          bad (error, value_field, "must be a number");
          return NULL;
        }
      node = json_node_new (JSON_NODE_VALUE);
      json_node_set_double (node, json_node_get_double (value));
      return node;
    }
  if (g_str_equal (type, "boolean"))
    {
      if (!holds (value, G_TYPE_BOOLEAN))
        {
          bad (error, value_field, "must be true or false");
          return NULL;
        }
      return json_node_copy (value);
    }
  if (g_str_equal (type, "json") || g_str_equal (type, "object"))
    {
      if (g_str_equal (type, "object"))
        {
          JsonObject *vi = info != NULL && JSON_NODE_HOLDS_OBJECT (info) ? json_node_get_object (info) : NULL;
          const char *format = vi != NULL && holds (json_object_get_member (vi, "serializationDataFormat"),
                                                    G_TYPE_STRING)
            ? json_object_get_string_member (vi, "serializationDataFormat") : NULL;

          if (g_strcmp0 (format, "application/json") != 0)
            {
              bad (error, type_field, "type Object is read only with valueInfo.serializationDataFormat "
                                      "\"application/json\"");
              return NULL;
            }
        }
      if (holds (value, G_TYPE_STRING))
        return parse_json_text (json_node_get_string (value), value_field, error);
      return json_node_copy (value);
    }
  if (g_str_equal (type, "bytes") || g_str_equal (type, "file") || g_str_equal (type, "xml"))
    {
      g_autofree char *what = g_strdup_printf ("type %s is not supported by Winnow",
                                               json_node_get_string (type_node));
      bad (error, type_field, what);
      return NULL;
    }
  {
    g_autofree char *what = g_strdup_printf ("unknown type %s (String, Integer, Short, Long, Double, "
                                             "Boolean, Json, Date or Null)", json_node_get_string (type_node));
    bad (error, type_field, what);
    return NULL;
  }
}

JsonObject *
wn_rest_vars_from_typed (JsonObject *typed,
                         const char *path,
                         GError    **error)
{
  g_autoptr(JsonObject) values = json_object_new ();
  JsonObjectIter iter;
  const char *name;
  JsonNode *node;

  if (typed == NULL)
    return g_steal_pointer (&values);
  json_object_iter_init (&iter, typed);
  while (json_object_iter_next (&iter, &name, &node))
    {
      g_autofree char *field = wn_rest_body_path (path, name);
      JsonNode *value;

      if (*name == '\0')
        {
          bad (error, path, "a variable name is empty");
          return NULL;
        }
      value = from_typed (node, field, error);
      if (value == NULL)
        return NULL;
      json_object_set_member (values, name, value);
    }
  return g_steal_pointer (&values);
}

JsonNode *
wn_rest_vars_typed (JsonNode *value)
{
  g_autoptr(JsonBuilder) builder = json_builder_new_immutable ();
  const char *type = "Null";

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "value");
  if (value == NULL || JSON_NODE_HOLDS_NULL (value))
    json_builder_add_null_value (builder);
  else if (JSON_NODE_HOLDS_OBJECT (value) || JSON_NODE_HOLDS_ARRAY (value))
    {
      g_autofree char *text = json_to_string (value, FALSE);

      json_builder_add_string_value (builder, text);
      type = "Json";
    }
  else
    {
      json_builder_add_value (builder, json_node_copy (value));
      switch (json_node_get_value_type (value))
        {
        case G_TYPE_STRING:
          type = "String";
          break;
        case G_TYPE_BOOLEAN:
          type = "Boolean";
          break;
        case G_TYPE_INT64:
          type = json_node_get_int (value) >= G_MININT32 && json_node_get_int (value) <= G_MAXINT32
            ? "Integer" : "Long";
          break;
        case G_TYPE_DOUBLE:
        default:
          type = "Double";
          break;
        }
    }
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, type);
  json_builder_set_member_name (builder, "valueInfo");
  json_builder_begin_object (builder);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

JsonNode *
wn_rest_vars_to_typed (JsonObject *values,
                       GPtrArray  *names)
{
  JsonObject *typed = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  if (values != NULL)
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *value;

      json_object_iter_init (&iter, values);
      while (json_object_iter_next (&iter, &name, &value))
        {
          gboolean wanted = names == NULL;

          for (guint i = 0; !wanted && i < names->len; i++)
            wanted = g_strcmp0 (g_ptr_array_index (names, i), name) == 0;
          if (wanted)
            json_object_set_member (typed, name, wn_rest_vars_typed (value));
        }
    }
  json_node_take_object (node, typed);
  return node;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-lite.c — the lite language on arbitrary text: wn_lite_compile() and, for
 * what compiles, every evaluation entry point over a fixed scope; the same text
 * as a structural path through wn_path_parse() and wn_path_lookup(). */
#include "fuzz-target.h"
#include "fuzz-sim.h"

#include <string.h>

static const char variables_json[] =
  "{ \"n\": 5, \"x\": -2.5, \"zero\": 0, \"big\": 1e308, \"tiny\": 5e-324,"
  "  \"s\": \"h\\u00e9llo\", \"empty\": \"\", \"b\": true, \"f\": false, \"z\": null,"
  "  \"arr\": [1, \"two\", [3, [4]], { \"k\": 4 }, null, true],"
  "  \"order\": { \"id\": \"A-1\", \"total\": 50, \"items\": [ { \"price\": 9.5, \"sku\": \"X\" } ],"
  "               \"customer\": { \"name\": \"Ana\", \"tags\": [] } },"
  "  \"rates\": { \"EUR\": 1.1, \"x y\": 2, \"\": 3 },"
  "  \"when\": \"2026-01-02T03:04:05Z\" }";

static const char body_json[] =
  "{ \"reason\": \"card_declined\", \"status\": 503, \"error\": \"unavailable\","
  "  \"reservationId\": \"R-7\", \"warehouse\": { \"zone\": \"B\" }, \"list\": [0, 1, 2] }";

static JsonNode *variables;
static JsonNode *body;
static JsonNode *code;
static JsonNode *attempt;

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  fuzz_init ();
  variables = json_from_string (variables_json, NULL);
  body = json_from_string (body_json, NULL);
  code = json_node_init_string (json_node_alloc (), "503");
  attempt = json_node_init_int (json_node_alloc (), 2);
  if (variables == NULL || body == NULL)
    g_error ("the fixed scope does not parse");
  return 0;
}

static void
evaluate (WnLite *lite)
{
  const WnLiteRoot roots[] = {
    { "code", code },
    { "body", body },
    { "input", variables },
    { "attempt", attempt },
  };
  WnLiteScope scope = { roots, G_N_ELEMENTS (roots), json_node_get_object (variables) };
  WnLiteValue value;
  gboolean flag;

  {
    g_autoptr(GError) error = NULL;

    if (wn_lite_eval (lite, &scope, &value, &error))
      {
        g_autoptr(JsonNode) json = wn_lite_value_to_json (&value);

        if (json == NULL)
          g_error ("a value has no JSON form");
        wn_lite_value_clear (&value);
      }
    else if (error == NULL || strncmp (error->message, "at ", 3) != 0)
      g_error ("an evaluation error does not name its offset: %s", error ? error->message : "(none)");
  }
  {
    g_autoptr(GError) error = NULL;

    if (!wn_lite_eval_bool (lite, &scope, &flag, &error) && error == NULL)
      g_error ("wn_lite_eval_bool failed without an error");
  }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(JsonNode) json = wn_lite_eval_json (lite, &scope, &error);

    if (json == NULL && error == NULL)
      g_error ("wn_lite_eval_json failed without an error");
  }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *source = g_strndup ((const char *) data, size);

  {
    g_autoptr(GError) error = NULL;
    gsize offset = 0;
    g_autoptr(WnLite) lite = wn_lite_compile (source, &offset, &error);

    if (lite == NULL)
      {
        if (error == NULL || strncmp (error->message, "at ", 3) != 0)
          g_error ("a syntax error does not name its offset: %s", error ? error->message : "(none)");
        if (offset > strlen (source))
          g_error ("a syntax error at %" G_GSIZE_FORMAT " lies past the end of %" G_GSIZE_FORMAT " bytes",
                   offset, strlen (source));
      }
    else
      {
        if (strcmp (wn_lite_get_source (lite), source) != 0)
          g_error ("a compiled expression does not keep its source");
        evaluate (lite);
      }
  }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(WnPath) path = wn_path_parse (source, &error);

    if (path == NULL && error == NULL)
      g_error ("wn_path_parse failed without an error");
    if (path != NULL)
      wn_path_lookup (path, json_node_get_object (variables));
  }
  return 0;
}

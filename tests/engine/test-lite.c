/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-lite.c — the `lite` expression language and structural paths. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wn-test-util.h"

/* 2026-01-02T03:04:05Z */
#define STAMP_US G_GINT64_CONSTANT (1767323045000000)

static const char context_json[] =
  "{"
  "  \"order\": {"
  "    \"total\": 150,"
  "    \"currency\": \"EUR\","
  "    \"paid\": true,"
  "    \"note\": null,"
  "    \"items\": ["
  "      { \"sku\": \"A-1\", \"price\": 10.5, \"qty\": 2 },"
  "      { \"sku\": \"B-2\", \"price\": 3, \"qty\": 1 }"
  "    ],"
  "    \"tags\": [],"
  "    \"meta\": {}"
  "  },"
  "  \"rates\": { \"EUR\": 1.25, \"US D\": 1, \"it's\": 2, \"q\\\"uote\": 3 },"
  "  \"name\": \"h\xc3\xa9llo\","
  "  \"empty\": \"\","
  "  \"count\": 3,"
  "  \"neg\": -4.5,"
  "  \"flag\": false,"
  "  \"nothing\": null,"
  "  \"matrix\": [[1, 2], [3, 4]],"
  "  \"same\": [[1, 2], [3, 4]],"
  "  \"stamp\": \"2026-01-02T03:04:05Z\","
  "  \"andy\": 1,"
  "  \"notice\": \"n\","
  "  \"len\": 7,"
  "  \"code\": \"shadowed by the root\""
  "}";

static const char body_json[] =
  "{ \"error\": { \"code\": \"E42\", \"retryable\": true }, \"status\": 503, \"list\": [1, 2, 3] }";

typedef struct {
  JsonNode    *variables;
  JsonNode    *code;
  JsonNode    *body;
  WnLiteRoot   roots[2];
  WnLiteScope  scope;
} Context;

static void
context_init (Context *ctx)
{
  ctx->variables = wn_test_json (context_json);
  ctx->code = json_node_new (JSON_NODE_VALUE);
  json_node_set_string (ctx->code, "500");
  ctx->body = wn_test_json (body_json);
  ctx->roots[0].name = "code";
  ctx->roots[0].node = ctx->code;
  ctx->roots[1].name = "body";
  ctx->roots[1].node = ctx->body;
  ctx->scope.roots = ctx->roots;
  ctx->scope.n_roots = G_N_ELEMENTS (ctx->roots);
  ctx->scope.variables = json_node_get_object (ctx->variables);
}

static void
context_clear (Context *ctx)
{
  json_node_unref (ctx->variables);
  json_node_unref (ctx->code);
  json_node_unref (ctx->body);
}

static WnLite *
compile_ok (const char *source)
{
  g_autoptr(GError) error = NULL;
  WnLite *lite = wn_lite_compile (source, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (lite);
  return lite;
}

/* Evaluates `source` in `ctx`, requiring success. */
static void
eval_ok (Context     *ctx,
         const char  *source,
         WnLiteValue *value,
         WnLite     **lite_out)
{
  g_autoptr(GError) error = NULL;
  WnLite *lite = compile_ok (source);
  gboolean ok;

  ok = wn_lite_eval (lite, &ctx->scope, value, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  *lite_out = lite;
}

static double
eval_number (Context    *ctx,
             const char *source)
{
  g_autoptr(WnLite) lite = NULL;
  WnLiteValue value;

  eval_ok (ctx, source, &value, &lite);
  g_assert_cmpint (value.kind, ==, WN_LITE_NUMBER);
  return value.num;
}

static gboolean
eval_boolean (Context    *ctx,
              const char *source)
{
  g_autoptr(WnLite) lite = NULL;
  WnLiteValue value;

  eval_ok (ctx, source, &value, &lite);
  g_assert_cmpint (value.kind, ==, WN_LITE_BOOL);
  return value.b;
}

/* Asserts that `source` compiles but fails to evaluate with `code`, and that
 * the message starts with "at <offset>: ". Returns the message. */
static char *
eval_error (Context    *ctx,
            const char *source,
            int         code,
            gsize       offset)
{
  g_autoptr(WnLite) lite = compile_ok (source);
  g_autoptr(GError) error = NULL;
  g_autofree char *prefix = g_strdup_printf ("at %" G_GSIZE_FORMAT ": ", offset);
  WnLiteValue value;

  g_assert_false (wn_lite_eval (lite, ctx != NULL ? &ctx->scope : NULL, &value, &error));
  g_assert_error (error, WN_LITE_ERROR, code);
  g_assert_true (g_str_has_prefix (error->message, prefix));
  g_assert_cmpint (value.kind, ==, WN_LITE_NIL);
  return g_strdup (error->message);
}

/* Asserts that `source` fails to compile at `offset`. Returns the message. */
static char *
compile_error (const char *source,
               gsize       offset)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *prefix = g_strdup_printf ("at %" G_GSIZE_FORMAT ": ", offset);
  gsize error_offset = G_MAXSIZE;
  WnLite *lite;

  lite = wn_lite_compile (source, &error_offset, &error);
  g_assert_null (lite);
  g_assert_error (error, WN_LITE_ERROR, WN_LITE_ERROR_SYNTAX);
  g_assert_cmpuint (error_offset, ==, offset);
  g_assert_true (g_str_has_prefix (error->message, prefix));
  return g_strdup (error->message);
}

/* The table */

typedef enum {
  R_NUMBER,
  R_STRING,
  R_BOOL,
  R_TIME,
  R_JSON,
  R_ERROR,
} Expect;

typedef struct {
  const char *source;
  Expect      expect;
  double      num;
  const char *text;     /* R_STRING: the string; R_JSON: the JSON */
  gboolean    b;
  gint64      time_us;
  int         code;     /* R_ERROR */
  gsize       offset;   /* R_ERROR */
} Case;

#define NUM(s, v)     { s, R_NUMBER, .num = (v) }
#define STR(s, v)     { s, R_STRING, .text = (v) }
#define YES(s)        { s, R_BOOL, .b = TRUE }
#define NO(s)         { s, R_BOOL, .b = FALSE }
#define TIME(s, v)    { s, R_TIME, .time_us = (v) }
#define JSON(s, v)    { s, R_JSON, .text = (v) }
#define ERR(s, c, o)  { s, R_ERROR, .code = WN_LITE_ERROR_##c, .offset = (o) }

static const Case cases[] = {
  /* numbers and arithmetic */
  NUM ("150", 150),
  NUM ("1.5", 1.5),
  NUM ("2.5e2", 250),
  NUM ("1E-1", 0.1),
  NUM ("0", 0),
  NUM ("1 + 2", 3),
  NUM ("7 - 10", -3),
  NUM ("6 * 7", 42),
  NUM ("7 / 2", 3.5),
  NUM ("7 % 3", 1),
  NUM ("-7 % 3", -1),
  NUM ("7.5 % 2", 1.5),
  NUM ("1 + 2 * 3", 7),
  NUM ("(1 + 2) * 3", 9),
  NUM ("10 - 4 - 3", 3),
  NUM ("100 / 10 / 5", 2),
  NUM ("2 * -3", -6),
  NUM ("--4", 4),
  NUM ("-(2 + 3)", -5),
  NUM ("1 - -1", 2),
  NUM ("2 * 3 % 4", 2),
  NUM ("((((42))))", 42),
  NUM ("\t1\n+\r\n2 ", 3),
  /* data */
  NUM ("order.total", 150),
  NUM ("order.total * rates.EUR", 187.5),
  NUM ("order.items[0].price", 10.5),
  NUM ("order.items[1].qty + order.items[0].qty", 3),
  NUM ("rates[\"EUR\"]", 1.25),
  NUM ("rates['US D']", 1),
  NUM ("rates[\"it's\"]", 2),
  NUM ("rates['it\\'s']", 2),
  NUM ("rates['q\"uote']", 3),
  NUM ("rates[\"q\\\"uote\"]", 3),
  NUM ("matrix[1][0]", 3),
  NUM ("matrix[0][1] * matrix[1][1]", 8),
  NUM ("body.status", 503),
  NUM ("body.list[2]", 3),
  NUM ("neg", -4.5),
  NUM ("-neg", 4.5),
  NUM ("count % 2", 1),
  NUM ("andy + 1", 2),
  NUM ("len + 1", 8),
  /* len */
  NUM ("len(name)", 5),
  NUM ("len('h\xc3\xa9llo')", 5),
  NUM ("len('\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e')", 3),
  NUM ("len(empty)", 0),
  NUM ("len('')", 0),
  NUM ("len(order.items)", 2),
  NUM ("len(order)", 7),
  NUM ("len(order.tags)", 0),
  NUM ("len(order.meta)", 0),
  NUM ("len(\"a\" + \"bc\")", 3),
  NUM ("len(code)", 3),
  NUM ("len (body.list)", 3),
  /* strings */
  STR ("'abc'", "abc"),
  STR ("\"abc\"", "abc"),
  STR ("''", ""),
  STR ("'a' + \"b\"", "ab"),
  STR ("order.currency + '-' + order.items[0].sku", "EUR-A-1"),
  STR ("'it\\'s'", "it's"),
  STR ("\"say \\\"hi\\\"\"", "say \"hi\""),
  STR ("'back\\\\slash'", "back\\slash"),
  STR ("'mixed \"quotes\"'", "mixed \"quotes\""),
  STR ("\"it's\"", "it's"),
  STR ("name", "h\xc3\xa9llo"),
  STR ("code", "500"),
  STR ("body.error.code", "E42"),
  STR ("'and or not'", "and or not"),
  /* booleans, logic, precedence */
  YES ("true"),
  NO ("false"),
  NO ("not true"),
  YES ("not not true"),
  NO ("true and false"),
  YES ("true or false"),
  NO ("false or false"),
  YES ("true and true"),
  NO ("not false and false"),
  YES ("false and false or true"),
  YES ("true or false and false"),
  YES ("not 1 == 2"),
  YES ("not (1 == 2)"),
  YES ("(1 < 2) == true"),
  YES ("1 + 2 == 3 and 'a' + 'b' == 'ab'"),
  /* comparisons */
  YES ("1 < 2"),
  YES ("2 <= 2"),
  NO ("3 > 4"),
  NO ("4 >= 5"),
  YES ("5 >= 5"),
  NO ("2 < 2"),
  YES ("1 == 1.0"),
  YES ("1 != 2"),
  NO ("1 != 1"),
  YES ("0.1 + 0.2 > 0.3"),
  YES ("'a' < 'b'"),
  YES ("'abc' < 'abd'"),
  YES ("'ab' < 'abc'"),
  YES ("'b' > 'abc'"),
  YES ("'b' >= 'b'"),
  NO ("'b' <= 'a'"),
  YES ("'x' == 'x'"),
  YES ("'x' != 'y'"),
  NO ("'x' == 'X'"),
  YES ("true == true"),
  YES ("true != false"),
  NO ("false == true"),
  YES ("nil == nil"),
  NO ("nil != nil"),
  YES ("nothing == nil"),
  YES ("order.note == nil"),
  YES ("order.paid"),
  YES ("flag == false"),
  YES ("order.total > 100 and order.currency == 'EUR'"),
  YES ("code == '500'"),
  YES ("body.error.retryable and body.status >= 500"),
  YES ("-order.total < 0"),
  YES ("len(body.list) == 3"),
  YES ("notice == 'n'"),
  YES ("order.items == order.items"),
  YES ("matrix == same"),
  NO ("matrix[0] == matrix[1]"),
  YES ("order.tags != order.items"),
  YES ("rates == rates"),
  NO ("order.items[0] == order.items[1]"),
  /* has */
  YES ("has('order.total')"),
  NO ("has(\"order.missing\")"),
  NO ("has('missing.x')"),
  NO ("has('missing')"),
  YES ("has(order.items[1].sku)"),
  NO ("has('order.items[2]')"),
  YES ("has('rates[\"EUR\"]')"),
  YES ("has(\"rates[\\\"q\\\\\\\"uote\\\"]\")"),
  YES ("has('order.note')"),
  YES ("has('body.error')"),
  YES ("has('code')"),
  NO ("has('count.x')"),
  NO ("has('order.note.x')"),
  NO ("has('order[0]')"),
  NO ("not has('order')"),
  /* short-circuit */
  NO ("false and missing.var"),
  YES ("true or missing.var"),
  NO ("false and 1"),
  YES ("true or 1"),
  YES ("true or 1 / 0 == 1"),
  NO ("false and len(5) == 1"),
  /* times */
  TIME ("time('2026-01-02T03:04:05Z')", STAMP_US),
  TIME ("time(stamp)", STAMP_US),
  TIME ("time('2026-01-02T04:04:05+01:00')", STAMP_US),
  TIME ("time('2026-01-02t03:04:05z')", STAMP_US),
  TIME ("time('1970-01-01T00:00:00.000001Z')", 1),
  TIME ("time('1969-12-31T23:59:59Z')", -1000000),
  TIME ("time('2026-01-02T03:04:' + '05Z')", STAMP_US),
  YES ("time('2026-01-02T03:04:05Z') < time('2026-01-02T03:04:06Z')"),
  YES ("time(stamp) == time('2026-01-02T04:04:05+01:00')"),
  YES ("time(stamp) > time('2025-12-31T23:59:59Z')"),
  YES ("time('2026-01-02T03:04:05.5Z') > time(stamp)"),
  YES ("time(stamp) >= time(stamp) and time(stamp) <= time(stamp)"),
  NO ("time(stamp) != time(stamp)"),
  /* arrays and objects */
  JSON ("order.items[0]", "{\"sku\":\"A-1\",\"price\":10.5,\"qty\":2}"),
  JSON ("matrix", "[[1,2],[3,4]]"),
  JSON ("order.tags", "[]"),
  JSON ("order.meta", "{}"),
  JSON ("body.error", "{\"code\":\"E42\",\"retryable\":true}"),

  /* syntax errors */
  ERR ("", SYNTAX, 0),
  ERR ("   ", SYNTAX, 3),
  ERR ("1 +", SYNTAX, 3),
  ERR ("(1 + 2", SYNTAX, 6),
  ERR ("len(name", SYNTAX, 8),
  ERR ("1 2", SYNTAX, 2),
  ERR ("foo(1)", SYNTAX, 0),
  ERR ("max(1, 2)", SYNTAX, 0),
  ERR ("1 + exists(x)", SYNTAX, 4),
  ERR ("len(1, 2)", SYNTAX, 5),
  ERR ("len()", SYNTAX, 4),
  ERR ("has(1)", SYNTAX, 4),
  ERR ("has()", SYNTAX, 4),
  ERR ("has('a..b')", SYNTAX, 7),
  ERR ("has('')", SYNTAX, 5),
  ERR ("has('a' + 'b')", SYNTAX, 8),
  ERR ("'abc", SYNTAX, 0),
  ERR ("x == \"abc", SYNTAX, 5),
  ERR ("'a\\nb'", SYNTAX, 2),
  ERR ("'a\\", SYNTAX, 0),
  ERR ("a..b", SYNTAX, 2),
  ERR ("a.", SYNTAX, 2),
  ERR ("a. b", SYNTAX, 2),
  ERR ("a[", SYNTAX, 2),
  ERR ("a[0", SYNTAX, 3),
  ERR ("a[x]", SYNTAX, 2),
  ERR ("a[-1]", SYNTAX, 2),
  ERR ("a['k'", SYNTAX, 5),
  ERR ("a[4294967296]", SYNTAX, 2),
  ERR ("a [0]", SYNTAX, 2),
  ERR ("1 = 1", SYNTAX, 2),
  ERR ("1 ! 1", SYNTAX, 2),
  ERR ("1 # 2", SYNTAX, 2),
  ERR ("1 < 2 < 3", SYNTAX, 6),
  ERR ("1 == 1 != true", SYNTAX, 7),
  ERR ("1.", SYNTAX, 2),
  ERR ("1.x", SYNTAX, 2),
  ERR ("12abc", SYNTAX, 2),
  ERR (".5", SYNTAX, 0),
  ERR ("not", SYNTAX, 3),
  ERR ("true.x", SYNTAX, 4),
  ERR (")", SYNTAX, 0),
  ERR ("(1))", SYNTAX, 3),
  ERR ("1 +* 2", SYNTAX, 3),
  ERR ("[0]", SYNTAX, 0),
  ERR ("and", SYNTAX, 0),
  ERR ("true and", SYNTAX, 8),
  ERR ("1 , 2", SYNTAX, 2),
  ERR ("1 + not true", SYNTAX, 4),
  ERR ("a.b(1)", SYNTAX, 3),
  ERR ("x \xc3\xa9", SYNTAX, 2),
  ERR ("1 + \xff", SYNTAX, 4),

  /* missing data */
  ERR ("missing", MISSING, 0),
  ERR ("1 + missing", MISSING, 4),
  ERR ("order.missing", MISSING, 0),
  ERR ("order.items[5]", MISSING, 0),
  ERR ("order.items['x']", MISSING, 0),
  ERR ("order[0]", MISSING, 0),
  ERR ("count.x", MISSING, 0),
  ERR ("order.note.x", MISSING, 0),
  ERR ("true and missing", MISSING, 9),
  ERR ("false or missing", MISSING, 9),
  ERR ("len(missing)", MISSING, 4),
  ERR ("Order.total", MISSING, 0),

  /* types */
  ERR ("1 == '1'", TYPE, 2),
  ERR ("'a' < 1", TYPE, 4),
  ERR ("1 == true", TYPE, 2),
  ERR ("nil == 0", TYPE, 4),
  ERR ("order.total == nil", TYPE, 12),
  ERR ("count == 'x'", TYPE, 6),
  ERR ("true < false", TYPE, 5),
  ERR ("nil < nil", TYPE, 4),
  ERR ("nil >= nil", TYPE, 4),
  ERR ("order.items < order.items", TYPE, 12),
  ERR ("order.items == 1", TYPE, 12),
  ERR ("order.items == order", TYPE, 12),
  ERR ("time(stamp) == stamp", TYPE, 12),
  ERR ("time(stamp) < 5", TYPE, 12),
  ERR ("1 + 'a'", TYPE, 2),
  ERR ("'a' + 1", TYPE, 4),
  ERR ("'a' - 'b'", TYPE, 4),
  ERR ("2 * true", TYPE, 2),
  ERR ("'a' / 1", TYPE, 4),
  ERR ("nil % 2", TYPE, 4),
  ERR ("order.items + order.items", TYPE, 12),
  ERR ("time(stamp) + 1", TYPE, 12),
  ERR ("-'a'", TYPE, 0),
  ERR ("-true", TYPE, 0),
  ERR ("1 + -nothing", TYPE, 4),
  ERR ("not 1", TYPE, 0),
  ERR ("not 'x'", TYPE, 0),
  ERR ("not nothing", TYPE, 0),
  ERR ("1 and true", TYPE, 2),
  ERR ("true and 1", TYPE, 5),
  ERR ("false or 'x'", TYPE, 6),
  ERR ("nil or true", TYPE, 4),
  ERR ("len(5)", TYPE, 4),
  ERR ("len(true)", TYPE, 4),
  ERR ("len(nothing)", TYPE, 4),
  ERR ("len(time(stamp))", TYPE, 4),
  ERR ("time(5)", TYPE, 5),
  ERR ("time(order)", TYPE, 5),

  /* bad values */
  ERR ("time('yesterday')", VALUE, 5),
  ERR ("time('2026-01-02')", VALUE, 5),
  ERR ("time('2026-01-02T03:04:05')", VALUE, 5),
  ERR ("time(name)", VALUE, 5),
  ERR ("time('2026-13-02T03:04:05Z')", VALUE, 5),

  /* division */
  ERR ("1 / 0", DIVISION, 2),
  ERR ("1 % 0", DIVISION, 2),
  ERR ("count / (count - 3)", DIVISION, 6),
  ERR ("0 / 0", DIVISION, 2),
  ERR ("1 / -0", DIVISION, 2),

  /* nil results */
  ERR ("nil", NIL, 0),
  ERR ("nothing", NIL, 0),
  ERR ("order.note", NIL, 0),
  ERR ("(nil)", NIL, 1),
  ERR ("  nil", NIL, 2),
};

static gboolean
check_case (Context    *ctx,
            const Case *c)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WnLite) lite = NULL;
  g_autofree char *prefix = NULL;
  gsize error_offset = G_MAXSIZE;
  WnLiteValue value;
  gboolean ok = TRUE;

  lite = wn_lite_compile (c->source, &error_offset, &error);

  if (c->expect == R_ERROR)
    prefix = g_strdup_printf ("at %" G_GSIZE_FORMAT ": ", c->offset);

  if (c->expect == R_ERROR && c->code == WN_LITE_ERROR_SYNTAX)
    {
      if (lite != NULL || !g_error_matches (error, WN_LITE_ERROR, WN_LITE_ERROR_SYNTAX) ||
          error_offset != c->offset || !g_str_has_prefix (error->message, prefix))
        {
          g_test_message ("%s: expected a syntax error at %" G_GSIZE_FORMAT ", got %s",
                          c->source, c->offset, error != NULL ? error->message : "success");
          return FALSE;
        }
      return TRUE;
    }

  if (lite == NULL)
    {
      g_test_message ("%s: compile error %s", c->source, error->message);
      return FALSE;
    }

  if (!wn_lite_eval (lite, &ctx->scope, &value, &error))
    {
      if (c->expect == R_ERROR && g_error_matches (error, WN_LITE_ERROR, c->code) &&
          g_str_has_prefix (error->message, prefix) && value.kind == WN_LITE_NIL)
        return TRUE;
      g_test_message ("%s: unexpected error %d %s", c->source, error->code, error->message);
      return FALSE;
    }

  switch (c->expect)
    {
    case R_NUMBER:
      ok = value.kind == WN_LITE_NUMBER && fabs (value.num - c->num) < 1e-9;
      break;
    case R_STRING:
      ok = value.kind == WN_LITE_STRING && value.len == strlen (c->text) &&
           memcmp (value.str, c->text, value.len) == 0 && value.str[value.len] == '\0';
      break;
    case R_BOOL:
      ok = value.kind == WN_LITE_BOOL && !value.b == !c->b;
      break;
    case R_TIME:
      ok = value.kind == WN_LITE_TIME && value.time_us == c->time_us;
      break;
    case R_JSON:
      {
        g_autoptr(JsonNode) expected = wn_test_json (c->text);

        ok = value.kind == WN_LITE_JSON && json_node_equal (value.json, expected);
        break;
      }
    case R_ERROR:
      ok = FALSE;
      break;
    default:
      g_assert_not_reached ();
    }

  if (!ok)
    {
      g_autoptr(JsonNode) got = wn_lite_value_to_json (&value);
      g_autofree char *text = json_to_string (got, FALSE);

      g_test_message ("%s: unexpected result (kind %d) %s", c->source, value.kind, text);
    }
  wn_lite_value_clear (&value);
  return ok;
}

static void
test_table (void)
{
  Context ctx;
  guint failures = 0;
  guint n_errors = 0;
  guint i;

  context_init (&ctx);
  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      if (cases[i].expect == R_ERROR)
        n_errors++;
      if (!check_case (&ctx, &cases[i]))
        failures++;
    }
  context_clear (&ctx);

  g_assert_cmpuint (G_N_ELEMENTS (cases), >=, 100);
  g_assert_cmpuint (n_errors, >=, 50);
  g_assert_cmpuint (failures, ==, 0);
}

/* Operators, one by one */

static void
test_arithmetic (void)
{
  Context ctx;

  context_init (&ctx);
  g_assert_cmpfloat (eval_number (&ctx, "2 + 3"), ==, 5);
  g_assert_cmpfloat (eval_number (&ctx, "2 - 3"), ==, -1);
  g_assert_cmpfloat (eval_number (&ctx, "2 * 3"), ==, 6);
  g_assert_cmpfloat (eval_number (&ctx, "3 / 4"), ==, 0.75);
  g_assert_cmpfloat (eval_number (&ctx, "10 % 4"), ==, 2);
  g_assert_cmpfloat (eval_number (&ctx, "-10 % 4"), ==, fmod (-10, 4));
  g_assert_cmpfloat (eval_number (&ctx, "10 % -4"), ==, fmod (10, -4));
  g_assert_cmpfloat (eval_number (&ctx, "5.5 % 2.5"), ==, fmod (5.5, 2.5));
  g_assert_cmpfloat (eval_number (&ctx, "-3"), ==, -3);
  g_assert_cmpfloat (eval_number (&ctx, "- 3"), ==, -3);
  g_assert_cmpfloat (eval_number (&ctx, "1 / 3"), ==, 1.0 / 3.0);
  /* every JSON number reads as a double */
  g_assert_cmpfloat (eval_number (&ctx, "count / 2"), ==, 1.5);
  g_assert_cmpfloat (eval_number (&ctx, "1e308 * 10"), ==, HUGE_VAL);
  context_clear (&ctx);
}

static void
test_precedence (void)
{
  static const struct {
    const char *plain;
    const char *grouped;
  } pairs[] = {
    { "1 + 2 * 3", "1 + (2 * 3)" },
    { "2 * 3 + 1", "(2 * 3) + 1" },
    { "10 - 2 - 3", "(10 - 2) - 3" },
    { "64 / 4 / 2", "(64 / 4) / 2" },
    { "2 * 3 % 4", "(2 * 3) % 4" },
    { "7 % 4 * 3", "(7 % 4) * 3" },
    { "-2 * 3", "(-2) * 3" },
    { "-2 - -3", "(-2) - (-3)" },
    { "1 + 2 < 4", "(1 + 2) < 4" },
    { "1 + 1 == 2 and 3 > 2", "((1 + 1) == 2) and (3 > 2)" },
    { "not 1 < 2", "not (1 < 2)" },
    { "not true or true", "(not true) or true" },
    { "not true and false", "(not true) and false" },
    { "true or true and false", "true or (true and false)" },
    { "false and true or true", "(false and true) or true" },
    { "true or false == false", "true or (false == false)" },
    { "false == false and true", "(false == false) and true" },
  };
  Context ctx;
  guint i;

  context_init (&ctx);
  for (i = 0; i < G_N_ELEMENTS (pairs); i++)
    {
      g_autoptr(WnLite) a = NULL;
      g_autoptr(WnLite) b = NULL;
      WnLiteValue va;
      WnLiteValue vb;

      eval_ok (&ctx, pairs[i].plain, &va, &a);
      eval_ok (&ctx, pairs[i].grouped, &vb, &b);
      g_assert_cmpint (va.kind, ==, vb.kind);
      if (va.kind == WN_LITE_NUMBER)
        g_assert_cmpfloat (va.num, ==, vb.num);
      else
        g_assert_cmpint (va.b, ==, vb.b);
    }

  /* The grouping changes the result where precedence matters. */
  g_assert_cmpfloat (eval_number (&ctx, "1 + 2 * 3"), ==, 7);
  g_assert_cmpfloat (eval_number (&ctx, "(1 + 2) * 3"), ==, 9);
  g_assert_true (eval_boolean (&ctx, "true or true and false"));
  g_assert_false (eval_boolean (&ctx, "(true or true) and false"));
  context_clear (&ctx);
}

static void
test_comparison (void)
{
  Context ctx;
  g_autofree char *msg = NULL;

  context_init (&ctx);
  g_assert_true (eval_boolean (&ctx, "order.total == 150"));
  g_assert_true (eval_boolean (&ctx, "order.total != 151"));
  g_assert_true (eval_boolean (&ctx, "order.total < 151"));
  g_assert_true (eval_boolean (&ctx, "order.total <= 150"));
  g_assert_true (eval_boolean (&ctx, "order.total > 149.5"));
  g_assert_true (eval_boolean (&ctx, "order.total >= 150"));
  /* strings order by bytes, i.e. by code point in UTF-8 */
  g_assert_true (eval_boolean (&ctx, "'Z' < 'a'"));
  g_assert_true (eval_boolean (&ctx, "'z' < '\xc3\xa9'"));
  g_assert_true (eval_boolean (&ctx, "name == 'h\xc3\xa9llo'"));
  /* deep structural equality for arrays and objects, ints equal to doubles */
  g_assert_true (eval_boolean (&ctx, "matrix == same"));
  g_assert_false (eval_boolean (&ctx, "matrix != same"));

  msg = eval_error (&ctx, "count == 'x'", WN_LITE_ERROR_TYPE, 6);
  g_assert_cmpstr (msg, ==, "at 6: cannot compare number with string");
  g_clear_pointer (&msg, g_free);

  msg = eval_error (&ctx, "true == nil", WN_LITE_ERROR_TYPE, 5);
  g_assert_cmpstr (msg, ==, "at 5: cannot compare boolean with nil");
  g_clear_pointer (&msg, g_free);

  msg = eval_error (&ctx, "order == order.items", WN_LITE_ERROR_TYPE, 6);
  g_assert_cmpstr (msg, ==, "at 6: cannot compare object with array");
  g_clear_pointer (&msg, g_free);

  msg = eval_error (&ctx, "time(stamp) == 1", WN_LITE_ERROR_TYPE, 12);
  g_assert_cmpstr (msg, ==, "at 12: cannot compare time with number");
  g_clear_pointer (&msg, g_free);

  msg = eval_error (&ctx, "flag < true", WN_LITE_ERROR_TYPE, 5);
  g_assert_nonnull (strstr (msg, "boolean"));
  g_assert_nonnull (strstr (msg, "'<'"));
  context_clear (&ctx);
}

static void
test_logic (void)
{
  Context ctx;
  g_autofree char *msg = NULL;

  context_init (&ctx);
  g_assert_true (eval_boolean (&ctx, "true and true"));
  g_assert_false (eval_boolean (&ctx, "true and false"));
  g_assert_false (eval_boolean (&ctx, "false and true"));
  g_assert_false (eval_boolean (&ctx, "false and false"));
  g_assert_true (eval_boolean (&ctx, "true or true"));
  g_assert_true (eval_boolean (&ctx, "true or false"));
  g_assert_true (eval_boolean (&ctx, "false or true"));
  g_assert_false (eval_boolean (&ctx, "false or false"));
  g_assert_true (eval_boolean (&ctx, "not false"));
  g_assert_false (eval_boolean (&ctx, "not true"));
  g_assert_false (eval_boolean (&ctx, "not not not true"));

  msg = eval_error (&ctx, "not 1", WN_LITE_ERROR_TYPE, 0);
  g_assert_cmpstr (msg, ==, "at 0: expected a boolean for 'not' but found number");
  g_clear_pointer (&msg, g_free);

  msg = eval_error (&ctx, "count and true", WN_LITE_ERROR_TYPE, 6);
  g_assert_nonnull (strstr (msg, "found number"));
  g_clear_pointer (&msg, g_free);

  msg = eval_error (&ctx, "false or name", WN_LITE_ERROR_TYPE, 6);
  g_assert_nonnull (strstr (msg, "found string"));
  context_clear (&ctx);
}

static void
test_short_circuit (void)
{
  Context ctx;

  context_init (&ctx);
  /* The right operand is neither read nor type-checked when not needed. */
  g_assert_false (eval_boolean (&ctx, "false and missing.var"));
  g_assert_true (eval_boolean (&ctx, "true or missing.var"));
  g_assert_false (eval_boolean (&ctx, "false and 1 / 0 == 1"));
  g_assert_true (eval_boolean (&ctx, "true or 'not a bool'"));
  g_assert_false (eval_boolean (&ctx, "has('order.x') and order.x > 1"));
  g_assert_true (eval_boolean (&ctx, "not has('order.x') or order.x > 1"));
  g_assert_true (eval_boolean (&ctx, "has('order.total') and order.total > 1"));

  /* …but it is when it is needed. */
  g_free (eval_error (&ctx, "true and missing.var", WN_LITE_ERROR_MISSING, 9));
  g_free (eval_error (&ctx, "false or missing.var", WN_LITE_ERROR_MISSING, 9));
  g_free (eval_error (&ctx, "has('order.total') and order.x > 1", WN_LITE_ERROR_MISSING, 23));
  context_clear (&ctx);
}

static void
test_strings (void)
{
  Context ctx;
  g_autoptr(WnLite) lite = NULL;
  g_autoptr(WnLite) cat = NULL;
  WnLiteValue value;
  const char *first;

  context_init (&ctx);

  /* Literals are borrowed from the compiled expression. */
  eval_ok (&ctx, "'single'", &value, &lite);
  g_assert_cmpint (value.kind, ==, WN_LITE_STRING);
  g_assert_false (value.owned_str);
  g_assert_cmpstr (value.str, ==, "single");
  first = value.str;
  wn_lite_value_clear (&value);
  g_assert_true (wn_lite_eval (lite, &ctx.scope, &value, NULL));
  g_assert_true (value.str == first);
  wn_lite_value_clear (&value);
  g_clear_pointer (&lite, wn_lite_unref);

  /* Strings read from data are borrowed from the data. */
  eval_ok (&ctx, "order.currency", &value, &lite);
  g_assert_false (value.owned_str);
  g_assert_true (value.str == json_object_get_string_member (
                   json_object_get_object_member (ctx.scope.variables, "order"), "currency"));
  g_assert_cmpuint (value.len, ==, 3);
  wn_lite_value_clear (&value);

  /* Concatenation owns its result. */
  eval_ok (&ctx, "order.currency + ' ' + name + \"!\"", &value, &cat);
  g_assert_cmpint (value.kind, ==, WN_LITE_STRING);
  g_assert_true (value.owned_str);
  g_assert_cmpstr (value.str, ==, "EUR h\xc3\xa9llo!");
  g_assert_cmpuint (value.len, ==, strlen ("EUR h\xc3\xa9llo!"));
  wn_lite_value_clear (&value);
  g_assert_cmpint (value.kind, ==, WN_LITE_NIL);
  g_assert_false (value.owned_str);

  context_clear (&ctx);
}

static void
test_escapes (void)
{
  static const struct {
    const char *source;
    const char *expected;
  } ok_cases[] = {
    { "'\\''", "'" },
    { "'\\\"'", "\"" },
    { "'\\\\'", "\\" },
    { "\"\\'\"", "'" },
    { "\"\\\"\"", "\"" },
    { "\"\\\\\"", "\\" },
    { "'a\\\\\\'b'", "a\\'b" },
    { "'\"'", "\"" },
    { "\"'\"", "'" },
    { "'tab\there'", "tab\there" },
    { "'\xe2\x82\xac'", "\xe2\x82\xac" },
  };
  Context ctx;
  guint i;
  g_autofree char *msg = NULL;

  context_init (&ctx);
  for (i = 0; i < G_N_ELEMENTS (ok_cases); i++)
    {
      g_autoptr(WnLite) lite = NULL;
      WnLiteValue value;

      eval_ok (&ctx, ok_cases[i].source, &value, &lite);
      g_assert_cmpint (value.kind, ==, WN_LITE_STRING);
      g_assert_cmpstr (value.str, ==, ok_cases[i].expected);
      g_assert_cmpuint (value.len, ==, strlen (ok_cases[i].expected));
    }

  msg = compile_error ("'a\\nb'", 2);
  g_assert_nonnull (strstr (msg, "'n'"));
  g_clear_pointer (&msg, g_free);
  g_free (compile_error ("x == 'a\\tb'", 7));
  g_free (compile_error ("'abc\\'", 0));
  msg = compile_error ("1 + 'open", 4);
  g_assert_nonnull (strstr (msg, "end of input"));
  context_clear (&ctx);
}

static void
test_paths (void)
{
  Context ctx;
  g_autofree char *msg = NULL;

  context_init (&ctx);
  g_assert_cmpfloat (eval_number (&ctx, "order.items[1].price"), ==, 3);
  g_assert_cmpfloat (eval_number (&ctx, "rates[\"US D\"]"), ==, 1);
  g_assert_cmpfloat (eval_number (&ctx, "rates['EUR'] * 2"), ==, 2.5);
  g_assert_cmpfloat (eval_number (&ctx, "matrix[1][1]"), ==, 4);
  g_assert_cmpfloat (eval_number (&ctx, "body[\"list\"][0]"), ==, 1);
  g_assert_cmpfloat (eval_number (&ctx, "order['items'][0][\"qty\"]"), ==, 2);

  msg = eval_error (&ctx, "foo", WN_LITE_ERROR_MISSING, 0);
  g_assert_cmpstr (msg, ==, "at 0: unknown variable 'foo'");
  g_clear_pointer (&msg, g_free);

  msg = eval_error (&ctx, "1 + order.items[7].price", WN_LITE_ERROR_MISSING, 4);
  g_assert_nonnull (strstr (msg, "order.items[7].price"));
  g_assert_nonnull (strstr (msg, "7"));
  g_clear_pointer (&msg, g_free);

  msg = eval_error (&ctx, "order.nope", WN_LITE_ERROR_MISSING, 0);
  g_assert_nonnull (strstr (msg, "'nope'"));
  g_clear_pointer (&msg, g_free);

  msg = eval_error (&ctx, "name.first", WN_LITE_ERROR_MISSING, 0);
  g_assert_nonnull (strstr (msg, "string"));
  g_clear_pointer (&msg, g_free);

  context_clear (&ctx);
}

static void
test_has (void)
{
  Context ctx;
  g_autofree char *msg = NULL;

  context_init (&ctx);
  g_assert_true (eval_boolean (&ctx, "has('order')"));
  g_assert_true (eval_boolean (&ctx, "has(\"order.items[0].sku\")"));
  g_assert_true (eval_boolean (&ctx, "has('rates[\"US D\"]')"));
  g_assert_true (eval_boolean (&ctx, "has(rates['it\\'s'])"));
  g_assert_false (eval_boolean (&ctx, "has('rates[\"GBP\"]')"));
  g_assert_false (eval_boolean (&ctx, "has('nobody')"));
  g_assert_false (eval_boolean (&ctx, "has('order.items[9].sku')"));
  /* a null value is present */
  g_assert_true (eval_boolean (&ctx, "has('nothing')"));
  /* roots count */
  g_assert_true (eval_boolean (&ctx, "has('body.status')"));

  /* A malformed path is a syntax error pointing into the string. */
  msg = compile_error ("has('a..b')", 7);
  g_assert_nonnull (strstr (msg, "expected a name"));
  g_clear_pointer (&msg, g_free);
  g_free (compile_error ("has(\"a[\\\"x\\\"]..b\")", 14));
  g_free (compile_error ("has('a[0')", 8));
  g_free (compile_error ("has('a', 'b')", 7));
  g_free (compile_error ("has(1 + 1)", 4));
  context_clear (&ctx);
}

static void
test_len (void)
{
  Context ctx;
  g_autofree char *msg = NULL;

  context_init (&ctx);
  /* characters, not bytes */
  g_assert_cmpfloat (eval_number (&ctx, "len('h\xc3\xa9llo')"), ==, 5);
  g_assert_cmpfloat (eval_number (&ctx, "len(name)"), ==, 5);
  g_assert_cmpfloat (eval_number (&ctx, "len('\xf0\x9f\x98\x80')"), ==, 1);
  g_assert_cmpfloat (eval_number (&ctx, "len('abc')"), ==, 3);
  g_assert_true (eval_boolean (&ctx, "len('h\xc3\xa9llo') == 5"));
  /* elements of arrays and members of objects */
  g_assert_cmpfloat (eval_number (&ctx, "len(matrix)"), ==, 2);
  g_assert_cmpfloat (eval_number (&ctx, "len(matrix[0])"), ==, 2);
  g_assert_cmpfloat (eval_number (&ctx, "len(rates)"), ==, 4);
  g_assert_cmpfloat (eval_number (&ctx, "len(body)"), ==, 3);

  msg = eval_error (&ctx, "len(42)", WN_LITE_ERROR_TYPE, 4);
  g_assert_cmpstr (msg, ==, "at 4: expected a string, array or object for len() but found number");
  context_clear (&ctx);
}

static void
test_time (void)
{
  Context ctx;
  g_autoptr(WnLite) lite = NULL;
  g_autofree char *msg = NULL;
  WnLiteValue value;

  context_init (&ctx);
  eval_ok (&ctx, "time('2026-01-02T03:04:05.123456Z')", &value, &lite);
  g_assert_cmpint (value.kind, ==, WN_LITE_TIME);
  g_assert_cmpint (value.time_us, ==, STAMP_US + 123456);
  g_clear_pointer (&lite, wn_lite_unref);

  eval_ok (&ctx, "time('2026-01-01T22:04:05-05:00')", &value, &lite);
  g_assert_cmpint (value.time_us, ==, STAMP_US);
  g_clear_pointer (&lite, wn_lite_unref);

  g_assert_true (eval_boolean (&ctx, "time(stamp) < time('2026-01-02T03:04:05.000001Z')"));
  g_assert_true (eval_boolean (&ctx, "time(stamp) == time('2026-01-02T03:04:05Z')"));
  g_assert_false (eval_boolean (&ctx, "time(stamp) > time('2026-01-02T03:04:05Z')"));
  g_assert_true (eval_boolean (&ctx, "time('2025-01-01T00:00:00Z') <= time(stamp)"));
  g_assert_true (eval_boolean (&ctx, "time('2027-01-01T00:00:00Z') >= time(stamp)"));

  msg = eval_error (&ctx, "time('soon')", WN_LITE_ERROR_VALUE, 5);
  g_assert_nonnull (strstr (msg, "soon"));
  g_clear_pointer (&msg, g_free);

  /* Times do not compare with their string form. */
  g_free (eval_error (&ctx, "time(stamp) == '2026-01-02T03:04:05Z'", WN_LITE_ERROR_TYPE, 12));
  /* nor order with numbers */
  g_free (eval_error (&ctx, "time(stamp) > 0", WN_LITE_ERROR_TYPE, 12));
  context_clear (&ctx);
}

static void
test_syntax_errors (void)
{
  g_autofree char *msg = NULL;

  msg = compile_error ("(1 + 2", 6);
  g_assert_cmpstr (msg, ==, "at 6: expected ')' but found end of input");
  g_clear_pointer (&msg, g_free);

  msg = compile_error ("len(body", 8);
  g_assert_cmpstr (msg, ==, "at 8: expected ')' but found end of input");
  g_clear_pointer (&msg, g_free);

  msg = compile_error ("1 +", 3);
  g_assert_cmpstr (msg, ==, "at 3: expected a value but found end of input");
  g_clear_pointer (&msg, g_free);

  msg = compile_error ("upper(name)", 0);
  g_assert_nonnull (strstr (msg, "unknown function 'upper'"));
  g_clear_pointer (&msg, g_free);

  msg = compile_error ("1 2", 2);
  g_assert_cmpstr (msg, ==, "at 2: expected an operator or end of input but found number 2");
  g_clear_pointer (&msg, g_free);

  msg = compile_error ("a..b", 2);
  g_assert_cmpstr (msg, ==, "at 2: expected a name after '.' but found '.'");
  g_clear_pointer (&msg, g_free);

  msg = compile_error ("x + $", 4);
  g_assert_cmpstr (msg, ==, "at 4: unexpected character '$'");
  g_clear_pointer (&msg, g_free);

  msg = compile_error ("x = 1", 2);
  g_assert_cmpstr (msg, ==, "at 2: expected '==' but found '='");
  g_clear_pointer (&msg, g_free);

  msg = compile_error ("1 < 2 < 3", 6);
  g_assert_nonnull (strstr (msg, "'<'"));
  g_clear_pointer (&msg, g_free);

  msg = compile_error ("(x or)", 5);
  g_assert_cmpstr (msg, ==, "at 5: expected a value but found ')'");
  g_clear_pointer (&msg, g_free);

  msg = compile_error ("a and or b", 6);
  g_assert_cmpstr (msg, ==, "at 6: expected a value but found 'or'");
  g_clear_pointer (&msg, g_free);

  /* Nothing leaks into a NULL error location. */
  g_assert_null (wn_lite_compile ("1 +", NULL, NULL));
}

static void
test_division (void)
{
  Context ctx;
  g_autofree char *msg = NULL;

  context_init (&ctx);
  msg = eval_error (&ctx, "order.total / 0", WN_LITE_ERROR_DIVISION, 12);
  g_assert_nonnull (strstr (msg, "'/'"));
  g_clear_pointer (&msg, g_free);
  msg = eval_error (&ctx, "order.total % (count - 3)", WN_LITE_ERROR_DIVISION, 12);
  g_assert_nonnull (strstr (msg, "'%'"));
  g_assert_cmpfloat (eval_number (&ctx, "0 / 5"), ==, 0);
  context_clear (&ctx);
}

static void
test_nil (void)
{
  Context ctx;
  g_autofree char *msg = NULL;

  context_init (&ctx);
  msg = eval_error (&ctx, "nothing", WN_LITE_ERROR_NIL, 0);
  g_assert_nonnull (strstr (msg, "nil"));
  g_clear_pointer (&msg, g_free);
  g_free (eval_error (&ctx, "order.note", WN_LITE_ERROR_NIL, 0));
  /* nil is fine inside an expression */
  g_assert_true (eval_boolean (&ctx, "order.note == nil"));
  g_assert_false (eval_boolean (&ctx, "nil != nothing"));
  context_clear (&ctx);
}

/* Scope */

static void
test_scope (void)
{
  g_autoptr(JsonNode) vars = wn_test_json ("{ \"x\": 1, \"y\": 2, \"body\": 99 }");
  g_autoptr(JsonNode) body = wn_test_json ("{ \"x\": 10 }");
  g_autoptr(WnLite) lite = compile_ok ("body.x + y");
  g_autoptr(WnLite) plain = compile_ok ("body");
  g_autoptr(WnLite) constant = compile_ok ("1 + 2");
  g_autoptr(WnLite) with_x = compile_ok ("x");
  g_autoptr(GError) error = NULL;
  WnLiteRoot roots[2] = { { "body", body }, { "x", NULL } };
  WnLiteScope scope = { roots, 1, json_node_get_object (vars) };
  WnLiteScope no_vars = { roots, 1, NULL };
  WnLiteValue value;

  /* roots come first, then variables */
  g_assert_true (wn_lite_eval (lite, &scope, &value, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (value.num, ==, 12);

  /* a root without a node is skipped */
  scope.n_roots = 2;
  g_assert_true (wn_lite_eval (with_x, &scope, &value, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (value.num, ==, 1);

  /* a scalar root */
  {
    g_autoptr(JsonNode) code = json_node_new (JSON_NODE_VALUE);
    g_autoptr(WnLite) check = compile_ok ("code == '404' and len(code) == 3");
    WnLiteRoot code_root = { "code", code };
    WnLiteScope code_scope = { &code_root, 1, NULL };
    gboolean b = FALSE;

    json_node_set_string (code, "404");
    g_assert_true (wn_lite_eval_bool (check, &code_scope, &b, &error));
    g_assert_no_error (error);
    g_assert_true (b);
  }

  /* no variables */
  g_assert_false (wn_lite_eval (lite, &no_vars, &value, &error));
  g_assert_error (error, WN_LITE_ERROR, WN_LITE_ERROR_MISSING);
  g_assert_cmpstr (error->message, ==, "at 9: unknown variable 'y'");
  g_clear_error (&error);

  g_assert_true (wn_lite_eval (plain, &no_vars, &value, &error));
  g_assert_cmpint (value.kind, ==, WN_LITE_JSON);
  g_assert_true (value.json == body);

  /* no scope at all */
  g_assert_true (wn_lite_eval (constant, NULL, &value, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (value.num, ==, 3);
  g_assert_false (wn_lite_eval (plain, NULL, &value, &error));
  g_assert_error (error, WN_LITE_ERROR, WN_LITE_ERROR_MISSING);
}

static void
test_keywords (void)
{
  Context ctx;

  context_init (&ctx);
  /* Names that merely start with a keyword are names. */
  g_assert_cmpfloat (eval_number (&ctx, "andy"), ==, 1);
  g_assert_true (eval_boolean (&ctx, "notice == 'n'"));
  g_assert_true (eval_boolean (&ctx, "not(false)"));
  g_assert_true (eval_boolean (&ctx, "(true)and(true)"));
  /* builtin names are names unless called */
  g_assert_cmpfloat (eval_number (&ctx, "len"), ==, 7);
  g_assert_cmpfloat (eval_number (&ctx, "len(rates) + len"), ==, 11);
  context_clear (&ctx);
}

/* Convenience entry points */

static void
test_eval_bool (void)
{
  Context ctx;
  g_autoptr(WnLite) yes = compile_ok ("order.paid and count > 2");
  g_autoptr(WnLite) num = compile_ok ("count");
  g_autoptr(WnLite) missing = compile_ok ("missing");
  g_autoptr(GError) error = NULL;
  gboolean b = FALSE;

  context_init (&ctx);
  g_assert_true (wn_lite_eval_bool (yes, &ctx.scope, &b, &error));
  g_assert_no_error (error);
  g_assert_true (b);

  g_assert_false (wn_lite_eval_bool (num, &ctx.scope, &b, &error));
  g_assert_error (error, WN_LITE_ERROR, WN_LITE_ERROR_TYPE);
  g_assert_cmpstr (error->message, ==, "at 0: expected a boolean but found number");
  g_clear_error (&error);

  g_assert_false (wn_lite_eval_bool (missing, &ctx.scope, &b, &error));
  g_assert_error (error, WN_LITE_ERROR, WN_LITE_ERROR_MISSING);
  context_clear (&ctx);
}

static void
test_eval_json (void)
{
  Context ctx;
  g_autoptr(GError) error = NULL;
  static const struct {
    const char *source;
    const char *expected;
  } json_cases[] = {
    { "order.total", "150" },
    { "order.total / 4", "37.5" },
    { "1.5", "1.5" },
    { "-0", "0" },
    { "true", "true" },
    { "'x' + 'y'", "\"xy\"" },
    { "name", "\"h\\u00e9llo\"" },
    { "time('2026-01-02T03:04:05Z')", "\"2026-01-02T03:04:05Z\"" },
    { "time('2026-01-02T04:04:05.25+01:00')", "\"2026-01-02T03:04:05.250000Z\"" },
    { "order.items[1]", "{\"sku\":\"B-2\",\"price\":3,\"qty\":1}" },
    { "matrix", "[[1,2],[3,4]]" },
  };
  guint i;

  context_init (&ctx);
  for (i = 0; i < G_N_ELEMENTS (json_cases); i++)
    {
      g_autoptr(WnLite) lite = compile_ok (json_cases[i].source);
      g_autoptr(JsonNode) got = wn_lite_eval_json (lite, &ctx.scope, &error);
      g_autoptr(JsonNode) expected = wn_test_json (json_cases[i].expected);

      g_assert_no_error (error);
      g_assert_nonnull (got);
      g_assert_true (json_node_equal (got, expected));
      if (JSON_NODE_HOLDS_VALUE (expected))
        g_assert_true (json_node_get_value_type (got) == json_node_get_value_type (expected));
    }

  /* whole numbers come out as JSON integers */
  {
    g_autoptr(WnLite) lite = compile_ok ("order.items[0].qty * 2");
    g_autoptr(JsonNode) got = wn_lite_eval_json (lite, &ctx.scope, &error);
    g_autofree char *text = json_to_string (got, FALSE);

    g_assert_cmpstr (text, ==, "4");
  }

  /* arrays and objects are deep copies */
  {
    g_autoptr(WnLite) lite = compile_ok ("order.items");
    g_autoptr(JsonNode) got = wn_lite_eval_json (lite, &ctx.scope, &error);
    JsonObject *order = json_object_get_object_member (ctx.scope.variables, "order");
    JsonArray *items = json_object_get_array_member (order, "items");
    JsonObject *first;

    g_assert_no_error (error);
    g_assert_true (JSON_NODE_HOLDS_ARRAY (got));
    g_assert_true (json_node_get_array (got) != items);
    first = json_array_get_object_element (json_node_get_array (got), 0);
    g_assert_true (first != json_array_get_object_element (items, 0));
    json_object_set_string_member (first, "sku", "changed");
    g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (items, 0), "sku"),
                     ==, "A-1");
  }

  /* errors */
  {
    g_autoptr(WnLite) lite = compile_ok ("order.note");
    JsonNode *got = wn_lite_eval_json (lite, &ctx.scope, &error);

    g_assert_null (got);
    g_assert_error (error, WN_LITE_ERROR, WN_LITE_ERROR_NIL);
  }
  context_clear (&ctx);
}

static void
test_value_to_json (void)
{
  WnLiteValue value = { 0, };
  g_autoptr(JsonNode) null_node = NULL;
  g_autoptr(JsonNode) str_node = NULL;
  g_autoptr(JsonNode) frac_node = NULL;
  g_autoptr(JsonNode) epoch_node = NULL;

  value.kind = WN_LITE_NIL;
  null_node = wn_lite_value_to_json (&value);
  g_assert_true (JSON_NODE_HOLDS_NULL (null_node));

  /* a string value with a length shorter than its buffer */
  value.kind = WN_LITE_STRING;
  value.str = "abcdef";
  value.len = 3;
  str_node = wn_lite_value_to_json (&value);
  g_assert_cmpstr (json_node_get_string (str_node), ==, "abc");

  value.kind = WN_LITE_NUMBER;
  value.num = 0.1;
  frac_node = wn_lite_value_to_json (&value);
  g_assert_cmpfloat (json_node_get_double (frac_node), ==, 0.1);

  value.kind = WN_LITE_TIME;
  value.time_us = -500000;
  epoch_node = wn_lite_value_to_json (&value);
  g_assert_cmpstr (json_node_get_string (epoch_node), ==, "1969-12-31T23:59:59.500000Z");
}

/* Compiled form */

static void
test_ref (void)
{
  WnLite *lite = compile_ok ("  order.total > 1  ");
  WnLite *again;

  g_assert_cmpstr (wn_lite_get_source (lite), ==, "  order.total > 1  ");
  again = wn_lite_ref (lite);
  g_assert_true (again == lite);
  wn_lite_unref (lite);
  g_assert_cmpstr (wn_lite_get_source (again), ==, "  order.total > 1  ");
  wn_lite_unref (again);
}

static void
test_repeat (void)
{
  static const char *sources[] = {
    "order.total * rates.EUR - count % 2",
    "order.paid and (order.total > 100 or has('order.coupon')) and not flag",
    "len(name) + len(order.items)",
    "order.currency + '/' + name",
    "time(stamp) < time('2027-01-01T00:00:00Z')",
    "order.items[1]",
  };
  Context ctx;
  guint i;
  guint round;

  context_init (&ctx);
  for (i = 0; i < G_N_ELEMENTS (sources); i++)
    {
      g_autoptr(WnLite) lite = compile_ok (sources[i]);
      g_autoptr(JsonNode) first = wn_lite_eval_json (lite, &ctx.scope, NULL);

      g_assert_nonnull (first);
      for (round = 0; round < 1000; round++)
        {
          WnLiteValue value;
          g_autoptr(JsonNode) again = NULL;

          g_assert_true (wn_lite_eval (lite, &ctx.scope, &value, NULL));
          again = wn_lite_value_to_json (&value);
          g_assert_true (json_node_equal (first, again));
          wn_lite_value_clear (&value);
        }
    }

  /* The same expression evaluated over changing data. */
  {
    g_autoptr(WnLite) lite = compile_ok ("x * 2 > 10");
    g_autoptr(JsonNode) vars = wn_test_json ("{ \"x\": 0 }");
    WnLiteScope scope = { NULL, 0, json_node_get_object (vars) };

    for (round = 0; round < 20; round++)
      {
        gboolean b = FALSE;

        json_object_set_int_member (scope.variables, "x", round);
        g_assert_true (wn_lite_eval_bool (lite, &scope, &b, NULL));
        g_assert_cmpint (b, ==, round * 2 > 10);
      }
  }
  context_clear (&ctx);
}

#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#define COUNT_ALLOCATIONS 1

/* Count heap allocations by interposing malloc over glibc's own. */
extern void *__libc_malloc (size_t size);
extern void *__libc_calloc (size_t n, size_t size);
extern void *__libc_realloc (void *ptr, size_t size);

static volatile gboolean counting;
static volatile guint n_allocations;

void *
malloc (size_t size)
{
  if (counting)
    n_allocations++;
  return __libc_malloc (size);
}

void *
calloc (size_t n,
        size_t size)
{
  if (counting)
    n_allocations++;
  return __libc_calloc (n, size);
}

void *
realloc (void   *ptr,
         size_t  size)
{
  if (counting)
    n_allocations++;
  return __libc_realloc (ptr, size);
}
#endif

static void
test_no_allocation (void)
{
#ifdef COUNT_ALLOCATIONS
  static const char *sources[] = {
    "order.total * rates.EUR - count % 2 + -neg",
    "order.paid and (order.total > 100 or has('order.coupon')) and not flag",
    "len(name) + len(order.items) + len(rates)",
    "order.currency == 'EUR' and name != '' and 'a' < 'b'",
    "time(stamp) < time('2027-01-01T00:00:00Z')",
    "matrix == same",
    "rates[\"US D\"] + matrix[1][0]",
    "body.error.retryable and code == '500'",
  };
  Context ctx;
  gpointer probe;
  guint i;

  /* Tools such as valgrind replace malloc themselves: then nothing counts. */
  n_allocations = 0;
  counting = TRUE;
  probe = g_malloc (16);
  counting = FALSE;
  g_free (probe);
  if (n_allocations == 0)
    {
      g_test_skip ("allocations cannot be counted here");
      return;
    }

  context_init (&ctx);
  for (i = 0; i < G_N_ELEMENTS (sources); i++)
    {
      g_autoptr(WnLite) lite = compile_ok (sources[i]);
      WnLiteValue value;
      gboolean ok;

      /* warm up: the first evaluation of stamp's time() parses data */
      ok = wn_lite_eval (lite, &ctx.scope, &value, NULL);
      g_assert_true (ok);
      wn_lite_value_clear (&value);

      if (strstr (sources[i], "time(stamp)") != NULL)
        continue;  /* time() of data parses the string each time */

      n_allocations = 0;
      counting = TRUE;
      ok = wn_lite_eval (lite, &ctx.scope, &value, NULL);
      counting = FALSE;
      g_assert_true (ok);
      g_assert_cmpuint (n_allocations, ==, 0);
      wn_lite_value_clear (&value);
    }

  /* The check itself works: concatenation allocates. */
  {
    g_autoptr(WnLite) lite = compile_ok ("name + '!'");
    WnLiteValue value;

    n_allocations = 0;
    counting = TRUE;
    g_assert_true (wn_lite_eval (lite, &ctx.scope, &value, NULL));
    counting = FALSE;
    g_assert_cmpuint (n_allocations, >=, 1);
    wn_lite_value_clear (&value);
  }
  context_clear (&ctx);
#else
  g_test_skip ("allocation counting needs glibc");
#endif
}

static void
test_nesting (void)
{
  GString *deep = g_string_new (NULL);
  g_autoptr(WnLite) ok_lite = NULL;
  g_autofree char *msg = NULL;
  WnLiteValue value;
  guint i;

  /* 100 levels of parentheses are fine */
  for (i = 0; i < 100; i++)
    g_string_append_c (deep, '(');
  g_string_append (deep, "1");
  for (i = 0; i < 100; i++)
    g_string_append_c (deep, ')');
  ok_lite = compile_ok (deep->str);
  g_assert_true (wn_lite_eval (ok_lite, NULL, &value, NULL));
  g_assert_cmpfloat (value.num, ==, 1);

  /* 10000 are refused, not a crash */
  g_string_truncate (deep, 0);
  for (i = 0; i < 10000; i++)
    g_string_append_c (deep, '(');
  msg = compile_error (deep->str, 256);
  g_assert_nonnull (strstr (msg, "nested too deeply"));
  g_clear_pointer (&msg, g_free);

  g_string_truncate (deep, 0);
  for (i = 0; i < 10000; i++)
    g_string_append (deep, "not ");
  g_string_append (deep, "true");
  g_assert_null (wn_lite_compile (deep->str, NULL, NULL));

  g_string_truncate (deep, 0);
  g_string_append (deep, "1");
  for (i = 0; i < 10000; i++)
    g_string_append (deep, " + 1");
  msg = compile_error (deep->str, 1022);
  g_assert_cmpstr (msg, ==, "at 1022: expression too long: more than 256 operators in one chain");
  g_clear_pointer (&msg, g_free);

  /* a flat chain of 300 terms nests nothing: its message does not say so */
  g_string_truncate (deep, 0);
  g_string_append (deep, "1");
  for (i = 1; i < 300; i++)
    g_string_append (deep, "+1");
  msg = compile_error (deep->str, 511);
  g_assert_null (strstr (msg, "nested"));
  g_assert_nonnull (strstr (msg, "more than 256 operators in one chain"));

  g_string_free (deep, TRUE);
}

/* A message about a huge expression quotes a window from the offset, not the
 * whole token: a 300 KB string literal or path is not repeated. */
static void
test_long_token_excerpt (void)
{
  g_autofree char *long_string = g_strnfill (300000, 'a');
  g_autofree char *literal = g_strdup_printf ("1 '%s'", long_string);
  g_autofree char *path = g_strdup_printf ("order.%s == 1", long_string);
  g_autofree char *head = g_strdup_printf ("%s == 1", long_string);
  g_autofree char *forty = g_strnfill (40, 'a');
  g_autofree char *expected = NULL;
  g_autofree char *msg = NULL;
  Context ctx;

  msg = compile_error (literal, 2);
  /* forty characters: the quote and 39 of the letters */
  expected = g_strdup_printf ("at 2: expected an operator or end of input but found string '%.39s…", forty);
  g_assert_cmpstr (msg, ==, expected);
  g_clear_pointer (&msg, g_free);
  g_clear_pointer (&expected, g_free);

  context_init (&ctx);
  msg = eval_error (&ctx, path, WN_LITE_ERROR_MISSING, 0);
  expected = g_strdup_printf ("at 0: dead path 'order.%.34s…': no key '%s…'", long_string, forty);
  g_assert_cmpstr (msg, ==, expected);
  g_clear_pointer (&msg, g_free);
  g_clear_pointer (&expected, g_free);

  msg = eval_error (&ctx, head, WN_LITE_ERROR_MISSING, 0);
  expected = g_strdup_printf ("at 0: unknown variable '%s…'", forty);
  g_assert_cmpstr (msg, ==, expected);
  context_clear (&ctx);

  /* short tokens are quoted whole, as before */
  g_clear_pointer (&msg, g_free);
  msg = compile_error ("1 'abc'", 2);
  g_assert_cmpstr (msg, ==, "at 2: expected an operator or end of input but found string 'abc'");
}

/* Structural paths */

static void
test_path_parse (void)
{
  g_autoptr(GError) error = NULL;
  WnPath *path;

  path = wn_path_parse ("a", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (path->head, ==, "a");
  g_assert_cmpuint (path->n_steps, ==, 0);
  wn_path_free (path);

  path = wn_path_parse ("order.items[0].price", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (path->head, ==, "order");
  g_assert_cmpuint (path->n_steps, ==, 3);
  g_assert_cmpint (path->steps[0].kind, ==, WN_PATH_KEY);
  g_assert_cmpstr (path->steps[0].key, ==, "items");
  g_assert_cmpint (path->steps[1].kind, ==, WN_PATH_INDEX);
  g_assert_cmpuint (path->steps[1].index, ==, 0);
  g_assert_null (path->steps[1].key);
  g_assert_cmpint (path->steps[2].kind, ==, WN_PATH_KEY);
  g_assert_cmpstr (path->steps[2].key, ==, "price");
  wn_path_free (path);

  path = wn_path_parse ("rates[\"EUR\"]", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (path->head, ==, "rates");
  g_assert_cmpuint (path->n_steps, ==, 1);
  g_assert_cmpint (path->steps[0].kind, ==, WN_PATH_KEY);
  g_assert_cmpstr (path->steps[0].key, ==, "EUR");
  wn_path_free (path);

  path = wn_path_parse ("a.b[2][\"x y\"]['it\\'s'][4294967295]", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (path->n_steps, ==, 5);
  g_assert_cmpstr (path->steps[0].key, ==, "b");
  g_assert_cmpuint (path->steps[1].index, ==, 2);
  g_assert_cmpstr (path->steps[2].key, ==, "x y");
  g_assert_cmpstr (path->steps[3].key, ==, "it's");
  g_assert_cmpuint (path->steps[4].index, ==, G_MAXUINT);
  wn_path_free (path);

  path = wn_path_parse ("_x1.Y_2[\"\"]", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (path->head, ==, "_x1");
  g_assert_cmpstr (path->steps[1].key, ==, "");
  wn_path_free (path);

  /* keywords are plain names here: callers decide */
  path = wn_path_parse ("not", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (path->head, ==, "not");
  wn_path_free (path);

  wn_path_free (NULL);
}

static void
test_path_parse_errors (void)
{
  static const struct {
    const char *source;
    gsize       offset;
  } bad[] = {
    { "", 0 },
    { "a..b", 2 },
    { "a.", 2 },
    { "[0]", 0 },
    { ".a", 0 },
    { "a b", 1 },
    { "a[0]x", 4 },
    { "a[0].", 5 },
    { "a[", 2 },
    { "a[0", 3 },
    { "a[]", 2 },
    { "a[-1]", 2 },
    { "a[1.5]", 3 },
    { "a['x", 2 },
    { "a[\"k\"", 5 },
    { "a[4294967296]", 2 },
    { "1a", 0 },
    { " a", 0 },
    { "a.b ", 3 },
    { "a + b", 1 },
    { "a.1", 2 },
    { "a['\\n']", 3 },
    { "a.\xc3\xa9", 2 },
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *prefix = g_strdup_printf ("at %" G_GSIZE_FORMAT ": ", bad[i].offset);
      WnPath *path = wn_path_parse (bad[i].source, &error);

      g_assert_null (path);
      g_assert_error (error, WN_LITE_ERROR, WN_LITE_ERROR_SYNTAX);
      if (!g_str_has_prefix (error->message, prefix))
        g_test_message ("%s: %s", bad[i].source, error->message);
      g_assert_true (g_str_has_prefix (error->message, prefix));
    }

  {
    g_autoptr(GError) error = NULL;

    g_assert_null (wn_path_parse ("a..b", &error));
    g_assert_cmpstr (error->message, ==, "at 2: expected a name after '.' but found '.'");
  }
  {
    g_autoptr(GError) error = NULL;

    g_assert_null (wn_path_parse ("a.b]", &error));
    g_assert_cmpstr (error->message, ==, "at 3: expected end of path but found ']'");
  }
  g_assert_null (wn_path_parse ("a..", NULL));
}

static void
test_path_lookup (void)
{
  g_autoptr(JsonNode) data = wn_test_json (context_json);
  JsonObject *roots = json_node_get_object (data);
  static const struct {
    const char *path;
    const char *expected;   /* NULL = dead */
  } lookups[] = {
    { "count", "3" },
    { "order.total", "150" },
    { "order.items[1].sku", "\"B-2\"" },
    { "rates[\"US D\"]", "1" },
    { "rates['it\\'s']", "2" },
    { "matrix[1][0]", "3" },
    { "nothing", "null" },
    { "order.note", "null" },
    { "order.tags", "[]" },
    { "missing", NULL },
    { "order.missing", NULL },
    { "order.items[2]", NULL },
    { "order.items.sku", NULL },
    { "order[0]", NULL },
    { "count.x", NULL },
    { "order.note.x", NULL },
    { "matrix[0][2]", NULL },
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (lookups); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(WnPath) path = wn_path_parse (lookups[i].path, &error);
      JsonNode *found;

      g_assert_no_error (error);
      found = wn_path_lookup (path, roots);
      if (lookups[i].expected == NULL)
        {
          g_assert_null (found);
        }
      else
        {
          g_autoptr(JsonNode) expected = wn_test_json (lookups[i].expected);

          g_assert_nonnull (found);
          g_assert_true (json_node_equal (found, expected));
        }
    }

  /* The result is borrowed from the data. */
  {
    g_autoptr(WnPath) path = wn_path_parse ("order", NULL);

    g_assert_true (wn_path_lookup (path, roots) == json_object_get_member (roots, "order"));
    g_assert_null (wn_path_lookup (path, NULL));
  }
}

/* `+` builds strings up to WN_LITE_MAX_STRING bytes and refuses longer ones, so a
 * string doubled each pass cannot take the machine. */
static void
test_string_limit (void)
{
  g_autoptr(WnLite) join = compile_ok ("s + t");
  g_autoptr(JsonNode) s = json_node_new (JSON_NODE_VALUE);
  g_autoptr(JsonNode) t = json_node_new (JSON_NODE_VALUE);
  g_autofree char *half = g_strnfill (WN_LITE_MAX_STRING / 2, 'x');
  WnLiteRoot roots[] = { { "s", s }, { "t", t } };
  WnLiteScope scope = { roots, G_N_ELEMENTS (roots), NULL };
  g_autoptr(GError) error = NULL;
  WnLiteValue value;

  json_node_set_string (s, half);
  json_node_set_string (t, half);
  g_assert_true (wn_lite_eval (join, &scope, &value, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (value.len, ==, WN_LITE_MAX_STRING);
  wn_lite_value_clear (&value);

  {
    g_autofree char *full = g_strnfill (WN_LITE_MAX_STRING, 'x');

    json_node_set_string (s, full);
    json_node_set_string (t, "y");
  }
  g_assert_false (wn_lite_eval (join, &scope, &value, &error));
  g_assert_error (error, WN_LITE_ERROR, WN_LITE_ERROR_LIMIT);
  g_assert_cmpstr (error->message, ==, "at 2: '+' would make a string of 1048577 bytes, over the limit of 1048576");
  g_assert_cmpint (value.kind, ==, WN_LITE_NIL);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/engine/Lite/table", test_table);
  g_test_add_func ("/engine/Lite/arithmetic", test_arithmetic);
  g_test_add_func ("/engine/Lite/precedence", test_precedence);
  g_test_add_func ("/engine/Lite/comparison", test_comparison);
  g_test_add_func ("/engine/Lite/logic", test_logic);
  g_test_add_func ("/engine/Lite/short-circuit", test_short_circuit);
  g_test_add_func ("/engine/Lite/strings", test_strings);
  g_test_add_func ("/engine/Lite/escapes", test_escapes);
  g_test_add_func ("/engine/Lite/paths", test_paths);
  g_test_add_func ("/engine/Lite/has", test_has);
  g_test_add_func ("/engine/Lite/len", test_len);
  g_test_add_func ("/engine/Lite/time", test_time);
  g_test_add_func ("/engine/Lite/syntax-errors", test_syntax_errors);
  g_test_add_func ("/engine/Lite/division", test_division);
  g_test_add_func ("/engine/Lite/nil", test_nil);
  g_test_add_func ("/engine/Lite/scope", test_scope);
  g_test_add_func ("/engine/Lite/keywords", test_keywords);
  g_test_add_func ("/engine/Lite/eval-bool", test_eval_bool);
  g_test_add_func ("/engine/Lite/eval-json", test_eval_json);
  g_test_add_func ("/engine/Lite/value-to-json", test_value_to_json);
  g_test_add_func ("/engine/Lite/ref", test_ref);
  g_test_add_func ("/engine/Lite/repeat", test_repeat);
  g_test_add_func ("/engine/Lite/no-allocation", test_no_allocation);
  g_test_add_func ("/engine/Lite/nesting", test_nesting);
  g_test_add_func ("/engine/Lite/long-token-excerpt", test_long_token_excerpt);
  g_test_add_func ("/engine/Lite/string-limit", test_string_limit);
  g_test_add_func ("/engine/Path/parse", test_path_parse);
  g_test_add_func ("/engine/Path/parse-errors", test_path_parse_errors);
  g_test_add_func ("/engine/Path/lookup", test_path_lookup);

  return g_test_run ();
}

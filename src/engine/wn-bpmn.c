/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-bpmn.c — BPMN 2.0 XML → winnow.process/1 (wn-bpmn.h). libxml2 parses
 * without network, DTD or entities (a DOCTYPE is refused before parsing);
 * elements are matched by namespace URI; each element's line and column come
 * from a scan of the raw text (libxml2 keeps lines only). The document is
 * translated to the JSON the process loader reads, which then validates it;
 * its diagnostics are mapped back to the BPMN elements. Past 1,500 lines
 * because it is one concept, the element-by-element mapping the user guide's
 * table documents; expressions are wn-bpmn-expr.c. */
#include "wn-loader-private.h"
#include "wn-bpmn.h"
#include "wn-bpmn-private.h"
#include "wn-duration.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <math.h>
#include <string.h>

#define NS_BPMN     "http://www.omg.org/spec/BPMN/20100524/MODEL"
#define NS_BPMNDI   "http://www.omg.org/spec/BPMN/20100524/DI"
#define NS_CAMUNDA  "http://camunda.org/schema/1.0/bpmn"
#define NS_ZEEBE    "http://camunda.org/schema/zeebe/1.0"
#define NS_ACTIVITI "http://activiti.org/bpmn"
#define NS_FLOWABLE "http://flowable.org/bpmn"
#define NS_XSI      "http://www.w3.org/2001/XMLSchema-instance"

typedef struct {
  guint line;
  guint column;
} TagPos;

typedef struct {
  guint  line;
  guint  column;
  char  *label;                  /* "id (kind)" */
} Loc;

typedef struct {
  const char *file;
  GArray     *tags;              /* TagPos, one per start tag in document order */
  GPtrArray  *errors;            /* WnDiagnostic* */
  GPtrArray  *warnings;          /* WnDiagnostic* */
  GHashTable *error_codes;       /* bpmn:error id → errorCode ("" when none) */
  GHashTable *messages;          /* bpmn:message id → the name waits use */
  GHashTable *message_keys;      /* bpmn:message id → its zeebe:subscription correlationKey */
  GHashTable *locations;         /* JSON path → Loc* */
  guint       n_documentation;
  xmlNode    *first_documentation;
  WnBpmnImportFlags flags;
  gboolean    told_scenario_decides;  /* the first refused condition says how to import it anyway */
} Import;

static void
loc_free (gpointer data)
{
  Loc *loc = data;

  g_free (loc->label);
  g_free (loc);
}

/* ---- positions ------------------------------------------------------------ */

/* The line and column (in characters) of each start tag, in document order;
 * FALSE with *at when the prolog has a DOCTYPE. */
static GArray *
scan_tags (const char *data, gsize length, gboolean *doctype, TagPos *at)
{
  GArray *tags = g_array_new (FALSE, FALSE, sizeof (TagPos));
  guint line = 1;
  guint column = 1;
  gboolean seen_root = FALSE;

  *doctype = FALSE;
  for (gsize i = 0; i < length;)
    {
      char c = data[i];

      if (c == '<')
        {
          const char *close = NULL;
          gsize skip = 0;

          if (strncmp (data + i, "<!--", MIN (4, length - i)) == 0 && length - i >= 4)
            close = "-->";
          else if (length - i >= 9 && strncmp (data + i, "<![CDATA[", 9) == 0)
            close = "]]>";
          else if (length - i >= 2 && data[i + 1] == '?')
            close = "?>";
          else if (length - i >= 9 && strncmp (data + i, "<!DOCTYPE", 9) == 0 && !seen_root)
            {
              *doctype = TRUE;
              at->line = line;
              at->column = column;
              return tags;
            }
          else if (length - i >= 2 && (g_ascii_isalpha (data[i + 1]) || data[i + 1] == '_' ||
                                       data[i + 1] == ':' || (guchar) data[i + 1] >= 0x80))
            {
              TagPos pos = { line, column };

              g_array_append_val (tags, pos);
              seen_root = TRUE;
            }
          if (close != NULL)
            {
              const char *end = g_strstr_len (data + i, (gssize) (length - i), close);

              skip = end != NULL ? (gsize) (end - (data + i)) + strlen (close) : length - i;
              for (gsize k = i; k < i + skip; k++)
                {
                  if (data[k] == '\n')
                    {
                      line++;
                      column = 1;
                    }
                  else if (((guchar) data[k] & 0xC0) != 0x80)
                    column++;
                }
              i += skip;
              continue;
            }
        }
      if (c == '\n')
        {
          line++;
          column = 1;
        }
      else if (((guchar) c & 0xC0) != 0x80)
        column++;
      i++;
    }
  return tags;
}

/* Number the elements in document order (node->_private = index + 1). */
static void
number_elements (xmlNode *node, guint *next)
{
  for (; node != NULL; node = node->next)
    {
      if (node->type != XML_ELEMENT_NODE)
        continue;
      node->_private = GUINT_TO_POINTER (++*next);
      number_elements (node->children, next);
    }
}

static void
element_pos (Import *im, xmlNode *el, guint *line, guint *column)
{
  guint index = GPOINTER_TO_UINT (el->_private);

  if (index > 0 && index <= im->tags->len)
    {
      TagPos *pos = &g_array_index (im->tags, TagPos, index - 1);

      *line = pos->line;
      *column = pos->column;
      return;
    }
  *line = (guint) MAX (xmlGetLineNo (el), 1);
  *column = 1;
}

static const char *
prop (xmlNode *el, const char *name)
{
  for (xmlAttr *a = el->properties; a != NULL; a = a->next)
    if (a->ns == NULL && strcmp ((const char *) a->name, name) == 0 && a->children != NULL)
      return (const char *) a->children->content;
  return NULL;
}

static const char *
ns_prop (xmlNode *el, const char *ns, const char *name)
{
  for (xmlAttr *a = el->properties; a != NULL; a = a->next)
    if (a->ns != NULL && strcmp ((const char *) a->ns->href, ns) == 0 &&
        strcmp ((const char *) a->name, name) == 0 && a->children != NULL)
      return (const char *) a->children->content;
  return NULL;
}

/* An attribute of one of the Java engines' extension namespaces. */
static const char *
engine_prop (xmlNode *el, const char *name)
{
  const char *v = ns_prop (el, NS_CAMUNDA, name);

  if (v == NULL)
    v = ns_prop (el, NS_ACTIVITI, name);
  if (v == NULL)
    v = ns_prop (el, NS_FLOWABLE, name);
  return v;
}

static gboolean
is_el (xmlNode *el, const char *ns, const char *name)
{
  return el->type == XML_ELEMENT_NODE && el->ns != NULL && strcmp ((const char *) el->ns->href, ns) == 0 &&
         (name == NULL || strcmp ((const char *) el->name, name) == 0);
}

static xmlNode *
child (xmlNode *el, const char *ns, const char *name)
{
  for (xmlNode *c = el->children; c != NULL; c = c->next)
    if (is_el (c, ns, name))
      return c;
  return NULL;
}

static char *
text_of (xmlNode *el)
{
  xmlChar *content = xmlNodeGetContent (el);
  char *text = g_strstrip (g_strdup (content != NULL ? (const char *) content : ""));

  xmlFree (content);
  return text;
}

/* "id (kind)" of the element, or of the nearest one around it with an id
 * (a conditionExpression is named by its flow). */
static char *
label_of (xmlNode *el)
{
  for (xmlNode *e = el; e != NULL && e->type == XML_ELEMENT_NODE; e = e->parent)
    if (prop (e, "id") != NULL)
      return g_strdup_printf ("%s (%s)", prop (e, "id"), (const char *) e->name);
  return g_strdup_printf ("(%s)", (const char *) el->name);
}

static void
add_diag (Import *im, GPtrArray *to, xmlNode *el, char *message)
{
  WnDiagnostic *d = g_new0 (WnDiagnostic, 1);

  d->file = g_strdup (im->file);
  element_pos (im, el, &d->line, &d->column);
  d->path = label_of (el);
  d->message = message;
  g_ptr_array_add (to, d);
}

/* An error (refuse) or a warning (warn) at the element. */
#define refuse(im, el, ...) add_diag ((im), (im)->errors, (el), g_strdup_printf (__VA_ARGS__))
#define warn(im, el, ...)   add_diag ((im), (im)->warnings, (el), g_strdup_printf (__VA_ARGS__))

static void
remember (Import *im, const char *path, xmlNode *el)
{
  Loc *loc = g_new0 (Loc, 1);

  element_pos (im, el, &loc->line, &loc->column);
  loc->label = label_of (el);
  g_hash_table_replace (im->locations, g_strdup (path), loc);
}

/* ---- values ---------------------------------------------------------------- */

/* [A-Za-z0-9_.:-]+, as the process format's ids and topics. */
static gboolean
is_identifier (const char *text)
{
  return text != NULL && *text != '\0' &&
         strspn (text, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:-") == strlen (text);
}

/* A topic from an implementation text: identifier characters kept, others '_'. */
static char *
stable_name (const char *prefix, const char *text)
{
  g_autofree char *body = NULL;
  GString *out = g_string_new (prefix);
  WnBpmnExprKind kind = _wn_bpmn_expr_kind (text);
  const char *p = text;
  gsize n;

  while (g_ascii_isspace (*p))
    p++;
  if (kind == WN_BPMN_EXPR_JUEL)
    p += 2;
  else if (kind == WN_BPMN_EXPR_FEEL)
    p += 1;
  body = g_strstrip (g_strdup (p));
  n = strlen (body);
  if (kind == WN_BPMN_EXPR_JUEL && n > 0 && body[n - 1] == '}')
    body[--n] = '\0';
  for (const char *q = body; *q != '\0'; q++)
    {
      gboolean ok = g_ascii_isalnum (*q) || *q == '_' || *q == '.' || *q == ':' || *q == '-';

      if (ok)
        g_string_append_c (out, *q);
      else if (out->len > 0 && out->str[out->len - 1] != '_')
        g_string_append_c (out, '_');
    }
  while (out->len > strlen (prefix) && out->str[out->len - 1] == '_')
    g_string_truncate (out, out->len - 1);
  return g_string_free (out, FALSE);
}

/* The text of a timer's timeDuration etc., constant-folded (a FEEL or JUEL literal). */
static char *
timer_text (Import *im, xmlNode *el)
{
  g_autofree char *text = text_of (el);
  char *value = _wn_bpmn_expr_constant (text);

  if (value == NULL)
    refuse (im, el, "the timer `%s` is an expression Winnow cannot evaluate at load (write a duration such as PT5M)",
            text);
  return value;
}

/* A Winnow duration string for an ISO-8601 or Go-style duration, or NULL (reported). */
static char *
duration_of (Import *im, xmlNode *el, const char *text)
{
  g_autoptr(GError) error = NULL;
  WnTime t;

  if (!wn_duration_parse (text, &t, &error))
    {
      refuse (im, el, "`%s` is not a duration Winnow reads: %s", text, error->message);
      return NULL;
    }
  return g_strdup (text);
}

/* timeDate → a date timer's `date`: an RFC 3339 instant with its zone, which
 * the engine counts from the scenario's epoch; NULL (reported) otherwise. */
static char *
time_date (Import *im, xmlNode *el)
{
  g_autofree char *text = timer_text (im, el);
  gint64 us;

  if (text == NULL)
    return NULL;
  if (!_wn_lite_parse_time (text, &us))
    {
      refuse (im, el, "the timeDate `%s` is not an instant Winnow reads: write an RFC 3339 date and time with "
              "its zone (2026-01-05T10:00:00Z or …+01:00); Winnow counts it from the scenario's epoch", text);
      return NULL;
    }
  return g_steal_pointer (&text);
}

/* timerEventDefinition → `timer`/`duration` D and `repeat` N (0 when a one-shot),
 * or for a timeDate *date (and *duration NULL). */
static gboolean
parse_timer (Import *im, xmlNode *def, char **duration, guint *repeat, char **date)
{
  xmlNode *el;
  g_autofree char *text = NULL;

  *duration = NULL;
  *repeat = 0;
  *date = NULL;
  if ((el = child (def, NS_BPMN, "timeDuration")) != NULL)
    {
      if ((text = timer_text (im, el)) == NULL)
        return FALSE;
      *duration = duration_of (im, el, text);
      return *duration != NULL;
    }
  if ((el = child (def, NS_BPMN, "timeCycle")) != NULL)
    {
      g_autofree char *count = NULL;
      const char *slash;
      guint64 n = 0;

      if ((text = timer_text (im, el)) == NULL)
        return FALSE;
      slash = strchr (text, '/');
      if (slash != NULL)
        count = g_strndup (text + 1, (gsize) (slash - text - 1));
      if (text[0] != 'R' || slash == NULL || !g_ascii_string_to_unsigned (count, 10, 1, 10000, &n, NULL))
        {
          refuse (im, el, "the cycle `%s` is not supported: Winnow repeats a timer a given number of times "
                  "(R3/PT10M); an unbounded cycle, a start date or a cron expression cannot be simulated", text);
          return FALSE;
        }
      *repeat = (guint) n;
      *duration = duration_of (im, el, slash + 1);
      return *duration != NULL;
    }
  if ((el = child (def, NS_BPMN, "timeDate")) != NULL)
    return (*date = time_date (im, el)) != NULL;
  refuse (im, def, "a timer needs a timeDuration or a timeCycle");
  return FALSE;
}

/* The first event definition of an event, or NULL (a none event). A second one
 * (a multiple event) is refused. */
static xmlNode *
event_definition (Import *im, xmlNode *event)
{
  xmlNode *found = NULL;

  for (xmlNode *c = event->children; c != NULL; c = c->next)
    {
      if (!is_el (c, NS_BPMN, NULL) || !g_str_has_suffix ((const char *) c->name, "EventDefinition"))
        continue;
      if (found != NULL)
        {
          refuse (im, c, "a multiple event (several event definitions) is not supported");
          return NULL;
        }
      found = c;
    }
  if (found == NULL && child (event, NS_BPMN, "eventDefinitionRef") != NULL)
    refuse (im, event, "event definitions by reference (eventDefinitionRef) are not supported");
  return found;
}

static const char *
def_kind (xmlNode *def)
{
  return def != NULL ? (const char *) def->name : "none";
}

/* The message name a wait uses, from messageRef. */
static gboolean
set_message (Import *im, JsonObject *node, xmlNode *el, xmlNode *def)
{
  const char *ref = prop (def != NULL ? def : el, "messageRef");
  const char *name;
  const char *key;

  if (ref == NULL)
    {
      refuse (im, def != NULL ? def : el, "a message wait needs a messageRef naming the message it waits for");
      return FALSE;
    }
  name = g_hash_table_lookup (im->messages, ref);
  if (name == NULL)
    {
      refuse (im, def != NULL ? def : el, "messageRef \"%s\" names no message of the definitions", ref);
      return FALSE;
    }
  json_object_set_string_member (node, "message", name);
  /* Zeebe: the subscription's correlation key is on the message */
  if ((key = g_hash_table_lookup (im->message_keys, ref)) != NULL)
    {
      g_autofree char *why = NULL;
      g_autofree char *lite = _wn_bpmn_expr_to_lite (key, &why);

      if (lite == NULL)
        {
          refuse (im, def != NULL ? def : el, "the correlation key `%s` of message \"%s\": %s", key, ref, why);
          return FALSE;
        }
      json_object_set_string_member (node, "correlation", lite);
    }
  return TRUE;
}

/* ---- jobs ------------------------------------------------------------------- */

static xmlNode *
extension (xmlNode *el, const char *ns, const char *name)
{
  xmlNode *ext = child (el, NS_BPMN, "extensionElements");

  return ext != NULL ? child (ext, ns, name) : NULL;
}

/* camunda:failedJobRetryTimeCycle "R3/PT5M" → fixed, 3 attempts, 5 minutes apart. */
static JsonObject *
camunda_retry (Import *im, xmlNode *cycle_el)
{
  g_autofree char *text = text_of (cycle_el);
  g_auto(GStrv) parts = NULL;
  JsonObject *retry;
  guint64 n = 0;
  const char *slash = strchr (text, '/');
  g_autofree char *delay = NULL;

  if (text[0] == 'R' && slash != NULL)
    {
      g_autofree char *count = g_strndup (text + 1, (gsize) (slash - text - 1));

      if (!g_ascii_string_to_unsigned (count, 10, 0, 1000, &n, NULL) ||
          (delay = duration_of (im, cycle_el, slash + 1)) == NULL)
        {
          if (delay == NULL && n > 0)
            return NULL;
          refuse (im, cycle_el, "the retry cycle `%s` is not supported (write R3/PT5M or a list PT1M,PT5M)", text);
          return NULL;
        }
    }
  else
    {
      parts = g_strsplit (text, ",", -1);
      n = g_strv_length (parts) + 1;
      for (guint i = 0; parts[i] != NULL; i++)
        {
          g_autofree char *d = duration_of (im, cycle_el, g_strstrip (parts[i]));

          if (d == NULL)
            return NULL;
          if (delay == NULL)
            delay = g_steal_pointer (&d);
          else if (strcmp (delay, d) != 0 && i == 1)
            warn (im, cycle_el, "the retry intervals `%s` differ; Winnow waits the first, %s, before each retry",
                  text, delay);
        }
    }
  retry = json_object_new ();
  if (n <= 1)
    json_object_set_string_member (retry, "policy", "none");
  else
    {
      json_object_set_string_member (retry, "policy", "fixed");
      json_object_set_int_member (retry, "maxAttempts", (gint64) n);
      json_object_set_string_member (retry, "delay", delay);
    }
  return retry;
}

/* Zeebe: `retries` attempts in all, `retryBackoff` apart. */
static JsonObject *
zeebe_retry (Import *im, xmlNode *task, xmlNode *def)
{
  const char *retries = prop (def, "retries") != NULL && *prop (def, "retries") != '\0' ? prop (def, "retries") : NULL;
  g_autofree char *value = retries != NULL ? _wn_bpmn_expr_constant (retries) : g_strdup ("3");
  g_autofree char *backoff = NULL;
  xmlNode *headers = extension (task, NS_ZEEBE, "taskHeaders");
  JsonObject *retry;
  guint64 n = 0;

  if (value == NULL || !g_ascii_string_to_unsigned (value, 10, 0, 100000, &n, NULL))
    {
      refuse (im, def, "retries `%s` is not a number of attempts Winnow can read at load", retries);
      return NULL;
    }
  for (xmlNode *h = headers != NULL ? headers->children : NULL; h != NULL; h = h->next)
    if (is_el (h, NS_ZEEBE, "header") && g_strcmp0 (prop (h, "key"), "retryBackoff") == 0 && prop (h, "value") != NULL)
      {
        backoff = duration_of (im, h, prop (h, "value"));
        if (backoff == NULL)
          return NULL;
      }
  retry = json_object_new ();
  if (n <= 1)
    json_object_set_string_member (retry, "policy", "none");
  else
    {
      json_object_set_string_member (retry, "policy", "fixed");
      json_object_set_int_member (retry, "maxAttempts", (gint64) n);
      json_object_set_string_member (retry, "delay", backoff != NULL ? backoff : "0s");
    }
  return retry;
}

/* ---- Camunda 7 error event definitions, input and output mappings --------- */

/* The fields of a failure an error event definition reads, as the mapper's
 * `body` carries them (an external task's failure: {message, details}). */
static char *
external_task_root (const char *text, gsize at, gsize *len, gpointer data, char **why)
{
  static const char * const fields[][2] = {
    { ".errorMessage", "body.message" }, { ".getErrorMessage()", "body.message" },
    { ".errorDetails", "body.details" }, { ".getErrorDetails()", "body.details" },
  };
  const char *rest = text + at + *len;

  (void) data;
  if (*len == strlen ("externalTask") && strncmp (text + at, "externalTask", *len) == 0)
    for (gsize i = 0; i < G_N_ELEMENTS (fields); i++)
      {
        gsize n = strlen (fields[i][0]);

        if (strncmp (rest, fields[i][0], n) == 0 && !g_ascii_isalnum (rest[n]) && rest[n] != '_')
          {
            *len += n;
            return g_strdup (fields[i][1]);
          }
      }
  *why = g_strdup_printf ("at %zu: `%.*s`: an error event definition reads only externalTask.errorMessage "
                          "and externalTask.errorDetails (or their getters), the failure's message and details",
                          at, (int) *len, text + at);
  return NULL;
}

/* camunda:errorEventDefinition (on an external task: an expression over the
 * failure) → error-mapper rules, in document order; NULL when there is none
 * (*ok FALSE when one is refused). */
static JsonArray *
camunda_error_rules (Import *im, xmlNode *task, gboolean *ok)
{
  xmlNode *ext = child (task, NS_BPMN, "extensionElements");
  JsonArray *rules = NULL;

  *ok = TRUE;
  for (xmlNode *c = ext != NULL ? ext->children : NULL; c != NULL; c = c->next)
    {
      const char *ref = prop (c, "errorRef");
      const char *expression = prop (c, "expression");
      const char *code = ref != NULL ? g_hash_table_lookup (im->error_codes, ref) : NULL;
      g_autofree char *why = NULL;
      g_autofree char *lite = NULL;
      JsonObject *rule, *error;

      if (!is_el (c, NS_CAMUNDA, "errorEventDefinition"))
        continue;
      if (code == NULL || *code == '\0')
        {
          refuse (im, c, ref == NULL ? "an error event definition needs an errorRef"
                                     : "errorRef \"%s\" names no error with an errorCode", ref);
          *ok = FALSE;
          continue;
        }
      if (expression == NULL || *expression == '\0')
        {
          refuse (im, c, "an error event definition needs an expression (Winnow maps it to an error-mapper rule)");
          *ok = FALSE;
          continue;
        }
      lite = _wn_bpmn_expr_to_lite_rooted (expression, external_task_root, NULL, &why);
      if (lite == NULL)
        {
          refuse (im, c, "the expression `%s`: %s", expression, why);
          *ok = FALSE;
          continue;
        }
      rule = json_object_new ();
      if (strcmp (lite, "true") != 0)
        json_object_set_string_member (rule, "when", lite);
      error = json_object_new ();
      json_object_set_string_member (error, "code", code);
      json_object_set_object_member (rule, "bpmnError", error);
      if (rules == NULL)
        rules = json_array_new ();
      json_array_add_object_element (rules, rule);
    }
  if (!*ok)
    g_clear_pointer (&rules, json_array_unref);
  return rules;
}

/* An output's source, read from the worker's completion: every variable is `body.NAME`. */
static char *
body_root (const char *text, gsize at, gsize *len, gpointer data, char **why)
{
  (void) data;
  (void) why;
  return g_strdup_printf ("body.%.*s", (int) *len, text + at);
}

/* An output mapping rule {path, var} from an output's source expression (or a
 * constant text), NULL (reported) when it is outside the translatable subset. */
static JsonObject *
output_rule (Import *im, xmlNode *at, const char *source, const char *target, gboolean required)
{
  g_autofree char *why = NULL;
  g_autofree char *lite = NULL;
  JsonObject *rule;

  if (target == NULL || *target == '\0')
    {
      refuse (im, at, "an output needs a target variable");
      return NULL;
    }
  if (_wn_bpmn_expr_kind (source) == WN_BPMN_EXPR_NONE)
    {
      /* a constant text: a lite string literal */
      g_autoptr(GString) quoted = g_string_new ("'");

      for (const char *p = source; *p != '\0'; p++)
        {
          if (*p == '\'' || *p == '\\')
            g_string_append_c (quoted, '\\');
          g_string_append_c (quoted, *p);
        }
      g_string_append_c (quoted, '\'');
      lite = g_string_free (g_steal_pointer (&quoted), FALSE);
    }
  else if ((lite = _wn_bpmn_expr_to_lite_rooted (source, body_root, NULL, &why)) == NULL)
    {
      refuse (im, at, "the output `%s` of \"%s\": %s", source, target, why);
      return NULL;
    }
  rule = json_object_new ();
  json_object_set_string_member (rule, "path", lite);
  json_object_set_string_member (rule, "var", target);
  if (required)
    json_object_set_boolean_member (rule, "required", TRUE);
  return rule;
}

/* An input that only copies a variable under its own name changes nothing
 * (a job sees every variable); any other is noted, not applied. */
static void
note_input (Import *im, xmlNode *at, const char *source, const char *target)
{
  g_autofree char *why = NULL;
  g_autofree char *lite = source != NULL && _wn_bpmn_expr_kind (source) != WN_BPMN_EXPR_NONE
                          ? _wn_bpmn_expr_to_lite (source, &why) : NULL;

  if (lite != NULL && g_strcmp0 (lite, target) == 0)
    return;
  warn (im, at, "ignored: the input \"%s\" is not applied: a Winnow job sees every variable under its own name",
        target != NULL ? target : "");
}

/* camunda:inputOutput or zeebe:ioMapping of a job → the worker's outputMapping
 * (inputs noted); FALSE when an output is refused. */
static gboolean
io_mapping (Import *im, xmlNode *task, JsonObject *worker)
{
  xmlNode *camunda = extension (task, NS_CAMUNDA, "inputOutput");
  xmlNode *zeebe = extension (task, NS_ZEEBE, "ioMapping");
  g_autoptr(JsonArray) rules = json_array_new ();
  guint before = im->errors->len;

  for (xmlNode *c = camunda != NULL ? camunda->children : NULL; c != NULL; c = c->next)
    {
      gboolean input = is_el (c, NS_CAMUNDA, "inputParameter");
      xmlNode *complex = NULL;
      g_autofree char *text = NULL;
      JsonObject *rule;

      if (!input && !is_el (c, NS_CAMUNDA, "outputParameter"))
        continue;
      for (xmlNode *k = c->children; k != NULL && complex == NULL; k = k->next)
        if (k->type == XML_ELEMENT_NODE)
          complex = k;
      text = text_of (c);
      if (input)
        note_input (im, c, complex != NULL ? NULL : text, prop (c, "name"));
      else if (complex != NULL)
        refuse (im, complex, "an output given as a %s is not supported (write an expression such as ${result})",
                (const char *) complex->name);
      else if ((rule = output_rule (im, c, text, prop (c, "name"), TRUE)) != NULL)
        json_array_add_object_element (rules, rule);
    }
  for (xmlNode *c = zeebe != NULL ? zeebe->children : NULL; c != NULL; c = c->next)
    {
      JsonObject *rule;

      if (is_el (c, NS_ZEEBE, "input"))
        note_input (im, c, prop (c, "source"), prop (c, "target"));
      else if (is_el (c, NS_ZEEBE, "output") &&
               (rule = output_rule (im, c, prop (c, "source") != NULL ? prop (c, "source") : "",
                                    prop (c, "target"), FALSE)) != NULL)
        json_array_add_object_element (rules, rule);
    }
  if (im->errors->len > before)
    return FALSE;
  if (json_array_get_length (rules) > 0)
    json_object_set_array_member (worker, "outputMapping", g_steal_pointer (&rules));
  return TRUE;
}

/* What a job takes from its extensions besides topic and retries: error
 * rules and output mappings. FALSE when one is refused. */
static gboolean
job_extras (Import *im, xmlNode *el, JsonObject *worker)
{
  gboolean ok;
  JsonArray *rules = camunda_error_rules (im, el, &ok);

  if (rules != NULL)
    json_object_set_array_member (worker, "errorMapper", rules);
  return io_mapping (im, el, worker) && ok;
}

/* The job a service-like task becomes, or NULL when it has no implementation
 * (*ok FALSE when it has one Winnow refuses). */
static JsonObject *
task_worker (Import *im, xmlNode *el, gboolean *ok)
{
  xmlNode *zeebe_def = extension (el, NS_ZEEBE, "taskDefinition");
  xmlNode *retry_el = extension (el, NS_CAMUNDA, "failedJobRetryTimeCycle");
  xmlNode *decision = extension (el, NS_ZEEBE, "calledDecision");
  xmlNode *connector = extension (el, NS_CAMUNDA, "connector");
  g_autofree char *topic = NULL;
  JsonObject *retry = NULL;
  JsonObject *worker;
  const char *v;

  *ok = TRUE;
  if (zeebe_def != NULL)
    {
      const char *type = prop (zeebe_def, "type");

      if (type == NULL || (topic = _wn_bpmn_expr_constant (type)) == NULL)
        {
          refuse (im, zeebe_def, "the job type `%s` is an expression Winnow cannot evaluate at load",
                  type != NULL ? type : "");
          *ok = FALSE;
          return NULL;
        }
      retry = zeebe_retry (im, el, zeebe_def);
      if (retry == NULL)
        {
          *ok = FALSE;
          return NULL;
        }
    }
  else if ((v = engine_prop (el, "topic")) != NULL)
    {
      topic = _wn_bpmn_expr_constant (v);
      if (topic == NULL)
        {
          refuse (im, el, "the topic `%s` is an expression Winnow cannot evaluate at load", v);
          *ok = FALSE;
          return NULL;
        }
    }
  else if ((v = engine_prop (el, "class")) != NULL)
    topic = stable_name ("java:", v);
  else if ((v = engine_prop (el, "delegateExpression")) != NULL)
    topic = stable_name ("delegate:", v);
  else if ((v = engine_prop (el, "expression")) != NULL)
    topic = stable_name ("expression:", v);
  else if ((v = engine_prop (el, "decisionRef")) != NULL)
    topic = stable_name ("dmn:", v);
  else if (decision != NULL && prop (decision, "decisionId") != NULL)
    topic = stable_name ("dmn:", prop (decision, "decisionId"));
  else if (connector != NULL && child (connector, NS_CAMUNDA, "connectorId") != NULL)
    {
      g_autofree char *id = text_of (child (connector, NS_CAMUNDA, "connectorId"));

      topic = stable_name ("connector:", id);
    }
  else
    return NULL;

  if (!is_identifier (topic))
    {
      refuse (im, el, "the topic \"%s\" is not a Winnow identifier ([A-Za-z0-9_.:-]+)", topic);
      *ok = FALSE;
      return NULL;
    }
  if (retry == NULL && retry_el != NULL && (retry = camunda_retry (im, retry_el)) == NULL)
    {
      *ok = FALSE;
      return NULL;
    }
  worker = json_object_new ();
  json_object_set_string_member (worker, "topic", topic);
  if (retry != NULL)
    json_object_set_object_member (worker, "retry", retry);
  if (!job_extras (im, el, worker))
    {
      json_object_unref (worker);
      *ok = FALSE;
      return NULL;
    }
  return worker;
}

/* ---- elements --------------------------------------------------------------- */

/* What is ignored without changing behaviour inside a scope. */
static const char * const ignored_in_scope[] = {
  "laneSet", "textAnnotation", "association", "dataObject", "dataObjectReference", "dataStoreReference",
  "group", "ioSpecification", "property", "dataInputAssociation", "dataOutputAssociation", NULL
};
/* Silently ignored children of any element. */
static const char * const silent_children[] = { "incoming", "outgoing", "extensionElements", NULL };

/* The children of a flow node that are not supported or only noted (`job`:
 * it became a job, whose error rules and mappings job_extras() read). */
static void
check_children (Import *im, xmlNode *el, gboolean job)
{
  /* a sub-process's children are its scope's: convert_scope() sees them */
  for (xmlNode *c = is_el (el, NS_BPMN, "subProcess") ? NULL : el->children; c != NULL; c = c->next)
    {
      const char *name = (const char *) c->name;

      if (!is_el (c, NS_BPMN, NULL))
        continue;
      if (strcmp (name, "documentation") == 0)
        {
          if (im->n_documentation++ == 0)
            im->first_documentation = c;
        }
      else if (strcmp (name, "multiInstanceLoopCharacteristics") == 0 ||
               strcmp (name, "standardLoopCharacteristics") == 0)
        continue;   /* set_loop() */
      else if (g_strv_contains (ignored_in_scope, name))
        warn (im, c, "ignored: Winnow does not simulate data associations");
    }
  /* extension elements: the ones a job reads, the rest noted */
  for (xmlNode *ext = child (el, NS_BPMN, "extensionElements"), *c = ext != NULL ? ext->children : NULL;
       c != NULL; c = c->next)
    {
      const char *name = (const char *) c->name;

      if (c->type != XML_ELEMENT_NODE)
        continue;
      if (is_el (c, NS_ZEEBE, "taskDefinition") || is_el (c, NS_ZEEBE, "taskHeaders") ||
          is_el (c, NS_ZEEBE, "calledDecision") || is_el (c, NS_ZEEBE, "subscription") ||
          is_el (c, NS_CAMUNDA, "failedJobRetryTimeCycle") || is_el (c, NS_CAMUNDA, "connector") ||
          is_el (c, NS_ZEEBE, "properties") || is_el (c, NS_CAMUNDA, "properties") ||
          is_el (c, NS_ZEEBE, "userTask") || is_el (c, NS_ZEEBE, "formDefinition") ||
          is_el (c, NS_ZEEBE, "assignmentDefinition") || is_el (c, NS_ZEEBE, "versionTag"))
        continue;
      if (job && (is_el (c, NS_CAMUNDA, "inputOutput") || is_el (c, NS_ZEEBE, "ioMapping") ||
                  is_el (c, NS_CAMUNDA, "errorEventDefinition")))
        continue;
      if (is_el (c, NS_CAMUNDA, "inputOutput") || is_el (c, NS_ZEEBE, "ioMapping"))
        warn (im, c, "ignored: input and output mappings are applied to jobs only");
      else if (is_el (c, NS_CAMUNDA, "executionListener") || is_el (c, NS_CAMUNDA, "taskListener") ||
               is_el (c, NS_ZEEBE, "executionListeners") || is_el (c, NS_ACTIVITI, "executionListener") ||
               is_el (c, NS_FLOWABLE, "executionListener"))
        warn (im, c, "ignored: listeners are not run");
      else if (is_el (c, NS_CAMUNDA, "errorEventDefinition"))
        warn (im, c, "ignored: an error event definition applies to a job's failures only");
      else
        warn (im, c, "ignored: unknown extension element %s", name);
    }
}

/* A path or lite expression from a JUEL/FEEL text, or plain text as it is. */
static char *
lite_of (Import *im, xmlNode *at, const char *what, const char *text)
{
  g_autofree char *why = NULL;
  char *lite;

  if (_wn_bpmn_expr_kind (text) == WN_BPMN_EXPR_NONE)
    return g_strstrip (g_strdup (text));
  lite = _wn_bpmn_expr_to_lite (text, &why);
  if (lite == NULL)
    refuse (im, at, "the %s `%s`: %s", what, text, why);
  return lite;
}

/* multiInstanceLoopCharacteristics → `multiInstance` (Camunda 7's
 * collection/elementVariable, Zeebe's loopCharacteristics); a standard loop
 * is refused. FALSE when refused. */
static gboolean
set_loop (Import *im, xmlNode *el, JsonObject *node)
{
  xmlNode *mi = child (el, NS_BPMN, "multiInstanceLoopCharacteristics");
  xmlNode *zeebe;
  xmlNode *c;
  JsonObject *loop;
  const char *collection;
  const char *element;
  guint before = im->errors->len;

  if ((c = child (el, NS_BPMN, "standardLoopCharacteristics")) != NULL)
    {
      refuse (im, c, "standard loops are not supported (a multi-instance activity is)");
      return FALSE;
    }
  if (mi == NULL)
    return TRUE;
  zeebe = extension (mi, NS_ZEEBE, "loopCharacteristics");
  loop = json_object_new ();
  if (g_strcmp0 (prop (mi, "isSequential"), "true") == 0)
    json_object_set_boolean_member (loop, "sequential", TRUE);
  collection = zeebe != NULL ? prop (zeebe, "inputCollection") : engine_prop (mi, "collection");
  element = zeebe != NULL ? prop (zeebe, "inputElement") : engine_prop (mi, "elementVariable");
  if ((c = child (mi, NS_BPMN, "loopCardinality")) != NULL && collection == NULL)
    {
      g_autofree char *text = text_of (c);
      g_autofree char *value = _wn_bpmn_expr_constant (text);
      guint64 n = 0;

      if (value == NULL || !g_ascii_string_to_unsigned (value, 10, 1, G_MAXUINT, &n, NULL))
        refuse (im, c, "the loop cardinality `%s` is not a number Winnow can read at load", text);
      else
        json_object_set_int_member (loop, "cardinality", (gint64) n);
    }
  else if (collection != NULL)
    {
      g_autofree char *path = lite_of (im, zeebe != NULL ? zeebe : mi, "collection", collection);

      if (path != NULL)
        json_object_set_string_member (loop, "collection", path);
      if (element != NULL)
        json_object_set_string_member (loop, "element", element);
    }
  else
    refuse (im, mi, "a multi-instance activity needs a loopCardinality or a collection");
  if ((c = child (mi, NS_BPMN, "completionCondition")) != NULL)
    {
      g_autofree char *text = text_of (c);
      g_autofree char *why = NULL;
      g_autofree char *lite = _wn_bpmn_expr_to_lite (text, &why);

      if (lite == NULL)
        refuse (im, c, "the completion condition `%s`: %s", text, why);
      else
        json_object_set_string_member (loop, "completion", lite);
    }
  /* Zeebe's output collection: the element an expression (`=doubled`) or a variable name */
  if (zeebe != NULL && prop (zeebe, "outputCollection") != NULL && prop (zeebe, "outputElement") != NULL)
    {
      g_autofree char *output = lite_of (im, zeebe, "output element", prop (zeebe, "outputElement"));

      json_object_set_string_member (loop, "outputCollection", prop (zeebe, "outputCollection"));
      if (output != NULL)
        json_object_set_string_member (loop, "outputElement", output);
    }
  if (im->errors->len > before)
    {
      json_object_unref (loop);
      return FALSE;
    }
  json_object_set_object_member (node, "multiInstance", loop);
  return TRUE;
}

static JsonObject *
new_node (xmlNode *el, const char *type)
{
  JsonObject *node = json_object_new ();
  const char *name = prop (el, "name");

  json_object_set_string_member (node, "id", prop (el, "id") != NULL ? prop (el, "id") : "");
  json_object_set_string_member (node, "type", type);
  if (name != NULL && *name != '\0')
    json_object_set_string_member (node, "name", name);
  return node;
}

static gboolean convert_scope (Import *im, xmlNode *scope, JsonObject *into, const char *prefix);

/* The trigger of a boundary event or of an event sub-process's start event
 * (`what` names it): `error` (a code, or true without one), `timer` (with
 * `repeat` from a timeCycle) or `message`, and `"interrupting": false`. */
static gboolean
set_trigger (Import *im, JsonObject *node, xmlNode *el, xmlNode *def, gboolean interrupting, const char *what)
{
  const char *d = def_kind (def);

  if (strcmp (d, "errorEventDefinition") == 0)
    {
      const char *ref = prop (def, "errorRef");
      const char *code = ref != NULL ? g_hash_table_lookup (im->error_codes, ref) : NULL;

      if (ref != NULL && code == NULL)
        {
          refuse (im, def, "errorRef \"%s\" names no error of the definitions", ref);
          return FALSE;
        }
      if (code != NULL && *code != '\0')
        json_object_set_string_member (node, "error", code);
      else
        json_object_set_boolean_member (node, "error", TRUE);
    }
  else if (strcmp (d, "timerEventDefinition") == 0)
    {
      g_autofree char *duration = NULL;
      g_autofree char *date = NULL;
      guint repeat;

      if (!parse_timer (im, def, &duration, &repeat, &date))
        return FALSE;
      json_object_set_string_member (node, date != NULL ? "date" : "timer", date != NULL ? date : duration);
      if (!interrupting)
        json_object_set_boolean_member (node, "interrupting", FALSE);
      if (repeat > 1 && !interrupting)
        json_object_set_int_member (node, "repeat", repeat);
    }
  else if (strcmp (d, "messageEventDefinition") == 0)
    {
      if (!set_message (im, node, el, def))
        return FALSE;
      if (!interrupting)
        json_object_set_boolean_member (node, "interrupting", FALSE);
    }
  else
    {
      refuse (im, def, "%s with %s %s is not supported", what, _wn_check_article (d), d);
      return FALSE;
    }
  return TRUE;
}

static JsonObject *
convert_event (Import *im, xmlNode *el, const char *kind)
{
  xmlNode *def = event_definition (im, el);
  const char *d = def_kind (def);
  JsonObject *node = NULL;

  if (strcmp (kind, "startEvent") == 0 && is_el (el->parent, NS_BPMN, "subProcess") &&
      g_strcmp0 (prop (el->parent, "triggeredByEvent"), "true") == 0)
    {
      /* an event sub-process's start: its trigger starts it */
      gboolean interrupting = g_strcmp0 (prop (el, "isInterrupting"), "false") != 0;

      if (def == NULL)
        {
          refuse (im, el, "the start event of an event sub-process needs an error, timer or message definition");
          return NULL;
        }
      if (!interrupting && strcmp (d, "errorEventDefinition") == 0)
        {
          refuse (im, el, "an error start event always interrupts (isInterrupting=\"false\")");
          return NULL;
        }
      node = new_node (el, "startEvent");
      if (!set_trigger (im, node, el, def, interrupting, "an event sub-process's start event"))
        g_clear_pointer (&node, json_object_unref);
      return node;
    }
  if (strcmp (kind, "startEvent") == 0)
    {
      if (def != NULL && strcmp (d, "timerEventDefinition") != 0 && strcmp (d, "messageEventDefinition") != 0)
        {
          refuse (im, el, "a start event with %s %s is not supported", _wn_check_article (d), d);
          return NULL;
        }
      if (def != NULL)
        warn (im, def, "the scenario starts instances: this %s start is simulated as a none start", d);
      return new_node (el, "startEvent");
    }
  if (strcmp (kind, "endEvent") == 0)
    {
      node = new_node (el, "endEvent");
      if (def == NULL)
        return node;
      if (strcmp (d, "terminateEventDefinition") == 0)
        json_object_set_boolean_member (node, "terminate", TRUE);
      else if (strcmp (d, "errorEventDefinition") == 0)
        {
          const char *ref = prop (def, "errorRef");
          const char *code = ref != NULL ? g_hash_table_lookup (im->error_codes, ref) : NULL;

          if (code == NULL || *code == '\0')
            {
              refuse (im, def, ref == NULL ? "an error end event needs an errorRef"
                                           : "errorRef \"%s\" names no error with an errorCode", ref);
              json_object_unref (node);
              return NULL;
            }
          json_object_set_string_member (node, "error", code);
        }
      else if (strcmp (d, "messageEventDefinition") == 0)
        warn (im, def, "the message this end event sends goes nowhere in a simulation: it ends like a none end");
      else
        {
          refuse (im, def, "an end event with %s %s is not supported", _wn_check_article (d), d);
          json_object_unref (node);
          return NULL;
        }
      return node;
    }
  if (strcmp (kind, "intermediateThrowEvent") == 0)
    {
      if (def != NULL && strcmp (d, "messageEventDefinition") != 0)
        {
          refuse (im, def, "an intermediate throw event with %s %s is not supported", _wn_check_article (d), d);
          return NULL;
        }
      if (def != NULL)
        warn (im, def, "the message this event sends goes nowhere in a simulation: it passes through");
      return new_node (el, "intermediateThrowEvent");
    }
  if (strcmp (kind, "intermediateCatchEvent") == 0)
    {
      if (def != NULL && strcmp (d, "timerEventDefinition") == 0)
        {
          g_autofree char *duration = NULL;
          g_autofree char *date = NULL;
          guint repeat;

          if (!parse_timer (im, def, &duration, &repeat, &date))
            return NULL;
          if (repeat > 0)
            {
              refuse (im, def, "an intermediate timer waits once: a timeCycle applies to boundary events");
              return NULL;
            }
          node = new_node (el, "timerEvent");
          json_object_set_string_member (node, date != NULL ? "date" : "duration", date != NULL ? date : duration);
          return node;
        }
      if (def != NULL && strcmp (d, "messageEventDefinition") == 0)
        {
          node = new_node (el, "messageEvent");
          if (!set_message (im, node, el, def))
            g_clear_pointer (&node, json_object_unref);
          return node;
        }
      refuse (im, def != NULL ? def : el, "an intermediate catch event with %s is not supported",
              def != NULL ? d : "no event definition");
      return NULL;
    }
  /* boundaryEvent */
  {
    const char *host = prop (el, "attachedToRef");
    gboolean interrupting = g_strcmp0 (prop (el, "cancelActivity"), "false") != 0;

    if (def == NULL)
      {
        refuse (im, el, "a boundary event needs an event definition");
        return NULL;
      }
    node = new_node (el, "boundaryEvent");
    json_object_set_string_member (node, "attachedTo", host != NULL ? host : "");
    if (!set_trigger (im, node, el, def, interrupting, "a boundary event"))
      {
        json_object_unref (node);
        return NULL;
      }
    return node;
  }
}

static JsonObject *
convert_task (Import *im, xmlNode *el, const char *kind)
{
  JsonObject *node;

  if (strcmp (kind, "task") == 0)
    return new_node (el, "task");
  if (strcmp (kind, "manualTask") == 0)
    return new_node (el, "manualTask");
  if (strcmp (kind, "userTask") == 0)
    return new_node (el, "userTask");
  if (strcmp (kind, "receiveTask") == 0)
    {
      node = new_node (el, "receiveTask");
      if (!set_message (im, node, el, NULL))
        g_clear_pointer (&node, json_object_unref);
      return node;
    }
  /* serviceTask, sendTask, businessRuleTask, scriptTask */
  {
    gboolean ok;
    JsonObject *worker = task_worker (im, el, &ok);

    if (!ok)
      return NULL;
    if (worker != NULL)
      {
        node = new_node (el, "serviceTask");
        json_object_set_object_member (node, "worker", worker);
        return node;
      }
    if (strcmp (kind, "scriptTask") == 0)
      warn (im, el, "its script is not run: the task passes through");
    else
      warn (im, el, "no implementation (topic, job type, class or expression): the task passes through");
    return new_node (el, "task");
  }
}

static JsonObject *
convert_flow (Import *im, xmlNode *el)
{
  JsonObject *flow = json_object_new ();
  xmlNode *cond = child (el, NS_BPMN, "conditionExpression");

  json_object_set_string_member (flow, "id", prop (el, "id") != NULL ? prop (el, "id") : "");
  json_object_set_string_member (flow, "from", prop (el, "sourceRef") != NULL ? prop (el, "sourceRef") : "");
  json_object_set_string_member (flow, "to", prop (el, "targetRef") != NULL ? prop (el, "targetRef") : "");
  if (cond != NULL)
    {
      g_autofree char *text = text_of (cond);
      g_autofree char *why = NULL;
      g_autofree char *lite = NULL;
      const char *language = prop (cond, "language");

      if (language != NULL && g_ascii_strcasecmp (language, "juel") != 0 && g_ascii_strcasecmp (language, "feel") != 0 &&
          strstr (language, "FEEL") == NULL && strstr (language, "feel") == NULL)
        why = g_strdup_printf ("a condition in %s is not supported (only JUEL ${…} and FEEL =… are translated)",
                               language);
      else if (*text == '\0' && prop (cond, "resource") != NULL)
        why = g_strdup ("an external condition script (camunda:resource) is not supported");
      else if ((lite = _wn_bpmn_expr_to_lite (text, &why)) != NULL)
        json_object_set_string_member (flow, "condition", lite);
      else
        {
          char *detail = g_strdup_printf ("the condition `%s`: %s", text, why);

          g_free (why);
          why = detail;
        }
      if (lite == NULL && (im->flags & WN_BPMN_IMPORT_SCENARIO_DECIDES) != 0)
        {
          /* decide_by_scenario() turns its gateway into a decision, once the scope is read */
          json_object_set_boolean_member (flow, "x-undecidable", TRUE);
          warn (im, cond, "%s; the scenario decides this branch instead (`decisions` weighs the flows "
                "leaving gateway %s)", why, prop (el, "sourceRef") != NULL ? prop (el, "sourceRef") : "?");
        }
      else if (lite == NULL && !im->told_scenario_decides)
        {
          im->told_scenario_decides = TRUE;
          refuse (im, cond, "%s; winnow-run --undecidable-conditions=scenario (in the app: the main menu's "
                  "BPMN Conditions Winnow Cannot Translate ▸ Let the Scenario Decide) imports such a branch "
                  "as one the scenario decides", why);
        }
      else if (lite == NULL)
        refuse (im, cond, "%s", why);
    }
  return flow;
}

static void
add_node (Import *im, JsonArray *nodes, const char *prefix, xmlNode *el, JsonObject *node)
{
  g_autofree char *path = g_strdup_printf ("%s%snodes[%u]", prefix, *prefix ? "." : "",
                                           json_array_get_length (nodes));

  remember (im, path, el);
  json_array_add_object_element (nodes, node);
  if (strcmp (json_object_get_string_member (node, "type"), "subProcess") == 0)
    convert_scope (im, el, node, path);
}

/* The child of `scope` with the id `id`, or NULL. */
static xmlNode *
element_at (Import *im, xmlNode *scope, const char *id)
{
  for (xmlNode *el = scope->children; el != NULL; el = el->next)
    if (el->type == XML_ELEMENT_NODE && g_strcmp0 (prop (el, "id"), id) == 0)
      return el;
  return NULL;
}

/* With WN_BPMN_IMPORT_SCENARIO_DECIDES: each exclusive gateway with a flow
 * whose condition could not be translated (marked "x-undecidable" by
 * convert_flow) becomes one the scenario decides: "decidedBy": "scenario", no
 * default, and no conditions on its flows (each dropped one is a warning).
 * A flow so marked that leaves anything else is refused as before. */
static void
decide_by_scenario (Import *im, JsonArray *nodes, JsonArray *flows, xmlNode *scope)
{
  g_autoptr(GHashTable) decided = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < json_array_get_length (flows); i++)
    {
      JsonObject *flow = json_array_get_object_element (flows, i);
      const char *from = json_object_get_string_member (flow, "from");
      xmlNode *el;

      if (!json_object_has_member (flow, "x-undecidable"))
        continue;
      json_object_remove_member (flow, "x-undecidable");
      el = element_at (im, scope, from);
      if (el != NULL && is_el (el, NS_BPMN, "exclusiveGateway"))
        g_hash_table_add (decided, (gpointer) from);
      else
        refuse (im, child (element_at (im, scope, json_object_get_string_member (flow, "id")), NS_BPMN,
                           "conditionExpression"),
                "the scenario can only decide a condition on a flow leaving an exclusive gateway");
    }
  if (g_hash_table_size (decided) == 0)
    return;
  for (guint i = 0; i < json_array_get_length (nodes); i++)
    {
      JsonObject *node = json_array_get_object_element (nodes, i);

      if (!g_hash_table_contains (decided, json_object_get_string_member (node, "id")))
        continue;
      json_object_set_string_member (node, "decidedBy", "scenario");
      if (json_object_has_member (node, "default"))
        {
          warn (im, element_at (im, scope, json_object_get_string_member (node, "id")),
                "its default flow %s is not a fallback any more: the scenario decides the gateway, and may "
                "draw any of its flows", json_object_get_string_member (node, "default"));
          json_object_remove_member (node, "default");
        }
    }
  for (guint i = 0; i < json_array_get_length (flows); i++)
    {
      JsonObject *flow = json_array_get_object_element (flows, i);

      if (!g_hash_table_contains (decided, json_object_get_string_member (flow, "from")) ||
          !json_object_has_member (flow, "condition"))
        continue;
      warn (im, child (element_at (im, scope, json_object_get_string_member (flow, "id")), NS_BPMN,
                       "conditionExpression"),
            "its condition is not used: gateway %s is decided by the scenario",
            json_object_get_string_member (flow, "from"));
      json_object_remove_member (flow, "condition");
    }
}

static gboolean
convert_scope (Import *im, xmlNode *scope, JsonObject *into, const char *prefix)
{
  static const char * const events[] = {
    "startEvent", "endEvent", "intermediateThrowEvent", "intermediateCatchEvent", "boundaryEvent", NULL
  };
  static const char * const tasks[] = {
    "task", "manualTask", "userTask", "receiveTask", "serviceTask", "sendTask", "businessRuleTask",
    "scriptTask", NULL
  };
  JsonArray *nodes = json_array_new ();
  JsonArray *flows = json_array_new ();
  guint before = im->errors->len;

  for (xmlNode *el = scope->children; el != NULL; el = el->next)
    {
      const char *kind = (const char *) el->name;
      JsonObject *node = NULL;

      if (el->type != XML_ELEMENT_NODE)
        continue;
      if (!is_el (el, NS_BPMN, NULL))
        {
          warn (im, el, "ignored: an element of another namespace");
          continue;
        }
      if (strcmp (kind, "sequenceFlow") == 0)
        {
          g_autofree char *path = g_strdup_printf ("%s%sflows[%u]", prefix, *prefix ? "." : "",
                                                   json_array_get_length (flows));

          remember (im, path, el);
          json_array_add_object_element (flows, convert_flow (im, el));
          continue;
        }
      if (strcmp (kind, "documentation") == 0)
        {
          if (im->n_documentation++ == 0)
            im->first_documentation = el;
          continue;
        }
      if (g_strv_contains (silent_children, kind))
        continue;
      if (strcmp (kind, "multiInstanceLoopCharacteristics") == 0 || strcmp (kind, "standardLoopCharacteristics") == 0)
        continue;   /* the sub-process's own: set_loop() */
      if (g_strv_contains (ignored_in_scope, kind))
        {
          warn (im, el, strcmp (kind, "laneSet") == 0 ? "ignored: lanes do not change how the process runs"
                                                      : "ignored: it does not change how the process runs");
          continue;
        }
      if (g_strv_contains (events, kind))
        node = convert_event (im, el, kind);
      else if (g_strv_contains (tasks, kind))
        node = convert_task (im, el, kind);
      else if (strcmp (kind, "exclusiveGateway") == 0)
        {
          node = new_node (el, kind);
          if (prop (el, "default") != NULL)
            json_object_set_string_member (node, "default", prop (el, "default"));
        }
      else if (strcmp (kind, "parallelGateway") == 0)
        node = new_node (el, kind);
      else if (strcmp (kind, "eventBasedGateway") == 0)
        {
          if (g_strcmp0 (prop (el, "instantiate"), "true") == 0)
            refuse (im, el, "an instantiating event-based gateway is not supported");
          else
            node = new_node (el, kind);
        }
      else if (strcmp (kind, "subProcess") == 0)
        {
          node = new_node (el, "subProcess");
          if (g_strcmp0 (prop (el, "triggeredByEvent"), "true") == 0)
            json_object_set_boolean_member (node, "triggeredByEvent", TRUE);
        }
      else if (strcmp (kind, "inclusiveGateway") == 0 || strcmp (kind, "complexGateway") == 0)
        refuse (im, el, "%s gateways are not supported yet (use exclusive or parallel gateways)",
                strcmp (kind, "inclusiveGateway") == 0 ? "inclusive" : "complex");
      else if (strcmp (kind, "callActivity") == 0)
        refuse (im, el, "call activities are not supported: the called process is another model");
      else if (strcmp (kind, "transaction") == 0 || strcmp (kind, "adHocSubProcess") == 0)
        refuse (im, el, "%s sub-processes are not supported", strcmp (kind, "transaction") == 0 ? "transaction"
                                                                                                : "ad-hoc");
      else
        refuse (im, el, "a %s is not supported", kind);

      if (node != NULL && !set_loop (im, el, node))
        g_clear_pointer (&node, json_object_unref);
      if (node != NULL)
        {
          check_children (im, el, json_object_has_member (node, "worker"));
          add_node (im, nodes, prefix, el, node);
        }
    }
  decide_by_scenario (im, nodes, flows, scope);
  json_object_set_array_member (into, "nodes", nodes);
  if (json_array_get_length (flows) > 0 || *prefix == '\0')
    json_object_set_array_member (into, "flows", flows);
  else
    json_array_unref (flows);
  return im->errors->len == before;
}

/* ---- the document ------------------------------------------------------------ */

static void
collect_definitions (Import *im, xmlNode *root)
{
  for (xmlNode *el = root->children; el != NULL; el = el->next)
    {
      const char *id;

      if (!is_el (el, NS_BPMN, NULL) || (id = prop (el, "id")) == NULL)
        continue;
      if (strcmp ((const char *) el->name, "error") == 0)
        g_hash_table_replace (im->error_codes, g_strdup (id),
                              g_strdup (prop (el, "errorCode") != NULL ? prop (el, "errorCode") : ""));
      else if (strcmp ((const char *) el->name, "message") == 0)
        {
          xmlNode *sub = extension (el, NS_ZEEBE, "subscription");

          g_hash_table_replace (im->messages, g_strdup (id),
                                g_strdup (is_identifier (prop (el, "name")) ? prop (el, "name") : id));
          if (sub != NULL && prop (sub, "correlationKey") != NULL)
            g_hash_table_replace (im->message_keys, g_strdup (id), g_strdup (prop (sub, "correlationKey")));
        }
    }
}

/* The process to import; NULL (reported) when there is none or several. */
static xmlNode *
choose_process (Import *im, xmlNode *root, const char *process_id)
{
  g_autoptr(GPtrArray) executable = g_ptr_array_new ();
  g_autoptr(GPtrArray) all = g_ptr_array_new ();
  g_autoptr(GString) ids = g_string_new (NULL);

  for (xmlNode *el = root->children; el != NULL; el = el->next)
    {
      if (!is_el (el, NS_BPMN, "process"))
        continue;
      if (process_id != NULL && g_strcmp0 (prop (el, "id"), process_id) == 0)
        return el;
      g_ptr_array_add (all, el);
      if (g_strcmp0 (prop (el, "isExecutable"), "true") == 0)
        g_ptr_array_add (executable, el);
    }
  for (guint i = 0; i < all->len; i++)
    g_string_append_printf (ids, "%s%s", i > 0 ? ", " : "",
                            prop (g_ptr_array_index (all, i), "id") ? prop (g_ptr_array_index (all, i), "id") : "?");
  if (process_id != NULL)
    {
      refuse (im, root, "no process \"%s\" (the processes are: %s)", process_id, all->len > 0 ? ids->str : "none");
      return NULL;
    }
  if (executable->len == 1)
    return g_ptr_array_index (executable, 0);
  if (executable->len == 0 && all->len == 1)
    {
      warn (im, g_ptr_array_index (all, 0), "the process is not marked executable (isExecutable); imported anyway");
      return g_ptr_array_index (all, 0);
    }
  if (all->len == 0)
    refuse (im, root, "the definitions hold no process");
  else
    {
      g_string_truncate (ids, 0);
      for (guint i = 0; i < executable->len; i++)
        g_string_append_printf (ids, "%s%s", i > 0 ? ", " : "", prop (g_ptr_array_index (executable, i), "id"));
      refuse (im, root, "%u executable processes (%s): choose one (winnow-run --process ID)",
              executable->len, ids->str);
    }
  return NULL;
}

static void
note_collaboration (Import *im, xmlNode *root)
{
  for (xmlNode *el = root->children; el != NULL; el = el->next)
    {
      if (!is_el (el, NS_BPMN, "collaboration"))
        continue;
      for (xmlNode *c = el->children; c != NULL; c = c->next)
        if (is_el (c, NS_BPMN, "messageFlow"))
          warn (im, c, "ignored: message flows to other pools are not simulated (the scenario sends messages)");
    }
}

/* ---- the diagram ------------------------------------------------------------ */

static gboolean
number_prop (xmlNode *el, const char *name, double *out)
{
  const char *v = prop (el, name);
  char *end = NULL;

  if (v == NULL)
    return FALSE;
  *out = g_ascii_strtod (v, &end);
  return end != v && *end == '\0' && isfinite (*out);
}

/* A BPMNShape's or BPMNEdge's dc:Bounds (of its BPMNLabel with `label`). */
static gboolean
di_bounds (xmlNode *el, gboolean label, WnDiagramShape *out)
{
  xmlNode *bounds;

  if (el == NULL)
    return FALSE;
  if (label && (el = child (el, NS_BPMNDI, "BPMNLabel")) == NULL)
    return FALSE;
  bounds = child (el, "http://www.omg.org/spec/DD/20100524/DC", "Bounds");
  return bounds != NULL && number_prop (bounds, "x", &out->x) && number_prop (bounds, "y", &out->y) &&
         number_prop (bounds, "width", &out->width) && number_prop (bounds, "height", &out->height) &&
         out->width > 0 && out->height > 0;
}

static void
add_frame (GArray *frames, GHashTable *shapes, xmlNode *el, gboolean lane)
{
  xmlNode *shape = prop (el, "id") != NULL ? g_hash_table_lookup (shapes, prop (el, "id")) : NULL;
  WnDiagramFrame frame = { { 0 } };

  if (!di_bounds (shape, FALSE, &frame.bounds))
    return;
  frame.name = prop (el, "name") != NULL && *prop (el, "name") != '\0' ? g_strdup (prop (el, "name")) : NULL;
  frame.lane = lane;
  frame.vertical = g_strcmp0 (prop (shape, "isHorizontal"), "false") == 0;
  g_array_append_val (frames, frame);
}

/* The lanes of a laneSet, each before the lanes of its childLaneSet. */
static void
add_lanes (GArray *frames, GHashTable *shapes, xmlNode *lane_set)
{
  for (xmlNode *lane = lane_set != NULL ? lane_set->children : NULL; lane != NULL; lane = lane->next)
    if (is_el (lane, NS_BPMN, "lane"))
      {
        add_frame (frames, shapes, lane, TRUE);
        add_lanes (frames, shapes, child (lane, NS_BPMN, "childLaneSet"));
      }
}

/* What the diagram draws besides shapes and waypoints: the pool that holds
 * the process and its lanes as frames, and the label bounds of nodes and flows. */
static void
read_frames_and_labels (xmlNode *root, xmlNode *process_el, GHashTable *shapes, GHashTable *edges,
                        const WnProcess *process, WnDiagram *diagram)
{
  GArray *frames = g_array_new (FALSE, TRUE, sizeof (WnDiagramFrame));
  const char *id = prop (process_el, "id");

  diagram->node_labels = g_new0 (WnDiagramShape, process->n_nodes);
  diagram->flow_labels = g_new0 (WnDiagramShape, process->n_flows);
  for (guint i = 0; i < process->n_nodes; i++)
    if (!di_bounds (g_hash_table_lookup (shapes, process->nodes[i].id), TRUE, &diagram->node_labels[i]))
      memset (&diagram->node_labels[i], 0, sizeof diagram->node_labels[i]);
  for (guint f = 0; f < process->n_flows; f++)
    if (!di_bounds (g_hash_table_lookup (edges, process->flows[f].id), TRUE, &diagram->flow_labels[f]))
      memset (&diagram->flow_labels[f], 0, sizeof diagram->flow_labels[f]);
  for (xmlNode *c = root->children; c != NULL && id != NULL; c = c->next)
    for (xmlNode *p = is_el (c, NS_BPMN, "collaboration") ? c->children : NULL; p != NULL; p = p->next)
      if (is_el (p, NS_BPMN, "participant") && g_strcmp0 (prop (p, "processRef"), id) == 0)
        add_frame (frames, shapes, p, FALSE);
  for (xmlNode *c = process_el->children; c != NULL; c = c->next)
    if (is_el (c, NS_BPMN, "laneSet"))
      add_lanes (frames, shapes, c);
  diagram->n_frames = frames->len;
  diagram->frames = (WnDiagramFrame *) (void *) g_array_free (frames, FALSE);
}

/* Is the subProcess `index` (drawn as `shape`) drawn closed? As isExpanded
 * says; without it, when none of its children is drawn in the same plane. */
static gboolean
subprocess_collapsed (const WnProcess *process,
                      guint            index,
                      xmlNode         *shape,
                      GHashTable      *shapes)
{
  const char *expanded = prop (shape, "isExpanded");

  if (expanded != NULL)
    return g_strcmp0 (expanded, "false") == 0;
  for (guint i = 0; i < process->n_nodes; i++)
    {
      xmlNode *inner;

      if (process->nodes[i].scope != (int) index)
        continue;
      inner = g_hash_table_lookup (shapes, process->nodes[i].id);
      if (inner != NULL && inner->parent == shape->parent)
        return FALSE;
    }
  return TRUE;
}

/* Is the node inside a subProcess drawn closed? */
static gboolean
inside_collapsed (const WnProcess *process,
                  const gboolean  *collapsed,
                  guint            index)
{
  for (int s = process->nodes[index].scope; s >= 0; s = process->nodes[s].scope)
    if (collapsed[s])
      return TRUE;
  return FALSE;
}

/* The BPMNDI shapes and edges of the process's elements; NULL (and a warning)
 * when the file has none or leaves a node without a shape (the content of a
 * sub-process drawn closed needs none). */
static WnDiagram *
read_diagram (Import *im, xmlNode *root, xmlNode *process_el, WnProcess *process)
{
  g_autoptr(GHashTable) shapes = g_hash_table_new (g_str_hash, g_str_equal);   /* element id → BPMNShape */
  g_autoptr(GHashTable) edges = g_hash_table_new (g_str_hash, g_str_equal);
  WnDiagram *diagram;
  xmlNode *missing = NULL;
  const char *missing_id = NULL;

  for (xmlNode *d = root->children; d != NULL; d = d->next)
    {
      if (!is_el (d, NS_BPMNDI, "BPMNDiagram"))
        continue;
      for (xmlNode *plane = d->children; plane != NULL; plane = plane->next)
        for (xmlNode *el = is_el (plane, NS_BPMNDI, "BPMNPlane") ? plane->children : NULL; el != NULL; el = el->next)
          {
            const char *ref = prop (el, "bpmnElement");

            if (ref == NULL)
              continue;
            if (is_el (el, NS_BPMNDI, "BPMNShape"))
              g_hash_table_insert (shapes, (gpointer) ref, el);
            else if (is_el (el, NS_BPMNDI, "BPMNEdge"))
              g_hash_table_insert (edges, (gpointer) ref, el);
          }
    }
  if (g_hash_table_size (shapes) == 0)
    {
      warn (im, root, "no diagram (BPMNDI): the automatic layout is used");
      return NULL;
    }

  diagram = g_new0 (WnDiagram, 1);
  diagram->n_shapes = process->n_nodes;
  diagram->shapes = g_new0 (WnDiagramShape, process->n_nodes);
  diagram->n_edges = process->n_flows;
  diagram->edges = g_new0 (WnDiagramEdge, process->n_flows);
  diagram->collapsed = g_new0 (gboolean, process->n_nodes);
  for (guint i = 0; i < process->n_nodes; i++)
    {
      xmlNode *shape = g_hash_table_lookup (shapes, process->nodes[i].id);

      if (process->nodes[i].type == WN_NODE_SUBPROCESS && shape != NULL)
        diagram->collapsed[i] = subprocess_collapsed (process, i, shape, shapes);
    }
  for (guint i = 0; i < process->n_nodes && missing_id == NULL; i++)
    {
      xmlNode *shape = g_hash_table_lookup (shapes, process->nodes[i].id);
      xmlNode *bounds = shape != NULL ? child (shape, "http://www.omg.org/spec/DD/20100524/DC", "Bounds") : NULL;
      WnDiagramShape *s = &diagram->shapes[i];

      if (inside_collapsed (process, diagram->collapsed, i))
        continue;
      if (bounds == NULL || !number_prop (bounds, "x", &s->x) || !number_prop (bounds, "y", &s->y) ||
          !number_prop (bounds, "width", &s->width) || !number_prop (bounds, "height", &s->height))
        {
          missing = shape != NULL ? shape : root;
          missing_id = process->nodes[i].id;
        }
    }
  if (missing_id != NULL)
    {
      warn (im, missing, "the diagram has no shape with bounds for \"%s\": the automatic layout is used",
            missing_id);
      wn_diagram_free (diagram);
      return NULL;
    }
  for (guint f = 0; f < process->n_flows; f++)
    {
      xmlNode *edge = g_hash_table_lookup (edges, process->flows[f].id);
      GArray *points = g_array_new (FALSE, FALSE, sizeof (WnDiagramPoint));

      for (xmlNode *w = edge != NULL ? edge->children : NULL; w != NULL; w = w->next)
        {
          WnDiagramPoint pt;

          if (is_el (w, "http://www.omg.org/spec/DD/20100524/DI", "waypoint") &&
              number_prop (w, "x", &pt.x) && number_prop (w, "y", &pt.y))
            g_array_append_val (points, pt);
        }
      diagram->edges[f].n_points = points->len;
      diagram->edges[f].points = (WnDiagramPoint *) (void *) g_array_free (points, FALSE);
    }
  read_frames_and_labels (root, process_el, shapes, edges, process, diagram);
  return diagram;
}

/* Map the JSON loader's diagnostics (at JSON paths) back to the elements. */
static void
map_back (Import *im, GPtrArray *diags, xmlNode *process_el)
{
  for (guint i = 0; diags != NULL && i < diags->len; i++)
    {
      WnDiagnostic *json_d = g_ptr_array_index (diags, i);
      g_autofree char *path = g_strdup (json_d->path != NULL ? json_d->path : "");
      WnDiagnostic *d;
      Loc *loc = NULL;

      while (loc == NULL && *path != '\0')
        {
          char *cut;

          loc = g_hash_table_lookup (im->locations, path);
          if (loc != NULL)
            break;
          cut = strrchr (path, '.');
          if (cut == NULL || (strrchr (path, '[') != NULL && strrchr (path, '[') > cut))
            cut = strrchr (path, '[');
          if (cut == NULL)
            break;
          *cut = '\0';
        }
      if (loc == NULL)
        {
          add_diag (im, im->errors, process_el, g_strdup (json_d->message));
          continue;
        }
      d = g_new0 (WnDiagnostic, 1);
      d->file = g_strdup (im->file);
      d->line = loc->line;
      d->column = loc->column;
      d->path = g_strdup (loc->label);
      d->message = g_strdup (json_d->message);
      g_ptr_array_add (im->errors, d);
    }
}

/* Fail with the collected errors, as the JSON loader does. */
static void
fail (Import *im, int code, GPtrArray **diagnostics, GError **error)
{
  WnCheck ctx = { 0 };

  ctx.file = im->file;
  ctx.diags = g_steal_pointer (&im->errors);
  if (code == WN_LOAD_ERROR_SYNTAX)
    {
      g_autoptr(GString) message = g_string_new (NULL);

      for (guint i = 0; i < ctx.diags->len; i++)
        {
          g_autofree char *line = wn_diagnostic_format (g_ptr_array_index (ctx.diags, i));

          g_string_append_printf (message, "%s%s", i > 0 ? "\n" : "", line);
        }
      g_set_error_literal (error, WN_LOAD_ERROR, WN_LOAD_ERROR_SYNTAX, message->str);
      if (diagnostics != NULL)
        *diagnostics = g_steal_pointer (&ctx.diags);
      g_clear_pointer (&ctx.diags, g_ptr_array_unref);
      return;
    }
  _wn_check_end (&ctx, FALSE, diagnostics, error);
}

static int
compare_diag (gconstpointer a, gconstpointer b)
{
  const WnDiagnostic *x = *(const WnDiagnostic * const *) a;
  const WnDiagnostic *y = *(const WnDiagnostic * const *) b;

  if (x->line != y->line)
    return x->line < y->line ? -1 : 1;
  return x->column < y->column ? -1 : x->column > y->column;
}

static void
syntax_error (Import *im, guint line, guint column, const char *message)
{
  WnDiagnostic *d = g_new0 (WnDiagnostic, 1);

  d->file = g_strdup (im->file);
  d->line = MAX (line, 1);
  d->column = MAX (column, 1);
  d->path = g_strdup ("");
  d->message = g_strdup (message);
  g_ptr_array_add (im->errors, d);
}

gboolean
wn_load_data_is_xml (const char *data, gsize length)
{
  gsize i = 0;

  if (length >= 3 && (guchar) data[0] == 0xEF && (guchar) data[1] == 0xBB && (guchar) data[2] == 0xBF)
    i = 3;
  while (i < length && g_ascii_isspace (data[i]))
    i++;
  return i < length && data[i] == '<';
}

/* libxml2's structured error handler: keep the first error (the later ones follow from it). */
static void
first_error (void *data, xmlError *e)
{
  Import *im = ((xmlParserCtxt *) data)->_private;   /* data: the parser context (SAX2's user data) */

  if (e->level >= XML_ERR_ERROR && im->errors->len == 0)
    {
      g_autofree char *message = g_strstrip (g_strdup (e->message != NULL ? e->message : "not well-formed XML"));

      syntax_error (im, (guint) MAX (e->line, 1), (guint) MAX (e->int2, 1), message);
    }
}

static xmlDoc *
parse_xml (Import *im, const char *data, gsize length)
{
  xmlParserCtxt *ctxt = xmlNewParserCtxt ();
  xmlDoc *doc;

  if (ctxt == NULL)
    {
      syntax_error (im, 1, 1, "out of memory");
      return NULL;
    }
  ctxt->sax->serror = first_error;
  ctxt->sax->warning = NULL;
  ctxt->_private = im;
  /* no XML_PARSE_NOENT, _DTDLOAD, _DTDATTR, _XINCLUDE or _HUGE: nothing outside the text is read */
  doc = xmlCtxtReadMemory (ctxt, data, (int) length, im->file, NULL,
                           XML_PARSE_NONET | XML_PARSE_NOWARNING | XML_PARSE_NOBLANKS);
  if (doc == NULL || !ctxt->wellFormed)
    {
      if (im->errors->len == 0)
        syntax_error (im, 1, 1, "not well-formed XML");
      g_clear_pointer (&doc, xmlFreeDoc);
    }
  xmlFreeParserCtxt (ctxt);
  return doc;
}

WnProcess *
wn_load_bpmn_data (const char  *data,
                   gssize       length,
                   const char  *display_name,
                   const char  *process_id,
                   char       **json_out,
                   GPtrArray  **diagnostics,
                   GError     **error)
{
  return wn_load_bpmn_data_with_flags (data, length, display_name, process_id, WN_BPMN_IMPORT_DEFAULT,
                                       json_out, diagnostics, error);
}

WnProcess *
wn_load_bpmn_data_with_flags (const char        *data,
                              gssize             length,
                              const char        *display_name,
                              const char        *process_id,
                              WnBpmnImportFlags  flags,
                              char             **json_out,
                              GPtrArray        **diagnostics,
                              GError           **error)
{
  Import im = { 0 };
  g_autoptr(JsonNode) root_json = NULL;
  g_autoptr(JsonGenerator) generator = NULL;
  g_autoptr(GPtrArray) json_diags = NULL;
  g_autoptr(GError) json_error = NULL;
  g_autofree char *json = NULL;
  JsonObject *root_object;
  WnProcess *process = NULL;
  xmlDoc *doc = NULL;
  xmlNode *root;
  xmlNode *process_el;
  gboolean doctype;
  TagPos doctype_at = { 1, 1 };
  guint n_elements = 0;
  gsize len;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (diagnostics != NULL)
    *diagnostics = NULL;
  if (json_out != NULL)
    *json_out = NULL;
  data = data != NULL ? data : "";
  len = length < 0 ? strlen (data) : (gsize) length;
  im.file = display_name != NULL ? display_name : "<data>";
  im.flags = flags;
  im.errors = g_ptr_array_new_with_free_func ((GDestroyNotify) wn_diagnostic_free);
  im.warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) wn_diagnostic_free);
  im.error_codes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  im.messages = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  im.message_keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  im.locations = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, loc_free);

  if (len > G_MAXINT)
    {
      syntax_error (&im, 1, 1, "the document is too large for the XML parser");
      fail (&im, WN_LOAD_ERROR_SYNTAX, diagnostics, error);
      goto out;
    }
  im.tags = scan_tags (data, len, &doctype, &doctype_at);
  if (doctype)
    {
      syntax_error (&im, doctype_at.line, doctype_at.column,
                    "a DOCTYPE is not allowed: BPMN needs no DTD, and Winnow never loads one or expands "
                    "its entities (refused before parsing)");
      fail (&im, WN_LOAD_ERROR_SYNTAX, diagnostics, error);
      goto out;
    }
  doc = parse_xml (&im, data, len);
  if (doc == NULL)
    {
      fail (&im, WN_LOAD_ERROR_SYNTAX, diagnostics, error);
      goto out;
    }
  root = xmlDocGetRootElement (doc);
  number_elements (root, &n_elements);
  if (n_elements != im.tags->len)
    g_array_set_size (im.tags, 0);   /* the scan disagrees: lines from libxml2, column 1 */
  if (!is_el (root, NS_BPMN, "definitions"))
    {
      refuse (&im, root, "not a BPMN 2.0 document: the root element is not definitions in the namespace "
              NS_BPMN);
      fail (&im, WN_LOAD_ERROR_INVALID, diagnostics, error);
      goto out;
    }

  collect_definitions (&im, root);
  process_el = choose_process (&im, root, process_id);
  if (process_el == NULL)
    {
      fail (&im, WN_LOAD_ERROR_INVALID, diagnostics, error);
      goto out;
    }
  note_collaboration (&im, root);

  root_object = json_object_new ();
  root_json = json_node_init_object (json_node_alloc (), root_object);
  json_object_unref (root_object);
  json_object_set_string_member (root_object, "format", WN_PROCESS_FORMAT);
  json_object_set_string_member (root_object, "id", prop (process_el, "id") != NULL ? prop (process_el, "id") : "");
  if (prop (process_el, "name") != NULL)
    json_object_set_string_member (root_object, "name", prop (process_el, "name"));
  {
    JsonObject *engine = json_object_new ();

    json_object_set_string_member (engine, "onExhausted", "incident");
    json_object_set_object_member (root_object, "engine", engine);
  }
  remember (&im, "id", process_el);
  convert_scope (&im, process_el, root_object, "");
  if (im.n_documentation > 0)
    warn (&im, im.first_documentation, im.n_documentation == 1 ? "ignored: documentation"
                                                               : "ignored: documentation (%u elements)",
          im.n_documentation);

  if (im.errors->len > 0)
    {
      fail (&im, WN_LOAD_ERROR_INVALID, diagnostics, error);
      goto out;
    }

  generator = json_generator_new ();
  json_generator_set_root (generator, root_json);
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  json = json_generator_to_data (generator, NULL);
  process = wn_load_process_data (json, -1, im.file, &json_diags, &json_error);
  if (process == NULL)
    {
      map_back (&im, json_diags, process_el);
      fail (&im, WN_LOAD_ERROR_INVALID, diagnostics, error);
      goto out;
    }
  process->diagram = read_diagram (&im, root, process_el, process);
  g_ptr_array_sort (im.warnings, compare_diag);
  if (im.warnings->len > 0)
    {
      process->warnings = g_ptr_array_new_with_free_func (g_free);
      for (guint i = 0; i < im.warnings->len; i++)
        g_ptr_array_add (process->warnings, wn_diagnostic_format (g_ptr_array_index (im.warnings, i)));
    }
  if (json_out != NULL)
    *json_out = g_steal_pointer (&json);

out:
  g_clear_pointer (&doc, xmlFreeDoc);
  g_clear_pointer (&im.tags, g_array_unref);
  g_clear_pointer (&im.errors, g_ptr_array_unref);
  g_clear_pointer (&im.warnings, g_ptr_array_unref);
  g_clear_pointer (&im.error_codes, g_hash_table_unref);
  g_clear_pointer (&im.messages, g_hash_table_unref);
  g_clear_pointer (&im.message_keys, g_hash_table_unref);
  g_clear_pointer (&im.locations, g_hash_table_unref);
  return process;
}

/* Read `filename` and import it: as BPMN (`any` FALSE), or as BPMN when it is
 * XML and else as winnow.process/1. */
static WnProcess *
load_file (const char         *filename,
           gsize               max_size,
           gboolean            any,
           const char         *process_id,
           WnBpmnImportFlags   flags,
           char              **json_out,
           GPtrArray         **diagnostics,
           GError            **error)
{
  g_autofree char *contents = NULL;
  gsize length = 0;

  g_return_val_if_fail (filename != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (json_out != NULL)
    *json_out = NULL;
  contents = _wn_check_read_file (filename, max_size > 0 ? max_size : WN_LOAD_DEFAULT_MAX_SIZE, diagnostics,
                                  error, &length);
  if (contents == NULL)
    return NULL;
  if (any && !wn_load_data_is_xml (contents, length))
    return wn_load_process_data (contents, (gssize) length, filename, diagnostics, error);
  return wn_load_bpmn_data_with_flags (contents, (gssize) length, filename, process_id, flags, json_out,
                                       diagnostics, error);
}

WnProcess *
wn_load_bpmn_file (const char  *filename,
                   gsize        max_size,
                   const char  *process_id,
                   char       **json_out,
                   GPtrArray  **diagnostics,
                   GError     **error)
{
  return load_file (filename, max_size, FALSE, process_id, WN_BPMN_IMPORT_DEFAULT, json_out, diagnostics, error);
}

WnProcess *
wn_load_bpmn_file_with_flags (const char        *filename,
                              gsize              max_size,
                              const char        *process_id,
                              WnBpmnImportFlags  flags,
                              char             **json_out,
                              GPtrArray        **diagnostics,
                              GError           **error)
{
  return load_file (filename, max_size, FALSE, process_id, flags, json_out, diagnostics, error);
}

/* ---- for front ends: the file as the runner reads it, and its processes ------ */

WnProcess *
wn_load_process_or_bpmn_file (const char  *filename,
                              const char  *process_id,
                              char       **json_out,
                              GPtrArray  **diagnostics,
                              GError     **error)
{
  return load_file (filename, 0, TRUE, process_id, WN_BPMN_IMPORT_DEFAULT, json_out, diagnostics, error);
}

WnProcess *
wn_load_process_or_bpmn_file_with_flags (const char        *filename,
                                         gsize              max_size,
                                         const char        *process_id,
                                         WnBpmnImportFlags  flags,
                                         char             **json_out,
                                         GPtrArray        **diagnostics,
                                         GError           **error)
{
  return load_file (filename, max_size, TRUE, process_id, flags, json_out, diagnostics, error);
}

GStrv
wn_bpmn_file_processes (const char  *filename,
                        GStrv       *names,
                        GError     **error)
{
  g_autofree char *contents = NULL;
  g_autoptr(GStrvBuilder) ids = g_strv_builder_new ();
  g_autoptr(GStrvBuilder) titles = g_strv_builder_new ();
  Import im = { 0 };
  xmlDoc *doc = NULL;
  gboolean doctype = FALSE;
  TagPos at = { 1, 1 };
  gsize length = 0;
  GStrv result = NULL;

  g_return_val_if_fail (filename != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (names != NULL)
    *names = NULL;
  contents = _wn_check_read_file (filename, WN_LOAD_DEFAULT_MAX_SIZE, NULL, error, &length);
  if (contents == NULL)
    return NULL;
  im.file = filename;
  im.errors = g_ptr_array_new_with_free_func ((GDestroyNotify) wn_diagnostic_free);
  im.tags = length <= G_MAXINT && wn_load_data_is_xml (contents, length)
            ? scan_tags (contents, length, &doctype, &at) : NULL;
  if (im.tags != NULL && !doctype)
    doc = parse_xml (&im, contents, length);
  if (doc != NULL && is_el (xmlDocGetRootElement (doc), NS_BPMN, "definitions"))
    {
      for (xmlNode *el = xmlDocGetRootElement (doc)->children; el != NULL; el = el->next)
        if (is_el (el, NS_BPMN, "process") && prop (el, "id") != NULL &&
            g_strcmp0 (prop (el, "isExecutable"), "true") == 0)
          {
            g_strv_builder_add (ids, prop (el, "id"));
            g_strv_builder_add (titles, prop (el, "name") != NULL ? prop (el, "name") : "");
          }
      result = g_strv_builder_end (ids);
      if (names != NULL)
        *names = g_strv_builder_end (titles);
    }
  else
    g_set_error (error, WN_LOAD_ERROR, WN_LOAD_ERROR_SYNTAX, "%s: not a BPMN 2.0 document", filename);
  g_clear_pointer (&doc, xmlFreeDoc);
  g_clear_pointer (&im.tags, g_array_unref);
  g_clear_pointer (&im.errors, g_ptr_array_unref);
  return result;
}

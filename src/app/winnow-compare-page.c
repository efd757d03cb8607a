/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-compare-page.c — the Compare tab (see the header). The variants are
 * a winnow.sweep/1 document the page writes from its fields; the policy lab
 * (src/lab) loads it on the GTK thread, so that mistakes show at once, and
 * runs it on threads of its own, each run with its own engine and main
 * context. The page looks at the progress every 200 ms and shows the rows
 * when the task returns. */
#include "config.h"

#include <inttypes.h>
#include <glib/gi18n.h>
#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "winnow-compare-page.h"
#include "winnow-wrap-box.h"
#include "winnow-lab-attempts.h"
#include "winnow-lab-bars.h"
#include "winnow-lab-chart.h"
#include "winnow-lab-plot.h"
#include "wn-lab.h"

/* A run of the variants, shared with the thread that runs them. */
typedef struct {
  WnLabSweep   *sweep;
  guint         jobs;
  gint          done;        /* atomic */
  gint          total;       /* atomic */
} Job;

struct _WinnowComparePage
{
  WinnowPanel     parent_instance;

  GtkWidget      *box;            /* the template's top (dispose_template) */
  GtkEntry       *attempts;
  GtkDropDown    *jitter;
  GtkDropDown    *trust;
  GtkDropDown    *task;           /* whose retry policy: engine-wide, or a task's */
  GtkDropDown    *exhausted;
  GtkDropDown    *kind;           /* as the files say, fixed, exponential, both */
  GtkEntry       *delay;
  GtkEntry       *cap;
  GtkDropDown    *worker;
  GtkEntry       *failure;
  GtkEntry       *latency;
  GtkSpinButton  *orders;
  GtkSpinButton  *seeds;
  GtkProgressBar *progress;
  GtkLabel       *error;
  GtkStack       *stack;
  GtkStack       *plots;
  WinnowLabPlot  *plot;
  WinnowLabPlot  *load_plot;
  WinnowLabAttempts *attempts_plot;
  WinnowLabBars  *bars;
  GtkGrid        *table;
  GtkLabel       *sentences;

  GCancellable   *cancellable;    /* while running */
  Job            *job;            /* while running: the task's */
  guint           progress_id;
  GPtrArray      *summaries;      /* the last run's rows */
};

G_DEFINE_FINAL_TYPE (WinnowComparePage, winnow_compare_page, WINNOW_TYPE_PANEL)

/* More variants than colours read badly: the runner is for larger sweeps. */
#define MAX_VARIANTS 8

static void
job_free (gpointer data)
{
  Job *job = data;

  g_clear_pointer (&job->sweep, wn_lab_sweep_free);
  g_free (job);
}

static void
progress_cb (guint    done,
             guint    total,
             gpointer data)
{
  Job *job = data;

  g_atomic_int_set (&job->total, (gint) total);
  g_atomic_int_set (&job->done, (gint) done);
}

/* One comparison, in a thread of its own. */
typedef struct {
  Job          *job;
  GCancellable *cancellable;
  GPtrArray    *summaries;
  GError       *error;
} Run;

/* The comparison's thread, and the lab's threads it starts (they inherit
 * it), take the CPU after the window's: with a run a core, the window
 * still draws its frames while the variants run (issue 21). Linux keeps a
 * nice value per thread; elsewhere they run as they are. */
static gpointer
background_run_cb (gpointer data)
{
  Run *run = data;

#ifdef __linux__
  /* a failure (no such limit, say) leaves the priority as it was: nothing to report */
  (void) setpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid), WINNOW_COMPARE_NICE);
#endif
  run->summaries = wn_lab_sweep_run (run->job->sweep, 1, 1, run->job->jobs, run->cancellable, progress_cb,
                                     run->job, &run->error);
  return NULL;
}

static void
run_thread (GTask        *task,
            gpointer      source,
            gpointer      data,
            GCancellable *cancellable)
{
  /* not in the task's own thread: GLib's pool keeps it, and a nice value
   * once raised cannot be lowered again */
  Run run = { data, cancellable, NULL, NULL };
  GError *error;
  GPtrArray *summaries;

  g_thread_join (g_thread_new ("wn-compare", background_run_cb, &run));
  error = run.error;
  summaries = run.summaries;

  if (summaries == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, summaries, (GDestroyNotify) g_ptr_array_unref);
}

static void
update_actions (WinnowComparePage *self)
{
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  gboolean loaded = session != NULL && winnow_session_is_loaded (session) && winnow_session_get_file (session) != NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.run", loaded && self->job == NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.cancel", self->job != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.export-plot", self->summaries != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.export-table", self->summaries != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.save", self->summaries != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.open", self->job == NULL);
}

static void
show_error (WinnowComparePage *self,
            const char        *message)
{
  gtk_label_set_text (self->error, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error), message != NULL);
}

static gboolean
tick_progress_cb (gpointer data)
{
  WinnowComparePage *self = data;
  gint total = g_atomic_int_get (&self->job->total);
  gint done = g_atomic_int_get (&self->job->done);
  g_autofree char *text = NULL;

  if (total > 0)
    {
      /* Translators: progress of the Compare tab's runs: "12 of 40 runs" */
      text = g_strdup_printf (_("%d of %d runs"), done, total);
      gtk_progress_bar_set_fraction (self->progress, (double) done / total);
      gtk_progress_bar_set_text (self->progress, text);
    }
  return G_SOURCE_CONTINUE;
}

static GtkWidget *
cell (const char *text,
      gboolean    numeric)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), numeric ? 1.0 : 0.0);
  if (numeric)
    gtk_widget_add_css_class (label, "numeric");
  return label;
}

static char *
percent (const WnLabInterval *iv)
{
  return g_strdup_printf ("%.2f %% (%.2f–%.2f)", iv->value * 100, iv->lo * 100, iv->hi * 100);
}

static char *
duration (const WnLabInterval *iv)
{
  g_autofree char *v = wn_lab_format_duration (iv->value);
  g_autofree char *lo = wn_lab_format_duration (iv->lo);
  g_autofree char *hi = wn_lab_format_duration (iv->hi);

  return g_strdup_printf ("%s (%s–%s)", v, lo, hi);
}

static void
show_rows (WinnowComparePage *self)
{
  static const char *headings[] = {
    "", N_("Variant"), N_("Failed (95 % CI)"), N_("p50"), N_("p90"), N_("p99"), N_("Executions per order"),
    N_("Peak executions per second"),
  };
  g_autoptr(GString) said = g_string_new (NULL);
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->table))) != NULL)
    gtk_grid_remove (self->table, child);
  for (guint c = 0; c < G_N_ELEMENTS (headings); c++)
    {
      GtkWidget *h = cell (headings[c][0] ? _(headings[c]) : "", c >= 2);

      gtk_widget_add_css_class (h, "heading");
      gtk_grid_attach (self->table, h, (int) c, 0, 1, 1);
    }
  for (guint i = 0; i < self->summaries->len; i++)
    {
      WnLabSummary *s = g_ptr_array_index (self->summaries, i);
      WnLabSeedStats t;
      WnLabInterval iv;
      GdkRGBA color;
      g_autofree char *swatch = NULL;
      g_autofree char *hex = NULL;
      g_autofree char *failed = NULL;
      g_autofree char *per = NULL;
      GtkWidget *dot;

      wn_lab_summary_get_totals (s, &t);
      winnow_lab_chart_get_color (i, dark, &color);
      hex = g_strdup_printf ("#%02x%02x%02x", (int) (color.red * 255), (int) (color.green * 255), (int) (color.blue * 255));
      swatch = g_strdup_printf ("<span foreground=\"%s\">●</span> %u", hex, i);
      dot = cell (NULL, FALSE);
      gtk_label_set_markup (GTK_LABEL (dot), swatch);
      gtk_grid_attach (self->table, dot, 0, (int) i + 1, 1, 1);
      {
        GtkWidget *name = cell (wn_lab_summary_get_name (s), FALSE);

        /* long names give way to the figures; the tooltip has them whole */
        gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_MIDDLE);
        gtk_label_set_width_chars (GTK_LABEL (name), 16);
        gtk_widget_set_hexpand (name, TRUE);
        gtk_widget_set_tooltip_text (name, wn_lab_summary_get_name (s));
        gtk_grid_attach (self->table, name, 1, (int) i + 1, 1, 1);
      }
      wn_lab_summary_failed_rate (s, &iv);
      failed = percent (&iv);
      gtk_grid_attach (self->table, cell (failed, TRUE), 2, (int) i + 1, 1, 1);
      for (guint p = 0; p < 3; p++)
        {
          static const double ps[] = { 50, 90, 99 };
          g_autofree char *text = NULL;

          if (t.completed == 0)
            text = g_strdup ("—");
          else
            {
              wn_lab_summary_percentile (s, ps[p], &iv);
              text = duration (&iv);
            }
          gtk_grid_attach (self->table, cell (text, TRUE), 3 + (int) p, (int) i + 1, 1, 1);
        }
      per = g_strdup_printf ("%.3f", t.instances > 0 ? (double) t.executions / (double) t.instances : 0.0);
      gtk_grid_attach (self->table, cell (per, TRUE), 6, (int) i + 1, 1, 1);
      wn_lab_summary_peak_load (s, &iv);
      {
        g_autofree char *peak = g_strdup_printf ("%.0f (%.0f–%.0f)", iv.value, iv.lo, iv.hi);

        gtk_grid_attach (self->table, cell (peak, TRUE), 7, (int) i + 1, 1, 1);
      }
      if (i > 0)
        {
          g_autofree char *sentence = wn_lab_summary_compare (s, g_ptr_array_index (self->summaries, 0), NULL, NULL);

          g_string_append_printf (said, "%s%u: %s", said->len ? "\n\n" : "", i, sentence);
        }
    }
  gtk_label_set_text (self->sentences, said->str);
  winnow_lab_plot_set_summaries (self->plot, self->summaries);
  winnow_lab_plot_set_summaries (self->load_plot, self->summaries);
  winnow_lab_attempts_set_summaries (self->attempts_plot, self->summaries);
  winnow_lab_bars_set_summaries (self->bars, self->summaries);
  gtk_stack_set_visible_child_name (self->stack, "results");
}

static void
run_done_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      data)
{
  g_autoptr(WinnowComparePage) self = data;
  g_autoptr(GError) error = NULL;
  GPtrArray *summaries = g_task_propagate_pointer (G_TASK (result), &error);

  g_clear_handle_id (&self->progress_id, g_source_remove);
  g_clear_object (&self->cancellable);
  self->job = NULL;
  gtk_progress_bar_set_fraction (self->progress, summaries != NULL ? 1.0 : 0.0);
  gtk_progress_bar_set_text (self->progress, summaries != NULL ? _("Done") : _("Canceled"));
  if (summaries != NULL)
    {
      g_clear_pointer (&self->summaries, g_ptr_array_unref);
      self->summaries = summaries;
      show_rows (self);
      show_error (self, NULL);
    }
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    show_error (self, error->message);
  if (gtk_widget_get_root (GTK_WIDGET (self)) != NULL)
    update_actions (self);
}

/* What a list field holds. */
typedef enum {
  VALUES_ATTEMPTS,     /* whole numbers 1 … 1000 */
  VALUES_PROBABILITY,  /* 0 … 1 */
  VALUES_DURATION,     /* "40ms" */
} ValuesKind;

/* A field of values separated by commas as a JSON array (empty: none);
 * NULL with the reason, naming the field, for a value that is not one. */
static JsonArray *
parse_values (GtkEditable  *field,
              const char   *name,
              ValuesKind    kind,
              GError      **error)
{
  g_auto(GStrv) parts = g_strsplit (gtk_editable_get_text (field), ",", -1);
  g_autoptr(JsonArray) values = json_array_new ();

  for (guint i = 0; parts[i] != NULL; i++)
    {
      const char *text = g_strstrip (parts[i]);
      guint64 n;
      double p;
      char *end = NULL;
      WnTime t;

      if (*text == '\0')
        continue;
      switch (kind)
        {
        case VALUES_ATTEMPTS:
          if (!g_ascii_string_to_unsigned (text, 10, 1, 1000, &n, NULL))
            {
              /* Translators: a Compare field's bad value: "Attempts: “x” is not …" */
              g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           _("%s: “%s” is not a whole number from 1 to 1000"), name, text);
              return NULL;
            }
          json_array_add_int_element (values, (gint64) n);
          break;
        case VALUES_PROBABILITY:
          p = g_ascii_strtod (text, &end);
          if (end == text || *end != '\0' || !(p >= 0.0 && p <= 1.0))
            {
              g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           _("%s: “%s” is not a probability from 0 to 1"), name, text);
              return NULL;
            }
          json_array_add_double_element (values, p);
          break;
        case VALUES_DURATION:
        default:
          if (!wn_duration_parse (text, &t, NULL))
            {
              g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           _("%s: “%s” is not a duration such as 40ms or 1.5s"), name, text);
              return NULL;
            }
          json_array_add_string_element (values, text);
          break;
        }
    }
  return g_steal_pointer (&values);
}

/* One axis of the grid, if it has values. */
static void
add_axis (JsonArray  *grid,
          const char *param,
          JsonArray  *values)
{
  JsonObject *axis;

  if (json_array_get_length (values) == 0)
    return;
  axis = json_object_new ();
  json_object_set_string_member (axis, "param", param);
  json_object_set_array_member (axis, "values", json_array_ref (values));
  json_array_add_object_element (grid, axis);
}

static JsonArray *
two_values (const char *a,
            const char *b)
{
  JsonArray *values = json_array_new ();

  json_array_add_string_element (values, a);
  json_array_add_string_element (values, b);
  return values;
}

/* The selected item of a dropdown filled by fill_choices(), or NULL for its
 * first ("all", "none"). */
static const char *
chosen (GtkDropDown *dropdown)
{
  guint i = gtk_drop_down_get_selected (dropdown);
  GListModel *model = gtk_drop_down_get_model (dropdown);

  if (i == 0 || i == GTK_INVALID_LIST_POSITION || model == NULL || i >= g_list_model_get_n_items (model))
    return NULL;
  return g_object_get_data (G_OBJECT (dropdown), "winnow-ids") != NULL
         ? ((GStrv) g_object_get_data (G_OBJECT (dropdown), "winnow-ids"))[i - 1]
         : NULL;
}

/* The retry policy the files give the engine, or task `task`'s own (else
 * the engine's), before any variant changes it. */
static WnRetryPolicy
policy_in_effect (WinnowComparePage *self,
                  const char        *task)
{
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  WnProcess *p = winnow_session_get_process (session);
  WnScenario *scenario = wn_engine_get_scenario (winnow_session_get_engine (session));
  const WnNode *node = task != NULL ? wn_process_find_node (p, task) : NULL;

  if (node != NULL && node->worker != NULL && node->worker->policy.has_retry)
    return node->worker->policy.retry;
  if (scenario != NULL && scenario->engine.policy.has_retry)
    return scenario->engine.policy.retry;
  if (p->engine.policy.has_retry)
    return p->engine.policy.retry;
  return wn_retry_policy_default ();
}

static void
set_duration (JsonObject *object,
              const char *member,
              JsonArray  *given,
              guint       i,
              WnTime      otherwise)
{
  if (json_array_get_length (given) > 0)
    json_object_set_string_member (object, member, json_array_get_string_element (given, i));
  else
    {
      g_autofree char *text = wn_duration_format (otherwise);

      json_object_set_string_member (object, member, text);
    }
}

/* The variants list a policy of another kind, delay or cap needs: one entry
 * per kind × delay (× cap × jitter, for an exponential policy), each setting
 * the whole policy, made from the one in effect. `jitter` is the jitter
 * field's choice (it goes into the entries: a fixed policy has none). NULL
 * with the reason, naming the field, for a combination that is none. */
static JsonArray *
policy_entries (const WnRetryPolicy  *in_effect,
                const char           *param,
                guint                 kind,
                guint                 jitter,
                JsonArray            *delays,
                JsonArray            *caps,
                GError              **error)
{
  static const int jitters[4][3] = { { -1 }, { 0 }, { 1 }, { 0, 1 } };
  WnRetryKind kinds[2];
  guint n_kinds = 0;
  gboolean exponential = FALSE;
  JsonArray *entries;

  if (kind == 0 && in_effect->kind == WN_RETRY_NONE)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           _("Delay and cap: the retry policy here makes no retries; choose a fixed delay or an exponential backoff"));
      return NULL;
    }
  if (kind == 0)
    kinds[n_kinds++] = in_effect->kind;
  if (kind == 1 || kind == 3)
    kinds[n_kinds++] = WN_RETRY_FIXED;
  if (kind == 2 || kind == 3)
    kinds[n_kinds++] = WN_RETRY_EXPONENTIAL;
  for (guint k = 0; k < n_kinds; k++)
    exponential |= kinds[k] == WN_RETRY_EXPONENTIAL;
  if (!exponential && json_array_get_length (caps) > 0)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           _("Cap: a fixed delay has no cap; choose an exponential backoff"));
      return NULL;
    }
  if (!exponential && jitter != 0)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           _("Jitter: a fixed delay has none; choose an exponential backoff, or jitter as the files say"));
      return NULL;
    }

  entries = json_array_new ();
  for (guint k = 0; k < n_kinds; k++)
    {
      gboolean exp = kinds[k] == WN_RETRY_EXPONENTIAL;
      guint n_delays = MAX (json_array_get_length (delays), 1);
      guint n_caps = exp ? MAX (json_array_get_length (caps), 1) : 1;
      guint n_jitters = exp && jitter == 3 ? 2 : 1;
      /* what the kind keeps of the policy in effect */
      WnTime first = in_effect->kind == WN_RETRY_FIXED ? in_effect->delay : in_effect->base;
      WnTime cap = in_effect->kind == WN_RETRY_EXPONENTIAL ? in_effect->max : MAX (30 * WN_USEC_PER_SEC, first);

      for (guint d = 0; d < n_delays; d++)
        for (guint c = 0; c < n_caps; c++)
          for (guint j = 0; j < n_jitters; j++)
            {
              JsonObject *policy = json_object_new ();
              JsonObject *set = json_object_new ();
              JsonObject *entry = json_object_new ();
              g_autoptr(GString) name = g_string_new (NULL);
              int jit = exp ? jitters[jitter][j] : -1;

              json_object_set_string_member (policy, "policy", exp ? "exponential" : "fixed");
              json_object_set_int_member (policy, "maxAttempts", MAX (in_effect->max_attempts, 1));
              set_duration (policy, exp ? "base" : "delay", delays, d, first);
              if (exp)
                {
                  set_duration (policy, "max", caps, c, cap);
                  json_object_set_boolean_member (policy, "jitter", jit >= 0 ? jit == 1
                                                  : in_effect->kind == WN_RETRY_EXPONENTIAL && in_effect->jitter);
                }
              if (kind != 0)
                g_string_append (name, exp ? "exponential" : "fixed");
              if (json_array_get_length (delays) > 0)
                g_string_append_printf (name, "%s%s=%s", name->len ? " " : "", exp ? "base" : "delay",
                                        json_array_get_string_element (delays, d));
              if (exp && json_array_get_length (caps) > 0)
                g_string_append_printf (name, "%smax=%s", name->len ? " " : "", json_array_get_string_element (caps, c));
              if (jit >= 0)
                g_string_append_printf (name, "%sjitter=%s", name->len ? " " : "", jit ? "true" : "false");
              json_object_set_object_member (set, param, policy);
              json_object_set_string_member (entry, "name", name->str);
              json_object_set_object_member (entry, "set", set);
              json_array_add_object_element (entries, entry);
            }
    }
  return entries;
}

/* The page's fields as a sweep of the open process. */
static char *
write_sweep (WinnowComparePage  *self,
             const char         *process,
             GError            **error)
{
  WnProcess *p = winnow_session_get_process (winnow_panel_get_session (WINNOW_PANEL (self)));
  guint jitter = gtk_drop_down_get_selected (self->jitter);
  gboolean both_trusts = gtk_drop_down_get_selected (self->trust) == 1;
  guint exhausted = gtk_drop_down_get_selected (self->exhausted);
  const char *task = chosen (self->task);
  const char *worker = chosen (self->worker);
  g_autofree char *retry = task != NULL ? g_strdup_printf ("tasks.%s.retry", task) : g_strdup ("engine.retry");
  g_autofree char *attempts_param = g_strconcat (retry, ".maxAttempts", NULL);
  g_autofree char *jitter_param = g_strconcat (retry, ".jitter", NULL);
  g_autoptr(JsonArray) attempts = NULL;
  g_autoptr(JsonArray) failures = NULL;
  g_autoptr(JsonArray) latencies = NULL;
  g_autoptr(JsonArray) delays = NULL;
  g_autoptr(JsonArray) caps = NULL;
  g_autoptr(JsonArray) entries = NULL;
  guint kind = gtk_drop_down_get_selected (self->kind);
  g_autoptr(JsonArray) grid = json_array_new ();
  g_autoptr(JsonObject) set = json_object_new ();
  g_autoptr(JsonObject) sweep = json_object_new ();
  g_autoptr(JsonNode) root = json_node_new (JSON_NODE_OBJECT);
  guint64 n_variants = 1;

  if ((attempts = parse_values (GTK_EDITABLE (self->attempts), _("Attempts"), VALUES_ATTEMPTS, error)) == NULL ||
      (failures = parse_values (GTK_EDITABLE (self->failure), _("Failure"), VALUES_PROBABILITY, error)) == NULL ||
      (latencies = parse_values (GTK_EDITABLE (self->latency), _("Latency"), VALUES_DURATION, error)) == NULL ||
      (delays = parse_values (GTK_EDITABLE (self->delay), _("Delay"), VALUES_DURATION, error)) == NULL ||
      (caps = parse_values (GTK_EDITABLE (self->cap), _("Cap"), VALUES_DURATION, error)) == NULL)
    return NULL;
  /* another kind, delay or cap: whole policies, one per entry of the variants list */
  if (kind == GTK_INVALID_LIST_POSITION)
    kind = 0;
  if (jitter > 3)
    jitter = 0;
  if (kind != 0 || json_array_get_length (delays) + json_array_get_length (caps) > 0)
    {
      WnRetryPolicy in_effect = policy_in_effect (self, task);

      if ((entries = policy_entries (&in_effect, retry, kind, jitter, delays, caps, error)) == NULL)
        return NULL;
      n_variants = json_array_get_length (entries);
      /* the jitter is the entries' */
      jitter = 0;
    }
  if (worker == NULL && json_array_get_length (failures) + json_array_get_length (latencies) > 0)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           _("Failure and latency are a worker’s: the scenario has no simulated worker"));
      return NULL;
    }

  if (jitter == 1 || jitter == 2)
    json_object_set_boolean_member (set, jitter_param, jitter == 2);
  if (exhausted == 1 || exhausted == 2)
    json_object_set_string_member (set, "engine.onExhausted", exhausted == 1 ? "fail" : "incident");
  /* both trusts: every worker task follows the engine-wide one */
  for (guint i = 0; both_trusts && i < p->n_nodes; i++)
    if (p->nodes[i].worker != NULL)
      {
        g_autofree char *param = g_strdup_printf ("tasks.%s.trust", p->nodes[i].id);

        json_object_set_string_member (set, param, "inherit");
      }

  if (both_trusts)
    {
      g_autoptr(JsonArray) trusts = two_values ("engineAuthoritative", "workerTrusted");

      add_axis (grid, "engine.trust", trusts);
    }
  add_axis (grid, attempts_param, attempts);
  if (jitter == 3)
    {
      g_autoptr(JsonArray) both = json_array_new ();

      json_array_add_boolean_element (both, FALSE);
      json_array_add_boolean_element (both, TRUE);
      add_axis (grid, jitter_param, both);
    }
  if (exhausted == 3)
    {
      g_autoptr(JsonArray) both = two_values ("fail", "incident");

      add_axis (grid, "engine.onExhausted", both);
    }
  if (worker != NULL)
    {
      g_autofree char *failure_param = g_strdup_printf ("workers.%s.failure", worker);
      g_autofree char *latency_param = g_strdup_printf ("workers.%s.latency", worker);

      add_axis (grid, failure_param, failures);
      add_axis (grid, latency_param, latencies);
    }
  for (guint i = 0; i < json_array_get_length (grid); i++)
    n_variants *= json_array_get_length (json_object_get_array_member (json_array_get_object_element (grid, i), "values"));
  if (n_variants > MAX_VARIANTS)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("%" PRIu64 " variants: this page compares up to %d; winnow-run --sweep runs any number"),
                   n_variants, MAX_VARIANTS);
      return NULL;
    }

  json_object_set_string_member (sweep, "format", WN_LAB_SWEEP_FORMAT);
  json_object_set_string_member (sweep, "process", process);
  json_object_set_int_member (sweep, "instances", gtk_spin_button_get_value_as_int (self->orders));
  json_object_set_int_member (sweep, "seeds", gtk_spin_button_get_value_as_int (self->seeds));
  json_object_set_object_member (sweep, "set", json_object_ref (set));
  if (entries != NULL)
    json_object_set_array_member (sweep, "variants", json_array_ref (entries));
  /* a sweep's grid may not be empty: without axes, one variant */
  if (json_array_get_length (grid) > 0)
    json_object_set_array_member (sweep, "grid", json_array_ref (grid));
  json_node_set_object (root, sweep);
  return json_to_string (root, TRUE);
}

gboolean
winnow_compare_page_run (WinnowComparePage *self)
{
  WinnowSession *session;
  g_autoptr(GError) error = NULL;
  g_autoptr(GTask) task = NULL;
  g_autofree char *path = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *text = NULL;
  Job *job;

  g_return_val_if_fail (WINNOW_IS_COMPARE_PAGE (self), FALSE);

  session = winnow_panel_get_session (WINNOW_PANEL (self));
  if (self->job != NULL || session == NULL || winnow_session_get_file (session) == NULL ||
      (path = g_file_get_path (winnow_session_get_file (session))) == NULL)
    return FALSE;
  dir = g_path_get_dirname (path);
  text = write_sweep (self, path, &error);
  job = g_new0 (Job, 1);
  if (text != NULL)
    job->sweep = wn_lab_sweep_load_data (text, -1, _("the Compare tab"), dir, WN_LOAD_DEFAULT_MAX_SIZE, NULL, &error);
  if (job->sweep == NULL)
    {
      show_error (self, error->message);
      job_free (job);
      return FALSE;
    }
  show_error (self, NULL);
  job->jobs = MAX (g_get_num_processors (), 1);
  self->job = job;
  self->cancellable = g_cancellable_new ();
  gtk_progress_bar_set_fraction (self->progress, 0.0);
  gtk_progress_bar_set_text (self->progress, _("Starting"));
  self->progress_id = g_timeout_add (200, tick_progress_cb, self);
  /* the callback keeps the page until the runs have stopped */
  task = g_task_new (NULL, self->cancellable, run_done_cb, g_object_ref (self));
  g_task_set_task_data (task, job, job_free);
  g_task_run_in_thread (task, run_thread);
  update_actions (self);
  return TRUE;
}

void
winnow_compare_page_cancel (WinnowComparePage *self)
{
  g_return_if_fail (WINNOW_IS_COMPARE_PAGE (self));

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
}

gboolean
winnow_compare_page_is_running (WinnowComparePage *self)
{
  g_return_val_if_fail (WINNOW_IS_COMPARE_PAGE (self), FALSE);
  return self->job != NULL;
}

GPtrArray *
winnow_compare_page_get_summaries (WinnowComparePage *self)
{
  g_return_val_if_fail (WINNOW_IS_COMPARE_PAGE (self), NULL);
  return self->summaries;
}

static gboolean
write_to (GFile       *file,
          GBytes      *bytes,
          GError     **error)
{
  g_autofree char *path = g_file_get_path (file);
  gsize n;
  const char *data = g_bytes_get_data (bytes, &n);

  if (path == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, _("Only local files can be written"));
      return FALSE;
    }
  return wn_output_write_file (path, data, n, error);
}

/* What an export writes, made from the rows shown. */
typedef GBytes *(*RenderFunc) (WinnowComparePage *self, GFile *file, GError **error);

static GBytes *
render_plot (WinnowComparePage  *self,
             GFile              *file,
             GError            **error)
{
  g_autofree char *name = g_file_get_basename (file);
  /* the plot on show */
  GtkWidget *plot = gtk_stack_get_visible_child (self->plots);


  /* every page of the stack is a chart that draws with winnow-lab-chart.c */
  return winnow_lab_chart_render (plot, g_str_has_suffix (name, ".svg"), 960, 480, error);
}

/* The rows as the runner writes them: CSV, or the JSON lines a comparison
 * is saved as. */
static GBytes *
render_rows (WinnowComparePage *self,
             gboolean           csv)
{
  g_autoptr(GPtrArray) params = wn_lab_summaries_get_params (self->summaries);
  GString *text = g_string_new (NULL);

  if (csv)
    wn_lab_summary_append_csv_header (params, text);
  for (guint i = 0; i < self->summaries->len; i++)
    {
      WnLabSummary *row = g_ptr_array_index (self->summaries, i);
      WnLabSummary *baseline = i > 0 ? g_ptr_array_index (self->summaries, 0) : NULL;

      if (csv)
        wn_lab_summary_append_csv (row, baseline, params, text);
      else
        {
          wn_lab_summary_append_json (row, baseline, text);
          g_string_append_c (text, '\n');
        }
    }
  return g_string_free_to_bytes (text);
}

static GBytes *
render_table (WinnowComparePage  *self,
              GFile              *file,
              GError            **error)
{
  return render_rows (self, TRUE);
}

static GBytes *
render_comparison (WinnowComparePage  *self,
                   GFile              *file,
                   GError            **error)
{
  return render_rows (self, FALSE);
}

static gboolean
export_with (WinnowComparePage  *self,
             GFile              *file,
             RenderFunc          render,
             GError            **error)
{
  g_autoptr(GBytes) bytes = NULL;

  g_return_val_if_fail (WINNOW_IS_COMPARE_PAGE (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  if (self->summaries == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Nothing to write: run the variants first"));
      return FALSE;
    }
  bytes = render (self, file, error);
  return bytes != NULL && write_to (file, bytes, error);
}

gboolean
winnow_compare_page_export_plot (WinnowComparePage  *self,
                                 GFile              *file,
                                 GError            **error)
{
  return export_with (self, file, render_plot, error);
}

gboolean
winnow_compare_page_export_table (WinnowComparePage  *self,
                                  GFile              *file,
                                  GError            **error)
{
  return export_with (self, file, render_table, error);
}

gboolean
winnow_compare_page_save (WinnowComparePage  *self,
                          GFile              *file,
                          GError            **error)
{
  return export_with (self, file, render_comparison, error);
}

gboolean
winnow_compare_page_open (WinnowComparePage  *self,
                          GFile              *file,
                          GError            **error)
{
  g_autoptr(WnLabRows) rows = wn_lab_rows_new ();
  g_autofree char *path = g_file_get_path (file);
  g_autoptr(GPtrArray) summaries = NULL;

  g_return_val_if_fail (WINNOW_IS_COMPARE_PAGE (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  if (path == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, _("Only local files can be opened"));
      return FALSE;
    }
  if (!wn_lab_rows_add_file (rows, path, WN_LOAD_DEFAULT_MAX_SIZE, error))
    return FALSE;
  summaries = wn_lab_rows_steal_summaries (rows);
  if (summaries->len == 0)
    {
      g_set_error (error, WN_LAB_ERROR, WN_LAB_ERROR_INVALID, _("%s: no rows"), path);
      return FALSE;
    }
  g_clear_pointer (&self->summaries, g_ptr_array_unref);
  self->summaries = g_steal_pointer (&summaries);
  show_rows (self);
  show_error (self, NULL);
  update_actions (self);
  return TRUE;
}

typedef enum {
  CHOOSE_PLOT,
  CHOOSE_TABLE,
  CHOOSE_SAVE,
  CHOOSE_OPEN,
} Choice;

static void
export_response_cb (GtkNativeDialog   *chooser,
                    int                response,
                    WinnowComparePage *self)
{
  g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  g_autoptr(GError) error = NULL;
  Choice choice = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (chooser), "winnow-choice"));
  gboolean ok = TRUE;

  if (response == GTK_RESPONSE_ACCEPT && file != NULL)
    switch (choice)
      {
      case CHOOSE_PLOT: ok = winnow_compare_page_export_plot (self, file, &error); break;
      case CHOOSE_TABLE: ok = winnow_compare_page_export_table (self, file, &error); break;
      case CHOOSE_SAVE: ok = winnow_compare_page_save (self, file, &error); break;
      case CHOOSE_OPEN:
      default: ok = winnow_compare_page_open (self, file, &error); break;
      }
  if (!ok)
    show_error (self, error->message);
  gtk_native_dialog_destroy (chooser);
  g_object_unref (chooser);
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  static const struct {
    const char *action;
    const char *title;
    const char *name;
  } choices[] = {
    [CHOOSE_PLOT] = { "compare.export-plot", N_("Export Plot"), "compare.svg" },
    [CHOOSE_TABLE] = { "compare.export-table", N_("Export Table"), "compare.csv" },
    [CHOOSE_SAVE] = { "compare.save", N_("Save Comparison"), "compare.rows.jsonl" },
    [CHOOSE_OPEN] = { "compare.open", N_("Open Comparison"), NULL },
  };
  WinnowComparePage *self = WINNOW_COMPARE_PAGE (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  Choice choice = CHOOSE_PLOT;
  GtkFileChooserNative *chooser;

  for (guint i = 0; i < G_N_ELEMENTS (choices); i++)
    if (g_str_equal (action_name, choices[i].action))
      choice = i;
  chooser = gtk_file_chooser_native_new (_(choices[choice].title), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                         choice == CHOOSE_OPEN ? GTK_FILE_CHOOSER_ACTION_OPEN : GTK_FILE_CHOOSER_ACTION_SAVE,
                                         choice == CHOOSE_OPEN ? _("_Open") : choice == CHOOSE_SAVE ? _("_Save") : _("_Export"),
                                         _("_Cancel"));
  if (choices[choice].name != NULL)
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), choices[choice].name);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_object_set_data (G_OBJECT (chooser), "winnow-choice", GINT_TO_POINTER (choice));
  g_signal_connect_object (chooser, "response", G_CALLBACK (export_response_cb), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
run_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *param)
{
  winnow_compare_page_run (WINNOW_COMPARE_PAGE (widget));
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  winnow_compare_page_cancel (WINNOW_COMPARE_PAGE (widget));
}

/* A dropdown of `first` and then an item per id (kept on it for
 * chosen()), `to_label` making its text; the selection stays when the ids
 * do. */
static void
fill_choices (GtkDropDown *dropdown,
              const char  *first,
              char      *(*to_label) (const char *id),
              GPtrArray   *ids)
{
  GStrv old = g_object_get_data (G_OBJECT (dropdown), "winnow-ids");
  g_autoptr(GtkStringList) model = gtk_string_list_new (NULL);
  GStrv kept;

  g_ptr_array_add (ids, NULL);
  if (old != NULL && g_strv_equal ((const char * const *) old, (const char * const *) ids->pdata))
    return;
  gtk_string_list_append (model, first);
  for (guint i = 0; ids->pdata[i] != NULL; i++)
    {
      g_autofree char *label = to_label (ids->pdata[i]);

      gtk_string_list_append (model, label);
    }
  kept = g_strdupv ((GStrv) ids->pdata);
  g_object_set_data_full (G_OBJECT (dropdown), "winnow-ids", kept, (GDestroyNotify) g_strfreev);
  gtk_drop_down_set_model (dropdown, G_LIST_MODEL (model));
  gtk_drop_down_set_selected (dropdown, 0);
}

static char *
task_label (const char *id)
{
  /* Translators: whose retry policy the Compare tab varies: "Task quote’s retry policy" */
  return g_strdup_printf (_("Task %s’s retry policy"), id);
}

static char *
worker_label (const char *id)
{
  /* Translators: the simulated worker whose behaviour the Compare tab varies */
  return g_strdup_printf (_("Worker %s"), id);
}

/* The open process's worker tasks and the scenario's workers. */
static void
update_choices (WinnowComparePage *self)
{
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  WnEngine *engine = session != NULL ? winnow_session_get_engine (session) : NULL;
  WnProcess *p = engine != NULL ? winnow_session_get_process (session) : NULL;
  WnScenario *scenario = engine != NULL ? wn_engine_get_scenario (engine) : NULL;
  g_autoptr(GPtrArray) tasks = g_ptr_array_new ();
  g_autoptr(GPtrArray) workers = g_ptr_array_new ();
  guint n_workers;

  for (guint i = 0; p != NULL && i < p->n_nodes; i++)
    if (p->nodes[i].worker != NULL)
      g_ptr_array_add (tasks, p->nodes[i].id);
  for (guint i = 0; scenario != NULL && i < scenario->workers->len; i++)
    g_ptr_array_add (workers, ((WnWorkerConfig *) g_ptr_array_index (scenario->workers, i))->id);
  n_workers = workers->len;
  fill_choices (self->task, _("Engine-wide retry policy"), task_label, tasks);
  fill_choices (self->worker, n_workers > 0 ? _("No worker") : _("No simulated worker"), worker_label, workers);
  /* with one worker, failure and latency are surely its */
  if (n_workers == 1 && gtk_drop_down_get_selected (self->worker) == 0)
    gtk_drop_down_set_selected (self->worker, 1);
}

static void
run_changed_cb (WinnowSession     *session,
                WinnowComparePage *self)
{
  update_choices (self);
  update_actions (self);
}

static void
winnow_compare_page_session_changed (WinnowPanel   *panel,
                                     WinnowSession *old)
{
  update_choices (WINNOW_COMPARE_PAGE (panel));
  update_actions (WINNOW_COMPARE_PAGE (panel));
}

static void
winnow_compare_page_dispose (GObject *object)
{
  WinnowComparePage *self = WINNOW_COMPARE_PAGE (object);

  winnow_compare_page_cancel (self);
  g_clear_handle_id (&self->progress_id, g_source_remove);
  g_clear_pointer (&self->summaries, g_ptr_array_unref);
  G_OBJECT_CLASS (winnow_compare_page_parent_class)->dispose (object);
}

/* Runs left behind when the page leaves its window would go on unseen. */
static void
winnow_compare_page_unroot (GtkWidget *widget)
{
  winnow_compare_page_cancel (WINNOW_COMPARE_PAGE (widget));
  GTK_WIDGET_CLASS (winnow_compare_page_parent_class)->unroot (widget);
}

static void
winnow_compare_page_class_init (WinnowComparePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  WinnowPanelClass *panel_class = WINNOW_PANEL_CLASS (klass);

  object_class->dispose = winnow_compare_page_dispose;
  widget_class->unroot = winnow_compare_page_unroot;
  panel_class->session_changed = winnow_compare_page_session_changed;
  winnow_panel_class_follow (panel_class, "run-changed", G_CALLBACK (run_changed_cb));

  g_type_ensure (WINNOW_TYPE_LAB_PLOT);
  g_type_ensure (WINNOW_TYPE_LAB_BARS);
  g_type_ensure (WINNOW_TYPE_LAB_ATTEMPTS);
  g_type_ensure (WINNOW_TYPE_WRAP_BOX);
  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "/winnow-compare-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WinnowComparePage, box);
  gtk_widget_class_bind_template_child (widget_class, WinnowComparePage, attempts);
  gtk_widget_class_bind_template_child (widget_class, WinnowComparePage, jitter);
  gtk_widget_class_bind_template_child (widget_class, WinnowComparePage, trust);
  gtk_widget_class_bind_template_child (widget_class, WinnowComparePage, task);
  gtk_widget_class_bind_template_child (widget_class, WinnowComparePage, exhausted);
  gtk_widget_class_bind_template_child (widget_class, WinnowComparePage, kind);
  gtk_widget_class_bind_template_child (widget_class, WinnowComparePage, delay);
  gtk_widget_class_bind_template_child (widget_class, WinnowComparePage, cap);
  gtk_widget_class_bind_template_child (widget_class, WinnowComparePage, worker);
  gtk_widget_class_bind_template_child (widget_class, WinnowComparePage, failure);
  gtk_widget_class_bind_template_child (widget_class, WinnowComparePage, latency);
  gtk_widget_class_bind_template_child (widget_class, WinnowComparePage, orders);
  gtk_widget_class_bind_template_child (widget_class, WinnowComparePage, seeds);
  gtk_widget_class_bind_template_child (widget_class, WinnowComparePage, progress);
  gtk_widget_class_bind_template_child (widget_class, WinnowComparePage, error);
  gtk_widget_class_bind_template_child (widget_class, WinnowComparePage, stack);
  gtk_widget_class_bind_template_child (widget_class, WinnowComparePage, plots);
  gtk_widget_class_bind_template_child (widget_class, WinnowComparePage, plot);
  gtk_widget_class_bind_template_child (widget_class, WinnowComparePage, load_plot);
  gtk_widget_class_bind_template_child (widget_class, WinnowComparePage, attempts_plot);
  gtk_widget_class_bind_template_child (widget_class, WinnowComparePage, bars);
  gtk_widget_class_bind_template_child (widget_class, WinnowComparePage, table);
  gtk_widget_class_bind_template_child (widget_class, WinnowComparePage, sentences);

  gtk_widget_class_install_action (widget_class, "compare.run", NULL, run_action);
  gtk_widget_class_install_action (widget_class, "compare.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "compare.export-plot", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "compare.export-table", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "compare.save", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "compare.open", NULL, export_action);
}

static void
winnow_compare_page_init (WinnowComparePage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  winnow_lab_plot_set_mode (self->load_plot, WINNOW_LAB_PLOT_LOAD);
  gtk_stack_set_visible_child_name (self->stack, "empty");
  update_actions (self);
}

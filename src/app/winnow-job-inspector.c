/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-job-inspector.c — the side panel's job section (the selected job).
 * It follows the session's selected-job itself; the window calls
 * winnow_job_inspector_update() on the frame that shows the views above the
 * tabs, where only a running execution's duration changes between two
 * rebuilds of the lists. */
#include "config.h"

#include <glib/gi18n.h>

#include "winnow-job-inspector.h"
#include "winnow-panel-util.h"
#include "winnow-timeline.h"

struct _WinnowJobInspector
{
  WinnowPanel          parent_instance;

  /* template children */
  GtkWidget           *box;
  AdwPreferencesGroup *job_group;
  AdwActionRow        *job_state_row;
  AdwActionRow        *job_attempt_row;
  AdwActionRow        *job_lock_row;
  AdwActionRow        *job_trust_row;
  AdwActionRow        *job_retry_row;
  AdwPreferencesGroup *job_mapper_group;
  GtkListBox          *job_mapper_list;
  AdwPreferencesGroup *job_mapping_group;
  GtkListBox          *job_mapping_list;
  AdwPreferencesGroup *job_history_group;
  GtkListBox          *job_history_list;

  /* what it shows, to rebuild its lists only when it changes */
  char                *inspected_job;
  guint                inspected_version;
  WnPolicy            *inspected_policy;
};

G_DEFINE_FINAL_TYPE (WinnowJobInspector, winnow_job_inspector, WINNOW_TYPE_PANEL)

static int
outcome_mark (WinnowOutcome outcome)
{
  switch (outcome)
    {
    case WINNOW_OUTCOME_COMPLETED:
      return WINNOW_MARK_COMPLETED;
    case WINNOW_OUTCOME_BPMN_ERROR:
      return WINNOW_MARK_BPMN_ERROR;
    case WINNOW_OUTCOME_STATUS:
      return WINNOW_MARK_STATUS;
    case WINNOW_OUTCOME_RETRY:
    case WINNOW_OUTCOME_FAULT:
      return WINNOW_MARK_FAULT;
    case WINNOW_OUTCOME_EXHAUSTED:
      return WINNOW_MARK_EXHAUSTED;
    case WINNOW_OUTCOME_REJECTED:
      return WINNOW_MARK_REJECTED;
    case WINNOW_OUTCOME_LOST:
      return WINNOW_MARK_RECLAIMED;
    case WINNOW_OUTCOME_RUNNING:
    case WINNOW_OUTCOME_CANCELED:
    default:
      return -1;
    }
}

/* An execution's start, duration (so far, while it runs) and outcome. */
static char *
history_subtitle (const WinnowExecution *e,
                  WnTime                 now)
{
  g_autofree char *at = wn_time_format_clock (e->start);
  g_autofree char *took = wn_duration_format ((e->end < 0 ? now : e->end) - e->start);
  g_autofree char *outcome = winnow_timeline_describe_outcome (e);

  if (e->outcome == WINNOW_OUTCOME_RETRY && e->backoff >= 0)
    {
      g_autofree char *backoff = wn_duration_format (e->backoff);
      g_autofree char *gate = wn_time_format_clock (e->gate);

      if (e->in_worker)
        /* Translators: a WorkerTrusted retry: "T+00:00.000, 100ms · technical, retried: 503 …\nbackoff 300ms
         * drawn: the worker waits in-process until T+00:00.400" */
        return g_strdup_printf (_("%s, %s · %s\nbackoff %s drawn: the worker waits in-process until %s"),
                                at, took, outcome, backoff, gate);
      /* Translators: "T+00:00.000, 100ms · technical, retried: 503 …\nbackoff 300ms → gate until T+00:00.400" */
      return g_strdup_printf (_("%s, %s · %s\nbackoff %s drawn: gated until %s"), at, took, outcome, backoff, gate);
    }
  /* Translators: "T+00:00.000, 100ms · completed" */
  return g_strdup_printf (_("%s, %s · %s"), at, took, outcome);
}

static GtkWidget *
history_row (const WinnowExecution *e,
             WnTime                 now)
{
  g_autofree char *title = NULL;
  g_autofree char *subtitle = history_subtitle (e, now);
  GtkWidget *row;
  int mark = outcome_mark (e->outcome);

  /* Translators: a row of the job's history: "Execution 2 · inventory" */
  title = g_strdup_printf (_("Execution %u · %s"), e->attempt, e->worker ? e->worker : "?");
  row = winnow_property_row_new (title, subtitle);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 4);
  if (mark >= 0)
    adw_action_row_add_prefix (ADW_ACTION_ROW (row), winnow_timeline_glyph_new ((WinnowMarkKind) mark));
  else
    {
      GtkWidget *spacer = gtk_image_new_from_icon_name (e->outcome == WINNOW_OUTCOME_RUNNING
                                                        ? "media-playback-start-symbolic" : "list-remove-symbolic");
      adw_action_row_add_prefix (ADW_ACTION_ROW (row), spacer);
    }
  gtk_widget_add_css_class (row, "history-row");
  return row;
}

static char *
describe_class_seen (const WinnowJobTrace *job)
{
  switch (job->class_seen)
    {
    case WINNOW_CLASS_BPMN_ERROR:
      return g_strdup_printf (_("BPMN error %s"), job->class_code ? job->class_code : "?");
    case WINNOW_CLASS_STATUS:
      {
        g_autofree char *value = job->class_status ? json_to_string (job->class_status, FALSE) : g_strdup ("?");
        return g_strdup_printf (_("status %s"), value);
      }
    case WINNOW_CLASS_TECHNICAL:
      if (job->class_code != NULL)
        /* Translators: a technical fault and its raw code: "technical (503)" */
        return g_strdup_printf (_("technical (%s)"), job->class_code);
      return g_strdup (_("technical"));
    case WINNOW_CLASS_NONE:
    case WINNOW_CLASS_MAPPER_ERROR:
    default:
      return g_strdup ("");
    }
}

static void
fill_mapper (WinnowJobInspector   *self,
             const WinnowJobTrace *job,
             WnPolicy             *policy)
{
  WnErrorMapper *mapper = policy ? policy->mapper : NULL;
  guint n = mapper ? wn_error_mapper_get_n_rules (mapper) : 0;
  WinnowRuleMatch match = WINNOW_RULE_UNKNOWN;
  g_autofree char *seen = NULL;
  g_autofree char *note = NULL;
  int rule = -1;

  winnow_list_box_clear (self->job_mapper_list);
  if (policy == NULL)
    {
      adw_preferences_group_set_description (self->job_mapper_group,
                                             _("The job’s policy is unknown: it was enqueued before the view attached."));
      gtk_widget_set_visible (GTK_WIDGET (self->job_mapper_list), FALSE);
      return;
    }
  if (mapper == NULL)
    {
      adw_preferences_group_set_description (self->job_mapper_group,
                                             _("No error mapper: every raw fault is technical and goes to the retry policy."));
      gtk_widget_set_visible (GTK_WIDGET (self->job_mapper_list), FALSE);
      return;
    }
  gtk_widget_set_visible (GTK_WIDGET (self->job_mapper_list), n > 0);

  if (job != NULL)
    match = winnow_job_trace_match_rule (job, mapper, &rule);
  seen = job ? describe_class_seen (job) : g_strdup ("");
  switch (match)
    {
    case WINNOW_RULE_MATCHED:
      /* Translators: "Rule 1 matched the last fault: BPMN error CardDeclined." */
      note = g_strdup_printf (_("Rule %d matched the last fault: %s."), rule + 1, seen);
      break;
    case WINNOW_RULE_AMBIGUOUS:
      /* Translators: the journal names a fault's outcome, not its body, so the rule is inferred */
      note = g_strdup_printf (_("The last fault was %s. The journal does not carry the fault’s body, so the rule is "
                                "inferred: rule %d, or a later one that yields the same."), seen, rule + 1);
      break;
    case WINNOW_RULE_NONE:
      note = g_strdup_printf (_("No rule matched the last fault, %s: technical by default."), seen);
      break;
    case WINNOW_RULE_UNKNOWN:
    default:
      if (job != NULL && job->class_seen == WINNOW_CLASS_MAPPER_ERROR)
        /* Translators: %s is the lite evaluator's message */
        note = g_strdup_printf (_("A clause failed to evaluate (%s), so the fault was technical."),
                                job->class_text ? job->class_text : "?");
      else if (job != NULL && job->class_seen != WINNOW_CLASS_NONE && policy->trust == WN_TRUST_WORKER_TRUSTED)
        note = g_strdup_printf (_("The last verdict was %s, reported by the worker: it may not have come from a rule."), seen);
      else
        note = g_strdup (_("No fault has been classified yet. First match wins."));
      break;
    }
  if (match == WINNOW_RULE_MATCHED && policy->trust == WN_TRUST_WORKER_TRUSTED)
    {
      g_autofree char *with = g_strdup_printf ("%s %s", note, _("(A trusted worker may also give that verdict itself.)"));
      g_free (note);
      note = g_steal_pointer (&with);
    }
  adw_preferences_group_set_description (self->job_mapper_group, note);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *text = wn_error_mapper_describe_rule (mapper, i);
      g_autofree char *number = g_strdup_printf ("%u", i + 1);
      GtkWidget *row = winnow_property_row_new (text, NULL);
      GtkWidget *label = gtk_label_new (number);

      gtk_widget_add_css_class (label, "rule-number");
      gtk_widget_add_css_class (label, "numeric");
      adw_action_row_add_prefix (ADW_ACTION_ROW (row), label);
      gtk_widget_add_css_class (row, "rule-row");
      if ((match == WINNOW_RULE_MATCHED || match == WINNOW_RULE_AMBIGUOUS) && (int) i == rule)
        {
          GtkWidget *icon = gtk_image_new_from_icon_name (match == WINNOW_RULE_MATCHED
                                                          ? "object-select-symbolic" : "dialog-question-symbolic");

          gtk_widget_add_css_class (row, match == WINNOW_RULE_MATCHED ? "matched-rule" : "maybe-rule");
          adw_action_row_set_subtitle (ADW_ACTION_ROW (row), match == WINNOW_RULE_MATCHED
                                       ? _("matched the last fault") : _("probably matched the last fault"));
          adw_action_row_add_suffix (ADW_ACTION_ROW (row), icon);
        }
      gtk_list_box_append (self->job_mapper_list, row);
    }
}

static void
fill_mapping (WinnowJobInspector *self,
              const char         *node_id,
              WnPolicy           *policy)
{
  WnProcess *process = winnow_session_get_process (winnow_panel_get_session (WINNOW_PANEL (self)));
  const WnNode *node = process && node_id ? wn_process_find_node (process, node_id) : NULL;
  WnOutputMapping *mapping = policy ? policy->mapping : NULL;
  guint n = mapping ? wn_output_mapping_get_n_rules (mapping) : 0;

  winnow_list_box_clear (self->job_mapping_list);
  gtk_widget_set_visible (GTK_WIDGET (self->job_mapping_list), n > 0);
  if (n == 0)
    {
      const char *var = node && node->worker && node->worker->output_var ? node->worker->output_var
                      : node_id ? node_id : "?";
      g_autofree char *text =
        /* Translators: %s is a variable name */
        g_strdup_printf (_("No mapping: a completion’s whole body goes to the variable “%s”."), var);

      adw_preferences_group_set_description (self->job_mapping_group, text);
      return;
    }
  adw_preferences_group_set_description (self->job_mapping_group,
                                         policy->trust == WN_TRUST_ENGINE_AUTHORITATIVE
                                         ? _("Applied by the dispatcher to the raw body.")
                                         : _("Applied by the worker before it reports."));
  for (guint i = 0; i < n; i++)
    {
      const WnOutputRule *rule = wn_output_mapping_get_rule (mapping, i);
      /* Translators: an output mapping rule: "body.chargeId → chargeId" */
      g_autofree char *text = g_strdup_printf (_("%s → %s"), wn_lite_get_source (rule->path), rule->var);
      GtkWidget *row = winnow_property_row_new (text, rule->required ? _("required: missing fails the task")
                                                          : _("optional: skipped when missing"));

      gtk_widget_add_css_class (row, "rule-row");
      gtk_list_box_append (self->job_mapping_list, row);
    }
}

static void
fill_history (WinnowJobInspector   *self,
              const WinnowJobTrace *job)
{
  WnTime now = winnow_session_get_now (winnow_panel_get_session (WINNOW_PANEL (self)));
  g_autofree char *enqueued = NULL;
  g_autofree char *description = NULL;

  winnow_list_box_clear (self->job_history_list);
  if (job == NULL)
    {
      adw_preferences_group_set_description (self->job_history_group, _("Nothing is known about this job’s past."));
      gtk_widget_set_visible (GTK_WIDGET (self->job_history_list), FALSE);
      return;
    }
  enqueued = wn_time_format_clock (job->enqueued_at);
  if (job->executions->len == 0)
    /* Translators: %s is a clock time */
    description = g_strdup_printf (_("Enqueued at %s; no worker has run it yet."), enqueued);
  else
    description = g_strdup_printf (_("Enqueued at %s."), enqueued);
  adw_preferences_group_set_description (self->job_history_group, description);
  gtk_widget_set_visible (GTK_WIDGET (self->job_history_list), job->executions->len > 0);
  for (guint i = 0; i < job->executions->len; i++)
    gtk_list_box_append (self->job_history_list,
                         history_row (&g_array_index (job->executions, WinnowExecution, i), now));
}

static char *
describe_job_end (const WinnowJobTrace *job)
{
  g_autofree char *at = wn_time_format_clock (job->ended_at);
  const char *text = job->end_text;

  switch (job->end)
    {
    case WINNOW_JOB_COMPLETED:
      /* Translators: a job that left the dispatcher: "completed at T+00:00.900" */
      return g_strdup_printf (_("completed at %s"), at);
    case WINNOW_JOB_BPMN_ERROR:
      return g_strdup_printf (_("BPMN error %s at %s"), text ? text : "?", at);
    case WINNOW_JOB_STATUS:
      return g_strdup_printf (_("status %s at %s"), text ? text : "?", at);
    case WINNOW_JOB_FAILED:
      return g_strdup_printf (_("failed at %s: %s"), at, text ? text : "?");
    case WINNOW_JOB_REMOVED:
      if (text != NULL)
        return g_strdup_printf (_("removed at %s: %s"), at, text);
      return g_strdup_printf (_("removed at %s: its task was canceled"), at);
    case WINNOW_JOB_LIVE:
    default:
      return g_strdup ("—");
    }
}

static void
update_job_inspector (WinnowJobInspector *self)
{
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  const char *id = winnow_session_get_selected_job (session);
  WinnowJobRow *row = winnow_session_lookup_job (session, id);
  WinnowJobTrace *job = winnow_trace_lookup_job (winnow_session_get_trace (session), id);
  WnProcess *process = winnow_session_get_process (session);
  WnPolicy *policy = row ? winnow_job_row_get_policy (row) : NULL;
  const WnNode *node;
  gboolean shown = id != NULL && (row != NULL || job != NULL);
  g_autofree char *title = NULL;
  g_autofree char *description = NULL;
  g_autofree char *state = NULL;
  g_autofree char *lock = NULL;
  g_autofree char *executions = NULL;
  g_autofree char *trust = NULL;
  g_autofree char *retry = NULL;
  guint n_exec, n_retried;
  gboolean rebuild;

  if (policy == NULL && job != NULL)
    policy = job->policy;
  /* the whole section: the side panel's hint shows when it hides */
  gtk_widget_set_visible (GTK_WIDGET (self), shown);
  if (!shown)
    {
      g_clear_pointer (&self->inspected_job, g_free);
      return;
    }

  node = process && (job || row) ? wn_process_find_node (process, job ? job->node : winnow_job_row_get_node (row)) : NULL;
  /* Translators: title of the inspector's job section, e.g. "Job i1/j2" */
  title = g_strdup_printf (_("Job %s"), id);
  adw_preferences_group_set_title (self->job_group, title);
  /* Translators: "topic authorize · Authorize payment" */
  description = g_strdup_printf (_("topic %s · %s"), row ? winnow_job_row_get_topic (row) : job->topic,
                                 node ? (node->name ? node->name : node->id) : "?");
  adw_preferences_group_set_description (self->job_group, description);

  /* now: the dispatcher's snapshot while it is in the store */
  if (row != NULL)
    {
      g_autofree char *until = NULL;

      switch (winnow_job_row_get_state (row))
        {
        case WN_JOB_GATED:
          state = g_strdup (_("gated: waiting for its backoff to pass"));
          g_object_get (row, "not-before-text", &until, NULL);
          /* Translators: "gate until T+00:00.800 (in 300ms); no lock" */
          lock = g_strdup_printf (_("gate until %s; no lock"), until);
          break;
        case WN_JOB_LOCKED:
        case WN_JOB_EXPIRED:
          if (winnow_job_row_get_state (row) == WN_JOB_LOCKED && winnow_job_row_get_holder_gone (row))
            /* Translators: the job's state when the worker holding its lock crashed with it */
            state = g_strdup_printf (_("locked by %s, which crashed with it: the lock can only lapse"),
                                     winnow_job_row_get_worker (row));
          else
            state = g_strdup_printf (winnow_job_row_get_state (row) == WN_JOB_LOCKED
                                     ? _("locked: %s is running it") : _("expired: the lock of %s has lapsed"),
                                     winnow_job_row_get_worker (row));
          g_object_get (row, "deadline-text", &until, NULL);
          /* Translators: "held by inventory, deadline T+05:00.000 (in 4m59s)" */
          lock = g_strdup_printf (_("held by %s, deadline %s"), winnow_job_row_get_worker (row), until);
          break;
        case WN_JOB_AVAILABLE:
        default:
          state = g_strdup (_("available: waiting for a worker"));
          lock = g_strdup (_("no lock, no gate"));
          break;
        }
    }
  else
    {
      g_autofree char *end = describe_job_end (job);

      /* Translators: a job that is no longer in the dispatcher */
      state = g_strdup_printf (_("left the store: %s"), end);
      lock = g_strdup ("—");
    }
  winnow_row_set_subtitle (self->job_state_row, state);
  winnow_row_set_subtitle (self->job_lock_row, lock);
  gtk_widget_set_visible (GTK_WIDGET (self->job_lock_row), row != NULL);

  n_exec = job ? job->executions->len : winnow_job_row_get_executions (row);
  n_retried = job ? job->gates->len : winnow_job_row_get_attempt (row);
  /* Translators: "3 executions · 2 retried" */
  executions = g_strdup_printf (ngettext ("%u execution · %u retried", "%u executions · %u retried", n_exec),
                                n_exec, n_retried);
  winnow_row_set_subtitle (self->job_attempt_row, executions);

  if (policy != NULL)
    {
      g_autofree char *retry_text = wn_retry_policy_describe (&policy->retry);

      /* Translators: a job's trust and where it came from: "Engine authoritative (set on the task)" */
      trust = g_strdup_printf ("%s (%s)", winnow_trust_name (policy->trust),
                               policy->trust_origin_task != WN_TRUST_UNSET ? _("set on the task") : _("engine-wide at enqueue"));
      retry = g_steal_pointer (&retry_text);
    }
  winnow_row_set_subtitle (self->job_trust_row, trust ? trust : "—");
  winnow_row_set_subtitle (self->job_retry_row, retry ? retry : "—");

  /* the lists: rebuilt when the job's history moved on; meanwhile only a
   * running execution's duration changes */
  rebuild = g_strcmp0 (self->inspected_job, id) != 0 || policy != self->inspected_policy ||
            (job != NULL && job->version != self->inspected_version);
  if (!rebuild)
    {
      const WinnowExecution *last = job != NULL && job->executions->len > 0 ?
                                    &g_array_index (job->executions, WinnowExecution, job->executions->len - 1) : NULL;
      GtkListBoxRow *last_row = last != NULL ?
                                gtk_list_box_get_row_at_index (self->job_history_list, (int) job->executions->len - 1) : NULL;

      if (last != NULL && last->end < 0 && ADW_IS_ACTION_ROW (last_row))
        {
          g_autofree char *subtitle = history_subtitle (last, winnow_session_get_now (session));
          g_autofree char *escaped = g_markup_escape_text (subtitle, -1);

          adw_action_row_set_subtitle (ADW_ACTION_ROW (last_row), escaped);
        }
      return;
    }
  g_free (self->inspected_job);
  self->inspected_job = g_strdup (id);
  self->inspected_version = job ? job->version : 0;
  self->inspected_policy = policy;
  fill_mapper (self, job, policy);
  fill_mapping (self, job ? job->node : winnow_job_row_get_node (row), policy);
  fill_history (self, job);
}

static void
selected_job_cb (WinnowSession      *session,
                 GParamSpec         *pspec,
                 WinnowJobInspector *self)
{
  update_job_inspector (self);
}

static void
run_changed_cb (WinnowSession      *session,
                WinnowJobInspector *self)
{
  g_clear_pointer (&self->inspected_job, g_free);
  update_job_inspector (self);
}

static void
winnow_job_inspector_finalize (GObject *object)
{
  WinnowJobInspector *self = WINNOW_JOB_INSPECTOR (object);

  g_clear_pointer (&self->inspected_job, g_free);
  G_OBJECT_CLASS (winnow_job_inspector_parent_class)->finalize (object);
}

static void
winnow_job_inspector_session_changed (WinnowPanel   *panel,
                                      WinnowSession *old)
{
  WinnowJobInspector *self = WINNOW_JOB_INSPECTOR (panel);

  g_clear_pointer (&self->inspected_job, g_free);
  if (winnow_panel_get_session (panel) != NULL)
    update_job_inspector (self);
}

static void
winnow_job_inspector_class_init (WinnowJobInspectorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  WinnowPanelClass *panel_class = WINNOW_PANEL_CLASS (klass);

  object_class->finalize = winnow_job_inspector_finalize;
  panel_class->session_changed = winnow_job_inspector_session_changed;
  winnow_panel_class_follow (panel_class, "notify::selected-job", G_CALLBACK (selected_job_cb));
  winnow_panel_class_follow (panel_class, "run-changed", G_CALLBACK (run_changed_cb));

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "/winnow-job-inspector.ui");
#define BIND(name) gtk_widget_class_bind_template_child (widget_class, WinnowJobInspector, name)
  BIND (box);
  BIND (job_group);
  BIND (job_state_row);
  BIND (job_attempt_row);
  BIND (job_lock_row);
  BIND (job_trust_row);
  BIND (job_retry_row);
  BIND (job_mapper_group);
  BIND (job_mapper_list);
  BIND (job_mapping_group);
  BIND (job_mapping_list);
  BIND (job_history_group);
  BIND (job_history_list);
#undef BIND
}

static void
winnow_job_inspector_init (WinnowJobInspector *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

void
winnow_job_inspector_update (WinnowJobInspector *self)
{
  g_return_if_fail (WINNOW_IS_JOB_INSPECTOR (self));

  if (winnow_panel_get_session (WINNOW_PANEL (self)) != NULL)
    update_job_inspector (self);
}

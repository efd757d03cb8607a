/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-node-inspector.c — the side panel's node section. It follows the
 * session's selected node itself; the window calls
 * winnow_node_inspector_update() on the frame that shows the views above the
 * tabs (the live counts), and its switch sets or removes the node's breakpoint. */
#include "config.h"

#include <glib/gi18n.h>

#include "winnow-node-inspector.h"
#include "winnow-panel-util.h"

struct _WinnowNodeInspector
{
  WinnowPanel          parent_instance;

  /* template children */
  AdwPreferencesGroup *node_group;
  AdwActionRow        *node_type_row;
  AdwActionRow        *topic_row;
  AdwActionRow        *retry_row;
  AdwActionRow        *counts_row;
  AdwActionRow        *node_break_row;
  GtkSwitch           *node_break_switch;
  AdwComboRow         *task_trust_row;
  AdwPreferencesGroup *operator_group;
  AdwComboRow         *op_instance_row;
  GtkStringList       *op_instances;
  AdwEntryRow         *op_name_row;
  AdwEntryRow         *op_key_row;
  AdwEntryRow         *op_vars_row;
  AdwEntryRow         *op_code_row;
  AdwEntryRow         *op_message_row;
  GtkWidget           *op_actions;
  GtkLabel            *op_error;
  GtkLabel            *op_reason;
  GtkWidget           *op_throw_button;
  GtkWidget           *op_submit_button;

  GPtrArray           *op_ids;        /* char*: the instances waiting at the node, as listed in op_instances */
  char                *op_instance;   /* the one chosen (the first by default), or NULL */

  gboolean             updating;
  gboolean             op_listing;    /* op_instances is being refilled */
};

G_DEFINE_FINAL_TYPE (WinnowNodeInspector, winnow_node_inspector, WINNOW_TYPE_PANEL)

static char *
describe_task_retry (WinnowNodeInspector *self,
                     const WnNode        *node)
{
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  WnEngine *engine = winnow_session_get_engine (session);
  WnPolicyOrigin from = WN_POLICY_FROM_DEFAULT;
  WnPolicy *policy = engine ? wn_engine_get_task_policy (engine, node->id, &from, NULL) : NULL;
  g_autofree char *text = NULL;
  /* Translators: where a retry policy comes from */
  const char *origin = from == WN_POLICY_FROM_TASK ? _("set on the task") :
                       from == WN_POLICY_FROM_ENGINE ? _("engine-wide") : _("the default");

  if (policy == NULL)
    return g_strdup ("—");
  text = wn_retry_policy_describe (&policy->retry);
  return g_strdup_printf ("%s (%s)", text, origin);
}


/* ---- the operator's hand on a wait ----
 *
 * A user task, or a node that waits for a message (messageEvent, receiveTask,
 * a message boundary: its host's tokens wait for it). The panel lists the
 * instances (in start order) with a live token there and acts on the one
 * chosen, the first by default; with none, the buttons are off and the
 * reason says why. */

typedef enum { OP_NONE, OP_USER, OP_MESSAGE } OpKind;

static OpKind
op_kind (const WnNode *node)
{
  if (node == NULL)
    return OP_NONE;
  if (node->type == WN_NODE_USER)
    return OP_USER;
  return node->message != NULL ? OP_MESSAGE : OP_NONE;
}

typedef struct { const char *node; GPtrArray *ids; GPtrArray *labels; } OpFind;

/* tracks come in (instance, track) order: an instance's tracks one after the other */
static void
op_find_cb (const WnTrackInfo *info,
            gpointer           data)
{
  OpFind *find = data;
  g_autofree char *since = NULL;

  if (info->state != WN_TRACK_ACTIVE || g_strcmp0 (info->node, find->node) != 0)
    return;
  if (find->ids->len > 0 && g_strcmp0 (g_ptr_array_index (find->ids, find->ids->len - 1), info->instance) == 0)
    return;
  since = wn_time_format_clock (info->since);
  g_ptr_array_add (find->ids, g_strdup (info->instance));
  /* Translators: an instance in the operator's list, e.g. "i2 · since T+00:01.250" (when its token came) */
  g_ptr_array_add (find->labels, g_strdup_printf (_("%s · since %s"), info->instance, since));
}

static gboolean
same_ids (GPtrArray *a, GPtrArray *b)
{
  if (a == NULL || a->len != b->len)
    return FALSE;
  for (guint i = 0; i < a->len; i++)
    if (g_strcmp0 (g_ptr_array_index (a, i), g_ptr_array_index (b, i)) != 0)
      return FALSE;
  return TRUE;
}

/* The list as the engine has it now: rebuilt only when the instances
 * changed, the choice kept while its instance still waits, else the first. */
static void
op_set_instances (WinnowNodeInspector *self,
                  GPtrArray           *ids,
                  GPtrArray           *labels)
{
  guint keep = 0;

  if (same_ids (self->op_ids, ids))
    return;
  for (guint i = 0; i < ids->len; i++)
    if (g_strcmp0 (g_ptr_array_index (ids, i), self->op_instance) == 0)
      keep = i;
  g_ptr_array_add (labels, NULL);
  self->op_listing = TRUE;
  gtk_string_list_splice (self->op_instances, 0, g_list_model_get_n_items (G_LIST_MODEL (self->op_instances)),
                          (const char * const *) labels->pdata);
  g_clear_pointer (&self->op_ids, g_ptr_array_unref);
  self->op_ids = g_ptr_array_ref (ids);
  if (ids->len > 0)
    adw_combo_row_set_selected (self->op_instance_row, keep);
  self->op_listing = FALSE;
  g_free (self->op_instance);
  self->op_instance = ids->len > 0 ? g_strdup (g_ptr_array_index (ids, keep)) : NULL;
}

static void
op_instance_selected_cb (AdwComboRow         *row,
                         GParamSpec          *pspec,
                         WinnowNodeInspector *self)
{
  guint selected = adw_combo_row_get_selected (row);

  if (self->op_listing || self->op_ids == NULL || selected >= self->op_ids->len)
    return;
  g_free (self->op_instance);
  self->op_instance = g_strdup (g_ptr_array_index (self->op_ids, selected));
}

static void
update_operator (WinnowNodeInspector *self)
{
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  const WnNode *node = session ? winnow_panel_selected_node (session) : NULL;
  WnEngine *engine = session ? winnow_session_get_engine (session) : NULL;
  OpKind kind = op_kind (node);
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  OpFind find = { NULL, ids, labels };
  g_autofree char *reason = NULL;

  gtk_widget_set_visible (GTK_WIDGET (self->operator_group), kind != OP_NONE);
  gtk_widget_set_visible (self->op_actions, kind != OP_NONE);
  if (kind == OP_NONE)
    return;
  find.node = node->id;
  if (node->type == WN_NODE_BOUNDARY && node->attached_to >= 0)
    {
      const WnProcess *process = winnow_session_get_process (session);

      find.node = process->nodes[node->attached_to].id;
    }
  if (engine != NULL)
    wn_engine_foreach_track (engine, FALSE, op_find_cb, &find);
  op_set_instances (self, ids, labels);
  gtk_widget_set_visible (GTK_WIDGET (self->op_instance_row), ids->len > 0);

  if (engine == NULL)
    reason = g_strdup (_("Nothing waits here: no run is loaded"));
  else if (self->op_instance == NULL)
    reason = g_strdup (kind == OP_USER ? _("Nothing waits here: no token is at this user task")
                                       : _("Nothing waits here: no token waits for this message"));
  else if (ids->len == 1)
    /* Translators: %s is an instance id such as i1 */
    reason = g_strdup_printf (kind == OP_USER ? _("Instance %s waits here") : _("Instance %s waits for this message"),
                              self->op_instance);
  else
    /* Translators: %u is a count of instances, at least 2 */
    reason = g_strdup_printf (kind == OP_USER ? _("%u instances wait here: the one chosen above is acted on")
                                              : _("%u instances wait for this message: it goes to the one chosen above"),
                              ids->len);
  gtk_label_set_text (self->op_reason, reason);
  gtk_widget_set_sensitive (self->op_submit_button, self->op_instance != NULL);
  gtk_widget_set_sensitive (self->op_throw_button, self->op_instance != NULL);
}

/* the rows for the node's kind, fresh: on a new selection only, so typing survives the steps */
static void
reset_operator (WinnowNodeInspector *self,
                const WnNode        *node)
{
  OpKind kind = op_kind (node);

  g_clear_pointer (&self->op_ids, g_ptr_array_unref);   /* the list is made again (the choice kept) */
  adw_preferences_group_set_description (self->operator_group,
                                         kind == OP_USER ? _("Complete the user task, or throw a BPMN error from it")
                                                         : _("Correlate a message to an instance that waits for it"));
  gtk_widget_set_visible (GTK_WIDGET (self->op_name_row), kind == OP_MESSAGE);
  gtk_widget_set_visible (GTK_WIDGET (self->op_key_row), kind == OP_MESSAGE);
  gtk_widget_set_visible (GTK_WIDGET (self->op_code_row), kind == OP_USER);
  gtk_widget_set_visible (GTK_WIDGET (self->op_message_row), kind == OP_USER);
  gtk_widget_set_visible (self->op_throw_button, kind == OP_USER);
  gtk_button_set_label (GTK_BUTTON (self->op_submit_button), kind == OP_USER ? _("_Complete") : _("C_orrelate"));
  gtk_editable_set_text (GTK_EDITABLE (self->op_name_row), node && node->message ? node->message : "");
  winnow_field_set_error (self->op_error, NULL);
}

/* a row's JSON, NULL when empty; FALSE and the error shown when it is not JSON
 * (or, for variables, not an object) */
static gboolean
op_read_json (WinnowNodeInspector *self,
              AdwEntryRow         *row,
              gboolean             object,
              JsonNode           **out)
{
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (row))));
  g_autofree char *message = NULL;
  JsonNode *value;

  *out = NULL;
  if (*text == '\0')
    return TRUE;
  value = winnow_parse_json (text, &message);
  if (value == NULL)
    {
      /* Translators: "Variables: 1:5: …", the row's title and the parser's place and message */
      g_autofree char *shown = g_strdup_printf ("%s: %s", adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), message);

      winnow_field_set_error (self->op_error, shown);
      return FALSE;
    }
  if (object && !JSON_NODE_HOLDS_OBJECT (value))
    {
      json_node_unref (value);
      winnow_field_set_error (self->op_error, _("The variables must be a JSON object, e.g. {\"approved\": true}"));
      return FALSE;
    }
  *out = value;
  return TRUE;
}

static void
op_done (WinnowNodeInspector *self,
         gboolean             ok,
         GError              *error,
         const char          *toast)
{
  if (!ok)
    {
      winnow_field_set_error (self->op_error, error ? error->message : _("The engine refused it"));
      return;
    }
  winnow_field_set_error (self->op_error, NULL);
  winnow_panel_toast (GTK_WIDGET (self), toast);
  update_operator (self);
}

static void
op_submit_cb (WinnowNodeInspector *self)
{
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  const WnNode *node = session ? winnow_panel_selected_node (session) : NULL;
  OpKind kind = op_kind (node);
  g_autoptr(JsonNode) vars = NULL;
  g_autoptr(JsonNode) key = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *instance = NULL;
  g_autofree char *toast = NULL;
  gboolean ok;

  update_operator (self);
  if (kind == OP_NONE || self->op_instance == NULL)
    return;
  if (!op_read_json (self, self->op_vars_row, TRUE, &vars))
    return;
  instance = g_strdup (self->op_instance);
  if (kind == OP_USER)
    {
      ok = winnow_session_complete_user_task (session, instance, node->id,
                                              vars ? json_node_get_object (vars) : NULL, &error);
      /* Translators: "Completed approve in i1" */
      toast = g_strdup_printf (_("Completed %s in %s"), node->id, instance);
    }
  else
    {
      g_autofree char *name = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->op_name_row))));

      if (*name == '\0')
        {
          winnow_field_set_error (self->op_error, _("A message needs a name"));
          return;
        }
      if (!op_read_json (self, self->op_key_row, FALSE, &key))
        return;
      ok = winnow_session_correlate_message (session, instance, name, key, vars ? json_node_get_object (vars) : NULL,
                                             &error);
      /* Translators: "Correlated message paymentConfirmed to i2" */
      toast = g_strdup_printf (_("Correlated message %s to %s"), name, instance);
    }
  op_done (self, ok, error, toast);
}

static void
op_throw_cb (WinnowNodeInspector *self)
{
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  const WnNode *node = session ? winnow_panel_selected_node (session) : NULL;
  g_autofree char *code = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->op_code_row))));
  g_autofree char *message = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->op_message_row))));
  g_autofree char *instance = NULL;
  g_autofree char *toast = NULL;
  g_autoptr(GError) error = NULL;
  gboolean ok;

  update_operator (self);
  if (op_kind (node) != OP_USER || self->op_instance == NULL)
    return;
  if (*code == '\0')
    {
      winnow_field_set_error (self->op_error, _("A BPMN error needs a code"));
      return;
    }
  instance = g_strdup (self->op_instance);
  ok = winnow_session_throw_user_task_error (session, instance, node->id, code, *message ? message : NULL, &error);
  /* Translators: "Threw REJECTED from approve in i1" */
  toast = g_strdup_printf (_("Threw %s from %s in %s"), code, node->id, instance);
  op_done (self, ok, error, toast);
}

static void
update_node_counts_row (WinnowNodeInspector *self)
{
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  const char *node = winnow_session_get_selected_node (session);
  WinnowNodeCounts counts = winnow_session_get_node_counts (session, node);
  g_autofree char *text = NULL;

  if (node == NULL)
    return;
  /* Translators: live tracks at the selected node */
  text = g_strdup_printf (_("%u active · %u parked · %u incident"), counts.active, counts.parked, counts.incident);
  winnow_row_set_subtitle (self->counts_row, text);
}

static void
update_node_inspector (WinnowNodeInspector *self)
{
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  const WnNode *node = winnow_panel_selected_node (session);
  WnEngine *engine = winnow_session_get_engine (session);
  gboolean worker = node != NULL && node->worker != NULL;

  self->updating = TRUE;

  /* the whole section: the side panel's hint shows when it hides */
  gtk_widget_set_visible (GTK_WIDGET (self), node != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->topic_row), worker);
  gtk_widget_set_visible (GTK_WIDGET (self->retry_row), worker);
  gtk_widget_set_visible (GTK_WIDGET (self->task_trust_row), worker);
  if (node != NULL)
    {
      adw_preferences_group_set_title (self->node_group, node->name ? node->name : node->id);
      adw_preferences_group_set_description (self->node_group, node->name ? node->id : NULL);
      winnow_row_set_subtitle (self->node_type_row, wn_node_type_to_string (node->type));
      gtk_switch_set_active (self->node_break_switch, winnow_session_node_breaks (session, node->id));
      update_node_counts_row (self);
    }
  update_operator (self);
  if (worker)
    {
      g_autofree char *retry = describe_task_retry (self, node);
      WnTrust trust = engine ? wn_engine_get_task_trust (engine, node->id) : node->worker->policy.trust;

      winnow_row_set_subtitle (self->topic_row, node->worker->topic);
      winnow_row_set_subtitle (self->retry_row, retry);
      adw_combo_row_set_selected (self->task_trust_row,
                                  trust == WN_TRUST_WORKER_TRUSTED ? 1 :
                                  trust == WN_TRUST_ENGINE_AUTHORITATIVE ? 2 : 0);
    }

  self->updating = FALSE;
}

static void
selected_node_cb (WinnowSession       *session,
                  GParamSpec          *pspec,
                  WinnowNodeInspector *self)
{
  reset_operator (self, winnow_panel_selected_node (session));
  update_node_inspector (self);
}

/* a new run, or the breakpoints changed: the section as the session has it */
static void
run_changed_cb (WinnowSession       *session,
                WinnowNodeInspector *self)
{
  g_clear_pointer (&self->op_ids, g_ptr_array_unref);   /* a new run: the list's times are its */
  update_node_inspector (self);
}

static void
task_trust_selected_cb (AdwComboRow         *row,
                        GParamSpec          *pspec,
                        WinnowNodeInspector *self)
{
  static const WnTrust trusts[] = { WN_TRUST_UNSET, WN_TRUST_WORKER_TRUSTED, WN_TRUST_ENGINE_AUTHORITATIVE };
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  const WnNode *node = session ? winnow_panel_selected_node (session) : NULL;
  guint selected = adw_combo_row_get_selected (row);
  g_autoptr(GError) error = NULL;

  if (self->updating || node == NULL || node->worker == NULL || selected >= G_N_ELEMENTS (trusts))
    return;
  if (!winnow_session_set_task_trust (session, node->id, trusts[selected], &error))
    winnow_panel_toast (GTK_WIDGET (self), error->message);
}

/* The session keeps the breakpoints: the switch toggles the node's, and the
 * session's breakpoints-changed sets the switch (update_node_inspector). */
static void
node_break_switch_cb (GtkSwitch           *toggle,
                      GParamSpec          *pspec,
                      WinnowNodeInspector *self)
{
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  const char *node = session ? winnow_session_get_selected_node (session) : NULL;
  gboolean want = gtk_switch_get_active (toggle);

  if (self->updating || node == NULL || want == winnow_session_node_breaks (session, node))
    return;
  winnow_session_toggle_node_breakpoint (session, node);
}

static void
winnow_node_inspector_session_changed (WinnowPanel   *panel,
                                       WinnowSession *old)
{
  if (winnow_panel_get_session (panel) != NULL)
    {
      reset_operator (WINNOW_NODE_INSPECTOR (panel), winnow_panel_selected_node (winnow_panel_get_session (panel)));
      update_node_inspector (WINNOW_NODE_INSPECTOR (panel));
    }
}

static void
winnow_node_inspector_finalize (GObject *object)
{
  WinnowNodeInspector *self = WINNOW_NODE_INSPECTOR (object);

  g_free (self->op_instance);
  g_clear_pointer (&self->op_ids, g_ptr_array_unref);
  G_OBJECT_CLASS (winnow_node_inspector_parent_class)->finalize (object);
}

static void
winnow_node_inspector_class_init (WinnowNodeInspectorClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  WinnowPanelClass *panel_class = WINNOW_PANEL_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = winnow_node_inspector_finalize;
  panel_class->session_changed = winnow_node_inspector_session_changed;
  winnow_panel_class_follow (panel_class, "notify::selected-node", G_CALLBACK (selected_node_cb));
  winnow_panel_class_follow (panel_class, "run-changed", G_CALLBACK (run_changed_cb));
  winnow_panel_class_follow (panel_class, "breakpoints-changed", G_CALLBACK (run_changed_cb));

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "/winnow-node-inspector.ui");
#define BIND(name) gtk_widget_class_bind_template_child (widget_class, WinnowNodeInspector, name)
  BIND (node_group);
  BIND (node_type_row);
  BIND (topic_row);
  BIND (retry_row);
  BIND (counts_row);
  BIND (node_break_row);
  BIND (node_break_switch);
  BIND (task_trust_row);
  BIND (operator_group);
  BIND (op_instance_row);
  BIND (op_instances);
  BIND (op_name_row);
  BIND (op_key_row);
  BIND (op_vars_row);
  BIND (op_code_row);
  BIND (op_message_row);
  BIND (op_actions);
  BIND (op_error);
  BIND (op_reason);
  BIND (op_throw_button);
  BIND (op_submit_button);
#undef BIND
  gtk_widget_class_bind_template_callback (widget_class, op_submit_cb);
  gtk_widget_class_bind_template_callback (widget_class, op_throw_cb);
  gtk_widget_class_bind_template_callback (widget_class, op_instance_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, task_trust_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, node_break_switch_cb);
}

static void
winnow_node_inspector_init (WinnowNodeInspector *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* Enter submits: the code and message rows throw, the others complete or correlate */
  g_signal_connect_swapped (self->op_name_row, "entry-activated", G_CALLBACK (op_submit_cb), self);
  g_signal_connect_swapped (self->op_key_row, "entry-activated", G_CALLBACK (op_submit_cb), self);
  g_signal_connect_swapped (self->op_vars_row, "entry-activated", G_CALLBACK (op_submit_cb), self);
  g_signal_connect_swapped (self->op_code_row, "entry-activated", G_CALLBACK (op_throw_cb), self);
  g_signal_connect_swapped (self->op_message_row, "entry-activated", G_CALLBACK (op_throw_cb), self);
}


void
winnow_node_inspector_update (WinnowNodeInspector *self)
{
  g_return_if_fail (WINNOW_IS_NODE_INSPECTOR (self));

  if (winnow_panel_get_session (WINNOW_PANEL (self)) != NULL)
    {
      update_node_counts_row (self);
      update_operator (self);
    }
}

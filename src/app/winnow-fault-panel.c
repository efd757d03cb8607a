/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-fault-panel.c — the side panel's fault injection, shown while the
 * selected node is a task. It follows the session's selected node itself;
 * its Inject button is win.inject-fault, which calls
 * winnow_fault_panel_inject(), and its `can-inject` property is that
 * action's enabled state (the window binds them). Below, the injections
 * still pending for the task's topic, each with a Cancel button
 * (win.cancel-injection, its id as the target). */
#include "config.h"

#include <glib/gi18n.h>

#include "winnow-fault-panel.h"
#include "winnow-panel-util.h"

struct _WinnowFaultPanel
{
  WinnowPanel          parent_instance;

  /* template children */
  GtkWidget           *box;
  AdwPreferencesGroup *fault_group;
  AdwComboRow         *fault_kind_row;
  AdwEntryRow         *fault_code_row;
  AdwEntryRow         *fault_duration_row;
  AdwEntryRow         *fault_json_row;
  GtkLabel            *fault_error;
  AdwPreferencesGroup *pending_group;

  GPtrArray           *pending_rows;  /* the rows in pending_group */
  GString             *pending_key;   /* the ids they show, to rebuild only on a change */
  gboolean             can_inject;
};

enum {
  PROP_0,
  PROP_CAN_INJECT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Fault kinds, in the order of the inspector's dropdown. */
enum {
  FAULT_FAIL,
  FAULT_BPMN_ERROR,
  FAULT_STATUS,
  FAULT_CRASH,
  FAULT_HANG,
  FAULT_COMPLETE,
  FAULT_CUSTOM,
};

G_DEFINE_FINAL_TYPE (WinnowFaultPanel, winnow_fault_panel, WINNOW_TYPE_PANEL)

static void
update_fault_fields (WinnowFaultPanel *self)
{
  guint kind = adw_combo_row_get_selected (self->fault_kind_row);
  gboolean code = kind == FAULT_FAIL || kind == FAULT_BPMN_ERROR;
  gboolean json = kind == FAULT_FAIL || kind == FAULT_STATUS || kind == FAULT_COMPLETE || kind == FAULT_CUSTOM ||
                  kind == FAULT_HANG;

  gtk_widget_set_visible (GTK_WIDGET (self->fault_code_row), code);
  gtk_widget_set_visible (GTK_WIDGET (self->fault_duration_row), kind == FAULT_HANG);
  gtk_widget_set_visible (GTK_WIDGET (self->fault_json_row), json);
  switch (kind)
    {
    case FAULT_FAIL:
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->fault_code_row), _("Fault code"));
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->fault_json_row), _("Body (JSON, optional)"));
      break;
    case FAULT_BPMN_ERROR:
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->fault_code_row), _("BPMN error code"));
      break;
    case FAULT_STATUS:
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->fault_json_row), _("Status value (JSON)"));
      break;
    case FAULT_HANG:
    case FAULT_COMPLETE:
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->fault_json_row), _("Output body (JSON, optional)"));
      break;
    case FAULT_CUSTOM:
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->fault_json_row),
                                     _("Response (JSON), e.g. {\"after\": \"1s\", \"fail\": {\"code\": \"503\"}}"));
      break;
    default:
      break;
    }
  gtk_widget_set_visible (GTK_WIDGET (self->fault_error), FALSE);
}

/* A message about what was typed goes as soon as the user types again. */
static void
field_changed_cb (WinnowFaultPanel *self)
{
  winnow_field_set_error (self->fault_error, NULL);
}

/* Enter in a field injects, as the button does. */
static void
field_activated_cb (WinnowFaultPanel *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "win.inject-fault", NULL);
}

static void
update_fault_panel (WinnowFaultPanel *self)
{
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  const WnNode *node = winnow_panel_selected_node (session);
  WnEngine *engine = winnow_session_get_engine (session);
  gboolean worker = node != NULL && node->worker != NULL;
  gboolean can_inject = worker && engine != NULL;

  /* the whole section: the fields and the Inject button */
  gtk_widget_set_visible (GTK_WIDGET (self), worker);
  if (worker)
    {
      g_autofree char *fault_note = NULL;

      /* Translators: %s is a topic name */
      fault_note = g_strdup_printf (_("The next execution on topic “%s” gets this response instead of its scripted one."),
                                    node->worker->topic);
      adw_preferences_group_set_description (self->fault_group, fault_note);
    }
  if (self->can_inject != can_inject)
    {
      self->can_inject = can_inject;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_INJECT]);
    }
}

/* One row per pending injection of the task's topic (its own, or aimed at a
 * worker serving it), oldest first: the next executions take them in that
 * order. */
static void
update_pending (WinnowFaultPanel *self)
{
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  const WnNode *node = session ? winnow_panel_selected_node (session) : NULL;
  GPtrArray *injections = session ? winnow_session_get_injections (session) : NULL;
  g_autoptr(GString) key = g_string_new (NULL);
  g_autoptr(GPtrArray) shown = g_ptr_array_new ();

  for (guint i = 0; injections != NULL && node != NULL && node->worker != NULL && i < injections->len; i++)
    {
      const WnInjection *injection = g_ptr_array_index (injections, i);

      if (g_strcmp0 (injection->topic, node->worker->topic) == 0)
        {
          g_ptr_array_add (shown, (gpointer) injection);
          g_string_append_printf (key, "%u,", injection->id);
        }
    }
  if (g_string_equal (key, self->pending_key))
    return;
  g_string_assign (self->pending_key, key->str);
  for (guint i = 0; i < self->pending_rows->len; i++)
    adw_preferences_group_remove (self->pending_group, g_ptr_array_index (self->pending_rows, i));
  g_ptr_array_set_size (self->pending_rows, 0);
  for (guint i = 0; i < shown->len; i++)
    {
      const WnInjection *injection = g_ptr_array_index (shown, i);
      g_autofree char *what = wn_response_describe (injection->response);
      g_autofree char *at = wn_time_format_clock (injection->at);
      g_autofree char *name = g_strdup_printf ("pending-injection-%u", injection->id);
      g_autofree char *subtitle = NULL;
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *cancel = gtk_button_new_with_mnemonic (C_("pending injection", "_Cancel"));

      if (injection->worker != NULL)
        /* Translators: "for worker inventory’s next execution · injected at T+00:00.250" */
        subtitle = g_strdup_printf (_("for worker %s’s next execution · injected at %s"), injection->worker, at);
      else
        /* Translators: "for the topic’s next execution · injected at T+00:00.250" */
        subtitle = g_strdup_printf (_("for the topic’s next execution · injected at %s"), at);
      gtk_widget_set_name (row, name);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), what);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      gtk_widget_set_valign (cancel, GTK_ALIGN_CENTER);
      gtk_widget_set_tooltip_text (cancel, _("Take this injection back"));
      gtk_actionable_set_action_name (GTK_ACTIONABLE (cancel), "win.cancel-injection");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (cancel), "u", injection->id);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), cancel);
      adw_preferences_group_add (self->pending_group, row);
      g_ptr_array_add (self->pending_rows, row);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->pending_group), shown->len > 0);
}

static void
flushed_cb (WinnowSession    *session,
            WinnowFaultPanel *self)
{
  update_pending (self);
}

static void
selected_node_cb (WinnowSession    *session,
                  GParamSpec       *pspec,
                  WinnowFaultPanel *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->fault_error), FALSE);
  update_fault_panel (self);
  update_pending (self);
}

static void
run_changed_cb (WinnowSession    *session,
                WinnowFaultPanel *self)
{
  update_fault_panel (self);
  update_pending (self);
}

static void
winnow_fault_panel_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  WinnowFaultPanel *self = WINNOW_FAULT_PANEL (object);

  switch (prop_id)
    {
    case PROP_CAN_INJECT:
      g_value_set_boolean (value, self->can_inject);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_fault_panel_session_changed (WinnowPanel   *panel,
                                    WinnowSession *old)
{
  if (winnow_panel_get_session (panel) != NULL)
    update_fault_panel (WINNOW_FAULT_PANEL (panel));
  update_pending (WINNOW_FAULT_PANEL (panel));
}

static void
winnow_fault_panel_finalize (GObject *object)
{
  WinnowFaultPanel *self = WINNOW_FAULT_PANEL (object);

  g_ptr_array_unref (self->pending_rows);
  g_string_free (self->pending_key, TRUE);
  G_OBJECT_CLASS (winnow_fault_panel_parent_class)->finalize (object);
}

static void
winnow_fault_panel_class_init (WinnowFaultPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  WinnowPanelClass *panel_class = WINNOW_PANEL_CLASS (klass);

  object_class->get_property = winnow_fault_panel_get_property;
  object_class->finalize = winnow_fault_panel_finalize;
  panel_class->session_changed = winnow_fault_panel_session_changed;
  winnow_panel_class_follow (panel_class, "notify::selected-node", G_CALLBACK (selected_node_cb));
  winnow_panel_class_follow (panel_class, "run-changed", G_CALLBACK (run_changed_cb));
  winnow_panel_class_follow (panel_class, "flushed", G_CALLBACK (flushed_cb));

  /* a task is selected and a run is on: win.inject-fault's enabled state */
  properties[PROP_CAN_INJECT] =
    g_param_spec_boolean ("can-inject", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "/winnow-fault-panel.ui");
#define BIND(name) gtk_widget_class_bind_template_child (widget_class, WinnowFaultPanel, name)
  BIND (box);
  BIND (fault_group);
  BIND (fault_kind_row);
  BIND (fault_code_row);
  BIND (fault_duration_row);
  BIND (fault_json_row);
  BIND (fault_error);
  BIND (pending_group);
#undef BIND
}

static void
winnow_fault_panel_init (WinnowFaultPanel *self)
{
  AdwEntryRow *fields[3];

  gtk_widget_init_template (GTK_WIDGET (self));
  self->pending_rows = g_ptr_array_new ();
  self->pending_key = g_string_new (NULL);
  fields[0] = self->fault_code_row;
  fields[1] = self->fault_duration_row;
  fields[2] = self->fault_json_row;
  g_signal_connect_swapped (self->fault_kind_row, "notify::selected", G_CALLBACK (update_fault_fields), self);
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      g_signal_connect_swapped (fields[i], "changed", G_CALLBACK (field_changed_cb), self);
      g_signal_connect_swapped (fields[i], "entry-activated", G_CALLBACK (field_activated_cb), self);
    }
  update_fault_fields (self);
}

gboolean
winnow_fault_panel_inject (WinnowFaultPanel *self)
{
  WinnowSession *session;
  const WnNode *node;
  guint kind;
  g_autofree char *code = NULL;
  g_autofree char *json = NULL;
  g_autofree char *message = NULL;
  g_autofree char *description = NULL;
  g_autofree char *done = NULL;
  g_autoptr(WnResponse) response = NULL;
  g_autoptr(JsonNode) value = NULL;
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (WINNOW_IS_FAULT_PANEL (self), FALSE);

  session = winnow_panel_get_session (WINNOW_PANEL (self));
  node = session ? winnow_panel_selected_node (session) : NULL;
  if (node == NULL || node->worker == NULL)
    return FALSE;
  kind = adw_combo_row_get_selected (self->fault_kind_row);
  code = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->fault_code_row))));
  json = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->fault_json_row))));

  /* the body first, for the kinds that show its field (a custom response is
   * read whole below) */
  if (*json != '\0' && (kind == FAULT_FAIL || kind == FAULT_STATUS || kind == FAULT_HANG || kind == FAULT_COMPLETE) &&
      (value = winnow_parse_json (json, &message)) == NULL)
    ;
  else
    switch (kind)
      {
      case FAULT_FAIL:
        response = wn_response_new_fail (*code != '\0' ? code : NULL, value, _("injected fault"));
        break;
      case FAULT_BPMN_ERROR:
        response = wn_response_new_bpmn_error (code, _("injected BPMN error"), &error);
        if (response == NULL)
          message = g_strdup (_("A BPMN error needs a code"));
        break;
      case FAULT_STATUS:
        response = wn_response_new_status (value, NULL, &error);
        if (response == NULL)
          message = g_strdup (_("A status needs a JSON value, e.g. \"DECLINED\""));
        break;
      case FAULT_CRASH:
        response = wn_response_new_crash ();
        break;
      case FAULT_HANG:
        {
          g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->fault_duration_row))));
          WnTime duration;

          if (!wn_duration_parse (text, &duration, NULL))
            /* Translators: %s is what the user typed */
            message = g_strdup_printf (_("“%s” is not a duration: type one like 30s or 10m (longer than the lock to see it lapse)"),
                                       text);
          else if ((response = wn_response_new_hang (duration, value, &error)) == NULL)
            message = g_strdup (_("A hang’s output must be a JSON object"));
        }
        break;
      case FAULT_COMPLETE:
        response = wn_response_new_complete (value);
        break;
      case FAULT_CUSTOM:
      default:
        {
          g_autoptr(GPtrArray) diagnostics = NULL;

          response = wn_load_response_data (json, -1, _("response"), &diagnostics, &error);
          if (response == NULL)
            {
              if (diagnostics != NULL && diagnostics->len > 0)
                message = wn_diagnostic_format (g_ptr_array_index (diagnostics, 0));
              else
                message = g_strdup (error ? error->message : _("Not a valid response"));
            }
        }
        break;
      }
  g_clear_error (&error);

  if (message != NULL)
    {
      winnow_field_set_error (self->fault_error, message);
      return FALSE;
    }
  if (!winnow_session_inject (session, node->worker->topic, NULL, response, &error))
    {
      winnow_field_set_error (self->fault_error, error->message);
      return FALSE;
    }
  winnow_field_set_error (self->fault_error, NULL);
  description = wn_response_describe (response);
  /* Translators: "Injected crash on topic authorize" */
  done = g_strdup_printf (_("Injected %s on topic %s"), description, node->worker->topic);
  winnow_panel_toast (GTK_WIDGET (self), done);
  return TRUE;
}

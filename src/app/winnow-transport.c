/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-transport.c — the transport in the header bar. Its buttons are the
 * window's actions (win.play-pause, win.step-next, win.step-by, win.set-speed,
 * win.set-step-delta); it shows the clock the window updates each frame
 * (winnow_transport_update) and names the next event when the step button's
 * tooltip is asked for. */
#include "config.h"

#include <glib/gi18n.h>

#include "winnow-transport.h"
#include "winnow-panel-util.h"

struct _WinnowTransport
{
  WinnowPanel     parent_instance;

  GtkButton      *play_button;
  GtkButton      *step_button;
  AdwSplitButton *step_by_button;
  GtkMenuButton  *speed_button;
  GMenuModel     *speed_menu;
  GtkLabel       *clock_label;
  GtkLabel       *clock_state_label;
};

G_DEFINE_FINAL_TYPE (WinnowTransport, winnow_transport, WINNOW_TYPE_PANEL)

/* Setting a tooltip asks the X server where the pointer is (GTK 4.8): only
 * when it changes. */
static void
set_tooltip (GtkWidget  *widget,
             const char *text)
{
  const char *current = gtk_widget_get_tooltip_text (widget);

  if (g_strcmp0 (current, text) != 0)
    gtk_widget_set_tooltip_text (widget, text);
}

/* The step button's tooltip names the next event's time, which changes on
 * every frame of a run: it is written when shown, since setting a widget's
 * tooltip asks the X server where the pointer is. */
static gboolean
step_query_tooltip_cb (GtkWidget    *widget,
                       int           x,
                       int           y,
                       gboolean      keyboard,
                       GtkTooltip      *tooltip,
                       WinnowTransport *self)
{
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  WnTime next = session ? winnow_session_get_next_time (session) : WN_TIME_NEVER;
  g_autofree char *tip = NULL;

  if (next == WN_TIME_NEVER)
    tip = g_strdup (_("Nothing is left to run"));
  else
    {
      g_autofree char *at = wn_time_format_clock (next);
      /* Translators: tooltip of the step button; %s is a clock time */
      tip = g_strdup_printf (_("Step to the next event (F10): next at %s"), at);
    }
  gtk_tooltip_set_text (tooltip, tip);
  return TRUE;
}

static void
winnow_transport_session_changed (WinnowPanel   *panel,
                                  WinnowSession *old)
{
  winnow_transport_update (WINNOW_TRANSPORT (panel));
}

static void
winnow_transport_class_init (WinnowTransportClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  WinnowPanelClass *panel_class = WINNOW_PANEL_CLASS (klass);

  panel_class->session_changed = winnow_transport_session_changed;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "/winnow-transport.ui");
  gtk_widget_class_bind_template_child (widget_class, WinnowTransport, play_button);
  gtk_widget_class_bind_template_child (widget_class, WinnowTransport, step_button);
  gtk_widget_class_bind_template_child (widget_class, WinnowTransport, step_by_button);
  gtk_widget_class_bind_template_child (widget_class, WinnowTransport, speed_button);
  gtk_widget_class_bind_template_child (widget_class, WinnowTransport, speed_menu);
  gtk_widget_class_bind_template_child (widget_class, WinnowTransport, clock_label);
  gtk_widget_class_bind_template_child (widget_class, WinnowTransport, clock_state_label);
}

/* The state label is as wide as its widest text, so that the buttons before
 * it and the seed after it do not move when the clock's state changes: it
 * sits in a stack beside a copy of itself for each text it may show, and a
 * stack is as wide as its widest page. */
static void
size_state_label (WinnowTransport *self)
{
  static const double speeds[] = { 0.1, 1, 10, 100, 1000 };
  const char *fixed[] = { _("paused"), _("stepping"), _("fast-forward") };
  GtkWidget *label = GTK_WIDGET (self->clock_state_label);
  GtkWidget *box = gtk_widget_get_parent (label);
  GtkWidget *stack = gtk_stack_new ();

  g_object_ref (label);
  gtk_box_remove (GTK_BOX (box), label);
  gtk_stack_add_child (GTK_STACK (stack), label);
  g_object_unref (label);
  gtk_widget_set_valign (stack, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (box), stack);
  for (guint i = 0; i < G_N_ELEMENTS (fixed) + G_N_ELEMENTS (speeds); i++)
    {
      g_autofree char *speed = i >= G_N_ELEMENTS (fixed)
                               ? winnow_transport_describe_speed (speeds[i - G_N_ELEMENTS (fixed)]) : NULL;
      g_autofree char *running = speed ? g_strdup_printf (_("running %s"), speed) : NULL;
      GtkWidget *sizer = gtk_label_new (running ? running : fixed[i]);

      gtk_widget_add_css_class (sizer, "clock-state");
      gtk_stack_add_child (GTK_STACK (stack), sizer);
    }
  gtk_stack_set_visible_child (GTK_STACK (stack), label);
}

static void
winnow_transport_init (WinnowTransport *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  size_state_label (self);
  g_signal_connect (self->step_button, "query-tooltip", G_CALLBACK (step_query_tooltip_cb), self);
  /* the speed menu waits for its first click: its widgets stay out of the first frame */
  winnow_menu_button_set_menu_lazily (self->speed_button, self->speed_menu);
}

void
winnow_transport_update (WinnowTransport *self)
{
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  WnClockMode mode = session ? winnow_session_get_mode (session) : WN_CLOCK_PAUSED;
  g_autofree char *clock = wn_time_format_clock (session ? winnow_session_get_now (session) : 0);
  g_autofree char *state = NULL;

  gtk_label_set_text (self->clock_label, clock);
  if (session != NULL && winnow_session_is_stepping (session))
    /* Translators: the clock's state while a long step runs in slices */
    state = g_strdup (_("stepping"));
  else switch (mode)
    {
    case WN_CLOCK_RUNNING:
      {
        g_autofree char *speed = winnow_transport_describe_speed (winnow_session_get_speed (session));
        /* Translators: the clock's state while playing, e.g. "running 10×" */
        state = g_strdup_printf (_("running %s"), speed);
      }
      break;
    case WN_CLOCK_FAST_FORWARD:
      state = g_strdup (_("fast-forward"));
      break;
    case WN_CLOCK_PAUSED:
    default:
      state = g_strdup (_("paused"));
      break;
    }
  /* in the past the clock replays the record (winnow-session-travel.c) */
  if (session != NULL && winnow_session_is_in_past (session))
    {
      g_free (state);
      state = g_strdup (mode == WN_CLOCK_PAUSED ? _("in the past") : _("replaying"));
    }
  gtk_label_set_text (self->clock_state_label, state);
  if (session == NULL || !winnow_session_is_playing (session))
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self->clock_state_label), "running");
      gtk_widget_add_css_class (GTK_WIDGET (self->clock_state_label), "paused");
      gtk_button_set_icon_name (self->play_button, "media-playback-start-symbolic");
      set_tooltip (GTK_WIDGET (self->play_button), _("Play (Space)"));
    }
  else
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self->clock_state_label), "paused");
      gtk_widget_add_css_class (GTK_WIDGET (self->clock_state_label), "running");
      gtk_button_set_icon_name (self->play_button, "media-playback-pause-symbolic");
      set_tooltip (GTK_WIDGET (self->play_button), _("Pause (Space)"));
    }
}

void
winnow_transport_set_speed_label (WinnowTransport *self,
                                  const char      *label)
{
  g_return_if_fail (WINNOW_IS_TRANSPORT (self));
  gtk_menu_button_set_label (self->speed_button, label);
}

void
winnow_transport_set_step_label (WinnowTransport *self,
                                 const char      *label)
{
  g_return_if_fail (WINNOW_IS_TRANSPORT (self));
  adw_split_button_set_label (self->step_by_button, label);
}

char *
winnow_transport_describe_speed (double speed)
{
  if (speed <= 0)
    return g_strdup (_("fast-forward"));
  /* Translators: a playback speed factor, e.g. "10×" */
  return g_strdup_printf (_("%g×"), speed);
}

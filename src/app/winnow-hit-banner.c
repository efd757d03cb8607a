/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-hit-banner.c — the banner that says why the clock stopped when the
 * operator did not stop it: a breakpoint (the session's breakpoint-hit), or
 * the clock stopping by itself (its stopped signal: the engine stopped the
 * run, a step ran out of its budget). It hides on a new run, when the clock
 * runs again, or on its hit-banner.dismiss action (its close button); the
 * window calls winnow_hit_banner_update() with the views above the tabs and
 * when the clock's mode changes. */
#include "config.h"

#include <glib/gi18n.h>

#include "winnow-hit-banner.h"
#include "winnow-event-row.h"

struct _WinnowHitBanner
{
  WinnowPanel  parent_instance;

  GtkRevealer *revealer;
  GtkLabel    *title;
  GtkLabel    *event;
  gboolean     stopped;   /* it says why the clock stopped by itself */
};

G_DEFINE_FINAL_TYPE (WinnowHitBanner, winnow_hit_banner, WINNOW_TYPE_PANEL)

/* hit-banner.dismiss: its close button */
static void
dismiss_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  WinnowHitBanner *self = WINNOW_HIT_BANNER (widget);

  gtk_revealer_set_reveal_child (self->revealer, FALSE);
}

static void
hit_cb (WinnowSession   *session,
        guint            id,
        WinnowEventRow  *row,
        WinnowHitBanner *self)
{
  const WnEvent *event = winnow_event_row_get_event (row);
  g_autofree char *at = wn_time_format_clock (event->t_us);
  g_autofree char *spec = winnow_session_dup_breakpoint_spec (session, id);
  g_autofree char *title = NULL;
  g_autofree char *line = g_strstrip (g_strdup (winnow_event_row_get_text (row)));

  /* Translators: the breakpoint banner: "Stopped at T+00:02.157 on breakpoint job.retriesExhausted" */
  title = g_strdup_printf (_("Stopped at %s on breakpoint %s"), at, spec ? spec : "?");
  self->stopped = FALSE;
  gtk_label_set_text (self->title, title);
  gtk_label_set_text (self->event, line);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->event), line);
  gtk_revealer_set_reveal_child (self->revealer, TRUE);
}

static void
stopped_cb (WinnowSession   *session,
            const char      *why,
            WinnowHitBanner *self)
{
  g_autofree char *at = wn_time_format_clock (winnow_session_get_now (session));
  g_autofree char *title = NULL;

  /* Translators: the banner when the clock stopped without a breakpoint or a
   * pause: "The clock stopped by itself at T+00:00.000"; the reason follows */
  title = g_strdup_printf (_("The clock stopped by itself at %s"), at);
  self->stopped = TRUE;
  gtk_label_set_text (self->title, title);
  gtk_label_set_text (self->event, why);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->event), why);
  gtk_revealer_set_reveal_child (self->revealer, TRUE);
}

static void
run_changed_cb (WinnowSession   *session,
                WinnowHitBanner *self)
{
  gtk_revealer_set_reveal_child (self->revealer, FALSE);
}

static void
winnow_hit_banner_session_changed (WinnowPanel   *panel,
                                   WinnowSession *old)
{
  gtk_revealer_set_reveal_child (WINNOW_HIT_BANNER (panel)->revealer, FALSE);
}

static void
winnow_hit_banner_class_init (WinnowHitBannerClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  WinnowPanelClass *panel_class = WINNOW_PANEL_CLASS (klass);

  panel_class->session_changed = winnow_hit_banner_session_changed;
  winnow_panel_class_follow (panel_class, "breakpoint-hit", G_CALLBACK (hit_cb));
  winnow_panel_class_follow (panel_class, "stopped", G_CALLBACK (stopped_cb));
  winnow_panel_class_follow (panel_class, "run-changed", G_CALLBACK (run_changed_cb));

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "/winnow-hit-banner.ui");
  gtk_widget_class_bind_template_child (widget_class, WinnowHitBanner, revealer);
  gtk_widget_class_bind_template_child (widget_class, WinnowHitBanner, title);
  gtk_widget_class_bind_template_child (widget_class, WinnowHitBanner, event);

  gtk_widget_class_install_action (widget_class, "hit-banner.dismiss", NULL, dismiss_action);
}

static void
winnow_hit_banner_init (WinnowHitBanner *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

void
winnow_hit_banner_update (WinnowHitBanner *self)
{
  WinnowSession *session;

  g_return_if_fail (WINNOW_IS_HIT_BANNER (self));

  session = winnow_panel_get_session (WINNOW_PANEL (self));
  if (session != NULL && gtk_revealer_get_reveal_child (self->revealer) &&
      ((!self->stopped && winnow_session_get_hit (session, NULL) == 0) || winnow_session_is_playing (session)))
    gtk_revealer_set_reveal_child (self->revealer, FALSE);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-window.c — the main window as a shell: the header bar (open, the
 * transport, the seed, the menu), the load-error and breakpoint banners, the
 * tab strip with its badges, the toasts that say what the run did, and the
 * frame clock that paces every panel (update_upper_views and
 * update_lower_views). The panels are widgets of their own, bound to the
 * window's session in its template; its actions are in
 * winnow-window-actions.c and its files in winnow-window-files.c. */
#include "config.h"

#include <inttypes.h>

#include <string.h>
#include <glib/gi18n.h>

#include "winnow-window-private.h"
#include "winnow-panel-util.h"
#include "winnow-incidents-page.h"
#include "winnow-timeline-page.h"
#include "winnow-breakpoints-page.h"
#include "winnow-compare-page.h"
#include "winnow-workers-page.h"
#include "winnow-summary-page.h"
#include "winnow-diagram-pane.h"
#include "winnow-hit-banner.h"
#include "winnow-load-errors.h"
#include "winnow-tracks-page.h"
#include "winnow-dispatcher-page.h"
#include "winnow-instances-page.h"
#include "winnow-journal-page.h"
#include "winnow-inspector.h"
#include "winnow-event-row.h"
#include "winnow-job-row.h"


enum {
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (WinnowWindow, winnow_window, ADW_TYPE_APPLICATION_WINDOW)

/* ---- small helpers ---- */

static GSettings *
create_settings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source == NULL)
    return NULL;
  schema = g_settings_schema_source_lookup (source, APPLICATION_ID, TRUE);
  if (schema == NULL)
    return NULL;
  return g_settings_new_full (schema, NULL, NULL);
}


void
_winnow_window_show_toast (WinnowWindow *self,
            const char   *title)
{
  AdwToast *toast = adw_toast_new (title);

  adw_toast_set_timeout (toast, 3);
  winnow_toast_queue_add (self->toasts, toast);
}

static void update_tab_badges (WinnowWindow *self);
static void alert_toast_dismissed_cb (AdwToast *toast, WinnowWindow *self);
static void session_hit_cb (WinnowSession *session, guint id, WinnowEventRow *row, WinnowWindow *self);

/* ---- views that follow the run ---- */




/* Whether a tab's table shows a preview: the tab bar's note says so. */
static gboolean
tables_live (WinnowWindow *self)
{
  return winnow_table_page_is_live (WINNOW_TABLE_PAGE (self->tracks)) ||
         winnow_table_page_is_live (WINNOW_TABLE_PAGE (self->dispatcher)) ||
         winnow_table_page_is_live (WINNOW_TABLE_PAGE (self->instances));
}

/* While a big run plays, tables show their first rows (winnow-live-table.h).
 * Returns whether a table left live mode, showing every row again (they
 * leave it together, when the clock stops). */
static gboolean
update_live_tables (WinnowWindow *self)
{
  gboolean was_live = tables_live (self);
  gboolean live;

  winnow_table_page_update (WINNOW_TABLE_PAGE (self->tracks));
  winnow_table_page_update (WINNOW_TABLE_PAGE (self->dispatcher));
  winnow_table_page_update (WINNOW_TABLE_PAGE (self->instances));
  live = tables_live (self);
  gtk_widget_set_visible (GTK_WIDGET (self->live_note), live);
  return was_live && !live;
}

static gboolean
has_alert_titles (WinnowWindow *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (self->alert_titles); i++)
    if (self->alert_titles[i] != NULL)
      return TRUE;
  return FALSE;
}

static void
show_alert_toasts (WinnowWindow *self)
{
  self->toasts_waiting = FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (self->alert_titles); i++)
    {
      g_autofree char *title = g_steal_pointer (&self->alert_titles[i]);
      AdwToast *toast;

      if (title == NULL)
        continue;
      if (self->alert_toasts[i] != NULL)
        {
          adw_toast_set_title (self->alert_toasts[i], title);
          continue;
        }
      toast = adw_toast_new (title);
      adw_toast_set_timeout (toast, i == WINNOW_ALERT_FINISHED ? 5 : 8);
      /* Normal priority: libadwaita 1.2 frees a high-priority toast's predecessor
       * twice when it postpones it (use after free). Alerts queue behind at most
       * a short confirmation, and the tabs' badges show them at once anyway. */
      adw_toast_set_button_label (toast, _("_Show"));
      adw_toast_set_action_name (toast, "win.show-tab");
      adw_toast_set_action_target_value (toast, g_variant_new_string (self->alert_tabs[i]));
      g_signal_connect_object (toast, "dismissed", G_CALLBACK (alert_toast_dismissed_cb), self, 0);
      self->alert_toasts[i] = toast;
      self->alert_serials[i] = ++self->alert_serial;
      winnow_toast_queue_add (self->toasts, toast);
    }
}

/* New counts for the alerts on show: the tabs' badges at once, and the toasts
 * once the clock leaves fast-forward. A fast-forward run is over in moments:
 * its toasts wait for the clock to stop (the run's end, a breakpoint, a
 * pause) rather than flashing past, or queuing, while it runs. On the frame
 * where the tables show every row again, they wait one frame more: making a
 * toast and its animation is a frame's worth of work of its own. */
static void
update_alerts (WinnowWindow *self,
               gboolean      tables_restored)
{
  if (self->tab_badges_stale)
    update_tab_badges (self);
  self->tab_badges_stale = FALSE;
  if (winnow_session_get_mode (self->session) == WN_CLOCK_FAST_FORWARD)
    return;
  if (tables_restored && has_alert_titles (self))
    {
      self->toasts_waiting = TRUE;
      _winnow_window_ensure_tick (self);
      return;
    }
  show_alert_toasts (self);
}

/* The header says what runs: the process (and the scenario or session opened
 * over it), the run's engine-wide trust as it is now, the seed. */
static void
update_run_header (WinnowWindow *self)
{
  WnEngine *engine = winnow_session_get_engine (self->session);
  WnScenario *scenario = winnow_session_get_scenario (self->session);
  g_autofree char *scenario_name = scenario && scenario->filename ? g_path_get_basename (scenario->filename) : NULL;
  g_autofree char *title = NULL;
  g_autofree char *run = NULL;

  if (engine == NULL)
    {
      gtk_label_set_text (self->seed_label, "");
      return;
    }
  /* Translators: the header's title with a scenario opened over the process: "Order fulfilment · my.scenario.json" */
  title = scenario_name ? g_strdup_printf (_("%s · %s"), winnow_session_get_title (self->session), scenario_name)
                        : g_strdup (winnow_session_get_title (self->session));
  gtk_label_set_text (self->file_label, title);
  /* Translators: the run's engine-wide trust and its PRNG seed in the header bar: "Worker trusted · seed 7" */
  run = g_strdup_printf (_("%s · seed %" PRIu64), winnow_trust_name (winnow_session_get_trust_default (self->session)),
                         (uint64_t) wn_engine_get_seed (engine));
  gtk_label_set_text (self->seed_label, run);
}

/* The run, in the parts of the window above the tabs: the clock, the
 * diagram's badges, the inspector. */
static void
update_upper_views (WinnowWindow *self)
{
  winnow_transport_update (self->transport);
  winnow_diagram_pane_update (self->diagram_pane);
  winnow_inspector_update (self->inspector);
  winnow_hit_banner_update (self->hit_banner);
}

/* … and in the tabs below them. */
static void
update_lower_views (WinnowWindow *self)
{
  gboolean restored;

  restored = update_live_tables (self);

  winnow_timeline_page_update (self->timeline);
  winnow_incidents_page_update (self->incidents);
  winnow_journal_page_update (self->journal);
  update_alerts (self, restored);
}

/* A frame shows one half of the window's news: the views above the tabs on
 * the frame that reads the journal (winnow_session_flush), the tabs on the
 * next one (tick_cb). GTK 4.8's cairo renderer on X11 repaints the bounding
 * box of everything that changed in a frame: the clock at the top and a
 * table at the bottom changing together made every such frame repaint the
 * whole window (20–30 ms, measured), where either half alone costs a few.
 * Reading the journal and repainting a table are the two costliest parts of
 * a frame, so they take separate frames. */
static void
session_flushed_cb (WinnowSession *session,
                    WinnowWindow  *self)
{
  update_upper_views (self);
  update_run_header (self);
  self->lower_stale = TRUE;
  _winnow_window_ensure_tick (self);
}

static gboolean
tick_cb (GtkWidget     *widget,
         GdkFrameClock *frame_clock,
         gpointer       data)
{
  WinnowWindow *self = WINNOW_WINDOW (widget);

  /* the tabs the last flush left come first; the journal waits a frame */
  if (self->lower_stale)
    {
      self->lower_stale = FALSE;
      update_lower_views (self);
    }
  else if (self->toasts_waiting)
    show_alert_toasts (self);
  else if (winnow_session_has_pending (self->session))
    winnow_session_flush (self->session);
  if (!winnow_session_is_playing (self->session) && !winnow_session_has_pending (self->session) &&
      !self->lower_stale && !self->toasts_waiting)
    {
      self->tick_id = 0;
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

void
_winnow_window_ensure_tick (WinnowWindow *self)
{
  if (self->tick_id == 0)
    self->tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), tick_cb, NULL, NULL);
}

static void
session_needs_flush_cb (WinnowSession *session,
                        WinnowWindow  *self)
{
  _winnow_window_ensure_tick (self);
}

/* ---- alerts ---- */

static void
update_tab_badges (WinnowWindow *self)
{
  const char *page = adw_view_stack_get_visible_child_name (self->view_stack);

  /* what is on screen is seen */
  if (g_strcmp0 (page, "instances") == 0)
    self->unseen_instances = 0;
  else if (g_strcmp0 (page, "journal") == 0)
    self->unseen_journal = 0;
  adw_view_stack_page_set_badge_number (self->instances_page, self->unseen_instances);
  adw_view_stack_page_set_needs_attention (self->instances_page, self->unseen_instances > 0);
  adw_view_stack_page_set_badge_number (self->journal_page, self->unseen_journal);
  adw_view_stack_page_set_needs_attention (self->journal_page, self->unseen_journal > 0);
}

static void
alert_toast_dismissed_cb (AdwToast     *toast,
                          WinnowWindow *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (self->alert_toasts); i++)
    if (self->alert_toasts[i] == toast)
      {
        self->alert_toasts[i] = NULL;
        self->alert_counts[i] = 0;
      }
}

/* Newest first: the ones still waiting their turn go without a trace, the
 * one on show last (else each would go on show in turn, for a moment). The
 * toast queue keeps the one on show until its show animation is over
 * (winnow-toast-queue.c: libadwaita 1.2 frees a toast whose hide animation
 * ends first). */
static void
dismiss_alert_toasts (WinnowWindow *self)
{
  for (;;)
    {
      guint newest = G_N_ELEMENTS (self->alert_toasts);

      for (guint i = 0; i < G_N_ELEMENTS (self->alert_toasts); i++)
        if (self->alert_toasts[i] != NULL &&
            (newest == G_N_ELEMENTS (self->alert_toasts) || self->alert_serials[i] > self->alert_serials[newest]))
          newest = i;
      if (newest == G_N_ELEMENTS (self->alert_toasts))
        return;
      winnow_toast_queue_dismiss (self->toasts, self->alert_toasts[newest]);
      self->alert_toasts[newest] = NULL;   /* (its dismissed handler does, too) */
    }
}

/* What the toasts call a node: its name, as the diagram shows it. */
static const char *
node_name (WinnowSession *session,
           const char    *id)
{
  WnProcess *process = winnow_session_get_process (session);
  const WnNode *node = process && id ? wn_process_find_node (process, id) : NULL;

  return node && node->name ? node->name : id ? id : "?";
}

static void
session_notice_cb (WinnowSession *session,
                   const char    *text,
                   WinnowWindow  *self)
{
  _winnow_window_show_toast (self, text);
}

static void
session_alert_cb (WinnowSession  *session,
                  int             kind,
                  guint           count,
                  WinnowEventRow *first,
                  WinnowWindow   *self)
{
  const WnEvent *event = first ? winnow_event_row_get_event (first) : NULL;
  g_autofree char *title = NULL;
  const char *tab = "instances";

  if (kind < 0 || kind > WINNOW_ALERT_FINISHED)
    return;

  if (kind == WINNOW_ALERT_FINISHED)
    {
      WnEngine *engine = winnow_session_get_engine (session);
      g_autofree char *at = wn_time_format_clock (winnow_session_get_now (session));
      WnRunStats stats;

      wn_engine_get_stats (engine, &stats);
      if (stats.incidents > 0)
        {
          /* Translators: the run stopped with instances that an operator can move on */
          title = g_strdup_printf (ngettext ("Stopped at %s: %u instance waits on an incident: retry or resolve it",
                                             "Stopped at %s: %u instances wait on incidents: retry or resolve them",
                                             stats.incidents), at, stats.incidents);
          tab = "incidents";
        }
      else if (stats.active > 0)
        {
          /* Translators: the run stopped with instances that can never progress */
          title = g_strdup_printf (ngettext ("Stopped at %s: %u instance still waits and nothing can move it",
                                             "Stopped at %s: %u instances still wait and nothing can move them",
                                             stats.active), at, stats.active);
          tab = "tracks";
        }
      else
        title = g_strdup_printf (_("Run finished at %s: %u completed, %u terminated"), at,
                                 stats.completed, stats.terminated);
      self->alert_counts[kind] = 1;
    }
  else
    {
      self->alert_counts[kind] += count;
      if (kind == WINNOW_ALERT_REJECTED)
        self->unseen_journal += count;
      else if (kind == WINNOW_ALERT_TERMINATED)
        self->unseen_instances += count;
      count = self->alert_counts[kind];
      switch (kind)
        {
        case WINNOW_ALERT_TERMINATED:
          if (count == 1 && event != NULL)
            /* Translators: "Instance i2 terminated: retries exhausted …" */
            title = g_strdup_printf (_("Instance %s terminated: %s"), event->instance,
                                     event->error ? event->error : _("no reason given"));
          else
            title = g_strdup_printf (ngettext ("%u instance terminated", "%u instances terminated", count), count);
          break;
        case WINNOW_ALERT_INCIDENT:
          if (count == 1 && event != NULL && event->error != NULL)
            /* Translators: "Incident in i2 at Reserve stock: retries exhausted …" */
            title = g_strdup_printf (_("Incident in %s at %s: %s"), event->instance, node_name (session, event->node),
                                     event->error);
          else if (count == 1 && event != NULL)
            /* Translators: "Incident in i2 at Reserve stock" */
            title = g_strdup_printf (_("Incident in %s at %s"), event->instance, node_name (session, event->node));
          else
            title = g_strdup_printf (ngettext ("%u incident raised", "%u incidents raised", count), count);
          tab = "incidents";
          break;
        case WINNOW_ALERT_REJECTED:
        default:
          tab = "journal";
          if (count == 1 && event != NULL)
            /* Translators: "Report on i1/j2 rejected: lock expired" */
            title = g_strdup_printf (_("Report on %s rejected: %s"), event->job ? event->job : "?",
                                     event->error ? event->error : "");
          else
            title = g_strdup_printf (ngettext ("%u report rejected", "%u reports rejected", count), count);
          break;
        }
      self->tab_badges_stale = TRUE;
    }

  /* Shown with the tabs below, on the frame that shows them (tick_cb):
   * a toast covers the tabs, and adding one repaints all it covers. */
  g_free (self->alert_titles[kind]);
  self->alert_titles[kind] = g_steal_pointer (&title);
  self->alert_tabs[kind] = tab;
}

static void
visible_page_cb (AdwViewStack *stack,
                 GParamSpec   *pspec,
                 WinnowWindow *self)
{
  const char *name = adw_view_stack_get_visible_child_name (stack);

  if (g_strcmp0 (name, "instances") == 0)
    self->unseen_instances = 0;
  else if (g_strcmp0 (name, "journal") == 0)
    self->unseen_journal = 0;
  update_tab_badges (self);
  if (g_strcmp0 (name, "timeline") == 0)
    winnow_timeline_page_update (self->timeline);
}

static void
incidents_count_cb (WinnowIncidentsPage *page,
                    GParamSpec          *pspec,
                    WinnowWindow        *self)
{
  adw_view_stack_page_set_needs_attention (self->incidents_page, winnow_panel_get_badge (WINNOW_PANEL (page)) > 0);
}

/* ---- inspector ---- */

static void
update_inspector (WinnowWindow *self)
{
  const WnNode *node = winnow_panel_selected_node (self->session);

  gtk_widget_set_visible (GTK_WIDGET (self->node_filter_button), node != NULL);
  if (node != NULL)
    {
      g_autofree char *chip = NULL;

      /* Translators: the chip that says the lists are filtered to one node */
      chip = g_strdup_printf (_("Only %s"), node->name ? node->name : node->id);
      gtk_label_set_text (self->node_filter_label, chip);
    }
}

static void
selected_node_cb (WinnowSession *session,
                  GParamSpec    *pspec,
                  WinnowWindow  *self)
{
  update_inspector (self);
}

void
_winnow_window_sync_trust_default (WinnowWindow *self)
{
  WnTrust trust = winnow_session_get_trust_default (self->session);

  if (trust == WN_TRUST_UNSET)
    return;
  winnow_run_panel_set_trust_default (winnow_inspector_get_run_panel (self->inspector), trust);
}

/* ---- runs ---- */

static void
set_actions_enabled (WinnowWindow *self)
{
  static const char * const run_actions[] = {
    "play-pause", "step-next", "step-by", "restart", "reload", "start-instance", "zoom-to-fit",
    "open-scenario", "save-session", "export-journal", "add-breakpoint", "add-breakpoint-spec",
  };
  gboolean loaded = winnow_session_is_loaded (self->session);

  for (guint i = 0; i < G_N_ELEMENTS (run_actions); i++)
    {
      GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), run_actions[i]);

      g_simple_action_set_enabled (G_SIMPLE_ACTION (action), loaded);
    }
  /* only an import has a Winnow file to write */
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self), "save-process")),
                               loaded && winnow_session_get_imported_json (self->session) != NULL);
}

static void
session_run_changed_cb (WinnowSession *session,
                        WinnowWindow  *self)
{
  WnProcess *process = winnow_session_get_process (session);
  GFile *file = winnow_session_get_file (session);
  g_autofree char *basename = file ? g_file_get_basename (file) : NULL;
  g_autofree char *title = NULL;
  g_autofree char *tip = NULL;

  update_run_header (self);
  /* the file, and what the process says of itself (x-about) */
  tip = process && process->about ? g_strdup_printf ("%s\n\n%s", basename ? basename : "", process->about)
                                  : g_strdup (basename);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->file_label), tip);
  title = g_strdup_printf ("%s — %s", winnow_session_get_title (session), _("Winnow"));
  gtk_window_set_title (GTK_WINDOW (self), title);

  dismiss_alert_toasts (self);
  for (guint i = 0; i < G_N_ELEMENTS (self->alert_toasts); i++)
    {
      self->alert_counts[i] = 0;
      g_clear_pointer (&self->alert_titles[i], g_free);
    }
  self->toasts_waiting = FALSE;
  self->unseen_instances = 0;
  self->unseen_journal = 0;
  update_tab_badges (self);
  winnow_session_set_selected_job (session, NULL);

  if (winnow_session_get_selected_node (session) != NULL &&
      (process == NULL || wn_process_find_node (process, winnow_session_get_selected_node (session)) == NULL))
    winnow_session_set_selected_node (session, NULL);

  _winnow_window_sync_trust_default (self);
  set_actions_enabled (self);
  update_inspector (self);
  winnow_transport_update (self->transport);
}

static void
session_mode_cb (WinnowSession *session,
                 GParamSpec    *pspec,
                 WinnowWindow  *self)
{
  winnow_transport_update (self->transport);
  winnow_hit_banner_update (self->hit_banner);
  /* A big table goes live as soon as the clock runs, before the run's rows
   * reach it (the tables follow the clock themselves); one that leaves live
   * mode re-sorts every row, on the frame of the views below (tick_cb). */
  if (winnow_session_is_playing (session))
    gtk_widget_set_visible (GTK_WIDGET (self->live_note), tables_live (self));
  else
    self->lower_stale = TRUE;
  _winnow_window_ensure_tick (self);
}

/* ---- breakpoints ---- */

static void
session_hit_cb (WinnowSession  *session,
                guint           id,
                WinnowEventRow *row,
                WinnowWindow   *self)
{
  const WnEvent *event = winnow_event_row_get_event (row);

  /* show what stopped it (the banner says which breakpoint: WinnowHitBanner) */
  if (event->node != NULL)
    winnow_session_set_selected_node (session, event->node);
  if (event->job != NULL)
    winnow_session_set_selected_job (session, event->job);
}


/* ---- input ---- */

static gboolean
key_pressed_cb (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                WinnowWindow          *self)
{
  GtkWidget *focus;

  if (keyval != GDK_KEY_space || (state & gtk_accelerator_get_default_mod_mask ()) != 0)
    return FALSE;
  /* Space types a space in text fields; everywhere else it plays and pauses. */
  focus = gtk_root_get_focus (GTK_ROOT (self));
  if (focus != NULL && (GTK_IS_EDITABLE (focus) || GTK_IS_TEXT_VIEW (focus)))
    return FALSE;
  g_action_group_activate_action (G_ACTION_GROUP (self), "play-pause", NULL);
  return TRUE;
}

static gboolean
close_request_cb (GtkWindow    *window,
                  WinnowWindow *self)
{
  int width, height;

  if (_winnow_window_ask_before_close (self))
    return TRUE;
  if (self->settings == NULL)
    return FALSE;
  gtk_window_get_default_size (window, &width, &height);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
  if (!gtk_window_is_maximized (window))
    {
      g_settings_set_int (self->settings, "window-width", width);
      g_settings_set_int (self->settings, "window-height", height);
    }
  return FALSE;
}


/* ---- setup ---- */

static void
restore_settings (WinnowWindow *self)
{
  if (self->settings != NULL)
    {
      gtk_window_set_default_size (GTK_WINDOW (self),
                                   g_settings_get_int (self->settings, "window-width"),
                                   g_settings_get_int (self->settings, "window-height"));
      if (g_settings_get_boolean (self->settings, "window-maximized"))
        gtk_window_maximize (GTK_WINDOW (self));
      g_settings_bind (self->settings, "main-pane-position", self->main_paned, "position", G_SETTINGS_BIND_DEFAULT);
      g_settings_bind (self->settings, "side-pane-position", self->side_paned, "position", G_SETTINGS_BIND_DEFAULT);
    }
  /* speed, step and default trust are settings-backed actions (winnow-window-actions.c) */
}

/* ---- GObject ---- */

static void
winnow_window_dispose (GObject *object)
{
  WinnowWindow *self = WINNOW_WINDOW (object);

  if (self->tick_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tick_id);
      self->tick_id = 0;
    }
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  _winnow_window_remove_setting_actions (self);
  g_clear_pointer (&self->toasts, winnow_toast_queue_free);

  _winnow_window_stop_loading (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), WINNOW_TYPE_WINDOW);

  g_clear_object (&self->session);
  g_clear_object (&self->settings);
  g_clear_object (&self->recent_menu);

  G_OBJECT_CLASS (winnow_window_parent_class)->dispose (object);
}

static void
winnow_window_finalize (GObject *object)
{
  WinnowWindow *self = WINNOW_WINDOW (object);

  for (guint i = 0; i < G_N_ELEMENTS (self->alert_titles); i++)
    g_clear_pointer (&self->alert_titles[i], g_free);

  G_OBJECT_CLASS (winnow_window_parent_class)->finalize (object);
}


static void
winnow_window_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  WinnowWindow *self = WINNOW_WINDOW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_window_class_init (WinnowWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = winnow_window_dispose;
  object_class->finalize = winnow_window_finalize;
  object_class->get_property = winnow_window_get_property;

  /* what the panels show: bound in the template */
  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, WINNOW_TYPE_SESSION,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (WINNOW_TYPE_TRANSPORT);
  g_type_ensure (WINNOW_TYPE_DIAGRAM_PANE);
  g_type_ensure (WINNOW_TYPE_HIT_BANNER);
  g_type_ensure (WINNOW_TYPE_LOAD_ERRORS);
  g_type_ensure (WINNOW_TYPE_TIMELINE_PAGE);
  g_type_ensure (WINNOW_TYPE_INCIDENTS_PAGE);
  g_type_ensure (WINNOW_TYPE_BREAKPOINTS_PAGE);
  g_type_ensure (WINNOW_TYPE_COMPARE_PAGE);
  g_type_ensure (WINNOW_TYPE_WORKERS_PAGE);
  g_type_ensure (WINNOW_TYPE_SUMMARY_PAGE);
  g_type_ensure (WINNOW_TYPE_TRACKS_PAGE);
  g_type_ensure (WINNOW_TYPE_DISPATCHER_PAGE);
  g_type_ensure (WINNOW_TYPE_INSTANCES_PAGE);
  g_type_ensure (WINNOW_TYPE_JOURNAL_PAGE);
  g_type_ensure (WINNOW_TYPE_INSPECTOR);
  /* GtkBuilder finds a type nobody has used yet by looking up its
   * *_get_type symbol in every loaded library: register the template's own
   * first (the window is built before anything is on screen) */
  g_type_ensure (GTK_TYPE_COLUMN_VIEW);
  g_type_ensure (GTK_TYPE_LIST_VIEW);
  g_type_ensure (GTK_TYPE_STACK_PAGE);
  g_type_ensure (GTK_TYPE_STRING_LIST);
  g_type_ensure (GTK_TYPE_DROP_DOWN);
  g_type_ensure (GTK_TYPE_SEARCH_ENTRY);
  g_type_ensure (GTK_TYPE_REVEALER);
  g_type_ensure (GTK_TYPE_PANED);
  g_type_ensure (GTK_TYPE_MENU_BUTTON);
  g_type_ensure (GTK_TYPE_TEXT_VIEW);
  g_type_ensure (GTK_TYPE_SWITCH);
  g_type_ensure (GTK_TYPE_OVERLAY);
  g_type_ensure (GTK_TYPE_FRAME);
  g_type_ensure (GTK_TYPE_TOGGLE_BUTTON);
  g_type_ensure (ADW_TYPE_ACTION_ROW);
  g_type_ensure (ADW_TYPE_COMBO_ROW);
  g_type_ensure (ADW_TYPE_ENTRY_ROW);
  g_type_ensure (ADW_TYPE_PREFERENCES_GROUP);
  g_type_ensure (ADW_TYPE_STATUS_PAGE);
  g_type_ensure (ADW_TYPE_SPLIT_BUTTON);
  g_type_ensure (ADW_TYPE_VIEW_STACK);
  g_type_ensure (ADW_TYPE_VIEW_STACK_PAGE);
  g_type_ensure (ADW_TYPE_VIEW_SWITCHER);
  g_type_ensure (ADW_TYPE_TOAST_OVERLAY);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "/winnow-window.ui");
#define BIND(name) gtk_widget_class_bind_template_child (widget_class, WinnowWindow, name)
  BIND (toast_overlay);
  BIND (open_button);
  BIND (file_label);
  BIND (transport);
  BIND (primary_menu_button);
  BIND (primary_menu);
  BIND (seed_label);
  BIND (load_errors);
  BIND (main_paned);
  BIND (side_paned);
  BIND (diagram_pane);
  gtk_widget_class_bind_template_child_full (widget_class, "examples_submenu", FALSE,
                                             G_STRUCT_OFFSET (WinnowWindow, examples_menu));
  BIND (inspector);
  BIND (hit_banner);
  BIND (incidents_page);
  BIND (timeline);
  BIND (incidents);
  BIND (breakpoints);
  BIND (live_note);
  BIND (node_filter_button);
  BIND (node_filter_label);
  BIND (view_stack);
  BIND (journal_page);
  BIND (instances_page);
  BIND (tracks);
  BIND (dispatcher);
  BIND (instances);
  BIND (journal);
#undef BIND
}

static void
winnow_window_init (WinnowWindow *self)
{
  GtkEventController *keys;
  gint64 started = g_get_monotonic_time ();

  /* first: the panels' templates bind to it */
  self->session = winnow_session_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  self->toasts = winnow_toast_queue_new (self->toast_overlay);

#if DEVELOPMENT_BUILD
  gtk_widget_add_css_class (GTK_WIDGET (self), "devel");
#endif

  self->settings = create_settings ();
  self->step_delta = WN_USEC_PER_SEC;

  _winnow_window_add_actions (self);
  g_object_bind_property (winnow_inspector_get_fault_panel (self->inspector), "can-inject",
                          g_action_map_lookup_action (G_ACTION_MAP (self), "inject-fault"), "enabled",
                          G_BINDING_SYNC_CREATE);

  /* A menu button builds its popover when it gets its menu: these two wait
   * for their first click, which keeps their widgets out of the first frame. */
  winnow_menu_button_set_menu_lazily (self->primary_menu_button, self->primary_menu);

  /* menus filled at run time */
  self->recent_menu = g_menu_new ();
  adw_split_button_set_menu_model (self->open_button, G_MENU_MODEL (self->recent_menu));

  g_signal_connect_object (self->session, "needs-flush", G_CALLBACK (session_needs_flush_cb), self, 0);
  g_signal_connect_object (self->session, "flushed", G_CALLBACK (session_flushed_cb), self, 0);
  g_signal_connect_object (self->session, "alert", G_CALLBACK (session_alert_cb), self, 0);
  g_signal_connect_object (self->session, "notice", G_CALLBACK (session_notice_cb), self, 0);
  g_signal_connect_object (self->session, "run-changed", G_CALLBACK (session_run_changed_cb), self, 0);
  g_signal_connect_object (self->session, "notify::mode", G_CALLBACK (session_mode_cb), self, 0);
  g_signal_connect_object (self->session, "notify::selected-node", G_CALLBACK (selected_node_cb), self, 0);
  g_signal_connect_object (self->session, "breakpoint-hit", G_CALLBACK (session_hit_cb), self, 0);

  g_signal_connect (self->view_stack, "notify::visible-child-name", G_CALLBACK (visible_page_cb), self);
  g_signal_connect (self->incidents, "notify::badge", G_CALLBACK (incidents_count_cb), self);

  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (key_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);

  _winnow_window_setup_drop (self);

  g_signal_connect (self, "close-request", G_CALLBACK (close_request_cb), self);

  restore_settings (self);
  _winnow_window_rebuild_recent_menu (self);
  _winnow_window_populate_examples (self);
  set_actions_enabled (self);
  update_inspector (self);
  winnow_transport_update (self->transport);
  g_debug ("window built in %" G_GINT64_FORMAT " µs", g_get_monotonic_time () - started);
}

WinnowWindow *
winnow_window_new (GtkApplication *application)
{
  return g_object_new (WINNOW_TYPE_WINDOW, "application", application, NULL);
}

WinnowSession *
winnow_window_get_session (WinnowWindow *self)
{
  g_return_val_if_fail (WINNOW_IS_WINDOW (self), NULL);
  return self->session;
}

void
winnow_window_set_instances (WinnowWindow *self,
                             guint         instances)
{
  g_return_if_fail (WINNOW_IS_WINDOW (self));
  self->instances_option = instances;
}

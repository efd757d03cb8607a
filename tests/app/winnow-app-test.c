/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "winnow-app-test.h"
#include "winnow-event-row.h"

gboolean
winnow_test_ignore_bus_warning (const char     *log_domain,
                                GLogLevelFlags  log_level,
                                const char     *message,
                                gpointer        data)
{
  return strstr (message, "session bus") == NULL;
}

char *
winnow_test_example_path (const char *name)
{
  return g_build_filename (g_getenv ("WINNOW_EXAMPLES_DIR"), name, NULL);
}

void
winnow_test_drain (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

void
winnow_test_wait_for_flush (WinnowSession *session)
{
  gint64 deadline = g_get_monotonic_time () + WINNOW_TEST_WAIT_US;

  while (winnow_session_has_pending (session))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, FALSE);
      g_usleep (200);
    }
  /* and let the views bind what changed */
  winnow_test_drain ();
}

void
winnow_test_activate (WinnowWindow *window,
                      const char   *action,
                      GVariant     *param)
{
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (window), action));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), action));
  g_action_group_activate_action (G_ACTION_GROUP (window), action, param);
  winnow_test_wait_for_flush (winnow_window_get_session (window));
}

void
winnow_test_settle (GtkWidget *window)
{
  gint64 until = g_get_monotonic_time () + G_USEC_PER_SEC / 2;

  while (g_get_monotonic_time () < until || gtk_widget_get_width (window) == 0)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

GtkWidget *
winnow_test_find_named (GtkWidget  *root,
                        const char *name)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (g_strcmp0 (gtk_widget_get_name (child), name) == 0)
        return child;
      if ((found = winnow_test_find_named (child, name)) != NULL)
        return found;
    }
  return NULL;
}

const WnEvent *
winnow_test_find_event (WinnowSession *session,
                        WnEventKind    kind,
                        WnEventPhase   phase,
                        const char    *job,
                        const char    *instance)
{
  GListModel *events = winnow_session_get_events (session);
  guint n = g_list_model_get_n_items (events);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(WinnowEventRow) row = g_list_model_get_item (events, i);
      const WnEvent *event = winnow_event_row_get_event (row);

      if (event->kind == kind && event->phase == phase &&
          (job == NULL || g_strcmp0 (event->job, job) == 0) &&
          (instance == NULL || g_strcmp0 (event->instance, instance) == 0))
        {
          GPtrArray *kept = g_object_get_data (G_OBJECT (session), "winnow-test-rows");

          if (kept == NULL)
            {
              kept = g_ptr_array_new_with_free_func (g_object_unref);
              g_object_set_data_full (G_OBJECT (session), "winnow-test-rows", kept,
                                      (GDestroyNotify) g_ptr_array_unref);
            }
          g_ptr_array_add (kept, g_steal_pointer (&row));
          return event;
        }
    }
  return NULL;
}

void
winnow_test_save_screenshot (GtkWidget  *widget,
                             const char *name)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot;
  g_autoptr(GskRenderNode) node = NULL;
  gint64 deadline = g_get_monotonic_time () + WINNOW_TEST_WAIT_US;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *path = NULL;
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);

  g_assert_cmpint (width, >, 0);
  g_assert_cmpint (height, >, 0);
  /* a widget waiting for its next layout draws nothing: wait for the frame */
  for (;;)
    {
      snapshot = gtk_snapshot_new ();
      gdk_paintable_snapshot (paintable, snapshot, width, height);
      node = gtk_snapshot_free_to_node (snapshot);
      if (node != NULL)
        break;
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  path = g_build_filename (g_getenv ("G_TEST_BUILDDIR") ? g_getenv ("G_TEST_BUILDDIR") : ".", name, NULL);
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("screenshot: %s", path);
}

GtkWidget *
winnow_test_find_type (GtkWidget *root,
                       GType      type)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (G_TYPE_CHECK_INSTANCE_TYPE (child, type))
        return child;
      if ((found = winnow_test_find_type (child, type)) != NULL)
        return found;
    }
  return NULL;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-toast-queue.c — the window's toasts, in the overlay's own order.
 *
 * libadwaita 1.2's toast overlay shows one toast at a time; the others wait
 * in a queue (first in, first out: all of ours have normal priority). A
 * toast that goes on show while the one before it still hides gets a long
 * show animation (500 ms, against 300 ms to hide). Dismissed before 200 ms of
 * that, its hide ends first and frees it; the end of the show animation then
 * touches the freed toast and crashes (1.2.x has no fix). That happens when
 * a new run takes the old run's alert toast away just after the alert took
 * over from another toast (the user closed it, or its time ran out).
 *
 * So the window adds and dismisses its toasts here. The queue mirrors the
 * overlay's: its head is the toast on show, and it remembers the frame time
 * that toast went on show at (the time its show animation starts from). A
 * toast dismissed while it waits goes at once (no animation); the one on
 * show goes at once when its show animation is over, else on the first
 * frame after it. */
#include "config.h"

#include "winnow-toast-queue.h"

/* libadwaita 1.2's longest show animation (REPLACE_DURATION), in µs */
#define SHOW_ANIMATION_US (500 * G_TIME_SPAN_MILLISECOND)

struct _WinnowToastQueue
{
  AdwToastOverlay *overlay;     /* unowned: the window's, outlives this */
  GQueue           toasts;      /* AdwToast (owned), the one on show first */
  gint64           shown_at;    /* frame time the head went on show at */
  AdwToast        *doomed;      /* the head, dismissed during its show animation */
  guint            tick_id;
};

/* The overlay's frame time, as its animations read it; 0 while it has no
 * frame clock (then its animations are skipped: nothing to wait for). */
static gint64
frame_time (WinnowToastQueue *self)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self->overlay));

  return clock != NULL ? gdk_frame_clock_get_frame_time (clock) : 0;
}

static gboolean
show_animation_over (WinnowToastQueue *self)
{
  gint64 now = frame_time (self);

  return now == 0 || now - self->shown_at >= SHOW_ANIMATION_US;
}

static void
stop_waiting (WinnowToastQueue *self)
{
  self->doomed = NULL;
  if (self->tick_id != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self->overlay), self->tick_id);
  self->tick_id = 0;
}

static void
toast_dismissed_cb (AdwToast         *toast,
                    WinnowToastQueue *self)
{
  gboolean was_head = g_queue_peek_head (&self->toasts) == toast;

  if (!g_queue_remove (&self->toasts, toast))
    return;
  if (toast == self->doomed)
    stop_waiting (self);
  if (was_head)
    self->shown_at = frame_time (self);   /* the next one (if any) shows now */
  g_signal_handlers_disconnect_by_data (toast, self);
  g_object_unref (toast);
}

static gboolean
doomed_tick_cb (GtkWidget     *widget,
                GdkFrameClock *clock,
                gpointer       data)
{
  WinnowToastQueue *self = data;
  AdwToast *toast = self->doomed;

  if (!show_animation_over (self))
    return G_SOURCE_CONTINUE;
  self->tick_id = 0;
  self->doomed = NULL;
  adw_toast_dismiss (toast);
  return G_SOURCE_REMOVE;
}

WinnowToastQueue *
winnow_toast_queue_new (AdwToastOverlay *overlay)
{
  WinnowToastQueue *self = g_new0 (WinnowToastQueue, 1);

  g_return_val_if_fail (ADW_IS_TOAST_OVERLAY (overlay), NULL);
  self->overlay = overlay;
  g_queue_init (&self->toasts);
  return self;
}

void
winnow_toast_queue_free (WinnowToastQueue *self)
{
  AdwToast *toast;

  if (self == NULL)
    return;
  stop_waiting (self);
  while ((toast = g_queue_pop_head (&self->toasts)) != NULL)
    {
      g_signal_handlers_disconnect_by_data (toast, self);
      g_object_unref (toast);
    }
  g_free (self);
}

void
winnow_toast_queue_add (WinnowToastQueue *self,
                        AdwToast         *toast)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (ADW_IS_TOAST (toast));
  g_return_if_fail (adw_toast_get_priority (toast) == ADW_TOAST_PRIORITY_NORMAL);

  if (g_queue_is_empty (&self->toasts))
    self->shown_at = frame_time (self);
  g_queue_push_tail (&self->toasts, toast);   /* the overlay takes its own reference */
  g_signal_connect (toast, "dismissed", G_CALLBACK (toast_dismissed_cb), self);
  adw_toast_overlay_add_toast (self->overlay, g_object_ref (toast));
}

void
winnow_toast_queue_dismiss (WinnowToastQueue *self,
                            AdwToast         *toast)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (ADW_IS_TOAST (toast));

  if (toast == self->doomed)
    return;
  if (g_queue_peek_head (&self->toasts) != toast || show_animation_over (self))
    {
      adw_toast_dismiss (toast);
      return;
    }
  /* only one toast is on show at a time */
  g_return_if_fail (self->doomed == NULL);
  self->doomed = toast;
  self->tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self->overlay), doomed_tick_cb, self, NULL);
}

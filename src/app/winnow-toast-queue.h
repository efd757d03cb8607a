/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-toast-queue.h — the window's toasts, added and taken away through
 * one place that knows which of them is on show, and since when. */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

typedef struct _WinnowToastQueue WinnowToastQueue;

WinnowToastQueue *winnow_toast_queue_new     (AdwToastOverlay *overlay);
void              winnow_toast_queue_free    (WinnowToastQueue *self);
/* Show `toast` (transfer full) after the ones shown or waiting. */
void              winnow_toast_queue_add     (WinnowToastQueue *self, AdwToast *toast);
/* Take `toast` away: at once, unless it has only just gone on show (see the
 * .c file); then as soon as that is safe. */
void              winnow_toast_queue_dismiss (WinnowToastQueue *self, AdwToast *toast);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WinnowToastQueue, winnow_toast_queue_free)

G_END_DECLS

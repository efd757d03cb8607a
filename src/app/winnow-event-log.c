/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "winnow-event-log.h"
#include "winnow-event-row.h"

struct _WinnowEventLog
{
  GObject        parent_instance;

  WinnowJournal *journal;
  guint          max;
  guint          first;   /* journal index of the first row */
  guint          end;     /* journal index past the last row */
  guint          cut;     /* the journal was cut back to this many events since the last sync; G_MAXUINT: not */
};

static GType
event_log_get_item_type (GListModel *model)
{
  return WINNOW_TYPE_EVENT_ROW;
}

static guint
event_log_get_n_items (GListModel *model)
{
  WinnowEventLog *self = WINNOW_EVENT_LOG (model);

  return self->end - self->first;
}

static gpointer
event_log_get_item (GListModel *model,
                    guint       position)
{
  WinnowEventLog *self = WINNOW_EVENT_LOG (model);

  if (position >= self->end - self->first)
    return NULL;
  return winnow_event_row_new_for_journal (self->journal, self->first + position);
}

static void
event_log_model_init (GListModelInterface *iface)
{
  iface->get_item_type = event_log_get_item_type;
  iface->get_n_items = event_log_get_n_items;
  iface->get_item = event_log_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (WinnowEventLog, winnow_event_log, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, event_log_model_init))

static void
winnow_event_log_finalize (GObject *object)
{
  g_clear_pointer (&WINNOW_EVENT_LOG (object)->journal, winnow_journal_unref);
  G_OBJECT_CLASS (winnow_event_log_parent_class)->finalize (object);
}

static void
winnow_event_log_class_init (WinnowEventLogClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = winnow_event_log_finalize;
}

static void
winnow_event_log_init (WinnowEventLog *self)
{
}

WinnowEventLog *
winnow_event_log_new (guint max)
{
  WinnowEventLog *self = g_object_new (WINNOW_TYPE_EVENT_LOG, NULL);

  self->max = MAX (max, 1);
  self->cut = G_MAXUINT;
  self->journal = winnow_journal_new ();
  return self;
}

void
winnow_event_log_set_journal (WinnowEventLog *self,
                              WinnowJournal  *journal)
{
  guint n;

  g_return_if_fail (WINNOW_IS_EVENT_LOG (self));
  g_return_if_fail (journal != NULL);

  n = self->end - self->first;
  winnow_journal_ref (journal);
  g_clear_pointer (&self->journal, winnow_journal_unref);
  self->journal = journal;
  self->first = self->end = 0;
  self->cut = G_MAXUINT;
  if (n > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, n, 0);
}

WinnowJournal *
winnow_event_log_get_journal (WinnowEventLog *self)
{
  g_return_val_if_fail (WINNOW_IS_EVENT_LOG (self), NULL);
  return self->journal;
}

void
winnow_event_log_truncate (WinnowEventLog *self,
                           guint           n_events)
{
  g_return_if_fail (WINNOW_IS_EVENT_LOG (self));

  winnow_journal_truncate (self->journal, n_events);
  self->cut = MIN (self->cut, n_events);
}

/* The journal was cut back to `cut` events since the last sync (and may have
 * grown again to `n`): the log shows the newest `max` of them, as a journal
 * that only ever had those events would; one items-changed for the rows that
 * differ. */
static void
sync_cut (WinnowEventLog *self,
          guint           cut,
          guint           n)
{
  guint first = n > self->max ? n - self->max : 0;
  guint old_n = self->end - self->first;

  if (first == self->first)
    {
      /* the same first row: the rows up to the cut stay */
      guint kept = cut - first;

      self->end = n;
      if (old_n - kept > 0 || n - first - kept > 0)
        g_list_model_items_changed (G_LIST_MODEL (self), kept, old_n - kept, n - first - kept);
      return;
    }
  self->first = first;
  self->end = n;
  g_list_model_items_changed (G_LIST_MODEL (self), 0, old_n, n - first);
}

guint
winnow_event_log_sync (WinnowEventLog *self)
{
  guint n, first, position, old_end, cut;

  g_return_val_if_fail (WINNOW_IS_EVENT_LOG (self), 0);

  n = winnow_journal_get_n_events (self->journal);
  cut = MIN (self->cut, n);
  self->cut = G_MAXUINT;
  if (cut < self->end)
    {
      guint grown = n > cut ? n - cut : 0;

      /* the rows past the cut are no longer the journal's; before the
       * first row: none of them is */
      sync_cut (self, MAX (cut, self->first), n);
      return grown;
    }
  if (n == self->end)
    return 0;
  old_end = self->end;
  /* the oldest rows leave first, so no listener ever sees more than max */
  first = n > self->max ? MAX (self->first, n - self->max) : self->first;
  if (first > self->first)
    {
      guint drop = MIN (first, self->end) - self->first;

      self->first += drop;
      if (drop > 0)
        g_list_model_items_changed (G_LIST_MODEL (self), 0, drop, 0);
      /* events that came and went between two syncs never show */
      self->first = first;
      self->end = MAX (self->end, first);
    }
  position = self->end - self->first;
  self->end = n;
  g_list_model_items_changed (G_LIST_MODEL (self), position, 0, n - (self->first + position));
  return n - old_end;
}

gboolean
winnow_event_log_has_pending (WinnowEventLog *self)
{
  g_return_val_if_fail (WINNOW_IS_EVENT_LOG (self), FALSE);
  return winnow_journal_get_n_events (self->journal) != self->end || self->cut < self->end;
}

guint
winnow_event_log_get_n_dropped (WinnowEventLog *self)
{
  g_return_val_if_fail (WINNOW_IS_EVENT_LOG (self), 0);
  return self->first;
}

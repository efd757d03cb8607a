/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "winnow-slot-list.h"

/* One held slot: the display row at `position` and the row it shows. */
typedef struct {
  WinnowSlotList *list;
  guint           position;
  GObject        *display;   /* weak: held by whoever asked for it */
  GObject        *source;    /* owned */
  gulong          handler;   /* the source's notify */
} Slot;

struct _WinnowSlotList
{
  GObject           parent_instance;

  GListModel       *model;
  WinnowAssignFunc  assign;
  GType             item_type;
  GPtrArray        *slots;     /* Slot* or NULL, one per position told */
  guint             n_slots;   /* non-NULL entries */
  guint             n_model;   /* the model's count (slots->len: what the list told) */
  guint             pace;      /* at most this many rows told at once; 0: all */
  gboolean          changing;  /* taking on a change of the model */
};

enum {
  SIGNAL_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static GType
slot_list_get_item_type (GListModel *model)
{
  return WINNOW_SLOT_LIST (model)->item_type;
}

static guint
slot_list_get_n_items (GListModel *model)
{
  return WINNOW_SLOT_LIST (model)->slots->len;
}

static void
source_notify_cb (GObject    *source,
                  GParamSpec *pspec,
                  Slot       *slot)
{
  slot->list->assign (slot->display, source);
}

/* The slot shows `source` (a new reference, taken over) from now on. */
static void
slot_show (Slot    *slot,
           GObject *source)
{
  if (slot->source == source)
    {
      g_object_unref (source);
      return;
    }
  if (slot->source != NULL)
    {
      g_clear_signal_handler (&slot->handler, slot->source);
      g_object_unref (slot->source);
    }
  slot->source = source;
  slot->list->assign (slot->display, source);
  slot->handler = g_signal_connect (source, "notify", G_CALLBACK (source_notify_cb), slot);
}

static void
slot_free (Slot *slot)
{
  if (slot->source != NULL)
    {
      g_clear_signal_handler (&slot->handler, slot->source);
      g_object_unref (slot->source);
    }
  g_free (slot);
}

/* The display row's last holder let it go. */
static void
display_gone_cb (gpointer  data,
                 GObject  *where_it_was)
{
  Slot *slot = data;

  g_ptr_array_index (slot->list->slots, slot->position) = NULL;
  slot->list->n_slots--;
  slot_free (slot);
}

/* The slot leaves the list; its display row stays with its holders, as it
 * last was. */
static void
slot_detach (Slot *slot)
{
  g_object_weak_unref (slot->display, display_gone_cb, slot);
  g_ptr_array_index (slot->list->slots, slot->position) = NULL;
  slot->list->n_slots--;
  slot_free (slot);
}

static gpointer
slot_list_get_item (GListModel *model,
                    guint       position)
{
  WinnowSlotList *self = WINNOW_SLOT_LIST (model);
  Slot *slot;
  GObject *source;

  if (position >= self->slots->len)
    return NULL;
  slot = g_ptr_array_index (self->slots, position);
  if (slot != NULL)
    return g_object_ref (slot->display);

  source = g_list_model_get_item (self->model, position);
  if (source == NULL)
    return NULL;   /* the model is ahead of what it told: it tells next */
  slot = g_new0 (Slot, 1);
  slot->list = self;
  slot->position = position;
  slot->display = g_object_new (self->item_type, NULL);
  slot_show (slot, source);
  g_object_weak_ref (slot->display, display_gone_cb, slot);
  g_ptr_array_index (self->slots, position) = slot;
  self->n_slots++;
  return slot->display;   /* the caller's reference; the list's is weak */
}

static void
slot_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = slot_list_get_item_type;
  iface->get_n_items = slot_list_get_n_items;
  iface->get_item = slot_list_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (WinnowSlotList, winnow_slot_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, slot_list_model_init))

/* Tell `n` positions from now on (more, or fewer, than before). */
static void
tell_count (WinnowSlotList *self,
            guint           n)
{
  guint n_old = self->slots->len;

  for (guint i = n; i < n_old && self->n_slots > 0; i++)
    {
      Slot *slot = g_ptr_array_index (self->slots, i);

      if (slot != NULL)
        slot_detach (slot);
    }
  g_ptr_array_set_size (self->slots, n);
  if (n > n_old)
    g_list_model_items_changed (G_LIST_MODEL (self), n_old, 0, n - n_old);
  else if (n < n_old)
    g_list_model_items_changed (G_LIST_MODEL (self), n, n_old - n, 0);
}

/* How many positions to tell now that the model has `n_model`. */
static guint
count_to_tell (WinnowSlotList *self)
{
  guint told = self->slots->len;

  if (self->n_model <= told || self->pace == 0)
    return self->n_model;
  return MIN (self->n_model, told + self->pace);
}

/* The held slots from `position` to `end` take on the model's rows there;
 * the ones past its new end leave; the views hear of the count alone. */
static void
take_on (WinnowSlotList *self,
         guint           position,
         guint           end)
{
  self->changing = TRUE;
  for (guint i = position; i < end && self->n_slots > 0; i++)
    {
      Slot *slot = g_ptr_array_index (self->slots, i);
      GObject *source;

      if (slot == NULL)
        continue;
      source = g_list_model_get_item (self->model, i);
      if (source != NULL)
        {
          g_object_ref (slot->display);   /* a cell's notify might let the last holder go */
          slot_show (slot, source);
          g_object_unref (slot->display);
        }
    }
  tell_count (self, count_to_tell (self));
  self->changing = FALSE;
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

static void
model_items_changed_cb (GListModel     *model,
                        guint           position,
                        guint           removed,
                        guint           added,
                        WinnowSlotList *self)
{
  self->n_model = self->n_model - removed + added;
  /* an equal exchange moves nothing after it */
  take_on (self, position, MIN (self->slots->len, removed == added ? position + added : self->n_model));
}

static void
winnow_slot_list_dispose (GObject *object)
{
  WinnowSlotList *self = WINNOW_SLOT_LIST (object);

  for (guint i = 0; self->slots != NULL && i < self->slots->len && self->n_slots > 0; i++)
    {
      Slot *slot = g_ptr_array_index (self->slots, i);

      if (slot != NULL)
        slot_detach (slot);
    }
  if (self->model != NULL)
    g_signal_handlers_disconnect_by_data (self->model, self);
  g_clear_object (&self->model);
  G_OBJECT_CLASS (winnow_slot_list_parent_class)->dispose (object);
}

static void
winnow_slot_list_finalize (GObject *object)
{
  WinnowSlotList *self = WINNOW_SLOT_LIST (object);

  g_clear_pointer (&self->slots, g_ptr_array_unref);
  G_OBJECT_CLASS (winnow_slot_list_parent_class)->finalize (object);
}

static void
winnow_slot_list_class_init (WinnowSlotListClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = winnow_slot_list_dispose;
  G_OBJECT_CLASS (klass)->finalize = winnow_slot_list_finalize;

  /* The slots took on a change of the model (its items-changed, if any,
   * was told before). */
  signals[SIGNAL_CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
winnow_slot_list_init (WinnowSlotList *self)
{
  self->slots = g_ptr_array_new ();
}

WinnowSlotList *
winnow_slot_list_new (GListModel       *model,
                      GType             item_type,
                      WinnowAssignFunc  assign)
{
  WinnowSlotList *self;

  g_return_val_if_fail (G_IS_LIST_MODEL (model), NULL);
  g_return_val_if_fail (g_type_is_a (item_type, G_TYPE_OBJECT), NULL);
  g_return_val_if_fail (assign != NULL, NULL);

  self = g_object_new (WINNOW_TYPE_SLOT_LIST, NULL);
  self->model = g_object_ref (model);
  self->assign = assign;
  self->item_type = item_type;
  self->n_model = g_list_model_get_n_items (model);
  g_ptr_array_set_size (self->slots, self->n_model);
  g_signal_connect (model, "items-changed", G_CALLBACK (model_items_changed_cb), self);
  return self;
}

void
winnow_slot_list_set_model (WinnowSlotList *self,
                            GListModel     *model)
{
  g_return_if_fail (WINNOW_IS_SLOT_LIST (self));
  g_return_if_fail (G_IS_LIST_MODEL (model));

  if (model == self->model)
    return;
  g_signal_handlers_disconnect_by_data (self->model, self);
  g_set_object (&self->model, model);
  g_signal_connect (model, "items-changed", G_CALLBACK (model_items_changed_cb), self);
  self->n_model = g_list_model_get_n_items (model);
  take_on (self, 0, MIN (self->slots->len, self->n_model));
}

gpointer
winnow_slot_list_get_source (WinnowSlotList *self,
                             guint           position)
{
  Slot *slot;

  g_return_val_if_fail (WINNOW_IS_SLOT_LIST (self), NULL);

  if (position >= self->n_model)
    return NULL;
  slot = position < self->slots->len ? g_ptr_array_index (self->slots, position) : NULL;
  if (slot != NULL)
    return g_object_ref (slot->source);
  return g_list_model_get_item (self->model, position);
}

guint
winnow_slot_list_find (WinnowSlotList *self,
                       gpointer        row)
{
  g_return_val_if_fail (WINNOW_IS_SLOT_LIST (self), G_MAXUINT);

  for (guint i = 0; row != NULL && i < self->n_model; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (self->model, i);

      if ((gpointer) item == row)
        return i;
    }
  return G_MAXUINT;
}

void
winnow_slot_list_set_pace (WinnowSlotList *self,
                           guint           rows)
{
  g_return_if_fail (WINNOW_IS_SLOT_LIST (self));

  self->pace = rows;
  if (rows == 0 && self->slots->len < self->n_model)
    tell_count (self, self->n_model);
}

gboolean
winnow_slot_list_is_behind (WinnowSlotList *self)
{
  g_return_val_if_fail (WINNOW_IS_SLOT_LIST (self), FALSE);
  return self->slots->len < self->n_model;
}

void
winnow_slot_list_catch_up (WinnowSlotList *self,
                           guint           position)
{
  guint n;

  g_return_if_fail (WINNOW_IS_SLOT_LIST (self));

  n = count_to_tell (self);
  if (position != G_MAXUINT && position < self->n_model)
    n = MAX (n, position + 1);
  if (n > self->slots->len)
    tell_count (self, n);
}

gboolean
winnow_slot_list_is_changing (WinnowSlotList *self)
{
  g_return_val_if_fail (WINNOW_IS_SLOT_LIST (self), FALSE);
  return self->changing;
}

guint
winnow_slot_list_get_n_slots (WinnowSlotList *self)
{
  g_return_val_if_fail (WINNOW_IS_SLOT_LIST (self), 0);
  return self->n_slots;
}

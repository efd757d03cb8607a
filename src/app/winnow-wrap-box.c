/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-wrap-box.c — children left to right at their natural widths (no
 * wider than the box), a new line when the next one does not fit; the
 * children of a line that expand share what the line leaves. Its minimum
 * width is its widest child's minimum, so it never sets a window's. */
#include "config.h"

#include "winnow-wrap-box.h"

struct _WinnowWrapBox
{
  GtkWidget parent_instance;
  int       spacing;      /* between children and between lines */
};

enum {
  PROP_0,
  PROP_SPACING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void winnow_wrap_box_buildable_init (GtkBuildableIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (WinnowWrapBox, winnow_wrap_box, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_BUILDABLE, winnow_wrap_box_buildable_init))

static GtkBuildableIface *parent_buildable_iface;

/* A child's width in a box `width` wide: its natural one, no less than its
 * minimum, no more than the box. */
static int
child_width (GtkWidget *child,
             int        width)
{
  int min = 0, nat = 0;

  gtk_widget_measure (child, GTK_ORIENTATION_HORIZONTAL, -1, &min, &nat, NULL, NULL);
  return MAX (min, width >= 0 ? MIN (nat, width) : nat);
}

/* Lay the children out in `width` (allocating them when `allocate`);
 * returns the height that takes. */
static int
flow (WinnowWrapBox *self,
      int            width,
      gboolean       allocate)
{
  GtkWidget *first = gtk_widget_get_first_child (GTK_WIDGET (self));
  int y = 0;

  while (first != NULL)
    {
      GtkWidget *end = first;
      int used = 0, line_height = 0, n = 0, expanding = 0, x = 0, extra, share_left;

      /* one line: as many as fit (at least one) */
      for (GtkWidget *c = first; c != NULL; c = gtk_widget_get_next_sibling (c))
        {
          int w;

          end = gtk_widget_get_next_sibling (c);
          if (!gtk_widget_should_layout (c))
            continue;
          w = child_width (c, width);
          if (n > 0 && width >= 0 && used + self->spacing + w > width)
            {
              end = c;
              break;
            }
          used += (n > 0 ? self->spacing : 0) + w;
          n++;
          if (gtk_widget_compute_expand (c, GTK_ORIENTATION_HORIZONTAL))
            expanding++;
        }
      extra = width >= 0 && used < width ? width - used : 0;
      for (GtkWidget *c = first; c != end; c = gtk_widget_get_next_sibling (c))
        {
          int h = 0;

          if (!gtk_widget_should_layout (c))
            continue;
          gtk_widget_measure (c, GTK_ORIENTATION_VERTICAL, child_width (c, width), NULL, &h, NULL, NULL);
          line_height = MAX (line_height, h);
        }
      if (allocate)
        {
          share_left = expanding;
          for (GtkWidget *c = first; c != end; c = gtk_widget_get_next_sibling (c))
            {
              int w;

              if (!gtk_widget_should_layout (c))
                continue;
              w = child_width (c, width);
              if (expanding > 0 && gtk_widget_compute_expand (c, GTK_ORIENTATION_HORIZONTAL))
                {
                  int share = extra / share_left;

                  w += share;
                  extra -= share;
                  share_left--;
                }
              gtk_widget_size_allocate (c, &(GtkAllocation) { x, y, w, line_height }, -1);
              x += w + self->spacing;
            }
        }
      y += line_height + (end != NULL ? self->spacing : 0);
      first = end;
    }
  return y;
}

static GtkSizeRequestMode
winnow_wrap_box_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
winnow_wrap_box_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  WinnowWrapBox *self = WINNOW_WRAP_BOX (widget);

  *minimum = *natural = 0;
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      int n = 0;

      for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
        {
          int min = 0, nat = 0;

          if (!gtk_widget_should_layout (c))
            continue;
          gtk_widget_measure (c, GTK_ORIENTATION_HORIZONTAL, -1, &min, &nat, NULL, NULL);
          *minimum = MAX (*minimum, min);
          *natural += nat + (n++ > 0 ? self->spacing : 0);
        }
    }
  else
    *minimum = *natural = flow (self, for_size, FALSE);
}

static void
winnow_wrap_box_size_allocate (GtkWidget *widget,
                               int        width,
                               int        height,
                               int        baseline)
{
  flow (WINNOW_WRAP_BOX (widget), width, TRUE);
}

static void
winnow_wrap_box_dispose (GObject *object)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (winnow_wrap_box_parent_class)->dispose (object);
}

static void
winnow_wrap_box_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_SPACING:
      g_value_set_int (value, WINNOW_WRAP_BOX (object)->spacing);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_wrap_box_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  WinnowWrapBox *self = WINNOW_WRAP_BOX (object);

  switch (prop_id)
    {
    case PROP_SPACING:
      if (self->spacing != g_value_get_int (value))
        {
          self->spacing = g_value_get_int (value);
          gtk_widget_queue_resize (GTK_WIDGET (self));
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_wrap_box_add_child (GtkBuildable *buildable,
                           GtkBuilder   *builder,
                           GObject      *child,
                           const char   *type)
{
  if (GTK_IS_WIDGET (child))
    winnow_wrap_box_append (WINNOW_WRAP_BOX (buildable), GTK_WIDGET (child));
  else
    parent_buildable_iface->add_child (buildable, builder, child, type);
}

static void
winnow_wrap_box_buildable_init (GtkBuildableIface *iface)
{
  parent_buildable_iface = g_type_interface_peek_parent (iface);
  iface->add_child = winnow_wrap_box_add_child;
}

static void
winnow_wrap_box_class_init (WinnowWrapBoxClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = winnow_wrap_box_dispose;
  object_class->get_property = winnow_wrap_box_get_property;
  object_class->set_property = winnow_wrap_box_set_property;
  widget_class->get_request_mode = winnow_wrap_box_get_request_mode;
  widget_class->measure = winnow_wrap_box_measure;
  widget_class->size_allocate = winnow_wrap_box_size_allocate;

  properties[PROP_SPACING] =
    g_param_spec_int ("spacing", NULL, NULL, 0, G_MAXINT16, 0,
                      G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  gtk_widget_class_set_css_name (widget_class, "wrapbox");
}

static void
winnow_wrap_box_init (WinnowWrapBox *self)
{
}

GtkWidget *
winnow_wrap_box_new (int spacing)
{
  return g_object_new (WINNOW_TYPE_WRAP_BOX, "spacing", spacing, NULL);
}

void
winnow_wrap_box_append (WinnowWrapBox *self,
                        GtkWidget     *child)
{
  g_return_if_fail (WINNOW_IS_WRAP_BOX (self));
  g_return_if_fail (GTK_IS_WIDGET (child));

  gtk_widget_insert_before (child, GTK_WIDGET (self), NULL);
}

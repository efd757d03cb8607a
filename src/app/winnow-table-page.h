/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-table-page.h — the base of the tabs that are one filtered table of
 * the session's rows (Tracks, Dispatcher, Instances): the table, the stack
 * that shows it or the status page saying why it is empty, the filter that
 * runs only while the page has something to filter, and the search text. */
#pragma once

#include "winnow-panel.h"
#include "winnow-table-view.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_TABLE_PAGE (winnow_table_page_get_type ())
G_DECLARE_DERIVABLE_TYPE (WinnowTablePage, winnow_table_page, WINNOW, TABLE_PAGE, WinnowPanel)

struct _WinnowTablePageClass
{
  WinnowPanelClass parent_class;

  /* The session's rows the table shows (required). */
  GListModel *(*rows)         (WinnowTablePage *self,
                               WinnowSession   *session);
  /* Whether a filter is set; only then is match() asked about each row. */
  gboolean    (*filtering)    (WinnowTablePage *self);
  gboolean    (*match)        (WinnowTablePage *self,
                               gpointer         row);
  /* After every change (and each new run): say why nothing shows (winnow_table_page_set_empty)
   * and count; `n_shown` of the `n_rows` rows pass the filter. */
  void        (*update_empty) (WinnowTablePage *self,
                               guint            n_shown,
                               guint            n_rows);
  /* The user selected `row` (not while the live table follows its newest
   * rows). May be NULL: nothing happens on a selection. */
  void        (*row_selected) (WinnowTablePage *self,
                               gpointer         row);
  /* On the frame that shows the tabs, before the table follows its rows
   * (winnow_table_page_update). May be NULL. */
  void        (*update)       (WinnowTablePage *self);

  gpointer padding[4];
};

/* In class_init: the class's template (its "stack" holds the pages "list",
 * with the WinnowTableView "table", and "empty", the AdwStatusPage "empty";
 * a search entry may name "search_changed_cb" for its "search-changed"), and
 * what the table shows: WinnowRows of `row_type` in `columns` (static
 * data), copied onto display rows by winnow_row_assign_from(). The page's
 * init calls gtk_widget_init_template(). */
void             winnow_table_page_class_set_table (WinnowTablePageClass   *klass,
                                                    const char             *resource,
                                                    GType                   row_type,
                                                    const WinnowColumnSpec *columns,
                                                    guint                   n_columns);

WinnowLiveTable *winnow_table_page_get_table      (WinnowTablePage *self);
/* The search entry's text, casefolded (NULL: empty). */
const char      *winnow_table_page_get_needle     (WinnowTablePage *self);
/* The page's filters changed: the filter runs (or stops) and the empty
 * state and counts follow. */
void             winnow_table_page_refilter       (WinnowTablePage *self);
/* The rows moved under the page's filters: they are matched anew. */
void             winnow_table_page_rows_changed   (WinnowTablePage *self);
void             winnow_table_page_set_empty      (WinnowTablePage *self,
                                                   const char      *title,
                                                   const char      *description);
/* The empty state and counts follow the rows (from a session's signal). */
void             winnow_table_page_update_empty   (WinnowTablePage *self);
/* On the frame that shows the tabs: the class's update(), then the table,
 * its count and empty state. */
void             winnow_table_page_update         (WinnowTablePage *self);
/* The table shows its first rows while a big run plays (winnow-live-table.h). */
gboolean         winnow_table_page_is_live        (WinnowTablePage *self);

G_END_DECLS

#pragma once
// The time filter's indicator (for the status bar) and its actions: which
// window the trees, charts and critical path show, and a way back to the whole
// run (the Clear button, Esc). View > Filter to Timeline Window sets the filter
// to the window the timeline is zoomed to (docs/time-window.md).
#include <QAction>
#include <QLabel>
#include <QToolButton>
#include <QWidget>

#include "views/model/selection.h"
#include "views/model/time_window_filter.h"

namespace waitscope::views {

class TimeFilterBar : public QWidget {
  Q_OBJECT
 public:
  TimeFilterBar(Selection* selection, TimeWindowFilter* filter, QWidget* parent = nullptr);

  // View > Filter to Timeline Window (Ctrl+Shift+W): the timeline's window becomes the filter.
  QAction* filterAction() const { return filterAction_; }
  // View > Clear Time Filter (Esc; enabled only while a filter is set, so Esc is free otherwise).
  QAction* clearAction() const { return clearAction_; }
  // What the indicator says ("" while hidden).
  QString text() const { return label_->text(); }

 private:
  void refresh();

  Selection* selection_;
  TimeWindowFilter* filter_;
  QLabel* label_;
  QToolButton* clear_;
  QAction* filterAction_;
  QAction* clearAction_;
  bool computing_ = false;
};

}  // namespace waitscope::views

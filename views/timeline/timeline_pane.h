#pragma once
// The timeline with its tool bar: the exact time window (from / to, in
// seconds, Enter applies), zoom in / out / whole trace, undo / redo of zoom
// steps. The main window embeds this pane, constructed with its Selection.
#include <QWidget>

class QLineEdit;
class QToolButton;

namespace waitscope::views {

class Selection;
class TimelineView;

class TimelinePane : public QWidget {
  Q_OBJECT

 public:
  // The view follows `selection` and writes to it (TimelineView).
  explicit TimelinePane(Selection* selection, QWidget* parent = nullptr);
  TimelineView* view() const { return view_; }
  QLineEdit* fromEdit() const { return from_; }
  QLineEdit* toEdit() const { return to_; }

 private slots:
  void applyTypedWindow();
  void showWindow(double from, double to);
  void updateButtons();

 private:
  TimelineView* view_;
  QLineEdit* from_;
  QLineEdit* to_;
  QToolButton* undo_;
  QToolButton* redo_;
};

}  // namespace waitscope::views

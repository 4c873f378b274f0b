#pragma once
// The timeline with its tool bar: the exact time window (from / to, in
// seconds, Enter applies), zoom in / out / whole trace, undo / redo of zoom
// steps, the layers shown (messages, RMA transfers, epochs, wait states,
// critical path; kept in QSettings) and the rows (fit all, height, which
// ranks, grouping: the row labels' context menu). Under the view, one line of
// details about what the pointer is over (a fixed height, so the plot keeps
// its size while hovering). The main window embeds this pane, constructed
// with its Selection.
#include <vector>

#include <QWidget>

class QAction;
class QLineEdit;
class QToolButton;

namespace waitscope::views {

class DetailsLine;
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
  DetailsLine* details() const { return details_; }
  // One checkable action per layer (also for the window's View menu).
  const std::vector<QAction*>& layerActions() const { return layerActions_; }
  QToolButton* rowsButton() const { return rows_; }

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private slots:
  void applyTypedWindow();
  void showWindow(double from, double to);
  void updateButtons();

 private:
  void addLayerActions(QToolButton* button);
  void saveRows() const;

  TimelineView* view_;
  QLineEdit* from_;
  QLineEdit* to_;
  QToolButton* undo_;
  QToolButton* redo_;
  QToolButton* rows_;
  DetailsLine* details_;
  std::vector<QAction*> layerActions_;
};

}  // namespace waitscope::views

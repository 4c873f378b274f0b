#pragma once
// The source of the selected call path: the file with the call's line
// highlighted and, in the margin, the selected metric's value on every line
// of the file that has a call path. A file that is not found here (traces
// often come from another machine) shows a notice with "Find source root…".
// It follows the Selection; source roots ("FROM=TO", mapping the recorded
// path to this machine) are remembered per report in the settings.
#include <cstdint>
#include <map>

#include <QWidget>

#include "analysis/report/report.h"

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;

namespace waitscope::views {

class Selection;

class SourcePane : public QWidget {
  Q_OBJECT
 public:
  explicit SourcePane(Selection* selection, QWidget* parent = nullptr);

  // Source roots ("FROM=TO") of the shown report, most recent first.
  QStringList sourceRoots() const;
  void addSourceRoot(const QString& root);
  // The selected call path's source position: as recorded and mapped to this machine (a
  // relative path is relative to the report's folder). False when one call path with a
  // source location is not selected.
  bool selectedSource(QString* recorded, QString* local, int* line) const;

  // Shows `localFile` (the recorded file mapped to this machine) at `line`
  // (1-based; 0: none) with values per line. Returns false when the file cannot
  // be read; the pane then shows the notice with "Find source root…".
  bool showSource(const QString& recordedFile, const QString& localFile, int line,
                  std::map<std::uint32_t, double> valuesByLine, report::MetricUnit unit);
  // No file to show, and why (one line).
  void showNotice(const QString& text, bool offerSourceRoot = false);

  QString shownFile() const { return shownFile_; }
  QString recordedFile() const { return recordedFile_; }
  int highlightedLine() const { return line_; }
  QString notice() const;
  bool showsNotice() const;
  // The margin's text for a line ("" when the line has no value).
  QString marginText(int line) const;
  QPlainTextEdit* editor() const { return editor_; }

 signals:
  void findSourceRootRequested(const QString& recordedFile);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  friend class SourceMargin;
  int marginWidth() const;
  void updateMarginGeometry();
  void paintMargin(QPaintEvent* event);
  void followSelection();
  void followSnapshot();
  std::map<std::uint32_t, double> lineValues(const QString& recordedFile) const;
  void setLineValues(std::map<std::uint32_t, double> valuesByLine, report::MetricUnit unit);

  Selection* selection_;
  QStackedWidget* stack_;
  QPlainTextEdit* editor_;
  QWidget* margin_;
  QLabel* notice_;
  QPushButton* findRoot_;
  QLabel* title_;
  QString shownFile_, recordedFile_;
  int line_ = 0;
  std::map<std::uint32_t, double> values_;
  report::MetricUnit unit_ = report::MetricUnit::Seconds;
  double largest_ = 0.0;
};

}  // namespace waitscope::views

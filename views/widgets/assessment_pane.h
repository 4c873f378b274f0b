#pragma once
// The POP assessment of the shown report (a dock of the main window): every
// efficiency with its value, coloured by POP's thresholds with a legend, one
// sentence on what it means, and a link that selects the metric to look at in
// the metric tree. Follows the Selection's report; a reference run, chosen by
// the user, adds Computation Scaling and Global Efficiency.
#include <QWidget>

#include "views/model/report_data.h"

class QLabel;
class QPushButton;
class QTableView;

namespace waitscope::views {

class AssessmentModel;
class Selection;

class AssessmentPane : public QWidget {
  Q_OBJECT
 public:
  explicit AssessmentPane(Selection* selection, QWidget* parent = nullptr);

  AssessmentModel* model() const { return model_; }
  QTableView* table() const { return table_; }
  // The line shown instead of the table (no report, or why there is no assessment); empty when
  // the table is shown.
  QString notice() const;

  // The run the shown report is measured against (nullptr: none).
  void setReference(ReportDataPtr reference);

  // Selects the metric a row points to, in the Selection; false when the row points nowhere.
  bool followLink(int row);

 signals:
  // "Reference Run…" was pressed: the owner picks and loads a report and calls setReference.
  void referenceRequested();

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void refresh();
  // Rows of wrapped sentences where they all fit; else one line each (the sentence whole in
  // its tooltip), so that every row stays in view in a low dock.
  void fitRows();
  bool fitting_ = false;  // fitRows resizes rows, which resizes columns, which calls it again

  Selection* selection_;
  AssessmentModel* model_;
  ReportDataPtr reference_;
  QTableView* table_;
  QLabel* notice_;
  QLabel* referenceLabel_;
  QPushButton* clearReference_;
};

}  // namespace waitscope::views

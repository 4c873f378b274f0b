#pragma once
// The wait-state profile (the estimates of Mao et al., EuroMPI/ASIA 2014)
// against the trace analysis of the same program, per pattern and call path,
// as `waitscope-report compare` prints it (the paper's Figure 3): wait ratios
// from both and their difference in percentage points, sortable.
#include <QDialog>

#include "analysis/report/profile_comparison.h"

class QTableWidget;

namespace waitscope::app {

class CompareDialog : public QDialog {
  Q_OBJECT
 public:
  CompareDialog(const std::vector<report::ComparisonRow>& rows, const QString& profilePath, const QString& tracePath,
                QWidget* parent = nullptr);
  QTableWidget* table() const { return table_; }

 private:
  QTableWidget* table_;
};

}  // namespace waitscope::app

#include "app/compare_dialog.h"

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include "views/model/number_format.h"

namespace waitscope::app {
namespace {

QTableWidgetItem* text(const std::string& s) {
  auto* item = new QTableWidgetItem(QString::fromStdString(s));
  item->setFlags(item->flags() & ~Qt::ItemIsEditable);
  return item;
}

// A number that sorts as a number and shows two decimals in the locale, like every view.
QTableWidgetItem* number(double value) {
  auto* item = new QTableWidgetItem;
  item->setData(Qt::EditRole, value);
  item->setData(Qt::DisplayRole, views::formatDecimal(value, 2));
  item->setData(Qt::UserRole, value);
  item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  item->setFlags(item->flags() & ~Qt::ItemIsEditable);
  return item;
}

}  // namespace

CompareDialog::CompareDialog(const std::vector<report::ComparisonRow>& rows, const QString& profilePath,
                             const QString& tracePath, QWidget* parent)
    : QDialog(parent), table_(new QTableWidget(static_cast<int>(rows.size()), 7, this)) {
  setWindowTitle(tr("Profile estimates against the trace analysis"));
  table_->setHorizontalHeaderLabels({tr("Pattern"), tr("Call path"), tr("Call site"), tr("Profile (%)"),
                                     tr("Trace (%)"), tr("Difference (pp)"), tr("Profile, tested (%)")});
  for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
    const report::ComparisonRow& row = rows[static_cast<std::size_t>(r)];
    table_->setItem(r, 0, text(row.pattern));
    table_->setItem(r, 1, text(row.callPath));
    table_->setItem(r, 2, text(row.callSite));
    table_->setItem(r, 3, number(row.profileRatio));
    table_->setItem(r, 4, number(row.traceRatio));
    table_->setItem(r, 5, number(row.differencePoints()));
    table_->setItem(r, 6, row.hasTested ? number(row.testedRatio) : text(""));
  }
  table_->setSortingEnabled(true);
  table_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
  table_->resizeColumnsToContents();

  auto* note = new QLabel(tr("Wait ratio: waiting time of the call path in percent of the run's total time. "
                             "Profile: %1. Trace analysis: %2.")
                              .arg(QFileInfo(profilePath).fileName(), QFileInfo(tracePath).fileName()),
                          this);
  note->setWordWrap(true);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(note);
  layout->addWidget(table_, 1);
  layout->addWidget(buttons);
  resize(900, 420);
}

}  // namespace waitscope::app

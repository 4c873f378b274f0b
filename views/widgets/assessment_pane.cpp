#include "views/widgets/assessment_pane.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScopedValueRollback>
#include <QTableView>
#include <QVBoxLayout>

#include "views/model/assessment_model.h"
#include "views/model/pop_rating.h"
#include "views/model/selection.h"

namespace waitscope::views {

AssessmentPane::AssessmentPane(Selection* selection, QWidget* parent)
    : QWidget(parent),
      selection_(selection),
      model_(new AssessmentModel(this)),
      table_(new QTableView(this)),
      notice_(new QLabel(this)),
      referenceLabel_(new QLabel(this)),
      clearReference_(new QPushButton(tr("Clear"), this)) {
  table_->setObjectName(QStringLiteral("assessmentTable"));
  table_->setModel(model_);
  table_->verticalHeader()->hide();
  table_->setSelectionMode(QAbstractItemView::NoSelection);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setWordWrap(true);
  table_->setTextElideMode(Qt::ElideNone);
  QHeaderView* header = table_->horizontalHeader();
  header->setSectionResizeMode(AssessmentModel::NameColumn, QHeaderView::ResizeToContents);
  header->setSectionResizeMode(AssessmentModel::ValueColumn, QHeaderView::ResizeToContents);
  header->setSectionResizeMode(AssessmentModel::MeaningColumn, QHeaderView::Stretch);
  header->setSectionResizeMode(AssessmentModel::LinkColumn, QHeaderView::ResizeToContents);
  // Wrapped sentences need taller rows whenever the sentence column changes width.
  connect(header, &QHeaderView::sectionResized, this, [this] { fitRows(); });
  connect(table_, &QTableView::clicked, this, [this](const QModelIndex& index) {
    if (index.column() == AssessmentModel::LinkColumn) followLink(index.row());
  });
  connect(table_, &QTableView::doubleClicked, this, [this](const QModelIndex& index) { followLink(index.row()); });

  notice_->setObjectName(QStringLiteral("assessmentNotice"));
  notice_->setWordWrap(true);
  notice_->setAlignment(Qt::AlignCenter);
  auto* legend = new QLabel(popRatingLegendHtml(), this);
  legend->setObjectName(QStringLiteral("assessmentLegend"));
  legend->setWordWrap(true);
  auto* chooseReference = new QPushButton(tr("Reference Run…"), this);
  chooseReference->setToolTip(tr("A run of the same program on fewer processes: adds Computation Scaling and "
                                 "Global Efficiency"));
  connect(chooseReference, &QPushButton::clicked, this, &AssessmentPane::referenceRequested);
  connect(clearReference_, &QPushButton::clicked, this, [this] { setReference(nullptr); });

  // The legend and the reference share one line below the table, leaving the rows the height.
  auto* bottom = new QHBoxLayout;
  bottom->addWidget(legend, 1);
  bottom->addSpacing(12);
  bottom->addWidget(referenceLabel_);
  bottom->addWidget(chooseReference);
  bottom->addWidget(clearReference_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(notice_, 1);
  layout->addWidget(table_, 1);
  layout->addLayout(bottom);

  connect(selection_, &Selection::reportChanged, this, &AssessmentPane::refresh);
  connect(selection_, &Selection::reportUpdated, this, &AssessmentPane::refresh);
  refresh();
}

QString AssessmentPane::notice() const { return notice_->isVisibleTo(this) ? notice_->text() : QString(); }

void AssessmentPane::setReference(ReportDataPtr reference) {
  reference_ = std::move(reference);
  refresh();
}

bool AssessmentPane::followLink(int row) {
  if (row < 0 || row >= model_->rowCount()) return false;
  const std::uint32_t metric = model_->rows()[static_cast<std::size_t>(row)].linkMetric;
  if (metric == report::kNoId || !selection_->report()) return false;
  selection_->setMetrics({TreePick{metric, true}});
  return true;
}

void AssessmentPane::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  fitRows();
}

void AssessmentPane::fitRows() {
  if (fitting_) return;
  const QScopedValueRollback<bool> guard(fitting_, true);
  const auto rowsHeight = [this] {
    int sum = 0;
    for (int r = 0; r < model_->rowCount(); ++r) sum += table_->rowHeight(r);
    return sum;
  };
  const bool wrap = table_->wordWrap();
  table_->setWordWrap(true);
  table_->setTextElideMode(Qt::ElideNone);
  table_->resizeRowsToContents();
  if (rowsHeight() > table_->viewport()->height()) {
    table_->setWordWrap(false);
    table_->setTextElideMode(Qt::ElideRight);
    table_->resizeRowsToContents();
  }
  if (wrap != table_->wordWrap()) table_->viewport()->update();
}

void AssessmentPane::refresh() {
  model_->setReports(selection_->report(), reference_);
  referenceLabel_->setText(reference_ ? tr("Reference: %1").arg(QFileInfo(reference_->path()).fileName())
                                      : tr("No reference"));
  referenceLabel_->setToolTip(reference_ ? reference_->path() : QString());
  clearReference_->setEnabled(reference_ != nullptr);
  QString why = model_->unavailableReason();
  if (!selection_->report()) why = tr("Open a report to see its POP assessment.");
  notice_->setText(why);
  notice_->setVisible(!why.isEmpty());
  table_->setVisible(why.isEmpty());
  fitRows();
}

}  // namespace waitscope::views

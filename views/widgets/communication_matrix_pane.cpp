#include "views/widgets/communication_matrix_pane.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QToolButton>
#include <QVBoxLayout>

#include "views/widgets/widget_export.h"

namespace waitscope::views {

using timeline::MatrixQuantity;

CommunicationMatrixPane::CommunicationMatrixPane(Selection* selection, QWidget* parent)
    : QWidget(parent),
      model_(new CommunicationMatrixModel(selection, this)),
      quantity_(new QComboBox(this)),
      pointToPoint_(new QCheckBox(tr("Point-to-point"), this)),
      rma_(new QCheckBox(tr("RMA"), this)),
      description_(new QLabel(this)),
      table_(new QTableView(this)) {
  setObjectName(QStringLiteral("communicationMatrixPane"));
  quantity_->addItem(tr("Bytes"), int(MatrixQuantity::Bytes));
  quantity_->addItem(tr("Count"), int(MatrixQuantity::Count));
  quantity_->addItem(tr("Waiting time"), int(MatrixQuantity::WaitingTime));
  quantity_->setToolTip(tr("What each cell shows: bytes sent, messages and transfers, or the waiting time the "
                           "row's location caused the column's"));
  pointToPoint_->setChecked(true);
  rma_->setChecked(true);
  auto* csv = new QToolButton(this);
  csv->setText(tr("CSV…"));
  csv->setToolTip(tr("Export the matrix as CSV"));
  auto* png = new QToolButton(this);
  png->setText(tr("PNG…"));
  auto* svg = new QToolButton(this);
  svg->setText(tr("SVG…"));
  auto* bar = new QHBoxLayout;
  bar->addWidget(new QLabel(tr("Show:"), this));
  bar->addWidget(quantity_);
  bar->addWidget(pointToPoint_);
  bar->addWidget(rma_);
  bar->addStretch(1);
  bar->addWidget(csv);
  bar->addWidget(png);
  bar->addWidget(svg);
  description_->setWordWrap(true);
  description_->setObjectName(QStringLiteral("matrixDescription"));
  table_->setModel(model_);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->setCornerButtonEnabled(false);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addLayout(bar);
  layout->addWidget(description_);
  layout->addWidget(table_, 1);
  connect(quantity_, &QComboBox::activated, this, [this] {
    model_->setQuantity(static_cast<MatrixQuantity>(quantity_->currentData().toInt()));
  });
  for (QCheckBox* box : {pointToPoint_, rma_})
    connect(box, &QCheckBox::toggled, this,
            [this] { model_->setKinds(pointToPoint_->isChecked(), rma_->isChecked()); });
  connect(model_, &QAbstractItemModel::modelReset, this, &CommunicationMatrixPane::refresh);
  connect(csv, &QToolButton::clicked, this, [this] { exportInteractively(QStringLiteral("csv")); });
  connect(png, &QToolButton::clicked, this, [this] { exportInteractively(QStringLiteral("png")); });
  connect(svg, &QToolButton::clicked, this, [this] { exportInteractively(QStringLiteral("svg")); });
  refresh();
}

void CommunicationMatrixPane::refresh() {
  quantity_->setCurrentIndex(quantity_->findData(int(model_->quantity())));  // also when set by a script
  description_->setText(model_->hasData()
                            ? model_->description()
                            : tr("The communication matrix needs the report's timeline, from its trace on this "
                                 "computer."));
}

QString CommunicationMatrixPane::exportCsv(const QString& path) const {
  return writeTextFile(model_->toCsv(), withDefaultSuffix(path, QStringLiteral("csv")));
}

QString CommunicationMatrixPane::exportPng(const QString& path) { return views::exportPng(this, path); }

QString CommunicationMatrixPane::exportSvg(const QString& path) {
  return views::exportSvg(this, path, tr("Communication matrix: %1").arg(model_->quantityTitle()));
}

void CommunicationMatrixPane::exportInteractively(const QString& kind) {
  const QString filter = kind == QLatin1String("csv")   ? tr("CSV files (*.csv)")
                         : kind == QLatin1String("png") ? tr("PNG images (*.png)")
                                                        : tr("SVG images (*.svg)");
  const QString path = QFileDialog::getSaveFileName(this, tr("Export communication matrix"), QString(), filter);
  if (path.isEmpty()) return;
  const QString error = kind == QLatin1String("csv")   ? exportCsv(path)
                        : kind == QLatin1String("png") ? exportPng(path)
                                                       : exportSvg(path);
  description_->setText(error.isEmpty() ? tr("Exported %1").arg(path) : error);
}

}  // namespace waitscope::views

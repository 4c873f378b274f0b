#pragma once
// The Communication Matrix dock: the sender x receiver table of
// CommunicationMatrixModel as a heat map, with the quantity (count, bytes,
// waiting time) and the kinds (point-to-point, RMA) to switch, a line saying
// what is shown, and CSV, PNG and SVG export.
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QTableView>
#include <QWidget>

#include "views/model/communication_matrix_model.h"
#include "views/model/selection.h"

namespace waitscope::views {

class CommunicationMatrixPane : public QWidget {
  Q_OBJECT
 public:
  explicit CommunicationMatrixPane(Selection* selection, QWidget* parent = nullptr);

  CommunicationMatrixModel* model() const { return model_; }
  QTableView* table() const { return table_; }
  QComboBox* quantitySelector() const { return quantity_; }
  QLabel* descriptionLabel() const { return description_; }

  // Each returns "" on success, else one line naming the file. A CSV name without a
  // suffix gets ".csv".
  QString exportCsv(const QString& path) const;
  QString exportPng(const QString& path);
  QString exportSvg(const QString& path);

 private:
  void refresh();
  void exportInteractively(const QString& kind);

  CommunicationMatrixModel* model_;
  QComboBox* quantity_;
  QCheckBox* pointToPoint_;
  QCheckBox* rma_;
  QLabel* description_;
  QTableView* table_;
};

}  // namespace waitscope::views

#pragma once
// The communication matrix as a table (analysis/timeline/communication_matrix.h):
// a row per sending location, a column per receiving one, the cells coloured
// by their share of the largest cell (a heat map, the colours of the trees).
// It follows the Selection: the time filter restricts every quantity, and the
// picked metrics and call paths restrict the waiting time where they pick
// wait-state patterns.
#include <cstdint>
#include <memory>

#include <QAbstractTableModel>
#include <QString>

#include "analysis/timeline/communication_matrix.h"
#include "analysis/timeline/timeline_query.h"
#include "views/model/selection.h"

namespace waitscope::views {

class CommunicationMatrixModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Role { ValueRole = Qt::UserRole + 1, ShareRole };

  explicit CommunicationMatrixModel(Selection* selection, QObject* parent = nullptr);

  // The shown report's timeline (nullptr: none, an empty table). Only an index on this
  // machine (timeline::LocalSliceSource) holds the messages.
  void setSource(std::shared_ptr<timeline::SliceSource> source);
  bool hasData() const { return timelineIndex() != nullptr; }

  timeline::MatrixQuantity quantity() const { return quantity_; }
  void setQuantity(timeline::MatrixQuantity quantity);
  bool pointToPoint() const { return pointToPoint_; }
  bool rma() const { return rma_; }
  void setKinds(bool pointToPoint, bool rma);

  const timeline::CommunicationMatrix& matrix() const { return matrix_; }
  // "Bytes (bytes)", "Messages and transfers (count)", "Waiting time (s)".
  QString quantityTitle() const;
  // What the matrix shows, in one line: quantity, kinds, window, picks.
  QString description() const;
  // The table as CSV: a first line naming the quantity, unit and selection
  // ("# quantity: …"), a header of receivers, a row per sender (full precision).
  QString toCsv() const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  const timeline::TimelineIndex* timelineIndex() const;
  void recompute();
  QString locationName(int location) const;
  QString formatted(double value) const;
  bool waitingPicks(std::vector<char>* metricMask, std::vector<char>* callPathMask) const;

  Selection* selection_;
  std::shared_ptr<timeline::SliceSource> source_;
  timeline::MatrixQuantity quantity_ = timeline::MatrixQuantity::Bytes;
  bool pointToPoint_ = true, rma_ = true;
  timeline::CommunicationMatrix matrix_;
  int size_ = 0;
};

}  // namespace waitscope::views

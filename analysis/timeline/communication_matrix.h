#pragma once
// Who talks to whom (Vampir's message statistics): per pair of locations the
// number of point-to-point messages and RMA transfers, their bytes, and the
// waiting time one location caused the other, from the timeline index (the
// matched messages and transfers) and the report's wait-state instances
// (docs/communication-matrix.md has the rules).
#include <cstdint>
#include <limits>
#include <vector>

#include "analysis/report/report.h"
#include "analysis/timeline/timeline_index.h"

namespace waitscope::timeline {

enum class MatrixQuantity : std::uint8_t { Count, Bytes, WaitingTime };

struct MatrixFilter {
  // A message or transfer counts when its start (the send or operation record) lies in
  // [from, to); an instance with the part of it that lies there.
  double from = -std::numeric_limits<double>::infinity();
  double to = std::numeric_limits<double>::infinity();
  bool pointToPoint = true;
  bool rma = true;
  // Waiting time only: per metric / call path, 1 to count its instances (empty: all).
  std::vector<char> metrics;
  std::vector<char> callPaths;
};

// Rows are senders, columns receivers: the location data leaves and the one it
// reaches (an RMA get: from the target to the origin). For waiting time, rows
// are the locations that caused the waiting, columns the ones that waited.
class CommunicationMatrix {
 public:
  CommunicationMatrix() = default;
  explicit CommunicationMatrix(std::uint32_t locations)
      : size_(locations),
        count_(std::size_t{locations} * locations, 0.0),
        bytes_(count_.size(), 0.0),
        waiting_(count_.size(), 0.0) {}

  std::uint32_t size() const { return size_; }
  double value(MatrixQuantity q, std::uint32_t from, std::uint32_t to) const {
    return cells(q)[std::size_t{from} * size_ + to];
  }
  void add(MatrixQuantity q, std::uint32_t from, std::uint32_t to, double v) {
    if (from < size_ && to < size_) mutableCells(q)[std::size_t{from} * size_ + to] += v;
  }
  double largest(MatrixQuantity q) const;
  double total(MatrixQuantity q) const;

 private:
  const std::vector<double>& cells(MatrixQuantity q) const {
    return q == MatrixQuantity::Count ? count_ : q == MatrixQuantity::Bytes ? bytes_ : waiting_;
  }
  std::vector<double>& mutableCells(MatrixQuantity q) {
    return q == MatrixQuantity::Count ? count_ : q == MatrixQuantity::Bytes ? bytes_ : waiting_;
  }
  std::uint32_t size_ = 0;
  std::vector<double> count_, bytes_, waiting_;
};

// The matrix of the report's locations. Waiting time counts the instances of
// point-to-point patterns (with pointToPoint) and of RMA patterns (with rma)
// that name the location causing them.
CommunicationMatrix communicationMatrix(const TimelineIndex& index, const report::Report& report,
                                        const MatrixFilter& filter);

}  // namespace waitscope::timeline

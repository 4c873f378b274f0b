#pragma once
// Two runs opened side by side (File > Compare With…): the aligned reports of
// alignReports (report_algebra.h) as browser data, one per compare view, all
// with the same tree shapes so that a node means the same thing in each. Kept
// with the run A it was made from, which closing the comparison shows again.
// Immutable after construction, so it is built off the GUI thread.
#include <cstdint>
#include <memory>
#include <vector>

#include <QString>

#include "analysis/report/report_algebra.h"
#include "views/model/compare_view.h"
#include "views/model/report_data.h"

namespace waitscope::views {

class ComparisonData {
 public:
  // `originalA` is the report A as it was shown before; `pathB` names run B's file, which
  // had `ranksB` ranks (processes; a hybrid run's threads and streams are not counted).
  ComparisonData(report::AlignedReports aligned, ReportDataPtr originalA, const QString& pathB, std::size_t ranksB);

  const ReportDataPtr& run(CompareView view) const;
  const ReportDataPtr& originalA() const { return originalA_; }
  const QString& pathA() const { return originalA_->path(); }
  const QString& pathB() const { return pathB_; }

  // Where a call path of the aligned call tree was found (Both when unknown).
  report::Presence presence(std::uint32_t callPath) const;
  const std::vector<report::Presence>& callPathPresence() const { return presence_; }
  // The same per region (the flat profile): only in one run when every call path of it is.
  const std::vector<report::Presence>& regionPresence() const { return regionPresence_; }
  // False when the runs had different rank counts: then every run has one location, "All ranks".
  bool sameRanks() const { return sameRanks_; }
  std::size_t ranksA() const { return ranksA_; }
  std::size_t ranksB() const { return ranksB_; }

 private:
  ReportDataPtr runs_[3];
  ReportDataPtr originalA_;
  QString pathB_;
  std::vector<report::Presence> presence_, regionPresence_;
  bool sameRanks_ = true;
  std::size_t ranksA_ = 0, ranksB_ = 0;
};

using ComparisonDataPtr = std::shared_ptr<const ComparisonData>;

}  // namespace waitscope::views

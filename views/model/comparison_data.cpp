#include "views/model/comparison_data.h"

namespace waitscope::views {

ComparisonData::ComparisonData(report::AlignedReports aligned, ReportDataPtr originalA, const QString& pathB,
                               std::size_t ranksB)
    : originalA_(std::move(originalA)),
      pathB_(pathB),
      presence_(std::move(aligned.callPathPresence)),
      sameRanks_(aligned.sameRanks),
      ranksA_(originalA_->report().locations.size()),
      ranksB_(ranksB) {
  const QString pathA = originalA_->path();
  runs_[static_cast<int>(CompareView::RunA)] = std::make_shared<const ReportData>(std::move(aligned.a), pathA);
  runs_[static_cast<int>(CompareView::RunB)] = std::make_shared<const ReportData>(std::move(aligned.b), pathB);
  // The difference has A's structure and sources: relative source paths are looked up beside A.
  runs_[static_cast<int>(CompareView::Difference)] =
      std::make_shared<const ReportData>(std::move(aligned.difference), pathA);
}

const ReportDataPtr& ComparisonData::run(CompareView view) const { return runs_[static_cast<int>(view)]; }

report::Presence ComparisonData::presence(std::uint32_t callPath) const {
  return callPath < presence_.size() ? presence_[callPath] : report::Presence::Both;
}

}  // namespace waitscope::views

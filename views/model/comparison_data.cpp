#include "views/model/comparison_data.h"

namespace waitscope::views {

ComparisonData::ComparisonData(report::AlignedReports aligned, ReportDataPtr originalA, const QString& pathB,
                               std::size_t ranksB)
    : originalA_(std::move(originalA)),
      pathB_(pathB),
      presence_(std::move(aligned.callPathPresence)),
      sameRanks_(aligned.sameRanks),
      ranksA_(originalA_->report().processCount()),  // threads and streams of hybrid runs are no ranks
      ranksB_(ranksB) {
  const QString pathA = originalA_->path();
  // A region is of one run when each of its call paths is of that run (regions without call
  // paths stay Both).
  const report::Report& structure = aligned.a;
  std::vector<char> seen(structure.regions.size(), 0);
  regionPresence_.assign(structure.regions.size(), report::Presence::Both);
  for (std::size_t c = 0; c < structure.callPaths.size(); ++c) {
    const std::uint32_t region = structure.callPaths[c].region;
    if (region >= regionPresence_.size()) continue;
    const report::Presence here = presence(static_cast<std::uint32_t>(c));
    regionPresence_[region] = !seen[region] || regionPresence_[region] == here ? here : report::Presence::Both;
    seen[region] = 1;
  }
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

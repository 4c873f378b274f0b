#include "views/model/pop_rating.h"

#include "analysis/report/pop_metrics.h"

namespace waitscope::views {

PopRating popRating(double efficiency) {
  if (efficiency >= report::kPopThreshold) return PopRating::Good;
  if (efficiency >= kPopFairThreshold) return PopRating::Fair;
  return PopRating::Poor;
}

QColor popRatingColor(PopRating rating) {
  switch (rating) {
    case PopRating::Good: return QColor(0x8b, 0xd1, 0x7c);
    case PopRating::Fair: return QColor(0xff, 0xc0, 0x6b);
    case PopRating::Poor: return QColor(0xf0, 0x8a, 0x80);
  }
  return {};
}

QString popRatingLegendHtml() {
  const auto square = [](PopRating rating) {
    return QStringLiteral("<span style=\"background-color:%1\">&nbsp;&nbsp;&nbsp;&nbsp;</span>")
        .arg(popRatingColor(rating).name());
  };
  return QStringLiteral("%1 from %2 %: good &nbsp; %3 %4 to %2 %: worth a look &nbsp; %5 below %4 %: a problem "
                        "(POP)")
      .arg(square(PopRating::Good))
      .arg(qRound(report::kPopThreshold * 100))
      .arg(square(PopRating::Fair))
      .arg(qRound(kPopFairThreshold * 100))
      .arg(square(PopRating::Poor));
}

}  // namespace waitscope::views

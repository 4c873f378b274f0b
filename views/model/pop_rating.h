#pragma once
// POP's traffic light for an efficiency: good at or above kPopThreshold (0.8),
// worth a look from 0.6, a problem below. The assessment pane and the scaling
// series table colour every efficiency with it and show its legend.
#include <QColor>
#include <QString>

namespace waitscope::views {

enum class PopRating { Good, Fair, Poor };

inline constexpr double kPopFairThreshold = 0.6;  // below it an efficiency is red

PopRating popRating(double efficiency);
// Background colours with dark text readable on them, in light and dark themes.
QColor popRatingColor(PopRating rating);
// One line of rich text: a coloured square and the range of each rating.
QString popRatingLegendHtml();

}  // namespace waitscope::views

#pragma once
// Which run of a comparison the trees and charts show, as Cube's difference
// view and Vampir's Compare View: run A, run B, or their difference B − A.
// Every view shows the same one (one source of truth: Selection).
#include <QString>

namespace waitscope::views {

enum class CompareView { RunA, RunB, Difference };

inline constexpr CompareView kCompareViews[] = {CompareView::RunA, CompareView::RunB, CompareView::Difference};

QString compareViewName(CompareView view);   // "Run A", "Run B", "Difference B − A"
QString compareViewShort(CompareView view);  // the column headers: "A", "B", "B − A"
QString compareViewKey(CompareView view);    // "a", "b", "difference" (command line)
bool compareViewFromKey(const QString& key, CompareView* view);

}  // namespace waitscope::views

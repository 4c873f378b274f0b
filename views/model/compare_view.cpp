#include "views/model/compare_view.h"

namespace waitscope::views {

QString compareViewName(CompareView view) {
  switch (view) {
    case CompareView::RunA: return QStringLiteral("Run A");
    case CompareView::RunB: return QStringLiteral("Run B");
    case CompareView::Difference: return QStringLiteral("Difference B − A");
  }
  return {};
}

QString compareViewShort(CompareView view) {
  switch (view) {
    case CompareView::RunA: return QStringLiteral("A");
    case CompareView::RunB: return QStringLiteral("B");
    case CompareView::Difference: return QStringLiteral("B − A");
  }
  return {};
}

QString compareViewKey(CompareView view) {
  switch (view) {
    case CompareView::RunA: return QStringLiteral("a");
    case CompareView::RunB: return QStringLiteral("b");
    case CompareView::Difference: return QStringLiteral("difference");
  }
  return {};
}

bool compareViewFromKey(const QString& key, CompareView* view) {
  for (const CompareView v : kCompareViews) {
    if (compareViewKey(v) == key) {
      *view = v;
      return true;
    }
  }
  return false;
}

}  // namespace waitscope::views

#include "analysis/online/tree_layout.h"

#include <algorithm>
#include <stdexcept>

namespace waitscope::online {

TreeLayout::TreeLayout(int appRanks, int fanIn) : apps_(appRanks), fanIn_(fanIn) {
  if (appRanks < 1) throw std::invalid_argument("an online run needs at least 1 application rank");
  if (fanIn < 2) throw std::invalid_argument("the fan-in must be at least 2");
  int below = appRanks;  // nodes of the layer below
  int first = 0;         // first place of the current layer
  do {
    const int count = (below + fanIn - 1) / fanIn;
    layerStart_.push_back(first);
    parent_.resize(static_cast<std::size_t>(first + count), -1);
    if (first > 0) {  // the previous layer's places hang below this one
      const int prevFirst = layerStart_[layerStart_.size() - 2];
      for (int p = prevFirst; p < first; ++p) parent_[static_cast<std::size_t>(p)] = first + (p - prevFirst) / fanIn;
    }
    first += count;
    below = count;
  } while (below > 1);
}

TreeLayout TreeLayout::withPlaces(int appRanks, int places) {
  std::string possible;
  for (int f = 2; f <= std::max(2, appRanks); ++f) {
    const TreeLayout t(appRanks, f);
    if (t.places() == places) return t;
    const std::string k = std::to_string(t.places());
    if (possible.find(" " + k + ",") == std::string::npos) possible += " " + k + ",";
  }
  if (!possible.empty()) possible.pop_back();
  throw std::invalid_argument("no tree of " + std::to_string(places) + " tool places fits " + std::to_string(appRanks) +
                              " application ranks; possible numbers of tool ranks:" + possible +
                              " (or give --fan-in)");
}

int TreeLayout::layerOf(int place) const {
  int layer = 0;
  while (layer + 1 < layers() && place >= layerStart_[static_cast<std::size_t>(layer + 1)]) ++layer;
  return layer;
}

std::vector<int> TreeLayout::children(int place) const {
  std::vector<int> out;
  if (firstLayer(place)) {
    for (int a = place * fanIn_; a < std::min(apps_, (place + 1) * fanIn_); ++a) out.push_back(a);
  } else {
    for (int p = 0; p < places(); ++p)
      if (parent(p) == place) out.push_back(p);
  }
  return out;
}

std::string TreeLayout::describe() const {
  return std::to_string(apps_) + (apps_ == 1 ? " application rank, " : " application ranks, ") +
         std::to_string(places()) + (places() == 1 ? " tool place in " : " tool places in ") +
         std::to_string(layers()) + (layers() == 1 ? " layer" : " layers") + " (fan-in " + std::to_string(fanIn_) + ")";
}

}  // namespace waitscope::online

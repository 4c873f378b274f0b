#pragma once
// The tree-based overlay of Hilbrich et al. (EASC 2014), Fig. 1: N application ranks at the bottom,
// tool places above them in layers with a constant fan-in, one root place at the top. World ranks
// 0..N-1 are the application, N.. the places, layer by layer from the first (above the application)
// to the root (the last rank). An application rank's first-layer place is the one of its contiguous
// block of fan-in ranks.
#include <string>
#include <vector>

namespace waitscope::online {

class TreeLayout {
 public:
  // Throws std::invalid_argument for appRanks < 1 or fanIn < 2.
  TreeLayout(int appRanks, int fanIn);

  // The layout with `places` tool processes, if some fan-in gives exactly that many (the
  // smallest such fan-in); throws std::invalid_argument naming the counts that work.
  static TreeLayout withPlaces(int appRanks, int places);

  int appRanks() const { return apps_; }
  int fanIn() const { return fanIn_; }
  int places() const { return static_cast<int>(parent_.size()); }
  int worldSize() const { return apps_ + places(); }
  int layers() const { return static_cast<int>(layerStart_.size()); }

  // Places are numbered 0..places()-1 (world rank = appRanks() + place).
  int worldRankOfPlace(int place) const { return apps_ + place; }
  int placeOfWorldRank(int worldRank) const { return worldRank - apps_; }
  int root() const { return places() - 1; }
  int layerOf(int place) const;
  bool firstLayer(int place) const { return place < firstLayerPlaces(); }
  int firstLayerPlaces() const { return layerStart_.size() > 1 ? layerStart_[1] : places(); }
  int placeOfApp(int appRank) const { return appRank / fanIn_; }
  int parent(int place) const { return parent_[static_cast<std::size_t>(place)]; }  // -1 for the root
  // Children: application ranks for a first-layer place, places otherwise.
  std::vector<int> children(int place) const;
  // "N=6 apps, 3 places in 2 layers (fan-in 3): ..."
  std::string describe() const;

 private:
  int apps_, fanIn_;
  std::vector<int> parent_;
  std::vector<int> layerStart_;  // first place of each layer
};

}  // namespace waitscope::online

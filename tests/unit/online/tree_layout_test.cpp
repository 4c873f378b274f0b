// The overlay tree: layers, parents, children, and the place count chosen from --tool-ranks.
#include "analysis/online/tree_layout.h"

#include <gtest/gtest.h>

#include <stdexcept>

using waitscope::online::TreeLayout;

TEST(TreeLayout, SixRanksFanInThreeHasTwoFirstLayerPlacesAndARoot) {
  const TreeLayout t(6, 3);
  EXPECT_EQ(t.places(), 3);
  EXPECT_EQ(t.layers(), 2);
  EXPECT_EQ(t.worldSize(), 9);
  EXPECT_EQ(t.firstLayerPlaces(), 2);
  EXPECT_EQ(t.root(), 2);
  EXPECT_EQ(t.worldRankOfPlace(0), 6);
  EXPECT_EQ(t.placeOfApp(2), 0);
  EXPECT_EQ(t.placeOfApp(3), 1);
  EXPECT_EQ(t.children(0), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(t.children(1), (std::vector<int>{3, 4, 5}));
  EXPECT_EQ(t.children(2), (std::vector<int>{0, 1}));
  EXPECT_EQ(t.parent(0), 2);
  EXPECT_EQ(t.parent(2), -1);
}

TEST(TreeLayout, TwelveRanksFanInThreeHasThreeLayers) {
  const TreeLayout t(12, 3);
  EXPECT_EQ(t.places(), 7);  // 4 + 2 + 1
  EXPECT_EQ(t.layers(), 3);
  EXPECT_EQ(t.layerOf(3), 0);
  EXPECT_EQ(t.layerOf(4), 1);
  EXPECT_EQ(t.layerOf(6), 2);
  EXPECT_EQ(t.parent(3), 5);
  EXPECT_EQ(t.parent(4), 6);
  EXPECT_EQ(t.children(6), (std::vector<int>{4, 5}));
  EXPECT_EQ(t.children(4), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(t.children(5), (std::vector<int>{3}));
}

TEST(TreeLayout, FanInAtLeastTheRanksIsOneRootPlace) {
  const TreeLayout t(4, 8);
  EXPECT_EQ(t.places(), 1);
  EXPECT_TRUE(t.firstLayer(0));
  EXPECT_EQ(t.root(), 0);
  EXPECT_EQ(t.children(0), (std::vector<int>{0, 1, 2, 3}));
}

TEST(TreeLayout, ToolRanksPickTheFanIn) {
  EXPECT_EQ(TreeLayout::withPlaces(6, 3).fanIn(), 3);
  EXPECT_EQ(TreeLayout::withPlaces(6, 1).places(), 1);
  try {
    TreeLayout::withPlaces(6, 5);
    FAIL() << "5 places cannot serve 6 ranks";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("no tree of 5 tool places"), std::string::npos) << what;
    EXPECT_NE(what.find(" 3,"), std::string::npos) << what;  // names the counts that work
  }
  EXPECT_THROW(TreeLayout(0, 3), std::invalid_argument);
  EXPECT_THROW(TreeLayout(4, 1), std::invalid_argument);
}

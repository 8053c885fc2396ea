// Lab 8's pictures: the edge map, the magnitude made visible and the difference against the
// reference, on tiny inputs whose pixels are worked out by hand.
#include <gtest/gtest.h>

#include <vector>

#include "common/families/pipelines/canny_pictures.hpp"

using namespace convlab;

TEST(CannyPictures, EdgeMapIsWhiteWhereverTheMapIsNonzero) {
    const std::vector<uint8_t> edges{0, 255, 1, 0, 7, 0};
    const Image p = edge_map_picture(edges.data(), 3, 2);
    ASSERT_EQ(p.channels, 1);
    EXPECT_EQ(p.pixels, (std::vector<uint8_t>{0, 255, 255, 0, 255, 0}));
}

TEST(CannyPictures, MagnitudeIsScaledByTheNinetyNinthPercentileOfNonzeroValues) {
    // 200 nonzero values 1..200 and 56 zeros: the percentile is value 198 (index 197 of 200 sorted).
    std::vector<float> m(256, 0.0f);
    for (int i = 0; i < 200; ++i) m[i] = float(i + 1);
    const Image p = magnitude_picture(m.data(), 16, 16);
    EXPECT_EQ(p.pixels[197], 255);  // 198 / 198
    EXPECT_EQ(p.pixels[196], 254);  // 197 / 198 * 255 = 253.7
    EXPECT_EQ(p.pixels[199], 255);  // 200, above the percentile: clamped
    EXPECT_EQ(p.pixels[98], 128);   // 99 / 198 * 255 = 127.5, rounded half away from zero
    EXPECT_EQ(p.pixels[0], 1);      // 1 / 198 * 255 = 1.29
    EXPECT_EQ(p.pixels[255], 0);
}

TEST(CannyPictures, AllZeroMagnitudeIsBlack) {
    const std::vector<float> m(12, 0.0f);
    const Image p = magnitude_picture(m.data(), 4, 3);
    EXPECT_EQ(p.pixels, std::vector<uint8_t>(12, 0));
}

TEST(CannyPictures, DifferenceColoursAgreedMissedAndFalseEdges) {
    const std::vector<uint8_t> tested{255, 0, 255, 0}, reference{255, 255, 0, 0};
    const Image p = edge_difference_picture(tested.data(), reference.data(), 2, 2);
    ASSERT_EQ(p.channels, 3);
    const std::vector<uint8_t> expected{255, 255, 255,
                                        kMissedEdgeColour.r, kMissedEdgeColour.g, kMissedEdgeColour.b,
                                        kFalseEdgeColour.r, kFalseEdgeColour.g, kFalseEdgeColour.b,
                                        0, 0, 0};
    EXPECT_EQ(p.pixels, expected);
}

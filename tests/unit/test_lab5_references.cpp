// Lab 5's CPU references: the semantics every microbenchmark kernel is checked against.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "labs/lab5/references.hpp"
#include "labs/lab5/lab5.hpp"

namespace {

TEST(Lab5References, SwapExchangesPairsAndLeavesAnOddLastElement) {
    const std::vector<float> out = swap_reference({10, 11, 12, 13, 14});
    EXPECT_EQ(out, (std::vector<float>{11, 10, 13, 12, 14}));
}

TEST(Lab5References, NeighboursUseThemselvesAtTheEnds) {
    const std::vector<float> out = neighbours_reference({4, 8, 2});
    EXPECT_FLOAT_EQ(out[0], std::sqrt(2 * 4.0f + 0.5f * 8));
    EXPECT_FLOAT_EQ(out[1], std::sqrt(2 * 4.0f + 0.5f * 2));
    EXPECT_FLOAT_EQ(out[2], std::sqrt(2 * 8.0f + 0.5f * 2));
    EXPECT_FLOAT_EQ(neighbours_reference({9})[0], std::sqrt(2.5f * 9));
}

TEST(Lab5References, DirectionFollowsTheTableAtEveryBoundary) {
    // theta = ceil((v - 22) / 45): 0 up to 22, 1 up to 67, 2 up to 112, 3 up to 157.
    const std::vector<float> in = {0, 22, 22.125f, 67, 67.125f, 112, 112.125f, 157};
    const std::vector<int> out = direction_reference(in);
    // even i: dx + dy = 1, 2, 1, 0 for theta 0..3; odd i: the negation.
    EXPECT_EQ(out, (std::vector<int>{1, -1, 2, -2, 1, -1, 0, 0}));
}

TEST(Lab5References, PathsLookupMatchesTheDirectChain) {
    std::vector<float> in = {0.0f, 0.125f, 22.5f, 157.0f, 3.3f, 100.0f};  // 3.3 is no multiple of 1/8
    for (int paths : {1, 3, 32})
        for (bool by_warp : {false, true}) {
            const std::vector<float> out = paths_reference(in, paths, by_warp);
            for (size_t i = 0; i < in.size(); ++i) {
                const int path = int((by_warp ? i / 32 : i % 32) % paths);
                float x = in[i];
                for (int s = 0; s < kPathWork; ++s) x = std::fma(x, path_scale(path), path_offset(path));
                EXPECT_EQ(out[i], x) << "paths " << paths << " element " << i;
            }
        }
}

TEST(Lab5References, StridedAndOffsetCopiesMarkWhatTheySkip) {
    const std::vector<float> in = {1, 2, 3, 4, 5};
    const std::vector<float> strided = copy_strided_reference(in, 2);
    EXPECT_EQ(strided[0], 1);
    EXPECT_TRUE(std::isnan(strided[1]));
    EXPECT_EQ(strided[4], 5);
    const std::vector<float> offset = copy_offset_reference(in, 3);
    EXPECT_TRUE(std::isnan(offset[2]));
    EXPECT_EQ(offset[3], 4);
}

TEST(Lab5References, SharedStrideSumsEachLanesColumnInOrder) {
    std::vector<float> s_in(size_t(kSharedRows) * 32);
    for (size_t w = 0; w < s_in.size(); ++w) s_in[w] = float(w % 7);
    const std::vector<float> out = shared_stride_reference(s_in, 2, 3, 2);
    ASSERT_EQ(out.size(), size_t(2) * kSharedThreads);
    float lane5 = 0;
    for (int r = 0; r < 2; ++r)
        for (int m = 0; m < kSharedReads; ++m) lane5 += s_in[5 * 3 + 32 * m];
    EXPECT_EQ(out[5], lane5);
    EXPECT_EQ(out[kSharedThreads + 32 + 5], lane5);  // every warp of every block alike
}

TEST(Lab5References, CompareFindsWrongAndUnwrittenElements) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    EXPECT_EQ(compare_outputs(std::vector<float>{1, 2}, std::vector<float>{1, 2}, 0.0), "");
    EXPECT_NE(compare_outputs(std::vector<float>{1, nan}, std::vector<float>{1, 2}, 0.0), "");  // a poisoned element
    EXPECT_NE(compare_outputs(std::vector<float>{1, 2.001f}, std::vector<float>{1, 2}, 1e-6), "");
    EXPECT_EQ(compare_outputs(std::vector<float>{1, 2.000001f}, std::vector<float>{1, 2}, 1e-6), "");
    EXPECT_EQ(compare_outputs(std::vector<float>{1, 77}, std::vector<float>{1, nan}, 0.0), "");  // not the variant's element
    EXPECT_NE(compare_outputs(std::vector<int>{1, 2}, std::vector<int>{1, 3}), "");
    EXPECT_NE(compare_outputs(std::vector<float>{1}, std::vector<float>{1, 2}, 0.0).find("elements"), std::string::npos);
}

}  // namespace

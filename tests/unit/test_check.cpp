// The check: NaN poison, tolerance edges, the mismatch list and its hints.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "common/check/check.hpp"

using namespace convlab;

namespace {
const Tolerance kTol{0.5, 0.0};
}

TEST(Check, IdenticalPasses) {
    const std::vector<float> ref(12, 3.0f);
    const CheckResult r = check_output(ref.data(), ref.data(), 2, 2, 3, {0, 0}, 1, {});
    EXPECT_TRUE(r.passed);
    EXPECT_EQ(r.bad, 0u);
    EXPECT_EQ(r.summary().rfind("PASS", 0), 0u);
}

TEST(Check, ToleranceEdgeIsInclusive) {
    const std::vector<float> ref(4, 10.0f);
    std::vector<float> got(4, 10.5f);  // exactly atol away
    EXPECT_TRUE(check_output(got.data(), ref.data(), 4, 1, 1, kTol, 0, {}).passed);
    got[2] = 10.5001f;
    const CheckResult r = check_output(got.data(), ref.data(), 4, 1, 1, kTol, 0, {});
    EXPECT_FALSE(r.passed);
    EXPECT_EQ(r.bad, 1u);
    ASSERT_EQ(r.first.size(), 1u);
    EXPECT_EQ(r.first[0].x, 2);
}

TEST(Check, RelativeToleranceScalesWithTheReference) {
    const std::vector<float> ref = {1000.0f};
    const std::vector<float> got = {1001.0f};
    EXPECT_FALSE(check_output(got.data(), ref.data(), 1, 1, 1, {0, 0}, 0, {}).passed);
    EXPECT_TRUE(check_output(got.data(), ref.data(), 1, 1, 1, {0, 1e-3}, 0, {}).passed);
}

TEST(Check, NanNeverPassesAndCountsAsUnwritten) {
    const std::vector<float> ref(6, 1.0f);
    std::vector<float> got(6, 1.0f);
    got[4] = std::numeric_limits<float>::quiet_NaN();
    const CheckResult r = check_output(got.data(), ref.data(), 3, 2, 1, {1e9, 1e9}, 0, {});
    EXPECT_FALSE(r.passed);
    EXPECT_EQ(r.unwritten, 1u);
    EXPECT_NE(r.summary().find("1 never written"), std::string::npos);
}

TEST(Check, InfinityNeverPasses) {
    const std::vector<float> ref(2, 1.0f);
    const std::vector<float> got = {1.0f, std::numeric_limits<float>::infinity()};
    const CheckResult r = check_output(got.data(), ref.data(), 2, 1, 1, {1e30, 1e30}, 0, {});
    EXPECT_FALSE(r.passed);
    EXPECT_EQ(r.unwritten, 0u);
}

TEST(Check, NothingWrittenSaysSo) {
    const std::vector<float> ref(9, 1.0f), got(9, std::numeric_limits<float>::quiet_NaN());
    const CheckResult r = check_output(got.data(), ref.data(), 3, 3, 1, kTol, 1, {});
    EXPECT_NE(r.summary().find("no output value was written"), std::string::npos);
}

TEST(Check, ListsTheFirstMismatchesInOrderWithCoordinates) {
    const int w = 5, h = 4, c = 3;
    const std::vector<float> ref(size_t(w) * h * c, 0.0f);
    std::vector<float> got = ref;
    for (int n : {59, 7, 31, 40, 44, 50, 52}) got[size_t(n)] = 9.0f;
    const CheckResult r = check_output(got.data(), ref.data(), w, h, c, kTol, 0, {}, 3);
    EXPECT_EQ(r.bad, 7u);
    ASSERT_EQ(r.first.size(), 3u);
    // value 7 = pixel 2 (x 2, y 0), channel 1; value 31 = pixel 10 (x 0, y 2), channel 1
    EXPECT_EQ(r.first[0].x, 2);
    EXPECT_EQ(r.first[0].y, 0);
    EXPECT_EQ(r.first[0].c, 1);
    EXPECT_EQ(r.first[1].x, 0);
    EXPECT_EQ(r.first[1].y, 2);
    EXPECT_EQ(r.first[1].c, 1);
    EXPECT_EQ(r.details().size(), 3u);
    EXPECT_NE(r.details()[0].find("(x=2, y=0, channel 1): got 9, expected 0"), std::string::npos);
}

TEST(Check, HintsWhereAMismatchSits) {
    const int w = 40, h = 40;
    const std::vector<float> ref(size_t(w) * h, 0.0f);
    auto where = [&](int x, int y) {
        std::vector<float> got = ref;
        got[size_t(y) * w + x] = 1.0f;
        const CheckResult r = check_output(got.data(), ref.data(), w, h, 1, kTol, 1, {16, 16});
        return r.first.at(0).where;
    };
    EXPECT_EQ(where(0, 20), "image border");
    EXPECT_EQ(where(20, 39), "image border");
    EXPECT_EQ(where(16, 20), "tile edge");
    EXPECT_EQ(where(15, 20), "tile edge");
    EXPECT_EQ(where(20, 20), "");
    EXPECT_EQ(where(33, 20), "last partial tile");
}

TEST(Check, ToleranceIsZeroForIntegerMasksOnly) {
    Mask sobel;
    sobel.k = 3;
    sobel.weights = {-1, 0, 1, -2, 0, 2, -1, 0, 1};
    EXPECT_EQ(tolerance_for(sobel).atol, 0.0);
    Mask blur;
    blur.k = 3;
    blur.weights.assign(9, 1.0f / 9);
    const double atol = tolerance_for(blur).atol;
    EXPECT_GT(atol, 0.0);
    EXPECT_LT(atol, 0.01);  // far below one grey level: a shifted tap still fails
}

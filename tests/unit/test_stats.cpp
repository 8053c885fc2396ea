// Timing statistics.
#include <gtest/gtest.h>

#include "common/timing/stats.hpp"

using namespace convlab;

TEST(Stats, OddCountMedianAndMin) {
    const TimingStats s = summarize({5, 1, 3, 9, 2});
    EXPECT_EQ(s.samples, 5);
    EXPECT_DOUBLE_EQ(s.median_ms, 3);
    EXPECT_DOUBLE_EQ(s.min_ms, 1);
}

TEST(Stats, EvenCountMedianIsTheMeanOfTheMiddleTwo) {
    EXPECT_DOUBLE_EQ(summarize({4, 1, 3, 2}).median_ms, 2.5);
}

TEST(Stats, CoefficientOfVariation) {
    // mean 2, sample standard deviation 1 -> cv 0.5
    const TimingStats s = summarize({1, 2, 3});
    EXPECT_NEAR(s.cv, 0.5, 1e-12);
    EXPECT_TRUE(s.noisy());
    EXPECT_FALSE(summarize({10, 10.1, 9.9}).noisy());
}

TEST(Stats, SingleAndEmpty) {
    const TimingStats one = summarize({7});
    EXPECT_DOUBLE_EQ(one.median_ms, 7);
    EXPECT_DOUBLE_EQ(one.cv, 0);
    EXPECT_EQ(summarize({}).samples, 0);
}

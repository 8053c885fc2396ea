// Lab 9's hold from outside a graded run: what it leaves free on each GPU (device_memory_cap.hpp).
#include <gtest/gtest.h>

#include "common/device/device_info.hpp"
#include "common/families/strips/device_memory_cap.hpp"

using namespace convlab;

namespace {
constexpr size_t MiB = size_t(1) << 20;
}

TEST(OutsideHold, OneGpuKeepsAllItHadAndTheSlack) {
    EXPECT_EQ(outside_hold_slack(600 * MiB, 1, 100 * MiB, 128 * MiB), std::vector<size_t>{728 * MiB});
}

// Four GPUs: a context on each (500 MiB) and the flush buffer (100 MiB) on the first alone. An even
// share of the 2100 MiB would leave the first GPU 75 MiB short of what the run has there.
TEST(OutsideHold, TheFlushBufferStaysOnTheFirstGpu) {
    const std::vector<size_t> slack = outside_hold_slack(2100 * MiB, 4, 100 * MiB, 128 * MiB);
    ASSERT_EQ(slack.size(), 4u);
    EXPECT_EQ(slack[0], 728 * MiB);
    for (int d = 1; d < 4; ++d) EXPECT_EQ(slack[size_t(d)], 628 * MiB) << d;
    size_t together = 0;
    for (size_t s : slack) together += s - 128 * MiB;
    EXPECT_EQ(together, 2100 * MiB);  // no more than the reference had in use, all GPUs together
}

TEST(OutsideHold, AnAllowanceSmallerThanTheFlushBufferGoesToTheFirstGpu) {
    EXPECT_EQ(outside_hold_slack(50 * MiB, 2, 100 * MiB, 128 * MiB), (std::vector<size_t>{178 * MiB, 128 * MiB}));
}

TEST(OutsideHold, FlushBufferIsTwiceTheL2AndAtLeast8MiB) {
    EXPECT_EQ(l2_flush_bytes(50 * MiB), 100 * MiB);
    EXPECT_EQ(l2_flush_bytes(1 * MiB), 8 * MiB);
    EXPECT_EQ(l2_flush_bytes(size_t(40 * MiB) + 3) % 16, 0u);
}

TEST(OutsideHold, NoGpuIsRefusedNotAnEmptyHold) {
    EXPECT_THROW(outside_hold_slack(600 * MiB, 0, 100 * MiB, 128 * MiB), std::invalid_argument);
}

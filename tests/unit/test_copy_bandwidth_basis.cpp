// The copy bandwidth's basis, one for every back end (image_device.hpp), so that % copy compares
// CUDA and OpenCL on one GPU.
#include <gtest/gtest.h>

#include "common/device/image_device.hpp"

using namespace convlab;

TEST(CopyBandwidthBasis, AQuarterOfTheFreeMemoryUpTo1GiB) {
    constexpr size_t GiB = size_t(1) << 30;
    EXPECT_EQ(CopyBandwidthBasis::bytes(80 * GiB), GiB);  // an H100: the cap, whichever API asks
    EXPECT_EQ(CopyBandwidthBasis::bytes(2 * GiB), GiB / 2);
    EXPECT_EQ(CopyBandwidthBasis::bytes(1000003) % 256, 0u);  // whole 256-byte blocks
    EXPECT_LE(CopyBandwidthBasis::bytes(1000003), 1000003u / 4);
}

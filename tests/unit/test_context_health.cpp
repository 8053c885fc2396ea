// ContextHealth: what a device back end (the OpenCL one, cl_device.cpp) concludes from an error.
#include <gtest/gtest.h>

#include <stdexcept>

#include "common/families/filters/context_health.hpp"

using namespace convlab;

namespace {
void fail() { throw DeviceError("a call failed"); }
}  // namespace

TEST(ContextHealth, AnErrorTheDeviceSurvivesLeavesItHealthy) {
    ContextHealth health;
    int probes = 0;
    EXPECT_THROW(health.guarded(fail, [&] { return ++probes, true; }), DeviceError);
    EXPECT_EQ(probes, 1);
    EXPECT_TRUE(health.healthy());
}

TEST(ContextHealth, AFailedProbeEndsTheDeviceForGood) {
    ContextHealth health;
    EXPECT_THROW(health.guarded(fail, [] { return false; }), DeviceError);
    EXPECT_FALSE(health.healthy());
    // A later call that works, or an error the probe would forgive, does not bring it back.
    health.guarded([] {}, [] { return true; });
    EXPECT_THROW(health.guarded(fail, [] { return true; }), DeviceError);
    EXPECT_FALSE(health.healthy());
}

TEST(ContextHealth, OnlyDeviceErrorsAreProbed) {
    ContextHealth health;
    int probes = 0;
    EXPECT_THROW(health.guarded([] { throw Unsupported("too large a work-group"); }, [&] { return ++probes, false; }), Unsupported);
    health.guarded([] {}, [&] { return ++probes, false; });
    EXPECT_EQ(probes, 0);
    EXPECT_TRUE(health.healthy());
}

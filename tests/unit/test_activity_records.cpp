// The driver's activity records as lab 9 reads them: the timeline's lanes and times, the most
// device memory held at once, and the bytes copied each way.
#include <gtest/gtest.h>

#include <vector>

#include "common/families/strips/activity_trace.hpp"

using namespace convlab;
using Kind = ActivityRecord::Kind;

namespace {

ActivityRecord span(Kind kind, int device, uint32_t stream, uint64_t start, uint64_t end, uint64_t bytes = 0) {
    return ActivityRecord{kind, device, stream, start, end, bytes, 0};
}

ActivityRecord memory(Kind kind, int device, uint64_t at, uint64_t address, uint64_t bytes) {
    return ActivityRecord{kind, device, 0, at, at, bytes, address};
}

}  // namespace

TEST(ActivityRecords, TimelineStartsAtTheFirstSpanWithALaneAStreamOfEachGpu) {
    const std::vector<ActivityRecord> records{
        span(Kind::Kernel, 0, 17, 3000000, 4000000), span(Kind::HostToDevice, 0, 13, 1000000, 2500000, 100),
        span(Kind::DeviceToHost, 1, 40, 2000000, 6000000, 400), span(Kind::Memset, 0, 17, 2600000, 2700000, 8),
        memory(Kind::Allocation, 0, 500000, 1, 64), span(Kind::OtherCopy, 0, 13, 0, 1)};
    const std::vector<TimelineSpan> spans = timeline_of(records);
    ASSERT_EQ(spans.size(), 4u);  // allocations and device-to-device copies are no engine's span here
    EXPECT_EQ(spans[0].engine, Engine::HostToDevice);
    EXPECT_DOUBLE_EQ(spans[0].start_ms, 0.0);
    EXPECT_DOUBLE_EQ(spans[0].end_ms, 1.5);
    EXPECT_EQ(spans[0].stream, 0);  // stream 13: GPU 0's first lane
    EXPECT_EQ(spans[1].gpu, 1);
    EXPECT_EQ(spans[1].stream, 0);  // GPU 1 counts its own lanes
    EXPECT_EQ(spans[1].engine, Engine::DeviceToHost);
    EXPECT_EQ(spans[2].engine, Engine::Kernel);  // the memset, on the kernels' side
    EXPECT_EQ(spans[2].stream, 1);               // stream 17: GPU 0's second lane
    EXPECT_EQ(spans[3].stream, 1);
    EXPECT_DOUBLE_EQ(spans[3].end_ms, 3.0);
    EXPECT_NE(spans[1].label.find("400 B"), std::string::npos) << spans[1].label;
}

TEST(ActivityRecords, MemoryUseIsTheMostHeldAtOnceAndWhatIsLeftEachDevice) {
    const std::vector<ActivityRecord> records{
        memory(Kind::Allocation, 0, 10, 0xa, 100), memory(Kind::Allocation, 0, 20, 0xb, 50),
        memory(Kind::Release, 0, 30, 0xa, 100),    memory(Kind::Allocation, 0, 30, 0xc, 120),  // freed and allocated at once
        memory(Kind::Release, 0, 40, 0xdead, 999),  // allocated before the records: ignored
        memory(Kind::Allocation, 1, 15, 0xa, 70)};
    const auto use = device_memory_use(records);
    EXPECT_EQ(use.at(0).peak, 170u);  // 50 + 120: the 100 was released at that moment
    EXPECT_EQ(use.at(0).held_at_end, 170u);
    EXPECT_EQ(use.at(1).peak, 70u);
    EXPECT_TRUE(device_memory_use({}).empty());
    std::vector<ActivityRecord> freed = records;
    for (uint64_t address : {0xb, 0xc}) freed.push_back(memory(Kind::Release, 0, 50, address, 0));
    EXPECT_EQ(device_memory_use(freed).at(0).held_at_end, 0u);  // everything given back
    EXPECT_EQ(device_memory_use(freed).at(0).peak, 170u);
}

TEST(ActivityRecords, CopiedBytesCountOneDirection) {
    const std::vector<ActivityRecord> records{span(Kind::HostToDevice, 0, 1, 0, 1, 10), span(Kind::HostToDevice, 1, 1, 0, 1, 5),
                                              span(Kind::DeviceToHost, 0, 1, 0, 1, 40)};
    EXPECT_EQ(copied_bytes(records, Kind::HostToDevice), 15u);
    EXPECT_EQ(copied_bytes(records, Kind::DeviceToHost), 40u);
    EXPECT_EQ(copied_bytes(records, Kind::Kernel), 0u);
}

TEST(ActivityRecords, CanaryIsItsOwnAllocationAndReleaseAfterItsMoment) {
    const ActivityCanary canary{0xC0FFEE000, 5000};
    const auto alloc = [](uint64_t at, uint64_t address, uint64_t bytes) { return memory(Kind::Allocation, 0, at, address, bytes); };
    const auto freed = [](uint64_t at, uint64_t address, uint64_t bytes) { return memory(Kind::Release, 0, at, address, bytes); };
    // The run's own records, then the canary's pair: taken, and only those two removed.
    std::vector<ActivityRecord> records{alloc(1000, 0xA000, 4096), freed(2000, 0xA000, 4096), alloc(6000, canary.address, 4096),
                                        freed(6100, canary.address, 4096)};
    EXPECT_TRUE(take_activity_canary(records, canary));
    ASSERT_EQ(records.size(), 2u);
    EXPECT_EQ(records[0].address, 0xA000u);
    // Recording switched off for good after the code under test allocated 4 KiB at the canary's
    // address while it was on: that pair came before the canary's moment, so it is not the canary.
    std::vector<ActivityRecord> earlier{alloc(1000, canary.address, 4096), freed(2000, canary.address, 4096)};
    EXPECT_FALSE(take_activity_canary(earlier, canary));
    EXPECT_EQ(earlier.size(), 2u);
    // An allocation of another size at that address after the moment is not the canary either.
    std::vector<ActivityRecord> other{alloc(6000, canary.address, 8192), freed(6100, canary.address, 8192)};
    EXPECT_FALSE(take_activity_canary(other, canary));
    // The allocation without its release: the recording stopped in between.
    std::vector<ActivityRecord> half{alloc(6000, canary.address, 4096)};
    EXPECT_FALSE(take_activity_canary(half, canary));
}

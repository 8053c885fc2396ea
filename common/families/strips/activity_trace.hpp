// convlab harness — do not edit in a lab.
// What the GPUs did while a piece of host code ran, from CUPTI's activity records: every copy,
// memset and kernel with its device, stream, start and end on one clock for all GPUs, and every
// device allocation and release. Nothing has to be recorded by the code under test, so a lab 9
// variant's timeline and its device-memory peak are the driver's account, not the student's.
#pragma once
#include <cstdint>
#include <map>
#include <vector>

#include "common/families/strips/timeline.hpp"

namespace convlab {

struct ActivityRecord {
    enum class Kind { HostToDevice, DeviceToHost, OtherCopy, Memset, Kernel, Allocation, Release };
    Kind kind;
    int device = 0;
    uint32_t stream = 0;
    uint64_t start_ns = 0, end_ns = 0;  // an allocation's or a release's moment in both
    uint64_t bytes = 0;                 // copies, memsets, allocations, releases
    uint64_t address = 0;               // allocations and releases
};

class ActivityTrace {
  public:
    ActivityTrace();   // starts recording, when CUPTI is there and free
    ~ActivityTrace();  // stops
    ActivityTrace(const ActivityTrace&) = delete;
    ActivityTrace& operator=(const ActivityTrace&) = delete;

    // False when nothing can be recorded: the kit was built without CUPTI, or another tool
    // (compute-sanitizer, a profiler) already holds it.
    bool tracing() const { return tracing_; }
    // Waits for the records of everything started so far and returns them, in start order, and
    // forgets them (the next call returns only later ones).
    std::vector<ActivityRecord> collect();

  private:
    bool tracing_ = false;
};

// The copies (H2D, D2H), memsets and kernels of `records` as timeline spans: ms from the first
// one's start, a lane a (device, stream) in order of first use, memsets on the kernel engine.
std::vector<TimelineSpan> timeline_of(const std::vector<ActivityRecord>& records);

// A canary of the harness's own: a small allocation on the current device, released at once. Made
// at the end of a run, its allocation and release must show in that run's records; if they do not,
// the code under test switched the recording off (or took CUPTI's record buffers) while it ran.
// It is known by its address, its size and its moment: after the driver's clock read just before
// it (cuptiGetTimestamp), so that an allocation of the same size the code under test made at the
// same address earlier, while recording, is not taken for it.
struct ActivityCanary {
    static constexpr uint64_t kBytes = 4096;
    uint64_t address = 0;
    uint64_t not_before_ns = 0;  // the records' clock just before the canary
};
ActivityCanary make_activity_canary();
// Whether `records` hold the canary's allocation and release; both are removed (they are not the
// run's own).
bool take_activity_canary(std::vector<ActivityRecord>& records, const ActivityCanary& canary);

// Each device's memory over `records` (allocations less releases, in time order): the most held
// at once, and what is still held at the end. A release of memory allocated before the records
// began is ignored.
struct DeviceMemoryUse {
    uint64_t peak = 0;
    uint64_t held_at_end = 0;
};
std::map<int, DeviceMemoryUse> device_memory_use(const std::vector<ActivityRecord>& records);

// Bytes copied each way, over all devices.
uint64_t copied_bytes(const std::vector<ActivityRecord>& records, ActivityRecord::Kind kind);

}  // namespace convlab

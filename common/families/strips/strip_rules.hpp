// convlab harness — do not edit in a lab.
// Lab 9's rules on one run of a strip variant, judged from the driver's records
// (activity_trace.hpp): kernels launched, every byte of the image copied in and every value of
// the result copied out, never more device memory held than the budget, none left held; and the
// run's result, poisoned before it and checked after it. The lab's own runs (strip_lab.cpp) and
// the runs the grader's timer times (strip_peer.hpp) are held to them alike.
#pragma once
#include <string>
#include <vector>

#include "common/families/strips/activity_trace.hpp"
#include "common/check/check.hpp"
#include "common/families/strips/device_memory_cap.hpp"
#include "common/core/image.hpp"
#include "common/core/mask.hpp"
#include "common/families/strips/strips.hpp"

namespace convlab {

struct StripRunRecords {
    std::vector<ActivityRecord> records;
    bool canary_seen = false;  // the harness's own allocation after the run is in the records (make_activity_canary)
};

// After the variant returned and every GPU was waited for: device 0 current again, the canary
// made, the run's records taken (nothing from before: collect the trace before the run).
StripRunRecords take_strip_run_records(ActivityTrace& trace);

// The first rule the run broke, or "". `cap` is the harness's hold on the rest of each device
// (null where the variant runs without a budget); `unknown_passes`: records that cannot be taken
// at all do not fail the run (an ungraded run, or the grader's sanitizer run, which holds CUPTI).
std::string broken_strip_rule(const StripJob& job, const StripRunRecords& run, const ActivityTrace& trace, const DeviceMemoryCap* cap,
                              bool unknown_passes);

// The check computes the reference this many values at a time: 64 MiB of floats, whatever the image.
constexpr size_t kStripCheckBandValues = size_t(16) << 20;

// NaN in every float of a result, on every core, before a run.
void poison_strip_result(float* result, size_t values);

// A whole result against the OpenMP reference of `input`, a band of rows at a time (banded_check.hpp).
CheckResult check_strip_result(const Image& input, const Mask& mask, Border border, const float* result);

}  // namespace convlab

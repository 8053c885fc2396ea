// convlab harness — do not edit in a lab.
#include "common/families/strips/strip_rules.hpp"

#include <algorithm>
#include <limits>

#include "common/families/strips/banded_check.hpp"

#include "common/families/strips/strip_host.hpp"
#include "common/core/number_format.hpp"

namespace convlab {

StripRunRecords take_strip_run_records(ActivityTrace& trace) {
    reset_current_gpu();
    StripRunRecords run;
    const ActivityCanary canary = trace.tracing() ? make_activity_canary() : ActivityCanary{};
    run.records = trace.collect();
    run.canary_seen = trace.tracing() && take_activity_canary(run.records, canary);
    return run;
}

std::string broken_strip_rule(const StripJob& job, const StripRunRecords& run, const ActivityTrace& trace, const DeviceMemoryCap* cap,
                              bool unknown_passes) {
    // A device reset releases the harness's hold, and the budget with it.
    if (const std::string released = cap ? cap->hold_released() : ""; !released.empty())
        return released + ": a device reset, or memory freed that the variant did not allocate (another program on the GPU?)";
    // What cannot be measured fails a graded run (unless the grader says the sanitizer holds CUPTI).
    if (!trace.tracing())
        return unknown_passes ? ""
                              : "the driver's records of the run could not be taken (the kit built without CUPTI, or another "
                                "subscriber holds it): a graded run fails what it cannot measure";
    if (!run.canary_seen)
        return "the driver's records stopped during the run (the harness's own allocation after it is missing from them): the "
               "recording was switched off, and the memory the strips held cannot be known";
    using K = ActivityRecord::Kind;
    const auto& records = run.records;
    if (std::none_of(records.begin(), records.end(), [](const ActivityRecord& a) { return a.kind == K::Kernel; }))
        return "launched no kernel: the result was not computed on a GPU";
    // The lab's rule on memory: a strip's kernels read and write device memory the variant
    // allocated, within the budget; the host's memory reaches them only through copies. So every
    // byte of the image must be copied in, and every value of the result out: kernels that read
    // the host's memory where it lies (mapped or registered memory, or pageable memory on a GPU
    // that can reach it) hold less than the budget and are not the lesson.
    const uint64_t in_bytes = uint64_t(job.width) * job.height * job.channels, out_bytes = in_bytes * sizeof(float);
    const uint64_t copied_in = copied_bytes(records, K::HostToDevice), copied_out = copied_bytes(records, K::DeviceToHost);
    if (copied_in < in_bytes || copied_out < out_bytes)
        return "copied " + std::to_string(copied_in) + " bytes in and " + std::to_string(copied_out) + " out, less than the image's " +
               std::to_string(in_bytes) + " and the result's " + std::to_string(out_bytes) +
               ": the kernels reached host memory without a copy (mapped or registered host memory is not the strips' device memory)";
    for (const auto& [device, use] : device_memory_use(records)) {
        if (use.peak > job.gpu_memory)
            return "held " + format_bytes(double(use.peak)) + " of device memory at once on GPU " + std::to_string(device) +
                   ", over the budget of " + format_bytes(double(job.gpu_memory));
        if (use.held_at_end > 0)
            return "left " + std::to_string(use.held_at_end) + " bytes of device memory allocated on GPU " + std::to_string(device) +
                   " after it returned";
    }
    return "";
}

void poison_strip_result(float* result, size_t values) {
#pragma omp parallel for schedule(static)
    for (long long i = 0; i < (long long)values; ++i) result[i] = std::numeric_limits<float>::quiet_NaN();
}

CheckResult check_strip_result(const Image& input, const Mask& mask, Border border, const float* result) {
    return check_against_reference_by_bands(input, mask, border, false, result, tolerance_for(mask), TileShape{32, 32},
                                            kStripCheckBandValues);
}

}  // namespace convlab

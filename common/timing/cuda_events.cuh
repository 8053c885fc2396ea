// convlab harness — do not edit in a lab.
// CUDA events for the harness's own timings: an RAII event, the time between two, and the median
// of a call timed between events on the default stream (for the copy bandwidths it measures).
#pragma once
#include <cuda_runtime.h>

#include <vector>

#include "common/device/cuda_check.cuh"
#include "common/timing/stats.hpp"

namespace convlab {

// An event that is destroyed with its scope, so an early exception does not leak it.
struct Event {
    cudaEvent_t event{};
    Event() { CUDA_CHECK(cudaEventCreate(&event)); }
    ~Event() { cudaEventDestroy(event); }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
};

inline float elapsed_ms(const Event& start, const Event& stop) {
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start.event, stop.event));
    return ms;
}

// `call` (work it enqueues on the default stream) run `warmups + reps` times between two events;
// the median milliseconds of the last `reps`.
template <class Call>
double median_event_ms(int warmups, int reps, Call call) {
    Event start, stop;
    std::vector<double> samples;
    for (int rep = 0; rep < warmups + reps; ++rep) {
        CUDA_CHECK(cudaEventRecord(start.event));
        call();
        CUDA_CHECK(cudaEventRecord(stop.event));
        CUDA_CHECK(cudaEventSynchronize(stop.event));
        if (rep >= warmups) samples.push_back(elapsed_ms(start, stop));
    }
    return summarize(samples).median_ms;
}

}  // namespace convlab

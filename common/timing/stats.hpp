// convlab harness — do not edit in a lab.
// Summary statistics of repeated timings.
#pragma once
#include <functional>
#include <vector>

namespace convlab {

// Above this coefficient of variation the report warns that the timing is noisy.
constexpr double kNoisyCv = 0.10;

struct TimingStats {
    int samples = 0;
    double median_ms = 0;
    double min_ms = 0;
    double cv = 0;  // sample standard deviation / mean
    // GPU timings: samples taken by the host clock because the variant's work ran outside the
    // events' stream (another stream, or the CPU); see GpuSession::time_once.
    int host_clock_samples = 0;
    bool noisy() const { return cv > kNoisyCv; }
};

// Median (the mean of the middle two for an even count), minimum and coefficient of variation.
TimingStats summarize(std::vector<double> samples_ms);

// fn run `reps` times, each timed by the host's steady clock (CPU work; the GPU has events).
TimingStats time_on_host_clock(const std::function<void()>& fn, int reps);

}  // namespace convlab

// convlab harness — do not edit in a lab.
#include "common/timing/stats.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace convlab {

TimingStats summarize(std::vector<double> samples_ms) {
    TimingStats stats;
    const size_t n = samples_ms.size();
    stats.samples = int(n);
    if (n == 0) return stats;
    std::sort(samples_ms.begin(), samples_ms.end());
    stats.median_ms = n % 2 ? samples_ms[n / 2] : 0.5 * (samples_ms[n / 2 - 1] + samples_ms[n / 2]);
    stats.min_ms = samples_ms.front();
    if (n > 1) {
        double mean = 0;
        for (double s : samples_ms) mean += s;
        mean /= double(n);
        double var = 0;
        for (double s : samples_ms) var += (s - mean) * (s - mean);
        var /= double(n - 1);
        stats.cv = mean > 0 ? std::sqrt(var) / mean : 0;
    }
    return stats;
}

TimingStats time_on_host_clock(const std::function<void()>& fn, int reps) {
    std::vector<double> samples;
    for (int rep = 0; rep < reps; ++rep) {
        const auto start = std::chrono::steady_clock::now();
        fn();
        samples.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    return summarize(samples);
}

}  // namespace convlab

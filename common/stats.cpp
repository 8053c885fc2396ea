// convlab harness — do not edit in a lab.
#include "common/stats.hpp"

#include <algorithm>
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

}  // namespace convlab

// convlab harness — do not edit in a lab.
#include "common/families/filters/box_filter.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <memory>


namespace convlab {

namespace {

// One line of n values, `stride` apart, summed over windows of radius r under the border rule:
// sums[i * stride] = sum over j in [-r, r] of line[border_index(i + j) * stride]. The window
// slides: the value entering is added and the one leaving subtracted, each mapped by the rule.
template <class In>
void running_sums(const In* line, int n, int stride, int r, Border border, uint32_t* sums) {
    const auto at = [&](int i) -> uint32_t {
        const int j = border_index(i, n, border);
        return j < 0 ? 0u : uint32_t(line[size_t(j) * stride]);
    };
    uint32_t sum = 0;
    for (int j = -r; j <= r; ++j) sum += at(j);
    sums[0] = sum;
    // Only the first r + 1 and the last r outputs have a pixel entering or leaving from outside
    // the line: the rest read the line directly, without the border rule's branches.
    const int inner_begin = std::min(n, r + 1), inner_end = std::max(inner_begin, n - r);
    for (int i = 1; i < inner_begin; ++i) {
        sum += at(i + r) - at(i - r - 1);  // unsigned: the difference wraps, the sum stays exact
        sums[size_t(i) * stride] = sum;
    }
    for (int i = inner_begin; i < inner_end; ++i) {
        sum += uint32_t(line[size_t(i + r) * stride]) - uint32_t(line[size_t(i - r - 1) * stride]);
        sums[size_t(i) * stride] = sum;
    }
    for (int i = inner_end; i < n; ++i) {
        sum += at(i + r) - at(i - r - 1);
        sums[size_t(i) * stride] = sum;
    }
}

}  // namespace

void box_filter_cpu(const Image& image, int k, Border border, float* out, int threads) {
    const int w = image.width, h = image.height, c = image.channels, r = k / 2;
    const size_t row_values = size_t(w) * c;
    // Not zeroed: every entry is written by the row pass, whose threads touch their rows' pages
    // first (a zeroing constructor would fault in the whole buffer on one core).
    const std::unique_ptr<uint32_t[]> row_sums(new uint32_t[row_values * h]);
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int y = 0; y < h; ++y)
        for (int ch = 0; ch < c; ++ch)
            running_sums(image.pixels.data() + y * row_values + ch, w, c, r, border, row_sums.get() + y * row_values + ch);
    // Down the columns, a band of adjacent values a thread, row after row: each step reads two
    // contiguous stretches of row sums (the row entering the window, the row leaving it).
    // 64 values (256 B of sums) a band: even a 1024-value row gives 16 bands to share out.
    constexpr size_t kBand = 64;
    const int bands = int((row_values + kBand - 1) / kBand);
    const float area = float(k) * float(k);
    const auto row_at = [&](int y) -> const uint32_t* {
        const int j = border_index(y, h, border);
        return j < 0 ? nullptr : row_sums.get() + size_t(j) * row_values;
    };
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int band = 0; band < bands; ++band) {
        const size_t first = size_t(band) * kBand, count = std::min(row_values, first + kBand) - first;
        uint32_t sums[kBand] = {};
        for (int i = -r; i <= r; ++i)
            if (const uint32_t* row = row_at(i))
                for (size_t e = 0; e < count; ++e) sums[e] += row[first + e];
        for (int y = 0; y < h; ++y) {
            if (y > 0) {
                // Under the zero border a row outside the image is absent (nullptr): nothing enters or leaves.
                if (const uint32_t* entering = row_at(y + r))
                    for (size_t e = 0; e < count; ++e) sums[e] += entering[first + e];
                if (const uint32_t* leaving = row_at(y - r - 1))
                    for (size_t e = 0; e < count; ++e) sums[e] -= leaving[first + e];
            }
            float* line = out + size_t(y) * row_values + first;
            for (size_t e = 0; e < count; ++e) line[e] = float(sums[e]) / area;
        }
    }
}

}  // namespace convlab

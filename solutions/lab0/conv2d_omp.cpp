// Lab 0 — the CPU baseline. Reference solution.
//
// New in this lab: everything. The rows of the output are split into one contiguous chunk per
// OpenMP thread. Inside a chunk, each output row is built mask row by mask row: the source row
// is first copied into a padded buffer (the border rule applied once, not once per tap), then
// every tap is one pass over contiguous memory that the compiler vectorises.
//
// Build and run:   make lab0 SOLUTION=1 && ./lab0
#include <omp.h>

#include <algorithm>
#include <vector>

#include "labs/lab0/lab0.hpp"

using namespace convlab;

void conv2d_omp(const Image& in, const Mask& mask, Border border, float* out, int threads) {
    const int w = in.width, h = in.height, ch = in.channels, k = mask.k, r = mask.radius();
    const int row_values = w * ch;

    // Where each padded column reads from: border_index(p - r), or -1 for a zero.
    std::vector<int> source_x(size_t(w) + 2 * r);
    for (size_t p = 0; p < source_x.size(); ++p) source_x[p] = border_index(int(p) - r, w, border);

#pragma omp parallel num_threads(threads)
    {
        const int id = omp_get_thread_num(), team = omp_get_num_threads();
        const int chunk = (h + team - 1) / team;
        const int first = std::min(h, id * chunk), last = std::min(h, first + chunk);
        std::vector<float> padded((size_t(w) + 2 * r) * ch);  // one source row, border included
        for (int y = first; y < last; ++y) {
            float* sum = out + size_t(y) * row_values;
            std::fill(sum, sum + row_values, 0.0f);
            for (int i = 0; i < k; ++i) {
                const int sy = border_index(y + i - r, h, border);
                if (sy < 0) continue;  // a zero row adds nothing
                const uint8_t* row = &in.pixels[size_t(sy) * row_values];
                for (size_t p = 0; p < source_x.size(); ++p)
                    for (int c = 0; c < ch; ++c) padded[p * ch + c] = source_x[p] < 0 ? 0.0f : row[source_x[p] * ch + c];
                for (int j = 0; j < k; ++j) {
                    const float weight = mask.weights[size_t(i) * k + j];
                    const float* tap = &padded[size_t(j) * ch];
                    for (int n = 0; n < row_values; ++n) sum[n] += weight * tap[n];
                }
            }
        }
    }
}

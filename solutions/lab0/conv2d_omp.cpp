// Lab 0 — the CPU baseline. Reference solution.
//
// New in this lab: everything. The rows of the output are split into one contiguous chunk per
// OpenMP thread. Border handling is hoisted out of the inner loop: the source row and column of
// every tap position are looked up once per image, not once per tap.
//
// Build and run:   make lab0 SOLUTION=1 && ./lab0
#include <omp.h>

#include <algorithm>
#include <vector>

#include "labs/lab0/lab0.hpp"

using namespace convlab;

namespace {

// source[p] = border_index(p - r, n): where padded position p reads from, or -1 for zero.
std::vector<int> source_positions(int n, int r, Border border) {
    std::vector<int> source(size_t(n) + 2 * r);
    for (size_t p = 0; p < source.size(); ++p) source[p] = border_index(int(p) - r, n, border);
    return source;
}

}  // namespace

void conv2d_omp(const Image& in, const Mask& mask, Border border, float* out, int threads) {
    const int w = in.width, h = in.height, ch = in.channels, k = mask.k, r = mask.radius();
    const std::vector<int> source_x = source_positions(w, r, border);
    const std::vector<int> source_y = source_positions(h, r, border);
    const float* weights = mask.weights.data();

#pragma omp parallel num_threads(threads)
    {
        const int id = omp_get_thread_num(), team = omp_get_num_threads();
        const int chunk = (h + team - 1) / team;
        const int first = std::min(h, id * chunk), last = std::min(h, first + chunk);
        for (int y = first; y < last; ++y)
            for (int x = 0; x < w; ++x)
                for (int c = 0; c < ch; ++c) {
                    float sum = 0.0f;
                    for (int i = 0; i < k; ++i) {
                        const int sy = source_y[y + i];
                        if (sy < 0) continue;
                        const uint8_t* row = &in.pixels[size_t(sy) * w * ch];
                        for (int j = 0; j < k; ++j) {
                            const int sx = source_x[x + j];
                            if (sx >= 0) sum += weights[i * k + j] * float(row[sx * ch + c]);
                        }
                    }
                    out[(size_t(y) * w + x) * ch + c] = sum;
                }
    }
}

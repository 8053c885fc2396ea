// Lab 6 — the building blocks the three solution kernels share (a solution-only header: your
// files hold their own). One block works on one kTileWidth x kTileHeight output tile and one
// channel plane at a time, in shared memory:
//
//   load_tile_transposed   input pixels -> s_in[col][row] as float, the border rule applied
//   row_pass               s_in -> s_mid[row][col]: sum_j row[j] * s_in[col + j][row]
//   column_pass            s_mid -> out: sum_i col[i] * s_mid[row + i][col]
//
// Why transposed: in the row pass lanes take consecutive rows, so each reads s_in[col + j][row]
// at consecutive addresses (no bank conflict), and a thread slides along its own row: its kRun
// outputs need kRun + K - 1 inputs, which it loads once into registers. In the column pass lanes
// take consecutive columns of s_mid and a thread slides down its own column. Both pitches are
// odd, so the transposing writes do not conflict either.
//
// R is the mask radius when known at compile time (the loops unroll, the weights become
// constant-memory operands of the FMAs); R < 0 means "read it from args.k" (any other K).
#pragma once
#include <cuda_runtime.h>

#include "common/border.hpp"
#include "common/conv_args.hpp"
#include "labs/lab6/lab6.hpp"

namespace lab6 {

constexpr int kThreads = 256;  // per block, 8 warps
constexpr int kRun = 8;        // outputs one thread sums along its row (row pass) or column (column pass)
static_assert(kLab6TileWidth % kRun == 0 && kLab6TileHeight % kRun == 0, "a tile side must hold whole runs");
static_assert(kLab6TileWidth % 32 == 0, "a tile row is stored by whole warps");

template <int R>
__device__ __forceinline__ int radius(const convlab::ConvArgs& a) {
    return R >= 0 ? R : a.k / 2;
}

__host__ __device__ constexpr int odd_at_least(int n) { return n | 1; }

// How many loads a thread has in flight in a tile load: issued together, then stored together,
// so a block waits for one memory latency per batch rather than one per load.
constexpr int kLoadBatch = 8;

// One tile load: count elements, element n (row n / cols, column n % cols) read by value(row, col)
// and written by put(row, col, v). cols is a compile-time constant once R is, so the division is
// a multiply.
template <class Value, class Put>
__device__ __forceinline__ void load_tile(int cols, int count, Value value, Put put) {
    for (int base = threadIdx.x; base < count; base += kThreads * kLoadBatch) {
        float v[kLoadBatch];
#pragma unroll
        for (int b = 0; b < kLoadBatch; ++b) {
            const int n = base + b * kThreads, row = n / cols;
            v[b] = n < count ? value(row, n - row * cols) : 0.0f;
        }
#pragma unroll
        for (int b = 0; b < kLoadBatch; ++b) {
            const int n = base + b * kThreads, row = n / cols;
            if (n < count) put(row, n - row * cols, v[b]);
        }
    }
}

// rows x cols pixels of channel c from (gx0, gy0) on (either may lie outside the image) into
// s_in[col * pitch + row] as float.
__device__ __forceinline__ void load_tile_transposed(const convlab::ConvArgs& a, int c, int gx0, int gy0, int cols, int rows,
                                                     float* s_in, int pitch) {
    using convlab::border_index;
    const bool inside = gx0 >= 0 && gy0 >= 0 && gx0 + cols <= a.width && gy0 + rows <= a.height;
    load_tile(
        cols, cols * rows,
        [&](int row, int col) {
            int x = gx0 + col, y = gy0 + row;
            if (!inside) {
                x = border_index(x, a.width, a.border);
                y = border_index(y, a.height, a.border);
                if (x < 0 || y < 0) return 0.0f;
            }
            return float(a.d_in[(size_t(y) * a.width + x) * a.channels + c]);
        },
        [&](int row, int col, float v) { s_in[col * pitch + row] = v; });
}

// The same for floats (the column-pass kernel's input, the row pass's result), row-major:
// s[row * pitch + col]. Columns past the image's edge read as zero; nothing is computed from them.
__device__ __forceinline__ void load_float_rows(const convlab::ConvArgs& a, const float* src, int c, int gx0, int gy0,
                                                int cols, int rows, float* s, int pitch) {
    using convlab::border_index;
    load_tile(
        cols, cols * rows,
        [&](int row, int col) {
            const int x = gx0 + col, y = border_index(gy0 + row, a.height, a.border);
            return (y < 0 || x >= a.width) ? 0.0f : src[(size_t(y) * a.width + x) * a.channels + c];
        },
        [&](int row, int col, float v) { s[row * pitch + col] = v; });
}

// out[m] = sum_j w[j] * s[(m + j) * stride] for m < kRun: one thread's run of outputs along a row
// or down a column. With R known, the kRun + 2R inputs are loaded once into registers and every
// weight is an FMA operand from constant memory; otherwise (any K) each tap is its own load.
template <int R, class Weights>
__device__ __forceinline__ void run_of_sums(const convlab::ConvArgs& a, Weights w, const float* s, int stride, float (&out)[kRun]) {
#pragma unroll
    for (int m = 0; m < kRun; ++m) out[m] = 0.0f;
    if constexpr (R >= 0) {
        float v[kRun + 2 * R];
#pragma unroll
        for (int t = 0; t < kRun + 2 * R; ++t) v[t] = s[t * stride];
#pragma unroll
        for (int j = 0; j < 2 * R + 1; ++j) {
            const float wj = w[j];
#pragma unroll
            for (int m = 0; m < kRun; ++m) out[m] += wj * v[m + j];
        }
    } else {
        const int k = a.k;
        for (int j = 0; j < k; ++j) {
            const float wj = w[j];
#pragma unroll
            for (int m = 0; m < kRun; ++m) out[m] += wj * s[(m + j) * stride];
        }
    }
}

// s_mid[row * mid_pitch + col] = sum_j w[j] * s_in[(col + j) * pitch + row] for every row < rows
// and col < kLab6TileWidth. A thread takes kRun neighbouring columns of one row.
template <int R, class Weights>
__device__ inline void row_pass(const convlab::ConvArgs& a, Weights w, const float* s_in, int pitch, int rows,
                                float* s_mid, int mid_pitch) {
    constexpr int kRuns = kLab6TileWidth / kRun;
    for (int item = threadIdx.x; item < rows * kRuns; item += kThreads) {
        const int run = item / rows, row = item - run * rows;
        float sum[kRun];
        run_of_sums<R>(a, w, s_in + run * kRun * pitch + row, pitch, sum);
#pragma unroll
        for (int m = 0; m < kRun; ++m) s_mid[row * mid_pitch + run * kRun + m] = sum[m];
    }
}

// store(col, row, value) for every col < kLab6TileWidth, row < kLab6TileHeight:
// value = sum_i w[i] * s_mid[(row + i) * mid_pitch + col]. A thread takes kRun rows of one column.
template <int R, class Weights, class Store>
__device__ inline void column_pass(const convlab::ConvArgs& a, Weights w, const float* s_mid, int mid_pitch, Store store) {
    constexpr int kRuns = kLab6TileHeight / kRun;
    for (int item = threadIdx.x; item < kLab6TileWidth * kRuns; item += kThreads) {
        const int col = item % kLab6TileWidth, run = item / kLab6TileWidth;
        float sum[kRun];
        run_of_sums<R>(a, w, s_mid + run * kRun * mid_pitch + col, mid_pitch, sum);
#pragma unroll
        for (int m = 0; m < kRun; ++m) store(col, run * kRun + m, sum[m]);
    }
}

// Calls launch.template operator()<R>() with R the mask's radius when it is one the sweeps use
// (K = 3, 5, 7, 9, 15, 31, 63: fully unrolled), else with R = -1 (any K, loops not unrolled).
template <class Launch>
void dispatch_radius(int k, Launch launch) {
    switch (k / 2) {
        case 1: return launch.template operator()<1>();
        case 2: return launch.template operator()<2>();
        case 3: return launch.template operator()<3>();
        case 4: return launch.template operator()<4>();
        case 7: return launch.template operator()<7>();
        case 15: return launch.template operator()<15>();
        case 31: return launch.template operator()<31>();
        default: return launch.template operator()<-1>();
    }
}

}  // namespace lab6

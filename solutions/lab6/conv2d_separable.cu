// Lab 6 — separable filters: two passes, then one fused kernel. Reference solution.
//
// New since lab 3: a separable K x K mask is a column times a row (weights[i*k + j] =
// col[i] * row[j]), so K taps across and then K down replace K^2 taps, and K goes up to 63.
//   row pass     tmp(x, y) = sum_j c_row[j] * in(x + j - r, y)    border rule on x; d_in -> d_scratch
//   column pass  out(x, y) = sum_i c_col[i] * tmp(x, y + i - r)   border rule on y; d_scratch -> d_out
//   fused        both in one kernel, tmp kept in shared memory:   d_in -> d_out
// Every kernel works on one 64 x 64 output tile a block, 256 threads, one channel at a time, its
// tiles row-major in shared memory: the lanes of a warp take neighbouring columns, so every
// shared-memory access of a warp is 32 consecutive words (no bank conflict) and every global
// one is coalesced. A thread computes the tile's outputs n, n + 256, ... (16 of them).
//
// The tuned kernels (a walk down strips of columns with the sums in registers, word loads,
// unrolled radii) are the expert tier, solutions/lab6/expert/, reported as *-expert rows.
//
// Build and run:   make lab6 SOLUTION=1 && ./lab6          (sweeps K = 3, 5, 7, 9, 15, 31, 63)
#include <cuda_runtime.h>

#include "common/device/cuda_check.cuh"
#include "common/device/shared_memory.cuh"
#include "labs/lab6/lab6.hpp"

using namespace convlab;

__constant__ float c_row[kLab6MaxMaskSize];  // mask.row: the row pass's taps, across x
__constant__ float c_col[kLab6MaxMaskSize];  // mask.col: the column pass's taps, down y

namespace {

constexpr int kThreads = 256;
constexpr int kTileW = kLab6TileWidth, kTileH = kLab6TileHeight;  // 64 x 64 outputs a block

// Pixel (x, y) of channel c as float, the border rule applied on both axes (0 outside a zero border).
__device__ float pixel(const ConvArgs& a, int x, int y, int c) {
    x = border_index(x, a.width, a.border);
    y = border_index(y, a.height, a.border);
    return (x < 0 || y < 0) ? 0.0f : float(a.d_in[(size_t(y) * a.width + x) * a.channels + c]);
}

// Stores output (x, y) of channel c where it lies inside the image (a tile may overhang it).
__device__ void store(float* out, const ConvArgs& a, int x, int y, int c, float value) {
    if (x < a.width && y < a.height) out[(size_t(y) * a.width + x) * a.channels + c] = value;
}

// s_out[row][col] = sum_j c_row[j] * s_in[row][col + j], for rows x 64 outputs: the row pass on
// a tile in shared memory (s_in's rows are 64 + 2r wide).
__device__ void row_pass(const float* s_in, int in_w, int rows, int k, float* s_out) {
    for (int n = threadIdx.x; n < rows * kTileW; n += kThreads) {
        const int row = n / kTileW, col = n % kTileW;
        const float* in = &s_in[row * in_w + col];
        float sum = 0.0f;
        for (int j = 0; j < k; ++j) sum += c_row[j] * in[j];
        s_out[row * kTileW + col] = sum;
    }
}

// The column pass on a tile whose 64 + 2r rows of 64 values are in s_mid: output (col, row) of
// the tile is sum_i c_col[i] * s_mid[row + i][col], stored at (x0 + col, y0 + row).
__device__ void column_pass(const ConvArgs& a, const float* s_mid, int k, int c, int x0, int y0) {
    for (int n = threadIdx.x; n < kTileH * kTileW; n += kThreads) {
        const int row = n / kTileW, col = n % kTileW;
        float sum = 0.0f;
        for (int i = 0; i < k; ++i) sum += c_col[i] * s_mid[(row + i) * kTileW + col];
        store(a.d_out, a, x0 + col, y0 + row, c, sum);
    }
}

}  // namespace

__global__ void conv2d_row_pass_kernel(ConvArgs a) {
    extern __shared__ float s_tile[];  // 64 rows of 64 + 2r inputs, then 64 rows of 64 sums
    const int k = a.k, r = k / 2, in_w = kTileW + 2 * r;
    float* s_sums = s_tile + kTileH * in_w;
    const int x0 = blockIdx.x * kTileW, y0 = blockIdx.y * kTileH;
    for (int c = 0; c < a.channels; ++c) {
        for (int n = threadIdx.x; n < kTileH * in_w; n += kThreads)  // rows below the image: never stored
            s_tile[n] = y0 + n / in_w < a.height ? pixel(a, x0 - r + n % in_w, y0 + n / in_w, c) : 0.0f;
        __syncthreads();
        row_pass(s_tile, in_w, kTileH, k, s_sums);
        for (int n = threadIdx.x; n < kTileH * kTileW; n += kThreads)  // each thread reads its own sums
            store(a.d_scratch, a, x0 + n % kTileW, y0 + n / kTileW, c, s_sums[n]);
        __syncthreads();  // the next channel's load overwrites s_tile
    }
}

__global__ void conv2d_column_pass_kernel(ConvArgs a) {
    extern __shared__ float s_tile[];  // 64 + 2r rows of 64 intermediate values
    const int k = a.k, r = k / 2, rows = kTileH + 2 * r;
    const int x0 = blockIdx.x * kTileW, y0 = blockIdx.y * kTileH;
    for (int c = 0; c < a.channels; ++c) {
        for (int n = threadIdx.x; n < rows * kTileW; n += kThreads) {
            const int x = x0 + n % kTileW, y = border_index(y0 - r + n / kTileW, a.height, a.border);
            s_tile[n] = (y < 0 || x >= a.width) ? 0.0f : a.d_scratch[(size_t(y) * a.width + x) * a.channels + c];
        }
        __syncthreads();
        column_pass(a, s_tile, k, c, x0, y0);
        __syncthreads();  // the next channel's load overwrites s_tile
    }
}

__global__ void conv2d_fused_kernel(ConvArgs a) {
    extern __shared__ float s_tile[];  // (64 + 2r)^2 inputs, then 64 + 2r rows of 64 row sums
    const int k = a.k, r = k / 2, side = kTileW + 2 * r;
    float* s_mid = s_tile + side * side;
    const int x0 = blockIdx.x * kTileW, y0 = blockIdx.y * kTileH;
    for (int c = 0; c < a.channels; ++c) {
        for (int n = threadIdx.x; n < side * side; n += kThreads)
            s_tile[n] = pixel(a, x0 - r + n % side, y0 - r + n / side, c);
        __syncthreads();
        row_pass(s_tile, side, side, k, s_mid);  // all 64 + 2r rows: the column pass reads r above and below
        __syncthreads();
        column_pass(a, s_mid, k, c, x0, y0);
        __syncthreads();  // the next channel's row pass overwrites s_mid
    }
}

namespace {

// Shared memory a block: the row pass, 64 rows of 64 + 2r inputs and 64 rows of 64 sums (48 KB at
// K = 63); the column pass, 64 + 2r rows of 64 values; the fused kernel, (64 + 2r)^2 inputs and
// 64 + 2r rows of 64 row sums (94 KB at K = 63, above the default 48 KB).
size_t row_pass_floats(int k) { return size_t(kTileH) * (kTileW + k - 1 + kTileW); }
size_t column_pass_floats(int k) { return size_t(kTileH + k - 1) * kTileW; }
size_t fused_floats(int k) { return size_t(kTileW + k - 1) * (kTileW + k - 1 + kTileW); }

// One block a 64 x 64 output tile, `floats` of dynamic shared memory (over 48 KB allowed first).
template <class Kernel>
void launch_on_tiles(Kernel kernel, size_t floats, const ConvArgs& args, const char* name) {
    const size_t bytes = floats * sizeof(float);
    allow_dynamic_shared_memory(kernel, bytes, name);
    const dim3 grid((args.width + kTileW - 1) / kTileW, (args.height + kTileH - 1) / kTileH);
    kernel<<<grid, kThreads, bytes>>>(args);
    CUDA_CHECK_LAUNCH();
}

}  // namespace

void copy_factors_to_constant(const Mask& mask) {
    CUDA_CHECK(cudaMemcpyToSymbol(c_row, mask.row.data(), mask.row.size() * sizeof(float)));
    CUDA_CHECK(cudaMemcpyToSymbol(c_col, mask.col.data(), mask.col.size() * sizeof(float)));
}

void launch_row_pass(const ConvArgs& args) { launch_on_tiles(conv2d_row_pass_kernel, row_pass_floats(args.k), args, "conv2d_row_pass_kernel"); }
void launch_column_pass(const ConvArgs& args) { launch_on_tiles(conv2d_column_pass_kernel, column_pass_floats(args.k), args, "conv2d_column_pass_kernel"); }
void launch_conv2d_fused(const ConvArgs& args) { launch_on_tiles(conv2d_fused_kernel, fused_floats(args.k), args, "conv2d_fused_kernel"); }

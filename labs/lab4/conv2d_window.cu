// Lab 4 — granularity: 1 x 8 outputs per thread, the input row in registers.
//
// New since conv2d_coarse.cu: the outputs of a thread are neighbours in a row, so they read
// overlapping stretches of the input row. Load each stretch from shared memory four floats at a
// time into registers and reuse every value for several taps and outputs, instead of one
// shared-memory load per multiply-add. handouts/lab4.md walks through the register window.
//
// Build and run:   make lab4 && ./lab4 --variant window-8x1,window-8x2,window-8x4
#include "common/device/cuda_check.cuh"
#include "common/core/errors.hpp"
#include "common/device/shared_memory.cuh"
#include "labs/lab4/lab4.hpp"

using namespace convlab;

template <int GY>
__global__ void __launch_bounds__(kWindowBlockX * kWindowBlockY) conv2d_window_kernel(ConvArgs a) {
    static_assert(GY >= 1 && GY <= 8, "rows per thread: 1 to 8");
    extern __shared__ float4 s_raw[];  // float4-aligned, for 16-byte loads
    // TODO(lab4): block of 32x8 threads, output tile 256 x (8*GY).
    //   1. Weights: the k rows of args.d_mask into shared memory, each padded with zeros to k4,
    //      a multiple of 4.
    //   2. The input tile, one plane per channel, rows of pitch = 256 + k4 floats (zeros past
    //      the tile's 256 + k - 1 columns).
    //   3. __syncthreads().
    //   4. Thread tx computes the runs x = 4*tx .. 4*tx+3 and 4*tx+128 .. 4*tx+131 of rows
    //      ty*GY .. ty*GY+GY-1. For each input row t and every 4 taps q: two float4 loads of
    //      the row (cur, nxt), one float4 of weights per mask row t - gy, 16 FMAs per run.
    //   5. Store: a float4 when the run is whole and aligned, else value by value.
    (void)a, (void)s_raw;
}

template <int GY>
void launch_conv2d_window(const ConvArgs& args) {
    // TODO(lab4): shared bytes for the planes and the weights; allow_dynamic_shared_memory(...);
    //   a grid of ceil(width / 256) x ceil(height / (8*GY)) blocks of 32x8 threads; launch; check.
    (void)args;
    todo("launch_conv2d_window");
}

// Harness: one instantiation per row count the driver sweeps. Keep.
#define INSTANTIATE(gy) template void launch_conv2d_window<gy>(const ConvArgs&);
LAB4_WINDOW_ROWS(INSTANTIATE)
#undef INSTANTIATE

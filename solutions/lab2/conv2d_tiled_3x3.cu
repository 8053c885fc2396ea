// Lab 2 — fixed-mask tiling (3x3). Reference solution.
//
// New since lab 1: each block copies the pixels its outputs need into shared memory once, and
// every thread then reads its 9 taps from there instead of from global memory. The mask is 3x3
// and sits in constant memory. Two ways to shape the block:
//   tiled-input:  the block is the 16x16 input tile; every thread loads one pixel, and only the
//                 inner 14x14 threads compute (a ring of 60 threads idles in the compute phase);
//   tiled-output: the block is the 16x16 output tile; every thread computes, and the threads on
//                 the block's edge load the 18x18 tile's halo as well.
//
// Build and run:   make lab2 SOLUTION=1 && ./lab2
#include "common/device/cuda_check.cuh"
#include "labs/lab2/lab2.hpp"

using namespace convlab;


__constant__ float c_mask3x3[9];

namespace {

// Pixel (x, y) of the image after the border rule, all channels, into s[0..channels).
__device__ void load_pixel(const ConvArgs& a, int x, int y, float* s) {
    const int sx = border_index(x, a.width, a.border), sy = border_index(y, a.height, a.border);
    if (sx < 0 || sy < 0) {
        for (int c = 0; c < a.channels; ++c) s[c] = 0.0f;
        return;
    }
    const uint8_t* p = a.d_in + (size_t(sy) * a.width + sx) * a.channels;
    for (int c = 0; c < a.channels; ++c) s[c] = float(p[c]);
}

// out(x, y) from a shared tile whose row pitch is `pitch` pixels; (tx, ty) is the tap centre.
template <int kPitch>
__device__ void convolve_3x3(const ConvArgs& a, const float (*s_tile)[kPitch * kLab2MaxChannels], int tx, int ty, int x, int y) {
    for (int c = 0; c < a.channels; ++c) {
        float sum = 0.0f;
#pragma unroll
        for (int i = 0; i < 3; ++i)
#pragma unroll
            for (int j = 0; j < 3; ++j) sum += c_mask3x3[i * 3 + j] * s_tile[ty + i - 1][(tx + j - 1) * a.channels + c];
        a.d_out[(size_t(y) * a.width + x) * a.channels + c] = sum;
    }
}

}  // namespace

__global__ void conv2d_tiled_in_kernel(ConvArgs a) {
    __shared__ float s_tile[kLab2InputTile][kLab2InputTile * kLab2MaxChannels];
    const int tx = threadIdx.x, ty = threadIdx.y;
    // The block's outputs start at a multiple of 14; its input tile one pixel up and left of that.
    const int x = blockIdx.x * kLab2InputTileOutputs + tx - 1;
    const int y = blockIdx.y * kLab2InputTileOutputs + ty - 1;
    load_pixel(a, x, y, &s_tile[ty][tx * a.channels]);
    __syncthreads();
    const bool inner = tx >= 1 && tx <= kLab2InputTileOutputs && ty >= 1 && ty <= kLab2InputTileOutputs;
    if (inner && x < a.width && y < a.height) convolve_3x3<kLab2InputTile>(a, s_tile, tx, ty, x, y);
}

__global__ void conv2d_tiled_out_kernel(ConvArgs a) {
    constexpr int kTile = kLab2OutputTile + 2;
    __shared__ float s_tile[kTile][kTile * kLab2MaxChannels];
    const int tx = threadIdx.x, ty = threadIdx.y, last = kLab2OutputTile - 1;
    const int x = blockIdx.x * kLab2OutputTile + tx, y = blockIdx.y * kLab2OutputTile + ty;
    const int C = a.channels;
    // Every thread loads its own pixel; the edge threads also load the halo beside them, and
    // the four corner threads the halo's corners. Threads outside the image still load (the
    // border rule decides what) and reach the barrier.
    load_pixel(a, x, y, &s_tile[ty + 1][(tx + 1) * C]);
    if (tx == 0) load_pixel(a, x - 1, y, &s_tile[ty + 1][0]);
    if (tx == last) load_pixel(a, x + 1, y, &s_tile[ty + 1][(kTile - 1) * C]);
    if (ty == 0) load_pixel(a, x, y - 1, &s_tile[0][(tx + 1) * C]);
    if (ty == last) load_pixel(a, x, y + 1, &s_tile[kTile - 1][(tx + 1) * C]);
    if (tx == 0 && ty == 0) load_pixel(a, x - 1, y - 1, &s_tile[0][0]);
    if (tx == last && ty == 0) load_pixel(a, x + 1, y - 1, &s_tile[0][(kTile - 1) * C]);
    if (tx == 0 && ty == last) load_pixel(a, x - 1, y + 1, &s_tile[kTile - 1][0]);
    if (tx == last && ty == last) load_pixel(a, x + 1, y + 1, &s_tile[kTile - 1][(kTile - 1) * C]);
    __syncthreads();
    if (x < a.width && y < a.height) convolve_3x3<kTile>(a, s_tile, tx + 1, ty + 1, x, y);
}

void copy_mask3x3_to_constant(const Mask& mask) {
    CUDA_CHECK(cudaMemcpyToSymbol(c_mask3x3, mask.weights.data(), 9 * sizeof(float)));
}

void launch_conv2d_tiled_in(const ConvArgs& args) {
    const dim3 grid((args.width + kLab2InputTileOutputs - 1) / kLab2InputTileOutputs,
                    (args.height + kLab2InputTileOutputs - 1) / kLab2InputTileOutputs);
    conv2d_tiled_in_kernel<<<grid, dim3(kLab2InputTile, kLab2InputTile)>>>(args);
    CUDA_CHECK_LAUNCH();
}

void launch_conv2d_tiled_out(const ConvArgs& args) {
    const dim3 grid((args.width + kLab2OutputTile - 1) / kLab2OutputTile, (args.height + kLab2OutputTile - 1) / kLab2OutputTile);
    conv2d_tiled_out_kernel<<<grid, dim3(kLab2OutputTile, kLab2OutputTile)>>>(args);
    CUDA_CHECK_LAUNCH();
}

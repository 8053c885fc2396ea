// Lab 8 — the Canny edge detector, stages 2 to 4: gradients, non-maximum suppression, thresholds.
// (Reference solution: the design the TODOs describe; the kit's tuned kernels are its expert tier,
// solutions/lab8/expert/.) Each pixel by the rules of canny_rules.hpp on the reference's floats.
//
// Build and run:   make lab8 && ./lab8          (lab 6's fused kernel smooths: finish lab 6 first)
#include <cuda_runtime.h>

#include "common/families/pipelines/canny_rules.hpp"
#include "common/device/cuda_check.cuh"
#include "common/families/pipelines/stride_grid.cuh"
#include "labs/lab8/lab8.hpp"

using namespace convlab;

constexpr int kThreads = 256;     // a block of the grid-stride kernels, eight warps
constexpr int kTile = kLab8Tile;  // the fused kernel's tile and block: kTile x kTile pixels, a thread each
static_assert(kTile * kTile <= 1024 && kTile * kTile % 32 == 0, "a block of whole warps, a thread a pixel of the tile");

// A Sobel tap: the smoothed image at (x, y) by the border rule, 0 where the rule reads none (zero).
__device__ float smoothed_at(const CannyArgs& a, int x, int y) {
    const int sx = border_index(x, a.width, a.border), sy = border_index(y, a.height, a.border);
    return sx < 0 || sy < 0 ? 0.0f : a.d_smoothed[size_t(sy) * a.width + sx];
}

// A magnitude as suppression reads it: 0 outside the image (no border rule).
__device__ float magnitude_at(const CannyArgs& a, int x, int y) {
    return x < 0 || y < 0 || x >= a.width || y >= a.height ? 0.0f : a.d_magnitude[size_t(y) * a.width + x];
}

// The block's largest m into *a.d_max_magnitude: each warp's by shuffles, the warps' through shared
// memory, then one atomicMax a block on the float's bits (non-negative floats order as their bits
// do). Every thread of the block calls it.
__device__ void block_max_to_global(const CannyArgs& a, float m) {
    __shared__ float s_warp_max[32];
    for (int offset = 16; offset > 0; offset /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, offset));
    const int thread = threadIdx.y * blockDim.x + threadIdx.x, warps = blockDim.x * blockDim.y / 32;
    if (thread % 32 == 0) s_warp_max[thread / 32] = m;
    __syncthreads();  // every warp's slot written before thread 0 reads them
    if (thread == 0) {
        for (int w = 1; w < warps; ++w) m = fmaxf(m, s_warp_max[w]);
        atomicMax(a.d_max_magnitude, __float_as_uint(m));
    }
}

// Stage 2: a grid-stride loop over the rows, a block a row at a time and its threads across it (no
// division a pixel); the largest magnitude a thread saw, reduced at the end.
__global__ void gradients_kernel(CannyArgs a) {
    float largest = 0.0f;
    for (int y = blockIdx.x; y < a.height; y += gridDim.x)
        for (int x = threadIdx.x; x < a.width; x += blockDim.x) {
            const size_t i = size_t(y) * a.width + x;
            float n[3][3];
            for (int r = 0; r < 3; ++r)
                for (int c = 0; c < 3; ++c) n[r][c] = smoothed_at(a, x + c - 1, y + r - 1);
            const Gradient g = sobel_gradient(n);
            const float m = gradient_magnitude(g);
            a.d_magnitude[i] = m;
            a.d_direction[i] = uint8_t(quantise_direction(g));
            largest = fmaxf(largest, m);
        }
    block_max_to_global(a, largest);  // after the loop: every thread of the block gets here
}

// Stage 3: each pixel against its two neighbours along its direction; rows as in stage 2.
__global__ void suppression_kernel(CannyArgs a) {
    for (int y = blockIdx.x; y < a.height; y += gridDim.x)
        for (int x = threadIdx.x; x < a.width; x += blockDim.x) {
            const size_t i = size_t(y) * a.width + x;
            int dx = 0, dy = 0;
            direction_step(EdgeDirection(a.d_direction[i]), &dx, &dy);
            a.d_suppressed[i] = suppress(a.d_magnitude[i], magnitude_at(a, x - dx, y - dy), magnitude_at(a, x + dx, y + dy));
        }
}

// Stages 2 and 3 in one kernel, a block a tile: the magnitudes never go to global memory. A tile's
// suppression reads the magnitudes one pixel around it, whose gradients read one pixel further:
// the smoothed tile with a frame of 2 pixels (s_in), the magnitudes with a frame of 1 (s_magnitude).
__global__ void __launch_bounds__(kTile * kTile) gradients_suppression_kernel(CannyArgs a) {
    constexpr int kIn = kTile + 4, kMag = kTile + 2;
    __shared__ float s_in[kIn][kIn];        // s_in[r][c]: pixel (x0 - 2 + c, y0 - 2 + r)
    __shared__ float s_magnitude[kMag][kMag];  // s_magnitude[r][c]: pixel (x0 - 1 + c, y0 - 1 + r)
    __shared__ uint8_t s_direction[kTile][kTile];
    const int x0 = blockIdx.x * kTile, y0 = blockIdx.y * kTile;
    const int thread = threadIdx.y * kTile + threadIdx.x, tx = threadIdx.x, ty = threadIdx.y;
    for (int j = thread; j < kIn * kIn; j += kTile * kTile)  // 1. the smoothed tile and its 2-pixel frame
        s_in[j / kIn][j % kIn] = smoothed_at(a, x0 - 2 + j % kIn, y0 - 2 + j / kIn);
    __syncthreads();
    // 2. The magnitudes of the tile and its 1-pixel frame (0 outside the image, as suppression reads
    //    them), and the tile's own directions.
    for (int j = thread; j < kMag * kMag; j += kTile * kTile) {
        const int r = j / kMag, c = j % kMag, x = x0 - 1 + c, y = y0 - 1 + r;
        float n[3][3];  // pixel (x, y) is s_in[r + 1][c + 1]
        for (int i = 0; i < 3; ++i)
            for (int k = 0; k < 3; ++k) n[i][k] = s_in[r + i][c + k];
        const Gradient g = sobel_gradient(n);
        s_magnitude[r][c] = x >= 0 && y >= 0 && x < a.width && y < a.height ? gradient_magnitude(g) : 0.0f;
        if (r >= 1 && r <= kTile && c >= 1 && c <= kTile) s_direction[r - 1][c - 1] = uint8_t(quantise_direction(g));
    }
    __syncthreads();  // 3. each pixel of the tile suppressed from the shared magnitudes
    const float m = s_magnitude[ty + 1][tx + 1];  // 0 outside the image
    if (x0 + tx < a.width && y0 + ty < a.height) {
        int dx = 0, dy = 0;
        direction_step(EdgeDirection(s_direction[ty][tx]), &dx, &dy);
        a.d_suppressed[size_t(y0 + ty) * a.width + x0 + tx] =
            suppress(m, s_magnitude[ty + 1 - dy][tx + 1 - dx], s_magnitude[ty + 1 + dy][tx + 1 + dx]);
    }
    block_max_to_global(a, m);  // 4. the tile's largest, as in the gradients kernel
}

// Stage 4: the thresholds resolved as the reference resolves them (relative ones by one float
// product each), then a label a pixel.
__global__ void thresholds_kernel(CannyArgs a) {
    const float largest = __uint_as_float(*a.d_max_magnitude);
    const float low = a.relative ? a.low * largest : a.low, high = a.relative ? a.high * largest : a.high;
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < a.pixels(); i += size_t(gridDim.x) * blockDim.x)
        a.d_labels[i] = uint8_t(threshold_label(a.d_suppressed[i], low, high));
}

void launch_canny_gradients(const CannyArgs& a) {
    gradients_kernel<<<stride_grid_blocks(), kThreads>>>(a);
    CUDA_CHECK_LAUNCH();
}

void launch_canny_suppression(const CannyArgs& a) {
    suppression_kernel<<<stride_grid_blocks(), kThreads>>>(a);
    CUDA_CHECK_LAUNCH();
}

void launch_canny_gradients_suppression(const CannyArgs& a) {
    const dim3 tiles((a.width + kTile - 1) / kTile, (a.height + kTile - 1) / kTile);
    gradients_suppression_kernel<<<tiles, dim3(kTile, kTile)>>>(a);
    CUDA_CHECK_LAUNCH();
}

void launch_canny_thresholds(const CannyArgs& a) {
    thresholds_kernel<<<stride_grid_blocks(), kThreads>>>(a);
    CUDA_CHECK_LAUNCH();
}

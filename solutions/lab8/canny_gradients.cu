// Lab 8 — the Canny edge detector, stages 2 to 4: gradients, non-maximum suppression, thresholds.
// (Reference solution.)
//
// Stages 2 and 3 apart read and write every pixel once, a block a row: 4 B read and 5 B written by
// the gradients (the Sobel taps of the rows above and below hit L1 and L2), 5 B read and 4 written
// by the suppression. Fused, a block takes 32 x 32 tiles in turn: the smoothed tile with a 2-pixel
// frame, then magnitudes of the tile and its 1-pixel frame (the neighbours suppression compares),
// all in shared memory; 4 B read and 4 written a pixel. The frame's magnitudes are computed twice
// (by this tile and its neighbour), which costs arithmetic, not bytes.
#include <cuda_runtime.h>

#include "common/canny_rules.hpp"
#include "common/cuda_check.cuh"
#include "common/stride_grid.cuh"
#include "labs/lab8/lab8.hpp"

using namespace convlab;

namespace {

constexpr int kThreads = 256;
constexpr int kTile = kLab8Tile;
constexpr int kSmoothedSide = kTile + 4;   // two pixels of frame: the Sobel taps of the frame's magnitudes
constexpr int kMagnitudeSide = kTile + 2;  // one pixel of frame: the neighbours suppression compares

__device__ float smoothed_tap(const CannyArgs& a, int x, int y) {
    const int sx = border_index(x, a.width, a.border), sy = border_index(y, a.height, a.border);
    return sx < 0 || sy < 0 ? 0.0f : a.d_smoothed[size_t(sy) * a.width + sx];
}

// The block's largest magnitude into *a.d_max_magnitude: a warp shuffle, then one atomicMax a
// block on the float's bits (non-negative floats order as their bits do).
__device__ void block_max_to_global(const CannyArgs& a, float m) {
    __shared__ float s_warp_max[kThreads / 32];
    for (int offset = 16; offset > 0; offset /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, offset));
    if (threadIdx.x % 32 == 0) s_warp_max[threadIdx.x / 32] = m;
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int w = 1; w < kThreads / 32; ++w) m = fmaxf(m, s_warp_max[w]);
        if (m > 0.0f) atomicMax(a.d_max_magnitude, __float_as_uint(m));
    }
}

// Stages 2 and 3 apart go a row at a time, a block a row (grid-stride over the rows), the block's
// threads across it: 32-bit row and column indices, no division a pixel (a 64-bit i / width cost
// more than the pixel's arithmetic), and the border rule only on the first and last rows and
// columns, whose taps can leave the image.
__device__ bool inside_frame(const CannyArgs& a, int x, int y) { return x >= 1 && y >= 1 && x + 1 < a.width && y + 1 < a.height; }

__global__ void __launch_bounds__(kThreads) gradients_kernel(CannyArgs a) {
    float largest = 0.0f;
    for (int y = blockIdx.x; y < a.height; y += gridDim.x) {
        const size_t row = size_t(y) * a.width;
        for (int x = threadIdx.x; x < a.width; x += blockDim.x) {
            float n[3][3];
            if (inside_frame(a, x, y)) {
                const float* above = a.d_smoothed + row - a.width + x - 1;
                for (int r = 0; r < 3; ++r)
                    for (int c = 0; c < 3; ++c) n[r][c] = above[size_t(r) * a.width + c];
            } else {
                for (int r = 0; r < 3; ++r)
                    for (int c = 0; c < 3; ++c) n[r][c] = smoothed_tap(a, x + c - 1, y + r - 1);
            }
            const Gradient g = sobel_gradient(n);
            const float m = gradient_magnitude(g);
            a.d_magnitude[row + x] = m;
            a.d_direction[row + x] = uint8_t(quantise_direction(g));
            largest = fmaxf(largest, m);
        }
    }
    block_max_to_global(a, largest);
}

// A magnitude as suppression reads it: 0 outside the image (no border rule).
__device__ float magnitude_or_zero(const CannyArgs& a, int x, int y) {
    return x < 0 || y < 0 || x >= a.width || y >= a.height ? 0.0f : a.d_magnitude[size_t(y) * a.width + x];
}

__global__ void __launch_bounds__(kThreads) suppression_kernel(CannyArgs a) {
    for (int y = blockIdx.x; y < a.height; y += gridDim.x) {
        const size_t row = size_t(y) * a.width;
        for (int x = threadIdx.x; x < a.width; x += blockDim.x) {
            int dx = 0, dy = 0;
            direction_step(EdgeDirection(a.d_direction[row + x]), &dx, &dy);
            float before, after;
            if (inside_frame(a, x, y)) {
                const ptrdiff_t step = ptrdiff_t(dy) * a.width + dx;
                before = a.d_magnitude[row + x - step], after = a.d_magnitude[row + x + step];
            } else {
                before = magnitude_or_zero(a, x - dx, y - dy), after = magnitude_or_zero(a, x + dx, y + dy);
            }
            a.d_suppressed[row + x] = suppress(a.d_magnitude[row + x], before, after);
        }
    }
}

__global__ void __launch_bounds__(kThreads) gradients_suppression_kernel(CannyArgs a) {
    __shared__ float s_smoothed[kSmoothedSide][kSmoothedSide + 1];
    __shared__ float s_magnitude[kMagnitudeSide][kMagnitudeSide + 1];
    __shared__ uint8_t s_direction[kTile][kTile];
    const int tiles_x = (a.width + kTile - 1) / kTile, tiles_y = (a.height + kTile - 1) / kTile;
    float largest = 0.0f;
    for (int tile = blockIdx.x; tile < tiles_x * tiles_y; tile += gridDim.x) {
        const int x0 = tile % tiles_x * kTile, y0 = tile / tiles_x * kTile;
        __syncthreads();  // the last tile's suppression is done with shared memory
        for (int n = threadIdx.x; n < kSmoothedSide * kSmoothedSide; n += blockDim.x) {
            const int r = n / kSmoothedSide, c = n % kSmoothedSide;
            s_smoothed[r][c] = smoothed_tap(a, x0 - 2 + c, y0 - 2 + r);
        }
        __syncthreads();
        for (int n = threadIdx.x; n < kMagnitudeSide * kMagnitudeSide; n += blockDim.x) {
            const int r = n / kMagnitudeSide, c = n % kMagnitudeSide, x = x0 - 1 + c, y = y0 - 1 + r;
            float m = 0.0f;  // outside the image suppression reads 0
            if (x >= 0 && y >= 0 && x < a.width && y < a.height) {
                float nb[3][3];
                for (int i = 0; i < 3; ++i)
                    for (int j = 0; j < 3; ++j) nb[i][j] = s_smoothed[r + i][c + j];
                const Gradient g = sobel_gradient(nb);
                m = gradient_magnitude(g);
                if (r >= 1 && c >= 1 && r <= kTile && c <= kTile) {  // the tile's own pixel, not its frame's
                    s_direction[r - 1][c - 1] = uint8_t(quantise_direction(g));
                    largest = fmaxf(largest, m);
                }
            }
            s_magnitude[r][c] = m;
        }
        __syncthreads();
        for (int n = threadIdx.x; n < kTile * kTile; n += blockDim.x) {
            const int r = n / kTile, c = n % kTile, x = x0 + c, y = y0 + r;
            if (x >= a.width || y >= a.height) continue;
            int dx = 0, dy = 0;
            direction_step(EdgeDirection(s_direction[r][c]), &dx, &dy);
            a.d_suppressed[size_t(y) * a.width + x] =
                suppress(s_magnitude[r + 1][c + 1], s_magnitude[r + 1 - dy][c + 1 - dx], s_magnitude[r + 1 + dy][c + 1 + dx]);
        }
    }
    block_max_to_global(a, largest);
}

__global__ void __launch_bounds__(kThreads) thresholds_kernel(CannyArgs a) {
    float low = a.low, high = a.high;
    if (a.relative) {
        const float largest = __uint_as_float(*a.d_max_magnitude);
        low = a.low * largest, high = a.high * largest;  // the reference's float products
    }
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < a.pixels(); i += size_t(gridDim.x) * blockDim.x)
        a.d_labels[i] = uint8_t(threshold_label(a.d_suppressed[i], low, high));
}

}  // namespace

void launch_canny_gradients(const CannyArgs& a) {
    gradients_kernel<<<stride_grid_blocks(), kThreads>>>(a);
    CUDA_CHECK_LAUNCH();
}

void launch_canny_suppression(const CannyArgs& a) {
    suppression_kernel<<<stride_grid_blocks(), kThreads>>>(a);
    CUDA_CHECK_LAUNCH();
}

void launch_canny_gradients_suppression(const CannyArgs& a) {
    gradients_suppression_kernel<<<stride_grid_blocks(), kThreads>>>(a);
    CUDA_CHECK_LAUNCH();
}

void launch_canny_thresholds(const CannyArgs& a) {
    thresholds_kernel<<<stride_grid_blocks(), kThreads>>>(a);
    CUDA_CHECK_LAUNCH();
}

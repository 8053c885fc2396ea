// Lab 3 — generic tiling. Reference solution.
//
// New since lab 2: any odd mask size K, including masks wider than the tile. A 16x16 block
// computes a 16x16 output tile from a (16+K-1)^2 input tile in dynamic shared memory (its size
// known only at run time). The tile is bigger than the block, so it is loaded in passes: thread
// n loads tile elements n, n+256, n+512, ... until the tile is full; every thread loads and
// every thread computes.
//
// Build and run:   make lab3 SOLUTION=1 && ./lab3
#include "common/device/cuda_check.cuh"
#include "labs/lab3/lab3.hpp"

using namespace convlab;

__constant__ float c_tiled_mask[kLab3MaxMaskSize * kLab3MaxMaskSize];

// Tile layout: row-major, channels interleaved: s_tile[(row * tile_w + col) * channels + c].
// With 3 channels neighbouring threads read 3 words apart: 3 is odd, so no bank conflicts.
__global__ void conv2d_tiled_kernel(ConvArgs a) {
    extern __shared__ float s_tile[];
    const int k = a.k, r = k / 2, C = a.channels;
    const int tile_w = kLab3Tile + k - 1, tile_h = kLab3Tile + k - 1;
    const int x0 = blockIdx.x * kLab3Tile, y0 = blockIdx.y * kLab3Tile;
    const int tid = threadIdx.y * kLab3Tile + threadIdx.x, threads = kLab3Tile * kLab3Tile;

    for (int n = tid; n < tile_w * tile_h; n += threads) {
        const int row = n / tile_w, col = n - row * tile_w;
        const int sy = border_index(y0 - r + row, a.height, a.border);
        const int sx = border_index(x0 - r + col, a.width, a.border);
        float* s = &s_tile[n * C];
        if (sx < 0 || sy < 0) {
            for (int c = 0; c < C; ++c) s[c] = 0.0f;
        } else {
            const uint8_t* p = a.d_in + (size_t(sy) * a.width + sx) * C;
            for (int c = 0; c < C; ++c) s[c] = float(p[c]);
        }
    }
    __syncthreads();

    const int x = x0 + threadIdx.x, y = y0 + threadIdx.y;
    if (x >= a.width || y >= a.height) return;
    for (int c = 0; c < C; ++c) {
        float sum = 0.0f;
        for (int i = 0; i < k; ++i) {
            const float* row = &s_tile[((threadIdx.y + i) * tile_w + threadIdx.x) * C + c];
            for (int j = 0; j < k; ++j) sum += c_tiled_mask[i * k + j] * row[j * C];
        }
        a.d_out[(size_t(y) * a.width + x) * C + c] = sum;
    }
}

void copy_mask_to_tiled_constant(const Mask& mask) {
    CUDA_CHECK(cudaMemcpyToSymbol(c_tiled_mask, mask.weights.data(), mask.weights.size() * sizeof(float)));
}

void launch_conv2d_tiled(const ConvArgs& args) {
    const int tile = kLab3Tile + args.k - 1;
    const size_t shared_bytes = size_t(tile) * tile * args.channels * sizeof(float);  // 25 KB at k=31, 3 channels
    const dim3 grid((args.width + kLab3Tile - 1) / kLab3Tile, (args.height + kLab3Tile - 1) / kLab3Tile);
    conv2d_tiled_kernel<<<grid, dim3(kLab3Tile, kLab3Tile), shared_bytes>>>(args);
    CUDA_CHECK_LAUNCH();
}

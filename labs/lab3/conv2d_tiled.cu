// Lab 3 — generic tiling.
//
// New since lab 2: any odd mask size K, including masks wider than the tile. A 16x16 block
// computes a 16x16 output tile from a (16+K-1)^2 input tile in dynamic shared memory (its size
// known only at run time). The tile is bigger than the block, so it is loaded in passes: thread
// n loads tile elements n, n+256, n+512, ... until the tile is full; every thread loads and
// every thread computes.
//
// Build and run:   make lab3 && ./lab3          (sweeps K = 3, 5, 7, 9, 15, 31)
#include "common/device/cuda_check.cuh"
#include "common/core/errors.hpp"
#include "labs/lab3/lab3.hpp"

using namespace convlab;

__constant__ float c_tiled_mask[kLab3MaxMaskSize * kLab3MaxMaskSize];

__global__ void conv2d_tiled_kernel(ConvArgs a) {
    extern __shared__ float s_tile[];
    // TODO(lab3):
    //   1. The tile is (16 + k - 1) x (16 + k - 1) pixels starting at (bx*16 - r, by*16 - r).
    //      Thread n = ty*16 + tx loads tile elements n, n + 256, ... (row = e / tile_w,
    //      col = e % tile_w), every channel, border rule applied, into s_tile[e*channels + c].
    //   2. __syncthreads().
    //   3. If (bx*16 + tx, by*16 + ty) is inside the image: sum c_tiled_mask[i*k + j] times
    //      s_tile[((ty + i)*tile_w + tx + j)*channels + c] and store it.
    (void)a, (void)s_tile;
}

void copy_mask_to_tiled_constant(const Mask& mask) {
    // TODO(lab3): cudaMemcpyToSymbol(c_tiled_mask, ...) the k*k weights. Then delete the line below.
    (void)mask;
    todo("copy_mask_to_tiled_constant");
}

void launch_conv2d_tiled(const ConvArgs& args) {
    // TODO(lab3): shared bytes = (16 + k - 1)^2 * channels * sizeof(float); a 16x16 block per
    //   16x16 outputs; launch with the shared bytes as the third <<< >>> argument; check.
    (void)args;
    todo("launch_conv2d_tiled");
}

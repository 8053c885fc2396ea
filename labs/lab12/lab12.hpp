// convlab lab 12 — do not edit: the kernel of your conv2d_tiled.cl the kit launches, and how.
// The driver (main.cpp) runs it as its `tiled` variant; measurements/cuda_vs_opencl.cpp launches
// the same one beside lab 3's CUDA kernel, so that both time one design.
#pragma once
#include "common/families/filters/cl_device.hpp"

constexpr int kLab12Tile = 16;  // a work-group of 16x16 work-items computes a 16x16 output tile (TILE in the .cl)

// The tile's local memory, set at every launch as lab 3's dynamic shared memory:
// (16 + k - 1)^2 pixels of `channels` floats, 25 KB at k = 31 with 3 channels.
inline size_t lab12_tile_bytes(const convlab::ConvArgs& a) {
    const size_t side = kLab12Tile + a.k - 1;
    return side * side * a.channels * sizeof(float);
}

inline const convlab::ClKernel kLab12Tiled{"conv2d_tiled.cl", "conv2d_tiled_kernel", {2, kLab12Tile, kLab12Tile}, lab12_tile_bytes};

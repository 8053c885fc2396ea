// Lab 2 — fixed-mask tiling (3x3).
//
// New since lab 1: each block copies the pixels its outputs need into shared memory once, and
// every thread then reads its 9 taps from there instead of from global memory. The mask is 3x3
// and sits in constant memory. Two ways to shape the block:
//   tiled-input:  the block is the 16x16 input tile; every thread loads one pixel, and only the
//                 inner 14x14 threads compute;
//   tiled-output: the block is the 16x16 output tile; every thread computes, and the threads on
//                 the block's edge load the 18x18 tile's halo as well.
//
// Build and run:   make lab2 && ./lab2          (handouts/lab2.md has the diagrams)
#include "common/device/cuda_check.cuh"
#include "common/core/errors.hpp"
#include "labs/lab2/lab2.hpp"

using namespace convlab;


__constant__ float c_mask3x3[9];

__global__ void conv2d_tiled_in_kernel(ConvArgs a) {
    // TODO(lab2): __shared__ float s_tile[kLab2InputTile][kLab2InputTile * kLab2MaxChannels];
    //   block (bx, by) computes outputs starting at (bx*14, by*14); its thread (tx, ty)
    //   loads input pixel (bx*14 + tx - 1, by*14 + ty - 1), every channel, through border_index()
    //   (-1: store 0) into s_tile[ty][tx*channels + c]. Then __syncthreads(). Then the threads with
    //   1 <= tx, ty <= 14 whose pixel lies inside the image compute the 3x3 sum from s_tile and
    //   c_mask3x3 and store it.
    (void)a;
}

__global__ void conv2d_tiled_out_kernel(ConvArgs a) {
    // TODO(lab2): __shared__ float s_tile[kLab2OutputTile + 2][(kLab2OutputTile + 2) * kLab2MaxChannels];
    //   thread (tx, ty) owns output (bx*16 + tx, by*16 + ty) and loads that pixel into
    //   s_tile[ty + 1][(tx + 1)*channels + c]. Threads with tx == 0 or 15, ty == 0 or 15 also load
    //   the halo pixel beside them, and the four corner threads the corner. Threads outside the
    //   image load too (the border rule decides what) and must reach __syncthreads(). Then every
    //   thread whose output lies inside the image computes it from s_tile[ty + i][...].
    (void)a;
}

void copy_mask3x3_to_constant(const Mask& mask) {
    // TODO(lab2): cudaMemcpyToSymbol(c_mask3x3, ...) the 9 weights. Then delete the line below.
    (void)mask;
    todo("copy_mask3x3_to_constant");
}

void launch_conv2d_tiled_in(const ConvArgs& args) {
    // TODO(lab2): 16x16 threads per block; enough blocks for 14x14 outputs each; launch; check.
    (void)args;
    todo("launch_conv2d_tiled_in");
}

void launch_conv2d_tiled_out(const ConvArgs& args) {
    // TODO(lab2): 16x16 threads per block, one block per 16x16 outputs; launch; check.
    (void)args;
    todo("launch_conv2d_tiled_out");
}

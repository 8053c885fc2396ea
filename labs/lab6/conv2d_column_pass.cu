// Lab 6 — separable filters, part 2: the column pass.
//
// The row pass (conv2d_row_pass.cu) left tmp(x, y) in args.d_scratch. This pass sums down:
//   out(x, y) = sum_i col[i] * tmp(x, y + i - r),  border rule on y (a zero border reads 0).
// The halo is now above and below. Two passes move 13 B per value (1 read + 4 written, then
// 4 read + 4 written); the fused kernel (conv2d_fused.cu) keeps tmp in shared memory: 5 B.
//
// Build and run:   make lab6 && ./lab6
#include "common/cuda_check.cuh"
#include "common/errors.hpp"
#include "labs/lab6/lab6.hpp"

using namespace convlab;

__constant__ float c_column_pass_col[kLab6MaxMaskSize];

__global__ void conv2d_column_pass_kernel(ConvArgs a) {
    extern __shared__ float s_tile[];
    // TODO(lab6):
    //   1. Load the 64 + 2r rows from y = by*64 - r (border rule on y) of the tile's 64 columns
    //      of a.d_scratch, one channel at a time, into s_tile.
    //   2. __syncthreads().
    //   3. Each output inside the image: sum c_column_pass_col[i] * tile(x, y + i), store it in
    //      a.d_out[(y*width + x)*channels + c].
    (void)a, (void)s_tile;
}

void copy_column_to_column_pass_constant(const Mask& mask) {
    // TODO(lab6): cudaMemcpyToSymbol(c_column_pass_col, ...) the k weights of mask.col. Then delete the line below.
    (void)mask;
    todo("copy_column_to_column_pass_constant");
}

void launch_column_pass(const ConvArgs& args) {
    // TODO(lab6): shared bytes for the tile; a grid of 64x64-output tiles; launch; check.
    (void)args;
    todo("launch_column_pass");
}

// Lab 6 — separable filters: two passes, then one fused kernel.
//
// New since lab 3: a separable K x K mask is a column times a row (weights[i*k + j] =
// col[i] * row[j]), so K taps across and then K down replace K^2 taps, and K goes up to 63.
//   row pass     tmp(x, y) = sum_j c_row[j] * in(x + j - r, y)    border rule on x; d_in -> d_scratch
//   column pass  out(x, y) = sum_i c_col[i] * tmp(x, y + i - r)   border rule on y; d_scratch -> d_out
//   fused        both in one kernel, tmp kept in shared memory:   d_in -> d_out
// d_scratch is a float per value, laid out like d_out. Two passes move 13 B a value (1 read + 4
// written, then 4 read + 4 written); the fused kernel 5 B, as lab 3 does. Every kernel works on
// kLab6TileWidth x kLab6TileHeight (64 x 64) output tiles; write helpers the three kernels share.
//
// Build and run:   make lab6 && ./lab6          (sweeps K = 3, 5, 7, 9, 15, 31, 63)
#include "common/device/cuda_check.cuh"
#include "common/core/errors.hpp"
#include "common/device/shared_memory.cuh"
#include "labs/lab6/lab6.hpp"

using namespace convlab;

__constant__ float c_row[kLab6MaxMaskSize];  // mask.row: the row pass's taps, across x
__constant__ float c_col[kLab6MaxMaskSize];  // mask.col: the column pass's taps, down y

__global__ void conv2d_row_pass_kernel(ConvArgs a) {
    extern __shared__ float s_tile[];
    // TODO(lab6), part 1:
    //   1. The tile's 64 rows, each 64 + 2r pixels from x = bx*64 - r (border rule on x), one
    //      channel at a time, as float into s_tile.
    //   2. __syncthreads().
    //   3. Each output inside the image: sum c_row[j] * tile(x + j, y) for j < k, stored in
    //      a.d_scratch[(y*width + x)*channels + c].
    //   Faster: a thread sums several neighbouring outputs of one row, loading each input once.
    (void)a, (void)s_tile;
}

__global__ void conv2d_column_pass_kernel(ConvArgs a) {
    extern __shared__ float s_tile[];
    // TODO(lab6), part 2:
    //   1. The 64 + 2r rows from y = by*64 - r (border rule on y: a zero border reads 0) of the
    //      tile's 64 columns of a.d_scratch, one channel at a time, into s_tile.
    //   2. __syncthreads().
    //   3. Each output inside the image: sum c_col[i] * tile(x, y + i), stored in
    //      a.d_out[(y*width + x)*channels + c].
    (void)a, (void)s_tile;
}

__global__ void conv2d_fused_kernel(ConvArgs a) {
    extern __shared__ float s_tile[];
    // TODO(lab6), part 3:
    //   1. The (64 + 2r) x (64 + 2r) input tile from (bx*64 - r, by*64 - r), border rule on both
    //      axes, one channel at a time, as float.
    //   2. __syncthreads().
    //   3. The row pass over all 64 + 2r rows of it (the column pass needs r rows above and
    //      below the tile), into a second shared array of (64 + 2r) x 64 floats.
    //   4. __syncthreads().
    //   5. The column pass from that array: each output inside the image, into a.d_out.
    //   6. Before the next channel's row pass overwrites the second array: __syncthreads().
    (void)a, (void)s_tile;
}

void copy_factors_to_constant(const Mask& mask) {
    // TODO(lab6): cudaMemcpyToSymbol mask.row into c_row and mask.col into c_col (k floats each).
    //   Then delete the line below.
    (void)mask;
    todo("copy_factors_to_constant");
}

void launch_row_pass(const ConvArgs& args) {
    // TODO(lab6): shared bytes for the tile; a grid of 64x64-output tiles; launch; check.
    (void)args;
    todo("launch_row_pass");
}

void launch_column_pass(const ConvArgs& args) {
    // TODO(lab6): as launch_row_pass, for conv2d_column_pass_kernel.
    (void)args;
    todo("launch_column_pass");
}

void launch_conv2d_fused(const ConvArgs& args) {
    // TODO(lab6): shared bytes for both arrays (about 94 KB at K = 63: above 48 KB call
    //   allow_dynamic_shared_memory first, common/device/shared_memory.cuh); a grid of 64x64-output
    //   tiles; launch; check.
    (void)args;
    todo("launch_conv2d_fused");
}

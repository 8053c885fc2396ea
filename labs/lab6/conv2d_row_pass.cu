// Lab 6 — separable filters, part 1: the row pass.
//
// New since lab 3: a separable K x K mask is a column times a row (weights[i*k + j] =
// col[i] * row[j]), so K taps across and then K down replace K^2 taps. This pass sums across:
//   tmp(x, y) = sum_j row[j] * in(x + j - r, y),  border rule on x, into args.d_scratch (float,
//   laid out like args.d_out). The column pass (conv2d_column_pass.cu) finishes the job.
// The halo is on the left and right only; K goes up to 63.
//
// Build and run:   make lab6 && ./lab6          (sweeps K = 3, 5, 7, 9, 15, 31, 63)
#include "common/cuda_check.cuh"
#include "common/errors.hpp"
#include "labs/lab6/lab6.hpp"

using namespace convlab;

__constant__ float c_row_pass_row[kLab6MaxMaskSize];

__global__ void conv2d_row_pass_kernel(ConvArgs a) {
    extern __shared__ float s_tile[];
    // TODO(lab6):
    //   1. The block's tile: kLab6TileWidth x kLab6TileHeight outputs from (bx*64, by*64). Load its
    //      64 rows, each 64 + 2r pixels from x = bx*64 - r (border rule on x; a row below the
    //      image is not needed), one channel at a time, as float into s_tile.
    //   2. __syncthreads().
    //   3. Each output inside the image: sum c_row_pass_row[j] * tile(x + j, y) for j < k, and
    //      store it in a.d_scratch[(y*width + x)*channels + c].
    //   Faster: a thread sums several neighbouring outputs of one row, loading each tap once.
    (void)a, (void)s_tile;
}

void copy_row_to_row_pass_constant(const Mask& mask) {
    // TODO(lab6): cudaMemcpyToSymbol(c_row_pass_row, ...) the k weights of mask.row. Then delete the line below.
    (void)mask;
    todo("copy_row_to_row_pass_constant");
}

void launch_row_pass(const ConvArgs& args) {
    // TODO(lab6): shared bytes for the tile; a grid of 64x64-output tiles; launch; check. Above
    //   48 KB of shared memory, allow_dynamic_shared_memory (common/shared_memory.cuh) first.
    (void)args;
    todo("launch_row_pass");
}

// Lab 6 — separable filters, part 3: one fused kernel.
//
// New since the two passes: the row pass of a tile goes to shared memory, not global, and the
// column pass reads it there. The column pass of a 64-row tile needs the row pass of 64 + 2r
// rows, so the block loads a (64 + 2r) x (64 + 2r) input tile and runs the row pass over all of
// its rows: 1 B read and 4 B written per value, as in lab 3, with 2K taps instead of K^2.
//
// Build and run:   make lab6 && ./lab6
#include "common/cuda_check.cuh"
#include "common/errors.hpp"
#include "labs/lab6/lab6.hpp"

using namespace convlab;

__constant__ float c_fused_row[kLab6MaxMaskSize];
__constant__ float c_fused_col[kLab6MaxMaskSize];

__global__ void conv2d_fused_kernel(ConvArgs a) {
    extern __shared__ float s_tile[];
    // TODO(lab6):
    //   1. Load the (64 + 2r) x (64 + 2r) input tile from (bx*64 - r, by*64 - r), border rule on
    //      both axes, one channel at a time, as float.
    //   2. __syncthreads().
    //   3. Row pass over all 64 + 2r rows of it, into a second shared array of (64 + 2r) x 64 floats.
    //   4. __syncthreads().
    //   5. Column pass from that array: each output inside the image, into a.d_out.
    //   6. Before the next channel's row pass overwrites the second array: __syncthreads().
    (void)a, (void)s_tile;
}

void copy_factors_to_fused_constant(const Mask& mask) {
    // TODO(lab6): both vectors: mask.row into c_fused_row, mask.col into c_fused_col. Then delete the line below.
    (void)mask;
    todo("copy_factors_to_fused_constant");
}

void launch_conv2d_fused(const ConvArgs& args) {
    // TODO(lab6): shared bytes for both arrays (about 97 KB at K = 63: allow_dynamic_shared_memory
    //   first, common/shared_memory.cuh); a grid of 64x64-output tiles; launch; check.
    (void)args;
    todo("launch_conv2d_fused");
}

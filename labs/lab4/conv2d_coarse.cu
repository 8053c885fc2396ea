// Lab 4 — granularity: G x G outputs per thread.
//
// New since lab 3: a thread computes GX x GY outputs, so a block of BX x BY threads covers a
// (BX*GX) x (BY*GY) output tile. One mask weight, read once, then serves GX*GY multiply-adds,
// and the tile's halo is shared by more outputs. The driver sweeps the shapes listed in
// lab4.hpp (LAB4_COARSE_SHAPES).
//
// Build and run:   make lab4 && ./lab4
#include "common/device/cuda_check.cuh"
#include "common/core/errors.hpp"
#include "common/device/shared_memory.cuh"
#include "labs/lab4/lab4.hpp"

using namespace convlab;

__constant__ float c_coarse_mask[kLab4MaxMaskSize * kLab4MaxMaskSize];

template <int GX, int GY, int BX, int BY>
__global__ void __launch_bounds__(BX * BY) conv2d_coarse_kernel(ConvArgs a) {
    static_assert(GX >= 1 && GX <= 8 && GY >= 1 && GY <= 8, "outputs per thread: 1 to 8 in each direction");
    static_assert((BX * BY) % 32 == 0 && BX * BY <= 1024, "threads per block: a whole number of warps, at most 1024");
    extern __shared__ float s_tile[];
    // TODO(lab4):
    //   1. Load the (BX*GX + k - 1) x (BY*GY + k - 1) tile as in lab 3 (loop over rows from ty
    //      in steps of BY and columns from tx in steps of BX: no division per element).
    //   2. __syncthreads().
    //   3. float acc[GY][GX]; for each tap (i, j) read the weight once and update every output.
    //      Take the outputs (tx + gx*BX, ty + gy*BY) so a warp reads consecutive words.
    //   4. Store the outputs that lie inside the image.
    (void)a, (void)s_tile;
}

void copy_mask_to_coarse_constant(const Mask& mask) {
    // TODO(lab4): cudaMemcpyToSymbol(c_coarse_mask, ...). Then delete the line below.
    (void)mask;
    todo("copy_mask_to_coarse_constant");
}

template <int GX, int GY, int BX, int BY>
void launch_conv2d_coarse(const ConvArgs& args) {
    // TODO(lab4): the shared bytes of the tile; allow_dynamic_shared_memory(conv2d_coarse_kernel<...>,
    //   bytes, "conv2d_coarse_kernel") for tiles over 48 KB; a grid of ceil(width / (BX*GX)) x
    //   ceil(height / (BY*GY)) blocks of BX x BY threads; launch; check.
    (void)args;
    todo("launch_conv2d_coarse");
}

// Harness: one instantiation per shape the driver sweeps. Keep.
#define INSTANTIATE(gx, gy, bx, by) template void launch_conv2d_coarse<gx, gy, bx, by>(const ConvArgs&);
LAB4_COARSE_SHAPES(INSTANTIATE)
#undef INSTANTIATE

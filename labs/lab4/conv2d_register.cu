// Lab 4 — granularity without shared memory: 4 x GY outputs per thread, straight from global
// memory into registers.
//
// New since conv2d_window.cu: for a small mask the tile in shared memory costs more than it
// saves. Here a thread reads the few input words it needs directly (the L1 cache serves what
// neighbouring threads share), keeps a window of each input row in registers and reuses every
// row for the GY output rows it touches. The mask size K is a template parameter, so every
// index is a compile-time constant (the window stays in registers; the weights are operands).
// It covers the image's interior only; register_frame.cuh computes the frame around it.
//
// Build and run:   make lab4 && ./lab4 --mask box:3,box:5 --variant register-4x1,register-4x4
#include "common/device/cuda_check.cuh"
#include "common/core/errors.hpp"
#include "labs/lab4/lab4.hpp"
#include "labs/lab4/register_frame.cuh"

using namespace convlab;

__constant__ float c_register_mask[kRegisterMaxMaskSize * kRegisterMaxMaskSize];

template <int K, int GY>
__global__ void __launch_bounds__(kRegisterThreads) conv2d_register_kernel(ConvArgs a, Interior in) {
    static_assert(K % 2 == 1 && K <= kRegisterMaxMaskSize, "an odd mask of at most kRegisterMaxMaskSize");
    // Harness: the blocks past the interior's row groups compute the frame (register_frame.cuh). Keep.
    const int interior_rows = in.empty() ? 0 : (in.y_hi - in.y_lo) / GY;
    if (int(blockIdx.y) >= interior_rows) {
        register_frame_pixel(a, in, ((long long)(blockIdx.y - interior_rows) * gridDim.x + blockIdx.x) * kRegisterThreads + threadIdx.x);
        return;
    }
    // TODO(lab4): the interior (register_frame.cuh): thread n of block (bx, by) owns outputs
    //   x = in.x_lo + 4*(bx*256 + n) .. x+3 (return when x >= in.x_hi) of rows y0 = in.y_lo + by*GY
    //   .. y0+GY-1. For each input row t = 0 .. GY + K - 2 (image row y0 - r + t): read the row's
    //   values x - 4L .. x + 3 + 4L (L = ceil(r/4); 4-byte loads, no bounds checks needed) into
    //   float v[...]; then for every output row gy with i = t - gy in [0, K):
    //   acc[gy][g] += c_register_mask[i*K + j] * v[4L + g + j - r]. Unroll every loop
    //   (#pragma unroll) so that all indices are constants. Store one float4 per row.
    (void)a, (void)in;
}

void copy_mask_to_register_constant(const Mask& mask) {
    // TODO(lab4): cudaMemcpyToSymbol(c_register_mask, ...) when mask.k <= kRegisterMaxMaskSize.
    //   Then delete the line below.
    (void)mask;
    todo("copy_mask_to_register_constant");
}

template <int GY>
void launch_conv2d_register(const ConvArgs& args) {
    // TODO(lab4): switch on args.k; for each k of LAB4_REGISTER_SIZES: in = interior_of<k, GY>(args);
    //   launch conv2d_register_kernel<k, GY> with 256-thread blocks on the grid
    //   register_grid<GY>(args, in, 256, 4) (the interior's blocks, then the frame's) and check it.
    //   For any other k throw Unsupported("...") naming the limit.
    (void)args;
    todo("launch_conv2d_register");
}

// Harness: one instantiation per row count the driver sweeps. Keep.
#define INSTANTIATE(gy) template void launch_conv2d_register<gy>(const ConvArgs&);
LAB4_REGISTER_ROWS(INSTANTIATE)
#undef INSTANTIATE

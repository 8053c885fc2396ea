// Lab 4 — granularity: G x G outputs per thread. Reference solution.
//
// New since lab 3: a thread computes GX x GY outputs, so a block of BX x BY threads covers a
// (BX*GX) x (BY*GY) output tile. One mask weight, read once, now serves GX*GY multiply-adds, and
// the tile's halo is shared by more outputs. Each output still reads its own shared-memory
// value per tap, so this kernel cannot beat the shared-memory bandwidth: one 4-byte load per
// multiply-add. (conv2d_window.cu removes that limit.)
//
// Thread (tx, ty) takes the outputs (tx + gx*BX, ty + gy*BY): strided, so that a warp's loads
// hit consecutive shared-memory words and its stores consecutive addresses.
//
// Build and run:   make lab4 SOLUTION=1 && ./lab4
#include "common/device/cuda_check.cuh"
#include "common/device/shared_memory.cuh"
#include "labs/lab4/lab4.hpp"

using namespace convlab;

__constant__ float c_coarse_mask[kLab4MaxMaskSize * kLab4MaxMaskSize];

namespace {

// The compute phase with the channel count known at compile time, so that the offsets of the
// GX*GY loads are immediates and only one address is computed per tap.
template <int C, int GX, int GY, int BX, int BY>
__device__ void coarse_outputs(const ConvArgs& a, const float* s_tile, int tile_w, int x0, int y0) {
    const int k = a.k;
    for (int c = 0; c < C; ++c) {
        float acc[GY][GX] = {};
        for (int i = 0; i < k; ++i) {
            const float* row = s_tile + ((threadIdx.y + i) * tile_w + threadIdx.x) * C + c;
            for (int j = 0; j < k; ++j) {
                const float w = c_coarse_mask[i * k + j];
#pragma unroll
                for (int gy = 0; gy < GY; ++gy)
#pragma unroll
                    for (int gx = 0; gx < GX; ++gx) acc[gy][gx] += w * row[(gy * BY * tile_w + gx * BX + j) * C];
            }
        }
#pragma unroll
        for (int gy = 0; gy < GY; ++gy)
#pragma unroll
            for (int gx = 0; gx < GX; ++gx) {
                const int x = x0 + threadIdx.x + gx * BX, y = y0 + threadIdx.y + gy * BY;
                if (x < a.width && y < a.height) a.d_out[(size_t(y) * a.width + x) * C + c] = acc[gy][gx];
            }
    }
}

}  // namespace

template <int GX, int GY, int BX, int BY>
__global__ void __launch_bounds__(BX * BY) conv2d_coarse_kernel(ConvArgs a) {
    static_assert(GX >= 1 && GX <= 8 && GY >= 1 && GY <= 8, "outputs per thread: 1 to 8 in each direction");
    static_assert((BX * BY) % 32 == 0 && BX * BY <= 1024, "threads per block: a whole number of warps, at most 1024");
    extern __shared__ float s_tile[];
    const int k = a.k, r = k / 2, C = a.channels;
    const int tile_w = BX * GX + k - 1, tile_h = BY * GY + k - 1;
    const int x0 = blockIdx.x * BX * GX, y0 = blockIdx.y * BY * GY;

    // The tile in passes over rows and columns: no division per element.
    for (int row = threadIdx.y; row < tile_h; row += BY) {
        const int sy = border_index(y0 - r + row, a.height, a.border);
        const uint8_t* src = a.d_in + size_t(sy < 0 ? 0 : sy) * a.width * C;
        for (int col = threadIdx.x; col < tile_w; col += BX) {
            const int sx = border_index(x0 - r + col, a.width, a.border);
            const bool zero = sy < 0 || sx < 0;
            float* s = s_tile + (row * tile_w + col) * C;
            for (int c = 0; c < C; ++c) s[c] = zero ? 0.0f : float(src[sx * C + c]);
        }
    }
    __syncthreads();
    if (C == 1) coarse_outputs<1, GX, GY, BX, BY>(a, s_tile, tile_w, x0, y0);
    else coarse_outputs<3, GX, GY, BX, BY>(a, s_tile, tile_w, x0, y0);
}

void copy_mask_to_coarse_constant(const Mask& mask) {
    CUDA_CHECK(cudaMemcpyToSymbol(c_coarse_mask, mask.weights.data(), mask.weights.size() * sizeof(float)));
}

template <int GX, int GY, int BX, int BY>
void launch_conv2d_coarse(const ConvArgs& args) {
    const size_t shared_bytes = size_t(BX * GX + args.k - 1) * (BY * GY + args.k - 1) * args.channels * sizeof(float);
    allow_dynamic_shared_memory(conv2d_coarse_kernel<GX, GY, BX, BY>, shared_bytes, "conv2d_coarse_kernel");
    const dim3 grid((args.width + BX * GX - 1) / (BX * GX), (args.height + BY * GY - 1) / (BY * GY));
    conv2d_coarse_kernel<GX, GY, BX, BY><<<grid, dim3(BX, BY), shared_bytes>>>(args);
    CUDA_CHECK_LAUNCH();
}

#define INSTANTIATE(gx, gy, bx, by) template void launch_conv2d_coarse<gx, gy, bx, by>(const ConvArgs&);
LAB4_COARSE_SHAPES(INSTANTIATE)
#undef INSTANTIATE

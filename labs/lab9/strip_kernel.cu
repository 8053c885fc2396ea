// convlab lab 9 — given, do not edit.
// The strip convolution lab 9 hands its students (labs/lab9/strip_kernel.hpp): lab 3's shared-memory tile, 32x32 outputs a
// block, each thread 4 rows of them. Up and down it reads the strip's own rows (the halo is in
// them); left and right it follows the border rule. Fast enough that the copies, not the kernel,
// set a strip's time (a strip's floats cross PCIe at tens of GB/s, the kernel runs at TB/s).
#include "common/device/cuda_check.cuh"
#include "common/core/errors.hpp"
#include "labs/lab9/strip_kernel.hpp"

namespace convlab {

namespace {

constexpr int kTile = 32;        // outputs a block, each way
constexpr int kRowsAThread = 4;  // a block of 32x8 threads
static_assert(kTile % kRowsAThread == 0, "the block's rows must divide the tile");

__constant__ float c_strip_mask[kStripMaxMaskSize * kStripMaxMaskSize];

__global__ void conv2d_strip_kernel(StripArgs a) {
    extern __shared__ float s_tile[];
    const int span = kTile + a.k - 1;  // the tile's input, each way
    const int x0 = blockIdx.x * kTile, y0 = blockIdx.y * kTile, r = a.k / 2;
    const int in_rows = a.rows + a.k - 1;
    const int threads = blockDim.x * blockDim.y, tid = threadIdx.y * blockDim.x + threadIdx.x;
    for (int e = tid; e < span * span; e += threads) {
        const int ty = e / span, tx = e - ty * span;
        const int y = min(y0 + ty, in_rows - 1);  // rows past the strip feed no output
        const int x = border_index(x0 + tx - r, a.width, a.border);
        const uint8_t* row = a.d_in + size_t(y) * a.width * a.channels;
        for (int c = 0; c < a.channels; ++c) s_tile[(ty * span + tx) * a.channels + c] = x < 0 ? 0.f : float(row[x * a.channels + c]);
    }
    __syncthreads();
    const int x = x0 + threadIdx.x;
    if (x >= a.width) return;
    for (int i = 0; i < kRowsAThread; ++i) {
        const int ty = threadIdx.y + i * blockDim.y, y = y0 + ty;
        if (y >= a.rows) return;
        for (int c = 0; c < a.channels; ++c) {
            float sum = 0.f;
            for (int my = 0; my < a.k; ++my)
                for (int mx = 0; mx < a.k; ++mx)
                    sum += c_strip_mask[my * a.k + mx] * s_tile[((ty + my) * span + threadIdx.x + mx) * a.channels + c];
            a.d_out[(size_t(y) * a.width + x) * a.channels + c] = sum;
        }
    }
}

}  // namespace

void launch_conv2d_strip(const StripArgs& a, cudaStream_t stream) {
    if (a.k < 1 || a.k % 2 == 0 || a.k > kStripMaxMaskSize) throw Unsupported("launch_conv2d_strip: k must be odd, 1 to 31");
    if (a.rows <= 0) return;
    const int span = kTile + a.k - 1;
    const size_t shared = size_t(span) * span * a.channels * sizeof(float);
    if (shared > 48 * 1024) CUDA_CHECK(cudaFuncSetAttribute(conv2d_strip_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)));
    const dim3 block(kTile, kTile / kRowsAThread), grid((a.width + kTile - 1) / kTile, (a.rows + kTile - 1) / kTile);
    conv2d_strip_kernel<<<grid, block, shared, stream>>>(a);
    CUDA_CHECK(cudaGetLastError());
}

void set_strip_mask(const float* weights, int k) {
    CUDA_CHECK(cudaMemcpyToSymbol(c_strip_mask, weights, size_t(k) * k * sizeof(float)));
}

}  // namespace convlab

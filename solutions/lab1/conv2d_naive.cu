// Lab 1 — global memory: the naive kernel. Reference solution.
//
// New since lab 0: the work moves to the GPU. One thread computes one output pixel (all of its
// channels), reading the image and the mask straight from global memory. The kernel three ways:
// a 2-D grid, a 1-D grid, and the 2-D grid with the mask in constant memory.
//
// Build and run:   make lab1 SOLUTION=1 && ./lab1
#include "common/device/cuda_check.cuh"
#include "labs/lab1/lab1.hpp"

using namespace convlab;

constexpr int kBlockX = 16, kBlockY = 16;  // 256 threads; 16 pixels of a row per half-warp
constexpr int kBlock1d = 256;

// The mask for the _const kernel: every thread of a warp reads the same weight at the same time,
// which the constant cache serves in one transaction.
__constant__ float c_mask[kLab1MaxMaskSize * kLab1MaxMaskSize];

struct GlobalMask {
    const float* d_mask;
    __device__ float operator()(int n) const { return d_mask[n]; }
};
struct ConstantMask {
    __device__ float operator()(int n) const { return c_mask[n]; }
};

// All channels of a pixel at once: one border lookup and one mask load per tap serve 1 or 3
// channels. The channel loop is unrolled to the maximum, so sum[] stays in registers.
constexpr int kMaxChannels = 3;

template <class MaskRead>
__device__ void conv2d_naive_pixel(const ConvArgs& args, int x, int y, MaskRead mask) {
    const int r = args.k / 2;
    float sum[kMaxChannels] = {};
    for (int i = 0; i < args.k; ++i) {
        const int sy = border_index(y + i - r, args.height, args.border);
        if (sy < 0) continue;
        const uint8_t* row = args.d_in + size_t(sy) * args.width * args.channels;
        for (int j = 0; j < args.k; ++j) {
            const int sx = border_index(x + j - r, args.width, args.border);
            if (sx < 0) continue;
            const float weight = mask(i * args.k + j);
            const uint8_t* pixel = row + sx * args.channels;
#pragma unroll
            for (int c = 0; c < kMaxChannels; ++c)
                if (c < args.channels) sum[c] += weight * float(pixel[c]);
        }
    }
    float* out = args.d_out + (size_t(y) * args.width + x) * args.channels;
#pragma unroll
    for (int c = 0; c < kMaxChannels; ++c)
        if (c < args.channels) out[c] = sum[c];
}

__global__ void conv2d_naive_kernel(ConvArgs args) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < args.width && y < args.height) conv2d_naive_pixel(args, x, y, GlobalMask{args.d_mask});
}

__global__ void conv2d_naive_1d_kernel(ConvArgs args) {
    const long long pixel = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (pixel < (long long)args.width * args.height)
        conv2d_naive_pixel(args, int(pixel % args.width), int(pixel / args.width), GlobalMask{args.d_mask});
}

__global__ void conv2d_naive_const_kernel(ConvArgs args) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < args.width && y < args.height) conv2d_naive_pixel(args, x, y, ConstantMask{});
}

namespace {

dim3 grid_2d(const ConvArgs& args) {
    return dim3((args.width + kBlockX - 1) / kBlockX, (args.height + kBlockY - 1) / kBlockY);
}

}  // namespace

void launch_conv2d_naive(const ConvArgs& args) {
    conv2d_naive_kernel<<<grid_2d(args), dim3(kBlockX, kBlockY)>>>(args);
    CUDA_CHECK_LAUNCH();
}

void launch_conv2d_naive_1d(const ConvArgs& args) {
    const long long pixels = (long long)args.width * args.height;
    conv2d_naive_1d_kernel<<<unsigned((pixels + kBlock1d - 1) / kBlock1d), kBlock1d>>>(args);
    CUDA_CHECK_LAUNCH();
}

void copy_mask_to_constant(const Mask& mask) {
    CUDA_CHECK(cudaMemcpyToSymbol(c_mask, mask.weights.data(), mask.weights.size() * sizeof(float)));
}

void launch_conv2d_naive_const(const ConvArgs& args) {
    conv2d_naive_const_kernel<<<grid_2d(args), dim3(kBlockX, kBlockY)>>>(args);
    CUDA_CHECK_LAUNCH();
}

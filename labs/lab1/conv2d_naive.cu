// Lab 1 — global memory: the naive kernel.
//
// New since lab 0: the work moves to the GPU. One thread computes one output pixel (all of its
// channels), reading the image and the mask straight from global memory. You write the kernel
// three ways: a 2-D grid, a 1-D grid, and the 2-D grid with the mask in constant memory.
//
// Build and run:   make lab1 && ./lab1
// One variant:     ./lab1 --variant naive-2d-constant
#include "common/device/cuda_check.cuh"
#include "common/core/errors.hpp"
#include "labs/lab1/lab1.hpp"

using namespace convlab;

// The mask for the _const kernel: every thread of a warp reads the same weight at the same time,
// which the constant cache serves in one transaction.
__constant__ float c_mask[kLab1MaxMaskSize * kLab1MaxMaskSize];

// Reads weight n from global memory or from constant memory, so one pixel function serves both.
struct GlobalMask {
    const float* d_mask;
    __device__ float operator()(int n) const { return d_mask[n]; }
};
struct ConstantMask {
    __device__ float operator()(int n) const { return c_mask[n]; }
};

// Computes every channel of output pixel (x, y): out(x, y, c) = sum over i, j of
// mask(i * k + j) * in(x + j - r, y + i - r, c), with border_index() (common/core/border.hpp) deciding
// what a tap outside the image reads (-1 means zero).
template <class MaskRead>
__device__ void conv2d_naive_pixel(const ConvArgs& args, int x, int y, MaskRead mask) {
    // TODO(lab1): the loops over channels and mask taps; accumulate in float; store to args.d_out.
    (void)args, (void)x, (void)y, (void)mask;
}

__global__ void conv2d_naive_kernel(ConvArgs args) {
    // TODO(lab1): x and y from blockIdx, blockDim and threadIdx; skip threads outside the image;
    // call conv2d_naive_pixel with GlobalMask{args.d_mask}.
    (void)args;
}

__global__ void conv2d_naive_1d_kernel(ConvArgs args) {
    // TODO(lab1): one linear index per thread, pixel = index; x = pixel % width, y = pixel / width.
    (void)args;
}

__global__ void conv2d_naive_const_kernel(ConvArgs args) {
    // TODO(lab1): as conv2d_naive_kernel, with ConstantMask{}.
    (void)args;
}

void launch_conv2d_naive(const ConvArgs& args) {
    // TODO(lab1): a 16x16 block and a grid that covers the whole image (round up); launch;
    // CUDA_CHECK_LAUNCH(). Then delete the line below.
    (void)args;
    todo("launch_conv2d_naive");
}

void launch_conv2d_naive_1d(const ConvArgs& args) {
    // TODO(lab1): a 256-thread block and enough blocks for width * height pixels; launch; check.
    (void)args;
    todo("launch_conv2d_naive_1d");
}

void copy_mask_to_constant(const Mask& mask) {
    // TODO(lab1): cudaMemcpyToSymbol(c_mask, ...) the k*k weights, inside CUDA_CHECK.
    (void)mask;
    todo("copy_mask_to_constant");
}

void launch_conv2d_naive_const(const ConvArgs& args) {
    // TODO(lab1): as launch_conv2d_naive, launching conv2d_naive_const_kernel.
    (void)args;
    todo("launch_conv2d_naive_const");
}

// Lab 1 — the host side, end to end.
//
// Everything a CUDA program does around a kernel: allocate device memory, copy the inputs in,
// launch, copy the result out, free. The harness times this whole function against the kernel
// alone; the difference is what the copies cost.
//
// Build and run:   make lab1 && ./lab1      (the e2e ms column of naive-2d-global)
#include "common/device/cuda_check.cuh"
#include "common/core/errors.hpp"
#include "labs/lab1/lab1.hpp"

using namespace convlab;

void conv2d_naive_gpu(const Image& h_in, const Mask& h_mask, Border border, float* h_out) {
    // TODO(lab1):
    //   1. cudaMalloc the input (h_in.elements() bytes), the output (as many floats), the mask.
    //   2. cudaMemcpy the image and h_mask.weights to the device.
    //   3. Fill a ConvArgs with the device pointers and the shape; call launch_conv2d_naive.
    //   4. cudaMemcpy the output back into h_out; cudaFree all three.
    // Wrap every call in CUDA_CHECK. Then delete the line below.
    (void)h_in, (void)h_mask, (void)border, (void)h_out;
    todo("conv2d_naive_gpu");
}

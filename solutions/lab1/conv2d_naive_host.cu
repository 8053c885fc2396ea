// Lab 1 — the host side, end to end. Reference solution.
//
// Everything a CUDA program does around a kernel: allocate device memory, copy the inputs in,
// launch, copy the result out, free. Written out call by call here, as the lesson; the harness
// and later labs hold device memory in DeviceBuffer (common/device/device_buffer.cuh), which frees it
// even when an error throws on the way.
//
// Build and run:   make lab1 SOLUTION=1 && ./lab1      (the e2e ms column of naive-2d-global)
#include "common/device/cuda_check.cuh"
#include "labs/lab1/lab1.hpp"

using namespace convlab;

void conv2d_naive_gpu(const Image& h_in, const Mask& h_mask, Border border, float* h_out) {
    const size_t values = h_in.elements();
    const size_t mask_bytes = h_mask.weights.size() * sizeof(float);
    uint8_t* d_in = nullptr;
    float* d_out = nullptr;
    float* d_mask = nullptr;
    CUDA_CHECK(cudaMalloc(&d_in, values));
    CUDA_CHECK(cudaMalloc(&d_out, values * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_mask, mask_bytes));
    CUDA_CHECK(cudaMemcpy(d_in, h_in.pixels.data(), values, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_mask, h_mask.weights.data(), mask_bytes, cudaMemcpyHostToDevice));

    launch_conv2d_naive(ConvArgs{d_in, d_out, d_mask, h_in.width, h_in.height, h_in.channels, h_mask.k, border});

    // cudaMemcpy waits for the kernel: same (default) stream.
    CUDA_CHECK(cudaMemcpy(h_out, d_out, values * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_mask));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(d_in));
}

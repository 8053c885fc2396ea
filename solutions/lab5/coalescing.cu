// Lab 5 — microbenchmarks, experiment 1: memory access. Reference solution.
//
// New since lab 4: no convolution. Each experiment isolates one effect of the hardware; the
// given variant A is in given_kernels.cu and you write the others here.
//   A  out[i ^ 1] = in[i]   a warp reads 128 consecutive bytes, writes them pairwise swapped
//   B  out[i] = in[i ^ 1]   a warp reads them pairwise swapped, writes 128 consecutive bytes
//   C  B, with the loads through the read-only (non-coherent) data path: __ldg
// Both A and B touch exactly the same 128-byte lines per warp; only the order inside a line
// differs. On a GPU from 2007 that decided whether an access coalesced; the question is whether
// it still matters.
//
// Build and run:   make lab5 SOLUTION=1 && ./lab5 --experiment memory,stride,offset
#include "common/device/cuda_check.cuh"
#include "labs/lab5/lab5_device.cuh"

namespace {

constexpr int kThreads = 256;

__global__ void swap_read_swapped_kernel(const float* in, float* out, size_t n) {
    const size_t i = global_index();
    if (i >= n) return;
    const size_t partner = i ^ 1;
    out[i] = in[partner < n ? partner : i];
}

// __restrict__ and const promise that nothing writes `in` during the kernel, which is what makes
// the read-only path legal; __ldg asks for it explicitly.
__global__ void swap_read_only_kernel(const float* __restrict__ in, float* __restrict__ out, size_t n) {
    const size_t i = global_index();
    if (i >= n) return;
    const size_t partner = i ^ 1;
    out[i] = __ldg(in + (partner < n ? partner : i));
}

}  // namespace

void launch_swap_read_swapped(const float* d_in, float* d_out, size_t n) {
    swap_read_swapped_kernel<<<blocks_for(n, kThreads), kThreads>>>(d_in, d_out, n);
    CUDA_CHECK_LAUNCH();
}

void launch_swap_read_only(const float* d_in, float* d_out, size_t n) {
    swap_read_only_kernel<<<blocks_for(n, kThreads), kThreads>>>(d_in, d_out, n);
    CUDA_CHECK_LAUNCH();
}

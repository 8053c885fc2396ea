// Lab 5 — microbenchmarks, experiment 1: memory access.
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
// Build and run:   make lab5 && ./lab5 --experiment memory,stride,offset
#include "common/device/cuda_check.cuh"
#include "common/core/errors.hpp"
#include "labs/lab5/lab5_device.cuh"  // global_index()

void launch_swap_read_swapped(const float* d_in, float* d_out, size_t n) {
    // TODO(lab5): a kernel where thread i reads in[i ^ 1] and writes out[i] (for odd n the last
    //   element has no partner: it reads itself). Launch it with blocks_for(n, 256) blocks of 256
    //   threads, then CUDA_CHECK_LAUNCH(). Then delete the line below.
    (void)d_in, (void)d_out, (void)n;
    convlab::todo("launch_swap_read_swapped");
}

void launch_swap_read_only(const float* d_in, float* d_out, size_t n) {
    // TODO(lab5): as launch_swap_read_swapped, with the load written __ldg(in + j) and the
    //   kernel's pointers declared const float* __restrict__ in, float* __restrict__ out.
    (void)d_in, (void)d_out, (void)n;
    convlab::todo("launch_swap_read_only");
}

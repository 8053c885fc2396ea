// Lab 5 — microbenchmarks, experiments 2 and 3: divergence.
//
// Experiment 2, out[i] = sqrt(2 in[i-1] + 0.5 in[i+1]) with the ends using themselves:
//   A (given) if/else picks which element to load;
//   B  A with the loads through the read-only path (__ldg);
//   C  no branch: clamp the indices with arithmetic, so every thread runs the same code.
// Experiment 3, a direction from theta = ceil((in[i] - 22) / 45) and the parity of i:
//   A (given) nested ifs;
//   B  the same table (lab5.hpp) as arithmetic on theta and the parity: no branch at all.
//
// Build and run:   make lab5 && ./lab5 --experiment neighbours,direction,paths
#include "common/device/cuda_check.cuh"
#include "common/core/errors.hpp"
#include "labs/lab5/lab5_device.cuh"  // global_index()

void launch_neighbours_read_only(const float* d_in, float* d_out, size_t n) {
    // TODO(lab5): copy neighbours_branchy_kernel from given_kernels.cu, load through
    //   __ldg with __restrict__ pointers, launch 256-thread blocks, CUDA_CHECK_LAUNCH().
    (void)d_in, (void)d_out, (void)n;
    convlab::todo("launch_neighbours_read_only");
}

void launch_neighbours_clamped(const float* d_in, float* d_out, size_t n) {
    // TODO(lab5): compute the left and right indices without if or ?: (a comparison is 0 or 1),
    //   then out[i] = sqrtf(2.0f * in[left] + 0.5f * in[right]).
    (void)d_in, (void)d_out, (void)n;
    convlab::todo("launch_neighbours_clamped");
}

void launch_direction_branch_free(const float* d_in, int* d_out, size_t n) {
    // TODO(lab5): theta as in direction_nested_ifs_kernel; then dx and dy from theta and i & 1
    //   with arithmetic only (look at how the odd row of the table relates to the even one).
    (void)d_in, (void)d_out, (void)n;
    convlab::todo("launch_direction_branch_free");
}

// Lab 5 — microbenchmarks, experiments 2 and 3: divergence. Reference solution.
//
// Experiment 2, out[i] = sqrt(2 in[i-1] + 0.5 in[i+1]) with the ends using themselves:
//   A (given) if/else picks which element to load: only the first and the last thread of the
//     whole array take the other side, so just two warps ever diverge;
//   B  A with the loads through the read-only path (__ldg);
//   C  no branch: the indices are clamped with arithmetic, every thread runs the same code.
// Experiment 3, a direction from theta = ceil((in[i] - 22) / 45) and the parity of i:
//   A (given) nested ifs: theta is random, so the threads of a warp take different branches;
//   B  the same table as arithmetic on theta and the parity: no branch at all.
//
// Build and run:   make lab5 SOLUTION=1 && ./lab5 --experiment neighbours,direction,paths
#include "common/device/cuda_check.cuh"
#include "labs/lab5/lab5_device.cuh"

namespace {

constexpr int kThreads = 256;

__global__ void neighbours_read_only_kernel(const float* __restrict__ in, float* __restrict__ out, size_t n) {
    const size_t i = global_index();
    if (i >= n) return;
    float left, right;
    if (i > 0)
        left = __ldg(in + i - 1);
    else
        left = __ldg(in + i);
    if (i + 1 < n)
        right = __ldg(in + i + 1);
    else
        right = __ldg(in + i);
    out[i] = sqrtf(2.0f * left + 0.5f * right);
}

__global__ void neighbours_clamped_kernel(const float* in, float* out, size_t n) {
    const size_t i = global_index();
    if (i >= n) return;
    // A comparison is 0 or 1: subtract it on the left, add it on the right.
    const size_t left = i - (i > 0), right = i + (i + 1 < n);
    out[i] = sqrtf(2.0f * in[left] + 0.5f * in[right]);
}

__global__ void direction_branch_free_kernel(const float* in, int* out, size_t n) {
    const size_t i = global_index();
    if (i >= n) return;
    const int theta = int(ceilf((in[i] - 22.0f) / 45.0f));
    const int sign = 1 - 2 * int(i & 1);  // even +1, odd -1: the odd row is the even one negated
    // Even row of the table: dx = 1, 1, 0, -1 and dy = 0, 1, 1, 1 for theta = 0..3.
    const int dx = 1 - (theta == 2) - 2 * (theta == 3);
    const int dy = theta != 0;
    out[i] = sign * (dx + dy);
}

}  // namespace

void launch_neighbours_read_only(const float* d_in, float* d_out, size_t n) {
    neighbours_read_only_kernel<<<blocks_for(n, kThreads), kThreads>>>(d_in, d_out, n);
    CUDA_CHECK_LAUNCH();
}

void launch_neighbours_clamped(const float* d_in, float* d_out, size_t n) {
    neighbours_clamped_kernel<<<blocks_for(n, kThreads), kThreads>>>(d_in, d_out, n);
    CUDA_CHECK_LAUNCH();
}

void launch_direction_branch_free(const float* d_in, int* d_out, size_t n) {
    direction_branch_free_kernel<<<blocks_for(n, kThreads), kThreads>>>(d_in, d_out, n);
    CUDA_CHECK_LAUNCH();
}

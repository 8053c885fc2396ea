// Lab 5 — microbenchmarks, experiment 5: shared-memory bank conflicts.
//
// Shared memory is 32 banks, 4 bytes wide; word w lives in bank w % 32. A warp's load is served
// in one pass when its 32 lanes hit 32 different banks (or the same word), and in k passes when
// k lanes need different words of one bank. Variant A (given, shared_stride_kernel) stores rows
// of 32 words, so lane l reading word l*stride hits bank (l*stride) % 32.
//
// Build and run:   make lab5 && ./lab5 --experiment banks
#include "common/device/cuda_check.cuh"
#include "common/core/errors.hpp"
#include "labs/lab5/lab5_device.cuh"  // global_index()

void launch_shared_stride_padded(const float* d_in, float* d_out, int blocks, int stride, int repeats) {
    // TODO(lab5): copy shared_stride_kernel from given_kernels.cu and store each row of 32
    //   words in 33 (one word of padding), so logical (row, col) sits at row * 33 + col. The reads,
    //   their order and the output stay exactly as in the given kernel. Launch `blocks` blocks of
    //   kSharedThreads threads, then CUDA_CHECK_LAUNCH().
    (void)d_in, (void)d_out, (void)blocks, (void)stride, (void)repeats;
    convlab::todo("launch_shared_stride_padded");
}

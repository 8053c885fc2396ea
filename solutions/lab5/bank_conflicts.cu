// Lab 5 — microbenchmarks, experiment 5: shared-memory bank conflicts. Reference solution.
//
// Shared memory is 32 banks, 4 bytes wide; word w lives in bank w % 32. A warp's load is served
// in one pass when its 32 lanes hit 32 different banks (or the same word), and in k passes when
// k lanes need different words of one bank. Variant A (given) stores rows of 32 words, so lane l
// reading word l*stride hits bank (l*stride) % 32: with stride 32 every lane hits bank 0.
// Padding each row to 33 words shifts row r by r banks, so a column of the logical 32-wide array
// falls into 32 different banks:
//
//   logical (row, col) -> s_rows[row * 33 + col],  bank = (row + col) % 32
//
// Build and run:   make lab5 SOLUTION=1 && ./lab5 --experiment banks
#include "common/device/cuda_check.cuh"
#include "labs/lab5/lab5_device.cuh"

namespace {

constexpr int kPitch = 33;  // 32 words of the row and one of padding

__global__ void shared_stride_padded_kernel(const float* in, float* out, int stride, int repeats) {
    __shared__ float s_rows[kSharedRows * kPitch];
    for (int w = threadIdx.x; w < kSharedRows * 32; w += blockDim.x) s_rows[(w / 32) * kPitch + w % 32] = in[w];
    __syncthreads();
    // Logical word first + 32*m is row first/32 + m, column first%32: padded index base + 33*m.
    const int first = (threadIdx.x % 32) * stride;
    const volatile float* s = s_rows + (first / 32) * kPitch + first % 32;
    float sum = 0.0f;
    for (int r = 0; r < repeats; ++r) {
#pragma unroll
        for (int m = 0; m < kSharedReads; ++m) sum += s[kPitch * m];
    }
    out[global_index()] = sum;
}

}  // namespace

void launch_shared_stride_padded(const float* d_in, float* d_out, int blocks, int stride, int repeats) {
    shared_stride_padded_kernel<<<blocks, kSharedThreads>>>(d_in, d_out, stride, repeats);
    CUDA_CHECK_LAUNCH();
}

// convlab lab 5 — do not edit: the given baselines (variant A of each experiment) and the sweeps.
// Read them: your variants in coalescing.cu, divergence.cu, block_config.cu and bank_conflicts.cu
// start from these.
#include "common/device/cuda_check.cuh"
#include "labs/lab5/lab5_device.cuh"

namespace {

constexpr int kThreads = 256;

// ---- experiment 1 -----------------------------------------------------------------------------
// A: a warp reads 32 consecutive floats; its writes land on the same 128 bytes, pairwise swapped.
__global__ void swap_write_swapped_kernel(const float* in, float* out, size_t n) {
    const size_t i = global_index();
    if (i >= n) return;
    const size_t partner = i ^ 1;
    out[partner < n ? partner : i] = in[i];
}

__global__ void copy_strided_kernel(const float* in, float* out, size_t n, int stride) {
    const size_t i = global_index() * stride;
    if (i < n) out[i] = in[i];
}

__global__ void copy_offset_kernel(const float* in, float* out, size_t n, int offset) {
    const size_t i = global_index() + offset;
    if (i < n) out[i] = in[i];
}

// ---- experiment 2 -----------------------------------------------------------------------------
// A: the first and the last thread take the other side of each if.
__global__ void neighbours_branchy_kernel(const float* in, float* out, size_t n) {
    const size_t i = global_index();
    if (i >= n) return;
    float left, right;
    if (i > 0)
        left = in[i - 1];
    else
        left = in[i];
    if (i + 1 < n)
        right = in[i + 1];
    else
        right = in[i];
    out[i] = sqrtf(2.0f * left + 0.5f * right);
}

// ---- experiment 3 -----------------------------------------------------------------------------
// A: theta and parity pick one of eight (dx, dy) pairs through nested ifs.
__global__ void direction_nested_ifs_kernel(const float* in, int* out, size_t n) {
    const size_t i = global_index();
    if (i >= n) return;
    const int theta = int(ceilf((in[i] - 22.0f) / 45.0f));
    const bool even = (i & 1) == 0;
    int dx, dy;
    if (theta == 0) {
        if (even) { dx = 1; dy = 0; } else { dx = -1; dy = 0; }
    } else if (theta == 1) {
        if (even) { dx = 1; dy = 1; } else { dx = -1; dy = -1; }
    } else if (theta == 2) {
        if (even) { dx = 0; dy = 1; } else { dx = 0; dy = -1; }
    } else {
        if (even) { dx = -1; dy = 1; } else { dx = 1; dy = -1; }
    }
    out[i] = dx + dy;
}

__constant__ float c_path_scale[kMaxPaths];
__constant__ float c_path_offset[kMaxPaths];

// The loop over p is uniform; `path == p` is what splits the warp. Each path's work depends on
// the one before (x feeds the next FMA), so no two paths can overlap inside a warp.
__global__ void paths_kernel(const float* in, float* out, size_t n, int paths, bool by_warp) {
    const size_t i = global_index();
    if (i >= n) return;
    const int path = int((by_warp ? i / 32 : i % 32) % paths);
    float x = in[i];
    for (int p = 0; p < paths; ++p) {
        if (path == p) {
#pragma unroll 16
            for (int step = 0; step < kPathWork; ++step) x = fmaf(x, c_path_scale[p], c_path_offset[p]);
        }
    }
    out[i] = x;
}

// ---- experiment 4 -----------------------------------------------------------------------------
__global__ void add_one_kernel(const float* in, float* out, size_t n) {
    const size_t i = global_index();
    if (i < n) out[i] = in[i] + 1.0f;
}

// ---- experiment 5 -----------------------------------------------------------------------------
// A: rows of 32 words, so word w sits in bank w % 32 and lane l's reads all hit bank
// (l * stride) % 32: gcd(stride, 32) lanes share each bank.
__global__ void shared_stride_kernel(const float* in, float* out, int stride, int repeats) {
    __shared__ float s_rows[kSharedRows * 32];
    for (int w = threadIdx.x; w < kSharedRows * 32; w += blockDim.x) s_rows[w] = in[w];
    __syncthreads();
    // volatile: every read below must happen, in order, as written (no reuse across repeats).
    const volatile float* s = s_rows + (threadIdx.x % 32) * stride;
    float sum = 0.0f;
    for (int r = 0; r < repeats; ++r) {
#pragma unroll
        for (int m = 0; m < kSharedReads; ++m) sum += s[32 * m];
    }
    out[global_index()] = sum;
}

}  // namespace

void launch_swap_write_swapped(const float* d_in, float* d_out, size_t n) {
    swap_write_swapped_kernel<<<blocks_for(n, kThreads), kThreads>>>(d_in, d_out, n);
    CUDA_CHECK_LAUNCH();
}

void launch_copy_strided(const float* d_in, float* d_out, size_t n, int stride) {
    copy_strided_kernel<<<blocks_for((n + stride - 1) / stride, kThreads), kThreads>>>(d_in, d_out, n, stride);
    CUDA_CHECK_LAUNCH();
}

void launch_copy_offset(const float* d_in, float* d_out, size_t n, int offset) {
    if (size_t(offset) >= n) return;
    copy_offset_kernel<<<blocks_for(n - offset, kThreads), kThreads>>>(d_in, d_out, n, offset);
    CUDA_CHECK_LAUNCH();
}

void launch_neighbours_branchy(const float* d_in, float* d_out, size_t n) {
    neighbours_branchy_kernel<<<blocks_for(n, kThreads), kThreads>>>(d_in, d_out, n);
    CUDA_CHECK_LAUNCH();
}

void launch_direction_nested_ifs(const float* d_in, int* d_out, size_t n) {
    direction_nested_ifs_kernel<<<blocks_for(n, kThreads), kThreads>>>(d_in, d_out, n);
    CUDA_CHECK_LAUNCH();
}

void load_path_constants() {
    float scale[kMaxPaths], offset[kMaxPaths];
    for (int p = 0; p < kMaxPaths; ++p) scale[p] = path_scale(p), offset[p] = path_offset(p);
    CUDA_CHECK(cudaMemcpyToSymbol(c_path_scale, scale, sizeof scale));
    CUDA_CHECK(cudaMemcpyToSymbol(c_path_offset, offset, sizeof offset));
}

void launch_paths(const float* d_in, float* d_out, size_t n, int paths, bool by_warp) {
    paths_kernel<<<blocks_for(n, kThreads), kThreads>>>(d_in, d_out, n, paths, by_warp);
    CUDA_CHECK_LAUNCH();
}

void launch_add_one(const float* d_in, float* d_out, size_t n, int threads_per_block) {
    add_one_kernel<<<blocks_for(n, threads_per_block), threads_per_block>>>(d_in, d_out, n);
    CUDA_CHECK_LAUNCH();
}

const void* add_one_kernel_address() { return reinterpret_cast<const void*>(add_one_kernel); }

void launch_shared_stride(const float* d_in, float* d_out, int blocks, int stride, int repeats) {
    shared_stride_kernel<<<blocks, kSharedThreads>>>(d_in, d_out, stride, repeats);
    CUDA_CHECK_LAUNCH();
}

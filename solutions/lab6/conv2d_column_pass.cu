// Lab 6 — the column pass. Reference solution.
//
// The second pass reads the row pass's floats from args.d_scratch: a block loads 64 + 2r rows of
// its 64 columns (the halo now above and below), sums each output's K taps down its column and
// writes args.d_out. Bytes per value: 4 read, 4 written; with the row pass, 13 B per value
// against the fused kernel's 5.
//
// Build and run:   make lab6 SOLUTION=1 && ./lab6
#include "common/cuda_check.cuh"
#include "common/shared_memory.cuh"
#include "labs/lab6/lab6.hpp"
#include "solutions/lab6/separable_tile.cuh"

using namespace convlab;

__constant__ float c_column_pass_col[kLab6MaxMaskSize];

namespace {

struct ColumnWeights {
    __device__ float operator[](int i) const { return c_column_pass_col[i]; }
};

// Shared memory: 64 + 2r rows of 64 (+1) intermediate values.
int column_pass_floats(int r) { return (kLab6TileHeight + 2 * r) * (kLab6TileWidth + 1); }

template <int R>
__global__ void __launch_bounds__(lab6::kThreads) conv2d_column_pass_kernel(ConvArgs a) {
    extern __shared__ float s_mid[];
    const int r = lab6::radius<R>(a);
    const int pitch = kLab6TileWidth + 1;
    const int x0 = blockIdx.x * kLab6TileWidth, y0 = blockIdx.y * kLab6TileHeight;
    for (int c = 0; c < a.channels; ++c) {
        if (c) __syncthreads();  // the last channel's column pass is done with s_mid
        lab6::load_float_rows(a, a.d_scratch, c, x0, y0 - r, kLab6TileWidth, kLab6TileHeight + 2 * r, s_mid, pitch);
        __syncthreads();
        lab6::column_pass<R>(a, ColumnWeights{}, s_mid, pitch, [&](int col, int row, float value) {
            const int x = x0 + col, y = y0 + row;
            if (x < a.width && y < a.height) a.d_out[(size_t(y) * a.width + x) * a.channels + c] = value;
        });
    }
}

struct LaunchColumnPass {
    const ConvArgs& args;
    template <int R>
    void operator()() const {
        const size_t bytes = size_t(column_pass_floats(args.k / 2)) * sizeof(float);  // 49 KB at K = 63
        allow_dynamic_shared_memory(conv2d_column_pass_kernel<R>, bytes, "conv2d_column_pass_kernel");
        const dim3 grid((args.width + kLab6TileWidth - 1) / kLab6TileWidth, (args.height + kLab6TileHeight - 1) / kLab6TileHeight);
        conv2d_column_pass_kernel<R><<<grid, lab6::kThreads, bytes>>>(args);
        CUDA_CHECK_LAUNCH();
    }
};

}  // namespace

void copy_column_to_column_pass_constant(const Mask& mask) {
    CUDA_CHECK(cudaMemcpyToSymbol(c_column_pass_col, mask.col.data(), mask.col.size() * sizeof(float)));
}

void launch_column_pass(const ConvArgs& args) { lab6::dispatch_radius(args.k, LaunchColumnPass{args}); }

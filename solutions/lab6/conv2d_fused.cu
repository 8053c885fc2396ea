// Lab 6 — the fused separable kernel. Reference solution.
//
// New since the two passes: one kernel does both. A block loads its tile with the halo on all
// four sides, runs the row pass over the tile's rows and the r rows above and below it (the
// column pass needs them) into shared memory, and runs the column pass from there. The float
// intermediate never goes to global memory: 1 B read and 4 B written per value, as in lab 3,
// with 2K taps instead of K^2. The price is the row pass over the 2r extra rows: (64 + 2r) / 64
// times the row-pass work, 1.47x at K = 31.
//
// Build and run:   make lab6 SOLUTION=1 && ./lab6
#include "common/cuda_check.cuh"
#include "common/shared_memory.cuh"
#include "labs/lab6/lab6.hpp"
#include "solutions/lab6/separable_tile.cuh"

using namespace convlab;

__constant__ float c_fused_row[kLab6MaxMaskSize];
__constant__ float c_fused_col[kLab6MaxMaskSize];

namespace {

struct FusedRow {
    __device__ float operator[](int j) const { return c_fused_row[j]; }
};
struct FusedCol {
    __device__ float operator[](int i) const { return c_fused_col[i]; }
};

// Shared memory: the input tile transposed, (64 + 2r) columns of (64 + 2r) rows (pitch odd), then
// the row pass's result, (64 + 2r) rows of 64 (+1) columns.
struct FusedLayout {
    int rows_in, cols_in, in_pitch, mid_pitch;
    __host__ __device__ explicit FusedLayout(int r)
        : rows_in(kLab6TileHeight + 2 * r), cols_in(kLab6TileWidth + 2 * r), in_pitch(lab6::odd_at_least(rows_in)),
          mid_pitch(kLab6TileWidth + 1) {}
    __host__ __device__ int floats() const { return cols_in * in_pitch + rows_in * mid_pitch; }
};

template <int R>
__global__ void __launch_bounds__(lab6::kThreads) conv2d_fused_kernel(ConvArgs a) {
    extern __shared__ float s_tile[];
    const int r = lab6::radius<R>(a);
    const FusedLayout layout(r);
    float* s_in = s_tile;
    float* s_mid = s_tile + layout.cols_in * layout.in_pitch;
    const int x0 = blockIdx.x * kLab6TileWidth, y0 = blockIdx.y * kLab6TileHeight;
    for (int c = 0; c < a.channels; ++c) {
        // No barrier before the load: it writes s_in only, which nobody reads after the barrier
        // below the last channel's row pass; and the barrier after it also keeps this channel's
        // row pass from overwriting s_mid while the last channel's column pass reads it.
        lab6::load_tile_transposed(a, c, x0 - r, y0 - r, layout.cols_in, layout.rows_in, s_in, layout.in_pitch);
        __syncthreads();
        lab6::row_pass<R>(a, FusedRow{}, s_in, layout.in_pitch, layout.rows_in, s_mid, layout.mid_pitch);
        __syncthreads();
        lab6::column_pass<R>(a, FusedCol{}, s_mid, layout.mid_pitch, [&](int col, int row, float value) {
            const int x = x0 + col, y = y0 + row;
            if (x < a.width && y < a.height) a.d_out[(size_t(y) * a.width + x) * a.channels + c] = value;
        });
    }
}

struct LaunchFused {
    const ConvArgs& args;
    template <int R>
    void operator()() const {
        const size_t bytes = size_t(FusedLayout(args.k / 2).floats()) * sizeof(float);  // 97 KB at K = 63
        allow_dynamic_shared_memory(conv2d_fused_kernel<R>, bytes, "conv2d_fused_kernel");
        const dim3 grid((args.width + kLab6TileWidth - 1) / kLab6TileWidth, (args.height + kLab6TileHeight - 1) / kLab6TileHeight);
        conv2d_fused_kernel<R><<<grid, lab6::kThreads, bytes>>>(args);
        CUDA_CHECK_LAUNCH();
    }
};

}  // namespace

void copy_factors_to_fused_constant(const Mask& mask) {
    CUDA_CHECK(cudaMemcpyToSymbol(c_fused_row, mask.row.data(), mask.row.size() * sizeof(float)));
    CUDA_CHECK(cudaMemcpyToSymbol(c_fused_col, mask.col.data(), mask.col.size() * sizeof(float)));
}

void launch_conv2d_fused(const ConvArgs& args) { lab6::dispatch_radius(args.k, LaunchFused{args}); }

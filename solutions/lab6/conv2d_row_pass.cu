// Lab 6 — the row pass. Reference solution.
//
// New since lab 3: a separable mask's K x K taps become K across, then K down (the column pass,
// conv2d_column_pass.cu). This pass needs a halo on the left and right only: a block loads 64
// rows of 64 + 2r pixels, sums each output's K taps along its row, and writes the float result
// to args.d_scratch, laid out like the output. Bytes per value: 1 read, 4 written.
//
// Build and run:   make lab6 SOLUTION=1 && ./lab6
#include "common/cuda_check.cuh"
#include "common/shared_memory.cuh"
#include "labs/lab6/lab6.hpp"
#include "solutions/lab6/separable_tile.cuh"

using namespace convlab;

__constant__ float c_row_pass_row[kLab6MaxMaskSize];

namespace {

struct RowWeights {
    __device__ float operator[](int j) const { return c_row_pass_row[j]; }
};

// Shared memory: the input tile transposed, 64 + 2r columns of 64 (+1) rows, then the sums,
// 64 rows of 64 (+1) columns, staged so that the writes to global memory go along rows.
struct RowPassLayout {
    int cols_in, in_pitch, mid_pitch;
    __host__ __device__ explicit RowPassLayout(int r)
        : cols_in(kLab6TileWidth + 2 * r), in_pitch(lab6::odd_at_least(kLab6TileHeight)), mid_pitch(kLab6TileWidth + 1) {}
    __host__ __device__ int floats() const { return cols_in * in_pitch + kLab6TileHeight * mid_pitch; }
};

template <int R>
__global__ void __launch_bounds__(lab6::kThreads) conv2d_row_pass_kernel(ConvArgs a) {
    extern __shared__ float s_tile[];
    const int r = lab6::radius<R>(a);
    const RowPassLayout layout(r);
    float* s_in = s_tile;
    float* s_mid = s_tile + layout.cols_in * layout.in_pitch;
    const int x0 = blockIdx.x * kLab6TileWidth, y0 = blockIdx.y * kLab6TileHeight;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (int c = 0; c < a.channels; ++c) {
        lab6::load_tile_transposed(a, c, x0 - r, y0, layout.cols_in, kLab6TileHeight, s_in, layout.in_pitch);
        __syncthreads();
        lab6::row_pass<R>(a, RowWeights{}, s_in, layout.in_pitch, kLab6TileHeight, s_mid, layout.mid_pitch);
        __syncthreads();
        for (int row = warp; row < kLab6TileHeight && y0 + row < a.height; row += lab6::kThreads / 32)
            for (int col = lane; col < kLab6TileWidth && x0 + col < a.width; col += 32)
                a.d_scratch[(size_t(y0 + row) * a.width + x0 + col) * a.channels + c] = s_mid[row * layout.mid_pitch + col];
        // The next channel's load writes s_in only; its barrier keeps its row pass from s_mid
        // until every thread has stored this channel's.
    }
}

struct LaunchRowPass {
    const ConvArgs& args;
    template <int R>
    void operator()() const {
        const size_t bytes = size_t(RowPassLayout(args.k / 2).floats()) * sizeof(float);  // 49 KB at K = 63
        allow_dynamic_shared_memory(conv2d_row_pass_kernel<R>, bytes, "conv2d_row_pass_kernel");
        const dim3 grid((args.width + kLab6TileWidth - 1) / kLab6TileWidth, (args.height + kLab6TileHeight - 1) / kLab6TileHeight);
        conv2d_row_pass_kernel<R><<<grid, lab6::kThreads, bytes>>>(args);
        CUDA_CHECK_LAUNCH();
    }
};

}  // namespace

void copy_row_to_row_pass_constant(const Mask& mask) {
    CUDA_CHECK(cudaMemcpyToSymbol(c_row_pass_row, mask.row.data(), mask.row.size() * sizeof(float)));
}

void launch_row_pass(const ConvArgs& args) { lab6::dispatch_radius(args.k, LaunchRowPass{args}); }

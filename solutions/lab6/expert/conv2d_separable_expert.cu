// Lab 6 — separable filters. The expert tier: the reference solution's design
// (solutions/lab6/conv2d_separable.cu, one output a thread from row-major tiles) tuned, reported
// as the rows two-pass-expert and fused-expert. Built into the reference solution's program only
// (common/runner/expert_tier.hpp); the grader times students against the design, not this.
//
// Three kernels, sharing their building blocks (below): one block works on
// one 64 x 64 output tile and one channel plane at a time, in shared memory:
//
//   load_tile_transposed   input pixels -> s_in[col][row] as float, the border rule applied
//   row_pass               s_in -> s_mid[row][col]: sum_j row[j] * s_in[col + j][row]
//   column_pass            s_mid -> out: sum_i col[i] * s_mid[row + i][col]
//
//   conv2d_row_pass_kernel     64 rows of 64 + 2r pixels -> row pass -> args.d_scratch (1 B in, 4 B out)
//   conv2d_column_pass_kernel  64 + 2r rows of args.d_scratch -> column pass -> args.d_out (4 B in, 4 B out)
//   conv2d_fused_kernel        (64 + 2r)^2 pixels -> row pass over all 64 + 2r rows -> column pass
//                              -> args.d_out: 5 B a value, the intermediate never in global memory,
//                              at the price of the row pass over 2r extra rows ((64 + 2r) / 64 of it)
//
// Why transposed: in the row pass lanes take consecutive rows, so each reads s_in[col + j][row]
// at consecutive addresses (no bank conflict), and a thread slides along its own row: its kRun
// outputs need kRun + K - 1 inputs, which it loads once into registers. In the column pass lanes
// take consecutive columns of s_mid and a thread slides down its own column. Both pitches are
// odd, so the transposing writes do not conflict either.
//
// The fused variant has a faster path for one channel, fused_strip_walk_kernel (its section
// below): no tiles, each warp walks down a strip of 128 columns with the column pass's running
// sums in registers. It is compiled for K = 3, 5, 7, 9, 15, 21 and 31; the tile kernel remains the
// path for every other K, for 3 channels and for rows that are not whole 4-byte words.
//
// R is the mask radius when known at compile time (the loops unroll, the weights become
// constant-memory operands of the FMAs); R < 0 means "read it from args.k" (any other K).
#include <cuda_runtime.h>

#include "common/core/border.hpp"
#include "common/core/conv_args.hpp"
#include "common/device/cuda_check.cuh"
#include "common/core/separable.hpp"
#include "common/device/shared_memory.cuh"
#include "common/runner/expert_tier.hpp"
#include "common/runner/lab.hpp"
#include "labs/lab6/lab6.hpp"
#include "solutions/lab6/expert/conv2d_separable_expert.hpp"

using namespace convlab;

namespace lab6_expert {  // beside the design tier's symbols of the same names

__constant__ float c_row[kLab6MaxMaskSize];  // mask.row: the row pass's taps, across x
__constant__ float c_col[kLab6MaxMaskSize];  // mask.col: the column pass's taps, down y

namespace {

constexpr int kThreads = 256;  // per block, 8 warps
constexpr int kRun = 8;        // outputs one thread sums along its row (row pass) or column (column pass)
static_assert(kLab6TileWidth % kRun == 0 && kLab6TileHeight % kRun == 0, "a tile side must hold whole runs");
static_assert(kLab6TileWidth % 32 == 0, "a tile row is stored by whole warps");

template <int R>
__device__ __forceinline__ int radius(const ConvArgs& a) {
    return R >= 0 ? R : a.k / 2;
}

__host__ __device__ constexpr int odd_at_least(int n) { return n | 1; }

// How many loads a thread has in flight in a tile load: issued together, then stored together,
// so a block waits for one memory latency per batch rather than one per load.
constexpr int kLoadBatch = 8;

// One tile load: count elements of type T (a pixel, or a word of 4), element n (row n / cols,
// column n % cols) read by value(row, col) and written by put(row, col, v). cols is a
// compile-time constant once R is, so the division is a multiply.
template <class T, class Value, class Put>
__device__ __forceinline__ void load_tile(int cols, int count, Value value, Put put) {
    for (int base = threadIdx.x; base < count; base += kThreads * kLoadBatch) {
        T v[kLoadBatch];
#pragma unroll
        for (int b = 0; b < kLoadBatch; ++b) {
            const int n = base + b * kThreads, row = n / cols;
            v[b] = n < count ? value(row, n - row * cols) : T{};
        }
#pragma unroll
        for (int b = 0; b < kLoadBatch; ++b) {
            const int n = base + b * kThreads, row = n / cols;
            if (n < count) put(row, n - row * cols, v[b]);
        }
    }
}

// A byte as a float in two instructions: placed in the low mantissa bits of 2^23, minus 2^23
// (the conversion instruction, I2F, issues at a quarter of the FMA rate).
__device__ __forceinline__ float byte_to_float(unsigned word, int b) {
    return __uint_as_float(0x4B000000u | ((word >> (8 * b)) & 0xFFu)) - 8388608.0f;
}

// rows x cols pixels of channel c from (gx0, gy0) on (either may lie outside the image) into
// s_in[col * pitch + row] as float.
__device__ __forceinline__ void load_tile_transposed(const ConvArgs& a, int c, int gx0, int gy0, int cols, int rows,
                                                     float* s_in, int pitch) {
    const bool inside = gx0 >= 0 && gy0 >= 0 && gx0 + cols <= a.width && gy0 + rows <= a.height;
    if (inside && a.channels == 1 && a.width % 4 == 0) {
        // The common case, one channel and rows of whole words: a 4-byte load brings 4 pixels.
        // Words from the one holding gx0 on, as many as the widest offset needs (a count known at
        // compile time, so no division at run time); bytes outside the tile are dropped, and words
        // past the row's end are not read.
        const int first = gx0 & ~3, words = (cols + 3) / 4 + 1, words_in_row = (a.width - first) / 4;
        const unsigned* base = reinterpret_cast<const unsigned*>(a.d_in + size_t(gy0) * a.width + first);
        const int words_per_row = a.width / 4;
        load_tile<unsigned>(words, words * rows,
                   [&](int row, int word) { return word < words_in_row ? base[size_t(row) * words_per_row + word] : 0u; },
                   [&](int row, int word, unsigned v) {
#pragma unroll
                       for (int b = 0; b < 4; ++b) {
                           const int col = first + 4 * word + b - gx0;
                           if (col >= 0 && col < cols) s_in[col * pitch + row] = byte_to_float(v, b);
                       }
                   });
        return;
    }
    load_tile<float>(
        cols, cols * rows,
        [&](int row, int col) {
            int x = gx0 + col, y = gy0 + row;
            if (!inside) {
                x = border_index(x, a.width, a.border);
                y = border_index(y, a.height, a.border);
                if (x < 0 || y < 0) return 0.0f;
            }
            return float(a.d_in[(size_t(y) * a.width + x) * a.channels + c]);
        },
        [&](int row, int col, float v) { s_in[col * pitch + row] = v; });
}

// The same for floats (the column-pass kernel's input, the row pass's result), row-major:
// s[row * pitch + col]. Columns past the image's edge read as zero; nothing is computed from them.
__device__ __forceinline__ void load_float_rows(const ConvArgs& a, const float* src, int c, int gx0, int gy0,
                                                int cols, int rows, float* s, int pitch) {
    if (a.channels == 1 && a.width % 4 == 0 && gx0 % 4 == 0 && cols % 4 == 0 && gx0 + cols <= a.width) {
        // One channel, whole rows of float4 inside the image: a 16-byte load brings 4 values.
        load_tile<float4>(
            cols / 4, cols / 4 * rows,
            [&](int row, int word) {
                const int y = border_index(gy0 + row, a.height, a.border);
                return y < 0 ? float4{} : reinterpret_cast<const float4*>(src + size_t(y) * a.width + gx0)[word];
            },
            [&](int row, int word, float4 v) {
                float* d = s + row * pitch + 4 * word;
                d[0] = v.x, d[1] = v.y, d[2] = v.z, d[3] = v.w;
            });
        return;
    }
    load_tile<float>(
        cols, cols * rows,
        [&](int row, int col) {
            const int x = gx0 + col, y = border_index(gy0 + row, a.height, a.border);
            return (y < 0 || x >= a.width) ? 0.0f : src[(size_t(y) * a.width + x) * a.channels + c];
        },
        [&](int row, int col, float v) { s[row * pitch + col] = v; });
}

// out[m] = sum_j w[j] * s[(m + j) * stride] for m < kRun: one thread's run of outputs along a row
// or down a column. With R known, the kRun + 2R inputs are loaded once into registers and every
// weight is an FMA operand from constant memory; otherwise (any K) each tap is its own load.
template <int R, class Weights>
__device__ __forceinline__ void run_of_sums(const ConvArgs& a, Weights w, const float* s, int stride, float (&out)[kRun]) {
#pragma unroll
    for (int m = 0; m < kRun; ++m) out[m] = 0.0f;
    if constexpr (R >= 0) {
        float v[kRun + 2 * R];
#pragma unroll
        for (int t = 0; t < kRun + 2 * R; ++t) v[t] = s[t * stride];
#pragma unroll
        for (int j = 0; j < 2 * R + 1; ++j) {
            const float wj = w[j];
#pragma unroll
            for (int m = 0; m < kRun; ++m) out[m] += wj * v[m + j];
        }
    } else {
        const int k = a.k;
        for (int j = 0; j < k; ++j) {
            const float wj = w[j];
#pragma unroll
            for (int m = 0; m < kRun; ++m) out[m] += wj * s[(m + j) * stride];
        }
    }
}

// s_mid[row * mid_pitch + col] = sum_j w[j] * s_in[(col + j) * pitch + row] for every row < rows
// and col < kLab6TileWidth. A thread takes kRun neighbouring columns of one row.
template <int R, class Weights>
__device__ __forceinline__ void row_pass(const ConvArgs& a, Weights w, const float* s_in, int pitch, int rows,
                                float* s_mid, int mid_pitch) {
    constexpr int kRuns = kLab6TileWidth / kRun;
    for (int item = threadIdx.x; item < rows * kRuns; item += kThreads) {
        const int run = item / rows, row = item - run * rows;
        float sum[kRun];
        run_of_sums<R>(a, w, s_in + run * kRun * pitch + row, pitch, sum);
#pragma unroll
        for (int m = 0; m < kRun; ++m) s_mid[row * mid_pitch + run * kRun + m] = sum[m];
    }
}

// store(col, row, value) for every col < kLab6TileWidth, row < kLab6TileHeight:
// value = sum_i w[i] * s_mid[(row + i) * mid_pitch + col]. A thread takes kRun rows of one column.
template <int R, class Weights, class Store>
__device__ __forceinline__ void column_pass(const ConvArgs& a, Weights w, const float* s_mid, int mid_pitch, Store store) {
    constexpr int kRuns = kLab6TileHeight / kRun;
    for (int item = threadIdx.x; item < kLab6TileWidth * kRuns; item += kThreads) {
        const int col = item % kLab6TileWidth, run = item / kLab6TileWidth;
        float sum[kRun];
        run_of_sums<R>(a, w, s_mid + run * kRun * mid_pitch + col, mid_pitch, sum);
#pragma unroll
        for (int m = 0; m < kRun; ++m) store(col, run * kRun + m, sum[m]);
    }
}

// Launches kernel over the image's kLab6TileWidth x kLab6TileHeight tiles with `bytes` of
// dynamic shared memory (allowed first where it exceeds the default 48 KB).
template <class Kernel>
void launch_on_tiles(Kernel kernel, size_t bytes, const ConvArgs& args, const char* name) {
    allow_dynamic_shared_memory(kernel, bytes, name);
    const dim3 grid((args.width + kLab6TileWidth - 1) / kLab6TileWidth, (args.height + kLab6TileHeight - 1) / kLab6TileHeight);
    kernel<<<grid, kThreads, bytes>>>(args);
    CUDA_CHECK_LAUNCH();
}

// Calls launch.template operator()<R>() with R the mask's radius when it is one the sweeps use
// (K = 3, 5, 7, 9, 15, 21, 31, 63: fully unrolled), else with R = -1 (any K, loops not unrolled).
template <class Launch>
void dispatch_radius(int k, Launch launch) {
    switch (k / 2) {
        case 1: return launch.template operator()<1>();
        case 2: return launch.template operator()<2>();
        case 3: return launch.template operator()<3>();
        case 4: return launch.template operator()<4>();
        case 7: return launch.template operator()<7>();
        case 10: return launch.template operator()<10>();
        case 15: return launch.template operator()<15>();
        case 31: return launch.template operator()<31>();
        default: return launch.template operator()<-1>();
    }
}

// Output value (x, y) of channel c, where it lies inside the image (a tile may overhang it).
__device__ __forceinline__ void store_output(const ConvArgs& a, int c, int x, int y, float value) {
    if (x < a.width && y < a.height) a.d_out[(size_t(y) * a.width + x) * a.channels + c] = value;
}

struct RowWeights {
    __device__ float operator[](int j) const { return c_row[j]; }
};
struct ColumnWeights {
    __device__ float operator[](int i) const { return c_col[i]; }
};

// ---- The row pass ----------------------------------------------------------------------------

// Shared memory: the input tile transposed, 64 + 2r columns of 64 (+1) rows, then the sums,
// 64 rows of 64 (+1) columns, staged so that the writes to global memory go along rows.
struct RowPassLayout {
    int cols_in, in_pitch, mid_pitch;
    __host__ __device__ explicit RowPassLayout(int r)
        : cols_in(kLab6TileWidth + 2 * r), in_pitch(odd_at_least(kLab6TileHeight)), mid_pitch(kLab6TileWidth + 1) {}
    __host__ __device__ int floats() const { return cols_in * in_pitch + kLab6TileHeight * mid_pitch; }
};

template <int R>
__global__ void __launch_bounds__(kThreads) conv2d_row_pass_kernel(ConvArgs a) {
    extern __shared__ float s_tile[];
    const int r = radius<R>(a);
    const RowPassLayout layout(r);
    float* s_in = s_tile;
    float* s_mid = s_tile + layout.cols_in * layout.in_pitch;
    const int x0 = blockIdx.x * kLab6TileWidth, y0 = blockIdx.y * kLab6TileHeight;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (int c = 0; c < a.channels; ++c) {
        load_tile_transposed(a, c, x0 - r, y0, layout.cols_in, kLab6TileHeight, s_in, layout.in_pitch);
        __syncthreads();
        row_pass<R>(a, RowWeights{}, s_in, layout.in_pitch, kLab6TileHeight, s_mid, layout.mid_pitch);
        __syncthreads();
        if (a.channels == 1 && a.width % 4 == 0 && x0 + kLab6TileWidth <= a.width) {
            // One channel and a whole tile row inside the image: 16-byte stores.
            constexpr int kWords = kLab6TileWidth / 4;
            for (int n = threadIdx.x; n < kLab6TileHeight * kWords && y0 + n / kWords < a.height; n += kThreads) {
                const int row = n / kWords, word = n % kWords;
                const float* m = &s_mid[row * layout.mid_pitch + 4 * word];
                reinterpret_cast<float4*>(a.d_scratch + size_t(y0 + row) * a.width + x0)[word] = float4{m[0], m[1], m[2], m[3]};
            }
        } else {
            for (int row = warp; row < kLab6TileHeight && y0 + row < a.height; row += kThreads / 32)
                for (int col = lane; col < kLab6TileWidth && x0 + col < a.width; col += 32)
                    a.d_scratch[(size_t(y0 + row) * a.width + x0 + col) * a.channels + c] = s_mid[row * layout.mid_pitch + col];
        }
        // The next channel's load writes s_in only; its barrier keeps its row pass from s_mid
        // until every thread has stored this channel's.
    }
}

struct LaunchRowPass {
    const ConvArgs& args;
    template <int R>
    void operator()() const {
        const size_t bytes = size_t(RowPassLayout(args.k / 2).floats()) * sizeof(float);  // 49 KB at K = 63
        launch_on_tiles(conv2d_row_pass_kernel<R>, bytes, args, "conv2d_row_pass_kernel");
    }
};

// ---- The column pass -------------------------------------------------------------------------

// Shared memory: 64 + 2r rows of 64 (+1) intermediate values.
int column_pass_floats(int r) { return (kLab6TileHeight + 2 * r) * (kLab6TileWidth + 1); }

template <int R>
__global__ void __launch_bounds__(kThreads) conv2d_column_pass_kernel(ConvArgs a) {
    extern __shared__ float s_mid[];
    const int r = radius<R>(a);
    const int pitch = kLab6TileWidth + 1;
    const int x0 = blockIdx.x * kLab6TileWidth, y0 = blockIdx.y * kLab6TileHeight;
    for (int c = 0; c < a.channels; ++c) {
        if (c) __syncthreads();  // the last channel's column pass is done with s_mid
        load_float_rows(a, a.d_scratch, c, x0, y0 - r, kLab6TileWidth, kLab6TileHeight + 2 * r, s_mid, pitch);
        __syncthreads();
        column_pass<R>(a, ColumnWeights{}, s_mid, pitch,
                       [&](int col, int row, float value) { store_output(a, c, x0 + col, y0 + row, value); });
    }
}

struct LaunchColumnPass {
    const ConvArgs& args;
    template <int R>
    void operator()() const {
        const size_t bytes = size_t(column_pass_floats(args.k / 2)) * sizeof(float);  // 49 KB at K = 63
        launch_on_tiles(conv2d_column_pass_kernel<R>, bytes, args, "conv2d_column_pass_kernel");
    }
};

// ---- The fused kernel ------------------------------------------------------------------------

// Shared memory: the input tile transposed, (64 + 2r) columns of (64 + 2r) rows (pitch odd), then
// the row pass's result, (64 + 2r) rows of 64 (+1) columns.
struct FusedLayout {
    int rows_in, cols_in, in_pitch, mid_pitch;
    __host__ __device__ explicit FusedLayout(int r)
        : rows_in(kLab6TileHeight + 2 * r), cols_in(kLab6TileWidth + 2 * r), in_pitch(odd_at_least(rows_in)),
          mid_pitch(kLab6TileWidth + 1) {}
    __host__ __device__ int floats() const { return cols_in * in_pitch + rows_in * mid_pitch; }
};

template <int R>
__global__ void __launch_bounds__(kThreads) conv2d_fused_kernel(ConvArgs a) {
    extern __shared__ float s_tile[];
    const int r = radius<R>(a);
    const FusedLayout layout(r);
    float* s_in = s_tile;
    float* s_mid = s_tile + layout.cols_in * layout.in_pitch;
    const int x0 = blockIdx.x * kLab6TileWidth, y0 = blockIdx.y * kLab6TileHeight;
    for (int c = 0; c < a.channels; ++c) {
        // No barrier before the load: it writes s_in only, which nobody reads after the barrier
        // below the last channel's row pass; and the barrier after it also keeps this channel's
        // row pass from overwriting s_mid while the last channel's column pass reads it.
        load_tile_transposed(a, c, x0 - r, y0 - r, layout.cols_in, layout.rows_in, s_in, layout.in_pitch);
        __syncthreads();
        row_pass<R>(a, RowWeights{}, s_in, layout.in_pitch, layout.rows_in, s_mid, layout.mid_pitch);
        __syncthreads();
        column_pass<R>(a, ColumnWeights{}, s_mid, layout.mid_pitch,
                       [&](int col, int row, float value) { store_output(a, c, x0 + col, y0 + row, value); });
    }
}

// ---- The fused kernel's fast path: a walk down strips of columns ----------------------------
//
// Why another fused kernel: the tile kernel (64 x 64 outputs a block) spends about 61 instructions
// an output at K = 3, of which 6 are its multiply-adds: the transposed tile, the intermediate in
// shared memory and the index arithmetic of three phases cost the rest, and it recomputes the row
// pass over 2r extra rows a tile. Here each warp owns a strip of 128 columns and walks down it,
// 4 columns a lane:
//
//   rows of the strip and 4L words of halo on each side -> shared memory as float (a batch of rows)
//   lane: 4(2L+1) floats of one row -> its 4 row-pass values rp (K multiply-adds each)
//   the column pass without an intermediate: row t adds col[i] * rp to the running sum of output
//   row t - i, for i = 0 .. K-1, held in registers; output row t - 2r is then complete: one
//   16-byte store.
//
// The K running sums move down one place a row ("transposed" FIR form): sum[j] holds output row
// t - 2r + j, and row t's update is sum[j] = col[2r - j] * rp + sum[j + 1], so the multiply-add
// itself shifts the sums and every register index is a compile-time constant whatever the row.
// (A ring indexed by row mod K, its first design, needs the loop over rows unrolled K rows at a
// time: about 8K^2 instructions, past the instruction cache from K = 15 on; it took 0.205 ms at
// K = 15 and 0.879 ms at K = 31 on the H100.) The row pass runs over 2r extra rows per walk of
// kRows, not per 64-row tile. The next batch's words are loaded into registers while this batch
// is computed, and warps share nothing, so __syncwarp is the only barrier.
//
// Where it stops, K = 31: 4K running sums a lane are 124 registers there; at K = 63 they would
// not fit, and the tile kernel is kept.
namespace strip_walk {

constexpr int kLanes = 32;
constexpr int kRun = 4;                     // columns a lane: one 4-byte word in, one float4 out
constexpr int kStripWidth = kLanes * kRun;  // columns a warp
constexpr int kWarpsPerBlock = 4;
constexpr int kMaxRadius = 15;  // K = 31; the tile kernel beyond (above)
constexpr int kBatch = 8;       // rows a batch: staged in shared memory together

template <int R>
struct Walk {
    static_assert(R >= 1 && R <= kMaxRadius, "the walk holds 4K running sums a lane");
    static constexpr int K = 2 * R + 1;
    static constexpr int kHaloWords = (R + kRun - 1) / kRun;  // each side
    static constexpr int kWords = kLanes + 2 * kHaloWords;    // words of a strip row with its halo
    // A lane loads its own word of every row of a batch, and some of the halo words.
    static constexpr int kHaloLoads = (kBatch * 2 * kHaloWords + kLanes - 1) / kLanes;
    // Output rows a walk: about 64, 128 or 256 (more where the 2r rows of halo cost more), chosen
    // so that the input rows, kRows + 2r, are whole batches.
    static constexpr int kTarget = R <= 4 ? 64 : R <= 7 ? 128 : 256;
    static constexpr int kBatches = (kTarget + 2 * R + kBatch - 1) / kBatch;
    static constexpr int kRows = kBatches * kBatch - 2 * R;
    // Blocks an SM must hold, which caps the registers a thread: 64 or 80 for small masks, where
    // the loads in flight (so the warps resident) set the speed; more where 4K running sums need them.
    static constexpr int kMinBlocks = R <= 2 ? 8 : R <= 4 ? 6 : R <= 7 ? 4 : R <= 10 ? 3 : 2;
    // Rows of a batch unrolled together: all 8 while the code stays small; two from K = 15, where a
    // row is over 100 multiply-adds a lane (on the H100 all 8 took 0.173 ms at K = 15 against
    // 0.165, and 0.405 against 0.339 at K = 31; one or four rows: within 1% at K = 15, 3% and 6%
    // slower at K = 31).
    static constexpr int kUnroll = R <= 4 ? kBatch : 2;
    // Shared memory a block: each warp's batch as float (16 B a word), 20 KB at K = 31.
    static constexpr size_t kSharedBytes = size_t(kWarpsPerBlock) * kBatch * kWords * sizeof(float4);
};

// The 4 pixels x .. x+3 of a row (x a multiple of 4) where some lie outside it: the border rule
// on each. Out of line: only the strips at the image's left and right edges come here.
__device__ __noinline__ unsigned load_word_at_edge(const uint8_t* row, int x, int width, Border border) {
    unsigned word = 0;
    for (int b = 0; b < kRun; ++b) {
        const int xb = border_index(x + b, width, border);
        if (xb >= 0) word |= unsigned(__ldg(row + xb)) << (8 * b);
    }
    return word;
}

// Word x / 4 of image row y (the border rule on y applied first, then on x where needed).
__device__ __forceinline__ unsigned load_word(const ConvArgs& a, int x, int y) {
    if (y < 0 || y >= a.height) y = border_index(y, a.height, a.border);
    if (y < 0) return 0u;
    const uint8_t* row = a.d_in + size_t(y) * a.width;
    if (x >= 0 && x + kRun <= a.width) return __ldg(reinterpret_cast<const unsigned*>(row + x));
    return load_word_at_edge(row, x, a.width, a.border);
}

__device__ __forceinline__ float4 word_to_floats(unsigned word) {
    return float4{byte_to_float(word, 0), byte_to_float(word, 1), byte_to_float(word, 2), byte_to_float(word, 3)};
}

template <int R>
__global__ void __launch_bounds__(kLanes * kWarpsPerBlock, Walk<R>::kMinBlocks) fused_strip_walk_kernel(ConvArgs a) {
    using W = Walk<R>;
    constexpr int L = W::kHaloWords;
    extern __shared__ float4 s_batches[];  // W::kSharedBytes
    const int lane = threadIdx.x % kLanes, warp = threadIdx.x / kLanes;
    const int xs = (blockIdx.x * kWarpsPerBlock + warp) * kStripWidth;  // the strip's first column
    if (xs >= a.width) return;  // a whole warp; no barrier spans warps
    const int y0 = blockIdx.y * W::kRows;                                // its first output row
    // s[row * kWords + word]: word w holds columns xs + 4 (w - L) .. xs + 4 (w - L) + 3.
    float4* s = s_batches + warp * kBatch * W::kWords;

    // A batch: every lane's own word (word L + lane) of each row, and the 2L halo words of each
    // row, halo word n = lane + 32 i being word h = n % 2L (left of the strip if h < L, else right)
    // of row n / 2L.
    unsigned own[kBatch], halo[W::kHaloLoads];
    auto halo_word = [&](int n) { return n % (2 * L) < L ? n % (2 * L) : kLanes + n % (2 * L); };
    auto fetch = [&](int batch) {
        const int y = y0 - R + batch * kBatch;
#pragma unroll
        for (int u = 0; u < kBatch; ++u) own[u] = load_word(a, xs + kRun * lane, y + u);
#pragma unroll
        for (int i = 0; i < W::kHaloLoads; ++i) {
            const int n = lane + kLanes * i;
            if (n < kBatch * 2 * L) halo[i] = load_word(a, xs + kRun * (halo_word(n) - L), y + n / (2 * L));
        }
    };
    auto stage = [&] {
#pragma unroll
        for (int u = 0; u < kBatch; ++u) s[u * W::kWords + L + lane] = word_to_floats(own[u]);
#pragma unroll
        for (int i = 0; i < W::kHaloLoads; ++i) {
            const int n = lane + kLanes * i;
            if (n < kBatch * 2 * L) s[n / (2 * L) * W::kWords + halo_word(n)] = word_to_floats(halo[i]);
        }
    };

    const int x = xs + kRun * lane;
    float sums[W::K][kRun] = {};  // after input row t, sums[j]: the running column sum of output row t - 2R + j
    fetch(0);
#pragma unroll 1
    for (int batch = 0; batch < W::kBatches; ++batch) {
        __syncwarp();  // every lane is done reading the last batch
        stage();
        __syncwarp();
        if (batch + 1 < W::kBatches) fetch(batch + 1);  // in flight while this batch is summed
#pragma unroll W::kUnroll
        for (int u = 0; u < kBatch; ++u) {
            // Input row t = batch * kBatch + u, image row y0 - R + t. Its floats from x - 4L on:
            // the row pass of column x + g reads v[4L + g + j - R].
            float v[kRun * (2 * L + 1)];
#pragma unroll
            for (int w = 0; w <= 2 * L; ++w) {
                const float4 f = s[u * W::kWords + lane + w];
                v[4 * w] = f.x, v[4 * w + 1] = f.y, v[4 * w + 2] = f.z, v[4 * w + 3] = f.w;
            }
            float rp[kRun];
#pragma unroll
            for (int g = 0; g < kRun; ++g) {
                rp[g] = 0.0f;
#pragma unroll
                for (int j = 0; j < W::K; ++j) rp[g] = fmaf(c_row[j], v[kRun * L + g + j - R], rp[g]);
            }
            // Row t adds col[i] * rp to output row t - i. Output row t - 2R + j was sums[j + 1]
            // before this row (t - 1 - 2R + (j + 1)), and takes tap i = 2R - j; the lowest, in
            // order, reads its neighbour before the neighbour is overwritten. Output row t has
            // no sum yet: its first tap starts sums[K - 1].
#pragma unroll
            for (int j = 0; j < W::K; ++j) {
#pragma unroll
                for (int g = 0; g < kRun; ++g)
                    sums[j][g] = fmaf(c_col[2 * R - j], rp[g], j + 1 < W::K ? sums[j + 1][g] : 0.0f);
            }
            // Output row t - 2R has had its last tap (i = 2R).
            const int y = batch * kBatch + u - 2 * R;
            if (y >= 0 && y < W::kRows && y0 + y < a.height && x < a.width)
                *reinterpret_cast<float4*>(a.d_out + size_t(y0 + y) * a.width + x) =
                    float4{sums[0][0], sums[0][1], sums[0][2], sums[0][3]};
        }
    }
}

// Whether the walk computes this launch: one channel, rows of whole words (so every word load
// and float4 store is aligned).
inline bool applies(const ConvArgs& args) { return args.channels == 1 && args.width % kRun == 0; }

template <int R>
void launch(const ConvArgs& args) {
    using W = Walk<R>;
    constexpr int kBlockWidth = kStripWidth * kWarpsPerBlock;
    const auto kernel = fused_strip_walk_kernel<R>;
    allow_dynamic_shared_memory(kernel, W::kSharedBytes, "fused_strip_walk_kernel");
    const dim3 grid((args.width + kBlockWidth - 1) / kBlockWidth, (args.height + W::kRows - 1) / W::kRows);
    kernel<<<grid, kLanes * kWarpsPerBlock, W::kSharedBytes>>>(args);
    CUDA_CHECK_LAUNCH();
}

}  // namespace strip_walk

struct LaunchFused {
    const ConvArgs& args;
    template <int R>
    void operator()() const {
        if constexpr (R >= 1 && R <= strip_walk::kMaxRadius) {
            if (strip_walk::applies(args)) return strip_walk::launch<R>(args);
        }
        const size_t bytes = size_t(FusedLayout(args.k / 2).floats()) * sizeof(float);  // 97 KB at K = 63
        launch_on_tiles(conv2d_fused_kernel<R>, bytes, args, "conv2d_fused_kernel");
    }
};

}  // namespace

void copy_factors_to_constant(const Mask& mask) {
    require_separable(mask);  // as the driver's own variants: a mask that is not rank 1 is refused
    CUDA_CHECK(cudaMemcpyToSymbol(c_row, mask.row.data(), mask.row.size() * sizeof(float)));
    CUDA_CHECK(cudaMemcpyToSymbol(c_col, mask.col.data(), mask.col.size() * sizeof(float)));
}

void launch_two_pass(const ConvArgs& args) {
    dispatch_radius(args.k, LaunchRowPass{args});
    dispatch_radius(args.k, LaunchColumnPass{args});
}

void launch_conv2d_fused(const ConvArgs& args) { dispatch_radius(args.k, LaunchFused{args}); }

const TileShape kTile{kLab6TileWidth, kLab6TileHeight};
const ExpertVariant<GpuVariant> two_pass{{"two-pass-expert", "the two passes tuned: transposed tiles, a run of 8 outputs a thread, unrolled radii",
                                          launch_two_pass, copy_factors_to_constant, nullptr, kTile, WorkModel{13, true}}};
const ExpertVariant<GpuVariant> fused{{"fused-expert", "the fused kernel tuned, and for one channel a walk down strips with the sums in registers",
                                       launch_conv2d_fused, copy_factors_to_constant, nullptr, kTile, WorkModel{5, true}}};

}  // namespace lab6_expert

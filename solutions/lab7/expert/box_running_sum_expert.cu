// Lab 7 — the box filter by running sums. The expert tier: the reference solution's design
// (solutions/lab7/box_running_sum.cu: a strip a block, rows loaded into shared memory, row windows
// slid there, the column walk over a ring of row sums) tuned, reported as the row
// running-sum-expert. Built into the reference solution's program only
// (common/runner/expert_tier.hpp); the grader times students against the design, not this.
// What is tuned: the batch's loads issued into registers before the previous batch is summed and
// stored after it; 1-channel rows read as aligned 4-byte words; row sums kept in 16 bits, so that
// 64 rows of them fit beside the batch with three or more blocks an SM; a strip 256 pixels wide
// for grey and 128 for colour (a thread a column value either way); odd-word row strides.
//
// One kernel, 5 B a value (the input byte read, the output float written), O(1) adds a value for
// any radius. A block filters a strip of P pixels' columns, kLab7StripHeight rows tall, walking
// down it in batches of kBatch rows:
//   1. load       the batch's input rows, P + 2r pixels wide, border rule on both axes, as bytes;
//                 the next batch's loads are issued before this one is summed, and stored after
//   2. across     each thread slides a window along a run of kRun pixels of one row and channel:
//                 the first sum takes K taps, each next one adds the pixel entering and
//                 subtracts the one leaving; the row sums h go into a ring of the last kRing rows
//   3. down       each thread owns one column of values and keeps its window's sum v: for every
//                 new row t, v += h(t) - h(t - K), and the output row t - r is v / K^2
// h is at most 255 * 31 = 7905, so the ring holds it in 16 bits; v at most 255 * 31^2 in 32.
// Every sum is an integer: the scaling by 1/K^2 at the end is the only rounding.
//
// The strip's width depends on the channel count so that a block has one thread a column value
// (256 pixels of grey, 128 of colour: 256 or 384 threads), and the ring (kRing rows of P*C
// 16-bit sums) plus the input batch fit three or more blocks on an SM.
//
// Build and run:   make lab7 SOLUTION=1 && ./lab7 --variant running-sum,running-sum-expert
#include <cstdint>

#include "common/device/cuda_check.cuh"
#include "common/runner/expert_tier.hpp"
#include "common/runner/lab.hpp"
#include "labs/lab7/lab7.hpp"

using namespace convlab;

namespace lab7_expert {  // beside the design tier's symbols of the same names

namespace {

constexpr int kBatch = 32;  // rows loaded and summed across at a time
constexpr int kRing = 64;   // rows of row sums kept: a batch plus the K rows above it (32 + 31 <= 64)
constexpr int kRun = 32;    // pixels a thread slides its row window along: K / kRun extra taps a value
constexpr int kMaxRadius = kLab7MaxMaskSize / 2;
static_assert(kBatch + kLab7MaxMaskSize <= kRing, "the ring must hold a batch and the window above it");

// A block's layout for C channels: its strip of P pixels (E values, a thread each), the ring's and
// the input batch's row strides, and the shared memory they take. Both strides are an odd number
// of words, so that the rows a warp touches at once start in different banks; an input row has
// room for up to 3 bytes in front (a row read as aligned words starts at its word's boundary).
template <int C>
struct Strip {
    static constexpr int P = C == 1 ? 2 * kLab7StripWidth : kLab7StripWidth;
    static constexpr int E = P * C;
    static constexpr int ring_stride = E + 2;
    static constexpr int input_words = ((P + 2 * kMaxRadius) * C + 3) / 4 + 1;
    static constexpr int input_stride = 4 * (input_words | 1);
    static constexpr size_t shared_bytes = size_t(kRing) * ring_stride * sizeof(uint16_t) + size_t(kBatch) * input_stride;
};

// Where one block reads: its strip's first pixel x0 (and the halo of r on each side), the input's
// row length in values and its size in bytes.
struct StripInput {
    const uint8_t* in;
    int width, height, channels, x0, r, in_len;
    Border border;
    bool inside_x;  // the strip and its halo lie inside the image: no border rule across
    size_t row_values, total;
};

// An input row of the strip as aligned 4-byte words: where the strip's first byte lies in the
// first word (shift) and how many words hold the strip. count is 0 when the row must be copied a
// byte at a time instead: a zero-border row outside, a strip at the image's left or right edge,
// or a last word past the end of the buffer.
struct RowWords {
    const uint32_t* words = nullptr;
    int shift = 0, count = 0;
};

__device__ RowWords row_words(const StripInput& s, int row) {
    RowWords w;
    const int sy = border_index(row, s.height, s.border);
    if (sy < 0 || !s.inside_x) return w;
    const uint8_t* first_byte = s.in + size_t(sy) * s.row_values + size_t(s.x0 - s.r) * s.channels;
    w.shift = int(reinterpret_cast<uintptr_t>(first_byte) & 3);
    w.words = reinterpret_cast<const uint32_t*>(first_byte - w.shift);
    const int count = (w.shift + s.in_len + 3) / 4;
    if (reinterpret_cast<const uint8_t*>(w.words + count) <= s.in + s.total) w.count = count;
    return w;
}

// A batch of input rows in flight: a warp owns rows warp, warp + warps, ..., a lane every 32nd
// word of them. fetch() issues the loads into registers; store() writes them into s_in later, so
// that their latency passes while the block sums the previous batch.
template <int C>
struct BatchLoader {
    static constexpr int kWarps = Strip<C>::E / 32;
    static constexpr int kRowsPerWarp = (kBatch + kWarps - 1) / kWarps;
    static constexpr int kParts = (Strip<C>::input_words + 31) / 32;
    uint32_t word[kRowsPerWarp][kParts];

    __device__ void fetch(const StripInput& s, int batch) {
        const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
#pragma unroll
        for (int i = 0; i < kRowsPerWarp; ++i) {
            const int b = warp + i * kWarps;
            if (b >= kBatch) break;
            const RowWords w = row_words(s, batch + b);
#pragma unroll
            for (int p = 0; p < kParts; ++p)
                if (lane + 32 * p < w.count) word[i][p] = w.words[lane + 32 * p];
        }
    }

    // s_in[b][s_shift[b] + i] is then pixel x0 - r + i / C, channel i % C, of row batch + b.
    __device__ void store(const StripInput& s, int batch, uint8_t* s_in, int* s_shift) const {
        const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
#pragma unroll
        for (int i = 0; i < kRowsPerWarp; ++i) {
            const int b = warp + i * kWarps;
            if (b >= kBatch) break;
            uint8_t* dst = s_in + b * Strip<C>::input_stride;
            const RowWords w = row_words(s, batch + b);
            if (w.count) {
#pragma unroll
                for (int p = 0; p < kParts; ++p)
                    if (lane + 32 * p < w.count) reinterpret_cast<uint32_t*>(dst)[lane + 32 * p] = word[i][p];
                if (lane == 0) s_shift[b] = w.shift;
                continue;
            }
            const int sy = border_index(batch + b, s.height, s.border);
            const uint8_t* src = s.in + size_t(sy < 0 ? 0 : sy) * s.row_values;
            for (int n = lane; n < s.in_len; n += 32) {
                const int px = n / C, c = n - px * C;
                const int sx = border_index(s.x0 - s.r + px, s.width, s.border);
                dst[n] = sy < 0 || sx < 0 ? 0 : src[sx * C + c];
            }
            if (lane == 0) s_shift[b] = 0;
        }
    }
};

template <int C>
__global__ void __launch_bounds__(Strip<C>::E) box_running_sum_kernel(ConvArgs a) {
    constexpr int P = Strip<C>::P, E = Strip<C>::E, kRuns = P / kRun;
    extern __shared__ __align__(16) uint8_t smem[];
    uint16_t* ring = reinterpret_cast<uint16_t*>(smem);
    uint8_t* s_in = smem + size_t(kRing) * Strip<C>::ring_stride * sizeof(uint16_t);
    __shared__ int s_shift[kBatch];  // where each input row's first byte lies in its s_in row

    const int k = a.k, r = k / 2;
    const int x0 = blockIdx.x * P, y0 = blockIdx.y * kLab7StripHeight;
    const int y_end = min(y0 + kLab7StripHeight, a.height);
    // Row sums from row `first` (the window above the strip's first output row, and the row that
    // leaves it first) to `last` (the row that enters for the last output row).
    const int first = y0 - r - 1, last = y_end - 1 + r;
    const size_t row_values = size_t(a.width) * C;
    const StripInput input{a.d_in, a.width, a.height, C, x0, r, (P + 2 * r) * C, a.border,
                           x0 - r >= 0 && x0 + P + r <= a.width, row_values, row_values * a.height};
    const int e = threadIdx.x;  // the column of values this thread walks down
    const bool e_inside = x0 * C + e < int(row_values);
    const float scale = 1.0f / float(k * k);  // one rounding more than a division; the tolerance allows it
    uint32_t v = 0;

    BatchLoader<C> loader;
    loader.fetch(input, first);
    loader.store(input, first, s_in, s_shift);
    for (int batch = first; batch <= last; batch += kBatch) {
        __syncthreads();  // s_in holds this batch; the previous batch's column walk is over
        const bool more = batch + kBatch <= last;
        if (more) loader.fetch(input, batch + kBatch);  // in flight while this batch is summed

        // 2. Across: task = (row b, run q, channel c), channels fastest so a warp reads
        //    neighbouring bytes. h(t, px, c) = sum over j < K of s_in[b][(px + j) * C + c].
        for (int task = threadIdx.x; task < kBatch * kRuns * C; task += E) {
            const int b = task / (kRuns * C), rest = task - b * kRuns * C;
            const int q = rest / C, c = rest - q * C;
            const uint8_t* row = s_in + b * Strip<C>::input_stride + s_shift[b] + c;
            uint16_t* sums = ring + ((batch + b - first) & (kRing - 1)) * Strip<C>::ring_stride + c;
            int px = q * kRun;
            uint32_t s = 0;
            for (int j = 0; j < k; ++j) s += row[(px + j) * C];
            sums[px * C] = uint16_t(s);
            for (int n = 1; n < kRun; ++n, ++px) {
                s += row[(px + k) * C];  // entering on the right
                s -= row[px * C];        // leaving on the left
                sums[(px + 1) * C] = uint16_t(s);
            }
        }
        __syncthreads();

        // 3. Down: the first K rows (all in the first batch: K <= 31 < kBatch) fill the window
        //    above the strip; each later row t enters it, row t - K leaves it, and the output
        //    row t - r is complete. Ring slots and the output pointer advance a row at a time.
        int t = batch;
        if (batch == first)
            for (; t < first + k; ++t) v += ring[(t - first) * Strip<C>::ring_stride + e];
        const int batch_end = min(batch + kBatch, last + 1);
        int entering = (t - first) & (kRing - 1), leaving = (t - k - first) & (kRing - 1);
        float* out = a.d_out + (size_t(t - r) * row_values + size_t(x0) * C + e);
#pragma unroll 4
        for (; t < batch_end; ++t) {
            v += ring[entering * Strip<C>::ring_stride + e];
            v -= ring[leaving * Strip<C>::ring_stride + e];
            if (e_inside) *out = float(v) * scale;
            out += row_values;
            entering = (entering + 1) & (kRing - 1);
            leaving = (leaving + 1) & (kRing - 1);
        }
        // 1. The next batch into s_in: every thread is past step 2, which read it.
        if (more) loader.store(input, batch + kBatch, s_in, s_shift);
    }
}

template <int C>
void launch_for_channels(const ConvArgs& args) {
    // Above 48 KB of shared memory a block must opt in, once per kernel (not timed after the first run).
    static const bool opted_in = [] {
        CUDA_CHECK(cudaFuncSetAttribute(box_running_sum_kernel<C>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        int(Strip<C>::shared_bytes)));
        return true;
    }();
    (void)opted_in;
    const dim3 grid((args.width + Strip<C>::P - 1) / Strip<C>::P,
                    (args.height + kLab7StripHeight - 1) / kLab7StripHeight);
    box_running_sum_kernel<C><<<grid, Strip<C>::E, Strip<C>::shared_bytes>>>(args);
}

}  // namespace

void launch_box_running_sum(const ConvArgs& args) {
    if (args.channels == 1)
        launch_for_channels<1>(args);
    else
        launch_for_channels<3>(args);
}

void prepare_box(const Mask& mask) { require_box(mask); }  // as the driver's running-sum row: box masks only

// The driver's running-sum row's tile hint and work model (labs/lab7/main.cpp).
const ExpertVariant<GpuVariant> running_sum{{"running-sum-expert",
                                             "running-sum tuned: loads staged in registers, 4-byte word loads, 16-bit row sums, strips by channel count",
                                             launch_box_running_sum, prepare_box, nullptr, {kLab7StripWidth, kLab7StripHeight},
                                             WorkModel{5, false, true, 4}}};

}  // namespace lab7_expert

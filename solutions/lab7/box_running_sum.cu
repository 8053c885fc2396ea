// Lab 7 — the box filter by running sums. Reference solution.
//
// One kernel that moves 5 B a value (the input byte, the output float), O(1) adds a value for
// any K. A block filters a strip of kLab7StripWidth pixels' columns and kLab7StripHeight output
// rows, a thread a column value (128 or 384 threads), walking down the strip kBatch rows at a time:
//   1. load     the batch's input rows of the strip, r more pixels each side, into shared memory
//               as bytes, the border rule (border_index) applied on both axes
//   2. across   a thread slides a window along a run of kRun pixels of one row and channel: the
//               first window costs K taps, each next one adds the pixel entering and subtracts the
//               one leaving; the row sums h go into a ring that keeps the last kRing rows
//   3. down     thread e keeps its column's window sum v: row t enters (v += h(t)), row t - K
//               leaves (v -= h(t - K)), and v is then the window of output row t - r
// The walk starts r rows above the strip and ends r rows below it. Every sum is an integer (v is
// at most 255 * 31^2), so the division by K^2 at the end is the only rounding, the CPU's own.
//
// The tuned kernel (loads staged in registers, 4-byte word loads, 16-bit row sums, strips by
// channel count) is the expert tier, solutions/lab7/expert/, reported as running-sum-expert.
//
// Build and run:   make lab7 SOLUTION=1 && ./lab7 --variant running-sum
#include <cstdint>

#include "common/device/cuda_check.cuh"
#include "common/device/shared_memory.cuh"
#include "labs/lab7/lab7.hpp"

using namespace convlab;

namespace {

constexpr int kBatch = 16;  // input rows loaded and slid across at a time
constexpr int kRun = 16;    // pixels a thread slides a window along (its first window costs K taps)
constexpr int kRuns = kLab7StripWidth / kRun;  // 16 rows x 8 runs x C channels: a run a thread
constexpr int kRing = 48;   // rows of row sums kept: a batch and the K rows above it
static_assert(kBatch + kLab7MaxMaskSize <= kRing, "the ring must hold a batch and the window above it");
static_assert(kLab7StripWidth % kRun == 0, "a strip's row is whole runs");

__global__ void box_running_sum_kernel(ConvArgs a) {
    const int C = a.channels, k = a.k, r = k / 2;
    const int E = kLab7StripWidth * C;               // values in a row of the strip: a thread each
    const int ring_w = E + 1;                        // one word more: see step 2
    const int in_w = (kLab7StripWidth + 2 * r) * C;  // values in an input row of the strip and its halo
    extern __shared__ uint32_t s_ring[];             // kRing rows of row sums, then the input batch
    uint8_t* s_in = reinterpret_cast<uint8_t*>(s_ring + kRing * ring_w);  // kBatch rows of in_w bytes

    const int x0 = blockIdx.x * kLab7StripWidth, y0 = blockIdx.y * kLab7StripHeight;
    const int first = y0 - r, last = min(y0 + kLab7StripHeight, a.height) - 1 + r;  // the rows the walk reads
    const int e = threadIdx.x;  // the column value this thread walks down in step 3
    const size_t row_values = size_t(a.width) * C;
    uint32_t v = 0;

    for (int batch = first; batch <= last; batch += kBatch) {
        const int rows = min(kBatch, last + 1 - batch);
        // 1. Load, a row at a time, the threads along it (coalesced). A row or pixel outside the
        //    image is the one the border rule names, or 0 under the zero border.
        for (int b = 0; b < rows; ++b) {
            const int y = border_index(batch + b, a.height, a.border);
            for (int i = threadIdx.x; i < in_w; i += blockDim.x) {
                const int x = border_index(x0 - r + i / C, a.width, a.border);
                s_in[b * in_w + i] = (x < 0 || y < 0) ? 0 : a.d_in[size_t(y) * row_values + size_t(x) * C + i % C];
            }
        }
        __syncthreads();

        // 2. Across: task (row b, run q, channel c), b fastest. A warp's lanes then write the same
        //    column of different rows at once; ring rows of E + 1 words (E is a multiple of 32)
        //    put those in different banks instead of one.
        for (int task = threadIdx.x; task < kBatch * kRuns * C; task += blockDim.x) {
            const int b = task % kBatch, q = task / kBatch % kRuns, c = task / kBatch / kRuns;
            if (b >= rows) continue;
            const uint8_t* in = s_in + b * in_w + q * kRun * C + c;  // the run's first window starts here
            uint32_t* h = s_ring + (batch + b - first) % kRing * ring_w + q * kRun * C + c;
            uint32_t s = 0;
            for (int j = 0; j < k; ++j) s += in[j * C];
            h[0] = s;
            for (int p = 1; p < kRun; ++p) {
                s += in[(p + k - 1) * C];  // entering on the right
                s -= in[(p - 1) * C];      // leaving on the left
                h[p * C] = s;
            }
        }
        __syncthreads();

        // 3. Down. A row leaves only once it has entered (t - K >= first), and output row t - r
        //    is due once its whole window has (t - r >= y0). No barrier after this: the next
        //    batch's across pass, which overwrites ring rows read here, waits at the one after its load.
        for (int t = batch; t < batch + rows; ++t) {
            v += s_ring[(t - first) % kRing * ring_w + e];
            if (t - k >= first) v -= s_ring[(t - k - first) % kRing * ring_w + e];
            if (t - r >= y0 && x0 * C + e < int(row_values))
                a.d_out[size_t(t - r) * row_values + size_t(x0) * C + e] = float(v) / float(k * k);
        }
    }
}

}  // namespace

void launch_box_running_sum(const ConvArgs& args) {
    const int threads = kLab7StripWidth * args.channels;  // a column value each
    const size_t shared_bytes = size_t(kRing) * (threads + 1) * sizeof(uint32_t) +
                                size_t(kBatch) * (kLab7StripWidth + args.k - 1) * args.channels;  // 80 KB at K = 31, colour
    allow_dynamic_shared_memory(box_running_sum_kernel, shared_bytes, "box_running_sum_kernel");
    const dim3 grid((args.width + kLab7StripWidth - 1) / kLab7StripWidth,
                    (args.height + kLab7StripHeight - 1) / kLab7StripHeight);
    box_running_sum_kernel<<<grid, threads, shared_bytes>>>(args);
    CUDA_CHECK_LAUNCH();
}

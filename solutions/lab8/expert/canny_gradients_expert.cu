// Lab 8 — the Canny edge detector, stages 2 and 3: gradients and non-maximum suppression, tuned
// (the thresholds, one pass a pixel, are the design's in the expert pipelines too). The expert tier: the kit's tuned kernels beside the reference solution's design
// (solutions/lab8/canny_gradients.cu), in the pipelines staged-expert, fused-expert and
// union-find-expert (canny_pipelines_expert.cpp). Built into the reference solution's program only
// (common/runner/expert_tier.hpp); the grader times students against the design, not this.
//
// The gradients, and the gradients and suppression fused, walk down the image. A warp takes a
// band of 128 columns, four a lane, and walks down kWalkRows rows of it, keeping the last three
// rows of its columns in registers: a lane reads its four columns of a row in one 16-byte load,
// the columns either side of them from its neighbour lanes by shuffles (the warp's two outer
// lanes read theirs from memory), so each pixel is read once, not nine times. The gradients read
// 4 B and write 5 B a pixel. Fused, 4 B read and 4 written: the magnitudes never leave registers.
// A lane computes its columns' magnitudes and every lane one more, for the column either side of
// the band (lane 0 and lane 31 use them); the rest of the columns either side of a lane's, which
// suppression compares, come from the neighbour lanes by shuffles. Each difference Sobel sums is
// taken once a row (sobel_from_differences). A band inside the image, most of them, is walked
// with no border rule and no test a row; fused, its rows come through shared memory, copied
// asynchronously twelve rows ahead, each band is a block of one warp, and the bands at the
// image's edges are given out first. A band's first rows repeat the last of the band above (two
// of 64 rows for the gradients, four fused).
//
// Suppression apart: a thread four pixels of a row, every load issued before any is used.
//
// The roots: exact_sqrt.cuh's fast path, a row's together, sqrtf only where one is outside it.
//
// On the H100 at 8192 x 8192 (2026-11-26, copy 2998 GB/s): gradients 0.303 ms, suppression 0.261,
// fused 0.257. Before: suppression a thread a pixel 0.332 ms; fused with six magnitudes a lane and
// no straight path 0.492; then its suppression by direction_step's switch, and sqrtf on zero
// gradients, 0.372; then a sqrtf a root, 0.352; then 0.317. Then, each against the one before in
// the same run: blocks of one warp 0.313 against 0.325; sqrtf's slow path out of line 0.307
// against 0.314; rows staged in shared memory 0.300 against 0.308; the edge bands first 0.255
// against 0.301. handouts/lab8.md has the designs' times.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "common/families/pipelines/canny_rules.hpp"
#include "common/device/cuda_check.cuh"
#include "common/families/pipelines/exact_sqrt.cuh"
#include "common/families/pipelines/stride_grid.cuh"
#include "labs/lab8/lab8.hpp"
#include "solutions/lab8/expert/canny_expert.hpp"

using namespace convlab;

namespace lab8_expert {  // beside the design tier's symbols of the same names

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr unsigned kAllLanes = 0xffffffffu;
constexpr int kGradientColumns = 4;  // columns a lane, in each walk
constexpr int kFusedColumns = 4;
constexpr int kSuppressionColumns = 4;  // a thread's, in suppression apart
constexpr int kWalkRows = 64;  // a band's rows: the two to four it repeats are a few percent of them
// Rows in flight, in each walk. The gradients: three, at 80 registers (three blocks an SM; the
// kernel's __launch_bounds__ holds it there, at the cost of 12 bytes spilled). The fused walk:
// three, the ring of rows a gradient reads (fused_band), at 128 registers (16 warps an SM); on the
// H100 the fused walk of six magnitudes a lane took 0.491 ms with two rows in flight (114
// registers) and 0.822 with four (146, one block an SM).
constexpr int kGradientAhead = 3;
constexpr int kFusedAhead = 3;

__device__ float smoothed_tap(const CannyArgs& a, int x, int y) {
    const int sx = border_index(x, a.width, a.border), sy = border_index(y, a.height, a.border);
    return sx < 0 || sy < 0 ? 0.0f : a.d_smoothed[size_t(sy) * a.width + sx];
}

// The largest of a warp's m, in every lane.
__device__ float warp_max(float m) {
    for (int offset = 16; offset > 0; offset /= 2) m = fmaxf(m, __shfl_xor_sync(kAllLanes, m, offset));
    return m;
}

// A largest magnitude m into *a.d_max_magnitude: atomicMax on the float's bits (non-negative
// floats order as their bits do).
__device__ void max_to_global(const CannyArgs& a, float m) {
    if (m > 0.0f) atomicMax(a.d_max_magnitude, __float_as_uint(m));
}

// The largest m of a block of one warp into *a.d_max_magnitude.
__device__ void warp_max_to_global(const CannyArgs& a, float m) {
    m = warp_max(m);
    if (threadIdx.x == 0) max_to_global(a, m);
}

// The block's largest magnitude into *a.d_max_magnitude: the warps' by shuffles, then one
// atomicMax a block.
__device__ void block_max_to_global(const CannyArgs& a, float m) {
    __shared__ float s_warp_max[kWarps];
    m = warp_max(m);
    if (threadIdx.x % 32 == 0) s_warp_max[threadIdx.x / 32] = m;
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int w = 1; w < kWarps; ++w) m = fmaxf(m, s_warp_max[w]);
        max_to_global(a, m);
    }
}

// ---- the walk ----------------------------------------------------------------------------------

// A lane's place in its warp's band: its first column x0, kCols columns from it, and the band's
// first column (lane 0's x0).
template <int kCols>
struct Lane {
    int x0, band_x0, lane;
};

// The column a lane loads for the band's outer column h (h = 0 nearest): lane 0 the left one,
// every other lane the right one (lane 31 uses it), so that the warp's load touches two addresses
// and no lane branches on its own.
template <int kCols>
__device__ int outer_column(const Lane<kCols>& l, int h) {
    return l.lane == 0 ? l.band_x0 - 1 - h : l.band_x0 + 32 * kCols + h;
}

// Band i's place (column, row) among bands_x by bands_y bands: with kEdgesFirst, the bands at the
// image's edges first (the first and last rows of bands, then the first and last columns of the
// rest), which walk by the border rule, several times slower than the rest: given out last, they
// were the walk's tail. Otherwise row by row.
template <bool kEdgesFirst>
__device__ int2 band_place(int i, int bands_x, int bands_y) {
    if (!kEdgesFirst || bands_x < 3 || bands_y < 3) return make_int2(i % bands_x, i / bands_x);
    if (i < 2 * bands_x) return make_int2(i % bands_x, i < bands_x ? 0 : bands_y - 1);
    i -= 2 * bands_x;
    if (i < 2 * (bands_y - 2)) return make_int2(i % 2 == 0 ? 0 : bands_x - 1, 1 + i / 2);
    i -= 2 * (bands_y - 2);
    return make_int2(1 + i % (bands_x - 2), 1 + i / (bands_x - 2));
}

// The bands of a walk, 32 * kCols columns by kWalkRows rows: how many across and down.
template <int kCols>
__host__ __device__ int2 band_counts(int width, int height) {
    constexpr int kBandColumns = 32 * kCols;
    return make_int2((width + kBandColumns - 1) / kBandColumns, (height + kWalkRows - 1) / kWalkRows);
}

// The warps of the grid take the bands (band_counts) in turn, in the order band_place gives. For
// each: walk(lane, y0, y_end), the band's rows [y0, y_end). The loop is the same for every lane of
// a warp.
template <int kCols, bool kEdgesFirst, typename Walk>
__device__ void for_each_band(const CannyArgs& a, Walk walk) {
    constexpr int kBandColumns = 32 * kCols;
    const int2 bands = band_counts<kCols>(a.width, a.height);
    const int warps = blockDim.x / 32, step = gridDim.x * warps, lane = threadIdx.x % 32;
    for (int band = blockIdx.x * warps + threadIdx.x / 32; band < bands.x * bands.y; band += step) {
        const int2 place = band_place<kEdgesFirst>(band, bands.x, bands.y);
        const int y0 = place.y * kWalkRows, band_x0 = place.x * kBandColumns;
        walk(Lane<kCols>{band_x0 + kCols * lane, band_x0, lane}, y0, min(y0 + kWalkRows, a.height));
    }
}

// Rows `first` to `last` in order: use(row, load(row), slot), with kAhead rows always in flight:
// the loads of rows r + 1 to r + kAhead are issued before row r is used, so a row's load has the
// arithmetic of kAhead rows to arrive in (a walk that loaded kAhead rows and then used them all
// waited for every batch: its loads were in flight only between batches). The loop is unrolled
// kAhead times and `slot`, (row - first) % kAhead, is a constant in each copy: values a walk keeps
// for later rows in arrays indexed by slot stay in the same registers (a window shifted by copies
// costs a move a value a row). The rows whose loads are all inside [first, last] go round a loop
// with no test of either, the few left at the end round one that tests each.
template <int kAhead, typename Load, typename Use>
__device__ void walk_rows(int first, int last, Load load, Use use) {
    decltype(load(first)) v[kAhead];
#pragma unroll
    for (int k = 0; k < kAhead; ++k)
        if (first + k <= last) v[k] = load(first + k);
    int r0 = first;
    for (; r0 + 2 * kAhead - 1 <= last; r0 += kAhead) {  // every row and every load of the group there
#pragma unroll
        for (int k = 0; k < kAhead; ++k) {
            use(r0 + k, v[k], k);
            v[k] = load(r0 + k + kAhead);
        }
    }
    for (; r0 <= last; r0 += kAhead) {  // the last groups, row by row
#pragma unroll
        for (int k = 0; k < kAhead; ++k) {
            if (r0 + k > last) break;
            use(r0 + k, v[k], k);
            if (r0 + k + kAhead <= last) v[k] = load(r0 + k + kAhead);
        }
    }
}

// A row of a lane's kCols columns as loaded, with the kHalo columns either side of the warp's band
// that its outer lanes read from memory (outer_column).
template <int kCols, int kHalo>
struct LoadedRow {
    float own[kCols];
    float outer[kHalo];
};

// A row of a lane's columns and kHalo columns either side: v[kHalo + c] is column x0 + c.
template <int kCols, int kHalo>
struct WideRow {
    float v[kCols + 2 * kHalo];
};

// The row a lane sees: its own columns, its neighbours' by shuffles, the band's outer ones as loaded.
template <int kCols, int kHalo>
__device__ WideRow<kCols, kHalo> with_neighbours(const LoadedRow<kCols, kHalo>& q, int lane) {
    static_assert(kHalo <= kCols, "a halo column comes from the neighbour lane's own columns");
    WideRow<kCols, kHalo> row;
#pragma unroll
    for (int c = 0; c < kCols; ++c) row.v[kHalo + c] = q.own[c];
#pragma unroll
    for (int h = 0; h < kHalo; ++h) {  // columns x0 - 1 - h and x0 + kCols + h
        const float left = __shfl_up_sync(kAllLanes, q.own[kCols - 1 - h], 1);
        const float right = __shfl_down_sync(kAllLanes, q.own[h], 1);
        row.v[kHalo - 1 - h] = lane == 0 ? q.outer[h] : left;
        row.v[kHalo + kCols + h] = lane == 31 ? q.outer[h] : right;
    }
    return row;
}

// A machine word of kBytes bytes, for whole loads and stores of a lane's columns.
template <int kBytes> struct Word;
template <> struct Word<16> { using type = uint4; };
template <> struct Word<4> { using type = unsigned; };

// kCols consecutive elements from p, aligned to their size together, in one load.
template <int kCols, typename T>
__device__ void load_whole(const T* p, T* out) {
    using W = typename Word<sizeof(T) * kCols>::type;
    const W w = __ldg(reinterpret_cast<const W*>(p));
    memcpy(out, &w, sizeof w);
}

// kCols consecutive elements of a plane from x0, in one load where the row holds them all and the
// plane's rows are aligned to the load (kVector); otherwise element by element, each by `element`.
template <bool kVector, int kCols, typename T, typename Element>
__device__ void load_columns(const T* plane, const CannyArgs& a, int x0, int y, T (&out)[kCols], Element element) {
    if (kVector && x0 + kCols <= a.width && y >= 0 && y < a.height) {
        load_whole<kCols>(plane + size_t(y) * a.width + x0, out);
        return;
    }
#pragma unroll
    for (int c = 0; c < kCols; ++c) out[c] = element(x0 + c, y);
}

// Stores kCols consecutive elements from x0 of row y: one store where the row holds them all,
// otherwise those inside the image.
template <bool kVector, int kCols, typename T>
__device__ void store_columns(T* plane, const CannyArgs& a, int x0, int y, const T (&v)[kCols]) {
    using W = typename Word<sizeof(T) * kCols>::type;
    T* p = plane + size_t(y) * a.width + x0;
    if (kVector && x0 + kCols <= a.width) {
        W w;
        memcpy(&w, v, sizeof w);
        *reinterpret_cast<W*>(p) = w;
        return;
    }
#pragma unroll
    for (int c = 0; c < kCols; ++c)
        if (x0 + c < a.width) p[c] = v[c];
}

// A row of the smoothed image by the Sobel taps' border rule.
template <bool kVector, int kCols, int kHalo>
__device__ LoadedRow<kCols, kHalo> smoothed_row(const CannyArgs& a, const Lane<kCols>& l, int y) {
    LoadedRow<kCols, kHalo> q;
    const int sy = border_index(y, a.height, a.border);
    if (sy < 0) {  // a zero border's row
#pragma unroll
        for (int c = 0; c < kCols; ++c) q.own[c] = 0.0f;
    } else {
        load_columns<kVector>(a.d_smoothed, a, l.x0, sy, q.own, [&](int x, int) { return smoothed_tap(a, x, sy); });
    }
#pragma unroll
    for (int h = 0; h < kHalo; ++h) q.outer[h] = smoothed_tap(a, outer_column(l, h), y);
    return q;
}

// The Sobel gradient of column x0 + c of the middle row of three.
template <int kCols>
__device__ Gradient gradient_at(const WideRow<kCols, 1> (&rows)[3], int c) {
    float n[3][3];
#pragma unroll
    for (int r = 0; r < 3; ++r)
#pragma unroll
        for (int j = 0; j < 3; ++j) n[r][j] = rows[r].v[c + j];
    return sobel_gradient(n);
}

// Pushes a row into a window of three (the oldest leaves).
template <typename Row>
__device__ void push(Row (&rows)[3], const Row& row) {
    rows[0] = rows[1], rows[1] = rows[2], rows[2] = row;
}

// A row of a band inside the image (band_inside): its columns straight, no border rule.
template <int kCols, int kHalo>
__device__ LoadedRow<kCols, kHalo> interior_row(const CannyArgs& a, const Lane<kCols>& l, int y) {
    LoadedRow<kCols, kHalo> q;
    const float* row = a.d_smoothed + size_t(y) * a.width;
    load_whole<kCols>(row + l.x0, q.own);
#pragma unroll
    for (int h = 0; h < kHalo; ++h) q.outer[h] = __ldg(row + outer_column(l, h));
    return q;
}

// ---- rows staged in shared memory: the fused walk's bands inside the image --------------------
// A row's loads are issued kStagedAhead rows before walk_rows loads it, as asynchronous copies
// into shared memory, which hold no registers while in flight: loads three rows ahead in
// registers still waited for memory at the top of the walk's loop (a quarter of its stalls on the
// H100). On the H100 at 8192 x 8192: 12 ahead 0.299 to 0.303 ms in four runs, 6 ahead 0.310 and
// 0.315, 14 ahead (16 slots) 0.322 and 0.326. A slot is written again four rows after it was read
// (kStages - kStagedAhead): no copy lands on a row the walk is still reading.
// Asynchronous copies are sm_80's: on older GPUs a band inside the image loads its rows as the
// gradients walk does (interior_row).
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
#define LAB8_ASYNC_COPIES 1
#else
#define LAB8_ASYNC_COPIES 0
#endif
constexpr bool kStagedRows = LAB8_ASYNC_COPIES;
constexpr int kStagedAhead = 12;
constexpr int kStages = 16;  // slots, a power of two above kStagedAhead
static_assert((kStages & (kStages - 1)) == 0 && kStages > kStagedAhead, "slots for the rows in flight and the one read");

struct StagedRows {  // a warp's: the lanes' columns and the outer pair each lane loads
    float4 own[kStages][32];
    float2 outer[kStages][32];
};

#if LAB8_ASYNC_COPIES
__device__ unsigned shared_address(const void* p) { return unsigned(__cvta_generic_to_shared(p)); }
#endif

// Issues the copies of row y into slot `slot` as one group (an empty group where `real` is false,
// so that every row counts one). The outer pair: the two outer columns the lane loads, lower first.
__device__ void stage_row(StagedRows& st, const CannyArgs& a, const Lane<kFusedColumns>& l, int y, int slot, bool real) {
#if LAB8_ASYNC_COPIES
    if (real) {
        const float* row = a.d_smoothed + size_t(y) * a.width;
        const int lower_outer = min(outer_column(l, 0), outer_column(l, 1));
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(shared_address(&st.own[slot][l.lane])), "l"(row + l.x0)
                     : "memory");
        asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(shared_address(&st.outer[slot][l.lane])),
                     "l"(row + lower_outer)
                     : "memory");
    }
    asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}

// The row in slot `slot`, once all but the last kStagedAhead groups have arrived.
__device__ LoadedRow<kFusedColumns, 2> staged_row(const StagedRows& st, const Lane<kFusedColumns>& l, int slot) {
#if LAB8_ASYNC_COPIES
    asm volatile("cp.async.wait_group %0;" ::"n"(kStagedAhead) : "memory");
#endif
    const float4 own = st.own[slot][l.lane];
    const float2 pair = st.outer[slot][l.lane];
    const bool left = l.lane == 0;  // lane 0's outer columns are left of the band, the nearest the higher
    return LoadedRow<kFusedColumns, 2>{{own.x, own.y, own.z, own.w}, {left ? pair.y : pair.x, left ? pair.x : pair.y}};
}

// Whether a band, and the two rows and columns around it its walk reads, lie inside the image.
template <int kCols>
__device__ bool band_inside(const CannyArgs& a, const Lane<kCols>& l, int y0, int y_end) {
    return l.band_x0 >= 2 && l.band_x0 + 32 * kCols + 2 <= a.width && y0 >= 2 && y_end + 2 <= a.height;
}

// A row's differences across: column c + 1 minus column c - 1 for each of the lane's columns (the
// first of sobel_from_differences' arguments), computed once a row for the three gradients that use them.
template <int kCols, int kSize>
__device__ void across_differences(const WideRow<kCols, 1>& row, float (&across)[kSize]) {
    static_assert(kSize >= kCols, "room for the lane's columns");
#pragma unroll
    for (int c = 0; c < kCols; ++c) across[c] = row.v[c + 2] - row.v[c];
}

// The differences down, row y + 1 minus row y - 1, of the lane's columns and the one either side.
template <int kCols>
__device__ void down_differences(const WideRow<kCols, 1>& below, const WideRow<kCols, 1>& above, float (&down)[kCols + 2]) {
#pragma unroll
    for (int j = 0; j < kCols + 2; ++j) down[j] = below.v[j] - above.v[j];
}

// The suppression of column x0 + c of a row of magnitudes from it and the rows above and below,
// each with one column either side: the neighbours its direction names (EdgeDirection's comments),
// by selects on the direction's two bits: bit 1 for Vertical and AntiDiagonal, bit 0 for Diagonal
// and AntiDiagonal. Not by an index: one into registers that is not known when compiling puts them
// in local memory. Not by direction_step's switch either: nvcc made it branches, which part a
// warp wherever its pixels' directions differ.
template <int kCols>
__device__ float suppress_at(const WideRow<kCols, 1>& above, const WideRow<kCols, 1>& middle, const WideRow<kCols, 1>& below,
                             int c, EdgeDirection d) {
    static_assert(int(EdgeDirection::Horizontal) == 0 && int(EdgeDirection::Diagonal) == 1 &&
                      int(EdgeDirection::Vertical) == 2 && int(EdgeDirection::AntiDiagonal) == 3,
                  "the directions' bits");
    const bool bit1 = int(d) & 2, bit0 = int(d) & 1;
    const float before = bit1 ? (bit0 ? above.v[c + 2] : above.v[c + 1]) : (bit0 ? above.v[c] : middle.v[c]);
    const float after = bit1 ? (bit0 ? below.v[c] : below.v[c + 1]) : (bit0 ? below.v[c + 2] : middle.v[c + 2]);
    return suppress(middle.v[c + 1], before, after);
}

template <int kN>
struct Floats {
    float v[kN];
};

// m, with sqrtf's root of each squared outside sqrt_fast_range. Out of line: a lane rarely has
// one, and inline, each row's copy of sqrtf's slow path was code the walk's fetch jumped over.
template <int kN>
__device__ __noinline__ Floats<kN> roots_outside_fast_range(Floats<kN> squared, Floats<kN> m) {
#pragma unroll
    for (int i = 0; i < kN; ++i)
        if (!sqrt_fast_range(squared.v[i])) m.v[i] = sqrtf(squared.v[i]);
    return m;
}

// The magnitudes of kN gradients, gradient_magnitude's floats: their roots by exact_sqrt.cuh's fast
// path, with sqrtf only where a lane has one outside its range, 0 apart (its root is 0; sqrtf leaves
// its fast path there, and a flat region's gradients are all 0).
template <int kN>
__device__ void magnitudes_of(const Gradient (&g)[kN], float (&m)[kN]) {
    Floats<kN> squared, roots;
    bool outside = false;
#pragma unroll
    for (int i = 0; i < kN; ++i) {
        squared.v[i] = squared_magnitude(g[i]);
        outside |= !sqrt_fast_range(squared.v[i]) && squared.v[i] != 0.0f;
        roots.v[i] = squared.v[i] == 0.0f ? 0.0f : sqrt_fast_path(squared.v[i]);
    }
    if (outside) roots = roots_outside_fast_range(squared, roots);
#pragma unroll
    for (int i = 0; i < kN; ++i) m[i] = roots.v[i];
}

// The slots of the rows before a walk's row r in its rings of three: r - 1 and r - 2.
__device__ constexpr int previous_slot(int k) { return (k + 2) % 3; }
__device__ constexpr int second_previous_slot(int k) { return (k + 1) % 3; }

// ---- the kernels -------------------------------------------------------------------------------

template <bool kVector>
__global__ void __launch_bounds__(kThreads, 3) gradients_kernel(CannyArgs a) {
    constexpr int kCols = kGradientColumns;
    float largest = 0.0f;
    for_each_band<kCols, false>(a, [&](const Lane<kCols>& l, int y0, int y_end) {
        // Smoothed rows r - 2 to r, shifted by copies: a ring by slot (the fused walk's) took
        // 0.322 ms here against 0.289 on the same grid, its registers over 80.
        WideRow<kCols, 1> s[3];
        walk_rows<kGradientAhead>(y0 - 1, y_end, [&](int r) { return smoothed_row<kVector, kCols, 1>(a, l, r); },
                  [&](int r, const LoadedRow<kCols, 1>& q, int) {
                      push(s, with_neighbours(q, l.lane));
                      if (r < y0 + 1) return;  // rows y0 - 1 and y0 held: row y0 needs y0 + 1
                      Gradient g[kCols];
                      float m[kCols];
                      uint8_t d[kCols];
#pragma unroll
                      for (int c = 0; c < kCols; ++c) g[c] = gradient_at(s, c), d[c] = uint8_t(quantise_direction(g[c]));
                      magnitudes_of(g, m);
#pragma unroll
                      for (int c = 0; c < kCols; ++c)
                          if (l.x0 + c < a.width) largest = fmaxf(largest, m[c]);
                      store_columns<kVector>(a.d_magnitude, a, l.x0, r - 1, m);
                      store_columns<kVector>(a.d_direction, a, l.x0, r - 1, d);
                  });
    });
    block_max_to_global(a, largest);
}

// Stage 3 apart: a thread suppresses four pixels of a row from the magnitudes of its columns and
// the one either side in the rows above, at and below, every load issued before any is used (a
// thread a pixel that read its neighbours once its direction had come waited for two loads in a
// row: 0.332 ms on the H100 at 8192 x 8192). L1 and L2 serve the rows each row is read for.
__device__ bool inside_image(const CannyArgs& a, int x, int y) { return x >= 0 && y >= 0 && x < a.width && y < a.height; }

// A magnitude as suppression reads it: 0 outside the image (no border rule).
__device__ float magnitude_or_zero(const CannyArgs& a, int x, int y) {
    return inside_image(a, x, y) ? a.d_magnitude[size_t(y) * a.width + x] : 0.0f;
}

// Columns x0 - 1 to x0 + kCols of row y of the magnitudes, 0 outside the image; whole loads where
// the row holds them all.
template <bool kVector, int kCols>
__device__ WideRow<kCols, 1> magnitude_row(const CannyArgs& a, int x0, int y, bool inside) {
    WideRow<kCols, 1> row;
    if (kVector && inside) {
        const float* p = a.d_magnitude + size_t(y) * a.width + x0;
        row.v[0] = __ldg(p - 1), row.v[kCols + 1] = __ldg(p + kCols);
        load_whole<kCols>(p, &row.v[1]);
        return row;
    }
#pragma unroll
    for (int j = 0; j < kCols + 2; ++j) row.v[j] = magnitude_or_zero(a, x0 + j - 1, y);
    return row;
}

template <bool kVector>
__global__ void __launch_bounds__(kThreads) suppression_kernel(CannyArgs a) {
    constexpr int kCols = kSuppressionColumns;
    const int x0 = (blockIdx.x * blockDim.x + threadIdx.x) * kCols;
    if (x0 >= a.width) return;
    for (int y = blockIdx.y; y < a.height; y += gridDim.y) {
        // Whole loads where the three rows and the column either side are in the image.
        const bool inside = x0 >= 1 && x0 + kCols < a.width && y >= 1 && y + 1 < a.height;
        const WideRow<kCols, 1> above = magnitude_row<kVector, kCols>(a, x0, y - 1, inside);
        const WideRow<kCols, 1> middle = magnitude_row<kVector, kCols>(a, x0, y, inside);
        const WideRow<kCols, 1> below = magnitude_row<kVector, kCols>(a, x0, y + 1, inside);
        uint8_t d[kCols];
        load_columns<kVector>(a.d_direction, a, x0, y, d, [&](int x, int) { return x < a.width ? a.d_direction[size_t(y) * a.width + x] : uint8_t(0); });
        float out[kCols];
#pragma unroll
        for (int c = 0; c < kCols; ++c) out[c] = suppress_at(above, middle, below, c, EdgeDirection(d[c]));
        store_columns<kVector>(a.d_suppressed, a, x0, y, out);
    }
}

// Fused: a lane's smoothed row with one column either side (near), and `far`, the band's second
// outer column (outer_column(l, 1)): the gradients of the band's outer columns need it.
struct FusedRow {
    WideRow<kFusedColumns, 1> near;
    float far;
};

// The differences of the band's outer gradient, one a lane: lane 0's is the column left of the
// band (taps far, near.v[0], near.v[1]), every other lane's the column right of it (taps
// near.v[kCols], near.v[kCols + 1], far), which lane 31 uses and the others compute alike rather
// than branch. Across from a row; down from the lane's differences down (down_differences) and
// the far columns' own.
__device__ float outer_across(const FusedRow& f, int lane) {
    constexpr int n = kFusedColumns;
    return lane == 0 ? f.near.v[1] - f.far : f.far - f.near.v[n];
}

__device__ void outer_down(const float (&down)[kFusedColumns + 2], float down_far, int lane, float (&out)[3]) {
    constexpr int n = kFusedColumns;
    out[0] = lane == 0 ? down_far : down[n];
    out[1] = lane == 0 ? down[0] : down[n + 1];
    out[2] = lane == 0 ? down[1] : down_far;
}

// The walk of one band. It reads smoothed rows two either side of the band's. For row r it takes
// the differences across; then the gradients of row r - 1 (the lane's columns and the band's outer
// one, 0 outside the image, as suppression reads them), the column either side of the lane's by
// shuffles; then row r - 2's suppression. Every value kept for later rows is in a ring of three
// (walk_rows). kInside: a band_inside band, read straight and with no magnitude to zero.
template <bool kVector, bool kInside>
__device__ void fused_band(const CannyArgs& a, const Lane<kFusedColumns>& l, int y0, int y_end, float& largest) {
    constexpr int kCols = kFusedColumns;
    static_assert(kFusedAhead == 3, "the rows in flight are the ring of the three rows a gradient reads");
    FusedRow s[3];                // smoothed rows
    float across[3][kCols + 1];   // their differences across: the lane's columns, then the outer one
    WideRow<kCols, 1> m[3];       // magnitude rows
    EdgeDirection dir[3][kCols];  // direction rows
    const int outer_x = outer_column(l, 0);
    const bool columns_inside = l.band_x0 >= 1 && l.band_x0 + 32 * kCols < a.width;  // with the outer ones
    __shared__ StagedRows staged;  // a block is one warp
    const int first = y0 - 2, last = y_end + 1;
    if constexpr (kInside && kStagedRows) {
#pragma unroll
        for (int i = 0; i < kStagedAhead; ++i) stage_row(staged, a, l, first + i, i, first + i <= last);
    }
    const auto load = [&](int r) {
        if constexpr (kInside && kStagedRows) {
            const int ahead = r + kStagedAhead;
            stage_row(staged, a, l, ahead, (ahead - first) & (kStages - 1), ahead <= last);
            return staged_row(staged, l, (r - first) & (kStages - 1));
        } else if constexpr (kInside) {
            return interior_row<kCols, 2>(a, l, r);
        } else {
            return smoothed_row<kVector, kCols, 2>(a, l, r);
        }
    };
    walk_rows<kFusedAhead>(first, last, load, [&](int r, const LoadedRow<kCols, 2>& q, int k) {
        LoadedRow<kCols, 1> near;
#pragma unroll
        for (int c = 0; c < kCols; ++c) near.own[c] = q.own[c];
        near.outer[0] = q.outer[0];
        s[k] = FusedRow{with_neighbours(near, l.lane), q.outer[1]};
        across_differences(s[k].near, across[k]);
        across[k][kCols] = outer_across(s[k], l.lane);
        if (r < y0) return;  // rows r - 2 to r held: row r - 1's gradients
        const int above = second_previous_slot(k), middle = previous_slot(k), y = r - 1;
        float down[kCols + 2], outer[3];
        down_differences(s[k].near, s[above].near, down);
        outer_down(down, s[k].far - s[above].far, l.lane, outer);
        Gradient g[kCols + 1];  // the lane's columns, then the outer one
#pragma unroll
        for (int c = 0; c < kCols; ++c) {
            g[c] = sobel_from_differences(across[above][c], across[middle][c], across[k][c], down[c], down[c + 1], down[c + 2]);
            dir[middle][c] = quantise_direction(g[c]);
        }
        g[kCols] = sobel_from_differences(across[above][kCols], across[middle][kCols], across[k][kCols], outer[0], outer[1], outer[2]);
        float magnitudes[kCols + 1];
        magnitudes_of(g, magnitudes);
        LoadedRow<kCols, 1> magnitude;
#pragma unroll
        for (int c = 0; c < kCols; ++c) magnitude.own[c] = magnitudes[c];
        magnitude.outer[0] = magnitudes[kCols];
        if (!kInside && (!columns_inside || y < 0 || y >= a.height)) {  // the same branch for the whole warp
#pragma unroll
            for (int c = 0; c < kCols; ++c)
                if (!inside_image(a, l.x0 + c, y)) magnitude.own[c] = 0.0f;
            if (!inside_image(a, outer_x, y)) magnitude.outer[0] = 0.0f;
        }
        m[middle] = with_neighbours(magnitude, l.lane);
#pragma unroll
        for (int c = 0; c < kCols; ++c) largest = fmaxf(largest, magnitude.own[c]);  // 0 outside
        if (r < y0 + 2) return;  // row y0's below neighbour is row y0 + 1
        float out[kCols];
#pragma unroll
        for (int c = 0; c < kCols; ++c) out[c] = suppress_at(m[k], m[above], m[middle], c, dir[above][c]);
        store_columns<kVector>(a.d_suppressed, a, l.x0, r - 2, out);
    });
}

// Blocks of one warp (launch_canny_gradients_suppression), 16 an SM at 128 registers.
template <bool kVector>
__global__ void __launch_bounds__(32, 16) gradients_suppression_kernel(CannyArgs a) {
    float largest = 0.0f;
    for_each_band<kFusedColumns, true>(a, [&](const Lane<kFusedColumns>& l, int y0, int y_end) {
        if (kVector && band_inside(a, l, y0, y_end))
            fused_band<kVector, true>(a, l, y0, y_end, largest);
        else
            fused_band<kVector, false>(a, l, y0, y_end, largest);
    });
    warp_max_to_global(a, largest);
}

// Whether every row of every plane starts 16-byte aligned (float) or 4-byte aligned (bytes), so
// that a lane's four columns load and store whole.
bool rows_aligned(const CannyArgs& a) {
    const auto aligned = [](const void* p, size_t to) { return reinterpret_cast<uintptr_t>(p) % to == 0; };
    return a.width % 4 == 0 && aligned(a.d_smoothed, 16) && aligned(a.d_magnitude, 16) && aligned(a.d_suppressed, 16) &&
           aligned(a.d_direction, 4);
}

}  // namespace

void launch_canny_gradients(const CannyArgs& a) {
    if (rows_aligned(a))
        gradients_kernel<true><<<stride_grid_blocks(), kThreads>>>(a);
    else
        gradients_kernel<false><<<stride_grid_blocks(), kThreads>>>(a);
    CUDA_CHECK_LAUNCH();
}

// A block kSuppressionColumns * kThreads columns of a row, the grid's rows striding down.
void launch_canny_suppression(const CannyArgs& a) {
    constexpr int kBlockColumns = kSuppressionColumns * kThreads;
    const int across = (a.width + kBlockColumns - 1) / kBlockColumns;
    const dim3 grid(across, std::max(1, std::min(a.height, stride_grid_blocks() / across)));
    if (rows_aligned(a))
        suppression_kernel<true><<<grid, kThreads>>>(a);
    else
        suppression_kernel<false><<<grid, kThreads>>>(a);
    CUDA_CHECK_LAUNCH();
}

// The fused walk: a block of one warp a band, so that a warp that finishes its band makes room at
// once for the next. In blocks of eight warps striding over the bands, the warps that finished
// first waited for the last at the block's barrier: a fifth of the walk's stalls on the H100.
void launch_canny_gradients_suppression(const CannyArgs& a) {
    const int2 counts = band_counts<kFusedColumns>(a.width, a.height);
    const int bands = counts.x * counts.y;
    if (rows_aligned(a))
        gradients_suppression_kernel<true><<<bands, 32>>>(a);
    else
        gradients_suppression_kernel<false><<<bands, 32>>>(a);
    CUDA_CHECK_LAUNCH();
}

}  // namespace lab8_expert

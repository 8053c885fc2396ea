// Lab 8 — the Canny edge detector, stages 2 to 4: gradients, non-maximum suppression, thresholds.
// (Reference solution.)
//
// The gradients, and the gradients and suppression fused, walk down the image. A warp takes a
// band of 128 columns, four a lane, and walks down kWalkRows rows of it, keeping the last three
// rows of its columns in registers: a lane reads its four columns of a row in one 16-byte load,
// the columns either side of them from its neighbour lanes by shuffles (the warp's two outer
// lanes read theirs from memory), so each pixel is read once, not nine times. The gradients read
// 4 B and write 5 B a pixel. Fused, 4 B read and 4 written: the magnitudes never leave registers;
// a lane keeps its columns' magnitudes and the one either side of them (the neighbours suppression
// compares), which it computes itself from two smoothed columns either side. A band's first rows
// repeat the last of the band above (two of 64 rows for the gradients, four fused).
//
// Suppression apart stays a row at a time (5 B read, 4 B written): its taps are one pixel away,
// which L1 and L2 serve, and its walk was slower. On the H100 at 8192 x 8192 (2026-11-26) the
// row kernels took 0.405 ms (gradients) and 0.332 (suppression), suppression's walk 0.375; fused,
// a 32 x 32 shared-memory tile (the skeleton's design) 0.669 ms and a walk of one column a lane
// 0.503. handouts/lab8.md has these walks' times.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>

#include "common/canny_rules.hpp"
#include "common/cuda_check.cuh"
#include "common/stride_grid.cuh"
#include "labs/lab8/lab8.hpp"

using namespace convlab;

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr unsigned kAllLanes = 0xffffffffu;
constexpr int kGradientColumns = 4;  // columns a lane, in each walk
constexpr int kFusedColumns = 4;
constexpr int kWalkRows = 64;  // a band's rows: the two to four it repeats are a few percent of them
// Rows in flight, in each walk: as many as keep the registers at or under 80 (the gradients, three
// blocks an SM) or 128 (the fused walk, two). On the H100 at 8192 x 8192 the fused walk took
// 0.491 ms with two rows in flight (114 registers) and 0.822 with four (146, one block an SM).
constexpr int kGradientAhead = 3;
constexpr int kFusedAhead = 2;

__device__ float smoothed_tap(const CannyArgs& a, int x, int y) {
    const int sx = border_index(x, a.width, a.border), sy = border_index(y, a.height, a.border);
    return sx < 0 || sy < 0 ? 0.0f : a.d_smoothed[size_t(sy) * a.width + sx];
}

// A magnitude as suppression reads it: 0 outside the image (no border rule).
__device__ float magnitude_or_zero(const CannyArgs& a, int x, int y) {
    return x < 0 || y < 0 || x >= a.width || y >= a.height ? 0.0f : a.d_magnitude[size_t(y) * a.width + x];
}

// The block's largest magnitude into *a.d_max_magnitude: a warp shuffle, then one atomicMax a
// block on the float's bits (non-negative floats order as their bits do).
__device__ void block_max_to_global(const CannyArgs& a, float m) {
    __shared__ float s_warp_max[kWarps];
    for (int offset = 16; offset > 0; offset /= 2) m = fmaxf(m, __shfl_xor_sync(kAllLanes, m, offset));
    if (threadIdx.x % 32 == 0) s_warp_max[threadIdx.x / 32] = m;
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int w = 1; w < kWarps; ++w) m = fmaxf(m, s_warp_max[w]);
        if (m > 0.0f) atomicMax(a.d_max_magnitude, __float_as_uint(m));
    }
}

// ---- the walk ----------------------------------------------------------------------------------

// A lane's place in its warp's band: its first column x0, kCols columns from it, and the band's
// first column (lane 0's x0).
template <int kCols>
struct Lane {
    int x0, band_x0, lane;
};

// The warps of the grid take the bands (32 * kCols columns by kWalkRows rows) in turn. For each:
// walk(lane, y0, y_end), the band's rows [y0, y_end). The loop is the same for every lane of a warp.
template <int kCols, typename Walk>
__device__ void for_each_band(const CannyArgs& a, Walk walk) {
    constexpr int kBandColumns = 32 * kCols;
    const int bands_x = (a.width + kBandColumns - 1) / kBandColumns, bands_y = (a.height + kWalkRows - 1) / kWalkRows;
    const int step = gridDim.x * kWarps, lane = threadIdx.x % 32;
    for (int band = blockIdx.x * kWarps + threadIdx.x / 32; band < bands_x * bands_y; band += step) {
        const int y0 = band / bands_x * kWalkRows, band_x0 = band % bands_x * kBandColumns;
        walk(Lane<kCols>{band_x0 + kCols * lane, band_x0, lane}, y0, min(y0 + kWalkRows, a.height));
    }
}

// Rows `first` to `last` in order: use(row, load(row)), with kAhead rows always in flight: the
// loads of rows r + 1 to r + kAhead are issued before row r is used, so a row's load has the
// arithmetic of kAhead rows to arrive in (a walk that loaded kAhead rows and then used them all
// waited for every batch: its loads were in flight only between batches).
template <int kAhead, typename Load, typename Use>
__device__ void walk_rows(int first, int last, Load load, Use use) {
    decltype(load(first)) v[kAhead];
#pragma unroll
    for (int k = 0; k < kAhead; ++k)
        if (first + k <= last) v[k] = load(first + k);
    for (int r0 = first; r0 <= last; r0 += kAhead) {
#pragma unroll
        for (int k = 0; k < kAhead; ++k) {
            if (r0 + k > last) break;
            use(r0 + k, v[k]);
            if (r0 + k + kAhead <= last) v[k] = load(r0 + k + kAhead);
        }
    }
}

// The column a lane loads for the band's outer column h (h = 0 nearest): lane 0 the left one,
// every other lane the right one (lane 31 uses it), so that the warp's load touches two addresses
// and no lane branches on its own.
template <int kCols>
__device__ int outer_column(const Lane<kCols>& l, int h) {
    return l.lane == 0 ? l.band_x0 - 1 - h : l.band_x0 + 32 * kCols + h;
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
template <> struct Word<8> { using type = uint2; };
template <> struct Word<4> { using type = unsigned; };
template <> struct Word<2> { using type = unsigned short; };

// kCols consecutive elements of a plane from x0, in one load where the row holds them all and the
// plane's rows are aligned to the load (kVector); otherwise element by element, each by `element`.
template <bool kVector, int kCols, typename T, typename Element>
__device__ void load_columns(const T* plane, const CannyArgs& a, int x0, int y, T (&out)[kCols], Element element) {
    using W = typename Word<sizeof(T) * kCols>::type;
    if (kVector && x0 + kCols <= a.width && y >= 0 && y < a.height) {
        const W w = __ldg(reinterpret_cast<const W*>(plane + size_t(y) * a.width + x0));
        memcpy(out, &w, sizeof w);
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

// The Sobel gradient of column x0 + c of the middle row of three (c from -1 to kCols in a halo of 2).
template <int kCols, int kHalo>
__device__ Gradient gradient_at(const WideRow<kCols, kHalo> (&rows)[3], int c) {
    float n[3][3];
#pragma unroll
    for (int r = 0; r < 3; ++r)
#pragma unroll
        for (int j = 0; j < 3; ++j) n[r][j] = rows[r].v[kHalo + c - 1 + j];
    return sobel_gradient(n);
}

// Pushes a row into a window of three (the oldest leaves).
template <typename Row>
__device__ void push(Row (&rows)[3], const Row& row) {
    rows[0] = rows[1], rows[1] = rows[2], rows[2] = row;
}

// The suppression of column x0 + c of the middle row of three rows of magnitudes, each with one
// column either side: the neighbours its direction names, by selects, not by an index (an index
// into registers that is not known when compiling puts them in local memory).
template <int kCols>
__device__ float suppress_at(const WideRow<kCols, 1> (&m)[3], int c, EdgeDirection d) {
    int dx = 0, dy = 0;
    direction_step(d, &dx, &dy);
    const float before = dy == 0 ? m[1].v[c] : dx > 0 ? m[0].v[c] : dx == 0 ? m[0].v[c + 1] : m[0].v[c + 2];
    const float after = dy == 0 ? m[1].v[c + 2] : dx > 0 ? m[2].v[c + 2] : dx == 0 ? m[2].v[c + 1] : m[2].v[c];
    return suppress(m[1].v[c + 1], before, after);
}

// ---- the kernels -------------------------------------------------------------------------------

template <bool kVector>
__global__ void __launch_bounds__(kThreads) gradients_kernel(CannyArgs a) {
    constexpr int kCols = kGradientColumns;
    float largest = 0.0f;
    for_each_band<kCols>(a, [&](const Lane<kCols>& l, int y0, int y_end) {
        WideRow<kCols, 1> s[3];  // smoothed rows r - 2 to r
        walk_rows<kGradientAhead>(y0 - 1, y_end, [&](int r) { return smoothed_row<kVector, kCols, 1>(a, l, r); },
                  [&](int r, const LoadedRow<kCols, 1>& q) {
                      push(s, with_neighbours(q, l.lane));
                      if (r < y0 + 1) return;  // rows y0 - 1 and y0 held: row y0 needs y0 + 1
                      float m[kCols];
                      uint8_t d[kCols];
#pragma unroll
                      for (int c = 0; c < kCols; ++c) {
                          const Gradient g = gradient_at(s, c);
                          m[c] = gradient_magnitude(g), d[c] = uint8_t(quantise_direction(g));
                          if (l.x0 + c < a.width) largest = fmaxf(largest, m[c]);
                      }
                      store_columns<kVector>(a.d_magnitude, a, l.x0, r - 1, m);
                      store_columns<kVector>(a.d_direction, a, l.x0, r - 1, d);
                  });
    });
    block_max_to_global(a, largest);
}

// Stage 3 apart goes a row at a time, a block a row (grid-stride over the rows), its threads across
// it: the neighbours a direction names are one pixel away, in the rows above and below, which L1
// and L2 hold (a walk like the gradients' was slower here: 0.375 against 0.332 ms on the H100).
__device__ bool inside_frame(const CannyArgs& a, int x, int y) { return x >= 1 && y >= 1 && x + 1 < a.width && y + 1 < a.height; }

__global__ void __launch_bounds__(kThreads) suppression_kernel(CannyArgs a) {
    for (int y = blockIdx.x; y < a.height; y += gridDim.x) {
        const size_t row = size_t(y) * a.width;
        for (int x = threadIdx.x; x < a.width; x += blockDim.x) {
            int dx = 0, dy = 0;
            direction_step(EdgeDirection(a.d_direction[row + x]), &dx, &dy);
            float before, after;
            if (inside_frame(a, x, y)) {
                const ptrdiff_t step = ptrdiff_t(dy) * a.width + dx;
                before = a.d_magnitude[row + x - step], after = a.d_magnitude[row + x + step];
            } else {
                before = magnitude_or_zero(a, x - dx, y - dy), after = magnitude_or_zero(a, x + dx, y + dy);
            }
            a.d_suppressed[row + x] = suppress(a.d_magnitude[row + x], before, after);
        }
    }
}

// Fused: the walk reads smoothed rows two either side of the band's and keeps three rows of
// magnitudes one column either side of the lane's (0 outside the image, as suppression reads them).
template <bool kVector>
__global__ void __launch_bounds__(kThreads) gradients_suppression_kernel(CannyArgs a) {
    constexpr int kCols = kFusedColumns;
    float largest = 0.0f;
    for_each_band<kCols>(a, [&](const Lane<kCols>& l, int y0, int y_end) {
        WideRow<kCols, 2> s[3];  // smoothed rows r - 2 to r
        WideRow<kCols, 1> m[3];  // magnitude rows r - 3 to r - 1
        EdgeDirection older[kCols] = {}, newer[kCols] = {};  // directions of rows r - 2 and r - 1
        walk_rows<kFusedAhead>(y0 - 2, y_end + 1, [&](int r) { return smoothed_row<kVector, kCols, 2>(a, l, r); },
                  [&](int r, const LoadedRow<kCols, 2>& q) {
                      push(s, with_neighbours(q, l.lane));
                      if (r < y0) return;  // rows r - 2 to r held: row r - 1's magnitudes
                      const int y = r - 1;
                      WideRow<kCols, 1> row;
#pragma unroll
                      for (int c = -1; c <= kCols; ++c) {
                          const Gradient g = gradient_at(s, c);
                          const bool inside = y >= 0 && y < a.height && l.x0 + c >= 0 && l.x0 + c < a.width;
                          row.v[c + 1] = inside ? gradient_magnitude(g) : 0.0f;
                          if (c >= 0 && c < kCols) older[c] = newer[c], newer[c] = quantise_direction(g);
                      }
                      push(m, row);
                      if (r < y0 + 2) return;  // row y0's below neighbour is row y0 + 1
                      float out[kCols];
#pragma unroll
                      for (int c = 0; c < kCols; ++c) {
                          out[c] = suppress_at(m, c, older[c]);
                          largest = fmaxf(largest, m[1].v[c + 1]);  // 0 outside the image
                      }
                      store_columns<kVector>(a.d_suppressed, a, l.x0, r - 2, out);
                  });
    });
    block_max_to_global(a, largest);
}

__global__ void __launch_bounds__(kThreads) thresholds_kernel(CannyArgs a) {
    float low = a.low, high = a.high;
    if (a.relative) {
        const float largest = __uint_as_float(*a.d_max_magnitude);
        low = a.low * largest, high = a.high * largest;  // the reference's float products
    }
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < a.pixels(); i += size_t(gridDim.x) * blockDim.x)
        a.d_labels[i] = uint8_t(threshold_label(a.d_suppressed[i], low, high));
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

void launch_canny_suppression(const CannyArgs& a) {
    suppression_kernel<<<stride_grid_blocks(), kThreads>>>(a);
    CUDA_CHECK_LAUNCH();
}

void launch_canny_gradients_suppression(const CannyArgs& a) {
    if (rows_aligned(a))
        gradients_suppression_kernel<true><<<stride_grid_blocks(), kThreads>>>(a);
    else
        gradients_suppression_kernel<false><<<stride_grid_blocks(), kThreads>>>(a);
    CUDA_CHECK_LAUNCH();
}

void launch_canny_thresholds(const CannyArgs& a) {
    thresholds_kernel<<<stride_grid_blocks(), kThreads>>>(a);
    CUDA_CHECK_LAUNCH();
}

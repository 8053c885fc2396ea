// Lab 7 — the box filter from a summed-area table. Reference solution.
//
// The table T(y, e) = sum of in(y', e') over y' <= y and the pixels x' <= x of value e's channel,
// one uint32_t a value in args.d_scratch, built by scans, then read four times an output:
//   1. rows      a block scans each row (per channel), segment by segment, carrying the total
//   2. columns   the rows fall into bands of kBand; a thread scans one column of one band in
//                place (bands in parallel: a whole column would be one thread's 8192 serial steps)
//   3. carries   one thread a column walks the bands' last rows, adding each to the next: those
//                rows become whole; any other row of band b > 0 still lacks the last row of
//                band b - 1, which every read adds (table_at)
//   4. boxes     each output from the table: four entries inside the image, more at the border
//
// Unsigned 32-bit sums wrap at 2^32 on a bright image of 17 megapixels or more, and that is
// harmless: every step adds and subtracts in arithmetic modulo 2^32, and a window's true sum
// (at most 255 * 31^2) is below 2^32, so the modular result is the true one. A float table would
// keep 24 bits and lose the low digits of large entries (the grader's bright image catches it).
//
// Borders. Along one axis of n values, let F(t) be the sum of the first t values of the line
// extended by the border rule (F(t) = -sum of values t..-1 for t < 0). A window [a, b] sums to
// F(b + 1) - F(a), and each rule writes F as a few in-image prefix sums P(p), p in [0, n]:
//   zero    P(clamp(t, 0, n))
//   clamp   t * P(1) below 0; P(n) + (t - n) * (P(n) - P(n - 1)) above n
//   wrap    q * P(n) + P(m), t = q * n + m
//   mirror  period 2n - 2 summing to P(n) + P(n - 1) - P(1), and inside the period P(m) up to n,
//           P(n) + P(n - 1) - P(2n - 1 - m) after it
// In two dimensions the window's sum is the product of the two axes' terms, each pair one entry
// of the table. Inside the image that is the usual four.
//
// Build and run:   make lab7 SOLUTION=1 && ./lab7 --variant summed-area
#include <cstdint>

#include "common/device/cuda_check.cuh"
#include "labs/lab7/lab7.hpp"

using namespace convlab;

namespace {

constexpr int kBand = 256;         // rows a thread scans in step 2
constexpr int kScanThreads = 256;  // step 1: a block a row
constexpr int kScanPixels = 4;     // pixels a thread sums per segment in step 1

// ---- 1. rows ------------------------------------------------------------------------------------

template <int C>
struct Sums {
    uint32_t c[C];
};

template <int C>
__device__ Sums<C> warp_inclusive_scan(Sums<C> s) {
    const int lane = threadIdx.x & 31;
    for (int offset = 1; offset < 32; offset *= 2)
        for (int ch = 0; ch < C; ++ch) {
            const uint32_t up = __shfl_up_sync(0xffffffffu, s.c[ch], offset);
            if (lane >= offset) s.c[ch] += up;
        }
    return s;
}

// A row of W pixels, in segments of kScanThreads * kScanPixels: each thread sums its run of
// pixels, the block scans those sums, and each thread writes its run's prefixes.
template <int C>
__global__ void __launch_bounds__(kScanThreads) scan_rows_kernel(ConvArgs a, uint32_t* table) {
    constexpr int kSegment = kScanThreads * kScanPixels, kWarps = kScanThreads / 32;
    __shared__ uint8_t s_in[kSegment * C];
    __shared__ uint32_t s_out[kSegment * C];
    __shared__ Sums<C> s_warp[kWarps];
    const int y = blockIdx.x, tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const size_t row_values = size_t(a.width) * C;
    const uint8_t* in = a.d_in + size_t(y) * row_values;
    uint32_t* out = table + size_t(y) * row_values;
    Sums<C> carry{};  // the row's sum so far, per channel
    for (int x0 = 0; x0 < a.width; x0 += kSegment) {
        const int values = min(kSegment, a.width - x0) * C;
        for (int i = tid; i < values; i += kScanThreads) s_in[i] = in[size_t(x0) * C + i];
        __syncthreads();
        Sums<C> own{};
        for (int p = 0; p < kScanPixels; ++p)
            for (int ch = 0; ch < C; ++ch) {
                const int i = (tid * kScanPixels + p) * C + ch;
                own.c[ch] += i < values ? s_in[i] : 0u;
            }
        const Sums<C> inclusive = warp_inclusive_scan(own);
        if (lane == 31) s_warp[warp] = inclusive;
        __syncthreads();
        Sums<C> before = carry;  // everything left of this thread's run
        for (int w = 0; w < warp; ++w)
            for (int ch = 0; ch < C; ++ch) before.c[ch] += s_warp[w].c[ch];
        for (int ch = 0; ch < C; ++ch) before.c[ch] += inclusive.c[ch] - own.c[ch];
        for (int p = 0; p < kScanPixels; ++p)
            for (int ch = 0; ch < C; ++ch) {
                const int i = (tid * kScanPixels + p) * C + ch;
                if (i < values) before.c[ch] += s_in[i];
                s_out[i] = before.c[ch];
            }
        for (int w = 0; w < kWarps; ++w)
            for (int ch = 0; ch < C; ++ch) carry.c[ch] += s_warp[w].c[ch];
        __syncthreads();
        for (int i = tid; i < values; i += kScanThreads) out[size_t(x0) * C + i] = s_out[i];
        __syncthreads();  // s_in, s_out and s_warp are rewritten by the next segment
    }
}

// ---- 2. and 3. columns ------------------------------------------------------------------------

// Thread (value e, band): the band's rows of column e summed in place. Loads run ahead of the sum.
__global__ void scan_band_columns_kernel(uint32_t* table, int height, size_t row_values) {
    const size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
    if (e >= row_values) return;
    const int y0 = blockIdx.y * kBand, y1 = min(y0 + kBand, height);
    uint32_t* column = table + size_t(y0) * row_values + e;
    uint32_t sum = 0;
#pragma unroll 8
    for (int y = y0; y < y1; ++y, column += row_values) {
        sum += *column;
        *column = sum;
    }
}

// Thread e: the last row of each band but the final one made whole, band after band.
__global__ void carry_bands_kernel(uint32_t* table, int height, size_t row_values) {
    const size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
    if (e >= row_values) return;
    uint32_t carried = table[size_t(kBand - 1) * row_values + e];  // band 0 is whole already
    for (int end = 2 * kBand - 1; end + 1 < height; end += kBand) {
        uint32_t* last = table + size_t(end) * row_values + e;
        carried += *last;
        *last = carried;
    }
}

// ---- 4. boxes ---------------------------------------------------------------------------------

// T(y, e) made whole: a row inside band b > 0 lacks the carried last row of band b - 1.
__device__ uint32_t table_at(const uint32_t* table, int y, size_t e, int height, size_t row_values) {
    uint32_t value = table[size_t(y) * row_values + e];
    const int band = y / kBand;
    const bool carried = (y + 1) % kBand == 0 && y + 1 < height;
    if (band > 0 && !carried) value += table[(size_t(band) * kBand - 1) * row_values + e];
    return value;
}

// (p, coefficient) pairs: F(b + 1) - F(a) = sum of coefficient * P(p) along an axis of n (up to
// six for each of the two prefixes, under mirror).
struct Terms {
    int count = 0;
    int p[12];
    int coef[12];
    __device__ void add(int position, int coefficient) {
        p[count] = position;
        coef[count] = coefficient;
        ++count;
    }
};

__device__ int floor_div(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// Adds sign * F(t) to terms.
__device__ void add_prefix(Terms& terms, int t, int n, Border border, int sign) {
    if (t >= 0 && t <= n) return terms.add(t, sign);
    switch (border) {
        case Border::Zero:
            return terms.add(t < 0 ? 0 : n, sign);
        case Border::Clamp:
            if (t < 0) return terms.add(1, sign * t);
            terms.add(n, sign * (1 + t - n));
            return terms.add(n - 1, -sign * (t - n));
        case Border::Wrap: {
            const int q = floor_div(t, n);
            terms.add(n, sign * q);
            return terms.add(t - q * n, sign);
        }
        case Border::Mirror: {
            if (n == 1) return terms.add(1, sign * t);
            const int period = 2 * n - 2, q = floor_div(t, period), m = t - q * period;
            terms.add(n, sign * q);  // q whole periods: P(n) + P(n - 1) - P(1) each
            terms.add(n - 1, sign * q);
            terms.add(1, -sign * q);
            if (m <= n) return terms.add(m, sign);
            terms.add(n, sign);
            terms.add(n - 1, sign);
            return terms.add(2 * n - 1 - m, -sign);
        }
    }
}

template <int C>
__global__ void boxes_from_table_kernel(ConvArgs a, const uint32_t* table) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= a.width || y >= a.height) return;
    const int r = a.k / 2;
    const size_t row_values = size_t(a.width) * C;
    const float area = float(a.k * a.k);
    if (y - r >= 0 && y + r < a.height && x - r >= 0 && x + r < a.width) {  // inside: the usual four entries
        const int top = y - r - 1, bottom = y + r, left = x - r - 1, right = x + r;
        for (int ch = 0; ch < C; ++ch) {
            const auto at = [&](int yy, int xx) {
                return yy < 0 || xx < 0 ? 0u : table_at(table, yy, size_t(xx) * C + ch, a.height, row_values);
            };
            const uint32_t sum = at(bottom, right) - at(top, right) - at(bottom, left) + at(top, left);
            a.d_out[size_t(y) * row_values + size_t(x) * C + ch] = float(sum) / area;
        }
        return;
    }
    Terms rows, cols;  // F_y(y + r + 1) - F_y(y - r), F_x(x + r + 1) - F_x(x - r)
    add_prefix(rows, y + r + 1, a.height, a.border, 1);
    add_prefix(rows, y - r, a.height, a.border, -1);
    add_prefix(cols, x + r + 1, a.width, a.border, 1);
    add_prefix(cols, x - r, a.width, a.border, -1);
    for (int ch = 0; ch < C; ++ch) {
        uint32_t sum = 0;  // modulo 2^32: exact, since the true sum is smaller
        for (int i = 0; i < rows.count; ++i) {
            if (rows.p[i] == 0 || rows.coef[i] == 0) continue;  // P(0) is empty
            for (int j = 0; j < cols.count; ++j) {
                if (cols.p[j] == 0 || cols.coef[j] == 0) continue;
                const uint32_t entry = table_at(table, rows.p[i] - 1, size_t(cols.p[j] - 1) * C + ch, a.height, row_values);
                sum += uint32_t(rows.coef[i]) * uint32_t(cols.coef[j]) * entry;
            }
        }
        a.d_out[size_t(y) * row_values + size_t(x) * C + ch] = float(sum) / area;
    }
}

template <int C>
void launch_for_channels(const ConvArgs& args) {
    uint32_t* table = reinterpret_cast<uint32_t*>(args.d_scratch);
    const size_t row_values = size_t(args.width) * C;
    scan_rows_kernel<C><<<args.height, kScanThreads>>>(args, table);
    const int threads = 256;
    const unsigned columns = unsigned((row_values + threads - 1) / threads);
    scan_band_columns_kernel<<<dim3(columns, (args.height + kBand - 1) / kBand), threads>>>(table, args.height, row_values);
    carry_bands_kernel<<<columns, threads>>>(table, args.height, row_values);
    const dim3 block(32, 8);
    boxes_from_table_kernel<C><<<dim3((args.width + 31) / 32, (args.height + 7) / 8), block>>>(args, table);
}

}  // namespace

void launch_box_summed_area(const ConvArgs& args) {
    if (args.channels == 1)
        launch_for_channels<1>(args);
    else
        launch_for_channels<3>(args);
}

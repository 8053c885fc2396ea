// convlab lab 4 — do not edit: the plumbing around the register kernel. Its fast path covers
// the image's interior, where no tap of any of its threads leaves the image; the plain frame
// code here computes every other pixel, one thread each, border_index() per tap (and the whole
// image when the interior is empty: 3 channels, rows not on 4-byte boundaries, tiny images).
// The frame is done by extra blocks of the same launch: a second launch cost 3% at 8192x8192.
#pragma once
#include <algorithm>

#include "common/device/cuda_check.cuh"
#include "labs/lab4/lab4.hpp"

// The rectangle the fast kernel covers: x in [x_lo, x_hi) in steps of 4, rows [y_lo, y_hi) in
// whole groups of GY. All zero when the fast path does not apply.
struct Interior {
    int x_lo = 0, x_hi = 0, y_lo = 0, y_hi = 0;
    __host__ __device__ bool empty() const { return x_hi <= x_lo || y_hi <= y_lo; }
};

// A thread of the fast kernel reads words x - 4L .. x + 3 + 4L (L = ceil(r/4)) of rows y0 - r ..
// y0 + GY - 1 + r; the interior is where all of those lie inside the image.
template <int K, int GY>
Interior interior_of(const convlab::ConvArgs& a) {
    constexpr int R = K / 2, L = (R + 3) / 4;
    Interior in;
    if (a.channels != 1 || (a.width & 3) != 0) return in;
    in.x_lo = 4 * L;
    in.x_hi = a.width - 4 * L;
    in.y_lo = R;
    in.y_hi = a.height > 2 * R ? R + (a.height - 2 * R) / GY * GY : R;
    return in.empty() ? Interior{} : in;
}

// Frame pixel n (numbered: top band, bottom band, then the left and right strips beside the
// interior), all channels, border_index() per tap, the mask read from global memory.
__device__ __forceinline__ void register_frame_pixel(const convlab::ConvArgs& a, const Interior& in, long long n) {
    const long long top = (long long)in.y_lo * a.width, bottom = (long long)(a.height - in.y_hi) * a.width;
    const int left = in.x_lo, right = a.width - in.x_hi;
    const long long total = top + bottom + (long long)(in.y_hi - in.y_lo) * (left + right);
    if (n >= total) return;
    int x, y;
    if (n < top) {
        y = int(n / a.width), x = int(n % a.width);
    } else if (n < top + bottom) {
        y = in.y_hi + int((n - top) / a.width), x = int((n - top) % a.width);
    } else {
        const long long m = n - top - bottom;
        y = in.y_lo + int(m / (left + right));
        const int col = int(m % (left + right));
        x = col < left ? col : in.x_hi + (col - left);
    }
    const int k = a.k, r = k / 2, C = a.channels;
    for (int c = 0; c < C; ++c) {
        float sum = 0.0f;
        for (int i = 0; i < k; ++i) {
            const int sy = convlab::border_index(y + i - r, a.height, a.border);
            if (sy < 0) continue;
            for (int j = 0; j < k; ++j) {
                const int sx = convlab::border_index(x + j - r, a.width, a.border);
                if (sx >= 0) sum += a.d_mask[i * k + j] * float(a.d_in[(size_t(sy) * a.width + sx) * C + c]);
            }
        }
        a.d_out[(size_t(y) * a.width + x) * C + c] = sum;
    }
}

// How many pixels lie outside the interior.
inline long long register_frame_pixels(const convlab::ConvArgs& a, const Interior& in) {
    return (long long)a.width * a.height - (long long)(in.x_hi - in.x_lo) * (in.y_hi - in.y_lo);
}

// The grid of the register kernel: (columns of blocks) x (interior row groups + frame rows of
// blocks). Blocks past the interior's rows compute frame pixels instead, so one launch does all.
template <int GY>
dim3 register_grid(const convlab::ConvArgs& a, const Interior& in, int threads, int run) {
    // gridDim.y is at most 65535: the frame's rows of blocks are kept to 16384 by widening the grid
    // (surplus interior columns return at once), and the interior has at most 32768 row groups.
    constexpr long long kMaxFrameRows = 16384;
    const long long frame_blocks = (register_frame_pixels(a, in) + threads - 1) / threads;
    const long long interior_columns = in.empty() ? 1 : ((in.x_hi - in.x_lo) / run + threads - 1) / threads;
    const long long columns = std::max(interior_columns, (frame_blocks + kMaxFrameRows - 1) / kMaxFrameRows);
    const int interior_rows = in.empty() ? 0 : (in.y_hi - in.y_lo) / GY;
    return dim3(unsigned(columns), unsigned(interior_rows + (frame_blocks + columns - 1) / columns));
}

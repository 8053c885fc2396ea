// convlab lab 4 — do not edit: the plumbing around the register kernel. The fast kernel covers
// the image's interior, where no tap of any of its threads leaves the image; the plain frame
// kernel here computes every other pixel, one thread each, border_index() per tap (and the whole
// image when the interior is empty: 3 channels, rows not on 4-byte boundaries, tiny images).
#pragma once
#include "common/cuda_check.cuh"
#include "labs/lab4/lab4.hpp"

// The rectangle the fast kernel covers: x in [x_lo, x_hi) in steps of 4, rows [y_lo, y_hi) in
// whole groups of GY. All zero when the fast path does not apply.
struct Interior {
    int x_lo = 0, x_hi = 0, y_lo = 0, y_hi = 0;
    bool empty() const { return x_hi <= x_lo || y_hi <= y_lo; }
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

// Every pixel outside the interior, numbered: top band, bottom band, then the left and right
// (static: this header is included by exactly one file of a lab 4 build, the register kernel.)
// strips beside the interior. The mask is read from global memory (args.d_mask).
static __global__ void conv2d_register_frame_kernel(convlab::ConvArgs a, Interior in) {
    const long long top = (long long)in.y_lo * a.width, bottom = (long long)(a.height - in.y_hi) * a.width;
    const int left = in.x_lo, right = a.width - in.x_hi;
    const long long total = top + bottom + (long long)(in.y_hi - in.y_lo) * (left + right);
    const long long n = blockIdx.x * (long long)blockDim.x + threadIdx.x;
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

// Launches the frame kernel over everything outside `in` (nothing when `in` is the whole image).
inline void launch_register_frame(const convlab::ConvArgs& args, const Interior& in) {
    const long long frame = (long long)args.width * args.height - (long long)(in.x_hi - in.x_lo) * (in.y_hi - in.y_lo);
    if (frame <= 0) return;
    conv2d_register_frame_kernel<<<unsigned((frame + 255) / 256), 256>>>(args, in);
    CUDA_CHECK_LAUNCH();
}

// Lab 4 — granularity: 1 x 8 outputs per thread, the input row in registers. Reference solution.
//
// New since conv2d_coarse.cu: the outputs of a thread are neighbours in a row, so they read
// overlapping stretches of the input row. The thread loads that stretch from shared memory four
// floats at a time (one 16-byte load) into registers and reuses every value for 4 taps x 4
// outputs: 16 multiply-adds per 16-byte load of the row, instead of one 4-byte load per
// multiply-add. The mask rows are padded with zeros to k4, a multiple of 4 taps, so that the
// weights, too, arrive four at a time (zero taps add nothing).
//
//   block: 32 x 8 threads, output tile 256 x 8*GY; thread tx's two runs of 4 outputs start at
//   x = 4*tx and 4*tx + 128 (consecutive threads read consecutive 16-byte words: no bank
//   conflicts, coalesced stores), in each of its GY rows ty*GY .. ty*GY + GY - 1
//
//   window for a run, taps q..q+3:  cur = in[q .. q+3], nxt = in[q+4 .. q+7]
//     out[g] += w[q+t] * window[g + t]   for g, t in 0..3   (16 FMAs, all operands in registers)
//
// An input row serves every output row of the thread that it lies under (mask row t - gy).
// The tuned version (the loop over taps unrolled by a template, a 4-byte tile load for one
// channel, no range checks on the rows that serve every output row) is the expert tier,
// solutions/lab4/expert/, the row window-8x4-expert.
//
// Build and run:   make lab4 SOLUTION=1 && ./lab4 --variant window-8x1,window-8x2,window-8x4
#include "common/device/cuda_check.cuh"
#include "common/device/shared_memory.cuh"
#include "labs/lab4/lab4.hpp"

using namespace convlab;

namespace {

constexpr int kThreads = kWindowBlockX * kWindowBlockY;
constexpr int kTileX = kWindowBlockX * 2 * kWindowRun;  // 256 outputs across
constexpr int kRunGap = kTileX / 2;                     // the second run starts 128 further on

__device__ float4 load4(const float* p) { return *reinterpret_cast<const float4*>(p); }

// out[g] += w[t] * window[g + t], window = (cur, nxt) as 8 consecutive values.
__device__ void fma_run(float4& out, const float4& w, const float4& cur, const float4& nxt) {
    const float v[8] = {cur.x, cur.y, cur.z, cur.w, nxt.x, nxt.y, nxt.z, nxt.w};
    const float wt[4] = {w.x, w.y, w.z, w.w};
    float o[4] = {out.x, out.y, out.z, out.w};
#pragma unroll
    for (int t = 0; t < 4; ++t)
#pragma unroll
        for (int g = 0; g < 4; ++g) o[g] += wt[t] * v[g + t];
    out = make_float4(o[0], o[1], o[2], o[3]);
}

// Shared memory: the input tile, one plane a channel of tile_h rows of pitch floats, then the
// k mask rows of k4 weights.
struct WindowLayout {
    int k4, pitch, tile_h;
    __host__ __device__ WindowLayout(int k, int gy)
        : k4((k + 3) & ~3), pitch(kTileX + ((k + 3) & ~3)), tile_h(kWindowBlockY * gy + k - 1) {}
    __host__ __device__ size_t floats(int channels, int k) const { return size_t(channels) * tile_h * pitch + size_t(k) * k4; }
};

}  // namespace

template <int GY>
__global__ void __launch_bounds__(kThreads) conv2d_window_kernel(ConvArgs a) {
    static_assert(GY >= 1 && GY <= 8, "rows per thread: 1 to 8");
    extern __shared__ float4 s_raw[];  // float4-aligned, for 16-byte loads
    const int k = a.k, r = k / 2, C = a.channels;
    const WindowLayout l(k, GY);
    float* s_tile = reinterpret_cast<float*>(s_raw);       // C planes of tile_h x pitch floats
    float* s_w = s_tile + size_t(C) * l.tile_h * l.pitch;  // k rows of k4 weights
    const int tid = threadIdx.y * kWindowBlockX + threadIdx.x;
    const int x0 = blockIdx.x * kTileX, y0 = blockIdx.y * kWindowBlockY * GY;

    // 1. The weights, each mask row padded with zeros to k4 taps.
    for (int n = tid; n < k * l.k4; n += kThreads) {
        const int i = n / l.k4, j = n % l.k4;
        s_w[n] = j < k ? a.d_mask[i * k + j] : 0.0f;
    }
    // 2. The input tile from (x0 - r, y0 - r), the border rule applied; zeros past its 256 + k - 1 columns.
    for (int n = tid; n < l.tile_h * l.pitch; n += kThreads) {
        const int row = n / l.pitch, col = n % l.pitch;
        const int sy = border_index(y0 - r + row, a.height, a.border);
        const int sx = border_index(x0 - r + col, a.width, a.border);
        const bool zero = col >= kTileX + k - 1 || sx < 0 || sy < 0;
        for (int c = 0; c < C; ++c)
            s_tile[(c * l.tile_h + row) * l.pitch + col] = zero ? 0.0f : float(a.d_in[(size_t(sy) * a.width + sx) * C + c]);
    }
    __syncthreads();

    // 4. Two runs of 4 outputs in each of the thread's GY rows: input row t (from the thread's
    //    first) serves output row gy with mask row t - gy.
    const int lane_x = threadIdx.x * kWindowRun;
    for (int c = 0; c < C; ++c) {
        float4 acc[GY][2] = {};
        const float* first = s_tile + size_t(c) * l.tile_h * l.pitch + threadIdx.y * GY * l.pitch + lane_x;
        for (int t = 0; t < GY + k - 1; ++t) {
            const float* row = first + t * l.pitch;
            for (int q = 0; q < l.k4; q += 4) {
                const float4 cur0 = load4(row + q), nxt0 = load4(row + q + 4);
                const float4 cur1 = load4(row + kRunGap + q), nxt1 = load4(row + kRunGap + q + 4);
#pragma unroll
                for (int gy = 0; gy < GY; ++gy) {
                    const int i = t - gy;
                    if (i < 0 || i >= k) continue;
                    const float4 w = load4(s_w + i * l.k4 + q);
                    fma_run(acc[gy][0], w, cur0, nxt0);
                    fma_run(acc[gy][1], w, cur1, nxt1);
                }
            }
        }
        // 5. Store: a float4 when the run is whole and aligned (1 channel, width a multiple of
        //    4), else value by value.
#pragma unroll
        for (int gy = 0; gy < GY; ++gy) {
            const int y = y0 + threadIdx.y * GY + gy;
            if (y >= a.height) break;
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int x = x0 + lane_x + h * kRunGap;
                float* dst = a.d_out + (size_t(y) * a.width + x) * C + c;
                const float4 v = acc[gy][h];
                if (C == 1 && (a.width & 3) == 0 && x + 3 < a.width) {
                    *reinterpret_cast<float4*>(dst) = v;
                } else {
                    const float o[4] = {v.x, v.y, v.z, v.w};
                    for (int g = 0; g < 4 && x + g < a.width; ++g) dst[g * C] = o[g];
                }
            }
        }
    }
}

template <int GY>
void launch_conv2d_window(const ConvArgs& args) {
    const size_t shared_bytes = WindowLayout(args.k, GY).floats(args.channels, args.k) * sizeof(float);  // 213 KB at k = 31, 3 channels, GY = 4
    allow_dynamic_shared_memory(conv2d_window_kernel<GY>, shared_bytes, "conv2d_window_kernel");
    const dim3 grid((args.width + kTileX - 1) / kTileX, (args.height + kWindowBlockY * GY - 1) / (kWindowBlockY * GY));
    conv2d_window_kernel<GY><<<grid, dim3(kWindowBlockX, kWindowBlockY), shared_bytes>>>(args);
    CUDA_CHECK_LAUNCH();
}

// Harness: one instantiation per row count the driver sweeps.
#define INSTANTIATE(gy) template void launch_conv2d_window<gy>(const ConvArgs&);
LAB4_WINDOW_ROWS(INSTANTIATE)
#undef INSTANTIATE

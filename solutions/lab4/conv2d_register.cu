// Lab 4 — granularity without shared memory: 4 x GY outputs per thread, straight from global
// memory into registers. Reference solution.
//
// New since conv2d_window.cu: for a small mask the tile in shared memory costs more than it
// saves. The load, the barrier and the store phases of a block run one after the other, and a
// 3x3 mask leaves too little arithmetic to hide them. Here a thread reads the few input words it
// needs directly (neighbouring threads read overlapping words, which the L1 cache serves), keeps
// a window of each input row in registers, and reuses every row for the GY output rows it
// touches. With k a template parameter every index is a compile-time constant: the window stays
// in registers and each weight is an operand of its FMA, read from constant memory.
//
//   thread: outputs x .. x+3 (x = 4 * global thread column) of rows y0 .. y0+GY-1
//   input row t (y0 - r + t): words x-4L .. x+3+4L (L = ceil(r/4)) -> v[0 .. 4(2L+1))
//   out[gy][g] += w[t - gy][j] * v[4L + g + j - r]
//
// Build and run:   make lab4 SOLUTION=1 && ./lab4 --mask box:3,box:5 --variant register-4x4,register-4x8
#include "common/cuda_check.cuh"
#include "labs/lab4/lab4.hpp"

using namespace convlab;

__constant__ float c_register_mask[kRegisterMaxMaskSize * kRegisterMaxMaskSize];

namespace {

template <int K>
struct RegisterWindow {
    static constexpr int kR = K / 2;
    static constexpr int kSideWords = (kR + 3) / 4;              // L: aligned words either side
    static constexpr int kValues = 4 * (2 * kSideWords + 1);     // the row window
};

// Fast path: one row's window from a 1-channel image with 4-byte aligned rows, fully inside.
template <int K>
__device__ __forceinline__ void load_window_fast(const uint8_t* row, int x, float (&v)[RegisterWindow<K>::kValues]) {
    constexpr int kWords = RegisterWindow<K>::kValues / 4;
    const uint8_t* first = row + x - 4 * RegisterWindow<K>::kSideWords;
#pragma unroll
    for (int w = 0; w < kWords; ++w) {
        const uchar4 b = *reinterpret_cast<const uchar4*>(first + 4 * w);
        v[4 * w] = b.x, v[4 * w + 1] = b.y, v[4 * w + 2] = b.z, v[4 * w + 3] = b.w;
    }
}

// General path: any position, border and channel count, one value at a time. The value lookup is
// out of line: only the threads at the image's edges call it, and inlined into the unrolled
// window it would cost every thread registers.
__device__ __noinline__ float bordered_value(const ConvArgs& a, int y, int x, int c) {
    const int sy = border_index(y, a.height, a.border), sx = border_index(x, a.width, a.border);
    return (sy < 0 || sx < 0) ? 0.0f : float(a.d_in[(size_t(sy) * a.width + sx) * a.channels + c]);
}

template <int K>
__device__ __forceinline__ void load_window_bordered(const ConvArgs& a, int y, int x, int c, float (&v)[RegisterWindow<K>::kValues]) {
#pragma unroll
    for (int m = 0; m < RegisterWindow<K>::kValues; ++m) v[m] = bordered_value(a, y, x - 4 * RegisterWindow<K>::kSideWords + m, c);
}

}  // namespace

template <int K, int GY>
__global__ void __launch_bounds__(kRegisterBlockX * kRegisterBlockY) conv2d_register_kernel(ConvArgs a) {
    static_assert(K % 2 == 1 && K <= kRegisterMaxMaskSize, "an odd mask of at most kRegisterMaxMaskSize");
    static_assert(GY >= 1 && GY <= 16, "rows per thread: 1 to 16");
    using Window = RegisterWindow<K>;
    constexpr int R = Window::kR;
    const int x = (blockIdx.x * kRegisterBlockX + threadIdx.x) * kRegisterRun;
    const int y0 = (blockIdx.y * kRegisterBlockY + threadIdx.y) * GY;
    if (x >= a.width || y0 >= a.height) return;
    const int C = a.channels;
    const bool fast = C == 1 && (a.width & 3) == 0 && x - 4 * Window::kSideWords >= 0 &&
                      x + 4 * (Window::kSideWords + 1) <= a.width && y0 - R >= 0 && y0 + GY + R <= a.height;
    for (int c = 0; c < C; ++c) {
        float acc[GY][kRegisterRun] = {};
#pragma unroll
        for (int t = 0; t < GY + 2 * R; ++t) {
            float v[Window::kValues];
            if (fast) load_window_fast<K>(a.d_in + size_t(y0 - R + t) * a.width, x, v);
            else load_window_bordered<K>(a, y0 - R + t, x, c, v);
#pragma unroll
            for (int gy = 0; gy < GY; ++gy) {
                const int i = t - gy;  // compile-time: t and gy are unrolled
                if (i < 0 || i >= K) continue;
#pragma unroll
                for (int j = 0; j < K; ++j)
#pragma unroll
                    for (int g = 0; g < kRegisterRun; ++g)
                        acc[gy][g] += c_register_mask[i * K + j] * v[4 * Window::kSideWords + g + j - R];
            }
        }
#pragma unroll
        for (int gy = 0; gy < GY; ++gy) {
            const int y = y0 + gy;
            if (y >= a.height) break;
            float* dst = a.d_out + (size_t(y) * a.width + x) * C + c;
            if (C == 1 && (a.width & 3) == 0 && x + 3 < a.width) {
                // Streaming store: the result is not read again here, so it need not stay in cache.
                __stcs(reinterpret_cast<float4*>(dst), make_float4(acc[gy][0], acc[gy][1], acc[gy][2], acc[gy][3]));
            } else {
#pragma unroll
                for (int g = 0; g < kRegisterRun; ++g)
                    if (x + g < a.width) dst[g * C] = acc[gy][g];
            }
        }
    }
}

void copy_mask_to_register_constant(const Mask& mask) {
    if (mask.k > kRegisterMaxMaskSize) return;  // launch_conv2d_register reports the limit
    CUDA_CHECK(cudaMemcpyToSymbol(c_register_mask, mask.weights.data(), mask.weights.size() * sizeof(float)));
}

template <int GY>
void launch_conv2d_register(const ConvArgs& args) {
    const dim3 block(kRegisterBlockX, kRegisterBlockY);
    const dim3 grid((args.width + kRegisterBlockX * kRegisterRun - 1) / (kRegisterBlockX * kRegisterRun),
                    (args.height + kRegisterBlockY * GY - 1) / (kRegisterBlockY * GY));
    switch (args.k) {
#define CASE(k)                                                      \
    case k:                                                          \
        conv2d_register_kernel<k, GY><<<grid, block>>>(args);        \
        break;
        LAB4_REGISTER_SIZES(CASE)
#undef CASE
        default:
            throw Unsupported("the register kernel is compiled for masks up to " + std::to_string(kRegisterMaxMaskSize) + "x" +
                              std::to_string(kRegisterMaxMaskSize) + " (its window lives in registers); window-8xN takes any size");
    }
    CUDA_CHECK_LAUNCH();
}

#define INSTANTIATE(gy) template void launch_conv2d_register<gy>(const ConvArgs&);
LAB4_REGISTER_ROWS(INSTANTIATE)
#undef INSTANTIATE

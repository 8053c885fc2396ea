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
//   thread: outputs x .. x+3 of rows y0 .. y0+GY-1; 256 threads of a block side by side in a row
//   input row t (y0 - r + t): words x-4L .. x+3+4L (L = ceil(r/4)) -> v[0 .. 4(2L+1))
//   out[gy][g] += w[t - gy][j] * v[4L + g + j - r]
//
// That fast kernel has no border code at all: it runs only where no tap leaves the image
// (interior_of() in register_frame.cuh). Extra blocks of the same launch compute the rest with
// the plain code there, or the whole image when the fast path does not apply (3 channels, or rows
// not on 4-byte boundaries).
// Border code inside the fast kernel cost every thread registers and a stack frame, and halved
// its speed.
//
// Build and run:   make lab4 SOLUTION=1 && ./lab4 --mask box:3,box:5 --variant register-4x1,register-4x4
#include "common/device/cuda_check.cuh"
#include "labs/lab4/lab4.hpp"
#include "labs/lab4/register_frame.cuh"

using namespace convlab;

__constant__ float c_register_mask[kRegisterMaxMaskSize * kRegisterMaxMaskSize];

namespace {

template <int K, int GY>
__global__ void __launch_bounds__(kRegisterThreads) conv2d_register_kernel(ConvArgs a, Interior in) {
    static_assert(K % 2 == 1 && K <= kRegisterMaxMaskSize, "an odd mask of at most kRegisterMaxMaskSize");
    static_assert(GY >= 1 && GY <= 16, "rows per thread: 1 to 16");
    constexpr int R = K / 2, L = (R + 3) / 4, kValues = 4 * (2 * L + 1);
    const int interior_rows = in.empty() ? 0 : (in.y_hi - in.y_lo) / GY;
    if (int(blockIdx.y) >= interior_rows) {  // a frame block: one pixel per thread
        const long long block = (long long)(blockIdx.y - interior_rows) * gridDim.x + blockIdx.x;
        register_frame_pixel(a, in, block * kRegisterThreads + threadIdx.x);
        return;
    }
    const int x = in.x_lo + (blockIdx.x * kRegisterThreads + threadIdx.x) * kRegisterRun;
    const int y0 = in.y_lo + blockIdx.y * GY;
    if (x >= in.x_hi) return;
    float acc[GY][kRegisterRun] = {};
#pragma unroll
    for (int t = 0; t < GY + 2 * R; ++t) {
        const uint8_t* row = a.d_in + size_t(y0 - R + t) * a.width + x - 4 * L;
        float v[kValues];
#pragma unroll
        for (int w = 0; w < kValues / 4; ++w) {
            const uchar4 b = *reinterpret_cast<const uchar4*>(row + 4 * w);
            v[4 * w] = b.x, v[4 * w + 1] = b.y, v[4 * w + 2] = b.z, v[4 * w + 3] = b.w;
        }
#pragma unroll
        for (int gy = 0; gy < GY; ++gy) {
            const int i = t - gy;  // compile-time: t and gy are unrolled
            if (i < 0 || i >= K) continue;
#pragma unroll
            for (int j = 0; j < K; ++j)
#pragma unroll
                for (int g = 0; g < kRegisterRun; ++g) acc[gy][g] += c_register_mask[i * K + j] * v[4 * L + g + j - R];
        }
    }
#pragma unroll
    for (int gy = 0; gy < GY; ++gy)
        *reinterpret_cast<float4*>(a.d_out + size_t(y0 + gy) * a.width + x) =
            make_float4(acc[gy][0], acc[gy][1], acc[gy][2], acc[gy][3]);
}

template <int K, int GY>
void launch_interior_and_frame(const ConvArgs& args) {
    const Interior in = interior_of<K, GY>(args);
    conv2d_register_kernel<K, GY><<<register_grid<GY>(args, in, kRegisterThreads, kRegisterRun), kRegisterThreads>>>(args, in);
    CUDA_CHECK_LAUNCH();
}

}  // namespace

void copy_mask_to_register_constant(const Mask& mask) {
    if (mask.k > kRegisterMaxMaskSize) return;  // launch_conv2d_register reports the limit
    CUDA_CHECK(cudaMemcpyToSymbol(c_register_mask, mask.weights.data(), mask.weights.size() * sizeof(float)));
}

template <int GY>
void launch_conv2d_register(const ConvArgs& args) {
    switch (args.k) {
#define CASE(k)                                   \
    case k:                                       \
        launch_interior_and_frame<k, GY>(args);   \
        return;
        LAB4_REGISTER_SIZES(CASE)
#undef CASE
        default:
            throw Unsupported("the register kernel is compiled for masks up to " + std::to_string(kRegisterMaxMaskSize) + "x" +
                              std::to_string(kRegisterMaxMaskSize) + " (its window lives in registers); window-8xN takes any size");
    }
}

#define INSTANTIATE(gy) template void launch_conv2d_register<gy>(const ConvArgs&);
LAB4_REGISTER_ROWS(INSTANTIATE)
#undef INSTANTIATE

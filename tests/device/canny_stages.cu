// Lab 8's GPU stages ahead of the lab itself (issue 17): the kernels its reference solution will
// start from, run as the lab will run them, through run_canny_lab (common/canny_lab.hpp). Each
// stage is checked alone on the CPU reference's own input (every stage after smoothing exactly)
// and timed through the harness (CUDA events, warm-ups, L2 flushed, median) under the byte model
// the lab's table will state; then each pipeline whole, from the grey image to the edge map.
// Smoothing is lab 6's reference solution (its fused kernel), linked in. Exit status as a lab's.
//   tests/device/canny_stages.sh OUT_DIR      (builds this with lab 6's solution and runs it twice)
#include <cuda_runtime.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "common/canny_args.hpp"
#include "common/canny_lab.hpp"
#include "common/cuda_check.cuh"
#include "labs/lab6/lab6.hpp"

using namespace convlab;

namespace {

constexpr int kThreads = 256;

// A fixed grid of grid-stride blocks: few enough that one atomicMax a block is cheap.
int stride_blocks() {
    int device = 0, sms = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    return 8 * sms;
}

__device__ float smoothed_tap(const CannyArgs& a, int x, int y) {
    const int sx = border_index(x, a.width, a.border), sy = border_index(y, a.height, a.border);
    return sx < 0 || sy < 0 ? 0.0f : a.d_smoothed[size_t(sy) * a.width + sx];
}

// The block's largest magnitude into *a.d_max_magnitude: one atomic a block, on the float's bits.
__device__ void block_max_to_global(const CannyArgs& a, float m) {
    __shared__ float s_warp_max[32];
    for (int offset = 16; offset > 0; offset /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, offset));
    if (threadIdx.x % 32 == 0) s_warp_max[threadIdx.x / 32] = m;
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int w = 1; w < int(blockDim.x / 32); ++w) m = fmaxf(m, s_warp_max[w]);
        if (m > 0.0f) atomicMax(a.d_max_magnitude, __float_as_uint(m));
    }
}

// ---- stage 2 and 3 apart -----------------------------------------------------------------------

__global__ void __launch_bounds__(kThreads) gradients_kernel(CannyArgs a) {
    float largest = 0.0f;
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < a.pixels(); i += size_t(gridDim.x) * blockDim.x) {
        const int x = int(i % a.width), y = int(i / a.width);
        float n[3][3];
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) n[r][c] = smoothed_tap(a, x + c - 1, y + r - 1);
        const Gradient g = sobel_gradient(n);
        const float m = gradient_magnitude(g);
        a.d_magnitude[i] = m;
        a.d_direction[i] = uint8_t(quantise_direction(g));
        largest = fmaxf(largest, m);
    }
    block_max_to_global(a, largest);
}

__device__ float magnitude_or_zero(const CannyArgs& a, int x, int y) {
    return x < 0 || y < 0 || x >= a.width || y >= a.height ? 0.0f : a.d_magnitude[size_t(y) * a.width + x];
}

__global__ void __launch_bounds__(kThreads) suppress_kernel(CannyArgs a) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < a.pixels(); i += size_t(gridDim.x) * blockDim.x) {
        const int x = int(i % a.width), y = int(i / a.width);
        int dx = 0, dy = 0;
        direction_step(EdgeDirection(a.d_direction[i]), &dx, &dy);
        a.d_suppressed[i] = suppress(a.d_magnitude[i], magnitude_or_zero(a, x - dx, y - dy), magnitude_or_zero(a, x + dx, y + dy));
    }
}

// ---- stages 2 and 3 fused: a 32 x 32 tile a step, its magnitudes with a one-pixel frame in shared memory

constexpr int kTile = 32;
constexpr int kSmoothedSide = kTile + 4;  // two pixels of halo: the Sobel taps of the frame's magnitudes
constexpr int kMagnitudeSide = kTile + 2;

// kSquared: the tile holds squared magnitudes, and a square root is taken only where the pixel may
// survive suppression. It survives only if its magnitude is above its "after" neighbour's, which
// needs its square above that neighbour's square (sqrtf never decreases); there the three square
// roots are taken and the reference's rule applied to them, so the result is the reference's.
template <bool kSquared>
__global__ void __launch_bounds__(kThreads) gradients_suppress_kernel(CannyArgs a) {
    __shared__ float s_smoothed[kSmoothedSide][kSmoothedSide + 1];
    __shared__ float s_magnitude[kMagnitudeSide][kMagnitudeSide + 1];
    __shared__ uint8_t s_direction[kTile][kTile];
    const int tiles_x = (a.width + kTile - 1) / kTile, tiles_y = (a.height + kTile - 1) / kTile;
    float largest = 0.0f;
    for (int tile = blockIdx.x; tile < tiles_x * tiles_y; tile += gridDim.x) {
        const int x0 = tile % tiles_x * kTile, y0 = tile / tiles_x * kTile;
        __syncthreads();  // the last tile's suppression is done with shared memory
        for (int n = threadIdx.x; n < kSmoothedSide * kSmoothedSide; n += blockDim.x) {
            const int r = n / kSmoothedSide, c = n % kSmoothedSide;
            s_smoothed[r][c] = smoothed_tap(a, x0 - 2 + c, y0 - 2 + r);
        }
        __syncthreads();
        for (int n = threadIdx.x; n < kMagnitudeSide * kMagnitudeSide; n += blockDim.x) {
            const int r = n / kMagnitudeSide, c = n % kMagnitudeSide;
            const int x = x0 - 1 + c, y = y0 - 1 + r;
            float m = 0.0f;  // outside the image: NMS reads 0
            if (x >= 0 && y >= 0 && x < a.width && y < a.height) {
                float nb[3][3];
                for (int i = 0; i < 3; ++i)
                    for (int j = 0; j < 3; ++j) nb[i][j] = s_smoothed[r + i][c + j];
                const Gradient g = sobel_gradient(nb);
                m = kSquared ? squared_magnitude(g) : gradient_magnitude(g);
                const bool inner = r >= 1 && c >= 1 && r <= kTile && c <= kTile;
                if (inner) {
                    s_direction[r - 1][c - 1] = uint8_t(quantise_direction(g));
                    largest = fmaxf(largest, m);
                }
            }
            s_magnitude[r][c] = m;
        }
        __syncthreads();
        for (int n = threadIdx.x; n < kTile * kTile; n += blockDim.x) {
            const int r = n / kTile, c = n % kTile, x = x0 + c, y = y0 + r;
            if (x >= a.width || y >= a.height) continue;
            int dx = 0, dy = 0;
            direction_step(EdgeDirection(s_direction[r][c]), &dx, &dy);
            const float m = s_magnitude[r + 1][c + 1], before = s_magnitude[r + 1 - dy][c + 1 - dx],
                        after = s_magnitude[r + 1 + dy][c + 1 + dx];
            float kept = 0.0f;
            if (!kSquared) kept = suppress(m, before, after);
            else if (m > 0.0f && m > after) kept = suppress(sqrtf(m), sqrtf(before), sqrtf(after));
            a.d_suppressed[size_t(y) * a.width + x] = kept;
        }
    }
    block_max_to_global(a, kSquared ? sqrtf(largest) : largest);
}

// ---- stage 4 -------------------------------------------------------------------------------------

__global__ void __launch_bounds__(kThreads) threshold_kernel(CannyArgs a) {
    float low = a.low, high = a.high;
    if (a.relative) {
        const float largest = __uint_as_float(*a.d_max_magnitude);
        low = a.low * largest, high = a.high * largest;  // the reference's float products
    }
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < a.pixels(); i += size_t(gridDim.x) * blockDim.x)
        a.d_labels[i] = uint8_t(threshold_label(a.d_suppressed[i], low, high));
}

// ---- stage 5, the source's algorithm: block-local propagation, global rounds until none marks --

enum : uint8_t { kNone = 0, kWeak = 1, kEdge = 2 };

__device__ uint8_t hysteresis_state(const CannyArgs& a, int x, int y, bool first_round) {
    if (x < 0 || y < 0 || x >= a.width || y >= a.height) return kNone;
    const size_t i = size_t(y) * a.width + x;
    const uint8_t label = a.d_labels[i];
    const bool edge = first_round ? label == uint8_t(EdgeLabel::Strong) : a.d_edges[i] == 255;
    return edge ? kEdge : label == uint8_t(EdgeLabel::Weak) ? kWeak : kNone;
}

__global__ void __launch_bounds__(kThreads) hysteresis_round_kernel(CannyArgs a, bool first_round, int* d_marked) {
    __shared__ uint8_t s[kTile + 2][kTile + 2];
    const int tiles_x = (a.width + kTile - 1) / kTile;
    const int x0 = blockIdx.x % tiles_x * kTile, y0 = blockIdx.x / tiles_x * kTile;
    for (int n = threadIdx.x; n < (kTile + 2) * (kTile + 2); n += blockDim.x) {
        const int r = n / (kTile + 2), c = n % (kTile + 2);
        s[r][c] = hysteresis_state(a, x0 - 1 + c, y0 - 1 + r, first_round);
    }
    __syncthreads();
    bool marked_here = false, changed = true;
    while (changed) {  // until nothing changes in the tile
        bool mine = false;
        for (int n = threadIdx.x; n < kTile * kTile; n += blockDim.x) {
            const int r = n / kTile + 1, c = n % kTile + 1;
            if (s[r][c] != kWeak) continue;
            const bool joined = s[r - 1][c - 1] == kEdge || s[r - 1][c] == kEdge || s[r - 1][c + 1] == kEdge ||
                                s[r][c - 1] == kEdge || s[r][c + 1] == kEdge || s[r + 1][c - 1] == kEdge ||
                                s[r + 1][c] == kEdge || s[r + 1][c + 1] == kEdge;
            if (joined) s[r][c] = kEdge, mine = true;
        }
        changed = __syncthreads_or(mine);
        marked_here = marked_here || changed;
    }
    for (int n = threadIdx.x; n < kTile * kTile; n += blockDim.x) {
        const int r = n / kTile, c = n % kTile, x = x0 + c, y = y0 + r;
        if (x < a.width && y < a.height) a.d_edges[size_t(y) * a.width + x] = s[r + 1][c + 1] == kEdge ? 255 : 0;
    }
    if (marked_here && threadIdx.x == 0) *d_marked = 1;
}

// Rounds go in groups, each round with its own flag, and the host reads the flags once a group:
// a round-trip to the host every round cost more than the round (56 us on the H100). The groups
// double, 1, 2, 4 ... up to kMostRoundsAGroup, so that an image that needs few rounds runs few
// extra ones. The rounds after the first that marks nothing change nothing, and are not counted.
constexpr int kMostRoundsAGroup = 64;

void launch_hysteresis_rounds(const CannyArgs& a) {
    const int tiles = ((a.width + kTile - 1) / kTile) * ((a.height + kTile - 1) / kTile);
    int* d_marked = static_cast<int*>(a.d_workspace);
    int marked[kMostRoundsAGroup];
    int rounds = 0;
    for (int group = 1, launched = 0;; group = std::min(2 * group, kMostRoundsAGroup)) {
        CUDA_CHECK(cudaMemsetAsync(d_marked, 0, group * sizeof(int)));
        for (int r = 0; r < group; ++r) hysteresis_round_kernel<<<tiles, kThreads>>>(a, launched + r == 0, d_marked + r);
        CUDA_CHECK_LAUNCH();
        launched += group;
        CUDA_CHECK(cudaMemcpy(marked, d_marked, group * sizeof(int), cudaMemcpyDeviceToHost));
        int r = 0;
        while (r < group && marked[r]) ++r;
        rounds += std::min(r + 1, group);
        if (r < group) break;
    }
    CUDA_CHECK(cudaMemcpy(a.d_rounds, &rounds, sizeof rounds, cudaMemcpyHostToDevice));
}

// ---- stage 5 by union-find: the weak and strong pixels' 8-connected components, an edge where
// the component holds a strong pixel. parent[i]: a pixel's parent (itself at a root), kStrong set
// on a root whose component is strong, kOutside for a pixel of neither label.

constexpr unsigned kStrong = 0x80000000u, kOutside = 0xFFFFFFFFu;

__device__ unsigned find_root(const unsigned* parent, unsigned p) {
    for (;;) {
        const unsigned q = parent[p] & ~kStrong;
        if (q == p) return p;
        p = q;
    }
}

// Joins the components of a and b: the larger root is linked under the smaller, by compare-and-swap
// so that two threads linking the same root do not lose one link.
__device__ void unite(unsigned* parent, unsigned a, unsigned b) {
    for (;;) {
        a = find_root(parent, a), b = find_root(parent, b);
        if (a == b) return;
        if (a < b) {
            const unsigned t = a;
            a = b, b = t;
        }
        if (atomicCAS(&parent[a], a, b) == a) return;
    }
}

__global__ void __launch_bounds__(kThreads) union_init_kernel(CannyArgs a, unsigned* parent) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < a.pixels(); i += size_t(gridDim.x) * blockDim.x)
        parent[i] = a.d_labels[i] == uint8_t(EdgeLabel::None) ? kOutside : unsigned(i);
}

__global__ void __launch_bounds__(kThreads) union_merge_kernel(CannyArgs a, unsigned* parent) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < a.pixels(); i += size_t(gridDim.x) * blockDim.x) {
        if (parent[i] == kOutside) continue;
        const int x = int(i % a.width), y = int(i / a.width);
        // Half of the 8 neighbours: the other half join from their side.
        const int dx[4] = {1, -1, 0, 1}, dy[4] = {0, 1, 1, 1};
        for (int d = 0; d < 4; ++d) {
            const int nx = x + dx[d], ny = y + dy[d];
            if (nx < 0 || nx >= a.width || ny >= a.height) continue;
            const size_t j = size_t(ny) * a.width + nx;
            if (parent[j] != kOutside) unite(parent, unsigned(i), unsigned(j));
        }
    }
}

__global__ void __launch_bounds__(kThreads) union_mark_kernel(CannyArgs a, unsigned* parent) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < a.pixels(); i += size_t(gridDim.x) * blockDim.x)
        if (a.d_labels[i] == uint8_t(EdgeLabel::Strong)) atomicOr(&parent[find_root(parent, unsigned(i))], kStrong);
}

__global__ void __launch_bounds__(kThreads) union_edges_kernel(CannyArgs a, const unsigned* parent) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < a.pixels(); i += size_t(gridDim.x) * blockDim.x)
        a.d_edges[i] = parent[i] != kOutside && (parent[find_root(parent, unsigned(i))] & kStrong) ? 255 : 0;
}

void launch_hysteresis_union_find(const CannyArgs& a) {
    unsigned* parent = static_cast<unsigned*>(a.d_workspace);
    const int blocks = stride_blocks();
    union_init_kernel<<<blocks, kThreads>>>(a, parent);
    union_merge_kernel<<<blocks, kThreads>>>(a, parent);
    union_mark_kernel<<<blocks, kThreads>>>(a, parent);
    union_edges_kernel<<<blocks, kThreads>>>(a, parent);
    CUDA_CHECK_LAUNCH();
    const int one = 1;
    CUDA_CHECK(cudaMemcpy(a.d_rounds, &one, sizeof one, cudaMemcpyHostToDevice));
}

// ---- the pipelines ---------------------------------------------------------------------------

template <class Kernel>
std::function<void(const CannyArgs&)> on_stride_grid(Kernel kernel) {
    return [kernel](const CannyArgs& a) {
        kernel<<<stride_blocks(), kThreads>>>(a);
        CUDA_CHECK_LAUNCH();
    };
}

CannyLabSpec probe_spec() {
    CannyLabSpec spec;
    spec.lab.number = 8;
    spec.lab.title = "the Canny stages, ahead of the lab (tests/device/canny_stages.cu)";
    spec.lab.student_files = "tests/device/canny_stages.cu";
    spec.lab.default_mask = "gauss:5:1.4";
    spec.lab.max_mask_size = kLab6MaxMaskSize;
    spec.lab.default_width = spec.lab.default_height = 8192;
    spec.lab.default_channels = 1;
    spec.thresholds = {0.1f, 0.2f, true};
    const auto prepare = [](const Mask& mask) { copy_factors_to_constant(mask); };
    const CannyStage smoothing{"smoothing", 0, kCannySmoothed, 5, [](const CannyArgs& a) { launch_conv2d_fused(a.smoothing); }};
    const CannyStage gradients{"gradients", kCannySmoothed, kCannyMagnitude | kCannyDirection | kCannyMaxMagnitude, 9,
                               on_stride_grid(gradients_kernel)};
    const CannyStage suppression{"suppression", kCannyMagnitude | kCannyDirection, kCannySuppressed, 9, on_stride_grid(suppress_kernel)};
    const CannyStage fused{"gradients+suppression", kCannySmoothed, kCannySuppressed | kCannyMaxMagnitude, 8,
                           on_stride_grid(gradients_suppress_kernel<false>)};
    const CannyStage fused_squares{"gradients+suppression", kCannySmoothed, kCannySuppressed | kCannyMaxMagnitude, 8,
                                   on_stride_grid(gradients_suppress_kernel<true>)};
    const CannyStage thresholds{"thresholds", kCannySuppressed | kCannyMaxMagnitude, kCannyLabels, 5, on_stride_grid(threshold_kernel)};
    const CannyStage rounds{"hysteresis", kCannyLabels, kCannyEdges, 2, launch_hysteresis_rounds};
    const CannyStage union_find{"hysteresis", kCannyLabels, kCannyEdges, 2, launch_hysteresis_union_find};
    spec.pipelines = {
        {"staged", "gradients and suppression as two kernels; hysteresis by block-local rounds", prepare,
         {smoothing, gradients, suppression, thresholds, rounds}},
        {"fused", "gradients and suppression in one kernel; hysteresis by block-local rounds", prepare,
         {smoothing, fused, thresholds, rounds}},
        {"fused-squares", "square roots only where a pixel may survive suppression; hysteresis by union-find", prepare,
         {smoothing, fused_squares, thresholds, union_find}},
    };
    return spec;
}

}  // namespace

int main(int argc, char** argv) { return run_canny_lab(argc, argv, probe_spec()); }

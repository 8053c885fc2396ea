// Lab 8 — the Canny edge detector, stage 5: hysteresis, two ways. (Reference solution.)
//
// An edge is a pixel reachable from a Strong pixel through Weak ones, 8-connected: graph
// reachability. The rounds (the source's algorithm) propagate inside a block's tile until nothing
// changes there, then let the grid exchange frames and go again; an edge that winds through many
// tiles (a spiral) needs a round for each tile it re-enters. Union-find labels the components of
// Weak and Strong pixels in four passes, whatever their shape.
#include <cuda_runtime.h>

#include <algorithm>

#include "common/canny_rules.hpp"
#include "common/cuda_check.cuh"
#include "common/errors.hpp"
#include "common/stride_grid.cuh"
#include "labs/lab8/lab8.hpp"

using namespace convlab;

namespace {

constexpr int kThreads = 256;
constexpr int kTile = kLab8Tile;
static_assert(kTile * kTile <= 32 * kThreads, "a thread's pixels of a tile must fit the 32 bits of its sweep's mask");

// ---- the rounds --------------------------------------------------------------------------------

enum : uint8_t { kNone = 0, kWeak = 1, kEdge = 2 };

// A pixel's state as a round starts: in the first round the Strong pixels are the edges; later,
// those the last round wrote. Outside the image nothing.
__device__ uint8_t hysteresis_state(const CannyArgs& a, int x, int y, bool first_round) {
    if (x < 0 || y < 0 || x >= a.width || y >= a.height) return kNone;
    const size_t i = size_t(y) * a.width + x;
    const uint8_t label = a.d_labels[i];
    const bool edge = first_round ? label == uint8_t(EdgeLabel::Strong) : a.d_edges[i] == 255;
    return edge ? kEdge : label == uint8_t(EdgeLabel::Weak) ? kWeak : kNone;
}

// One round: a block a tile, its states with a one-pixel frame in shared memory, marked until
// nothing changes in the tile. A neighbouring block may write its edges while this one reads its
// frame: it only ever turns 0 into 255, so a read sees either the old state or a later one, and
// the next round sees the rest.
__global__ void __launch_bounds__(kThreads) hysteresis_round_kernel(CannyArgs a, bool first_round, int* d_marked) {
    __shared__ uint8_t s[kTile + 2][kTile + 2];
    const int tiles_x = (a.width + kTile - 1) / kTile;
    const int x0 = blockIdx.x % tiles_x * kTile, y0 = blockIdx.x / tiles_x * kTile;
    for (int n = threadIdx.x; n < (kTile + 2) * (kTile + 2); n += blockDim.x) {
        const int r = n / (kTile + 2), c = n % (kTile + 2);
        s[r][c] = hysteresis_state(a, x0 - 1 + c, y0 - 1 + r, first_round);
    }
    __syncthreads();
    // Sweeps until nothing changes in the tile. Each sweep reads every state first and writes
    // after a barrier: a pixel written while a neighbour's thread reads it would be a data race
    // (harmless here, since states only ever become edges, but a race racecheck rightly reports).
    bool marked_here = false, changed = true;
    while (changed) {
        unsigned joins = 0;  // bit k: the thread's k-th pixel, threadIdx.x + k * blockDim.x, becomes an edge
        for (int k = 0, n = threadIdx.x; n < kTile * kTile; ++k, n += blockDim.x) {
            const int r = n / kTile + 1, c = n % kTile + 1;
            if (s[r][c] != kWeak) continue;
            const bool joined = s[r - 1][c - 1] == kEdge || s[r - 1][c] == kEdge || s[r - 1][c + 1] == kEdge ||
                                s[r][c - 1] == kEdge || s[r][c + 1] == kEdge || s[r + 1][c - 1] == kEdge ||
                                s[r + 1][c] == kEdge || s[r + 1][c + 1] == kEdge;
            if (joined) joins |= 1u << k;
        }
        __syncthreads();
        for (int k = 0, n = threadIdx.x; n < kTile * kTile; ++k, n += blockDim.x)
            if (joins >> k & 1u) s[n / kTile + 1][n % kTile + 1] = kEdge;
        changed = __syncthreads_or(joins != 0);
        marked_here = marked_here || changed;
    }
    for (int n = threadIdx.x; n < kTile * kTile; n += blockDim.x) {
        const int r = n / kTile, c = n % kTile, x = x0 + c, y = y0 + r;
        if (x < a.width && y < a.height) a.d_edges[size_t(y) * a.width + x] = s[r + 1][c + 1] == kEdge ? 255 : 0;
    }
    if (marked_here && threadIdx.x == 0) *d_marked = 1;
}

// Rounds go in groups, each round with its own flag in the workspace, and the host reads the
// flags once a group: a round trip to the host every round cost more than the round (56 us on
// the H100). The groups double, 1, 2, 4 ... up to kMostRoundsAGroup, so that an image that needs
// few rounds runs few extra. The rounds after the first that marks nothing change nothing; the
// count stops at that one (it had to run to know).
constexpr int kMostRoundsAGroup = 64;

// ---- union-find --------------------------------------------------------------------------------
// parent[i]: a pixel's parent (itself at a root), kStrong set on a root whose component holds a
// Strong pixel, kOutside for a pixel neither Weak nor Strong.
constexpr unsigned kStrong = 0x80000000u, kOutside = 0xFFFFFFFFu;

__device__ unsigned find_root(const unsigned* parent, unsigned p) {
    for (;;) {
        const unsigned q = parent[p] & ~kStrong;
        if (q == p) return p;
        p = q;
    }
}

// Joins the components of a and b: the larger root is linked under the smaller, by compare-and-
// swap, so that two threads linking the same root do not lose a link.
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
        // Half of the 8 neighbours (right, and the row below): the other half join from their side.
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

}  // namespace

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

void launch_hysteresis_union_find(const CannyArgs& a) {
    if (a.pixels() >= kStrong) throw Unsupported("union-find numbers pixels in 31 bits: at most 2^31 - 1 pixels");
    unsigned* parent = static_cast<unsigned*>(a.d_workspace);
    const int blocks = stride_grid_blocks();
    union_init_kernel<<<blocks, kThreads>>>(a, parent);
    union_merge_kernel<<<blocks, kThreads>>>(a, parent);
    union_mark_kernel<<<blocks, kThreads>>>(a, parent);
    union_edges_kernel<<<blocks, kThreads>>>(a, parent);
    CUDA_CHECK_LAUNCH();
    const int one = 1;
    CUDA_CHECK(cudaMemcpy(a.d_rounds, &one, sizeof one, cudaMemcpyHostToDevice));
}

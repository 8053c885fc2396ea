// Lab 8 — the Canny edge detector, stage 5: hysteresis. A Weak pixel becomes an edge when it is
// 8-connected to a Strong one through Weak ones: which pixels can a Strong pixel reach?
// (Reference solution: the design the TODOs describe; the tuned kernels are its expert tier.)
//
// Build and run:   make lab8 && ./lab8 --variant fused,union-find
//                  ./lab8 --preset spiral      (an edge that needs many rounds)
#include <cuda_runtime.h>

#include "common/families/pipelines/canny_rules.hpp"
#include "common/device/cuda_check.cuh"
#include "common/core/errors.hpp"
#include "common/families/pipelines/stride_grid.cuh"
#include "labs/lab8/lab8.hpp"

using namespace convlab;

constexpr int kTile = kLab8Tile;  // a round's tile and block: kTile x kTile pixels, a thread each
constexpr int kThreads = 256;     // a block of union-find's grid-stride kernels
static_assert(kTile * kTile <= 1024, "a block a tile, a thread a pixel");
enum : uint8_t { kNone = 0, kWeak = 1, kEdge = 2 };

// A pixel's state as a round starts: an edge (in the first round a Strong label, later one the last
// round wrote), weak (a Weak label not yet an edge), or none, also outside the image.
__device__ uint8_t state_at(const CannyArgs& a, int x, int y, bool first_round) {
    if (x < 0 || y < 0 || x >= a.width || y >= a.height) return kNone;
    const size_t i = size_t(y) * a.width + x;
    const bool edge = first_round ? a.d_labels[i] == uint8_t(EdgeLabel::Strong) : a.d_edges[i] == 255;
    return edge ? kEdge : a.d_labels[i] == uint8_t(EdgeLabel::Weak) ? kWeak : kNone;
}

// One round, a block a tile: propagate inside the tile until nothing changes, from the edges in
// the tile and in its 1-pixel frame (the neighbouring tiles' pixels, read and never written).
__global__ void __launch_bounds__(kTile * kTile) hysteresis_round_kernel(CannyArgs a, bool first_round, int* d_marked) {
    constexpr int kS = kTile + 2;
    __shared__ uint8_t s_state[kS][kS];  // s_state[r][c]: pixel (x0 - 1 + c, y0 - 1 + r)
    const int x0 = blockIdx.x * kTile, y0 = blockIdx.y * kTile, r = threadIdx.y + 1, c = threadIdx.x + 1;  // own pixel s_state[r][c]
    for (int j = threadIdx.y * kTile + threadIdx.x; j < kS * kS; j += kTile * kTile)
        s_state[j / kS][j % kS] = state_at(a, x0 - 1 + j % kS, y0 - 1 + j / kS, first_round);
    __syncthreads();
    int sweeps = 0;  // that marked a pixel (the loop ends at the first that marks none)
    for (;; ++sweeps) {
        bool edge_near = false;  // a sweep: every state read first, ...
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) edge_near |= s_state[r + dy][c + dx] == kEdge;
        const bool grows = s_state[r][c] == kWeak && edge_near;
        __syncthreads();  // ... then written: no thread marks a pixel while another reads it
        if (grows) s_state[r][c] = kEdge;
        if (!__syncthreads_or(grows)) break;  // a barrier too: the writes land before the next reads
    }
    const int x = x0 + threadIdx.x, y = y0 + threadIdx.y;
    if (x < a.width && y < a.height) a.d_edges[size_t(y) * a.width + x] = s_state[r][c] == kEdge ? 255 : 0;
    if (sweeps > 0 && r == 1 && c == 1) *d_marked = 1;  // the block marked a pixel
}

// Rounds until one marks nothing anywhere, the flag read by the host after every round (a round
// trip a round: question 4 asks what it costs). The count includes the round that marked nothing.
void launch_hysteresis_rounds(const CannyArgs& a) {
    int* d_marked = static_cast<int*>(a.d_workspace);
    const dim3 tiles((a.width + kTile - 1) / kTile, (a.height + kTile - 1) / kTile);
    int rounds = 0;
    for (int marked = 1; marked; ++rounds) {
        CUDA_CHECK(cudaMemsetAsync(d_marked, 0, sizeof(int)));
        hysteresis_round_kernel<<<tiles, dim3(kTile, kTile)>>>(a, rounds == 0, d_marked);
        CUDA_CHECK_LAUNCH();
        CUDA_CHECK(cudaMemcpy(&marked, d_marked, sizeof marked, cudaMemcpyDeviceToHost));
    }
    CUDA_CHECK(cudaMemcpy(a.d_rounds, &rounds, sizeof rounds, cudaMemcpyHostToDevice));
}

// Union-find: parent[i] a pixel's parent (itself at a root), kOutside for a pixel neither Weak nor
// Strong, kStrong set on a root whose component holds a Strong pixel.
constexpr unsigned kStrong = 0x80000000u, kOutside = 0xFFFFFFFFu;

__device__ unsigned find_root(const unsigned* parent, unsigned p) {
    for (unsigned q; (q = parent[p] & ~kStrong) != p;) p = q;
    return p;
}

// Joins the components of p and q: the larger root linked under the smaller by compare-and-swap,
// which fails (and the join starts again) if another thread linked that root first.
__device__ void unite(unsigned* parent, unsigned p, unsigned q) {
    for (;;) {
        p = find_root(parent, p), q = find_root(parent, q);
        if (p == q) return;
        const unsigned larger = max(p, q), smaller = min(p, q);
        if (atomicCAS(&parent[larger], larger, smaller) == larger) return;
    }
}

// Union-find, four grid-stride passes: every Weak and Strong pixel its own root; each joined with
// its neighbours right, down-left, down and down-right (the other four join it from their side);
// each Strong pixel flags its root; a pixel is an edge where its root is flagged.
__global__ void union_init_kernel(CannyArgs a, unsigned* parent) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < a.pixels(); i += size_t(gridDim.x) * blockDim.x)
        parent[i] = a.d_labels[i] == uint8_t(EdgeLabel::None) ? kOutside : unsigned(i);
}

__global__ void union_merge_kernel(CannyArgs a, unsigned* parent) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < a.pixels(); i += size_t(gridDim.x) * blockDim.x) {
        if (parent[i] == kOutside) continue;
        const int x = int(i % a.width), y = int(i / a.width);
        const int dx[4] = {1, -1, 0, 1}, dy[4] = {0, 1, 1, 1};
        for (int d = 0; d < 4; ++d) {
            const int nx = x + dx[d], ny = y + dy[d];
            if (nx < 0 || nx >= a.width || ny >= a.height) continue;
            const size_t j = size_t(ny) * a.width + nx;
            if (parent[j] != kOutside) unite(parent, unsigned(i), unsigned(j));
        }
    }
}

__global__ void union_mark_kernel(CannyArgs a, unsigned* parent) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < a.pixels(); i += size_t(gridDim.x) * blockDim.x)
        if (a.d_labels[i] == uint8_t(EdgeLabel::Strong)) atomicOr(&parent[find_root(parent, unsigned(i))], kStrong);
}

__global__ void union_edges_kernel(CannyArgs a, const unsigned* parent) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < a.pixels(); i += size_t(gridDim.x) * blockDim.x)
        a.d_edges[i] = parent[i] != kOutside && (parent[find_root(parent, unsigned(i))] & kStrong) ? 255 : 0;
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

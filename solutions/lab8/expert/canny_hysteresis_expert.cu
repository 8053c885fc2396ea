// Lab 8 — the Canny edge detector, stage 5: hysteresis by rounds, tuned. The expert tier: the
// kit's tuned rounds beside the reference solution's design (solutions/lab8/canny_hysteresis.cu), in
// the expert pipelines (canny_pipelines_expert.cpp); the reference solution's program only.
// Union-find needs no tuning beyond the design's: the expert pipeline runs the design's.
//
// An edge is a pixel reachable from a Strong pixel through Weak ones, 8-connected: graph
// reachability. The rounds (the source's algorithm) propagate inside a tile until nothing changes
// there, then let the grid exchange frames and go again; an edge that winds through many
// tiles (a spiral) needs a round for each tile it re-enters.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/families/pipelines/canny_rules.hpp"
#include "common/device/cuda_check.cuh"
#include "labs/lab8/lab8.hpp"
#include "solutions/lab8/expert/canny_expert.hpp"

using namespace convlab;

namespace lab8_expert {  // beside the design tier's symbols of the same names

namespace {

constexpr int kThreads = 256;
constexpr int kTile = kLab8Tile;

// ---- the rounds --------------------------------------------------------------------------------
// A warp owns a tile, a lane one of its rows, held as two bit masks in registers: bit c + 1 for
// the tile's column c, bits 0 and kTile + 1 for the frame's columns (the neighbouring tiles'
// pixels, which a round reads but does not mark). A sweep of the whole row is a few integer
// operations, and rows meet through shuffles: no shared memory, no barrier.
static_assert(kTile == 32, "a lane holds a row of the tile, and a ballot over the warp builds one");
constexpr int kTilesABlock = kThreads / 32;

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

// The edges, and every unmarked weak bit that a run of weak bits joins to an edge below it:
// adding the edges shifted up one to the unmarked weak bits starts a carry just above each edge,
// which runs through the weak bits above it, clearing them, and stops at the first bit that is
// not an unmarked weak one.
__device__ uint64_t join_along_row_upward(uint64_t edge, uint64_t weak) {
    const uint64_t open = weak & ~edge;
    return edge | (open & ~(open + (edge << 1)));
}

// Every weak pixel that a run of weak pixels joins to an edge in the same row, either side.
__device__ uint64_t join_along_row(uint64_t edge, uint64_t weak) {
    edge = join_along_row_upward(edge, weak);
    return __brevll(join_along_row_upward(__brevll(edge), __brevll(weak)));
}

// Row y's masks, lane c reading column x0 + c (a 32-byte segment) and a ballot making the masks
// (shifted to bit c + 1), in every lane.
struct RowMasks {
    uint64_t edge, weak;
};
__device__ RowMasks row_by_ballot(const CannyArgs& a, int x0, int y, bool first_round) {
    const uint8_t s = hysteresis_state(a, x0 + threadIdx.x % 32, y, first_round);
    return {uint64_t(__ballot_sync(~0u, s == kEdge)) << 1, uint64_t(__ballot_sync(~0u, s == kWeak)) << 1};
}

// A row of a tile as eight 4-byte words, read and written in the widest loads its alignment
// allows (`step` 16, 8 or 4 bytes: the row's start, the image's width and both buffers share it).
struct RowWords {
    unsigned w[8];
};
__device__ RowWords load_row(const uint8_t* row, int step) {
    RowWords r;
    if (step == 16) {
        const uint4 lo = reinterpret_cast<const uint4*>(row)[0], hi = reinterpret_cast<const uint4*>(row)[1];
        r = {{lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w}};
    } else if (step == 8) {
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const uint2 v = reinterpret_cast<const uint2*>(row)[k];
            r.w[2 * k] = v.x, r.w[2 * k + 1] = v.y;
        }
    } else {
#pragma unroll
        for (int k = 0; k < 8; ++k) r.w[k] = reinterpret_cast<const unsigned*>(row)[k];
    }
    return r;
}
__device__ void store_row(uint8_t* row, int step, const RowWords& r) {
    if (step == 16) {
        reinterpret_cast<uint4*>(row)[0] = make_uint4(r.w[0], r.w[1], r.w[2], r.w[3]);
        reinterpret_cast<uint4*>(row)[1] = make_uint4(r.w[4], r.w[5], r.w[6], r.w[7]);
    } else if (step == 8) {
#pragma unroll
        for (int k = 0; k < 4; ++k) reinterpret_cast<uint2*>(row)[k] = make_uint2(r.w[2 * k], r.w[2 * k + 1]);
    } else {
#pragma unroll
        for (int k = 0; k < 8; ++k) reinterpret_cast<unsigned*>(row)[k] = r.w[k];
    }
}

// Bit c set where byte c of the row is equal to `value`: __vcmpeq4 makes a matching byte 0xFF, and
// the multiply gathers the low bits of a word's four bytes into its top four bits.
__device__ unsigned bytes_equal(const RowWords& row, uint8_t value) {
    unsigned mask = 0;
#pragma unroll
    for (int k = 0; k < 8; ++k) mask |= (((__vcmpeq4(row.w[k], value * 0x01010101u) & 0x01010101u) * 0x10204080u) >> 28) << (4 * k);
    return mask;
}

// Each bit of a row's mask as a byte, 0 or 255: the multiply spreads four bits to four bytes.
__device__ RowWords bytes_of_bits(unsigned bits) {
    RowWords r;
#pragma unroll
    for (int k = 0; k < 8; ++k) r.w[k] = (((bits >> (4 * k) & 15u) * 0x00204081u) & 0x01010101u) * 255u;
    return r;
}

// One round: a warp a tile, its rows and a one-pixel frame read into masks, then marked until
// nothing changes in the tile. A neighbouring tile's warp may write its edges while this one
// reads its frame: it only ever turns 0 into 255, so a read sees either the old state or a later
// one, and the next round sees the rest.
__global__ void __launch_bounds__(kThreads) hysteresis_round_kernel(CannyArgs a, bool first_round, int* d_marked) {
    const int lane = threadIdx.x % 32;
    const int tiles_x = (a.width + kTile - 1) / kTile, tiles_y = (a.height + kTile - 1) / kTile;
    const int tile = blockIdx.x * kTilesABlock + threadIdx.x / 32;
    if (tile >= tiles_x * tiles_y) return;  // the whole warp
    const int x0 = tile % tiles_x * kTile, y0 = tile / tiles_x * kTile;
    // A tile inside the image whose rows start on 4 bytes or more (most of them, when the width is
    // a multiple of 4): lane r reads row r of the labels and the edges in 16-, 8- or 4-byte words,
    // 4 to 16 loads in flight a lane instead of 64 one-byte ones, and makes the masks itself. Any
    // other tile: row by row, by ballots.
    const unsigned alignment = unsigned(a.width) | unsigned(reinterpret_cast<uintptr_t>(a.d_labels)) |
                               unsigned(reinterpret_cast<uintptr_t>(a.d_edges));
    const int step = alignment % 16 == 0 ? 16 : alignment % 8 == 0 ? 8 : alignment % 4 == 0 ? 4 : 0;
    const bool whole_rows = step != 0 && x0 + kTile <= a.width && y0 + kTile <= a.height;
    const size_t row_start = size_t(y0 + lane) * a.width + x0;
    uint64_t edge = 0, weak = 0;
    if (whole_rows) {
        const RowWords labels = load_row(a.d_labels + row_start, step);
        const unsigned e = first_round ? bytes_equal(labels, uint8_t(EdgeLabel::Strong)) : bytes_equal(load_row(a.d_edges + row_start, step), 255);
        edge = uint64_t(e) << 1;
        weak = uint64_t(bytes_equal(labels, uint8_t(EdgeLabel::Weak)) & ~e) << 1;
    } else {
#pragma unroll
        for (int r = 0; r < kTile; ++r) {
            const RowMasks row = row_by_ballot(a, x0, y0 + r, first_round);
            if (r == lane) edge = row.edge, weak = row.weak;
        }
    }
    uint64_t edge_above = row_by_ballot(a, x0, y0 - 1, first_round).edge, edge_below = row_by_ballot(a, x0, y0 + kTile, first_round).edge;
    // The frame's columns: lane r's own row's two, and the four corners.
    const auto frame_bits = [&](int y) {
        return uint64_t(hysteresis_state(a, x0 - 1, y, first_round) == kEdge) |
               uint64_t(hysteresis_state(a, x0 + kTile, y, first_round) == kEdge) << (kTile + 1);
    };
    edge |= frame_bits(y0 + lane);
    edge_above |= frame_bits(y0 - 1);
    edge_below |= frame_bits(y0 + kTile);
    // Sweeps until nothing changes: along each row whole, then one step to the rows above and below.
    const uint64_t started = edge;
    for (;;) {
        edge = join_along_row(edge, weak);
        uint64_t above = __shfl_up_sync(~0u, edge, 1), below = __shfl_down_sync(~0u, edge, 1);
        if (lane == 0) above = edge_above;
        if (lane == kTile - 1) below = edge_below;
        const uint64_t near = above | edge | below;
        const uint64_t grown = edge | (weak & (near | near << 1 | near >> 1));
        if (!__any_sync(~0u, grown != edge)) break;
        edge = grown;
    }
    if (whole_rows) {
        store_row(a.d_edges + row_start, step, bytes_of_bits(unsigned(edge >> 1)));
    } else {
        const int x = x0 + lane;  // back row by row, lane c writing column c
        for (int r = 0; r < kTile; ++r) {
            const uint64_t row = __shfl_sync(~0u, edge, r);
            const int y = y0 + r;
            if (x < a.width && y < a.height) a.d_edges[size_t(y) * a.width + x] = row >> (lane + 1) & 1 ? 255 : 0;
        }
    }
    if (__any_sync(~0u, edge != started) && lane == 0) *d_marked = 1;
}

// Rounds go in groups, each round with its own flag in the workspace, and the host reads the
// flags once a group: a round trip to the host every round cost more than the round (56 us on
// the H100). The groups double, 1, 2, 4 ... up to kMostRoundsAGroup, so that an image that needs
// few rounds runs few extra. The rounds after the first that marks nothing change nothing; the
// count stops at that one (it had to run to know).
constexpr int kMostRoundsAGroup = 64;

}  // namespace

void launch_hysteresis_rounds(const CannyArgs& a) {
    const int tiles = ((a.width + kTile - 1) / kTile) * ((a.height + kTile - 1) / kTile);
    const int blocks = (tiles + kTilesABlock - 1) / kTilesABlock;
    int* d_marked = static_cast<int*>(a.d_workspace);
    int marked[kMostRoundsAGroup];
    int rounds = 0;
    for (int group = 1, launched = 0;; group = std::min(2 * group, kMostRoundsAGroup)) {
        CUDA_CHECK(cudaMemsetAsync(d_marked, 0, group * sizeof(int)));
        for (int r = 0; r < group; ++r) hysteresis_round_kernel<<<blocks, kThreads>>>(a, launched + r == 0, d_marked + r);
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

}  // namespace lab8_expert

// Lab 8 — the Canny edge detector, stage 5: hysteresis. A Weak pixel becomes an edge when it is
// 8-connected to a Strong one through Weak ones: which pixels can a Strong pixel reach?
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

__global__ void hysteresis_round_kernel(CannyArgs a, bool first_round, int* d_marked) {
    // TODO(lab8), part 5: one round, a block a tile:
    //   1. The tile's states with a 1-pixel frame into shared memory: edge (in the first round a
    //      Strong label; later a.d_edges == 255), weak (a Weak label not yet an edge), or none
    //      (also outside the image). __syncthreads().
    //   2. Repeat until nothing changes in the tile (__syncthreads_or): each weak pixel with an
    //      edge among its 8 neighbours becomes an edge. Read every state of a sweep first, then
    //      __syncthreads(), then write: marking a pixel while a neighbour's thread reads it is a
    //      race (compute-sanitizer racecheck reports it, and it is graded).
    //   3. a.d_edges for the tile's pixels (255 or 0); *d_marked = 1 if the block marked any.
    (void)a, (void)first_round, (void)d_marked;
}

void launch_hysteresis_rounds(const CannyArgs& a) {
    // TODO(lab8): rounds of hysteresis_round_kernel until one marks nothing anywhere, a flag in
    //   a.d_workspace read by the host (reading it after every round costs a round trip: the
    //   handout asks what to do about that). Then the rounds it took into *a.d_rounds.
    (void)a;
    todo("launch_hysteresis_rounds");
}

void launch_hysteresis_union_find(const CannyArgs& a) {
    // TODO(lab8), part 6 (the second variant): the connected components of the Weak and Strong
    //   pixels, a parent index a pixel in a.d_workspace, joined with atomicCAS; a component is
    //   edges if it holds a Strong pixel. *a.d_rounds = 1.
    (void)a;
    todo("launch_hysteresis_union_find");
}

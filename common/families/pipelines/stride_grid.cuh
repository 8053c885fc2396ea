// convlab harness — do not edit in a lab.
// The grid of a grid-stride loop: a fixed number of blocks on each multiprocessor of the current
// device, each looping over the work with a stride of the whole grid. Few enough blocks that one
// atomic a block (a reduction's last step) is cheap; enough to keep every multiprocessor busy.
#pragma once
#include <cuda_runtime.h>

#include "common/device/cuda_check.cuh"

namespace convlab {

inline int stride_grid_blocks(int blocks_per_multiprocessor = 8) {
    int device = 0, multiprocessors = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
    return blocks_per_multiprocessor * multiprocessors;
}

}  // namespace convlab

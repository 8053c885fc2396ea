// convlab harness — do not edit in a lab.
// The harness's loops over the GPUs a lab 9 variant uses: each device made current in turn, and
// the caller's current device made current again however the loop ends.
#pragma once
#include <cuda_runtime.h>

#include "common/device/cuda_check.cuh"

namespace convlab {

// fn(d) with device d current, for d = 0 .. gpus-1.
template <class Fn>
void for_each_gpu(int gpus, Fn fn) {
    struct Restore {
        int device = 0;
        ~Restore() { cudaSetDevice(device); }  // no check: a destructor must not throw
    } restore;
    CUDA_CHECK(cudaGetDevice(&restore.device));
    for (int d = 0; d < gpus; ++d) {
        CUDA_CHECK(cudaSetDevice(d));
        fn(d);
    }
}

}  // namespace convlab

// What the NPP peers under tests/device/ (npp_box.cu, npp_separable.cu) share: error checks that
// exit with the failing call named, an L2 eviction between timed reps, and the stream context
// NPP's _Ctx functions take (the default stream of the current device).
#pragma once
#include <cuda_runtime.h>
#include <npp.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>

#define CUDA(x) do { cudaError_t e = (x); if (e != cudaSuccess) { std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e)); std::exit(1); } } while (0)
#define NPP(x) do { NppStatus s = (x); if (s != NPP_SUCCESS) { std::fprintf(stderr, "%s: NPP status %d\n", #x, int(s)); std::exit(1); } } while (0)

namespace npp_peer {

// Reads a buffer larger than the L2 so that the next rep starts cold.
__global__ void evict(const float4* p, size_t n, float* sink) {
    float s = 0;
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) s += p[i].x;
    if (s == 1234.5f) *sink = s;  // never true: keeps the reads
}

inline NppStreamContext context() {
    NppStreamContext c{};
    int device = 0;
    CUDA(cudaGetDevice(&device));
    cudaDeviceProp prop{};
    CUDA(cudaGetDeviceProperties(&prop, device));
    c.hStream = 0;
    c.nCudaDeviceId = device;
    c.nMultiProcessorCount = prop.multiProcessorCount;
    c.nMaxThreadsPerMultiProcessor = prop.maxThreadsPerMultiProcessor;
    c.nMaxThreadsPerBlock = prop.maxThreadsPerBlock;
    c.nSharedMemPerBlock = prop.sharedMemPerBlock;
    c.nCudaDevAttrComputeCapabilityMajor = prop.major;
    c.nCudaDevAttrComputeCapabilityMinor = prop.minor;
    CUDA(cudaStreamGetFlags(0, &c.nStreamFlags));
    return c;
}

}  // namespace npp_peer

// What the NPP peers under measurements/ (npp_box.cu, npp_separable.cu) share: error checks that
// exit with the failing call named, the timing of their reps (output poisoned and L2 evicted
// before each, CUDA events around the call), the stream context NPP's _Ctx functions take (the
// default stream of the current device) and the JSON line of a case.
#pragma once
#include <cuda_runtime.h>
#include <npp.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CUDA(x) do { cudaError_t e = (x); if (e != cudaSuccess) { std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e)); std::exit(1); } } while (0)
#define NPP(x) do { NppStatus s = (x); if (s != NPP_SUCCESS) { std::fprintf(stderr, "%s: NPP status %d\n", #x, int(s)); std::exit(1); } } while (0)

namespace npp_peer {

// Reads a buffer larger than the L2 so that the next rep starts cold.
__global__ void evict(const float4* p, size_t n, float* sink) {
    float s = 0;
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) s += p[i].x;
    if (s == 1234.5f) *sink = s;  // never true: keeps the reads
}

// The peers' input: n pseudo-random pixels 0..255 (the same in every peer: an LCG from 12345),
// as T (8-bit for NPP's 8u functions, float for its 32f ones).
template <class T>
std::vector<T> random_pixels(size_t n) {
    std::vector<T> pixels(n);
    unsigned state = 12345;
    for (T& v : pixels) v = T((state = state * 1664525u + 1013904223u) >> 24);
    return pixels;
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

// Times a call as METHOD.md asks: 3 warm-ups, then 15 reps, each after `poison` (the output set to
// a value the call must overwrite) and an eviction of the L2, between CUDA events. The 15 times
// come back sorted: median at [7], minimum at [0].
class RepTimer {
  public:
    RepTimer() {
        cudaDeviceProp prop{};
        CUDA(cudaGetDeviceProperties(&prop, 0));
        sms_ = prop.multiProcessorCount;
        flush_float4s_ = 2 * size_t(prop.l2CacheSize) / sizeof(float4);  // twice the L2
        CUDA(cudaMalloc(&flush_, flush_float4s_ * sizeof(float4)));
        CUDA(cudaMemset(flush_, 0, flush_float4s_ * sizeof(float4)));
        CUDA(cudaMalloc(&sink_, sizeof(float)));
        CUDA(cudaEventCreate(&start_));
        CUDA(cudaEventCreate(&stop_));
    }

    template <class Poison, class Call>
    std::vector<float> time(Poison poison, Call call) const {
        std::vector<float> ms;
        for (int rep = 0; rep < 18; ++rep) {
            poison();
            evict<<<4 * sms_, 256>>>(flush_, flush_float4s_, sink_);
            CUDA(cudaEventRecord(start_));
            call();
            CUDA(cudaEventRecord(stop_));
            CUDA(cudaEventSynchronize(stop_));
            float t = 0;
            CUDA(cudaEventElapsedTime(&t, start_, stop_));
            if (rep >= 3) ms.push_back(t);
        }
        std::sort(ms.begin(), ms.end());
        return ms;
    }

  private:
    int sms_ = 0;
    size_t flush_float4s_ = 0;
    float4* flush_ = nullptr;
    float* sink_ = nullptr;
    cudaEvent_t start_{}, stop_{};
};

// One case of the peer's JSON "cases" list (`first`: no comma before it).
inline void print_case(bool first, int k, const std::vector<float>& sorted_ms, double max_abs_error) {
    std::printf("%s{\"k\": %d, \"median_ms\": %.4f, \"min_ms\": %.4f, \"max_abs_error\": %.3g}", first ? "" : ", ", k,
                sorted_ms[sorted_ms.size() / 2], sorted_ms.front(), max_abs_error);
}

}  // namespace npp_peer

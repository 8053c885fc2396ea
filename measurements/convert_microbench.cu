// Which store and load shape lets 8-bit -> float conversion (the labs' byte model with a 1x1 mask)
// reach the copy bandwidth? Four conversion kernels over 8192x8192 values, CUDA events, L2 evicted
// by a read pass before each rep, median of 15, against a cudaMemcpy device-to-device copy.
//   nvcc -O3 -arch=sm_90 -o /tmp/convert measurements/convert_microbench.cu && /tmp/convert
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

__global__ void evict(const uint4* p, size_t n, unsigned* sink) {
    unsigned f = 0;
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) f ^= p[i].x;
    if (f == 0x9E3779B9u) *sink = f;
}

// 4 values per thread: one 4-byte load, one 16-byte store (what the register kernel does).
template <bool kStreaming>
__global__ void convert4(const uchar4* in, float4* out, size_t n4) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n4; i += size_t(gridDim.x) * blockDim.x) {
        const uchar4 b = in[i];
        const float4 v = make_float4(b.x, b.y, b.z, b.w);
        if (kStreaming) __stcs(out + i, v); else out[i] = v;
    }
}

// 16 values per thread: one 16-byte load, four 16-byte stores.
template <bool kStreaming>
__global__ void convert16(const uint4* in, float4* out, size_t n16) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n16; i += size_t(gridDim.x) * blockDim.x) {
        const uint4 w = in[i];
        const unsigned words[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
        for (int q = 0; q < 4; ++q) {
            const float4 v = make_float4(words[q] & 0xFF, (words[q] >> 8) & 0xFF, (words[q] >> 16) & 0xFF, words[q] >> 24);
            if (kStreaming) __stcs(out + 4 * i + q, v); else out[4 * i + q] = v;
        }
    }
}

int main() {
    const size_t n = size_t(8192) * 8192;
    uint8_t* in; float* out; uint8_t* flush; unsigned* sink;
    CHECK(cudaMalloc(&in, n)); CHECK(cudaMalloc(&out, n * 4)); CHECK(cudaMalloc(&flush, size_t(120) << 20)); CHECK(cudaMalloc(&sink, 4));
    CHECK(cudaMemset(in, 7, n)); CHECK(cudaMemset(flush, 1, size_t(120) << 20));
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    auto time = [&](auto launch) {
        std::vector<float> t;
        for (int rep = 0; rep < 17; ++rep) {
            evict<<<528, 512>>>((const uint4*)flush, (size_t(120) << 20) / 16, sink);
            cudaEventRecord(a); launch(); cudaEventRecord(b); cudaEventSynchronize(b);
            float ms; cudaEventElapsedTime(&ms, a, b); if (rep >= 2) t.push_back(ms);
        }
        std::sort(t.begin(), t.end()); return t[t.size() / 2];
    };
    const double copy_ms = time([&] { cudaMemcpyAsync(out, out + n / 2, n * 2, cudaMemcpyDeviceToDevice); });
    const double copy = 2.0 * n * 2 / copy_ms / 1e6;
    printf("copy %.0f GB/s\n", copy);
    auto report = [&](const char* name, double ms) { printf("%-34s %.3f ms  %.1f%% of copy under the 5-byte model\n", name, ms, 100 * 5.0 * n / ms / 1e6 / copy); };
    for (int grid : {132 * 8, 132 * 32, int(n / 4 / 256)}) {
        char name[64];
        snprintf(name, sizeof name, "4/thread plain, %d blocks", grid);
        report(name, time([&] { convert4<false><<<grid, 256>>>((const uchar4*)in, (float4*)out, n / 4); }));
        snprintf(name, sizeof name, "4/thread streaming, %d blocks", grid);
        report(name, time([&] { convert4<true><<<grid, 256>>>((const uchar4*)in, (float4*)out, n / 4); }));
    }
    for (int grid : {132 * 8, 132 * 32, int(n / 16 / 256)}) {
        char name[64];
        snprintf(name, sizeof name, "16/thread plain, %d blocks", grid);
        report(name, time([&] { convert16<false><<<grid, 256>>>((const uint4*)in, (float4*)out, n / 16); }));
        snprintf(name, sizeof name, "16/thread streaming, %d blocks", grid);
        report(name, time([&] { convert16<true><<<grid, 256>>>((const uint4*)in, (float4*)out, n / 16); }));
    }
    CHECK(cudaGetLastError());
    return 0;
}

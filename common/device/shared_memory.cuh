// convlab harness — do not edit in a lab.
// Dynamic shared memory above the default 48 KB per block must be asked for per kernel
// (cudaFuncSetAttribute), up to the device's opt-in limit (227 KB on Hopper, 99 KB on sm_86/89).
#pragma once
#include <cuda_runtime.h>

#include <string>

#include "common/device/cuda_check.cuh"

namespace convlab {

// Allows `kernel` to be launched with `bytes` of dynamic shared memory. Throws Unsupported
// (the variant is skipped with this reason) when the device cannot give that much.
template <class Kernel>
void allow_dynamic_shared_memory(Kernel kernel, size_t bytes, const char* kernel_name) {
    constexpr size_t kDefaultLimit = 48 * 1024;
    if (bytes <= kDefaultLimit) return;
    int device = 0, optin = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    if (bytes > size_t(optin))
        throw Unsupported(std::string(kernel_name) + " needs " + std::to_string(bytes / 1024) +
                          " KB of shared memory per block for this mask and channel count; this GPU allows " +
                          std::to_string(optin / 1024) + " KB");
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
}

}  // namespace convlab

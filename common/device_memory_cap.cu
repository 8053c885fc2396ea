// convlab harness — do not edit in a lab.
#include "common/device_memory_cap.hpp"

#include <cuda_runtime.h>

#include "common/cuda_check.cuh"
#include "common/errors.hpp"

namespace convlab {

namespace {

// Restores the caller's current device on every way out.
struct CurrentDevice {
    int saved = 0;
    CurrentDevice() { CUDA_CHECK(cudaGetDevice(&saved)); }
    ~CurrentDevice() { cudaSetDevice(saved); }
};

}  // namespace

DeviceMemoryCap::DeviceMemoryCap(int gpus, size_t budget) {
    CurrentDevice restore;
    try {
        for (int d = 0; d < gpus; ++d) {
            CUDA_CHECK(cudaSetDevice(d));
            size_t free = 0, total = 0;
            CUDA_CHECK(cudaMemGetInfo(&free, &total));
            if (free < budget + kDeviceMemorySlack)
                throw InputError("--gpu-memory " + std::to_string(budget >> 20) + " MiB: GPU " + std::to_string(d) + " has only " +
                                 std::to_string(free >> 20) + " MiB free; accepted: less than that");
            void* ballast = nullptr;
            const size_t held = free - budget - kDeviceMemorySlack;
            if (held > 0) CUDA_CHECK(cudaMalloc(&ballast, held));
            held_.push_back(ballast);
        }
    } catch (...) {
        for (size_t d = 0; d < held_.size(); ++d) cudaSetDevice(int(d)), cudaFree(held_[d]);
        throw;
    }
}

DeviceMemoryCap::~DeviceMemoryCap() {
    CurrentDevice restore;
    for (size_t d = 0; d < held_.size(); ++d) {
        cudaSetDevice(int(d));
        cudaFree(held_[d]);
    }
}

std::vector<size_t> free_device_bytes(int gpus) {
    CurrentDevice restore;
    std::vector<size_t> free(gpus);
    for (int d = 0; d < gpus; ++d) {
        size_t total = 0;
        CUDA_CHECK(cudaSetDevice(d));
        CUDA_CHECK(cudaMemGetInfo(&free[d], &total));
    }
    return free;
}

}  // namespace convlab

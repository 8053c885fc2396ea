// convlab harness — do not edit in a lab.
#include "common/device_memory_cap.hpp"

#include <cuda_runtime.h>

#include "common/each_gpu.cuh"
#include "common/errors.hpp"

namespace convlab {

DeviceMemoryCap::DeviceMemoryCap(int gpus, size_t budget) {
    try {
        for_each_gpu(gpus, [&](int d) {
            size_t free = 0, total = 0;
            CUDA_CHECK(cudaMemGetInfo(&free, &total));
            if (free < budget + kDeviceMemorySlack)
                throw InputError("--gpu-memory " + std::to_string(budget >> 20) + " MiB: GPU " + std::to_string(d) + " has only " +
                                 std::to_string(free >> 20) + " MiB free; accepted: less than that");
            void* ballast = nullptr;
            const size_t held = free - budget - kDeviceMemorySlack;
            if (held > 0) CUDA_CHECK(cudaMalloc(&ballast, held));
            held_.push_back(ballast);
        });
    } catch (...) {
        release();
        throw;
    }
}

DeviceMemoryCap::~DeviceMemoryCap() { release(); }

void DeviceMemoryCap::release() noexcept {
    int current = 0;
    cudaGetDevice(&current);
    for (size_t d = 0; d < held_.size(); ++d) {
        cudaSetDevice(int(d));
        cudaFree(held_[d]);  // no check: it runs on the way out of errors too
    }
    held_.clear();
    cudaSetDevice(current);
}

std::vector<size_t> free_device_bytes(int gpus) {
    std::vector<size_t> free(gpus);
    for_each_gpu(gpus, [&](int d) {
        size_t total = 0;
        CUDA_CHECK(cudaMemGetInfo(&free[d], &total));
    });
    return free;
}

}  // namespace convlab

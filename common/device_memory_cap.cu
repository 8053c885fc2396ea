// convlab harness — do not edit in a lab.
#include "common/device_memory_cap.hpp"

#include <cuda_runtime.h>

#include <algorithm>

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
            held_bytes_.push_back(held);
            CUDA_CHECK(cudaMemGetInfo(&free, &total));
            free_placed_.push_back(free);
        });
    } catch (...) {
        release();
        throw;
    }
}

DeviceMemoryCap::~DeviceMemoryCap() { release(); }

int DeviceMemoryCap::first_device_released() const {
    const std::vector<size_t> free = free_device_bytes(int(held_.size()));
    for (size_t d = 0; d < held_.size(); ++d)
        if (free[d] > free_placed_[d] + std::max(kDeviceMemorySlack, held_bytes_[d] / 2)) return int(d);
    return -1;
}

void DeviceMemoryCap::release() noexcept {
    int current = 0;
    cudaGetDevice(&current);
    for (size_t d = 0; d < held_.size(); ++d) {
        cudaSetDevice(int(d));
        cudaFree(held_[d]);  // no check: it runs on the way out of errors too
    }
    held_.clear();
    held_bytes_.clear();
    free_placed_.clear();
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

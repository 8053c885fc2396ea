// convlab harness — do not edit in a lab.
#include "common/families/strips/device_memory_cap.hpp"

#include <cuda_runtime.h>

#include <algorithm>

#include "common/families/strips/each_gpu.cuh"
#include "common/core/errors.hpp"
#include "common/core/number_format.hpp"
#include "common/device/device_info.hpp"

namespace convlab {

DeviceMemoryCap::DeviceMemoryCap(int gpus, size_t budget, size_t slack)
    : DeviceMemoryCap(budget, std::vector<size_t>(size_t(std::max(gpus, 0)), slack)) {}

DeviceMemoryCap::DeviceMemoryCap(size_t budget, const std::vector<size_t>& slack) {
    try {
        for_each_gpu(int(slack.size()), [&](int d) {
            size_t free = 0, total = 0;
            CUDA_CHECK(cudaMemGetInfo(&free, &total));
            if (free < budget + slack[d])
                throw InputError("--gpu-memory " + format_bytes(double(budget)) + ": GPU " + std::to_string(d) + " has only " +
                                 format_bytes(double(free)) + " free; accepted: less than that");
            Hold hold;
            hold.bytes = free - budget - slack[d];
            if (hold.bytes > 0) CUDA_CHECK(cudaMalloc(&hold.ballast, hold.bytes));
            held_.push_back(hold);  // before anything else can throw: release() frees it
            CUDA_CHECK(cudaMemGetInfo(&held_.back().free_placed, &total));
        });
    } catch (...) {
        release();
        throw;
    }
}

DeviceMemoryCap::~DeviceMemoryCap() { release(); }

std::string DeviceMemoryCap::hold_released() const {
    const std::vector<size_t> free = free_device_bytes(int(held_.size()));
    for (size_t d = 0; d < held_.size(); ++d)
        if (free[d] > held_[d].free_placed + std::max(kDeviceMemorySlack, held_[d].bytes / 2))
            return "the device-memory cap on GPU " + std::to_string(d) + " was gone after the run (" + format_bytes(double(free[d])) +
                   " free)";
    return "";
}

std::vector<size_t> DeviceMemoryCap::in_use_besides_hold() const {
    const std::vector<DeviceMemory> now = device_memory(int(held_.size()));
    std::vector<size_t> in_use(held_.size());
    for (size_t d = 0; d < held_.size(); ++d) in_use[d] = now[d].in_use() - held_[d].bytes;
    return in_use;
}

void DeviceMemoryCap::release() noexcept {
    int current = 0;
    cudaGetDevice(&current);
    for (size_t d = 0; d < held_.size(); ++d) {
        cudaSetDevice(int(d));
        cudaFree(held_[d].ballast);  // no check: it runs on the way out of errors too
    }
    held_.clear();
    cudaSetDevice(current);
}

size_t session_flush_bytes() {
    int l2_bytes = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, 0));
    return l2_flush_bytes(size_t(l2_bytes));
}

std::vector<DeviceMemory> device_memory(int gpus) {
    std::vector<DeviceMemory> memory(gpus);
    for_each_gpu(gpus, [&](int d) { CUDA_CHECK(cudaMemGetInfo(&memory[d].free, &memory[d].total)); });
    return memory;
}

std::vector<size_t> free_device_bytes(int gpus) {
    std::vector<size_t> free;
    for (const DeviceMemory& m : device_memory(gpus)) free.push_back(m.free);
    return free;
}

size_t device_bytes_in_use(int gpus) {
    size_t in_use = 0;
    for (const DeviceMemory& m : device_memory(gpus)) in_use += m.in_use();
    return in_use;
}

}  // namespace convlab

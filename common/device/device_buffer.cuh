// convlab harness — do not edit in a lab.
// DeviceBuffer<T>: device memory owned by an object, freed when it goes out of scope, so an
// exception on the way never leaks it. Move-only.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "common/device/cuda_check.cuh"

namespace convlab {

template <class T>
class DeviceBuffer {
  public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(size_t count) : count_(count) {
        if (count) CUDA_CHECK(cudaMalloc(&ptr_, count * sizeof(T)));
    }
    ~DeviceBuffer() {
        if (ptr_) cudaFree(ptr_);  // no check: a destructor must not throw, and a dead context frees anyway
    }
    DeviceBuffer(DeviceBuffer&& other) noexcept { swap(other); }
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
        DeviceBuffer(std::move(other)).swap(*this);
        return *this;
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    T* get() const { return ptr_; }
    size_t count() const { return count_; }
    size_t bytes() const { return count_ * sizeof(T); }

    void copy_from_host(const T* h_src) { CUDA_CHECK(cudaMemcpy(ptr_, h_src, bytes(), cudaMemcpyHostToDevice)); }
    void copy_to_host(T* h_dst) const { CUDA_CHECK(cudaMemcpy(h_dst, ptr_, bytes(), cudaMemcpyDeviceToHost)); }

  private:
    void swap(DeviceBuffer& other) noexcept {
        std::swap(ptr_, other.ptr_);
        std::swap(count_, other.count_);
    }
    T* ptr_ = nullptr;
    size_t count_ = 0;
};

}  // namespace convlab

// convlab harness — do not edit in a lab.
#include "common/families/strips/strip_host.hpp"

#include <cuda_runtime.h>
#include <unistd.h>

#include "common/device/cuda_check.cuh"
#include "common/families/strips/each_gpu.cuh"
#include "common/families/strips/strips.hpp"

namespace convlab {

int visible_gpus() {
    int count = 0;
    return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
}

HostRegistration::HostRegistration(const void* data, size_t bytes) : data_(const_cast<void*>(data)) {
    CUDA_CHECK(cudaHostRegister(data_, bytes, cudaHostRegisterPortable));
}

HostRegistration::~HostRegistration() { cudaHostUnregister(data_); }

void put_strip_mask_on_gpus(const Mask& mask, int gpus, void (*set_mask)(const float* weights, int k)) {
    for_each_gpu(gpus, [&](int) { set_mask(mask.weights.data(), mask.k); });
}

void synchronize_gpus(int gpus) {
    for_each_gpu(gpus, [](int) {
        CUDA_CHECK(cudaDeviceSynchronize());
        CUDA_CHECK(cudaGetLastError());
    });
}

bool gpus_healthy(int gpus) {
    cudaGetLastError();  // a non-sticky error left by the failed call, cleared
    for (int d = 0; d < gpus; ++d)
        if (cudaSetDevice(d) != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) return false;
    return cudaSetDevice(0) == cudaSuccess;
}

void reset_current_gpu() { CUDA_CHECK(cudaSetDevice(0)); }

size_t available_host_bytes() { return size_t(sysconf(_SC_AVPHYS_PAGES)) * size_t(sysconf(_SC_PAGESIZE)); }

}  // namespace convlab

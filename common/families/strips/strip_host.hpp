// convlab harness — do not edit in a lab.
// The CUDA calls lab 9's runner makes around a strip variant, behind a plain C++ interface:
// how many GPUs there are, host memory pinned for a while, the mask on every GPU, and waiting
// for every GPU to finish.
#pragma once
#include <cstddef>

#include "common/core/mask.hpp"

namespace convlab {

int visible_gpus();  // 0 without a usable driver

// Page-locks [data, data + bytes) for every GPU's context (cudaHostRegister, portable) while it
// lives, so copies from and to it run at the copy engines' speed and may overlap the kernels.
class HostRegistration {
  public:
    HostRegistration(const void* data, size_t bytes);
    ~HostRegistration();
    HostRegistration(const HostRegistration&) = delete;
    HostRegistration& operator=(const HostRegistration&) = delete;

  private:
    void* data_;
};

// The mask into constant memory of devices 0 .. gpus-1: set_mask (the lab's given kernel's) on each.
void put_strip_mask_on_gpus(const Mask& mask, int gpus, void (*set_mask)(const float* weights, int k));

// Waits for everything devices 0 .. gpus-1 were given; a CudaError names the first failure. Both
// leave the caller's current device current.
void synchronize_gpus(int gpus);

// False once a sticky error (an illegal address, say) has ruined a device's context: every call
// there fails from now on. A refused allocation is not one.
bool gpus_healthy(int gpus);

// Device 0 current again (a variant may leave another one current).
void reset_current_gpu();

// Host bytes the machine can still give (physical memory available now).
size_t available_host_bytes();

}  // namespace convlab

// convlab harness — do not edit in a lab.
// Lab 9's --gpu-memory: while a DeviceMemoryCap lives, each of the first `gpus` devices has only
// `budget` bytes (and a little slack for the runtime's own) left free, the rest held by the
// harness, so an allocation past the budget fails whatever call makes it. The exact figure, the
// most the variant held at once, comes from the driver's records (activity_trace.hpp).
#pragma once
#include <cstddef>
#include <vector>

namespace convlab {

// What the cap leaves free beyond the budget: allocations round up to the driver's pages, and
// the runtime takes some memory for streams and launches of its own.
constexpr size_t kDeviceMemorySlack = size_t(64) << 20;

class DeviceMemoryCap {
  public:
    DeviceMemoryCap(int gpus, size_t budget);  // InputError when a device has less free than budget + slack
    ~DeviceMemoryCap();
    DeviceMemoryCap(const DeviceMemoryCap&) = delete;
    DeviceMemoryCap& operator=(const DeviceMemoryCap&) = delete;

  private:
    void release() noexcept;   // frees what is held, on its devices
    std::vector<void*> held_;  // one allocation a device
};

// Free bytes on each of the first `gpus` devices (cudaMemGetInfo): a variant that returns with
// less free than before it ran left its buffers allocated.
std::vector<size_t> free_device_bytes(int gpus);

}  // namespace convlab

// convlab harness — do not edit in a lab.
// Lab 9's --gpu-memory: while a DeviceMemoryCap lives, each of the first `gpus` devices has only
// `budget` bytes (and a little slack for the runtime's own) left free, the rest held by the
// harness, so an allocation past the budget fails whatever call makes it. The exact figure, the
// most the variant held at once, comes from the driver's records (activity_trace.hpp).
// The cap takes what another program leaves free, and sees what it frees: a program that caps
// the device wants it to itself (the GPU suite and the grader run lab 9 one run at a time).
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace convlab {

// What the cap leaves free beyond the budget: allocations round up to the driver's pages, and
// the runtime takes some memory for streams and launches of its own.
constexpr size_t kDeviceMemorySlack = size_t(64) << 20;

class DeviceMemoryCap {
  public:
    // InputError when a device has less free than budget + slack. The grader's timer leaves more
    // slack than the program's own cap takes, so that the program's cap still fits inside its hold.
    DeviceMemoryCap(int gpus, size_t budget, size_t slack = kDeviceMemorySlack);
    // The same with a slack of its own for each device: slack.size() devices.
    DeviceMemoryCap(size_t budget, const std::vector<size_t>& slack);
    ~DeviceMemoryCap();
    DeviceMemoryCap(const DeviceMemoryCap&) = delete;
    DeviceMemoryCap& operator=(const DeviceMemoryCap&) = delete;

    // Empty while the hold is in place on every device; else which device lost it and what is
    // free there now. Gone means free memory, with the variant's buffers freed, far above what it
    // was when the cap was placed: a device reset frees the whole hold, while the driver's own
    // small trims (a few hundred MiB at most) stay under half of a large hold.
    std::string hold_released() const;

    // Each device's memory in use now by everything but this hold (every process's, this one's
    // context included): read from outside a program, what that program holds beyond its budget.
    std::vector<size_t> in_use_besides_hold() const;

  private:
    struct Hold {
        void* ballast = nullptr;  // the allocation that holds the device's memory past the budget
        size_t bytes = 0;         // its size
        size_t free_placed = 0;   // the device's free bytes just after it was placed
    };
    void release() noexcept;  // frees what is held, on its devices
    std::vector<Hold> held_;  // one a device
};

// What a hold from outside a graded run (--hold-outside) leaves free on each of `gpus` devices
// beyond the budget: `allowed` is what the reference's own graded run had in use on those devices
// together when they opened, of which `first_gpu_only` bytes are on the first device alone (the
// session's L2 flush buffer); the rest, a context and the mask on each, is shared out evenly. Each
// device also keeps `slack`. (An even share of all of it would leave the first device short by
// most of its flush buffer on a host of three GPUs or more, and the run's own cap would not fit.)
inline std::vector<size_t> outside_hold_slack(size_t allowed, int gpus, size_t first_gpu_only, size_t slack) {
    if (gpus < 1) throw std::invalid_argument("outside_hold_slack: a hold over no GPU would hold nothing");
    const size_t first = first_gpu_only < allowed ? first_gpu_only : allowed;
    std::vector<size_t> each(size_t(gpus), (allowed - first) / size_t(gpus) + slack);
    each[0] += first;
    return each;
}

// The L2 flush buffer a GpuSession holds on device 0 (l2_flush_bytes of device 0's L2).
size_t session_flush_bytes();

// Each of the first `gpus` devices' memory as cudaMemGetInfo gives it: the one reader of it here.
struct DeviceMemory {
    size_t free = 0, total = 0;
    size_t in_use() const { return total - free; }  // by every process on the device
};
std::vector<DeviceMemory> device_memory(int gpus);

// Free bytes on each of the first `gpus` devices: a variant that returns with less free than
// before it ran left its buffers allocated.
std::vector<size_t> free_device_bytes(int gpus);

// Bytes in use on the first `gpus` devices together, by every process (total less free): on a GPU
// a graded lab 9 run has to itself, this process's context and whatever it holds.
size_t device_bytes_in_use(int gpus);

}  // namespace convlab

// convlab harness — do not edit in a lab.
// Device memory two processes share: one creates it and exports it as a file descriptor, which
// travels to the other over a Unix socket (fd_link.hpp) and is mapped there. The grader's timer
// owns a timed run's input and output this way, so that it can fill the input and check the output
// itself while the submission's kernels run in the submission's own process. A descriptor, not
// the runtime's cudaIpc handles: those find the other process by its id, and a jailed submission
// lives in a process namespace of its own.
#pragma once
#include <cstddef>

namespace convlab {

class SharedDeviceMemory {
  public:
    SharedDeviceMemory() = default;
    // At least `bytes` of memory on the current device, exportable. Throws CudaError.
    static SharedDeviceMemory create(size_t bytes);
    // Maps memory another process exported (`bytes` as it created it). Takes ownership of fd.
    static SharedDeviceMemory import(int fd, size_t bytes);
    ~SharedDeviceMemory();
    SharedDeviceMemory(SharedDeviceMemory&& other) noexcept;
    SharedDeviceMemory& operator=(SharedDeviceMemory&& other) noexcept;
    SharedDeviceMemory(const SharedDeviceMemory&) = delete;
    SharedDeviceMemory& operator=(const SharedDeviceMemory&) = delete;

    void* get() const { return reinterpret_cast<void*>(address_); }
    size_t bytes() const { return bytes_; }
    // A new descriptor for the memory (the caller closes it once sent).
    int export_fd() const;

  private:
    // Takes the handle, reserves an address range of `mapped` bytes, maps the handle there and
    // allows reads and writes from this device.
    static SharedDeviceMemory mapped_handle(unsigned long long handle, size_t bytes, size_t mapped);
    void release() noexcept;
    void swap(SharedDeviceMemory& other) noexcept;
    unsigned long long handle_ = 0;   // CUmemGenericAllocationHandle
    unsigned long long address_ = 0;  // CUdeviceptr
    size_t bytes_ = 0;    // asked for
    size_t mapped_ = 0;   // rounded up to the allocation granularity
};

}  // namespace convlab

// convlab harness — do not edit in a lab.
// Host memory two processes share: an anonymous memory file (memfd) the grader's timer creates,
// whose descriptor travels to the timed program over the peer socket (peer_link.hpp) and is mapped
// there. Lab 9's strips go from host memory to host memory, so its timed input and output live
// here, where the timer writes and reads them while the program's copies and kernels run in its
// own process. The file's size is sealed: the program cannot shrink it under the timer's mapping.
#pragma once
#include <cstddef>

namespace convlab {

class HostSharedMemory {
  public:
    HostSharedMemory() = default;
    // `bytes` of zeroed memory, exportable. Throws std::runtime_error.
    static HostSharedMemory create(size_t bytes);
    // Maps memory another process created with `bytes`; takes ownership of fd. Throws
    // std::runtime_error when the file holds less.
    static HostSharedMemory import(int fd, size_t bytes);
    ~HostSharedMemory();
    HostSharedMemory(HostSharedMemory&& other) noexcept;
    HostSharedMemory& operator=(HostSharedMemory&& other) noexcept;
    HostSharedMemory(const HostSharedMemory&) = delete;
    HostSharedMemory& operator=(const HostSharedMemory&) = delete;

    void* get() const { return data_; }
    size_t bytes() const { return bytes_; }
    int export_fd() const;  // a new descriptor for the memory (the caller closes it once sent)

  private:
    static HostSharedMemory mapped(int fd, size_t bytes);  // takes fd
    void release() noexcept;
    int fd_ = -1;
    void* data_ = nullptr;
    size_t bytes_ = 0;
};

}  // namespace convlab

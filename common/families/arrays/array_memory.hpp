// convlab harness — do not edit in a lab.
// The device memory of an array lab's workspace (array_lab.hpp): its arrays, asked for once, in
// a fixed order. For the lab's own runs each array is an allocation of its own, so that
// compute-sanitizer sees a read one element past any of them. Under peer timing (array_peer.hpp)
// they are laid out in one block instead, which the grader's timer creates exportable and the
// timed program maps, so both processes hold the same arrays at the same offsets and the timer
// can write every input and read every output itself.
#pragma once
#include <cstddef>
#include <memory>
#include <vector>

namespace convlab {

// A typed array of the workspace: what it keeps instead of owning buffers.
template <class T>
struct DeviceArray {
    T* data = nullptr;
    size_t count = 0;
    T* get() const { return data; }
    size_t bytes() const { return count * sizeof(T); }
};

class ArrayMemory {
  public:
    enum class Kind {
        Private,   // one cudaMalloc per array: a lab's own run
        Exported,  // created exportable: the grader's timer (export_fd)
        Imported,  // the timer's block, mapped: the timed program
    };
    static ArrayMemory separate_arrays();
    static ArrayMemory exported_block();
    // The block another process exported as fd (`bytes` as it was asked for); takes fd.
    static ArrayMemory imported_block(int fd, size_t bytes);
    ~ArrayMemory();
    ArrayMemory(ArrayMemory&&) noexcept;
    ArrayMemory& operator=(ArrayMemory&&) noexcept;

    // The workspace's one request: arrays of these sizes in bytes, in this order; their addresses.
    // An imported block must be exactly as large as their layout (the two processes laid out the
    // same arrays); CudaError otherwise.
    std::vector<void*> provide(const std::vector<size_t>& sizes);
    size_t bytes() const;   // all of it: the block, or the arrays' sum
    int export_fd() const;  // Exported only, after provide(); the caller closes it

  private:
    struct Impl;
    explicit ArrayMemory(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

}  // namespace convlab

// convlab harness — do not edit in a lab.
// Owners of the OpenCL back end's handles (cl_device.cpp): each releases its handle when it goes,
// so that a call that throws half way (a buffer too large, a kernel that will not build, a session
// whose constructor fails) leaks nothing, as DeviceBuffer does for CUDA's memory.
#pragma once
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <utility>

namespace convlab {

template <class Handle, cl_int (*Release)(Handle)>
class ClOwned {
  public:
    ClOwned() = default;
    explicit ClOwned(Handle handle) : handle_(handle) {}
    ClOwned(ClOwned&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
    ClOwned& operator=(ClOwned&& other) noexcept {
        if (this != &other) {
            reset();
            handle_ = std::exchange(other.handle_, nullptr);
        }
        return *this;
    }
    ClOwned(const ClOwned&) = delete;
    ClOwned& operator=(const ClOwned&) = delete;
    ~ClOwned() { reset(); }

    Handle get() const { return handle_; }
    // clSetKernelArg and clCreateContext take the handle's address.
    const Handle* address() const { return &handle_; }
    explicit operator bool() const { return handle_ != nullptr; }
    void reset() {
        if (handle_) Release(handle_);
        handle_ = nullptr;
    }

  private:
    Handle handle_ = nullptr;
};

using ClContext = ClOwned<cl_context, clReleaseContext>;
using ClQueue = ClOwned<cl_command_queue, clReleaseCommandQueue>;
using ClProgram = ClOwned<cl_program, clReleaseProgram>;
using ClKernelHandle = ClOwned<cl_kernel, clReleaseKernel>;
using ClMem = ClOwned<cl_mem, clReleaseMemObject>;
using ClEvent = ClOwned<cl_event, clReleaseEvent>;

}  // namespace convlab

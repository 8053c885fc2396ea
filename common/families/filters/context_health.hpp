// convlab harness — do not edit in a lab.
// Whether a device back end's context outlived the errors thrown through it. A failed call may
// leave the context as it was (a launch the API refused, a program that did not build) or ruin it
// for every later call (a kernel that faulted); only the device can say which, so after an error
// the back end asks it, once, whether it still finishes work (probe). A context found ruined stays
// so: the runner skips the rest of the GPU part, as for a CUDA error (ImageDevice::healthy).
// The OpenCL back end's (cl_device.cpp); GpuSession probes CUDA's sticky errors itself.
#pragma once
#include "common/core/errors.hpp"

namespace convlab {

class ContextHealth {
  public:
    // Runs fn; a DeviceError it throws goes on up, after probe() (true: the context still works).
    template <class Fn, class Probe>
    void guarded(Fn&& fn, Probe&& probe) {
        try {
            fn();
        } catch (const DeviceError&) {
            if (!lost_ && !probe()) lost_ = true;
            throw;
        }
    }
    bool healthy() const { return !lost_; }

  private:
    bool lost_ = false;
};

}  // namespace convlab

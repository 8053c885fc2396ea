// convlab harness — do not edit in a lab.
// The device side of an image lab's run (families/filters/filter_run.cpp), whatever the API: the
// device and its ceilings, the problem's buffers, poisoning, running a variant's launch, timing it
// with the API's events, reading results back. GpuSession (gpu_session.hpp) is the CUDA one;
// ClSession (families/filters/cl_device.hpp) the OpenCL one. A variant's launch (GpuVariant::
// launch) reaches the buffers through args() for CUDA, through its back end for OpenCL.
// Failures throw a DeviceError (CudaError for CUDA).
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/core/conv_args.hpp"
#include "common/core/image.hpp"
#include "common/core/mask.hpp"
#include "common/device/device_info.hpp"
#include "common/timing/stats.hpp"

namespace convlab {

struct TimingPlan {
    int warmup = 2;
    int reps = 15;
    bool flush_l2 = true;  // overwrite a buffer twice the L2's size before every timed rep
};

// What every back end's copy bandwidth (ImageDevice::copy_bandwidth_gbs) is measured on, so that
// % copy means the same for CUDA and OpenCL on one GPU: a device-to-device copy of
// min(1 GiB, a quarter of the free memory) bytes, 2 untimed copies, then the median of 9.
struct CopyBandwidthBasis {
    static constexpr int kWarmup = 2;
    static constexpr int kReps = 9;
    static size_t bytes(size_t free_bytes) { return std::min<size_t>(size_t(1) << 30, free_bytes / 4) & ~size_t(255); }
};

class ImageDevice {
  public:
    virtual ~ImageDevice() = default;

    virtual const DeviceInfo& info() const = 0;
    // Device-to-device copy, counting bytes read plus bytes written (CopyBandwidthBasis); 0 when
    // the device was opened for a run that times nothing (OpenCL's --check-only: on PoCL the copy
    // takes seconds of a run that takes a fraction of one).
    virtual double copy_bandwidth_gbs() const = 0;
    // The input and output buffers (and room for a max_mask_size squared mask, and with
    // `intermediate` a float per value more); InputError when they do not fit.
    virtual void load_image(const Image& image, Border border, int max_mask_size, size_t extra_bytes, bool intermediate) = 0;
    virtual void load_mask(const Mask& mask) = 0;
    // The problem's shape; for CUDA also the device pointers a launch uses.
    virtual const ConvArgs& args() const = 0;
    // The input's pixels replaced by make_random_image(width, height, channels, seed)'s.
    virtual void load_random_input(uint64_t seed) = 0;
    virtual void poison_output() = 0;  // NaN in every output float
    virtual void fetch_output(float* h_out) const = 0;
    // values[n] = the output's value at positions[n] (a spot check's few values).
    virtual void sample_output(const std::vector<size_t>& positions, float* values) = 0;
    // Runs fn (which enqueues work), then waits for it and checks for errors.
    virtual void run(const std::function<void()>& fn) = 0;
    // run(fn), counting the kernels fn launched; -1 when that cannot be known.
    virtual int run_counting_launches(const std::function<void()>& fn) = 0;
    // Why the last run_counting_launches returned -1, as a graded run's failure.
    virtual std::string uncounted_launches(const std::string& who = "it") const = 0;
    // plan.warmup untimed runs of fn, then plan.reps timed ones, each timed by the API's events.
    // Before each run (warm-ups too), outside the timed region: before_rep(run number) if given,
    // the output poisoned (if asked) and the caches flushed (plan.flush_l2); after each,
    // after_rep(run number) if given.
    virtual TimingStats time(const std::function<void()>& fn, const TimingPlan& plan, bool poison_each_rep,
                             const std::function<void(int)>& before_rep = {}, const std::function<void(int)>& after_rep = {}) = 0;
    // False once an error has ruined the device's context.
    virtual bool healthy() const = 0;
    // Facts of the run the report's notes give (OpenCL: the work-group shape a driver chose).
    virtual std::vector<std::string> notes() const { return {}; }
};

}  // namespace convlab

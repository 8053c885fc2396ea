// convlab harness — do not edit in a lab.
// The GPU side of a lab run, behind a plain C++ interface: the device and its ceilings, the
// problem's device buffers, running a variant and timing it with CUDA events.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/core/conv_args.hpp"
#include "common/device/device_info.hpp"
#include "common/core/image.hpp"
#include "common/core/mask.hpp"
#include "common/device/image_device.hpp"
#include "common/timing/stats.hpp"

namespace convlab {

// Empty when a CUDA device can be used; otherwise why not, in a few words.
std::string gpu_unavailable_reason();
// The one line (with its newline) a lab prints on stderr when its GPU part did not run: why, and
// whether a CPU part ran instead; its exit status is then kExitNoGpu (exit_status.hpp).
std::string gpu_skipped_line(int lab, const std::string& reason, bool cpu_part_ran);

// The CUDA device side of a run (ImageDevice, image_device.hpp), and what the other families use.
class GpuSession : public ImageDevice {
  public:
    GpuSession();  // device 0; measures the copy bandwidth once
    ~GpuSession() override;
    GpuSession(const GpuSession&) = delete;
    GpuSession& operator=(const GpuSession&) = delete;

    const DeviceInfo& info() const override;
    // Device-to-device cudaMemcpy, counting bytes read plus bytes written, median of 9.
    double copy_bandwidth_gbs() const override;

    // Allocates and fills the input and output buffers, and room for a mask of up to max_mask_size
    // squared weights; with `intermediate`, a float per value more (ConvArgs::d_scratch). Throws
    // InputError when that (with `extra_bytes` more that a variant allocates itself) does not fit
    // in free device memory. The environment variable CONVLAB_DEVICE_MEMORY_LIMIT (bytes) lowers
    // the memory assumed free.
    void load_image(const Image& image, Border border, int max_mask_size, size_t extra_bytes, bool intermediate) override;
    // Peer timing (peer_timer.hpp), after load_image. The timer's side: moves the input and
    // output into memory another process can map, and returns a descriptor of each (input first).
    std::vector<int> share_buffers();
    // The timed side: maps the timer's input and output (descriptors and sizes from its
    // share_buffers, which must match this run's image) in place of its own. Takes both descriptors.
    void adopt_shared_buffers(int in_fd, size_t in_bytes, int out_fd, size_t out_bytes);

    // Copies a mask in; args() then describes image and mask.
    void load_mask(const Mask& mask) override;
    const ConvArgs& args() const override;

    // Replaces the input's pixels with make_random_image(width, height, channels, seed)'s, generated
    // on the GPU (the grader's fresh input for each timed repetition).
    void load_random_input(uint64_t seed) override;

    void poison_output() override;       // NaN in every output float, and in the intermediate's
    void flush_l2();                     // enqueues the L2 eviction time() does before every timed run
    void fetch_output(float* h_out) const override;
    // values[n] = the output's value at positions[n] (a spot check's few values, gathered on the GPU).
    void sample_output(const std::vector<size_t>& positions, float* values) override;
    // values[n] = the 4-byte word at positions[n] of the device array `words` (an array lab's output).
    void sample_words(const void* words, const std::vector<size_t>& positions, uint32_t* values);

    // An empty kernel, run to its end: after another process's work (the grader's timer writes the
    // input and flushes the L2 before every peer-timed run) the GPU switches to this process's
    // context on its first launch, which would otherwise be charged to the timed kernel.
    void take_over_gpu();
    // Runs fn (which enqueues work on the default stream), then synchronises and checks for errors.
    void run(const std::function<void()>& fn) override;
    // run(fn), counting the kernels fn launches (CUPTI, launch_counter.hpp): a GPU variant that
    // launched none computed on the CPU, or only copied. -1 when that is unknown (the kit was
    // built without CUPTI, another tool such as compute-sanitizer holds it, or the code switched
    // the counting off while it ran: a canary launch of the harness's own after fn must be seen).
    int run_counting_launches(const std::function<void()>& fn) override;
    // Why the last run_counting_launches returned -1, as a graded run's failure: "the kernels
    // WHO launched could not be counted (why): a graded run fails what it cannot measure".
    std::string uncounted_launches(const std::string& who = "it") const override;
    // Times fn with CUDA events: plan.warmup untimed runs, then plan.reps timed ones. Before each
    // run (warm-ups too), outside the timed region: before_rep(run number) if given, the output
    // poisoned (if asked) and the L2 flushed; after each, after_rep(run number) if given.
    TimingStats time(const std::function<void()>& fn, const TimingPlan& plan, bool poison_each_rep,
                     const std::function<void(int)>& before_rep = {}, const std::function<void(int)>& after_rep = {}) override;
    // One timed run of fn in milliseconds, after an L2 flush (if asked) outside the timed region.
    // The events time the default stream; a host clock around the run and a device-wide
    // synchronisation times everything fn started, whatever the stream. When the two disagree by
    // more than launch overhead, fn did work the events cannot see, and the host clock's time is
    // returned (*outside_stream set when given).
    double time_once(const std::function<void()>& fn, bool flush_l2, bool* outside_stream = nullptr);

    // False once a sticky error (e.g. an illegal address) has ruined the context.
    bool healthy() const override;

  private:
    void guarded(const std::function<void()>& fn);  // runs fn; on a CudaError notes whether the context died
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace convlab

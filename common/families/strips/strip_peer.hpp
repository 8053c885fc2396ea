// convlab harness — do not edit in a lab.
// Peer timing of lab 9 (peer_timer.hpp). A strip variant goes from host memory to host memory,
// so the timer's input and output are host memory it shares with the timed program
// (host_shared_memory.hpp), which pins them there and runs its variant on them under the budget,
// every timed run held to the lab's rules (strip_rules.hpp). The timer's clock runs from the
// input's making to its own reads of the result: copies, kernels, allocations and all, as the
// lab's own timing is.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/families/strips/activity_trace.hpp"
#include "common/families/strips/device_memory_cap.hpp"
#include "common/families/strips/host_shared_memory.hpp"
#include "common/core/image.hpp"
#include "common/core/mask.hpp"
#include "common/grading/peer_timer.hpp"
#include "common/grading/peer_worker.hpp"
#include "common/families/strips/strip_host.hpp"
#include "common/families/strips/strip_lab.hpp"

namespace convlab {

// The image's shape and what the strips are given, the same on both sides.
struct StripPeerShape {
    int width = 0, height = 0, channels = 0;
    size_t values() const { return size_t(width) * height * channels; }
};

// How much more the timer's hold leaves free than the budget: room for the program's own cap
// (which leaves the budget and kDeviceMemorySlack) and as much again.
constexpr size_t kTimerHoldSlack = 2 * kDeviceMemorySlack;

class StripPeerTarget : public PeerTarget {
  public:
    // `budget` a GPU, on each of the first `gpus` devices.
    StripPeerTarget(StripPeerShape shape, const Mask& mask, Border border, size_t budget, int gpus);
    std::vector<int> share(PeerMessage& buffers) override;
    bool select(const std::string& variant) override;  // true: the program says whether it has the variant
    void prepare_input(uint64_t seed) override;  // the image of `seed` made in the timer's own memory
    void poison() override;
    void load_input(uint64_t seed) override;     // and copied into the shared input on every core
    SpotChecker spot_checker() const override;
    void sample(const std::vector<size_t>& positions, float* values) override;
    double expected_at(uint64_t seed, size_t i) override;
    std::string check_output(uint64_t seed, VariantResult& r) override;
    // The rule on memory from outside the program: this process holds each device but the budget
    // (and kTimerHoldSlack) for as long as it times, so no allocation of the program's, in any
    // context, pool or process, gets past that whatever it does to its own cap. What the device
    // has in use besides the hold once it is placed (both processes' contexts and whatever the
    // program allocated before it was ready, a buffer made before main included) is reported
    // for the grader to set against the reference program's (performance.py).
    void program_ready() override;
    // The MiB in use on the devices besides the hold when the program was ready; none before.
    std::optional<double> in_use_at_ready_mib() const { return in_use_at_ready_mib_; }

  private:
    StripPeerShape shape_;
    const Mask& mask_;
    Border border_;
    size_t budget_;
    int gpus_;
    std::optional<DeviceMemoryCap> hold_;
    std::optional<double> in_use_at_ready_mib_;
    HostSharedMemory in_, out_;
    Image staged_;  // the next repetition's input (make_random_image of staged_seed_), out of the program's reach
    uint64_t staged_seed_ = 0;
};

class StripPeerServer : public PeerServer {
  public:
    // After the mask is on the GPUs (put_strip_mask_on_gpus): the variants, the budget a GPU and
    // the GPUs the several-GPU variant gets.
    StripPeerServer(const std::vector<StripVariant>& variants, StripPeerShape shape, int k, Border border, size_t budget, int gpus)
        : variants_(variants), shape_(shape), k_(k), border_(border), budget_(budget), gpus_(gpus) {}
    void adopt(const PeerMessage& buffers, std::vector<int>& fds) override;
    void prepare(const std::string& name) override;  // the variant, its cap on the devices
    void before_run() override;                      // the records from now on only
    void launch() override;                          // the variant's whole run, every GPU waited for
    void after_run() override;                       // throws for a rule the run broke

  private:
    const std::vector<StripVariant>& variants_;
    StripPeerShape shape_;
    int k_;
    Border border_;
    size_t budget_;
    int gpus_;
    HostSharedMemory in_, out_;
    std::unique_ptr<HostRegistration> in_pinned_, out_pinned_;
    std::unique_ptr<ActivityTrace> trace_;
    const StripVariant* prepared_ = nullptr;
    StripJob job_{};
    std::optional<DeviceMemoryCap> cap_;
};

}  // namespace convlab

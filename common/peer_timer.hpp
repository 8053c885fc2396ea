// convlab harness — do not edit in a lab.
// Peer timing, the grader's side (--timer-of): a program's report of its own speed comes from
// its own process, which a submission controls, so the grader times it from a process of its own
// too. This process (the reference build, trusted) owns the timed run's input and output
// (shared_device_memory.hpp); the submission's process maps them and runs its kernels there when
// told (peer_worker.hpp). For every repetition this side, on its own clock:
//   start -> a fresh input from a seed drawn now from the operating system's entropy (the
//   submission cannot compute the answer ahead) -> L2 flushed -> "go" -> "done" -> values of the
//   output at positions drawn now, read by this process -> stop.
// Reading the output itself is what ends the clock: the read waits for any kernel the submission
// left running, or catches its unwritten values. The last repetition's whole output is checked
// against the CPU reference. The submission's own event time comes back with each "done"; the
// grader compares both with the reference solution's (a report far below what this side measured
// is forged).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "common/check.hpp"
#include "common/gpu_session.hpp"
#include "common/mask.hpp"
#include "common/peer_link.hpp"
#include "common/report.hpp"

namespace convlab {

struct PeerTimerPlan {
    int warmup = 2;
    int reps = 15;
    double answer_timeout_s = 30;  // for each "done" (and "prepared")
};

class PeerTimer {
  public:
    // Sends the session's shared buffers to the worker and waits for it to be ready. Throws
    // PeerError when it is not.
    PeerTimer(PeerLink& link, GpuSession& session, const Image& shape, const Mask& mask, Border border, PeerTimerPlan plan);

    // Times the worker's variant `name`; fills r's status, message, time (the worker's own
    // events), peer_time (this side's clock) and spot checks. Never throws for the worker's faults.
    void time_variant(const std::string& name, VariantResult& r);
    void finish();  // tells the worker there is nothing more

  private:
    uint64_t seed_of(int rep) const;
    const std::vector<float>& reference_of_last_rep();

    PeerLink& link_;
    GpuSession& session_;
    int width_, height_, channels_;
    const Mask& mask_;
    Border border_;
    PeerTimerPlan plan_;
    uint64_t salt_;
    std::vector<float> last_reference_;  // the CPU reference of the last repetition's input, once
};

}  // namespace convlab

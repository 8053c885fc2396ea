// convlab harness — do not edit in a lab.
// Peer timing, the grader's side (--timer-of): a program's report of its own speed comes from
// its own process, which a submission controls, so the grader times it from a process of its own
// too. This process (the reference build, trusted) owns the timed run's inputs and outputs
// (shared_device_memory.hpp; lab 9's in host memory, host_shared_memory.hpp); the submission's
// process maps them and runs its kernels there when told (peer_worker.hpp). For every repetition
// this side, on its own clock:
//   start -> a fresh input from a seed drawn from the operating system's entropy, one for each
//   repetition of each variant (the submission cannot compute the answer ahead, nor reuse one
//   variant's answer as another's; what the input takes to make is done before the clock, where
//   the submission cannot see it) -> L2 flushed (device memory) -> "go" -> "done" -> values of the
//   output at positions drawn now, read by this process -> stop.
// Reading the output itself is what ends the clock: a read of device memory waits for any kernel
// the submission left running, or catches its unwritten values; a read of host memory (lab 9)
// waits for nothing, and catches unwritten values only where it reads. The last repetition's
// whole output is checked against the CPU reference. The submission's own event time comes back with each "done"; the
// grader compares both with the reference solution's (a report far below what this side measured
// is forged).
//
// PeerTimer runs that protocol for any kind of lab; a PeerTarget is what it runs on: an image
// lab's input and output (image_peer.hpp), an array lab's arrays (array_peer.hpp), a Canny
// stage's buffers (canny_peer.hpp), lab 9's host memory (strip_peer.hpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "common/grading/peer_link.hpp"
#include "common/report/report.hpp"
#include "common/check/spot_check.hpp"

namespace convlab {

struct PeerTimerPlan {
    int warmup = 2;
    int reps = 15;
    double answer_timeout_s = 30;  // for each "done" (and "prepared")
};

class PeerTarget {
  public:
    virtual ~PeerTarget() = default;
    // The memory the worker maps: its descriptors (the caller closes them), with their sizes and
    // what else the worker must know written into `buffers`.
    virtual std::vector<int> share(PeerMessage& buffers) = 0;
    // The variant about to be timed (its output, its reference); false when there is no such one.
    virtual bool select(const std::string& variant) = 0;
    // Outside the clock, before a repetition: whatever the input of `seed` takes to make that
    // the clock must not count, kept where the program cannot reach it (lab 8 computes a stage's
    // inputs on the CPU here, and load_input copies them in on the GPU).
    virtual void prepare_input(uint64_t /*seed*/) {}
    // Outside the clock, before a repetition: the output poisoned and the device idle.
    virtual void poison() = 0;
    // On the clock: the input of `seed` in place and the L2 flushed, the device idle again.
    virtual void load_input(uint64_t seed) = 0;
    // Draws the positions a spot check reads, spread as the output's shape asks.
    virtual SpotChecker spot_checker() const = 0;
    // values[n] = the output's value at positions[n], read on the GPU by this process.
    virtual void sample(const std::vector<size_t>& positions, float* values) = 0;
    // The right value at output position i for the input of `seed` (loaded last), from the few
    // inputs it needs; NaN where the variant writes nothing.
    virtual double expected_at(uint64_t seed, size_t i) = 0;
    // The whole output checked against the reference for the input of `seed` (loaded last): ""
    // when right, else what is wrong; an image lab fills r.check too.
    virtual std::string check_output(uint64_t seed, VariantResult& r) = 0;
    // Once the program is ready (it has mapped the shared memory; no variant prepared yet): what
    // this side measures of the program, or holds against it, from outside its process (lab 9
    // holds the device but the budget). Throws for a program that cannot be timed so: each
    // variant then fails with the reason.
    virtual void program_ready() {}
};

class PeerTimer {
  public:
    // Sends the target's shared memory to the worker and waits for it to be ready. Throws
    // PeerError when it is not.
    PeerTimer(PeerLink& link, PeerTarget& target, PeerTimerPlan plan);

    // Times the worker's variant `name`; fills r's status, message, time (the worker's own
    // events), peer_time (this side's clock) and spot checks. Never throws for the worker's faults.
    void time_variant(const std::string& name, VariantResult& r);
    void finish();  // tells the worker there is nothing more

  private:
    uint64_t seed_of(int variant, int rep) const;  // the input of `variant`'s (its order here) repetition `rep`

    PeerLink& link_;
    PeerTarget& target_;
    PeerTimerPlan plan_;
    uint64_t salt_;
    int variants_timed_ = 0;
    std::string not_ready_;  // why the target could not take the program as ready (program_ready)
};

}  // namespace convlab

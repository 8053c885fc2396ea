// convlab harness — do not edit in a lab.
// Peer timing, the timed program's side (--timed-by): it maps the grader's timer's memory
// (peer_timer.hpp) in place of its own and runs its variants' kernels there when told, one timed
// run per "go", answering each with its own event time. It checks no result and reports nothing
// else: what counts is what the timer measures and reads. (Lab 9's side holds each timed run to
// the lab's rules before it answers, in this process: see strip_peer.hpp.)
#pragma once
#include <string>
#include <vector>

#include "common/device/gpu_session.hpp"
#include "common/grading/peer_link.hpp"

namespace convlab {

// What a kind of lab serves (image_peer.hpp, array_peer.hpp). Each may throw: a CudaError, an
// exception of errors.hpp, or any other for a request it cannot serve.
class PeerServer {
  public:
    virtual ~PeerServer() = default;
    // Maps the timer's memory (the descriptors that came with `buffers`; takes them).
    virtual void adopt(const PeerMessage& buffers, std::vector<int>& fds) = 0;
    virtual void prepare(const std::string& name) = 0;  // the variant to run, and its untimed set-up
    virtual void launch() = 0;                          // enqueues the prepared variant once
    // Around each timed launch, outside the program's own time and the timer's: before_run once the
    // variant is prepared and again after each run's after_run, after_run once its Done is sent,
    // the Ruled (or Failed) answer after it. What the lab holds the run to (lab 9 takes the
    // driver's records of the run alone, and throws for a rule the run broke). On the timer's clock
    // they were its overhead, which a report that left out as much went unnoticed within: lab 9's
    // records took tens of milliseconds to gather.
    virtual void before_run() {}
    virtual void after_run() {}
};

// Serves the timer until it says it is done or goes away. Returns the exit status: a CUDA error
// that ruined the context ends the service (kExitCudaError).
int serve_peer_timer(PeerLink& link, GpuSession& session, PeerServer& server);

}  // namespace convlab

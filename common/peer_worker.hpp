// convlab harness — do not edit in a lab.
// Peer timing, the timed program's side (--timed-by): it maps the grader's timer's input and
// output (peer_timer.hpp) in place of its own and runs its variants' kernels there when told,
// one timed run per "go", answering each with its own event time. It checks nothing and reports
// nothing else: what counts is what the timer measures and reads.
#pragma once
#include "common/gpu_session.hpp"
#include "common/lab.hpp"
#include "common/peer_link.hpp"

namespace convlab {

// Serves the timer until it says it is done or goes away. Returns the exit status: a CUDA error
// that ruined the context ends the service (kExitCudaError).
int serve_peer_timer(PeerLink& link, GpuSession& session, const LabSpec& spec, const Mask& mask);

}  // namespace convlab

// convlab harness — do not edit in a lab.
// The grader's timer and the submission it times are two processes joined by a Unix socket the
// grader made (a socketpair, SOCK_SEQPACKET: whole messages, in order). Each message is one
// fixed-size PeerMessage; the first carries the shared buffers' descriptors as well. The timer
// never trusts what arrives: a message of the wrong size or kind, or none within the time it
// allows, ends the conversation with PeerError.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace convlab {

struct PeerError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

enum class PeerKind : uint32_t {
    Buffers = 1,  // timer -> worker: the shared memory's descriptors (two, lab 8 eight), the first two's sizes in bytes
    Ready,        // worker: buffers mapped, mask loaded
    Prepare,      // timer: get variant `text` ready (its untimed prepare step)
    Prepared,     // worker
    Go,           // timer: run the prepared variant once on the input now in place
    Done,         // worker: it ran; `ms` is the time its own events measured
    Failed,       // worker: it could not; `text` says why
    End,          // timer: nothing more
    Ruled,        // worker, after Done and off the timer's clock: the run kept the lab's rules (else Failed)
};

struct PeerMessage {
    uint32_t magic = 0x636f6e76;  // "conv"
    PeerKind kind = PeerKind::End;
    int32_t rep = 0;
    uint32_t host_clock = 0;  // Done: the worker's events missed work, its host clock timed the run
    double ms = 0;
    uint64_t bytes[2] = {0, 0};
    char text[240] = {};

    static PeerMessage make(PeerKind kind, const std::string& text = "");
    std::string text_string() const;
};

class PeerLink {
  public:
    explicit PeerLink(int fd);  // takes ownership of the socket
    ~PeerLink();
    PeerLink(const PeerLink&) = delete;
    PeerLink& operator=(const PeerLink&) = delete;

    void send(const PeerMessage& message, const std::vector<int>& fds = {});
    // Waits up to timeout_s (< 0: for ever) for one message; descriptors that came with it go to
    // *fds (closed when fds is null). Throws PeerError on a time-out, a closed socket or a message
    // that is not a PeerMessage.
    PeerMessage receive(double timeout_s, std::vector<int>* fds = nullptr);

  private:
    int fd_;
};

// The descriptor named by --timer-of / --timed-by, checked to be a socket. Throws InputError.
int peer_socket(const std::string& text, const std::string& option);

}  // namespace convlab

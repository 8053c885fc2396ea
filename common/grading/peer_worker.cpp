// convlab harness — do not edit in a lab.
#include "common/grading/peer_worker.hpp"

#include <unistd.h>

#include "common/core/errors.hpp"
#include "common/core/exit_status.hpp"

namespace convlab {

namespace {

// The answer to a request the variant could not serve.
PeerMessage failure(const std::exception& e) {
    const char* status = dynamic_cast<const NotImplemented*>(&e) ? "not-implemented: "
                         : dynamic_cast<const Unsupported*>(&e)  ? "skipped: "
                         : dynamic_cast<const CudaError*>(&e)    ? "CUDA error: "
                                                                 : "";
    return PeerMessage::make(PeerKind::Failed, status + std::string(e.what()));
}

}  // namespace

int serve_peer_timer(PeerLink& link, GpuSession& session, PeerServer& server) {
    try {
        std::vector<int> fds;
        const PeerMessage buffers = link.receive(-1, &fds);
        if (buffers.kind != PeerKind::Buffers) throw PeerError("the timer's first message holds no buffers");
        try {
            server.adopt(buffers, fds);
        } catch (const std::exception& e) {
            for (int fd : fds) ::close(fd);
            link.send(failure(e));
            return kExitCudaError;
        }
        link.send(PeerMessage::make(PeerKind::Ready));
        bool prepared = false;
        for (;;) {
            const PeerMessage request = link.receive(-1);
            if (request.kind == PeerKind::End) return kExitPass;
            try {
                if (request.kind == PeerKind::Prepare) {
                    prepared = false;
                    server.prepare(request.text_string());
                    server.before_run();  // the records from now on only
                    prepared = true;
                    link.send(PeerMessage::make(PeerKind::Prepared));
                } else if (request.kind == PeerKind::Go && prepared) {
                    bool outside = false;
                    session.take_over_gpu();
                    PeerMessage done = PeerMessage::make(PeerKind::Done);
                    done.ms = session.time_once([&] { server.launch(); }, false, &outside);
                    done.rep = request.rep;
                    done.host_clock = outside;
                    link.send(done);
                    // Off the timer's clock (it stops at the Done and its reads of the result):
                    // the lab's rules on this run, then the records from now on only.
                    server.after_run();
                    server.before_run();
                    PeerMessage ruled = PeerMessage::make(PeerKind::Ruled);
                    ruled.rep = request.rep;
                    link.send(ruled);
                } else {
                    throw std::runtime_error("a request out of turn");
                }
            } catch (const PeerError&) {
                throw;
            } catch (const std::exception& e) {
                link.send(failure(e));
                if (!session.healthy()) return kExitCudaError;
            }
        }
    } catch (const PeerError&) {
        return kExitCheckFailed;  // the timer went away: nothing was timed to the end
    }
}

}  // namespace convlab

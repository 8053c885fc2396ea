// convlab harness — do not edit in a lab.
#include "common/peer_worker.hpp"

#include <algorithm>

#include "common/errors.hpp"
#include "common/exit_status.hpp"

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

int serve_peer_timer(PeerLink& link, GpuSession& session, const LabSpec& spec, const Mask& mask) {
    try {
        std::vector<int> fds;
        const PeerMessage buffers = link.receive(-1, &fds);
        if (buffers.kind != PeerKind::Buffers || fds.size() != 2) throw PeerError("the timer's first message holds no buffers");
        try {
            session.adopt_shared_buffers(fds[0], buffers.bytes[0], fds[1], buffers.bytes[1]);
            session.load_mask(mask);
        } catch (const CudaError& e) {
            link.send(failure(e));
            return kExitCudaError;
        }
        link.send(PeerMessage::make(PeerKind::Ready));
        const GpuVariant* prepared = nullptr;
        for (;;) {
            const PeerMessage request = link.receive(-1);
            if (request.kind == PeerKind::End) return kExitPass;
            try {
                if (request.kind == PeerKind::Prepare) {
                    const std::string name = request.text_string();
                    const auto found = std::find_if(spec.gpu.begin(), spec.gpu.end(), [&](const GpuVariant& v) { return v.name == name; });
                    if (found == spec.gpu.end()) throw std::runtime_error("no GPU variant '" + name + "'");
                    prepared = &*found;
                    if (prepared->prepare) session.run([&] { prepared->prepare(mask); });
                    link.send(PeerMessage::make(PeerKind::Prepared));
                } else if (request.kind == PeerKind::Go && prepared) {
                    const ConvArgs& args = session.args();
                    bool outside = false;
                    PeerMessage done = PeerMessage::make(PeerKind::Done);
                    done.ms = session.time_once([&] { prepared->launch(args); }, false, &outside);
                    done.rep = request.rep;
                    done.host_clock = outside;
                    link.send(done);
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

// convlab harness — do not edit in a lab.
#include "common/families/arrays/array_peer.hpp"

#include <cstring>

#include "common/core/errors.hpp"

namespace convlab {

namespace {

const ArrayVariant* find_variant(const std::vector<ArrayExperiment>& experiments, const std::string& name) {
    for (const ArrayExperiment& e : experiments)
        for (const ArrayVariant& v : e.variants)
            if (qualified_name(e, v) == name) return &v;
    return nullptr;
}

}  // namespace

ArrayPeerTarget::ArrayPeerTarget(GpuSession& session, ArrayWorkspace& workspace, const ArrayMemory& memory, size_t n,
                                 const std::vector<ArrayExperiment>& experiments)
    : session_(session), workspace_(workspace), memory_(memory), n_(n), experiments_(experiments) {}

std::vector<int> ArrayPeerTarget::share(PeerMessage& buffers) {
    buffers.bytes[0] = memory_.bytes();
    buffers.bytes[1] = n_;  // the worker lays out the same arrays for the same length
    return {memory_.export_fd()};
}

bool ArrayPeerTarget::select(const std::string& variant) {
    selected_ = find_variant(experiments_, variant);
    return selected_ != nullptr;
}

void ArrayPeerTarget::poison() {
    session_.run([&] { poison_output(*selected_); });
}

void ArrayPeerTarget::load_input(uint64_t seed) {
    session_.run([&] {
        workspace_.load_input(seed);
        session_.flush_l2();
    });
}

SpotChecker ArrayPeerTarget::spot_checker() const {
    // One row: half the positions fall near either end, where a variant's edge cases are.
    return SpotChecker(int(selected_->output.count), 1, 1, 1, Tolerance{0, selected_->rtol});
}

void ArrayPeerTarget::sample(const std::vector<size_t>& positions, float* values) {
    words_.resize(positions.size());
    session_.sample_words(selected_->output.data, positions, words_.data());
    for (size_t k = 0; k < positions.size(); ++k) {
        if (selected_->output.integers) {
            int32_t value = 0;
            std::memcpy(&value, &words_[k], sizeof value);
            values[k] = float(value);  // lab 5's ints are small: exact in a float
        } else {
            std::memcpy(&values[k], &words_[k], sizeof(float));
        }
    }
}

double ArrayPeerTarget::expected_at(uint64_t, size_t i) { return selected_->expected_at(i); }  // the workspace holds the seed

std::string ArrayPeerTarget::check_output(uint64_t, VariantResult&) { return check_variant(*selected_); }

void ArrayPeerServer::adopt(const PeerMessage& buffers, std::vector<int>& fds) {
    if (fds.size() != 1) throw PeerError("the timer's first message holds no arrays");
    const int fd = fds[0];
    fds.clear();
    memory_ = std::make_unique<ArrayMemory>(ArrayMemory::imported_block(fd, buffers.bytes[0]));
    const size_t n = buffers.bytes[1];
    workspace_ = spec_.workspace(n, session_.info(), session_.copy_bandwidth_gbs(), seed_, *memory_);
    experiments_ = workspace_->experiments({});
}

void ArrayPeerServer::prepare(const std::string& name) {
    prepared_ = find_variant(experiments_, name);
    if (!prepared_) throw std::runtime_error("no variant '" + name + "'");
}

void ArrayPeerServer::launch() {
    if (!prepared_) throw std::runtime_error("a request out of turn");
    prepared_->launch();
}

}  // namespace convlab

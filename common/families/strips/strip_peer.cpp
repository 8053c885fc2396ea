// convlab harness — do not edit in a lab.
#include "common/families/strips/strip_peer.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include <unistd.h>

#include "common/check/check.hpp"
#include "common/core/reference.hpp"
#include "common/core/rng.hpp"
#include "common/families/strips/strip_rules.hpp"

namespace convlab {

StripPeerTarget::StripPeerTarget(StripPeerShape shape, const Mask& mask, Border border, size_t budget, int gpus)
    : shape_(shape), mask_(mask), border_(border), budget_(budget), gpus_(gpus) {}

void StripPeerTarget::program_ready() {
    hold_.emplace(gpus_, budget_, kTimerHoldSlack);
    size_t in_use = 0;
    for (size_t bytes : hold_->in_use_besides_hold()) in_use += bytes;
    in_use_at_ready_mib_ = double(in_use) / double(1 << 20);
}

std::vector<int> StripPeerTarget::share(PeerMessage& buffers) {
    in_ = HostSharedMemory::create(shape_.values());
    out_ = HostSharedMemory::create(shape_.values() * sizeof(float));
    buffers.bytes[0] = in_.bytes();
    buffers.bytes[1] = out_.bytes();
    std::vector<int> fds{in_.export_fd()};
    try {
        fds.push_back(out_.export_fd());
    } catch (...) {
        ::close(fds[0]);
        throw;
    }
    return fds;
}

bool StripPeerTarget::select(const std::string&) { return true; }

void StripPeerTarget::poison() { poison_strip_result(static_cast<float*>(out_.get()), shape_.values()); }

void StripPeerTarget::prepare_input(uint64_t seed) {
    // make_random_image(seed)'s pixels, off the clock and on every core (a whole image a repetition).
    staged_ = Image(shape_.width, shape_.height, shape_.channels);
    staged_seed_ = seed;
    uint8_t* pixels = staged_.pixels.data();
    const long long n = (long long)staged_.elements();
#pragma omp parallel for schedule(static)
    for (long long i = 0; i < n; ++i) pixels[i] = random_pixel(seed, uint64_t(i));
}

void StripPeerTarget::load_input(uint64_t) {
    // On the clock, so the program cannot start before it: a copy in slices, one a core.
    uint8_t* in = static_cast<uint8_t*>(in_.get());
    const size_t n = staged_.elements(), slices = 64;
#pragma omp parallel for schedule(static)
    for (long long s = 0; s < (long long)slices; ++s) {
        const size_t first = n * s / slices, last = n * (s + 1) / slices;
        std::memcpy(in + first, staged_.pixels.data() + first, last - first);
    }
}

SpotChecker StripPeerTarget::spot_checker() const {
    return SpotChecker(shape_.width, shape_.height, shape_.channels, mask_.radius(), tolerance_for(mask_));
}

void StripPeerTarget::sample(const std::vector<size_t>& positions, float* values) {
    const float* out = static_cast<const float*>(out_.get());
    for (size_t n = 0; n < positions.size(); ++n) values[n] = out[positions[n]];
}

double StripPeerTarget::expected_at(uint64_t seed, size_t i) {
    return reference_value_of_seed(seed, shape_.width, shape_.height, shape_.channels, mask_, border_, i);
}

std::string StripPeerTarget::check_output(uint64_t seed, VariantResult& r) {
    if (seed != staged_seed_) return "the timer lost the last repetition's input";
    r.check = check_strip_result(staged_, mask_, border_, static_cast<const float*>(out_.get()));
    return r.check.passed ? "" : r.check.summary();
}

void StripPeerServer::adopt(const PeerMessage& buffers, std::vector<int>& fds) {
    if (fds.size() != 2 || buffers.bytes[0] != shape_.values() || buffers.bytes[1] != shape_.values() * sizeof(float))
        throw PeerError("the timer's buffers are not this run's image");
    const int in_fd = fds[0], out_fd = fds[1];
    fds.clear();  // taken below, whatever happens
    try {
        in_ = HostSharedMemory::import(in_fd, buffers.bytes[0]);
    } catch (...) {
        ::close(out_fd);
        throw;
    }
    out_ = HostSharedMemory::import(out_fd, buffers.bytes[1]);
    in_pinned_ = std::make_unique<HostRegistration>(in_.get(), in_.bytes());
    out_pinned_ = std::make_unique<HostRegistration>(out_.get(), out_.bytes());
    trace_ = std::make_unique<ActivityTrace>();
}

void StripPeerServer::prepare(const std::string& name) {
    cap_.reset();
    prepared_ = nullptr;
    const auto found = std::find_if(variants_.begin(), variants_.end(), [&](const StripVariant& v) { return v.name == name; });
    // Only a budgeted variant from pinned memory is timed: the grader's rows.
    if (found == variants_.end() || found->whole ||
        std::find(found->memories.begin(), found->memories.end(), HostMemory::Pinned) == found->memories.end())
        throw std::runtime_error("no strip variant '" + name + "' from pinned memory");
    prepared_ = &*found;
    job_ = StripJob{static_cast<const uint8_t*>(in_.get()), static_cast<float*>(out_.get()), shape_.width, shape_.height,
                    shape_.channels, k_, border_, budget_, found->several_gpus ? gpus_ : 1, true};
    cap_.emplace(job_.gpus, job_.gpu_memory);
}

void StripPeerServer::before_run() { trace_->collect(); }

void StripPeerServer::launch() {
    if (!prepared_) throw std::runtime_error("a request out of turn");
    prepared_->run(job_);
    synchronize_gpus(job_.gpus);
    reset_current_gpu();  // the several-GPU variant may leave another device current; the timing's events are device 0's
}

void StripPeerServer::after_run() {
    const StripRunRecords run = take_strip_run_records(*trace_);
    const std::string broken = broken_strip_rule(job_, run, *trace_, cap_ ? &*cap_ : nullptr, false);
    if (!broken.empty()) throw std::runtime_error("the timed run broke the lab's rule: " + broken);
}

}  // namespace convlab

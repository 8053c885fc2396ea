// convlab harness — do not edit in a lab.
#include "common/families/pipelines/canny_peer.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "common/families/pipelines/canny_planes.hpp"
#include "common/core/errors.hpp"
#include "common/core/synthetic.hpp"

#include <unistd.h>

namespace convlab {

const CannyStage* find_canny_stage(const std::vector<CannyPipeline>& pipelines, const std::string& name, const CannyPipeline** pipeline) {
    for (const CannyPipeline& p : pipelines)
        for (const CannyStage& s : p.stages)
            if (p.name + " " + s.name == name) {
                if (pipeline) *pipeline = &p;
                return &s;
            }
    return nullptr;
}

void prepare_for_one_stage(GpuSession& session, const CannyPipeline& pipeline, const Mask& mask) {
    if (!pipeline.prepare) return;
    try {
        session.run([&] { pipeline.prepare(mask); });
    } catch (const NotImplemented&) {
    } catch (const Unsupported&) {
    }
}

CannyPeerTarget::CannyPeerTarget(GpuSession& session, const std::vector<CannyPipeline>& pipelines, int width, int height,
                                 const Mask& mask, Border border, CannyThresholds thresholds)
    : session_(session), pipelines_(pipelines), width_(width), height_(height), mask_(mask), border_(border), thresholds_(thresholds) {}

CannyPeerTarget::~CannyPeerTarget() = default;

std::vector<int> CannyPeerTarget::share(PeerMessage& buffers) {
    const size_t pixels = size_t(width_) * height_;
    buffers.bytes[0] = pixels * sizeof(uint8_t);
    buffers.bytes[1] = pixels * sizeof(float);
    std::vector<int> fds = session_.share_buffers();  // grey and smoothed
    try {
        shared_ = std::make_unique<CannyDevice>(session_.args(), thresholds_);
        staged_ = std::make_unique<CannyDevice>(width_, height_, border_, thresholds_);
        for (int fd : shared_->share()) fds.push_back(fd);
    } catch (...) {
        for (int fd : fds) ::close(fd);
        throw;
    }
    return fds;
}

bool CannyPeerTarget::select(const std::string& variant) {
    stage_ = find_canny_stage(pipelines_, variant);
    return stage_ != nullptr;
}

namespace {

// The last stage of the reference a stage's planes need, as inputs or as what it is checked
// against: a repetition's fresh input costs the CPU reference up to it only (at 3072x3072 the
// gradients stage's input and answer took about 40% of the five stages' time, on 2 cores).
CannyLastStage last_stage_needed(unsigned planes) {
    if (planes & kCannyEdges) return CannyLastStage::Hysteresis;
    if (planes & kCannyLabels) return CannyLastStage::Thresholds;
    if (planes & kCannySuppressed) return CannyLastStage::Suppression;
    if (planes & (kCannyMagnitude | kCannyDirection | kCannyMaxMagnitude)) return CannyLastStage::Gradients;
    return CannyLastStage::Smoothing;
}

}  // namespace

void CannyPeerTarget::prepare_input(uint64_t seed) {
    const CannyLastStage last = last_stage_needed(stage_->reads | stage_->writes);
    if (!have_reference_ || reference_seed_ != seed || reference_last_ < last) {
        const Image grey = make_random_image(width_, height_, 1, seed);
        canny_reference_into(grey, mask_, border_, thresholds_, 0, reference_, last);
        reference_seed_ = seed;
        reference_last_ = last;
        have_reference_ = true;
    }
    session_.run([&] { staged_->upload(stage_->reads, reference_); });
}

void CannyPeerTarget::poison() {
    session_.run([&] { shared_->poison(kAllCannyBuffers & ~stage_->reads); });
}

void CannyPeerTarget::load_input(uint64_t) {
    session_.run([&] {
        shared_->copy_from(*staged_, stage_->reads);
        session_.flush_l2();
    });
}

unsigned CannyPeerTarget::draw_spot_buffer() {
    std::vector<unsigned> outputs;
    for (const BufferName& b : kBufferNames)
        if (stage_->writes & b.bit) outputs.push_back(b.bit);
    return outputs.empty() ? kCannyEdges : outputs[entropy_() % outputs.size()];
}

SpotChecker CannyPeerTarget::spot_checker() const { return SpotChecker(width_, height_, 1, 1, Tolerance{}); }

void CannyPeerTarget::sample(const std::vector<size_t>& positions, float* values) {
    // Which output is read is drawn only now, after "done": a stage that skips one of its outputs
    // (the directions, the largest magnitude) in the repetitions it expects unchecked is caught.
    const unsigned bit = sampled_ = draw_spot_buffer();
    const bool floats = bit == kCannyMagnitude || bit == kCannySuppressed || bit == kCannyMaxMagnitude;
    std::vector<size_t> words(positions);
    if (bit == kCannyMaxMagnitude)
        std::fill(words.begin(), words.end(), 0);  // one value, read at every position
    else if (!floats)
        for (size_t& w : words) w /= 4;  // a byte's word: the buffers' mappings are whole pages
    std::vector<uint32_t> got(positions.size());
    session_.sample_words(shared_->buffer(bit), words, got.data());
    for (size_t n = 0; n < positions.size(); ++n) {
        if (floats) std::memcpy(&values[n], &got[n], sizeof(float));
        else values[n] = float((got[n] >> (8 * (positions[n] % 4))) & 0xFF);
    }
}

double CannyPeerTarget::expected_at(uint64_t seed, size_t i) {
    if (!have_reference_ || seed != reference_seed_) return std::numeric_limits<double>::quiet_NaN();
    switch (sampled_) {
        case kCannyMaxMagnitude: return reference_.largest;
        case kCannyMagnitude: return reference_.magnitude[i];
        case kCannySuppressed: return reference_.suppressed[i];
        case kCannyDirection: return reference_.direction[i];
        case kCannyLabels: return reference_.labels[i];
        default: return reference_.edges[i];
    }
}

std::string CannyPeerTarget::check_output(uint64_t seed, VariantResult& r) {
    if (!have_reference_ || seed != reference_seed_) return "the timer lost the last repetition's reference";
    CannyStages got;
    float largest = -1;
    shared_->fetch(stage_->writes, got, &largest);
    std::string what;
    r.check = check_canny_planes(stage_->writes, got, largest, reference_, Tolerance{}, mask_.radius(), &what);
    return r.check.passed ? "" : what + ": " + r.check.summary();
}

CannyPeerServer::~CannyPeerServer() = default;

void CannyPeerServer::adopt(const PeerMessage& buffers, std::vector<int>& fds) {
    if (fds.size() != 2 + size_t(CannyDevice::kSharedBuffers)) throw PeerError("the timer's first message holds no Canny buffers");
    std::vector<int> stages(fds.begin() + 2, fds.end());
    const int in_fd = fds[0], out_fd = fds[1];
    fds.clear();  // taken below, whatever happens
    try {
        session_.adopt_shared_buffers(in_fd, buffers.bytes[0], out_fd, buffers.bytes[1]);
        session_.load_mask(mask_);
        device_ = std::make_unique<CannyDevice>(session_.args(), thresholds_);
        device_->adopt_shared(stages);
    } catch (...) {
        for (int fd : stages)
            if (fd >= 0) ::close(fd);
        throw;
    }
}

void CannyPeerServer::prepare(const std::string& name) {
    const CannyPipeline* pipeline = nullptr;
    stage_ = find_canny_stage(pipelines_, name, &pipeline);
    if (!stage_) throw std::runtime_error("no stage '" + name + "' of a GPU pipeline");
    prepare_for_one_stage(session_, *pipeline, mask_);
}

void CannyPeerServer::launch() {
    if (!stage_) throw std::runtime_error("a request out of turn");
    stage_->launch(device_->args());
}

}  // namespace convlab

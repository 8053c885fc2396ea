// convlab harness — do not edit in a lab.
#include "common/families/filters/image_peer.hpp"

#include <algorithm>
#include <limits>

#include "common/check/check.hpp"
#include "common/core/reference.hpp"
#include "common/core/synthetic.hpp"

#include <unistd.h>

namespace convlab {

namespace {
constexpr float kPoison = std::numeric_limits<float>::quiet_NaN();
}

ImagePeerTarget::ImagePeerTarget(GpuSession& session, const LabSpec& spec, const Image& shape, const Mask& mask, Border border)
    : session_(session), spec_(spec), width_(shape.width), height_(shape.height), channels_(shape.channels), mask_(mask),
      border_(border), tolerance_(tolerance_for(mask)) {}

bool ImagePeerTarget::select(const std::string& variant) {
    const auto found = std::find_if(spec_.gpu.begin(), spec_.gpu.end(), [&](const GpuVariant& v) { return v.name == variant; });
    tolerance_ = tolerance_for(mask_, found == spec_.gpu.end() ? WorkModel{} : found->model);
    return true;
}

std::vector<int> ImagePeerTarget::share(PeerMessage& buffers) {
    const size_t values = size_t(width_) * height_ * channels_;
    buffers.bytes[0] = values * sizeof(uint8_t);
    buffers.bytes[1] = values * sizeof(float);
    return session_.share_buffers();
}

void ImagePeerTarget::poison() {
    session_.poison_output();
    session_.run([] {});
}

void ImagePeerTarget::load_input(uint64_t seed) {
    session_.run([&] {
        session_.load_random_input(seed);
        session_.flush_l2();
    });
}

SpotChecker ImagePeerTarget::spot_checker() const {
    return SpotChecker(width_, height_, channels_, mask_.radius(), tolerance_);
}

void ImagePeerTarget::sample(const std::vector<size_t>& positions, float* values) { session_.sample_output(positions, values); }

double ImagePeerTarget::expected_at(uint64_t seed, size_t i) {
    return reference_value_of_seed(seed, width_, height_, channels_, mask_, border_, i);
}

std::string ImagePeerTarget::check_output(uint64_t seed, VariantResult& r) {
    if (reference_.empty() || reference_seed_ != seed) {  // every variant's last repetition has the same seed
        const Image input = make_random_image(width_, height_, channels_, seed);
        reference_.assign(input.elements(), kPoison);
        conv2d_cpu_reference(input, mask_, border_, reference_.data(), spec_.two_pass_reference);
        reference_seed_ = seed;
    }
    std::vector<float> out(size_t(width_) * height_ * channels_, kPoison);
    session_.fetch_output(out.data());
    r.check = convlab::check_output(out.data(), reference_.data(), width_, height_, channels_, tolerance_, mask_.radius(), {});
    return r.check.passed ? "" : r.check.summary();
}

void ImagePeerServer::adopt(const PeerMessage& buffers, std::vector<int>& fds) {
    if (fds.size() != 2) throw PeerError("the timer's first message holds no buffers");
    const int in_fd = fds[0], out_fd = fds[1];
    fds.clear();  // taken by adopt_shared_buffers, whatever it does
    session_.adopt_shared_buffers(in_fd, buffers.bytes[0], out_fd, buffers.bytes[1]);
    session_.load_mask(mask_);
}

void ImagePeerServer::prepare(const std::string& name) {
    const auto found = std::find_if(spec_.gpu.begin(), spec_.gpu.end(), [&](const GpuVariant& v) { return v.name == name; });
    if (found == spec_.gpu.end()) throw std::runtime_error("no GPU variant '" + name + "'");
    prepared_ = &*found;
    if (prepared_->prepare) session_.run([&] { prepared_->prepare(mask_); });
}

void ImagePeerServer::launch() {
    if (!prepared_) throw std::runtime_error("a request out of turn");
    prepared_->launch(session_.args());
}

}  // namespace convlab

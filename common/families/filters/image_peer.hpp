// convlab harness — do not edit in a lab.
// Peer timing of an image lab (peer_timer.hpp): the timer's side runs on the session's input and
// output, moved into memory the worker maps; the worker's side runs the lab's GPU variants there.
#pragma once
#include <vector>

#include "common/core/border.hpp"
#include "common/device/gpu_session.hpp"
#include "common/core/image.hpp"
#include "common/runner/lab.hpp"
#include "common/core/mask.hpp"
#include "common/grading/peer_timer.hpp"
#include "common/grading/peer_worker.hpp"

namespace convlab {

class ImagePeerTarget : public PeerTarget {
  public:
    // After session.load_image and load_mask for a random image of shape's size.
    ImagePeerTarget(GpuSession& session, const LabSpec& spec, const Image& shape, const Mask& mask, Border border);
    std::vector<int> share(PeerMessage& buffers) override;
    // Takes the variant's tolerance; true whatever the name: the worker says whether it has the variant.
    bool select(const std::string& variant) override;
    void poison() override;
    void load_input(uint64_t seed) override;
    SpotChecker spot_checker() const override;
    void sample(const std::vector<size_t>& positions, float* values) override;
    double expected_at(uint64_t seed, size_t i) override;
    std::string check_output(uint64_t seed, VariantResult& r) override;

  private:
    GpuSession& session_;
    const LabSpec& spec_;
    int width_, height_, channels_;
    const Mask& mask_;
    Border border_;
    Tolerance tolerance_;  // the selected variant's
    uint64_t reference_seed_ = 0;
    std::vector<float> reference_;  // the CPU reference of reference_seed_'s input, once
};

class ImagePeerServer : public PeerServer {
  public:
    ImagePeerServer(GpuSession& session, const LabSpec& spec, const Mask& mask) : session_(session), spec_(spec), mask_(mask) {}
    void adopt(const PeerMessage& buffers, std::vector<int>& fds) override;
    void prepare(const std::string& name) override;
    void launch() override;

  private:
    GpuSession& session_;
    const LabSpec& spec_;
    const Mask& mask_;
    const GpuVariant* prepared_ = nullptr;
};

}  // namespace convlab

// convlab harness — do not edit in a lab.
// Peer timing of lab 8's stages (peer_timer.hpp): one stage of a pipeline at a time, timed alone
// on the reference's values of exactly the buffers it reads, as its graded runs are checked. The
// timer shares the session's grey and smoothed buffers (GpuSession::share_buffers) and the buffers
// of stages 2 to 5 (CannyDevice::share). Before each repetition, off the clock, it computes the CPU
// reference of a fresh random image and stages the timed stage's inputs in device memory of its
// own; on the clock it copies them in on the GPU, and the timed program runs the stage there.
// Every buffer the stage does not read is poisoned before each repetition; after each "done" one
// of the stage's outputs, drawn then, is spot-checked. The smoothing (lab 6's kernel) is not timed.
#pragma once
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "common/families/pipelines/canny.hpp"
#include "common/families/pipelines/canny_device.hpp"
#include "common/families/pipelines/canny_lab.hpp"
#include "common/device/gpu_session.hpp"
#include "common/core/mask.hpp"
#include "common/grading/peer_timer.hpp"
#include "common/grading/peer_worker.hpp"

namespace convlab {

// A stage of a pipeline by its result's name, "PIPELINE STAGE" (the grader's "raw" name); null
// when there is none.
const CannyStage* find_canny_stage(const std::vector<CannyPipeline>& pipelines, const std::string& name,
                                   const CannyPipeline** pipeline = nullptr);

// The pipeline's preparation before one of its stages runs alone (a graded run, a timed one). It
// serves the smoothing alone (lab 6's factors): one not written yet leaves that stage to fail, and
// the others to run, as in a student's own run.
void prepare_for_one_stage(GpuSession& session, const CannyPipeline& pipeline, const Mask& mask);

class CannyPeerTarget : public PeerTarget {
  public:
    // After session.load_image and load_mask for a grey image of the run's size.
    CannyPeerTarget(GpuSession& session, const std::vector<CannyPipeline>& pipelines, int width, int height, const Mask& mask,
                    Border border, CannyThresholds thresholds);
    ~CannyPeerTarget() override;
    std::vector<int> share(PeerMessage& buffers) override;
    bool select(const std::string& variant) override;  // "PIPELINE STAGE"
    void prepare_input(uint64_t seed) override;
    void poison() override;
    void load_input(uint64_t seed) override;
    SpotChecker spot_checker() const override;
    void sample(const std::vector<size_t>& positions, float* values) override;
    double expected_at(uint64_t seed, size_t i) override;
    std::string check_output(uint64_t seed, VariantResult& r) override;

  private:
    unsigned draw_spot_buffer();  // one of the stage's outputs, drawn from the operating system's entropy


    GpuSession& session_;
    const std::vector<CannyPipeline>& pipelines_;
    int width_, height_;
    const Mask& mask_;
    Border border_;
    CannyThresholds thresholds_;
    const CannyStage* stage_ = nullptr;
    unsigned sampled_ = 0;  // the output the last spot check read
    std::random_device entropy_;
    std::unique_ptr<CannyDevice> shared_, staged_;  // the timed program's buffers; the inputs, out of its reach
    uint64_t reference_seed_ = 0;
    bool have_reference_ = false;
    CannyStages reference_;  // the CPU reference of reference_seed_'s image, to reference_last_'s stage
    CannyLastStage reference_last_ = CannyLastStage::Smoothing;
};

class CannyPeerServer : public PeerServer {
  public:
    CannyPeerServer(GpuSession& session, const std::vector<CannyPipeline>& pipelines, const Mask& mask, CannyThresholds thresholds)
        : session_(session), pipelines_(pipelines), mask_(mask), thresholds_(thresholds) {}
    ~CannyPeerServer() override;
    void adopt(const PeerMessage& buffers, std::vector<int>& fds) override;
    void prepare(const std::string& name) override;  // "PIPELINE STAGE": its pipeline's preparation, as a graded run makes it
    void launch() override;

  private:
    GpuSession& session_;
    const std::vector<CannyPipeline>& pipelines_;
    const Mask& mask_;
    CannyThresholds thresholds_;
    std::unique_ptr<CannyDevice> device_;
    const CannyStage* stage_ = nullptr;
};

}  // namespace convlab

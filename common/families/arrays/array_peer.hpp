// convlab harness — do not edit in a lab.
// Peer timing of an array lab (peer_timer.hpp): the timer creates the workspace's block of arrays
// exportable (array_memory.hpp) and the worker lays out the same arrays over it, so the timer
// writes every input (ArrayWorkspace::load_input, fresh for each timed run) and reads every
// output itself, while the worker's process runs the variant's kernels.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "common/families/arrays/array_lab.hpp"
#include "common/device/gpu_session.hpp"
#include "common/grading/peer_timer.hpp"
#include "common/grading/peer_worker.hpp"

namespace convlab {

class ArrayPeerTarget : public PeerTarget {
  public:
    // workspace: made over an exported block (memory) for arrays of n elements.
    ArrayPeerTarget(GpuSession& session, ArrayWorkspace& workspace, const ArrayMemory& memory, size_t n,
                    const std::vector<ArrayExperiment>& experiments);
    std::vector<int> share(PeerMessage& buffers) override;
    bool select(const std::string& variant) override;
    void poison() override;
    void load_input(uint64_t seed) override;
    SpotChecker spot_checker() const override;
    void sample(const std::vector<size_t>& positions, float* values) override;
    double expected_at(uint64_t seed, size_t i) override;
    std::string check_output(uint64_t seed, VariantResult& r) override;

  private:
    GpuSession& session_;
    ArrayWorkspace& workspace_;
    const ArrayMemory& memory_;
    size_t n_;
    const std::vector<ArrayExperiment>& experiments_;
    const ArrayVariant* selected_ = nullptr;
    std::vector<uint32_t> words_;
};

// The worker's side: the spec's workspace for the timer's n, laid over the timer's block.
class ArrayPeerServer : public PeerServer {
  public:
    ArrayPeerServer(GpuSession& session, const ArrayLabSpec& spec, uint64_t seed) : session_(session), spec_(spec), seed_(seed) {}
    void adopt(const PeerMessage& buffers, std::vector<int>& fds) override;
    void prepare(const std::string& name) override;
    void launch() override;

  private:
    GpuSession& session_;
    const ArrayLabSpec& spec_;
    uint64_t seed_;
    std::unique_ptr<ArrayMemory> memory_;  // before the workspace: it outlives it
    std::unique_ptr<ArrayWorkspace> workspace_;
    std::vector<ArrayExperiment> experiments_;
    const ArrayVariant* prepared_ = nullptr;
};

}  // namespace convlab

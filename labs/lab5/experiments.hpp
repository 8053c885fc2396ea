// convlab lab 5 — do not edit: the five experiments as data (common/families/arrays/array_lab.hpp): each variant
// is a launch, a check of what it wrote, and the work one launch does under its experiment's
// model (bytes moved or flops), bound to the device arrays every experiment shares.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/families/arrays/array_lab.hpp"
#include "common/device/device_info.hpp"

namespace lab5 {

// The experiment keys in the order they run.
const std::vector<std::string>& experiment_keys();

constexpr uint64_t kDefaultSeed = 5;

// The device arrays every experiment shares, from `memory` (array_memory.hpp): n floats in (seeded,
// values in [0, 157]), n floats and n ints out, and the small arrays of experiment 5. Throws
// InputError when they do not fit.
class Workspace : public convlab::ArrayWorkspace {
  public:
    // seed: where the input values come from (the grader draws a secret one; the default is 5).
    Workspace(size_t n, const convlab::DeviceInfo& device, double copy_gbs, uint64_t seed, convlab::ArrayMemory& memory);
    ~Workspace() override;
    size_t bytes() const override;
    std::vector<convlab::ArrayExperiment> experiments(const std::vector<std::string>& keys) override;
    void load_input(uint64_t seed) override;
    struct Impl;

  private:
    struct NamesOnly {};
    Workspace(size_t n, NamesOnly);  // no device memory, no input: what variant_names needs to name
    friend std::vector<std::string> variant_names(size_t n, const std::vector<std::string>& keys);
    std::unique_ptr<Impl> impl_;
};

// The default array length: a multiple of 1024 floats whose bytes are 8 times the L2 cache.
size_t default_elements(const convlab::DeviceInfo& device);

// The qualified names (experiment/variant) the experiments named in keys (all when empty) give
// their variants for arrays of n elements, with no GPU: --variant is checked before the GPU is.
std::vector<std::string> variant_names(size_t n, const std::vector<std::string>& keys);

// The shared-memory ceiling of experiment 5: 32 banks x 4 B per clock per SM, in GB/s.
double shared_peak_gbs(const convlab::DeviceInfo& device);

}  // namespace lab5

// convlab lab 5 — do not edit: the experiments as data. Each variant is a launch, a check of
// what it wrote, and the work one launch does under its experiment's model (bytes moved or
// flops), so that the runner can time, check and tabulate any of them the same way.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/device_info.hpp"

namespace lab5 {

struct Variant {
    std::string name;                     // e.g. "B read-swapped"; the benchmark is key/name
    std::function<void()> poison;         // fills the output with values no variant writes
    std::function<void()> launch;         // enqueues the kernel; does not synchronise
    std::function<std::vector<char>()> fetch;                      // the output's bytes, as the launch left them
    std::function<std::string(const std::vector<char>&)> verify;   // "" when such bytes are right, else what is wrong
    double work = 0;                      // bytes (or flops) one launch moves, under the model
    std::string note;                     // e.g. the occupancy of this block size
};

// fetch and verify apart, so that the grader can check bytes another process wrote (grading.hpp).
inline std::string check(const Variant& v) { return v.verify(v.fetch()); }

struct Experiment {
    std::string key;          // "memory", "stride", ...: --experiment and the benchmark names use it
    std::string title;        // the table's heading
    std::string model;        // the byte (or flop) model, stated under the heading
    std::string unit;         // "GB/s" or "GFLOP/s"
    std::string ceiling_name; // what the % column compares against
    double ceiling = 0;       // in `unit`
    std::vector<Variant> variants;
};

// The experiment keys in the order they run.
const std::vector<std::string>& experiment_keys();

constexpr uint64_t kDefaultSeed = 5;

// The device arrays every experiment shares: n floats in (seeded, values in [0, 157]), n floats
// and n ints out, and the small arrays of experiment 5. Throws InputError when they do not fit.
class Workspace {
  public:
    // seed: where the input values come from (the grader draws a secret one; the default is 5).
    Workspace(size_t n, const convlab::DeviceInfo& device, uint64_t seed = kDefaultSeed);
    ~Workspace();
    size_t elements() const;
    size_t bytes() const;  // device memory held
    struct Impl;
    Impl& impl() const { return *impl_; }

  private:
    struct NamesOnly {};
    Workspace(size_t n, NamesOnly);  // no device memory, no input: what variant_names needs to name
    friend std::vector<std::string> variant_names(size_t n, const std::vector<std::string>& keys);
    std::unique_ptr<Impl> impl_;
};

// The default array length: a multiple of 1024 floats whose bytes are 8 times the L2 cache.
size_t default_elements(const convlab::DeviceInfo& device);

// The experiments named in keys (all when empty), their variants bound to the workspace.
std::vector<Experiment> make_experiments(Workspace& workspace, const convlab::DeviceInfo& device, double copy_gbs,
                                         const std::vector<std::string>& keys);

// The qualified names (experiment/variant) make_experiments gives the variants of those
// experiments for arrays of n elements, with no GPU: --variant is checked before the GPU is.
std::vector<std::string> variant_names(size_t n, const std::vector<std::string>& keys);

}  // namespace lab5

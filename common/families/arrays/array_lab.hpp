// convlab harness — do not edit in a lab.
// A lab of microbenchmarks over arrays (lab 5): experiments, each a table of variants that run on
// device arrays the lab owns. The lab describes its experiments as data; run_array_lab() does
// everything else: the command line (the options every lab shares, run_options.hpp, plus
// --elements and --experiment), checking, timing through Google Benchmark (array_bench.hpp), the
// tables, the grader's --check-only / --raw-out / --compare (array_checks.hpp) and its peer
// timing (--timer-of / --timed-by, array_peer.hpp), reporting in the report every lab writes
// (report.hpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/families/arrays/array_memory.hpp"
#include "common/device/device_info.hpp"
#include "common/cli/lab_manifest.hpp"

namespace convlab {

// A variant's output array: 4-byte elements, floats or ints. The harness poisons it (a NaN
// float, or 0x7F7F7F7F, which no variant writes), reads it back and samples it.
struct ArrayOutput {
    void* data = nullptr;
    size_t count = 0;
    bool integers = false;
    size_t bytes() const { return count * 4; }
};

struct ArrayVariant {
    std::string name;                     // e.g. "B read-swapped"; qualified: experiment/name
    ArrayOutput output;
    std::function<void()> launch;         // enqueues the kernel; does not synchronise
    // For the inputs loaded now: "" when an output of these bytes is right, else what is wrong.
    std::function<std::string(const std::vector<char>&)> verify;
    // The right value of output element i for the inputs loaded now, from those few inputs alone
    // (the grader's timer spot-checks every timed run); NaN for an element the variant does not write.
    std::function<double(size_t)> expected_at;
    double rtol = 0;                      // what a value may differ from expected_at's, relative
    double work = 0;                      // bytes (or flops) one launch moves, under the model
    std::string note;                     // e.g. the occupancy of this block size
};

struct ArrayExperiment {
    std::string key;           // "memory", "stride", ...: --experiment and the qualified names use it
    std::string title;         // the table's heading
    std::string model;         // the byte (or flop) model, stated under the heading
    std::string unit;          // "GB/s" or "GFLOP/s"
    std::string ceiling_name;  // what the % column compares against
    double ceiling = 0;        // in `unit`
    std::vector<ArrayVariant> variants;
};

// "memory/B read-swapped": what --variant, the reports and the raw results name a variant by.
std::string qualified_name(const ArrayExperiment& e, const ArrayVariant& v);

void poison_output(const ArrayVariant& v);              // enqueued on the default stream
// The output's bytes, as the launch left them, in a buffer the next fetch reuses.
const std::vector<char>& fetch_output(const ArrayVariant& v);
// fetch and verify apart, so that the grader's trusted run can check bytes another process wrote.
inline std::string check_variant(const ArrayVariant& v) { return v.verify(fetch_output(v)); }

// The lab's device arrays, with its experiments bound to them.
class ArrayWorkspace {
  public:
    virtual ~ArrayWorkspace() = default;
    virtual size_t bytes() const = 0;  // device memory held: no raw result can be longer
    // The experiments named in keys (all when empty), in the lab's order.
    virtual std::vector<ArrayExperiment> experiments(const std::vector<std::string>& keys) = 0;
    // Replaces every input with seed's values, generated on the GPU (enqueued on the default
    // stream): the grader's timer gives each timed run fresh inputs. The variants' verify and
    // expected_at follow the inputs loaded last.
    virtual void load_input(uint64_t seed) = 0;
};

struct ArrayLabSpec {
    int number = 0;
    std::string title;
    std::string student_files;             // named in "not implemented yet" messages
    std::vector<std::string> experiment_keys;  // in the order they run
    uint64_t default_seed = 1;
    std::string seed_help;                 // what --seed seeds
    long long max_elements = 2000000000;
    std::string elements_help;             // what --elements is and its default
    std::function<size_t(const DeviceInfo&)> default_elements;
    // The qualified names of the variants of those experiments (all when empty) for arrays of n
    // elements, without a GPU: --variant is checked before the GPU is looked for.
    std::function<std::vector<std::string>(size_t n, const std::vector<std::string>& keys)> variant_names;
    // The arrays for n elements from `memory` (asked for once, array_memory.hpp), their inputs from
    // seed; throws InputError when they do not fit.
    std::function<std::unique_ptr<ArrayWorkspace>(size_t n, const DeviceInfo& device, double copy_gbs, uint64_t seed, ArrayMemory& memory)>
        workspace;
    // The report's lines after its GPU line: the lab's ceilings and its arrays.
    std::function<std::vector<std::string>(const DeviceInfo& device, double copy_gbs, size_t n, uint64_t seed)> describe;
};

// A spec with the number, title and student files of the lab's manifest (build/gen/labN/manifest.hpp).
inline ArrayLabSpec array_spec_of(const LabManifest& manifest) { return spec_from<ArrayLabSpec>(manifest); }

// Returns the process exit status (exit_status.hpp). Never throws.
int run_array_lab(int argc, char** argv, const ArrayLabSpec& spec);

}  // namespace convlab

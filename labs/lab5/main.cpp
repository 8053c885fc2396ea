// convlab lab 5 driver — do not edit. Your work is in coalescing.cu, divergence.cu,
// block_config.cu and bank_conflicts.cu.
//
// The harness's array lab (common/families/arrays/array_lab.hpp) runs the experiments of experiments.cu. Google
// Benchmark drives the timing, so its flags work too: --benchmark_filter=REGEX,
// --benchmark_format=console|json|csv, --benchmark_out=FILE, --benchmark_out_format=json|csv,
// --benchmark_enable_random_interleaving=true.
#include "build/gen/lab5/manifest.hpp"
#include "common/families/arrays/array_lab.hpp"
#include "common/report/report.hpp"
#include "common/core/number_format.hpp"
#include "labs/lab5/experiments.hpp"

namespace {

using namespace convlab;

std::string mib(double bytes) { return format_sig3(bytes / 1048576.0) + " MiB"; }

// The report's ceilings with experiment 5's shared memory, and the arrays.
std::vector<std::string> describe(const DeviceInfo& device, double copy_gbs, size_t n, uint64_t seed) {
    return {"Ceilings " + describe_ceilings(device, copy_gbs) + "; shared memory " + format_fixed(lab5::shared_peak_gbs(device), 0) +
                " GB/s (32 banks x 4 B x " + std::to_string(device.multiprocessors) + " SMs x " + format_fixed(device.sm_clock_mhz, 0) + " MHz)",
            "Arrays   " + std::to_string(n) + " floats in and out (" + mib(4.0 * n) + " each; L2 cache " + mib(double(device.l2_bytes)) +
                "), inputs k/8 in [0, 157] from seed " + std::to_string(seed)};
}

ArrayLabSpec lab5_spec() {
    ArrayLabSpec spec = array_spec_of(kManifest);  // labs/lab5/manifest
    spec.experiment_keys = lab5::experiment_keys();
    spec.default_seed = lab5::kDefaultSeed;
    spec.seed_help = "seed of the input values";
    spec.elements_help = "array length in floats (default: 8x the GPU's L2 cache)";
    spec.default_elements = lab5::default_elements;
    spec.variant_names = lab5::variant_names;
    spec.workspace = [](size_t n, const DeviceInfo& device, double copy_gbs, uint64_t seed, ArrayMemory& memory) {
        return std::unique_ptr<ArrayWorkspace>(new lab5::Workspace(n, device, copy_gbs, seed, memory));
    };
    spec.describe = describe;
    return spec;
}

}  // namespace

int main(int argc, char** argv) { return run_array_lab(argc, argv, lab5_spec()); }

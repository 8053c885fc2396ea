// convlab harness — do not edit in a lab.
// An image bigger than the GPU (lab 9) is a StripLabSpec: its defaults and the strip variants it
// compares. run_strip_lab() does the rest: the command line (with --gpu-memory and --gpus), the
// input in host memory, each variant from pageable and from pinned host memory as it asks,
// under the device-memory budget (held to it: device_memory_cap.hpp, and the driver's own
// account of every allocation: activity_trace.hpp), checked against the OpenMP reference a band
// of rows at a time (banded_check.hpp), timed end to end by the host clock with every GPU
// waited for, and the report: copy rates, kernel time and overlap efficiency from the driver's
// activity records, the speed-up over one GPU, and with --out a timeline picture a variant. For
// the grader: --raw-out runs compute no reference, and --timer-of / --timed-by time the strips
// from the grader's own process (strip_peer.hpp).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "common/runner/lab.hpp"
#include "common/families/strips/strips.hpp"

namespace convlab {

enum class HostMemory { Pageable, Pinned };
const char* host_memory_name(HostMemory memory);  // "pageable", "pinned"

struct StripVariant {
    std::string name;
    std::string description;
    std::function<void(const StripJob&)> run;
    std::vector<HostMemory> memories;  // a row for each, in order
    bool whole = false;                // no budget: the whole image at once where the GPU holds it
    bool several_gpus = false;         // given --gpus GPUs (the others one)
};

struct StripLabSpec {
    LabSpec lab;                      // number, title, student files, input defaults, presets
    std::string default_gpu_memory;   // --gpu-memory's default, e.g. "256MiB"
    std::vector<StripVariant> variants;
    std::string one_gpu;              // the variant the several-GPU rows are compared with
    // The lab's given kernel's mask: the k*k weights into the current device's constant memory,
    // called on every GPU before the variants run (lab 9: set_strip_mask).
    void (*set_mask)(const float* weights, int k) = nullptr;
};

// Returns the process exit status (exit_status.hpp). Never throws.
int run_strip_lab(int argc, char** argv, const StripLabSpec& spec);

}  // namespace convlab

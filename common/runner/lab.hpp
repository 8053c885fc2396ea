// convlab harness — do not edit in a lab.
// A lab is a LabSpec: its defaults and the variants it compares; every image lab's command line is
// read from one. An image filter's driver fills it and calls run_lab() (families/filters/
// filter_lab.hpp); the pipelines and the strips derive their command line from it.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/core/border.hpp"
#include "common/check/check.hpp"
#include "common/core/conv_args.hpp"
#include "common/core/image.hpp"
#include "common/cli/lab_manifest.hpp"
#include "common/core/mask.hpp"
#include "common/report/report.hpp"

namespace convlab {

class ImageDevice;
struct Options;

// A device back end other than CUDA for a lab's GPU variants (OpenCL's: families/filters/
// cl_device.hpp). The harness runs, checks and times those variants as any other (the same
// poison, check, timing plan and report) on the ImageDevice it opens; a lab without one uses CUDA
// (GpuSession). Its variants' launches reach the opened device through the back end itself.
class DeviceBackend {
  public:
    virtual ~DeviceBackend() = default;
    // The API's name ("OpenCL"), for the messages that say what it cannot do.
    virtual std::string api() const = 0;
    // Empty when the options' device can be used; otherwise why not, in a few words (the run
    // then says so in one line and exits kExitNoGpu, as a CUDA lab without a GPU does).
    // InputError when the options name a device that is not there.
    virtual std::string unavailable_reason(const Options& options) const = 0;
    // The device the options chose, open; the back end's variants launch on it while it lives.
    virtual std::unique_ptr<ImageDevice> open(const Options& options) const = 0;
    // A mode of the back end's own (OpenCL's --cl-list): its exit status, or nothing.
    virtual std::optional<int> run_own_mode(const Options& options) const = 0;
};

// The host-side problem every variant computes.
struct Problem {
    const Image& image;
    const Mask& mask;
    Border border;
};

struct CpuVariant {
    std::string name;
    std::string description;
    std::function<void(const Problem&, float* h_out, int threads)> run;
    bool sweep_threads = false;  // run once per --threads count (lab 0's scaling table)
    WorkModel model{};
    bool all_cores = false;  // without a sweep: one thread, or with this every core (lab 7's CPU peer)
    // The kit's own CPU code (a reference of common/): a graded run (--raw-out, the grader's build,
    // which links no reference) leaves it out. The student's CPU variants run there as any other.
    bool kit_reference = false;
};

struct GpuVariant {
    std::string name;
    std::string description;
    // Kernel only: launches on the default stream with the harness's device buffers. Timed.
    std::function<void(const ConvArgs&)> launch;
    // Optional, untimed, before the launches: e.g. copy the mask to constant memory.
    std::function<void(const Mask&)> prepare;
    // Optional end-to-end version: host image in, host result out (allocate, copy, launch, copy
    // back, free). Timed separately. It may allocate one more copy of the problem's buffers.
    std::function<void(const Problem&, float* h_out)> end_to_end;
    TileShape tile{};  // for the check's "tile edge" hint
    WorkModel model{};
    // The reference solution's expert tier (expert_tier.hpp): a row for information, beside the
    // design's; never a result the grader asks a submission for (raw_results leaves it out).
    bool expert = false;
};

// A source's experiment as one option (--preset NAME): the options it sets, as typed. Options on
// the command line come after them and win (`--preset NAME --size 5600` changes only the size).
struct Preset {
    std::string name;
    std::string description;        // the source and what it measured, for --help and the report
    std::vector<std::string> args;  // e.g. {"--size", "2800", "--mask", "box:3,box:5,box:7"}
};

// An option of one lab's own (lab 8's thresholds), in the help's group "Lab". Its value as typed,
// or its default, is Options::lab_values[name]; a flag's is "true" or "false". The lab checks it.
struct LabOption {
    std::string name;
    std::string help;
    std::string default_value;  // unused for a flag
    bool flag = false;
};

struct LabSpec {
    int number = 0;
    std::string title;
    std::string student_files;   // named in "not implemented yet" messages
    int min_mask_size = 1;
    int max_mask_size = 31;
    std::string default_mask = "gauss:7:2";  // one spec, or a comma-separated sweep
    int default_width = 2999;    // awkward on purpose: prime, not a multiple of any block
    int default_height = 1999;
    int default_channels = 3;
    int default_cpu_reps = 3;    // a long sweep may time the CPU reference once
    // Lab 6: a separable mask's reference is summed from its factors in two passes (K up to 63),
    // and every GPU launch gets ConvArgs::d_scratch, a float per value, for a pass's intermediate.
    bool two_pass_reference = false;
    bool float_intermediate = false;
    // Lab 7: every GPU variant that passes is also timed end to end by the harness's host code
    // (allocate, copy in, launch, copy out, free) from pageable and from pinned host memory, and
    // the report gives the host<->device bandwidth (transfers.hpp).
    bool transfers = false;
    std::vector<CpuVariant> cpu;
    std::vector<GpuVariant> gpu;
    std::string baseline;        // the variant "vs base" speedups are measured against
    std::vector<Preset> presets; // the sources' experiments this lab re-runs (handouts' "Then and now")
    std::vector<LabOption> lab_options;
    // Optional: the lab's own figures for a row whose runs are over (VariantResult::set_figure),
    // from its times and the problem it ran; the report's tables grow a column for each, and no
    // renderer or other lab changes.
    std::function<void(VariantResult& row, const Problem& problem)> own_figures;
    // The GPU variants' device back end when it is not CUDA (DeviceBackend above).
    std::shared_ptr<const DeviceBackend> device;
};

// A spec with the number, title and student files the lab's manifest gives (its driver includes
// build/gen/labN/manifest.hpp for kManifest); the driver adds the rest.
inline LabSpec spec_of(const LabManifest& manifest) { return spec_from<LabSpec>(manifest); }

}  // namespace convlab

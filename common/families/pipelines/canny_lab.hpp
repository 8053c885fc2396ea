// convlab harness — do not edit in a lab.
// A staged-pipeline lab (lab 8, the Canny edge detector) is a CannyLabSpec: its defaults and the
// GPU pipelines it compares, each a list of stages. run_canny_lab() does the rest: the command
// line (with --low, --high and --absolute), the grey input, the CPU reference (canny.hpp) timed
// stage by stage on every core and as a whole on one, each GPU stage checked alone on the
// reference's own input (exactly, but the smoothing within the two-pass float rounding), timed
// alone and as a pipeline (kernels only, then end to end with the copies), the whole edge map
// against the reference's (Pco, Pnd, Pfa), the report and the pictures. For the grader: the
// trusted side writes each stage's inputs (--write-stage-inputs), a graded run (--raw-out --stage
// --stage-inputs) runs one stage alone on them and writes its buffers, computing no reference, and
// --compare checks them value for value in a trusted run; the grader times one stage at a time
// from a process of its own (--stage with --timer-of and --timed-by: canny_peer.hpp).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "common/families/pipelines/canny_args.hpp"
#include "common/families/pipelines/canny_device.hpp"
#include "common/runner/lab.hpp"

namespace convlab {

struct CannyStage {
    std::string name;        // "smoothing", "gradients", "suppression", "gradients+suppression", "thresholds", "hysteresis"
    unsigned reads = 0;      // CannyBuffer bits the stage reads (the grey image always there)
    unsigned writes = 0;     // and writes; the check compares each with the reference's
    double bytes_per_pixel;  // its byte model: each input read once, each output written once
    std::function<void(const CannyArgs&)> launch;  // enqueues the stage on the default stream
};

struct CannyPipeline {
    std::string name;
    std::string description;
    std::function<void(const Mask&)> prepare;  // optional, untimed, first: lab 6's copy_factors_to_constant
    std::vector<CannyStage> stages;            // in order; together they take the grey image to the edge map
    // The reference solution's expert tier (common/runner/expert_tier.hpp: registered as
    // ExpertVariant<CannyPipeline>, named NAME-expert): rows for information, timed by the grader's
    // timer beside the design's; never a result the grader asks a submission for (the graded run,
    // the stage inputs and the trusted compare leave them out).
    bool expert = false;
};

struct CannyLabSpec {
    // Number, title, student files, input defaults, mask limits, presets. run_canny_lab adds the
    // threshold options and the variants' names (the CPU ones and one per pipeline).
    LabSpec lab;
    CannyThresholds thresholds;  // the defaults of --low, --high and --absolute
    std::vector<CannyPipeline> pipelines;  // run_canny_lab appends the expert tier's this program holds
};

// The CPU variant beside the GPU pipelines: the reference's stages on one core.
constexpr const char* kCannySequential = "sequential";

// Returns the process exit status (exit_status.hpp). Never throws.
int run_canny_lab(int argc, char** argv, CannyLabSpec spec);

}  // namespace convlab

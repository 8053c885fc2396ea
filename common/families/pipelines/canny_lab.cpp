// convlab harness — do not edit in a lab.
// run_canny_lab(): input -> CPU reference, stage by stage -> the sequential variant -> each GPU
// pipeline (its stages alone, then whole) -> report -> pictures. For the grader: --raw-out runs one
// stage alone on inputs the trusted side wrote (--stage, --stage-inputs), computing no reference;
// --write-stage-inputs is that trusted side; --compare checks what a graded run wrote.
#include "common/families/pipelines/canny_lab.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <memory>
#include <set>

#include "common/families/pipelines/canny_peer.hpp"
#include "common/families/pipelines/canny_pictures.hpp"
#include "common/families/pipelines/canny_planes.hpp"
#include "common/check/check.hpp"
#include "common/timing/cpu_work.hpp"
#include "common/core/errors.hpp"
#include "common/core/exit_status.hpp"
#include "common/device/gpu_session.hpp"
#include "common/cli/guarded_main.hpp"
#include "common/cli/lab_input.hpp"
#include "common/cli/options.hpp"
#include "common/grading/peer_link.hpp"
#include "common/grading/peer_timer.hpp"
#include "common/grading/peer_worker.hpp"
#include "common/report/output_folder.hpp"
#include "common/report/progress.hpp"
#include "common/grading/raw_check.hpp"
#include "common/grading/raw_result.hpp"
#include "common/report/report.hpp"
#include "common/runner/expert_tier.hpp"
#include "common/runner/family_run.hpp"
#include "common/core/separable.hpp"
#include "common/core/text_parse.hpp"
#include "common/core/number_format.hpp"

namespace convlab {
namespace {

constexpr const char* kReference = "openmp-reference";
// The reference's stages and their byte models (per pixel, each input read once, each output
// written once; hysteresis once, whatever its rounds).
struct CpuStage {
    const char* name;
    double bytes_per_pixel;
};
constexpr CpuStage kCpuStages[] = {{"smoothing", 5}, {"gradients", 9}, {"suppression", 9}, {"thresholds", 5}, {"hysteresis", 2}};

// Lab 8's own figures on a row (report.hpp's Figure): the stage a row times (none: the whole
// pipeline; CannyRun::row sets it), its share of its pipeline's stage times, a hysteresis' global
// rounds and the time of one, and the whole edge map's agreement with the reference's (canny.hpp's
// Pco, Pnd, Pfa).
std::string stage_of(const VariantResult& r) { return r.label("stage"); }
void set_rounds(VariantResult& r, int rounds) { r.set_figure("rounds", "rounds", "", rounds, 0); }
void set_edge_agreement(VariantResult& r, const EdgeAgreement& a) {
    r.set_figure("pco", "Pco", "", a.pco, 4);
    r.set_figure("pnd", "Pnd", "", a.pnd, 4);
    r.set_figure("pfa", "Pfa", "", a.pfa, 4);
}

// Rows of one pipeline's run (or the reference's) onto `results`, each stage row with its share of
// the sum of the stage rows' times, and a hysteresis stage's time a round.
void add_with_shares(std::vector<VariantResult>& results, std::vector<VariantResult> rows) {
    double sum = 0;
    for (const VariantResult& r : rows)
        if (!stage_of(r).empty() && r.time) sum += r.time->median_ms;
    for (VariantResult& r : rows) {
        if (stage_of(r).empty() || !r.time) continue;
        if (sum > 0) r.set_figure("share_pct", "share %", "%", 100 * r.time->median_ms / sum, 1);
        const std::optional<double> rounds = r.number("rounds");
        if (rounds && *rounds > 0) r.set_figure("ms_per_round", "ms/round", "ms", r.time->median_ms / *rounds);
    }
    results.insert(results.end(), rows.begin(), rows.end());
}

// The bytes a pixel of a pipeline of these stages (the CPU reference's, or a GPU pipeline's), under their models.
template <class Stages>
double pipeline_bytes(const Stages& stages) {
    double bytes = 0;
    for (const auto& s : stages) bytes += s.bytes_per_pixel;
    return bytes;
}

// The raw result names: a stage's buffer "PIPELINE STAGE BUFFER"; a whole pipeline's edge map
// "PIPELINE" and the smoothing it started from "PIPELINE smoothed". A check row of a stage is
// named "PIPELINE STAGE", the name a grading spec's "raw" gives.
std::string stage_result(const CannyPipeline& p, const CannyStage& s) { return p.name + " " + s.name; }
std::string pipeline_smoothing_result(const CannyPipeline& p) { return p.name + " smoothed"; }
// Raw results of the buffers `bits` of `stages` (its largest magnitude `largest`) in folder dir,
// each named `prefix` and the buffer's name.
void write_planes(const std::string& dir, const std::string& prefix, unsigned bits, const CannyStages& stages, float largest) {
    for (const BufferName& b : kBufferNames)
        if (bits & b.bit) write_raw_floats(raw_result_path(dir, prefix + b.name), plane_values(b.bit, stages, largest));
}

float threshold_value(const Options& options, const char* name) {
    const std::string& text = options.lab_values.at(name);
    float value = 0;
    if (!read_finite(text, &value) || value <= 0)
        throw InputError("--" + std::string(name) + " '" + text + "' is not a positive number; accepted: e.g. 0.1 (a fraction of "
                         "the largest gradient magnitude) or, with --absolute, a magnitude such as 40");
    return value;
}

CannyThresholds thresholds_of(const Options& options) {
    CannyThresholds t{threshold_value(options, "low"), threshold_value(options, "high"), options.lab_values.at("absolute") != "true"};
    if (t.low > t.high)
        throw InputError("--low " + options.lab_values.at("low") + " is above --high " + options.lab_values.at("high") +
                         "; accepted: 0 < low <= high");
    if (t.relative && t.high > 1)
        throw InputError("--high " + options.lab_values.at("high") +
                         " is above 1, more than the largest magnitude; accepted: fractions up to 1, or magnitudes with --absolute");
    return t;
}

// The lab's command line: its LabSpec with the thresholds and one variant name per pipeline.
LabSpec command_line_spec(const CannyLabSpec& spec) {
    LabSpec lab = spec.lab;
    const auto text = [](float v) { return format_sig3(v); };
    lab.lab_options = {
        {"low", "the low threshold: a fraction of the largest gradient magnitude, or with --absolute a magnitude", text(spec.thresholds.low)},
        {"high", "the high threshold, as --low", text(spec.thresholds.high)},
        {"absolute", "--low and --high are magnitudes, not fractions of the largest", "", true},
        {"stage", "grading, with --raw-out: run only this stage of each --variant pipeline, alone, on --stage-inputs", ""},
        {"stage-inputs", "grading: the folder of the buffers --stage reads (BUFFER.f32), as --write-stage-inputs wrote them", ""},
        {"write-stage-inputs", "grading, the trusted side: into this folder, for each stage of each --variant pipeline, a folder "
                               "(PIPELINE_STAGE) of the reference's values of exactly the buffers that stage reads; runs nothing", ""},
    };
    lab.cpu = {{kCannySequential, "the CPU reference's five stages on one core", nullptr}};
    lab.gpu.clear();
    for (const CannyPipeline& p : spec.pipelines) lab.gpu.push_back({p.name, p.description, nullptr});
    return lab;
}

class CannyRun : public FamilyRun {
  public:
    CannyRun(const CannyLabSpec& spec, const Options& options, const Image& image, const OutputFolder& out)
        : FamilyRun(spec.lab.number, options), spec_(spec), options_(options), image_(image), out_(out), mask_(options.masks.front()),
          thresholds_(thresholds_of(options)) {}

  private:
    // --raw-out: the grader's run of one stage. It computes no reference (the grader's build
    // holds none): the stage's inputs are the trusted side's, read from --stage-inputs.
    bool graded() const { return options_.graded(); }
    const std::string& lab_value(const char* name) const { return options_.lab_values.at(name); }
    size_t pixels() const { return size_t(image_.width) * image_.height; }

    // The reference first, where this run may hold it (the header states its thresholds): not in
    // a graded run (the grader's build holds none) nor in peer timing (the timer checks with its own).
    void fill_header(const std::string& source) override {
        if (!graded() && options_.timed_by < 0 && options_.timer_of < 0) {
            reference_ = canny_reference(image_, mask_, options_.border, thresholds_, 0);
            has_reference_ = true;
        }
        report_ = report_of_image_run(spec_.lab.number, spec_.lab.title, options_, source, image_);  // one channel: refused otherwise
        report_cpu_reps(report_, options_);
        report_.has_gpu_part = !spec_.pipelines.empty();
        if (report_.has_gpu_part) report_demo_gpu_reps(report_, options_);
        const Tolerance s = smoothing_tolerance();
        char smoothing[96];
        std::snprintf(smoothing, sizeof smoothing, "%.3g + %.3g*|ref|", s.atol, s.rtol);
        report_.check_rule = "each GPU stage alone, on the CPU reference's own input: smoothing within " + std::string(smoothing) +
                             ", every other stage's output equal to the reference's; a pipeline's own edge map against the "
                             "reference's as Pco, Pnd, Pfa; outputs poisoned before every run; thresholds " +
                             describe_thresholds();
        std::string models = "per pixel, each input read once and each output written once:";
        std::set<std::string> named;
        for (const CannyPipeline& p : spec_.pipelines)
            for (const CannyStage& s : p.stages)
                if (named.insert(s.name).second) {
                    const bool whole = s.bytes_per_pixel == std::floor(s.bytes_per_pixel);
                    models += std::string(named.size() > 1 ? "," : "") + " " + s.name + " " +
                              format_fixed(s.bytes_per_pixel, whole ? 0 : 1) + " B";
                }
        report_.byte_model_rule = models + (named.empty() ? "" : "; hysteresis's once, whatever its rounds; a pipeline the sum of its stages'");
    }

    bool gpu_variants_selected() const override { return any_pipeline_selected(); }
    bool cpu_part_runs() const override { return !graded(); }

    // The reference and the sequential variant, then each selected pipeline, whole; a graded run
    // (run_graded_stage) only the --stage of each of a submission's pipelines, never the expert tier's.
    void run_variants(const std::string& gpu_reason) override {
        if (!graded()) {
            run_reference();
            if (options_.selects(kCannySequential)) run_sequential();
        }
        if (gpu_reason.empty() && any_pipeline_selected()) {
            open_session(1);
            device_ = std::make_unique<CannyDevice>(session_->args(), thresholds_);
        }
        const auto runs = [&](const CannyPipeline& p) {
            return options_.selects(p.name) && !(graded() && (p.expert || !chosen_stage(p)));
        };
        Progress progress(lab_, int(std::count_if(spec_.pipelines.begin(), spec_.pipelines.end(), runs)));
        for (const CannyPipeline& p : spec_.pipelines) {
            if (!runs(p)) continue;
            const CannyStage* graded_stage = graded() ? chosen_stage(p) : nullptr;
            progress.step(p.name);
            std::string why = gpu_reason;
            if (why.empty() && !session_->healthy()) why = "an earlier CUDA error ended the GPU part";
            if (!why.empty()) report_.results.push_back(row(p.name, p.description, "gpu", "", 0, "skipped", "skipped: " + why));
            else if (graded_stage) report_.results.push_back(run_graded_stage(p, *graded_stage));
            else run_pipeline(p);
        }
    }

    bool any_pipeline_selected() const {
        return std::any_of(spec_.pipelines.begin(), spec_.pipelines.end(), [&](const CannyPipeline& p) { return options_.selects(p.name); });
    }

    // Pipeline p's stage that --stage names (a graded run, peer timing); null when p has none so named.
    const CannyStage* chosen_stage(const CannyPipeline& p) const {
        for (const CannyStage& s : p.stages)
            if (s.name == lab_value("stage")) return &s;
        return nullptr;
    }

    // Smoothing is lab 6's float sum in another order: held to twice the two-pass rounding bound
    // of each (the reference's float sum and the GPU's both within it of the double sum).
    Tolerance smoothing_tolerance() const {
        const Tolerance t = separable_tolerance_for(mask_);
        return {2 * t.atol, 2 * t.rtol};
    }

    // The reference's thresholds (absolute by now), and the fractions they came from; a run
    // without the reference (graded, or peer timing), the thresholds as given.
    std::string describe_thresholds() const {
        if (!has_reference_)
            return "low " + format_sig3(thresholds_.low) + ", high " + format_sig3(thresholds_.high) +
                   (thresholds_.relative ? " of the largest magnitude" : "");
        const CannyThresholds& a = reference_.thresholds;
        const std::string absolute = "low " + format_sig3(a.low) + ", high " + format_sig3(a.high);
        if (!thresholds_.relative) return absolute;
        return absolute + " (" + format_sig3(thresholds_.low) + " and " + format_sig3(thresholds_.high) + " of the largest magnitude)";
    }

    VariantResult row(const std::string& name, const std::string& description, const char* kind, const std::string& stage,
                      double bytes_per_pixel, const char* status = "", const std::string& message = "") const {
        VariantResult r;
        r.name = name;
        r.description = description;
        r.kind = kind;
        r.status = status;
        r.message = message;
        if (!stage.empty()) r.set_label("stage", "stage", stage);
        r.mask_spec = mask_.spec;
        r.mask_size = mask_.k;
        r.model.bytes_per_value = bytes_per_pixel;
        r.model.counts_flops = false;
        return r;
    }

    // The reference on every core: each stage timed alone, then the whole.
    void run_reference() {
        const int w = image_.width, h = image_.height;
        CannyStages scratch = reference_;  // each stage's output goes here, its input from the reference
        const std::function<void()> stages[] = {
            [&] { canny_smooth(image_, mask_, options_.border, scratch.smoothed.data(), 0); },
            [&] { canny_gradients(reference_.smoothed.data(), w, h, options_.border, scratch.magnitude.data(), scratch.direction.data(), 0); },
            [&] { canny_suppress(reference_.magnitude.data(), reference_.direction.data(), w, h, scratch.suppressed.data(), 0); },
            [&] {
                const CannyThresholds a = absolute_thresholds(thresholds_, reference_.magnitude.data(), pixels());
                canny_threshold(reference_.suppressed.data(), pixels(), a, scratch.labels.data(), 0);
            },
            [&] { canny_hysteresis_omp(reference_.labels.data(), w, h, scratch.edges.data(), 0); },
        };
        const auto reference_row = [&](const char* stage, double bytes_per_pixel) {
            VariantResult r = row(kReference, "the CPU reference, all cores", "reference", stage, bytes_per_pixel, "pass",
                                  "the reference every result is checked against");
            r.threads = omp_get_max_threads();
            return r;
        };
        std::vector<VariantResult> rows;
        for (size_t s = 0; s < std::size(kCpuStages); ++s) {
            VariantResult r = reference_row(kCpuStages[s].name, kCpuStages[s].bytes_per_pixel);
            stages[s]();  // once untimed: a warm cache, as for the GPU's warm-ups
            if (!options_.check_only) r.time = time_on_host_clock(stages[s], options_.cpu_reps);
            rows.push_back(r);
        }
        VariantResult whole = reference_row("", pipeline_bytes(kCpuStages));
        if (!options_.check_only)  // into the stages' scratch planes: no allocation timed, as for the GPU
            whole.time = time_on_host_clock([&] { canny_reference_into(image_, mask_, options_.border, thresholds_, 0, scratch); },
                                            options_.cpu_reps);
        rows.push_back(whole);
        add_with_shares(report_.results, rows);
    }

    void run_sequential() {
        const double bytes = pipeline_bytes(kCpuStages);
        VariantResult r = row(kCannySequential, "the CPU reference's five stages on one core", "cpu", "", bytes);
        r.threads = 1;
        CannyStages got;  // allocated by the first run, reused by the timed ones
        const auto once = [&] { canny_reference_into(image_, mask_, options_.border, thresholds_, 1, got); };
        once();
        record(r, check_plane(kCannyEdges, as_floats(got.edges)));
        if (r.status == "pass" && !options_.check_only) {
            r.time = time_on_host_clock(once, options_.cpu_reps);
            record(r, check_plane(kCannyEdges, as_floats(got.edges)));
        }
        report_.results.push_back(r);
    }

    void record(VariantResult& r, const CheckResult& check, const std::string& what = "") {
        r.check = check;
        r.status = check.passed ? "pass" : "fail";
        r.message = (what.empty() || check.passed ? "" : what + ": ") + check.summary();
    }

    // --compare: the grader's trusted check of the raw results another process wrote into a folder.
    // A row for each stage whose buffers are there (each against the reference's, from the
    // reference's input), for each pipeline whose edge map is there (check_pipeline), for the
    // sequential variant's edge map, and for any other .f32 file (which passes for nothing). No
    // variant runs; every row is named by the result it checked, never by a file's name.
    int compare_raw_results() override {
        namespace fs = std::filesystem;
        RawFolder folder(options_.compare_file);
        const auto read = [&](const std::string& path, size_t expected) { return read_raw_floats(path, expected + 1); };
        std::vector<VariantResult> rows;
        const auto add = [&](VariantResult r, const CheckResult& c, const std::string& what) {
            record(r, c, what);
            rows.push_back(r);
        };
        if (const std::string path = folder.file_of(kCannySequential); fs::is_regular_file(path))
            add(row(kCannySequential, "the raw result in " + path, "submitted", "", 0),
                check_plane(kCannyEdges, read(path, pixels())), "edges");
        std::set<std::string> checked;
        for (const CannyPipeline& p : spec_.pipelines) {
            if (p.expert) continue;  // the reference solution's own, never a submission's: a file so named is a stray
            for (const CannyStage& s : p.stages) {
                if (!checked.insert(stage_result(p, s)).second) continue;
                std::optional<CheckResult> c;  // the first buffer's that failed, or the last one's checked
                std::string what, absent;
                for (const BufferName& b : kBufferNames) {
                    if (!(s.writes & b.bit)) continue;
                    const std::string path = folder.file_of(stage_result(p, s) + " " + b.name);
                    if (!fs::is_regular_file(path)) {
                        absent += (absent.empty() ? "" : ", ") + std::string(b.name);
                    } else if (!c || c->passed) {
                        c = check_plane(b.bit, read(path, b.bit == kCannyMaxMagnitude ? 1 : pixels()));
                        if (!c->passed) what = b.name;
                    }
                }
                if (!c) continue;  // none of its buffers there
                if (!absent.empty() && c->passed) {
                    c->passed = false;
                    what = "no " + absent + " written";
                }
                add(row(stage_result(p, s), p.description, "submitted", s.name, s.bytes_per_pixel), *c, what);
            }
            const std::string edges = folder.file_of(p.name), smoothed = folder.file_of(pipeline_smoothing_result(p));
            if (!fs::is_regular_file(edges)) continue;
            std::string what;
            CheckResult c;  // a fail, without a smoothed image to check the edges on
            if (!fs::is_regular_file(smoothed)) what = "no smoothed image written beside the edge map";
            else c = check_pipeline(read(smoothed, pixels()), read(edges, pixels()), &what);
            add(row(p.name, p.description, "submitted", "", 0), c, what);
        }
        for (const std::string& name : folder.strays())
            rows.push_back(row(name, "a file no result of the lab is named by", "submitted", "", 0, "fail",
                               RawFolder::kStrayMessage));
        return finish_compare(report_, rows, options_.format);
    }

    // ---- grading: a stage alone in a process of its own, which never holds the reference ----

    // --write-stage-inputs DIR, the trusted side: the reference's values of exactly the buffers
    // each stage of each selected pipeline reads, a folder a stage. A graded run of that stage is
    // given its folder alone: it never holds another stage's answer.
    std::optional<int> run_own_mode() override {
        namespace fs = std::filesystem;
        const std::string& dir = lab_value("write-stage-inputs");
        if (dir.empty()) return std::nullopt;
        if (!fs::is_directory(dir)) throw InputError("--write-stage-inputs " + dir + " is not a folder; accepted: an existing folder");
        for (const CannyPipeline& p : spec_.pipelines) {
            if (p.expert || !options_.selects(p.name)) continue;  // no graded run of the expert tier
            for (const CannyStage& s : p.stages) {
                // "staged_gradients": the stage's raw result name made a file name (raw_result.hpp), without ".f32"
                const std::string file = raw_file_name(stage_result(p, s));
                const std::string folder = dir + "/" + file.substr(0, file.size() - 4);
                fs::create_directories(folder);
                write_planes(folder, "", s.reads, reference_, reference_.largest);
            }
        }
        return int(kExitPass);
    }

    // --stage-inputs: the buffers stage s reads, as the trusted side wrote them; each of the
    // image's size (the largest magnitude: one value), bytes 0 to 255 where the buffer holds bytes.
    CannyStages read_stage_inputs(const CannyStage& s) const {
        const std::string& dir = lab_value("stage-inputs");
        CannyStages in;
        in.width = image_.width, in.height = image_.height;
        const auto bytes_of = [&](const std::vector<float>& values, const char* name) {
            for (float v : values)
                if (!(v >= 0 && v <= 255 && v == std::floor(v)))
                    throw InputError("--stage-inputs: " + std::string(name) + ".f32 holds " + std::to_string(v) +
                                     ", not a byte value 0 to 255");
            return std::vector<uint8_t>(values.begin(), values.end());
        };
        for (const BufferName& b : kBufferNames) {
            if (!(s.reads & b.bit)) continue;
            const std::string path = raw_result_path(dir, b.name);
            if (!std::filesystem::is_regular_file(path))
                throw InputError("--stage-inputs " + dir + " holds no " + b.name + ".f32, which stage " + s.name +
                                 " reads; accepted: a folder --write-stage-inputs wrote for this stage");
            const size_t want = b.bit == kCannyMaxMagnitude ? 1 : pixels();
            std::vector<float> values = read_raw_floats(path, want + 1);
            if (values.size() != want)
                throw InputError("--stage-inputs: " + std::string(b.name) + ".f32 holds " + std::to_string(values.size()) +
                                 " values, not " + std::to_string(want));
            switch (b.bit) {
                case kCannySmoothed: in.smoothed = std::move(values); break;
                case kCannyMagnitude: in.magnitude = std::move(values); break;
                case kCannyDirection: in.direction = bytes_of(values, b.name); break;
                case kCannyMaxMagnitude: in.largest = values[0]; break;
                case kCannySuppressed: in.suppressed = std::move(values); break;
                case kCannyLabels: in.labels = bytes_of(values, b.name); break;
                default: in.edges = bytes_of(values, b.name); break;
            }
        }
        return in;
    }

    // A graded run's stage s of pipeline p: alone, on the trusted side's inputs, every other buffer
    // poisoned first, its outputs written for the trusted check; nothing checked here.
    VariantResult run_graded_stage(const CannyPipeline& p, const CannyStage& s) {
        VariantResult r = row(p.name, p.description, "gpu", s.name, s.bytes_per_pixel);
        ran(r, [&] {
            const CannyStages inputs = read_stage_inputs(s);
            prepare_for_one_stage(*session_, p, mask_);
            device_->upload(s.reads, inputs);
            device_->poison(kAllCannyBuffers & ~s.reads);  // nothing of an earlier stage or pipeline to lean on
            const int launches = session_->run_counting_launches([&] { s.launch(device_->args()); });
            if (launches == 0 || (launches < 0 && !options_.unknown_launches_pass())) {
                r.status = "fail";
                r.message = launches == 0 ? "launched no kernel: a GPU stage must compute its result on the GPU"
                                          : session_->uncounted_launches();
                return;
            }
            CannyStages got;
            float largest = -1;
            device_->fetch(s.writes, got, &largest);
            write_planes(options_.raw_out_dir, stage_result(p, s) + " ", s.writes, got, largest);
            if (s.writes & kCannyEdges) set_rounds(r, device_->rounds());
            record_written(r);
        });
        return r;
    }

    // Runs a GPU part of row r's run: true when it ran to its end, else r says why not: not
    // implemented yet, refused by this GPU, a CUDA error (which may end the GPU part), or a call of
    // the kit's reference, which the grader's build holds none of (it fails that part alone).
    bool ran(VariantResult& r, const std::function<void()>& part) {
        try {
            part();
            return true;
        } catch (const CudaError& e) {
            r.status = "error";
            r.message = e.what();
            cuda_failed_ = cuda_failed_ || !session_->healthy();
        } catch (...) {
            record_thrown(r, spec_.lab.student_files);
        }
        return false;
    }

    // The session, the image and the mask loaded; `canny_devices` sets of Canny buffers fit beside them.
    void open_session(int canny_devices) {
        session_ = std::make_unique<GpuSession>();
        report_.device = session_->info();
        report_.copy_bandwidth_gbs = session_->copy_bandwidth_gbs();
        session_->load_image(image_, options_.border, mask_.k, canny_devices * CannyDevice::bytes_for(image_.width, image_.height), true);
        session_->load_mask(mask_);
    }

    // Peer timing of --stage of each selected pipeline (canny_peer.hpp): --timed-by serves the
    // grader's timer; --timer-of is that timer, which reports each stage's times and checks.
    int serve_timer(PeerLink& link) override {
        open_session(1);
        CannyPeerServer server(*session_, spec_.pipelines, mask_, thresholds_);
        return serve_peer_timer(link, *session_, server);
    }

    void time_peer(PeerLink& link) override {
        open_session(2);  // the shared buffers, and the inputs staged out of the program's reach
        CannyPeerTarget target(*session_, spec_.pipelines, image_.width, image_.height, mask_, options_.border, thresholds_);
        PeerTimer timer(link, target, PeerTimerPlan{options_.warmup, options_.reps});
        for (const CannyPipeline& p : spec_.pipelines) {
            const CannyStage* s = chosen_stage(p);
            const bool timed = p.expert ? options_.names(p.name) : options_.selects(p.name);  // run_options.hpp
            if (!timed || !s) continue;
            VariantResult r = row(p.name, p.description, "gpu", s->name, s->bytes_per_pixel);
            timer.time_variant(stage_result(p, *s), r);
            report_.results.push_back(r);
        }
        timer.finish();
    }

    // One buffer's values against the reference's: the smoothing within its tolerance, every
    // other buffer exactly; values of the wrong count fail.
    CheckResult check_plane(unsigned bit, const std::vector<float>& got) const {
        return check_canny_plane(bit, got, reference_, smoothing_tolerance(), mask_.radius());
    }

    // One stage alone on the reference's input: checked, timed, checked again. A stage that
    // launched no kernel fails: its answer was not computed on the GPU, whatever it holds. (A
    // graded run takes run_graded_stage instead, and writes raw results there.)
    VariantResult run_stage(const CannyPipeline& p, const CannyStage& s) {
        VariantResult r = row(p.name, p.description, "gpu", s.name, s.bytes_per_pixel);
        const auto load = [&](int) {  // the reference's input, the outputs poisoned
            device_->upload(s.reads, reference_);
            device_->poison(s.writes);
        };
        CannyStages got;
        float largest = -1;
        std::string what;
        // The stage's outputs against the reference's: the first buffer that differs (named in what), or a pass.
        const auto fetch_and_check = [&] {
            device_->fetch(s.writes, got, &largest);
            return check_canny_planes(s.writes, got, largest, reference_, smoothing_tolerance(), mask_.radius(), &what);
        };
        load(0);
        const int launches = session_->run_counting_launches([&] { s.launch(device_->args()); });
        record(r, fetch_and_check(), what);
        if (launches == 0) {
            r.status = "fail";
            r.message = "launched no kernel: a GPU stage must compute its result on the GPU (" + r.message + ")";
        }
        if (s.writes & kCannyEdges) set_rounds(r, device_->rounds());
        if (r.status == "pass" && !options_.check_only) {
            r.time = session_->time([&] { s.launch(device_->args()); }, plan(), false, load);
            const CheckResult again = fetch_and_check();
            if (!again.passed) {
                record(r, again, what);
                r.message = "passed the first run but failed after timing (a race?): " + r.message;
            }
        }
        return r;
    }

    TimingPlan plan() const { return TimingPlan{options_.warmup, options_.reps, options_.flush_l2}; }

    // A whole pipeline's edge map, from its own smoothing: the smoothing within its stage's
    // tolerance of the reference's, and the edges exactly the reference's stages 2 to 5 run on
    // that smoothing (a smoothing summed in another order may move an edge across a threshold,
    // which is no mistake of the pipeline's). *what names the part that failed.
    CheckResult check_pipeline(const std::vector<float>& smoothed, const std::vector<float>& edges, std::string* what) const {
        CheckResult c = check_plane(kCannySmoothed, smoothed);
        if (!c.passed) {
            *what = "smoothed";
            return c;
        }
        CannyStages own;
        own.width = image_.width, own.height = image_.height;
        own.smoothed = smoothed;
        canny_after_smoothing(options_.border, thresholds_, 0, own);
        c = check_values(edges, as_floats(own.edges), image_.width, image_.height);
        if (!c.passed) *what = "edges (against the reference's stages 2 to 5 on the pipeline's own smoothing)";
        return c;
    }

    // The pipeline from the grey image on its own results: the edge map checked as above, and
    // against the reference's (Pco, Pnd, Pfa).
    VariantResult run_whole(const CannyPipeline& p, const std::string& stages_failed, std::vector<uint8_t>& edges) {
        VariantResult r = row(p.name, p.description, "gpu", "", pipeline_bytes(p.stages));
        const auto all_stages = [&] {
            for (const CannyStage& s : p.stages) s.launch(device_->args());
        };
        const auto poison_all = [&](int) { device_->poison(kAllCannyBuffers); };
        poison_all(0);
        session_->run(all_stages);
        device_->fetch_edges(edges.data());
        CannyStages got;
        device_->fetch(kCannySmoothed, got);
        std::string what;
        record(r, check_pipeline(got.smoothed, as_floats(edges), &what), what);
        const EdgeAgreement a = compare_edges(edges.data(), reference_.edges.data(), edges.size());
        set_edge_agreement(r, a);
        set_rounds(r, device_->rounds());
        if (!stages_failed.empty()) {
            r.status = "fail";
            r.message = stages_failed + " failed alone (its row says how); the whole: " + r.message;
        }
        if (r.status == "pass" && (a.fn || a.fp))
            report_.notes.push_back("note: " + p.name + ": on its own smoothing the edge map differs from the reference's at " +
                                    std::to_string(a.fn + a.fp) + " pixels (" + std::to_string(a.fn) + " missed, " +
                                    std::to_string(a.fp) + " false), as stages 2 to 5 of the reference do on that smoothing");
        if (r.status != "pass" || options_.check_only) return r;
        r.time = session_->time(all_stages, plan(), false, poison_all);
        const auto end_to_end = [&] {
            device_->upload_grey(image_);
            all_stages();
            device_->fetch_edges(edges.data());
        };
        r.end_to_end = session_->time(end_to_end, plan(), false, poison_all);
        const EdgeAgreement after = compare_edges(edges.data(), reference_.edges.data(), edges.size());
        if (after.tp != a.tp || after.fp != a.fp || after.fn != a.fn) {
            r.status = "fail";
            r.message = "the edge map after timing differs from the first run's (a race?)";
        }
        return r;
    }

    // Each stage alone (one not implemented yet leaves the others to be checked: each runs on the
    // reference's input), then the whole pipeline when every stage ran. A preparation that is not
    // implemented (lab 6's copy of the factors) leaves the stages to run too: only the smoothing
    // needs it, and fails its check without it.
    void run_pipeline(const CannyPipeline& p) {
        std::vector<VariantResult> rows;
        std::vector<uint8_t> edges(pixels());
        std::string failed, missing;
        // Runs a part; a stage (or, with an empty name, the preparation or the whole) that did not
        // run to its end gets its row, but a preparation not implemented or refused only its
        // mention in `missing`, which names such a stage too.
        const auto attempt = [&](const std::string& stage, bool whole, const std::function<void()>& part) {
            VariantResult r = row(p.name, p.description, "gpu", stage, 0);
            if (ran(r, part)) return;
            const bool error = r.status == "error";
            if (error || !stage.empty() || whole) rows.push_back(r);
            if (error) return;
            missing += (missing.empty() ? "" : ", ") + (stage.empty() ? "the preparation (" + r.message + ")" : stage);
        };
        if (p.prepare) attempt("", false, [&] { session_->run([&] { p.prepare(mask_); }); });
        for (const CannyStage& s : p.stages) {
            if (cuda_failed_) break;
            attempt(s.name, false, [&] {
                rows.push_back(run_stage(p, s));
                if (rows.back().status != "pass") failed += (failed.empty() ? "" : ", ") + s.name;
            });
        }
        // After a CUDA error, the error's row says what happened: nothing more can run.
        if (!cuda_failed_ && missing.empty())
            attempt("", true, [&] { rows.push_back(run_whole(p, failed, edges)); });
        else if (!cuda_failed_)
            rows.push_back(row(p.name, p.description, "gpu", "", 0, "not-implemented",
                               "the whole pipeline needs every stage; not implemented yet: " + missing));
        add_with_shares(report_.results, rows);
        if (out_.enabled() && !rows.empty() && stage_of(rows.back()).empty() && rows.back().number("pco"))
            pictures_.emplace_back(p.name, edges);
    }

    const OutputFolder* output_folder() const override { return &out_; }

    void save_outputs() override {
        if (!out_.enabled() || !has_reference_) return;  // a graded run's pictures would have no reference to show
        const int w = image_.width, h = image_.height;
        std::vector<std::function<void()>> saves{
            [&] { out_.save_image("input", image_); },
            [&] { out_.save_image("reference-edges", edge_map_picture(reference_.edges.data(), w, h)); },
            [&] { out_.save_image("reference-magnitude", magnitude_picture(reference_.magnitude.data(), w, h)); }};
        for (const auto& [name, edges] : pictures_) {
            saves.push_back([&, &name = name, &edges = edges] { out_.save_image(name + "-edges", edge_map_picture(edges.data(), w, h)); });
            saves.push_back([&, &name = name, &edges = edges] {
                out_.save_image(name + "-diff", edge_difference_picture(edges.data(), reference_.edges.data(), w, h));
            });
        }
        OutputFolder::save_side_by_side(saves);
        std::cerr << "lab" << spec_.lab.number << ": pictures saved in " << out_.path() << "/\n";
    }

    const CannyLabSpec& spec_;
    const Options& options_;
    const Image& image_;
    const OutputFolder& out_;
    const Mask& mask_;
    const CannyThresholds thresholds_;
    CannyStages reference_;
    bool has_reference_ = false;  // fill_header computed it: never in a graded run or peer timing
    std::unique_ptr<GpuSession> session_;
    std::unique_ptr<CannyDevice> device_;
    std::vector<std::pair<std::string, std::vector<uint8_t>>> pictures_;
};

// The grading options, which go together as the grader passes them: --raw-out with --stage (a stage
// of a selected pipeline) and --stage-inputs; --write-stage-inputs alone.
void check_grading_options(const Options& options, const CannyLabSpec& spec) {
    const std::string& stage = options.lab_values.at("stage");
    const bool graded = !options.raw_out_dir.empty(), inputs = !options.lab_values.at("stage-inputs").empty();
    const bool writes = !options.lab_values.at("write-stage-inputs").empty();
    const bool peer = options.timer_of >= 0 || options.timed_by >= 0;
    const std::string accepted = "; accepted: --raw-out DIR --stage NAME --stage-inputs DIR (a graded run of one stage), "
                                 "--write-stage-inputs DIR without them, --stage NAME with --timer-of or --timed-by (peer timing "
                                 "of one stage), or none of these";
    if (writes && (graded || !stage.empty() || inputs || !options.compare_file.empty() || peer))
        throw InputError("--write-stage-inputs writes the trusted side's inputs and runs nothing" + accepted);
    if (peer && (stage.empty() || inputs))
        throw InputError("peer timing times one stage of each pipeline on inputs the timer makes" + accepted);
    if (peer && stage == "smoothing")
        throw InputError("peer timing times the stages after the smoothing, which is lab 6's kernel, timed in lab 6" + accepted);
    if (!peer && (graded != (!stage.empty()) || graded != inputs))
        throw InputError("a lab " + std::to_string(spec.lab.number) + " run with --raw-out grades one stage alone" + accepted);
    if (!graded && !peer) return;
    std::string names;
    for (const CannyPipeline& p : spec.pipelines) {
        if ((p.expert && !peer) || !options.selects(p.name)) continue;  // the expert tier is timed (peer timing), never graded
        for (const CannyStage& s : p.stages) {
            if (s.name == stage) return;
            if (names.find(s.name) == std::string::npos) names += (names.empty() ? "" : ", ") + s.name;
        }
    }
    throw InputError("--stage '" + stage + "' is no stage of the pipelines run; accepted: " +
                     (names.empty() ? "a stage of the lab's own pipelines (the expert tier's are timed, never graded)" : names));
}

}  // namespace

int run_canny_lab(int argc, char** argv, CannyLabSpec spec) {
    return guarded_main("lab" + std::to_string(spec.lab.number), "a smaller --size or --tile-to", [&] {
        add_expert_tier(spec.pipelines);  // a reference solution's tuned pipelines, after the design's (expert_tier.hpp)
        const LabSpec lab = command_line_spec(spec);
        const Options options = parse_one_mask_options(argc, argv, lab, "smooths with", "--mask gauss:K:SIGMA");
        if (options.help) {
            std::cout << options.help_text;
            return int(kExitPass);
        }
        try {
            require_separable(options.masks.front());
        } catch (const Unsupported& e) {  // every variant smooths with the mask's factors: bad input here
            throw InputError(e.what());
        }
        check_grading_options(options, spec);
        std::string source;
        const Image image = make_lab_input(options, 1, &source);
        if (image.channels != 1)
            throw InputError(source + " has " + std::to_string(image.channels) +
                             " channels; the edge detector takes one: add --channels 1 to convert it to grey");
        const OutputFolder out(options.out_dir);
        return CannyRun(spec, options, image, out).run(source);
    });
}

}  // namespace convlab

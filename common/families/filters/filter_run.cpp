// convlab harness — do not edit in a lab.
// run_lab() (filter_lab.hpp): input -> GPU set-up -> CPU reference -> CPU variants -> GPU variants -> report -> pictures.
// A graded run (--raw-out: the grader's build, which holds no reference) computes no reference and
// checks nothing: it writes each result, and each timed run's spot values, for the trusted check.
#include <omp.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <limits>
#include <optional>

#include "common/timing/cpu_work.hpp"
#include "common/core/errors.hpp"
#include "common/core/number_format.hpp"
#include "common/core/exit_status.hpp"
#include "common/device/gpu_session.hpp"
#include "common/cli/case_list.hpp"
#include "common/cli/guarded_main.hpp"
#include "common/families/filters/filter_lab.hpp"
#include "common/runner/expert_tier.hpp"
#include "common/runner/family_run.hpp"
#include "common/cli/lab_input.hpp"
#include "common/cli/options.hpp"
#include "common/report/output_folder.hpp"
#include "common/report/progress.hpp"
#include "common/families/filters/image_peer.hpp"
#include "common/grading/peer_link.hpp"
#include "common/core/reference.hpp"
#include "common/grading/raw_result.hpp"
#include "common/check/spot_check.hpp"
#include "common/core/synthetic.hpp"
#include "common/timing/transfers.hpp"

namespace convlab {

std::vector<RawResult> raw_results(const LabSpec& spec) {
    std::vector<RawResult> results;
    for (const CpuVariant& v : spec.cpu) results.push_back({v.name, v.model});
    for (const GpuVariant& v : spec.gpu) {
        if (v.expert) continue;  // the reference solution's own, never a submission's
        results.push_back({v.name, v.model});
        if (v.end_to_end) results.push_back({end_to_end_result_name(v.name), v.model});
    }
    return results;
}

namespace {

constexpr float kPoison = std::numeric_limits<float>::quiet_NaN();

// One lab run: every selected variant for every mask of the sweep (usually one mask).
class LabRun : public FamilyRun {
  public:
    LabRun(const LabSpec& spec, const Options& options, const Image& image, const OutputFolder& out)
        : FamilyRun(spec.number, options), spec_(spec), options_(options), image_(image), out_(out) {}

  private:
    // What one mask of the sweep needs while its variants run. Each variant's row carries its
    // own tolerance (tolerance_for(mask, model)): a two-pass sum is held to a tighter one.
    struct Case {
        const Mask& mask;
        Problem problem;
        std::vector<float> reference;
    };

    bool graded() const { return options_.graded(); }

    void fill_header(const std::string& source) override {
        report_ = report_of_image_run(spec_.number, spec_.title, options_, source, image_);
        for (const Mask& m : options_.masks) {
            const bool two_pass = m.separable() && any_variant_has(&WorkModel::separable);
            report_.two_pass_tolerances.push_back(two_pass ? std::optional(separable_tolerance_for(m)) : std::nullopt);
            const bool integer = m.box() && any_variant_has(&WorkModel::integer_sums);
            report_.integer_sum_tolerances.push_back(integer ? std::optional(integer_box_tolerance()) : std::nullopt);
        }
        report_cpu_reps(report_, options_);
        report_.baseline = spec_.baseline;
        report_.has_gpu_part = has_gpu_part();
        if (report_.has_gpu_part) report_demo_gpu_reps(report_, options_);
    }

    // Whether a variant of the lab, CPU or GPU, sums as its work model's `flag` says (the header's
    // tolerances for two-pass and integer sums).
    bool any_variant_has(bool WorkModel::*flag) const {
        const auto has = [flag](const auto& v) { return v.model.*flag; };
        return std::any_of(spec_.cpu.begin(), spec_.cpu.end(), has) || std::any_of(spec_.gpu.begin(), spec_.gpu.end(), has);
    }

    bool has_gpu_part() const override { return !spec_.gpu.empty(); }
    // A lab whose variants run on another back end (OpenCL) asks it for its device, and may have
    // a mode of its own (--cl-list).
    std::string gpu_unavailable() const override {
        return spec_.device ? spec_.device->unavailable_reason(options_) : FamilyRun::gpu_unavailable();
    }
    std::optional<int> run_own_mode() override {
        return spec_.device ? spec_.device->run_own_mode(options_) : std::nullopt;
    }
    bool gpu_variants_selected() const override {
        return std::any_of(spec_.gpu.begin(), spec_.gpu.end(), [&](const GpuVariant& v) { return options_.selects(v.name); });
    }

    void run_variants(const std::string& gpu_reason) override {
        if (has_gpu_part() && gpu_reason.empty()) open_gpu();
        const auto selected = [&](const auto& variants) {
            return int(std::count_if(variants.begin(), variants.end(), [&](const auto& v) { return options_.selects(v.name); }));
        };
        Progress progress(lab_, int(options_.masks.size()) * (selected(spec_.cpu) + selected(spec_.gpu)));
        for (const Mask& mask : options_.masks) {
            Case c{mask, Problem{image_, mask, options_.border}, {}};
            if (!graded()) run_reference(c);
            for (const CpuVariant& v : spec_.cpu) {
                if (!options_.selects(v.name)) continue;
                progress.step(v.name + ", " + mask.spec);
                if (graded() && v.kit_reference)
                    skip(c, v, "skipped: the kit's CPU reference, which a --raw-out run does not hold");
                else run_cpu_variant(c, v);
            }
            if (session_ && session_->healthy()) session_->load_mask(mask);
            for (const GpuVariant& v : spec_.gpu) {
                if (!options_.selects(v.name)) continue;
                progress.step(v.name + ", " + mask.spec);
                if (!report_.gpu_skipped.empty()) skip(c, v, "skipped: " + report_.gpu_skipped);
                else if (!session_->healthy()) skip(c, v, "skipped: an earlier " + session_->info().api + " error ended the GPU part");
                else if (const std::string why = refused_by_backend(v); !why.empty()) skip(c, v, "skipped: " + why);
                else run_gpu_variant(c, v);
            }
            if (out_.enabled()) references_.emplace_back(picture_name("reference", mask), std::move(c.reference));
        }
        if (session_)  // what the device learned of the run (OpenCL: the work-group shape a driver chose)
            for (const std::string& note : session_->notes()) report_.notes.push_back(note);
    }

    // The lab's own figures (LabSpec::own_figures) on every row, each with its own mask's problem;
    // then the derived ones.
    void add_figures() override {
        if (spec_.own_figures)
            for (VariantResult& r : report_.results)
                for (const Mask& mask : options_.masks)
                    if (mask.spec == r.mask_spec) spec_.own_figures(r, Problem{image_, mask, options_.border});
        derive_figures(report_);
    }

    // A back end other than CUDA (LabSpec::device) runs a variant's launch only: an end-to-end
    // function is the variant's own CUDA host code and the transfers' copies are the harness's
    // CUDA calls, neither of which has a device there (or may find a CUDA one that is not the
    // back end's). Empty when v can run.
    std::string refused_by_backend(const GpuVariant& v) const {
        if (!spec_.device) return "";
        const std::string by = "the " + spec_.device->api() + " back end runs a variant's kernels only; ";
        if (v.end_to_end) return by + v.name + " has an end-to-end part (CUDA host code: allocate, copy, launch, copy back)";
        if (spec_.transfers) return by + "this lab times transfers (LabSpec::transfers: the harness's CUDA copies around the kernels)";
        return "";
    }

    void open_gpu() {
        if (spec_.device) {
            session_ = spec_.device->open(options_);
        } else {
            auto cuda = std::make_unique<GpuSession>();
            cuda_ = cuda.get();
            session_ = std::move(cuda);
        }
        report_.device = session_->info();
        if (const double gbs = session_->copy_bandwidth_gbs(); gbs > 0) report_.copy_bandwidth_gbs = gbs;
        const bool any_end_to_end =
            std::any_of(spec_.gpu.begin(), spec_.gpu.end(), [](const GpuVariant& v) { return bool(v.end_to_end); });
        int max_k = 0;
        for (const Mask& m : options_.masks) max_k = std::max(max_k, m.k);
        const size_t problem_bytes = image_.elements() * (1 + sizeof(float) * (1 + spec_.float_intermediate)) +
                                     size_t(max_k) * max_k * sizeof(float);
        session_->load_image(image_, options_.border, max_k, any_end_to_end || spec_.transfers ? problem_bytes : 0,
                             spec_.float_intermediate);
        if (spec_.transfers && !spec_.device) report_.transfers = measure_transfer_bandwidth(image_.elements());  // CUDA's copies
    }

    // A row of the case, with its work model for the derived figures and its tolerance.
    VariantResult row(const Case& c, const std::string& name, const std::string& description, const char* kind,
                      const WorkModel& model = {}) const {
        VariantResult r;
        r.name = name;
        r.description = description;
        r.kind = kind;
        r.mask_spec = c.mask.spec;
        r.mask_size = c.mask.k;
        r.model = model;
        r.tolerance = tolerance_for(c.mask, model);
        return r;
    }
    template <class Variant>
    VariantResult variant_row(const Case& c, const Variant& v, const char* kind) const {
        return row(c, v.name, v.description, kind, v.model);
    }

    // A result of row r's variant, checked within r's tolerance.
    CheckResult check(const Case& c, const VariantResult& r, const std::vector<float>& got, TileShape tile) const {
        return check_output(got.data(), c.reference.data(), image_.width, image_.height, image_.channels, r.tolerance,
                            c.mask.radius(), tile);
    }

    void record_check(VariantResult& r, const CheckResult& result, const std::string& why = "") {
        r.check = result;
        r.status = result.passed ? "pass" : "fail";
        r.message = why + result.summary();
    }

    // A further result of row r's variant (after timing, or end to end), checked as the first was:
    // a wrong one fails the row, its summary after `why`. Whether it passed.
    bool recheck(const Case& c, VariantResult& r, const std::vector<float>& got, TileShape tile, const std::string& why) {
        const CheckResult result = check(c, r, got, tile);
        if (!result.passed) record_check(r, result, why);
        return result.passed;
    }
    // A result that passed once and then failed after the timed repetitions usually means a race.
    static constexpr const char* kFailedAfterTiming = "passed the first run but failed after timing (a race?): ";

    // Timed run `rep`'s values at the spot checker's positions: in a graded run recorded for the
    // trusted check; otherwise checked against the case's reference, or with fresh inputs the
    // reference of that run's input, computed at each position alone.
    void spot_check(const Case& c, SpotChecker& spots, SpotRecord& record, int rep, const std::vector<size_t>& positions,
                    const float* values) const {
        if (graded()) record.add(options_.fresh_input ? fresh_seed(rep) : 0, positions, values);
        else if (!options_.fresh_input) spots.check(rep, values, [&c](size_t i) { return double(c.reference[i]); });
        else spots.check(rep, values, [this, &c, seed = fresh_seed(rep)](size_t i) { return reference_at(c, seed, i); });
    }

    // After a variant's timed runs: the spot checks of every run; the last one's result checked
    // again in full, unless each run had an input of its own (--fresh-input-each-rep: the grader
    // checks the raw result against the last input); a note when the GPU timing had to fall back
    // to the host clock.
    void after_timing(const Case& c, VariantResult& r, const std::vector<float>& out, TileShape tile, const SpotChecker& spots) {
        r.spot_checks = spots.result();
        if (!options_.fresh_input) recheck(c, r, out, tile, kFailedAfterTiming);
        const SpotChecks& s = spots.result();
        if (s.failed_runs && r.status == "pass") {
            r.status = "fail";
            r.message = "passed the first run, but " + std::to_string(s.failed_runs) + " of " + std::to_string(s.runs) +
                        " timed runs were wrong where their results were spot-checked (" + s.first_failure + ")";
        }
        if (r.time && r.time->host_clock_samples)
            report_.notes.push_back("warning: " + r.name + ": in " + std::to_string(r.time->host_clock_samples) + " of " +
                                    std::to_string(r.time->samples) +
                                    " timed runs, GPU or CPU work ran outside the default stream the events time; those "
                                    "runs are timed by the host clock around a device-wide synchronisation");
    }

    // After a GPU variant's timed runs with --fresh-input-each-rep: the next variant starts from
    // the case's own input again.
    void restore_input() {
        if (options_.fresh_input && session_->healthy()) session_->load_random_input(options_.seed);
    }

    // --fresh-input-each-rep: the seed of timed run number `rep`'s input (warm-ups included); the
    // grader checks the last run's result against this seed.
    uint64_t fresh_seed(int rep) const { return options_.seed + 1 + uint64_t(rep); }
    Image fresh_input(int rep) const { return make_random_image(image_.width, image_.height, image_.channels, fresh_seed(rep)); }
    // The reference value at index i of the case's result for the input of seed `seed`, alone.
    double reference_at(const Case& c, uint64_t seed, size_t i) const {
        return reference_value_of_seed(seed, image_.width, image_.height, image_.channels, c.mask, options_.border, i);
    }
    TimingPlan timing_plan() const { return {options_.warmup, options_.reps, options_.flush_l2}; }

    std::string picture_name(const std::string& name, const Mask& mask) const {
        return options_.masks.size() > 1 ? name + "-k" + std::to_string(mask.k) : name;
    }

    // --out keeps every variant's picture. --demo keeps what a lecture shows, at its pace: for each
    // mask the fastest GPU variant that passed, and every one whose result was wrong (its difference
    // shows the mistake); lab 4's demo otherwise saved 138 pictures of 4096x4096 at about 0.9 s each.
    void keep_picture(const Case& c, const std::string& name, const std::vector<float>& values, const VariantResult* gpu = nullptr) {
        if (!out_.enabled()) return;
        const size_t reference = references_.size();
        if (!options_.demo || !gpu || gpu->status == "fail") return pictures_.push_back({picture_name(name, c.mask), values, reference});
        if (gpu->status != "pass") return;  // skipped, not written: no picture
        note_once("--demo: pictures of the fastest GPU variant that passed, for each mask, and of every one whose result was wrong");
        const double ms = gpu->time ? gpu->time->median_ms : std::numeric_limits<double>::infinity();
        const auto fastest = std::find_if(pictures_.begin(), pictures_.end(),
                                          [&](const Picture& q) { return q.reference == reference && q.passed_ms; });
        if (fastest == pictures_.end()) return pictures_.push_back({picture_name(name, c.mask), values, reference, ms});
        if (ms < *fastest->passed_ms) *fastest = {picture_name(name, c.mask), values, reference, ms};  // a copy only when kept
    }

    void note_once(const std::string& note) {
        if (std::find(report_.notes.begin(), report_.notes.end(), note) == report_.notes.end()) report_.notes.push_back(note);
    }

    void run_reference(Case& c) {
        c.reference.assign(image_.elements(), kPoison);
        // --demo keeps a lecture's pace (issue 43: lab 3's took 53 s on an H100, most of it this
        // reference at K = 31 on 4096x4096): a separable mask's reference in two passes, 2K taps a
        // value rather than K^2 (as lab 6's always is: the same values to float rounding of the
        // weights), and the one run that computes the check's reference is its time too. The
        // notes say both.
        const bool two_pass = (spec_.two_pass_reference || options_.demo) && c.mask.separable();
        if (options_.demo && two_pass && !spec_.two_pass_reference)
            note_once("--demo: a separable mask's CPU reference is a row pass then a column pass (2K taps a value, not K^2)");
        const TimingStats made = time_on_host_clock([&] { conv2d_cpu_reference(image_, c.mask, options_.border, c.reference.data(), two_pass); }, 1);
        const std::string passes = two_pass ? ", a row pass then a column pass" : "";
        VariantResult r = row(c, "openmp-reference", "the harness's CPU reference, double, all cores" + passes, "reference");
        if (two_pass) r.model = WorkModel{5, true};  // its flops are 2K a value
        r.status = "pass";
        r.message = "the reference every result is checked against";
        r.threads = omp_get_max_threads();
        if (options_.demo && !options_.check_only) {
            r.time = made;
            note_once("--demo: the CPU reference is timed once, by the run that computed the reference the check uses");
        } else if (!options_.check_only) {
            std::vector<float> scratch(image_.elements());
            r.time = time_on_host_clock([&] { conv2d_cpu_reference(image_, c.mask, options_.border, scratch.data(), two_pass); }, options_.cpu_reps);
        }
        report_.results.push_back(r);
    }

    // --demo: the image's top rows on which a one-thread CPU variant runs (about an eighth of them,
    // and at least what the mask's cut leaves a few rows to check); the whole height where that
    // is no saving, and outside --demo.
    int demo_rows(const Case& c, const CpuVariant& v) const {
        if (!options_.demo || graded() || v.sweep_threads || v.all_cores) return image_.height;
        return std::min(image_.height, std::max((image_.height + 7) / 8, 4 * c.mask.radius() + 16));  // >= 2r + 16 rows checked
    }

    // --demo: a CPU variant on one thread (lab 6's K x K sum took 18 s at K = 31 on a 4096x4096
    // scene) runs on the image's top `rows` alone: its rows the cut cannot reach are checked against
    // the whole image's reference, before and after timing, and its time is scaled to the whole
    // image. The notes say so; no picture is kept of a part.
    void run_cpu_variant_on_top_rows(const Case& c, const CpuVariant& v, int rows) {
        VariantResult r = variant_row(c, v, "cpu");
        r.threads = 1;
        Image top(image_.width, rows, image_.channels);
        std::copy(image_.pixels.begin(), image_.pixels.begin() + std::ptrdiff_t(top.elements()), top.pixels.begin());
        const Problem part{top, c.mask, options_.border};
        std::vector<float> out(top.elements(), kPoison);
        // The rows whose taps the cut cannot reach: not the last r, nor under the wrap border the
        // first r, which wrap to the cut's bottom where the whole image's wrap to its own.
        const int radius = c.mask.radius(), first = options_.border == Border::Wrap ? radius : 0;
        const size_t skipped = size_t(first) * image_.width * image_.channels;
        const auto checked = [&] {
            return check_output(out.data() + skipped, c.reference.data() + skipped, image_.width, rows - radius - first,
                                image_.channels, r.tolerance, radius, {});
        };
        const double scale = double(image_.height) / rows;
        try {
            v.run(part, out.data(), 1);
            record_check(r, checked());
            if (ended_well(r) && !options_.check_only) {
                TimingStats t = time_on_host_clock([&] { v.run(part, out.data(), 1); }, options_.cpu_reps);
                t.median_ms *= scale;
                t.min_ms *= scale;
                r.time = t;
                if (const CheckResult again = checked(); !again.passed) record_check(r, again, kFailedAfterTiming);
            }
        } catch (...) {
            record_thrown(r, spec_.student_files);
        }
        note_once("--demo: one-thread CPU variants run on the image's top " + std::to_string(rows) + " rows, checked where the cut " +
                  "cannot reach, their times scaled to the whole image (x" + format_sig3(scale) + ")");
        note_noise(r);
        report_.results.push_back(r);
    }

    void run_cpu_variant(const Case& c, const CpuVariant& v) {
        if (const int rows = demo_rows(c, v); rows < image_.height) return run_cpu_variant_on_top_rows(c, v, rows);
        const std::vector<int> counts = v.sweep_threads ? options_.threads : std::vector<int>{v.all_cores ? omp_get_max_threads() : 1};
        std::vector<float> out(image_.elements());
        for (int threads : counts) {
            VariantResult r = variant_row(c, v, "cpu");
            r.threads = threads;
            try {
                std::fill(out.begin(), out.end(), kPoison);
                v.run(c.problem, out.data(), threads);
                if (graded()) record_written(r);
                else record_check(r, check(c, r, out, {}));
                const bool timed = ended_well(r) && !options_.check_only;
                SpotRecord record;
                if (timed) {
                    std::vector<double> samples, paths;
                    std::vector<int> busy;
                    SpotChecker spots(image_.width, image_.height, image_.channels, c.mask.radius(), r.tolerance);
                    std::vector<float> sampled(SpotChecker::kValuesPerRun);
                    for (int rep = 0; rep < options_.cpu_reps; ++rep) {
                        // --fresh-input-each-rep: a new input every time (generated outside the timing).
                        const Image fresh = options_.fresh_input ? fresh_input(rep) : Image();
                        const Problem problem = options_.fresh_input ? Problem{fresh, c.mask, options_.border} : c.problem;
                        std::fill(out.begin(), out.end(), kPoison);
                        const CpuWork work;
                        samples.push_back(time_on_host_clock([&] { v.run(problem, out.data(), threads); }, 1).median_ms);
                        const CpuUsed used = work.used();
                        paths.push_back(used.critical_path_ms);
                        busy.push_back(used.busy_threads);
                        const std::vector<size_t>& positions = spots.draw();
                        for (size_t n = 0; n < positions.size(); ++n) sampled[n] = out[positions[n]];
                        spot_check(c, spots, record, rep, positions, sampled.data());
                    }
                    r.time = summarize(samples);
                    r.critical_path = summarize(paths);
                    std::nth_element(busy.begin(), busy.begin() + busy.size() / 2, busy.end());
                    r.busy_threads = busy[busy.size() / 2];  // in a typical run, not the best or worst
                    // Threads asked for but not used: the wall clock shows it only on an idle machine.
                    if (threads > 1 && r.busy_threads < threads && r.busy_threads < omp_get_num_procs())
                        report_.notes.push_back("warning: " + r.name + " (" + std::to_string(threads) + " threads): only " +
                                                std::to_string(r.busy_threads) + " of them did work in a typical timed run");
                    if (!graded()) after_timing(c, r, out, {}, spots);
                }
                // A graded run writes one result a variant: its first thread count's.
                if (threads == counts.front()) write_raw(c, v.name, out, timed ? &record : nullptr);
            } catch (...) {
                record_thrown(r, spec_.student_files);
            }
            note_noise(r);
            report_.results.push_back(r);
            if (!ended_well(r) && r.status != "fail") break;  // the other thread counts would say the same
        }
        keep_picture(c, v.name, out);
    }

    void run_gpu_variant(const Case& c, const GpuVariant& v) {
        VariantResult r = variant_row(c, v, "gpu");
        std::vector<float> out(image_.elements(), kPoison);
        try {
            const ConvArgs& args = session_->args();
            if (v.prepare) session_->run([&] { v.prepare(c.mask); });
            session_->poison_output();
            const int launches = session_->run_counting_launches([&] { v.launch(args); });
            session_->fetch_output(out.data());
            if (graded()) record_written(r);
            else record_check(r, check(c, r, out, v.tile));
            // Right or not, a result computed on the CPU (or only copied) is not the lesson: it
            // fails, and no raw result is written for the grader's checker to pass. In a graded
            // run a count the harness could not make fails the same way (launch_counter.hpp).
            const bool on_gpu = launches > 0 || (launches < 0 && options_.unknown_launches_pass());
            if (!on_gpu) {
                r.status = "fail";
                r.message = launches == 0 ? "launched no kernel: a GPU variant must compute its result on the GPU (" + r.message + ")"
                                          : session_->uncounted_launches();
            }
            const bool timed = ended_well(r) && !options_.check_only;
            SpotRecord record;
            if (timed) {
                std::function<void(int)> fresh;
                if (options_.fresh_input) fresh = [&](int rep) { session_->load_random_input(fresh_seed(rep)); };
                SpotChecker spots(image_.width, image_.height, image_.channels, c.mask.radius(), r.tolerance);
                std::vector<float> sampled(SpotChecker::kValuesPerRun);
                const auto spot_check_run = [&](int rep) {
                    const std::vector<size_t>& positions = spots.draw();
                    session_->sample_output(positions, sampled.data());
                    spot_check(c, spots, record, rep, positions, sampled.data());
                };
                try {
                    r.time = session_->time([&] { v.launch(args); }, timing_plan(), true, fresh, spot_check_run);
                    session_->fetch_output(out.data());
                } catch (const DeviceError&) {
                    restore_input();
                    throw;
                }
                restore_input();
                if (!graded()) after_timing(c, r, out, v.tile, spots);
            }
            if (on_gpu) write_raw(c, v.name, out, timed ? &record : nullptr);
            if (ended_well(r) && v.end_to_end) run_end_to_end(c, v, r);
            if (r.status == "pass" && spec_.transfers) time_transfers(c, v, r);
        } catch (const DeviceError& e) {  // CUDA's or the lab's back end's (LabSpec::device)
            r.status = "error";
            r.message = e.what();
            cuda_failed_ = cuda_failed_ || !session_->healthy();
        } catch (...) {
            record_thrown(r, spec_.student_files);
        }
        note_noise(r);
        report_.results.push_back(r);
        keep_picture(c, v.name, out, &r);
    }

    // The variant's own host code: allocate, copy in, launch, copy out, free; timed as a whole.
    void run_end_to_end(const Case& c, const GpuVariant& v, VariantResult& r) {
        std::vector<float> out(image_.elements(), kPoison);
        const int launches = session_->run_counting_launches([&] { v.end_to_end(c.problem, out.data()); });
        if (launches == 0 || (launches < 0 && !options_.unknown_launches_pass())) {  // right or not, a result computed on the CPU is not the lesson
            r.status = "fail";
            r.message = launches == 0 ? "kernel passed, but the end-to-end function launched no kernel: it must run on the GPU"
                                      : session_->uncounted_launches("the end-to-end function");
            return;
        }
        // A timed run with fresh inputs checks (and grades) the kernels only.
        if (!options_.fresh_input) write_raw(c, end_to_end_result_name(v.name), out);
        if (graded()) return;  // the trusted check judges it
        if (!recheck(c, r, out, v.tile, "kernel passed, end-to-end version failed: ")) return;
        if (options_.check_only || options_.fresh_input) return;
        r.end_to_end = session_->time([&] {
            std::fill(out.begin(), out.end(), kPoison);
            v.end_to_end(c.problem, out.data());
        }, timing_plan(), false);
        recheck(c, r, out, v.tile, kFailedAfterTiming);
    }

    // LabSpec::transfers: the variant's kernels inside the harness's own allocate, copy in, launch,
    // copy out and free, from pageable and then from pinned host memory; each result checked.
    void time_transfers(const Case& c, const GpuVariant& v, VariantResult& r) {
        if (options_.check_only || options_.fresh_input) return;
        for (bool pinned : {false, true}) {
            if (!host_problems_[pinned]) {
                host_problems_[pinned] = std::make_unique<HostProblem>(image_.elements(), pinned);
                host_problems_[pinned]->load(image_);
            }
            const HostProblem& host = *host_problems_[pinned];
            const auto once = [&] { run_with_copies(host, image_, c.mask, options_.border, spec_.float_intermediate, v.launch); };
            (pinned ? r.end_to_end_pinned : r.end_to_end) = session_->time(once, timing_plan(), false, [&](int) {
                std::fill(host.output(), host.output() + host.elements(), kPoison);
            });
            const std::vector<float> out(host.output(), host.output() + host.elements());
            const std::string from = pinned ? "pinned" : "pageable";
            if (!recheck(c, r, out, v.tile, "kernel passed, end to end from " + from + " memory failed: ")) return;
        }
    }

    // --raw-out: a result exactly as the variant left it (the first run's, or after timing the last
    // timed run's, with the record of its timed runs' spot values), for a checker in another process.
    void write_raw(const Case& c, const std::string& name, const std::vector<float>& values,
                   const SpotRecord* spots = nullptr) const {
        if (!graded()) return;
        const std::string result = picture_name(name, c.mask);
        write_raw_floats(raw_result_path(options_.raw_out_dir, result), values);
        if (spots) spots->write(spot_record_path(options_.raw_out_dir, result));
    }

    // --timed-by: the grader's timer runs this program's variants on its own buffers (peer_worker.hpp).
    int serve_timer(PeerLink& link) override {
        GpuSession& session = open_cuda_for_peer_timing();
        ImagePeerServer server(session, spec_, options_.masks.front());
        return serve_peer_timer(link, session, server);
    }

    // --timer-of: times another process's GPU variants (peer_timer.hpp) and reports them; runs none itself.
    void time_peer(PeerLink& link) override {
        GpuSession& session = open_cuda_for_peer_timing();
        const Mask& mask = options_.masks.front();
        session.load_mask(mask);
        const Case c{mask, Problem{image_, mask, options_.border}, {}};
        ImagePeerTarget target(session, spec_, image_, mask, options_.border);
        PeerTimer timer(link, target, PeerTimerPlan{options_.warmup, options_.reps});
        for (const GpuVariant& v : spec_.gpu) {
            if (v.expert ? !options_.names(v.name) : !options_.selects(v.name)) continue;  // run_options.hpp
            VariantResult r = variant_row(c, v, "gpu");
            timer.time_variant(v.name, r);
            report_.results.push_back(r);
        }
        timer.finish();
    }

    // Peer timing shares CUDA device memory between the two processes (peer_timer.hpp): CUDA's alone.
    GpuSession& open_cuda_for_peer_timing() {
        if (spec_.device)
            throw InputError("peer timing (--timed-by, --timer-of) shares CUDA device memory; this lab's variants run on "
                             "another back end; accepted: a run without them");
        open_gpu();
        return *cuda_;
    }

    // --compare: the grader's trusted check of results another process wrote (raw_check.hpp).
    // No variant runs.
    int compare_raw_results() override {
        const Mask& mask = options_.masks.front();
        Case c{mask, Problem{image_, mask, options_.border}, {}};
        run_reference(c);
        const RawCheckTarget target{c.reference, image_.width, image_.height, image_.channels, c.mask};
        std::vector<VariantResult> rows;
        for (const VariantResult& checked : check_raw_results(options_.compare_file, raw_results(spec_), target)) {
            VariantResult r = row(c, checked.name, checked.description, "submitted");
            r.status = checked.status;
            r.message = checked.message;
            r.check = checked.check;
            r.tolerance = checked.tolerance;
            if (options_.fresh_input) check_spots(c, r);
            rows.push_back(r);
        }
        return finish_compare(report_, rows, options_.format);
    }

    // --compare --fresh-input-each-rep: the results of a graded timed run, each repetition on an
    // input of its own (--seed is the last one's; --cpu-reps, or --warmup and --reps, as the timed
    // run had them). A result passes only with the spot record of every run beside it, each value
    // right for that run's input.
    void check_spots(const Case& c, VariantResult& r) const {
        if (r.status != "pass") return;
        const bool cpu = std::any_of(spec_.cpu.begin(), spec_.cpu.end(), [&](const CpuVariant& v) { return v.name == r.name; });
        const int runs = cpu ? options_.cpu_reps : options_.warmup + options_.reps;
        const std::string path = spot_record_path(options_.compare_file, r.name);
        const std::string problem =
            !std::filesystem::is_regular_file(path)
                ? "no spot record of its timed runs beside it (" + std::filesystem::path(path).filename().string() + ")"
                : check_spot_record(path, options_.seed, runs, image_.elements(), r.tolerance,
                                    [&](uint64_t seed, size_t i) { return reference_at(c, seed, i); });
        if (problem.empty()) return;
        r.status = "fail";
        r.message = problem;
    }

    template <class Variant>
    void skip(const Case& c, const Variant& v, const std::string& why) {
        VariantResult r = variant_row(c, v, std::is_same_v<Variant, GpuVariant> ? "gpu" : "cpu");
        r.status = "skipped";
        r.message = why;
        report_.results.push_back(r);
    }

    void note_noise(const VariantResult& r) {
        for (const auto* t : {&r.time, &r.end_to_end})
            if (*t && (*t)->noisy())
                report_.notes.push_back("warning: " + r.name + " timing varies a lot (cv " + std::to_string(int(100 * (*t)->cv)) +
                                        "%): another program on the machine? compare medians with care");
    }

    const OutputFolder* output_folder() const override { return &out_; }

    void save_outputs() override {
        if (!out_.enabled()) return;
        std::vector<std::function<void()>> saves{[&] { out_.save_image("input", image_); }};
        for (const auto& [name, values] : references_) saves.push_back([&, &name = name, &values = values] { out_.save_result(name, values, image_); });
        for (const Picture& p : pictures_) {
            saves.push_back([&] { out_.save_result(p.name, p.values, image_); });
            saves.push_back([&] { out_.save_difference(p.name + "-diff", p.values, references_.at(p.reference).second, image_); });
        }
        OutputFolder::save_side_by_side(saves);
        std::cerr << "lab" << spec_.number << ": pictures saved in " << out_.path() << "/\n";
    }

    struct Picture {
        std::string name;
        std::vector<float> values;
        size_t reference;  // index into references_: the case's reference is kept once
        std::optional<double> passed_ms;  // --demo: a GPU variant that passed, its median (keep_picture)
    };

    const LabSpec& spec_;
    const Options& options_;
    const Image& image_;
    const OutputFolder& out_;
    std::unique_ptr<ImageDevice> session_;  // CUDA's GpuSession, or the lab's back end's (LabSpec::device)
    GpuSession* cuda_ = nullptr;             // session_ when it is CUDA's (peer timing needs it)
    std::unique_ptr<HostProblem> host_problems_[2];  // LabSpec::transfers: pageable [0] and pinned [1], made once
    std::vector<std::pair<std::string, std::vector<float>>> references_;
    std::vector<Picture> pictures_;
};

}  // namespace

// One run of the lab: the whole command line, or one case of the grader's --case-list.
static int run_once(int argc, char** argv, const LabSpec& lab) {
    return guarded_main("lab" + std::to_string(lab.number), "a smaller --size or --tile-to", [&] {
        LabSpec spec = lab;
        add_expert_tier(spec.gpu);  // a reference solution's tuned rows, after the design's (expert_tier.hpp)
        const Options options = parse_options(argc, argv, spec);
        if (options.help) {
            std::cout << options.help_text;
            return int(kExitPass);
        }
        std::string source;
        const Image image = make_lab_input(options, spec.default_channels, &source);
        const OutputFolder out(options.out_dir);
        return LabRun(spec, options, image, out).run(source);
    });
}

int run_lab(int argc, char** argv, const LabSpec& lab) {
    // The grader's --case-list: several hidden cases in this one process (case_list.hpp).
    return run_listed_cases_or(argc, argv, [&](int c, char** v) { return run_once(c, v, lab); });
}

}  // namespace convlab

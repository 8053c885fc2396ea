// convlab harness — do not edit in a lab.
// run_strip_lab(): input in host memory -> each strip variant, from each host memory it asks
// for, under the budget: run, checked band by band, timed, checked again -> report -> timelines.
#include "common/families/strips/strip_lab.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>

#include "common/families/strips/activity_trace.hpp"
#include "common/check/check.hpp"
#include "common/families/strips/device_memory_cap.hpp"
#include "common/core/errors.hpp"
#include "common/core/exit_status.hpp"
#include "common/device/gpu_session.hpp"
#include "common/cli/guarded_main.hpp"
#include "common/cli/lab_input.hpp"
#include "common/cli/options.hpp"
#include "common/report/output_folder.hpp"
#include "common/report/progress.hpp"
#include "common/grading/peer_link.hpp"
#include "common/grading/peer_timer.hpp"
#include "common/grading/peer_worker.hpp"
#include "common/grading/raw_check.hpp"
#include "common/grading/raw_result.hpp"
#include "common/report/report.hpp"
#include "common/runner/family_run.hpp"
#include "common/families/strips/strip_host.hpp"
#include "common/families/strips/strip_peer.hpp"
#include "common/families/strips/strip_rules.hpp"
#include "common/core/text_parse.hpp"
#include "common/core/number_format.hpp"
#include "common/timing/transfers.hpp"

namespace convlab {

const char* host_memory_name(HostMemory memory) { return memory == HostMemory::Pinned ? "pinned" : "pageable"; }

namespace {

// Lab 9's own figures on a row (report.hpp's Figure): the host memory a strip variant ran from,
// its GPUs, and from the driver's records of its median run its strips, the most device memory
// it held at once, the copy rates while each copy engine was busy, the kernels' busy time, the
// overlap efficiency (the busiest engine's time over the run's) and its speed-up over one GPU.
std::string memory_of(const VariantResult& r) { return r.label("host_memory"); }
int gpus_of(const VariantResult& r) { return int(r.number("gpus").value_or(0)); }

// A row's result name, for --raw-out and --compare: "serial pinned".
std::string result_name(const StripVariant& v, HostMemory m) { return v.name + " " + host_memory_name(m); }

// The GPUs a variant gets: --gpus for the several-GPU one, else one.
int parse_gpus(const std::string& text, int visible) {
    if (text == "all") return visible;
    const int gpus = parse_count(text, "--gpus", 1, 1 << 16);
    if (gpus > visible)
        throw InputError("--gpus " + text + ": only " + std::to_string(visible) + " GPU" + (visible == 1 ? " is" : "s are") +
                         " visible; accepted: 1 to " + std::to_string(visible) + ", or all");
    return gpus;
}

LabSpec command_line_spec(const StripLabSpec& spec) {
    LabSpec lab = spec.lab;
    lab.lab_options = {
        {"gpu-memory", "the most device memory a strip variant may hold at once, on each GPU: bytes (e.g. 2GiB, 512MiB) or a "
                       "share of the GPU's memory (e.g. 5%)",
         spec.default_gpu_memory},
        {"gpus", "the GPUs the several-GPU variant uses: all, or a count", "all"},
        {"hold-outside", "grading, the trusted side: hold each GPU's memory but the --gpu-memory budget, this many MiB more and "
                         "the timer's slack, print 'held', and keep the hold until standard input ends, while the grader runs a "
                         "checked run beside it; runs nothing itself",
         ""},
    };
    lab.cpu.clear();
    lab.gpu.clear();
    for (const StripVariant& v : spec.variants) lab.gpu.push_back({v.name, v.description, nullptr});
    return lab;
}

// What one run of a variant did: its wall time, and the driver's records.
struct RunFigures : StripRunRecords {
    double wall_ms = 0;
};

class StripRun : public FamilyRun {
  public:
    StripRun(const StripLabSpec& spec, const Options& options, Image& image, const OutputFolder& out)
        : FamilyRun(spec.lab.number, options), spec_(spec), options_(options), image_(image), out_(out), mask_(options.masks.front()),
          output_(new float[image.elements()]) {}  // not zeroed: poisoned before every run

  private:
    bool cpu_part_runs() const override { return false; }  // every variant is a GPU one

    void run_variants(const std::string& gpu_reason) override {
        if (gpu_reason.empty()) open_gpus(!options_.check_only);
        int steps = 0;
        for (const StripVariant& v : spec_.variants)
            if (options_.selects(v.name)) steps += int(v.memories.size());
        Progress progress(lab_, steps);
        for (const StripVariant& v : spec_.variants) {
            if (!options_.selects(v.name)) continue;
            for (HostMemory m : v.memories) {
                progress.step(v.name + ", " + host_memory_name(m));
                if (gpu_reason.empty() && !cuda_failed_) run_variant(v, m);
                else if (!gpu_reason.empty()) report_.results.push_back(row(v, m, "skipped", "skipped: " + gpu_reason));
                else report_.results.push_back(row(v, m, "skipped", "skipped: an earlier CUDA error ended the GPU part"));
            }
        }
        compare_with_one_gpu();
        note_copy_rates();
    }

    // --hold-outside MIB, the grader's side of a checked run (grading/convlab_grader/memory_hold.py):
    // while the submission's run goes beside it, this process holds each GPU's memory but the
    // case's budget, its share of MIB (what the reference's own graded run had in use on its GPUs
    // when they opened: its context and the harness's buffers) and the timer's slack. So a checked
    // run cannot have more than its budget at any moment, however it allocates (before main, where
    // no record of its own process sees it) and whatever its own report says: the timed runs are
    // held the same way from the timer's process (strip_peer.hpp). It says "held: N MiB in use"
    // (its GPUs' memory in use with the hold in place: what the run's own figure of memory at start
    // counts besides the run's) and, once its input ends, exit status 0 if the hold lasted.
    std::optional<int> run_own_mode() override {
        const std::string& allowance = options_.lab_values.at("hold-outside");
        if (allowance.empty()) return std::nullopt;
        if (options_.graded() || !options_.compare_file.empty() || options_.timed_by >= 0 || options_.timer_of >= 0)
            throw InputError("--hold-outside holds the GPUs for another program's checked run and runs nothing itself; accepted: "
                             "without --raw-out, --compare, --timed-by and --timer-of");
        const size_t allowed = size_t(parse_count(allowance, "--hold-outside", 0, 1 << 20)) << 20;
        if (const std::string reason = gpu_unavailable(); !reason.empty()) {
            std::cerr << no_gpu_line(reason);
            return int(kExitNoGpu);
        }
        gpus_ = parse_gpus(options_.lab_values.at("gpus"), visible_gpus());
        budget_ = parse_memory_size(options_.lab_values.at("gpu-memory"), device_memory(1)[0].total, "--gpu-memory", "the GPU's memory");
        // MIB is over the run's GPUs together; its session's flush buffer is on the first alone.
        const DeviceMemoryCap hold(budget_, outside_hold_slack(allowed, gpus_, session_flush_bytes(), kTimerHoldSlack));
        std::cout << "held: " << format_fixed(double(device_bytes_in_use(gpus_)) / double(1 << 20), 1) << " MiB in use" << std::endl;
        for (std::string line; std::getline(std::cin, line);) {
        }
        if (const std::string lost = hold.hold_released(); !lost.empty()) {
            std::cerr << "lab" << lab_ << ": the hold ended before its input did: " << lost << "\n";
            return int(kExitCudaError);
        }
        return int(kExitPass);
    }

    StripJob job_for(const StripVariant& v, HostMemory m) const {
        return StripJob{image_.pixels.data(), output_.get(), image_.width, image_.height, image_.channels, mask_.k, options_.border,
                        v.whole ? whole_budget_ : budget_, v.several_gpus ? gpus_ : 1, m == HostMemory::Pinned};
    }

    void fill_header(const std::string& source) override {
        report_ = report_of_image_run(spec_.lab.number, spec_.lab.title, options_, source, image_);
        report_.cpu_reps = 0;
        report_demo_gpu_reps(report_, options_);
        report_.has_gpu_part = true;
        report_.baseline = spec_.lab.baseline;
        report_.check_rule = options_.graded()
                                 ? "none in this run (--raw-out): the grader's --compare checks each result against the OpenMP "
                                   "reference, a band of rows at a time; output poisoned with NaN before every run"
                                 : "against the OpenMP reference (double), a band of rows at a time; |got - ref| <= " +
                                       format_sig3(report_.tolerances[0].atol) + " + " + format_sig3(report_.tolerances[0].rtol) +
                                       "*|ref|; output poisoned with NaN before every run, and checked again after the timed runs";
        report_.timing_rule = "median of " + std::to_string(options_.reps) + " runs after " + std::to_string(options_.warmup) +
                              " warm-ups (the first of them checked), each timed by the host clock from the call until every GPU is "
                              "idle: copies, kernels, allocation and all";
        report_.byte_model_rule = "1 B in + 4 B out per value, host to host; the copy rates are bytes over the time each copy "
                                  "engine was busy, from the driver's records of the median run; overlap = the busiest engine's "
                                  "time over the run's";
    }

    // measure_copies: the pinned and pageable copy rates, for the report (and the grader's floor).
    void open_gpus(bool measure_copies) {
        const int visible = visible_gpus();
        gpus_ = parse_gpus(options_.lab_values.at("gpus"), visible);
        session_ = std::make_unique<GpuSession>();
        report_.device = session_->info();
        report_.copy_bandwidth_gbs = session_->copy_bandwidth_gbs();
        budget_ = parse_memory_size(options_.lab_values.at("gpu-memory"), report_.device->memory_bytes, "--gpu-memory", "the GPU's memory");
        const size_t least = 3 * strip_device_bytes(job_for(spec_.variants.front(), HostMemory::Pinned), 1);
        if (budget_ < least)
            throw InputError("--gpu-memory " + options_.lab_values.at("gpu-memory") + " holds less than three strips of one row (" +
                             std::to_string(least) + " bytes at this width, channels and mask); accepted: at least that");
        const std::vector<size_t> free = free_device_bytes(1);
        whole_budget_ = free[0] > 2 * kDeviceMemorySlack ? free[0] - 2 * kDeviceMemorySlack : 0;
        put_strip_mask_on_gpus(mask_, gpus_, spec_.set_mask);
        // A graded run says what its GPUs had in use before any variant ran: its context and
        // whatever it allocated before (a buffer made before main, which no run's records nor the
        // cap see). The grader sets it against the reference's (hidden_cases.py; the timed runs
        // measure the same from the timer's process, strip_peer.hpp).
        if (options_.graded()) in_use_at_start_mib_ = double(device_bytes_in_use(gpus_)) / double(1 << 20);
        if (measure_copies) report_.transfers = measure_transfer_bandwidth(image_.elements());
        report_.notes.push_back("budget " + format_bytes(double(budget_)) + " of device memory a GPU for the strip variants (" +
                                "--gpu-memory " + options_.lab_values.at("gpu-memory") + "); several GPUs: " + std::to_string(gpus_) +
                                " of " + std::to_string(visible) + " visible");
    }

    VariantResult row(const StripVariant& v, HostMemory m, const char* status = "", const std::string& message = "") const {
        VariantResult r;
        r.name = v.name;
        r.description = v.description;
        r.kind = "gpu";
        r.status = status;
        r.message = message;
        r.set_label("host_memory", "memory", host_memory_name(m));
        r.mask_spec = mask_.spec;
        r.mask_size = mask_.k;
        r.tolerance = tolerance_for(mask_);
        r.model.counts_flops = false;
        if (in_use_at_start_mib_) r.set_figure("device_mib_at_start", "device MiB at start", "MiB", *in_use_at_start_mib_, 0);
        return r;
    }

    // One run: the output poisoned, the variant on the job, every GPU waited for; the wall time
    // and what the driver recorded.
    RunFigures run_once(const StripVariant& v, const StripJob& job, ActivityTrace& trace) {
        poison_strip_result(output_.get(), image_.elements());
        trace.collect();  // nothing from before the run
        const auto start = std::chrono::steady_clock::now();
        v.run(job);
        synchronize_gpus(job.gpus);
        const auto stop = std::chrono::steady_clock::now();
        return {take_strip_run_records(trace), std::chrono::duration<double, std::milli>(stop - start).count()};
    }

    CheckResult check_output() const { return check_strip_result(image_, mask_, options_.border, output_.get()); }

    void record_check(VariantResult& r, const CheckResult& c, const std::string& when = "") {
        r.check = c;
        r.status = c.passed ? "pass" : "fail";
        r.message = (c.passed || when.empty() ? "" : when + ": ") + c.summary();
    }

    // Fills r's figures from the records of its median run.
    void describe_run(VariantResult& r, const StripJob& job, const RunFigures& f, const std::vector<TimelineSpan>& spans) const {
        if (spans.empty()) return;
        double h2d_busy = 0, d2h_busy = 0, kernel_busy = 0;
        for (int g = 0; g < job.gpus; ++g) {
            h2d_busy += busy_ms(spans, g, Engine::HostToDevice);
            d2h_busy += busy_ms(spans, g, Engine::DeviceToHost);
            kernel_busy += busy_ms(spans, g, Engine::Kernel);
        }
        using K = ActivityRecord::Kind;
        uint64_t peak = 0;
        for (const auto& [device, use] : device_memory_use(f.records)) peak = std::max(peak, use.peak);
        const auto kernels = std::count_if(f.records.begin(), f.records.end(), [](const ActivityRecord& a) { return a.kind == K::Kernel; });
        r.set_figure("strips", "strips", "", double(kernels), 0);
        r.set_figure("peak_device_mib", "peak MiB", "MiB", double(peak) / (1 << 20), 0);
        if (h2d_busy > 0)
            r.set_figure("h2d_gbs", "H2D GB/s", "GB/s", double(copied_bytes(f.records, K::HostToDevice)) / (h2d_busy * 1e-3) * 1e-9 * job.gpus, 1);
        if (d2h_busy > 0)
            r.set_figure("d2h_gbs", "D2H GB/s", "GB/s", double(copied_bytes(f.records, K::DeviceToHost)) / (d2h_busy * 1e-3) * 1e-9 * job.gpus, 1);
        r.set_figure("kernel_ms", "kernel ms", "ms", kernel_busy / job.gpus);
        r.set_figure("overlap_efficiency", "overlap", "", overlap_efficiency(spans), 2);
    }

    void run_variant(const StripVariant& v, HostMemory m) {
        VariantResult r = row(v, m);
        const StripJob job = job_for(v, m);
        r.set_figure("gpus", "GPUs", "", job.gpus, 0);
        try {
            const auto in_pinned =
                job.pinned ? std::make_unique<HostRegistration>(image_.pixels.data(), image_.elements()) : nullptr;
            const auto out_pinned =
                job.pinned ? std::make_unique<HostRegistration>(output_.get(), image_.elements() * sizeof(float)) : nullptr;
            const std::vector<size_t> free_before = free_device_bytes(job.gpus);
            std::string broken;  // a rule of the lab broken: the result, right or not, was not made as the lab asks
            {
                // The whole image has no budget to hold it to.
                const auto cap = v.whole ? nullptr : std::make_unique<DeviceMemoryCap>(job.gpus, job.gpu_memory);
                ActivityTrace trace;
                const RunFigures first = run_once(v, job, trace);
                if (options_.graded()) record_written(r);
                else record_check(r, check_output());
                broken = broken_strip_rule(job, first, trace, cap.get(), options_.unknown_launches_pass());  // strip_rules.hpp
                if (broken.empty() && ended_well(r) && !options_.check_only)
                    broken = time_variant(r, v, m, job, trace, cap.get());
            }  // the cap's memory given back: what is still missing now, the variant kept
            const std::vector<size_t> free_after = free_device_bytes(job.gpus);
            for (int d = 0; d < job.gpus && broken.empty(); ++d)
                if (free_after[d] + kDeviceMemorySlack < free_before[d])
                    broken = "left " + format_bytes(double(free_before[d] - free_after[d])) + " of device memory allocated on GPU " +
                             std::to_string(d) + " after it returned";
            if (!broken.empty()) r.status = "fail", r.message = broken;
            else write_raw(result_name(v, m));  // as lab 8: no raw result for the grader from a run that broke a rule
        } catch (const NotImplemented& e) {
            r.status = "not-implemented";
            r.message = e.what();
        } catch (const CudaError& e) {
            r.status = "error";
            r.message = e.what();
            if (r.message.find("out of memory") != std::string::npos)
                r.message += " (past the --gpu-memory budget: the harness holds the rest of the device)";
            cuda_failed_ = !gpus_healthy(job.gpus);  // a refused allocation leaves the GPUs usable; a fault does not
        } catch (const InputError& e) {  // e.g. rows_per_strip found no room: the variant's own refusal
            r.status = "error";
            r.message = e.what();
        } catch (const ReferenceWithheld& e) {  // the variant called the kit's reference: it alone fails
            r.status = "error";
            r.message = e.what();
        }
        report_.results.push_back(r);
    }

    // The timed runs, each held to the lab's rules: the first rule a run broke, or empty.
    std::string time_variant(VariantResult& r, const StripVariant& v, HostMemory m, const StripJob& job, ActivityTrace& trace,
                             const DeviceMemoryCap* cap) {
        for (int w = 1; w < options_.warmup; ++w) run_once(v, job, trace);  // the first, checked run is a warm-up too
        std::vector<RunFigures> runs;
        for (int rep = 0; rep < options_.reps; ++rep) {
            runs.push_back(run_once(v, job, trace));
            const std::string broken = broken_strip_rule(job, runs.back(), trace, cap, options_.unknown_launches_pass());
            if (!broken.empty()) return "timed run " + std::to_string(rep + 1) + ": " + broken;
        }
        std::vector<double> ms;
        for (const RunFigures& f : runs) ms.push_back(f.wall_ms);
        r.time = summarize(ms);
        // The median run's records: the one whose time is nearest the median.
        const RunFigures* median = &runs.front();
        for (const RunFigures& f : runs)
            if (std::abs(f.wall_ms - r.time->median_ms) < std::abs(median->wall_ms - r.time->median_ms)) median = &f;
        timelines_.push_back({result_name(v, m), timeline_of(median->records)});
        describe_run(r, job, *median, timelines_.back().second);
        if (!options_.graded()) {
            const CheckResult again = check_output();
            if (!again.passed) record_check(r, again, "after timing");
        }
        if (r.time->noisy())
            report_.notes.push_back(v.name + " (" + memory_of(r) + "): the timed runs vary by " + format_fixed(100 * r.time->cv, 0) + "%");
        return "";
    }

    void add_figures() override {
        derive_figures(report_);
        for (VariantResult& r : report_.results) {  // host to host: the device's copy and FP32 ceilings do not apply
            r.pct_copy_bandwidth.reset();
            r.gflop_per_s.reset();
            r.pct_fp32_peak.reset();
        }
    }

    StripPeerShape peer_shape() const { return {image_.width, image_.height, image_.channels}; }

    // --timed-by: the grader's timer runs this program's strip variants on its own host memory,
    // each timed run held to the lab's rules (strip_peer.hpp).
    int serve_timer(PeerLink& link) override {
        open_gpus(false);
        StripPeerServer server(spec_.variants, peer_shape(), mask_.k, options_.border, budget_, gpus_);
        return serve_peer_timer(link, *session_, server);
    }

    // --timer-of: times another process's strip variants from pinned memory (peer_timer.hpp) and
    // reports them; runs none itself. The copy rates measured first give the grader its floor.
    void time_peer(PeerLink& link) override {
        open_gpus(true);
        StripPeerTarget target(peer_shape(), mask_, options_.border, budget_, gpus_);
        PeerTimer timer(link, target, PeerTimerPlan{options_.warmup, options_.reps});
        for (const StripVariant& v : spec_.variants) {
            if (!options_.selects(v.name) || v.whole) continue;
            VariantResult r = row(v, HostMemory::Pinned);
            r.set_figure("gpus", "GPUs", "", v.several_gpus ? gpus_ : 1, 0);
            if (const auto mib = target.in_use_at_ready_mib()) r.set_figure("device_mib_at_ready", "device MiB at ready", "MiB", *mib, 0);
            timer.time_variant(v.name, r);
            report_.results.push_back(r);
        }
        timer.finish();
    }

    // The several-GPU rows against the one-GPU variant's row of the same host memory.
    void compare_with_one_gpu() {
        for (VariantResult& r : report_.results) {
            if (!r.time || gpus_of(r) < 2) continue;
            for (const VariantResult& one : report_.results)
                if (one.name == spec_.one_gpu && memory_of(one) == memory_of(r) && one.time)
                    r.set_figure("speedup_vs_one_gpu", "vs 1 GPU", "x", one.time->median_ms / r.time->median_ms);
        }
    }

    // Each pinned row's copy rates against a plain pinned copy's in the same run (issue 18's bar: 80%).
    void note_copy_rates() {
        for (const VariantResult& r : report_.results) {
            const auto overlap = r.number("overlap_efficiency"), h2d = r.number("h2d_gbs"), d2h = r.number("d2h_gbs");
            if (overlap && report_.transfers && memory_of(r) == "pinned" && h2d && d2h)
                report_.notes.push_back(r.name + " (pinned): copies at " + format_fixed(100 * *h2d / gpus_of(r) / report_.transfers->h2d_pinned, 0) +
                                        "% (in) and " + format_fixed(100 * *d2h / gpus_of(r) / report_.transfers->d2h_pinned, 0) +
                                        "% (out) of a plain pinned copy's rate a GPU; overlap efficiency " + format_fixed(*overlap, 2));
        }
    }

    void write_raw(const std::string& name) const {
        if (options_.raw_out_dir.empty()) return;
        write_raw_bytes(raw_result_path(options_.raw_out_dir, name), reinterpret_cast<const char*>(output_.get()),
                        image_.elements() * sizeof(float));
    }

    // --compare: the grader's trusted check of a folder of raw results another process wrote: a
    // row for each result of a variant there, checked band by band; any other .f32 file fails.
    int compare_raw_results() override {
        RawFolder folder(options_.compare_file);
        std::vector<VariantResult> rows;
        const size_t n = image_.elements();
        for (const StripVariant& v : spec_.variants)
            for (HostMemory m : v.memories) {
                const std::string path = folder.file_of(result_name(v, m));
                if (!std::filesystem::is_regular_file(path)) continue;
                VariantResult r = row(v, m);
                r.name = result_name(v, m);  // the grader's name for the result: one variant, two host memories
                r.kind = "submitted";
                const std::vector<float> got = read_raw_floats(path, n + 1);
                if (got.size() != n) {
                    r.status = "fail";
                    r.message = "holds " + std::to_string(got.size()) + " values, not the image's " + std::to_string(n);
                } else {
                    std::copy(got.begin(), got.end(), output_.get());
                    record_check(r, check_output());
                }
                rows.push_back(r);
            }
        add_stray_rows(folder, rows);
        return finish_compare(report_, rows, options_.format);
    }

    const OutputFolder* output_folder() const override { return &out_; }

    // --out: each timed row's median run as a picture, a lane a stream of each GPU.
    void save_outputs() override {
        if (!out_.enabled()) return;
        for (const auto& [name, spans] : timelines_) {
            const std::string title = "lab " + std::to_string(spec_.lab.number) + ", " + name + ": " + std::to_string(image_.width) +
                                      "x" + std::to_string(image_.height) + ", " + mask_.spec + ", budget " +
                                      format_bytes(double(budget_));
            const std::string svg = timeline_svg(spans, title);
            const std::string file = raw_file_name(name);  // "serial_pinned.f32"
            write_raw_bytes((std::filesystem::path(out_.path()) / ("timeline_" + file.substr(0, file.rfind('.')) + ".svg")).string(),
                            svg.data(), svg.size());
        }
    }

    const StripLabSpec& spec_;
    const Options& options_;
    Image& image_;
    const OutputFolder& out_;
    const Mask& mask_;
    std::unique_ptr<float[]> output_;
    std::unique_ptr<GpuSession> session_;
    int gpus_ = 1;
    size_t budget_ = 0, whole_budget_ = 0;
    std::optional<double> in_use_at_start_mib_;  // a graded run's: open_gpus
    std::vector<std::pair<std::string, std::vector<TimelineSpan>>> timelines_;
};

// Refuses, before anything is made, an input the host cannot hold: the image, its float result,
// a band of the reference and a band of its padded input.
void require_host_room(const Options& options, int channels) {
    if (options.image != "synthetic" && options.image != "random") return;  // a file's size is known once it is read
    const size_t values = size_t(options.width) * options.height * channels;
    const size_t need = values * (1 + sizeof(float)) + 2 * kStripCheckBandValues * sizeof(float);
    const size_t have = available_host_bytes();
    if (need > have)
        throw InputError("a " + std::to_string(options.width) + "x" + std::to_string(options.height) + " image with " +
                         std::to_string(channels) + " channel(s) needs " + format_gib(need) + " of host memory, and " +
                         format_gib(have) + " are available; accepted: a smaller --size");
}

}  // namespace

int run_strip_lab(int argc, char** argv, const StripLabSpec& spec) {
    return guarded_main("lab" + std::to_string(spec.lab.number), "a smaller --size", [&] {
        if (!spec.set_mask) throw std::logic_error("the lab's driver names no set_mask (StripLabSpec): its given kernel's mask setter");
        const LabSpec lab = command_line_spec(spec);
        const Options options = parse_one_mask_options(argc, argv, lab, "convolves with", "one --mask");
        if (options.help) {
            std::cout << options.help_text;
            return int(kExitPass);
        }
        parse_memory_size(options.lab_values.at("gpu-memory"), size_t(1) << 40, "--gpu-memory", "the GPU's memory");  // its form; its size once a GPU is known
        if (options.lab_values.at("gpus") != "all") parse_count(options.lab_values.at("gpus"), "--gpus", 1, 1 << 16);
        require_host_room(options, options.channels ? options.channels : lab.default_channels);
        std::string source;
        Image image = make_lab_input(options, lab.default_channels, &source);
        const OutputFolder out(options.out_dir);
        return StripRun(spec, options, image, out).run(source);
    });
}

}  // namespace convlab

// convlab harness — do not edit in a lab.
// run_lab(): input -> GPU set-up -> CPU reference -> CPU variants -> GPU variants -> report -> pictures.
#include <omp.h>

#include <chrono>
#include <iostream>
#include <limits>

#include "common/errors.hpp"
#include "common/exit_status.hpp"
#include "common/gpu_session.hpp"
#include "common/lab.hpp"
#include "common/options.hpp"
#include "common/output_folder.hpp"
#include "common/reference.hpp"
#include "common/report.hpp"
#include "common/synthetic.hpp"

namespace convlab {
namespace {

constexpr float kPoison = std::numeric_limits<float>::quiet_NaN();

Image make_input(const Options& options, const LabSpec& spec, std::string* source) {
    const int channels = options.channels ? options.channels : spec.default_channels;
    Image image;
    if (options.image == "synthetic") {
        image = make_synthetic_image(options.width, options.height, channels, options.seed);
        *source = "synthetic (seed " + std::to_string(options.seed) + ")";
    } else if (options.image == "random") {
        image = make_random_image(options.width, options.height, channels, options.seed);
        *source = "random (seed " + std::to_string(options.seed) + ")";
    } else {
        image = load_image(options.image, options.channels);
        *source = options.image;
    }
    if (options.tile_width) {
        image = tile_image(image, options.tile_width, options.tile_height);
        *source += " tiled";
    }
    return image;
}

VariantResult result_row(const std::string& name, const std::string& description, const char* kind,
                         const char* status = "", const std::string& message = "") {
    VariantResult r;
    r.name = name;
    r.description = description;
    r.kind = kind;
    r.status = status;
    r.message = message;
    return r;
}

TimingStats time_cpu(const std::function<void()>& fn, int reps) {
    std::vector<double> samples;
    for (int rep = 0; rep < reps; ++rep) {
        const auto start = std::chrono::steady_clock::now();
        fn();
        samples.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    return summarize(samples);
}

class LabRun {
  public:
    LabRun(const LabSpec& spec, const Options& options, const Image& image, const Mask& mask, const OutputFolder& out)
        : spec_(spec), options_(options), image_(image), mask_(mask), out_(out), problem_{image, mask, options.border},
          tolerance_(tolerance_for(mask)) {}

    int run(const std::string& source) {
        fill_report_header(source);
        const std::string reason = spec_.gpu.empty() ? "" : gpu_unavailable_reason();
        if (!spec_.gpu.empty() && reason.empty()) open_gpu();
        run_reference();
        for (const CpuVariant& v : spec_.cpu)
            if (selected(v.name)) run_cpu_variant(v);
        for (const GpuVariant& v : spec_.gpu) {
            if (!selected(v.name)) continue;
            if (!reason.empty()) skip(v, "skipped: " + reason);
            else if (!session_->healthy()) skip(v, "skipped: an earlier CUDA error ended the GPU part");
            else run_gpu_variant(v);
        }
        report_.gpu_skipped = reason;
        derive_figures(report_);
        std::cout << render(report_, options_.format) << std::flush;
        if (!reason.empty() && selected_gpu_variants())
            std::cerr << "lab" << spec_.number << ": GPU variants skipped: " << reason << " (the CPU part ran; exit status "
                      << kExitNoGpu << ")\n";
        save_pictures();
        return exit_status(!reason.empty() && selected_gpu_variants());
    }

  private:
    bool selected(const std::string& name) const {
        return options_.variants.empty() || std::find(options_.variants.begin(), options_.variants.end(), name) != options_.variants.end();
    }
    bool selected_gpu_variants() const {
        return std::any_of(spec_.gpu.begin(), spec_.gpu.end(), [&](const GpuVariant& v) { return selected(v.name); });
    }

    void fill_report_header(const std::string& source) {
        report_.lab = spec_.number;
        report_.title = spec_.title;
        report_.image_source = source;
        report_.width = image_.width;
        report_.height = image_.height;
        report_.channels = image_.channels;
        report_.seed = options_.seed;
        report_.mask_spec = mask_.spec;
        report_.mask_size = mask_.k;
        report_.border = border_name(options_.border);
        report_.tolerance = tolerance_;
        report_.warmup = options_.warmup;
        report_.reps = options_.reps;
        report_.cpu_reps = options_.cpu_reps;
        report_.flush_l2 = options_.flush_l2;
        report_.check_only = options_.check_only;
        report_.cpu_cores = omp_get_num_procs();
        report_.baseline = spec_.baseline;
        report_.has_gpu_part = !spec_.gpu.empty();
    }

    void open_gpu() {
        session_ = std::make_unique<GpuSession>();
        report_.device = session_->info();
        report_.copy_bandwidth_gbs = session_->copy_bandwidth_gbs();
        const bool any_end_to_end =
            std::any_of(spec_.gpu.begin(), spec_.gpu.end(), [](const GpuVariant& v) { return bool(v.end_to_end); });
        const size_t problem_bytes = image_.elements() * (1 + sizeof(float)) + mask_.weights.size() * sizeof(float);
        session_->load_problem(image_, mask_, options_.border, any_end_to_end ? problem_bytes : 0);
    }

    CheckResult check(const std::vector<float>& got, TileShape tile) const {
        return check_output(got.data(), reference_.data(), image_.width, image_.height, image_.channels, tolerance_,
                            mask_.radius(), tile);
    }

    void record_check(VariantResult& r, const CheckResult& c) {
        r.check = c;
        r.status = c.passed ? "pass" : "fail";
        r.message = c.summary();
    }

    // A result that passed once and then failed after the timed repetitions usually means a race.
    void recheck_after_timing(VariantResult& r, const CheckResult& c) {
        if (c.passed) return;
        record_check(r, c);
        r.message = "passed the first run but failed after timing (a race?): " + r.message;
    }

    void keep_picture(const std::string& name, const std::vector<float>& values) {
        if (out_.enabled()) pictures_.emplace_back(name, values);
    }

    void run_reference() {
        reference_.assign(image_.elements(), kPoison);
        conv2d_cpu_omp(image_, mask_, options_.border, reference_.data(), 0);
        VariantResult r = result_row("openmp-reference", "the harness's CPU reference, double, all cores", "reference",
                                     "pass", "the reference every result is checked against");
        r.threads = omp_get_max_threads();
        if (!options_.check_only) {
            std::vector<float> scratch(image_.elements());
            r.time = time_cpu([&] { conv2d_cpu_omp(image_, mask_, options_.border, scratch.data(), 0); }, options_.cpu_reps);
        }
        report_.results.push_back(r);
    }

    void run_cpu_variant(const CpuVariant& v) {
        const std::vector<int> counts = v.sweep_threads ? options_.threads : std::vector<int>{1};
        std::vector<float> out(image_.elements());
        for (int threads : counts) {
            VariantResult r = result_row(v.name, v.description, "cpu");
            r.threads = threads;
            try {
                std::fill(out.begin(), out.end(), kPoison);
                v.run(problem_, out.data(), threads);
                record_check(r, check(out, {}));
                if (r.status == "pass" && !options_.check_only) {
                    std::vector<double> samples;
                    for (int rep = 0; rep < options_.cpu_reps; ++rep) {
                        std::fill(out.begin(), out.end(), kPoison);
                        samples.push_back(time_cpu([&] { v.run(problem_, out.data(), threads); }, 1).median_ms);
                    }
                    r.time = summarize(samples);
                    recheck_after_timing(r, check(out, {}));
                }
            } catch (const NotImplemented& e) {
                r.status = "not-implemented";
                r.message = std::string(e.what()) + " (" + spec_.student_files + ")";
            }
            note_noise(r);
            report_.results.push_back(r);
            if (r.status == "not-implemented") break;  // the other thread counts would say the same
        }
        keep_picture(v.name, out);
    }

    void run_gpu_variant(const GpuVariant& v) {
        VariantResult r = result_row(v.name, v.description, "gpu");
        std::vector<float> out(image_.elements(), kPoison);
        try {
            const ConvArgs& args = session_->args();
            if (v.prepare) session_->run([&] { v.prepare(mask_); });
            session_->poison_output();
            session_->run([&] { v.launch(args); });
            session_->fetch_output(out.data());
            record_check(r, check(out, v.tile));
            if (r.status == "pass" && !options_.check_only) {
                const TimingPlan plan{options_.warmup, options_.reps, options_.flush_l2};
                r.time = session_->time([&] { v.launch(args); }, plan, true);
                session_->fetch_output(out.data());
                recheck_after_timing(r, check(out, v.tile));
            }
            if (r.status == "pass" && v.end_to_end) run_end_to_end(v, r);
        } catch (const NotImplemented& e) {
            r.status = "not-implemented";
            r.message = std::string(e.what()) + " (" + spec_.student_files + ")";
        } catch (const CudaError& e) {
            r.status = "error";
            r.message = e.what();
            cuda_failed_ = cuda_failed_ || !session_->healthy();
        }
        note_noise(r);
        report_.results.push_back(r);
        keep_picture(v.name, out);
    }

    // The variant's own host code: allocate, copy in, launch, copy out, free; timed as a whole.
    void run_end_to_end(const GpuVariant& v, VariantResult& r) {
        std::vector<float> out(image_.elements(), kPoison);
        session_->run([&] { v.end_to_end(problem_, out.data()); });
        CheckResult c = check(out, v.tile);
        if (!c.passed) {
            record_check(r, c);
            r.message = "kernel passed, end-to-end version failed: " + r.message;
            return;
        }
        if (options_.check_only) return;
        const TimingPlan plan{options_.warmup, options_.reps, options_.flush_l2};
        r.end_to_end = session_->time([&] {
            std::fill(out.begin(), out.end(), kPoison);
            v.end_to_end(problem_, out.data());
        }, plan, false);
        recheck_after_timing(r, check(out, v.tile));
    }

    void skip(const GpuVariant& v, const std::string& why) {
        report_.results.push_back(result_row(v.name, v.description, "gpu", "skipped", why));
    }

    void note_noise(const VariantResult& r) {
        for (const auto* t : {&r.time, &r.end_to_end})
            if (*t && (*t)->noisy())
                report_.notes.push_back("warning: " + r.name + " timing varies a lot (cv " + std::to_string(int(100 * (*t)->cv)) +
                                        "%): another program on the machine? compare medians with care");
    }

    void save_pictures() {
        if (!out_.enabled()) return;
        out_.save_image("input", image_);
        out_.save_result("reference", reference_, image_);
        for (const auto& [name, values] : pictures_) {
            out_.save_result(name, values, image_);
            out_.save_difference(name + "-diff", values, reference_, image_);
        }
        std::cerr << "lab" << spec_.number << ": pictures saved in " << out_.path() << "/\n";
    }

    int exit_status(bool gpu_skipped) const {
        if (cuda_failed_) return kExitCudaError;
        for (const auto& r : report_.results)
            if (r.status != "pass" && r.status != "skipped") return kExitCheckFailed;
        return gpu_skipped ? kExitNoGpu : kExitPass;
    }

    const LabSpec& spec_;
    const Options& options_;
    const Image& image_;
    const Mask& mask_;
    const OutputFolder& out_;
    Problem problem_;
    Tolerance tolerance_;
    std::vector<float> reference_;
    std::unique_ptr<GpuSession> session_;
    Report report_;
    std::vector<std::pair<std::string, std::vector<float>>> pictures_;
    bool cuda_failed_ = false;
};

}  // namespace

int run_lab(int argc, char** argv, const LabSpec& spec) {
    const std::string program = "lab" + std::to_string(spec.number);
    try {
        const Options options = parse_options(argc, argv, spec);
        if (options.help) {
            std::cout << options.help_text;
            return kExitPass;
        }
        std::string source;
        const Image image = make_input(options, spec, &source);
        const Mask mask = parse_mask(options.mask, spec.max_mask_size);
        const OutputFolder out(options.out_dir);
        return LabRun(spec, options, image, mask, out).run(source);
    } catch (const InputError& e) {
        std::cerr << program << ": error: " << e.what() << "\n";
        return kExitBadInput;
    } catch (const CudaError& e) {
        std::cerr << program << ": CUDA error: " << e.what() << "\n";
        return kExitCudaError;
    } catch (const std::bad_alloc&) {
        std::cerr << program << ": error: out of host memory; accepted: a smaller --size or --tile-to\n";
        return kExitBadInput;
    } catch (const std::exception& e) {
        std::cerr << program << ": internal error: " << e.what() << "\n";
        return kExitCudaError;
    }
}

}  // namespace convlab

// convlab harness — do not edit in a lab.
// run_array_lab(): options -> variant names checked -> ArrayRun, on the skeleton every lab's run
// shares (family_run.hpp): GPU -> header -> --check-only, --compare, peer timing or the timed run.
#include "common/families/arrays/array_lab.hpp"

#include <algorithm>
#include <cxxopts.hpp>
#include <iostream>
#include <memory>
#include <optional>

#include "common/families/arrays/array_bench.hpp"
#include "common/families/arrays/array_checks.hpp"
#include "common/families/arrays/array_peer.hpp"
#include "common/cli/command_line.hpp"
#include "common/core/errors.hpp"
#include "common/core/exit_status.hpp"
#include "common/device/gpu_session.hpp"
#include "common/cli/guarded_main.hpp"
#include "common/cli/run_options.hpp"
#include "common/core/text_parse.hpp"
#include "common/report/output_folder.hpp"
#include "common/runner/family_run.hpp"

namespace convlab {

std::string qualified_name(const ArrayExperiment& e, const ArrayVariant& v) { return e.key + "/" + v.name; }

namespace {

struct ArrayOptions : RunOptions {
    long long elements = 0;  // 0: the lab's default for the GPU
    std::vector<std::string> experiments;
    bool demo = false;       // --demo: a lecture's pace (kDemoShrink, kDemoReps), the report saved in out_dir
    std::string out_dir;
};

// --demo's arrays are this many times shorter than the lab's default for the GPU, unless
// --elements says otherwise: the default run of every experiment took 93 s on an H100 beside
// three grading jobs, the lecture's bar is 10 s (issue 43).
constexpr size_t kDemoShrink = 4;

std::string program_of(const ArrayLabSpec& spec) { return "lab" + std::to_string(spec.number); }

// Each of `names` must be one of `known`: bad input otherwise, "OPTION 'NAME' is not WHAT".
void require_known(const std::vector<std::string>& names, const std::vector<std::string>& known, const std::string& option,
                   const std::string& what) {
    for (const std::string& name : names)
        if (std::find(known.begin(), known.end(), name) == known.end())
            throw InputError(option + " '" + name + "' is not " + what);
}

RunOptionsText array_lab_text(const ArrayLabSpec& spec) {
    RunOptionsText text;
    text.seed_help = spec.seed_help;
    text.default_seed = std::to_string(spec.default_seed);
    text.raw_out_help = "write each variant's first output as raw bytes (EXPERIMENT_VARIANT.f32) into this existing folder (for the grader)";
    text.compare_help = "check the raw outputs in this folder against the CPU references; no kernel runs";
    text.compare_takes_a_file = false;
    text.csv = false;
    return text;
}

ArrayOptions parse_array_options(int argc, char** argv, const ArrayLabSpec& spec) {
    const std::string program = program_of(spec);
    const RunOptionsText shared = array_lab_text(spec);
    std::string keys;  // ", " between them: the help wraps between words, never inside one
    for (const std::string& k : spec.experiment_keys) keys += (keys.empty() ? "" : ", ") + k;
    cxxopts::Options parser(program, "convlab lab " + std::to_string(spec.number) + ": " + spec.title);
    // clang-format off
    parser.add_options("Input")
        ("elements", spec.elements_help, cxxopts::value<std::string>())
        ("experiment", "comma-separated experiments to run (default: all): " + keys, cxxopts::value<std::string>())
        ("demo", "lecture mode: every experiment on arrays " + std::to_string(kDemoShrink) + "x shorter than the default, each variant "
                 "timed " + std::to_string(kDemoReps) + " times after one warm-up; the report saved to demo-output/" + program);
    // clang-format on
    add_run_options(parser, shared);
    parser.custom_help("[options] [--benchmark_...]");
    const cxxopts::ParseResult args = parse_command_line(parser, argc, argv, program);
    ArrayOptions o;
    if (args.count("help")) {
        o.help = true;
        o.help_text = parser.help({"Input", "Run", "Output", "Grading"}) +
                      "\nVariants are named experiment/variant, as in the tables: e.g. --variant 'memory/B read-swapped'.\n"
                      "\nGoogle Benchmark's flags pass through, e.g. --benchmark_filter=memory/ --benchmark_format=json\n"
                      "  (then stdout is Google Benchmark's JSON and the summary goes to stderr), --benchmark_out=FILE\n"
                      "  --benchmark_out_format=json|csv (every repetition, with aggregates).\n" +
                      exit_status_help();
        return o;
    }
    read_run_options(args, shared, o);
    o.demo = args.count("demo") > 0;
    if (o.demo) apply_demo_timing(args, o);
    if (o.demo && !o.graded()) o.out_dir = "demo-output/" + program;
    if (args.count("elements")) o.elements = parse_count(args["elements"].as<std::string>(), "--elements", 1, spec.max_elements);
    if (args.count("experiment")) o.experiments = split_list(args["experiment"].as<std::string>());
    require_known(o.experiments, spec.experiment_keys, "--experiment", "an experiment; accepted: " + keys);
    // Named before the GPU is looked for: a misspelt variant is bad input on any machine. The
    // default length is the GPU's; any long array has every variant.
    const size_t n = o.elements ? size_t(o.elements) : size_t(1) << 20;
    require_known(o.variants, spec.variant_names(n, o.experiments), "--variant",
                  "a variant of the experiments run; accepted: experiment/variant as in the tables, e.g. memory/B read-swapped");
    return o;
}

// Only the variants --variant names (experiment/variant), in the experiments' order; all when it names none.
std::vector<ArrayExperiment> selected_variants(std::vector<ArrayExperiment> experiments, const RunOptions& options) {
    if (options.variants.empty()) return experiments;
    for (ArrayExperiment& e : experiments) {
        const auto unnamed = [&](const ArrayVariant& v) { return !options.selects(qualified_name(e, v)); };
        e.variants.erase(std::remove_if(e.variants.begin(), e.variants.end(), unnamed), e.variants.end());
    }
    experiments.erase(std::remove_if(experiments.begin(), experiments.end(), [](const ArrayExperiment& e) { return e.variants.empty(); }),
                      experiments.end());
    return experiments;
}

// The array lab's run on the skeleton every lab shares (family_run.hpp). Every mode runs on the
// GPU, so it is looked for before the header, which names the device and the arrays' length; the
// arrays are made with it, for every mode but the grader's timer's worker, which lays its own over
// the timer's block. The bench (run_variants) is Google Benchmark's, which prints its own report.
class ArrayRun : public FamilyRun {
  public:
    ArrayRun(const ArrayLabSpec& spec, const ArrayOptions& options, const std::string& benchmark_format)
        : FamilyRun(spec.number, options), spec_(spec), options_(options), benchmark_format_(benchmark_format) {}

  private:
    bool needs_gpu_before_header() const override { return true; }
    std::string no_gpu_line(const std::string& reason) const override {
        return program_of(spec_) + ": GPU experiments skipped: " + reason + " (every experiment of lab " + std::to_string(spec_.number) +
               " runs on the GPU)\n";
    }
    // Each table states its rates under its own experiment's model (array_bench.hpp): no image figures.
    void add_figures() override {}
    int exit_status(bool, bool) const override { return array_exit_status(report_.results); }

    void fill_header(const std::string& source) override {
        session_ = std::make_unique<GpuSession>();
        n_ = options_.elements ? size_t(options_.elements) : spec_.default_elements(session_->info());
        if (options_.demo && !options_.elements) n_ = std::max<size_t>(1024, n_ / kDemoShrink / 1024 * 1024);
        report_ = report_of_run(spec_.number, spec_.title, options_);
        report_.device = session_->info();
        report_.copy_bandwidth_gbs = session_->copy_bandwidth_gbs();
        report_.has_gpu_part = true;
        report_.image_source = source;
        report_.elements = n_;
        report_.byte_model = "per experiment: each table states its byte (or flop) model";
        if (options_.timed_by >= 0) return;  // the grader's timer makes the arrays: none of this run's own
        // The lab's arrays and the selected variants on them; for peer timing in one block that the
        // worker maps (array_memory.hpp).
        memory_ = std::make_unique<ArrayMemory>(options_.timer_of >= 0 ? ArrayMemory::exported_block() : ArrayMemory::separate_arrays());
        workspace_ = spec_.workspace(n_, session_->info(), session_->copy_bandwidth_gbs(), options_.seed, *memory_);
        experiments_ = selected_variants(workspace_->experiments(options_.experiments), options_);
    }

    // --check-only: each variant once, checked (graded: its bytes written), nothing timed. --compare,
    // given too, is the mode.
    std::optional<int> run_own_mode() override {
        if (!options_.check_only || !options_.compare_file.empty()) return std::nullopt;
        const int status = check_arrays_once(experiments_, *session_, options_, report_);
        print_array_results(report_, options_.format, std::cout);
        return status;
    }

    int compare_raw_results() override {
        const int status = compare_array_results(experiments_, options_.compare_file, workspace_->bytes(), report_);
        print_array_results(report_, options_.format, std::cout);
        return status;
    }

    // --timed-by: on the arrays the grader's timer makes.
    int serve_timer(PeerLink& link) override {
        ArrayPeerServer server(*session_, spec_, options_.seed);
        return serve_peer_timer(link, *session_, server);
    }

    // --timer-of: times another process's variants on this run's arrays (array_peer.hpp); runs none itself.
    void time_peer(PeerLink& link) override {
        ArrayPeerTarget target(*session_, *workspace_, *memory_, n_, experiments_);
        PeerTimer timer(link, target, PeerTimerPlan{options_.warmup, options_.reps});
        for (const ArrayExperiment& e : experiments_)
            for (const ArrayVariant& v : e.variants) {
                VariantResult r = array_row(qualified_name(e, v), "gpu");
                timer.time_variant(r.name, r);
                report_.results.push_back(r);
            }
        timer.finish();
    }

    // The timed run: the GPU was found before the header.
    void run_variants(const std::string&) override {
        const DeviceInfo& device = session_->info();
        std::vector<std::string> header = {"convlab lab " + std::to_string(spec_.number) + ": " + spec_.title, "GPU      " + describe_gpu(device)};
        for (const std::string& line : spec_.describe(device, session_->copy_bandwidth_gbs(), n_, options_.seed)) header.push_back(line);
        if (options_.demo)
            header.push_back("Demo     lecture mode: arrays of " + std::to_string(n_) + " floats" + (options_.elements ? "" : ", " +
                             std::to_string(kDemoShrink) + "x shorter than the default") + "; the report in " + out_.path() + "/report.json");
        header.push_back("Timing   median of " + std::to_string(options_.reps) + " launches after " +
                         std::to_string(options_.warmup) + " warm-ups (CUDA events through Google Benchmark's manual time" +
                         (options_.flush_l2 ? ", L2 flushed before each" : ", L2 not flushed") +
                         "); every variant checked before and after timing");
        bench_arrays(experiments_, *session_, options_, benchmark_format_, header, report_);
    }

    // Peer timing's rows, printed as check-only's and compare's are. After the timed run there is
    // nothing left to print: bench_arrays printed its summary, and Google Benchmark's report after it.
    void print_report() override {
        if (options_.timer_of >= 0) print_array_results(report_, options_.format, std::cout);
    }

    const OutputFolder* output_folder() const override { return &out_; }  // --demo's report.json (family_run.cpp)

    const ArrayLabSpec& spec_;
    const ArrayOptions& options_;
    const OutputFolder out_{options_.out_dir};
    const std::string benchmark_format_;  // Google Benchmark's --benchmark_format: "" when not given
    std::unique_ptr<GpuSession> session_;
    size_t n_ = 0;
    std::unique_ptr<ArrayMemory> memory_;  // before the workspace: it outlives it
    std::unique_ptr<ArrayWorkspace> workspace_;
    std::vector<ArrayExperiment> experiments_;
};

}  // namespace

int run_array_lab(int argc, char** argv, const ArrayLabSpec& spec) {
    return guarded_main(program_of(spec), "fewer --elements", [&] {
        const std::string benchmark_format = take_benchmark_flags(&argc, argv);
        const ArrayOptions options = parse_array_options(argc, argv, spec);
        if (options.help) {
            std::cout << options.help_text;
            return int(kExitPass);
        }
        return ArrayRun(spec, options, benchmark_format).run("arrays (seed " + std::to_string(options.seed) + ")");
    });
}

}  // namespace convlab

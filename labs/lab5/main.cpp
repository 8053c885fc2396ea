// convlab lab 5 driver — do not edit. Your work is in coalescing.cu, divergence.cu,
// block_config.cu and bank_conflicts.cu.
//
// Google Benchmark drives the timing (manual time from CUDA events), so its flags work too:
// --benchmark_filter=REGEX, --benchmark_format=console|json|csv, --benchmark_out=FILE,
// --benchmark_out_format=json|csv, --benchmark_enable_random_interleaving=true.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cxxopts.hpp>
#include <iostream>

#include "build/gen/lab5/manifest.hpp"
#include "common/command_line.hpp"
#include "common/errors.hpp"
#include "common/exit_status.hpp"
#include "common/gpu_session.hpp"
#include "common/guarded_main.hpp"
#include "common/options.hpp"
#include "common/report.hpp"
#include "common/text_table.hpp"
#include "labs/lab5/driver/bench_runner.hpp"
#include "labs/lab5/driver/grading.hpp"
#include "labs/lab5/driver/microbench.hpp"

namespace {

using namespace convlab;

constexpr const char* kProgram = "lab5";
constexpr const char* kTitle = kManifest.title;  // labs/lab5/manifest

struct Lab5Options {
    bool help = false;
    std::string help_text;
    long long elements = 0;  // 0: from the GPU's L2 size
    uint64_t seed = lab5::kDefaultSeed;
    std::vector<std::string> experiments;
    std::vector<std::string> variants;  // "experiment/variant"; all when empty
    bool check_only = false;
    std::string compare_dir;  // the grader's trusted check (labs/lab5/driver/grading.hpp)
    lab5::RunPlan plan;
};

// Google Benchmark exits on a bad value of its own flags; this one is checked first so that bad
// input gets the kit's one line and exit status 2.
std::string benchmark_format(int argc, char** argv) {
    const std::string flag = "--benchmark_format=";
    std::string format;
    for (int i = 1; i < argc; ++i)
        if (std::string(argv[i]).rfind(flag, 0) == 0) format = std::string(argv[i]).substr(flag.size());
    if (!format.empty() && format != "console" && format != "json" && format != "csv")
        throw InputError("--benchmark_format=" + format + " is not a format; accepted: console, json, csv");
    return format;
}

Lab5Options parse(int argc, char** argv) {
    cxxopts::Options parser(kProgram, std::string("convlab lab 5: ") + kTitle);
    std::string keys;  // ", " between them: the help wraps between words, never inside one
    for (const std::string& k : lab5::experiment_keys()) keys += (keys.empty() ? "" : ", ") + k;
    // clang-format off
    parser.add_options()
        ("elements", "array length in floats (default: 8x the GPU's L2 cache)", cxxopts::value<std::string>())
        ("experiment", "comma-separated experiments to run (default: all): " + keys, cxxopts::value<std::string>())
        ("variant", "comma-separated variants to run, as experiment/variant (default: all)", cxxopts::value<std::string>())
        ("seed", "seed of the input values", cxxopts::value<std::string>()->default_value(std::to_string(lab5::kDefaultSeed)))
        ("check-only", "run and check each variant once, no timing")
        ("raw-out", "write each variant's first output as raw bytes into this folder (for the grader)", cxxopts::value<std::string>())
        ("compare", "check the raw outputs in this folder against the CPU references; no kernel runs", cxxopts::value<std::string>())
        ("reps", "timed repetitions per variant (one launch each)", cxxopts::value<std::string>()->default_value("15"))
        ("warmup", "untimed launches before timing", cxxopts::value<std::string>()->default_value("2"))
        ("no-flush", "do not flush the L2 cache before each timed launch")
        ("format", "the summary: text, md, or json (the grader's results)", cxxopts::value<std::string>()->default_value("text"))
        ("h,help", "this help");
    // clang-format on
    parser.custom_help("[options] [--benchmark_...]");
    const cxxopts::ParseResult args = parse_command_line(parser, argc, argv, "lab5");
    Lab5Options o;
    if (args.count("help")) {
        o.help = true;
        o.help_text = parser.help() +
                      "\nGoogle Benchmark's flags pass through, e.g. --benchmark_filter=memory/ --benchmark_format=json\n"
                      "  (then stdout is Google Benchmark's JSON and the summary goes to stderr), --benchmark_out=FILE\n"
                      "  --benchmark_out_format=json|csv (every repetition, with aggregates).\n"
                      "\nExit status: 0 every variant passed; 1 a check failed or a variant is not implemented yet;\n"
                      "  2 bad input (nothing run); 3 no usable GPU; 4 a CUDA error ended the run.\n";
        return o;
    }
    auto text = [&](const char* name) { return args[name].as<std::string>(); };
    if (args.count("elements")) o.elements = parse_count(text("elements"), "--elements", 1, 2000000000);
    if (args.count("experiment")) {
        for (const std::string& key : split_list(text("experiment"))) {
            bool known = false;
            for (const std::string& k : lab5::experiment_keys()) known = known || k == key;
            if (!known) throw InputError("--experiment '" + key + "' is not an experiment; accepted: " + keys);
            o.experiments.push_back(key);
        }
    }
    if (args.count("variant")) o.variants = split_list(text("variant"));
    const long long seed = parse_whole(text("seed"), "--seed");
    if (seed < 0) throw InputError("--seed " + text("seed") + " is negative; accepted: a whole number >= 0");
    o.seed = uint64_t(seed);
    o.check_only = args.count("check-only") > 0;
    if (args.count("raw-out")) o.plan.raw_dir = text("raw-out");
    if (args.count("compare")) o.compare_dir = text("compare");
    if (!o.compare_dir.empty() && !o.plan.raw_dir.empty()) throw InputError("--compare checks raw results; it writes none: drop --raw-out");
    o.plan.reps = parse_count(text("reps"), "--reps", 1, 100000);
    o.plan.warmup = parse_count(text("warmup"), "--warmup", 0, 100000);
    o.plan.flush_l2 = args.count("no-flush") == 0;
    const std::string format = text("format");
    if (format != "text" && format != "md" && format != "json")
        throw InputError("--format " + format + " is not a format; accepted: text, md, json");
    o.plan.markdown = format == "md";
    o.plan.json = format == "json";
    return o;
}

std::string mib(double bytes) { return format_sig3(bytes / 1048576.0) + " MiB"; }

// Every name must be one of `known` (experiment/variant): bad input otherwise.
void check_variant_names(const std::vector<std::string>& names, const std::vector<std::string>& known) {
    for (const std::string& name : names)
        if (std::find(known.begin(), known.end(), name) == known.end())
            throw InputError("--variant '" + name + "' is not a variant of the experiments run; accepted: experiment/variant as in "
                             "the tables, e.g. memory/B read-swapped");
}

// Only the variants named (experiment/variant), in the experiments' order; all when none are.
std::vector<lab5::Experiment> selected_variants(std::vector<lab5::Experiment> experiments, const std::vector<std::string>& names) {
    if (names.empty()) return experiments;
    std::vector<std::string> known;
    for (lab5::Experiment& e : experiments) {
        std::vector<lab5::Variant> kept;
        for (lab5::Variant& v : e.variants) {
            known.push_back(lab5::qualified_name(e, v));
            if (std::find(names.begin(), names.end(), known.back()) != names.end()) kept.push_back(std::move(v));
        }
        e.variants = std::move(kept);
    }
    check_variant_names(names, known);
    experiments.erase(std::remove_if(experiments.begin(), experiments.end(), [](const lab5::Experiment& e) { return e.variants.empty(); }),
                      experiments.end());
    return experiments;
}

int run(int argc, char** argv) {
    const std::string gb_format = benchmark_format(argc, argv);
    // Google Benchmark would answer --help with its own flags only, and exit.
    bool help = false;
    for (int i = 1; i < argc; ++i) help = help || std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h";
    if (!help) benchmark::Initialize(&argc, argv);  // takes out the --benchmark_ flags
    Lab5Options options = parse(argc, argv);
    if (options.help) {
        std::cout << options.help_text;
        return kExitPass;
    }
    options.plan.benchmark_format = gb_format;
    // Named before the GPU is looked for: a misspelt variant is bad input on any machine. The
    // default length is the GPU's; any long array has every variant.
    check_variant_names(options.variants,
                        lab5::variant_names(options.elements ? size_t(options.elements) : size_t(1) << 20, options.experiments));
    const std::string unavailable = gpu_unavailable_reason();
    if (!unavailable.empty()) {
        std::cerr << kProgram << ": GPU experiments skipped: " << unavailable << " (every experiment of lab 5 runs on the GPU)\n";
        return kExitNoGpu;
    }
    GpuSession session;
    const DeviceInfo& device = session.info();
    const size_t n = options.elements ? size_t(options.elements) : lab5::default_elements(device);
    lab5::Workspace workspace(n, device, options.seed);
    const auto experiments = selected_variants(lab5::make_experiments(workspace, device, session.copy_bandwidth_gbs(), options.experiments),
                                               options.variants);
    if (!options.compare_dir.empty()) return lab5::compare_raw(experiments, options.compare_dir, workspace.bytes(), options.plan.json, std::cout);
    if (options.check_only) return lab5::check_only(experiments, session, options.plan.raw_dir, options.plan.json, std::cout);

    const double shared_peak = 32.0 * 4 * device.multiprocessors * device.sm_clock_mhz * 1e-3;
    const lab5::RunPlan& plan = options.plan;
    const std::vector<std::string> header = {
        std::string("convlab lab 5: ") + kTitle,
        "GPU      " + describe_gpu(device),
        "Ceilings " + describe_ceilings(device, session.copy_bandwidth_gbs()) + "; shared memory " + format_fixed(shared_peak, 0) +
            " GB/s (32 banks x 4 B x " + std::to_string(device.multiprocessors) + " SMs x " + format_fixed(device.sm_clock_mhz, 0) + " MHz)",
        "Arrays   " + std::to_string(n) + " floats in and out (" + mib(4.0 * n) + " each; L2 cache " + mib(double(device.l2_bytes)) +
            "), inputs k/8 in [0, 157] from seed " + std::to_string(options.seed),
        "Timing   median of " + std::to_string(plan.reps) + " launches after " + std::to_string(plan.warmup) +
            " warm-ups (CUDA events through Google Benchmark's manual time" + (plan.flush_l2 ? ", L2 flushed before each" : ", L2 not flushed") +
            "); every variant checked before and after timing"};
    // Machine-readable Google Benchmark output owns stdout; the summary then goes to stderr.
    const bool machine = gb_format == "json" || gb_format == "csv";
    return lab5::run_experiments(experiments, session, plan, header, machine ? std::cerr : std::cout, std::cout);
}

}  // namespace

int main(int argc, char** argv) { return guarded_main(kProgram, "fewer --elements", [&] { return run(argc, argv); }); }

// convlab harness — do not edit in a lab.
// run_array_lab(): options -> variant names checked -> GPU -> the lab's arrays -> --compare,
// --check-only or the timed run -> report.
#include "common/families/arrays/array_lab.hpp"

#include <algorithm>
#include <cxxopts.hpp>
#include <iostream>

#include "common/families/arrays/array_bench.hpp"
#include "common/families/arrays/array_checks.hpp"
#include "common/families/arrays/array_peer.hpp"
#include "common/cli/command_line.hpp"
#include "common/core/errors.hpp"
#include "common/core/exit_status.hpp"
#include "common/device/gpu_session.hpp"
#include "common/cli/guarded_main.hpp"
#include "common/grading/peer_link.hpp"
#include "common/cli/run_options.hpp"
#include "common/core/text_parse.hpp"

namespace convlab {

std::string qualified_name(const ArrayExperiment& e, const ArrayVariant& v) { return e.key + "/" + v.name; }

namespace {

struct ArrayOptions : RunOptions {
    long long elements = 0;  // 0: the lab's default for the GPU
    std::vector<std::string> experiments;
};

std::string program_of(const ArrayLabSpec& spec) { return "lab" + std::to_string(spec.number); }

// ", " between them: the help wraps between words, never inside one.
std::string key_list(const ArrayLabSpec& spec) {
    std::string keys;
    for (const std::string& k : spec.experiment_keys) keys += (keys.empty() ? "" : ", ") + k;
    return keys;
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
    const std::string keys = key_list(spec);
    cxxopts::Options parser(program, "convlab lab " + std::to_string(spec.number) + ": " + spec.title);
    // clang-format off
    parser.add_options("Input")
        ("elements", spec.elements_help, cxxopts::value<std::string>())
        ("experiment", "comma-separated experiments to run (default: all): " + keys, cxxopts::value<std::string>());
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
    if (args.count("elements")) o.elements = parse_count(args["elements"].as<std::string>(), "--elements", 1, spec.max_elements);
    if (args.count("experiment"))
        for (const std::string& key : split_list(args["experiment"].as<std::string>())) {
            if (std::find(spec.experiment_keys.begin(), spec.experiment_keys.end(), key) == spec.experiment_keys.end())
                throw InputError("--experiment '" + key + "' is not an experiment; accepted: " + keys);
            o.experiments.push_back(key);
        }
    return o;
}

// Every name must be one of `known` (experiment/variant): bad input otherwise.
void check_variant_names(const std::vector<std::string>& names, const std::vector<std::string>& known) {
    for (const std::string& name : names)
        if (std::find(known.begin(), known.end(), name) == known.end())
            throw InputError("--variant '" + name + "' is not a variant of the experiments run; accepted: experiment/variant as in "
                             "the tables, e.g. memory/B read-swapped");
}

// Only the variants named (experiment/variant), in the experiments' order; all when none are.
std::vector<ArrayExperiment> selected_variants(std::vector<ArrayExperiment> experiments, const std::vector<std::string>& names) {
    if (names.empty()) return experiments;
    for (ArrayExperiment& e : experiments) {
        std::vector<ArrayVariant> kept;
        for (ArrayVariant& v : e.variants)
            if (std::find(names.begin(), names.end(), qualified_name(e, v)) != names.end()) kept.push_back(std::move(v));
        e.variants = std::move(kept);
    }
    experiments.erase(std::remove_if(experiments.begin(), experiments.end(), [](const ArrayExperiment& e) { return e.variants.empty(); }),
                      experiments.end());
    return experiments;
}

Report report_header(const ArrayLabSpec& spec, const ArrayOptions& o, const GpuSession& session, size_t n) {
    Report report = report_of_run(spec.number, spec.title, o);
    report.device = session.info();
    report.copy_bandwidth_gbs = session.copy_bandwidth_gbs();
    report.has_gpu_part = true;
    report.image_source = "arrays (seed " + std::to_string(o.seed) + ")";
    report.elements = n;
    report.byte_model = "per experiment: each table states its byte (or flop) model";
    return report;
}

// --timer-of: times another process's variants on this run's arrays (array_peer.hpp); runs none itself.
int time_peer(PeerLink& link, PeerTarget& target, const ArrayOptions& options, const std::vector<ArrayExperiment>& experiments,
              Report& report) {
    PeerTimer timer(link, target, PeerTimerPlan{options.warmup, options.reps});
    for (const ArrayExperiment& e : experiments)
        for (const ArrayVariant& v : e.variants) {
            VariantResult r;
            r.name = qualified_name(e, v);
            r.kind = "gpu";
            timer.time_variant(r.name, r);
            report.results.push_back(r);
        }
    timer.finish();
    return array_exit_status(report.results);
}

int run(int argc, char** argv, const ArrayLabSpec& spec) {
    const std::string program = program_of(spec);
    const std::string gb_format = benchmark_format_of(argc, argv);
    take_benchmark_flags(&argc, argv);
    const ArrayOptions options = parse_array_options(argc, argv, spec);
    if (options.help) {
        std::cout << options.help_text;
        return kExitPass;
    }
    // Named before the GPU is looked for: a misspelt variant is bad input on any machine. The
    // default length is the GPU's; any long array has every variant.
    check_variant_names(options.variants, spec.variant_names(options.elements ? size_t(options.elements) : size_t(1) << 20, options.experiments));
    const std::string unavailable = gpu_unavailable_reason();
    if (!unavailable.empty()) {
        std::cerr << program << ": GPU experiments skipped: " << unavailable << " (every experiment of lab " << spec.number
                  << " runs on the GPU)\n";
        return kExitNoGpu;
    }
    GpuSession session;
    if (options.timed_by >= 0) {  // the grader's timer makes the arrays: none of this run's own
        PeerLink link(options.timed_by);
        ArrayPeerServer server(session, spec, options.seed);
        return serve_peer_timer(link, session, server);
    }
    const DeviceInfo& device = session.info();
    const size_t n = options.elements ? size_t(options.elements) : spec.default_elements(device);
    ArrayMemory memory = options.timer_of >= 0 ? ArrayMemory::exported_block() : ArrayMemory::separate_arrays();
    const auto workspace = spec.workspace(n, device, session.copy_bandwidth_gbs(), options.seed, memory);
    const std::vector<ArrayExperiment> experiments = selected_variants(workspace->experiments(options.experiments), options.variants);
    Report report = report_header(spec, options, session, n);
    if (options.timer_of >= 0) {
        PeerLink link(options.timer_of);
        ArrayPeerTarget target(session, *workspace, memory, n, experiments);
        const int status = time_peer(link, target, options, experiments, report);
        print_array_results(report, options.format, std::cout);
        return status;
    }
    if (!options.compare_file.empty()) {
        const int status = compare_array_results(experiments, options.compare_file, workspace->bytes(), report);
        print_array_results(report, options.format, std::cout);
        return status;
    }
    if (options.check_only) {
        const int status = check_arrays_once(experiments, session, options.raw_out_dir, options.unknown_launches_pass(), report);
        print_array_results(report, options.format, std::cout);
        return status;
    }
    const ArrayBenchPlan plan{program, options.warmup, options.reps, options.flush_l2, options.format, options.raw_out_dir,
                              options.unknown_launches_pass(), gb_format};
    std::vector<std::string> header = {"convlab lab " + std::to_string(spec.number) + ": " + spec.title, "GPU      " + describe_gpu(device)};
    for (const std::string& line : spec.describe(device, session.copy_bandwidth_gbs(), n, options.seed)) header.push_back(line);
    header.push_back("Timing   median of " + std::to_string(plan.reps) + " launches after " + std::to_string(plan.warmup) +
                     " warm-ups (CUDA events through Google Benchmark's manual time" +
                     (plan.flush_l2 ? ", L2 flushed before each" : ", L2 not flushed") + "); every variant checked before and after timing");
    // Machine-readable Google Benchmark output owns stdout; the summary then goes to stderr.
    const bool machine = gb_format == "json" || gb_format == "csv";
    return bench_arrays(experiments, session, plan, header, report, machine ? std::cerr : std::cout, std::cout);
}

}  // namespace

int run_array_lab(int argc, char** argv, const ArrayLabSpec& spec) {
    return guarded_main(program_of(spec), "fewer --elements", [&] { return run(argc, argv, spec); });
}

}  // namespace convlab

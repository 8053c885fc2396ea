// convlab harness — do not edit in a lab.
#include "common/cli/run_options.hpp"

#include <omp.h>
#include <cxxopts.hpp>
#include <filesystem>

#include "common/core/errors.hpp"
#include "common/grading/peer_link.hpp"
#include "common/core/text_parse.hpp"
#include "common/report/report.hpp"

namespace convlab {

void add_run_options(cxxopts::Options& parser, const RunOptionsText& text) {
    // clang-format off
    parser.add_options("Input")
        ("seed", text.seed_help, cxxopts::value<std::string>()->default_value(text.default_seed));
    parser.add_options("Run")
        ("variant", "comma-separated variants to run (default: all)", cxxopts::value<std::string>())
        ("reps", "timed repetitions (median reported)", cxxopts::value<std::string>()->default_value("15"))
        ("warmup", "untimed runs before timing", cxxopts::value<std::string>()->default_value("2"))
        ("no-flush", "do not flush the L2 cache between timed repetitions")
        ("check-only", "check every variant, time nothing");
    parser.add_options("Output")
        ("format", std::string(text.csv ? "text, md, csv or json" : "text, md or json"), cxxopts::value<std::string>()->default_value("text"))
        ("h,help", "this help");
    parser.add_options("Grading")
        ("raw-out", text.raw_out_help, cxxopts::value<std::string>())
        ("sanitized", "with --raw-out: this run is under the grader's sanitizer (compute-sanitizer, which holds CUPTI, so the kernels a variant launches are not counted here: the grader counts them in the same case's run without the tool; or, in an OpenCL lab, oclgrind); without it a graded run fails a count it cannot take")
        ("compare", text.compare_help, cxxopts::value<std::string>())
        ("timer-of", "the grader's timer: time the GPU variants of the program at the other end of socket FD, on a fresh input each repetition that this process makes and checks", cxxopts::value<std::string>())
        ("timed-by", "be timed by the grader's process at the other end of socket FD: run the GPU variants on its buffers when it says so", cxxopts::value<std::string>());
    // clang-format on
}

bool apply_demo_timing(const cxxopts::ParseResult& args, RunOptions& options) {
    if (args.count("reps") || args.count("warmup")) return false;
    options.reps = kDemoReps;
    options.warmup = 1;
    return true;
}

void read_run_options(const cxxopts::ParseResult& args, const RunOptionsText& text, RunOptions& options) {
    auto value = [&](const char* name) { return args[name].as<std::string>(); };
    const long long seed = parse_whole(value("seed"), "--seed");
    if (seed < 0) throw InputError("--seed " + value("seed") + " is negative; accepted: a whole number >= 0");
    options.seed = uint64_t(seed);
    if (args.count("variant")) options.variants = split_list(value("variant"));
    options.reps = parse_count(value("reps"), "--reps", 1, 100000);
    options.warmup = parse_count(value("warmup"), "--warmup", 0, 100000);
    options.flush_l2 = args.count("no-flush") == 0;
    options.check_only = args.count("check-only") > 0;

    const std::string format = value("format");
    if (format == "text") options.format = Format::Text;
    else if (format == "md") options.format = Format::Markdown;
    else if (format == "csv" && text.csv) options.format = Format::Csv;
    else if (format == "json") options.format = Format::Json;
    else throw InputError("unknown format '" + format + "'; accepted: " + (text.csv ? "text, md, csv, json" : "text, md, json"));

    if (args.count("raw-out")) {
        options.raw_out_dir = value("raw-out");
        if (!std::filesystem::is_directory(options.raw_out_dir))
            throw InputError("--raw-out " + options.raw_out_dir + " is not a folder; accepted: an existing folder");
    }
    if (args.count("compare")) {
        options.compare_file = value("compare");
        const bool folder = std::filesystem::is_directory(options.compare_file);
        const bool file = text.compare_takes_a_file && std::filesystem::is_regular_file(options.compare_file);
        if (!folder && !file)
            throw InputError("--compare " + options.compare_file + (text.compare_takes_a_file ? " does not exist" : " is not a folder") +
                             "; accepted: " + (text.compare_takes_a_file ? "a raw result from --raw-out, or a folder of them"
                                                                         : "a folder of raw results from --raw-out"));
        if (!options.raw_out_dir.empty()) throw InputError("--compare checks raw results; it writes none: drop --raw-out");
    }
    options.sanitized = args.count("sanitized") > 0;
    if (options.sanitized && options.raw_out_dir.empty())
        throw InputError("--sanitized describes a graded run; accepted: with --raw-out");
    if (args.count("timer-of")) options.timer_of = peer_socket(value("timer-of"), "--timer-of");
    if (args.count("timed-by")) options.timed_by = peer_socket(value("timed-by"), "--timed-by");
    if (options.timer_of >= 0 || options.timed_by >= 0) {
        // Each refusal names what is wrong: the grader's probe once met the default sweep here.
        const std::string peer = options.timer_of >= 0 ? "--timer-of" : "--timed-by";
        const std::string accepted = "; accepted: " + text.peer_accepts + (text.peer_accepts.empty() ? "" : ", and ") +
                                     "none of --check-only, --compare, --raw-out nor the other of --timer-of and --timed-by";
        if (options.timer_of >= 0 && options.timed_by >= 0) throw InputError("--timer-of and --timed-by together" + accepted);
        if (options.check_only) throw InputError(peer + " times runs, which --check-only leaves out" + accepted);
        if (!options.compare_file.empty()) throw InputError(peer + " times runs; --compare runs none" + accepted);
        if (!options.raw_out_dir.empty()) throw InputError(peer + ": the timer checks the results itself, none is written" + accepted);
    }
}

std::string exit_status_help() {
    return "\nExit status: 0 every variant passed; 1 a check failed or a variant is not implemented yet;\n"
           "  2 bad input (nothing run or written); 3 no usable GPU (any CPU part ran and passed);\n"
           "  4 a CUDA error ended the GPU part; 5 the grader's build of a submission reached for a CPU reference\n"
           "  it does not hold (it runs with --raw-out, and checks nothing itself).\n";
}

Report report_of_run(int lab, const std::string& title, const RunOptions& options) {
    Report report;
    report.lab = lab;
    report.title = title;
    report.seed = options.seed;
    report.warmup = options.warmup;
    report.reps = options.reps;
    report.flush_l2 = options.flush_l2;
    report.check_only = options.check_only;
    report.cpu_cores = omp_get_num_procs();
    return report;
}

}  // namespace convlab

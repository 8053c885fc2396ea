// convlab harness — do not edit in a lab.
// An array lab's timed run: Google Benchmark drives the timing (manual time from CUDA events),
// so its own flags work too (--benchmark_filter, --benchmark_format, --benchmark_out, ...).
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "common/families/arrays/array_lab.hpp"
#include "common/device/gpu_session.hpp"
#include "common/report/report.hpp"

namespace convlab {

struct ArrayBenchPlan {
    std::string program;            // "lab5": its progress lines on stderr start with it
    int warmup = 2;
    int reps = 15;
    bool flush_l2 = true;
    Format format = Format::Text;   // the summary: tables (text, Markdown) or the report as JSON
    std::string raw_dir;            // --raw-out: each variant's first output, for the grader's check
    bool unknown_launches_pass = true;  // RunOptions::unknown_launches_pass
    std::string benchmark_format;   // Google Benchmark's own report after the summary: "", console, json or csv
};

// Checks each variant, times it (one launch per Google Benchmark iteration, plan.reps
// repetitions, the L2 flushed before each), checks it again, and writes to `summary` the header
// lines and one table per experiment (or, as JSON, the report with a row per variant appended
// to report.results), and Google Benchmark's report, when asked for, to `details`. The exit
// status follows from report.results (array_exit_status).
void bench_arrays(const std::vector<ArrayExperiment>& experiments, GpuSession& session, const ArrayBenchPlan& plan,
                  const std::vector<std::string>& header, Report& report, std::ostream& summary, std::ostream& details);

// Google Benchmark exits on a bad value of its own --benchmark_format; this checks it first, so
// that bad input gets the kit's one line and exit status 2. Returns the format ("" when not given).
std::string benchmark_format_of(int argc, char** argv);

// Takes Google Benchmark's flags out of argv (not on --help, which Google Benchmark would answer
// with its own flags only, and exit).
void take_benchmark_flags(int* argc, char** argv);

}  // namespace convlab

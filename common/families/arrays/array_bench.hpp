// convlab harness — do not edit in a lab.
// An array lab's timed run: Google Benchmark drives the timing (manual time from CUDA events),
// so its own flags work too (--benchmark_filter, --benchmark_format, --benchmark_out, ...).
#pragma once
#include <string>
#include <vector>

#include "common/families/arrays/array_lab.hpp"
#include "common/cli/run_options.hpp"
#include "common/device/gpu_session.hpp"
#include "common/report/report.hpp"

namespace convlab {

// Checks each variant, times it (one launch per Google Benchmark iteration, options.reps
// repetitions, the L2 flushed before each unless --no-flush), checks it again, and writes the
// header lines and one table per experiment (or, as JSON, the report with a row per variant
// appended to report.results), then Google Benchmark's report when benchmark_format ("",
// console, json or csv) asks for one: all on stdout, but for a machine-readable format, which
// owns stdout, the summary goes to stderr. The exit status follows from report.results
// (array_exit_status).
void bench_arrays(const std::vector<ArrayExperiment>& experiments, GpuSession& session, const RunOptions& options,
                  const std::string& benchmark_format, const std::vector<std::string>& header, Report& report);

// Takes Google Benchmark's flags out of argv (not on --help, which Google Benchmark would answer
// with its own flags only, and exit), and returns its --benchmark_format ("" when not given).
// Google Benchmark exits on a bad value of that flag; this checks it first, even with --help, so
// that bad input gets the kit's one line and exit status 2.
std::string take_benchmark_flags(int* argc, char** argv);

}  // namespace convlab

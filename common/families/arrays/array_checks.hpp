// convlab harness — do not edit in a lab.
// An array lab's checks outside timing: what the grader runs besides the timed runs.
//   --check-only [--raw-out DIR]: each selected variant runs once and is checked; with DIR, the
//     bytes it wrote go to DIR under raw_result_path's name for "experiment/variant".
//   --compare DIR: no kernel runs; each such file is checked against the CPU reference for the
//     same --elements and --seed, in a process the submission never ran in.
// Rows are the report's results (report.hpp): kind "gpu" for a variant that ran, "submitted" for
// a checked file; --format json prints the report every lab writes, otherwise a small table.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "common/families/arrays/array_lab.hpp"
#include "common/cli/run_options.hpp"
#include "common/device/gpu_session.hpp"
#include "common/report/report.hpp"

namespace convlab {

// A row of the report (kind "gpu" or "submitted") under `name`, "experiment/variant" (or a stray
// file's name), passed until found otherwise.
VariantResult array_row(const std::string& name, const char* kind);

// Poisons the output, launches once and checks what the variant wrote, writing those bytes to
// options' --raw-out folder first in a graded run: the first check of a timed run and of
// --check-only alike. A launch that started no kernel (counted with CUPTI, launch_counter.hpp)
// fails whatever it wrote, and leaves no raw result; so does one whose kernels could not be
// counted, unless RunOptions::unknown_launches_pass. Returns "" when the output is right, else
// what is wrong.
std::string run_once_and_check(GpuSession& session, const ArrayExperiment& e, const ArrayVariant& v, const RunOptions& options);

// --check-only: one row per variant in report.results. Returns the exit status.
int check_arrays_once(const std::vector<ArrayExperiment>& experiments, GpuSession& session, const RunOptions& options,
                      Report& report);

// --compare: one row per result file found in dir (a variant that wrote none gets no row: the
// grader says why). A file longer than max_bytes is wrong unread. Returns the exit status.
int compare_array_results(const std::vector<ArrayExperiment>& experiments, const std::string& dir, size_t max_bytes, Report& report);

// The report as JSON, or its rows as a table (text or Markdown).
void print_array_results(const Report& report, Format format, std::ostream& out);

// A row's check column: PASS, FAIL, or the status itself (not-implemented, error, not-run).
std::string check_label(const std::string& status);

// Pass only when there are rows and every one passed; a CUDA error wins.
int array_exit_status(const std::vector<VariantResult>& rows);

}  // namespace convlab

// convlab lab 5 — do not edit: what the grader (grading/grade) runs, besides the timed runs.
//   --check-only [--raw-out DIR]: each selected variant runs once and is checked; with DIR, the
//     bytes it wrote go to DIR/<raw_file_name of "experiment/variant">, e.g. memory_B_read-swapped.f32.
//   --compare DIR: no kernel runs; each such file is checked against the CPU reference for the
//     same --elements and --seed, in a process the submission never ran in.
// With --format json both print one JSON document whose "results" the grader reads, as it
// reads the image labs' reports (common/report.hpp); otherwise a small table.
#pragma once
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "common/gpu_session.hpp"
#include "common/stats.hpp"
#include "labs/lab5/driver/microbench.hpp"

namespace lab5 {

// One row of the grader's JSON: kind is "gpu" for a variant that ran, "submitted" for a checked file.
struct GradedRow {
    std::string variant;  // "experiment/variant", or the file's stem for a checked file
    std::string kind;
    std::string status;   // pass, fail, not-implemented, error
    std::string message;
    std::optional<convlab::TimingStats> time;
};

std::string qualified_name(const Experiment& e, const Variant& v);  // "memory/B read-swapped"
std::string raw_path(const std::string& dir, const Experiment& e, const Variant& v);

// Poisons the output, launches once and checks what the variant wrote, writing those bytes to
// raw_dir first when it is not empty: the first check of a timed run and of --check-only alike.
// Returns "" when the output is right, else what is wrong.
std::string run_once_and_check(convlab::GpuSession& session, const Experiment& e, const Variant& v, const std::string& raw_dir);

// The JSON document ({"schema", "results"}) or the table.
void print_rows(const std::vector<GradedRow>& rows, bool json, std::ostream& out);

// Returns the exit status (common/exit_status.hpp): pass only when every row passed.
int check_only(const std::vector<Experiment>& experiments, convlab::GpuSession& session, const std::string& raw_dir, bool json,
               std::ostream& out);
int compare_raw(const std::vector<Experiment>& experiments, const std::string& dir, size_t max_bytes, bool json, std::ostream& out);

}  // namespace lab5

// convlab lab 5 — do not edit: runs the experiments under Google Benchmark and prints the tables.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "common/gpu_session.hpp"
#include "labs/lab5/driver/microbench.hpp"

namespace lab5 {

struct RunPlan {
    int warmup = 2;
    int reps = 15;
    bool flush_l2 = true;
    bool markdown = false;        // the summary as Markdown
    bool json = false;            // the grader's JSON (grading.hpp) instead of the tables
    std::string raw_dir;          // --raw-out: each variant's first output, for the grader's check
    std::string benchmark_format; // Google Benchmark's own report after the summary: "", console, json or csv
};

// Checks each variant, times it (Google Benchmark with manual CUDA-event timing: one launch per
// iteration, plan.reps repetitions, the L2 flushed before each), checks it again, and writes
// the header lines and one table per experiment to `summary`, Google Benchmark's report (when
// asked for) to `details`. Returns the exit status (common/exit_status.hpp).
int run_experiments(const std::vector<Experiment>& experiments, convlab::GpuSession& session, const RunPlan& plan,
                    const std::vector<std::string>& header, std::ostream& summary, std::ostream& details);

}  // namespace lab5

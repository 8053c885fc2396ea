// convlab harness — do not edit in a lab.
// The grader's hidden cases, several in one process: `--case-list FILE`. On an H100 host a
// program's CUDA start costs 0.2 to 0.4 s and runs side by side share it, so a batch whose every
// case is a process of its own spends most of its time starting CUDA (instructor guide,
// "Throughput"); a chunk of cases in one process pays it once.
//
// FILE (JSON, written by the grader): {"cases": [{"args": [...], "log": "PATH"}, ...]}. Each case
// runs as if it were the whole command line: the program's own arguments, less --case-list FILE,
// with the case's appended (its input, its --raw-out folder). Its stdout goes to PATH.json, its
// stderr to PATH.err, and once it has ended its exit status is written to PATH.status, which the
// grader reads as the case being done. A case that ends in anything but a pass or a failed check
// (bad input, a CUDA error, which sticks to the context) ends the list: the grader runs the cases
// after it one a process, as it always did. Nothing here is trusted: every verdict is the trusted
// side's check of each case's raw results.
#pragma once
#include <functional>

namespace convlab {

// With --case-list in argv, every listed case through run_one (as above), and the last case's exit
// status; without it, run_one(argc, argv). A list that does not read is bad input (one line).
int run_listed_cases_or(int argc, char** argv, const std::function<int(int, char**)>& run_one);

}  // namespace convlab

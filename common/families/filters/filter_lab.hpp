// convlab harness — do not edit in a lab.
// The image filters' family (labs 0 to 4, 6 and 7): a lab is a LabSpec (runner/lab.hpp), its CPU
// and GPU variants of one convolution, and run_lab() does the rest: the command line, the input,
// the CPU reference, checking, timing and the report (filter_run.cpp, on runner/family_run.hpp).
#pragma once
#include <vector>

#include "common/grading/raw_check.hpp"
#include "common/runner/lab.hpp"

namespace convlab {

// Returns the process exit status (exit_status.hpp). Never throws.
int run_lab(int argc, char** argv, const LabSpec& spec);

// Every result the lab can write under --raw-out, in its order: each variant's, and a GPU
// variant's end-to-end part's (the grader's trusted check reads them: raw_check.hpp).
std::vector<RawResult> raw_results(const LabSpec& spec);

}  // namespace convlab

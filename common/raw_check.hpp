// convlab harness — do not edit in a lab.
// The grader's trusted check of results another process wrote: a lab run under test writes them
// (--raw-out), and a run of the reference solution's binary with --compare reads them here. It
// owns the mapping from file to result: every row it reports is named by the result it checked
// (a variant, or a variant's end-to-end part), never by whatever file a submission left, so the
// grader looks its verdicts up by name and derives no file name of its own.
#pragma once
#include <string>
#include <vector>

#include "common/check.hpp"
#include "common/lab.hpp"
#include "common/report.hpp"

namespace convlab {

// What every result must be: the reference of the one input the run that wrote them had.
struct RawCheckTarget {
    const std::vector<float>& reference;
    int width = 0, height = 0, channels = 0;
    int mask_radius = 0;
    Tolerance tolerance;
};

// Every result the lab can write (its variants' names and their end-to-end parts'), in its order.
std::vector<std::string> raw_result_names(const LabSpec& spec);

// path a folder: the file of each of `names` that is there, checked and named by that name, then
// any other .f32 file under its whole file name, "x.f32" (a result no name maps to is still shown,
// and cannot pass for one). path a file: that file, under its file name without .f32. A result missing from the folder gets no row: the grader says
// why the run left none. Rows are kind "submitted" with status "pass" or "fail".
std::vector<VariantResult> check_raw_results(const std::string& path, const std::vector<std::string>& names,
                                             const RawCheckTarget& target);

}  // namespace convlab

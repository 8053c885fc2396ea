// convlab harness — do not edit in a lab.
// The grader's trusted check of results another process wrote: a lab run under test writes them
// (--raw-out), and a run of the reference solution's binary with --compare reads them here. It
// owns the mapping from file to result: every row it reports is named by the result it checked
// (a variant, or a variant's end-to-end part), never by whatever file a submission left, so the
// grader looks its verdicts up by name and derives no file name of its own.
#pragma once
#include <string>
#include <vector>

#include "common/check/check.hpp"
#include "common/core/mask.hpp"
#include "common/core/work_model.hpp"
#include "common/report/report.hpp"

namespace convlab {

class RawFolder;

// What every result must be: the reference of the one input the run that wrote them had, within
// the tolerance of the mask and of the result's variant (check.hpp).
struct RawCheckTarget {
    const std::vector<float>& reference;
    int width = 0, height = 0, channels = 0;
    const Mask& mask;
};

// A result the lab can write: a variant's, or a variant's end-to-end part's, with its variant's
// work model (which sets its tolerance).
struct RawResult {
    std::string name;
    WorkModel model;
};

// path a folder: the file of each of `results` that is there, checked and named by its name, then
// any other .f32 file under its whole file name, "x.f32" (a result no name maps to is still shown,
// and cannot pass for one), within the direct sum's tolerance. path a file: that file, under its
// file name without .f32, likewise. A result missing from the folder gets no row: the grader says
// why the run left none. Rows are kind "submitted" with status "pass" or "fail".
std::vector<VariantResult> check_raw_results(const std::string& path, const std::vector<RawResult>& results,
                                             const RawCheckTarget& target);

// A failed row for each of the folder's strays (RawFolder::strays), under its whole file name, for the
// labs whose results are not images: they check nothing in a file no result of theirs is named by.
void add_stray_rows(const RawFolder& folder, std::vector<VariantResult>& rows);

// The end of a --compare run: the rows added to the report, the report printed, and the exit
// status: a pass when there is a row and every row passed (exit_status.hpp).
int finish_compare(Report& report, const std::vector<VariantResult>& rows, Format format);

}  // namespace convlab

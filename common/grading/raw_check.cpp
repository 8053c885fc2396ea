// convlab harness — do not edit in a lab.
#include "common/grading/raw_check.hpp"

#include <filesystem>
#include <iostream>

#include "common/core/exit_status.hpp"
#include "common/grading/raw_result.hpp"

namespace convlab {

namespace {

VariantResult check_one(const std::string& name, const WorkModel& model, const std::string& file, const RawCheckTarget& target) {
    VariantResult r;
    r.name = name;
    r.model = model;
    r.tolerance = tolerance_for(target.mask, model);
    r.description = "the raw result in " + file;
    r.kind = "submitted";
    // Read at most one float more than expected: a huge file cannot exhaust the grader's memory.
    const std::vector<float> got = read_raw_floats(file, target.reference.size() + 1);
    if (got.size() != target.reference.size()) {
        r.status = "fail";
        r.message = "the result holds " + std::to_string(got.size()) + " floats; the image has " +
                    std::to_string(target.reference.size());
        return r;
    }
    r.check = check_output(got.data(), target.reference.data(), target.width, target.height, target.channels,
                           r.tolerance, target.mask.radius(), {});
    r.status = r.check.passed ? "pass" : "fail";
    r.message = r.check.summary();
    return r;
}

}  // namespace

std::vector<VariantResult> check_raw_results(const std::string& path, const std::vector<RawResult>& results,
                                             const RawCheckTarget& target) {
    namespace fs = std::filesystem;
    if (!fs::is_directory(path)) return {check_one(fs::path(path).stem().string(), {}, path, target)};
    RawFolder folder(path);
    std::vector<VariantResult> rows;
    for (const RawResult& result : results) {
        const std::string file = folder.file_of(result.name);
        if (fs::is_regular_file(file)) rows.push_back(check_one(result.name, result.model, file, target));
    }
    // A stray is checked too, under its whole file name (RawFolder), within the direct sum's tolerance.
    for (const std::string& file : folder.strays()) rows.push_back(check_one(file, {}, path + "/" + file, target));
    return rows;
}

void add_stray_rows(const RawFolder& folder, std::vector<VariantResult>& rows) {
    for (const std::string& file : folder.strays()) {
        VariantResult r;
        r.name = file;
        r.kind = "submitted";
        r.status = "fail";
        r.message = RawFolder::kStrayMessage;
        rows.push_back(r);
    }
}

int finish_compare(Report& report, const std::vector<VariantResult>& rows, Format format) {
    bool all_pass = true;
    for (const VariantResult& r : rows) {
        all_pass = all_pass && r.status == "pass";
        report.results.push_back(r);
    }
    std::cout << render(report, format) << std::flush;
    return !rows.empty() && all_pass ? kExitPass : kExitCheckFailed;
}

}  // namespace convlab

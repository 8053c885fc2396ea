// convlab harness — do not edit in a lab.
#include "common/families/arrays/array_checks.hpp"

#include <filesystem>

#include "common/core/errors.hpp"
#include "common/core/exit_status.hpp"
#include "common/grading/raw_check.hpp"
#include "common/grading/raw_result.hpp"
#include "common/core/number_format.hpp"
#include "common/report/text_table.hpp"

namespace convlab {

VariantResult array_row(const std::string& name, const char* kind) {
    VariantResult r;
    r.name = name;
    r.kind = kind;
    r.status = "pass";
    return r;
}

std::string run_once_and_check(GpuSession& session, const ArrayExperiment& e, const ArrayVariant& v, const RunOptions& options) {
    session.run([&] { poison_output(v); });
    const int launches = session.run_counting_launches(v.launch);
    const std::vector<char>& bytes = fetch_output(v);
    // Right or not, an output computed on the CPU (or only copied) is not the lesson: it fails,
    // and no raw result is written for the grader's checker to pass.
    if (launches == 0) {
        const std::string wrong = v.verify(bytes);
        return "launched no kernel: a variant must compute its output on the GPU (" + (wrong.empty() ? "its output was right" : wrong) + ")";
    }
    if (launches < 0 && !options.unknown_launches_pass()) return session.uncounted_launches();
    // Experiment results may be ints: the file keeps the harness's .f32 name, its bytes are the output's.
    if (options.graded()) write_raw_bytes(raw_result_path(options.raw_out_dir, qualified_name(e, v)), bytes.data(), bytes.size());
    return v.verify(bytes);
}

int check_arrays_once(const std::vector<ArrayExperiment>& experiments, GpuSession& session, const RunOptions& options,
                      Report& report) {
    bool lost_context = false;
    for (const ArrayExperiment& e : experiments)
        for (const ArrayVariant& v : e.variants) {
            VariantResult r = array_row(qualified_name(e, v), "gpu");
            if (lost_context) {
                r.status = "error", r.message = "not run: the CUDA context was lost earlier in the run";
                report.results.push_back(r);
                continue;
            }
            try {
                r.message = run_once_and_check(session, e, v, options);
                if (!r.message.empty()) r.status = "fail";
            } catch (const NotImplemented& what) {
                r.status = "not-implemented", r.message = what.what();
            } catch (const CudaError& what) {
                r.status = "error", r.message = what.what();
                lost_context = !session.healthy();
            }
            report.results.push_back(r);
        }
    return array_exit_status(report.results);
}

int compare_array_results(const std::vector<ArrayExperiment>& experiments, const std::string& dir, size_t max_bytes, Report& report) {
    RawFolder folder(dir);
    for (const ArrayExperiment& e : experiments)
        for (const ArrayVariant& v : e.variants) {
            const std::string path = folder.file_of(qualified_name(e, v));
            if (!std::filesystem::exists(path)) continue;
            // Named by the result it holds, as the image labs' checker does (raw_check.hpp).
            VariantResult r = array_row(qualified_name(e, v), "submitted");
            const auto size = std::filesystem::file_size(path);
            if (size > max_bytes) r.message = "the result holds " + std::to_string(size) + " bytes, more than any output of this run";
            else r.message = v.verify(read_raw_bytes(path, size_t(size)));
            if (!r.message.empty()) r.status = "fail";
            report.results.push_back(r);
        }
    add_stray_rows(folder, report.results);  // under its whole file name: never a result's (raw_result.hpp)
    return array_exit_status(report.results);
}

void print_array_results(const Report& report, Format format, std::ostream& out) {
    if (format == Format::Json) {
        out << render(report, Format::Json);
        return;
    }
    std::vector<std::vector<std::string>> table;
    for (const VariantResult& r : report.results)
        table.push_back({r.name, check_label(r.status),
                         r.time ? format_sig3(r.time->median_ms) : "", r.message});
    out << render_table({{"variant", false}, {"check", false}, {"median ms"}, {"message", false}}, table, format == Format::Markdown);
}

std::string check_label(const std::string& status) {
    return status == "pass" ? "PASS" : status == "fail" ? "FAIL" : status;
}

int array_exit_status(const std::vector<VariantResult>& rows) {
    int status = rows.empty() ? kExitCheckFailed : kExitPass;
    for (const VariantResult& r : rows) {
        if (r.status == "error" || r.status == "not-run") return kExitCudaError;
        if (r.status != "pass") status = kExitCheckFailed;
    }
    return status;
}

}  // namespace convlab

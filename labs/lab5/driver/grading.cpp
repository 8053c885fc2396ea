// convlab lab 5 — do not edit.
#include "labs/lab5/driver/grading.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "common/errors.hpp"
#include "common/exit_status.hpp"
#include "common/raw_result.hpp"
#include "common/text_table.hpp"

namespace lab5 {

std::string qualified_name(const Experiment& e, const Variant& v) { return e.key + "/" + v.name; }

// The bytes of experiment 3 are ints, the rest floats; the file name keeps the harness's .f32.
std::string raw_path(const std::string& dir, const Experiment& e, const Variant& v) {
    return convlab::raw_result_path(dir, qualified_name(e, v));
}

std::string run_once_and_check(convlab::GpuSession& session, const Experiment& e, const Variant& v, const std::string& raw_dir) {
    session.run([&] {
        v.poison();
        v.launch();
    });
    const std::vector<char> bytes = v.fetch();
    if (!raw_dir.empty()) convlab::write_raw_bytes(raw_path(raw_dir, e, v), bytes.data(), bytes.size());
    return v.verify(bytes);
}

void print_rows(const std::vector<GradedRow>& rows, bool json, std::ostream& out) {
    if (json) {
        nlohmann::json results = nlohmann::json::array();
        for (const GradedRow& r : rows) {
            nlohmann::json time = nullptr;
            if (r.time) time = {{"median_ms", r.time->median_ms}, {"min_ms", r.time->min_ms}, {"cv", r.time->cv}};
            results.push_back({{"variant", r.variant}, {"kind", r.kind}, {"status", r.status}, {"message", r.message}, {"time", time}});
        }
        out << nlohmann::json{{"schema", "convlab.lab5-results/1"}, {"results", results}}.dump(1) << "\n";
        return;
    }
    std::vector<std::vector<std::string>> table;
    for (const GradedRow& r : rows)
        table.push_back({r.variant, r.status == "pass" ? "PASS" : r.status == "fail" ? "FAIL" : r.status,
                         r.time ? convlab::format_sig3(r.time->median_ms) : "", r.message});
    out << convlab::render_table({{"variant", false}, {"check", false}, {"median ms"}, {"message", false}}, table, false);
}

namespace {

int exit_status(const std::vector<GradedRow>& rows) {
    int status = rows.empty() ? convlab::kExitCheckFailed : convlab::kExitPass;
    for (const GradedRow& r : rows) {
        if (r.status == "error") return convlab::kExitCudaError;
        if (r.status != "pass") status = convlab::kExitCheckFailed;
    }
    return status;
}

}  // namespace

int check_only(const std::vector<Experiment>& experiments, convlab::GpuSession& session, const std::string& raw_dir, bool json,
               std::ostream& out) {
    std::vector<GradedRow> rows;
    bool lost_context = false;
    for (const Experiment& e : experiments)
        for (const Variant& v : e.variants) {
            GradedRow r{qualified_name(e, v), "gpu", "pass", "", std::nullopt};
            if (lost_context) {
                r.status = "error", r.message = "not run: the CUDA context was lost earlier in the run";
                rows.push_back(r);
                continue;
            }
            try {
                r.message = run_once_and_check(session, e, v, raw_dir);
                if (!r.message.empty()) r.status = "fail";
            } catch (const convlab::NotImplemented& what) {
                r.status = "not-implemented", r.message = what.what();
            } catch (const convlab::CudaError& what) {
                r.status = "error", r.message = what.what();
                lost_context = !session.healthy();
            }
            rows.push_back(r);
        }
    print_rows(rows, json, out);
    return exit_status(rows);
}

int compare_raw(const std::vector<Experiment>& experiments, const std::string& dir, size_t max_bytes, bool json, std::ostream& out) {
    if (!std::filesystem::is_directory(dir)) throw convlab::InputError("--compare " + dir + " is not a folder of raw results");
    std::vector<GradedRow> rows;
    for (const Experiment& e : experiments)
        for (const Variant& v : e.variants) {
            const std::string path = raw_path(dir, e, v);
            if (!std::filesystem::exists(path)) continue;  // a variant that wrote nothing: the grader says so
            // Named by the result it holds, as the image labs' checker does (common/raw_check.hpp).
            GradedRow r{qualified_name(e, v), "submitted", "pass", "", std::nullopt};
            // A file longer than any output is wrong without being read: it cannot exhaust memory.
            const auto size = std::filesystem::file_size(path);
            if (size > max_bytes) r.message = "the result holds " + std::to_string(size) + " bytes, more than any output of this run";
            else r.message = v.verify(convlab::read_raw_bytes(path, size_t(size)));
            if (!r.message.empty()) r.status = "fail";
            rows.push_back(r);
        }
    print_rows(rows, json, out);
    return exit_status(rows);
}

}  // namespace lab5

// convlab harness — do not edit in a lab.
#include "common/families/arrays/array_bench.hpp"

#include <benchmark/benchmark.h>

#include <iostream>
#include <map>
#include <memory>
#include <regex>
#include <sstream>

#include "common/families/arrays/array_checks.hpp"
#include "common/core/errors.hpp"
#include "common/timing/stats.hpp"
#include "common/core/number_format.hpp"
#include "common/report/progress.hpp"
#include "common/report/text_table.hpp"

namespace convlab {

namespace {

// What happened to one variant across Google Benchmark's calls of it.
struct Outcome {
    std::string status = "pending";  // pending (checked, being timed), pass, fail, not-implemented, error, not-run
    std::string message;
    std::vector<double> samples_ms;
    int calls = 0;
};

class Runner {
  public:
    // variants: how many benchmarks the run will make (its progress's steps).
    Runner(GpuSession& session, const RunOptions& options, int lab, int variants)
        : session_(session), options_(options), progress_(lab, variants) {}

    // One call of a benchmark: Google Benchmark makes options.reps of them, one iteration each.
    void bench(const ArrayExperiment& e, const ArrayVariant& v, Outcome& o, benchmark::State& state) {
        if (o.calls == 0) progress_.step(qualified_name(e, v));  // a full run takes a minute or two
        ++o.calls;
        if (lost_context_ && o.status == "pending" && o.calls == 1) o = {"not-run", "the CUDA context was lost earlier in the run", {}, 1};
        if (o.status != "pending") return state.SkipWithError(o.message.c_str());
        try {
            if (o.calls == 1) {  // poisoned output, one launch, the check (and the raw result); then the warm-ups
                const std::string wrong = run_once_and_check(session_, e, v, options_);
                if (!wrong.empty()) {
                    o.status = "fail", o.message = wrong;
                    return state.SkipWithError(o.message.c_str());
                }
                for (int w = 0; w < options_.warmup; ++w) session_.run(v.launch);
            }
            for (auto _ : state) {
                const double ms = session_.time_once(v.launch, options_.flush_l2);
                state.SetIterationTime(ms * 1e-3);
                o.samples_ms.push_back(ms);
            }
            if (o.calls == options_.reps) {  // the output of the last timed launch is still there
                const std::string wrong = check_variant(v);
                o.status = wrong.empty() ? "pass" : "fail";
                if (!wrong.empty()) o.message = "wrong after timing (but right before): " + wrong;
            }
        } catch (const NotImplemented& e) {
            o.status = "not-implemented", o.message = e.what();
        } catch (const CudaError& e) {
            o.status = "error", o.message = e.what();
            lost_context_ = lost_context_ || !session_.healthy();
        }
        if (o.status == "fail" || o.status == "not-implemented" || o.status == "error") state.SkipWithError(o.message.c_str());
    }

  private:
    GpuSession& session_;
    const RunOptions& options_;
    Progress progress_;  // on stderr where it is a terminal (common/report/progress.hpp)
    bool lost_context_ = false;
};

// Whether --benchmark_filter selects a benchmark of this name, by Google Benchmark's rule: all when
// empty or "all", else a regular expression searched in the name, "-" before it for the others.
// (Only the progress line's count reads it: Google Benchmark itself decides what runs.)
bool selected_by_filter(const std::string& name) {
    std::string filter = benchmark::GetBenchmarkFilter();
    if (filter.empty() || filter == "all") return true;
    const bool negative = filter[0] == '-';
    if (negative) filter.erase(0, 1);
    try {
        return std::regex_search(name, std::regex(filter, std::regex::extended)) != negative;
    } catch (const std::regex_error&) {
        return true;
    }
}

// Google Benchmark's own reporter for --benchmark_format, writing into a buffer that is printed
// after the summary.
std::unique_ptr<benchmark::BenchmarkReporter> make_reporter(const std::string& format, std::ostream& out) {
    std::unique_ptr<benchmark::BenchmarkReporter> reporter;
    if (format == "json") reporter.reset(new benchmark::JSONReporter);
    else if (format == "csv") {
// Google Benchmark marks its CSV reporter deprecated but still ships it, and the issue asks for CSV.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
        reporter.reset(new benchmark::CSVReporter);
#pragma GCC diagnostic pop
    }
    else reporter.reset(new benchmark::ConsoleReporter(benchmark::ConsoleReporter::OO_Tabular));
    reporter->SetOutputStream(&out);
    reporter->SetErrorStream(&out);
    return reporter;
}

std::string render_experiment(const ArrayExperiment& e, const std::map<const ArrayVariant*, Outcome>& outcomes, bool markdown,
                              std::vector<std::string>& notes) {
    const std::vector<TableColumn> columns = {{"variant", false}, {"check", false}, {"median ms"}, {"min ms"}, {"cv %"},
                                              {e.unit}, {"% " + e.ceiling_name}, {"vs first"}, {"note", false}};
    std::vector<std::vector<std::string>> rows;
    double first_ms = 0;
    for (const ArrayVariant& v : e.variants) {
        const auto found = outcomes.find(&v);
        if (found == outcomes.end()) continue;  // filtered out with --benchmark_filter
        const Outcome& o = found->second;
        std::vector<std::string> row = {v.name, check_label(o.status)};
        if (o.status == "pass" && !o.samples_ms.empty()) {
            const TimingStats t = summarize(o.samples_ms);
            if (first_ms == 0) first_ms = t.median_ms;
            const double rate = v.work / (t.median_ms * 1e-3) * 1e-9;
            row.insert(row.end(), {format_sig3(t.median_ms), format_sig3(t.min_ms), format_fixed(100 * t.cv, 1), format_sig3(rate),
                                   format_fixed(100 * rate / e.ceiling, 1), format_sig3(first_ms / t.median_ms) + "x", v.note});
            if (t.noisy()) notes.push_back(qualified_name(e, v) + ": timings vary by " + format_fixed(100 * t.cv, 0) + "% (cv); rerun on an idle GPU");
        } else {
            row.insert(row.end(), {"", "", "", "", "", "", v.note});
            if (!o.message.empty()) notes.push_back(qualified_name(e, v) + ": " + o.message);
        }
        rows.push_back(row);
    }
    const std::string gap = markdown ? "\n" : "";
    return (markdown ? "#### " : "") + e.title + "\n" + gap + e.model + "\n" + gap + render_table(columns, rows, markdown);
}

// The header lines, one table per experiment, then the notes.
void print_summary(const std::vector<ArrayExperiment>& experiments, const std::map<const ArrayVariant*, Outcome>& outcomes,
                   bool markdown, const std::vector<std::string>& header, std::ostream& summary) {
    for (const std::string& line : header) summary << (markdown ? "- " : "") << line << "\n";
    std::vector<std::string> notes;
    for (const ArrayExperiment& e : experiments) summary << "\n" << render_experiment(e, outcomes, markdown, notes);
    if (!notes.empty()) summary << "\n";
    for (const std::string& note : notes) summary << (markdown ? "> " : "") << note << (markdown ? "  " : "") << "\n";
}

// The report's rows: each variant that ran, with its median when it passed.
void add_rows(const std::vector<ArrayExperiment>& experiments, const std::map<const ArrayVariant*, Outcome>& outcomes, Report& report) {
    for (const ArrayExperiment& e : experiments)
        for (const ArrayVariant& v : e.variants) {
            const auto found = outcomes.find(&v);
            if (found == outcomes.end()) continue;  // filtered out with --benchmark_filter
            const Outcome& o = found->second;
            VariantResult r = array_row(qualified_name(e, v), "gpu");
            r.status = o.status;
            r.message = o.message;
            if (o.status == "pass" && !o.samples_ms.empty()) r.time = summarize(o.samples_ms);
            report.results.push_back(r);
        }
}

}  // namespace

void bench_arrays(const std::vector<ArrayExperiment>& experiments, GpuSession& session, const RunOptions& options,
                  const std::string& benchmark_format, const std::vector<std::string>& header, Report& report) {
    int variants = 0;
    for (const ArrayExperiment& e : experiments)
        for (const ArrayVariant& v : e.variants) variants += selected_by_filter(qualified_name(e, v));
    Runner runner(session, options, report.lab, variants);
    std::map<const ArrayVariant*, Outcome> outcomes;
    for (const ArrayExperiment& e : experiments)
        for (const ArrayVariant& v : e.variants) {
            benchmark::RegisterBenchmark(qualified_name(e, v).c_str(),
                                         [&runner, &e, &v, &outcomes](benchmark::State& state) { runner.bench(e, v, outcomes[&v], state); })
                ->UseManualTime()
                ->Iterations(1)
                ->Repetitions(options.reps)
                ->DisplayAggregatesOnly(true)
                ->Unit(benchmark::kMillisecond);
        }
    std::ostringstream buffered;
    const auto reporter = make_reporter(benchmark_format, buffered);
    benchmark::RunSpecifiedBenchmarks(reporter.get());

    add_rows(experiments, outcomes, report);
    // Machine-readable Google Benchmark output owns stdout; the summary then goes to stderr.
    std::ostream& summary = benchmark_format == "json" || benchmark_format == "csv" ? std::cerr : std::cout;
    if (options.format == Format::Json) print_array_results(report, Format::Json, summary);
    else print_summary(experiments, outcomes, options.format == Format::Markdown, header, summary);
    if (!benchmark_format.empty()) std::cout << buffered.str();
}

std::string take_benchmark_flags(int* argc, char** argv) {
    const std::string flag = "--benchmark_format=";
    std::string format;
    bool help = false;
    for (int i = 1; i < *argc; ++i) {
        const std::string arg = argv[i];
        if (arg.rfind(flag, 0) == 0) format = arg.substr(flag.size());
        help = help || arg == "--help" || arg == "-h";
    }
    if (!format.empty() && format != "console" && format != "json" && format != "csv")
        throw InputError("--benchmark_format=" + format + " is not a format; accepted: console, json, csv");
    if (!help) benchmark::Initialize(argc, argv);
    return format;
}

}  // namespace convlab

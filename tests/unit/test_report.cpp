// Derived figures and the four report formats.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "common/report/report.hpp"
#include "common/core/number_format.hpp"

using namespace convlab;

namespace {

VariantResult row(const std::string& name, const std::string& kind, double median_ms, int threads = 0,
                  const std::string& mask = "box:3", int k = 3) {
    VariantResult r;
    r.mask_spec = mask;
    r.mask_size = k;
    r.name = name;
    r.description = name + " description";
    r.kind = kind;
    r.status = "pass";
    r.message = "PASS";
    r.threads = threads;
    r.time = TimingStats{5, median_ms, median_ms * 0.9, 0.01};
    return r;
}

Report sample() {
    Report report;
    report.lab = 1;
    report.title = "test";
    DeviceInfo d;
    d.name = "Test GPU";
    d.cc_major = 9;
    d.multiprocessors = 10;
    d.sm_clock_mhz = 1000;
    d.fp32_lanes_per_sm = 128;  // peak = 2 * 128 * 10 * 1 GHz = 2560 GFLOP/s
    report.device = d;
    report.has_gpu_part = true;
    report.copy_bandwidth_gbs = 100.0;
    report.image_source = "synthetic";
    report.width = 1000;
    report.height = 1000;
    report.channels = 1;
    report.mask_specs = {"box:3"};
    report.mask_sizes = {3};
    report.tolerances = {Tolerance{}};
    report.border = "zero";
    report.baseline = "slow";
    report.results = {row("openmp-reference", "reference", 20.0, 4), row("slow", "gpu", 1.0), row("fast", "gpu", 0.1)};
    VariantResult failed = row("broken, \"quoted\"", "gpu", 0.0);
    failed.time.reset();
    failed.status = "fail";
    failed.message = "FAIL: 3 of 1000000 values wrong";
    report.results.push_back(failed);
    derive_figures(report);
    return report;
}

}  // namespace

TEST(Figures, ByteModelAndPeaks) {
    const Report report = sample();
    const VariantResult& fast = report.results[2];
    // 1e6 values * 5 bytes in 0.1 ms = 50 GB/s = 50% of 100 GB/s
    EXPECT_NEAR(*fast.gb_per_s, 50.0, 1e-9);
    EXPECT_NEAR(*fast.pct_copy_bandwidth, 50.0, 1e-9);
    // 2 * 9 * 1e6 flops in 0.1 ms = 180 GFLOP/s = 7.03% of 2560
    EXPECT_NEAR(*fast.gflop_per_s, 180.0, 1e-9);
    EXPECT_NEAR(*fast.pct_fp32_peak, 100.0 * 180 / 2560, 1e-9);
    EXPECT_NEAR(*fast.mpix_per_s, 10000.0, 1e-6);
    EXPECT_NEAR(*fast.speedup_vs_omp, 200.0, 1e-9);
    EXPECT_NEAR(*fast.speedup_vs_baseline, 10.0, 1e-9);
    EXPECT_FALSE(report.results[3].gb_per_s.has_value());  // failed: no figures
    EXPECT_FALSE(report.results[0].pct_copy_bandwidth.has_value());  // the CPU is not held to the GPU's ceiling
}

TEST(Figures, AVariantsOwnWorkModel) {
    Report report = sample();
    VariantResult& two_pass = report.results[2];  // 0.1 ms, a 3x3 mask, 1e6 values
    two_pass.model = WorkModel{13, true};
    derive_figures(report);
    EXPECT_NEAR(*two_pass.gb_per_s, 130.0, 1e-9);     // 13 B per value
    EXPECT_NEAR(*two_pass.gflop_per_s, 120.0, 1e-9);  // 2 * (3 + 3) flops per value
    EXPECT_NEAR(*report.results[1].gb_per_s, 5.0, 1e-9);  // the others keep 5 B in 1 ms
    const auto doc = nlohmann::json::parse(render(report, Format::Json));
    EXPECT_EQ(doc["results"][2]["bytes_per_value"], 13);
    EXPECT_EQ(doc["results"][2]["flops_per_value"], 12);
    EXPECT_EQ(doc["results"][1]["flops_per_value"], 18);
}

TEST(Figures, ParallelEfficiencyInAThreadSweep) {
    Report report = sample();
    report.results = {row("openmp", "cpu", 100.0, 1), row("openmp", "cpu", 30.0, 4)};
    report.baseline = "";
    derive_figures(report);
    EXPECT_NEAR(*report.results[1].parallel_efficiency, 100.0 * 100 / 30 / 4, 1e-9);
}

TEST(Figures, ASweepComparesRowsOfTheSameMaskOnly) {
    Report report = sample();
    report.mask_specs = {"box:3", "box:15"};
    report.mask_sizes = {3, 15};
    report.tolerances = {Tolerance{}, Tolerance{}};
    report.results = {row("openmp-reference", "reference", 20.0, 4, "box:3", 3), row("slow", "gpu", 1.0, 0, "box:3", 3),
                      row("openmp-reference", "reference", 400.0, 4, "box:15", 15), row("slow", "gpu", 8.0, 0, "box:15", 15),
                      row("fast", "gpu", 2.0, 0, "box:15", 15)};
    derive_figures(report);
    EXPECT_NEAR(*report.results[1].speedup_vs_omp, 20.0, 1e-9);
    EXPECT_NEAR(*report.results[4].speedup_vs_omp, 200.0, 1e-9);
    EXPECT_NEAR(*report.results[4].speedup_vs_baseline, 4.0, 1e-9);
    // 2 * 225 * 1e6 flops in 2 ms
    EXPECT_NEAR(*report.results[4].gflop_per_s, 225.0, 1e-9);
    const std::string text = render(report, Format::Text);
    EXPECT_NE(text.find("mask"), std::string::npos);
    EXPECT_NE(text.find("box:15"), std::string::npos);
}

// Lab 9's budgets run from 33 bytes to gigabytes: a message in MiB alone said "0.0 MiB".
TEST(Render, BytesInTheLargestUnitTheyFill) {
    EXPECT_EQ(convlab::format_bytes(33), "33 B");
    EXPECT_EQ(convlab::format_bytes(1023), "1023 B");
    EXPECT_EQ(convlab::format_bytes(11349), "11.1 KiB");
    EXPECT_EQ(convlab::format_bytes(64.0 * 1024), "64.0 KiB");
    EXPECT_EQ(convlab::format_bytes(1921.0 * 1024 * 1024), "1.88 GiB");
    EXPECT_EQ(convlab::format_bytes(256.0 * 1024 * 1024), "256 MiB");
}

TEST(Render, TextTableIsAligned) {
    const std::string text = render(sample(), Format::Text);
    std::istringstream lines(text);
    std::string line, header;
    size_t width = 0;
    int table_rows = 0;
    while (std::getline(lines, line)) {
        if (line.rfind("variant", 0) == 0) header = line, width = line.size();
        else if (width && !line.empty() && table_rows < 4) {
            EXPECT_EQ(line.size(), width) << line;
            ++table_rows;
        }
    }
    EXPECT_EQ(table_rows, 4);
    EXPECT_NE(header.find("GB/s"), std::string::npos);
    EXPECT_NE(text.find("Test GPU"), std::string::npos);
    EXPECT_NE(text.find("FAIL: 3 of 1000000"), std::string::npos);
}

TEST(Render, HeaderNamesEachToleranceAVariantIsHeldTo) {
    Report report = sample();
    report.tolerances = {Tolerance{0.01, 0}};
    report.two_pass_tolerances = {Tolerance{0.002, 0}};
    report.integer_sum_tolerances = {Tolerance{0.0003, 0}};
    const std::string text = render(report, Format::Text);
    const size_t check = text.find("Check ");
    ASSERT_NE(check, std::string::npos);
    const std::string line = text.substr(check, text.find('\n', check) - check);
    EXPECT_NE(line.find("0.01"), std::string::npos) << line;
    EXPECT_NE(line.find("two passes: 0.002"), std::string::npos) << line;
    EXPECT_NE(line.find("integer sums: 0.0003"), std::string::npos) << line;
    report.integer_sum_tolerances = {std::nullopt};
    EXPECT_EQ(render(report, Format::Text).find("integer sums"), std::string::npos);
}

TEST(Render, TransfersGetAHeaderLineAndColumns) {
    Report report = sample();
    report.transfers = TransferBandwidth{8.5, 10.5, 54.4, 54.9};
    report.results[2].end_to_end = TimingStats{5, 40.0, 39.0, 0.01};
    report.results[2].end_to_end_pinned = TimingStats{5, 7.5, 7.0, 0.01};
    const std::string text = render(report, Format::Text);
    EXPECT_NE(text.find("Copies   host to device 8.5 GB/s pageable, 54.4 GB/s pinned"), std::string::npos) << text;
    EXPECT_NE(text.find("e2e pinned ms"), std::string::npos);
    const std::string csv = render(report, Format::Csv);
    EXPECT_NE(csv.substr(0, csv.find('\n')).find("e2e_median_ms,e2e_pinned_median_ms"), std::string::npos) << csv;
    const auto doc = nlohmann::json::parse(render(report, Format::Json));
    EXPECT_DOUBLE_EQ(doc["transfer_bandwidth"]["h2d_pinned_gbs"].get<double>(), 54.4);
    EXPECT_DOUBLE_EQ(doc["results"][2]["end_to_end_pinned"]["median_ms"].get<double>(), 7.5);
    EXPECT_TRUE(doc["results"][1]["end_to_end_pinned"].is_null());
    // A lab that times no copies says nothing of them.
    EXPECT_EQ(render(sample(), Format::Text).find("Copies"), std::string::npos);
    EXPECT_TRUE(nlohmann::json::parse(render(sample(), Format::Json))["transfer_bandwidth"].is_null());
}

TEST(Render, MarkdownIsATable) {
    const std::string md = render(sample(), Format::Markdown);
    EXPECT_NE(md.find("| variant"), std::string::npos);
    EXPECT_NE(md.find("| ---"), std::string::npos);
    EXPECT_NE(md.find("---: |"), std::string::npos);
}

TEST(Render, CsvHasFixedColumnsAndQuotes) {
    const std::string csv = render(sample(), Format::Csv);
    std::istringstream lines(csv);
    std::string header, first;
    std::getline(lines, header);
    std::getline(lines, first);
    EXPECT_EQ(header.rfind("lab,variant,kind,threads,status,median_ms", 0), 0u);
    EXPECT_EQ(first.rfind("1,openmp-reference,reference,4,pass,20.000000", 0), 0u);
    EXPECT_NE(csv.find("\"broken, \"\"quoted\"\"\""), std::string::npos);
}

TEST(Render, JsonFollowsTheSchema) {
    const auto doc = nlohmann::json::parse(render(sample(), Format::Json));
    EXPECT_EQ(doc["schema"], kReportSchema);
    EXPECT_EQ(doc["lab"], 1);
    EXPECT_EQ(doc["device"]["name"], "Test GPU");
    EXPECT_DOUBLE_EQ(doc["device"]["fp32_peak_gflops"].get<double>(), 2560.0);
    ASSERT_EQ(doc["results"].size(), 4u);
    EXPECT_EQ(doc["results"][2]["variant"], "fast");
    EXPECT_DOUBLE_EQ(doc["results"][2]["time"]["median_ms"].get<double>(), 0.1);
    EXPECT_TRUE(doc["results"][3]["time"].is_null());
    EXPECT_EQ(doc["results"][3]["status"], "fail");
    EXPECT_EQ(doc["input"]["width"], 1000);
    EXPECT_EQ(doc["results"][2]["mask"]["size"], 3);
    EXPECT_EQ(doc["masks"][0], "box:3");
}

// A row's figure of the lab's own in the JSON report (schema 2), or null.
nlohmann::json figure_of(const nlohmann::json& row, const std::string& name) {
    for (const auto& f : row["figures"])
        if (f["name"] == name) return f["value"];
    return nullptr;
}

TEST(Report, LabelledRowsCompareWithTheReferencesSamePartAndCountNoFlops) {
    Report report = sample();
    report.results.clear();
    auto stage_row = [](const std::string& name, const std::string& kind, const std::string& stage, double ms) {
        VariantResult r = row(name, kind, ms);
        if (!stage.empty()) r.set_label("stage", "stage", stage);
        r.model.bytes_per_value = 9;
        r.model.counts_flops = false;
        return r;
    };
    report.results = {stage_row("openmp-reference", "reference", "gradients", 10.0), stage_row("openmp-reference", "reference", "", 40.0),
                      stage_row("fused", "gpu", "gradients", 0.5), stage_row("fused", "gpu", "", 1.0)};
    report.results[2].set_figure("share_pct", "share %", "%", 50.0, 1);
    report.results[3].set_figure("rounds", "rounds", "", 6, 0);
    report.results[2].set_figure("ms_per_round", "ms/round", "ms", 0.125);
    report.results[3].set_figure("pco", "Pco", "", 1.0, 4);
    report.results[3].set_figure("pco", "Pco", "", 0.5, 4);  // set again: replaced, not added
    report.check_rule = "each stage alone";
    report.byte_model_rule = "gradients 9 B";
    derive_figures(report);
    EXPECT_DOUBLE_EQ(*report.results[2].speedup_vs_omp, 20.0);  // against the reference's gradients, not its whole
    EXPECT_DOUBLE_EQ(*report.results[3].speedup_vs_omp, 40.0);
    EXPECT_FALSE(report.results[2].gflop_per_s);
    EXPECT_FALSE(report.results[2].pct_fp32_peak);
    EXPECT_DOUBLE_EQ(*report.results[2].gb_per_s, 9.0 * 1e6 / 0.5e-3 * 1e-9);
    EXPECT_EQ(report.results[3].figures.size(), 2u);
    EXPECT_EQ(report.results[2].label("stage"), "gradients");
    EXPECT_EQ(report.results[3].label("stage"), "");
    EXPECT_DOUBLE_EQ(*report.results[3].number("pco"), 0.5);
    EXPECT_FALSE(report.results[3].number("share_pct"));
    const std::string text = render(report, Format::Text);
    for (const char* expected : {"share %", "rounds", "ms/round", "0.125", "Pco", "0.5000", "50.0", "Check    each stage alone",
                                 "byte model: gradients 9 B"})
        EXPECT_NE(text.find(expected), std::string::npos) << expected << "\n" << text;
    const size_t at = text.find("\nvariant") + 1;
    const std::string header = text.substr(at, text.find('\n', at) - at);
    std::istringstream words(header);
    std::string first, second;
    words >> first >> second;
    EXPECT_EQ(first + " " + second, "variant stage") << header;  // a label comes after the variant's name
    EXPECT_NE(header.find("share %"), std::string::npos) << header;
    EXPECT_GT(header.find("share %"), header.find("median ms")) << header;  // numbers after the core columns
    EXPECT_EQ(header.find("GFLOP/s"), std::string::npos) << header;  // no flops counted, so no column
    const auto doc = nlohmann::json::parse(render(report, Format::Json));
    EXPECT_EQ(figure_of(doc["results"][2], "stage"), "gradients");
    EXPECT_EQ(figure_of(doc["results"][3], "rounds"), 6);
    EXPECT_EQ(doc["results"][2]["figures"][2], (nlohmann::json{{"name", "ms_per_round"}, {"unit", "ms"}, {"value", 0.125}}));
    EXPECT_EQ(doc["results"][2]["figures"][1]["unit"], "%");
    EXPECT_TRUE(doc["results"][1]["figures"].empty());
    EXPECT_FALSE(doc["results"][2].contains("stage")) << "schema 2: a lab's figures are no fields of every row";
    const std::string csv = render(report, Format::Csv);
    EXPECT_NE(csv.substr(0, csv.find('\n')).find(",message,stage,share_pct,ms_per_round,rounds,pco"), std::string::npos) << csv;
}

TEST(Report, RowsWithoutFiguresHaveTheCoreColumnsAlone) {
    const std::string text = render(sample(), Format::Text);
    EXPECT_EQ(text.find("stage"), std::string::npos) << text;
    EXPECT_EQ(text.find("share %"), std::string::npos) << text;
    EXPECT_NE(text.find("Check    against the CPU reference"), std::string::npos) << text;
    const std::string csv = render(sample(), Format::Csv);
    const std::string header = csv.substr(0, csv.find('\n'));
    EXPECT_EQ(header.substr(header.size() - 15), ",border,message") << csv;  // no column of any lab's own figures
}

TEST(Report, StripRowsShowTheirMemoryCopiesAndOverlap) {
    Report report = sample();
    report.results = {row("overlapped", "gpu", 90.0), row("multi-gpu", "gpu", 50.0)};
    VariantResult& one = report.results[0];
    one.set_label("host_memory", "memory", "pinned");
    one.set_figure("gpus", "GPUs", "", 1, 0);
    one.set_figure("strips", "strips", "", 8, 0);
    one.set_figure("peak_device_mib", "peak MiB", "MiB", 1920.7, 0);
    one.set_figure("h2d_gbs", "H2D GB/s", "GB/s", 50.1, 1);
    one.set_figure("d2h_gbs", "D2H GB/s", "GB/s", 53.2, 1);
    one.set_figure("kernel_ms", "kernel ms", "ms", 24.9);
    one.set_figure("overlap_efficiency", "overlap", "", 0.934, 2);
    report.results[1].set_label("host_memory", "memory", "pinned");
    report.results[1].set_figure("gpus", "GPUs", "", 2, 0);
    report.results[1].set_figure("speedup_vs_one_gpu", "vs 1 GPU", "x", 1.8);
    report.timing_rule = "host clock, copies and all";
    report.byte_model_rule = "host to host";
    const std::string text = render(report, Format::Text);
    for (const char* expected : {"memory", "GPUs", "strips", "peak MiB", "H2D GB/s", "D2H GB/s", "kernel ms", "overlap", "vs 1 GPU",
                                 "0.93", "1.80x", "1921", "Timing   host clock, copies and all", "byte model: host to host"})
        EXPECT_NE(text.find(expected), std::string::npos) << expected << "\n" << text;
    EXPECT_EQ(text.find("L2 flushed"), std::string::npos) << text;  // its own timing line, not the kernels'
    const auto doc = nlohmann::json::parse(render(report, Format::Json));
    EXPECT_EQ(figure_of(doc["results"][0], "host_memory"), "pinned");
    EXPECT_EQ(figure_of(doc["results"][0], "strips"), 8);
    EXPECT_DOUBLE_EQ(figure_of(doc["results"][0], "overlap_efficiency").get<double>(), 0.934);
    EXPECT_TRUE(figure_of(doc["results"][0], "speedup_vs_one_gpu").is_null());
    EXPECT_DOUBLE_EQ(figure_of(doc["results"][1], "speedup_vs_one_gpu").get<double>(), 1.8);
    EXPECT_EQ(doc["results"][1]["figures"][2]["unit"], "x");
    const std::string csv = render(report, Format::Csv);
    EXPECT_NE(csv.find(",message,host_memory,gpus,strips,peak_device_mib,h2d_gbs,d2h_gbs,kernel_ms,overlap_efficiency,"
                       "speedup_vs_one_gpu\n"), std::string::npos) << csv;
    EXPECT_NE(csv.find(",pinned,2,,,,,,,1.800000\n"), std::string::npos) << csv;  // empty where a row has no such figure
}

TEST(Report, ExitStatusPutsACudaErrorFirstThenAFailureThenAMissingGpu) {
    Report report = sample();
    for (VariantResult& r : report.results) r.status = "pass";
    EXPECT_EQ(run_exit_status(report, false, false), 0);
    EXPECT_EQ(run_exit_status(report, false, true), 3);
    report.results[0].status = "skipped";
    EXPECT_EQ(run_exit_status(report, false, false), 0);
    report.results[0].status = "not-implemented";
    EXPECT_EQ(run_exit_status(report, false, true), 1);
    EXPECT_EQ(run_exit_status(report, true, true), 4);
}

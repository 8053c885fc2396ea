// convlab harness — do not edit in a lab.
// A lab run's results and their four renderings. JSON carries everything under a versioned
// schema (kReportSchema); text, Markdown and CSV carry the table. The grader and the plots read
// JSON or CSV, never the text.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "common/check/check.hpp"
#include "common/device/device_info.hpp"
#include "common/report/format.hpp"
#include "common/check/spot_check.hpp"
#include "common/timing/stats.hpp"
#include "common/timing/transfers.hpp"
#include "common/core/work_model.hpp"

namespace convlab {

// Bump when a field changes meaning or disappears; adding a field keeps the version. Schema 2:
// a lab's own figures are a row's "figures" list, no longer fields of every row (common/README.md
// documents the schema).
constexpr const char* kReportSchema = "convlab.report/2";

// A figure of a lab's own on a result row: lab 8's stage, rounds and edge agreement, lab 9's
// host memory, strips and copy rates. The renderers print a column for each figure some row
// carries, so a lab adds a figure without touching them, and no other lab's table shows it.
struct Figure {
    std::string key;     // the CSV column and JSON name: "overlap_efficiency"
    std::string header;  // the text table's column: "overlap"
    std::string unit;    // "" (a count or a ratio), "ms", "MiB", "GB/s", "%", or "x" (a speed-up, printed after the value)
    std::optional<double> number;  // a measured figure, or else
    std::string text;              // a label naming the row's part of the run (a stage, a host memory)
    int decimals = -1;             // the text table's fixed decimals; -1: three significant digits
    bool label() const { return !number; }
};

struct VariantResult {
    std::string name;
    std::string description;
    std::string kind;     // "reference", "cpu" or "gpu"
    std::string status;   // "pass", "fail", "not-implemented", "error", "skipped"; "written" in a graded run (--raw-out)
    std::string message;  // the check's summary, or why it did not run
    int threads = 0;      // CPU variants: OpenMP threads
    std::string mask_spec;  // the mask this row ran with (a lab may sweep several)
    int mask_size = 0;
    Tolerance tolerance;
    CheckResult check;
    std::optional<TimingStats> time;        // kernel only (GPU) or the whole call (CPU)
    std::optional<TimingStats> end_to_end;  // GPU with host<->device copies and allocation (pageable host memory)
    std::optional<TimingStats> end_to_end_pinned;  // the same from pinned host memory (LabSpec::transfers)
    // Peer timing (--timer-of): each repetition from the grader's own process, from a fresh input
    // to the output read back (peer_timer.hpp); `time` is then what the timed program reported.
    std::optional<TimingStats> peer_time;
    std::optional<SpotChecks> spot_checks;  // every timed run's result, spot-checked
    std::optional<TimingStats> critical_path;  // CPU variants: the busiest thread's CPU time (cpu_work.hpp)
    int busy_threads = 0;                      // CPU variants: threads that did work, in the median run
    WorkModel model;  // the variant's: DRAM bytes and flops per output value

    // Derived from time (see derive_figures); absent when there is no time or no ceiling.
    std::optional<double> mpix_per_s, gb_per_s, pct_copy_bandwidth, gflop_per_s, pct_fp32_peak;
    std::optional<double> speedup_vs_omp, speedup_vs_baseline, parallel_efficiency;

    std::vector<Figure> figures;  // the lab's own, in the order their columns appear

    // A label (set_label) or a number (set_figure) under its key, replacing one the row had.
    void set_label(const std::string& key, const std::string& header, const std::string& text);
    void set_figure(const std::string& key, const std::string& header, const std::string& unit, double value, int decimals = -1);
    const Figure* figure(const std::string& key) const;      // nullptr: the row has none
    std::string label(const std::string& key) const;          // "" where the row has none
    std::optional<double> number(const std::string& key) const;
};

struct Report {
    int lab = 0;
    std::string title;
    std::optional<DeviceInfo> device;
    std::optional<double> copy_bandwidth_gbs;
    std::optional<TransferBandwidth> transfers;  // host<->device, measured when the lab times copies
    bool has_gpu_part = false;  // the lab has GPU variants (lab 0 has none)
    std::string gpu_skipped;    // why the GPU part did not run, or empty
    std::string preset;         // --preset's name, or empty
    std::string image_source;
    int width = 0, height = 0, channels = 0;
    size_t elements = 0;        // an array lab's array length (array_lab.hpp); 0 in an image lab
    uint64_t seed = 0;
    std::vector<std::string> mask_specs;  // one per case of a sweep; usually one
    std::vector<int> mask_sizes;
    std::vector<Tolerance> tolerances;  // the direct K*K sum's, one per mask
    // A separable mask's two-pass tolerance, where the lab has variants that sum its factors; one per mask.
    std::vector<std::optional<Tolerance>> two_pass_tolerances;
    // A box mask's tolerance for the variants that sum integers (lab 7); one per mask.
    std::vector<std::optional<Tolerance>> integer_sum_tolerances;
    std::string border;
    int warmup = 0, reps = 0, cpu_reps = 0;
    bool flush_l2 = true;
    bool check_only = false;
    int cpu_cores = 0;
    std::string baseline;
    // How the figures count bytes and flops; an array lab's tables state their own.
    std::string byte_model = "bytes = width*height*channels*bytes_per_value (1 + 4 unless a row says otherwise); "
                             "flops = width*height*channels*flops_per_value (2*k*k, or 4*k for a separable row)";
    std::vector<VariantResult> results;
    // Where a lab checks and counts bytes its own way (lab 8), the header's lines for them; empty:
    // the image labs' (a tolerance per mask, a byte model per variant).
    std::string check_rule;
    std::string byte_model_rule;
    std::string timing_rule;  // likewise for the timing line (lab 9 times host to host)
    std::vector<std::string> notes;  // warnings: noisy timings, failures after timing
    double process_cpu_ms = 0;       // CPU time of this process up to the report (cpu_work.hpp)
};

// Fills the derived figures of every result under its variant's model: by default each input
// byte read once and each output float written once, 2*K*K flops per output value (K of the
// row's own mask); a row's model says otherwise.
// Speedups compare rows of the same mask.
void derive_figures(Report& report);

std::string render(const Report& report, Format format);

// Whether a row's run ended as it should: it passed its check or, in a graded run (--raw-out),
// which checks nothing itself, wrote its result for the grader's trusted check.
inline bool ended_well(const VariantResult& r) { return r.status == "pass" || r.status == "written"; }
// A graded run's row for a result it wrote: neither passed nor failed until the trusted check.
void record_written(VariantResult& r);

// A lab run's exit status (exit_status.hpp): a CUDA error first, then any row that neither ended
// well nor was skipped, then a GPU part skipped for want of a GPU.
int run_exit_status(const Report& report, bool cuda_failed, bool gpu_skipped);

// The report's "GPU" and "Ceilings" header lines, without their labels.
std::string describe_gpu(const DeviceInfo& device);
std::string describe_ceilings(const DeviceInfo& device, double copy_bandwidth_gbs);
std::string describe_transfers(const TransferBandwidth& transfers);

}  // namespace convlab

// convlab harness — do not edit in a lab.
#include "common/report/report.hpp"

#include "common/core/exit_status.hpp"
#include "common/core/number_format.hpp"
#include "common/report/text_table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>

namespace convlab {

void VariantResult::set_label(const std::string& key, const std::string& header, const std::string& text) {
    Figure f{key, header, "", std::nullopt, text};
    for (Figure& old : figures)
        if (old.key == key) return void(old = f);
    figures.push_back(f);
}

void VariantResult::set_figure(const std::string& key, const std::string& header, const std::string& unit, double value, int decimals) {
    Figure f{key, header, unit, value, "", decimals};
    for (Figure& old : figures)
        if (old.key == key) return void(old = f);
    figures.push_back(f);
}

const Figure* VariantResult::figure(const std::string& key) const {
    for (const Figure& f : figures)
        if (f.key == key) return &f;
    return nullptr;
}

std::string VariantResult::label(const std::string& key) const {
    const Figure* f = figure(key);
    return f && f->label() ? f->text : std::string();
}

std::optional<double> VariantResult::number(const std::string& key) const {
    const Figure* f = figure(key);
    return f ? f->number : std::nullopt;
}

namespace {

// Two rows of the same part of a run: the same labels (lab 8's stage; none in most labs).
bool same_part(const VariantResult& a, const VariantResult& b) {
    auto labels = [](const VariantResult& r) {
        std::vector<std::pair<std::string, std::string>> found;
        for (const Figure& f : r.figures)
            if (f.label()) found.emplace_back(f.key, f.text);
        std::sort(found.begin(), found.end());
        return found;
    };
    return labels(a) == labels(b);
}

}  // namespace

void derive_figures(Report& report) {
    const double pixels = double(report.width) * report.height;
    const double values = pixels * report.channels;
    auto same_case = [](const VariantResult& a, const VariantResult& b) { return a.mask_spec == b.mask_spec; };
    auto reference_of = [&](const VariantResult& r) -> const VariantResult* {
        for (const auto& o : report.results)
            if (o.kind == "reference" && o.time && same_case(o, r) && same_part(o, r)) return &o;
        return nullptr;
    };
    // The baseline of a thread sweep is its own 1-thread run; of anything else, the named variant.
    auto baseline_of = [&](const VariantResult& r) -> const VariantResult* {
        for (const auto& b : report.results)
            if (b.name == report.baseline && b.time && same_case(b, r) && (b.threads <= 1 || b.threads == r.threads)) return &b;
        return nullptr;
    };
    for (auto& r : report.results) {
        if (!r.time || !ended_well(r)) continue;
        const double seconds = r.time->median_ms * 1e-3;
        const double flops = r.model.flops_per_value(r.mask_size) * values;
        r.mpix_per_s = pixels / seconds * 1e-6;
        r.gb_per_s = r.model.bytes_per_value * values / seconds * 1e-9;
        if (flops > 0) r.gflop_per_s = flops / seconds * 1e-9;
        if (r.kind == "gpu" && report.copy_bandwidth_gbs) r.pct_copy_bandwidth = 100.0 * *r.gb_per_s / *report.copy_bandwidth_gbs;
        if (r.kind == "gpu" && report.device && report.device->fp32_peak_gflops() > 0 && r.gflop_per_s) r.pct_fp32_peak = 100.0 * *r.gflop_per_s / report.device->fp32_peak_gflops();
        const VariantResult* omp = r.kind == "reference" ? nullptr : reference_of(r);
        if (omp) r.speedup_vs_omp = omp->time->median_ms / r.time->median_ms;
        const VariantResult* b = r.kind == "reference" ? nullptr : baseline_of(r);  // the reference has "vs omp" instead
        if (b) r.speedup_vs_baseline = b->time->median_ms / r.time->median_ms;
        // Efficiency only means something in a thread sweep: the variant's own 1-thread run is the base.
        const auto runs = std::count_if(report.results.begin(), report.results.end(),
                                        [&](auto& o) { return o.name == r.name && same_case(o, r); });
        if (r.kind == "cpu" && runs > 1) {
            for (const auto& one : report.results)
                if (one.name == r.name && same_case(one, r) && one.threads == 1 && one.time)
                    r.parallel_efficiency = 100.0 * one.time->median_ms / r.time->median_ms / r.threads;
        }
    }
}

std::string describe_gpu(const DeviceInfo& d) {
    if (d.api != "CUDA")
        return d.api + ": " + d.name + " on " + d.platform + " (" + d.device_version + ", " + std::to_string(d.multiprocessors) +
               " compute units, clock " + format_fixed(d.sm_clock_mhz, 0) + " MHz, " + format_fixed(d.memory_bytes / 1073741824.0, 0) +
               " GiB); driver " + d.driver_release;
    auto cuda_version = [](int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); };
    return d.name + " (" + d.arch() + ", " + std::to_string(d.multiprocessors) + " SMs, SM clock " +
           format_fixed(d.sm_clock_mhz, 0) + " MHz, memory clock " + format_fixed(d.memory_clock_mhz, 0) + " MHz, " +
           format_fixed(d.memory_bytes / 1073741824.0, 0) + " GiB); driver " +
           (d.driver_release.empty() ? "for CUDA " + cuda_version(d.driver_version)
                                     : d.driver_release + " (CUDA " + cuda_version(d.driver_version) + ")") +
           ", runtime " + cuda_version(d.runtime_version);
}

std::string describe_ceilings(const DeviceInfo& d, double copy_gbs) {
    // 0: not measured (ImageDevice::copy_bandwidth_gbs), rather than a ceiling of nothing.
    const std::string copy = copy_gbs > 0 ? "copy " + format_fixed(copy_gbs, 0) + " GB/s (measured, device to device, read+write)"
                                          : "copy bandwidth not measured (a --check-only run times nothing)";
    if (d.fp32_peak_gflops() <= 0)
        return copy + "; FP32 peak unknown (" + d.api + " does not say how many FP32 lanes a compute unit has)";
    return copy + "; FP32 peak " +
           format_fixed(d.fp32_peak_gflops(), 0) + " GFLOP/s (" + std::to_string(d.multiprocessors) + " SMs x " +
           std::to_string(d.fp32_lanes_per_sm) + " lanes x 2 x " + format_fixed(d.sm_clock_mhz, 0) + " MHz)";
}

std::string describe_transfers(const TransferBandwidth& t) {
    return "host to device " + format_fixed(t.h2d_pageable, 1) + " GB/s pageable, " + format_fixed(t.h2d_pinned, 1) +
           " GB/s pinned; device to host " + format_fixed(t.d2h_pageable, 1) + " GB/s pageable, " +
           format_fixed(t.d2h_pinned, 1) + " GB/s pinned (one image's bytes up, its floats down)";
}

namespace {

std::string opt(const std::optional<double>& value, const std::function<std::string(double)>& f = format_sig3) {
    return value ? f(*value) : "";
}

struct Column {
    std::string header;
    std::function<std::string(const VariantResult&)> cell;
    bool right = true;
};

std::string figure_cell(const VariantResult& r, const std::string& key) {
    const Figure* f = r.figure(key);
    if (!f) return "";
    if (f->label()) return f->text;
    return (f->decimals < 0 ? format_sig3(*f->number) : format_fixed(*f->number, f->decimals)) + (f->unit == "x" ? "x" : "");
}

// Every figure some row carries, once, in the order they first appear: labels or numbers.
std::vector<Figure> figures_carried(const Report& report, bool labels) {
    std::vector<Figure> found;
    for (const VariantResult& r : report.results)
        for (const Figure& f : r.figures)
            if (f.label() == labels && std::none_of(found.begin(), found.end(), [&](const Figure& o) { return o.key == f.key; }))
                found.push_back(f);
    return found;
}

// The core columns every lab has, the labels after the variant's name and the lab's own
// numbers at the end.
std::vector<Column> columns(const Report& report) {
    const bool sweep = report.mask_specs.size() > 1;
    auto timing = [](const std::optional<TimingStats>& t, double TimingStats::*field) {
        return t ? format_sig3((*t).*field) : std::string();
    };
    std::vector<Column> found = {{"variant", [](const VariantResult& r) { return r.name; }, false}};
    for (const Figure& f : figures_carried(report, true))
        found.push_back({f.header, [key = f.key](const VariantResult& r) { return figure_cell(r, key); }, false});
    std::vector<Column> core = {
        {"mask", [sweep](const VariantResult& r) { return sweep ? r.mask_spec : std::string(); }, false},
        {"threads", [](const VariantResult& r) { return r.threads ? std::to_string(r.threads) : ""; }},
        {"check", [](const VariantResult& r) { return r.status == "pass" ? std::string("PASS") : r.status == "fail" ? "FAIL" : r.status; }, false},
        {"median ms", [=](const VariantResult& r) { return timing(r.time, &TimingStats::median_ms); }},
        {"min ms", [=](const VariantResult& r) { return timing(r.time, &TimingStats::min_ms); }},
        {"cv %", [](const VariantResult& r) { return r.time && r.time->samples > 1 ? format_fixed(100 * r.time->cv, 1) : ""; }},
        {"e2e ms", [=](const VariantResult& r) { return timing(r.end_to_end, &TimingStats::median_ms); }},
        {"e2e pinned ms", [=](const VariantResult& r) { return timing(r.end_to_end_pinned, &TimingStats::median_ms); }},
        {"Mpix/s", [](const VariantResult& r) { return opt(r.mpix_per_s); }},
        {"GB/s", [](const VariantResult& r) { return opt(r.gb_per_s); }},
        {"% copy", [](const VariantResult& r) { return opt(r.pct_copy_bandwidth, [](double v) { return format_fixed(v, 1); }); }},
        {"GFLOP/s", [](const VariantResult& r) { return opt(r.gflop_per_s); }},
        {"% fp32", [](const VariantResult& r) { return opt(r.pct_fp32_peak, [](double v) { return format_fixed(v, 1); }); }},
        {"vs omp", [](const VariantResult& r) { return opt(r.speedup_vs_omp, [](double v) { return format_sig3(v) + "x"; }); }},
        {"vs base", [](const VariantResult& r) { return opt(r.speedup_vs_baseline, [](double v) { return format_sig3(v) + "x"; }); }},
        {"eff %", [](const VariantResult& r) { return opt(r.parallel_efficiency, [](double v) { return format_fixed(v, 0); }); }},
    };
    found.insert(found.end(), core.begin(), core.end());
    for (const Figure& f : figures_carried(report, false))
        found.push_back({f.header, [key = f.key](const VariantResult& r) { return figure_cell(r, key); }});
    return found;
}

// A GPU variant that did not run because there is no usable GPU: the header's GPU line says why,
// once, and the text table leaves such rows out (lab 4 has 66 of them).
bool skipped_for_want_of_gpu(const Report& report, const VariantResult& r) {
    return r.kind == "gpu" && r.status == "skipped" && !report.gpu_skipped.empty();
}

// The table's cells, without the columns that are empty in every row.
std::vector<std::vector<std::string>> table(const Report& report, std::vector<Column>& used) {
    std::vector<std::vector<std::string>> rows;
    for (const Column& column : columns(report)) {
        bool any = column.header == "variant" || column.header == "check";
        for (const auto& r : report.results) any = any || !column.cell(r).empty();
        if (any) used.push_back(column);
    }
    for (const auto& r : report.results) {
        if (skipped_for_want_of_gpu(report, r)) continue;
        std::vector<std::string> row;
        for (const Column& column : used) row.push_back(column.cell(r));
        rows.push_back(row);
    }
    return rows;
}

std::string describe_tolerance(const Tolerance& tolerance) {
    char text[96];
    std::snprintf(text, sizeof text, "%.3g + %.3g*|ref|", tolerance.atol, tolerance.rtol);
    return text;
}

// "1 B in + 4 B out per value", and the variants whose model moves other bytes (lab 6's two
// passes write and read a float intermediate: 13 B).
std::string describe_byte_models(const Report& report) {
    std::string text = "1 B in + 4 B out per value";
    std::vector<std::pair<double, std::vector<std::string>>> others;  // bytes per value, the variants' names
    for (const VariantResult& r : report.results) {
        if (r.model.bytes_per_value == WorkModel{}.bytes_per_value || skipped_for_want_of_gpu(report, r)) continue;
        auto found = std::find_if(others.begin(), others.end(), [&](const auto& o) { return o.first == r.model.bytes_per_value; });
        if (found == others.end()) found = others.insert(others.end(), {r.model.bytes_per_value, {}});
        if (std::find(found->second.begin(), found->second.end(), r.name) == found->second.end()) found->second.push_back(r.name);
    }
    for (const auto& [bytes, names] : others) {
        text += "; " + (bytes == std::floor(bytes) ? std::to_string(int(bytes)) : format_sig3(bytes)) + " B for ";
        for (size_t n = 0; n < names.size(); ++n) text += (n ? ", " : "") + names[n];
    }
    return text;
}

std::vector<std::string> header_lines(const Report& report) {
    std::vector<std::string> lines;
    if (report.device) {
        lines.push_back("GPU      " + describe_gpu(*report.device));
        lines.push_back("Ceilings " + describe_ceilings(*report.device, report.copy_bandwidth_gbs.value_or(0)));
        if (report.transfers) lines.push_back("Copies   " + describe_transfers(*report.transfers));
    } else {
        lines.push_back(report.has_gpu_part ? "GPU      none: " + report.gpu_skipped : "GPU      not used in this lab");
    }
    std::string masks, tolerances;
    for (size_t n = 0; n < report.mask_specs.size(); ++n) {
        const std::string sep = n ? ", " : "";
        masks += sep + report.mask_specs[n] + " (" + std::to_string(report.mask_sizes[n]) + "x" + std::to_string(report.mask_sizes[n]) + ")";
        std::string tolerance = describe_tolerance(report.tolerances[n]);
        if (n < report.two_pass_tolerances.size() && report.two_pass_tolerances[n])
            tolerance += " (two passes: " + describe_tolerance(*report.two_pass_tolerances[n]) + ")";
        if (n < report.integer_sum_tolerances.size() && report.integer_sum_tolerances[n])
            tolerance += " (integer sums: " + describe_tolerance(*report.integer_sum_tolerances[n]) + ")";
        tolerances += sep + (report.mask_specs.size() > 1 ? report.mask_specs[n] + ": " : "") + tolerance;
    }
    if (!report.preset.empty()) lines.push_back("Preset   " + report.preset);
    lines.push_back("Input    " + report.image_source + " " + std::to_string(report.width) + "x" + std::to_string(report.height) +
                    ", " + std::to_string(report.channels) + (report.channels == 1 ? " channel" : " channels") +
                    "; mask" + (report.mask_specs.size() > 1 ? "s " : " ") + masks + "; border " + report.border);
    lines.push_back("Check    " + (report.check_rule.empty() ? "against the CPU reference (double); |got - ref| <= " + tolerances +
                                                             "; output poisoned with NaN"
                                                       : report.check_rule));
    if (report.check_only)
        lines.push_back("Timing   none (--check-only)");
    else if (!report.timing_rule.empty())
        lines.push_back("Timing   " + report.timing_rule + "; " + std::to_string(report.cpu_cores) + " CPU cores; byte model: " +
                        report.byte_model_rule);
    else
        lines.push_back("Timing   " +
                        (report.has_gpu_part ? "median of " + std::to_string(report.reps) + " GPU reps after " +
                                                   std::to_string(report.warmup) + " warm-ups (" +
                                                   (report.device && report.device->api == "OpenCL" ? "OpenCL profiling events" : "CUDA events") +
                                                   (report.flush_l2 ? ", L2 flushed before each" : ", L2 not flushed") + "), "
                                             : std::string("median of ")) +
                        std::to_string(report.cpu_reps) + " CPU reps; " + std::to_string(report.cpu_cores) +
                        " CPU cores; byte model: " + (report.byte_model_rule.empty() ? describe_byte_models(report) : report.byte_model_rule));
    return lines;
}

std::string render_text(const Report& report, bool markdown) {
    std::ostringstream out;
    out << (markdown ? "### " : "") << "convlab lab " << report.lab << ": " << report.title << "\n";
    if (markdown) out << "\n";
    for (const std::string& line : header_lines(report)) out << (markdown ? "- " : "") << line << "\n";
    out << "\n";
    std::vector<Column> used;
    const auto rows = table(report, used);
    std::vector<TableColumn> layout;
    for (const Column& c : used) layout.push_back({c.header, c.right});
    out << render_table(layout, rows, markdown);
    std::vector<std::string> notes;
    const auto not_run = std::count_if(report.results.begin(), report.results.end(),
                                       [&](const VariantResult& r) { return skipped_for_want_of_gpu(report, r); });
    if (not_run)
        notes.push_back(std::to_string(not_run) + " GPU variant run" + (not_run == 1 ? "" : "s") +
                        " left out of the table: no usable GPU (the GPU line above says why; --help lists the variants)");
    for (const auto& r : report.results) {
        if (ended_well(r) || skipped_for_want_of_gpu(report, r)) continue;
        const std::string threads = r.threads == 1 ? " (1 thread)" : r.threads ? " (" + std::to_string(r.threads) + " threads)" : "";
        notes.push_back(r.name + threads + ": " + r.message);
        for (const std::string& d : r.check.details()) notes.push_back("    " + d);
    }
    notes.insert(notes.end(), report.notes.begin(), report.notes.end());
    if (!notes.empty()) out << "\n";
    for (const std::string& note : notes) out << (markdown ? "> " : "") << note << (markdown ? "  " : "") << "\n";
    return out.str();
}

std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

std::string render_csv(const Report& report) {
    // The core columns in full precision, so a spreadsheet or a plot can rely on them, then one
    // column for each figure of the lab's own that some row carries.
    std::vector<Figure> own = figures_carried(report, true);
    for (const Figure& f : figures_carried(report, false)) own.push_back(f);
    std::ostringstream out;
    out << "lab,variant,kind,threads,status,median_ms,min_ms,cv,e2e_median_ms,e2e_pinned_median_ms,mpix_per_s,gb_per_s,"
           "pct_copy_bandwidth,gflop_per_s,pct_fp32_peak,speedup_vs_omp,speedup_vs_baseline,width,height,channels,mask,border,message";
    for (const Figure& f : own) out << "," << csv_field(f.key);
    out << "\n";
    auto num = [](const std::optional<double>& v) { return v ? format_fixed(*v, 6) : std::string(); };
    for (const auto& r : report.results) {
        out << report.lab << "," << csv_field(r.name) << "," << r.kind << "," << r.threads << "," << r.status << ","
            << num(r.time ? std::optional<double>(r.time->median_ms) : std::nullopt) << ","
            << num(r.time ? std::optional<double>(r.time->min_ms) : std::nullopt) << ","
            << num(r.time ? std::optional<double>(r.time->cv) : std::nullopt) << ","
            << num(r.end_to_end ? std::optional<double>(r.end_to_end->median_ms) : std::nullopt) << ","
            << num(r.end_to_end_pinned ? std::optional<double>(r.end_to_end_pinned->median_ms) : std::nullopt) << ","
            << num(r.mpix_per_s) << "," << num(r.gb_per_s) << "," << num(r.pct_copy_bandwidth) << "," << num(r.gflop_per_s) << ","
            << num(r.pct_fp32_peak) << "," << num(r.speedup_vs_omp) << "," << num(r.speedup_vs_baseline) << "," << report.width
            << "," << report.height << "," << report.channels << "," << csv_field(r.mask_spec) << "," << report.border << ","
            << csv_field(r.message);
        for (const Figure& f : own) {
            const Figure* mine = r.figure(f.key);
            out << "," << (!mine ? std::string() : mine->label() ? csv_field(mine->text)
                                                : mine->decimals == 0 ? format_fixed(*mine->number, 0) : num(mine->number));
        }
        out << "\n";
    }
    return out.str();
}

nlohmann::json timing_json(const std::optional<TimingStats>& t) {
    if (!t) return nullptr;
    return {{"samples", t->samples}, {"median_ms", t->median_ms}, {"min_ms", t->min_ms}, {"cv", t->cv},
            {"host_clock_samples", t->host_clock_samples}};
}

nlohmann::json spot_checks_json(const std::optional<SpotChecks>& s) {
    if (!s) return nullptr;
    return {{"runs", s->runs}, {"values_per_run", s->values_per_run}, {"failed_runs", s->failed_runs},
            {"first_failure", s->first_failure.empty() ? nlohmann::json(nullptr) : nlohmann::json(s->first_failure)}};
}

nlohmann::json transfers_json(const std::optional<TransferBandwidth>& t) {
    if (!t) return nullptr;
    return {{"h2d_pageable_gbs", t->h2d_pageable}, {"d2h_pageable_gbs", t->d2h_pageable},
            {"h2d_pinned_gbs", t->h2d_pinned}, {"d2h_pinned_gbs", t->d2h_pinned}};
}

nlohmann::json optional_json(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

nlohmann::json figures_json(const VariantResult& r) {
    nlohmann::json list = nlohmann::json::array();
    for (const Figure& f : r.figures)
        list.push_back({{"name", f.key}, {"unit", f.unit}, {"value", f.label() ? nlohmann::json(f.text) : nlohmann::json(*f.number)}});
    return list;
}

std::string render_json(const Report& report) {
    using nlohmann::json;
    json device = nullptr;
    if (report.device) {
        const DeviceInfo& d = *report.device;
        device = {{"name", d.name}, {"api", d.api}, {"type", d.type}, {"platform", d.platform}, {"device_version", d.device_version}, {"arch", d.arch()}, {"multiprocessors", d.multiprocessors}, {"sm_clock_mhz", d.sm_clock_mhz},
                  {"memory_clock_mhz", d.memory_clock_mhz}, {"memory_bus_bits", d.memory_bus_bits}, {"l2_bytes", d.l2_bytes},
                  {"memory_bytes", d.memory_bytes}, {"driver_version", d.driver_version}, {"driver_release", d.driver_release}, {"runtime_version", d.runtime_version},
                  {"fp32_lanes_per_sm", d.fp32_lanes_per_sm}, {"fp32_peak_gflops", d.fp32_peak_gflops()},
                  {"copy_bandwidth_gbs", optional_json(report.copy_bandwidth_gbs)}};
    }
    json results = json::array();
    for (const auto& r : report.results) {
        json first = json::array();
        for (const Mismatch& m : r.check.first)
            first.push_back({{"x", m.x}, {"y", m.y}, {"channel", m.c}, {"got", std::isfinite(m.got) ? json(m.got) : json(nullptr)},
                             {"expected", m.expected}, {"where", m.where}});
        results.push_back({{"variant", r.name}, {"description", r.description}, {"kind", r.kind}, {"threads", r.threads},
                           {"mask", {{"spec", r.mask_spec}, {"size", r.mask_size}}},
                           {"bytes_per_value", r.model.bytes_per_value}, {"flops_per_value", r.model.flops_per_value(r.mask_size)},
                           {"tolerance", {{"atol", r.tolerance.atol}, {"rtol", r.tolerance.rtol}}},
                           {"status", r.status}, {"message", r.message},
                           {"check", {{"values", r.check.values}, {"bad", r.check.bad}, {"unwritten", r.check.unwritten},
                                      {"max_abs_error", r.check.max_abs_error}, {"max_rel_error", r.check.max_rel_error},
                                      {"first_mismatches", first}}},
                           {"time", timing_json(r.time)}, {"end_to_end", timing_json(r.end_to_end)},
                           {"end_to_end_pinned", timing_json(r.end_to_end_pinned)},
                           {"peer_time", timing_json(r.peer_time)},
                           {"spot_checks", spot_checks_json(r.spot_checks)},
                           {"critical_path", timing_json(r.critical_path)}, {"busy_threads", r.busy_threads},
                           {"mpix_per_s", optional_json(r.mpix_per_s)}, {"gb_per_s", optional_json(r.gb_per_s)},
                           {"pct_copy_bandwidth", optional_json(r.pct_copy_bandwidth)}, {"gflop_per_s", optional_json(r.gflop_per_s)},
                           {"pct_fp32_peak", optional_json(r.pct_fp32_peak)}, {"speedup_vs_omp", optional_json(r.speedup_vs_omp)},
                           {"speedup_vs_baseline", optional_json(r.speedup_vs_baseline)},
                           {"parallel_efficiency_pct", optional_json(r.parallel_efficiency)},
                           {"figures", figures_json(r)}});
    }
    json doc = {{"schema", kReportSchema},
                {"lab", report.lab},
                {"title", report.title},
                {"preset", report.preset.empty() ? json(nullptr) : json(report.preset)},
                {"device", device},
                {"transfer_bandwidth", transfers_json(report.transfers)},
                {"has_gpu_part", report.has_gpu_part},
                {"gpu_skipped", report.gpu_skipped.empty() ? json(nullptr) : json(report.gpu_skipped)},
                {"input", {{"source", report.image_source}, {"width", report.width}, {"height", report.height},
                           {"channels", report.channels}, {"elements", report.elements}, {"seed", report.seed}}},
                {"masks", report.mask_specs},
                {"border", report.border},
                {"timing", {{"warmup", report.warmup}, {"reps", report.reps}, {"cpu_reps", report.cpu_reps},
                            {"l2_flush", report.flush_l2}, {"check_only", report.check_only}, {"cpu_cores", report.cpu_cores}}},
                {"byte_model", report.byte_model},
                {"baseline", report.baseline},
                {"results", results},
                {"notes", report.notes},
                {"process_cpu_ms", report.process_cpu_ms}};
    return doc.dump(2) + "\n";
}

}  // namespace

void record_written(VariantResult& r) {
    r.status = "written";
    r.message = "result written for the grader's check in another process (--raw-out: this run holds no reference)";
}

int run_exit_status(const Report& report, bool cuda_failed, bool gpu_skipped) {
    if (cuda_failed) return kExitCudaError;
    for (const auto& r : report.results)
        if (!ended_well(r) && r.status != "skipped") return kExitCheckFailed;
    return gpu_skipped ? kExitNoGpu : kExitPass;
}

std::string render(const Report& report, Format format) {
    switch (format) {
        case Format::Text: return render_text(report, false);
        case Format::Markdown: return render_text(report, true);
        case Format::Csv: return render_csv(report);
        case Format::Json: return render_json(report);
    }
    return "";
}

}  // namespace convlab

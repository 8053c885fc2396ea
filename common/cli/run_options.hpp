// convlab harness — do not edit in a lab.
// The options every lab program shares, whatever its input (images or arrays): which variants
// run, how they are timed, the report's format and the grader's --raw-out / --compare. A kind of
// lab adds its own options to the same parser (options.cpp: images; array_lab.cpp: arrays).
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "common/report/format.hpp"

// Declared only: the files that include this need the options, not the parser.
namespace cxxopts {
class Options;
class ParseResult;
}  // namespace cxxopts

namespace convlab {

constexpr int kDemoReps = 5;  // --demo's timed repetitions of a GPU variant, unless --reps or --warmup is given

struct RunOptions {
    bool help = false;
    std::string help_text;
    uint64_t seed = 1;
    std::vector<std::string> variants;  // as typed; the lab checks the names (empty: all)
    int warmup = 2, reps = 15;
    bool flush_l2 = true;
    bool check_only = false;
    Format format = Format::Text;
    std::string raw_out_dir;   // grading: each variant's result as raw bytes in here; the run computes no reference
    bool sanitized = false;    // grading: under compute-sanitizer, which holds CUPTI: no launch count to take
    std::string compare_file;  // grading: check this raw result (or folder of them) instead of running variants
    int timer_of = -1;         // grading: time the GPU variants of the program at the other end of this socket (peer_timer.hpp)
    int timed_by = -1;         // grading: be timed by the grader's process at the other end of this socket (peer_worker.hpp)

    // --raw-out: the grader's run. Its results are checked in another process (--compare), so it
    // computes no reference (the grader's build links none) and judges nothing itself.
    bool graded() const { return !raw_out_dir.empty(); }
    // Whether --variant names this variant (no --variant: every one).
    bool selects(const std::string& variant) const { return variants.empty() || names(variant); }
    // Whether --variant names this variant itself. The peer timer times an expert row
    // (expert_tier.hpp) only when named: the grader names them in the reference's timed runs
    // alone, since a student's build has none.
    bool names(const std::string& variant) const {
        return std::find(variants.begin(), variants.end(), variant) != variants.end();
    }
    // Whether a launch count the harness could not take (no CUPTI, its slot taken, the counting
    // switched off: launch_counter.hpp) may pass as "launched": in a student's own run, yes; in a
    // graded run, which fails what it cannot measure, only under compute-sanitizer (--sanitized),
    // whose case the grader also runs, and counts, without the tool.
    bool unknown_launches_pass() const { return !graded() || sanitized; }
};

// What differs between kinds of lab in the shared options' help and accepted values.
struct RunOptionsText {
    std::string seed_help;           // what --seed seeds
    std::string default_seed = "1";
    std::string raw_out_help;        // what --raw-out writes, and when
    std::string compare_help;        // what --compare checks
    bool compare_takes_a_file = true;  // false: a folder only
    bool csv = true;                 // --format csv is offered
    std::string peer_accepts;        // what else --timer-of and --timed-by need, for their refusals
};

// Adds --seed, --variant, --reps, --warmup, --no-flush, --check-only, --format, --help, --raw-out,
// --sanitized, --compare, --timer-of and --timed-by to `parser`, in its groups "Input", "Run", "Output" and
// "Grading".
void add_run_options(cxxopts::Options& parser, const RunOptionsText& text);

// Reads them back, checking every value: throws InputError with one line for a bad one.
void read_run_options(const cxxopts::ParseResult& args, const RunOptionsText& text, RunOptions& options);

// --demo's timing, at a lecture's pace: each GPU variant kDemoReps times after one warm-up, unless
// --reps or --warmup is given. Whether it set them (the run's notes say so).
bool apply_demo_timing(const cxxopts::ParseResult& args, RunOptions& options);

// The help's closing lines: the exit statuses of every lab program (exit_status.hpp).
std::string exit_status_help();

struct Report;
// A report's header as far as every lab shares it (report.hpp): the lab, and the options of the
// run with the machine's core count.
Report report_of_run(int lab, const std::string& title, const RunOptions& options);

}  // namespace convlab

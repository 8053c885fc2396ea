// convlab harness — do not edit in a lab.
// The one skeleton of a lab's run, whatever its family. A run is in one of four modes, which its
// options choose:
//   --compare FILE   the grader's trusted check of results another process wrote; no variant runs
//   --timed-by FD    the grader's timer runs this program's variants on its own buffers (peer_worker.hpp)
//   --timer-of FD    this program is that timer: it times another process's variants (peer_timer.hpp)
//   otherwise        the variants run and are checked, or, graded (--raw-out), only written
// FamilyRun::run() owns what every mode shares: the header first (after the GPU, for a lab whose
// header needs it), the choice of mode, the GPU probe, peer timing's refusal without a GPU, the
// report printed, the line for a GPU part that did not run, and the exit status. A family
// (families/filters/filter_run.cpp for the image filters, families/pipelines/, families/strips/,
// families/arrays/) says only what each mode does with its own variants.
#pragma once
#include <optional>
#include <string>

#include "common/cli/run_options.hpp"
#include "common/report/report.hpp"

namespace convlab {

class OutputFolder;

class PeerLink;

class FamilyRun {
  public:
    virtual ~FamilyRun() = default;
    // The whole run, from the report's header to the exit status (exit_status.hpp).
    int run(const std::string& source);

  protected:
    FamilyRun(int lab, const RunOptions& options) : lab_(lab), run_options_(options) {}

    // The report's header (input, masks, the check's rules) into report_. Every mode has one.
    virtual void fill_header(const std::string& source) = 0;
    // A mode of the family's own, tried before the shared ones (the pipelines' --write-stage-
    // inputs): its exit status, or nothing when it is not this run's mode.
    virtual std::optional<int> run_own_mode() { return std::nullopt; }
    // --compare: rows for the results in options' compare file or folder; prints and returns as
    // finish_compare (raw_check.hpp) does.
    virtual int compare_raw_results() = 0;
    // --timed-by: serve the grader's timer until it hangs up (serve_peer_timer); its exit status.
    virtual int serve_timer(PeerLink& link) = 0;
    // --timer-of: a row for each selected variant, timed in the other process.
    virtual void time_peer(PeerLink& link) = 0;
    // Otherwise: a row for each selected variant. `gpu_reason` is empty when the GPU can be used,
    // else why not (report_.gpu_skipped holds it too): the GPU variants' rows are then skips.
    virtual void run_variants(const std::string& gpu_reason) = 0;

    // Whether the header itself needs the GPU (the array lab's: the device sets its arrays' length):
    // the GPU is then looked for first, and without one no mode runs: no_gpu_line on stderr, and
    // kExitNoGpu. Otherwise the GPU is looked for after the header, by the modes that run variants.
    virtual bool needs_gpu_before_header() const { return false; }
    // That lab's one line (with its newline) when there is no GPU; by default gpu_skipped_line's.
    virtual std::string no_gpu_line(const std::string& reason) const;
    // Empty when the lab's GPU variants can run; else why not. gpu_unavailable_reason()'s (CUDA)
    // unless the lab's variants run on another back end (DeviceBackend, runner/lab.hpp).
    virtual std::string gpu_unavailable() const;
    // Whether the lab has GPU variants at all (lab 0 has none: no GPU is looked for).
    virtual bool has_gpu_part() const { return true; }
    // Whether this run selected any GPU variant: only then is a missing GPU a skip.
    virtual bool gpu_variants_selected() const { return true; }
    // Whether a CPU part ran when the GPU part could not (said in the skipped line).
    virtual bool cpu_part_runs() const { return true; }
    // The figures derived from the rows' times, before the report is printed (timed and peer runs).
    virtual void add_figures() { derive_figures(report_); }
    // The report on stdout, after the figures (timed and peer runs).
    virtual void print_report();
    // The exit status for the rows (exit_status.hpp): run_exit_status's, unless the family has its own.
    virtual int exit_status(bool cuda_failed, bool gpu_skipped) const;
    // --out: pictures of the run, after the report.
    virtual void save_outputs() {}
    // The --out folder, where the run's report goes too as report.json (make report and the
    // contact sheet read it); null where the family writes none.
    virtual const OutputFolder* output_folder() const { return nullptr; }

    // In a catch (...) around a variant's part: what a variant may throw (not implemented yet, refused
    // for this mask or GPU, a call of the kit's reference, which a graded build holds none of) ends
    // row r, saying so, `student_files` named beside a TODO; anything else goes on up.
    static void record_thrown(VariantResult& r, const std::string& student_files);

    const int lab_;
    Report report_;
    bool cuda_failed_ = false;  // a CUDA error ended the GPU part: the exit status says so first

  private:
    int run_peer(const std::string& gpu_reason);
    const RunOptions& run_options_;
};

}  // namespace convlab

// convlab harness — do not edit in a lab.
#include "common/runner/family_run.hpp"

#include <iostream>

#include "common/core/errors.hpp"
#include "common/core/exit_status.hpp"
#include "common/device/gpu_session.hpp"
#include "common/grading/peer_link.hpp"
#include "common/report/output_folder.hpp"
#include "common/timing/cpu_work.hpp"

namespace convlab {

int FamilyRun::run(const std::string& source) {
    const bool gpu_first = needs_gpu_before_header();
    if (gpu_first) {
        const std::string reason = gpu_unavailable();
        if (!reason.empty()) {
            std::cerr << no_gpu_line(reason);
            return kExitNoGpu;
        }
    }
    fill_header(source);
    if (const std::optional<int> status = run_own_mode()) return *status;
    if (!run_options_.compare_file.empty()) return compare_raw_results();
    const std::string reason = has_gpu_part() && !gpu_first ? gpu_unavailable() : "";  // gpu_first: found already
    report_.gpu_skipped = reason;
    if (run_options_.timed_by >= 0 || run_options_.timer_of >= 0) return run_peer(reason);
    run_variants(reason);
    add_figures();
    report_.process_cpu_ms = process_cpu_ms();
    print_report();
    const bool gpu_skipped = !reason.empty() && gpu_variants_selected();
    if (gpu_skipped) std::cerr << gpu_skipped_line(lab_, reason, cpu_part_runs());
    save_outputs();
    if (const OutputFolder* out = output_folder(); out && out->enabled() && !run_options_.graded())
        out->save_text("report.json", render(report_, Format::Json));
    return exit_status(cuda_failed_, gpu_skipped);
}

std::string FamilyRun::gpu_unavailable() const { return gpu_unavailable_reason(); }

std::string FamilyRun::no_gpu_line(const std::string& reason) const { return gpu_skipped_line(lab_, reason, false); }

void FamilyRun::print_report() { std::cout << render(report_, run_options_.format) << std::flush; }

int FamilyRun::exit_status(bool cuda_failed, bool gpu_skipped) const { return run_exit_status(report_, cuda_failed, gpu_skipped); }

// Peer timing needs the GPU on both sides: without one it is refused, not skipped.
int FamilyRun::run_peer(const std::string& gpu_reason) {
    if (!gpu_reason.empty()) {
        std::cerr << "lab" << lab_ << ": peer timing needs a GPU: " << gpu_reason << "\n";
        return kExitNoGpu;
    }
    if (run_options_.timed_by >= 0) {
        PeerLink link(run_options_.timed_by);
        return serve_timer(link);
    }
    PeerLink link(run_options_.timer_of);
    time_peer(link);
    add_figures();
    print_report();
    return exit_status(false, false);
}

void FamilyRun::record_thrown(VariantResult& r, const std::string& student_files) {
    try {
        throw;
    } catch (const NotImplemented& e) {
        r.status = "not-implemented";
        r.message = std::string(e.what()) + " (" + student_files + ")";
    } catch (const Unsupported& e) {  // e.g. a separable variant given a mask of rank 2
        r.status = "skipped";
        r.message = std::string("skipped: ") + e.what();
    } catch (const ReferenceWithheld& e) {  // the variant called the kit's reference: it alone fails
        r.status = "error";
        r.message = e.what();
    }
}

}  // namespace convlab

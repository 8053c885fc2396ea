// convlab harness — do not edit in a lab.
// OpenCL, a device back end of the image filters (runner/lab.hpp's DeviceBackend): a lab whose
// GPU variants are OpenCL kernels runs them through the same LabRun as a CUDA lab (the output
// poisoned, the same check and tolerance, warm-ups, a median of timed runs, the result checked
// again after timing, the same report), on any OpenCL device: a GPU's driver, or PoCL on the CPU
// of a machine with no GPU at all (make test runs them there).
//
//   the lab's driver     ClBackend::for_lab(spec) adds --cl-list and --cl-device to its options;
//                        backend->variant(...) is a GpuVariant whose launch is a kernel of a .cl file
//   the student          writes the kernels, in a .cl file (the manifest's student file); the host
//                        side is the kit's: this file
//   the build            records where each .cl file is (the Makefile's rule for build/obj/%.o
//                        from %.cl: a ClSourceRegistration); the program reads it at run time, so
//                        an edit of the .cl needs no rebuild (CONVLAB_CL_DIR=DIR: read DIR/<name>);
//                        the graded build holds the .cl's text itself and reads nothing else
//   the run              ClSession (an ImageDevice) on the chosen device: one context, one in-order
//                        queue with profiling; each .cl file built once, at its first launch; a build
//                        that fails is one line, the compiler's first error with file and line,
//                        on stderr and in each of the file's rows (status error)
//
// Every kernel has one signature, the kit's host side sets its arguments in this order:
//   kernel void NAME(global const uchar* in, global float* out, SPACE const float* mask,
//                    int width, int height, int channels, int k, int border)
// SPACE is global or constant, the kernel's choice (the host passes the same buffer). The image
// is interleaved and row-major as ConvArgs says; border is Border's value (0 zero, 1 clamp,
// 2 wrap, 3 mirror), and every .cl file is compiled with the kit's border_index() in front of it.
// A kernel with local memory sized at run time (ClKernel::local_bytes) takes a ninth argument,
// `local float* tile`: OpenCL's dynamic shared memory, sized by the host at every launch.
#pragma once
#include <functional>
#include <memory>
#include <string>

#include "common/runner/lab.hpp"

namespace convlab {

// How the work-items of a launch cover the image. The global size is rounded up to whole
// work-groups: a kernel skips the work-items outside the image.
struct ClNdRange {
    int dims = 2;         // 2: one work-item a pixel, x and y; 1: one a pixel in row-major order
    size_t local_x = 16;  // the work-group's shape
    size_t local_y = 16;  // 1 for a 1-D range
    // No shape given (local_work_size NULL): the driver chooses, over a global range of exactly
    // the image, and the run's notes say what it chose (local_x and local_y are not used).
    bool driver_chooses = false;
};

// A kernel of one of the lab's .cl files, as the kit launches it.
struct ClKernel {
    std::string file;  // the .cl file's name, as the manifest's student list has it
    std::string name;  // the kernel function
    ClNdRange range;
    // The bytes of the kernel's ninth argument, `local float* tile`, for a launch's arguments (its
    // mask size and channels); empty: the kernel takes eight. More than the device's local memory
    // is a skipped row that names the limit.
    std::function<size_t(const ConvArgs&)> local_bytes;
};

class ClSession;

class ClBackend : public DeviceBackend, public std::enable_shared_from_this<ClBackend> {
  public:
    // The back end of spec's GPU variants: spec.device, and --cl-list and --cl-device in its
    // options ("Lab" group).
    static std::shared_ptr<ClBackend> for_lab(LabSpec& spec);

    // A GPU variant that launches `kernel` over the harness's buffers.
    GpuVariant variant(const std::string& name, const std::string& description, const ClKernel& kernel, WorkModel model = {}) const;

    std::string api() const override { return "OpenCL"; }
    std::string unavailable_reason(const Options& options) const override;
    std::unique_ptr<ImageDevice> open(const Options& options) const override;
    std::optional<int> run_own_mode(const Options& options) const override;

    // The session open() returned registers itself here while it lives.
    void attach(ClSession* session) const { session_ = session; }
    void detach(ClSession* session) const {
        if (session_ == session) session_ = nullptr;
    }

  private:
    explicit ClBackend(int lab) : lab_(lab) {}
    const int lab_;
    mutable ClSession* session_ = nullptr;  // the open device, which variants' launches use
};

// Where a .cl file's source is: one of these for each .cl file a program links, written by the
// build (common/tools/cl-source.sh). `shown` is the path relative to the kit, which messages and
// the compiler's diagnostics use. The student's and the solution's builds give `path`, the absolute
// one the program reads at run time; the graded build gives `text`, the file's own bytes, so that
// it runs the file it was built from and reads no other.
struct ClSourceRegistration {
    ClSourceRegistration(const char* name, const char* shown, const char* path, const char* text = nullptr);
};

}  // namespace convlab

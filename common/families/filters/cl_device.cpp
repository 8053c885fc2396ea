// convlab harness — do not edit in a lab.
// The OpenCL back end (cl_device.hpp) through the OpenCL C API (1.2, which every current driver
// and PoCL have), linked by the labs whose manifest's libraries name OpenCL.
#define CL_TARGET_OPENCL_VERSION 120
#include "common/families/filters/cl_device.hpp"

#include <CL/cl.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <vector>

#include "common/cli/options.hpp"
#include "common/core/errors.hpp"
#include "common/core/exit_status.hpp"
#include "common/core/number_format.hpp"
#include "common/core/synthetic.hpp"
#include "common/families/filters/context_health.hpp"
#include "common/device/image_device.hpp"
#include "common/families/filters/cl_build_log.hpp"
#include "common/families/filters/cl_handles.hpp"
#include "common/families/filters/cl_source_rules.hpp"
#include "common/families/filters/cl_vendors.hpp"

namespace convlab {

namespace {

struct ClError : DeviceError {
    using DeviceError::DeviceError;
};

const char* cl_error_name(cl_int status) {
    switch (status) {
        case CL_DEVICE_NOT_FOUND: return "CL_DEVICE_NOT_FOUND";
        case CL_DEVICE_NOT_AVAILABLE: return "CL_DEVICE_NOT_AVAILABLE";
        case CL_MEM_OBJECT_ALLOCATION_FAILURE: return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
        case CL_OUT_OF_RESOURCES: return "CL_OUT_OF_RESOURCES";
        case CL_OUT_OF_HOST_MEMORY: return "CL_OUT_OF_HOST_MEMORY";
        case CL_BUILD_PROGRAM_FAILURE: return "CL_BUILD_PROGRAM_FAILURE";
        case CL_INVALID_VALUE: return "CL_INVALID_VALUE";
        case CL_INVALID_DEVICE: return "CL_INVALID_DEVICE";
        case CL_INVALID_MEM_OBJECT: return "CL_INVALID_MEM_OBJECT";
        case CL_INVALID_PROGRAM_EXECUTABLE: return "CL_INVALID_PROGRAM_EXECUTABLE";
        case CL_INVALID_KERNEL_NAME: return "CL_INVALID_KERNEL_NAME";
        case CL_INVALID_KERNEL_ARGS: return "CL_INVALID_KERNEL_ARGS";
        case CL_INVALID_ARG_INDEX: return "CL_INVALID_ARG_INDEX";
        case CL_INVALID_ARG_SIZE: return "CL_INVALID_ARG_SIZE";
        case CL_INVALID_WORK_GROUP_SIZE: return "CL_INVALID_WORK_GROUP_SIZE";
        case CL_INVALID_WORK_ITEM_SIZE: return "CL_INVALID_WORK_ITEM_SIZE";
        case CL_INVALID_GLOBAL_WORK_SIZE: return "CL_INVALID_GLOBAL_WORK_SIZE";
        case CL_INVALID_BUFFER_SIZE: return "CL_INVALID_BUFFER_SIZE";
        case CL_INVALID_OPERATION: return "CL_INVALID_OPERATION";
        case CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST: return "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST";
        case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
        default: return "an OpenCL error";
    }
}

void cl_check(cl_int status, const char* call, const char* file, int line) {
    if (status == CL_SUCCESS) return;
    throw ClError(std::string("OpenCL error: ") + call + " returned " + cl_error_name(status) + " (" + std::to_string(status) +
                  ") at " + file + ":" + std::to_string(line));
}
#define CL_CHECK(call) cl_check((call), #call, __FILE__, __LINE__)

// What the kit puts in front of every .cl file: border_index(), the one definition of the border
// modes (common/core/border.hpp), in OpenCL C.
constexpr const char* kPrelude = R"CL(
#define BORDER_ZERO 0
#define BORDER_CLAMP 1
#define BORDER_WRAP 2
#define BORDER_MIRROR 3
// Maps coordinate i to the coordinate it reads, or -1 when it reads zero (common/core/border.hpp).
inline int border_index(int i, int n, int border) {
    if (i >= 0 && i < n) return i;
    if (border == BORDER_CLAMP) return i < 0 ? 0 : n - 1;
    if (border == BORDER_WRAP) { const int m = i % n; return m < 0 ? m + n : m; }
    if (border == BORDER_MIRROR) {
        if (n == 1) return 0;
        const int period = 2 * n - 2;
        int m = i % period;
        if (m < 0) m += period;
        return m < n ? m : period - m;
    }
    return -1;
}
)CL";

// The kit's own kernels: reading a buffer twice the cache's size before each timed run (whatever
// the kernel left in the caches is evicted, and nothing dirty is charged to it).
constexpr const char* kKitProgram = R"CL(
kernel void convlab_evict(global const uint4* data, ulong count, global uint* sink) {
    uint folded = 0;
    for (ulong n = get_global_id(0); n < count; n += get_global_size(0)) {
        const uint4 v = data[n];
        folded ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (folded == 0x9E3779B9u) *sink = folded;
}
// The work-group shape a launch got: launched with no shape given, it says what the driver chose.
kernel void convlab_local_size(global uint* shape) {
    if (get_global_id(0) == 0 && get_global_id(1) == 0) {
        shape[0] = (uint)get_local_size(0);
        shape[1] = (uint)get_local_size(1);
    }
}
)CL";

// Runs fn with this process's stderr on /dev/null: PoCL's compiler writes "N errors generated." there
// besides the build log, which the kit reads and turns into its one line.
template <class Fn>
auto quietly(Fn fn) {
    std::fflush(stderr);
    const int saved = ::dup(2), null = ::open("/dev/null", O_WRONLY);
    if (saved >= 0 && null >= 0) ::dup2(null, 2);
    auto result = fn();
    std::fflush(stderr);
    if (saved >= 0 && null >= 0) ::dup2(saved, 2);
    if (saved >= 0) ::close(saved);
    if (null >= 0) ::close(null);
    return result;
}

struct ClSource {
    std::string shown;
    std::string path;        // read at run time, or
    const char* text = nullptr;  // the text the graded build holds
};

std::map<std::string, ClSource>& registered_sources() {
    static std::map<std::string, ClSource> files;  // by the .cl file's name
    return files;
}

template <class T>
T device_value(cl_device_id device, cl_device_info what) {
    T value{};
    CL_CHECK(clGetDeviceInfo(device, what, sizeof(T), &value, nullptr));
    return value;
}

// A string the OpenCL API gives in two calls (its size, then its text), for a device or a platform.
template <class Handle, class Info>
std::string info_text(cl_int (*get)(Handle, Info, size_t, void*, size_t*), Handle handle, Info what) {
    size_t size = 0;
    CL_CHECK(get(handle, what, 0, nullptr, &size));
    std::string text(size, '\0');
    CL_CHECK(get(handle, what, size, text.data(), nullptr));
    return text.c_str();
}

std::string device_text(cl_device_id device, cl_device_info what) { return info_text(clGetDeviceInfo, device, what); }

std::string platform_text(cl_platform_id platform, cl_platform_info what) { return info_text(clGetPlatformInfo, platform, what); }

struct ClDevice {
    cl_platform_id platform;
    cl_device_id device;
    std::string platform_name, name;
    bool gpu;
};

// The libraries registered for this process (cl_vendors.hpp), once, before the loader's first list.
const std::vector<std::string>& registered_libraries() {
    static const std::vector<std::string> added = register_unlisted_opencl();
    return added;
}

// Every device of every platform, in the loader's order; empty with the reason when none.
std::vector<ClDevice> all_devices(std::string* why_none) {
    registered_libraries();
    cl_uint count = 0;
    const cl_int status = clGetPlatformIDs(0, nullptr, &count);
    if (status == -1001 /* CL_PLATFORM_NOT_FOUND_KHR */ || (status == CL_SUCCESS && count == 0)) {
        *why_none = "no OpenCL platform found (the ICD loader found no vendor file in /etc/OpenCL/vendors, or in OCL_ICD_VENDORS)";
        return {};
    }
    if (status != CL_SUCCESS) {
        *why_none = std::string("the OpenCL ICD loader cannot list platforms (") + cl_error_name(status) + ")";
        return {};
    }
    std::vector<cl_platform_id> platforms(count);
    CL_CHECK(clGetPlatformIDs(count, platforms.data(), nullptr));
    std::vector<ClDevice> found;
    for (cl_platform_id p : platforms) {
        cl_uint n = 0;
        if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &n) != CL_SUCCESS || n == 0) continue;
        std::vector<cl_device_id> devices(n);
        CL_CHECK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, n, devices.data(), nullptr));
        for (cl_device_id d : devices)
            found.push_back({p, d, platform_text(p, CL_PLATFORM_NAME), device_text(d, CL_DEVICE_NAME),
                             (device_value<cl_device_type>(d, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_GPU) != 0});
    }
    if (found.empty()) *why_none = "no OpenCL device found (" + std::to_string(count) + " platform(s), none with a device)";
    return found;
}

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return text;
}

// --cl-device: an index of --cl-list, or a part of a device's or its platform's name; by default
// the first GPU, else the first device. InputError when nothing matches.
const ClDevice& choose(const std::vector<ClDevice>& devices, const std::string& wanted) {
    if (wanted.empty()) {
        const auto gpu = std::find_if(devices.begin(), devices.end(), [](const ClDevice& d) { return d.gpu; });
        return gpu != devices.end() ? *gpu : devices.front();
    }
    if (std::all_of(wanted.begin(), wanted.end(), [](unsigned char c) { return std::isdigit(c); })) {
        const size_t index = std::stoul(wanted);
        if (index < devices.size()) return devices[index];
    } else {
        for (const ClDevice& d : devices)
            if (lower(d.platform_name + " " + d.name).find(lower(wanted)) != std::string::npos) return d;
    }
    std::string names;
    for (size_t n = 0; n < devices.size(); ++n) names += (n ? ", " : "") + std::to_string(n) + " (" + devices[n].name + ")";
    throw InputError("--cl-device '" + wanted + "' names no OpenCL device; accepted: an index or a part of a name of " + names +
                     " (--cl-list)");
}

std::string wanted_device(const Options& options) {
    const auto found = options.lab_values.find("cl-device");
    return found == options.lab_values.end() ? "" : found->second;
}

// How many lines come before a student's file in the text built with the prelude: the
// prelude's, and the #line that follows it (build below).
int prelude_lines() {
    return int(std::count(kPrelude, kPrelude + std::strlen(kPrelude), '\n')) + 1;
}

}  // namespace

ClSourceRegistration::ClSourceRegistration(const char* name, const char* shown, const char* path, const char* text) {
    registered_sources()[name] = ClSource{shown, path ? path : "", text};
}

// ---- the session: one device, its buffers and its queue ----------------------------------------

class ClSession : public ImageDevice {
  public:
    ClSession(const ClBackend& backend, const ClDevice& chosen, int lab, bool measure_copy)
        : backend_(backend), lab_(lab), device_(chosen.device) {
        info_.api = "OpenCL";
        info_.name = chosen.name;
        info_.platform = chosen.platform_name + " (" + platform_text(chosen.platform, CL_PLATFORM_VERSION) + ")";
        const cl_device_type type = device_value<cl_device_type>(device_, CL_DEVICE_TYPE);
        info_.type = type & CL_DEVICE_TYPE_GPU ? "GPU" : type & CL_DEVICE_TYPE_CPU ? "CPU" : "accelerator";
        info_.device_version = device_text(device_, CL_DEVICE_VERSION);
        info_.driver_release = device_text(device_, CL_DRIVER_VERSION);
        info_.multiprocessors = int(device_value<cl_uint>(device_, CL_DEVICE_MAX_COMPUTE_UNITS));
        info_.sm_clock_mhz = device_value<cl_uint>(device_, CL_DEVICE_MAX_CLOCK_FREQUENCY);
        info_.memory_bytes = device_value<cl_ulong>(device_, CL_DEVICE_GLOBAL_MEM_SIZE);
        info_.l2_bytes = device_value<cl_ulong>(device_, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE);
        cl_int status = CL_SUCCESS;
        context_ = ClContext(clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &status));
        CL_CHECK(status);
        queue_ = ClQueue(clCreateCommandQueue(context_.get(), device_, CL_QUEUE_PROFILING_ENABLE, &status));
        CL_CHECK(status);
        kit_program_ = build(kKitProgram, "the kit's own kernels", false);
        evict_ = ClKernelHandle(clCreateKernel(kit_program_.get(), "convlab_evict", &status));
        CL_CHECK(status);
        const size_t flush_bytes = std::max<size_t>(2 * info_.l2_bytes, size_t(8) << 20) & ~size_t(15);
        flush_ = buffer(CL_MEM_READ_ONLY, flush_bytes);
        flush_sink_ = buffer(CL_MEM_WRITE_ONLY, sizeof(cl_uint));
        const cl_uchar fill = 0x5A;
        CL_CHECK(clEnqueueFillBuffer(queue_.get(), flush_.get(), &fill, 1, 0, flush_bytes, 0, nullptr, nullptr));
        if (measure_copy) copy_gbs_ = measure_copy_bandwidth();
        backend_.attach(this);
    }

    // The members release their handles (cl_handles.hpp), the context last, once the queue is idle.
    ~ClSession() override {
        backend_.detach(this);
        if (queue_) clFinish(queue_.get());
    }

    const DeviceInfo& info() const override { return info_; }
    double copy_bandwidth_gbs() const override { return copy_gbs_; }
    const ConvArgs& args() const override { return args_; }
    bool healthy() const override { return health_.healthy(); }

    void load_image(const Image& image, Border border, int max_mask_size, size_t extra_bytes, bool intermediate) override {
        if (intermediate) throw InputError("the OpenCL back end has no float intermediate (LabSpec::float_intermediate)");
        const size_t n = image.elements();
        const size_t mask_bytes = size_t(max_mask_size) * max_mask_size * sizeof(float);
        const size_t needed = n * (1 + sizeof(float)) + mask_bytes + extra_bytes;
        const size_t largest = device_value<cl_ulong>(device_, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
        if (needed > info_.memory_bytes || n * sizeof(float) > largest)
            throw InputError("the " + std::to_string(image.width) + "x" + std::to_string(image.height) + "x" +
                             std::to_string(image.channels) + " image needs " + format_gib(needed) + " of OpenCL device memory (" +
                             format_gib(n * sizeof(float)) + " in one buffer); the device has " + format_gib(info_.memory_bytes) +
                             " (" + format_gib(largest) + " in one buffer); accepted: a smaller --size or --tile-to");
        guarded([&] {
            in_ = buffer(CL_MEM_READ_ONLY, n);
            out_ = buffer(CL_MEM_READ_WRITE, n * sizeof(float));
            mask_ = buffer(CL_MEM_READ_ONLY, mask_bytes);
            CL_CHECK(clEnqueueWriteBuffer(queue_.get(), in_.get(), CL_TRUE, 0, n, image.pixels.data(), 0, nullptr, nullptr));
        });
        elements_ = n;
        args_ = ConvArgs{nullptr, nullptr, nullptr, image.width, image.height, image.channels, 0, border};
    }

    void load_mask(const Mask& mask) override {
        guarded([&] {
            CL_CHECK(clEnqueueWriteBuffer(queue_.get(), mask_.get(), CL_TRUE, 0, mask.weights.size() * sizeof(float), mask.weights.data(), 0,
                                          nullptr, nullptr));
        });
        args_.k = mask.k;
    }

    void load_random_input(uint64_t seed) override {
        const Image random = make_random_image(args_.width, args_.height, args_.channels, seed);
        guarded([&] { CL_CHECK(clEnqueueWriteBuffer(queue_.get(), in_.get(), CL_TRUE, 0, elements_, random.pixels.data(), 0, nullptr, nullptr)); });
    }

    void poison_output() override {
        const cl_uint nan_bits = 0xFFFFFFFFu;  // all bits set: a NaN
        guarded([&] {
            CL_CHECK(clEnqueueFillBuffer(queue_.get(), out_.get(), &nan_bits, sizeof(nan_bits), 0, elements_ * sizeof(float), 0, nullptr, nullptr));
            CL_CHECK(clFinish(queue_.get()));
        });
    }

    void fetch_output(float* h_out) const override {
        guarded([&] { CL_CHECK(clEnqueueReadBuffer(queue_.get(), out_.get(), CL_TRUE, 0, elements_ * sizeof(float), h_out, 0, nullptr, nullptr)); });
    }

    void sample_output(const std::vector<size_t>& positions, float* values) override {
        guarded([&] {
            for (size_t n = 0; n < positions.size(); ++n)
                CL_CHECK(clEnqueueReadBuffer(queue_.get(), out_.get(), CL_FALSE, positions[n] * sizeof(float), sizeof(float), values + n, 0,
                                             nullptr, nullptr));
            CL_CHECK(clFinish(queue_.get()));
        });
    }

    void run(const std::function<void()>& fn) override {
        guarded([&] {
            fn();
            CL_CHECK(clFinish(queue_.get()));
            release_events();
        });
    }

    // The kit enqueues every kernel itself (launch below): its count is exact.
    int run_counting_launches(const std::function<void()>& fn) override {
        const int before = launches_;
        run(fn);
        return launches_ - before;
    }
    std::string uncounted_launches(const std::string& who) const override {
        return "the kernels " + who + " launched could not be counted";
    }

    // Profiling events of the kernels each run enqueued: from the first one's start to the last
    // one's end. The kit enqueues every kernel on its one in-order queue, so none escapes them.
    TimingStats time(const std::function<void()>& fn, const TimingPlan& plan, bool poison_each_rep,
                     const std::function<void(int)>& before_rep, const std::function<void(int)>& after_rep) override {
        std::vector<double> samples;
        guarded([&] {
            for (int rep = 0; rep < plan.warmup + plan.reps; ++rep) {
                if (before_rep) before_rep(rep);
                if (poison_each_rep) poison_output();
                if (plan.flush_l2) flush_caches();
                CL_CHECK(clFinish(queue_.get()));
                release_events();
                fn();
                CL_CHECK(clFinish(queue_.get()));
                const double ms = events_ms();
                release_events();
                if (after_rep) after_rep(rep);
                if (rep >= plan.warmup) samples.push_back(ms);
            }
        });
        return summarize(samples);
    }

    // One launch of a kernel of the lab's .cl files over the session's buffers, for `variant`.
    void launch(const ClKernel& k, const ConvArgs& a, const std::string& variant) {
        cl_kernel kernel = kernel_of(k);
        const cl_int w = a.width, h = a.height, c = a.channels, size = a.k, border = int(a.border);
        CL_CHECK(clSetKernelArg(kernel, 0, sizeof(cl_mem), in_.address()));
        CL_CHECK(clSetKernelArg(kernel, 1, sizeof(cl_mem), out_.address()));
        CL_CHECK(clSetKernelArg(kernel, 2, sizeof(cl_mem), mask_.address()));
        CL_CHECK(clSetKernelArg(kernel, 3, sizeof(cl_int), &w));
        CL_CHECK(clSetKernelArg(kernel, 4, sizeof(cl_int), &h));
        CL_CHECK(clSetKernelArg(kernel, 5, sizeof(cl_int), &c));
        CL_CHECK(clSetKernelArg(kernel, 6, sizeof(cl_int), &size));
        CL_CHECK(clSetKernelArg(kernel, 7, sizeof(cl_int), &border));
        if (k.local_bytes) set_local_memory(k, kernel, a);
        const auto round_up = [](size_t n, size_t m) { return (n + m - 1) / m * m; };
        const ClNdRange& r = k.range;
        if (r.driver_chooses) {
            launch_with_driver_shape(k, kernel, a, variant);
            return;
        }
        if (fitting_.insert(k.file + ":" + k.name).second) {  // once a kernel: its limits do not change
            try {
                refuse_oversized_work_group(k, kernel);
            } catch (...) {
                fitting_.erase(k.file + ":" + k.name);
                throw;
            }
        }
        size_t global[2], local[2] = {r.local_x, r.local_y};
        if (r.dims == 2) {
            global[0] = round_up(size_t(w), r.local_x);
            global[1] = round_up(size_t(h), r.local_y);
        } else {
            global[0] = round_up(size_t(w) * size_t(h), r.local_x);
        }
        cl_event event = nullptr;
        CL_CHECK(clEnqueueNDRangeKernel(queue_.get(), kernel, cl_uint(r.dims), nullptr, global, local, 0, nullptr, &event));
        events_.emplace_back(event);
        ++launches_;
    }

    // What the driver chose for each launch given no work-group shape, a line each.
    std::vector<std::string> notes() const override {
        std::vector<std::string> lines;
        for (const auto& [variant, shapes] : driver_shapes_) {
            std::string listed;
            for (const std::string& shape : shapes) listed += (listed.empty() ? "" : ", ") + shape;
            lines.push_back(variant + ": given no work-group size (local_work_size NULL), " + info_.name + "'s driver ran " + listed +
                            " work-groups (the kit's probe kernel, launched the same way over the same range)");
        }
        return lines;
    }

  private:
    // A launch with no work-group shape: the global range is the image itself. Once for each
    // range, before the kernel, the kit's probe kernel is launched the same way to learn the
    // shape the driver picks (OpenCL does not say); its event is not the kernel's, so no timing
    // counts it.
    void launch_with_driver_shape(const ClKernel& k, cl_kernel kernel, const ConvArgs& a, const std::string& variant) {
        const cl_uint dims = cl_uint(k.range.dims);
        const size_t global[2] = {dims == 2 ? size_t(a.width) : size_t(a.width) * size_t(a.height), size_t(a.height)};
        const std::string range = std::to_string(global[0]) + (dims == 2 ? "x" + std::to_string(global[1]) : "");
        if (probed_.insert(variant + "@" + range).second) driver_shapes_[variant].insert(probe_local_size(dims, global));
        cl_event event = nullptr;
        CL_CHECK(clEnqueueNDRangeKernel(queue_.get(), kernel, dims, nullptr, global, nullptr, 0, nullptr, &event));
        events_.emplace_back(event);
        ++launches_;
    }

    std::string probe_local_size(cl_uint dims, const size_t* global) {
        cl_int status = CL_SUCCESS;
        if (!probe_) {
            probe_ = ClKernelHandle(clCreateKernel(kit_program_.get(), "convlab_local_size", &status));
            CL_CHECK(status);
            probe_shape_ = buffer(CL_MEM_WRITE_ONLY, 2 * sizeof(cl_uint));
        }
        CL_CHECK(clSetKernelArg(probe_.get(), 0, sizeof(cl_mem), probe_shape_.address()));
        CL_CHECK(clEnqueueNDRangeKernel(queue_.get(), probe_.get(), dims, nullptr, global, nullptr, 0, nullptr, nullptr));
        cl_uint shape[2] = {0, 0};
        CL_CHECK(clEnqueueReadBuffer(queue_.get(), probe_shape_.get(), CL_TRUE, 0, sizeof(shape), shape, 0, nullptr, nullptr));
        return dims == 2 ? std::to_string(shape[0]) + "x" + std::to_string(shape[1]) : std::to_string(shape[0]);
    }

    // Runs fn; after an OpenCL error in it, whether the queue still finishes work decides if the
    // context is lost (a kernel that faulted) or the call alone failed (a launch the API refused,
    // a .cl that did not build): lost, the runner skips the rest of the GPU part (healthy()).
    template <class Fn>
    void guarded(Fn&& fn) const {
        health_.guarded(fn, [&] { return clFinish(queue_.get()) == CL_SUCCESS; });
    }

    struct Program {
        ClProgram program;
        std::string error;  // the one line of a build that failed
    };

    ClMem buffer(cl_mem_flags flags, size_t bytes) {
        cl_int status = CL_SUCCESS;
        ClMem m(clCreateBuffer(context_.get(), flags, std::max<size_t>(bytes, 4), nullptr, &status));
        CL_CHECK(status);
        return m;
    }

    // Builds source; one that names another file is refused (cl_source_rules.hpp), a failure throws
    // ClError with the compiler's first error as one line.
    ClProgram build(const std::string& source, const std::string& shown, bool with_prelude) {
        const std::string refused = forbidden_directive(source, shown);
        if (!refused.empty()) throw ClError("error: " + refused);
        const std::string text = with_prelude ? std::string(kPrelude) + "#line 1 \"" + shown + "\"\n" + source : source;
        const char* texts[] = {text.c_str()};
        cl_int status = CL_SUCCESS;
        ClProgram program(clCreateProgramWithSource(context_.get(), 1, texts, nullptr, &status));
        CL_CHECK(status);
        status = quietly([&] { return clBuildProgram(program.get(), 1, &device_, "", nullptr, nullptr); });
        if (status == CL_SUCCESS) return program;
        size_t size = 0;
        clGetProgramBuildInfo(program.get(), device_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
        std::string log(size, '\0');
        clGetProgramBuildInfo(program.get(), device_, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
        if (status != CL_BUILD_PROGRAM_FAILURE) CL_CHECK(status);
        throw ClError(first_build_error(log.c_str(), shown, with_prelude ? prelude_lines() : 0));
    }

    // A .cl file's program, built at its first launch; a file that did not build says so, on
    // stderr once and in every row that launches one of its kernels.
    cl_program program_of(const std::string& file) {
        auto found = programs_.find(file);
        if (found == programs_.end()) {
            Program p;
            const auto where = registered_sources().find(file);
            if (where == registered_sources().end()) {
                p.error = "no .cl file '" + file + "' was built into this program (the manifest's student files are)";
            } else if (where->second.text) {  // the graded build: the file it was built from, and nothing else
                p = built(where->second.text, where->second.shown);
            } else {
                // CONVLAB_CL_DIR=DIR reads DIR/<name> instead (another copy of the file: a test's).
                const char* dir = std::getenv("CONVLAB_CL_DIR");
                const std::string path = dir && *dir ? std::string(dir) + "/" + file : where->second.path;
                const std::string shown = dir && *dir ? path : where->second.shown;
                std::ifstream in(path, std::ios::binary);
                std::stringstream text;
                text << in.rdbuf();
                if (!in) p.error = "cannot read " + shown + " (" + path + "): " + std::strerror(errno);
                else p = built(text.str(), shown);
            }
            if (!p.error.empty()) std::cerr << "lab" << lab_ << ": " << p.error << "\n";
            found = programs_.emplace(file, std::move(p)).first;
        }
        if (!found->second.error.empty()) throw ClError(found->second.error);
        return found->second.program.get();
    }

    // A .cl file's source built, or the one line that says why it did not build.
    Program built(const std::string& source, const std::string& shown) {
        Program p;
        try {
            p.program = build(source, shown, true);
            keep_binary(p.program.get(), shown);
        } catch (const ClError& e) {
            p.error = e.what();
        }
        return p;
    }

    // CONVLAB_CL_BINARY_DIR=DIR: what the driver's compiler made of a .cl file, written to
    // DIR/<file>.ptx where it is PTX (NVIDIA's driver: make sass LAB=11 turns it into SASS, to
    // set beside nvcc's), else DIR/<file>.bin. A file that cannot be written is one line on stderr.
    void keep_binary(cl_program program, const std::string& shown) const {
        const char* dir = std::getenv("CONVLAB_CL_BINARY_DIR");
        if (!dir || !*dir) return;
        size_t size = 0;
        CL_CHECK(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, nullptr));  // one device
        std::string binary(size, '\0');
        unsigned char* where = reinterpret_cast<unsigned char*>(binary.data());
        CL_CHECK(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof(where), &where, nullptr));
        std::string stem = shown.substr(shown.find_last_of('/') + 1);
        stem = stem.substr(0, stem.rfind(".cl"));
        const bool ptx = binary.find("\n.target ") != std::string::npos;
        const std::string path = std::string(dir) + "/" + stem + (ptx ? ".ptx" : ".bin");
        std::ofstream out(path, std::ios::binary);
        out << (ptx ? binary.c_str() : binary);  // PTX text ends at its terminating zero
        if (!out) std::cerr << "lab" << lab_ << ": cannot write " << path << " (CONVLAB_CL_BINARY_DIR): " << std::strerror(errno) << "\n";
    }

    // A work-group the device or this kernel cannot take is Unsupported (a skipped row, one line
    // that names the limit), not CL_INVALID_WORK_GROUP_SIZE or CL_INVALID_WORK_ITEM_SIZE out of
    // clEnqueueNDRangeKernel. CL_KERNEL_WORK_GROUP_SIZE may be below the device's maximum: a
    // kernel that needs many registers a work-item gets fewer work-items (NVIDIA's driver).
    void refuse_oversized_work_group(const ClKernel& k, cl_kernel kernel) const {
        const ClNdRange& r = k.range;
        const std::string shape = r.dims == 2 ? std::to_string(r.local_x) + "x" + std::to_string(r.local_y) : std::to_string(r.local_x);
        const cl_uint dims = device_value<cl_uint>(device_, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
        std::vector<size_t> widest(std::max<cl_uint>(dims, 2), 0);
        CL_CHECK(clGetDeviceInfo(device_, CL_DEVICE_MAX_WORK_ITEM_SIZES, dims * sizeof(size_t), widest.data(), nullptr));
        if (r.local_x > widest[0] || (r.dims == 2 && r.local_y > widest[1]))
            throw Unsupported(k.name + ": a work-group of " + shape + " is wider than " + info_.name + " takes (CL_DEVICE_MAX_WORK_ITEM_SIZES " +
                              std::to_string(widest[0]) + "x" + std::to_string(widest[1]) + ")");
        size_t most = 0;
        CL_CHECK(clGetKernelWorkGroupInfo(kernel, device_, CL_KERNEL_WORK_GROUP_SIZE, sizeof(most), &most, nullptr));
        const size_t items = r.local_x * (r.dims == 2 ? r.local_y : 1);
        if (items > most)
            throw Unsupported(k.name + ": a work-group of " + shape + " (" + std::to_string(items) + " work-items) is more than " +
                              info_.name + " runs this kernel with (CL_KERNEL_WORK_GROUP_SIZE " + std::to_string(most) + ")");
    }

    // The ninth argument of a kernel with local memory sized at run time: local_bytes(a) of it.
    // More than the device has (CL_KERNEL_LOCAL_MEM_SIZE counts it with what the kernel holds
    // there itself) is Unsupported, a skipped row, not CL_OUT_OF_RESOURCES out of the launch.
    void set_local_memory(const ClKernel& k, cl_kernel kernel, const ConvArgs& a) const {
        const size_t bytes = k.local_bytes(a);
        CL_CHECK(clSetKernelArg(kernel, 8, bytes, nullptr));
        cl_ulong used = 0;
        CL_CHECK(clGetKernelWorkGroupInfo(kernel, device_, CL_KERNEL_LOCAL_MEM_SIZE, sizeof(used), &used, nullptr));
        const cl_ulong most = device_value<cl_ulong>(device_, CL_DEVICE_LOCAL_MEM_SIZE);
        if (used > most)
            throw Unsupported(k.name + ": k = " + std::to_string(a.k) + " with " + std::to_string(a.channels) + " channel(s) needs " +
                              std::to_string(bytes) + " bytes of local memory for its tile, " + std::to_string(used) + " in all; " +
                              info_.name + " has " + std::to_string(most) + " (CL_DEVICE_LOCAL_MEM_SIZE)");
    }

    cl_kernel kernel_of(const ClKernel& k) {
        const std::string key = k.file + ":" + k.name;
        const auto found = kernels_.find(key);
        if (found != kernels_.end()) return found->second.get();
        cl_int status = CL_SUCCESS;
        ClKernelHandle kernel(clCreateKernel(program_of(k.file), k.name.c_str(), &status));
        if (status == CL_INVALID_KERNEL_NAME) throw ClError(registered_sources()[k.file].shown + " has no kernel " + k.name);
        CL_CHECK(status);
        return (kernels_[key] = std::move(kernel)).get();
    }

    void flush_caches() {
        size_t bytes = 0;
        CL_CHECK(clGetMemObjectInfo(flush_.get(), CL_MEM_SIZE, sizeof(bytes), &bytes, nullptr));
        const cl_ulong vectors = bytes / 16;
        CL_CHECK(clSetKernelArg(evict_.get(), 0, sizeof(cl_mem), flush_.address()));
        CL_CHECK(clSetKernelArg(evict_.get(), 1, sizeof(cl_ulong), &vectors));
        CL_CHECK(clSetKernelArg(evict_.get(), 2, sizeof(cl_mem), flush_sink_.address()));
        const size_t global = size_t(std::max(1, info_.multiprocessors)) * 256, local = 64;
        CL_CHECK(clEnqueueNDRangeKernel(queue_.get(), evict_.get(), 1, nullptr, &global, &local, 0, nullptr, nullptr));
    }

    double events_ms() const {
        if (events_.empty()) return 0;
        cl_ulong start = ~cl_ulong(0), end = 0;
        for (const ClEvent& e : events_) {
            cl_ulong s = 0, t = 0;
            CL_CHECK(clGetEventProfilingInfo(e.get(), CL_PROFILING_COMMAND_START, sizeof(s), &s, nullptr));
            CL_CHECK(clGetEventProfilingInfo(e.get(), CL_PROFILING_COMMAND_END, sizeof(t), &t, nullptr));
            start = std::min(start, s);
            end = std::max(end, t);
        }
        return double(end - start) * 1e-6;
    }

    void release_events() { events_.clear(); }

    // CUDA's basis (CopyBandwidthBasis), so that % copy compares the two APIs on one GPU. OpenCL
    // has no query of the memory free: the device's whole memory stands for it (on a GPU with
    // 4 GiB or more both give the 1 GiB cap), within the largest buffer the device allows.
    double measure_copy_bandwidth() {
        const size_t bytes = std::min<size_t>(CopyBandwidthBasis::bytes(info_.memory_bytes),
                                              device_value<cl_ulong>(device_, CL_DEVICE_MAX_MEM_ALLOC_SIZE) & ~size_t(255));
        const ClMem a = buffer(CL_MEM_READ_WRITE, bytes), b = buffer(CL_MEM_READ_WRITE, bytes);
        const cl_uchar one = 1;
        CL_CHECK(clEnqueueFillBuffer(queue_.get(), a.get(), &one, 1, 0, bytes, 0, nullptr, nullptr));
        std::vector<double> samples;
        for (int rep = 0; rep < CopyBandwidthBasis::kWarmup + CopyBandwidthBasis::kReps; ++rep) {
            cl_event e = nullptr;
            CL_CHECK(clEnqueueCopyBuffer(queue_.get(), a.get(), b.get(), 0, 0, bytes, 0, nullptr, &e));
            events_.emplace_back(e);
            CL_CHECK(clFinish(queue_.get()));
            if (rep >= CopyBandwidthBasis::kWarmup) samples.push_back(events_ms());
            release_events();
        }
        return 2.0 * double(bytes) / (summarize(samples).median_ms * 1e-3) * 1e-9;
    }

    const ClBackend& backend_;
    const int lab_;
    cl_device_id device_;
    DeviceInfo info_;
    double copy_gbs_ = 0;
    // Declared before what they hold, so that they are released after it.
    ClContext context_;
    ClQueue queue_;
    ClProgram kit_program_;
    ClKernelHandle evict_;
    ClMem in_, out_, mask_, flush_, flush_sink_;
    size_t elements_ = 0;
    ConvArgs args_{};
    std::map<std::string, Program> programs_;
    std::map<std::string, ClKernelHandle> kernels_;
    std::set<std::string> fitting_;  // the kernels whose work-group the device takes
    ClKernelHandle probe_;           // convlab_local_size, made at the first launch that needs it
    ClMem probe_shape_;
    std::set<std::string> probed_;   // variant@range pairs whose driver-chosen shape is known
    std::map<std::string, std::set<std::string>> driver_shapes_;  // variant -> the shapes the driver chose
    std::vector<ClEvent> events_;  // the kernels enqueued since the last wait
    int launches_ = 0;
    mutable ContextHealth health_;  // fetch_output is const, and an error there may end the context too
};

// ---- the back end ------------------------------------------------------------------------------

std::shared_ptr<ClBackend> ClBackend::for_lab(LabSpec& spec) {
    std::shared_ptr<ClBackend> backend(new ClBackend(spec.number));
    spec.device = backend;
    spec.lab_options.push_back({"cl-list", "list the OpenCL platforms and devices, and exit", "", true});
    spec.lab_options.push_back({"cl-device", "the OpenCL device: an index of --cl-list or a part of its name (default: the first "
                                             "GPU, else the first device)", "", false});
    return backend;
}

GpuVariant ClBackend::variant(const std::string& name, const std::string& description, const ClKernel& kernel, WorkModel model) const {
    std::shared_ptr<const ClBackend> self = shared_from_this();
    GpuVariant v;
    v.name = name;
    v.description = description;
    v.launch = [self, kernel, name](const ConvArgs& args) {
        if (!self->session_) throw ClError("no OpenCL device is open");
        self->session_->launch(kernel, args, name);
    };
    if (kernel.range.dims == 2 && !kernel.range.driver_chooses) v.tile = TileShape{int(kernel.range.local_x), int(kernel.range.local_y)};
    v.model = model;
    return v;
}

std::string ClBackend::unavailable_reason(const Options& options) const {
    std::string why;
    const std::vector<ClDevice> devices = all_devices(&why);
    if (devices.empty()) return why;
    choose(devices, wanted_device(options));  // InputError when --cl-device names none
    return "";
}

std::unique_ptr<ImageDevice> ClBackend::open(const Options& options) const {
    std::string why;
    const std::vector<ClDevice> devices = all_devices(&why);
    if (devices.empty()) throw ClError(why);
    // A run that times nothing uses no copy bandwidth (ImageDevice::copy_bandwidth_gbs).
    return std::make_unique<ClSession>(*this, choose(devices, wanted_device(options)), lab_, !options.check_only);
}

std::optional<int> ClBackend::run_own_mode(const Options& options) const {
    const auto found = options.lab_values.find("cl-list");
    if (found == options.lab_values.end() || found->second != "true") return std::nullopt;
    std::string why;
    const std::vector<ClDevice> devices = all_devices(&why);
    if (devices.empty()) {
        std::cerr << "lab" << lab_ << ": " << why << " (exit status " << kExitNoGpu << ")\n";
        return int(kExitNoGpu);
    }
    for (const std::string& library : registered_libraries())
        std::cout << "(" << library << " is installed without a vendor file in /etc/OpenCL/vendors: registered for this user in "
                  << std::getenv("OCL_ICD_VENDORS") << "; make doctor says how to register it for every program)\n";
    std::cout << "OpenCL devices (--cl-device takes the index or a part of the name):\n";
    const ClDevice* chosen = &choose(devices, "");
    for (size_t n = 0; n < devices.size(); ++n) {
        const ClDevice& d = devices[n];
        std::cout << "  " << n << "  " << d.name << (d.gpu ? " (GPU)" : "") << "; platform " << d.platform_name << " ("
                  << platform_text(d.platform, CL_PLATFORM_VERSION) << "); " << device_text(d.device, CL_DEVICE_VERSION) << "; driver "
                  << device_text(d.device, CL_DRIVER_VERSION) << "; " << device_value<cl_uint>(d.device, CL_DEVICE_MAX_COMPUTE_UNITS)
                  << " compute units, " << format_gib(device_value<cl_ulong>(d.device, CL_DEVICE_GLOBAL_MEM_SIZE))
                  << (&d == chosen ? "  [the default]" : "") << "\n";
    }
    return int(kExitPass);
}

}  // namespace convlab

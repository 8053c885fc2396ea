// convlab harness — do not edit in a lab.
#include "common/device/gpu_session.hpp"

#include <cuda_runtime.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <vector>

#include "common/device/cuda_check.cuh"
#include "common/timing/cuda_events.cuh"
#include "common/device/device_buffer.cuh"
#include "common/device/launch_counter.hpp"
#include "common/core/rng.hpp"
#include "common/device/shared_device_memory.hpp"
#include "common/core/exit_status.hpp"
#include "common/core/number_format.hpp"

namespace convlab {

std::string gpu_unavailable_reason() {
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status == cudaErrorNoDevice || (status == cudaSuccess && count == 0)) return "no CUDA device found";
    if (status == cudaErrorInsufficientDriver) return "no NVIDIA driver is loaded, or it is older than this CUDA runtime";
    if (status != cudaSuccess)
        return std::string("the CUDA runtime cannot start (") + cudaGetErrorName(status) + ": " + cudaGetErrorString(status) + ")";
    return "";
}

std::string gpu_skipped_line(int lab, const std::string& reason, bool cpu_part_ran) {
    return "lab" + std::to_string(lab) + ": GPU variants skipped: " + reason + (cpu_part_ran ? " (the CPU part ran; exit status " : " (exit status ") +
           std::to_string(kExitNoGpu) + ")\n";
}

namespace {

DeviceInfo query_device(int device) {
    cudaDeviceProp prop{};
    CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    DeviceInfo info;
    info.name = prop.name;
    info.cc_major = prop.major;
    info.cc_minor = prop.minor;
    info.multiprocessors = prop.multiProcessorCount;
    info.l2_bytes = size_t(prop.l2CacheSize);
    info.memory_bytes = prop.totalGlobalMem;
    int khz = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device));
    info.sm_clock_mhz = khz * 1e-3;
    CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, device));
    info.memory_clock_mhz = khz * 1e-3;
    CUDA_CHECK(cudaDeviceGetAttribute(&info.memory_bus_bits, cudaDevAttrGlobalMemoryBusWidth, device));
    CUDA_CHECK(cudaDriverGetVersion(&info.driver_version));
    info.driver_release = nvidia_driver_release();
    CUDA_CHECK(cudaRuntimeGetVersion(&info.runtime_version));
    info.fp32_lanes_per_sm = fp32_lanes_per_sm(prop.major, prop.minor);
    return info;
}

size_t env_memory_limit() {
    const char* text = std::getenv("CONVLAB_DEVICE_MEMORY_LIMIT");
    if (!text || !*text) return SIZE_MAX;
    char* end = nullptr;
    const unsigned long long value = std::strtoull(text, &end, 10);
    if (*end) throw InputError(std::string("CONVLAB_DEVICE_MEMORY_LIMIT='") + text + "' is not a whole number of bytes");
    return size_t(value);
}


// Reads a buffer twice the L2's size, so the L2 holds only clean lines of it afterwards: nothing
// of the timed kernel's data, and no dirty lines whose write-back would be charged to it (a
// memset flush leaves the whole L2 dirty). The unlikely store keeps the loads from being removed.
__global__ void evict_l2_kernel(const uint4* data, size_t count, unsigned* sink) {
    unsigned folded = 0;
    for (size_t n = blockIdx.x * size_t(blockDim.x) + threadIdx.x; n < count; n += size_t(gridDim.x) * blockDim.x) {
        const uint4 v = data[n];
        folded ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (folded == 0x9E3779B9u) *sink = folded;
}

__global__ void random_image_kernel(uint8_t* pixels, size_t count, uint64_t seed) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count; i += size_t(gridDim.x) * blockDim.x)
        pixels[i] = random_pixel(seed, i);
}

__global__ void empty_kernel() {}

__global__ void gather_kernel(const uint32_t* values, const size_t* positions, int count, uint32_t* gathered) {
    const int n = blockIdx.x * blockDim.x + threadIdx.x;
    if (n < count) gathered[n] = values[positions[n]];
}

// The host clock may exceed the events by launch and synchronisation overhead (microseconds);
// beyond this, the variant did GPU (or CPU) work the default stream's events do not cover.
constexpr double kHostClockFactor = 1.5;
constexpr double kHostClockSlackMs = 0.05;

}  // namespace

struct GpuSession::Impl {
    DeviceInfo info;
    double copy_gbs = 0;
    DeviceBuffer<uint8_t> in;
    DeviceBuffer<float> out;
    // Peer timing (peer_timer.hpp, peer_worker.hpp): the input and output live here instead, shared with the
    // other process; args points at them.
    SharedDeviceMemory shared_in, shared_out;
    size_t elements = 0;
    DeviceBuffer<float> mask;
    DeviceBuffer<float> scratch;  // ConvArgs::d_scratch when the lab asks for it; always this process's own
    DeviceBuffer<uint8_t> flush;  // twice the L2: reading it evicts whatever the kernel left there
    DeviceBuffer<unsigned> flush_sink;
    DeviceBuffer<size_t> sample_positions;  // a spot check's positions and values, sized on first use
    DeviceBuffer<uint32_t> sample_values;
    Event start, stop;
    ConvArgs args{};
    bool broken = false;
    std::string launch_count_problem;  // why the last count was unknown

    // The shared input and output replace the session's own.
    void use_shared_buffers() {
        in = DeviceBuffer<uint8_t>();
        out = DeviceBuffer<float>();
        args.d_in = static_cast<const uint8_t*>(shared_in.get());
        args.d_out = static_cast<float*>(shared_out.get());
    }

    double measure_copy_bandwidth() {
        size_t free_bytes = 0, total = 0;
        CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
        const size_t bytes = CopyBandwidthBasis::bytes(free_bytes);
        DeviceBuffer<uint8_t> a(bytes), b(bytes);
        CUDA_CHECK(cudaMemset(a.get(), 1, bytes));
        const double ms = median_event_ms(CopyBandwidthBasis::kWarmup, CopyBandwidthBasis::kReps, [&] {
            CUDA_CHECK(cudaMemcpyAsync(b.get(), a.get(), bytes, cudaMemcpyDeviceToDevice));
        });
        return 2.0 * double(bytes) / (ms * 1e-3) * 1e-9;
    }
};

GpuSession::GpuSession() : impl_(new Impl) {
    CUDA_CHECK(cudaSetDevice(0));
    impl_->info = query_device(0);
    impl_->copy_gbs = impl_->measure_copy_bandwidth();
    impl_->flush = DeviceBuffer<uint8_t>(l2_flush_bytes(impl_->info.l2_bytes));
    impl_->flush_sink = DeviceBuffer<unsigned>(1);
    CUDA_CHECK(cudaMemset(impl_->flush.get(), 0x5A, impl_->flush.bytes()));
}

GpuSession::~GpuSession() = default;

const DeviceInfo& GpuSession::info() const { return impl_->info; }
double GpuSession::copy_bandwidth_gbs() const { return impl_->copy_gbs; }
const ConvArgs& GpuSession::args() const { return impl_->args; }

void GpuSession::load_image(const Image& image, Border border, int max_mask_size, size_t extra_bytes, bool intermediate) {
    const size_t n = image.elements();
    const size_t mask_floats = size_t(max_mask_size) * max_mask_size;
    const size_t scratch_floats = intermediate ? n : 0;
    const size_t needed = n * (sizeof(uint8_t) + sizeof(float)) + (mask_floats + scratch_floats) * sizeof(float) + extra_bytes;
    size_t free_bytes = 0, total = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
    free_bytes = std::min(free_bytes, env_memory_limit());
    if (needed > free_bytes)
        throw InputError("the " + std::to_string(image.width) + "x" + std::to_string(image.height) + "x" +
                         std::to_string(image.channels) + " image needs " + format_gib(needed) + " of device memory, " +
                         format_gib(free_bytes) + " is free; accepted: a smaller --size or --tile-to");
    impl_->in = DeviceBuffer<uint8_t>(n);
    impl_->out = DeviceBuffer<float>(n);
    impl_->mask = DeviceBuffer<float>(mask_floats);
    impl_->scratch = DeviceBuffer<float>(scratch_floats);
    impl_->in.copy_from_host(image.pixels.data());
    impl_->elements = n;
    impl_->args = ConvArgs{impl_->in.get(), impl_->out.get(), impl_->mask.get(), image.width, image.height,
                           image.channels, 0, border, intermediate ? impl_->scratch.get() : nullptr};
}

std::vector<int> GpuSession::share_buffers() {
    Impl& m = *impl_;
    m.shared_in = SharedDeviceMemory::create(m.elements * sizeof(uint8_t));
    m.shared_out = SharedDeviceMemory::create(m.elements * sizeof(float));
    CUDA_CHECK(cudaMemcpy(m.shared_in.get(), m.in.get(), m.in.bytes(), cudaMemcpyDeviceToDevice));
    m.use_shared_buffers();
    return {m.shared_in.export_fd(), m.shared_out.export_fd()};
}

void GpuSession::adopt_shared_buffers(int in_fd, size_t in_bytes, int out_fd, size_t out_bytes) {
    Impl& m = *impl_;
    if (in_bytes != m.elements * sizeof(uint8_t) || out_bytes != m.elements * sizeof(float)) {
        ::close(in_fd);
        ::close(out_fd);
        throw CudaError("the shared buffers (" + std::to_string(in_bytes) + " and " + std::to_string(out_bytes) +
                        " bytes) do not fit this run's image");
    }
    m.shared_in = SharedDeviceMemory::import(in_fd, in_bytes);
    m.shared_out = SharedDeviceMemory::import(out_fd, out_bytes);
    m.use_shared_buffers();
}

void GpuSession::load_mask(const Mask& mask) {
    CUDA_CHECK(cudaMemcpy(impl_->mask.get(), mask.weights.data(), mask.weights.size() * sizeof(float), cudaMemcpyHostToDevice));
    impl_->args.k = mask.k;
}

void GpuSession::load_random_input(uint64_t seed) {
    random_image_kernel<<<4 * impl_->info.multiprocessors, 256>>>(const_cast<uint8_t*>(impl_->args.d_in), impl_->elements, seed);
    CUDA_CHECK_LAUNCH();
}

void GpuSession::poison_output() {
    // All bits set is a NaN in IEEE-754 single precision.
    CUDA_CHECK(cudaMemset(impl_->args.d_out, 0xFF, impl_->elements * sizeof(float)));
    // A pass that leaves part of the intermediate unwritten must not read the last run's values there.
    if (impl_->args.d_scratch) CUDA_CHECK(cudaMemset(impl_->args.d_scratch, 0xFF, impl_->elements * sizeof(float)));
}

void GpuSession::fetch_output(float* h_out) const {
    CUDA_CHECK(cudaMemcpy(h_out, impl_->args.d_out, impl_->elements * sizeof(float), cudaMemcpyDeviceToHost));
}

void GpuSession::sample_output(const std::vector<size_t>& positions, float* values) {
    static_assert(sizeof(float) == sizeof(uint32_t), "a float is one 4-byte word");
    sample_words(impl_->args.d_out, positions, reinterpret_cast<uint32_t*>(values));
}

void GpuSession::sample_words(const void* words, const std::vector<size_t>& positions, uint32_t* values) {
    const int count = int(positions.size());
    if (impl_->sample_positions.count() < positions.size()) {
        impl_->sample_positions = DeviceBuffer<size_t>(positions.size());
        impl_->sample_values = DeviceBuffer<uint32_t>(positions.size());
    }
    CUDA_CHECK(cudaMemcpy(impl_->sample_positions.get(), positions.data(), count * sizeof(size_t), cudaMemcpyHostToDevice));
    gather_kernel<<<(count + 255) / 256, 256>>>(static_cast<const uint32_t*>(words), impl_->sample_positions.get(), count,
                                                impl_->sample_values.get());
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(values, impl_->sample_values.get(), count * sizeof(uint32_t), cudaMemcpyDeviceToHost));
}

void GpuSession::run(const std::function<void()>& fn) {
    guarded([&] {
        fn();
        CUDA_CHECK_LAUNCH();
        CUDA_CHECK(cudaDeviceSynchronize());
    });
}

int GpuSession::run_counting_launches(const std::function<void()>& fn) {
    const LaunchCounter counter;
    run(fn);
    if (!counter.counting()) {
        impl_->launch_count_problem = counter.problem();
        return -1;
    }
    // A canary: one launch of the harness's own, which must be counted. Code that switched the
    // counting off while it ran (callbacks disabled, CUPTI detached) leaves it unseen, and its
    // own count is then worth nothing.
    const int counted = counter.launches();
    run([] { empty_kernel<<<1, 1>>>(); });
    if (counter.launches() <= counted) {
        impl_->launch_count_problem = "the harness's own launch after the variant's was not counted: the counting was switched off";
        return -1;
    }
    return counted;
}

std::string GpuSession::uncounted_launches(const std::string& who) const {
    return "the kernels " + who + " launched could not be counted (" + impl_->launch_count_problem +
           "): a graded run fails what it cannot measure";
}

void GpuSession::take_over_gpu() {
    run([] { empty_kernel<<<1, 1>>>(); });
}

void GpuSession::flush_l2() {
    evict_l2_kernel<<<4 * impl_->info.multiprocessors, 512>>>(reinterpret_cast<const uint4*>(impl_->flush.get()),
                                                              impl_->flush.bytes() / sizeof(uint4), impl_->flush_sink.get());
    CUDA_CHECK_LAUNCH();
}

double GpuSession::time_once(const std::function<void()>& fn, bool flush_l2, bool* outside_stream) {
    if (flush_l2) this->flush_l2();
    using Clock = std::chrono::steady_clock;
    Clock::time_point host_start;
    double host_ms = 0;
    // The stop event goes in right behind the work: no host synchronisation inside the timed region.
    guarded([&] {
        CUDA_CHECK(cudaDeviceSynchronize());  // nothing of ours in flight when the host clock starts
        host_start = Clock::now();
        CUDA_CHECK(cudaEventRecord(impl_->start.event));
        fn();
        CUDA_CHECK_LAUNCH();
        CUDA_CHECK(cudaEventRecord(impl_->stop.event));
        CUDA_CHECK(cudaDeviceSynchronize());  // every stream: work hidden on another one ends inside the host window
        host_ms = std::chrono::duration<double, std::milli>(Clock::now() - host_start).count();
    });
    const double event_ms = elapsed_ms(impl_->start, impl_->stop);
    const bool outside = host_ms > kHostClockFactor * event_ms + kHostClockSlackMs;
    if (outside_stream) *outside_stream = outside;
    return outside ? host_ms : event_ms;
}

TimingStats GpuSession::time(const std::function<void()>& fn, const TimingPlan& plan, bool poison_each_rep,
                             const std::function<void(int)>& before_rep, const std::function<void(int)>& after_rep) {
    std::vector<double> samples;
    int outside_count = 0;
    for (int rep = 0; rep < plan.warmup + plan.reps; ++rep) {
        if (before_rep) guarded([&] { before_rep(rep); });
        if (poison_each_rep) poison_output();
        bool outside = false;
        const double ms = time_once(fn, plan.flush_l2, &outside);
        if (after_rep) guarded([&] { after_rep(rep); });
        if (rep >= plan.warmup) {
            samples.push_back(ms);
            outside_count += outside;
        }
    }
    TimingStats stats = summarize(samples);
    stats.host_clock_samples = outside_count;
    return stats;
}

void GpuSession::guarded(const std::function<void()>& fn) {
    try {
        fn();
    } catch (const CudaError&) {
        // A sticky error (an illegal address, say) fails every later call: the context is gone.
        impl_->broken = cudaDeviceSynchronize() != cudaSuccess;
        throw;
    }
}

bool GpuSession::healthy() const { return !impl_->broken; }

}  // namespace convlab

// convlab lab 5 — do not edit: the five experiments and their sweeps, bound to device arrays.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <type_traits>

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#include "common/errors.hpp"
#include "common/rng.hpp"
#include "common/text_table.hpp"
#include "labs/lab5/experiments.hpp"
#include "labs/lab5/lab5.hpp"
#include "labs/lab5/references.hpp"

namespace lab5 {

using convlab::DeviceBuffer;
using convlab::DeviceInfo;
using Experiment = convlab::ArrayExperiment;
using Variant = convlab::ArrayVariant;

struct Workspace::Impl {
    size_t n = 0;
    DeviceInfo device;
    double copy_gbs = 0;
    std::vector<float> h_in, h_shared_in;
    DeviceBuffer<float> in, out, shared_in, shared_out;
    DeviceBuffer<int> out_int;
    int shared_blocks = 0;
    bool names_only = false;  // variant_names' workspace: nothing on the GPU, nothing to launch

    template <class T>
    static std::vector<char> fetch_bytes(const DeviceBuffer<T>& buffer) {
        std::vector<char> h(buffer.bytes());
        buffer.copy_to_host(reinterpret_cast<T*>(h.data()));
        return h;
    }
    // All bits set is a NaN, and 0x7F7F7F7F is no direction sum: an element a variant skips fails.
    void poison_floats() const { CUDA_CHECK(cudaMemset(out.get(), 0xFF, out.bytes())); }
    void poison_ints() const { CUDA_CHECK(cudaMemset(out_int.get(), 0x7F, out_int.bytes())); }
    void poison_shared() const { CUDA_CHECK(cudaMemset(shared_out.get(), 0xFF, shared_out.bytes())); }
};

namespace {

constexpr int kSharedRepeats = 16;

// Multiples of 1/8 in [0, 157]: the boundaries 22, 67, 112 and 157 of experiment 3 occur exactly.
float input_value(uint64_t seed, uint64_t index) {
    return float(int(convlab::unit_double(convlab::hash4(seed, index, 0, 0)) * 1257.0)) / 8.0f;
}

// Raw output bytes as values of T, or why they cannot be: a result of the wrong length is wrong.
template <class T>
std::vector<T> values_of(const std::vector<char>& bytes, size_t count, std::string& why) {
    if (bytes.size() != count * sizeof(T)) {
        why = "the result holds " + std::to_string(bytes.size()) + " bytes; expected " + std::to_string(count * sizeof(T));
        return {};
    }
    std::vector<T> values(count);
    std::memcpy(values.data(), bytes.data(), bytes.size());
    return values;
}

// "" when the bytes hold exactly the expected values (within rtol for floats).
template <class T>
std::string verify_bytes(const std::vector<char>& bytes, const std::vector<T>& expected, double rtol) {
    std::string why;
    const std::vector<T> got = values_of<T>(bytes, expected.size(), why);
    if (!why.empty()) return why;
    if constexpr (std::is_same_v<T, int>) return compare_outputs(got, expected);
    else return compare_outputs(got, expected, rtol);
}

// A reference computed on first use and kept, for the experiments whose variants share one.
template <class T>
std::function<const std::vector<T>&()> memo(std::function<std::vector<T>()> make) {
    auto cache = std::make_shared<std::optional<std::vector<T>>>();
    return [cache, make]() -> const std::vector<T>& {
        if (!*cache) *cache = make();
        return **cache;
    };
}

std::string occupancy_note(int threads_per_block) {
    int blocks = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, add_one_kernel_address(), threads_per_block, 0));
    int threads_per_sm = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, 0));
    const int warps_per_block = (threads_per_block + 31) / 32;
    const double occupancy = 100.0 * blocks * warps_per_block / (threads_per_sm / 32);
    std::string note = "occupancy " + std::to_string(int(occupancy + 0.5)) + "% (" + std::to_string(blocks) + " blocks/SM)";
    if (threads_per_block % 32) note += "; " + std::to_string(threads_per_block % 32) + " of 32 lanes in the last warp";
    return note;
}

}  // namespace

Workspace::Workspace(size_t n, const DeviceInfo& device, double copy_gbs, uint64_t seed) : impl_(new Impl) {
    Impl& w = *impl_;
    w.n = n;
    w.device = device;
    w.copy_gbs = copy_gbs;
    // Many waves, so that the block start-up is noise; fewer for short arrays, so that a
    // compute-sanitizer run (racecheck follows every shared-memory access) stays short.
    w.shared_blocks = int(std::min<size_t>(size_t(32) * device.multiprocessors, std::max<size_t>(1, n / kSharedThreads)));
    const size_t shared_words = size_t(kSharedRows) * 32;
    const size_t needed = n * (2 * sizeof(float) + sizeof(int)) +
                          (shared_words + size_t(w.shared_blocks) * kSharedThreads) * sizeof(float);
    size_t free_bytes = 0, total = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
    if (needed > free_bytes)
        throw convlab::InputError("--elements " + std::to_string(n) + " needs " + convlab::format_gib(needed) + " of device memory, " +
                                  convlab::format_gib(free_bytes) + " is free; accepted: fewer --elements");
    w.h_in.resize(n);
#pragma omp parallel for schedule(static)
    for (long long i = 0; i < (long long)n; ++i) w.h_in[i] = input_value(seed, uint64_t(i));
    w.h_shared_in.resize(shared_words);
    for (size_t i = 0; i < shared_words; ++i) w.h_shared_in[i] = input_value(seed, uint64_t(n) + i);
    w.in = DeviceBuffer<float>(n);
    w.out = DeviceBuffer<float>(n);
    w.out_int = DeviceBuffer<int>(n);
    w.shared_in = DeviceBuffer<float>(shared_words);
    w.shared_out = DeviceBuffer<float>(size_t(w.shared_blocks) * kSharedThreads);
    w.in.copy_from_host(w.h_in.data());
    w.shared_in.copy_from_host(w.h_shared_in.data());
    load_path_constants();
}

Workspace::Workspace(size_t n, NamesOnly) : impl_(new Impl) {
    impl_->n = n;
    impl_->shared_blocks = 1;
    impl_->names_only = true;
}

Workspace::~Workspace() = default;
size_t Workspace::bytes() const {
    const Impl& w = *impl_;
    return w.in.bytes() + w.out.bytes() + w.out_int.bytes() + w.shared_in.bytes() + w.shared_out.bytes();
}

size_t default_elements(const DeviceInfo& device) {
    const size_t floats = 8 * std::max<size_t>(device.l2_bytes, size_t(4) << 20) / sizeof(float);
    return (floats + 1023) / 1024 * 1024;
}

const std::vector<std::string>& experiment_keys() {
    static const std::vector<std::string> keys = {"memory", "stride", "offset", "neighbours", "direction",
                                                  "paths",  "blocks", "blocksize", "banks"};
    return keys;
}

double shared_peak_gbs(const DeviceInfo& device) { return 32.0 * 4 * device.multiprocessors * device.sm_clock_mhz * 1e-3; }

std::vector<Experiment> Workspace::experiments(const std::vector<std::string>& keys) {
    Impl& w = *impl_;
    const DeviceInfo& device = w.device;
    const double copy_gbs = w.copy_gbs;
    const size_t n = w.n;
    const float* in = w.in.get();
    float* out = w.out.get();
    int* out_int = w.out_int.get();
    const std::string copy_model = "byte model: 4 B read + 4 B written per element; % of the copy bandwidth";

    // A float variant of experiment `e`: launch, then compare the whole output with `expected`.
    auto float_variant = [&w](std::string name, std::function<void()> launch,
                              std::function<const std::vector<float>&()> expected, double work, double rtol = 0.0) {
        return Variant{std::move(name), [&w] { w.poison_floats(); }, std::move(launch), [&w] { return Workspace::Impl::fetch_bytes(w.out); },
                       [expected, rtol](const std::vector<char>& bytes) { return verify_bytes(bytes, expected(), rtol); }, work, ""};
    };
    // The sweeps' references differ per variant and are large: computed at each check, not kept.
    auto sweep_variant = [&w](std::string name, std::function<void()> launch, std::function<std::vector<float>()> expected,
                              double work) {
        return Variant{std::move(name), [&w] { w.poison_floats(); }, std::move(launch), [&w] { return Workspace::Impl::fetch_bytes(w.out); },
                       [expected](const std::vector<char>& bytes) { return verify_bytes(bytes, expected(), 0.0); }, work, ""};
    };

    std::vector<Experiment> all;
    const double copy_bytes = 8.0 * n;

    {  // 1. memory access
        Experiment e{"memory", "1. Memory access: swap neighbouring elements, out[i ^ 1] = in[i]", copy_model, "GB/s", "copy", copy_gbs, {}};
        auto expected = memo<float>([&w] { return swap_reference(w.h_in); });
        e.variants.push_back(float_variant("A write-swapped", [=] { launch_swap_write_swapped(in, out, n); }, expected, copy_bytes));
        e.variants.push_back(float_variant("B read-swapped", [=] { launch_swap_read_swapped(in, out, n); }, expected, copy_bytes));
        e.variants.push_back(float_variant("C read-only-path", [=] { launch_swap_read_only(in, out, n); }, expected, copy_bytes));
        all.push_back(std::move(e));
    }
    {  // 1, sweep: stride
        Experiment e{"stride", "1s. Strided copy: out[i*s] = in[i*s]",
                     "byte model: 8 B per element copied (the DRAM moves whole 32-byte sectors); % of the copy bandwidth",
                     "GB/s", "copy", copy_gbs, {}};
        for (int stride : {1, 2, 4, 8, 16, 32}) {
            const double copied = double((n + stride - 1) / stride);
            e.variants.push_back(sweep_variant("stride " + std::to_string(stride), [=] { launch_copy_strided(in, out, n, stride); },
                                               [&w, stride] { return copy_strided_reference(w.h_in, stride); }, 8.0 * copied));
        }
        all.push_back(std::move(e));
    }
    {  // 1, sweep: misaligned start
        Experiment e{"offset", "1o. Misaligned copy: thread i copies element i + offset",
                     "byte model: 8 B per element copied; % of the copy bandwidth", "GB/s", "copy", copy_gbs, {}};
        for (int offset : {0, 1, 2, 4, 8, 16, 32}) {
            if (size_t(offset) >= n) continue;
            e.variants.push_back(sweep_variant("offset " + std::to_string(offset), [=] { launch_copy_offset(in, out, n, offset); },
                                               [&w, offset] { return copy_offset_reference(w.h_in, offset); }, 8.0 * double(n - offset)));
        }
        all.push_back(std::move(e));
    }
    {  // 2. divergence and memory access
        Experiment e{"neighbours", "2. Divergence and memory access: out[i] = sqrt(2 in[i-1] + 0.5 in[i+1])",
                     "byte model: 4 B read + 4 B written per element (the neighbours come from cache); % of the copy bandwidth",
                     "GB/s", "copy", copy_gbs, {}};
        auto expected = memo<float>([&w] { return neighbours_reference(w.h_in); });
        // sqrt is correctly rounded on both sides; 1e-6 leaves room for a different but exact-enough association.
        e.variants.push_back(float_variant("A if-else", [=] { launch_neighbours_branchy(in, out, n); }, expected, copy_bytes, 1e-6));
        e.variants.push_back(float_variant("B read-only-path", [=] { launch_neighbours_read_only(in, out, n); }, expected, copy_bytes, 1e-6));
        e.variants.push_back(float_variant("C clamped-index", [=] { launch_neighbours_clamped(in, out, n); }, expected, copy_bytes, 1e-6));
        all.push_back(std::move(e));
    }
    {  // 3. divergence and logical expressions
        Experiment e{"direction", "3. Divergence and logical expressions: direction from angle and parity",
                     "byte model: 4 B read + 4 B written per element; % of the copy bandwidth", "GB/s", "copy", copy_gbs, {}};
        auto expected = memo<int>([&w] { return direction_reference(w.h_in); });
        auto int_variant = [&w, expected](std::string name, std::function<void()> launch, double work) {
            return Variant{std::move(name), [&w] { w.poison_ints(); }, std::move(launch), [&w] { return Workspace::Impl::fetch_bytes(w.out_int); },
                           [expected](const std::vector<char>& bytes) { return verify_bytes(bytes, expected(), 0.0); }, work, ""};
        };
        e.variants.push_back(int_variant("A nested-ifs", [=] { launch_direction_nested_ifs(in, out_int, n); }, copy_bytes));
        e.variants.push_back(int_variant("B branch-free", [=] { launch_direction_branch_free(in, out_int, n); }, copy_bytes));
        all.push_back(std::move(e));
    }
    {  // 3, sweep: paths per warp
        Experiment e{"paths", "3s. Divergence sweep: a warp split into P paths of 64 dependent FMAs each",
                     "flop model: 2 x 64 flops per element (one path's work); % of the FP32 peak", "GFLOP/s", "FP32 peak",
                     device.fp32_peak_gflops(), {}};
        const double flops = 2.0 * kPathWork * double(n);
        for (int paths : {1, 2, 4, 8, 16, 32})
            for (bool by_warp : {false, true}) {
                if (paths == 1 && by_warp) continue;  // the same as one path within the warp
                const std::string name = std::to_string(paths) + (paths == 1 ? " path" : by_warp ? " paths, by warp" : " paths in a warp");
                e.variants.push_back(sweep_variant(name, [=] { launch_paths(in, out, n, paths, by_warp); },
                                                   [&w, paths, by_warp] { return paths_reference(w.h_in, paths, by_warp); }, flops));
            }
        all.push_back(std::move(e));
    }
    {  // 4. block and grid configuration
        Experiment e{"blocks", "4. Block configuration: out[i] = in[i] + 1", copy_model, "GB/s", "copy", copy_gbs, {}};
        auto expected = memo<float>([&w] { return add_one_reference(w.h_in); });
        e.variants.push_back(float_variant("A 5 threads/block", [=] { launch_add_one(in, out, n, 5); }, expected, copy_bytes));
        if (!w.names_only) e.variants.back().note = occupancy_note(5);
        e.variants.push_back(float_variant("B yours", [=] { launch_add_one_tuned(in, out, n); }, expected, copy_bytes));
        all.push_back(std::move(e));

        Experiment sweep{"blocksize", "4s. Block size sweep: out[i] = in[i] + 1", copy_model, "GB/s", "copy", copy_gbs, {}};
        for (int threads : {32, 64, 128, 256, 512, 1024}) {
            sweep.variants.push_back(float_variant(std::to_string(threads) + " threads/block",
                                                   [=] { launch_add_one(in, out, n, threads); }, expected, copy_bytes));
            if (!w.names_only) sweep.variants.back().note = occupancy_note(threads);
        }
        all.push_back(std::move(sweep));
    }
    {  // 5. shared-memory bank conflicts
        const int blocks = w.shared_blocks;
        Experiment e{"banks", "5. Shared-memory bank conflicts: lane l reads word l*stride, rows of 32 words or padded to 33",
                     "byte model: 4 B of shared memory read per read instruction per thread; % of the shared-memory peak "
                     "(32 banks x 4 B per clock per SM)",
                     "GB/s", "shared peak", shared_peak_gbs(device), {}};
        const double bytes = 4.0 * kSharedReads * kSharedRepeats * double(blocks) * kSharedThreads;
        const float* s_in = w.shared_in.get();
        float* s_out = w.shared_out.get();
        for (int stride : {1, 2, 4, 8, 16, 32})
            for (bool padded : {false, true}) {
                auto expected = memo<float>([&w, blocks, stride] { return shared_stride_reference(w.h_shared_in, blocks, stride, kSharedRepeats); });
                const std::string name = (padded ? "B padded stride " : "A stride ") + std::to_string(stride);
                auto launch = padded ? std::function<void()>([=] { launch_shared_stride_padded(s_in, s_out, blocks, stride, kSharedRepeats); })
                                     : std::function<void()>([=] { launch_shared_stride(s_in, s_out, blocks, stride, kSharedRepeats); });
                e.variants.push_back(Variant{name, [&w] { w.poison_shared(); }, launch, [&w] { return Workspace::Impl::fetch_bytes(w.shared_out); },
                                             [expected](const std::vector<char>& got) { return verify_bytes(got, expected(), 0.0); },
                                             bytes, "expected conflict degree " + std::to_string(padded ? 1 : stride)});
            }
        all.push_back(std::move(e));
    }

    if (keys.empty()) return all;
    std::vector<Experiment> chosen;
    for (auto& e : all)
        if (std::find(keys.begin(), keys.end(), e.key) != keys.end()) chosen.push_back(std::move(e));
    return chosen;
}

std::vector<std::string> variant_names(size_t n, const std::vector<std::string>& keys) {
    Workspace nothing(n, Workspace::NamesOnly{});
    std::vector<std::string> names;
    for (const Experiment& e : nothing.experiments(keys))
        for (const Variant& v : e.variants) names.push_back(convlab::qualified_name(e, v));
    return names;
}

}  // namespace lab5

// convlab lab 5 — do not edit: the five experiments and their sweeps, bound to device arrays.
#include <cuda_runtime.h>

#include <algorithm>
#include <type_traits>

#include "common/device/cuda_check.cuh"
#include "common/core/errors.hpp"
#include "common/core/rng.hpp"
#include "common/core/number_format.hpp"
#include "labs/lab5/experiments.hpp"
#include "labs/lab5/lab5.hpp"
#include "labs/lab5/references.hpp"

namespace lab5 {

using convlab::DeviceInfo;
using Experiment = convlab::ArrayExperiment;
using Variant = convlab::ArrayVariant;
using convlab::DeviceArray;

namespace {

// Multiples of 1/8 in [0, 157]: the boundaries 22, 67, 112 and 157 of experiment 3 occur exactly.
// On the GPU (load_input) and on the host (references, spot checks) alike.
__host__ __device__ float input_value(uint64_t seed, uint64_t index) {
    return float(int(convlab::unit_double(convlab::hash4(seed, index, 0, 0)) * 1257.0)) / 8.0f;
}

}  // namespace

struct Workspace::Impl {
    size_t n = 0;
    DeviceInfo device;
    double copy_gbs = 0;
    DeviceArray<float> in, out, shared_in, shared_out;
    DeviceArray<int> out_int;
    int shared_blocks = 0;
    bool names_only = false;  // variant_names' workspace: nothing on the GPU, nothing to launch
    // The inputs loaded last (load_input) come from `seed`. Their host copies, and the references
    // computed from them, are made when a whole-array check first needs them: the grader's timer
    // loads a fresh input for every timed run and checks only the last one in full.
    uint64_t seed = 0;
    uint64_t generation = 0;  // one more at every load_input
    uint64_t host_generation = ~uint64_t(0);
    std::vector<float> h_in, h_shared_in;

    // The host copies of the inputs loaded now.
    void refresh_host_inputs() {
        if (host_generation == generation) return;
        h_in.resize(n);
#pragma omp parallel for schedule(static)
        for (long long i = 0; i < (long long)n; ++i) h_in[size_t(i)] = input_value(seed, uint64_t(i));
        h_shared_in.resize(shared_in.count);
        for (size_t i = 0; i < shared_in.count; ++i) h_shared_in[i] = input_value(seed, uint64_t(n) + i);
        host_generation = generation;
    }
    const std::vector<float>& host_in() {
        refresh_host_inputs();
        return h_in;
    }
    const std::vector<float>& host_shared_in() {
        refresh_host_inputs();
        return h_shared_in;
    }
    // Accessors of the inputs loaded now that compute each value they are asked for (spot checks).
    auto input() const {
        return [this](size_t j) { return input_value(seed, uint64_t(j)); };
    }
    auto shared_input() const {
        return [this](size_t j) { return input_value(seed, uint64_t(n) + j); };
    }
};

namespace {

constexpr int kSharedRepeats = 16;

// "" when the bytes hold exactly the expected values (within rtol for floats); a result of the
// wrong length is wrong. The bytes are compared where they are, not copied (hundreds of MiB a check).
template <class T>
std::string verify_bytes(const std::vector<char>& bytes, const std::vector<T>& expected, double rtol) {
    if (bytes.size() != expected.size() * sizeof(T))
        return "the result holds " + std::to_string(bytes.size()) + " bytes; expected " + std::to_string(expected.size() * sizeof(T));
    if constexpr (std::is_same_v<T, int>) return compare_outputs(bytes.data(), expected.size(), expected);
    else return compare_outputs(bytes.data(), expected.size(), expected, rtol);
}

// A reference computed on first use and kept while the inputs stay the same, for the experiments
// whose variants share one.
template <class T>
std::function<const std::vector<T>&()> memo(const Workspace::Impl& w, std::function<std::vector<T>()> make) {
    struct Kept {
        uint64_t generation = ~uint64_t(0);
        std::vector<T> values;
    };
    auto kept = std::make_shared<Kept>();
    return [&w, kept, make]() -> const std::vector<T>& {
        if (kept->generation != w.generation) kept->values = make(), kept->generation = w.generation;
        return kept->values;
    };
}

__global__ void input_kernel(float* values, size_t count, uint64_t seed, uint64_t first_index) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count; i += size_t(gridDim.x) * blockDim.x)
        values[i] = input_value(seed, first_index + i);
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

Workspace::Workspace(size_t n, const DeviceInfo& device, double copy_gbs, uint64_t seed, convlab::ArrayMemory& memory) : impl_(new Impl) {
    Impl& w = *impl_;
    w.n = n;
    w.device = device;
    w.copy_gbs = copy_gbs;
    // Many waves, so that the block start-up is noise; fewer for short arrays, so that a
    // compute-sanitizer run (racecheck follows every shared-memory access) stays short.
    w.shared_blocks = int(std::min<size_t>(size_t(32) * device.multiprocessors, std::max<size_t>(1, n / kSharedThreads)));
    const size_t shared_words = size_t(kSharedRows) * 32;
    const size_t shared_results = size_t(w.shared_blocks) * kSharedThreads;
    const std::vector<size_t> sizes = {n * sizeof(float), n * sizeof(float), n * sizeof(int), shared_words * sizeof(float),
                                       shared_results * sizeof(float)};
    size_t needed = 0;
    for (size_t bytes : sizes) needed += bytes + 256;  // with each array's alignment
    size_t free_bytes = 0, total = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
    if (needed > free_bytes)
        throw convlab::InputError("--elements " + std::to_string(n) + " needs " + convlab::format_gib(needed) + " of device memory, " +
                                  convlab::format_gib(free_bytes) + " is free; accepted: fewer --elements");
    const std::vector<void*> arrays = memory.provide(sizes);
    w.in = {static_cast<float*>(arrays[0]), n};
    w.out = {static_cast<float*>(arrays[1]), n};
    w.out_int = {static_cast<int*>(arrays[2]), n};
    w.shared_in = {static_cast<float*>(arrays[3]), shared_words};
    w.shared_out = {static_cast<float*>(arrays[4]), shared_results};
    load_input(seed);
    CUDA_CHECK(cudaDeviceSynchronize());
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

void Workspace::load_input(uint64_t seed) {
    Impl& w = *impl_;
    w.seed = seed;
    ++w.generation;
    const unsigned blocks = 4 * unsigned(w.device.multiprocessors);
    input_kernel<<<blocks, 256>>>(w.in.get(), w.n, seed, 0);
    CUDA_CHECK_LAUNCH();
    input_kernel<<<blocks, 256>>>(w.shared_in.get(), w.shared_in.count, seed, w.n);
    CUDA_CHECK_LAUNCH();
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
    using namespace lab5_rules;
    Impl& w = *impl_;
    const DeviceInfo& device = w.device;
    const double copy_gbs = w.copy_gbs;
    const size_t n = w.n;
    const float* in = w.in.get();
    float* out = w.out.get();
    int* out_int = w.out_int.get();
    const convlab::ArrayOutput floats_out{w.out.get(), n, false}, ints_out{w.out_int.get(), n, true};
    const std::string copy_model = "byte model: 4 B read + 4 B written per element; % of the copy bandwidth";

    // A variant writing `output`: launch, then compare the whole output with `expected` (or, for
    // a spot check, element i with at(i)).
    auto variant = [](std::string name, convlab::ArrayOutput output, std::function<void()> launch, auto expected,
                      std::function<double(size_t)> at, double work, double rtol = 0.0) {
        auto verify = [expected, rtol](const std::vector<char>& bytes) { return verify_bytes(bytes, expected(), rtol); };
        return Variant{std::move(name), output, std::move(launch), verify, std::move(at), rtol, work, ""};
    };

    std::vector<Experiment> all;
    const double copy_bytes = 8.0 * n;

    {  // 1. memory access
        Experiment e{"memory", "1. Memory access: swap neighbouring elements, out[i ^ 1] = in[i]", copy_model, "GB/s", "copy", copy_gbs, {}};
        auto expected = memo<float>(w, [&w] { return swap_reference(w.host_in()); });
        auto at = [&w](size_t i) { return double(swap_at(w.input(), w.n, i)); };
        e.variants.push_back(variant("A write-swapped", floats_out, [=] { launch_swap_write_swapped(in, out, n); }, expected, at, copy_bytes));
        e.variants.push_back(variant("B read-swapped", floats_out, [=] { launch_swap_read_swapped(in, out, n); }, expected, at, copy_bytes));
        e.variants.push_back(variant("C read-only-path", floats_out, [=] { launch_swap_read_only(in, out, n); }, expected, at, copy_bytes));
        all.push_back(std::move(e));
    }
    // The sweeps' references differ per variant and are large: computed at each check, not kept.
    {  // 1, sweep: stride
        Experiment e{"stride", "1s. Strided copy: out[i*s] = in[i*s]",
                     "byte model: 8 B per element copied (the DRAM moves whole 32-byte sectors); % of the copy bandwidth",
                     "GB/s", "copy", copy_gbs, {}};
        for (int stride : {1, 2, 4, 8, 16, 32}) {
            const double copied = double((n + stride - 1) / stride);
            e.variants.push_back(variant("stride " + std::to_string(stride), floats_out, [=] { launch_copy_strided(in, out, n, stride); },
                                         [&w, stride] { return copy_strided_reference(w.host_in(), stride); },
                                         [&w, stride](size_t i) { return double(copy_strided_at(w.input(), i, stride)); }, 8.0 * copied));
        }
        all.push_back(std::move(e));
    }
    {  // 1, sweep: misaligned start
        Experiment e{"offset", "1o. Misaligned copy: thread i copies element i + offset",
                     "byte model: 8 B per element copied; % of the copy bandwidth", "GB/s", "copy", copy_gbs, {}};
        for (int offset : {0, 1, 2, 4, 8, 16, 32}) {
            if (size_t(offset) >= n) continue;
            e.variants.push_back(variant("offset " + std::to_string(offset), floats_out, [=] { launch_copy_offset(in, out, n, offset); },
                                         [&w, offset] { return copy_offset_reference(w.host_in(), offset); },
                                         [&w, offset](size_t i) { return double(copy_offset_at(w.input(), i, offset)); },
                                         8.0 * double(n - offset)));
        }
        all.push_back(std::move(e));
    }
    {  // 2. divergence and memory access
        Experiment e{"neighbours", "2. Divergence and memory access: out[i] = sqrt(2 in[i-1] + 0.5 in[i+1])",
                     "byte model: 4 B read + 4 B written per element (the neighbours come from cache); % of the copy bandwidth",
                     "GB/s", "copy", copy_gbs, {}};
        auto expected = memo<float>(w, [&w] { return neighbours_reference(w.host_in()); });
        auto at = [&w](size_t i) { return double(neighbours_at(w.input(), w.n, i)); };
        // sqrt is correctly rounded on both sides; 1e-6 leaves room for a different but exact-enough association.
        e.variants.push_back(variant("A if-else", floats_out, [=] { launch_neighbours_branchy(in, out, n); }, expected, at, copy_bytes, 1e-6));
        e.variants.push_back(variant("B read-only-path", floats_out, [=] { launch_neighbours_read_only(in, out, n); }, expected, at, copy_bytes, 1e-6));
        e.variants.push_back(variant("C clamped-index", floats_out, [=] { launch_neighbours_clamped(in, out, n); }, expected, at, copy_bytes, 1e-6));
        all.push_back(std::move(e));
    }
    {  // 3. divergence and logical expressions
        Experiment e{"direction", "3. Divergence and logical expressions: direction from angle and parity",
                     "byte model: 4 B read + 4 B written per element; % of the copy bandwidth", "GB/s", "copy", copy_gbs, {}};
        auto expected = memo<int>(w, [&w] { return direction_reference(w.host_in()); });
        auto at = [&w](size_t i) { return double(direction_at(w.input(), i)); };
        e.variants.push_back(variant("A nested-ifs", ints_out, [=] { launch_direction_nested_ifs(in, out_int, n); }, expected, at, copy_bytes));
        e.variants.push_back(variant("B branch-free", ints_out, [=] { launch_direction_branch_free(in, out_int, n); }, expected, at, copy_bytes));
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
                e.variants.push_back(variant(name, floats_out, [=] { launch_paths(in, out, n, paths, by_warp); },
                                             [&w, paths, by_warp] { return paths_reference(w.host_in(), paths, by_warp); },
                                             [&w, paths, by_warp](size_t i) { return double(paths_at(w.input(), i, paths, by_warp)); }, flops));
            }
        all.push_back(std::move(e));
    }
    {  // 4. block and grid configuration
        Experiment e{"blocks", "4. Block configuration: out[i] = in[i] + 1", copy_model, "GB/s", "copy", copy_gbs, {}};
        auto expected = memo<float>(w, [&w] { return add_one_reference(w.host_in()); });
        auto at = [&w](size_t i) { return double(add_one_at(w.input(), i)); };
        e.variants.push_back(variant("A 5 threads/block", floats_out, [=] { launch_add_one(in, out, n, 5); }, expected, at, copy_bytes));
        if (!w.names_only) e.variants.back().note = occupancy_note(5);
        e.variants.push_back(variant("B yours", floats_out, [=] { launch_add_one_tuned(in, out, n); }, expected, at, copy_bytes));
        all.push_back(std::move(e));

        Experiment sweep{"blocksize", "4s. Block size sweep: out[i] = in[i] + 1", copy_model, "GB/s", "copy", copy_gbs, {}};
        for (int threads : {32, 64, 128, 256, 512, 1024}) {
            sweep.variants.push_back(variant(std::to_string(threads) + " threads/block", floats_out,
                                             [=] { launch_add_one(in, out, n, threads); }, expected, at, copy_bytes));
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
        const convlab::ArrayOutput shared_out{s_out, w.shared_out.count, false};
        for (int stride : {1, 2, 4, 8, 16, 32})
            for (bool padded : {false, true}) {
                auto expected = memo<float>(w, [&w, blocks, stride] {
                    return shared_stride_reference(w.host_shared_in(), blocks, stride, kSharedRepeats);
                });
                auto at = [&w, stride](size_t t) { return double(shared_stride_at(w.shared_input(), t, stride, kSharedRepeats)); };
                const std::string name = (padded ? "B padded stride " : "A stride ") + std::to_string(stride);
                auto launch = padded ? std::function<void()>([=] { launch_shared_stride_padded(s_in, s_out, blocks, stride, kSharedRepeats); })
                                     : std::function<void()>([=] { launch_shared_stride(s_in, s_out, blocks, stride, kSharedRepeats); });
                e.variants.push_back(variant(name, shared_out, launch, expected, at, bytes));
                e.variants.back().note = "expected conflict degree " + std::to_string(padded ? 1 : stride);
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

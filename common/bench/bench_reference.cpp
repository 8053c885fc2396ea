// make bench: the CPU references under Google Benchmark, so the CPU side of every speedup a lab
// prints is itself measured with repetitions and statistics. Arguments: image side, mask size,
// threads (omp only). Counters: pixels/s (items) and bytes/s under the harness's byte model.
//   make bench ARGS='--benchmark_filter=omp/2048 --benchmark_format=json'
#include <benchmark/benchmark.h>
#include <omp.h>

#include <string>
#include <vector>

#include "common/cli/options.hpp"
#include "common/core/reference.hpp"
#include "common/core/synthetic.hpp"

namespace {

using namespace convlab;

constexpr int kChannels = 3;

void run(benchmark::State& state, bool parallel) {
    const int side = int(state.range(0)), k = int(state.range(1)), threads = parallel ? int(state.range(2)) : 1;
    const Image image = make_synthetic_image(side, side, kChannels, 1);
    const Mask mask = parse_mask("gauss:" + std::to_string(k) + ":2", kMaxMaskSize);
    std::vector<float> out(image.elements());
    for (auto _ : state) {
        if (parallel) conv2d_cpu_omp(image, mask, Border::Clamp, out.data(), threads);
        else conv2d_cpu(image, mask, Border::Clamp, out.data());
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    const int64_t pixels = int64_t(side) * side;
    state.SetItemsProcessed(state.iterations() * pixels);
    state.SetBytesProcessed(state.iterations() * pixels * kChannels * int64_t(1 + sizeof(float)));
    state.counters["threads"] = threads;
}

void register_all() {
    for (int side : {256, 1024, 2048})
        for (int k : {3, 7, 15}) {
            if (side <= 1024)
                benchmark::RegisterBenchmark("seq", [](benchmark::State& s) { run(s, false); })
                    ->Args({side, k})->Unit(benchmark::kMillisecond)->UseRealTime();
            for (int threads : default_thread_counts(omp_get_num_procs()))
                benchmark::RegisterBenchmark("omp", [](benchmark::State& s) { run(s, true); })
                    ->Args({side, k, threads})->Unit(benchmark::kMillisecond)->UseRealTime();
        }
}

}  // namespace

int main(int argc, char** argv) {
    register_all();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}

// CUDA against OpenCL on one GPU, in one process (issue 42; the handouts of labs 11 and 12).
// The same three designs written twice, run on the same image and masks through the kit's two
// device back ends: lab 1's and lab 11's naive kernel with the mask in global and in constant
// memory (16x16 blocks and work-groups), lab 3's and lab 12's 16x16 tile. Each result is checked
// against the CPU reference before it is timed. The two sides are timed in turns, a round of
// --reps timed runs of one then a round of the other, ROUNDS times, each side's time the median
// of its rounds' medians: whatever the GPU's clocks or the machine do during the run falls on
// both. The ratio is OpenCL's time over CUDA's; % copy is against each API's own
// device-to-device copy on this GPU, % FP32 against the GPU's FP32 peak (CUDA's figures).
//
//   make cuda-vs-opencl && build/bin/cuda-vs-opencl [--size 2800 --channels 3 --mask box:3,box:5,box:7 ...]
// Options are the labs' (--size, --channels, --mask, --border, --image, --reps, --warmup,
// --cl-device, --cl-list, --format text|json); --rounds N in "Lab". Exit 3 without a CUDA GPU or
// an OpenCL device.
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/check/check.hpp"
#include "common/cli/guarded_main.hpp"
#include "common/cli/lab_input.hpp"
#include "common/cli/options.hpp"
#include "common/core/border.hpp"
#include "common/core/errors.hpp"
#include "common/core/exit_status.hpp"
#include "common/core/reference.hpp"
#include "common/device/gpu_session.hpp"
#include "common/families/filters/cl_device.hpp"
#include "labs/lab1/lab1.hpp"
#include "labs/lab3/lab3.hpp"
#include "labs/lab11/lab11.hpp"
#include "labs/lab12/lab12.hpp"

namespace {

using namespace convlab;

// One design, written for both APIs.
struct Design {
    std::string name;
    GpuVariant cuda;
    GpuVariant opencl;
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// The result in the device's output buffer against the reference: "" when it passes.
std::string wrong_output(const ImageDevice& device, const GpuVariant& v, const Mask& mask, const Image& image,
                         const std::vector<float>& reference, const std::string& api) {
    std::vector<float> out(image.elements());
    device.fetch_output(out.data());
    const CheckResult result = check_output(out.data(), reference.data(), image.width, image.height, image.channels,
                                            tolerance_for(mask), mask.radius(), v.tile);
    return result.passed ? "" : api + ": " + result.summary();
}

// The variant run once on a poisoned output and checked: "" when it passes.
std::string checked(ImageDevice& device, const GpuVariant& v, const Mask& mask, const Image& image, const std::vector<float>& reference,
                    const std::string& api) {
    if (v.prepare) device.run([&] { v.prepare(mask); });
    device.poison_output();
    device.run([&] { v.launch(device.args()); });
    return wrong_output(device, v, mask, image, reference, api);
}

// One design at one mask: its two times, or what was wrong ("" when both sides passed).
struct Row {
    std::string design, mask;
    double bytes = 0, flops = 0;  // the byte model (1 B in, 4 B out a value) and 2 K^2 flops a value
    std::string wrong;
    double cuda_ms = 0, opencl_ms = 0;
};

struct Comparison {
    std::string cuda, opencl, input, timing;
    double cuda_copy_gbs = 0, opencl_copy_gbs = 0, fp32_peak_gflops = 0;
    std::vector<Row> rows;
    std::vector<std::string> notes;
};

double pct(double part, double whole) { return whole > 0 ? 100.0 * part / whole : 0.0; }
double gbs(const Row& r, double ms) { return r.bytes / (ms * 1e-3) * 1e-9; }
double gflops(const Row& r, double ms) { return r.flops / (ms * 1e-3) * 1e-9; }

void print_text(const Comparison& c) {
    std::printf("CUDA     %s, copy %.0f GB/s, FP32 peak %.0f GFLOP/s\n", c.cuda.c_str(), c.cuda_copy_gbs, c.fp32_peak_gflops);
    std::printf("OpenCL   %s, copy %.0f GB/s\n", c.opencl.c_str(), c.opencl_copy_gbs);
    std::printf("Input    %s\nTiming   %s\n\n", c.input.c_str(), c.timing.c_str());
    std::printf("%-32s %-12s %10s %10s %8s %8s %8s %8s\n", "design", "mask", "CUDA ms", "OpenCL ms", "OCL/CUDA", "CUDA %cp", "OCL %cp",
                "CUDA %fp");
    for (const Row& r : c.rows) {
        if (!r.wrong.empty()) {
            std::printf("%-32s %-12s FAIL: %s\n", r.design.c_str(), r.mask.c_str(), r.wrong.c_str());
            continue;
        }
        std::printf("%-32s %-12s %10.4f %10.4f %8.3f %7.1f%% %7.1f%% %7.1f%%\n", r.design.c_str(), r.mask.c_str(), r.cuda_ms, r.opencl_ms,
                    r.opencl_ms / r.cuda_ms, pct(gbs(r, r.cuda_ms), c.cuda_copy_gbs), pct(gbs(r, r.opencl_ms), c.opencl_copy_gbs),
                    pct(gflops(r, r.cuda_ms), c.fp32_peak_gflops));
    }
    for (const std::string& note : c.notes) std::printf("\n%s", note.c_str());
    std::printf("\n");
}

nlohmann::json as_json(const Comparison& c) {
    nlohmann::json rows = nlohmann::json::array();
    for (const Row& r : c.rows) {
        nlohmann::json row = {{"design", r.design}, {"mask", r.mask}, {"status", r.wrong.empty() ? "pass" : "fail"}};
        if (!r.wrong.empty()) row["message"] = r.wrong;
        else {
            row["cuda_ms"] = r.cuda_ms, row["opencl_ms"] = r.opencl_ms, row["opencl_over_cuda"] = r.opencl_ms / r.cuda_ms;
            row["cuda_pct_copy"] = pct(gbs(r, r.cuda_ms), c.cuda_copy_gbs);
            row["opencl_pct_copy"] = pct(gbs(r, r.opencl_ms), c.opencl_copy_gbs);
            row["cuda_pct_fp32"] = pct(gflops(r, r.cuda_ms), c.fp32_peak_gflops);
            row["opencl_pct_fp32"] = pct(gflops(r, r.opencl_ms), c.fp32_peak_gflops);
        }
        rows.push_back(row);
    }
    return {{"schema", "convlab.cuda-vs-opencl/1"}, {"cuda", c.cuda}, {"opencl", c.opencl}, {"input", c.input}, {"timing", c.timing},
            {"cuda_copy_gbs", c.cuda_copy_gbs}, {"opencl_copy_gbs", c.opencl_copy_gbs}, {"fp32_peak_gflops", c.fp32_peak_gflops},
            {"notes", c.notes}, {"rows", rows}};
}

// The labs' options this program honours; any other (--demo, --variant, --out...) is refused,
// not ignored.
void refuse_other_options(int argc, char** argv) {
    static const std::vector<std::string> accepted = {"--size", "--channels", "--mask", "--border", "--image", "--seed", "--reps",
                                                      "--warmup", "--no-flush", "--cl-device", "--cl-list", "--rounds", "--format", "--help"};
    for (int i = 1; i < argc; ++i) {
        const std::string word = argv[i], option = word.substr(0, word.find('='));
        if (option.rfind("--", 0) == 0 && std::find(accepted.begin(), accepted.end(), option) == accepted.end()) {
            std::string list;
            for (const std::string& a : accepted) list += (list.empty() ? "" : ", ") + a;
            throw InputError(option + " is not an option of this comparison; accepted: " + list);
        }
    }
}

int run(int argc, char** argv) {
    refuse_other_options(argc, argv);
    LabSpec spec;
    spec.number = 12;  // the options are lab 12's (its --help says "lab12"): the sweep, the tile's mask sizes
    spec.title = "CUDA against OpenCL on one GPU, in one process (build/bin/cuda-vs-opencl: labs 1 and 3 against 11 and 12)";
    spec.max_mask_size = 31;
    spec.default_mask = "gauss:3:1,gauss:5:1.5,gauss:7:2,gauss:9:2.5,gauss:15:4,gauss:31:8";  // lab 3's sweep
    spec.default_channels = 1;
    spec.lab_options = {{"rounds", "timed rounds of each side, taken in turns (each --reps runs)", "5"}};
    const auto cl = ClBackend::for_lab(spec);  // --cl-list, --cl-device
    std::vector<Design> designs = {
        {"naive, mask in global memory",
         {"cuda", "", launch_conv2d_naive, nullptr, nullptr, {16, 16}},
         cl->variant("opencl", "", kLab11Naive2dGlobal)},
        {"naive, mask in constant memory",
         {"cuda", "", launch_conv2d_naive_const, copy_mask_to_constant, nullptr, {16, 16}},
         cl->variant("opencl", "", kLab11Naive2dConstant)},
        {"tiled 16x16, (16+k-1)^2 tile",
         {"cuda", "", launch_conv2d_tiled, copy_mask_to_tiled_constant, nullptr, {kLab3Tile, kLab3Tile}},
         cl->variant("opencl", "", kLab12Tiled)},
    };
    const Options options = parse_options(argc, argv, spec);
    if (options.help) {
        std::cout << options.help_text;
        return int(kExitPass);
    }
    if (const auto own = spec.device->run_own_mode(options)) return *own;  // --cl-list
    if (options.format != Format::Text && options.format != Format::Json)
        throw InputError("--format: this comparison writes text or json; accepted: --format text, --format json");
    const int rounds = std::stoi(options.lab_values.at("rounds"));
    if (rounds < 1) throw InputError("--rounds " + std::to_string(rounds) + "; accepted: 1 or more");
    if (const std::string why = gpu_unavailable_reason(); !why.empty()) {
        std::cerr << "cuda-vs-opencl: " << why << ": this comparison needs a CUDA GPU\n";
        return int(kExitNoGpu);
    }
    if (const std::string why = spec.device->unavailable_reason(options); !why.empty()) {
        std::cerr << "cuda-vs-opencl: " << why << "\n";
        return int(kExitNoGpu);
    }
    std::string source;
    const Image image = make_lab_input(options, spec.default_channels, &source);
    int max_k = 0;
    for (const Mask& m : options.masks) max_k = std::max(max_k, m.k);
    GpuSession cuda;
    const std::unique_ptr<ImageDevice> opencl = spec.device->open(options);
    cuda.load_image(image, options.border, max_k, 0, false);
    opencl->load_image(image, options.border, max_k, 0, false);
    Comparison out;
    out.cuda = cuda.info().name + " (" + cuda.info().arch() + ")";
    out.opencl = opencl->info().name + " on " + opencl->info().platform;
    out.cuda_copy_gbs = cuda.copy_bandwidth_gbs();
    out.opencl_copy_gbs = opencl->copy_bandwidth_gbs();
    out.fp32_peak_gflops = cuda.info().fp32_peak_gflops();
    out.input = source + " " + std::to_string(image.width) + "x" + std::to_string(image.height) + ", " +
                std::to_string(image.channels) + " channel(s); border " + border_name(options.border);
    out.timing = std::to_string(rounds) + " rounds a side in turns, each the median of " + std::to_string(options.reps) + " runs after " +
                 std::to_string(options.warmup) + " warm-ups" + (options.flush_l2 ? ", the L2 flushed before each" : "") +
                 "; a side's time the median of its rounds";
    const TimingPlan plan{options.warmup, options.reps, options.flush_l2};
    std::vector<float> reference(image.elements());
    for (const Mask& mask : options.masks) {
        conv2d_cpu_omp(image, mask, options.border, reference.data(), omp_get_max_threads());
        cuda.load_mask(mask);
        opencl->load_mask(mask);
        for (const Design& d : designs) {
            Row row{d.name, mask.spec, double(image.elements()) * (1 + sizeof(float)), double(image.elements()) * 2.0 * mask.k * mask.k};
            row.wrong = checked(cuda, d.cuda, mask, image, reference, "CUDA");
            if (row.wrong.empty()) row.wrong = checked(*opencl, d.opencl, mask, image, reference, "OpenCL");
            if (row.wrong.empty()) {
                std::vector<double> cuda_ms, cl_ms;
                for (int r = 0; r < rounds; ++r) {
                    if (d.cuda.prepare) cuda.run([&] { d.cuda.prepare(mask); });
                    cuda_ms.push_back(cuda.time([&] { d.cuda.launch(cuda.args()); }, plan, false).median_ms);
                    cl_ms.push_back(opencl->time([&] { d.opencl.launch(opencl->args()); }, plan, false).median_ms);
                }
                row.cuda_ms = median(cuda_ms);
                row.opencl_ms = median(cl_ms);
                // Checked again after timing: the last timed run's output of each side.
                row.wrong = wrong_output(cuda, d.cuda, mask, image, reference, "CUDA after timing");
                if (row.wrong.empty()) row.wrong = wrong_output(*opencl, d.opencl, mask, image, reference, "OpenCL after timing");
            }
            out.rows.push_back(row);
        }
    }
    out.notes = opencl->notes();
    if (options.format == Format::Json) std::cout << as_json(out).dump(1) << "\n";
    else print_text(out);
    const bool all_passed = std::all_of(out.rows.begin(), out.rows.end(), [](const Row& r) { return r.wrong.empty(); });
    return int(all_passed ? kExitPass : kExitCheckFailed);
}

}  // namespace

int main(int argc, char** argv) {
    return convlab::guarded_main("cuda-vs-opencl", "a smaller --size", [&] { return run(argc, argv); });
}

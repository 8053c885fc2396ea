// convlab lab 6 driver — do not edit. Your work is in conv2d_separable.cu.
#include "build/gen/lab6/manifest.hpp"
#include "common/core/errors.hpp"
#include "common/families/filters/filter_lab.hpp"
#include "common/core/reference.hpp"
#include "common/core/separable.hpp"
#include "labs/lab3/lab3.hpp"
#include "labs/lab6/lab6.hpp"

namespace {

using namespace convlab;

// The K x K sum on one core takes K^2 taps a value: at K = 63 on the default image, minutes.
constexpr int kSequentialDirectMaxMaskSize = 31;

void sequential_direct(const Problem& p, float* h_out, int) {
    if (p.mask.k > kSequentialDirectMaxMaskSize)
        throw Unsupported("the K x K sum on one core runs up to K = " + std::to_string(kSequentialDirectMaxMaskSize) +
                          " (K^2 taps a value would take minutes here)");
    conv2d_cpu_omp(p.image, p.mask, p.border, h_out, 1);
}

void sequential_separable(const Problem& p, float* h_out, int) { conv2d_cpu_separable(p.image, p.mask, p.border, h_out, 1); }

// Lab 3's kernel holds the K x K weights in constant memory sized for K <= 31.
void prepare_lab3_tiled(const Mask& mask) {
    if (mask.k > kLab3MaxMaskSize)
        throw Unsupported("your lab 3 kernel takes K up to " + std::to_string(kLab3MaxMaskSize));
    copy_mask_to_tiled_constant(mask);
}

// Both separable variants: a mask that is not rank 1 is refused in one line (its rank), never
// computed wrong.
void prepare_separable(const Mask& mask) {
    require_separable(mask);
    copy_factors_to_constant(mask);
}

void launch_two_pass(const ConvArgs& args) {
    launch_row_pass(args);
    launch_column_pass(args);
}

}  // namespace

int main(int argc, char** argv) {
    LabSpec spec = spec_of(kManifest);  // number, title and student files: labs/lab6/manifest
    spec.max_mask_size = kLab6MaxMaskSize;
    spec.default_mask = "gauss:3:1,gauss:5:1.5,gauss:7:2,gauss:9:2.5,gauss:15:4,gauss:31:8,gauss:63:16";  // the sweep
    spec.default_channels = 1;
    spec.default_cpu_reps = 1;
    spec.two_pass_reference = true;  // the reference below sums the factors: K = 63 in seconds
    spec.float_intermediate = true;  // args.d_scratch for the two passes
    const WorkModel direct{}, two_pass{13, true}, fused{5, true};
    spec.cpu = {
        {"sequential-direct", "the K x K sum on one core (K <= 31)", sequential_direct, false, direct, false, true},
        {"sequential-separable", "a row pass then a column pass on one core, double", sequential_separable, false, fused, false, true},
    };
    spec.gpu = {
        {"lab3-tiled", "your lab 3 kernel: the K x K sum from a shared tile (K <= 31)", launch_conv2d_tiled,
         prepare_lab3_tiled, nullptr, {kLab3Tile, kLab3Tile}, direct},
        {"two-pass", "row pass to a float intermediate in global memory, then column pass", launch_two_pass,
         prepare_separable, nullptr, {kLab6TileWidth, kLab6TileHeight}, two_pass},
        {"fused", "row pass of the tile and its column halo into shared memory, column pass from there",
         launch_conv2d_fused, prepare_separable, nullptr, {kLab6TileWidth, kLab6TileHeight}, fused},
    };
    spec.baseline = "lab3-tiled";
    // Dani & Niccoli's mask sweep (colour, zero border, box 3 to 31, up to 8192^2; their separable
    // CUDA variant reached 69.97x a sequential run, the direct one 162.74x), and Lourenço 2011's
    // Gaussian (sigma 1.4, grey, the largest of his tiled Berkeley images).
    spec.presets = {
        {"dani-niccoli", "Dani & Niccoli: colour, zero border, box masks 3 to 31 (their sides: 512 to 8192)",
         {"--image", "random", "--size", "8192", "--channels", "3", "--border", "zero", "--mask", "box:3,box:5,box:9,box:15,box:31"}},
        {"lourenco-2011", "Lourenço 2011, Canny's Gaussian: sigma 1.4 on his B4 images (2568x3848, grey)",
         {"--image", "random", "--size", "2568x3848", "--channels", "1", "--border", "clamp", "--mask", "gauss:9:1.4"}},
    };
    return run_lab(argc, argv, spec);
}

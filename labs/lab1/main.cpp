// convlab lab 1 driver — do not edit. Your work is in conv2d_naive.cu and conv2d_naive_host.cu.
#include "build/gen/lab1/manifest.hpp"
#include "common/families/filters/filter_lab.hpp"
#include "labs/lab1/lab1.hpp"

int main(int argc, char** argv) {
    using namespace convlab;
    LabSpec spec = spec_of(kManifest);  // number, title and student files: labs/lab1/manifest
    spec.max_mask_size = kLab1MaxMaskSize;
    const TileShape block{16, 16};  // the block the handout suggests, for the check's hints
    spec.gpu = {
        {"naive-2d-global", "2-D blocks, one thread per pixel, mask in global memory", launch_conv2d_naive, nullptr,
         [](const Problem& p, float* h_out) { conv2d_naive_gpu(p.image, p.mask, p.border, h_out); }, block},
        {"naive-1d-global", "1-D blocks over the pixels in row-major order, mask in global memory", launch_conv2d_naive_1d},
        {"naive-2d-constant", "2-D blocks, mask in __constant__ memory", launch_conv2d_naive_const, copy_mask_to_constant,
         nullptr, block},
    };
    spec.baseline = "naive-2d-global";
    // Mesa Hidalgo & Arenas 2015, Table 1's CUDA II column (2-D blocks, mask in constant memory):
    // colour, zero border, 3x3 to 7x7, sides 2800, 5600, 11200, 22400 (one per run: add --size).
    spec.presets = {
        {"mesa-hidalgo-2015", "Mesa Hidalgo & Arenas 2015, Table 1: RGB, zero border, 3x3 to 7x7 (their sides: 2800, 5600, 11200, 22400)",
         {"--image", "random", "--size", "2800", "--channels", "3", "--border", "zero", "--mask", "box:3,box:5,box:7"}},
    };
    return run_lab(argc, argv, spec);
}

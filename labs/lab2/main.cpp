// convlab lab 2 driver — do not edit. Your work is in conv2d_tiled_3x3.cu.
#include "build/gen/lab2/manifest.hpp"
#include "common/families/filters/filter_lab.hpp"
#include "labs/lab1/lab1.hpp"
#include "labs/lab2/lab2.hpp"

int main(int argc, char** argv) {
    using namespace convlab;
    LabSpec spec = spec_of(kManifest);  // number, title and student files: labs/lab2/manifest
    spec.min_mask_size = 3;
    spec.max_mask_size = 3;
    spec.default_mask = "sobel-x";
    spec.gpu = {
        {"lab1-naive", "your lab 1 kernel: 2-D blocks, mask in global memory", launch_conv2d_naive, nullptr, nullptr, {16, 16}},
        {"tiled-input", "block = input tile: 16x16 threads load, the inner 14x14 compute", launch_conv2d_tiled_in,
         copy_mask3x3_to_constant, nullptr, {kLab2InputTileOutputs, kLab2InputTileOutputs}},
        {"tiled-output", "block = output tile: 16x16 threads compute, the edge threads also load the halo",
         launch_conv2d_tiled_out, copy_mask3x3_to_constant, nullptr, {kLab2OutputTile, kLab2OutputTile}},
    };
    spec.baseline = "lab1-naive";
    // The sources' fixed 3x3 comparisons: Mesa Hidalgo & Arenas 2015 (CUDA III, shared, vs II, global;
    // RGB, zero border) and Korbes 2010 (P2 at 3x3; grey, periodic border, sides 177 to 2027).
    spec.presets = {
        {"mesa-hidalgo-2015", "Mesa Hidalgo & Arenas 2015, Table 1 at 3x3: RGB, zero border (their sides: 2800 to 22400)",
         {"--image", "random", "--size", "2800", "--channels", "3", "--border", "zero", "--mask", "box:3"}},
        {"korbes-2010", "Korbes 2010 at 3x3: grey, periodic border, an averaging mask (their sides: 177 to 2027)",
         {"--image", "random", "--size", "2027", "--channels", "1", "--border", "wrap", "--mask", "box:3"}},
    };
    return run_lab(argc, argv, spec);
}

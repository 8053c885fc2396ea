// convlab lab 3 driver — do not edit. Your work is in conv2d_tiled.cu.
#include "build/gen/lab3/manifest.hpp"
#include "common/families/filters/filter_lab.hpp"
#include "labs/lab1/lab1.hpp"
#include "labs/lab3/lab3.hpp"

int main(int argc, char** argv) {
    using namespace convlab;
    LabSpec spec = spec_of(kManifest);  // number, title and student files: labs/lab3/manifest
    spec.max_mask_size = kLab3MaxMaskSize;
    spec.default_mask = "gauss:3:1,gauss:5:1.5,gauss:7:2,gauss:9:2.5,gauss:15:4,gauss:31:8";  // the sweep
    spec.default_channels = 1;
    spec.default_cpu_reps = 1;
    spec.gpu = {
        {"lab1-naive", "your lab 1 kernel: mask in global memory", launch_conv2d_naive, nullptr, nullptr, {16, 16}},
        {"lab1-naive-const", "your lab 1 kernel with the mask in constant memory", launch_conv2d_naive_const,
         copy_mask_to_constant, nullptr, {16, 16}},
        {"tiled", "16x16 output tile, (16+k-1)^2 input tile loaded in passes by every thread", launch_conv2d_tiled,
         copy_mask_to_tiled_constant, nullptr, {kLab3Tile, kLab3Tile}},
    };
    spec.baseline = "lab1-naive";
    // Korbes 2010's results table (P3: grey, periodic border, averaging masks 3 to 9, sides 177 to
    // 2027) and Dani & Niccoli's mask sweep (colour, zero border, box 3 to 31, up to 8192^2).
    spec.presets = {
        {"korbes-2010", "Korbes 2010, P3's table: grey, periodic border, averaging masks 3 to 9 (their sides: 177 to 2027)",
         {"--image", "random", "--size", "2027", "--channels", "1", "--border", "wrap", "--mask", "box:3,box:5,box:7,box:9"}},
        {"dani-niccoli", "Dani & Niccoli: colour, zero border, box masks 3 to 31 (their sides: 512 to 8192)",
         {"--image", "random", "--size", "8192", "--channels", "3", "--border", "zero", "--mask", "box:3,box:5,box:9,box:15,box:31"}},
    };
    return run_lab(argc, argv, spec);
}

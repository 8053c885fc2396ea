// convlab lab 2 driver — do not edit. Your work is in conv2d_tiled_3x3.cu.
#include "build/gen/lab2/manifest.hpp"
#include "common/lab.hpp"
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
    return run_lab(argc, argv, spec);
}

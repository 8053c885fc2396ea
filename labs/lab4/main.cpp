// convlab lab 4 driver — do not edit. Your work is in conv2d_coarse.cu, conv2d_window.cu and
// conv2d_register.cu.
#include "build/gen/lab4/manifest.hpp"
#include "common/families/filters/filter_lab.hpp"
#include "labs/lab3/lab3.hpp"
#include "labs/lab4/lab4.hpp"

int main(int argc, char** argv) {
    using namespace convlab;
    LabSpec spec = spec_of(kManifest);  // number, title and student files: labs/lab4/manifest
    spec.max_mask_size = kLab4MaxMaskSize;
    spec.default_mask = "gauss:7:2,gauss:15:4,gauss:31:8";
    spec.default_channels = 1;
    spec.default_cpu_reps = 1;
    spec.gpu.push_back({"lab3-tiled", "your lab 3 kernel: one output per thread", launch_conv2d_tiled,
                        copy_mask_to_tiled_constant, nullptr, {kLab3Tile, kLab3Tile}});
#define COARSE_VARIANT(gx, gy, bx, by)                                                                         \
    spec.gpu.push_back({"coarse-" #gx "x" #gy "-b" #bx "x" #by,                                               \
                        #gx "x" #gy " outputs per thread, " #bx "x" #by " threads", launch_conv2d_coarse<gx, gy, bx, by>, \
                        copy_mask_to_coarse_constant, nullptr, {bx * gx, by * gy}});
    LAB4_COARSE_SHAPES(COARSE_VARIANT)
#undef COARSE_VARIANT
#define WINDOW_VARIANT(gy)                                                                                     \
    spec.gpu.push_back({"window-8x" #gy, "8x" #gy " outputs per thread, the input row in registers",          \
                        launch_conv2d_window<gy>, nullptr, nullptr, {kWindowBlockX * 2 * kWindowRun, kWindowBlockY * gy}});
    LAB4_WINDOW_ROWS(WINDOW_VARIANT)
#undef WINDOW_VARIANT
#define REGISTER_VARIANT(gy)                                                                                   \
    spec.gpu.push_back({"register-4x" #gy, "4x" #gy " outputs per thread from global memory, no shared memory (k <= 9)", \
                        launch_conv2d_register<gy>, copy_mask_to_register_constant, nullptr,                  \
                        {kRegisterThreads * kRegisterRun, gy}});
    LAB4_REGISTER_ROWS(REGISTER_VARIANT)
#undef REGISTER_VARIANT
    spec.baseline = "lab3-tiled";
    // Mesa Hidalgo & Arenas 2015, Fig. 8: granularity on a 3000x4000 colour image with a 3x3 mask.
    spec.presets = {
        {"mesa-hidalgo-2015", "Mesa Hidalgo & Arenas 2015, Fig. 8: 3000x4000 RGB, 3x3, outputs per thread",
         {"--image", "random", "--size", "3000x4000", "--channels", "3", "--border", "zero", "--mask", "box:3"}},
    };
    return run_lab(argc, argv, spec);
}

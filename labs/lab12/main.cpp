// convlab lab 12 driver — do not edit. Your work is in conv2d_tiled.cl.
// Lab 3's tiled kernel in OpenCL, beside your lab 11 kernels, run through the kit's OpenCL back end
// (common/families/filters/cl_device.hpp) on a GPU's OpenCL driver, or on the CPU through PoCL
// on a machine without a GPU. The host side (buffers, launches, local memory, events) is the kit's.
#include "build/gen/lab12/manifest.hpp"
#include "common/families/filters/cl_device.hpp"
#include "common/families/filters/filter_lab.hpp"
#include "labs/lab11/lab11.hpp"
#include "labs/lab12/lab12.hpp"

int main(int argc, char** argv) {
    using namespace convlab;
    LabSpec spec = spec_of(kManifest);  // number, title and student files: labs/lab12/manifest
    spec.max_mask_size = 31;
    spec.default_mask = "gauss:3:1,gauss:5:1.5,gauss:7:2,gauss:9:2.5,gauss:15:4,gauss:31:8";  // lab 3's sweep
    spec.default_channels = 1;
    spec.default_cpu_reps = 1;
    const auto cl = ClBackend::for_lab(spec);  // --cl-list, --cl-device
    // The work-group shape of lab 3's blocks (lab11.hpp, lab12.hpp), so that a CUDA run and an
    // OpenCL run compare one design.
    spec.gpu = {
        cl->variant("lab11-naive", "your lab 11 kernel: 2-D NDRange, mask in __global memory", kLab11Naive2dGlobal),
        cl->variant("lab11-naive-const", "your lab 11 kernel with the mask in __constant memory", kLab11Naive2dConstant),
        cl->variant("tiled", "16x16 output tile, (16+k-1)^2 input tile in __local memory loaded in passes by every work-item",
                    kLab12Tiled),
    };
    spec.baseline = "lab11-naive";
    // Lab 3's experiments, so that its CUDA rows and these compare: Korbes 2010's results table (P3:
    // grey, periodic border, averaging masks 3 to 9) and Dani & Niccoli's mask sweep (colour, zero
    // border, box 3 to 31).
    spec.presets = {
        {"korbes-2010", "Korbes 2010, P3's table: grey, periodic border, averaging masks 3 to 9 (their sides: 177 to 2027)",
         {"--image", "random", "--size", "2027", "--channels", "1", "--border", "wrap", "--mask", "box:3,box:5,box:7,box:9"}},
        {"dani-niccoli", "Dani & Niccoli: colour, zero border, box masks 3 to 31 (their sides: 512 to 8192)",
         {"--image", "random", "--size", "8192", "--channels", "3", "--border", "zero", "--mask", "box:3,box:5,box:9,box:15,box:31"}},
    };
    return run_lab(argc, argv, spec);
}

// convlab lab 11 driver — do not edit. Your work is in conv2d_naive.cl.
// Lab 1's naive kernel in OpenCL: the same variants, run through the kit's OpenCL back end
// (common/families/filters/cl_device.hpp) on a GPU's OpenCL driver, or on the CPU through PoCL
// on a machine without a GPU. The host side (buffers, launches, events) is the kit's.
#include "build/gen/lab11/manifest.hpp"
#include "common/families/filters/cl_device.hpp"
#include "common/families/filters/filter_lab.hpp"
#include "labs/lab11/lab11.hpp"

int main(int argc, char** argv) {
    using namespace convlab;
    LabSpec spec = spec_of(kManifest);  // number, title and student files: labs/lab11/manifest
    spec.max_mask_size = 31;
    const auto cl = ClBackend::for_lab(spec);  // --cl-list, --cl-device
    // The work-group shapes of lab 1's blocks (lab11.hpp), so that a CUDA run and an OpenCL run
    // compare one design. Mesa Hidalgo & Arenas took their work-group size from CUDA's occupancy
    // figures, as OpenCL does not say what suits a device; given none, the driver picks one (the
    // report's notes say which).
    ClKernel driver_chooses = kLab11Naive2dGlobal;
    driver_chooses.range = ClNdRange{2, 0, 0, true};
    spec.gpu = {
        cl->variant("naive-2d-global", "2-D NDRange, 16x16 work-groups, one work-item per pixel, mask in __global memory",
                    kLab11Naive2dGlobal),
        cl->variant("naive-1d-global", "1-D NDRange of 256-item work-groups over the pixels in row-major order, mask in __global",
                    kLab11Naive1dGlobal),
        cl->variant("naive-2d-constant", "2-D NDRange, 16x16 work-groups, mask in __constant memory", kLab11Naive2dConstant),
        cl->variant("naive-2d-driver-groups", "naive-2d-global's kernel given no work-group size (local_work_size NULL): the driver "
                    "chooses, and the notes say what", driver_chooses),
    };
    spec.baseline = "naive-2d-global";
    // Mesa Hidalgo & Arenas 2015, Table 1's OpenCL column (2-D work-groups, mask in constant memory):
    // colour, zero border, 3x3 to 7x7, sides 2800, 5600, 11200, 22400 (one per run: add --size).
    spec.presets = {
        {"mesa-hidalgo-2015", "Mesa Hidalgo & Arenas 2015, Table 1: RGB, zero border, 3x3 to 7x7 (their sides: 2800, 5600, 11200, 22400)",
         {"--image", "random", "--size", "2800", "--channels", "3", "--border", "zero", "--mask", "box:3,box:5,box:7"}},
    };
    return run_lab(argc, argv, spec);
}

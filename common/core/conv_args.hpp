// convlab harness — do not edit in a lab.
// What every convolution kernel launch receives: device pointers and the problem's shape.
#pragma once
#include <cstdint>

#include "common/core/border.hpp"

namespace convlab {

struct ConvArgs {
    const uint8_t* d_in;   // width*height*channels bytes, interleaved (RGBRGB...), row-major
    float* d_out;          // the same layout in float; poisoned with NaN before every run
    const float* d_mask;   // k*k weights, row-major, in global memory
    int width;
    int height;
    int channels;          // 1 or 3
    int k;                 // odd mask size; radius k/2
    Border border;
    // A two-pass filter's intermediate, laid out like d_out and poisoned with it; nullptr unless
    // the lab asks for it (LabSpec::float_intermediate). Last, so ConvArgs{...} without it still builds.
    float* d_scratch = nullptr;
};

}  // namespace convlab

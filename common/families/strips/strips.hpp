// convlab harness — do not edit in a lab.
// The strips family (lab 9): an image bigger than the GPU, convolved a strip of rows at a time.
// What a strip variant is given (StripJob) and a strip's device footprint; the convolution of
// one strip is the lab's given kernel (labs/lab9/strip_kernel.hpp).
//
// A strip of output rows [first, first + rows) reads input rows [first - r, first + rows + r)
// (r = k/2): its halo. Inside the image those are real rows, the neighbour strips' pixels; only
// where they fall outside the image's own top or bottom does the border rule make them. The
// strip's device input holds all rows + k - 1 of them, so the kernel never applies a border
// rule up and down, only left and right.
#pragma once
#include <cstddef>
#include <cstdint>

#include "common/core/border.hpp"

namespace convlab {

// What a strip variant computes: the whole image's result, from host memory to host memory.
struct StripJob {
    const uint8_t* h_in;   // width*height*channels bytes, interleaved, row-major
    float* h_out;          // the same layout in float; poisoned with NaN before every run
    int width;
    int height;
    int channels;          // 1 or 3
    int k;                 // odd mask size, up to the lab's largest; the mask is already on every GPU
    Border border;
    size_t gpu_memory;     // the most device memory the variant may hold at once, on each GPU it uses
    int gpus;              // the GPUs it may use: devices 0 .. gpus-1 (1 but for the several-GPU variant)
    bool pinned;           // whether h_in and h_out are page-locked (registered with the driver)
};

// Device bytes for one strip of `rows` output rows: its input with the halo, (rows + k - 1)
// rows of bytes, and its output, rows rows of floats.
inline size_t strip_device_bytes(const StripJob& job, int rows) {
    const size_t row_values = size_t(job.width) * job.channels;
    return size_t(rows + job.k - 1) * row_values + size_t(rows) * row_values * sizeof(float);
}

}  // namespace convlab

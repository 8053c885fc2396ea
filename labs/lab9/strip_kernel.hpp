// convlab lab 9 — given, do not edit. The convolution of one strip that the lab hands you (its
// lesson is moving the data, not the kernel): lab 3's shared-memory tile with the mask in
// constant memory, built into the driver from labs/lab9/strip_kernel.cu.
#pragma once
#include <cstdint>

#include "common/core/border.hpp"

// cudaStream_t as the CUDA runtime declares it, so that the drivers (plain C++) can include this.
struct CUstream_st;
typedef CUstream_st* cudaStream_t;

namespace convlab {

constexpr int kStripMaxMaskSize = 31;  // the constant memory holds a 31x31 mask

// One strip's convolution: d_in holds rows + k - 1 input rows (the halo included, border rows
// already made), d_out receives rows output rows. Left and right, taps follow `border`.
struct StripArgs {
    const uint8_t* d_in;
    float* d_out;
    int width;
    int rows;       // output rows
    int channels;
    int k;
    Border border;  // for columns only
};

// Enqueues the convolution of one strip on `stream`, on the current device, with the mask the
// harness put there (set_strip_mask). Any odd k up to kStripMaxMaskSize, 1 or 3 channels.
void launch_conv2d_strip(const StripArgs& args, cudaStream_t stream);

// The k*k weights into the current device's constant memory (each GPU its own); the harness
// calls it on every GPU before a run (StripLabSpec::set_mask).
void set_strip_mask(const float* weights, int k);

}  // namespace convlab

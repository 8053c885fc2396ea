// convlab lab 1 — do not edit: the functions the driver calls. You write them in
// conv2d_naive.cu (kernels and launches) and conv2d_naive_host.cu (the end-to-end host side).
#pragma once
#include "common/core/conv_args.hpp"
#include "common/core/image.hpp"
#include "common/core/mask.hpp"

// The largest mask lab 1 accepts; c_mask in constant memory holds this many squared.
constexpr int kLab1MaxMaskSize = 31;

// Each launches one kernel on the default stream over the harness's device buffers and returns
// without synchronising (the harness times the launch with CUDA events).
void launch_conv2d_naive(const convlab::ConvArgs& args);        // 2-D grid of 2-D blocks, mask in global memory
void launch_conv2d_naive_1d(const convlab::ConvArgs& args);     // 1-D grid of 1-D blocks, mask in global memory
void launch_conv2d_naive_const(const convlab::ConvArgs& args);  // 2-D, mask in constant memory

// Copies the mask's weights into the __constant__ array the _const kernel reads.
void copy_mask_to_constant(const convlab::Mask& mask);

// The whole job from the host: allocate device memory, copy the image and the mask in, launch
// the 2-D kernel, copy the result back into h_out (width*height*channels floats), free.
void conv2d_naive_gpu(const convlab::Image& h_in, const convlab::Mask& h_mask, convlab::Border border, float* h_out);

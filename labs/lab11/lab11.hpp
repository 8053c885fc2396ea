// convlab lab 11 — do not edit: the kernels of your conv2d_naive.cl the kit launches, and how.
// The driver (main.cpp) runs them as its variants; measurements/cuda_vs_opencl.cpp launches the
// same ones beside lab 1's CUDA kernels, so that both time one design.
#pragma once
#include "common/families/filters/cl_device.hpp"

// The work-group shapes of lab 1's blocks: 16x16 over a 2-D NDRange, 256 over a 1-D one.
inline const convlab::ClNdRange kLab11Groups2d{2, 16, 16}, kLab11Groups1d{1, 256, 1};

inline const convlab::ClKernel kLab11Naive2dGlobal{"conv2d_naive.cl", "conv2d_naive_kernel", kLab11Groups2d};
inline const convlab::ClKernel kLab11Naive1dGlobal{"conv2d_naive.cl", "conv2d_naive_1d_kernel", kLab11Groups1d};
inline const convlab::ClKernel kLab11Naive2dConstant{"conv2d_naive.cl", "conv2d_naive_const_kernel", kLab11Groups2d};

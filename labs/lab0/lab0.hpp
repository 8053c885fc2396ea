// convlab lab 0 — do not edit: the declaration the driver calls.
#pragma once
#include "common/core/border.hpp"
#include "common/core/image.hpp"
#include "common/core/mask.hpp"

// Computes what convlab::conv2d_cpu (common/core/reference.cpp) computes, with `threads` OpenMP
// threads, each taking one contiguous chunk of rows. out holds width*height*channels floats.
void conv2d_omp(const convlab::Image& in, const convlab::Mask& mask, convlab::Border border, float* out, int threads);

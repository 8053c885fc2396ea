// convlab lab 0 — do not edit: the declaration the driver calls.
#pragma once
#include "common/border.hpp"
#include "common/image.hpp"
#include "common/mask.hpp"

// Computes what convlab::conv2d_cpu (common/reference.cpp) computes, with `threads` OpenMP
// threads, each taking one contiguous chunk of rows. out holds width*height*channels floats.
void conv2d_omp(const convlab::Image& in, const convlab::Mask& mask, convlab::Border border, float* out, int threads);

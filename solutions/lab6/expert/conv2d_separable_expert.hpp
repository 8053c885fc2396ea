// Lab 6's expert tier (conv2d_separable_expert.cu), for the expert tiers of the labs that link lab
// 6 (the Makefile links a lab's `uses` expert files into its reference solution's program): lab
// 8's expert pipelines smooth with the tuned fused kernel, as the design's smooth with lab 6's own.
#pragma once
#include "common/core/conv_args.hpp"
#include "common/core/mask.hpp"

namespace lab6_expert {

void copy_factors_to_constant(const convlab::Mask& mask);  // the tuned kernels' constant memory
void launch_conv2d_fused(const convlab::ConvArgs& args);   // d_in -> d_out, as lab 6's launch_conv2d_fused

}  // namespace lab6_expert

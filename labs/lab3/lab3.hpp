// convlab lab 3 — do not edit: the functions the driver calls. You write them in conv2d_tiled.cu.
#pragma once
#include "common/core/conv_args.hpp"
#include "common/core/mask.hpp"

constexpr int kLab3MaxMaskSize = 31;
constexpr int kLab3Tile = 16;  // a block of 16x16 threads computes a 16x16 output tile

void copy_mask_to_tiled_constant(const convlab::Mask& mask);  // the k*k weights into c_tiled_mask
void launch_conv2d_tiled(const convlab::ConvArgs& args);      // any odd k up to kLab3MaxMaskSize

// convlab lab 2 — do not edit: the functions the driver calls. You write them in conv2d_tiled_3x3.cu.
#pragma once
#include "common/core/conv_args.hpp"
#include "common/core/mask.hpp"

// The two tilings' shapes. Block = input tile: 16x16 threads load 16x16 pixels and the inner
// 14x14 compute. Block = output tile: 16x16 threads compute 16x16 pixels from an 18x18 tile.
constexpr int kLab2InputTile = 16;
constexpr int kLab2InputTileOutputs = kLab2InputTile - 2;
constexpr int kLab2OutputTile = 16;
constexpr int kLab2MaxChannels = 3;  // shared tiles are sized for colour

void copy_mask3x3_to_constant(const convlab::Mask& mask);            // the 9 weights into c_mask3x3
void launch_conv2d_tiled_in(const convlab::ConvArgs& args);    // block = input tile
void launch_conv2d_tiled_out(const convlab::ConvArgs& args);   // block = output tile

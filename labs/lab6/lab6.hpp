// convlab lab 6 — do not edit: the functions the driver calls. You write them in
// conv2d_separable.cu.
//
// A separable K x K mask is a column times a row: weights[i*k + j] = col[i] * row[j] (mask.hpp).
// Two passes of K taps then replace the K^2 taps of lab 3:
//   row pass     tmp(x, y) = sum_j row[j] * in(x + j - r, y)      d_in  -> d_scratch (float)
//   column pass  out(x, y) = sum_i col[i] * tmp(x, y + i - r)     d_scratch -> d_out
// The border rule applies in each pass exactly as in the 2-D sum (border_index on x in the row
// pass, on y in the column pass), so both compute the same values, to float rounding.
#pragma once
#include "common/core/conv_args.hpp"
#include "common/core/mask.hpp"

// Wider than lab 3's 31: a pass holds a K-wide strip of one axis, not a K x K tile.
constexpr int kLab6MaxMaskSize = 63;

// The output tile of one block, in every kernel of the lab (the check's "tile edge" hints).
constexpr int kLab6TileWidth = 64;
constexpr int kLab6TileHeight = 64;

// Copies mask.row and mask.col (k weights each) into your file's __constant__ arrays c_row and
// c_col. The driver calls it only for a separable mask (it refuses the others, saying the
// mask's rank).
void copy_factors_to_constant(const convlab::Mask& mask);

void launch_row_pass(const convlab::ConvArgs& args);     // d_in -> d_scratch, any odd k up to 63
void launch_column_pass(const convlab::ConvArgs& args);  // d_scratch -> d_out
// One kernel: the row pass of a tile and its column halo into shared memory, then the column
// pass from there; the intermediate never goes to global memory.
void launch_conv2d_fused(const convlab::ConvArgs& args);  // d_in -> d_out

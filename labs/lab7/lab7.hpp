// convlab lab 7 — do not edit: the functions the driver calls. You write them in
// box_running_sum.cu, box_summed_area.cu and conv2d_texture.cu.
//
// The box filter: every weight of the K x K mask is 1/K^2, so the output is the mean of the
// window. Its sum needs no K^2 work:
//   running sum        slide the window: add the value entering, subtract the one leaving;
//                      along each row, then down each column: O(1) a value, whatever K
//   summed-area table  S(y, x) = sum of in over [0, y] x [0, x]; any window's sum from four of
//                      its entries: S(y2, x2) - S(y1, x2) - S(y2, x1) + S(y1, x1)
// Both sum the 8-bit input in integers and divide once at the end: the result is exact to the
// rounding of that division, and the check holds them to it (check.hpp, integer_box_tolerance).
// Entering and leaving values follow the border rule (border_index, common/core/border.hpp), as
// every tap of the direct sum does.
#pragma once
#include "common/core/conv_args.hpp"
#include "common/core/mask.hpp"

constexpr int kLab7MaxMaskSize = 31;

// Where the check's "tile edge" hints put block boundaries: the solution's running-sum blocks
// each filter a strip kLab7StripWidth pixels wide and kLab7StripHeight rows tall.
constexpr int kLab7StripWidth = 128;
constexpr int kLab7StripHeight = 128;
// The texture variant's output tile, as lab 3's.
constexpr int kLab7TextureTile = 16;

// The box of args.k (the driver calls these only for a box:K mask; it refuses any other),
// d_in -> d_out, any odd k up to kLab7MaxMaskSize, 1 or 3 channels, every border.
void launch_box_running_sum(const convlab::ConvArgs& args);
// The same from a summed-area table. args.d_scratch has 4 bytes a value, laid out like d_out:
// hold the table there as uint32_t (reinterpret_cast<uint32_t*>(args.d_scratch)). On a large
// bright image the table's entries pass 2^32 (255 * 4200 * 4200 is 4.5e9): see the handout for
// why unsigned 32-bit arithmetic still gives every window's exact sum, and float does not.
void launch_box_summed_area(const convlab::ConvArgs& args);

// Any mask, as lab 3 (correlation, k x k weights): the image read through a texture object over
// a cudaArray, the border by the texture unit's address mode where it means the kit's rule.
void copy_mask_to_texture_constant(const convlab::Mask& mask);  // the k*k weights into c_texture_mask
void launch_conv2d_texture(const convlab::ConvArgs& args);

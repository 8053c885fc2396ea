// convlab harness — do not edit in a lab.
// Built-in inputs, generated from a seed so every run and every machine sees the same pixels.
#pragma once
#include <cstdint>

#include "common/core/image.hpp"

namespace convlab {

// Shapes with sharp edges, smooth gradients, a fine stripe texture and noise: a blur, an edge
// filter or a misplaced halo all show in the output picture. Any size, 1 or 3 channels.
Image make_synthetic_image(int width, int height, int channels, uint64_t seed);

// Every byte uniform in 0..255: the hardest input for a check (no two neighbours alike).
Image make_random_image(int width, int height, int channels, uint64_t seed);

// Every byte uniform in 224..255: a summed-area table of 17 megapixels or more passes 2^32 (lab
// 7's overflow case), and a wrong sum is still visible in every value.
Image make_bright_image(int width, int height, int channels, uint64_t seed);

// A square spiral on black: a line 2 pixels wide with 6 pixels between its turns, from the outer
// corner (2, 2) inwards, white for its first 8 steps, then fading to grey 60 for the rest. For
// lab 8: with thresholds at 10% and 50% of the largest gradient, only the white start's edges are
// strong, and hysteresis must carry them along every turn to the centre (from about 48 pixels a
// side the whole spiral is one edge). Any size; every channel the same.
Image make_spiral_image(int width, int height, int channels);

// Long straight lines on black, about 2 pixels wide with soft sides, at 16 angles: every 15
// degrees from 0 to 165 and the quantisation's sector edges 22.5, 67.5, 112.5 and 157.5. Each
// passes near the centre at its own offset, so they cross one another, and is bright (230) for
// the first sixth of its length across the image, then dim (70). For lab 8: with thresholds at 10%
// and 50% of the largest magnitude the dim parts are weak, joined to the bright ones only along
// their lines and through the crossings. Any size; every channel the same.
Image make_lines_image(int width, int height, int channels);

// A scene for a lecture, where a blur, an edge detector or a sharpen shows at a glance: four
// quarters, each high in contrast. Top left, a star of 36 black and white spokes (edges at every
// angle, finer towards its centre than any mask can keep); top right, lines of text-like glyphs
// (random 3x5 patterns of cells, dark on light); bottom left, a woven texture of two crossed
// gratings; bottom right, saturated discs and squares on a colour ramp (grey where one channel).
// The seed draws the glyphs and the shapes; any size from 1x1 (each quarter scales with it).
Image make_scene_image(int width, int height, int channels, uint64_t seed);

}  // namespace convlab

// convlab harness — do not edit in a lab.
// Lab 8's pictures, as a lecturer shows them (--out, --demo): the edge map, the gradient
// magnitude made visible, and where an edge map differs from the reference's.
#pragma once
#include <cstdint>

#include "common/core/image.hpp"

namespace convlab {

// One channel: 255 where edges[i] != 0, 0 elsewhere.
Image edge_map_picture(const uint8_t* edges, int width, int height);

// One channel: the magnitude scaled so that the 99th percentile of its nonzero values is white,
// rounded, clamped to 255. Scaled by the largest value instead, a few strong edges would leave
// every other edge nearly black. The percentile is taken over at most about a million pixels
// spread evenly over the image. All zero: black.
Image magnitude_picture(const float* magnitude, int width, int height);

// Three channels, an edge map against the reference's: white where both have an edge, missed
// edges (the reference's only) in kMissedEdgeColour, false ones (the tested map's only) in
// kFalseEdgeColour, black where neither has one. Orange and blue: told apart with any common
// colour blindness.
struct Rgb {
    uint8_t r, g, b;
};
constexpr Rgb kMissedEdgeColour{255, 140, 0};
constexpr Rgb kFalseEdgeColour{30, 144, 255};
Image edge_difference_picture(const uint8_t* tested, const uint8_t* reference, int width, int height);

}  // namespace convlab

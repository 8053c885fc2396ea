// convlab harness — do not edit in a lab.
// The Canny edge detector's per-pixel rules (lab 8), one definition for the CPU reference and the
// GPU kernels alike, as border_index() is for the borders: a kernel that calls these on the same
// float inputs gets the reference's result to the last bit, so the check of every stage before
// hysteresis can demand equality. Each rule fixes its float operations and their order (an
// explicit fmaf where the compiler could otherwise fuse, none where fusing could not change a
// bit) and says how it breaks ties.
#pragma once
#include <cmath>
#include <cstdint>

#include "common/core/border.hpp"

namespace convlab {

// The four directions a gradient is quantised to, named by the pair of neighbours non-maximum
// suppression compares along it (x grows to the right, y downwards):
enum class EdgeDirection : uint8_t {
    Horizontal = 0,    // gradient near the x axis: (x - 1, y) and (x + 1, y)
    Diagonal = 1,      // near (1, 1): (x - 1, y - 1) and (x + 1, y + 1)
    Vertical = 2,      // near the y axis: (x, y - 1) and (x, y + 1)
    AntiDiagonal = 3,  // near (1, -1): (x + 1, y - 1) and (x - 1, y + 1)
};

struct Gradient {
    float gx = 0, gy = 0;
};

// Sobel on the 3x3 neighbourhood n[row][column] of the smoothed image (n[1][1] the pixel; rows
// y - 1, y, y + 1; columns x - 1, x, x + 1; taps outside the image read by the border rule):
//   gx = (n[0][2] - n[0][0]) + 2 (n[1][2] - n[1][0]) + (n[2][2] - n[2][0])
//   gy = (n[2][0] - n[0][0]) + 2 (n[2][1] - n[0][1]) + (n[2][2] - n[0][2])
// added left to right as written. Doubling is exact, so a fused multiply-add of the middle term
// rounds as the separate product and sum do.
// sobel_from_differences is the same sum from the six differences it is made of, for a kernel
// that computes each difference once and uses it in three neighbouring gradients.
CONVLAB_HD Gradient sobel_from_differences(float across_above, float across_middle, float across_below,
                                           float down_left, float down_middle, float down_right) {
    Gradient g;
    g.gx = (across_above + 2.0f * across_middle) + across_below;  // across: column x + 1 minus x - 1
    g.gy = (down_left + 2.0f * down_middle) + down_right;         // down: row y + 1 minus y - 1
    return g;
}

CONVLAB_HD Gradient sobel_gradient(const float n[3][3]) {
    return sobel_from_differences(n[0][2] - n[0][0], n[1][2] - n[1][0], n[2][2] - n[2][0],  //
                                  n[2][0] - n[0][0], n[2][1] - n[0][1], n[2][2] - n[0][2]);
}

// |g|^2 = fmaf(gx, gx, gy * gy): the fused form written out, so that no compiler picks another.
CONVLAB_HD float squared_magnitude(Gradient g) { return fmaf(g.gx, g.gx, g.gy * g.gy); }

// |g| = sqrtf(squared_magnitude(g)); sqrtf is correctly rounded on the host and on the GPU
// (without --use_fast_math), and never decreases as its argument grows, so comparisons of squared
// magnitudes agree with comparisons of magnitudes wherever the squares differ the other way.
CONVLAB_HD float gradient_magnitude(Gradient g) { return sqrtf(squared_magnitude(g)); }

// tan(22.5 degrees) = sqrt(2) - 1, rounded to float: the sectors' edges.
constexpr float kTanEighthPi = 0.41421356f;

// The sector of the gradient's angle modulo 180 degrees, by comparisons (no atan2):
//   Horizontal   |gy| <= t |gx|              (within 22.5 degrees of the x axis, edge included)
//   Vertical     otherwise, |gx| <= t |gy|   (within 22.5 degrees of the y axis, edge included)
//   Diagonal     otherwise, gx and gy of the same sign
//   AntiDiagonal otherwise
// t = kTanEighthPi, each product rounded to float. A zero gradient is Horizontal.
// Every comparison is made before any is used, so that the choice compiles to selects: on a
// noisy image early returns branch unpredictably (about 3x slower on the CPU reference).
CONVLAB_HD EdgeDirection quantise_direction(Gradient g) {
    const float ax = fabsf(g.gx), ay = fabsf(g.gy);
    const bool horizontal = ay <= kTanEighthPi * ax, vertical = ax <= kTanEighthPi * ay;
    const bool same_sign = (g.gx > 0) == (g.gy > 0);
    return horizontal ? EdgeDirection::Horizontal
           : vertical ? EdgeDirection::Vertical
                      : same_sign ? EdgeDirection::Diagonal : EdgeDirection::AntiDiagonal;
}

// The "after" neighbour's offset along a direction (the "before" one is its negation): right,
// down-right, down and down-left.
CONVLAB_HD void direction_step(EdgeDirection d, int* dx, int* dy) {
    switch (d) {
        case EdgeDirection::Horizontal: *dx = 1, *dy = 0; return;
        case EdgeDirection::Diagonal: *dx = 1, *dy = 1; return;
        case EdgeDirection::Vertical: *dx = 0, *dy = 1; return;
        case EdgeDirection::AntiDiagonal: *dx = -1, *dy = 1; return;
    }
}

// Non-maximum suppression: a pixel keeps its magnitude when it is at least its "before"
// neighbour's and strictly above its "after" neighbour's. On a plateau of equal magnitudes
// across an edge the last pixel along the direction (right, lower) is the one kept, so an edge
// stays one pixel wide. A neighbour outside the image has magnitude 0: NMS has no border rule.
// A zero magnitude is never kept.
// The three comparisons are joined with & rather than &&, for the same reason.
CONVLAB_HD float suppress(float magnitude, float before, float after) {
    return (magnitude > 0.0f) & (magnitude >= before) & (magnitude > after) ? magnitude : 0.0f;
}

// The double threshold on a suppressed magnitude: strong at or above high, weak at or above low,
// none below (0 < low <= high, so a suppressed pixel is never weak).
enum class EdgeLabel : uint8_t { None = 0, Weak = 1, Strong = 2 };

CONVLAB_HD EdgeLabel threshold_label(float suppressed, float low, float high) {
    return suppressed >= high ? EdgeLabel::Strong : suppressed >= low ? EdgeLabel::Weak : EdgeLabel::None;
}

}  // namespace convlab

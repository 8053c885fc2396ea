// convlab harness — do not edit in a lab.
// The box filter (every weight 1/K^2) on the CPU by running sums: O(1) work a value whatever K,
// exact for 8-bit input (integer sums, one division). Lab 7's CPU peer. (Which masks a box
// variant takes: require_box, mask.hpp.)
#pragma once
#include "common/core/border.hpp"
#include "common/core/image.hpp"
#include "common/core/mask.hpp"

namespace convlab {

// out = the mean over each pixel's K x K window, borders as border_index() says: a running sum
// along each row into 32-bit integers, then down each column, then one division. `threads` OpenMP
// threads (rows, then bands of columns, are shared out).
void box_filter_cpu(const Image& image, int k, Border border, float* out, int threads);

}  // namespace convlab

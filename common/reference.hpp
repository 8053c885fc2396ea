// convlab harness — do not edit in a lab.
// The CPU references every result is checked against. Both accumulate in double and add the
// taps in the same order (mask row by row, left to right), so they agree to the last bit.
#pragma once
#include "common/border.hpp"
#include "common/image.hpp"
#include "common/mask.hpp"

namespace convlab {

// The definition: one output value at a time, every tap through border_index(). Slow and plain.
// out holds width*height*channels floats, interleaved like the input.
void conv2d_cpu(const Image& in, const Mask& mask, Border border, float* out);

// The same result, fast: the image is padded once by the border rule, then every output row is
// accumulated tap by tap over contiguous rows (vectorisable), rows spread over OpenMP threads.
// threads <= 0 uses every core.
void conv2d_cpu_omp(const Image& in, const Mask& mask, Border border, float* out, int threads);

}  // namespace convlab

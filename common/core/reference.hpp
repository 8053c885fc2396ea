// convlab harness — do not edit in a lab.
// The CPU references every result is checked against. Both accumulate in double and add the
// taps in the same order (mask row by row, left to right), so they agree to the last bit.
#pragma once
#include <cstddef>
#include <cstdint>

#include "common/core/border.hpp"
#include "common/core/image.hpp"
#include "common/core/mask.hpp"

namespace convlab {

// The definition of one output value: output number `index` (row-major, channels interleaved),
// every tap through border_index(), summed in double. conv2d_cpu is this at every index; the spot
// checks of timed runs (spot_check.hpp) call it at a few. Defined in reference.cpp, not here, so
// that a student file calling it leaves a symbol the build refuses (refuse-reference-calls.sh).
double reference_value_at(const Image& in, const Mask& mask, Border border, size_t index);
// The same for the random image make_random_image(width, height, channels, seed) would make,
// without making it: a fresh input's reference at a few indices costs a few pixels.
double reference_value_of_seed(uint64_t seed, int width, int height, int channels, const Mask& mask, Border border,
                               size_t index);

// The definition at every output value, one at a time. Slow and plain.
// out holds width*height*channels floats, interleaved like the input.
void conv2d_cpu(const Image& in, const Mask& mask, Border border, float* out);

// The same result, fast: the image is padded once by the border rule, then every output row is
// accumulated tap by tap over contiguous rows (vectorisable), rows spread over OpenMP threads.
// threads <= 0 uses every core.
void conv2d_cpu_omp(const Image& in, const Mask& mask, Border border, float* out, int threads);

// A separable mask's result in two passes, in double: each row convolved with mask.row, then each
// column of that with mask.col (the border rule applies to both, as it does to the 2-D taps).
// The same as conv2d_cpu to double rounding, from the factors rather than the K^2 weights.
// Throws Unsupported for a mask that is not separable (separable.hpp).
void conv2d_cpu_separable(const Image& in, const Mask& mask, Border border, float* out, int threads);

// The reference a lab checks against: with two_pass and a separable mask, conv2d_cpu_separable
// (lab 6 sweeps K up to 63, where K^2 taps a value would take the CPU minutes, and its separable
// variants are checked against the sum they compute); otherwise conv2d_cpu_omp.
void conv2d_cpu_reference(const Image& in, const Mask& mask, Border border, float* out, bool two_pass);

// Output rows [first_row, first_row + rows) alone, into out (rows*width*channels floats): the same
// values, to the bit, as those rows of the whole image's result, from the rows they read and no
// more memory than that. An image too large to check in one piece (lab 9's strips) is checked a
// band of rows at a time. InputError for rows outside the image.
void conv2d_cpu_omp_rows(const Image& in, const Mask& mask, Border border, int first_row, int rows, float* out, int threads);
void conv2d_cpu_separable_rows(const Image& in, const Mask& mask, Border border, int first_row, int rows, float* out,
                               int threads);
void conv2d_cpu_reference_rows(const Image& in, const Mask& mask, Border border, int first_row, int rows, float* out,
                               bool two_pass);

}  // namespace convlab

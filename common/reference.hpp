// convlab harness — do not edit in a lab.
// The CPU references every result is checked against. Both accumulate in double and add the
// taps in the same order (mask row by row, left to right), so they agree to the last bit.
#pragma once
#include <cstddef>

#include "common/border.hpp"
#include "common/image.hpp"
#include "common/mask.hpp"

namespace convlab {

// The definition of one output value: output number `index` (row-major, channels interleaved) of a
// width x height x channels image whose value number i is pixel(i), every tap through
// border_index(), summed in double. conv2d_cpu is this at every index; the spot checks of timed
// runs (spot_check.hpp) call it at a few.
template <class PixelAt>
double reference_value_at(const PixelAt& pixel, int width, int height, int channels, const Mask& mask, Border border,
                          size_t index) {
    const int c = int(index % channels), x = int(index / channels % width), y = int(index / channels / width);
    const int k = mask.k, r = mask.radius();
    double sum = 0.0;
    for (int i = 0; i < k; ++i) {
        const int sy = border_index(y + i - r, height, border);
        for (int j = 0; j < k; ++j) {
            const int sx = border_index(x + j - r, width, border);
            const double value = (sx < 0 || sy < 0) ? 0.0 : double(pixel((size_t(sy) * width + sx) * channels + c));
            sum += double(mask.weights[size_t(i) * k + j]) * value;
        }
    }
    return sum;
}

// The definition at every output value, one at a time. Slow and plain.
// out holds width*height*channels floats, interleaved like the input.
void conv2d_cpu(const Image& in, const Mask& mask, Border border, float* out);

// The same result, fast: the image is padded once by the border rule, then every output row is
// accumulated tap by tap over contiguous rows (vectorisable), rows spread over OpenMP threads.
// threads <= 0 uses every core.
void conv2d_cpu_omp(const Image& in, const Mask& mask, Border border, float* out, int threads);

}  // namespace convlab

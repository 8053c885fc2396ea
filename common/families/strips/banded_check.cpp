// convlab harness — do not edit in a lab.
#include "common/families/strips/banded_check.hpp"

#include <algorithm>
#include <vector>

#include "common/core/reference.hpp"

namespace convlab {

CheckResult check_against_reference_by_bands(const Image& in, const Mask& mask, Border border, bool two_pass, const float* got,
                                             Tolerance tolerance, TileShape tile, size_t band_values) {
    const size_t row_values = size_t(in.width) * in.channels;
    const int band = int(std::max<size_t>(1, std::min<size_t>(in.height, band_values / std::max<size_t>(row_values, 1))));
    std::vector<float> reference(size_t(band) * row_values);
    CheckResult result;
    result.passed = true;  // an image of no rows has nothing wrong
    for (int first = 0; first < in.height; first += band) {
        const int rows = std::min(band, in.height - first);
        conv2d_cpu_reference_rows(in, mask, border, first, rows, reference.data(), two_pass);
        check_rows(result, got + size_t(first) * row_values, reference.data(), in.width, in.height, first, rows, in.channels,
                   tolerance, mask.radius(), tile);
    }
    return result;
}

}  // namespace convlab

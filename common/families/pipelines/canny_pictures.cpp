// convlab harness — do not edit in a lab.
#include "common/families/pipelines/canny_pictures.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace convlab {

Image edge_map_picture(const uint8_t* edges, int width, int height) {
    Image picture(width, height, 1);
    for (size_t i = 0; i < picture.pixels.size(); ++i) picture.pixels[i] = edges[i] ? 255 : 0;
    return picture;
}

namespace {

constexpr size_t kPercentileSamples = size_t(1) << 20;

// The 99th percentile of the nonzero values among every stride-th, or 0 when all are zero.
float nonzero_percentile_99(const float* values, size_t count) {
    const size_t stride = std::max<size_t>(1, count / kPercentileSamples);
    std::vector<float> nonzero;
    for (size_t i = 0; i < count; i += stride)
        if (values[i] > 0.0f) nonzero.push_back(values[i]);
    if (nonzero.empty()) return 0.0f;
    const auto at = nonzero.begin() + ptrdiff_t((nonzero.size() - 1) * 99 / 100);
    std::nth_element(nonzero.begin(), at, nonzero.end());
    return *at;
}

}  // namespace

Image magnitude_picture(const float* magnitude, int width, int height) {
    Image picture(width, height, 1);
    const float white = nonzero_percentile_99(magnitude, picture.pixels.size());
    if (white <= 0.0f) return picture;
    for (size_t i = 0; i < picture.pixels.size(); ++i)
        picture.pixels[i] = uint8_t(std::min(255.0, std::round(255.0 * std::max(0.0f, magnitude[i]) / white)));
    return picture;
}

Image edge_difference_picture(const uint8_t* tested, const uint8_t* reference, int width, int height) {
    Image picture(width, height, 3);
    for (size_t i = 0; i < size_t(width) * height; ++i) {
        const bool t = tested[i] != 0, r = reference[i] != 0;
        const Rgb c = t && r ? Rgb{255, 255, 255} : r ? kMissedEdgeColour : t ? kFalseEdgeColour : Rgb{0, 0, 0};
        uint8_t* p = &picture.pixels[3 * i];
        p[0] = c.r, p[1] = c.g, p[2] = c.b;
    }
    return picture;
}

}  // namespace convlab

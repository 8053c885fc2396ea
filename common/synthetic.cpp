// convlab harness — do not edit in a lab.
#include "common/synthetic.hpp"

#include <algorithm>
#include <cmath>

#include "common/rng.hpp"

namespace convlab {
namespace {

struct Shape {
    bool circle;
    double cx, cy, rx, ry;  // centre and half-extent, in units of the image's shorter side
    double colour[3];
};

constexpr int kShapes = 9;

// Shapes are placed in a unit square scaled to the image, so the picture looks alike at any size.
Shape make_shape(uint64_t seed, int index) {
    auto draw = [&](int field) { return unit_double(hash4(seed, 101, uint64_t(index), uint64_t(field))); };
    Shape s;
    s.circle = draw(0) < 0.5;
    s.cx = draw(1);
    s.cy = draw(2);
    s.rx = 0.05 + 0.15 * draw(3);
    s.ry = s.circle ? s.rx : 0.05 + 0.15 * draw(4);
    for (int c = 0; c < 3; ++c) s.colour[c] = 255.0 * draw(5 + c);
    return s;
}

bool inside(const Shape& s, double u, double v) {
    const double dx = (u - s.cx) / s.rx, dy = (v - s.cy) / s.ry;
    return s.circle ? dx * dx + dy * dy <= 1.0 : std::fabs(dx) <= 1.0 && std::fabs(dy) <= 1.0;
}

}  // namespace

Image make_synthetic_image(int width, int height, int channels, uint64_t seed) {
    validate_image_shape(width, height, channels, "synthetic image");
    Image image(width, height, channels);
    Shape shapes[kShapes];
    for (int i = 0; i < kShapes; ++i) shapes[i] = make_shape(seed, i);
    const double scale = 1.0 / std::max(1, std::min(width, height) - 1);
#pragma omp parallel for schedule(static)
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            const double u = x * scale, v = y * scale;
            // Background: a gradient per channel, each in another direction.
            double value[3] = {40 + 120 * u / (width * scale), 40 + 120 * v / (height * scale),
                               160 - 80 * (u + v) / ((width + height) * scale)};
            // A stripe texture band in the lower third: fine detail that blurs away.
            if (v > 0.62 * height * scale && v < 0.78 * height * scale)
                for (double& c : value) c += 45 * std::sin(x * 1.3 + y * 0.4);
            for (const Shape& s : shapes)
                if (inside(s, u, v))
                    for (int c = 0; c < 3; ++c) value[c] = s.colour[c];
            for (int c = 0; c < channels; ++c) {
                const double grey = (value[0] + value[1] + value[2]) / 3.0;
                const double noise = 24.0 * (unit_double(hash4(seed, uint64_t(x), uint64_t(y), uint64_t(c))) - 0.5);
                const double v8 = (channels == 1 ? grey : value[c]) + noise;
                image.pixels[(size_t(y) * width + x) * channels + c] = uint8_t(std::clamp(std::lround(v8), 0L, 255L));
            }
        }
    }
    return image;
}

Image make_random_image(int width, int height, int channels, uint64_t seed) {
    validate_image_shape(width, height, channels, "random image");
    Image image(width, height, channels);
#pragma omp parallel for schedule(static)
    for (long long i = 0; i < (long long)image.elements(); ++i)
        image.pixels[size_t(i)] = random_pixel(seed, uint64_t(i));
    return image;
}

Image make_bright_image(int width, int height, int channels, uint64_t seed) {
    Image image = make_random_image(width, height, channels, seed);
    for (uint8_t& p : image.pixels) p = uint8_t(224 | (p & 31));
    return image;
}

}  // namespace convlab

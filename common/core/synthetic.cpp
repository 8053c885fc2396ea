// convlab harness — do not edit in a lab.
#include "common/core/synthetic.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "common/core/rng.hpp"

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

Image make_spiral_image(int width, int height, int channels) {
    validate_image_shape(width, height, channels, "spiral image");
    Image image(width, height, channels);
    std::fill(image.pixels.begin(), image.pixels.end(), uint8_t(0));
    constexpr int kLine = 2, kStep = kLine + 6, kMargin = 2, kBright = 8, kRamp = 16;
    // The line starts white and fades to 60 over kRamp steps: a step from 255 to 60 along it would
    // turn the gradient there along the line, and suppression would cut the edge at the join.
    const auto line_value = [](int n) {
        return uint8_t(n < kBright ? 255 : n < kBright + kRamp ? 255 - (195 * (n - kBright + 1)) / (kRamp + 1) : 60);
    };
    const auto paint = [&](int x0, int y0, int side, uint8_t value) {
        for (int y = std::max(y0, 0); y < std::min(y0 + side, height); ++y)
            for (int x = std::max(x0, 0); x < std::min(x0 + side, width); ++x)
                for (int c = 0; c < channels; ++c) image.pixels[(size_t(y) * width + x) * channels + c] = value;
    };
    // Runs right, down, left, up, right, ... of A, B, A, B - s, A - s, B - 2s, A - 2s, ... steps
    // (s = kStep): each run stops s short of the line it turns towards, leaving a 6-pixel gap.
    int x = kMargin, y = kMargin;
    int across = width - 2 * kMargin - kLine, down = height - 2 * kMargin - kLine;
    const int dx[4] = {1, 0, -1, 0}, dy[4] = {0, 1, 0, -1};
    for (int turn = 0; (turn % 2 ? down : across) > 0; ++turn) {
        const int run = turn % 2 ? down : across;
        for (int n = 0; n < run; ++n, x += dx[turn % 4], y += dy[turn % 4])
            paint(x, y, kLine, turn == 0 ? line_value(n) : 60);
        if (turn % 2 == 1) down -= kStep;                // after every vertical run
        if (turn % 2 == 0 && turn >= 2) across -= kStep;  // after every horizontal run but the first
    }
    paint(x, y, kLine, 60);
    return image;
}

Image make_lines_image(int width, int height, int channels) {
    validate_image_shape(width, height, channels, "lines image");
    Image image(width, height, channels);
    constexpr double kPi = 3.14159265358979323846;
    constexpr double kAngles[] = {0, 15, 22.5, 30, 45, 60, 67.5, 75, 90, 105, 112.5, 120, 135, 150, 157.5, 165};
    constexpr int kLines = int(std::size(kAngles));
    constexpr double kBright = 230, kDim = 70, kHalfWidth = 1.0;
    const double diagonal = std::hypot(double(width), double(height));
    struct Line {
        double px, py, cos_a, sin_a, bright_until;  // a point, the direction, where the bright part ends (along it)
    };
    Line lines[kLines];
    for (int i = 0; i < kLines; ++i) {
        const double a = kAngles[i] * kPi / 180, spread = (i - (kLines - 1) / 2.0) / kLines;
        // Through the centre shifted along the main diagonal, so that the lines do not all meet
        // in one point; the bright part is the first sixth of the line's run across the image.
        lines[i] = {width * (0.5 + 0.35 * spread), height * (0.5 + 0.35 * spread), std::cos(a), std::sin(a), -diagonal / 2 + diagonal / 6};
    }
#pragma omp parallel for schedule(static)
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            double value = 0;
            for (const Line& l : lines) {
                const double dx = x - l.px, dy = y - l.py;
                const double across = std::fabs(dx * l.sin_a - dy * l.cos_a), along = dx * l.cos_a + dy * l.sin_a;
                const double cover = std::clamp(kHalfWidth + 0.5 - across, 0.0, 1.0);  // soft sides, a pixel wide
                value = std::max(value, cover * (along < l.bright_until ? kBright : kDim));
            }
            for (int c = 0; c < channels; ++c) image.pixels[(size_t(y) * width + x) * channels + c] = uint8_t(std::lround(value));
        }
    return image;
}

namespace {

constexpr double kPi = 3.14159265358979323846;

// Each quarter's value at (u, v) in [0, 1)^2 of that quarter, as an RGB triple 0..255.
void star(double u, double v, double rgb[3]) {
    const double angle = std::atan2(v - 0.5, u - 0.5);
    const double spoke = std::sin(18 * angle) >= 0 ? 240 : 15;  // 36 spokes, half black, half white
    rgb[0] = rgb[1] = rgb[2] = spoke;
}

void glyphs(double u, double v, uint64_t seed, double rgb[3]) {
    // 24 lines of 40 glyphs, each 3x5 cells with a cell of space around: text at a glance.
    const int line = int(v * 24), column = int(u * 40);
    const double gu = u * 40 - column, gv = v * 24 - line;  // within the glyph's box
    const int cx = int(gu * 4), cy = int(gv * 6);  // 4x6 cells: 3x5 of glyph, one of space
    const bool ink = cx < 3 && cy < 5 && (hash4(seed, 211, uint64_t(line) * 64 + column, uint64_t(cy) * 3 + cx) >> 63) != 0;  // half the cells inked
    rgb[0] = rgb[1] = rgb[2] = ink ? 20 : 235;
}

void weave(double u, double v, double rgb[3]) {
    const double a = std::sin(2 * kPi * 23 * (u + 0.3 * v)), b = std::sin(2 * kPi * 17 * (v - 0.2 * u));
    rgb[0] = 128 + 100 * a;
    rgb[1] = 128 + 100 * b;
    rgb[2] = 128 + 110 * a * b;
}

void shapes(double u, double v, uint64_t seed, double rgb[3]) {
    rgb[0] = 255 * u, rgb[1] = 255 * v, rgb[2] = 255 * (1 - u);  // the ramp
    for (int i = 0; i < 7; ++i) {
        auto draw = [&](int field) { return unit_double(hash4(seed, 307, uint64_t(i), uint64_t(field))); };
        const double cx = 0.15 + 0.7 * draw(0), cy = 0.15 + 0.7 * draw(1), r = 0.06 + 0.08 * draw(2);
        const bool disc = draw(3) < 0.5;
        const double dx = u - cx, dy = v - cy;
        if (disc ? dx * dx + dy * dy <= r * r : std::fabs(dx) <= r && std::fabs(dy) <= r) {
            const int hue = int(draw(4) * 6);  // saturated: one or two channels full, the rest dark
            rgb[0] = (hue == 0 || hue == 1 || hue == 5) ? 250 : 10;
            rgb[1] = (hue == 1 || hue == 2 || hue == 3) ? 250 : 10;
            rgb[2] = (hue == 3 || hue == 4 || hue == 5) ? 250 : 10;
        }
    }
}

}  // namespace

Image make_scene_image(int width, int height, int channels, uint64_t seed) {
    validate_image_shape(width, height, channels, "scene image");
    Image image(width, height, channels);
    const int half_w = std::max(1, width / 2), half_h = std::max(1, height / 2);
#pragma omp parallel for schedule(static)
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            const bool right = x >= half_w, bottom = y >= half_h;
            const double u = double(right ? x - half_w : x) / (right ? std::max(1, width - half_w) : half_w);
            const double v = double(bottom ? y - half_h : y) / (bottom ? std::max(1, height - half_h) : half_h);
            double rgb[3];
            if (!bottom && !right) star(u, v, rgb);
            else if (!bottom) glyphs(u, v, seed, rgb);
            else if (!right) weave(u, v, rgb);
            else shapes(u, v, seed, rgb);
            for (int c = 0; c < channels; ++c) {
                const double value = channels == 1 ? 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2] : rgb[c];
                image.pixels[(size_t(y) * width + x) * channels + c] = uint8_t(std::clamp(std::lround(value), 0L, 255L));
            }
        }
    }
    return image;
}

}  // namespace convlab

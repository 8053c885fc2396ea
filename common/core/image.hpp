// convlab harness — do not edit in a lab.
// 8-bit images with 1 or 3 interleaved channels, row-major, no padding between rows.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace convlab {

// Largest side, and largest element count (width·height·channels) the kit accepts: kernels index
// elements with int, so the count stays below 2^31.
constexpr int kMaxImageSide = 32768;
constexpr long long kMaxImageElements = (1LL << 31) - 1;

struct Image {
    int width = 0;
    int height = 0;
    int channels = 0;
    std::vector<uint8_t> pixels;  // width * height * channels bytes

    Image() = default;
    Image(int w, int h, int c) : width(w), height(h), channels(c), pixels(size_t(w) * h * c) {}
    size_t elements() const { return size_t(width) * height * channels; }
    uint8_t at(int x, int y, int c) const { return pixels[(size_t(y) * width + x) * channels + c]; }
};

// Throws InputError unless 1 <= w, h <= kMaxImageSide, channels is 1 or 3 and the element count fits.
void validate_image_shape(int width, int height, int channels, const std::string& what);

// Loads PNG, JPEG, PGM/PPM or BMP (8-bit). want_channels 0 keeps the file's channels (which must
// be 1 or 3); 1 or 3 converts. Every failure is an InputError naming the file and the reason.
Image load_image(const std::string& path, int want_channels);

// Writes a PNG atomically: a temporary file beside `path`, renamed over it once complete, so a
// failure never leaves a half-written file. Throws InputError when the folder cannot be written.
void save_png(const std::string& path, const uint8_t* pixels, int width, int height, int channels);

// Repeats `image` periodically to width x height (a bigger test image from a small photo).
Image tile_image(const Image& image, int width, int height);

// float -> uint8 for saving: rounded to nearest, clamped to 0..255, NaN as 0.
std::vector<uint8_t> to_u8(const std::vector<float>& values);

}  // namespace convlab

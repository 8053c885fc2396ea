// convlab harness — do not edit in a lab.
#include "common/core/image.hpp"

#include <stb_image.h>
#include <stb_image_write.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "common/core/errors.hpp"

namespace convlab {

namespace {

// stb_image decodes at most 2^30 bytes of pixels: past that its info call fails for every format
// and says only "unknown image type". A PNG's header holds its size, so a PNG that large is told
// apart from a file that is not an image.
constexpr long long kMaxDecodedBytes = 1LL << 30;

// Width, height and channels from a PNG's signature and IHDR chunk; false when the file is not a
// PNG. Leaves the file at its start.
bool png_header(FILE* file, int* width, int* height, int* channels) {
    unsigned char b[26] = {};
    const bool read = std::fread(b, 1, sizeof b, file) == sizeof b;
    std::rewind(file);
    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    if (!read || std::memcmp(b, signature, 8) != 0 || std::memcmp(b + 12, "IHDR", 4) != 0) return false;
    const auto be32 = [&](int at) { return (long(b[at]) << 24) | (long(b[at + 1]) << 16) | (long(b[at + 2]) << 8) | long(b[at + 3]); };
    *width = int(std::min(be32(16), 0x7FFFFFFFL));
    *height = int(std::min(be32(20), 0x7FFFFFFFL));
    const int color_type = b[25];  // 0 grey, 2 RGB, 3 palette (decoded as RGB), 4 grey+alpha, 6 RGBA
    *channels = color_type == 0 ? 1 : color_type == 4 ? 2 : color_type == 6 ? 4 : 3;
    return true;
}

}  // namespace

void validate_image_shape(int width, int height, int channels, const std::string& what) {
    if (width < 1 || height < 1 || width > kMaxImageSide || height > kMaxImageSide)
        throw InputError(what + " is " + std::to_string(width) + "x" + std::to_string(height) +
                         "; accepted: 1 to " + std::to_string(kMaxImageSide) + " pixels a side");
    if (channels != 1 && channels != 3)
        throw InputError(what + " has " + std::to_string(channels) +
                         " channels; accepted: 1 (grey) or 3 (colour)");
    if (1LL * width * height * channels > kMaxImageElements)
        throw InputError(what + " has " + std::to_string(1LL * width * height * channels) +
                         " elements; accepted: fewer than 2^31 (width x height x channels)");
}

Image load_image(const std::string& path, int want_channels) {
    FILE* file = std::fopen(path.c_str(), "rb");
    if (!file) throw InputError("cannot open image '" + path + "': " + std::strerror(errno));
    int w = 0, h = 0, stored = 0;
    const bool known = stbi_info_from_file(file, &w, &h, &stored) != 0;
    const bool sixteen_bit = known && stbi_is_16_bit_from_file(file);
    const char* accepted = "accepted: 8-bit PNG, JPEG, PGM/PPM or BMP with 1 or 3 channels";
    if (!known) {
        int pw = 0, ph = 0, pc = 0;
        const bool too_large = png_header(file, &pw, &ph, &pc) && 1LL * pw * ph * pc > kMaxDecodedBytes;
        std::fclose(file);
        if (too_large)
            throw InputError("image '" + path + "' is " + std::to_string(pw) + "x" + std::to_string(ph) + " with " +
                             std::to_string(pc) + " channel" + (pc == 1 ? "" : "s") +
                             ", more than the 1 GiB of pixels the image loader decodes; accepted: a smaller file (then "
                             "--tile-to for size), or --image random or synthetic at any --size");
        throw InputError("cannot read image '" + path + "': " + stbi_failure_reason() + "; " + accepted);
    }
    if (sixteen_bit) {
        std::fclose(file);
        throw InputError("image '" + path + "' has 16 bits per channel; " + accepted);
    }
    if (want_channels == 0 && stored != 1 && stored != 3) {
        std::fclose(file);
        const char* kind = stored == 2 ? "grey+alpha" : "RGBA";
        throw InputError("image '" + path + "' has " + std::to_string(stored) + " channels (" + kind +
                         "); accepted: 1 or 3, or convert with --channels 1 or --channels 3");
    }
    const int channels = want_channels == 0 ? stored : want_channels;
    validate_image_shape(w, h, channels, "image '" + path + "'");
    int rw = 0, rh = 0, rc = 0;
    uint8_t* data = stbi_load_from_file(file, &rw, &rh, &rc, channels);
    std::fclose(file);
    if (!data)
        throw InputError("cannot decode image '" + path + "' (corrupt or truncated?): " +
                         stbi_failure_reason() + "; " + accepted);
    Image image(rw, rh, channels);
    std::memcpy(image.pixels.data(), data, image.elements());
    stbi_image_free(data);
    return image;
}

void save_png(const std::string& path, const uint8_t* pixels, int width, int height, int channels) {
    const std::string temp = path + ".tmp-" + std::to_string(::getpid());
    const int ok = stbi_write_png(temp.c_str(), width, height, channels, pixels, width * channels);
    if (!ok || std::rename(temp.c_str(), path.c_str()) != 0) {
        const std::string reason = std::strerror(errno);
        std::remove(temp.c_str());
        throw InputError("cannot write '" + path + "': " + reason);
    }
}

Image tile_image(const Image& image, int width, int height) {
    validate_image_shape(width, height, image.channels, "--tile-to size");
    Image tiled(width, height, image.channels);
    const size_t c = image.channels;
    for (int y = 0; y < height; ++y) {
        const uint8_t* src_row = &image.pixels[size_t(y % image.height) * image.width * c];
        uint8_t* dst_row = &tiled.pixels[size_t(y) * width * c];
        for (int x = 0; x < width; ++x)
            std::memcpy(dst_row + x * c, src_row + (x % image.width) * c, c);
    }
    return tiled;
}

std::vector<uint8_t> to_u8(const std::vector<float>& values) {
    std::vector<uint8_t> bytes(values.size());
    for (size_t i = 0; i < values.size(); ++i) {
        const float v = values[i];
        bytes[i] = std::isnan(v) ? 0 : uint8_t(std::lround(std::fmin(std::fmax(v, 0.0f), 255.0f)));
    }
    return bytes;
}

}  // namespace convlab

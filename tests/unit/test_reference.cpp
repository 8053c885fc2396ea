// The CPU references against hand-computed cases, and against each other.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "common/core/errors.hpp"
#include "common/core/mask.hpp"
#include "common/core/reference.hpp"
#include "common/core/synthetic.hpp"

using namespace convlab;

namespace {

Image grey(int w, int h, std::vector<uint8_t> pixels) {
    Image image(w, h, 1);
    image.pixels = std::move(pixels);
    return image;
}

Mask mask_of(int k, std::vector<float> weights) {
    Mask mask;
    mask.k = k;
    mask.weights = std::move(weights);
    mask.spec = "test";
    return mask;
}

std::vector<float> run_seq(const Image& image, const Mask& mask, Border border) {
    std::vector<float> out(image.elements(), NAN);
    conv2d_cpu(image, mask, border, out.data());
    return out;
}

std::vector<float> run_omp(const Image& image, const Mask& mask, Border border, int threads) {
    std::vector<float> out(image.elements(), NAN);
    conv2d_cpu_omp(image, mask, border, out.data(), threads);
    return out;
}

// 3x3 image          mask (asymmetric: a flipped mask gives other numbers)
//   1 2 3              0 0 0
//   4 5 6              0 0 1      -> out(x, y) = in(x + 1, y) + 2 * in(x, y + 1)
//   7 8 9              0 2 0
const Image kImage = grey(3, 3, {1, 2, 3, 4, 5, 6, 7, 8, 9});
const Mask kShiftMask = mask_of(3, {0, 0, 0, 0, 0, 1, 0, 2, 0});

}  // namespace

TEST(Reference, ZeroBorderByHand) {
    // row 0: (2 + 2*4) (3 + 2*5) (0 + 2*6); row 1: (5+14) (6+16) (0+18); row 2: (8+0) (9+0) (0+0)
    const std::vector<float> expected = {10, 13, 12, 19, 22, 18, 8, 9, 0};
    EXPECT_EQ(run_seq(kImage, kShiftMask, Border::Zero), expected);
}

TEST(Reference, ClampBorderByHand) {
    // x + 1 past the right edge reads column 2; y + 1 past the bottom reads row 2.
    const std::vector<float> expected = {10, 13, 15, 19, 22, 24, 22, 25, 27};
    EXPECT_EQ(run_seq(kImage, kShiftMask, Border::Clamp), expected);
}

TEST(Reference, WrapBorderByHand) {
    // right of column 2 is column 0; below row 2 is row 0.
    const std::vector<float> expected = {10, 13, 13, 19, 22, 22, 10, 13, 13};
    EXPECT_EQ(run_seq(kImage, kShiftMask, Border::Wrap), expected);
}

TEST(Reference, MirrorBorderByHand) {
    // right of column 2 is column 1; below row 2 is row 1.
    const std::vector<float> expected = {10, 13, 14, 19, 22, 23, 16, 19, 20};
    EXPECT_EQ(run_seq(kImage, kShiftMask, Border::Mirror), expected);
}

TEST(Reference, MaskIsNotFlipped) {
    // Correlation: weight (row 1, col 2) multiplies the pixel to the right.
    const Mask right = mask_of(3, {0, 0, 0, 0, 0, 1, 0, 0, 0});
    EXPECT_EQ(run_seq(kImage, right, Border::Zero), (std::vector<float>{2, 3, 0, 5, 6, 0, 8, 9, 0}));
}

TEST(Reference, ThreeChannelsStayApart) {
    Image rgb(2, 1, 3);
    rgb.pixels = {10, 20, 30, 1, 2, 3};
    const Mask right = mask_of(3, {0, 0, 0, 0, 1, 1, 0, 0, 0});  // centre + right neighbour
    EXPECT_EQ(run_seq(rgb, right, Border::Zero), (std::vector<float>{11, 22, 33, 1, 2, 3}));
    EXPECT_EQ(run_seq(rgb, right, Border::Wrap), (std::vector<float>{11, 22, 33, 11, 22, 33}));
}

TEST(Reference, OneByOneImageWithAWideMask) {
    const Image one = grey(1, 1, {7});
    const Mask box = mask_of(5, std::vector<float>(25, 1.0f));
    EXPECT_EQ(run_seq(one, box, Border::Zero), std::vector<float>{7});
    EXPECT_EQ(run_seq(one, box, Border::Clamp), std::vector<float>{175});
    EXPECT_EQ(run_seq(one, box, Border::Wrap), std::vector<float>{175});
    EXPECT_EQ(run_seq(one, box, Border::Mirror), std::vector<float>{175});
}

TEST(Reference, OneRowImage) {
    const Image row = grey(4, 1, {1, 2, 3, 4});
    const Mask vertical = mask_of(3, {1, 0, 0, 0, 1, 0, 0, 0, 1});  // diagonal
    // zero: only the centre tap lands inside a 1-row image
    EXPECT_EQ(run_seq(row, vertical, Border::Zero), (std::vector<float>{1, 2, 3, 4}));
    // clamp: rows -1 and 1 read row 0: in(x-1) + in(x) + in(x+1), columns clamped
    EXPECT_EQ(run_seq(row, vertical, Border::Clamp), (std::vector<float>{4, 6, 9, 11}));
}

TEST(Reference, OneColumnImage) {
    const Image column = grey(1, 3, {1, 2, 3});
    const Mask down = mask_of(3, {0, 0, 0, 0, 0, 0, 0, 1, 0});
    EXPECT_EQ(run_seq(column, down, Border::Zero), (std::vector<float>{2, 3, 0}));
    EXPECT_EQ(run_seq(column, down, Border::Mirror), (std::vector<float>{2, 3, 2}));
}

TEST(Reference, OpenMpMatchesSequentialBitForBit) {
    for (Border border : {Border::Zero, Border::Clamp, Border::Wrap, Border::Mirror})
        for (int channels : {1, 3})
            for (int k : {1, 3, 7, 11}) {
                const Image image = make_random_image(37, 23, channels, 5 + k);
                Mask mask = mask_of(k, std::vector<float>(size_t(k) * k));
                for (size_t n = 0; n < mask.weights.size(); ++n) mask.weights[n] = std::sin(float(n) * 1.7f) * 0.37f;
                const auto seq = run_seq(image, mask, border);
                for (int threads : {1, 3}) {
                    const auto omp = run_omp(image, mask, border, threads);
                    ASSERT_EQ(seq, omp) << border_name(border) << " channels " << channels << " k " << k << " threads " << threads;
                }
            }
}

TEST(Reference, MaskWiderThanTheImage) {
    const Image image = make_random_image(3, 2, 3, 9);
    const Mask mask = mask_of(9, std::vector<float>(81, 0.25f));
    for (Border border : {Border::Zero, Border::Clamp, Border::Wrap, Border::Mirror})
        EXPECT_EQ(run_seq(image, mask, border), run_omp(image, mask, border, 2)) << border_name(border);
}

TEST(Reference, ABandOfRowsIsThoseRowsOfTheWholeBitForBit) {
    // Every band of a 29-row image, at the top, in the middle, at the bottom, one row and all of
    // them, every border, a mask taller than the band: the band's result is exactly those rows of
    // the whole result, direct and separable alike.
    const Image image = make_random_image(31, 29, 3, 17);
    const Mask direct = parse_mask("random:7:4", 31), separable = parse_mask("outer:9:2", 31);
    const size_t row_len = size_t(image.width) * image.channels;
    for (Border border : {Border::Zero, Border::Clamp, Border::Wrap, Border::Mirror}) {
        std::vector<float> whole(image.elements()), whole_separable(image.elements());
        conv2d_cpu_omp(image, direct, border, whole.data(), 2);
        conv2d_cpu_separable(image, separable, border, whole_separable.data(), 2);
        for (auto [first, rows] : {std::pair{0, 29}, {0, 1}, {0, 5}, {11, 3}, {13, 1}, {24, 5}, {28, 1}, {3, 0}}) {
            std::vector<float> band(size_t(rows) * row_len, NAN), band_separable(size_t(rows) * row_len, NAN);
            conv2d_cpu_omp_rows(image, direct, border, first, rows, band.data(), 2);
            conv2d_cpu_separable_rows(image, separable, border, first, rows, band_separable.data(), 3);
            const auto slice = [&](const std::vector<float>& v) {
                return std::vector<float>(v.begin() + first * row_len, v.begin() + (first + rows) * row_len);
            };
            EXPECT_EQ(band, slice(whole)) << border_name(border) << " rows " << first << "+" << rows;
            EXPECT_EQ(band_separable, slice(whole_separable)) << border_name(border) << " rows " << first << "+" << rows;
        }
    }
    std::vector<float> out(row_len * 2);
    EXPECT_THROW(conv2d_cpu_omp_rows(image, direct, Border::Clamp, 28, 2, out.data(), 1), InputError);
    EXPECT_THROW(conv2d_cpu_reference_rows(image, direct, Border::Clamp, -1, 1, out.data(), false), InputError);
}

// Lab 7's harness: which masks are boxes, the CPU running-sum box filter (its CPU peer), the
// tolerance of integer sums and one division, and the bright image that overflows 32-bit tables.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "common/families/filters/box_filter.hpp"
#include "common/check/check.hpp"
#include "common/core/errors.hpp"
#include "common/core/mask.hpp"
#include "common/core/reference.hpp"
#include "common/core/synthetic.hpp"
#include "common/core/work_model.hpp"
#include "tests/unit/mask_file.hpp"

using namespace convlab;

namespace {

// Largest |box_filter_cpu - two-pass double reference| over the image.
double worst_error(const Image& image, int k, Border border, int threads) {
    const size_t n = image.pixels.size();
    std::vector<float> got(n, -1.0f), ref(n);
    box_filter_cpu(image, k, border, got.data(), threads);
    conv2d_cpu_reference(image, parse_mask("box:" + std::to_string(k), 63), border, ref.data(), true);
    double worst = 0;
    for (size_t i = 0; i < n; ++i) worst = std::max(worst, double(std::fabs(got[i] - ref[i])));
    return worst;
}

}  // namespace

TEST(BoxFilter, OnlyEqualWeightsOfOneOverKSquaredAreABox) {
    EXPECT_TRUE(parse_mask("box:1", 31).box());
    EXPECT_TRUE(parse_mask("box:31", 31).box());
    EXPECT_FALSE(parse_mask("gauss:5:1", 31).box());
    EXPECT_FALSE(parse_mask("sharpen", 31).box());
    EXPECT_FALSE(parse_mask("outer:3:1", 31).box());
    // Equal weights that are not the mean (an unnormalised box) sum K^2 values, not their mean.
    MaskFile ones("1 1 1\n1 1 1\n1 1 1\n");
    EXPECT_FALSE(parse_mask(ones.path(), 31).box());
}

TEST(BoxFilter, OtherMasksAreRefusedWithTheirSpec) {
    EXPECT_NO_THROW(require_box(parse_mask("box:9", 31)));
    try {
        require_box(parse_mask("gauss:9:2", 31));
        FAIL() << "gauss:9:2 was taken for a box";
    } catch (const Unsupported& e) {
        EXPECT_NE(std::string(e.what()).find("gauss:9:2"), std::string::npos) << e.what();
    }
}

TEST(BoxFilter, MatchesTheReferenceOnEveryBorderShapeAndChannelCount) {
    const Tolerance tolerance = integer_box_tolerance();
    for (Border border : {Border::Zero, Border::Clamp, Border::Wrap, Border::Mirror})
        for (int channels : {1, 3})
            for (auto [w, h] : {std::pair{1, 1}, {7, 3}, {37, 29}, {130, 5}})
                for (int k : {1, 3, 5, 31}) {
                    const Image image = make_random_image(w, h, channels, uint64_t(w * 31 + k));
                    EXPECT_LE(worst_error(image, k, border, 2), tolerance.atol)
                        << border_name(border) << " " << w << "x" << h << "x" << channels << " box:" << k;
                }
}

TEST(BoxFilter, AWindowOffByOneFailsTheCheck) {
    // The test above can fail: box:5's sums divided as box:5 but taken over box:3's window are off
    // by far more than the tolerance.
    const Image image = make_random_image(40, 30, 1, 9);
    std::vector<float> narrow(image.pixels.size()), ref(image.pixels.size());
    box_filter_cpu(image, 3, Border::Clamp, narrow.data(), 1);
    for (float& v : narrow) v *= 9.0f / 25.0f;
    conv2d_cpu_reference(image, parse_mask("box:5", 31), Border::Clamp, ref.data(), true);
    double worst = 0;
    for (size_t i = 0; i < ref.size(); ++i) worst = std::max(worst, double(std::fabs(narrow[i] - ref[i])));
    EXPECT_GT(worst, 100 * integer_box_tolerance().atol);
}

TEST(BoxFilter, TheResultDoesNotDependOnTheThreadCount) {
    const Image image = make_random_image(301, 77, 3, 4);
    std::vector<float> one(image.pixels.size()), many(image.pixels.size());
    box_filter_cpu(image, 15, Border::Mirror, one.data(), 1);
    box_filter_cpu(image, 15, Border::Mirror, many.data(), 2);
    EXPECT_EQ(std::memcmp(one.data(), many.data(), one.size() * sizeof(float)), 0);
}

TEST(BoxFilter, IntegerSumsAreHeldToTheRoundingOfOneDivision) {
    const WorkModel running{5, false, true, 4}, direct{};
    const Mask box31 = parse_mask("box:31", 31), gauss = parse_mask("gauss:5:1", 31);
    const Tolerance integer = tolerance_for(box31, running);
    EXPECT_DOUBLE_EQ(integer.atol, integer_box_tolerance().atol);
    EXPECT_LT(integer.atol, 2e-4);  // 255 at float's rounding, with room for a few ulps
    // A K x K float sum of the same mask is allowed far more; a non-box mask keeps its own.
    EXPECT_GT(tolerance_for(box31, direct).atol, 10 * integer.atol);
    EXPECT_DOUBLE_EQ(tolerance_for(gauss, running).atol, tolerance_for(gauss, direct).atol);
    EXPECT_DOUBLE_EQ(running.flops_per_value(3), 4);
    EXPECT_DOUBLE_EQ(running.flops_per_value(31), 4);
}

TEST(BoxFilter, TheBrightImageIsBrightAndFollowsItsSeed) {
    const Image a = make_bright_image(300, 200, 3, 5), b = make_bright_image(300, 200, 3, 5);
    EXPECT_EQ(a.pixels, b.pixels);
    EXPECT_NE(a.pixels, make_bright_image(300, 200, 3, 6).pixels);
    const auto [lo, hi] = std::minmax_element(a.pixels.begin(), a.pixels.end());
    EXPECT_GE(*lo, 224);
    EXPECT_EQ(*hi, 255);
    // The hidden cases' bright images (grading/cases/lab7.json) sum past 2^32 in each channel, so a
    // 32-bit summed-area table wraps on them: about 239.5 a byte times 18 M pixels, whatever the seed.
    for (uint64_t seed : {1u, 2u})
        for (auto [w, h, c] : {std::tuple{4700, 4000, 1}, {4400, 4100, 3}}) {
            const Image big = make_bright_image(w, h, c, seed);
            std::vector<uint64_t> sums(c, 0);
            for (size_t i = 0; i < big.pixels.size(); ++i) sums[i % c] += big.pixels[i];
            for (int ch = 0; ch < c; ++ch) EXPECT_GT(sums[ch], uint64_t(1) << 32) << w << "x" << h << " channel " << ch;
        }
}

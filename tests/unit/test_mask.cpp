// Mask specs and mask files.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "common/core/errors.hpp"
#include "common/core/mask.hpp"
#include "tests/unit/mask_file.hpp"

using namespace convlab;

namespace {

std::string error_of(const std::string& spec, int max_k = 31) {
    try {
        parse_mask(spec, max_k);
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(Mask, Box) {
    const Mask m = parse_mask("box:5", 31);
    EXPECT_EQ(m.k, 5);
    EXPECT_EQ(m.radius(), 2);
    ASSERT_EQ(m.weights.size(), 25u);
    EXPECT_FLOAT_EQ(m.weights[7], 1.0f / 25);
    EXPECT_FALSE(m.integral());
}

TEST(Mask, GaussIsNormalisedSymmetricAndPeaked) {
    const Mask m = parse_mask("gauss:7:1.5", 31);
    EXPECT_NEAR(std::accumulate(m.weights.begin(), m.weights.end(), 0.0), 1.0, 1e-6);
    EXPECT_FLOAT_EQ(m.weights[0], m.weights[48]);
    EXPECT_FLOAT_EQ(m.weights[1], m.weights[7]);
    EXPECT_GT(m.weights[24], m.weights[23]);
}

TEST(Mask, FixedThreeByThree) {
    EXPECT_EQ(parse_mask("sobel-x", 31).weights, (std::vector<float>{-1, 0, 1, -2, 0, 2, -1, 0, 1}));
    EXPECT_EQ(parse_mask("sobel-y", 31).weights, (std::vector<float>{-1, -2, -1, 0, 0, 0, 1, 2, 1}));
    EXPECT_EQ(parse_mask("laplacian", 31).weights, (std::vector<float>{0, 1, 0, 1, -4, 1, 0, 1, 0}));
    EXPECT_EQ(parse_mask("sharpen", 31).weights, (std::vector<float>{0, -1, 0, -1, 5, -1, 0, -1, 0}));
    EXPECT_EQ(parse_mask("emboss", 31).weights, (std::vector<float>{-2, -1, 0, -1, 1, 1, 0, 1, 2}));
    EXPECT_TRUE(parse_mask("sobel-x", 31).integral());
}

TEST(Mask, RandomIsDeterministicAsymmetricAndBounded) {
    const Mask a = parse_mask("random:5:3", 31), b = parse_mask("random:5:3", 31), c = parse_mask("random:5:4", 31);
    EXPECT_EQ(a.weights, b.weights);
    EXPECT_NE(a.weights, c.weights);
    EXPECT_NE(a.weights[0], a.weights[24]);
    for (float w : a.weights) EXPECT_LE(std::fabs(w), 1.0f);
}

TEST(Mask, SizeErrors) {
    EXPECT_NE(error_of("box:4").find("odd size from 1 to 31"), std::string::npos);
    EXPECT_NE(error_of("box:0").find("odd size"), std::string::npos);
    EXPECT_NE(error_of("box:-3").find("odd size"), std::string::npos);
    EXPECT_NE(error_of("gauss:33:2").find("odd size from 1 to 31"), std::string::npos);
    EXPECT_NE(error_of("box:9", 7).find("1 to 7"), std::string::npos);
    EXPECT_NE(error_of("box:x").find("not a whole number"), std::string::npos);
    EXPECT_NE(error_of("box:3.0").find("not a whole number"), std::string::npos);
    EXPECT_EQ(parse_mask("box:1", 31).k, 1);
}

TEST(Mask, FormErrors) {
    EXPECT_NE(error_of("box").find("box:K"), std::string::npos);
    EXPECT_NE(error_of("gauss:5").find("gauss:K:SIGMA"), std::string::npos);
    EXPECT_NE(error_of("gauss:5:0").find("positive"), std::string::npos);
    EXPECT_NE(error_of("gauss:5:-1").find("positive"), std::string::npos);
    EXPECT_NE(error_of("gauss:5:1.5x").find("positive number"), std::string::npos);
    EXPECT_NE(error_of("gauss:5:inf").find("positive number"), std::string::npos);
    EXPECT_NE(error_of("gauss:5:1e999").find("positive number"), std::string::npos);
    EXPECT_NE(error_of("random:5").find("random:K:SEED"), std::string::npos);
    EXPECT_NE(error_of("sobel-x:3").find("expected the form"), std::string::npos);
    EXPECT_NE(error_of("blur").find("unknown mask 'blur'"), std::string::npos);
    EXPECT_NE(error_of("blur").find("accepted: box:K"), std::string::npos);
}

TEST(Mask, FileWithCommentsAndCommas) {
    const MaskFile file("# an edge mask\n1, 0, -1\n2 0 -2   # middle row\n\n1 0 -1\n");
    const Mask m = parse_mask(file.path(), 31);
    EXPECT_EQ(m.k, 3);
    EXPECT_EQ(m.weights, (std::vector<float>{1, 0, -1, 2, 0, -2, 1, 0, -1}));
}

TEST(Mask, MalformedFiles) {
    const std::pair<const char*, const char*> cases[] = {
        {"1 2 3\n4 5\n7 8 9\n", "line 2"},   // ragged
        {"1 2\n3 4\n", "K odd"},             // even
        {"1 2 3\n4 5 6\n7 8 9\n1 1 1\n", "K odd"},  // not square (two rows of K are a separable mask)
        {"1 x 3\n", "not a finite number"},  // garbage
        {"# nothing\n", "no numbers"},       // empty
        {"1 nan 1\n1 1 1\n1 1 1\n", "not a finite number"},
        {"1 1e39 1\n1 1 1\n1 1 1\n", "not a finite number"},  // beyond a float
        {"1 2x 1\n1 1 1\n1 1 1\n", "not a finite number"},    // trailing text
    };
    for (const auto& [text, expected] : cases) {
        const MaskFile file(text);
        EXPECT_NE(error_of(file.path()).find(expected), std::string::npos) << text << " -> " << error_of(file.path());
    }
}

TEST(Mask, AbsSum) {
    EXPECT_DOUBLE_EQ(parse_mask("sobel-x", 31).abs_sum(), 8.0);
}

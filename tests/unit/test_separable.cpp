// Separable masks: which masks carry a row and a column, the numerical rank that decides it for
// any other mask, the two-pass CPU reference and its tolerance.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "common/check/check.hpp"
#include "common/core/errors.hpp"
#include "common/core/mask.hpp"
#include "common/core/reference.hpp"
#include "common/core/separable.hpp"
#include "common/core/synthetic.hpp"
#include "tests/unit/mask_file.hpp"

using namespace convlab;

namespace {

// The largest |col[i] * row[j] - weights[i*k + j]|, relative to the largest weight.
double factor_error(const Mask& m) {
    double worst = 0, largest = 0;
    for (int i = 0; i < m.k; ++i)
        for (int j = 0; j < m.k; ++j) {
            const double w = m.weights[size_t(i) * m.k + j];
            worst = std::max(worst, std::fabs(double(m.col[i]) * m.row[j] - w));
            largest = std::max(largest, std::fabs(w));
        }
    return worst / largest;
}

}  // namespace

TEST(Separable, NamedSeparableMasksCarryTheirFactors) {
    for (const char* spec : {"box:7", "gauss:9:2", "gauss:63:15", "sobel-x", "sobel-y", "outer:5:3", "outer:31:8"}) {
        const Mask m = parse_mask(spec, 63);
        ASSERT_TRUE(m.separable()) << spec;
        ASSERT_EQ(m.row.size(), size_t(m.k)) << spec;
        ASSERT_EQ(m.col.size(), size_t(m.k)) << spec;
        EXPECT_LT(factor_error(m), 1e-6) << spec;
        EXPECT_EQ(numerical_rank(m.weights, m.k), 1) << spec;
    }
}

TEST(Separable, SobelKeepsItsWeightsAndItsFactorsAreExact) {
    const Mask x = parse_mask("sobel-x", 31);
    EXPECT_EQ(x.weights, (std::vector<float>{-1, 0, 1, -2, 0, 2, -1, 0, 1}));
    EXPECT_EQ(x.row, (std::vector<float>{-1, 0, 1}));
    EXPECT_EQ(x.col, (std::vector<float>{1, 2, 1}));
    const Mask y = parse_mask("sobel-y", 31);
    EXPECT_EQ(y.weights, (std::vector<float>{-1, -2, -1, 0, 0, 0, 1, 2, 1}));
}

TEST(Separable, OuterHasAColumnThatIsNotItsRow) {
    const Mask m = parse_mask("outer:7:1", 31);
    EXPECT_NE(m.row, m.col);  // swapping the passes must change the result
    EXPECT_NE(parse_mask("outer:7:2", 31).row, m.row);
    EXPECT_THROW(parse_mask("outer:4:1", 31), InputError);
    EXPECT_THROW(parse_mask("outer:5", 31), InputError);
}

TEST(Separable, OtherMasksAreNotSeparableAndTheirRankIsSaid) {
    const struct {
        const char* spec;
        int rank;
    } cases[] = {{"laplacian", 2}, {"sharpen", 2}, {"emboss", 3}, {"random:5:3", 5}, {"random:31:1", 31}};
    for (const auto& c : cases) {
        const Mask m = parse_mask(c.spec, 31);
        EXPECT_FALSE(m.separable()) << c.spec;
        EXPECT_EQ(numerical_rank(m.weights, m.k), c.rank) << c.spec;
        try {
            require_separable(m);
            ADD_FAILURE() << c.spec << " was accepted as separable";
        } catch (const Unsupported& e) {
            EXPECT_NE(std::string(e.what()).find("numerical rank is " + std::to_string(c.rank)), std::string::npos) << e.what();
        }
    }
    EXPECT_NO_THROW(require_separable(parse_mask("gauss:5:1", 31)));
}

TEST(Separable, AFileOfTwoRowsIsARowAndAColumn) {
    const Mask m = parse_mask(MaskFile("1 2 3  # the row\n4 5 6  # the column\n").path(), 31);
    ASSERT_TRUE(m.separable());
    EXPECT_EQ(m.k, 3);
    EXPECT_EQ(m.row, (std::vector<float>{1, 2, 3}));
    EXPECT_EQ(m.col, (std::vector<float>{4, 5, 6}));
    EXPECT_EQ(m.weights[1 * 3 + 2], 5.0f * 3.0f);  // col[1] * row[2]
    EXPECT_THROW(parse_mask(MaskFile("1 2\n3 4\n").path(), 31), InputError);  // even: neither form
}

TEST(Separable, ARankOneFileIsFactored) {
    const Mask m = parse_mask(MaskFile("2 4 6\n1 2 3\n-3 -6 -9\n").path(), 31);
    ASSERT_TRUE(m.separable());
    EXPECT_LT(factor_error(m), 1e-7);
    EXPECT_FALSE(parse_mask(MaskFile("2 4 6\n1 2 3\n-3 -6 -8\n").path(), 31).separable());
}

TEST(Separable, TwoPassReferenceMatchesTheDirectOneOnEveryBorder) {
    for (const char* spec : {"gauss:7:2", "outer:5:4", "sobel-x", "box:9", "outer:31:2"}) {
        const Mask m = parse_mask(spec, 63);
        const Tolerance tolerance = separable_tolerance_for(m);
        for (Border border : {Border::Zero, Border::Clamp, Border::Wrap, Border::Mirror})
            for (int channels : {1, 3}) {
                const Image in = make_random_image(37, 23, channels, 7);
                std::vector<float> direct(in.elements()), two_pass(in.elements());
                conv2d_cpu_omp(in, m, border, direct.data(), 2);
                conv2d_cpu_separable(in, m, border, two_pass.data(), 2);
                const CheckResult result = check_output(two_pass.data(), direct.data(), in.width, in.height, channels, tolerance,
                                                        m.radius(), {});
                EXPECT_TRUE(result.passed) << spec << " " << border_name(border) << " " << channels << ": " << result.summary();
            }
    }
}

TEST(Separable, SwappedPassesFailTheCheck) {
    // A kernel that ran the column factor across and the row factor down is caught.
    Mask m = parse_mask("outer:5:4", 31);
    const Image in = make_random_image(40, 30, 1, 3);
    std::vector<float> right(in.elements()), swapped(in.elements());
    conv2d_cpu_separable(in, m, Border::Clamp, right.data(), 1);
    std::swap(m.row, m.col);
    conv2d_cpu_separable(in, m, Border::Clamp, swapped.data(), 1);
    std::swap(m.row, m.col);
    EXPECT_FALSE(check_output(swapped.data(), right.data(), in.width, in.height, 1, separable_tolerance_for(m), m.radius(), {}).passed);
}

TEST(Separable, TheReferenceRefusesAMaskThatIsNotSeparable) {
    const Image in = make_random_image(8, 8, 1, 1);
    std::vector<float> out(in.elements());
    EXPECT_THROW(conv2d_cpu_separable(in, parse_mask("laplacian", 31), Border::Zero, out.data(), 1), Unsupported);
}

TEST(Separable, ToleranceIsZeroForWholeFactorsAndGrowsWithK) {
    EXPECT_EQ(separable_tolerance_for(parse_mask("sobel-x", 31)).atol, 0.0);
    const double small = separable_tolerance_for(parse_mask("gauss:3:1", 63)).atol;
    const double large = separable_tolerance_for(parse_mask("gauss:63:10", 63)).atol;
    EXPECT_GT(small, 0.0);
    EXPECT_GT(large, small);
    // Two passes of K terms are far fewer roundings than K^2: the separable bound is the tighter one.
    EXPECT_LT(separable_tolerance_for(parse_mask("gauss:31:8", 63)).atol, tolerance_for(parse_mask("gauss:31:8", 63)).atol);
}

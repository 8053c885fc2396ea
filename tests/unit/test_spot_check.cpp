// The spot checks of timed runs: they pass a right result, catch a result wrong only near the
// edge or left unwritten, and draw their positions where the docs say.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "common/core/mask.hpp"
#include "common/core/reference.hpp"
#include "common/check/spot_check.hpp"
#include "common/core/synthetic.hpp"

using namespace convlab;

namespace {

constexpr int kW = 97, kH = 61, kC = 3;

struct Fixture {
    Image image = make_random_image(kW, kH, kC, 5);
    Mask mask = parse_mask("gauss:7:2", 31);
    std::vector<float> reference = std::vector<float>(image.elements());
    Fixture() { conv2d_cpu(image, mask, Border::Mirror, reference.data()); }
    std::function<double(size_t)> expected() const {
        return [this](size_t i) { return double(reference[i]); };
    }
};

// Runs `runs` spot checks of `result`; returns what they concluded.
SpotChecks spot_check(const Fixture& f, const std::vector<float>& result, int runs) {
    SpotChecker spots(kW, kH, kC, f.mask.radius(), tolerance_for(f.mask));
    std::vector<float> got(SpotChecker::kValuesPerRun);
    for (int run = 0; run < runs; ++run) {
        const std::vector<size_t>& positions = spots.draw();
        for (size_t n = 0; n < positions.size(); ++n) got[n] = result[positions[n]];
        spots.check(run, got.data(), f.expected());
    }
    return spots.result();
}

bool near_edge(size_t i, int radius) {
    const int x = int(i / kC % kW), y = int(i / kC / kW);
    return x < radius || y < radius || x >= kW - radius || y >= kH - radius;
}

}  // namespace

TEST(SpotCheck, ARightResultPassesEveryRun) {
    const Fixture f;
    const SpotChecks s = spot_check(f, f.reference, 20);
    EXPECT_EQ(s.runs, 20);
    EXPECT_EQ(s.values_per_run, SpotChecker::kValuesPerRun);
    EXPECT_EQ(s.failed_runs, 0);
    EXPECT_TRUE(s.first_failure.empty());
}

TEST(SpotCheck, AResultWrongOnlyNearTheEdgeFailsEveryRun) {
    const Fixture f;
    std::vector<float> result = f.reference;
    for (size_t i = 0; i < result.size(); ++i)
        if (near_edge(i, f.mask.radius())) result[i] += 1.0f;
    const SpotChecks s = spot_check(f, result, 20);
    EXPECT_EQ(s.failed_runs, 20);
    EXPECT_NE(s.first_failure.find("run 1: (x="), std::string::npos) << s.first_failure;
}

TEST(SpotCheck, OneWrongValueInAHundredIsFoundInMostRuns) {
    const Fixture f;
    std::vector<float> result = f.reference;
    for (size_t i = 0; i < result.size(); i += 100) result[i] = NAN;  // never written
    EXPECT_GE(spot_check(f, result, 20).failed_runs, 19);  // a run misses them all with odds of about 0.99^1024
}

TEST(SpotCheck, HalfThePositionsLieWithinTheRadiusOfTheEdge) {
    SpotChecker spots(kW, kH, kC, 3, Tolerance{});
    const std::vector<size_t> positions = spots.draw();
    int edge = 0;
    for (size_t n = 0; n < positions.size(); ++n) {
        ASSERT_LT(positions[n], size_t(kW) * kH * kC);
        if (n % 2) {
            EXPECT_TRUE(near_edge(positions[n], 3)) << positions[n];
        }
        edge += near_edge(positions[n], 3);
    }
    EXPECT_LT(edge, int(positions.size()) * 3 / 4);  // the other half is spread over the image
    EXPECT_NE(spots.draw(), positions);               // every run gets positions of its own
}

TEST(SpotCheck, AOnePixelImageIsAllEdge) {
    SpotChecker spots(1, 1, 1, 0, Tolerance{});
    for (size_t p : spots.draw()) EXPECT_EQ(p, 0u);
}

TEST(SpotCheck, TheReferenceAtOneIndexIsTheFullReferencesValue) {
    const Fixture f;
    for (size_t i : {size_t(0), size_t(kC * kW - 1), size_t(kC * kW * 30 + 40), f.image.elements() - 1})
        EXPECT_EQ(float(reference_value_at(f.image, f.mask, Border::Mirror, i)), f.reference[i]) << i;
}

// A fresh input's reference comes from its seed alone: it must be the reference of the image that
// seed makes, or every spot check of a fresh-input run compares with the wrong values.
TEST(SpotCheck, TheReferenceOfASeedIsTheReferenceOfTheImageItMakes) {
    const Fixture f;  // its image is make_random_image(kW, kH, kC, 5)
    for (size_t i : {size_t(0), size_t(kC * kW * 30 + 41), f.image.elements() - 1})
        EXPECT_EQ(float(reference_value_of_seed(5, kW, kH, kC, f.mask, Border::Mirror, i)), f.reference[i]) << i;
    EXPECT_NE(float(reference_value_of_seed(6, kW, kH, kC, f.mask, Border::Mirror, 40)), f.reference[40]);
}

// The check of a result a band of rows at a time: the same answer as check_output on the whole,
// whatever the band, with mismatches named and located by their place in the whole image.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "common/families/strips/banded_check.hpp"
#include "common/core/reference.hpp"
#include "common/core/synthetic.hpp"

using namespace convlab;

namespace {

void expect_same(const CheckResult& a, const CheckResult& b, size_t band) {
    EXPECT_EQ(a.passed, b.passed) << band;
    EXPECT_EQ(a.values, b.values) << band;
    EXPECT_EQ(a.bad, b.bad) << band;
    EXPECT_EQ(a.unwritten, b.unwritten) << band;
    EXPECT_EQ(a.max_abs_error, b.max_abs_error) << band;
    EXPECT_EQ(a.max_rel_error, b.max_rel_error) << band;
    ASSERT_EQ(a.first.size(), b.first.size()) << band;
    for (size_t i = 0; i < a.first.size(); ++i) {
        EXPECT_EQ(a.first[i].x, b.first[i].x) << band;
        EXPECT_EQ(a.first[i].y, b.first[i].y) << band;
        EXPECT_EQ(a.first[i].c, b.first[i].c) << band;
        EXPECT_EQ(a.first[i].where, b.first[i].where) << band;
    }
}

}  // namespace

TEST(BandedCheck, AnswersAsTheWholeCheckWhateverTheBand) {
    const Image image = make_random_image(53, 41, 3, 21);
    const Mask mask = parse_mask("random:5:3", 31);
    const Tolerance tolerance = tolerance_for(mask);
    const TileShape tile{16, 16};
    std::vector<float> reference(image.elements());
    conv2d_cpu_reference(image, mask, Border::Mirror, reference.data(), false);
    const size_t row = size_t(image.width) * image.channels;
    std::vector<float> got = reference;
    for (float& v : got) v = std::nextafter(v, 1e9f);  // within any tolerance
    const std::vector<size_t> bands{1, row, 3 * row + 5, 7 * row, 1u << 30};
    for (size_t band : bands) {
        const CheckResult banded = check_against_reference_by_bands(image, mask, Border::Mirror, false, got.data(), tolerance, tile, band);
        EXPECT_TRUE(banded.passed) << band << " " << banded.summary();
        expect_same(banded, check_output(got.data(), reference.data(), image.width, image.height, 3, tolerance, mask.radius(), tile), band);
    }
    // Wrong values in a middle band, on the last row and one never written: counted, listed by
    // their rows in the whole image and located by its borders, as the whole check does.
    got[(size_t(20) * image.width + 10) * 3 + 1] += 1.0f;
    got[(size_t(40) * image.width + 30) * 3 + 0] -= 2.0f;
    got[(size_t(16) * image.width + 16) * 3 + 2] = NAN;
    for (size_t band : bands) {
        const CheckResult banded = check_against_reference_by_bands(image, mask, Border::Mirror, false, got.data(), tolerance, tile, band);
        EXPECT_FALSE(banded.passed) << band;
        EXPECT_EQ(banded.bad, 3u) << band;
        EXPECT_EQ(banded.unwritten, 1u) << band;
        ASSERT_EQ(banded.first.size(), 3u) << band;
        EXPECT_EQ(banded.first[0].y, 16) << band;
        EXPECT_EQ(banded.first[0].where, "tile edge") << band;
        EXPECT_EQ(banded.first[2].y, 40) << band;
        EXPECT_EQ(banded.first[2].where, "image border") << band;
        expect_same(banded, check_output(got.data(), reference.data(), image.width, image.height, 3, tolerance, mask.radius(), tile), band);
    }
}

TEST(BandedCheck, ASeparableMaskIsCheckedAgainstItsTwoPassReference) {
    const Image image = make_random_image(40, 33, 1, 4);
    const Mask mask = parse_mask("outer:9:2", 63);
    std::vector<float> reference(image.elements());
    conv2d_cpu_reference(image, mask, Border::Wrap, reference.data(), true);
    const CheckResult r = check_against_reference_by_bands(image, mask, Border::Wrap, true, reference.data(), Tolerance{}, {}, 40 * 4);
    EXPECT_TRUE(r.passed) << r.summary();  // exactly the two-pass reference's bits, band by band
    EXPECT_EQ(r.values, image.elements());
}

// border_index: the one definition of what taps outside the image read.
#include <gtest/gtest.h>

#include "common/core/border.hpp"
#include "common/core/errors.hpp"

using namespace convlab;

TEST(Border, InsideIsIdentityForEveryMode) {
    for (Border b : {Border::Zero, Border::Clamp, Border::Wrap, Border::Mirror})
        for (int i = 0; i < 5; ++i) EXPECT_EQ(border_index(i, 5, b), i);
}

TEST(Border, ZeroReadsNothingOutside) {
    EXPECT_EQ(border_index(-1, 5, Border::Zero), -1);
    EXPECT_EQ(border_index(5, 5, Border::Zero), -1);
    EXPECT_EQ(border_index(-100, 5, Border::Zero), -1);
}

TEST(Border, ClampReplicatesTheEdge) {
    EXPECT_EQ(border_index(-1, 5, Border::Clamp), 0);
    EXPECT_EQ(border_index(-7, 5, Border::Clamp), 0);
    EXPECT_EQ(border_index(5, 5, Border::Clamp), 4);
    EXPECT_EQ(border_index(40, 5, Border::Clamp), 4);
}

TEST(Border, WrapIsPeriodicFarOutsideToo) {
    // ..c d | a b c d | a b..  with n = 4
    EXPECT_EQ(border_index(-1, 4, Border::Wrap), 3);
    EXPECT_EQ(border_index(-2, 4, Border::Wrap), 2);
    EXPECT_EQ(border_index(4, 4, Border::Wrap), 0);
    EXPECT_EQ(border_index(9, 4, Border::Wrap), 1);
    EXPECT_EQ(border_index(-9, 4, Border::Wrap), 3);
}

TEST(Border, MirrorReflectsWithoutRepeatingTheEdge) {
    // n = 5: index -1 -> 1, -2 -> 2, 5 -> 3, 6 -> 2 (OpenCV's BORDER_REFLECT_101)
    EXPECT_EQ(border_index(-1, 5, Border::Mirror), 1);
    EXPECT_EQ(border_index(-2, 5, Border::Mirror), 2);
    EXPECT_EQ(border_index(-4, 5, Border::Mirror), 4);
    EXPECT_EQ(border_index(-5, 5, Border::Mirror), 3);  // bounces back off the far edge
    EXPECT_EQ(border_index(5, 5, Border::Mirror), 3);
    EXPECT_EQ(border_index(6, 5, Border::Mirror), 2);
    EXPECT_EQ(border_index(8, 5, Border::Mirror), 0);
    EXPECT_EQ(border_index(9, 5, Border::Mirror), 1);
}

TEST(Border, OnePixelWideImages) {
    for (int i : {-3, -1, 1, 2, 15}) {
        EXPECT_EQ(border_index(i, 1, Border::Clamp), 0);
        EXPECT_EQ(border_index(i, 1, Border::Wrap), 0);
        EXPECT_EQ(border_index(i, 1, Border::Mirror), 0);
        EXPECT_EQ(border_index(i, 1, Border::Zero), -1);
    }
    // n = 2 mirror: ..a b | a b | a b..
    EXPECT_EQ(border_index(-1, 2, Border::Mirror), 1);
    EXPECT_EQ(border_index(2, 2, Border::Mirror), 0);
    EXPECT_EQ(border_index(3, 2, Border::Mirror), 1);
}

TEST(Border, NamesRoundTripAndUnknownNamesAreRejected) {
    for (const char* name : {"zero", "clamp", "wrap", "mirror"}) EXPECT_STREQ(border_name(parse_border(name)), name);
    EXPECT_THROW(parse_border("reflect"), InputError);
    EXPECT_THROW(parse_border(""), InputError);
}

// Image files, the synthetic generator and --tile-to.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "common/core/errors.hpp"
#include "common/core/image.hpp"
#include "common/core/synthetic.hpp"
#include "common/report/output_folder.hpp"

using namespace convlab;

namespace {

// A fresh folder per test, removed afterwards.
class ImageFiles : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() / ("convlab-test-" + std::to_string(::getpid()) + "-" +
                                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::create_directories(dir_);
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }
    std::string path(const std::string& name) const { return (dir_ / name).string(); }
    void write_bytes(const std::string& name, const std::string& bytes) const {
        std::ofstream(path(name), std::ios::binary) << bytes;
    }
    std::string error_of(const std::string& file, int channels = 0) const {
        try {
            load_image(file, channels);
        } catch (const InputError& e) {
            return e.what();
        }
        return "";
    }
    std::filesystem::path dir_;
};

}  // namespace

TEST_F(ImageFiles, PngRoundTripGreyAndColour) {
    for (int channels : {1, 3}) {
        const Image image = make_random_image(13, 7, channels, 42);
        save_png(path("x.png"), image.pixels.data(), image.width, image.height, image.channels);
        const Image back = load_image(path("x.png"), 0);
        EXPECT_EQ(back.width, 13);
        EXPECT_EQ(back.height, 7);
        EXPECT_EQ(back.channels, channels);
        EXPECT_EQ(back.pixels, image.pixels);
    }
}

TEST_F(ImageFiles, ConvertsChannelsOnRequest) {
    const Image grey = make_random_image(5, 4, 1, 1);
    save_png(path("g.png"), grey.pixels.data(), 5, 4, 1);
    const Image rgb = load_image(path("g.png"), 3);
    ASSERT_EQ(rgb.channels, 3);
    EXPECT_EQ(rgb.at(2, 3, 0), grey.at(2, 3, 0));
    EXPECT_EQ(rgb.at(2, 3, 2), grey.at(2, 3, 0));
}

TEST_F(ImageFiles, ReadsPgm) {
    write_bytes("a.pgm", std::string("P5\n3 2\n255\n") + std::string("\x01\x02\x03\x04\x05\x06", 6));
    const Image image = load_image(path("a.pgm"), 0);
    EXPECT_EQ(image.width, 3);
    EXPECT_EQ(image.channels, 1);
    EXPECT_EQ(image.at(2, 1, 0), 6);
}

TEST_F(ImageFiles, MissingFile) {
    EXPECT_NE(error_of(path("nope.png")).find("cannot open image"), std::string::npos);
}

TEST_F(ImageFiles, NotAnImage) {
    write_bytes("text.png", "this is not a picture at all\n");
    EXPECT_NE(error_of(path("text.png")).find("accepted: 8-bit PNG"), std::string::npos);
}

TEST_F(ImageFiles, TruncatedPng) {
    const Image image = make_random_image(64, 64, 3, 3);
    save_png(path("full.png"), image.pixels.data(), 64, 64, 3);
    std::ifstream in(path("full.png"), std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    write_bytes("cut.png", bytes.substr(0, bytes.size() / 2));
    EXPECT_NE(error_of(path("cut.png")).find("corrupt or truncated"), std::string::npos);
}

TEST_F(ImageFiles, SixteenBitPgmIsRejected) {
    write_bytes("deep.pgm", std::string("P5\n1 1\n65535\n") + std::string("\x12\x34", 2));
    EXPECT_NE(error_of(path("deep.pgm")).find("16 bits"), std::string::npos);
}

TEST_F(ImageFiles, FourChannelsNeedAConversion) {
    const Image rgba = [] {
        Image i;
        i.width = 2, i.height = 2, i.channels = 4;
        i.pixels.assign(16, 200);
        return i;
    }();
    save_png(path("rgba.png"), rgba.pixels.data(), 2, 2, 4);
    EXPECT_NE(error_of(path("rgba.png")).find("--channels"), std::string::npos);
    EXPECT_EQ(load_image(path("rgba.png"), 3).channels, 3);
}

TEST_F(ImageFiles, ZeroSizedPgmIsRejected) {
    write_bytes("empty.pgm", "P5\n0 0\n255\n");
    EXPECT_FALSE(error_of(path("empty.pgm")).empty());
}

TEST_F(ImageFiles, SaveIntoAMissingFolderFailsCleanly) {
    const Image image = make_random_image(2, 2, 1, 1);
    EXPECT_THROW(save_png(path("no/such/folder/x.png"), image.pixels.data(), 2, 2, 1), InputError);
    EXPECT_TRUE(std::filesystem::is_empty(dir_));  // no temporary left behind
}

TEST(Synthetic, DeterministicBySeed) {
    const Image a = make_synthetic_image(101, 67, 3, 7), b = make_synthetic_image(101, 67, 3, 7);
    const Image c = make_synthetic_image(101, 67, 3, 8);
    EXPECT_EQ(a.pixels, b.pixels);
    EXPECT_NE(a.pixels, c.pixels);
    EXPECT_EQ(a.elements(), size_t(101) * 67 * 3);
}

TEST(Synthetic, HasStructureNotJustNoise) {
    // Neighbouring pixels of the synthetic image are far more alike than those of a random one.
    auto roughness = [](const Image& image) {
        double sum = 0;
        for (int y = 0; y < image.height; ++y)
            for (int x = 1; x < image.width; ++x) sum += std::abs(image.at(x, y, 0) - image.at(x - 1, y, 0));
        return sum / (image.height * (image.width - 1));
    };
    EXPECT_LT(roughness(make_synthetic_image(200, 150, 1, 1)), 0.5 * roughness(make_random_image(200, 150, 1, 1)));
}

TEST(Synthetic, RandomImageIsDeterministicAndSpread) {
    const Image a = make_random_image(64, 64, 1, 3);
    EXPECT_EQ(a.pixels, make_random_image(64, 64, 1, 3).pixels);
    int histogram[4] = {};
    for (uint8_t p : a.pixels) ++histogram[p / 64];
    for (int count : histogram) EXPECT_GT(count, 800);  // 4096 values, about 1024 a quarter
}

TEST(Synthetic, RejectsBadShapes) {
    EXPECT_THROW(make_synthetic_image(0, 10, 1, 1), InputError);
    EXPECT_THROW(make_synthetic_image(10, 10, 2, 1), InputError);
    EXPECT_THROW(make_random_image(kMaxImageSide + 1, 1, 1, 1), InputError);
}

TEST(TileImage, RepeatsPeriodically) {
    const Image small = make_random_image(3, 2, 3, 1);
    const Image big = tile_image(small, 7, 5);
    EXPECT_EQ(big.width, 7);
    for (int y = 0; y < 5; ++y)
        for (int x = 0; x < 7; ++x)
            for (int c = 0; c < 3; ++c) ASSERT_EQ(big.at(x, y, c), small.at(x % 3, y % 2, c));
}

TEST(ToU8, RoundsClampsAndZeroesNan) {
    const std::vector<uint8_t> bytes = to_u8({-3.0f, 0.49f, 0.5f, 254.6f, 300.0f, NAN});
    EXPECT_EQ(bytes, (std::vector<uint8_t>{0, 0, 1, 255, 255, 0}));
}

TEST(OutputFolder, PictureNamesNeedNoQuotingInAShell) {
    EXPECT_EQ(shell_safe_file_name("naive (lab 1)-k15"), "naive-lab-1-k15.png");
    EXPECT_EQ(shell_safe_file_name("tiled-k31-diff"), "tiled-k31-diff.png");
    EXPECT_EQ(shell_safe_file_name("memory/A write-swapped"), "memory-A-write-swapped.png");
    EXPECT_EQ(shell_safe_file_name("  two--pass  "), "two-pass.png");
    EXPECT_EQ(shell_safe_file_name("$(rm -rf ~)"), "rm-rf.png");
    EXPECT_EQ(shell_safe_file_name("()"), "picture.png");
}

// The lecture scene: the same for a seed, any size, and high in contrast in every quarter.
TEST(SceneImage, EveryQuarterHasItsContrast) {
    const int w = 400, h = 300;
    const Image a = make_scene_image(w, h, 3, 7), b = make_scene_image(w, h, 3, 7), other = make_scene_image(w, h, 3, 8);
    EXPECT_EQ(a.pixels, b.pixels);
    EXPECT_NE(a.pixels, other.pixels);  // the glyphs and the shapes are drawn from the seed
    const auto range = [&](const Image& im, int x0, int y0, int c) {
        int lo = 255, hi = 0;
        for (int y = y0; y < y0 + h / 2; ++y)
            for (int x = x0; x < x0 + w / 2; ++x) {
                const int v = im.pixels[(size_t(y) * w + x) * im.channels + c];
                lo = std::min(lo, v), hi = std::max(hi, v);
            }
        return hi - lo;
    };
    for (int quarter = 0; quarter < 4; ++quarter)
        for (int c = 0; c < 3; ++c)
            EXPECT_GT(range(a, (quarter % 2) * w / 2, (quarter / 2) * h / 2, c), 180) << "quarter " << quarter << ", channel " << c;
    const Image grey = make_scene_image(w, h, 1, 7);
    for (int quarter = 0; quarter < 4; ++quarter) EXPECT_GT(range(grey, (quarter % 2) * w / 2, (quarter / 2) * h / 2, 0), 150);
    EXPECT_EQ(make_scene_image(1, 1, 1, 7).pixels.size(), 1u);
    EXPECT_EQ(make_scene_image(3, 2, 3, 7).pixels.size(), 18u);
}

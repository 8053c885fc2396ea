// The shared command line.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/core/errors.hpp"
#include "common/runner/lab.hpp"
#include "common/cli/options.hpp"
#include "common/core/text_parse.hpp"

using namespace convlab;

namespace {

LabSpec spec() {
    LabSpec s;
    s.number = 7;
    s.title = "test";
    s.cpu = {{"seq", "sequential", nullptr}};
    s.gpu = {{"fast", "fast kernel", nullptr}};
    return s;
}

Options parse(std::vector<std::string> words) {
    words.insert(words.begin(), "lab7");
    std::vector<char*> argv;
    for (auto& w : words) argv.push_back(w.data());
    return parse_options(int(argv.size()), argv.data(), spec());
}

std::string error_of(std::vector<std::string> words) {
    try {
        parse(std::move(words));
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(Options, Defaults) {
    const Options o = parse({});
    EXPECT_EQ(o.image, "synthetic");
    EXPECT_EQ(o.width, 2999);
    EXPECT_EQ(o.height, 1999);
    ASSERT_EQ(o.masks.size(), 1u);
    EXPECT_EQ(o.masks[0].spec, "gauss:7:2");
    EXPECT_EQ(o.masks[0].k, 7);
    EXPECT_EQ(o.border, Border::Zero);
    EXPECT_EQ(o.format, Format::Text);
    EXPECT_TRUE(o.flush_l2);
    EXPECT_FALSE(o.threads.empty());
}

TEST(Options, Everything) {
    const Options o = parse({"--size", "640x480", "--channels", "1", "--mask", "box:3", "--border", "mirror", "--seed", "9",
                             "--variant", "fast", "--threads", "1,3", "--reps", "4", "--warmup", "0", "--no-flush",
                             "--format", "json", "--out", "/tmp/x", "--tile-to", "1000"});
    EXPECT_EQ(o.width, 640);
    EXPECT_EQ(o.channels, 1);
    EXPECT_EQ(o.border, Border::Mirror);
    EXPECT_EQ(o.seed, 9u);
    EXPECT_EQ(o.variants, std::vector<std::string>{"fast"});
    EXPECT_EQ(o.threads, (std::vector<int>{1, 3}));
    EXPECT_EQ(o.reps, 4);
    EXPECT_FALSE(o.flush_l2);
    EXPECT_EQ(o.format, Format::Json);
    EXPECT_EQ(o.tile_width, 1000);
    EXPECT_EQ(o.tile_height, 1000);
    ASSERT_EQ(o.masks.size(), 1u);
    EXPECT_EQ(o.masks[0].k, 3);
}

// The sweep is parsed once, here, into masks: each checked against the lab's sizes before anything runs.
TEST(Options, AMaskSweepIsParsedIntoMasks) {
    const Options o = parse({"--mask", "box:3,gauss:31:5"});
    ASSERT_EQ(o.masks.size(), 2u);
    EXPECT_EQ(o.masks[0].k, 3);
    EXPECT_EQ(o.masks[1].k, 31);
    EXPECT_THROW(parse({"--mask", "box:3,box:33"}), InputError);
    EXPECT_THROW(parse({"--mask", ""}), InputError);
}

TEST(Options, DemoChoosesABigImageAndAFolder) {
    const Options o = parse({"--demo"});
    EXPECT_EQ(o.width, 2048);
    EXPECT_EQ(o.out_dir, "demo-output/lab7");
    // At a lecture's pace: each GPU variant timed kDemoReps times after one warm-up, unless told otherwise.
    EXPECT_EQ(o.reps, kDemoReps);
    EXPECT_EQ(o.warmup, 1);
    EXPECT_TRUE(o.demo_gpu_reps);
    const Options told = parse({"--demo", "--reps", "9"});
    EXPECT_EQ(told.reps, 9);
    EXPECT_EQ(told.warmup, 2);
    EXPECT_FALSE(told.demo_gpu_reps);
    EXPECT_EQ(parse({}).reps, 15);
}

TEST(Options, HelpListsVariantsAndExitStatuses) {
    const Options o = parse({"--help"});
    EXPECT_TRUE(o.help);
    EXPECT_NE(o.help_text.find("fast kernel"), std::string::npos);
    EXPECT_NE(o.help_text.find("Exit status"), std::string::npos);
}

TEST(Options, HelpTakesNamesWiderThanItsColumn) {
    // A name past the 20-wide column (lab 11's naive-2d-driver-groups) once made --help throw.
    LabSpec s = spec();
    s.gpu.push_back({"a-variant-named-past-the-column", "its description", nullptr});
    s.presets.push_back({"a-preset-named-past-the-column", "its source", {"--size", "64"}});
    std::vector<std::string> words = {"lab7", "--help"};
    std::vector<char*> argv;
    for (auto& w : words) argv.push_back(w.data());
    const Options o = parse_options(int(argv.size()), argv.data(), s);
    EXPECT_NE(o.help_text.find("  a-variant-named-past-the-column its description\n"), std::string::npos) << o.help_text;
    EXPECT_NE(o.help_text.find("  a-preset-named-past-the-column its source\n"), std::string::npos) << o.help_text;
    EXPECT_NE(o.help_text.find("  fast                fast kernel\n"), std::string::npos) << o.help_text;
}

TEST(Options, BadValuesSayWhatIsAccepted) {
    EXPECT_NE(error_of({"--bogus"}).find("--help"), std::string::npos);
    EXPECT_NE(error_of({"stray"}).find("unexpected argument"), std::string::npos);
    EXPECT_NE(error_of({"--size=-5x3"}).find("1 to 32768"), std::string::npos);
    EXPECT_NE(error_of({"--size", "0x10"}).find("1 to 32768"), std::string::npos);
    EXPECT_NE(error_of({"--size", "100000x10"}).find("1 to 32768"), std::string::npos);
    EXPECT_NE(error_of({"--size", "12by3"}).find("WxH"), std::string::npos);
    EXPECT_NE(error_of({"--channels", "2"}).find("1 or 3"), std::string::npos);
    EXPECT_NE(error_of({"--channels", "4"}).find("1 to 3"), std::string::npos);
    EXPECT_NE(error_of({"--border", "reflect"}).find("zero, clamp, wrap, mirror"), std::string::npos);
    EXPECT_NE(error_of({"--format", "xml"}).find("text, md, csv, json"), std::string::npos);
    EXPECT_NE(error_of({"--variant", "slow"}).find("accepted: seq, fast"), std::string::npos);
    EXPECT_NE(error_of({"--threads", "0"}).find("out of range"), std::string::npos);
    EXPECT_NE(error_of({"--reps", "many"}).find("not a whole number"), std::string::npos);
    EXPECT_NE(error_of({"--seed=-1"}).find("negative"), std::string::npos);
}

TEST(Options, ThreadCountsUpToTwiceTheCores) {
    EXPECT_EQ(default_thread_counts(2), (std::vector<int>{1, 2, 4}));
    EXPECT_EQ(default_thread_counts(6), (std::vector<int>{1, 2, 4, 6, 8, 12}));
    EXPECT_EQ(default_thread_counts(16), (std::vector<int>{1, 2, 4, 8, 16, 32}));
}

// One splitter for option lists and mask specs: an empty item is kept, so a stray comma or colon
// is refused by whoever reads the item instead of vanishing.
TEST(Options, SplitListKeepsEveryEmptyItem) {
    EXPECT_EQ(split_list(""), std::vector<std::string>{});
    EXPECT_EQ(split_list("a,b"), (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(split_list("a,,b"), (std::vector<std::string>{"a", "", "b"}));
    EXPECT_EQ(split_list("a,"), (std::vector<std::string>{"a", ""}));
    EXPECT_EQ(split_list(",a"), (std::vector<std::string>{"", "a"}));
    EXPECT_EQ(split_list("gauss:7:", ':'), (std::vector<std::string>{"gauss", "7", ""}));
}

namespace {

Options parse_with_lab_options(std::vector<std::string> words, std::string* help = nullptr) {
    LabSpec s = spec();
    s.lab_options = {{"low", "the low threshold", "0.1"}, {"absolute", "thresholds are magnitudes", "", true}};
    words.insert(words.begin(), "lab7");
    std::vector<char*> argv;
    for (auto& w : words) argv.push_back(w.data());
    Options o = parse_options(int(argv.size()), argv.data(), s);
    if (help) *help = o.help_text;
    return o;
}

}  // namespace

TEST(Options, LabOptionsTakeTheirDefaultsAndGivenValues) {
    const Options defaults = parse_with_lab_options({});
    EXPECT_EQ(defaults.lab_values.at("low"), "0.1");
    EXPECT_EQ(defaults.lab_values.at("absolute"), "false");
    const Options given = parse_with_lab_options({"--low", "12.5", "--absolute"});
    EXPECT_EQ(given.lab_values.at("low"), "12.5");
    EXPECT_EQ(given.lab_values.at("absolute"), "true");
    EXPECT_TRUE(parse({}).lab_values.empty());
}

TEST(Options, LabOptionsHaveTheirOwnGroupInTheHelp) {
    std::string help;
    parse_with_lab_options({"--help"}, &help);
    EXPECT_NE(help.find(" Lab options:"), std::string::npos) << help;
    EXPECT_NE(help.find("--low"), std::string::npos);
    EXPECT_NE(help.find("--absolute"), std::string::npos);
    EXPECT_EQ(parse({"--help"}).help_text.find(" Lab options:"), std::string::npos);
}

TEST(Options, AnUnknownOptionIsStillRefusedBesideLabOptions) {
    std::string error;
    try {
        parse_with_lab_options({"--lowe", "1"});
    } catch (const InputError& e) {
        error = e.what();
    }
    EXPECT_NE(error.find("lowe"), std::string::npos) << error;
}

TEST(TextParse, MemorySizesInBytesUnitsAndShares) {
    const size_t total = size_t(80) << 30;  // an 80 GiB GPU
    EXPECT_EQ(parse_memory_size("2GiB", total, "--gpu-memory"), size_t(2) << 30);
    EXPECT_EQ(parse_memory_size("1.5GiB", total, "--gpu-memory"), size_t(3) << 29);
    EXPECT_EQ(parse_memory_size("512MiB", total, "--gpu-memory"), size_t(512) << 20);
    EXPECT_EQ(parse_memory_size("3kB", total, "--gpu-memory"), 3000u);
    EXPECT_EQ(parse_memory_size("2GB", total, "--gpu-memory"), 2000000000u);
    EXPECT_EQ(parse_memory_size("4096", total, "--gpu-memory"), 4096u);
    EXPECT_EQ(parse_memory_size("4096B", total, "--gpu-memory"), 4096u);
    EXPECT_EQ(parse_memory_size("25%", total, "--gpu-memory"), size_t(20) << 30);
    EXPECT_EQ(parse_memory_size("100%", total, "--gpu-memory"), total);
    for (const char* bad : {"", "GiB", "2XB", "-1GiB", "0", "0%", "101%", "0.5", "nan", "inf", "2 GiB x", "1e30TiB"}) {
        try {
            parse_memory_size(bad, total, "--gpu-memory");
            ADD_FAILURE() << "'" << bad << "' was accepted";
        } catch (const InputError& e) {
            EXPECT_EQ(std::string(e.what()).rfind("--gpu-memory", 0), 0u) << e.what();
        }
    }
    try {  // a share's refusal names what it is a share of, as the caller says it
        parse_memory_size("2XB", total, "--gpu-memory", "the GPU's memory");
        ADD_FAILURE() << "2XB was accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("a share of the GPU's memory"), std::string::npos) << e.what();
    }
}

// --case-list (common/cli/case_list.hpp): the grader's hidden cases several to a process.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "common/cli/case_list.hpp"
#include "common/core/exit_status.hpp"

using namespace convlab;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

struct Folder {
    fs::path path = fs::temp_directory_path() / ("case-list-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
                                                 "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    Folder() { fs::create_directories(path); }
    ~Folder() { fs::remove_all(path); }
};

// Runs run_listed_cases_or on `argv`; each case's run records its arguments, prints them on
// stdout and a line on stderr, and returns the status its --status names (0 when none).
int run(std::vector<std::string> argv, std::vector<std::vector<std::string>>* seen) {
    std::vector<char*> pointers;
    for (std::string& a : argv) pointers.push_back(a.data());
    pointers.push_back(nullptr);
    return run_listed_cases_or(int(argv.size()), pointers.data(), [&](int argc, char** args) {
        std::vector<std::string> got(args, args + argc);
        seen->push_back(got);
        for (const std::string& a : got) std::cout << a << " ";
        std::printf("(printf)\n");
        std::cerr << "an error line\n";
        for (size_t i = 0; i + 1 < got.size(); ++i)
            if (got[i] == "--status") return std::stoi(got[i + 1]);
        return 0;
    });
}

}  // namespace

TEST(CaseList, WithoutItTheCommandLineRunsOnce) {
    std::vector<std::vector<std::string>> seen;
    EXPECT_EQ(run({"lab2", "--size", "7x5", "--status", "1"}, &seen), 1);
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0], (std::vector<std::string>{"lab2", "--size", "7x5", "--status", "1"}));
}

TEST(CaseList, EachCaseRunsWithItsArgumentsAndItsOwnOutputFiles) {
    Folder f;
    const std::string a = (f.path / "a").string(), b = (f.path / "b").string();
    std::ofstream(f.path / "list.json") << R"({"cases": [{"args": ["--size", "1x1"], "log": ")" << a << R"("},
                                                          {"args": ["--size", "3x2", "--status", "1"], "log": ")" << b << R"("}]})";
    std::vector<std::vector<std::string>> seen;
    EXPECT_EQ(run({"lab2", "--check-only", "--case-list", (f.path / "list.json").string(), "--format", "json"}, &seen), 1);
    ASSERT_EQ(seen.size(), 2u);
    EXPECT_EQ(seen[0], (std::vector<std::string>{"lab2", "--check-only", "--format", "json", "--size", "1x1"}));
    EXPECT_EQ(slurp(a + ".json"), "lab2 --check-only --format json --size 1x1 (printf)\n");
    EXPECT_EQ(slurp(a + ".err"), "an error line\n");
    EXPECT_EQ(slurp(a + ".status"), "0\n");
    EXPECT_EQ(slurp(b + ".status"), "1\n");
    EXPECT_FALSE(fs::exists(b + ".status.partial"));
}

TEST(CaseList, AnEndOtherThanPassOrFailEndsTheList) {
    Folder f;
    const std::string a = (f.path / "a").string(), b = (f.path / "b").string();
    std::ofstream(f.path / "list.json") << R"({"cases": [{"args": ["--status", "4"], "log": ")" << a << R"("},
                                                          {"args": [], "log": ")" << b << R"("}]})";
    std::vector<std::vector<std::string>> seen;
    EXPECT_EQ(run({"lab2", "--case-list=" + (f.path / "list.json").string()}, &seen), kExitCudaError);
    EXPECT_EQ(seen.size(), 1u);
    EXPECT_EQ(slurp(a + ".status"), "4\n");
    EXPECT_FALSE(fs::exists(b + ".status"));
}

TEST(CaseList, AListThatDoesNotReadIsBadInputInOneLine) {
    Folder f;
    std::ofstream(f.path / "list.json") << R"({"cases": [{"args": "--size 1x1", "log": "x"}]})";
    std::vector<std::vector<std::string>> seen;
    testing::internal::CaptureStderr();
    EXPECT_EQ(run({"build/bin/lab2-graded", "--case-list", (f.path / "list.json").string()}, &seen), kExitBadInput);
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_TRUE(seen.empty());
    EXPECT_EQ(err.rfind("lab2-graded: error: --case-list: ", 0), 0u) << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
    testing::internal::CaptureStderr();
    EXPECT_EQ(run({"lab2", "--case-list", (f.path / "missing.json").string()}, &seen), kExitBadInput);
    EXPECT_NE(testing::internal::GetCapturedStderr().find("cannot read"), std::string::npos);
}

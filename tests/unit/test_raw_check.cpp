// The grader's trusted check of raw results: each row is named by the result it checked, never by
// a file a submission chose, a wrong, short or stray file is shown as what it is, and each result
// is held to its variant's tolerance.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "common/core/mask.hpp"
#include "common/grading/raw_check.hpp"
#include "common/grading/raw_result.hpp"
#include "common/families/filters/filter_lab.hpp"

using namespace convlab;
namespace fs = std::filesystem;

namespace {

constexpr int kW = 5, kH = 4, kC = 1;

struct Folder {
    fs::path path = fs::temp_directory_path() / ("convlab-raw-check-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
                                                 "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    Folder() { fs::create_directories(path); }
    ~Folder() { fs::remove_all(path); }
    std::string str() const { return path.string(); }
};

const Mask& box3() {  // radius 1; not integral, so its tolerance is a few 1e-4
    static const Mask mask = parse_mask("box:3", 31);
    return mask;
}

std::vector<RawResult> named(const std::vector<std::string>& names) {
    std::vector<RawResult> results;
    for (const std::string& name : names) results.push_back({name, {}});
    return results;
}

std::vector<float> reference() {
    std::vector<float> values(kW * kH * kC);
    for (size_t i = 0; i < values.size(); ++i) values[i] = float(i) * 0.5f;
    return values;
}

std::map<std::string, std::string> statuses(const std::vector<VariantResult>& rows) {
    std::map<std::string, std::string> by_name;
    for (const VariantResult& r : rows) {
        EXPECT_EQ(r.kind, "submitted");
        by_name[r.name] = r.status;
    }
    return by_name;
}

}  // namespace

TEST(RawCheck, RowsAreNamedByResultNotByFile) {
    const Folder dir;
    const std::vector<float> ref = reference();
    std::vector<float> wrong = ref;
    wrong[7] += 1.0f;
    write_raw_floats(raw_result_path(dir.str(), "memory/B read-swapped"), ref);  // a name that is no file name
    write_raw_floats(raw_result_path(dir.str(), end_to_end_result_name("naive")), wrong);
    write_raw_floats(dir.str() + "/stray.f32", ref);
    write_raw_floats(dir.str() + "/odd name.f32", ref);  // not the file of result "odd name" (odd_name.f32)
    const RawCheckTarget target{ref, kW, kH, kC, box3()};
    const auto got = statuses(check_raw_results(dir.str(), named({"memory/B read-swapped", "naive", "naive-end-to-end", "odd name"}), target));
    const std::map<std::string, std::string> want{
        {"memory/B read-swapped", "pass"}, {"naive-end-to-end", "fail"}, {"stray.f32", "pass"}, {"odd name.f32", "pass"}};
    EXPECT_EQ(got, want);  // "naive" and "odd name" wrote nothing: no row, the grader says why
}

TEST(RawCheck, AShortFileFailsWithoutBeingCompared) {
    const Folder dir;
    const std::vector<float> ref = reference();
    write_raw_floats(raw_result_path(dir.str(), "tiled"), std::vector<float>(ref.begin(), ref.end() - 1));
    const auto rows = check_raw_results(dir.str(), named({"tiled"}), RawCheckTarget{ref, kW, kH, kC, box3()});
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].status, "fail");
    EXPECT_NE(rows[0].message.find("holds 19 floats"), std::string::npos) << rows[0].message;
}

TEST(RawCheck, OneFileIsCheckedUnderItsFileName) {
    const Folder dir;
    const std::vector<float> ref = reference();
    const std::string file = raw_result_path(dir.str(), "tiled");
    write_raw_floats(file, ref);
    const auto rows = check_raw_results(file, {}, RawCheckTarget{ref, kW, kH, kC, box3()});
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].name, "tiled");
    EXPECT_EQ(rows[0].status, "pass");
}

TEST(RawCheck, TheLabsResultNamesIncludeEndToEndParts) {
    LabSpec spec;
    spec.cpu.push_back(CpuVariant{"omp", "", nullptr});
    GpuVariant gpu;
    gpu.name = "naive";
    gpu.end_to_end = [](const Problem&, float*) {};
    spec.gpu.push_back(gpu);
    gpu.name = "tiled";
    gpu.end_to_end = nullptr;
    spec.gpu.push_back(gpu);
    std::vector<std::string> names;
    for (const RawResult& r : raw_results(spec)) names.push_back(r.name);
    EXPECT_EQ(names, (std::vector<std::string>{"omp", "naive", "naive-end-to-end", "tiled"}));
}

// The same error passes a direct variant's K*K tolerance and fails a two-pass variant's tighter
// one: the grader holds each result to its own variant's bound, as the lab's run does.
TEST(RawCheck, ATwoPassResultIsHeldToItsOwnTolerance) {
    const Folder dir;
    const Mask gauss = parse_mask("gauss:31:8", 63);
    const double direct = tolerance_for(gauss).atol, two_pass = separable_tolerance_for(gauss).atol;
    ASSERT_LT(two_pass, direct);
    const std::vector<float> ref = reference();
    std::vector<float> off = ref;
    off[7] += float((direct + two_pass) / 2);
    write_raw_floats(raw_result_path(dir.str(), "direct"), off);
    write_raw_floats(raw_result_path(dir.str(), "fused"), off);
    const std::vector<RawResult> results{{"direct", WorkModel{}}, {"fused", WorkModel{5, true}}};
    const auto rows = check_raw_results(dir.str(), results, RawCheckTarget{ref, kW, kH, kC, gauss});
    EXPECT_EQ(statuses(rows), (std::map<std::string, std::string>{{"direct", "pass"}, {"fused", "fail"}}));
}

// The staged-pipeline runner (lab 8) on its CPU side: the reference stage by stage, the
// sequential variant, the threshold options and the inputs it refuses. Runs without a GPU: only
// the CPU variant is selected, so no GPU is opened on any machine.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/canny_lab.hpp"
#include "common/errors.hpp"
#include "common/exit_status.hpp"

using namespace convlab;

namespace {

CannyLabSpec spec() {
    CannyLabSpec s;
    s.lab.number = 8;
    s.lab.title = "test pipeline";
    s.lab.student_files = "nothing";
    s.lab.default_mask = "gauss:5:1.4";
    s.lab.max_mask_size = 31;
    s.lab.default_width = 61;
    s.lab.default_height = 47;
    s.lab.default_channels = 1;
    s.thresholds = {0.1f, 0.5f, true};
    // A pipeline whose one stage is not written: never run here (only "sequential" is selected).
    s.pipelines = {{"gpu-pipeline", "a stage not written", nullptr,
                    {{"hysteresis", kCannyLabels, kCannyEdges, 2, [](const CannyArgs&) { throw NotImplemented("hysteresis"); }}}}};
    return s;
}

struct LabRun {
    int status;
    std::string out, err;
};

LabRun run_lab8(std::vector<std::string> words) {
    words.insert(words.begin(), "lab8");
    std::vector<char*> argv;
    for (auto& w : words) argv.push_back(w.data());
    testing::internal::CaptureStdout();
    testing::internal::CaptureStderr();
    const int status = run_canny_lab(int(argv.size()), argv.data(), spec());
    return {status, testing::internal::GetCapturedStdout(), testing::internal::GetCapturedStderr()};
}

}  // namespace

TEST(CannyLab, ReferenceStagesAndTheSequentialVariant) {
    const LabRun r = run_lab8({"--image", "spiral", "--variant", "sequential", "--cpu-reps", "1", "--format", "json"});
    ASSERT_EQ(r.status, kExitPass) << r.err << r.out;
    const auto doc = nlohmann::json::parse(r.out);
    std::vector<std::string> stages;
    double shares = 0;
    bool whole = false, sequential = false;
    for (const auto& row : doc["results"]) {
        if (row["variant"] == "openmp-reference" && !row["stage"].is_null()) {
            stages.push_back(row["stage"]);
            shares += row["share_pct"].get<double>();
        }
        if (row["variant"] == "openmp-reference" && row["stage"].is_null()) {
            whole = true;
            EXPECT_GE(row["rounds"].get<int>(), 0);
        }
        if (row["variant"] == "sequential") {
            sequential = true;
            EXPECT_EQ(row["status"], "pass") << row["message"];
            EXPECT_TRUE(row["speedup_vs_omp"].is_number());
        }
    }
    EXPECT_EQ(stages, (std::vector<std::string>{"smoothing", "gradients", "suppression", "thresholds", "hysteresis"}));
    EXPECT_NEAR(shares, 100.0, 1e-6);
    EXPECT_TRUE(whole);
    EXPECT_TRUE(sequential);
}

TEST(CannyLab, TheTextReportStatesTheThresholdsAndTheCheck) {
    const LabRun r = run_lab8({"--variant", "sequential", "--check-only", "--low", "20", "--high", "40", "--absolute"});
    ASSERT_EQ(r.status, kExitPass) << r.err << r.out;
    EXPECT_NE(r.out.find("thresholds low 20.0, high 40.0"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("each GPU stage alone"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("sequential"), std::string::npos) << r.out;
}

TEST(CannyLab, BadThresholdsAndMasksAreBadInput) {
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
        {{"--low", "0.5", "--high", "0.2"}, "accepted: 0 < low <= high"},
        {{"--high", "2"}, "above 1"},
        {{"--low", "-1"}, "not a positive number"},
        {{"--low", "x"}, "not a positive number"},
        {{"--mask", "gauss:3:1,gauss:5:1"}, "not a sweep"},
        {{"--mask", "laplacian"}, "not separable"},
        {{"--channels", "3"}, "--channels 1"},
    };
    for (const auto& [words, expected] : cases) {
        std::vector<std::string> args = words;
        args.insert(args.end(), {"--variant", "sequential", "--check-only"});
        const LabRun r = run_lab8(args);
        EXPECT_EQ(r.status, kExitBadInput) << words.front() << ": " << r.err;
        EXPECT_NE(r.err.find(expected), std::string::npos) << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
    }
}

TEST(CannyLab, OutSavesTheInputAndTheReferencesEdgesAndMagnitude) {
    const std::string folder = testing::TempDir() + "canny-lab-out";
    std::filesystem::remove_all(folder);
    const LabRun r = run_lab8({"--variant", "sequential", "--check-only", "--out", folder});
    ASSERT_EQ(r.status, kExitPass) << r.err;
    for (const char* name : {"input.png", "reference-edges.png", "reference-magnitude.png"})
        EXPECT_TRUE(std::filesystem::exists(folder + "/" + name)) << name;
    std::filesystem::remove_all(folder);
}

TEST(CannyLab, RawEdgeMapsAreComparedValueForValue) {
    const std::string folder = testing::TempDir() + "canny-lab-raw";
    std::filesystem::remove_all(folder);
    std::filesystem::create_directories(folder);
    const std::vector<std::string> input{"--image", "spiral", "--size", "48x40", "--check-only"};
    auto with = [&](std::vector<std::string> more) {
        more.insert(more.begin(), input.begin(), input.end());
        return more;
    };
    ASSERT_EQ(run_lab8(with({"--variant", "sequential", "--raw-out", folder})).status, kExitPass);
    const std::string file = folder + "/sequential.f32";
    ASSERT_TRUE(std::filesystem::exists(file));
    const LabRun good = run_lab8(with({"--compare", folder, "--format", "json"}));
    EXPECT_EQ(good.status, kExitPass) << good.err << good.out;
    // One value nudged by far less than any filter's tolerance: an edge map is right or wrong.
    std::vector<float> values(48 * 40);
    {
        std::ifstream in(file, std::ios::binary);
        in.read(reinterpret_cast<char*>(values.data()), std::streamsize(values.size() * sizeof(float)));
    }
    values[0] += 1e-4f;
    {
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(values.data()), std::streamsize(values.size() * sizeof(float)));
    }
    const LabRun nudged = run_lab8(with({"--compare", file}));
    EXPECT_EQ(nudged.status, kExitCheckFailed) << nudged.out;
    EXPECT_NE(nudged.out.find("FAIL"), std::string::npos) << nudged.out;
    std::filesystem::remove_all(folder);
}

TEST(CannyLab, PeerTimingIsRefusedUntilTheLabHasIt) {
    const LabRun r = run_lab8({"--fresh-input-each-rep", "--image", "random"});
    EXPECT_EQ(r.status, kExitBadInput);
    EXPECT_NE(r.err.find("no peer timing or fresh inputs yet"), std::string::npos) << r.err;
}

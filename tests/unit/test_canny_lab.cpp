// The staged-pipeline runner (lab 8) on its CPU side: the reference stage by stage, the
// sequential variant, the threshold options and the inputs it refuses. Runs without a GPU: only
// the CPU variant is selected, so no GPU is opened on any machine.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/families/pipelines/canny.hpp"
#include "common/families/pipelines/canny_lab.hpp"
#include "common/core/errors.hpp"
#include "common/core/exit_status.hpp"
#include "common/core/mask.hpp"
#include "common/core/synthetic.hpp"

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
    auto figure = [](const nlohmann::json& row, const std::string& name) {  // a figure of lab 8's own (schema 2), or null
        for (const auto& f : row["figures"])
            if (f["name"] == name) return f["value"];
        return nlohmann::json(nullptr);
    };
    for (const auto& row : doc["results"]) {
        if (row["variant"] == "openmp-reference" && !figure(row, "stage").is_null()) {
            stages.push_back(figure(row, "stage"));
            shares += figure(row, "share_pct").get<double>();
        }
        if (row["variant"] == "openmp-reference" && figure(row, "stage").is_null()) {
            whole = true;
            EXPECT_TRUE(figure(row, "rounds").is_null()) << "the CPU's hysteresis has no rounds";
            EXPECT_GT(row["time"]["median_ms"].get<double>(), 0);
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

namespace {

void write_floats(const std::string& path, const std::vector<float>& values) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(values.data()), std::streamsize(values.size() * sizeof(float)));
}

template <class T>
std::vector<float> floats(const std::vector<T>& plane) {
    return std::vector<float>(plane.begin(), plane.end());
}

// The --compare report's rows, by variant name: "pass" or "fail".
std::map<std::string, std::string> verdicts(const LabRun& run) {
    std::map<std::string, std::string> by_name;
    const nlohmann::json doc = nlohmann::json::parse(run.out);
    for (const auto& r : doc["results"])
        if (r["kind"] == "submitted") by_name[r["variant"].get<std::string>()] = r["status"].get<std::string>();
    return by_name;
}

}  // namespace

TEST(CannyLab, RawResultsAreComparedValueForValue) {
    const std::string folder = testing::TempDir() + "canny-lab-raw";
    std::filesystem::remove_all(folder);
    std::filesystem::create_directories(folder);
    const std::vector<std::string> input{"--image", "spiral", "--size", "48x40", "--border", "clamp", "--check-only"};
    auto with = [&](std::vector<std::string> more) {
        more.insert(more.begin(), input.begin(), input.end());
        return more;
    };
    const CannyStages ref = canny_reference(make_spiral_image(48, 40, 1), parse_mask("gauss:5:1.4", 31), Border::Clamp, {0.1f, 0.5f, true}, 1);
    // The sequential variant's edges; a stage's buffers; a whole pipeline: its edge map and the
    // smoothing it started from.
    write_floats(folder + "/sequential.f32", floats(ref.edges));
    write_floats(folder + "/gpu-pipeline_hysteresis_edges.f32", floats(ref.edges));
    CannyStages own = ref;  // a smoothing off by rounding, with the edges stages 2 to 5 give on it
    for (float& v : own.smoothed) v = std::nextafter(v, 1e9f);
    canny_after_smoothing(Border::Clamp, {0.1f, 0.5f, true}, 1, own);
    write_floats(folder + "/gpu-pipeline_smoothed.f32", own.smoothed);
    write_floats(folder + "/gpu-pipeline.f32", floats(own.edges));
    const LabRun good = run_lab8(with({"--compare", folder, "--format", "json"}));
    EXPECT_EQ(good.status, kExitPass) << good.err << good.out;
    const std::map<std::string, std::string> want{{"sequential", "pass"}, {"gpu-pipeline hysteresis", "pass"}, {"gpu-pipeline", "pass"}};
    EXPECT_EQ(verdicts(good), want) << good.out;

    // Each check can fail: an edge value nudged by far less than any filter's tolerance (an edge
    // map is right or wrong); the pipeline's edges not those of its own smoothing; a stray file.
    std::vector<float> nudged = floats(ref.edges);
    nudged[0] += 1e-4f;
    write_floats(folder + "/gpu-pipeline_hysteresis_edges.f32", nudged);
    std::vector<uint8_t> flipped = own.edges;
    flipped[flipped.size() / 2] ^= 255;
    write_floats(folder + "/gpu-pipeline.f32", floats(flipped));
    write_floats(folder + "/stray.f32", floats(ref.edges));
    const LabRun bad = run_lab8(with({"--compare", folder, "--format", "json"}));
    EXPECT_EQ(bad.status, kExitCheckFailed) << bad.out;
    const std::map<std::string, std::string> failed{
        {"sequential", "pass"}, {"gpu-pipeline hysteresis", "fail"}, {"gpu-pipeline", "fail"}, {"stray.f32", "fail"}};
    EXPECT_EQ(verdicts(bad), failed) << bad.out;
    // A pipeline's edge map without its smoothing fails; a file instead of a folder is bad input.
    std::filesystem::remove(folder + "/gpu-pipeline_smoothed.f32");
    EXPECT_EQ(verdicts(run_lab8(with({"--compare", folder, "--format", "json"}))).at("gpu-pipeline"), "fail");
    EXPECT_EQ(run_lab8(with({"--compare", folder + "/sequential.f32"})).status, kExitBadInput);
    std::filesystem::remove_all(folder);
}

// Grading: a --raw-out run grades one stage alone on inputs the trusted side wrote; the trusted side
// (--write-stage-inputs) writes, a stage a folder, exactly the buffers each stage reads, with the
// reference's values; the options go together or not at all.
TEST(CannyLab, GradedRunsTakeOneStageAndOnlyItsInputs) {
    const std::string folder = testing::TempDir() + "canny-lab-stage-inputs";
    std::filesystem::remove_all(folder);
    std::filesystem::create_directories(folder);
    const std::vector<std::string> input{"--image", "spiral", "--size", "48x40", "--border", "clamp", "--check-only", "--low", "0.1",
                                         "--high", "0.5"};
    auto with = [&](std::vector<std::string> more) {
        more.insert(more.begin(), input.begin(), input.end());
        return more;
    };
    // The test spec's one pipeline has one stage, hysteresis, which reads the labels alone.
    ASSERT_EQ(run_lab8(with({"--variant", "gpu-pipeline", "--write-stage-inputs", folder})).status, kExitPass);
    const CannyStages ref = canny_reference(make_spiral_image(48, 40, 1), parse_mask("gauss:5:1.4", 31), Border::Clamp, {0.1f, 0.5f, true}, 1);
    const auto read = [&](const std::string& path) {
        std::ifstream in(path, std::ios::binary);
        std::vector<float> values;
        float v;
        while (in.read(reinterpret_cast<char*>(&v), sizeof v)) values.push_back(v);
        return values;
    };
    std::map<std::string, std::vector<std::string>> written;
    for (const auto& stage : std::filesystem::directory_iterator(folder)) {
        auto& files = written[stage.path().filename().string()];
        for (const auto& f : std::filesystem::directory_iterator(stage.path())) files.push_back(f.path().filename().string());
        std::sort(files.begin(), files.end());
    }
    const std::map<std::string, std::vector<std::string>> reads{{"gpu-pipeline_hysteresis", {"labels.f32"}}};
    EXPECT_EQ(written, reads) << "one folder a stage of the pipeline run, each with what that stage reads and nothing more";
    EXPECT_EQ(read(folder + "/gpu-pipeline_hysteresis/labels.f32"), floats(ref.labels));

    for (const auto& [args, why] : std::vector<std::pair<std::vector<std::string>, std::string>>{
             {{"--raw-out", folder}, "grades one stage alone"},
             {{"--raw-out", folder, "--stage", "hysteresis"}, "grades one stage alone"},
             {{"--stage", "hysteresis", "--stage-inputs", folder}, "grades one stage alone"},
             {{"--raw-out", folder, "--stage", "nope", "--stage-inputs", folder}, "is no stage of the pipelines run"},
             {{"--variant", "gpu-pipeline", "--raw-out", folder, "--stage", "gradients", "--stage-inputs", folder},
              "is no stage of the pipelines run"},
             {{"--write-stage-inputs", folder, "--raw-out", folder}, "runs nothing"},
         }) {
        const LabRun r = run_lab8(with(args));
        EXPECT_EQ(r.status, kExitBadInput) << why;
        EXPECT_NE(r.err.find(why), std::string::npos) << r.err;
    }
    std::filesystem::remove_all(folder);
}

TEST(CannyLab, PeerTimingTimesOneStageAfterTheSmoothing) {
    int ends[2];
    ASSERT_EQ(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, ends), 0);
    const std::string fd = std::to_string(ends[0]);
    for (const auto& [args, why] : std::vector<std::pair<std::vector<std::string>, std::string>>{
             {{"--image", "random", "--timer-of", fd}, "times one stage of each pipeline"},
             {{"--image", "random", "--timed-by", fd, "--stage", "smoothing"}, "after the smoothing"},
             {{"--image", "random", "--timer-of", fd, "--stage", "nope"}, "is no stage of the pipelines run"},
         }) {
        const LabRun r = run_lab8(args);
        EXPECT_EQ(r.status, kExitBadInput) << why;
        EXPECT_NE(r.err.find(why), std::string::npos) << r.err;
    }
    close(ends[0]);
    close(ends[1]);
}

TEST(CannyLab, FreshInputsAreRefused) {
    const LabRun r = run_lab8({"--fresh-input-each-rep", "--image", "random"});
    EXPECT_EQ(r.status, kExitBadInput);
    EXPECT_NE(r.err.find("no fresh inputs for each repetition"), std::string::npos) << r.err;
}

// A lab on a device back end other than CUDA (LabSpec::device, OpenCL's in practice) runs its
// variants' launches only: a variant with an end-to-end part, or a lab that times transfers, is
// a skipped row that says why, never a CUDA call on a machine that may have no CUDA device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "common/device/image_device.hpp"
#include "common/families/filters/filter_lab.hpp"

using namespace convlab;

namespace {

// A device in host memory: enough of ImageDevice for the runner to open it and run a launch.
class HostDevice : public ImageDevice {
  public:
    HostDevice() { info_.api = "Test"; info_.name = "a host-memory stand-in"; }
    const DeviceInfo& info() const override { return info_; }
    double copy_bandwidth_gbs() const override { return 1; }
    void load_image(const Image& image, Border border, int, size_t, bool) override {
        in_ = image.pixels;
        out_.assign(image.elements(), NAN);
        args_ = ConvArgs{in_.data(), out_.data(), nullptr, image.width, image.height, image.channels, 0, border};
    }
    void load_mask(const Mask& mask) override { args_.k = mask.k; }
    const ConvArgs& args() const override { return args_; }
    void load_random_input(uint64_t) override {}
    void poison_output() override { std::fill(out_.begin(), out_.end(), NAN); }
    void fetch_output(float* h_out) const override { std::copy(out_.begin(), out_.end(), h_out); }
    void sample_output(const std::vector<size_t>& positions, float* values) override {
        for (size_t n = 0; n < positions.size(); ++n) values[n] = out_[positions[n]];
    }
    void run(const std::function<void()>& fn) override { fn(); }
    int run_counting_launches(const std::function<void()>& fn) override { return fn(), 1; }
    std::string uncounted_launches(const std::string&) const override { return ""; }
    TimingStats time(const std::function<void()>& fn, const TimingPlan&, bool, const std::function<void(int)>&,
                     const std::function<void(int)>&) override {
        return fn(), summarize({1.0});
    }
    bool healthy() const override { return true; }

  private:
    DeviceInfo info_;
    std::vector<uint8_t> in_;
    std::vector<float> out_;
    ConvArgs args_{};
};

class HostBackend : public DeviceBackend {
  public:
    std::string api() const override { return "Test"; }
    std::string unavailable_reason(const Options&) const override { return ""; }
    std::unique_ptr<ImageDevice> open(const Options&) const override { return std::make_unique<HostDevice>(); }
    std::optional<int> run_own_mode(const Options&) const override { return std::nullopt; }
};

int launches = 0, end_to_end_calls = 0;

GpuVariant counted(const std::string& name) {
    GpuVariant v;
    v.name = name;
    v.description = name;
    v.launch = [](const ConvArgs&) { ++launches; };
    return v;
}

nlohmann::json run(const LabSpec& spec) {
    std::vector<std::string> words = {"lab99", "--size", "9x5", "--check-only", "--cpu-reps", "1", "--format", "json"};
    std::vector<char*> argv;
    for (auto& w : words) argv.push_back(w.data());
    launches = end_to_end_calls = 0;
    testing::internal::CaptureStdout();
    testing::internal::CaptureStderr();
    run_lab(int(argv.size()), argv.data(), spec);
    testing::internal::GetCapturedStderr();
    return nlohmann::json::parse(testing::internal::GetCapturedStdout());
}

const nlohmann::json& row(const nlohmann::json& doc, const std::string& variant) {
    for (const auto& r : doc["results"])
        if (r["variant"] == variant) return r;
    throw std::runtime_error("no row " + variant);
}

LabSpec spec_on_the_stand_in() {
    LabSpec spec;
    spec.number = 99;
    spec.title = "a lab on another back end";
    spec.student_files = "none";
    spec.device = std::make_shared<HostBackend>();
    return spec;
}

}  // namespace

TEST(DeviceBackend, AVariantWithAnEndToEndPartIsRefused) {
    LabSpec spec = spec_on_the_stand_in();
    GpuVariant with_host_code = counted("with-end-to-end");
    with_host_code.end_to_end = [](const Problem&, float*) { ++end_to_end_calls; };
    spec.gpu = {with_host_code, counted("kernel-only")};
    const nlohmann::json doc = run(spec);
    const auto& refused = row(doc, "with-end-to-end");
    EXPECT_EQ(refused["status"], "skipped");
    EXPECT_NE(refused["message"].get<std::string>().find("end-to-end"), std::string::npos) << refused["message"];
    EXPECT_NE(refused["message"].get<std::string>().find("Test back end"), std::string::npos) << refused["message"];
    EXPECT_EQ(end_to_end_calls, 0);
    EXPECT_EQ(launches, 1);  // kernel-only's, which runs (and fails the check: the stand-in computes nothing)
    EXPECT_EQ(row(doc, "kernel-only")["status"], "fail");
}

TEST(DeviceBackend, ALabThatTimesTransfersIsRefused) {
    LabSpec spec = spec_on_the_stand_in();
    spec.transfers = true;
    spec.gpu = {counted("kernel")};
    const nlohmann::json doc = run(spec);
    const auto& refused = row(doc, "kernel");
    EXPECT_EQ(refused["status"], "skipped");
    EXPECT_NE(refused["message"].get<std::string>().find("transfers"), std::string::npos) << refused["message"];
    EXPECT_EQ(launches, 0);
    EXPECT_TRUE(doc["transfer_bandwidth"].is_null()) << doc["transfer_bandwidth"];
}

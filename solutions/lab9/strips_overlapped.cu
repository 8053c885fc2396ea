// Lab 9 — strips overlapped: streams, pinned memory, several GPUs.
//
// New since strips_serial.cu: a GPU has copy engines apart from its SMs, one each way. With the
// strips spread over several streams, strip i's kernel runs while strip i+1 is copied in and
// strip i-1 copied out, and the run takes about as long as its busiest engine (here the copies
// out: four bytes a value against one in). The copies only overlap from pinned host memory;
// several GPUs each get a band of the image and run the same pipeline at once.
//
// Build and run:   make lab9 && ./lab9 --out pictures     (pictures/timeline_*.svg: the engines at work)
#include <algorithm>
#include <memory>
#include <vector>

#include "common/device/cuda_check.cuh"
#include "common/device/device_buffer.cuh"
#include "common/core/errors.hpp"
#include "labs/lab9/lab9.hpp"

using namespace convlab;

namespace {

constexpr int kStreams = 3;  // one strip coming in, one being convolved, one going out
// A GPU's band cut at least this fine, so that filling and draining the pipeline (the first
// strip's copy in and kernel, the last one's copy out) is short: on two GPUs each band is half as
// long, and 8 strips gave 1.76x to 1.79x one GPU where 16 give 1.84x (two H200s, 32768^2).
constexpr int kMinStrips = 16;
static_assert(kStreams >= 2, "overlap needs at least two streams");

// One GPU's pipeline: kStreams streams, each with its own strip buffers. A stream's strips run
// in its order, so a buffer is reused only after the copy out of its last strip: no events
// needed between streams, as no two share a buffer.
class StripPipeline {
  public:
    StripPipeline(const StripJob& job, int device, int band_rows) : job_(job), device_(device) {
        CUDA_CHECK(cudaSetDevice(device_));
        const int most = rows_per_strip(job, kStreams);
        rows_ = std::min(most, std::max(1, (band_rows + kMinStrips - 1) / kMinStrips));
        if (most <= 0) throw InputError("run_strips_overlapped: the budget holds not three strips of one row with their halos");
        const size_t row_values = size_t(job.width) * job.channels;
        for (int s = 0; s < kStreams; ++s) {
            slots_.push_back(Slot{nullptr, DeviceBuffer<uint8_t>(size_t(rows_ + job.k - 1) * row_values),
                                  DeviceBuffer<float>(size_t(rows_) * row_values)});
            CUDA_CHECK(cudaStreamCreateWithFlags(&slots_.back().stream, cudaStreamNonBlocking));
        }
    }
    ~StripPipeline() {
        cudaSetDevice(device_);
        for (Slot& s : slots_)
            if (s.stream) cudaStreamSynchronize(s.stream), cudaStreamDestroy(s.stream);
    }
    StripPipeline(const StripPipeline&) = delete;
    StripPipeline& operator=(const StripPipeline&) = delete;

    // Enqueues rows [first, last) strip by strip, dealt to the streams in turn; returns at once.
    void enqueue(int first, int last) {
        CUDA_CHECK(cudaSetDevice(device_));
        const size_t row_values = size_t(job_.width) * job_.channels;
        for (int y = first, strip = 0; y < last; y += rows_, ++strip) {
            const int n = std::min(rows_, last - y);
            Slot& s = slots_[strip % kStreams];
            copy_strip_in(job_, y, n, s.in.get(), s.stream);
            launch_conv2d_strip({s.in.get(), s.out.get(), job_.width, n, job_.channels, job_.k, job_.border}, s.stream);
            CUDA_CHECK(cudaMemcpyAsync(job_.h_out + size_t(y) * row_values, s.out.get(), size_t(n) * row_values * sizeof(float),
                                       cudaMemcpyDeviceToHost, s.stream));
        }
    }
    void finish() {
        CUDA_CHECK(cudaSetDevice(device_));
        for (Slot& s : slots_) CUDA_CHECK(cudaStreamSynchronize(s.stream));
    }

  private:
    struct Slot {
        cudaStream_t stream;
        DeviceBuffer<uint8_t> in;
        DeviceBuffer<float> out;
    };
    const StripJob& job_;
    int device_;
    int rows_ = 0;
    std::vector<Slot> slots_;
};

}  // namespace

void run_strips_overlapped(const StripJob& job) {
    StripPipeline pipeline(job, 0, job.height);
    pipeline.enqueue(0, job.height);
    pipeline.finish();
}

void run_strips_multi_gpu(const StripJob& job) {
    // GPU g takes the band of rows [g*H/G, (g+1)*H/G): each band's halo rows are read from host
    // memory like any strip's, so the bands need nothing from one another.
    std::vector<std::unique_ptr<StripPipeline>> pipelines;
    const auto band_start = [&](int g) { return int(size_t(job.height) * g / job.gpus); };
    for (int g = 0; g < job.gpus; ++g)
        pipelines.push_back(std::make_unique<StripPipeline>(job, g, band_start(g + 1) - band_start(g)));
    for (int g = 0; g < job.gpus; ++g) pipelines[g]->enqueue(band_start(g), band_start(g + 1));
    for (auto& p : pipelines) p->finish();
    CUDA_CHECK(cudaSetDevice(0));
}

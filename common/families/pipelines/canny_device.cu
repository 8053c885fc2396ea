// convlab harness — do not edit in a lab.
#include "common/families/pipelines/canny_device.hpp"

#include <cstring>

#include <unistd.h>

#include "common/device/device_buffer.cuh"
#include "common/core/errors.hpp"
#include "common/device/shared_device_memory.hpp"

namespace convlab {

struct CannyDevice::Impl {
    CannyArgs args;
    DeviceBuffer<float> magnitude, suppressed, own_smoothed;
    DeviceBuffer<uint8_t> direction, labels, edges, workspace;
    DeviceBuffer<unsigned> max_magnitude;
    DeviceBuffer<int> rounds;
    std::vector<SharedDeviceMemory> shared;  // peer timing: the buffers of stages 2 to 5, in share()'s order

    // The buffers the shared ones replaced, given back.
    void release_private() {
        magnitude = DeviceBuffer<float>();
        suppressed = DeviceBuffer<float>();
        direction = DeviceBuffer<uint8_t>();
        labels = DeviceBuffer<uint8_t>();
        edges = DeviceBuffer<uint8_t>();
        max_magnitude = DeviceBuffer<unsigned>();
    }

    // Each shared buffer's place in args, in share()'s order, and its bytes.
    std::vector<std::pair<void**, size_t>> shareable() {
        const size_t n = args.pixels();
        return {{reinterpret_cast<void**>(&args.d_magnitude), n * sizeof(float)},
                {reinterpret_cast<void**>(&args.d_direction), n},
                {reinterpret_cast<void**>(&args.d_max_magnitude), sizeof(unsigned)},
                {reinterpret_cast<void**>(&args.d_suppressed), n * sizeof(float)},
                {reinterpret_cast<void**>(&args.d_labels), n},
                {reinterpret_cast<void**>(&args.d_edges), n}};
    }
};

size_t CannyDevice::bytes_for(int width, int height) {
    const size_t n = size_t(width) * height;
    return n * (2 * sizeof(float) + 3 + kCannyWorkspaceBytesPerPixel) + 256 + sizeof(unsigned) + sizeof(int);
}

CannyDevice::CannyDevice(const ConvArgs& smoothing, CannyThresholds thresholds) : impl_(std::make_unique<Impl>()) {
    const size_t n = size_t(smoothing.width) * smoothing.height;
    Impl& d = *impl_;
    d.magnitude = DeviceBuffer<float>(n);
    d.suppressed = DeviceBuffer<float>(n);
    d.direction = DeviceBuffer<uint8_t>(n);
    d.labels = DeviceBuffer<uint8_t>(n);
    d.edges = DeviceBuffer<uint8_t>(n);
    d.workspace = DeviceBuffer<uint8_t>(n * kCannyWorkspaceBytesPerPixel + 256);
    d.max_magnitude = DeviceBuffer<unsigned>(1);
    d.rounds = DeviceBuffer<int>(1);
    CannyArgs& a = d.args;
    a.width = smoothing.width;
    a.height = smoothing.height;
    a.border = smoothing.border;
    a.smoothing = smoothing;
    a.d_smoothed = smoothing.d_out;
    a.d_magnitude = d.magnitude.get();
    a.d_direction = d.direction.get();
    a.d_max_magnitude = d.max_magnitude.get();
    a.d_suppressed = d.suppressed.get();
    a.d_labels = d.labels.get();
    a.d_edges = d.edges.get();
    a.low = thresholds.low;
    a.high = thresholds.high;
    a.relative = thresholds.relative;
    a.d_rounds = d.rounds.get();
    a.d_workspace = d.workspace.get();
    a.workspace_bytes = d.workspace.bytes();
}

CannyDevice::CannyDevice(int width, int height, Border border, CannyThresholds thresholds)
    : CannyDevice([&] {
          ConvArgs smoothing{};
          smoothing.width = width;
          smoothing.height = height;
          smoothing.channels = 1;
          smoothing.border = border;
          return smoothing;
      }(),
                  thresholds) {
    impl_->own_smoothed = DeviceBuffer<float>(size_t(width) * height);
    impl_->args.smoothing.d_out = impl_->own_smoothed.get();
    impl_->args.d_smoothed = impl_->own_smoothed.get();
}

CannyDevice::~CannyDevice() = default;

std::vector<int> CannyDevice::share() {
    Impl& d = *impl_;
    d.shared.clear();
    for (auto& [place, bytes] : d.shareable()) {
        d.shared.push_back(SharedDeviceMemory::create(bytes));
        *place = d.shared.back().get();
    }
    d.release_private();
    std::vector<int> fds;
    try {
        for (const SharedDeviceMemory& m : d.shared) fds.push_back(m.export_fd());
    } catch (...) {
        for (int fd : fds) ::close(fd);
        throw;
    }
    return fds;
}

void CannyDevice::adopt_shared(std::vector<int>& fds) {
    Impl& d = *impl_;
    auto places = d.shareable();
    if (fds.size() != places.size()) throw CudaError("the timer shared " + std::to_string(fds.size()) + " Canny buffers, not " +
                                                     std::to_string(places.size()));
    d.shared.clear();
    for (size_t i = 0; i < places.size(); ++i) {
        const int fd = fds[i];
        fds[i] = -1;  // taken, whatever import does
        d.shared.push_back(SharedDeviceMemory::import(fd, places[i].second));
        *places[i].first = d.shared.back().get();
    }
    fds.clear();
    d.release_private();
}

const void* CannyDevice::buffer(unsigned bit) const {
    const CannyArgs& a = impl_->args;
    switch (bit) {
        case kCannySmoothed: return a.d_smoothed;
        case kCannyMagnitude: return a.d_magnitude;
        case kCannyDirection: return a.d_direction;
        case kCannyMaxMagnitude: return a.d_max_magnitude;
        case kCannySuppressed: return a.d_suppressed;
        case kCannyLabels: return a.d_labels;
        default: return a.d_edges;
    }
}

void CannyDevice::copy_from(const CannyDevice& from, unsigned buffers) {
    const size_t n = impl_->args.pixels();
    if (from.impl_->args.pixels() != n) throw CudaError("copy_from: Canny buffers of another size");
    for (const unsigned bit : {kCannySmoothed, kCannyMagnitude, kCannyDirection, kCannyMaxMagnitude, kCannySuppressed, kCannyLabels,
                               kCannyEdges}) {
        if (!(buffers & bit)) continue;
        const size_t bytes = bit == kCannyMaxMagnitude ? sizeof(unsigned)
                             : bit == kCannySmoothed || bit == kCannyMagnitude || bit == kCannySuppressed ? n * sizeof(float)
                                                                                                         : n;
        CUDA_CHECK(cudaMemcpyAsync(const_cast<void*>(buffer(bit)), from.buffer(bit), bytes, cudaMemcpyDeviceToDevice, 0));
    }
}

const CannyArgs& CannyDevice::args() const { return impl_->args; }

namespace {

template <class T>
void upload_to(T* device, const std::vector<T>& host) {
    CUDA_CHECK(cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
}

template <class T>
void fetch_into(std::vector<T>& host, const T* device, size_t count) {
    host.resize(count);
    CUDA_CHECK(cudaMemcpy(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost));
}

}  // namespace

void CannyDevice::upload(unsigned buffers, const CannyStages& r) {
    const CannyArgs& a = impl_->args;
    if (buffers & kCannySmoothed) upload_to(a.smoothing.d_out, r.smoothed);
    if (buffers & kCannyMagnitude) upload_to(a.d_magnitude, r.magnitude);
    if (buffers & kCannyDirection) upload_to(a.d_direction, r.direction);
    if (buffers & kCannySuppressed) upload_to(a.d_suppressed, r.suppressed);
    if (buffers & kCannyLabels) upload_to(a.d_labels, r.labels);
    if (buffers & kCannyEdges) upload_to(a.d_edges, r.edges);
    if (buffers & kCannyMaxMagnitude) {
        unsigned bits = 0;
        std::memcpy(&bits, &r.largest, sizeof bits);
        CUDA_CHECK(cudaMemcpy(a.d_max_magnitude, &bits, sizeof bits, cudaMemcpyHostToDevice));
    }
}

void CannyDevice::poison(unsigned buffers) {
    const CannyArgs& a = impl_->args;
    const size_t n = a.pixels();
    constexpr int kPoisonByte = 0xAB;
    if (buffers & kCannySmoothed) CUDA_CHECK(cudaMemset(a.smoothing.d_out, 0xFF, n * sizeof(float)));
    if ((buffers & kCannySmoothed) && a.smoothing.d_scratch) CUDA_CHECK(cudaMemset(a.smoothing.d_scratch, 0xFF, n * sizeof(float)));
    if (buffers & kCannyMagnitude) CUDA_CHECK(cudaMemset(a.d_magnitude, 0xFF, n * sizeof(float)));
    if (buffers & kCannySuppressed) CUDA_CHECK(cudaMemset(a.d_suppressed, 0xFF, n * sizeof(float)));
    if (buffers & kCannyDirection) CUDA_CHECK(cudaMemset(a.d_direction, kPoisonByte, n));
    if (buffers & kCannyLabels) CUDA_CHECK(cudaMemset(a.d_labels, kPoisonByte, n));
    if (buffers & kCannyEdges) CUDA_CHECK(cudaMemset(a.d_edges, kPoisonByte, n));
    if (buffers & kCannyMaxMagnitude) CUDA_CHECK(cudaMemset(a.d_max_magnitude, 0, sizeof(unsigned)));
    if (buffers & kCannyEdges) CUDA_CHECK(cudaMemset(a.d_rounds, 0xFF, sizeof(int)));
}

void CannyDevice::fetch(unsigned buffers, CannyStages& into, float* max_magnitude) const {
    const CannyArgs& a = impl_->args;
    const size_t n = a.pixels();
    into.width = a.width;
    into.height = a.height;
    if (buffers & kCannySmoothed) fetch_into(into.smoothed, a.d_smoothed, n);
    if (buffers & kCannyMagnitude) fetch_into(into.magnitude, static_cast<const float*>(a.d_magnitude), n);
    if (buffers & kCannyDirection) fetch_into(into.direction, static_cast<const uint8_t*>(a.d_direction), n);
    if (buffers & kCannySuppressed) fetch_into(into.suppressed, static_cast<const float*>(a.d_suppressed), n);
    if (buffers & kCannyLabels) fetch_into(into.labels, static_cast<const uint8_t*>(a.d_labels), n);
    if (buffers & kCannyEdges) fetch_into(into.edges, static_cast<const uint8_t*>(a.d_edges), n);
    if ((buffers & kCannyMaxMagnitude) && max_magnitude) {
        unsigned bits = 0;
        CUDA_CHECK(cudaMemcpy(&bits, a.d_max_magnitude, sizeof bits, cudaMemcpyDeviceToHost));
        std::memcpy(max_magnitude, &bits, sizeof bits);
    }
}

void CannyDevice::upload_grey(const Image& grey) {
    // The session's input buffer: const in ConvArgs because no kernel writes it.
    CUDA_CHECK(cudaMemcpy(const_cast<uint8_t*>(impl_->args.smoothing.d_in), grey.pixels.data(), grey.pixels.size(),
                          cudaMemcpyHostToDevice));
}

void CannyDevice::fetch_edges(uint8_t* edges) const {
    CUDA_CHECK(cudaMemcpy(edges, impl_->args.d_edges, impl_->args.pixels(), cudaMemcpyDeviceToHost));
}

int CannyDevice::rounds() const {
    int rounds = -1;
    CUDA_CHECK(cudaMemcpy(&rounds, impl_->args.d_rounds, sizeof rounds, cudaMemcpyDeviceToHost));
    return rounds;
}

}  // namespace convlab

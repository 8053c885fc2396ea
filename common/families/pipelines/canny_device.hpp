// convlab harness — do not edit in a lab.
// Lab 8's device buffers beyond the smoothing's (which GpuSession holds), behind a plain C++
// interface: so that each stage can be checked alone, the runner uploads the reference's values
// of the stage's inputs, poisons its outputs, runs it and fetches what it wrote.
#pragma once
#include <memory>
#include <vector>

#include "common/families/pipelines/canny.hpp"
#include "common/families/pipelines/canny_args.hpp"

namespace convlab {

// The buffers of CannyArgs, as a set of bits.
enum CannyBuffer : unsigned {
    kCannySmoothed = 1u << 0,      // stage 1's output; GpuSession's output buffer
    kCannyMagnitude = 1u << 1,
    kCannyDirection = 1u << 2,
    kCannyMaxMagnitude = 1u << 3,  // reset to 0, never poisoned: stage 2 takes a maximum into it
    kCannySuppressed = 1u << 4,
    kCannyLabels = 1u << 5,
    kCannyEdges = 1u << 6,
};

class CannyDevice {
  public:
    // Device memory the buffers below take for a width x height image, to check it fits first.
    static size_t bytes_for(int width, int height);

    // Allocates every buffer but the smoothing's, which `smoothing` (GpuSession::args(), after
    // its load_image and load_mask) describes; args() then holds both.
    CannyDevice(const ConvArgs& smoothing, CannyThresholds thresholds);
    // Every buffer its own, the smoothed image's too (no smoothing input): where the grader's
    // timer keeps a stage's inputs out of the timed program's reach until the clock starts.
    CannyDevice(int width, int height, Border border, CannyThresholds thresholds);
    ~CannyDevice();
    CannyDevice(const CannyDevice&) = delete;
    CannyDevice& operator=(const CannyDevice&) = delete;

    const CannyArgs& args() const;

    // The reference's values into these buffers (the maximum magnitude: the reference's largest).
    void upload(unsigned buffers, const CannyStages& reference);
    // Every float all bits set (a NaN), every byte 0xAB (no direction, label or edge value), the
    // rounds -1; the maximum magnitude 0, the value stage 2 starts from.
    void poison(unsigned buffers);
    // These buffers into `into` (sized to the image); the maximum magnitude as a float.
    void fetch(unsigned buffers, CannyStages& into, float* max_magnitude = nullptr) const;
    int rounds() const;  // stage 5's last report of its global rounds

    // Peer timing (canny_peer.hpp). The timer's side: moves the buffers of stages 2 to 5
    // (magnitude, direction, largest, suppressed, labels, edges, in that order) into memory another
    // process can map, and returns a descriptor of each (the smoothed image is the session's output,
    // GpuSession::share_buffers). The timed side: maps them in place of its own; takes the descriptors.
    static constexpr int kSharedBuffers = 6;
    std::vector<int> share();
    void adopt_shared(std::vector<int>& fds);
    // `buffers` of `from` (the same size) copied into this one's, on the GPU (device to device).
    void copy_from(const CannyDevice& from, unsigned buffers);
    const void* buffer(unsigned bit) const;  // the device address of one buffer (a CannyBuffer bit)
    // End to end: the grey image in (pageable host memory, into the smoothing's input), the edge
    // map out.
    void upload_grey(const Image& grey);
    void fetch_edges(uint8_t* edges) const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace convlab

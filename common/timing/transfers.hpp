// convlab harness — do not edit in a lab.
// What moving one image costs: host<->device bandwidth with pageable and with pinned host memory,
// and a variant timed end to end by the harness's own host code (allocate, copy in, launch, copy
// out, free), so that every variant of a lab is charged the same copies (LabSpec::transfers).
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

#include "common/core/conv_args.hpp"
#include "common/core/image.hpp"
#include "common/core/mask.hpp"

namespace convlab {

// GB/s of one cudaMemcpy each way of a problem of `elements` values: its bytes up, its floats down
// (median of five, after two warm-ups).
struct TransferBandwidth {
    double h2d_pageable = 0, d2h_pageable = 0;
    double h2d_pinned = 0, d2h_pinned = 0;
};
TransferBandwidth measure_transfer_bandwidth(size_t elements);

// Host memory for one problem's input and output, pageable (std::vector's) or pinned
// (cudaMallocHost: the copy engine reads and writes it directly, no staging through a driver
// buffer). Allocated once, outside any timing, as a program that keeps its buffers would.
class HostProblem {
  public:
    HostProblem(size_t elements, bool pinned);
    ~HostProblem();
    HostProblem(const HostProblem&) = delete;
    HostProblem& operator=(const HostProblem&) = delete;

    void load(const Image& image);  // its pixels into input()
    bool pinned() const { return pinned_; }
    uint8_t* input() const { return in_; }
    float* output() const { return out_; }
    size_t elements() const { return elements_; }

  private:
    bool pinned_;
    size_t elements_;
    uint8_t* in_ = nullptr;
    float* out_ = nullptr;
    std::unique_ptr<uint8_t[]> pageable_in_;
    std::unique_ptr<float[]> pageable_out_;
};

// One end-to-end run: device buffers allocated, the input and the mask copied in, `launch` on
// them (its mask already in constant memory where it keeps one: the variant's untimed prepare),
// the output copied back into host.output(), everything freed. `scratch`: a float per value for
// ConvArgs::d_scratch, as the lab's launches expect. Synchronous, like the copies.
void run_with_copies(const HostProblem& host, const Image& shape, const Mask& mask, Border border, bool scratch,
                    const std::function<void(const ConvArgs&)>& launch);

}  // namespace convlab

// convlab harness — do not edit in a lab.
#include "common/timing/transfers.hpp"

#include <cuda_runtime.h>

#include <cstring>

#include "common/device/cuda_check.cuh"
#include "common/timing/cuda_events.cuh"
#include "common/device/device_buffer.cuh"

namespace convlab {

namespace {

// GB/s of one cudaMemcpy of `bytes`: the median of five, after two that warm up (page-table
// set-up of the pageable side).
double median_gbs(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
    const double ms = median_event_ms(2, 5, [&] { CUDA_CHECK(cudaMemcpy(dst, src, bytes, kind)); });
    return double(bytes) / (ms * 1e-3) * 1e-9;
}

}  // namespace

TransferBandwidth measure_transfer_bandwidth(size_t elements) {
    DeviceBuffer<float> device(elements);
    TransferBandwidth bw;
    for (bool pinned : {false, true}) {
        HostProblem host(elements, pinned);
        std::memset(host.input(), 0, elements);  // pageable memory is mapped on first touch, not in the copy
        std::memset(host.output(), 0, elements * sizeof(float));
        (pinned ? bw.h2d_pinned : bw.h2d_pageable) = median_gbs(device.get(), host.input(), elements, cudaMemcpyHostToDevice);
        (pinned ? bw.d2h_pinned : bw.d2h_pageable) =
            median_gbs(host.output(), device.get(), elements * sizeof(float), cudaMemcpyDeviceToHost);
    }
    return bw;
}

HostProblem::HostProblem(size_t elements, bool pinned) : pinned_(pinned), elements_(elements) {
    if (pinned) {
        CUDA_CHECK(cudaMallocHost(&in_, elements_));
        const cudaError_t status = cudaMallocHost(&out_, elements_ * sizeof(float));
        if (status != cudaSuccess) cudaFreeHost(in_);
        CUDA_CHECK(status);
    } else {
        pageable_in_.reset(new uint8_t[elements_]);
        pageable_out_.reset(new float[elements_]);
        in_ = pageable_in_.get();
        out_ = pageable_out_.get();
    }
}

void HostProblem::load(const Image& image) {
    if (image.elements() != elements_) throw CudaError("HostProblem::load: the image does not fit these buffers");
    std::memcpy(in_, image.pixels.data(), elements_);
    std::memset(out_, 0, elements_ * sizeof(float));
}

HostProblem::~HostProblem() {
    if (pinned_) {
        cudaFreeHost(in_);
        cudaFreeHost(out_);
    }
}

void run_with_copies(const HostProblem& host, const Image& shape, const Mask& mask, Border border, bool scratch,
                    const std::function<void(const ConvArgs&)>& launch) {
    const size_t n = host.elements();
    DeviceBuffer<uint8_t> in(n);
    DeviceBuffer<float> out(n), weights(mask.weights.size()), intermediate(scratch ? n : 0);
    in.copy_from_host(host.input());
    weights.copy_from_host(mask.weights.data());
    launch(ConvArgs{in.get(), out.get(), weights.get(), shape.width, shape.height, shape.channels, mask.k, border,
                    scratch ? intermediate.get() : nullptr});
    CUDA_CHECK(cudaGetLastError());
    out.copy_to_host(host.output());  // waits for the kernels: the same (default) stream
}

}  // namespace convlab

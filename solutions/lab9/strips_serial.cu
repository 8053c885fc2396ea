// Lab 9 — strips with halos, one after another.
//
// New since lab 8: the image does not fit. You get a budget of device memory and cut the image
// into strips of rows that do; each strip's input carries k/2 rows above and below it (its halo),
// real rows of the image wherever they exist, so a strip's result is exactly the whole image's.
//
// Build and run:   make lab9 && ./lab9          (./lab9 --gpu-memory 64MiB: more, thinner strips)
#include <algorithm>

#include "common/device/cuda_check.cuh"
#include "common/device/device_buffer.cuh"
#include "common/core/errors.hpp"
#include "labs/lab9/lab9.hpp"

using namespace convlab;

int rows_per_strip(const StripJob& job, int buffers) {
    // A strip of n rows needs strip_device_bytes(job, n) = halo + n * per_row: solve for n.
    const size_t row_values = size_t(job.width) * job.channels;
    const size_t per_buffer = job.gpu_memory / size_t(buffers);
    const size_t halo = size_t(job.k - 1) * row_values, per_row = row_values * (1 + sizeof(float));
    if (per_buffer < halo + per_row) return 0;
    return int(std::min<size_t>((per_buffer - halo) / per_row, size_t(job.height)));
}

void copy_strip_in(const StripJob& job, int first_row, int rows, uint8_t* d_strip, cudaStream_t stream) {
    const size_t row_bytes = size_t(job.width) * job.channels;
    const int r = job.k / 2;
    const int top = first_row - r, bottom = first_row + rows + r;  // the strip reads rows [top, bottom)
    const int inside_top = std::max(top, 0), inside_bottom = std::min(bottom, job.height);
    if (inside_bottom > inside_top)  // the rows that exist: one copy
        CUDA_CHECK(cudaMemcpyAsync(d_strip + size_t(inside_top - top) * row_bytes, job.h_in + size_t(inside_top) * row_bytes,
                                   size_t(inside_bottom - inside_top) * row_bytes, cudaMemcpyHostToDevice, stream));
    for (int y = top; y < bottom; ++y) {  // beyond the image's own top and bottom: the border rule
        if (y >= inside_top && y < inside_bottom) continue;
        uint8_t* dst = d_strip + size_t(y - top) * row_bytes;
        const int source = border_index(y, job.height, job.border);
        if (source < 0)
            CUDA_CHECK(cudaMemsetAsync(dst, 0, row_bytes, stream));
        else
            CUDA_CHECK(cudaMemcpyAsync(dst, job.h_in + size_t(source) * row_bytes, row_bytes, cudaMemcpyHostToDevice, stream));
    }
}

void run_strips_serial(const StripJob& job) {
    const int rows = rows_per_strip(job, 1);
    if (rows == 0) throw InputError("run_strips_serial: the budget holds not one row with its halo");
    const size_t row_values = size_t(job.width) * job.channels;
    DeviceBuffer<uint8_t> in(size_t(rows + job.k - 1) * row_values);
    DeviceBuffer<float> out(size_t(rows) * row_values);
    for (int first = 0; first < job.height; first += rows) {
        const int n = std::min(rows, job.height - first);
        copy_strip_in(job, first, n, in.get(), 0);
        launch_conv2d_strip({in.get(), out.get(), job.width, n, job.channels, job.k, job.border}, 0);
        CUDA_CHECK(cudaMemcpy(job.h_out + size_t(first) * row_values, out.get(), size_t(n) * row_values * sizeof(float),
                              cudaMemcpyDeviceToHost));
    }
}

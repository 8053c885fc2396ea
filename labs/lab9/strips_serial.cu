// Lab 9 — strips with halos, one after another.
//
// New since lab 8: the image does not fit. You get a budget of device memory (job.gpu_memory)
// and cut the image into strips of rows that do; each strip's input carries k/2 rows above and
// below it (its halo), real rows of the image wherever they exist, so a strip's result is
// exactly the whole image's. The convolution of a strip is given: launch_conv2d_strip.
//
// Build and run:   make lab9 && ./lab9          (./lab9 --gpu-memory 64MiB: more, thinner strips)
#include <algorithm>

#include "common/device/cuda_check.cuh"
#include "common/device/device_buffer.cuh"
#include "common/core/errors.hpp"
#include "labs/lab9/lab9.hpp"

using namespace convlab;

int rows_per_strip(const StripJob& job, int buffers) {
    // TODO(lab9): strip_device_bytes(job, n) is (n + k - 1) rows of bytes plus n rows of floats.
    //   Return the largest n with buffers * strip_device_bytes(job, n) <= job.gpu_memory, at most
    //   job.height; 0 when even n = 1 does not fit. Then delete the line below.
    (void)job, (void)buffers;
    todo("rows_per_strip");
}

void copy_strip_in(const StripJob& job, int first_row, int rows, uint8_t* d_strip, cudaStream_t stream) {
    // TODO(lab9): the strip reads image rows top = first_row - k/2 up to bottom = first_row + rows + k/2
    //   (not included); row y goes to d_strip + (y - top) * width * channels.
    //   1. The rows of [top, bottom) inside the image: one cudaMemcpyAsync from job.h_in on `stream`.
    //   2. Each row outside it: border_index(y, job.height, job.border) names the image row to copy,
    //      or -1 for a zero row (cudaMemsetAsync). Never the border rule at a strip's own edge.
    //   Then delete the line below.
    (void)job, (void)first_row, (void)rows, (void)d_strip, (void)stream;
    todo("copy_strip_in");
}

void run_strips_serial(const StripJob& job) {
    // TODO(lab9): rows = rows_per_strip(job, 1); a DeviceBuffer<uint8_t> of (rows + k - 1) rows and
    //   a DeviceBuffer<float> of rows rows (width * channels values a row). For each strip:
    //   copy_strip_in(..., stream 0); launch_conv2d_strip({d_in, d_out, width, n, channels, k,
    //   border}, 0); cudaMemcpy its n rows of floats to job.h_out + first * width * channels.
    //   The last strip may be shorter. Then delete the line below.
    (void)job;
    todo("run_strips_serial");
}

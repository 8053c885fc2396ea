// Lab 9 — strips overlapped: streams, pinned memory, several GPUs.
//
// New since strips_serial.cu: a GPU has copy engines apart from its SMs, one each way. With the
// strips spread over several streams, strip i's kernel runs while strip i+1 is copied in and
// strip i-1 copied out, and the run takes about as long as its busiest engine. The copies only
// overlap from pinned host memory (job.pinned); several GPUs each take a band of the image.
//
// Build and run:   make lab9 && ./lab9 --out pictures     (pictures/timeline_*.svg: the engines at work)
#include <algorithm>
#include <vector>

#include "common/device/cuda_check.cuh"
#include "common/device/device_buffer.cuh"
#include "common/core/errors.hpp"
#include "labs/lab9/lab9.hpp"

using namespace convlab;

void run_strips_overlapped(const StripJob& job) {
    // TODO(lab9): S streams (cudaStreamCreateWithFlags(..., cudaStreamNonBlocking); 3 is enough:
    //   one strip coming in, one convolved, one going out), each with its own strip buffers, so
    //   rows = rows_per_strip(job, S) (fewer, so the image makes several strips a stream, fills
    //   and drains the pipeline faster). Strip i goes to stream i % S: copy_strip_in, then
    //   launch_conv2d_strip, then cudaMemcpyAsync of its floats to job.h_out, all on that stream.
    //   Reusing a buffer on its own stream needs no event: the stream runs its work in order. A
    //   buffer shared between streams would (cudaEventRecord / cudaStreamWaitEvent).
    //   Synchronize every stream, destroy them, free the buffers. Then delete the line below.
    (void)job;
    todo("run_strips_overlapped");
}

void run_strips_multi_gpu(const StripJob& job) {
    // TODO(lab9): GPU g (cudaSetDevice(g), g < job.gpus) takes the band of rows [g*H/G, (g+1)*H/G)
    //   and runs the overlapped pipeline on it with its own streams and buffers (each within
    //   job.gpu_memory). Enqueue every GPU's work before waiting for any of it; end with device 0
    //   current. Then delete the line below.
    (void)job;
    todo("run_strips_multi_gpu");
}

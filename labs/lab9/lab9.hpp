// convlab lab 9 — do not edit: the functions the driver calls. You write them in
// strips_serial.cu and strips_overlapped.cu.
//
// The image and its result live in host memory and are larger than the device memory you may
// use (job.gpu_memory, each GPU). You cut the image into strips of rows; each strip goes to the
// GPU with its halo (k/2 rows above and below: real rows of the neighbour strips, the border rule
// only beyond the image's own top and bottom), is convolved by launch_conv2d_strip
// (labs/lab9/strip_kernel.hpp, given) and comes back. The harness checks the whole result, times the call
// end to end, and reads from the driver what your copies and kernels did and how much device
// memory you held at once: more than job.gpu_memory fails the run.
#pragma once
#include "common/families/strips/strips.hpp"
#include "labs/lab9/strip_kernel.hpp"

// strips_serial.cu
// The most output rows a strip may have so that `buffers` strips' device memory
// (strip_device_bytes each) fits in job.gpu_memory; at most job.height; 0 if not one row fits.
int rows_per_strip(const convlab::StripJob& job, int buffers);
// Enqueues on `stream` the copy of the input rows strip [first_row, first_row + rows) reads,
// first_row - k/2 to first_row + rows + k/2 - 1, into d_strip (rows + k - 1 rows of
// width*channels bytes): rows inside the image copied from job.h_in, rows outside it made by
// the border rule (border_index on the image's height; a zero border's rows are zeros).
void copy_strip_in(const convlab::StripJob& job, int first_row, int rows, uint8_t* d_strip, cudaStream_t stream);
// One strip after another on one GPU: copy in, convolve, copy out, next strip.
void run_strips_serial(const convlab::StripJob& job);

// strips_overlapped.cu
// The same on one GPU with several streams, so that strip i's kernel runs while strip i+1 is
// copied in and strip i-1 copied out (from pinned memory; from pageable memory the driver makes
// each copy wait, as the handout shows).
void run_strips_overlapped(const convlab::StripJob& job);
// The strips dealt to job.gpus GPUs (devices 0 .. job.gpus-1), each GPU with its own streams and
// buffers, all at once; the result assembled in job.h_out.
void run_strips_multi_gpu(const convlab::StripJob& job);

// Lab 11 — lab 1's naive kernel in OpenCL.
//
// New since lab 1: the same kernel in OpenCL C. The OpenCL driver compiles this file when the
// program runs (on a machine without a GPU, PoCL compiles it for the CPU), so an edit needs no
// rebuild: run ./lab11 again. The host side is the kit's: it creates the buffers, sets the
// arguments in the order below, launches each kernel over a 2-D or 1-D NDRange (work-groups of
// 16x16 or 256, as lab 1's blocks) and times it with profiling events. A compile error is
// printed as one line, this file's name and line first.
//
// Build and run:   make lab11 && ./lab11
// One variant:     ./lab11 --variant naive-2d-constant
// Devices:         ./lab11 --cl-list, then --cl-device INDEX or a part of its name
//
// CUDA to OpenCL: blockIdx.x * blockDim.x + threadIdx.x is get_global_id(0) (and (1) for y);
// __global__ is kernel; a pointer says which memory it points to (global, constant, local);
// __constant__ memory is a kernel argument declared constant. The kit puts border_index(i, n,
// border) (common/core/border.hpp's, in OpenCL C) in front of this file, with BORDER_ZERO,
// BORDER_CLAMP, BORDER_WRAP and BORDER_MIRROR.
//
// The arguments every kernel takes, in this order: the image (width * height * channels bytes,
// interleaved, row-major), the output (as many floats; poisoned with NaN before every run), the
// k * k weights (row-major), width, height, channels (1 or 3), k (odd), border.

// Every channel of output pixel (x, y): out(x, y, c) = sum over i, j of mask[i * k + j] *
// in(x + j - k/2, y + i - k/2, c), border_index() deciding what a tap outside the image reads
// (-1: zero).
void conv2d_naive_pixel(global const uchar* in, global float* out, global const float* mask, int width, int height,
                        int channels, int k, int border, int x, int y) {
    // TODO(lab11) 1: the loops over mask rows i and columns j (skip a tap whose border_index is
    // -1) and channels; accumulate in float; store to out at ((y * width + x) * channels + c).
}

// OpenCL 1.2 has no pointer that points to both global and constant memory: the constant
// kernel needs a copy of the function above whose mask is `constant const float* mask`.
void conv2d_naive_pixel_const(global const uchar* in, global float* out, constant const float* mask, int width, int height,
                              int channels, int k, int border, int x, int y) {
    // TODO(lab11) 2: the body of conv2d_naive_pixel, reading this constant mask.
}

kernel void conv2d_naive_kernel(global const uchar* in, global float* out, global const float* mask, int width, int height,
                                int channels, int k, int border) {
    // TODO(lab11) 3: x and y from get_global_id(0) and (1); the NDRange is rounded up to whole
    // work-groups, so skip the work-items outside the image; call conv2d_naive_pixel.
}

kernel void conv2d_naive_1d_kernel(global const uchar* in, global float* out, global const float* mask, int width,
                                   int height, int channels, int k, int border) {
    // TODO(lab11) 4: one pixel per work-item, pixel = get_global_id(0): x = pixel % width,
    // y = pixel / width; skip the pixels past width * height.
}

kernel void conv2d_naive_const_kernel(global const uchar* in, global float* out, constant const float* mask, int width,
                                      int height, int channels, int k, int border) {
    // TODO(lab11) 5: as conv2d_naive_kernel, calling conv2d_naive_pixel_const.
}

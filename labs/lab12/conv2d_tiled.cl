// Lab 12 — lab 3's tiled kernel in OpenCL.
//
// New since lab 11: lab 3's design in OpenCL C. Any odd mask size k up to 31, including masks
// wider than the tile. A 16x16 work-group computes a 16x16 output tile from a (16+k-1)^2 input
// tile in local memory (CUDA's shared memory). The tile is bigger than the work-group, so it is
// loaded in passes: work-item n loads tile elements n, n+256, n+512, ... until the tile is full;
// every work-item loads and every work-item computes. The OpenCL driver compiles this file when
// the program runs (PoCL on a machine without a GPU), so an edit needs no rebuild: run ./lab12 again.
//
// Build and run:   make lab12 && ./lab12          (sweeps k = 3, 5, 7, 9, 15, 31)
// One variant:     ./lab12 --variant tiled
// Devices:         ./lab12 --cl-list, then --cl-device INDEX or a part of its name
//
// CUDA to OpenCL: blockIdx.x is get_group_id(0), threadIdx.x is get_local_id(0) (and (1) for y);
// __syncthreads() is barrier(CLK_LOCAL_MEM_FENCE); lab 3's `extern __shared__ float s_tile[]`,
// sized by the third <<< >>> argument, is the last kernel argument here, `local float* tile`: the
// kit's host side sets its size at every launch, (16 + k - 1)^2 * channels floats
// (labs/lab12/main.cpp). The mask is in constant memory, as lab 3's c_tiled_mask. The kit puts
// border_index(i, n, border) (common/core/border.hpp's, in OpenCL C) in front of this file.
//
// The arguments, in this order: the image (width * height * channels bytes, interleaved,
// row-major), the output (as many floats; poisoned with NaN before every run), the k * k weights
// (row-major), width, height, channels (1 or 3), k (odd), border, the tile.

#define TILE 16  // the work-group is TILE x TILE work-items, one output pixel each (the host's shape)

kernel void conv2d_tiled_kernel(global const uchar* in, global float* out, constant const float* mask, int width, int height,
                                int channels, int k, int border, local float* tile) {
    // TODO(lab12) 1: the tile is (TILE + k - 1) x (TILE + k - 1) pixels starting at
    //   (get_group_id(0) * TILE - k/2, get_group_id(1) * TILE - k/2). Work-item
    //   n = get_local_id(1) * TILE + get_local_id(0) loads tile elements n, n + TILE*TILE, ...
    //   (row = e / tile_w, col = e % tile_w), every channel, border rule applied (border_index
    //   -1: zero), into tile[e * channels + c].
    // TODO(lab12) 2: barrier(CLK_LOCAL_MEM_FENCE): the whole tile is loaded before anyone reads it.
    // TODO(lab12) 3: if (x, y) = (get_group_id(0) * TILE + get_local_id(0), likewise for y) is inside
    //   the image: for each channel c, sum mask[i * k + j] times
    //   tile[((get_local_id(1) + i) * tile_w + get_local_id(0) + j) * channels + c], accumulated in
    //   float, and store it to out[(y * width + x) * channels + c].
}

// Lab 8 — the Canny edge detector, stages 2 to 4: gradients, non-maximum suppression, thresholds.
//
// Each stage's answer is the CPU reference's, to the bit: compute each pixel with the rules of
// common/families/pipelines/canny_rules.hpp (sobel_gradient, gradient_magnitude, quantise_direction, direction_step,
// suppress, threshold_label) on the same floats. The handout draws the stages; lab8.hpp says
// which buffers each reads and writes. stride_grid_blocks() (common/families/pipelines/stride_grid.cuh) gives a grid
// for a grid-stride loop.
//
// Build and run:   make lab8 && ./lab8          (lab 6's fused kernel smooths: finish lab 6 first)
#include <cuda_runtime.h>

#include "common/families/pipelines/canny_rules.hpp"
#include "common/device/cuda_check.cuh"
#include "common/core/errors.hpp"
#include "common/families/pipelines/stride_grid.cuh"
#include "labs/lab8/lab8.hpp"

using namespace convlab;

__global__ void gradients_kernel(CannyArgs a) {
    // TODO(lab8), part 1: for each pixel (x, y):
    //   1. Its 3x3 neighbourhood n[r][c] of a.d_smoothed at (x + c - 1, y + r - 1), every tap by the
    //      border rule (border_index(x, a.width, a.border); a negative index reads 0).
    //   2. g = sobel_gradient(n); a.d_magnitude[i] = gradient_magnitude(g);
    //      a.d_direction[i] = uint8_t(quantise_direction(g)).
    //   3. The largest magnitude: reduce within the block (warp shuffles, then shared memory),
    //      then one atomicMax(a.d_max_magnitude, __float_as_uint(largest)) a block.
    (void)a;
}

__global__ void suppression_kernel(CannyArgs a) {
    // TODO(lab8), part 2: for each pixel, direction_step(EdgeDirection(a.d_direction[i]), &dx, &dy);
    //   a.d_suppressed[i] = suppress(m, before, after) with before the magnitude at (x - dx, y - dy)
    //   and after at (x + dx, y + dy), 0 for a neighbour outside the image (no border rule here).
    (void)a;
}

__global__ void gradients_suppression_kernel(CannyArgs a) {
    // TODO(lab8), part 3: parts 1 and 2 in one kernel, for a tile of pixels at a time:
    //   1. The smoothed tile with a 2-pixel frame (border rule) into shared memory. __syncthreads().
    //   2. The magnitudes of the tile and of a 1-pixel frame around it into a second shared array
    //      (0 outside the image), and the tile's own directions; the tile's largest magnitude.
    //      __syncthreads().
    //   3. Each pixel of the tile suppressed from the shared magnitudes, into a.d_suppressed.
    //   4. The largest magnitude as in part 1.
    (void)a;
}

__global__ void thresholds_kernel(CannyArgs a) {
    // TODO(lab8), part 4: low = a.low, high = a.high; with a.relative each times the float
    //   __uint_as_float(*a.d_max_magnitude) (one product each, as the reference). Then
    //   a.d_labels[i] = uint8_t(threshold_label(a.d_suppressed[i], low, high)) for each pixel.
    (void)a;
}

void launch_canny_gradients(const CannyArgs& a) {
    // TODO(lab8): launch gradients_kernel (a grid-stride grid, or one thread a pixel); check the launch.
    (void)a;
    todo("launch_canny_gradients");
}

void launch_canny_suppression(const CannyArgs& a) {
    // TODO(lab8): as launch_canny_gradients, for suppression_kernel.
    (void)a;
    todo("launch_canny_suppression");
}

void launch_canny_gradients_suppression(const CannyArgs& a) {
    // TODO(lab8): a block a tile (or a grid-stride loop over tiles); launch; check.
    (void)a;
    todo("launch_canny_gradients_suppression");
}

void launch_canny_thresholds(const CannyArgs& a) {
    // TODO(lab8): as launch_canny_gradients, for thresholds_kernel.
    (void)a;
    todo("launch_canny_thresholds");
}

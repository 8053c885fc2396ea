// convlab lab 8 — do not edit: the functions the driver calls. You write them in
// canny_gradients.cu and canny_hysteresis.cu; the smoothing is your lab 6 fused kernel.
//
// The Canny edge detector, five stages, each defined once by the CPU reference
// (common/families/pipelines/canny.hpp) and its per-pixel rules (common/families/pipelines/canny_rules.hpp, callable from a kernel):
//   1 smoothing    grey -> smoothed           lab 6's launch_conv2d_fused, a Gaussian
//   2 gradients    smoothed -> magnitude, direction, the largest magnitude
//                  sobel_gradient, gradient_magnitude, quantise_direction; Sobel taps by --border
//   3 suppression  magnitude, direction -> suppressed
//                  suppress(m, before, after), the neighbours direction_step() names; 0 outside
//   4 thresholds   suppressed -> labels       threshold_label(v, low, high)
//   5 hysteresis   labels -> edges            255 where a pixel is 8-connected to a Strong one
//                                             through Weak ones, 0 elsewhere
// Every stage after smoothing must match the reference exactly: call the rules' functions on the
// same floats the reference gives them (they are written so that nvcc's fused multiply-adds change
// no bit). The check names the first output that differs and where.
// Each launch function enqueues its kernels on the default stream and checks the launch
// (CUDA_CHECK_LAUNCH). The arguments (common/families/pipelines/canny_args.hpp) hold every stage's buffer.
#pragma once
#include "common/families/pipelines/canny_args.hpp"

// Stages 2 and 3 apart: two kernels, the magnitude and direction through global memory.
// launch_canny_gradients also leaves the largest magnitude's bits in *a.d_max_magnitude (0 when
// it starts): atomicMax on the bits of non-negative floats.
void launch_canny_gradients(const convlab::CannyArgs& a);
void launch_canny_suppression(const convlab::CannyArgs& a);
// Stages 2 and 3 in one kernel: the magnitudes of a tile and its one-pixel frame in shared
// memory, suppressed there; d_suppressed and *d_max_magnitude written, d_magnitude and
// d_direction need not be.
void launch_canny_gradients_suppression(const convlab::CannyArgs& a);
// Stage 4: with a.relative, the thresholds are a.low * largest and a.high * largest, one float
// product each, largest the float *a.d_max_magnitude holds.
void launch_canny_thresholds(const convlab::CannyArgs& a);

// Stage 5 two ways. The rounds: in each round every block loads its tile of labels and the
// edges found so far, marks in shared memory until nothing changes in the tile, and writes its
// edges; rounds repeat until one marks nothing anywhere. Write the rounds it took to *a.d_rounds.
void launch_hysteresis_rounds(const convlab::CannyArgs& a);
// Union-find: the 8-connected components of the Weak and Strong pixels, in a.d_workspace (a 32-bit
// word a pixel); an edge wherever the component holds a Strong pixel. *a.d_rounds = 1.
void launch_hysteresis_union_find(const convlab::CannyArgs& a);

// The side of the solution's square tiles (its rounds'; the handout's fused tile has the same); yours may differ.
constexpr int kLab8Tile = 32;

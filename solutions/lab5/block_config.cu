// Lab 5 — microbenchmarks, experiment 4: block and grid configuration. Reference solution.
//
// The kernel is given (add_one_kernel in given_kernels.cu, out[i] = in[i] + 1); what you
// choose is the launch. Variant A uses 5 threads per block: every block is one warp with 27 of its
// 32 lanes idle, and an SM holds at most 32 blocks, so at most 160 of its 2048 thread slots work.
// Pick a block size that fills warps and lets the SM reach full occupancy, and a grid that
// covers n. The block size sweep (./lab5 --experiment blocksize) shows the whole curve.
//
// Build and run:   make lab5 SOLUTION=1 && ./lab5 --experiment blocks,blocksize
#include "labs/lab5/lab5.hpp"

// 256 threads: 8 full warps, 8 blocks fill an SM's 2048 threads on every GPU since Volta.
void launch_add_one_tuned(const float* d_in, float* d_out, size_t n) { launch_add_one(d_in, d_out, n, 256); }

// Lab 0 — the CPU baseline.
//
// New in this lab: everything. Read the sequential definition, convlab::conv2d_cpu in
// common/core/reference.cpp, then write the same computation here with OpenMP: the rows of the
// output split into one contiguous chunk per thread.
//
// Build and run:   make lab0 && ./lab0
// One thread count, e.g. to compare with the sequential run:   ./lab0 --threads 1,4
#include <omp.h>

#include "common/core/errors.hpp"
#include "labs/lab0/lab0.hpp"

using namespace convlab;

void conv2d_omp(const Image& in, const Mask& mask, Border border, float* out, int threads) {
    // TODO(lab0): compute out exactly as conv2d_cpu does (every border mode, 1 or 3 channels).
    //   - Start a parallel region with `threads` threads.
    //   - Give each thread its own chunk of rows: rows [first, last) from omp_get_thread_num() and
    //     omp_get_num_threads(); the last chunk may be shorter.
    //   - For each output value, sum mask.weights[i * k + j] * input(x + j - r, y + i - r, c),
    //     asking border_index() (common/core/border.hpp) where a tap outside the image reads.
    //   - Accumulate in float: the check allows float rounding.
    // Then delete the line below.
    (void)in, (void)mask, (void)border, (void)out, (void)threads;
    todo("conv2d_omp");
}

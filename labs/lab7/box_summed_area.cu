// Lab 7 — the box filter from a summed-area table.
//
// The table: T(y, x) = the sum of in over rows 0..y and columns 0..x (each channel its own).
// Built by prefix sums: scan every row, then scan every column of the row scans. Then any
// window's sum is four entries:
//   sum over [y1+1, y2] x [x1+1, x2] = T(y2, x2) - T(y1, x2) - T(y2, x1) + T(y1, x1)
// (an entry with a row or column of -1 is 0). Keep the table in args.d_scratch as uint32_t, a
// value each, laid out like d_out.
//
// Three things to get right (the handout has each):
//   1. Scans in parallel: a block a row, each thread summing a run of pixels and the block
//      scanning the runs' sums (warp shuffles, or cub::BlockScan); a column of 8192 rows is too
//      long a chain for one thread: cut it into bands, scan the bands in parallel, then carry
//      each band's total into the next.
//   2. Overflow: 255 * 4200 * 4200 (4.5e9) passes 2^32. Why does uint32_t still give every window's
//      exact sum, and float does not? (The grader tries a large bright image.)
//   3. Borders: a window that leaves the image reads the border rule's pixels, which the table
//      does not hold. Write the sum of the first t values of a border-extended line as in-image
//      prefix sums, for each rule; inside the image it is the four entries above.
//
// Build and run:   make lab7 && ./lab7 --variant summed-area
#include "common/device/cuda_check.cuh"
#include "common/core/errors.hpp"
#include "labs/lab7/lab7.hpp"

using namespace convlab;

void launch_box_summed_area(const ConvArgs& args) {
    // TODO(lab7): the summed-area table in args.d_scratch, then the boxes from it, d_in -> d_out.
    (void)args;
    todo("launch_box_summed_area (box_summed_area.cu)");
}

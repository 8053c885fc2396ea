// convlab harness — do not edit in a lab.
// Compares a result with the CPU reference. A value passes when |got - ref| <= atol + rtol*|ref|;
// NaN and Inf never pass, so an output buffer poisoned with NaN before the run exposes every value
// the kernel did not write.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "common/core/mask.hpp"
#include "common/core/work_model.hpp"

namespace convlab {

struct Tolerance {
    double atol = 0;
    double rtol = 0;
};

// The one pass rule: finite, and |got - expected| <= atol + rtol*|expected|.
bool within_tolerance(double got, double expected, Tolerance tolerance);

// Integer masks on 8-bit input are exact in float (every partial sum is an integer below 2^24),
// so they get zero tolerance. Other masks get the worst-case bound for summing K*K float
// products in any order: 2 * max(K*K, 16) * 2^-24 * 255 * sum|w|. A shifted halo or a wrong
// border changes a value by far more than that on any non-flat image.
Tolerance tolerance_for(const Mask& mask);
// The same for a separable mask's two passes in float (a float intermediate between them): each
// pass sums K products, and the intermediate is rounded once, so 2K + 1 rounding steps bound the
// error, times 255 * sum|row| * sum|col|; zero when both factors are whole numbers and every
// partial sum stays an integer below 2^24.
Tolerance separable_tolerance_for(const Mask& mask);
// A box mask summed in integers and scaled once by 1/K^2 (WorkModel::integer_sums): the sum is
// exact, so only the scaling and the reference's own factors round (1/K twice as floats, a
// double product, a float result): at most 5 roundings of a value up to 255; 8 * 2^-24 * 255,
// 1.2e-4. A running sum that drifts (scaled floats added and subtracted along a row) exceeds it.
Tolerance integer_box_tolerance();
// A variant's tolerance: none (0) when its model is exact (lab 8's edge maps); the integer box's
// when its model sums integers and the mask is a box;
// its two passes' when its model sums a separable mask's factors (the tighter bound); the K*K
// sum's otherwise. Every check of that variant's results uses it.
Tolerance tolerance_for(const Mask& mask, const WorkModel& model);

// Where a kernel's tiles lie, so a mismatch can be reported as "on a tile edge".
struct TileShape {
    int width = 0;   // 0: the variant has no tiles
    int height = 0;
};

struct Mismatch {
    int x, y, c;
    float got, expected;
    std::string where;  // "image border", "tile edge", "last partial tile", or empty
};

struct CheckResult {
    bool passed = false;
    size_t values = 0;        // width*height*channels
    size_t bad = 0;           // values outside the tolerance, NaN and Inf included
    size_t unwritten = 0;     // NaN values: never written, since the buffer was poisoned with NaN
    double max_abs_error = 0; // over finite values
    double max_rel_error = 0; // |got - ref| / max(|ref|, 1), over finite values
    std::vector<Mismatch> first;  // the first few bad values in row-major order

    std::string summary() const;               // one line: PASS/FAIL and the figures
    std::vector<std::string> details() const;  // one line per listed mismatch
};

CheckResult check_output(const float* got, const float* ref, int width, int height, int channels,
                         Tolerance tolerance, int mask_radius, TileShape tile, size_t max_listed = 5);

// The same check of rows [first_row, first_row + rows) of a width x height result, added to
// `result`: got and ref hold those rows alone, a mismatch is named by its row in the whole image
// (and located by the whole's borders), and `passed` says whether every row so far passed. A
// result checked a band of rows at a time gives check_output's answer (banded_check.hpp).
void check_rows(CheckResult& result, const float* got, const float* ref, int width, int height, int first_row, int rows,
                int channels, Tolerance tolerance, int mask_radius, TileShape tile, size_t max_listed = 5);

}  // namespace convlab

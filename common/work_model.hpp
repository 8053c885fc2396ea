// convlab harness — do not edit in a lab.
// What one output value costs a variant, and how it sums: the report's GB/s and GFLOP/s, the
// grader's physical floor and the check's tolerance all follow it (a lab's variants carry one,
// lab.hpp).
#pragma once

namespace convlab {

struct WorkModel {
    double bytes_per_value = 5;  // DRAM bytes: 1 B read + 4 B written; a two-pass filter moves 13
    bool separable = false;      // sums a separable mask's factors, a row pass then a column pass:
                                 // 2K multiply-adds per value, not K*K, and the two-pass rounding
    double flops_per_value(int k) const { return 2.0 * (separable ? 2.0 * k : double(k) * k); }
};

}  // namespace convlab

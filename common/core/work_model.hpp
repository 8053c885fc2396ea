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
    // Lab 7's box filters: a running sum or a summed-area table adds and subtracts a few integers
    // a value, whatever K (flops_per_value then says how many), and divides once: held to the
    // rounding of that division, not to a K*K sum's (check.hpp).
    bool integer_sums = false;
    double fixed_flops = 0;
    // Lab 8's stages compare and select more than they multiply: bytes only, no flops counted.
    bool counts_flops = true;
    double flops_per_value(int k) const {
        if (!counts_flops) return 0;
        if (integer_sums) return fixed_flops;
        return 2.0 * (separable ? 2.0 * k : double(k) * k);
    }
};

}  // namespace convlab

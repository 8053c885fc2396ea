// convlab harness — do not edit in a lab.
// Separable masks: a rank-1 K x K mask is a column times a row, so two passes of K taps replace
// K^2. A mask parsed from a spec carries its factors when it has them (mask.hpp); these decide
// it for any other mask, by its numerical rank.
#pragma once
#include <vector>

#include "common/core/mask.hpp"

namespace convlab {

// The rank of the k x k weights, counting pivots (Gaussian elimination with complete pivoting, in
// double) larger than float rounding of the largest weight: k * 2^-23 * max |w|.
int numerical_rank(const std::vector<float>& weights, int k);

// Fills mask.row and mask.col when the weights have numerical rank 1 (the column through the
// largest weight, and its row divided by that weight); leaves a mask of another rank as it is.
void factor_if_rank_one(Mask& mask);

// Throws Unsupported, one line naming the mask and its numerical rank, when the mask is not
// separable: a separable variant is then reported skipped while the direct ones still run.
void require_separable(const Mask& mask);

}  // namespace convlab

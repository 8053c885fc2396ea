// convlab harness — do not edit in a lab.
// Convolution masks. The operation is correlation, as OpenCV's filter2D and cuDNN compute it:
//   out(x, y) = sum over i, j of weights[i*k + j] * in(x + j - r, y + i - r),  r = k / 2
// The mask is not flipped; a true convolution would read in(x - j + r, y - i + r).
#pragma once
#include <string>
#include <vector>

namespace convlab {

// The harness's own ceiling on any lab's mask (constant memory holds 64 KiB).
constexpr int kMaxMaskSize = 63;

struct Mask {
    int k = 0;                  // odd, k x k
    std::vector<float> weights; // row-major, k*k
    std::string spec;           // as the user wrote it, for reports
    // A separable (rank-1) mask's factors: weights[i*k + j] is col[i] * row[j], to float rounding.
    // row runs across x, col down y. Both empty when the mask is not separable.
    std::vector<float> row, col;

    int radius() const { return k / 2; }
    bool integral() const;      // every weight a whole number: the check can then demand exact results
    double abs_sum() const;     // sum of |weights|: scales the tolerance
    bool separable() const { return !row.empty(); }
    // Every weight 1/K^2 (as box:K makes it): the mean over the window, which a running sum or a
    // summed-area table computes from integer sums and one division (box_filter.hpp).
    bool box() const;
};

// Throws Unsupported, one line naming the mask, unless it is a box (Mask::box): a box variant is
// then reported skipped while the general ones still run.
void require_box(const Mask& mask);

// Specs: box:K, gauss:K:SIGMA, sobel-x, sobel-y, laplacian, sharpen, emboss, random:K:SEED,
// outer:K:SEED (a random separable mask: a random column times a different random row), or the
// path of a text file with K rows of K numbers, or with two rows of K numbers (a separable mask's
// row, then its column); '#' starts a comment. Box, gauss and the Sobel masks come with their
// factors; any other mask of numerical rank 1 is factored (separable.hpp).
// K must be odd and 1 <= K <= max_k. Every problem is an InputError saying what is accepted.
Mask parse_mask(const std::string& spec, int max_k);

// A separable mask from its two vectors as comma-separated weights (--row-mask, --col-mask):
// weights[i*k + j] = col[i] * row[j]. Both must hold the same odd count K, 1 <= K <= max_k.
Mask mask_from_vectors(const std::string& row, const std::string& col, int max_k);

// The accepted spec forms, for --help and error messages.
std::string mask_spec_help();

}  // namespace convlab

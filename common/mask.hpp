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

    int radius() const { return k / 2; }
    bool integral() const;      // every weight a whole number: the check can then demand exact results
    double abs_sum() const;     // sum of |weights|: scales the tolerance
};

// Specs: box:K, gauss:K:SIGMA, sobel-x, sobel-y, laplacian, sharpen, emboss, random:K:SEED,
// or the path of a text file with K rows of K numbers ('#' starts a comment).
// K must be odd and 1 <= K <= max_k. Every problem is an InputError saying what is accepted.
Mask parse_mask(const std::string& spec, int max_k);

// The accepted spec forms, for --help and error messages.
std::string mask_spec_help();

}  // namespace convlab

// convlab harness — do not edit in a lab.
#include "common/core/separable.hpp"

#include <cmath>
#include <string>
#include <utility>

#include "common/core/errors.hpp"

namespace convlab {

int numerical_rank(const std::vector<float>& weights, int k) {
    std::vector<double> a(weights.begin(), weights.end());
    double largest = 0;
    for (double w : a) largest = std::max(largest, std::fabs(w));
    const double tolerance = k * std::ldexp(1.0, -23) * largest;
    std::vector<int> rows(k), cols(k);
    for (int n = 0; n < k; ++n) rows[n] = cols[n] = n;
    int rank = 0;
    for (; rank < k; ++rank) {
        // The largest remaining entry is the pivot.
        int pi = rank, pj = rank;
        double pivot = 0;
        for (int i = rank; i < k; ++i)
            for (int j = rank; j < k; ++j)
                if (std::fabs(a[size_t(rows[i]) * k + cols[j]]) > std::fabs(pivot)) {
                    pivot = a[size_t(rows[i]) * k + cols[j]];
                    pi = i;
                    pj = j;
                }
        if (std::fabs(pivot) <= tolerance) break;
        std::swap(rows[rank], rows[pi]);
        std::swap(cols[rank], cols[pj]);
        for (int i = rank + 1; i < k; ++i) {
            const double factor = a[size_t(rows[i]) * k + cols[rank]] / pivot;
            for (int j = rank; j < k; ++j) a[size_t(rows[i]) * k + cols[j]] -= factor * a[size_t(rows[rank]) * k + cols[j]];
        }
    }
    return rank;
}

void factor_if_rank_one(Mask& mask) {
    const int k = mask.k;
    if (mask.separable() || numerical_rank(mask.weights, k) != 1) return;
    size_t at = 0;
    for (size_t n = 1; n < mask.weights.size(); ++n)
        if (std::fabs(mask.weights[n]) > std::fabs(mask.weights[at])) at = n;
    const int p = int(at / k), q = int(at % k);
    const double pivot = mask.weights[at];
    mask.col.resize(k);
    mask.row.resize(k);
    for (int i = 0; i < k; ++i) mask.col[i] = mask.weights[size_t(i) * k + q];
    for (int j = 0; j < k; ++j) mask.row[j] = float(mask.weights[size_t(p) * k + j] / pivot);
}

void require_separable(const Mask& mask) {
    if (mask.separable()) return;
    throw Unsupported("mask '" + mask.spec + "' is not separable: its numerical rank is " +
                      std::to_string(numerical_rank(mask.weights, mask.k)) +
                      "; the separable variants take a rank-1 mask (gauss, box, sobel-x, sobel-y, outer:K:SEED, or a "
                      "file of two rows: the row, then the column)");
}

}  // namespace convlab

// convlab harness — do not edit in a lab.
#include "common/core/mask.hpp"

#include <cmath>
#include <fstream>
#include <sstream>

#include "common/core/errors.hpp"
#include "common/core/rng.hpp"
#include "common/core/separable.hpp"
#include "common/core/text_parse.hpp"

namespace convlab {

bool Mask::integral() const {
    for (float w : weights)
        if (w != std::floor(w)) return false;
    return true;
}

bool Mask::box() const {
    const float mean = 1.0f / float(k * k);
    for (float w : weights)
        if (w != mean) return false;
    return k > 0;
}

void require_box(const Mask& mask) {
    if (!mask.box())
        throw Unsupported("a box filter takes box:K masks (every weight 1/K^2); " + mask.spec + " is not one");
}

double Mask::abs_sum() const {
    double sum = 0;
    for (float w : weights) sum += std::fabs(w);
    return sum;
}

std::string mask_spec_help() {
    return "box:K, gauss:K:SIGMA, sobel-x, sobel-y, laplacian, sharpen, emboss, random:K:SEED, outer:K:SEED, "
           "or a text file of K rows of K numbers (or of two rows: a separable mask's row, then its column)";
}

namespace {

long long parse_integer(const std::string& text, const std::string& spec, const char* field) {
    return parse_whole(text, "mask '" + spec + "': " + field);
}

int parse_size(const std::string& text, const std::string& spec, int max_k) {
    const long long k = parse_integer(text, spec, "size");
    if (k < 1 || k > max_k || k % 2 == 0)
        throw InputError("mask '" + spec + "': size " + text + " is not allowed; accepted: an odd size from 1 to " +
                         std::to_string(max_k) + " in this lab");
    return int(k);
}

// One weight; `where` names the file line or option it came from.
float parse_weight(const std::string& word, const std::string& where) {
    float value = 0;
    if (!read_finite(word, &value)) throw InputError(where + ": '" + word + "' is not a finite number");
    return value;
}

Mask from_rows(const std::string& spec, int k, std::vector<float> weights) {
    Mask mask;
    mask.k = k;
    mask.weights = std::move(weights);
    mask.spec = spec;
    return mask;
}

// A separable mask: weights[i*k + j] = col[i] * row[j].
Mask from_factors(const std::string& spec, std::vector<float> row, std::vector<float> col) {
    const int k = int(row.size());
    std::vector<float> weights(size_t(k) * k);
    for (int i = 0; i < k; ++i)
        for (int j = 0; j < k; ++j) weights[size_t(i) * k + j] = col[i] * row[j];
    Mask mask = from_rows(spec, k, std::move(weights));
    mask.row = std::move(row);
    mask.col = std::move(col);
    return mask;
}

Mask gaussian(const std::string& spec, int k, const std::string& sigma_text) {
    double sigma = 0;
    if (!read_finite(sigma_text, &sigma) || !(sigma > 0))
        throw InputError("mask '" + spec + "': sigma '" + sigma_text + "' must be a positive number");
    std::vector<double> w(size_t(k) * k);
    double sum = 0;
    const int r = k / 2;
    for (int i = 0; i < k; ++i)
        for (int j = 0; j < k; ++j)
            sum += w[size_t(i) * k + j] = std::exp(-((i - r) * (i - r) + (j - r) * (j - r)) / (2 * sigma * sigma));
    std::vector<float> weights(w.size());
    for (size_t n = 0; n < w.size(); ++n) weights[n] = float(w[n] / sum);
    Mask mask = from_rows(spec, k, std::move(weights));
    // Its factors: the one-dimensional Gaussian, normalised (the 2-D sum is the 1-D sum squared).
    std::vector<double> g(k);
    double g_sum = 0;
    for (int i = 0; i < k; ++i) g_sum += g[i] = std::exp(-(i - r) * (i - r) / (2 * sigma * sigma));
    for (int i = 0; i < k; ++i) mask.row.push_back(float(g[i] / g_sum));
    mask.col = mask.row;
    return mask;
}

Mask from_file(const std::string& path, int max_k) {
    std::ifstream file(path);
    if (!file) throw InputError("unknown mask '" + path + "' (no such file); accepted: " + mask_spec_help());
    std::vector<std::vector<float>> rows;
    std::string line;
    for (int number = 1; std::getline(file, line); ++number) {
        line = line.substr(0, line.find('#'));
        for (char& ch : line)
            if (ch == ',' || ch == '\t' || ch == '\r') ch = ' ';
        std::istringstream words(line);
        std::vector<float> row;
        std::string word;
        while (words >> word) row.push_back(parse_weight(word, "mask file '" + path + "' line " + std::to_string(number)));
        if (row.empty()) continue;
        if (!rows.empty() && row.size() != rows[0].size())
            throw InputError("mask file '" + path + "' line " + std::to_string(number) + ": " +
                             std::to_string(row.size()) + " numbers, the first row had " +
                             std::to_string(rows[0].size()) + "; accepted: K rows of K numbers, K odd");
        rows.push_back(std::move(row));
    }
    const size_t k = rows.size();
    if (k == 0) throw InputError("mask file '" + path + "' holds no numbers; accepted: K rows of K numbers, K odd");
    if (k == 2 && rows[0].size() % 2 == 1 && int(rows[0].size()) <= max_k)  // a separable mask: its row, then its column
        return from_factors(path, rows[0], rows[1]);
    if (rows[0].size() != k || k % 2 == 0 || int(k) > max_k)
        throw InputError("mask file '" + path + "' is " + std::to_string(k) + " rows of " +
                         std::to_string(rows[0].size()) + "; accepted: K rows of K numbers, or two rows of K (a separable " +
                         "mask's row and column), K odd, 1 to " + std::to_string(max_k) + " in this lab");
    std::vector<float> weights;
    for (const auto& row : rows) weights.insert(weights.end(), row.begin(), row.end());
    return from_rows(path, int(k), std::move(weights));
}

}  // namespace

Mask mask_from_vectors(const std::string& row_text, const std::string& col_text, int max_k) {
    auto vector_of = [&](const std::string& text, const char* option) {
        std::vector<float> weights;
        for (const std::string& word : split_list(text)) weights.push_back(parse_weight(word, std::string(option) + " " + text));
        const int k = int(weights.size());
        if (k < 1 || k > max_k || k % 2 == 0)
            throw InputError(std::string(option) + " " + text + " holds " + std::to_string(k) +
                             " weights; accepted: an odd count from 1 to " + std::to_string(max_k) + " in this lab");
        return weights;
    };
    std::vector<float> row = vector_of(row_text, "--row-mask"), col = vector_of(col_text, "--col-mask");
    if (row.size() != col.size())
        throw InputError("--row-mask has " + std::to_string(row.size()) + " weights and --col-mask " + std::to_string(col.size()) +
                         "; accepted: the same odd count in both");
    return from_factors("row " + row_text + " x col " + col_text, std::move(row), std::move(col));
}

Mask parse_mask(const std::string& spec, int max_k) {
    const std::vector<std::string> parts = split_list(spec, ':');
    const std::string& name = parts.empty() ? spec : parts[0];
    auto expect_fields = [&](size_t n, const char* form) {
        if (parts.size() != n) throw InputError("mask '" + spec + "': expected the form " + form);
    };
    auto check_fixed3 = [&] {
        expect_fields(1, name.c_str());
        if (max_k < 3) throw InputError("mask '" + spec + "' is 3x3; this lab takes masks up to " + std::to_string(max_k));
    };
    auto fixed3 = [&](std::vector<float> w) {
        check_fixed3();
        return from_rows(spec, 3, std::move(w));
    };
    auto sobel = [&](std::vector<float> row, std::vector<float> col) {
        check_fixed3();
        return from_factors(spec, std::move(row), std::move(col));
    };
    if (name == "box") {
        expect_fields(2, "box:K");
        const int k = parse_size(parts[1], spec, max_k);
        Mask mask = from_rows(spec, k, std::vector<float>(size_t(k) * k, 1.0f / float(k * k)));
        mask.row = mask.col = std::vector<float>(k, 1.0f / float(k));
        return mask;
    }
    if (name == "gauss") {
        expect_fields(3, "gauss:K:SIGMA");
        return gaussian(spec, parse_size(parts[1], spec, max_k), parts[2]);
    }
    if (name == "random") {
        expect_fields(3, "random:K:SEED");
        const int k = parse_size(parts[1], spec, max_k);
        const long long seed = parse_integer(parts[2], spec, "seed");
        std::vector<float> w(size_t(k) * k);
        for (size_t n = 0; n < w.size(); ++n) w[n] = float(2 * unit_double(hash4(uint64_t(seed), 11, n, 0)) - 1);
        Mask mask = from_rows(spec, k, std::move(w));
        factor_if_rank_one(mask);  // only a 1x1 one, in practice
        return mask;
    }
    if (name == "outer") {
        expect_fields(3, "outer:K:SEED");
        const int k = parse_size(parts[1], spec, max_k);
        const long long seed = parse_integer(parts[2], spec, "seed");
        std::vector<float> row(k), col(k);  // two streams: the column is not the row, so swapped passes fail
        for (int n = 0; n < k; ++n) {
            row[n] = float(2 * unit_double(hash4(uint64_t(seed), 13, uint64_t(n), 0)) - 1);
            col[n] = float(2 * unit_double(hash4(uint64_t(seed), 13, uint64_t(n), 1)) - 1);
        }
        return from_factors(spec, std::move(row), std::move(col));
    }
    if (name == "sobel-x") return sobel({-1, 0, 1}, {1, 2, 1});
    if (name == "sobel-y") return sobel({1, 2, 1}, {-1, 0, 1});
    if (name == "laplacian") return fixed3({0, 1, 0, 1, -4, 1, 0, 1, 0});
    if (name == "sharpen") return fixed3({0, -1, 0, -1, 5, -1, 0, -1, 0});
    if (name == "emboss") return fixed3({-2, -1, 0, -1, 1, 1, 0, 1, 2});
    Mask mask = from_file(spec, max_k);
    factor_if_rank_one(mask);
    return mask;
}

}  // namespace convlab

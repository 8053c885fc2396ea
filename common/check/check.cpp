// convlab harness — do not edit in a lab.
#include "common/check/check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace convlab {

Tolerance tolerance_for(const Mask& mask) {
    const double sum = mask.abs_sum();
    if (mask.integral() && 255.0 * sum < 16777216.0) return {0.0, 0.0};
    const double unit_roundoff = std::ldexp(1.0, -24);
    const double terms = std::max(mask.k * mask.k, 16);
    return {2.0 * terms * unit_roundoff * 255.0 * sum, 0.0};
}

Tolerance separable_tolerance_for(const Mask& mask) {
    double row_sum = 0, col_sum = 0;
    bool integral = true;
    for (float w : mask.row) {
        row_sum += std::fabs(w);
        integral = integral && w == std::floor(w);
    }
    for (float w : mask.col) {
        col_sum += std::fabs(w);
        integral = integral && w == std::floor(w);
    }
    if (integral && 255.0 * row_sum * col_sum < 16777216.0) return {0.0, 0.0};
    const double unit_roundoff = std::ldexp(1.0, -24);
    const double terms = std::max(2 * mask.k + 1, 16);
    return {2.0 * terms * unit_roundoff * 255.0 * row_sum * col_sum, 0.0};
}

Tolerance integer_box_tolerance() { return {8.0 * std::ldexp(1.0, -24) * 255.0, 0.0}; }

Tolerance tolerance_for(const Mask& mask, const WorkModel& model) {
    if (model.integer_sums && mask.box()) return integer_box_tolerance();
    return model.separable && mask.separable() ? separable_tolerance_for(mask) : tolerance_for(mask);
}

bool within_tolerance(double got, double expected, Tolerance tolerance) {
    return std::isfinite(got) && std::fabs(got - expected) <= tolerance.atol + tolerance.rtol * std::fabs(expected);
}

namespace {

std::string locate(int x, int y, int width, int height, int radius, TileShape tile) {
    if (x < radius || y < radius || x >= width - radius || y >= height - radius) return "image border";
    if (tile.width > 0 && tile.height > 0) {
        if (x >= width / tile.width * tile.width || y >= height / tile.height * tile.height)
            return "last partial tile";
        const int tx = x % tile.width, ty = y % tile.height;
        if (tx < radius || ty < radius || tx >= tile.width - radius || ty >= tile.height - radius)
            return "tile edge";
    }
    return "";
}

std::string format(const char* fmt, double a, double b = 0, double c = 0) {
    char buffer[160];
    std::snprintf(buffer, sizeof buffer, fmt, a, b, c);
    return buffer;
}

}  // namespace

CheckResult check_output(const float* got, const float* ref, int width, int height, int channels,
                         Tolerance tolerance, int mask_radius, TileShape tile, size_t max_listed) {
    CheckResult result;
    check_rows(result, got, ref, width, height, 0, height, channels, tolerance, mask_radius, tile, max_listed);
    return result;
}

void check_rows(CheckResult& result, const float* got, const float* ref, int width, int height, int first_row, int rows,
                int channels, Tolerance tolerance, int mask_radius, TileShape tile, size_t max_listed) {
    const size_t values = size_t(width) * rows * channels;
    result.values += values;
    for (size_t n = 0; n < values; ++n) {
        const double g = got[n], e = ref[n];
        if (std::isnan(g)) ++result.unwritten;
        if (std::isfinite(g)) {
            const double error = std::fabs(g - e);
            result.max_abs_error = std::max(result.max_abs_error, error);
            result.max_rel_error = std::max(result.max_rel_error, error / std::max(std::fabs(e), 1.0));
        }
        if (within_tolerance(g, e, tolerance)) continue;
        ++result.bad;
        if (result.first.size() < max_listed) {
            const int c = int(n % channels), x = int(n / channels % width), y = first_row + int(n / channels / width);
            result.first.push_back({x, y, c, got[n], ref[n], locate(x, y, width, height, mask_radius, tile)});
        }
    }
    result.passed = result.bad == 0;
}

std::string CheckResult::summary() const {
    if (passed) return format("PASS (max abs error %.3g, max rel error %.3g)", max_abs_error, max_rel_error);
    if (unwritten == values) return "FAIL: no output value was written (all still NaN): is the kernel launched, and does it store its result?";
    std::string line = format("FAIL: %.0f of %.0f values wrong", double(bad), double(values));
    if (unwritten) line += format(" (%.0f never written)", double(unwritten));
    return line + format(", max abs error %.3g", max_abs_error);
}

std::vector<std::string> CheckResult::details() const {
    std::vector<std::string> lines;
    for (const Mismatch& m : first) {
        char buffer[200];
        std::snprintf(buffer, sizeof buffer, "(x=%d, y=%d, channel %d): got %.6g, expected %.6g%s%s", m.x, m.y, m.c,
                      double(m.got), double(m.expected), m.where.empty() ? "" : " -- ", m.where.c_str());
        lines.push_back(buffer);
    }
    return lines;
}

}  // namespace convlab

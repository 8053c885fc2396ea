// convlab lab 5 — do not edit.
#include "labs/lab5/references.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

#include "labs/lab5/lab5.hpp"

namespace {

// Element i of got, read from its bytes (memcpy: the bytes may be a raw result's, of any alignment).
template <class T>
T element(const char* got, size_t i) {
    T value;
    std::memcpy(&value, got + i * sizeof(T), sizeof(T));
    return value;
}

template <class T>
bool matches(T got, T expected, double rtol, bool skip_nan) {
    const double e = double(expected), g = double(got);
    if (skip_nan && std::isnan(e)) return true;
    return !std::isnan(g) && std::fabs(g - e) <= rtol * std::fabs(e);
}

// got: count elements of T as bytes. The count runs on every core (a lab 5 array is up to a few
// hundred million elements, checked twice a variant); the first few wrong ones are looked for only
// when there are some.
template <class T>
std::string describe_mismatches(const char* got, size_t count, const std::vector<T>& expected, double rtol, bool skip_nan) {
    if (count != expected.size()) return "output has " + std::to_string(count) + " elements, expected " + std::to_string(expected.size());
    long long wrong = 0;
#pragma omp parallel for schedule(static) reduction(+ : wrong)
    for (long long i = 0; i < (long long)count; ++i) wrong += !matches(element<T>(got, size_t(i)), expected[size_t(i)], rtol, skip_nan);
    if (!wrong) return "";
    std::ostringstream first;
    int shown = 0;
    for (size_t i = 0; i < count && shown < 3; ++i) {
        const T g = element<T>(got, i);
        if (matches(g, expected[i], rtol, skip_nan)) continue;
        first << (shown++ ? ", " : "") << "[" << i << "]: " << double(g) << " (expected " << double(expected[i]) << ")";
    }
    return std::to_string(wrong) + " of " + std::to_string(count) + " elements wrong; first " + first.str();
}

}  // namespace

namespace {

using namespace lab5_rules;

// An accessor over a whole input array.
struct Lookup {
    const std::vector<float>& values;
    float operator()(size_t j) const { return values[j]; }
};

// out[i] = rule(i) for every element, the cores sharing them.
template <class T, class Rule>
std::vector<T> tabulate(size_t n, const Rule& rule) {
    std::vector<T> out(n);
#pragma omp parallel for schedule(static)
    for (long long i = 0; i < (long long)n; ++i) out[size_t(i)] = rule(size_t(i));
    return out;
}

}  // namespace

float path_scale(int path) { return 0.999f - 0.0001f * float(path); }
float path_offset(int path) { return 0.01f + 0.001f * float(path); }

float lab5_rules::path_chain(float x, int path) {
    const float scale = path_scale(path), offset = path_offset(path);
    for (int step = 0; step < kPathWork; ++step) x = std::fma(x, scale, offset);
    return x;
}

std::vector<float> swap_reference(const std::vector<float>& in) {
    return tabulate<float>(in.size(), [&](size_t i) { return swap_at(Lookup{in}, in.size(), i); });
}

std::vector<float> copy_strided_reference(const std::vector<float>& in, int stride) {
    return tabulate<float>(in.size(), [&](size_t i) { return copy_strided_at(Lookup{in}, i, stride); });
}

std::vector<float> copy_offset_reference(const std::vector<float>& in, int offset) {
    return tabulate<float>(in.size(), [&](size_t i) { return copy_offset_at(Lookup{in}, i, offset); });
}

std::vector<float> neighbours_reference(const std::vector<float>& in) {
    return tabulate<float>(in.size(), [&](size_t i) { return neighbours_at(Lookup{in}, in.size(), i); });
}

std::vector<int> direction_reference(const std::vector<float>& in) {
    return tabulate<int>(in.size(), [&](size_t i) { return direction_at(Lookup{in}, i); });
}

std::vector<float> paths_reference(const std::vector<float>& in, int paths, bool by_warp) {
    // 64 FMAs per element would take minutes for a few hundred million elements (fmaf is a
    // library call without -mfma). The inputs are multiples of 1/8 in [0, 157], so each path's
    // results for those 1257 values are computed once and looked up; any other input is computed.
    constexpr int kEighths = 157 * 8 + 1;
    std::vector<float> table(size_t(paths) * kEighths);
    for (int p = 0; p < paths; ++p)
        for (int k = 0; k < kEighths; ++k) table[size_t(p) * kEighths + k] = path_chain(float(k) / 8.0f, p);
    return tabulate<float>(in.size(), [&](size_t i) {
        const int path = path_of(i, paths, by_warp);
        const float eighths = in[i] * 8.0f;
        const int k = int(eighths);
        return float(k) == eighths && k >= 0 && k < kEighths ? table[size_t(path) * kEighths + k] : path_chain(in[i], path);
    });
}

std::vector<float> add_one_reference(const std::vector<float>& in) {
    return tabulate<float>(in.size(), [&](size_t i) { return add_one_at(Lookup{in}, i); });
}

std::vector<float> shared_stride_reference(const std::vector<float>& s_in, int blocks, int stride, int repeats) {
    float lane_sum[32];  // every warp's lanes add the same words: 32 sums, not one per thread
    for (int lane = 0; lane < 32; ++lane) lane_sum[lane] = shared_lane_sum(Lookup{s_in}, lane, stride, repeats);
    return tabulate<float>(size_t(blocks) * kSharedThreads, [&](size_t t) { return lane_sum[t % 32]; });
}

std::string compare_outputs(const char* got, size_t count, const std::vector<float>& expected, double rtol) {
    return describe_mismatches(got, count, expected, rtol, true);
}

std::string compare_outputs(const char* got, size_t count, const std::vector<int>& expected) {
    return describe_mismatches(got, count, expected, 0.0, false);
}

std::string compare_outputs(const std::vector<float>& got, const std::vector<float>& expected, double rtol) {
    return compare_outputs(reinterpret_cast<const char*>(got.data()), got.size(), expected, rtol);
}

std::string compare_outputs(const std::vector<int>& got, const std::vector<int>& expected) {
    return compare_outputs(reinterpret_cast<const char*>(got.data()), got.size(), expected);
}

// convlab lab 5 — do not edit: what each experiment's output must be, computed on the CPU in the
// same float arithmetic as the kernels' contracts in lab5.hpp. Each rule is written once, as the
// value of one output element given an input accessor (in(j): input element j): the whole-array
// references below apply it to every element, and the grader's timer applies it to the few
// elements it spot-checks, reading only the inputs they need. A NaN marks an element the variant
// does not write (the sweeps copy only part of the array); it is not compared.
#pragma once
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "labs/lab5/lab5.hpp"

namespace lab5_rules {

constexpr float kNotWritten = std::numeric_limits<float>::quiet_NaN();

template <class In>
float swap_at(const In& in, size_t n, size_t i) {
    const size_t partner = i ^ 1;
    return in(partner < n ? partner : i);
}

template <class In>
float copy_strided_at(const In& in, size_t i, int stride) { return i % size_t(stride) ? kNotWritten : in(i); }

template <class In>
float copy_offset_at(const In& in, size_t i, int offset) { return i < size_t(offset) ? kNotWritten : in(i); }

template <class In>
float neighbours_at(const In& in, size_t n, size_t i) {
    const float left = in(i > 0 ? i - 1 : i), right = in(i + 1 < n ? i + 1 : i);
    return std::sqrt(2.0f * left + 0.5f * right);
}

template <class In>
int direction_at(const In& in, size_t i) {
    static const int kDx[2][4] = {{1, 1, 0, -1}, {-1, -1, 0, 1}};  // [odd][theta]
    static const int kDy[2][4] = {{0, 1, 1, 1}, {0, -1, -1, -1}};
    const int theta = int(std::ceil((in(i) - 22.0f) / 45.0f));
    const int odd = int(i & 1);
    return theta < 0 || theta > 3 ? 0 : kDx[odd][theta] + kDy[odd][theta];
}

// Path p's kPathWork dependent FMAs from x.
float path_chain(float x, int path);
inline int path_of(size_t i, int paths, bool by_warp) { return int((by_warp ? i / 32 : i % 32) % size_t(paths)); }

template <class In>
float paths_at(const In& in, size_t i, int paths, bool by_warp) { return path_chain(in(i), path_of(i, paths, by_warp)); }

template <class In>
float add_one_at(const In& in, size_t i) { return in(i) + 1.0f; }

// What lane `lane` of every warp adds up (s_in: the kSharedRows * 32 words every block copies).
template <class In>
float shared_lane_sum(const In& s_in, int lane, int stride, int repeats) {
    float sum = 0.0f;
    for (int r = 0; r < repeats; ++r)
        for (int m = 0; m < kSharedReads; ++m) sum += s_in(size_t(lane) * stride + 32 * m);
    return sum;
}

template <class In>
float shared_stride_at(const In& s_in, size_t thread, int stride, int repeats) {
    return shared_lane_sum(s_in, int(thread % 32), stride, repeats);
}

}  // namespace lab5_rules

std::vector<float> swap_reference(const std::vector<float>& in);
std::vector<float> copy_strided_reference(const std::vector<float>& in, int stride);
std::vector<float> copy_offset_reference(const std::vector<float>& in, int offset);
std::vector<float> neighbours_reference(const std::vector<float>& in);
std::vector<int> direction_reference(const std::vector<float>& in);
std::vector<float> paths_reference(const std::vector<float>& in, int paths, bool by_warp);
std::vector<float> add_one_reference(const std::vector<float>& in);
// One value per thread of `blocks` blocks; s_in holds the kSharedRows * 32 words every block copies.
std::vector<float> shared_stride_reference(const std::vector<float>& s_in, int blocks, int stride, int repeats);

// "" when every compared element of got matches expected within rtol * |expected|; otherwise one
// line with the count of wrong elements and the first few as index: got (expected).
std::string compare_outputs(const std::vector<float>& got, const std::vector<float>& expected, double rtol);
std::string compare_outputs(const std::vector<int>& got, const std::vector<int>& expected);
// The same for count elements held as bytes (a fetched output or a raw result), without copying them.
std::string compare_outputs(const char* got, size_t count, const std::vector<float>& expected, double rtol);
std::string compare_outputs(const char* got, size_t count, const std::vector<int>& expected);

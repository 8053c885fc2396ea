// convlab lab 5 — do not edit: what each experiment's output must be, computed on the CPU in the
// same float arithmetic as the kernels' contracts in lab5.hpp. A NaN in a reference marks an
// element the variant does not write (the sweeps copy only part of the array); it is not compared.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

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

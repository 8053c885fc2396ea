// convlab harness — do not edit in a lab.
// The check of a result too large to hold its reference beside it (lab 9's images bigger than
// the GPU, 32768x32768 and up: the reference alone would be 4 GiB a channel): the reference is
// computed a band of rows at a time (conv2d_cpu_reference_rows) and each band checked where it
// lies, so the memory the check needs is one band's, and its answer check_output's on the whole.
#pragma once
#include <cstddef>

#include "common/core/border.hpp"
#include "common/check/check.hpp"
#include "common/core/image.hpp"
#include "common/core/mask.hpp"

namespace convlab {

// got: the whole result (width*height*channels floats, interleaved). Bands of as many rows as
// keep one band's reference within band_values floats (at least one row); two_pass as
// conv2d_cpu_reference's.
CheckResult check_against_reference_by_bands(const Image& in, const Mask& mask, Border border, bool two_pass, const float* got,
                                             Tolerance tolerance, TileShape tile, size_t band_values);

}  // namespace convlab

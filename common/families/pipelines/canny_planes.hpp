// convlab harness — do not edit in a lab.
// Lab 8's buffers as the check sees them: each one's name (in raw results and messages), its
// values as floats (bytes widened, the largest magnitude one value), and a stage's outputs checked
// against the reference's, buffer by buffer. The lab's own runs (canny_lab.cpp) and the grader's
// timer (canny_peer.hpp) check alike.
#pragma once
#include <string>
#include <vector>

#include "common/families/pipelines/canny.hpp"
#include "common/families/pipelines/canny_device.hpp"
#include "common/check/check.hpp"

namespace convlab {

constexpr unsigned kAllCannyBuffers = kCannySmoothed | kCannyMagnitude | kCannyDirection | kCannyMaxMagnitude |
                                      kCannySuppressed | kCannyLabels | kCannyEdges;

// Each buffer's name in raw results and in the check's messages, in the order the check goes.
struct BufferName {
    unsigned bit;
    const char* name;
};
constexpr BufferName kBufferNames[] = {{kCannySmoothed, "smoothed"},     {kCannyMagnitude, "magnitude"},
                                       {kCannyDirection, "direction"},   {kCannyMaxMagnitude, "largest"},
                                       {kCannySuppressed, "suppressed"}, {kCannyLabels, "labels"},
                                       {kCannyEdges, "edges"}};

std::vector<float> as_floats(const std::vector<uint8_t>& plane);
// A buffer of `stages` as floats, as raw results hold it (the largest magnitude: one value).
std::vector<float> plane_values(unsigned bit, const CannyStages& stages, float largest);

// width x height values against the expected ones, value for value (tolerance 0), as the image
// labs' check reports them; `tolerance` instead for the smoothing. Values of another count fail.
CheckResult check_values(const std::vector<float>& got, const std::vector<float>& want, int width, int height,
                         Tolerance tolerance = {}, int mask_radius = 1);

// One buffer's values against `want`'s: the smoothing within `smoothing` (mask radius `radius`),
// every other buffer exactly.
CheckResult check_canny_plane(unsigned bit, const std::vector<float>& got, const CannyStages& want, Tolerance smoothing, int radius);

// The buffers `writes` of `got` (its largest magnitude `largest`) against `want`'s: the smoothing
// within `smoothing` (mask radius `radius`), every other buffer exactly. The first buffer that
// differs (its name in *what), or a pass.
CheckResult check_canny_planes(unsigned writes, const CannyStages& got, float largest, const CannyStages& want, Tolerance smoothing,
                               int radius, std::string* what);

}  // namespace convlab

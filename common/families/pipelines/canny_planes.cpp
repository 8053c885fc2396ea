// convlab harness — do not edit in a lab.
#include "common/families/pipelines/canny_planes.hpp"

namespace convlab {

std::vector<float> as_floats(const std::vector<uint8_t>& plane) { return std::vector<float>(plane.begin(), plane.end()); }

std::vector<float> plane_values(unsigned bit, const CannyStages& stages, float largest) {
    switch (bit) {
        case kCannySmoothed: return stages.smoothed;
        case kCannyMagnitude: return stages.magnitude;
        case kCannyDirection: return as_floats(stages.direction);
        case kCannyMaxMagnitude: return {largest};
        case kCannySuppressed: return stages.suppressed;
        case kCannyLabels: return as_floats(stages.labels);
        default: return as_floats(stages.edges);
    }
}

CheckResult check_values(const std::vector<float>& got, const std::vector<float>& want, int width, int height, Tolerance tolerance,
                         int mask_radius) {
    if (got.size() != want.size()) {
        CheckResult c;
        c.values = c.bad = want.size();
        return c;
    }
    return check_output(got.data(), want.data(), width, height, 1, tolerance, mask_radius, {});
}

CheckResult check_canny_plane(unsigned bit, const std::vector<float>& got, const CannyStages& want, Tolerance smoothing, int radius) {
    const std::vector<float> expected = plane_values(bit, want, want.largest);
    const bool one = bit == kCannyMaxMagnitude;
    const int w = one ? 1 : want.width, h = one ? 1 : want.height;
    return bit == kCannySmoothed ? check_values(got, expected, w, h, smoothing, radius) : check_values(got, expected, w, h);
}

CheckResult check_canny_planes(unsigned writes, const CannyStages& got, float largest, const CannyStages& want, Tolerance smoothing,
                               int radius, std::string* what) {
    CheckResult c;
    c.passed = true;
    for (const BufferName& b : kBufferNames) {
        if (!(writes & b.bit)) continue;
        c = check_canny_plane(b.bit, plane_values(b.bit, got, largest), want, smoothing, radius);
        if (!c.passed) {
            *what = b.name;
            return c;
        }
    }
    return c;
}

}  // namespace convlab

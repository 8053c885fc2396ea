// convlab harness — do not edit in a lab.
// What every kernel of the Canny lab (lab 8) receives: the image's shape, the border rule, and
// one device buffer for each stage's output (canny.hpp defines the stages). The harness owns the
// buffers and fills every output with poison before a stage runs, so a value a stage leaves
// unwritten fails the check.
#pragma once
#include <cstddef>
#include <cstdint>

#include "common/families/pipelines/canny_rules.hpp"
#include "common/core/conv_args.hpp"

namespace convlab {

struct CannyArgs {
    int width = 0;
    int height = 0;
    Border border = Border::Clamp;  // the rule of the filters' taps (stage 1, and the Sobel taps of stage 2)

    // Stage 1, smoothing, through lab 6's separable kernels: d_in the grey image, d_out the
    // smoothed image (d_smoothed below), d_scratch a float per pixel for a two-pass intermediate,
    // the Gaussian's factors in lab 6's constant memory (copy_factors_to_constant).
    ConvArgs smoothing;

    const float* d_smoothed = nullptr;  // stage 1's result (smoothing.d_out), stage 2's input
    float* d_magnitude = nullptr;       // stage 2: gradient_magnitude()
    uint8_t* d_direction = nullptr;     // stage 2: quantise_direction(), as EdgeDirection values
    // Stage 2 also gives the largest magnitude, for relative thresholds: the bits of the largest
    // float (0 before the stage runs). The bits of non-negative floats order as the floats do, so
    // atomicMax on them takes the largest.
    unsigned* d_max_magnitude = nullptr;
    float* d_suppressed = nullptr;      // stage 3: suppress()
    uint8_t* d_labels = nullptr;        // stage 4: threshold_label(), as EdgeLabel values
    uint8_t* d_edges = nullptr;         // stage 5: 255 for an edge, 0 otherwise

    // Stage 4's thresholds as given: magnitudes, or with `relative` fractions of the largest
    // magnitude, each resolved by one float product (low * largest), as the reference does.
    float low = 0.1f;
    float high = 0.2f;
    bool relative = true;

    int* d_rounds = nullptr;      // stage 5: the global rounds its propagation took (one int), for the report
    void* d_workspace = nullptr;  // stage 5's scratch: kCannyWorkspaceBytesPerPixel a pixel, plus 256 bytes
    size_t workspace_bytes = 0;

    CONVLAB_HD size_t pixels() const { return size_t(width) * height; }
};

// Stage 5's scratch (flags, a union-find's parents): room for one 32-bit word a pixel.
constexpr size_t kCannyWorkspaceBytesPerPixel = 4;

}  // namespace convlab

// convlab lab 8 driver — do not edit. Your work is in canny_gradients.cu and canny_hysteresis.cu;
// the smoothing is your lab 6 fused kernel.
#include "build/gen/lab8/manifest.hpp"
#include "common/families/pipelines/canny_lab.hpp"
#include "labs/lab6/lab6.hpp"
#include "labs/lab8/lab8.hpp"

namespace {

using namespace convlab;

CannyStage stage(const char* name, unsigned reads, unsigned writes, double bytes_per_pixel, void (*launch)(const CannyArgs&)) {
    return CannyStage{name, reads, writes, bytes_per_pixel, launch};
}

}  // namespace

int main(int argc, char** argv) {
    CannyLabSpec spec;
    spec.lab = spec_of(kManifest);  // number, title and student files: labs/lab8/manifest
    spec.lab.default_mask = "gauss:5:1.4";
    spec.lab.max_mask_size = kLab6MaxMaskSize;
    spec.lab.default_width = 4001;  // awkward on purpose: no multiple of a tile
    spec.lab.default_height = 3001;
    spec.lab.default_channels = 1;
    spec.lab.default_cpu_reps = 1;
    // Fractions of the largest magnitude. The synthetic image's largest is a sharp bright edge;
    // at 0.05 and 0.1 every shape's outline and the stripes show (at 0.1 and 0.2 half of them).
    spec.thresholds = {0.05f, 0.1f, true};
    // Byte models, per pixel: each input read once and each output written once (floats 4 B, the
    // direction, labels and edges 1 B). Hysteresis's: the labels read and the edges written, once
    // whatever its rounds.
    const CannyStage smoothing = stage("smoothing", 0, kCannySmoothed, 5, [](const CannyArgs& a) { launch_conv2d_fused(a.smoothing); });
    const CannyStage gradients = stage("gradients", kCannySmoothed, kCannyMagnitude | kCannyDirection | kCannyMaxMagnitude, 9,
                                       launch_canny_gradients);
    const CannyStage suppression = stage("suppression", kCannyMagnitude | kCannyDirection, kCannySuppressed, 9, launch_canny_suppression);
    const CannyStage fused = stage("gradients+suppression", kCannySmoothed, kCannySuppressed | kCannyMaxMagnitude, 8,
                                   launch_canny_gradients_suppression);
    const CannyStage thresholds = stage("thresholds", kCannySuppressed | kCannyMaxMagnitude, kCannyLabels, 5, launch_canny_thresholds);
    const CannyStage rounds = stage("hysteresis", kCannyLabels, kCannyEdges, 2, launch_hysteresis_rounds);
    const CannyStage union_find = stage("hysteresis", kCannyLabels, kCannyEdges, 2, launch_hysteresis_union_find);
    const auto prepare = [](const Mask& mask) { copy_factors_to_constant(mask); };  // lab 6's
    spec.pipelines = {
        {"staged", "lab 6's fused smoothing; gradients, then suppression; thresholds; hysteresis by rounds", prepare,
         {smoothing, gradients, suppression, thresholds, rounds}},
        {"fused", "gradients and suppression in one kernel from a shared-memory tile; hysteresis by rounds", prepare,
         {smoothing, fused, thresholds, rounds}},
        {"union-find", "as fused, with hysteresis by union-find (connected components)", prepare,
         {smoothing, fused, thresholds, union_find}},
    };
    // Lourenço 2011 (CUDA Canny for ITK, Tesla C2050): sigma 1.4 on Berkeley images tiled up to
    // B4 (2568 x 3848). Its thresholds (ITK's derivative units) do not carry over to Sobel's.
    // The spiral: one edge that enters tile after tile, for the rounds question.
    spec.lab.presets = {
        {"lourenco-2011-b4", "Lourenço 2011's largest base: 2568x3848 grey, Gaussian sigma 1.4 (K = 9)",
         {"--size", "2568x3848", "--mask", "gauss:9:1.4", "--low", "0.1", "--high", "0.2"}},
        {"spiral", "a 1024x1024 spiral, one edge strong only at its outer end: how many hysteresis rounds?",
         {"--image", "spiral", "--size", "1024", "--low", "0.1", "--high", "0.5", "--warmup", "1", "--reps", "5"}},
    };
    return run_canny_lab(argc, argv, spec);
}

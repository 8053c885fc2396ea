// convlab harness — do not edit in a lab.
// The Canny edge detector's CPU reference (lab 8): five stages, each a function of the previous
// stage's output, so that a GPU stage can be checked alone on the reference's input:
//   1. smoothing      a separable Gaussian, in float (canny_smooth)
//   2. gradients      Sobel, magnitude and quantised direction (canny_gradients)
//   3. suppression    non-maximum suppression along the direction (canny_suppress)
//   4. thresholds     strong, weak or none (canny_threshold)
//   5. hysteresis     weak pixels 8-connected to a strong one through weak ones become edges
// The per-pixel rules of stages 2 to 4 are in canny_rules.hpp, shared with the kernels. Stages 1
// to 4 give the same bits on any thread count; `threads` <= 0 uses every core.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/core/border.hpp"
#include "common/families/pipelines/canny_rules.hpp"
#include "common/core/image.hpp"
#include "common/core/mask.hpp"

namespace convlab {

// Stage 1. out(x, y) = the column pass of the row pass, both in float: the row pass sums
// row[j] * in(x + j - r, y) for j = 0 .. K - 1, the column pass col[i] * rows(x, y + i - r) for
// i = 0 .. K - 1, each as acc = fmaf(weight, value, acc) from acc = 0 in that order, taps outside
// the image by the border rule (a zero-border tap adds nothing). A GPU pass that accumulates in
// the same order with fmaf gets the same bits. The mask must be separable (gauss:K:SIGMA, box:K,
// ...); the image one channel (InputError otherwise).
void canny_smooth(const Image& grey, const Mask& mask, Border border, float* out, int threads);

// Stage 2: sobel_gradient() on each pixel's 3x3 neighbourhood of the smoothed image (the border
// rule for the taps outside it), then gradient_magnitude() and quantise_direction() (stored as
// EdgeDirection values).
void canny_gradients(const float* smoothed, int width, int height, Border border, float* magnitude,
                     uint8_t* direction, int threads);

// Stage 3: suppress() at each pixel with its before and after neighbours along its direction
// (direction_step()); neighbours outside the image have magnitude 0.
void canny_suppress(const float* magnitude, const uint8_t* direction, int width, int height, float* suppressed,
                    int threads);

// Stage 4's thresholds: absolute magnitudes, or with `relative` fractions of the largest gradient
// magnitude of the image (stage 2's), resolved to absolute by one float product each.
struct CannyThresholds {
    float low = 0.1f, high = 0.2f;
    bool relative = true;
};
// The largest of `count` gradient magnitudes (never negative), on `threads` cores (<= 0: every
// core); 0 for none.
float largest_magnitude(const float* magnitude, size_t count, int threads);

// The absolute thresholds; InputError unless 0 < low <= high. The largest magnitude is found on
// `threads` cores.
CannyThresholds absolute_thresholds(CannyThresholds t, const float* magnitude, size_t count, int threads = 0);
// The same from the largest magnitude, already found.
CannyThresholds absolute_thresholds(CannyThresholds t, float largest);

// Stage 4: threshold_label() of each suppressed magnitude (EdgeLabel values); thresholds absolute.
void canny_threshold(const float* suppressed, size_t count, CannyThresholds absolute, uint8_t* labels, int threads);

// Stage 5: 255 for an edge (a strong pixel, or a weak one joined to a strong one by a path of
// weak pixels, each step to one of the 8 neighbours), 0 otherwise. A flood fill from the strong
// pixels, each pixel pushed at most once: linear in the pixels, on one core.
void canny_hysteresis(const uint8_t* labels, int width, int height, uint8_t* edges);

// The same edges on `threads` cores (<= 0: every core): the rows cut into bands, each band flood
// filled from its own strong pixels in parallel; then, on one core, one flood over the whole image
// from the weak pixels next to an edge across a band boundary, which a band's own flood cannot
// reach. Returns the pixels that last flood marked: the edges carried across boundaries. (Rounds
// of parallel floods across the boundaries, as the GPU does, took one round a crossing: thousands
// of parallel regions on a spiral, whose barriers on a busy machine cost more than the flood.)
size_t canny_hysteresis_omp(const uint8_t* labels, int width, int height, uint8_t* edges, int threads);

// Every stage's output, as the lab checks and draws them.
struct CannyStages {
    int width = 0, height = 0;
    std::vector<float> smoothed, magnitude, suppressed;
    std::vector<uint8_t> direction, labels, edges;
    float largest = 0;           // stage 2's largest magnitude
    CannyThresholds thresholds;  // absolute
};
CannyStages canny_reference(const Image& grey, const Mask& mask, Border border, CannyThresholds thresholds,
                            int threads);
// The last stage a caller needs the reference of: the planes of later stages are left empty.
// The grader's timer makes a fresh input for every repetition it times, and one stage's
// (lab 8's gradients) needs only the first two of the five (canny_peer.hpp).
enum class CannyLastStage { Smoothing, Gradients, Suppression, Thresholds, Hysteresis };
// The same into `stages`, whose planes are resized only when the image's size differs from theirs:
// run again on the same size it allocates nothing, as a timed GPU pipeline reuses its buffers
// (allocating and first touching the six planes cost twice the five stages at 8192x8192).
// Gradients and after also give the largest magnitude, thresholds and after the absolute thresholds.
void canny_reference_into(const Image& grey, const Mask& mask, Border border, CannyThresholds thresholds, int threads,
                          CannyStages& stages, CannyLastStage last = CannyLastStage::Hysteresis);
// Stages 2 to 5 (to `last`) on stages.smoothed (width x height values, as given): the rest of the
// planes and the absolute thresholds. A pipeline whose smoothing differs from the reference's by
// rounding is checked by this on its own smoothing.
void canny_after_smoothing(Border border, CannyThresholds thresholds, int threads, CannyStages& stages,
                           CannyLastStage last = CannyLastStage::Hysteresis);

// An edge map against the reference's (each 0 or not): TP edge in both, FN in the reference only,
// FP in the tested map only; NI and NB the tested map's and the reference's edge counts. The
// shares are of max(NI, NB): found (Pco = TP / max), not detected (Pnd = FN / max), false alarms
// (Pfa = FP / max). Two maps without edges agree: Pco = 1, Pnd = Pfa = 0.
struct EdgeAgreement {
    size_t tp = 0, fn = 0, fp = 0, ni = 0, nb = 0;
    double pco = 1, pnd = 0, pfa = 0;
};
EdgeAgreement compare_edges(const uint8_t* tested, const uint8_t* reference, size_t count);

}  // namespace convlab

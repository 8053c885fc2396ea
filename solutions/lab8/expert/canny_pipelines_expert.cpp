// Lab 8's expert tier as pipelines: the driver's three (labs/lab8/main.cpp), built from the tuned
// stages (canny_expert.hpp), the design's thresholds and union-find (labs/lab8/lab8.hpp: the same
// code the tuned tier had) and lab 6's tuned fused kernel for the smoothing (lab 6's expert
// tier, which the Makefile links here as lab 8 uses lab 6), with the driver's byte models. Rows
// staged-expert, fused-expert and union-find-expert of the reference solution's program only
// (common/runner/expert_tier.hpp); the grader's reference is the design's pipelines.
#include "common/families/pipelines/canny_lab.hpp"
#include "common/runner/expert_tier.hpp"
#include "labs/lab8/lab8.hpp"
#include "solutions/lab6/expert/conv2d_separable_expert.hpp"
#include "solutions/lab8/expert/canny_expert.hpp"

namespace lab8_expert {
namespace {

using namespace convlab;

CannyStage stage(const char* name, unsigned reads, unsigned writes, double bytes_per_pixel, void (*launch)(const CannyArgs&)) {
    return CannyStage{name, reads, writes, bytes_per_pixel, launch};
}

// The driver's stages and byte models, each launching the tuned kernels where there are any.
const CannyStage smoothing = stage("smoothing", 0, kCannySmoothed, 5, [](const CannyArgs& a) { lab6_expert::launch_conv2d_fused(a.smoothing); });
const CannyStage gradients = stage("gradients", kCannySmoothed, kCannyMagnitude | kCannyDirection | kCannyMaxMagnitude, 9,
                                   launch_canny_gradients);
const CannyStage suppression = stage("suppression", kCannyMagnitude | kCannyDirection, kCannySuppressed, 9, launch_canny_suppression);
const CannyStage fused = stage("gradients+suppression", kCannySmoothed, kCannySuppressed | kCannyMaxMagnitude, 8,
                               launch_canny_gradients_suppression);
const CannyStage thresholds = stage("thresholds", kCannySuppressed | kCannyMaxMagnitude, kCannyLabels, 5, ::launch_canny_thresholds);
const CannyStage rounds = stage("hysteresis", kCannyLabels, kCannyEdges, 2, launch_hysteresis_rounds);
const CannyStage union_find = stage("hysteresis", kCannyLabels, kCannyEdges, 2, ::launch_hysteresis_union_find);
const auto prepare = [](const Mask& mask) { lab6_expert::copy_factors_to_constant(mask); };

const ExpertVariant<CannyPipeline> staged_expert{
    {"staged-expert", "the staged pipeline tuned: band walks, lab 6's tuned smoothing, hysteresis rounds in warp registers", prepare,
     {smoothing, gradients, suppression, thresholds, rounds}}};
const ExpertVariant<CannyPipeline> fused_expert{
    {"fused-expert", "the fused pipeline tuned: gradients and suppression in one walk down bands of 128 columns", prepare,
     {smoothing, fused, thresholds, rounds}}};
const ExpertVariant<CannyPipeline> union_find_expert{
    {"union-find-expert", "as fused-expert, with hysteresis by union-find", prepare, {smoothing, fused, thresholds, union_find}}};

}  // namespace
}  // namespace lab8_expert

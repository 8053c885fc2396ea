// Lab 8's expert tier: the tuned stages (canny_gradients_expert.cu, canny_hysteresis_expert.cu),
// functions that labs/lab8/lab8.hpp declares too, in a namespace of their own so that they sit
// beside the design tier's in the reference solution's program. canny_pipelines_expert.cpp builds
// the expert pipelines from them and from the design's thresholds and union-find, which the
// tuning left as they were.
#pragma once
#include "common/families/pipelines/canny_args.hpp"

namespace lab8_expert {

void launch_canny_gradients(const convlab::CannyArgs& a);
void launch_canny_suppression(const convlab::CannyArgs& a);
void launch_canny_gradients_suppression(const convlab::CannyArgs& a);
void launch_hysteresis_rounds(const convlab::CannyArgs& a);

}  // namespace lab8_expert

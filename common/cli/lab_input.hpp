// convlab harness — do not edit in a lab.
// An image lab's input, as its options ask: a generated image (synthetic, random, bright, spiral, lines)
// or a file, repeated to --tile-to's size; and how the report names it.
#pragma once
#include <string>

#include "common/core/image.hpp"
#include "common/cli/options.hpp"
#include "common/report/report.hpp"

namespace convlab {

// A generated image has options.channels channels, or default_channels when the option is not
// given; a file keeps its own unless --channels converts it. Throws InputError for a bad file.
Image make_lab_input(const Options& options, int default_channels, std::string* source);

// The header of a report on one image (every image lab): the run's options, the input as `source`
// names it, its shape, each mask of the run (one, or a sweep's) with its direct sum's tolerance,
// the border. A lab adds what is its own (other tolerances, rules, its baseline).
Report report_of_image_run(int lab, const std::string& title, const Options& options, const std::string& source, const Image& image);

// A lab with CPU variants (filters, pipelines): the header's CPU repetitions, and under --demo
// the note that each is timed once (a lab without them, lab 9, says neither).
void report_cpu_reps(Report& report, const Options& options);
// The note that --demo timed each GPU variant fewer times than usual, where it did: a lab with GPU
// variants says it.
void report_demo_gpu_reps(Report& report, const Options& options);

}  // namespace convlab

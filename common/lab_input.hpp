// convlab harness — do not edit in a lab.
// An image lab's input, as its options ask: a generated image (synthetic, random, bright, spiral, lines)
// or a file, repeated to --tile-to's size; and how the report names it.
#pragma once
#include <string>

#include "common/image.hpp"
#include "common/options.hpp"

namespace convlab {

// A generated image has options.channels channels, or default_channels when the option is not
// given; a file keeps its own unless --channels converts it. Throws InputError for a bad file.
Image make_lab_input(const Options& options, int default_channels, std::string* source);

}  // namespace convlab

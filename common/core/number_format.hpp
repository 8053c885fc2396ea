// convlab harness — do not edit in a lab.
// The number formats every report and message uses.
#pragma once
#include <cstddef>
#include <string>

namespace convlab {

std::string format_fixed(double value, int decimals);
// Decimals that keep three significant figures for typical magnitudes.
std::string format_sig3(double value);
// Bytes as "1.25 GiB", for memory messages.
std::string format_gib(size_t bytes);
// Bytes in the largest binary unit they fill, three significant figures: "33 B", "11.1 KiB",
// "2.00 GiB" (lab 9's budgets run from a few bytes to gigabytes).
std::string format_bytes(double bytes);

}  // namespace convlab

// convlab harness — do not edit in a lab.
// The one parser of whole numbers, of real numbers and the one list splitter, for options and
// mask specs alike.
// Each throws InputError with one line naming `what` (an option, or "mask 'SPEC': size").
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace convlab {

long long parse_whole(const std::string& text, const std::string& what);
int parse_count(const std::string& text, const std::string& what, long long lo, long long hi);

// The whole of text as a finite float (or double), or false: no number, trailing characters,
// out of the type's range, infinite or NaN. The caller says what was expected.
bool read_finite(const std::string& text, float* value);
bool read_finite(const std::string& text, double* value);

// A memory size: a whole number of bytes with an optional unit (B, KiB, MiB, GiB, TiB, or the
// decimal kB, MB, GB, TB), "1.5GiB" allowed, or a share of `total` bytes ("25%", from above 0 to
// 100). Rounded down to whole bytes; InputError naming `what` for anything else, or for 0 bytes.
// total_name: how the refusal names `total` ("the GPU's memory"); empty: its bytes.
size_t parse_memory_size(const std::string& text, size_t total, const std::string& what, const std::string& total_name = "");

// "a,b" -> {a, b}; an empty item is kept ("a,,b", "a," and ",a" each give one), so that whoever
// reads the items refuses it by name instead of a slip passing unseen. "" -> {}.
std::vector<std::string> split_list(const std::string& text, char separator = ',');

}  // namespace convlab

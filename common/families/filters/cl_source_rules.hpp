// convlab harness — do not edit in a lab.
// What a student's .cl file may not do before it reaches the OpenCL compiler. The file is the
// student's whole submission in an OpenCL lab, and the compiler runs in the graded process: an
// #include (or #import) would let it read files of the machine it is graded on at compile time
// (the reference solution's kernel, say), so no .cl file of a lab may name another file.
#pragma once
#include <string>

namespace convlab {

// "" when `source` has no #include or #import directive; else one line naming the first, as
// "<shown>:<line>: ...". Sees through what the preprocessor would: backslash-newline joins,
// comments, spaces between '#' and the word, and the "??=" and "%:" spellings of '#'.
std::string forbidden_directive(const std::string& source, const std::string& shown);

}  // namespace convlab

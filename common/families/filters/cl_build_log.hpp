// convlab harness — do not edit in a lab.
// An OpenCL compiler's build log, read into the one line a student sees: the first error, named by
// the student's file and line, and how many errors there were. Compilers differ in how they name
// the place: PoCL's honours the #line the kit puts before the student's file; NVIDIA's ignores it
// and counts lines from the top of the whole text it was given, naming no file ("<kernel>").
#pragma once
#include <string>

namespace convlab {

// One log line, its place given as the student's file (shown) and line when the compiler named
// none ("<kernel>:LINE:COLUMN: ..."): LINE less skipped_lines, the lines the kit put before the
// student's file. A line that names a file, or a place inside the kit's lines, is left as it is.
std::string in_students_file(const std::string& line, const std::string& shown, int skipped_lines);

// One error line in the form PoCL's compiler and the kit's own refusals write it,
// "error: FILE:LINE:COLUMN: what", from the form NVIDIA's writes, "FILE:LINE:COLUMN: error: what";
// any other line as it is.
std::string error_first(const std::string& line);

// The log as one line: "<first error> (OpenCL build log: N errors)", the error as error_first
// writes it, in the student's file (in_students_file); a log with no "error:" gives its first line
// that says something, prefixed with the file's name.
std::string first_build_error(const std::string& log, const std::string& shown, int skipped_lines);

}  // namespace convlab

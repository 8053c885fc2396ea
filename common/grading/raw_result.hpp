// convlab harness — do not edit in a lab.
// Raw results for the grader: float32, native byte order, interleaved channels, no header. The
// lab under test writes them (--raw-out); a separate trusted run checks them (--compare).
#pragma once
#include <cstddef>
#include <set>
#include <string>
#include <vector>

namespace convlab {

// "B read-swapped" -> "B_read-swapped.f32": letters, digits and '-' kept, anything else '_'.
std::string raw_file_name(const std::string& variant);
// The file of result `name` in folder dir: the one place a result's name becomes a path.
std::string raw_result_path(const std::string& dir, const std::string& name);
// The name a variant's end-to-end part (lab 1's host function) writes its result under.
std::string end_to_end_result_name(const std::string& variant);

// Writes through a temporary file and a rename, so a reader never sees half a result.
void write_raw_bytes(const std::string& path, const char* data, size_t bytes);
void write_raw_floats(const std::string& path, const std::vector<float>& values);

// Reads at most max_bytes (whole floats, at most max_count), so that a huge file cannot exhaust
// the reader's memory. Throws InputError when the file cannot be read.
std::vector<char> read_raw_bytes(const std::string& path, size_t max_bytes);
std::vector<float> read_raw_floats(const std::string& path, size_t max_count);

// A folder of raw results as --compare reads it, in every lab: the file of each result the lab
// names, and the .f32 files no result is named by (strays), which a lab reports under their whole
// file name ("x.f32", never a result's name, which a stray could otherwise take over when that
// result's own file is missing): the arrays, the pipelines and the strips fail it
// (kStrayMessage); the image labs check it against the reference as a result of the direct sum
// (raw_check.hpp), a row the grader asks no submission for.
class RawFolder {
  public:
    // InputError in one line when `path` is not a folder.
    explicit RawFolder(const std::string& path);
    // The file of result `name` (raw_result_path), remembered as named.
    std::string file_of(const std::string& name);
    // The .f32 files of the folder that no file_of named: their whole file names, sorted.
    std::vector<std::string> strays() const;
    // The verdict on a stray file.
    static constexpr const char* kStrayMessage = "no result of this lab has this file's name";

  private:
    std::string path_;
    std::set<std::string> named_;
};

}  // namespace convlab

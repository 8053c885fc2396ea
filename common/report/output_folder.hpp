// convlab harness — do not edit in a lab.
// --out DIR: checked for writability before anything runs, written only at the end, each file
// through save_png's temporary-and-rename, so a failed run leaves no partial picture.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "common/check/check.hpp"
#include "common/core/image.hpp"

namespace convlab {

class OutputFolder {
  public:
    // Empty path: saving is off. Otherwise creates the folder if needed and proves it writable;
    // throws InputError when it cannot.
    explicit OutputFolder(std::string path);
    bool enabled() const { return !path_.empty(); }
    const std::string& path() const { return path_; }

    void save_image(const std::string& name, const Image& image) const;
    // The result rounded and clamped to 8 bits.
    void save_result(const std::string& name, const std::vector<float>& values, const Image& shape) const;
    // |got - ref| x 32, clamped; never-written (NaN) and infinite values white.
    void save_difference(const std::string& name, const std::vector<float>& got, const std::vector<float>& ref,
                         const Image& shape) const;
    // A text file (the run's report.json), written whole or not at all.
    void save_text(const std::string& file, const std::string& text) const;

    // Saves (calls of the functions above), each its own file, run on every core: stb took 0.9 s
    // to encode a 4096x4096 colour PNG here (2 cores, Debian 12), and a --demo run saves dozens,
    // most of a minute one at a time at that rate. The first failure is thrown once all have ended.
    static void save_side_by_side(const std::vector<std::function<void()>>& saves);

  private:
    std::string path_;
};

// A picture's file name from its name (a variant's, with "-k15" or "-diff"): every character other
// than letters, digits, '.', '_' and '-' becomes '-', runs of '-' one, none at either end, so a
// shell takes the name without quoting ("naive (lab 1)-k15" -> "naive-lab-1-k15.png").
std::string shell_safe_file_name(const std::string& name);

}  // namespace convlab

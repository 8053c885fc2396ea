// convlab harness — do not edit in a lab.
// The command line of the image labs (0 to 4). `./labN --help` prints it.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/core/border.hpp"
#include "common/core/mask.hpp"
#include "common/cli/run_options.hpp"
#include "common/core/text_parse.hpp"

namespace convlab {

struct LabSpec;

// --demo's image, at a lecture's pace (issue 43: 10 s a lab on an H100; on a 4096x4096 scene labs
// 4, 6, 7, 8 and 12 took 17 to 56 s there) and still more pixels than a projector shows.
constexpr const char* kDemoSize = "2048x2048";

// An image lab's command line: the shared options (run_options.hpp) and its input's.
struct Options : RunOptions {
    std::string image = "synthetic";  // "synthetic", "random" or a file
    int width = 0, height = 0;        // of a generated image
    int channels = 0;                 // 0: the file's own (1 or 3); generated images use the lab's default
    int tile_width = 0, tile_height = 0;
    std::vector<Mask> masks;  // --mask: one, or a sweep; parsed and checked against the lab's sizes here, once
    Border border = Border::Zero;
    std::vector<int> threads;  // lab 0's sweep
    int cpu_reps = 3;
    std::string out_dir;
    bool demo = false;
    bool demo_gpu_reps = false;  // --demo set --reps and --warmup to its own (neither given)
    std::string preset;        // --preset: its name (its options are already applied)
    bool fresh_input = false;  // grading: a new random input for every timed rep (seed + 1 + rep), so no answer can be replayed
    std::map<std::string, std::string> lab_values;  // LabSpec::lab_options, by name: as typed, or the default
};

// Throws InputError with one line for every bad option or value.
Options parse_options(int argc, char** argv, const LabSpec& spec);

// The same for a lab that runs one mask (labs 8 and 9): a sweep of masks and fresh inputs
// refused too (their peer timers make each repetition's input). "lab 8 smooths with one mask, not
// a sweep of 2; accepted: --mask gauss:K:SIGMA": `verb` is "smooths with", `accepted` the last part.
Options parse_one_mask_options(int argc, char** argv, const LabSpec& spec, const std::string& verb, const std::string& accepted);
// "WxH" or "N" (N x N), each side 1..kMaxImageSide. Throws InputError naming `what`.
void parse_size(const std::string& text, const std::string& what, int* width, int* height);

// 1, 2, 4, ... up to 2 x cores, with the core count itself included.
std::vector<int> default_thread_counts(int cores);

}  // namespace convlab

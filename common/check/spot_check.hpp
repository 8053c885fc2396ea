// convlab harness — do not edit in a lab.
// Every timed run's result, spot-checked. The full check sees the first run (and, without fresh
// inputs, the last); a variant that knows which runs those are could compute right on them and
// skip work on the others. So after every timed run, warm-ups included, values at positions
// drawn only then are compared with the reference computed at those positions alone. The
// positions come from the operating system's entropy, never from the command line or the seed,
// so a run cannot know which of its values will be looked at; half of them lie within the mask's
// radius of the image's edge, where a skipped border rule shows.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/check/check.hpp"

namespace convlab {

struct SpotChecks {
    int runs = 0;            // runs checked
    int values_per_run = 0;
    int failed_runs = 0;     // runs with at least one value outside the tolerance (or never written)
    std::string first_failure;  // "run 7: (x=.., y=.., channel ..): got .., expected .."
};

class SpotChecker {
  public:
    static constexpr int kValuesPerRun = 1024;

    SpotChecker(int width, int height, int channels, int mask_radius, Tolerance tolerance);

    // Positions (indices into the row-major, channel-interleaved result) for the run that has
    // just ended, drawn now.
    const std::vector<size_t>& draw();
    // got[n]: that run's value at draw()'s position n; expected(index): the reference there (NaN:
    // a position the variant does not write, not compared).
    void check(int run, const float* got, const std::function<double(size_t)>& expected);

    const SpotChecks& result() const { return result_; }

  private:
    uint64_t next();
    size_t edge_position();

    int width_, height_, channels_, depth_;
    Tolerance tolerance_;
    uint64_t state_;
    std::vector<size_t> positions_;
    SpotChecks result_;
};

// A graded run (--raw-out, the grader's build) holds no reference to spot-check against, so it
// records instead: each timed run's drawn positions and values, with the seed of that run's input
// (0: the case's own input, without fresh inputs). The trusted checker (--compare, which has the
// reference) then checks the record as SpotChecker::check would have (check_spot_record). The
// record is written by the harness in the run's own process: code that rewrites that process's
// files or memory after the fact could forge it, as it could its times; where the grader's own
// timer checks every repetition (labs 1 to 7, peer_timer.hpp), it does not rely on the record.
struct SpotValue {
    uint64_t seed = 0;
    uint64_t index = 0;
    float value = 0;
};

class SpotRecord {
  public:
    void add(uint64_t seed, const std::vector<size_t>& positions, const float* values);
    // Raw bytes beside the result (spot_record_path): a SpotValue each, as laid out in memory.
    void write(const std::string& path) const;

  private:
    std::vector<SpotValue> values_;
};

// The record of result `result_name` in folder `dir`: beside its raw result, "NAME.f32.spots".
std::string spot_record_path(const std::string& dir, const std::string& result_name);

// The check of a record read from `path`, of a timed run with fresh inputs: exactly `runs` runs
// (every one the run made: warm-ups and repetitions), whose seeds are last_seed - runs + 1 ..
// last_seed, each with kValuesPerRun values at positions inside the result (`values` of them);
// expected(seed, index) the reference there (NaN: not compared). Empty when right, else why not,
// in one line.
std::string check_spot_record(const std::string& path, uint64_t last_seed, int runs, size_t values, Tolerance tolerance,
                              const std::function<double(uint64_t, size_t)>& expected);

}  // namespace convlab

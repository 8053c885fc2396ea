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

#include "common/check.hpp"

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

}  // namespace convlab

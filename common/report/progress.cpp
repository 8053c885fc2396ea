// convlab harness — do not edit in a lab.
#include "common/report/progress.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace convlab {

namespace {
constexpr double kQuietSeconds = 1.0;  // a run shorter than this shows no progress at all

bool wanted() {
    const char* setting = std::getenv("CONVLAB_PROGRESS");
    if (setting && std::strcmp(setting, "0") == 0) return false;
    return ::isatty(STDERR_FILENO) == 1;
}
}  // namespace

Progress::Progress(int lab, int total) : enabled_(wanted()), lab_(lab), total_(total), start_(std::chrono::steady_clock::now()) {}

Progress::~Progress() {
    if (drawn_) std::fputs("\r\033[K", stderr);  // the report follows on a clean line
}

std::string Progress::line(int lab, const std::string& what, int done, int total, double seconds) {
    return "lab" + std::to_string(lab) + ": " + what + " (" + std::to_string(done) + " of " + std::to_string(total) + "), " +
           std::to_string(int(seconds)) + " s so far";
}

void Progress::step(const std::string& what) {
    ++done_;
    if (!enabled_) return;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (seconds < kQuietSeconds) return;
    // \r and "erase to the end of the line": the step before is overwritten, whatever its length.
    std::fprintf(stderr, "\r\033[K%s", line(lab_, what, done_, total_, seconds).c_str());
    std::fflush(stderr);
    drawn_ = true;
}

}  // namespace convlab

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

void Progress::step(const std::string& what) {
    ++done_;
    if (!enabled_) return;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (seconds < kQuietSeconds) return;
    // \r and "erase to the end of the line": the step before is overwritten, whatever its length.
    std::fprintf(stderr, "\r\033[Klab%d: %s (%d of %d), %d s so far", lab_, what.c_str(), done_, total_, int(seconds));
    std::fflush(stderr);
    drawn_ = true;
}

}  // namespace convlab

// convlab harness — do not edit in a lab.
// A long run's progress on stderr, for someone watching a terminal: one line, rewritten in place
// ("lab0: openmp, box:15 (7 of 10), 14 s so far") and cleared when the run ends. Nothing at all
// where stderr is not a terminal (CI, a pipe, a file: logs, and the report on stdout, stay as they
// were), nor before the run has taken a second (a short run shows nothing extra), nor with
// CONVLAB_PROGRESS=0 in the environment.
#pragma once
#include <chrono>
#include <string>

namespace convlab {

class Progress {
  public:
    Progress(int lab, int total);  // total: the steps the run will take
    ~Progress();                   // clears the line
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    void step(const std::string& what);  // the next step, starting now

  private:
    bool enabled_;
    int lab_, total_, done_ = 0;
    bool drawn_ = false;
    std::chrono::steady_clock::time_point start_;
};

}  // namespace convlab

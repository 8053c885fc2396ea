// convlab harness — do not edit in a lab.
// Counts the kernels a piece of host code launches, through CUPTI's callback API: a variant that
// is meant to run on the GPU but computes on the CPU launches none, and is told apart by that.
#pragma once
#include <atomic>
#include <string>

namespace convlab {

class LaunchCounter {
  public:
    LaunchCounter();   // starts counting, when CUPTI is there and free
    ~LaunchCounter();  // stops
    LaunchCounter(const LaunchCounter&) = delete;
    LaunchCounter& operator=(const LaunchCounter&) = delete;

    // False when nothing can be counted: the kit was built without CUPTI, or another tool
    // (compute-sanitizer, a profiler) already holds it. Then launches() says nothing.
    bool counting() const { return subscribed_; }
    int launches() const { return launches_; }
    // Why counting() is false, in a few words; empty while it counts.
    const std::string& problem() const { return problem_; }

  private:
    bool subscribed_ = false;
    std::string problem_;
    std::atomic<int> launches_{0};  // the callbacks may come from any thread the code starts
    void* subscriber_ = nullptr;
};

}  // namespace convlab

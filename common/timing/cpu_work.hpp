// convlab harness — do not edit in a lab.
// What a CPU variant's run cost in CPU time, thread by thread, so that its speed can be judged
// without the wall clock, which another program on a busy machine stretches. The critical path
// is the CPU time of the busiest thread: what the run would take on an idle machine with a core
// for each of its threads (waiting threads must sleep for this: OMP_WAIT_POLICY=passive, or
// OpenMP's spinning at a barrier counts as work). CPU time of threads that ended during the run,
// and of child processes it waited for, cannot be given a thread; it is added to the critical
// path whole, so hiding work there never makes a run look faster.
#pragma once
#include <map>
#include <sys/types.h>

namespace convlab {

struct CpuUsed {
    double critical_path_ms = 0;
    int busy_threads = 0;  // threads whose CPU time in the run was at least a tenth of the busiest's
};

// The CPU time this process has used so far, its ended threads and waited-for children included
// (the grader compares it with the jail's count of every process of the run).
double process_cpu_ms();

class CpuWork {
  public:
    CpuWork();  // the process's threads' CPU times now
    CpuUsed used() const;  // since construction

  private:
    std::map<pid_t, double> thread_ms_;
    double self_ms_ = 0, children_ms_ = 0;
};

}  // namespace convlab

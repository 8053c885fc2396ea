// convlab harness — do not edit in a lab.
#include "common/timing/cpu_work.hpp"

#include <dirent.h>
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <cstdlib>

namespace convlab {

namespace {

// Linux's CPU-time clock of one thread of this process (what pthread_getcpuclockid returns,
// built from the thread id, so that threads the harness did not start are measured too).
double thread_cpu_ms(pid_t tid) {
    const clockid_t clock = clockid_t((~unsigned(tid) << 3) | 6);  // per-thread, scheduler clock
    timespec t{};
    if (clock_gettime(clock, &t) != 0) return -1;  // the thread has ended
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

std::map<pid_t, double> threads_cpu_ms() {
    std::map<pid_t, double> times;
    if (DIR* tasks = opendir("/proc/self/task")) {
        while (const dirent* entry = readdir(tasks)) {
            const pid_t tid = pid_t(std::atoi(entry->d_name));
            if (tid <= 0) continue;
            const double ms = thread_cpu_ms(tid);
            if (ms >= 0) times[tid] = ms;
        }
        closedir(tasks);
    }
    return times;
}

double rusage_ms(int who) {
    rusage u{};
    getrusage(who, &u);
    return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-3;
}

}  // namespace

double process_cpu_ms() { return rusage_ms(RUSAGE_SELF) + rusage_ms(RUSAGE_CHILDREN); }

CpuWork::CpuWork()
    : thread_ms_(threads_cpu_ms()), self_ms_(rusage_ms(RUSAGE_SELF)), children_ms_(rusage_ms(RUSAGE_CHILDREN)) {}

CpuUsed CpuWork::used() const {
    const std::map<pid_t, double> now = threads_cpu_ms();
    double busiest = 0, live = 0;
    std::map<pid_t, double> spent;
    for (const auto& [tid, ms] : now) {
        const auto before = thread_ms_.find(tid);
        const double d = std::max(0.0, ms - (before == thread_ms_.end() ? 0.0 : before->second));
        spent[tid] = d;
        busiest = std::max(busiest, d);
        live += d;
    }
    // The process's total also holds threads that ended during the run; the two clocks differ by
    // rounding (microseconds), hence the small allowance before anything counts as unaccounted.
    const double ended = rusage_ms(RUSAGE_SELF) - self_ms_ - live;
    const double unaccounted = (ended > 0.05 ? ended : 0.0) + (rusage_ms(RUSAGE_CHILDREN) - children_ms_);
    CpuUsed used;
    used.critical_path_ms = busiest + unaccounted;
    for (const auto& [tid, d] : spent) used.busy_threads += d > 0 && d >= 0.1 * busiest;
    return used;
}

}  // namespace convlab

// The critical path of CPU work: the busiest thread's CPU time, whatever else the machine runs;
// work in threads that ended during the run counts whole.
#include <gtest/gtest.h>

#include <time.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "common/timing/cpu_work.hpp"

using namespace convlab;

namespace {

// Spins until this thread has used `ms` of CPU time (not wall time: a busy machine only delays it).
void burn_cpu_ms(double ms) {
    timespec start{}, now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
    volatile double sink = 0;
    do {
        for (int i = 0; i < 10000; ++i) sink = sink + 1e-9 * i;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    } while ((now.tv_sec - start.tv_sec) * 1e3 + (now.tv_nsec - start.tv_nsec) * 1e-6 < ms);
}

// OpenMP's worker threads, left by earlier tests of this process, spin for a while after their
// last parallel region before they sleep: CPU time that is not this test's. Let them settle.
void let_other_threads_settle() { std::this_thread::sleep_for(std::chrono::milliseconds(100)); }

}  // namespace

TEST(CpuWork, OneThreadsWorkIsItsCriticalPath) {
    let_other_threads_settle();
    const CpuWork work;
    burn_cpu_ms(30);
    const CpuUsed used = work.used();
    EXPECT_GE(used.critical_path_ms, 30);
    EXPECT_LT(used.critical_path_ms, 45);
    EXPECT_EQ(used.busy_threads, 1);
}

TEST(CpuWork, TwoThreadsSideBySideCountOnce) {
    let_other_threads_settle();
    std::mutex m;
    std::condition_variable cv;
    bool burnt = false, done = false;
    const CpuWork work;
    // The other thread burns its 30 ms, says so, and stays alive until used() has looked, so its
    // time is its own and not "a thread that ended".
    std::thread other([&] {
        burn_cpu_ms(30);
        std::unique_lock<std::mutex> lock(m);
        burnt = true;
        cv.notify_all();
        cv.wait(lock, [&] { return done; });
    });
    burn_cpu_ms(30);
    CpuUsed used;
    {
        std::unique_lock<std::mutex> lock(m);
        cv.wait(lock, [&] { return burnt; });
        used = work.used();
        done = true;
        cv.notify_all();
    }
    other.join();
    EXPECT_GE(used.critical_path_ms, 30);
    EXPECT_LT(used.critical_path_ms, 45) << "two threads of 30 ms each, side by side, are a 30 ms path, not 60";
    EXPECT_EQ(used.busy_threads, 2);
}

TEST(CpuWork, WorkOfAThreadThatEndedCountsWhole) {
    let_other_threads_settle();
    const CpuWork work;
    std::thread([] { burn_cpu_ms(40); }).join();  // gone before used() looks: its time cannot be given a thread
    const CpuUsed used = work.used();
    EXPECT_GE(used.critical_path_ms, 40);
}

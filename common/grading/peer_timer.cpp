// convlab harness — do not edit in a lab.
#include "common/grading/peer_timer.hpp"

#include <chrono>
#include <cmath>
#include <random>

#include "common/core/rng.hpp"

#include <unistd.h>

namespace convlab {

namespace {
constexpr double kReadyTimeoutS = 120;  // the worker's start: CUDA's initialisation, its own set-up
}

PeerTimer::PeerTimer(PeerLink& link, PeerTarget& target, PeerTimerPlan plan) : link_(link), target_(target), plan_(plan) {
    std::random_device entropy;
    salt_ = (uint64_t(entropy()) << 32) ^ entropy();
    PeerMessage buffers = PeerMessage::make(PeerKind::Buffers);
    const std::vector<int> fds = target_.share(buffers);
    try {
        link_.send(buffers, fds);
    } catch (...) {
        for (int fd : fds) ::close(fd);
        throw;
    }
    for (int fd : fds) ::close(fd);
    const PeerMessage ready = link_.receive(kReadyTimeoutS);
    if (ready.kind == PeerKind::Failed) throw PeerError("the program could not start: " + ready.text_string());
    if (ready.kind != PeerKind::Ready) throw PeerError("the program answered out of turn");
    try {
        target_.program_ready();
    } catch (const std::exception& e) {
        not_ready_ = e.what();
    }
}

// Every repetition of every variant gets an input of its own. With one set of seeds for all the
// variants a timer times, repetition n of each would see the same input, and a program could keep
// what one variant computed at repetition n and copy it as another's answer at repetition n: right
// where it is checked, at the speed of a copy (lab 6's known-bad fused-replays-two-pass).
uint64_t PeerTimer::seed_of(int variant, int rep) const { return hash4(salt_, 11, uint64_t(rep), uint64_t(variant)) >> 2; }

void PeerTimer::time_variant(const std::string& name, VariantResult& r) {
    using Clock = std::chrono::steady_clock;
    const auto fail = [&](const char* status, const std::string& why) {
        r.status = status;
        r.message = why;
    };
    // The worker's own word for a variant it could not run, as its report would give it.
    const auto worker_failed = [&](const PeerMessage& m) {
        const std::string text = m.text_string();
        for (const char* status : {"not-implemented", "skipped"})
            if (text.rfind(std::string(status) + ": ", 0) == 0) return fail(status, text.substr(std::string(status).size() + 2));
        fail("error", text);
    };
    const int variant = variants_timed_++;
    if (!not_ready_.empty()) return fail("fail", not_ready_);
    if (!target_.select(name)) return fail("error", "no variant '" + name + "' to time");
    try {
        link_.send(PeerMessage::make(PeerKind::Prepare, name));
        const PeerMessage prepared = link_.receive(plan_.answer_timeout_s);
        if (prepared.kind == PeerKind::Failed) return worker_failed(prepared);
        if (prepared.kind != PeerKind::Prepared) return fail("error", "the program answered out of turn");

        SpotChecker spots = target_.spot_checker();
        std::vector<float> sampled(SpotChecker::kValuesPerRun);
        std::vector<double> reported, measured;
        int host_clock = 0;
        const int runs = plan_.warmup + plan_.reps;
        for (int rep = 0; rep < runs; ++rep) {
            const uint64_t seed = seed_of(variant, rep);
            target_.prepare_input(seed);
            target_.poison();  // in place before the clock starts
            const auto start = Clock::now();
            target_.load_input(seed);
            PeerMessage go = PeerMessage::make(PeerKind::Go);
            go.rep = rep;
            link_.send(go);
            const PeerMessage done = link_.receive(plan_.answer_timeout_s);
            if (done.kind == PeerKind::Failed) return worker_failed(done);
            if (done.kind != PeerKind::Done || done.rep != rep) return fail("error", "the program answered out of turn");
            target_.sample(spots.draw(), sampled.data());  // waits for whatever the worker left running
            const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
            spots.check(rep, sampled.data(), [&](size_t i) { return target_.expected_at(seed, i); });
            // The lab's rules on the run, checked by the program off the clock (peer_worker.hpp).
            const PeerMessage ruled = link_.receive(plan_.answer_timeout_s);
            if (ruled.kind == PeerKind::Failed) return worker_failed(ruled);
            if (ruled.kind != PeerKind::Ruled || ruled.rep != rep) return fail("error", "the program answered out of turn");
            if (!std::isfinite(done.ms) || done.ms < 0)
                return fail("fail", "the program reported an impossible time for repetition " + std::to_string(rep));
            if (rep >= plan_.warmup) {
                reported.push_back(done.ms);
                measured.push_back(ms);
                host_clock += done.host_clock != 0;
            }
        }
        const std::string wrong = target_.check_output(seed_of(variant, runs - 1), r);
        r.status = wrong.empty() ? "pass" : "fail";
        r.message = wrong.empty() ? "the last repetition's result passed; every repetition spot-checked"
                                  : "the last timed repetition's result failed: " + wrong;
        r.spot_checks = spots.result();
        if (spots.result().failed_runs && r.status == "pass") {
            r.status = "fail";
            r.message = std::to_string(spots.result().failed_runs) + " of " + std::to_string(spots.result().runs) +
                        " timed repetitions were wrong where their results were spot-checked (" + spots.result().first_failure + ")";
        }
        r.time = summarize(reported);
        r.time->host_clock_samples = host_clock;
        r.peer_time = summarize(measured);
    } catch (const PeerError& e) {
        fail("error", std::string("timed by the grader's process: ") + e.what());
    }
}

void PeerTimer::finish() {
    try {
        link_.send(PeerMessage::make(PeerKind::End));
    } catch (const PeerError&) {
        // gone already: nothing more to tell it
    }
}

}  // namespace convlab

// convlab harness — do not edit in a lab.
#include "common/peer_timer.hpp"

#include <chrono>
#include <cmath>
#include <limits>
#include <random>

#include "common/errors.hpp"
#include "common/reference.hpp"
#include "common/rng.hpp"
#include "common/spot_check.hpp"
#include "common/synthetic.hpp"

#include <unistd.h>

namespace convlab {

namespace {
constexpr double kReadyTimeoutS = 120;  // the worker's start: CUDA's initialisation, its own set-up
constexpr float kPoison = std::numeric_limits<float>::quiet_NaN();
}

PeerTimer::PeerTimer(PeerLink& link, GpuSession& session, const Image& shape, const Mask& mask, Border border, PeerTimerPlan plan)
    : link_(link), session_(session), width_(shape.width), height_(shape.height), channels_(shape.channels), mask_(mask),
      border_(border), plan_(plan) {
    std::random_device entropy;
    salt_ = (uint64_t(entropy()) << 32) ^ entropy();
    const std::vector<int> fds = session_.share_buffers();
    PeerMessage buffers = PeerMessage::make(PeerKind::Buffers);
    buffers.bytes[0] = shape.elements() * sizeof(uint8_t);
    buffers.bytes[1] = shape.elements() * sizeof(float);
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
}

uint64_t PeerTimer::seed_of(int rep) const { return hash4(salt_, 11, uint64_t(rep), 0) >> 2; }

const std::vector<float>& PeerTimer::reference_of_last_rep() {
    if (last_reference_.empty()) {
        const Image input = make_random_image(width_, height_, channels_, seed_of(plan_.warmup + plan_.reps - 1));
        last_reference_.assign(input.elements(), kPoison);
        conv2d_cpu_omp(input, mask_, border_, last_reference_.data(), 0);
    }
    return last_reference_;
}

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
    try {
        link_.send(PeerMessage::make(PeerKind::Prepare, name));
        const PeerMessage prepared = link_.receive(plan_.answer_timeout_s);
        if (prepared.kind == PeerKind::Failed) return worker_failed(prepared);
        if (prepared.kind != PeerKind::Prepared) return fail("error", "the program answered out of turn");

        const Tolerance tolerance = tolerance_for(mask_);
        SpotChecker spots(width_, height_, channels_, mask_.radius(), tolerance);
        std::vector<float> sampled(SpotChecker::kValuesPerRun);
        std::vector<double> reported, measured;
        int host_clock = 0;
        for (int rep = 0; rep < plan_.warmup + plan_.reps; ++rep) {
            const uint64_t seed = seed_of(rep);
            session_.poison_output();
            session_.run([] {});  // the poison is in place before the clock starts
            const auto start = Clock::now();
            session_.run([&] {
                session_.load_random_input(seed);
                session_.flush_l2();
            });
            PeerMessage go = PeerMessage::make(PeerKind::Go);
            go.rep = rep;
            link_.send(go);
            const PeerMessage done = link_.receive(plan_.answer_timeout_s);
            if (done.kind == PeerKind::Failed) return worker_failed(done);
            if (done.kind != PeerKind::Done || done.rep != rep) return fail("error", "the program answered out of turn");
            session_.sample_output(spots.draw(), sampled.data());  // waits for whatever the worker left running
            const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
            spots.check(rep, sampled.data(), [&](size_t i) {
                return reference_value_of_seed(seed, width_, height_, channels_, mask_, border_, i);
            });
            if (!std::isfinite(done.ms) || done.ms < 0)
                return fail("fail", "the program reported an impossible time for repetition " + std::to_string(rep));
            if (rep >= plan_.warmup) {
                reported.push_back(done.ms);
                measured.push_back(ms);
                host_clock += done.host_clock != 0;
            }
        }
        std::vector<float> out(size_t(width_) * height_ * channels_, kPoison);
        session_.fetch_output(out.data());
        const CheckResult checked = check_output(out.data(), reference_of_last_rep().data(), width_, height_, channels_,
                                                 tolerance, mask_.radius(), {});
        r.check = checked;
        r.status = checked.passed ? "pass" : "fail";
        r.message = checked.passed ? "the last repetition's result passed; every repetition spot-checked"
                                   : "the last timed repetition's result failed: " + checked.summary();
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

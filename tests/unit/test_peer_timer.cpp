// The grader's timer (peer_timer.hpp) against a program on the other end of its socket, with no
// GPU: a fake target stands for the shared memory, a thread for the timed program. What it pins
// down is where the inputs come from: every repetition of every variant has one of its own, so a
// variant that replays what another computed at the same repetition is caught where it is checked.
#include <gtest/gtest.h>
#include <sys/socket.h>

#include <chrono>
#include <cmath>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "common/core/rng.hpp"
#include "common/grading/peer_timer.hpp"

using namespace convlab;

namespace {

constexpr int kValues = 256;

// The "shared memory": an input the timer loads, an output the program writes. The socket's
// messages order every access, the mutex keeps each one whole.
struct SharedMemory {
    std::mutex lock;
    std::vector<float> input = std::vector<float>(kValues);
    std::vector<float> output = std::vector<float>(kValues);
};

float input_value(uint64_t seed, size_t i) { return float(hash4(seed, 3, i, 0) >> 40); }
float answer(float in) { return 2 * in + 1; }

class FakeTarget : public PeerTarget {
  public:
    explicit FakeTarget(SharedMemory& memory) : memory_(memory) {}
    std::vector<int> share(PeerMessage&) override { return {}; }
    bool select(const std::string&) override { return true; }
    void poison() override {
        std::lock_guard<std::mutex> hold(memory_.lock);
        std::fill(memory_.output.begin(), memory_.output.end(), std::nanf(""));
    }
    void load_input(uint64_t seed) override {
        std::lock_guard<std::mutex> hold(memory_.lock);
        for (size_t i = 0; i < kValues; ++i) memory_.input[i] = input_value(seed, i);
        seeds.push_back(seed);
    }
    SpotChecker spot_checker() const override { return SpotChecker(kValues, 1, 1, 1, Tolerance{}); }
    void sample(const std::vector<size_t>& positions, float* values) override {
        std::lock_guard<std::mutex> hold(memory_.lock);
        for (size_t n = 0; n < positions.size(); ++n) values[n] = memory_.output[positions[n]];
    }
    double expected_at(uint64_t seed, size_t i) override { return answer(input_value(seed, i)); }
    std::string check_output(uint64_t seed, VariantResult&) override {
        std::lock_guard<std::mutex> hold(memory_.lock);
        for (size_t i = 0; i < kValues; ++i)
            if (memory_.output[i] != answer(input_value(seed, i))) return "value " + std::to_string(i) + " is wrong";
        return "";
    }

    // What the timer measures or holds once the program is ready (lab 9 holds the device): a
    // target that cannot throws the reason.
    void program_ready() override {
        ++ready_calls;
        if (!refuse_ready.empty()) throw std::runtime_error(refuse_ready);
    }

    std::vector<uint64_t> seeds;  // every repetition's, in order
    int ready_calls = 0;
    std::string refuse_ready;

  private:
    SharedMemory& memory_;
};

// The timed program: "honest" computes from the input it finds; "replay" computes nothing and
// copies what "honest" wrote at the same repetition, as a program that keeps one variant's
// results for another could; "slow-rules" is honest, and after each Done spends 300 ms on the
// lab's rules (as lab 9's records took), off the timer's clock; "breaks-rules" is honest, and its
// rules fail after the Done of its third repetition.
void serve(int fd, SharedMemory& memory) {
    PeerLink link(fd);
    std::map<int, std::vector<float>> kept;  // honest's output of each repetition
    std::string variant;
    try {
        for (;;) {
            const PeerMessage request = link.receive(10.0);
            if (request.kind == PeerKind::End) return;
            if (request.kind == PeerKind::Buffers) {
                link.send(PeerMessage::make(PeerKind::Ready));
            } else if (request.kind == PeerKind::Prepare) {
                variant = request.text_string();
                link.send(PeerMessage::make(PeerKind::Prepared));
            } else if (request.kind == PeerKind::Go) {
                {
                    std::lock_guard<std::mutex> hold(memory.lock);
                    if (variant != "replay") {
                        for (size_t i = 0; i < kValues; ++i) memory.output[i] = answer(memory.input[i]);
                        kept[request.rep] = memory.output;
                    } else if (kept.count(request.rep)) {
                        memory.output = kept[request.rep];
                    }
                }
                PeerMessage done = PeerMessage::make(PeerKind::Done);
                done.rep = request.rep;
                done.ms = 0.01;
                link.send(done);
                if (variant == "slow-rules") std::this_thread::sleep_for(std::chrono::milliseconds(300));
                if (variant == "breaks-rules" && request.rep == 2) {
                    link.send(PeerMessage::make(PeerKind::Failed, "the timed run broke the lab's rule: a stand-in's"));
                    continue;
                }
                PeerMessage ruled = PeerMessage::make(PeerKind::Ruled);
                ruled.rep = request.rep;
                link.send(ruled);
            }
        }
    } catch (const PeerError&) {
        // the timer went away: the test's own checks say what went wrong
    }
}

struct TimedRun {
    VariantResult honest, replay, slow_rules, breaks_rules;
    std::vector<uint64_t> seeds;
};

TimedRun time_both(int warmup, int reps) {
    int fds[2];
    EXPECT_EQ(::socketpair(AF_UNIX, SOCK_SEQPACKET, 0, fds), 0);
    SharedMemory memory;
    std::thread program(serve, fds[1], std::ref(memory));
    TimedRun run;
    {
        PeerLink link(fds[0]);
        FakeTarget target(memory);
        PeerTimer timer(link, target, PeerTimerPlan{warmup, reps, 10.0});
        timer.time_variant("honest", run.honest);
        timer.time_variant("replay", run.replay);
        run.seeds = target.seeds;
        timer.time_variant("slow-rules", run.slow_rules);
        timer.time_variant("breaks-rules", run.breaks_rules);
        timer.finish();
    }
    program.join();
    return run;
}

}  // namespace

TEST(PeerTimer, AnHonestVariantPassesEveryRepetition) {
    const TimedRun run = time_both(2, 5);
    EXPECT_EQ(run.honest.status, "pass") << run.honest.message;
    ASSERT_TRUE(run.honest.spot_checks.has_value());
    EXPECT_EQ(run.honest.spot_checks->runs, 7);
    EXPECT_EQ(run.honest.spot_checks->failed_runs, 0);
    ASSERT_TRUE(run.honest.time.has_value());
}

TEST(PeerTimer, EveryRepetitionOfEveryVariantHasAnInputOfItsOwn) {
    const TimedRun run = time_both(2, 5);
    ASSERT_EQ(run.seeds.size(), 14u);
    EXPECT_EQ(std::set<uint64_t>(run.seeds.begin(), run.seeds.end()).size(), run.seeds.size());
}

TEST(PeerTimer, AVariantReplayingAnotherVariantsAnswersFails) {
    const TimedRun run = time_both(2, 5);
    EXPECT_EQ(run.replay.status, "fail") << run.replay.message;
    ASSERT_TRUE(run.replay.spot_checks.has_value());
    EXPECT_EQ(run.replay.spot_checks->failed_runs, 7);  // every repetition, warm-ups included
}

TEST(PeerTimer, TheLabsRulesAreCheckedOffTheClock) {
    const TimedRun run = time_both(1, 3);
    EXPECT_EQ(run.slow_rules.status, "pass") << run.slow_rules.message;
    ASSERT_TRUE(run.slow_rules.peer_time.has_value());
    EXPECT_LT(run.slow_rules.peer_time->median_ms, 150.0);  // its 300 ms of rules a run are not on the clock
}

TEST(PeerTimer, ARunThatBreaksTheRulesAfterItsDoneFails) {
    const TimedRun run = time_both(1, 3);
    EXPECT_EQ(run.breaks_rules.status, "error");
    EXPECT_NE(run.breaks_rules.message.find("broke the lab's rule"), std::string::npos) << run.breaks_rules.message;
}

TEST(PeerTimer, ATargetThatCannotTakeTheProgramAsReadyFailsEveryVariantWithWhy) {
    int fds[2];
    ASSERT_EQ(::socketpair(AF_UNIX, SOCK_SEQPACKET, 0, fds), 0);
    SharedMemory memory;
    std::thread program(serve, fds[1], std::ref(memory));
    VariantResult honest, slow;
    int ready_calls = 0;
    {
        PeerLink link(fds[0]);
        FakeTarget target(memory);
        target.refuse_ready = "GPU 0 has only 12 MiB free";
        PeerTimer timer(link, target, PeerTimerPlan{1, 3, 10.0});
        timer.time_variant("honest", honest);
        timer.time_variant("slow-rules", slow);
        timer.finish();
        ready_calls = target.ready_calls;
        EXPECT_TRUE(target.seeds.empty());  // nothing was timed
    }
    program.join();
    EXPECT_EQ(ready_calls, 1);
    for (const VariantResult* r : {&honest, &slow}) {
        EXPECT_EQ(r->status, "fail");
        EXPECT_EQ(r->message, "GPU 0 has only 12 MiB free");
        EXPECT_FALSE(r->time.has_value());
    }
}

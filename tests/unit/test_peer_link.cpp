// The socket between the grader's timer and the program it times: whole messages, descriptors
// passed along, and every way the other side can misbehave turned into PeerError, never a hang.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <string>

#include "common/core/errors.hpp"
#include "common/grading/peer_link.hpp"

using namespace convlab;

namespace {

struct Pair {
    int fds[2] = {-1, -1};
    Pair() { EXPECT_EQ(::socketpair(AF_UNIX, SOCK_SEQPACKET, 0, fds), 0); }
};

}  // namespace

TEST(PeerLink, CarriesAMessageWithItsFields) {
    Pair p;
    PeerLink a(p.fds[0]), b(p.fds[1]);
    PeerMessage done = PeerMessage::make(PeerKind::Done, "tiled");
    done.rep = 7;
    done.ms = 0.25;
    done.host_clock = 1;
    a.send(done);
    const PeerMessage got = b.receive(1.0);
    EXPECT_EQ(got.kind, PeerKind::Done);
    EXPECT_EQ(got.rep, 7);
    EXPECT_EQ(got.ms, 0.25);
    EXPECT_EQ(got.host_clock, 1u);
    EXPECT_EQ(got.text_string(), "tiled");
}

TEST(PeerLink, PassesDescriptorsThatStillWork) {
    Pair p, pipe_ends;
    PeerLink a(p.fds[0]), b(p.fds[1]);
    PeerMessage buffers = PeerMessage::make(PeerKind::Buffers);
    buffers.bytes[0] = 12;
    a.send(buffers, {pipe_ends.fds[0]});
    std::vector<int> fds;
    const PeerMessage got = b.receive(1.0, &fds);
    EXPECT_EQ(got.bytes[0], 12u);
    ASSERT_EQ(fds.size(), 1u);
    EXPECT_NE(fds[0], pipe_ends.fds[0]);  // a new descriptor of the same socket
    ASSERT_EQ(::write(pipe_ends.fds[1], "x", 1), 1);
    char c = 0;
    EXPECT_EQ(::read(fds[0], &c, 1), 1);
    EXPECT_EQ(c, 'x');
    for (int fd : {fds[0], pipe_ends.fds[0], pipe_ends.fds[1]}) ::close(fd);
}

TEST(PeerLink, ANameTooLongIsCutNotOverflowed) {
    const PeerMessage m = PeerMessage::make(PeerKind::Failed, std::string(1000, 'a'));
    EXPECT_EQ(m.text_string().size(), sizeof m.text - 1);
}

TEST(PeerLink, SilenceEndsInATimeOut) {
    Pair p;
    PeerLink a(p.fds[0]), b(p.fds[1]);
    const auto start = std::chrono::steady_clock::now();
    EXPECT_THROW(b.receive(0.2), PeerError);
    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_GE(waited, 0.15);
    EXPECT_LT(waited, 5.0);
}

TEST(PeerLink, AClosedPeerIsAnError) {
    Pair p;
    PeerLink b(p.fds[1]);
    ::close(p.fds[0]);
    EXPECT_THROW(b.receive(1.0), PeerError);
    EXPECT_THROW(b.send(PeerMessage::make(PeerKind::End)), PeerError);
}

TEST(PeerLink, AMessageOfAnotherShapeIsRefused) {
    Pair p;
    PeerLink b(p.fds[1]);
    ASSERT_EQ(::write(p.fds[0], "short", 5), 5);  // too short
    EXPECT_THROW(b.receive(1.0), PeerError);
    PeerMessage wrong_magic = PeerMessage::make(PeerKind::Done);
    wrong_magic.magic = 1;
    ASSERT_EQ(::write(p.fds[0], &wrong_magic, sizeof wrong_magic), ssize_t(sizeof wrong_magic));
    EXPECT_THROW(b.receive(1.0), PeerError);
    PeerMessage wrong_kind = PeerMessage::make(PeerKind::Done);
    uint32_t kind = 99;
    std::memcpy(&wrong_kind.kind, &kind, sizeof kind);
    ASSERT_EQ(::write(p.fds[0], &wrong_kind, sizeof wrong_kind), ssize_t(sizeof wrong_kind));
    EXPECT_THROW(b.receive(1.0), PeerError);
    PeerMessage unterminated = PeerMessage::make(PeerKind::Failed);
    std::memset(unterminated.text, 'z', sizeof unterminated.text);
    ASSERT_EQ(::write(p.fds[0], &unterminated, sizeof unterminated), ssize_t(sizeof unterminated));
    EXPECT_EQ(b.receive(1.0).text_string().size(), sizeof unterminated.text - 1);
    ::close(p.fds[0]);
}

TEST(PeerLink, TheOptionTakesOnlyAnOpenSocket) {
    Pair p;
    EXPECT_EQ(peer_socket(std::to_string(p.fds[0]), "--timed-by"), p.fds[0]);
    int pipe_fds[2];
    ASSERT_EQ(::pipe(pipe_fds), 0);
    EXPECT_THROW(peer_socket(std::to_string(pipe_fds[0]), "--timed-by"), InputError);
    EXPECT_THROW(peer_socket("1", "--timed-by"), InputError);  // stdout: never the grader's socket
    EXPECT_THROW(peer_socket("4000", "--timed-by"), InputError);
    EXPECT_THROW(peer_socket("x", "--timed-by"), InputError);
    for (int fd : {p.fds[0], p.fds[1], pipe_fds[0], pipe_fds[1]}) ::close(fd);
}

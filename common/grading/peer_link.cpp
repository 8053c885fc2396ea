// convlab harness — do not edit in a lab.
#include "common/grading/peer_link.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "common/core/errors.hpp"
#include "common/core/text_parse.hpp"

namespace convlab {

namespace {
constexpr int kMaxFds = 8;  // lab 8 shares its grey and smoothed images and six buffers of stages 2 to 5
}

PeerMessage PeerMessage::make(PeerKind kind, const std::string& text) {
    PeerMessage m;
    m.kind = kind;
    std::strncpy(m.text, text.c_str(), sizeof(m.text) - 1);
    return m;
}

std::string PeerMessage::text_string() const { return std::string(text, strnlen(text, sizeof(text))); }

PeerLink::PeerLink(int fd) : fd_(fd) {}

PeerLink::~PeerLink() { ::close(fd_); }

void PeerLink::send(const PeerMessage& message, const std::vector<int>& fds) {
    iovec io{const_cast<PeerMessage*>(&message), sizeof message};
    msghdr header{};
    header.msg_iov = &io;
    header.msg_iovlen = 1;
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFds)] = {};
    if (!fds.empty()) {
        if (fds.size() > size_t(kMaxFds)) throw PeerError("too many descriptors for one message");
        header.msg_control = control;
        header.msg_controllen = CMSG_SPACE(sizeof(int) * fds.size());
        cmsghdr* c = CMSG_FIRSTHDR(&header);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
        std::memcpy(CMSG_DATA(c), fds.data(), sizeof(int) * fds.size());
    }
    ssize_t sent;
    do sent = ::sendmsg(fd_, &header, MSG_NOSIGNAL);
    while (sent < 0 && errno == EINTR);
    if (sent != ssize_t(sizeof message)) throw PeerError(std::string("the other process is gone (") + std::strerror(errno) + ")");
}

PeerMessage PeerLink::receive(double timeout_s, std::vector<int>* fds) {
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::duration<double>(timeout_s < 0 ? 0 : timeout_s);
    for (;;) {
        const long left_ms = timeout_s < 0 ? -1
                                           : std::max<long>(0, long(std::chrono::duration<double, std::milli>(deadline - Clock::now()).count()));
        pollfd p{fd_, POLLIN, 0};
        const int ready = ::poll(&p, 1, int(std::min<long>(left_ms, 1L << 30)));
        if (ready < 0 && errno == EINTR) continue;
        if (ready == 0) throw PeerError("no answer within " + std::to_string(timeout_s) + " s");
        if (ready < 0) throw PeerError(std::string("poll: ") + std::strerror(errno));
        break;
    }
    PeerMessage message;
    iovec io{&message, sizeof message};
    msghdr header{};
    header.msg_iov = &io;
    header.msg_iovlen = 1;
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFds)] = {};
    header.msg_control = control;
    header.msg_controllen = sizeof control;
    ssize_t got;
    do got = ::recvmsg(fd_, &header, MSG_CMSG_CLOEXEC);
    while (got < 0 && errno == EINTR);
    std::vector<int> received;
    for (cmsghdr* c = CMSG_FIRSTHDR(&header); c; c = CMSG_NXTHDR(&header, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
        const size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        const size_t at = received.size();
        received.resize(at + count);
        std::memcpy(received.data() + at, CMSG_DATA(c), count * sizeof(int));
    }
    const auto drop = [&] {
        for (int fd : received) ::close(fd);
    };
    if (got == 0) {
        drop();
        throw PeerError("the other process closed the connection");
    }
    if (got != ssize_t(sizeof message) || (header.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) || message.magic != PeerMessage().magic ||
        message.kind < PeerKind::Buffers || message.kind > PeerKind::Ruled) {
        drop();
        throw PeerError("a malformed message (" + std::to_string(got) + " bytes)");
    }
    message.text[sizeof message.text - 1] = '\0';
    if (fds) *fds = received;
    else drop();
    return message;
}

int peer_socket(const std::string& text, const std::string& option) {
    const long long fd = parse_whole(text, option);
    struct stat info {};
    if (fd < 3 || fd > 1 << 20 || ::fstat(int(fd), &info) != 0 || !S_ISSOCK(info.st_mode))
        throw InputError(option + " " + text + " is not an open socket; accepted: the descriptor of a socket the grader passed");
    return int(fd);
}

}  // namespace convlab

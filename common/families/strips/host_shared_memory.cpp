// convlab harness — do not edit in a lab.
#include "common/families/strips/host_shared_memory.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

namespace convlab {

namespace {
[[noreturn]] void fail(const std::string& what) { throw std::runtime_error(what + ": " + std::strerror(errno)); }
}  // namespace

HostSharedMemory HostSharedMemory::create(size_t bytes) {
    const int fd = memfd_create("convlab-peer", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) fail("memfd_create");
    // Sealed at its size: a program that shrank it would make the timer's reads fault.
    if (ftruncate(fd, off_t(bytes ? bytes : 1)) != 0 || fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
        const int saved = errno;
        ::close(fd);
        errno = saved;
        fail("sizing the shared host memory");
    }
    return mapped(fd, bytes);
}

HostSharedMemory HostSharedMemory::import(int fd, size_t bytes) {
    struct stat st {};
    if (fstat(fd, &st) != 0 || size_t(st.st_size) < bytes) {
        ::close(fd);
        throw std::runtime_error("the shared host memory holds less than the " + std::to_string(bytes) + " bytes it should");
    }
    return mapped(fd, bytes);
}

HostSharedMemory HostSharedMemory::mapped(int fd, size_t bytes) {
    void* data = mmap(nullptr, bytes ? bytes : 1, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (data == MAP_FAILED) {
        const int saved = errno;
        ::close(fd);
        errno = saved;
        fail("mapping the shared host memory");
    }
    HostSharedMemory m;
    m.fd_ = fd;
    m.data_ = data;
    m.bytes_ = bytes;
    return m;
}

int HostSharedMemory::export_fd() const {
    const int fd = fcntl(fd_, F_DUPFD_CLOEXEC, 0);
    if (fd < 0) fail("sharing host memory");
    return fd;
}

void HostSharedMemory::release() noexcept {
    if (data_) munmap(data_, bytes_ ? bytes_ : 1);
    if (fd_ >= 0) ::close(fd_);
    data_ = nullptr;
    fd_ = -1;
    bytes_ = 0;
}

HostSharedMemory::~HostSharedMemory() { release(); }

HostSharedMemory::HostSharedMemory(HostSharedMemory&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), data_(std::exchange(other.data_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}

HostSharedMemory& HostSharedMemory::operator=(HostSharedMemory&& other) noexcept {
    if (this != &other) {
        release();
        fd_ = std::exchange(other.fd_, -1);
        data_ = std::exchange(other.data_, nullptr);
        bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
}

}  // namespace convlab

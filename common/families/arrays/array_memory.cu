// convlab harness — do not edit in a lab.
#include "common/families/arrays/array_memory.hpp"

#include <unistd.h>

#include <string>
#include <vector>

#include "common/device/device_buffer.cuh"
#include "common/core/errors.hpp"
#include "common/device/shared_device_memory.hpp"

namespace convlab {

namespace {

// Each array's offset in one block, 256-byte aligned (every access width fits); the block's size last.
std::vector<size_t> block_layout(const std::vector<size_t>& sizes) {
    std::vector<size_t> offsets;
    size_t end = 0;
    for (size_t bytes : sizes) {
        offsets.push_back((end + 255) / 256 * 256);
        end = offsets.back() + bytes;
    }
    offsets.push_back(end);
    return offsets;
}

}  // namespace

struct ArrayMemory::Impl {
    Kind kind = Kind::Private;
    std::vector<DeviceBuffer<char>> own;  // Private: one per array
    SharedDeviceMemory shared;  // Exported, Imported
    int import_fd = -1;         // Imported, until provide() maps it
    size_t import_bytes = 0;
    size_t bytes = 0;

    ~Impl() {
        if (import_fd >= 0) ::close(import_fd);
    }
};

ArrayMemory::ArrayMemory(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ArrayMemory::~ArrayMemory() = default;
ArrayMemory::ArrayMemory(ArrayMemory&&) noexcept = default;
ArrayMemory& ArrayMemory::operator=(ArrayMemory&&) noexcept = default;

ArrayMemory ArrayMemory::separate_arrays() { return ArrayMemory(std::make_unique<Impl>()); }

ArrayMemory ArrayMemory::exported_block() {
    auto impl = std::make_unique<Impl>();
    impl->kind = Kind::Exported;
    return ArrayMemory(std::move(impl));
}

ArrayMemory ArrayMemory::imported_block(int fd, size_t bytes) {
    auto impl = std::make_unique<Impl>();
    impl->kind = Kind::Imported;
    impl->import_fd = fd;
    impl->import_bytes = bytes;
    return ArrayMemory(std::move(impl));
}

std::vector<void*> ArrayMemory::provide(const std::vector<size_t>& sizes) {
    Impl& m = *impl_;
    if (m.bytes) throw CudaError("an array lab's workspace asked for its device memory twice");
    std::vector<void*> arrays;
    if (m.kind == Kind::Private) {
        for (size_t bytes : sizes) {
            m.own.emplace_back(bytes);
            arrays.push_back(m.own.back().get());
            m.bytes += bytes;
        }
        return arrays;
    }
    const std::vector<size_t> layout = block_layout(sizes);
    const size_t total = layout.back();
    if (m.kind == Kind::Exported) {
        m.shared = SharedDeviceMemory::create(total);
    } else {
        if (total != m.import_bytes)
            throw CudaError("the timer's arrays (" + std::to_string(m.import_bytes) + " bytes) do not fit this run's (" +
                            std::to_string(total) + " bytes)");
        m.shared = SharedDeviceMemory::import(m.import_fd, total);
        m.import_fd = -1;  // taken by import
    }
    m.bytes = total;
    for (size_t k = 0; k < sizes.size(); ++k) arrays.push_back(static_cast<char*>(m.shared.get()) + layout[k]);
    return arrays;
}

size_t ArrayMemory::bytes() const { return impl_->bytes; }

int ArrayMemory::export_fd() const {
    if (impl_->kind != Kind::Exported || !impl_->bytes) throw CudaError("only an exported block that was provided can be shared");
    return impl_->shared.export_fd();
}

}  // namespace convlab

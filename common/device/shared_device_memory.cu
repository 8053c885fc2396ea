// convlab harness — do not edit in a lab.
#include "common/device/shared_device_memory.hpp"

#include <cuda.h>
#include <cuda_runtime.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "common/device/cuda_check.cuh"
#include "common/core/errors.hpp"

namespace convlab {
namespace {

// The virtual memory calls belong to the driver API. They are looked up through the runtime,
// so that no lab links libcuda itself (a machine without a GPU has only the toolkit's stub).
struct DriverCalls {
    decltype(&cuMemGetAllocationGranularity) granularity = nullptr;
    decltype(&cuMemCreate) create = nullptr;
    decltype(&cuMemRelease) release = nullptr;
    decltype(&cuMemAddressReserve) reserve = nullptr;
    decltype(&cuMemAddressFree) free_address = nullptr;
    decltype(&cuMemMap) map = nullptr;
    decltype(&cuMemUnmap) unmap = nullptr;
    decltype(&cuMemSetAccess) set_access = nullptr;
    decltype(&cuMemExportToShareableHandle) export_handle = nullptr;
    decltype(&cuMemImportFromShareableHandle) import_handle = nullptr;
};

template <class Fn>
void look_up(const char* name, Fn* fn) {
    cudaDriverEntryPointQueryResult found{};
    CUDA_CHECK(cudaGetDriverEntryPointByVersion(name, reinterpret_cast<void**>(fn), 12000, cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || !*fn) throw CudaError(std::string("the CUDA driver has no ") + name);
}

const DriverCalls& driver() {
    static const DriverCalls calls = [] {
        DriverCalls c;
        look_up("cuMemGetAllocationGranularity", &c.granularity);
        look_up("cuMemCreate", &c.create);
        look_up("cuMemRelease", &c.release);
        look_up("cuMemAddressReserve", &c.reserve);
        look_up("cuMemAddressFree", &c.free_address);
        look_up("cuMemMap", &c.map);
        look_up("cuMemUnmap", &c.unmap);
        look_up("cuMemSetAccess", &c.set_access);
        look_up("cuMemExportToShareableHandle", &c.export_handle);
        look_up("cuMemImportFromShareableHandle", &c.import_handle);
        return c;
    }();
    return calls;
}

void driver_check(CUresult status, const char* call) {
    if (status != CUDA_SUCCESS) throw CudaError(std::string(call) + " failed: CUDA driver error " + std::to_string(int(status)));
}

int current_device() {
    int device = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaFree(nullptr));  // the runtime's context exists and is current for the driver calls
    return device;
}

CUmemAllocationProp properties(int device) {
    CUmemAllocationProp prop{};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = device;
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    return prop;
}

size_t rounded_size(const CUmemAllocationProp& prop, size_t bytes) {
    size_t granularity = 0;
    driver_check(driver().granularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM), "cuMemGetAllocationGranularity");
    return (std::max<size_t>(bytes, 1) + granularity - 1) / granularity * granularity;
}

}  // namespace

SharedDeviceMemory SharedDeviceMemory::create(size_t bytes) {
    const CUmemAllocationProp prop = properties(current_device());
    const size_t mapped = rounded_size(prop, bytes);
    CUmemGenericAllocationHandle handle = 0;
    const CUresult made = driver().create(&handle, mapped, &prop, 0);
    if (made == CUDA_ERROR_OUT_OF_MEMORY) throw CudaError("cuMemCreate: out of device memory");
    driver_check(made, "cuMemCreate");
    return mapped_handle(handle, bytes, mapped);
}

SharedDeviceMemory SharedDeviceMemory::import(int fd, size_t bytes) {
    const size_t mapped = rounded_size(properties(current_device()), bytes);  // as the exporter rounded it
    CUmemGenericAllocationHandle handle = 0;
    const CUresult imported = driver().import_handle(&handle, reinterpret_cast<void*>(static_cast<uintptr_t>(fd)),
                                                     CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
    ::close(fd);  // the handle keeps the memory; the descriptor is no longer needed
    driver_check(imported, "cuMemImportFromShareableHandle");
    return mapped_handle(handle, bytes, mapped);
}

SharedDeviceMemory SharedDeviceMemory::mapped_handle(unsigned long long handle, size_t bytes, size_t mapped) {
    SharedDeviceMemory m;
    m.handle_ = handle;  // owned from here: released by m's destructor if mapping fails
    m.bytes_ = bytes;
    m.mapped_ = mapped;
    const CUmemAllocationProp prop = properties(current_device());
    CUdeviceptr address = 0;
    driver_check(driver().reserve(&address, mapped, 0, 0, 0), "cuMemAddressReserve");
    m.address_ = address;
    driver_check(driver().map(address, mapped, 0, handle, 0), "cuMemMap");
    CUmemAccessDesc access{};
    access.location = prop.location;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    driver_check(driver().set_access(address, mapped, &access, 1), "cuMemSetAccess");
    return m;
}

int SharedDeviceMemory::export_fd() const {
    int fd = -1;
    driver_check(driver().export_handle(&fd, handle_, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0), "cuMemExportToShareableHandle");
    return fd;
}

void SharedDeviceMemory::release() noexcept {
    // No checks: this runs in destructors, and a dead context frees everything anyway.
    if (address_ && mapped_) {
        driver().unmap(address_, mapped_);
        driver().free_address(address_, mapped_);
    }
    if (handle_) driver().release(handle_);
    handle_ = address_ = 0;
    bytes_ = mapped_ = 0;
}

SharedDeviceMemory::~SharedDeviceMemory() { release(); }

SharedDeviceMemory::SharedDeviceMemory(SharedDeviceMemory&& other) noexcept { swap(other); }

SharedDeviceMemory& SharedDeviceMemory::operator=(SharedDeviceMemory&& other) noexcept {
    SharedDeviceMemory(std::move(other)).swap(*this);
    return *this;
}

void SharedDeviceMemory::swap(SharedDeviceMemory& other) noexcept {
    std::swap(handle_, other.handle_);
    std::swap(address_, other.address_);
    std::swap(bytes_, other.bytes_);
    std::swap(mapped_, other.mapped_);
}

}  // namespace convlab

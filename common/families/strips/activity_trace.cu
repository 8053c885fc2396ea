// convlab harness — do not edit in a lab.
#include "common/families/strips/activity_trace.hpp"

#include <mutex>

#include "common/device/cuda_check.cuh"

#ifndef CONVLAB_NO_CUPTI
#include <cupti.h>
#endif

namespace convlab {

#ifndef CONVLAB_NO_CUPTI
namespace {

constexpr size_t kBufferBytes = 1 << 20;
constexpr CUpti_ActivityKind kKinds[] = {CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMSET,
                                         CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMORY2};

// CUPTI hands finished record buffers to a plain function with no user pointer, from its own
// thread: the records it decodes wait here until ActivityTrace::collect takes them. The one
// mutable global of the harness, forced by that interface, and guarded.
struct Inbox {
    std::mutex mutex;
    std::vector<ActivityRecord> records;
};
Inbox& inbox() {
    static Inbox box;
    return box;
}

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
    *buffer = static_cast<uint8_t*>(aligned_alloc(8, kBufferBytes));
    *size = *buffer ? kBufferBytes : 0;
    *max_records = 0;
}

bool decode(const CUpti_Activity* record, ActivityRecord* out) {
    using K = ActivityRecord::Kind;
    switch (record->kind) {
        case CUPTI_ACTIVITY_KIND_MEMCPY: {
            const auto* m = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
            out->kind = m->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD   ? K::HostToDevice
                        : m->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_DTOH ? K::DeviceToHost
                                                                          : K::OtherCopy;
            *out = {out->kind, int(m->deviceId), m->streamId, m->start, m->end, m->bytes, 0};
            return true;
        }
        case CUPTI_ACTIVITY_KIND_MEMSET: {
            const auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
            *out = {K::Memset, int(m->deviceId), m->streamId, m->start, m->end, m->bytes, 0};
            return true;
        }
        case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
            const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
            *out = {K::Kernel, int(k->deviceId), k->streamId, k->start, k->end, 0, 0};
            return true;
        }
        case CUPTI_ACTIVITY_KIND_MEMORY2: {
            const auto* m = reinterpret_cast<const CUpti_ActivityMemory4*>(record);
            // Host memory (pinned or pageable) is not the device's; everything else is.
            if (m->memoryKind == CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE || m->memoryKind == CUPTI_ACTIVITY_MEMORY_KIND_PINNED) return false;
            const bool allocation = m->memoryOperationType == CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION;
            if (!allocation && m->memoryOperationType != CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE) return false;
            *out = {allocation ? K::Allocation : K::Release, int(m->deviceId), m->streamId, m->timestamp, m->timestamp, m->bytes,
                    m->address};
            return true;
        }
        default: return false;
    }
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
    std::vector<ActivityRecord> decoded;
    CUpti_Activity* record = nullptr;
    while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
        ActivityRecord r{};
        if (decode(record, &r)) decoded.push_back(r);
    }
    free(buffer);
    Inbox& box = inbox();
    std::lock_guard<std::mutex> lock(box.mutex);
    box.records.insert(box.records.end(), decoded.begin(), decoded.end());
}

}  // namespace

ActivityTrace::ActivityTrace() {
    static const bool registered = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed) == CUPTI_SUCCESS;
    if (!registered) return;
    tracing_ = true;
    for (CUpti_ActivityKind kind : kKinds) tracing_ = tracing_ && cuptiActivityEnable(kind) == CUPTI_SUCCESS;
    if (!tracing_)
        for (CUpti_ActivityKind kind : kKinds) cuptiActivityDisable(kind);
    collect();  // anything left from before this trace
}

ActivityTrace::~ActivityTrace() {
    if (!tracing_) return;
    for (CUpti_ActivityKind kind : kKinds) cuptiActivityDisable(kind);
    cuptiActivityFlushAll(1);
    std::lock_guard<std::mutex> lock(inbox().mutex);
    inbox().records.clear();
}

std::vector<ActivityRecord> ActivityTrace::collect() {
    if (!tracing_) return {};
    cuptiActivityFlushAll(1);  // CUPTI_ACTIVITY_FLAG_FLUSH_FORCED: also the buffers not yet full
    Inbox& box = inbox();
    std::lock_guard<std::mutex> lock(box.mutex);
    std::vector<ActivityRecord> out;
    out.swap(box.records);
    return out;
}
#endif

ActivityCanary make_activity_canary() {
    ActivityCanary canary;
#ifndef CONVLAB_NO_CUPTI
    // No moment, no canary: it then matches nothing, and the run fails as if the recording had stopped.
    if (cuptiGetTimestamp(&canary.not_before_ns) != CUPTI_SUCCESS) canary.not_before_ns = UINT64_MAX;
#endif
    void* memory = nullptr;
    CUDA_CHECK(cudaMalloc(&memory, ActivityCanary::kBytes));
    CUDA_CHECK(cudaFree(memory));
    canary.address = reinterpret_cast<uint64_t>(memory);
    return canary;
}

#ifdef CONVLAB_NO_CUPTI
ActivityTrace::ActivityTrace() {}
ActivityTrace::~ActivityTrace() {}
std::vector<ActivityRecord> ActivityTrace::collect() { return {}; }
#endif

}  // namespace convlab

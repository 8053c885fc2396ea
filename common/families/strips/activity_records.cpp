// convlab harness — do not edit in a lab.
// The arithmetic on activity records (activity_trace.hpp): no CUDA here, so the unit tests run it.
#include <algorithm>
#include <map>
#include <utility>

#include "common/families/strips/activity_trace.hpp"

namespace convlab {

namespace {

bool is_span(ActivityRecord::Kind kind) {
    using K = ActivityRecord::Kind;
    return kind == K::HostToDevice || kind == K::DeviceToHost || kind == K::Memset || kind == K::Kernel;
}

Engine engine_of(ActivityRecord::Kind kind) {
    switch (kind) {
        case ActivityRecord::Kind::HostToDevice: return Engine::HostToDevice;
        case ActivityRecord::Kind::DeviceToHost: return Engine::DeviceToHost;
        default: return Engine::Kernel;  // a memset runs on the SMs' side, not a copy engine
    }
}

const char* label_of(ActivityRecord::Kind kind) {
    switch (kind) {
        case ActivityRecord::Kind::HostToDevice: return "copy in";
        case ActivityRecord::Kind::DeviceToHost: return "copy out";
        case ActivityRecord::Kind::Memset: return "memset";
        default: return "kernel";
    }
}

}  // namespace

std::vector<TimelineSpan> timeline_of(const std::vector<ActivityRecord>& records) {
    std::vector<const ActivityRecord*> spans;
    for (const ActivityRecord& r : records)
        if (is_span(r.kind)) spans.push_back(&r);
    std::sort(spans.begin(), spans.end(), [](auto* a, auto* b) { return a->start_ns < b->start_ns; });
    std::vector<TimelineSpan> out;
    if (spans.empty()) return out;
    const uint64_t zero = spans.front()->start_ns;
    std::map<std::pair<int, uint32_t>, int> lanes;  // (device, CUPTI stream id) -> the device's lane number
    std::map<int, int> lanes_of_device;
    for (const ActivityRecord* r : spans) {
        const auto key = std::make_pair(r->device, r->stream);
        auto lane = lanes.find(key);
        if (lane == lanes.end()) lane = lanes.emplace(key, lanes_of_device[r->device]++).first;
        TimelineSpan s;
        s.gpu = r->device;
        s.stream = lane->second;
        s.engine = engine_of(r->kind);
        s.start_ms = double(r->start_ns - zero) * 1e-6;
        s.end_ms = double(std::max(r->end_ns, r->start_ns) - zero) * 1e-6;
        s.label = label_of(r->kind);
        if (r->bytes) s.label += ", " + std::to_string(r->bytes) + " B";
        out.push_back(s);
    }
    return out;
}

std::map<int, DeviceMemoryUse> device_memory_use(const std::vector<ActivityRecord>& records) {
    std::vector<const ActivityRecord*> events;
    for (const ActivityRecord& r : records)
        if (r.kind == ActivityRecord::Kind::Allocation || r.kind == ActivityRecord::Kind::Release) events.push_back(&r);
    // At one moment, releases before allocations: a buffer freed and another allocated at once are
    // never both held.
    std::stable_sort(events.begin(), events.end(), [](auto* a, auto* b) {
        if (a->start_ns != b->start_ns) return a->start_ns < b->start_ns;
        return a->kind == ActivityRecord::Kind::Release && b->kind != ActivityRecord::Kind::Release;
    });
    std::map<int, DeviceMemoryUse> use;
    std::map<std::pair<int, uint64_t>, uint64_t> live;  // (device, address) -> bytes
    for (const ActivityRecord* r : events) {
        DeviceMemoryUse& u = use[r->device];
        const auto key = std::make_pair(r->device, r->address);
        if (r->kind == ActivityRecord::Kind::Allocation) {
            live[key] += r->bytes;
            u.held_at_end += r->bytes;
            u.peak = std::max(u.peak, u.held_at_end);
        } else {
            const auto found = live.find(key);
            if (found == live.end()) continue;  // allocated before the records began
            u.held_at_end -= found->second;
            live.erase(found);
        }
    }
    return use;
}

uint64_t copied_bytes(const std::vector<ActivityRecord>& records, ActivityRecord::Kind kind) {
    uint64_t bytes = 0;
    for (const ActivityRecord& r : records)
        if (r.kind == kind) bytes += r.bytes;
    return bytes;
}

bool take_activity_canary(std::vector<ActivityRecord>& records, const ActivityCanary& canary) {
    using K = ActivityRecord::Kind;
    bool allocated = false, released = false;
    for (auto r = records.end(); r != records.begin();) {  // the last of each: the canary came last
        --r;
        if (r->address != canary.address || r->start_ns < canary.not_before_ns) continue;
        bool* seen = r->kind == K::Allocation && r->bytes == ActivityCanary::kBytes ? &allocated
                     : r->kind == K::Release                                        ? &released
                                                                                    : nullptr;
        if (!seen || *seen) continue;
        *seen = true;
        r = records.erase(r);
    }
    return allocated && released;
}

}  // namespace convlab

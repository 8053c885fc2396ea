// convlab harness — do not edit in a lab.
// What the report says about the GPU, and the ceilings the derived figures are measured against.
#pragma once
#include <cstddef>
#include <string>

namespace convlab {

struct DeviceInfo {
    std::string name;
    int cc_major = 0, cc_minor = 0;
    int multiprocessors = 0;
    double sm_clock_mhz = 0;      // the peak (boost) clock the driver reports
    double memory_clock_mhz = 0;
    int memory_bus_bits = 0;
    size_t l2_bytes = 0;
    size_t memory_bytes = 0;
    int driver_version = 0;       // CUDA version the driver supports, e.g. 13000 for 13.0
    std::string driver_release;   // the NVIDIA driver's own version, e.g. "580.159.04", or empty
    int runtime_version = 0;
    int fp32_lanes_per_sm = 0;    // FP32 FMA units per multiprocessor, from the architecture; 0: unknown
    // The API the variants run through: "CUDA", or "OpenCL" (families/filters/cl_device.hpp), whose
    // device is named with its platform and version; multiprocessors are then its compute units,
    // the SM clock its maximum clock, the L2 its global memory cache, and driver_release its
    // driver's version (the CUDA versions stay 0).
    std::string api = "CUDA";
    std::string platform;        // OpenCL: the platform's name and version
    std::string device_version;  // OpenCL: "OpenCL 3.0 ..." as the device reports it
    // "GPU", or for an OpenCL device that is not one "CPU" (PoCL) or "accelerator": the grader
    // times an OpenCL lab's kernels on a GPU alone (grading/cases/lab11.json says why).
    std::string type = "GPU";

    std::string arch() const { return cc_major ? "sm_" + std::to_string(cc_major) + std::to_string(cc_minor) : ""; }
    // Lanes x 2 flops (one FMA) x multiprocessors x peak clock.
    double fp32_peak_gflops() const { return 2.0 * fp32_lanes_per_sm * multiprocessors * sm_clock_mhz * 1e-3; }
};

// The buffer a GpuSession reads to evict the L2 before a timed run (twice the L2, 8 MiB at
// least), on its device alone: lab 9's hold from outside a run leaves room for it
// (device_memory_cap.hpp).
inline size_t l2_flush_bytes(size_t l2_bytes) {
    const size_t least = size_t(8) << 20;
    return (2 * l2_bytes > least ? 2 * l2_bytes : least) & ~size_t(15);
}

// FP32 lanes per multiprocessor by compute capability (CUDA programming guide's throughput table).
int fp32_lanes_per_sm(int cc_major, int cc_minor);

// The NVIDIA kernel module's version from /proc/driver/nvidia/version (Linux), or "" elsewhere.
std::string nvidia_driver_release();

}  // namespace convlab

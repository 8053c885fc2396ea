// convlab harness — do not edit in a lab.
#include "common/device/device_info.hpp"

#include <fstream>
#include <regex>

namespace convlab {

int fp32_lanes_per_sm(int cc_major, int cc_minor) {
    if (cc_major == 8 && cc_minor == 0) return 64;  // A100
    if (cc_major >= 8) return 128;                  // sm_86, sm_89, Hopper, Blackwell
    return 64;                                      // Turing and older
}

std::string nvidia_driver_release() {
    std::ifstream file("/proc/driver/nvidia/version");
    std::string line;
    std::getline(file, line);  // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Thu ..."
    std::smatch match;
    return std::regex_search(line, match, std::regex(R"(Kernel Module\s+([0-9][0-9.]*))")) ? match[1].str() : "";
}

}  // namespace convlab

// convlab harness — do not edit in a lab.
#include "common/device_info.hpp"

namespace convlab {

int fp32_lanes_per_sm(int cc_major, int cc_minor) {
    if (cc_major == 8 && cc_minor == 0) return 64;  // A100
    if (cc_major >= 8) return 128;                  // sm_86, sm_89, Hopper, Blackwell
    return 64;                                      // Turing and older
}

}  // namespace convlab

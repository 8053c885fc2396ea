// convlab harness — do not edit in a lab.
#include "common/core/number_format.hpp"

#include <cmath>
#include <cstdio>

namespace convlab {

std::string format_fixed(double value, int decimals) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

std::string format_sig3(double value) {
    const double a = std::fabs(value);
    return format_fixed(value, a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : a >= 0.1 ? 3 : 4);
}

std::string format_gib(size_t bytes) { return format_fixed(double(bytes) / double(size_t(1) << 30), 2) + " GiB"; }

std::string format_bytes(double bytes) {
    static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int unit = 0;
    while (unit < 4 && std::fabs(bytes) >= 1024) bytes /= 1024, ++unit;
    return (unit == 0 ? format_fixed(bytes, 0) : format_sig3(bytes)) + " " + units[unit];
}

}  // namespace convlab

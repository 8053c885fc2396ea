// convlab harness — do not edit in a lab.
#include "common/core/text_parse.hpp"

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "common/core/errors.hpp"

namespace convlab {

long long parse_whole(const std::string& text, const std::string& what) {
    size_t used = 0;
    long long value = 0;
    try {
        value = std::stoll(text, &used);
    } catch (const std::out_of_range&) {
        throw InputError(what + " " + text + " is too large; accepted: a whole number up to " +
                         std::to_string(std::numeric_limits<long long>::max()));
    } catch (const std::exception&) {
        used = 0;
    }
    if (text.empty() || used != text.size()) throw InputError(what + " '" + text + "' is not a whole number");
    return value;
}

namespace {

template <class T, class Convert>
bool read_finite_as(const std::string& text, T* value, Convert convert) {
    size_t used = 0;
    try {
        *value = convert(text, &used);
    } catch (const std::exception&) {
        return false;
    }
    return !text.empty() && used == text.size() && std::isfinite(*value);
}

}  // namespace

bool read_finite(const std::string& text, float* value) {
    return read_finite_as(text, value, [](const std::string& t, size_t* used) { return std::stof(t, used); });
}

bool read_finite(const std::string& text, double* value) {
    return read_finite_as(text, value, [](const std::string& t, size_t* used) { return std::stod(t, used); });
}

int parse_count(const std::string& text, const std::string& what, long long lo, long long hi) {
    const long long value = parse_whole(text, what);
    if (value < lo || value > hi)
        throw InputError(what + " " + text + " is out of range; accepted: " + std::to_string(lo) + " to " + std::to_string(hi));
    return int(value);
}

size_t parse_memory_size(const std::string& text, size_t total, const std::string& what, const std::string& total_name) {
    static const std::pair<const char*, double> kUnits[] = {
        {"TiB", 1099511627776.0}, {"GiB", 1073741824.0}, {"MiB", 1048576.0}, {"KiB", 1024.0},
        {"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"kB", 1e3}, {"B", 1.0}, {"%", -1.0}};
    const std::string accepted = "; accepted: bytes, with B, KiB, MiB, GiB, TiB, kB, MB, GB or TB (\"2GiB\"), or a share of " +
                                 (total_name.empty() ? std::to_string(total) + " bytes" : total_name) + " (\"25%\")";
    std::string number = text;
    double scale = 1.0;
    for (const auto& [unit, factor] : kUnits) {
        const std::string u = unit;
        if (text.size() > u.size() && text.compare(text.size() - u.size(), u.size(), u) == 0) {
            number = text.substr(0, text.size() - u.size());
            scale = factor;
            break;
        }
    }
    double value = 0;
    if (!read_finite(number, &value) || value <= 0) throw InputError(what + " '" + text + "' is not a memory size" + accepted);
    if (scale < 0) {  // a percentage
        if (value > 100) throw InputError(what + " " + text + " is more than all of it" + accepted);
        value = double(total) * value / 100.0;
    } else {
        value *= scale;
    }
    if (value >= 18446744073709551615.0) throw InputError(what + " " + text + " is too large" + accepted);
    const size_t bytes = size_t(value);
    if (bytes == 0) throw InputError(what + " " + text + " is less than a byte" + accepted);
    return bytes;
}

std::vector<std::string> split_list(const std::string& text, char separator) {
    std::vector<std::string> items;
    std::stringstream stream(text);
    std::string item;
    while (std::getline(stream, item, separator)) items.push_back(item);
    if (!text.empty() && text.back() == separator) items.push_back("");  // getline drops a last empty item
    return items;
}

}  // namespace convlab

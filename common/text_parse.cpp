// convlab harness — do not edit in a lab.
#include "common/text_parse.hpp"

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "common/errors.hpp"

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

std::vector<std::string> split_list(const std::string& text, char separator) {
    std::vector<std::string> items;
    std::stringstream stream(text);
    std::string item;
    while (std::getline(stream, item, separator)) items.push_back(item);
    if (!text.empty() && text.back() == separator) items.push_back("");  // getline drops a last empty item
    return items;
}

}  // namespace convlab

// convlab harness — do not edit in a lab.
#include "common/families/filters/cl_build_log.hpp"

#include <regex>
#include <sstream>

namespace convlab {

std::string in_students_file(const std::string& line, const std::string& shown, int skipped_lines) {
    static const std::regex unnamed(R"(^(\s*)<[^>]*>:(\d+):)");
    std::smatch place;
    if (!std::regex_search(line, place, unnamed)) return line;
    const long number = std::stol(place[2]) - skipped_lines;
    if (number < 1) return line;  // in the kit's prelude: the student's file has no such line
    return place[1].str() + shown + ":" + std::to_string(number) + ":" + place.suffix().str();
}

std::string error_first(const std::string& line) {
    static const std::regex place_first(R"(^\s*(\S+:\d+:\d+): error: (.*)$)");
    std::smatch found;
    if (!std::regex_search(line, found, place_first)) return line;
    return "error: " + found[1].str() + ": " + found[2].str();
}

std::string first_build_error(const std::string& log, const std::string& shown, int skipped_lines) {
    std::istringstream lines(log);
    std::string line, first;
    int errors = 0;
    while (std::getline(lines, line)) {
        if (line.find("error:") == std::string::npos) continue;
        if (first.empty()) first = error_first(in_students_file(line, shown, skipped_lines));
        ++errors;
    }
    if (first.empty()) {  // a log without "error:": its first line that says something
        std::istringstream again(log);
        while (std::getline(again, line) && line.find_first_not_of(" \t\r") == std::string::npos) {}
        line.erase(0, line.find_first_not_of(" \t"));
        first = line.empty() ? "the OpenCL compiler failed and wrote no log" : line;
        if (first.find(shown) == std::string::npos) first = shown + ": " + first;
    }
    first.erase(0, first.find_first_not_of(" \t"));
    if (!first.empty() && first.back() == '\r') first.pop_back();
    return first + " (OpenCL build log: " + std::to_string(errors) + (errors == 1 ? " error" : " errors") + ")";
}

}  // namespace convlab

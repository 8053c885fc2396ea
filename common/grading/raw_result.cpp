// convlab harness — do not edit in a lab.
#include "common/grading/raw_result.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "common/core/errors.hpp"

namespace convlab {

std::string raw_file_name(const std::string& variant) {
    std::string name;
    for (char ch : variant) name += std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' ? ch : '_';
    return name + ".f32";
}

std::string raw_result_path(const std::string& dir, const std::string& name) { return dir + "/" + raw_file_name(name); }

std::string end_to_end_result_name(const std::string& variant) { return variant + "-end-to-end"; }

void write_raw_bytes(const std::string& path, const char* data, size_t bytes) {
    const std::string partial = path + ".partial";
    {
        std::ofstream out(partial, std::ios::binary | std::ios::trunc);
        out.write(data, std::streamsize(bytes));
        if (!out) throw InputError("cannot write " + partial);
    }
    if (std::rename(partial.c_str(), path.c_str()) != 0) {
        std::remove(partial.c_str());
        throw InputError("cannot write " + path);
    }
}

void write_raw_floats(const std::string& path, const std::vector<float>& values) {
    write_raw_bytes(path, reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float));
}

std::vector<char> read_raw_bytes(const std::string& path, size_t max_bytes) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError("cannot open raw result " + path);
    std::vector<char> bytes(max_bytes);
    in.read(bytes.data(), std::streamsize(max_bytes));
    bytes.resize(size_t(in.gcount()));
    return bytes;
}

std::vector<float> read_raw_floats(const std::string& path, size_t max_count) {
    const std::vector<char> bytes = read_raw_bytes(path, max_count * sizeof(float));
    std::vector<float> values(bytes.size() / sizeof(float));
    std::memcpy(values.data(), bytes.data(), values.size() * sizeof(float));
    return values;
}

RawFolder::RawFolder(const std::string& path) : path_(path) {
    if (!std::filesystem::is_directory(path))
        throw InputError("--compare " + path + " is not a folder; accepted: a folder of raw results from --raw-out");
}

std::string RawFolder::file_of(const std::string& name) {
    const std::string file = raw_result_path(path_, name);
    named_.insert(std::filesystem::path(file).filename().string());
    return file;
}

std::vector<std::string> RawFolder::strays() const {
    std::vector<std::string> found;
    for (const auto& entry : std::filesystem::directory_iterator(path_))
        if (entry.path().extension() == ".f32" && !named_.count(entry.path().filename().string()))
            found.push_back(entry.path().filename().string());
    std::sort(found.begin(), found.end());
    return found;
}

}  // namespace convlab

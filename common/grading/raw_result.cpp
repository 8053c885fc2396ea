// convlab harness — do not edit in a lab.
#include "common/grading/raw_result.hpp"

#include <cctype>
#include <cstdio>
#include <cstring>
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

}  // namespace convlab

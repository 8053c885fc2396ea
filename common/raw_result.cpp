// convlab harness — do not edit in a lab.
#include "common/raw_result.hpp"

#include <cctype>
#include <cstdio>
#include <fstream>

#include "common/errors.hpp"

namespace convlab {

std::string raw_file_name(const std::string& variant) {
    std::string name;
    for (char ch : variant) name += std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' ? ch : '_';
    return name + ".f32";
}

void write_raw_floats(const std::string& path, const std::vector<float>& values) {
    const std::string partial = path + ".partial";
    {
        std::ofstream out(partial, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(values.data()), std::streamsize(values.size() * sizeof(float)));
        if (!out) throw InputError("cannot write " + partial);
    }
    if (std::rename(partial.c_str(), path.c_str()) != 0) {
        std::remove(partial.c_str());
        throw InputError("cannot write " + path);
    }
}

std::vector<float> read_raw_floats(const std::string& path, size_t max_count) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError("cannot open raw result " + path);
    std::vector<float> values(max_count);
    in.read(reinterpret_cast<char*>(values.data()), std::streamsize(max_count * sizeof(float)));
    values.resize(size_t(in.gcount()) / sizeof(float));
    return values;
}

}  // namespace convlab

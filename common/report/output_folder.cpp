// convlab harness — do not edit in a lab.
#include "common/report/output_folder.hpp"

#include <unistd.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>

#include "common/core/errors.hpp"
#include "common/grading/raw_result.hpp"

namespace convlab {

OutputFolder::OutputFolder(std::string path) : path_(std::move(path)) {
    if (path_.empty()) return;
    // "pics/" and "pics" are one folder: the files go in "pics/input.png", not "pics//input.png".
    while (path_.size() > 1 && path_.back() == '/') path_.pop_back();
    std::error_code error;
    std::filesystem::create_directories(path_, error);
    if (error || !std::filesystem::is_directory(path_))
        throw InputError("cannot use --out '" + path_ + "': " + (error ? error.message() : "not a folder") +
                         "; accepted: a folder that exists or can be created and written");
    const std::string probe = path_ + "/.convlab-write-test-" + std::to_string(::getpid());
    std::ofstream file(probe);
    const bool ok = file && (file << "x") && (file.close(), !file.fail());
    std::remove(probe.c_str());
    if (!ok) throw InputError("cannot write in --out folder '" + path_ + "'; accepted: a folder you can write to");
}

std::string shell_safe_file_name(const std::string& name) {
    std::string safe;
    for (char c : name) {
        if (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_') safe += c;
        else if (!safe.empty() && safe.back() != '-') safe += '-';  // '-' itself, or what it stands for
    }
    while (!safe.empty() && safe.back() == '-') safe.pop_back();
    while (!safe.empty() && safe.front() == '-') safe.erase(safe.begin());
    return (safe.empty() ? "picture" : safe) + ".png";
}

void OutputFolder::save_image(const std::string& name, const Image& image) const {
    save_png(path_ + "/" + shell_safe_file_name(name), image.pixels.data(), image.width, image.height, image.channels);
}

void OutputFolder::save_result(const std::string& name, const std::vector<float>& values, const Image& shape) const {
    const std::vector<uint8_t> bytes = to_u8(values);
    save_png(path_ + "/" + shell_safe_file_name(name), bytes.data(), shape.width, shape.height, shape.channels);
}

void OutputFolder::save_difference(const std::string& name, const std::vector<float>& got, const std::vector<float>& ref,
                                   const Image& shape) const {
    std::vector<uint8_t> bytes(got.size());
    for (size_t n = 0; n < got.size(); ++n) {
        const double d = std::fabs(double(got[n]) - ref[n]);
        bytes[n] = std::isfinite(d) ? uint8_t(std::fmin(255.0, std::round(d * 32))) : 255;
    }
    save_png(path_ + "/" + shell_safe_file_name(name), bytes.data(), shape.width, shape.height, shape.channels);
}

void OutputFolder::save_text(const std::string& file, const std::string& text) const {
    write_raw_bytes(path_ + "/" + file, text.data(), text.size());
}

void OutputFolder::save_side_by_side(const std::vector<std::function<void()>>& saves) {
    std::exception_ptr first;
#pragma omp parallel for schedule(dynamic, 1)
    for (long long n = 0; n < (long long)saves.size(); ++n) {
        try {
            saves[n]();
        } catch (...) {
#pragma omp critical(convlab_first_save_failure)
            if (!first) first = std::current_exception();
        }
    }
    if (first) std::rethrow_exception(first);
}

}  // namespace convlab

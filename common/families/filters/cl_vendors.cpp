// convlab harness — do not edit in a lab.
#include "common/families/filters/cl_vendors.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace convlab {

const std::vector<std::string> kUnlistedOpenClLibraries = {"libnvidia-opencl.so.1"};

namespace {

namespace fs = std::filesystem;

std::string contents(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

bool loads(const std::string& library) {
    void* handle = dlopen(library.c_str(), RTLD_LAZY | RTLD_LOCAL);
    if (!handle) return false;
    dlclose(handle);
    return true;
}

void write_whole(const fs::path& path, const std::string& text) {
    const fs::path partial = path.string() + ".partial-" + std::to_string(getpid());
    {
        std::ofstream out(partial);
        out << text;
        if (!out) throw std::runtime_error("cannot write " + partial.string());
    }
    fs::rename(partial, path);
}

}  // namespace

VendorFolder write_vendor_folder(const std::string& system_dir, const std::vector<std::string>& libraries, const std::string& folder) {
    std::vector<std::pair<std::string, std::string>> system_files;  // name, contents
    std::error_code ignored;
    for (const auto& entry : fs::directory_iterator(system_dir, ignored))
        if (entry.path().extension() == ".icd") system_files.emplace_back(entry.path().filename().string(), contents(entry.path()));
    VendorFolder made;
    for (const std::string& library : libraries) {
        bool listed = false;
        for (const auto& [name, text] : system_files) listed = listed || text.find(library) != std::string::npos;
        if (!listed && loads(library)) made.added.push_back(library);
    }
    if (made.added.empty()) return made;
    fs::create_directories(folder);
    for (const auto& [name, text] : system_files) write_whole(fs::path(folder) / name, text);
    for (const std::string& library : made.added)
        write_whole(fs::path(folder) / ("convlab-" + library.substr(0, library.find('.')) + ".icd"), library + "\n");
    made.folder = folder;
    return made;
}

std::vector<std::string> register_unlisted_opencl() {
    if (std::getenv("OCL_ICD_VENDORS")) return {};  // the user's choice stands
    const char* cache = std::getenv("XDG_CACHE_HOME");
    const char* home = std::getenv("HOME");
    const std::string base = cache && *cache ? cache : home && *home ? std::string(home) + "/.cache" : "/tmp/convlab-" + std::to_string(getuid());
    try {
        const VendorFolder made = write_vendor_folder("/etc/OpenCL/vendors", kUnlistedOpenClLibraries, base + "/convlab/opencl-vendors");
        if (!made.folder.empty()) setenv("OCL_ICD_VENDORS", made.folder.c_str(), 1);
        return made.added;
    } catch (const std::exception&) {
        return {};
    }
}

}  // namespace convlab

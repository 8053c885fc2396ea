// An OpenCL library installed without a vendor file is registered in a folder of the kit's own
// (cl_vendors.hpp), beside copies of the system's files; nothing is written when there is nothing
// to add, and a user's OCL_ICD_VENDORS stands.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/families/filters/cl_vendors.hpp"

using namespace convlab;
namespace fs = std::filesystem;

namespace {

struct Scratch {
    fs::path root;
    Scratch() {
        char pattern[] = "/tmp/convlab-cl-vendors-XXXXXX";
        root = mkdtemp(pattern);
        fs::create_directories(root / "system");
    }
    ~Scratch() { fs::remove_all(root); }
    void file(const std::string& name, const std::string& text) { std::ofstream(root / "system" / name) << text; }
};

std::string read(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// libc.so.6 stands for a driver's library that loads; the second name loads nowhere.
const std::vector<std::string> kLibraries = {"libc.so.6", "libconvlab-no-such-opencl.so.9"};

}  // namespace

TEST(ClVendors, AnUnlistedLibraryThatLoadsIsRegisteredBesideTheSystemFiles) {
    Scratch s;
    s.file("pocl.icd", "libpocl.so.2\n");
    const VendorFolder made = write_vendor_folder((s.root / "system").string(), kLibraries, (s.root / "mine").string());
    EXPECT_EQ(made.added, std::vector<std::string>{"libc.so.6"});
    EXPECT_EQ(made.folder, (s.root / "mine").string());
    EXPECT_EQ(read(s.root / "mine" / "pocl.icd"), "libpocl.so.2\n");
    EXPECT_EQ(read(s.root / "mine" / "convlab-libc.icd"), "libc.so.6\n");
    size_t files = 0;
    for (const auto& entry : fs::directory_iterator(s.root / "mine")) files += entry.is_regular_file();
    EXPECT_EQ(files, 2u) << "a partial file was left behind, or an unloadable library registered";
}

TEST(ClVendors, NothingIsWrittenWhenTheSystemListsItOrNothingLoads) {
    Scratch s;
    s.file("nvidia.icd", "libc.so.6\n");
    const VendorFolder listed = write_vendor_folder((s.root / "system").string(), kLibraries, (s.root / "mine").string());
    EXPECT_TRUE(listed.added.empty());
    EXPECT_TRUE(listed.folder.empty());
    EXPECT_FALSE(fs::exists(s.root / "mine"));
    const VendorFolder none = write_vendor_folder((s.root / "system").string(), {"libconvlab-no-such-opencl.so.9"},
                                                  (s.root / "mine").string());
    EXPECT_TRUE(none.folder.empty());
    EXPECT_FALSE(fs::exists(s.root / "mine"));
}

TEST(ClVendors, AUsersOwnVendorFolderStands) {
    setenv("OCL_ICD_VENDORS", "/somewhere/of/theirs", 1);
    EXPECT_TRUE(register_unlisted_opencl().empty());
    EXPECT_STREQ(std::getenv("OCL_ICD_VENDORS"), "/somewhere/of/theirs");
    unsetenv("OCL_ICD_VENDORS");
}

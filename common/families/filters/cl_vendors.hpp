// convlab harness — do not edit in a lab.
// Finding an OpenCL implementation that is installed but not registered. The ICD loader
// (ocl-icd) lists the platforms named by the vendor files in /etc/OpenCL/vendors, or in the
// folder OCL_ICD_VENDORS names. NVIDIA's driver ships its OpenCL library (libnvidia-opencl.so.1)
// but a driver installed without its OpenCL package (a container, a cluster image) leaves no
// vendor file for it, so the loader never sees the GPU. Writing one there needs root; instead, a
// lab writes a folder of its own (a copy of every system vendor file, and one for each unlisted
// library that loads) and points OCL_ICD_VENDORS at it, before its first OpenCL call.
#pragma once
#include <string>
#include <vector>

namespace convlab {

// The libraries the kit looks for when no vendor file names them.
extern const std::vector<std::string> kUnlistedOpenClLibraries;

struct VendorFolder {
    std::string folder;                // where OCL_ICD_VENDORS should point; empty when nothing is to be done
    std::vector<std::string> added;    // the libraries registered there that the system's files do not name
};

// What `system_dir`'s vendor files lack among `libraries` (those that load, dlopen), written into
// `folder` with a copy of every system vendor file. Empty (nothing written) when every library that
// loads is listed already, or none loads. Each file is written whole (a temporary name, renamed).
VendorFolder write_vendor_folder(const std::string& system_dir, const std::vector<std::string>& libraries,
                                 const std::string& folder);

// For a lab, before its first OpenCL call: unless OCL_ICD_VENDORS is set already, the folder above
// under the user's cache ($XDG_CACHE_HOME or ~/.cache, convlab/opencl-vendors), and OCL_ICD_VENDORS
// set to it. Returns the libraries it registered (empty: nothing changed). Never throws: a folder
// that cannot be written leaves the loader as it was.
std::vector<std::string> register_unlisted_opencl();

}  // namespace convlab

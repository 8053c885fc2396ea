#!/usr/bin/env bash
# make doctor: what this machine has for convlab, each missing piece with its fix.
set -u
ok() { printf '  %-22s %s\n' "$1" "$2"; }
bad() { printf '  %-22s MISSING: %s\n' "$1" "$2"; problems=$((problems + 1)); }
problems=0
NVCC=${NVCC:-nvcc}

echo "convlab doctor"
if command -v "$NVCC" >/dev/null; then
    ok "CUDA toolkit" "$("$NVCC" --version | grep -o 'release [0-9.]*' | head -1) ($(command -v "$NVCC"))"
else
    bad "CUDA toolkit" "install the CUDA toolkit and put nvcc on PATH (export PATH=/usr/local/cuda/bin:\$PATH)"
fi
ok "host compiler" "$(g++ --version 2>/dev/null | head -1 || echo none)"
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
    ok "driver" "$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)"
    while IFS=, read -r name cc mem; do ok "GPU" "$name, compute capability$cc,$mem"; done \
        < <(nvidia-smi --query-gpu=name,compute_cap,memory.total --format=csv,noheader)
else
    ok "GPU" "none found (nvidia-smi absent or no device): labs run their CPU part and skip the GPU"
fi
ok "architecture" "${ARCH_DESCRIPTION:-?}"
if [ -n "${CUPTI_LIB_DIR:-}" ]; then ok "CUPTI" "$CUPTI_LIB_DIR/libcupti.so (counts the kernels of each GPU variant and end-to-end function)"
else ok "CUPTI" "not found in the CUDA toolkit (optional: a GPU variant or end-to-end function that launches no kernel is then not caught; set CUPTI_LIB_DIR and CUPTI_INCLUDE)"; fi

check_header() {  # name folder file package
    if [ -f "$2/$3" ]; then ok "$1" "$2/$3"; else bad "$1" "sudo apt-get install $4   (or point $5 at a copy)"; fi
}
check_header "stb_image" "${STB_INCLUDE:-/usr/include/stb}" stb_image.h libstb-dev STB_INCLUDE
check_header "nlohmann json" "${JSON_INCLUDE:-/usr/include}" nlohmann/json.hpp nlohmann-json3-dev JSON_INCLUDE
check_header "cxxopts" "${CXXOPTS_INCLUDE:-/usr/include}" cxxopts.hpp libcxxopts-dev CXXOPTS_INCLUDE
check_header "GoogleTest (tests)" "${GTEST_INCLUDE:-/usr/include}" gtest/gtest.h libgtest-dev GTEST_INCLUDE
check_header "Google Benchmark" /usr/include benchmark/benchmark.h libbenchmark-dev "the build"
if command -v python3 >/dev/null; then ok "python3 (tests)" "$(python3 --version 2>&1)"; else bad "python3 (tests)" "sudo apt-get install python3"; fi
REPORT_PYTHON=${REPORT_PYTHON:-$("$(dirname "$0")/report-python.sh")}
if "$REPORT_PYTHON" -c 'import matplotlib' 2>/dev/null; then ok "matplotlib (report)" "$REPORT_PYTHON"
else bad "matplotlib (report)" "sudo apt-get install python3-matplotlib   (or pip install matplotlib for the python3 on PATH; make report draws with $REPORT_PYTHON)"; fi
if command -v compute-sanitizer >/dev/null; then ok "compute-sanitizer" "$(command -v compute-sanitizer)"
else ok "compute-sanitizer" "not found (optional: the GPU suite skips its sanitizer tests)"; fi

# OpenCL (labs 11 and 12): the ICD loader, the vendor files it reads, and NVIDIA's library when the
# driver was installed without its vendor file (the labs then register it for their user:
# common/families/filters/cl_vendors.hpp).
vendors=${OPENCL_VENDORS_DIR:-/etc/OpenCL/vendors}  # the loader's folder (a test gives another)
if ldconfig -p 2>/dev/null | grep -q 'libOpenCL\.so\b'; then
    listed=$(cat "$vendors"/*.icd 2>/dev/null | tr '\n' ' ')
    ok "OpenCL loader" "libOpenCL.so; vendor files: ${listed:-none} (${OCL_ICD_VENDORS:-$vendors})"
    if ldconfig -p 2>/dev/null | grep -q 'libnvidia-opencl\.so\.1' && ! grep -qs libnvidia-opencl "$vendors"/*.icd; then
        ok "NVIDIA OpenCL" "libnvidia-opencl.so.1 is installed without a vendor file: labs 11 and 12 register it for you (OCL_ICD_VENDORS, a folder under ~/.cache/convlab); for every program: echo libnvidia-opencl.so.1 | sudo tee $vendors/nvidia.icd"
    fi
    [ -z "$listed" ] && ok "OpenCL device" "no vendor file: PoCL runs labs 11 and 12 on the CPU (sudo apt-get install pocl-opencl-icd)"
else
    ok "OpenCL loader" "not found (labs 11 and 12: sudo apt-get install ocl-icd-opencl-dev pocl-opencl-icd)"
fi
if command -v oclgrind >/dev/null; then ok "oclgrind" "$(command -v oclgrind) (the grader's safety runs of labs 11 and 12)"
else ok "oclgrind" "not found (optional: grading labs 11 and 12 needs it for their safety points: sudo apt-get install oclgrind)"; fi

echo
if [ "$problems" -eq 0 ]; then echo "everything convlab needs is here"; else echo "$problems missing: 'make deps' installs the packages"; fi
exit $((problems > 0))

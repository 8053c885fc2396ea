#!/usr/bin/env bash
# What convlab needs from Debian/Ubuntu packages, checked or installed.
#   deps.sh check build|test|bench|opencl|report
#                                    exit 0 when present; otherwise install what is missing when
#                                    this user can (root, or passwordless sudo), saying so in one
#                                    line, or print the exact command and exit 1
#   deps.sh install                  apt-get install everything (as root or with passwordless sudo);
#                                    otherwise print the exact command and exit 1
# Header folders come from the Makefile (STB_INCLUDE, JSON_INCLUDE, CXXOPTS_INCLUDE, GTEST_INCLUDE).
set -u

STB_INCLUDE=${STB_INCLUDE:-/usr/include/stb}
JSON_INCLUDE=${JSON_INCLUDE:-/usr/include}
CXXOPTS_INCLUDE=${CXXOPTS_INCLUDE:-/usr/include}
GTEST_INCLUDE=${GTEST_INCLUDE:-/usr/include}
# The python3 that draws make report's plots (report-python.sh says which).
REPORT_PYTHON=${REPORT_PYTHON:-$("$(dirname "$0")/report-python.sh")}

# The OpenCL labs (common/families/filters/cl_device.hpp): Khronos's headers, the ICD loader that
# libOpenCL is, and PoCL, an OpenCL device on the CPU, so that they run on a machine with no GPU
# (make test runs them there) and on one whose vendor registered no ICD file; and Oclgrind, the
# simulated OpenCL device the grader runs their safety checks on (grading/convlab_grader/sanitizer_tools.py).
OPENCL_PACKAGES="opencl-headers ocl-icd-opencl-dev pocl-opencl-icd clinfo oclgrind"
# What a student's machine needs (make deps). make test needs slurm-wlm and munge too (it starts a
# private Slurm cluster, tests/slurm_cluster.py), which `check test` installs when they are missing.
# Their install scripts ask invoke-rc.d to start the system's munged, slurmctld and slurmd: without
# systemd or a runlevel (a container, a CI machine) it starts nothing and succeeds; under sysvinit
# the Slurm daemons' scripts do nothing without /etc/slurm/slurm.conf, and munged starts on the
# system's key, which the tests never use. Either way apt-get succeeds and nothing is stopped.
ALL_PACKAGES="g++ make python3 libstb-dev nlohmann-json3-dev libcxxopts-dev libgtest-dev libbenchmark-dev python3-matplotlib $OPENCL_PACKAGES"

# has_library NAME: a static or shared library the linker will find.
has_library() {
    ldconfig -p 2>/dev/null | grep -q "lib$1\.so" && return 0
    for dir in /usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu /usr/lib /usr/local/lib; do
        [ -e "$dir/lib$1.a" ] || [ -e "$dir/lib$1.so" ] && return 0
    done
    return 1
}

# missing_opencl: the OpenCL headers and loader an OpenCL lab builds with, and PoCL, the device
# make test runs it on (a build alone needs no device: without one the lab says it skipped).
missing_opencl() {
    [ -f /usr/include/CL/cl.h ] || echo opencl-headers
    has_library OpenCL || echo ocl-icd-opencl-dev
    [ "${1:-}" = device ] || return 0
    [ -f /etc/OpenCL/vendors/pocl.icd ] || echo pocl-opencl-icd
    command -v clinfo >/dev/null || echo clinfo
    command -v oclgrind >/dev/null || echo oclgrind
}

has_matplotlib() { "$REPORT_PYTHON" -c 'import matplotlib' 2>/dev/null; }

# has_program NAME: on PATH, or in the sbin folders a user's PATH often lacks (the daemons).
has_program() {
    command -v "$1" >/dev/null && return 0
    for dir in /usr/sbin /sbin /usr/local/sbin; do [ -x "$dir/$1" ] && return 0; done
    return 1
}

# missing_for PURPOSE: prints the Debian package of each missing piece, one a line.
missing_for() {
    if [ "$1" = report ]; then  # make report draws from a saved report too: no compiler needed
        command -v "$REPORT_PYTHON" >/dev/null || echo python3
        has_matplotlib || echo python3-matplotlib
        return
    fi
    command -v g++ >/dev/null || echo g++
    command -v make >/dev/null || echo make
    [ -f "$STB_INCLUDE/stb_image.h" ] && [ -f "$STB_INCLUDE/stb_image_write.h" ] || echo libstb-dev
    [ -f "$JSON_INCLUDE/nlohmann/json.hpp" ] || echo nlohmann-json3-dev
    [ -f "$CXXOPTS_INCLUDE/cxxopts.hpp" ] || echo libcxxopts-dev
    case "$1" in
        test)  # make test builds every lab, and lab 5 runs under Google Benchmark
            command -v python3 >/dev/null || echo python3
            [ -f "$GTEST_INCLUDE/gtest/gtest.h" ] && has_library gtest || echo libgtest-dev
            [ -f /usr/include/benchmark/benchmark.h ] && has_library benchmark || echo libbenchmark-dev
            has_matplotlib || echo python3-matplotlib  # the report tests draw plots
            missing_opencl device  # the OpenCL labs' tests run on PoCL and count as passed
            # A private single-node Slurm cluster for the grader's --slurm test (slurm-wlm brings
            # slurmctld, slurmd and slurm-client, which holds sbatch, squeue, scancel and sinfo).
            for program in slurmctld slurmd sbatch squeue scancel sinfo; do
                has_program "$program" || { echo slurm-wlm; break; }
            done
            has_program munged || echo munge ;;
        opencl)  # building an OpenCL lab (its manifest's libraries name OpenCL)
            missing_opencl ;;
        bench)
            [ -f /usr/include/benchmark/benchmark.h ] && has_library benchmark || echo libbenchmark-dev ;;
    esac
}

check_nvcc() {
    command -v "${NVCC:-nvcc}" >/dev/null && return 0
    echo "convlab: nvcc not found: install the CUDA toolkit (NVIDIA's packages for your distribution)" \
         "and put its bin/ folder on PATH, e.g. export PATH=/usr/local/cuda/bin:\$PATH" >&2
    return 1
}

# The package headers are looked for where Debian puts them unless a folder was given.
headers_overridden() {
    [ "$STB_INCLUDE" != /usr/include/stb ] || [ "$JSON_INCLUDE" != /usr/include ] ||
        [ "$CXXOPTS_INCLUDE" != /usr/include ] || [ "$GTEST_INCLUDE" != /usr/include ]
}

# sudo_prefix: empty for root, "sudo -n" with passwordless sudo; fails when neither.
sudo_prefix() {
    if [ "$(id -u)" -eq 0 ]; then echo ""
    elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then echo "sudo -n"
    else return 1
    fi
}

# install_packages PKG...: apt-get update, then install; apt-get's own output only when it fails.
install_packages() {
    local sudo log
    sudo=$(sudo_prefix) || return 1
    log=$(mktemp)
    if ! { $sudo apt-get update -q && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@"; } >"$log" 2>&1; then
        tail -n 15 "$log" >&2
        rm -f "$log"
        return 1
    fi
    rm -f "$log"
}

# The command this user would type: no sudo for root.
install_command() {
    if [ "$(id -u)" -eq 0 ]; then echo "apt-get update && apt-get install -y"; else echo "sudo apt-get update && sudo apt-get install -y"; fi
}

case "${1:-}" in
    check)
        # make test, make demo and every build come here first: what is missing is installed when
        # this user can (root, or passwordless sudo) and the headers are looked for in Debian's
        # places; otherwise the exact command to type is printed.
        purpose=${2:-build}
        [ "$purpose" = report ] || check_nvcc || exit 1
        missing=$(missing_for "$purpose" | sort -u | tr '\n' ' ')
        missing=${missing% }
        [ -z "$missing" ] && exit 0
        # Debian's matplotlib present, but the python3 named for the report (a pyenv or virtualenv
        # one) does not see it: installing again cannot help, so say which python3 does.
        if [ "$missing" = python3-matplotlib ] && dpkg -s python3-matplotlib 2>/dev/null | grep -q '^Status: install ok installed'; then
            echo "convlab: $REPORT_PYTHON does not see Debian's python3-matplotlib, which is installed for /usr/bin/python3: use that (REPORT_PYTHON=/usr/bin/python3, the default) or install matplotlib for $REPORT_PYTHON" >&2
            exit 1
        fi
        if ! headers_overridden && command -v apt-get >/dev/null && sudo_prefix >/dev/null; then
            # make runs in parallel, and two checks (build and bench, say) would both start
            # apt-get, which allows one at a time: the second waits here, then finds what the
            # first installed.
            exec 9>"${TMPDIR:-/tmp}/convlab-deps-$(id -u).lock"
            command -v flock >/dev/null && flock -w 900 9
            missing=$(missing_for "$purpose" | sort -u | tr '\n' ' ')
            missing=${missing% }
            [ -z "$missing" ] && exit 0
            echo "convlab: installing what '$purpose' needs: $missing (apt-get)" >&2
            if install_packages $missing; then
                missing=$(missing_for "$purpose" | sort -u | tr '\n' ' ')
                missing=${missing% }
                [ -z "$missing" ] && exit 0
            fi
            echo "convlab: apt-get did not install $missing" >&2
        fi
        echo "convlab: missing packages for '$purpose': $missing. Install them with:" >&2
        # make deps installs a student machine's packages, not make test's own (Slurm, munge).
        echo "    $(install_command) $missing$([ "$purpose" = test ] || echo '     (or: make deps)')" >&2
        echo "  On a machine without the packages, point the build at copied headers: make DEPS_INCLUDE=/path/to/include ..." >&2
        exit 1 ;;
    install)
        if ! sudo_prefix >/dev/null; then
            echo "convlab: installing packages needs root. Run:" >&2
            echo "    $(install_command) $ALL_PACKAGES" >&2
            exit 1
        fi
        install_packages $ALL_PACKAGES || exit 1
        check_nvcc || exit 1
        echo "convlab: dependencies installed" ;;
    *)
        echo "usage: $0 check build|test|bench|opencl | install" >&2
        exit 2 ;;
esac

#!/usr/bin/env bash
# make sass for an OpenCL lab: the machine code NVIDIA's OpenCL driver makes of the lab's .cl files,
# to set beside what make sass shows of nvcc's for the CUDA lab of the same design. The lab runs
# once, on a small image, with CONVLAB_CL_BINARY_DIR (common/families/filters/cl_device.cpp): the
# driver's compiler writes PTX, which the toolkit's ptxas assembles for the architecture the PTX
# names and cuobjdump shows.
#   common/tools/cl-sass.sh PROGRAM [LAB OPTIONS...]
set -euo pipefail
program=$1
shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
status=0
CONVLAB_CL_BINARY_DIR=$dir "$program" --size 64x48 --check-only "$@" > "$dir/run.txt" 2>&1 || status=$?
shopt -s nullglob
ptx=("$dir"/*.ptx)
if [ ${#ptx[@]} -eq 0 ]; then
    if [ "$status" -ne 0 ]; then
        echo "convlab: $program exited $status before its OpenCL kernels were built: $(grep -v '^$' "$dir/run.txt" | tail -1)" >&2
    else
        echo "convlab: the OpenCL device $program ran on is not NVIDIA's (its compiler writes no PTX); make sass shows NVIDIA's machine code only (--cl-list)" >&2
    fi
    exit 1
fi
for file in "${ptx[@]}"; do
    target=$(awk '$1 == ".target" { sub(/,.*/, "", $2); print $2; exit }' "$file")
    ptxas -arch="$target" "$file" -o "${file%.ptx}.cubin"
    echo "== $(basename "${file%.ptx}").cl, as NVIDIA's OpenCL driver compiles it (PTX for $target, assembled by ptxas)"
    cuobjdump --dump-sass "${file%.ptx}.cubin"
done

#!/usr/bin/env bash
# Lab 8's GPU stages against the CPU reference, bit for bit, and their times (canny_stages.cu says
# what it runs). After make all (or make build/libconvlab.a):
#   tests/device/canny_stages.sh OUT_DIR [SIDE]
set -euo pipefail
out=${1:?usage: $0 OUT_DIR [SIDE]}
mkdir -p "$out"
cuda_home=$(dirname "$(dirname "$(readlink -f "$(command -v nvcc)")")")
cupti=$(find "$cuda_home" -name 'libcupti.so' -print -quit)
nvcc -std=c++17 -O3 -arch=sm_90 -I. ${DEPS_INCLUDE:+-I"$DEPS_INCLUDE"} -Xcompiler -fopenmp -o "$out/canny_stages" \
    tests/device/canny_stages.cu build/libconvlab.a -L"$(dirname "$cupti")" -lcupti -Xlinker -rpath="$(dirname "$cupti")"
"$out/canny_stages" "${2:-8192}"

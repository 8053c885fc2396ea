#!/usr/bin/env bash
# Lab 8's GPU stages through the lab's runner (canny_stages.cu says what it runs), on an
# 8192x8192 synthetic image and on a 2048x2048 spiral (one long edge: the hysteresis rounds).
# After make all (or make build/libconvlab.a):
#   tests/device/canny_stages.sh OUT_DIR
set -uo pipefail
out=${1:?usage: $0 OUT_DIR}
mkdir -p "$out"
cuda_home=$(dirname "$(dirname "$(readlink -f "$(command -v nvcc)")")")
cupti=$(find "$cuda_home" -name 'libcupti.so' -print -quit)
nvcc -std=c++17 -O3 -arch=sm_90 -I. ${DEPS_INCLUDE:+-I"$DEPS_INCLUDE"} -Xcompiler -fopenmp -o "$out/canny_stages" \
    tests/device/canny_stages.cu solutions/lab6/conv2d_separable.cu build/libconvlab.a \
    -L"$(dirname "$cupti")" -lcupti -Xlinker -rpath="$(dirname "$cupti")" || exit 1
status=0
"$out/canny_stages" --size 8192 --border clamp --low 0.1 --high 0.2 --cpu-reps 3 --out "$out/synthetic" || status=1
"$out/canny_stages" --image spiral --size 2048 --border clamp --low 0.1 --high 0.5 --cpu-reps 1 || status=1
exit $status

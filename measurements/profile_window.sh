#!/usr/bin/env bash
# Why the window kernel runs as fast as it does: Nsight Compute's summary sections for one launch
# at k = 3 (memory-bound) and k = 15 (arithmetic-bound), and the instruction mix of its SASS.
#   measurements/profile_window.sh OUT_DIR
set -uo pipefail
out=${1:?usage: $0 OUT_DIR}
bin=build/bin/lab4-solution
for case in "box:3 window-8x4" "gauss:15:4 window-8x4"; do
    set -- $case
    ncu --clock-control none --kernel-name regex:window --launch-skip 1 --launch-count 1 \
        --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
        --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
        $bin --size 8192 --channels 1 --mask "$1" --variant "$2" --reps 1 --warmup 1 --cpu-reps 1 > "$out/ncu-$2-${1%%:*}.txt" 2>&1
    grep -E "Duration|Throughput|Registers|Achieved Occupancy|Theoretical Occupancy|Block Limit|Stall|Issue Slots|Executed Ipc|Shared Memory Configuration Size|Dynamic Shared|Warp Cycles Per Issued|L1/TEX Hit|DRAM" "$out/ncu-$2-${1%%:*}.txt" | head -40
done
cuobjdump --dump-sass --function '_Z20conv2d_window_kernelILi4ELi2EEvN7convlab8ConvArgsE' $bin > "$out/sass-window4.txt" 2>&1
echo "SASS of conv2d_window_kernel<4, 2> (k = 9..16): $(grep -c FFMA "$out/sass-window4.txt") FFMA, $(grep -c 'LDS' "$out/sass-window4.txt") LDS, $(grep -c 'MOV' "$out/sass-window4.txt") MOV, $(grep -cE '^\s+/\*[0-9a-f]+\*/' "$out/sass-window4.txt") instructions"

#!/usr/bin/env bash
# The sources' experiments re-run on the GPU for the handouts' "Then and now" sections (issue 19):
# every lab's presets at the sources' own sizes, one JSON report each, in one session.
#   tests/device/then_and_now.sh OUT_DIR        (after make all)
set -uo pipefail
out=${1:?usage: $0 OUT_DIR}
mkdir -p "$out"
run() {  # name, lab, arguments...: one report, a line saying how it went
    local name=$1 lab=$2
    shift 2
    local start=$SECONDS
    timeout 200 "build/bin/lab$lab-solution" "$@" --cpu-reps 1 --format json > "$out/$name.json" 2> "$out/$name.err"
    echo "$name: exit $? in $((SECONDS - start)) s"
}
run lab0-dani-niccoli-2048 0 --preset dani-niccoli
for side in 2800 5600 11200 22400; do
    run lab1-mesa-hidalgo-$side 1 --preset mesa-hidalgo-2015 --size $side
    run lab2-mesa-hidalgo-$side 2 --preset mesa-hidalgo-2015 --size $side
done
for side in 177 2027; do
    run lab2-korbes-$side 2 --preset korbes-2010 --size $side
    run lab3-korbes-$side 3 --preset korbes-2010 --size $side
done
run lab3-dani-niccoli-8192 3 --preset dani-niccoli
run lab4-mesa-hidalgo-3000x4000 4 --preset mesa-hidalgo-2015
run lab6-dani-niccoli-8192 6 --preset dani-niccoli --variant lab3-tiled,two-pass,fused,sequential-separable
run lab6-lourenco-2011 6 --preset lourenco-2011

#!/usr/bin/env bash
# The sources' experiments re-run on the GPU for the handouts' "Then and now" sections (issue 19):
# every lab's presets at the sources' own sizes, one JSON report each, then one archive of them
# (OUT_DIR.tar.gz: the device tool brings back only a few files a call).
#   measurements/then_and_now.sh OUT_DIR [PART]        (after make all)
# PART a, b, c, d or e runs a part (a device call has 10 minutes); none runs everything. Parts d (labs
# 7 and 8) and e (lab 9, 6 to 8 GiB of host memory each) have not been run yet; lab 5's report is its plain default run (the folder's README). Measured on
# an H100 (16 cores): lab 0's preset 104 s, lab 1 at 11200 79 s, lab 1 at 22400 over 200 s (its
# end-to-end timing and CPU reference dominate), every other run of part a under 65 s.
set -uo pipefail
out=${1:?usage: $0 OUT_DIR [a|b|c|d|e]}
part=${2:-all}
mkdir -p "$out"
run() {  # name, lab, arguments...: one report, a line saying how it went
    local name=$1 lab=$2
    shift 2
    local start=$SECONDS
    timeout 400 "build/bin/lab$lab-solution" "$@" --cpu-reps 1 --format json > "$out/$name.json" 2> "$out/$name.err"
    echo "$name: exit $? in $((SECONDS - start)) s" | tee -a "$out/summary.txt"
}
if [[ $part == a || $part == all ]]; then
    run lab0-dani-niccoli-2048 0 --preset dani-niccoli
    for side in 2800 5600 11200; do
        run lab1-mesa-hidalgo-$side 1 --preset mesa-hidalgo-2015 --size $side
    done
    for side in 2800 5600 11200 22400; do
        run lab2-mesa-hidalgo-$side 2 --preset mesa-hidalgo-2015 --size $side
    done
fi
if [[ $part == b || $part == all ]]; then
    run lab1-mesa-hidalgo-22400 1 --preset mesa-hidalgo-2015 --size 22400
fi
if [[ $part == c || $part == all ]]; then
    for side in 177 2027; do
        run lab2-korbes-$side 2 --preset korbes-2010 --size $side
        run lab3-korbes-$side 3 --preset korbes-2010 --size $side
    done
    run lab3-dani-niccoli-8192 3 --preset dani-niccoli
    run lab4-mesa-hidalgo-3000x4000 4 --preset mesa-hidalgo-2015
    run lab6-dani-niccoli-8192 6 --preset dani-niccoli --variant lab3-tiled,two-pass,fused,sequential-separable
    run lab6-lourenco-2011 6 --preset lourenco-2011
fi
if [[ $part == d || $part == all ]]; then
    run lab7-kasuya-2021 7 --preset kasuya-2021
    run lab8-lourenco-2011-b4 8 --preset lourenco-2011-b4
    run lab8-spiral 8 --preset spiral
fi
if [[ $part == e || $part == all ]]; then
    run lab9-mesa-hidalgo-2015 9 --preset mesa-hidalgo-2015
    run lab9-overlap-32768 9 --preset overlap-32768
fi
tar czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")"

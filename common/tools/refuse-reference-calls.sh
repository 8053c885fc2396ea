#!/usr/bin/env bash
# Run by the Makefile before a student build links: a student file may not call the harness's CPU
# references (every function common/core/reference.hpp, canny.hpp, box_filter.hpp and banded_check.hpp
# declare: the objects the grader's build withholds, WITHHELD_SRC in the Makefile). They exist to
# check results; conv2d_cpu_omp is a complete, fast answer to lab 0, reference_value_at one output
# value of it, canny_reference every stage of lab 8, and a result the harness computed is no
# student's work. The grader builds through the same rule, so a submission that calls one does not
# build (and its build holds no reference anyway: a call through a pointer fails there). The headers
# declare them all out of line, so that a call leaves an undefined symbol here.
# (canny_rules.hpp's per-pixel rules are inline and meant to be called.)
#   common/tools/refuse-reference-calls.sh OBJECT...   (build/obj/labs/labN/FILE.o)
set -euo pipefail
common=$(dirname "$0")/..
names=""
for header in "$common/core/reference.hpp" "$common/families/pipelines/canny.hpp" "$common/families/filters/box_filter.hpp" "$common/families/strips/banded_check.hpp"; do
    found=$(sed -nE 's/^[A-Za-z][A-Za-z0-9_]* ([a-z][a-z0-9_]*)\(.*/\1/p' "$header" | paste -sd '|')
    if [ -z "$found" ]; then
        echo "convlab: found no function in $header to refuse; the build's check is broken" >&2
        exit 2
    fi
    names+="${names:+|}$found"
done
status=0
for object in "$@"; do
    called=$(nm -C -u "$object" 2>/dev/null | grep -oE "convlab::($names)\(" | sort -u | tr -d '(' || true)
    base=${object#build/obj/}
    base=${base%.o}
    source=$base.cpp
    [ -f "$source" ] || source=$base.cu
    for name in $called; do
        echo "convlab: $source calls ${name#convlab::}, the harness's reference that checks your results; compute the result yourself" >&2
        status=1
    done
done
exit $status

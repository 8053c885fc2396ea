#!/usr/bin/env bash
# Run by the Makefile before a student build links: a student file may not call the harness's CPU
# references (every function common/reference.hpp declares). They exist to check results;
# conv2d_cpu_omp is a complete, fast answer to lab 0, reference_value_at one output value of it,
# and a result the harness computed is no student's work. The grader builds through the same rule,
# so a submission that calls one does not build. reference.hpp declares them all out of line, so
# that a call leaves an undefined symbol here.
#   common/tools/refuse-reference-calls.sh OBJECT...   (build/obj/labs/labN/FILE.o)
set -euo pipefail
header=$(dirname "$0")/../reference.hpp
names=$(sed -nE 's/^[a-z][a-z0-9_]* ([a-z][a-z0-9_]*)\(.*/\1/p' "$header" | paste -sd '|')
if [ -z "$names" ]; then
    echo "convlab: found no function in $header to refuse; the build's check is broken" >&2
    exit 2
fi
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

#!/usr/bin/env bash
# Run by the Makefile before a student build links: a student file may not call the harness's CPU
# references (common/reference.hpp). They exist to check results; conv2d_cpu_omp is a complete,
# fast answer to lab 0, and a result the harness computed is no student's work. The grader builds
# through the same rule, so a submission that calls one does not build.
#   common/tools/refuse-reference-calls.sh OBJECT...   (build/obj/labs/labN/FILE.o)
set -euo pipefail
status=0
for object in "$@"; do
    called=$(nm -C -u "$object" 2>/dev/null | grep -oE 'convlab::conv2d_cpu(_omp)?\(' | sort -u | tr -d '(' || true)
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

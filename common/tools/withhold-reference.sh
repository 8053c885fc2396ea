#!/usr/bin/env bash
# The grader's build of a submission (build/bin/labN-graded) holds no CPU reference: the Makefile
# links it without the objects that compute one (WITHHELD_SRC), and binds every function those
# objects define to convlab_reference_withheld (common/grading/withheld_reference.cpp), which ends the
# run with one line. This script writes those bindings and checks the result.
#   common/tools/withhold-reference.sh source OBJECT...          a C++ file: the stub, and each
#       function the objects define as an alias of it (by its mangled name, so any caller links)
#   common/tools/withhold-reference.sh verify BINARY OBJECT...   fails unless every function the
#       objects define is absent from BINARY or is the withheld stub itself
# Only the objects' own strong functions are bound: their weak ones (inline functions, template
# instances) are copies that other objects hold too, and their local ones cannot be called from
# outside. Text symbols only: a reference is code.
set -euo pipefail
stub=convlab_reference_withheld
verb=${1:-}
shift || true

defined_functions() {  # the strong, global functions the objects define, mangled
    nm --defined-only "$@" 2>/dev/null | awk '$2 == "T" { print $3 }' | sort -u
}

case "$verb" in
source)
    functions=$(defined_functions "$@")
    if [ -z "$functions" ]; then
        echo "convlab: no function found in $* to withhold; the graded build's rule is broken" >&2
        exit 2
    fi
    echo "// Written by common/tools/withhold-reference.sh from $*: do not edit."
    echo '#include "common/grading/withheld_reference.cpp"'
    echo 'extern "C" {'
    for f in $functions; do echo "[[noreturn]] void $f() __attribute__((alias(\"$stub\")));"; done
    echo '}'
    ;;
verify)
    binary=$1
    shift
    stub_address=$(nm "$binary" | awk -v s="$stub" '$3 == s { print $1 }')
    status=0
    if [ -z "$stub_address" ]; then
        echo "convlab: $binary has no $stub: it is not a graded build" >&2
        stub_address=none
        status=1
    fi
    while read -r address type name; do
        [ "$address" = "$stub_address" ] && continue
        echo "convlab: $binary holds $(echo "$name" | c++filt) (type $type), code of the CPU reference the graded build withholds" >&2
        status=1
    done < <(nm "$binary" | awk 'NF == 3' | grep -Fwf <(defined_functions "$@") || true)
    exit $status
    ;;
*)
    echo "usage: $0 source OBJECT... | verify BINARY OBJECT..." >&2
    exit 2
    ;;
esac

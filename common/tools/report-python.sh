#!/bin/sh
# The python3 that draws make report's plots (the Makefile's REPORT_PYTHON, deps.sh's, the report
# tests'): the system's /usr/bin/python3 when it has matplotlib (Debian's python3-matplotlib
# installs for it alone, so a pyenv or virtualenv python3 first on PATH does not see it); else the
# python3 on PATH when that one has it (a pip-installed matplotlib, as on many GPU servers); else
# the system's, for which make deps installs matplotlib and make doctor says what is missing.
SYSTEM_PYTHON=${SYSTEM_PYTHON:-/usr/bin/python3}  # another path only in the kit's tests
has_matplotlib() {
    "$1" -c 'import importlib.util, sys; sys.exit(importlib.util.find_spec("matplotlib") is None)' 2>/dev/null
}
for candidate in "$SYSTEM_PYTHON" "$(command -v python3 2>/dev/null)"; do
    if [ -n "$candidate" ] && [ -x "$candidate" ] && has_matplotlib "$candidate"; then
        echo "$candidate"
        exit 0
    fi
done
if [ -x "$SYSTEM_PYTHON" ]; then echo "$SYSTEM_PYTHON"; else echo python3; fi

#!/usr/bin/env bash
# make dist-student: the student release, dist/convlab-student.tar.gz. Everything a student
# builds and runs (the harness, the labs' skeletons and drivers, images, handouts), a README
# written for students (handouts/README-student.md), and nothing an instructor keeps: no
# solutions/, no grading/ (hidden cases, known-bad submissions), no tests/ or measurements/ (they
# exercise the solutions), no instructor guide or README (demo, solutions, grading), no CI.
#   common/tools/dist-student.sh OUT_DIR
set -euo pipefail
out=${1:-dist}
name=convlab-student
cd "$(dirname "$0")/../.."

# Tracked files (and new ones git does not ignore), so that nothing built ships.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    files=$(git ls-files --cached --others --exclude-standard)
else
    echo "dist-student: not a git checkout: the release is made from the tracked files of one" >&2
    exit 1
fi
keep=$(printf '%s\n' "$files" | grep -Ev '^(solutions/|grading/|tests/|measurements/|\.ci/|\.gitignore$|README\.md$|handouts/instructor-guide\.md$|handouts/README-student\.md$)')

# Every lab's manifest names the files a student edits: each must ship (as its skeleton).
for manifest in labs/lab*/manifest; do
    lab=${manifest#labs/lab}; lab=${lab%/manifest}
    for f in $(common/tools/manifest.sh value "$lab" student | sed "s|[^ ][^ ]*|labs/lab$lab/&|g") \
             $(common/tools/manifest.sh value "$lab" uses | sed 's|[^ ][^ ]*|labs/&|g'); do
        # A here-string, not a pipe: grep -q stops reading at its match, and the writer's SIGPIPE
        # would fail the pipeline under pipefail (it did once, on a loaded machine).
        grep -qxF -- "$f" <<< "$keep" || { echo "dist-student: $manifest names $f, which is not in the release" >&2; exit 1; }
    done
done

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/$name"
printf '%s\n' "$keep" | tar -cf - -T - | tar -xf - -C "$stage/$name"
cp handouts/README-student.md "$stage/$name/README.md"
# The release's own .gitignore: the build outputs a student will produce.
printf '/build/\n/demo-output/\n/lab[0-9]\n' > "$stage/$name/.gitignore"

mkdir -p "$out"
tar -czf "$out/$name.tar.gz.partial" -C "$stage" "$name"
mv "$out/$name.tar.gz.partial" "$out/$name.tar.gz"
echo "dist-student: $out/$name.tar.gz ($(find "$stage/$name" -type f | wc -l) files; no solutions, hidden cases, known-bad submissions or tests)"

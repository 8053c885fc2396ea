#!/usr/bin/env bash
# make slurm-run LAB=n [ARGS='...']: a lab built and run on a GPU node of a Slurm cluster. Writes
# the job script slurm-labN.sbatch here (the kit's folder, which the nodes must share, as a home
# folder is on most clusters), submits it with sbatch and says where its output will be:
#   slurm-labN-JOB.out     what the run printed (the build, progress, errors)
#   labN-slurm-JOB.json    the run's report (--format json), kept whatever the check says; in the
#                          full kit, make report LAB=n FROM=that-file draws its tables and plots
# The cluster's settings come from the environment, so that a course can give them once:
#   SLURM_PARTITION  --partition (default: the cluster's default partition)
#   SLURM_GRES       --gres (default gpu:1; none for lab 0, a CPU lab; SLURM_GRES= asks for none)
#   SLURM_TIME       --time (default 00:20:00)
#   SLURM_ACCOUNT    --account
#   SLURM_RUN_SUBMIT=no   write the job script, do not submit it
set -euo pipefail
cd "$(dirname "$0")/../.."
lab=$1
shift
[ -f "labs/lab$lab/manifest" ] || { echo "convlab: slurm-run: no lab $lab here" >&2; exit 2; }

# A lab whose student files are all C++ (lab 0) runs on the CPU: no GPU asked for.
gpu_lab=no
for file in $(common/tools/manifest.sh value "$lab" student); do
    case "$file" in *.cpp) ;; *) gpu_lab=yes ;; esac
done
default_gres=$([ "$gpu_lab" = yes ] && echo gpu:1 || echo "")
gres=${SLURM_GRES-$default_gres}

script="slurm-lab$lab.sbatch"
here=$(pwd)
{
    echo "#!/bin/bash"
    echo "# Written by make slurm-run LAB=$lab (common/tools/slurm-run.sh): builds and runs lab $lab on the node."
    echo "#SBATCH --job-name=convlab-lab$lab"
    echo "#SBATCH --output=$here/slurm-lab$lab-%j.out"
    echo "#SBATCH --time=${SLURM_TIME:-00:20:00}"
    echo "#SBATCH --ntasks=1"
    [ -n "$gres" ] && echo "#SBATCH --gres=$gres"
    [ -n "${SLURM_PARTITION:-}" ] && echo "#SBATCH --partition=$SLURM_PARTITION"
    [ -n "${SLURM_ACCOUNT:-}" ] && echo "#SBATCH --account=$SLURM_ACCOUNT"
    echo "set -uo pipefail"
    echo "unset MAKEFLAGS MFLAGS MAKELEVEL  # not the submitting make's jobserver"
    echo "cd $(printf %q "$here")"
    echo "echo \"convlab: lab $lab on \$(hostname), job \$SLURM_JOB_ID\""
    echo "make --no-print-directory lab$lab || exit 1"
    echo "report=lab$lab-slurm-\$SLURM_JOB_ID.json"
    # The report is kept whatever the check says (an unfinished lab's report shows what failed);
    # it is renamed only once the run has ended, so a job killed mid-run leaves no half report.
    quoted=""
    [ $# -gt 0 ] && quoted="$(printf '%q ' "$@")"
    printf '%s\n' "./lab$lab $quoted--format json > \"\$report.partial\""
    echo "status=\$?"
    echo "if [ -s \"\$report.partial\" ]; then mv \"\$report.partial\" \"\$report\"; else rm -f \"\$report.partial\"; report=; fi"
    echo "echo \"convlab: ./lab$lab exited with status \$status (0: every check passed, 1: a check failed, 3: no GPU on this node)\""
    echo "[ -n \"\$report\" ] && echo \"convlab: the report (--format json) is in \$report\""
    echo "exit \$status"
} > "$script"
chmod +x "$script"
echo "convlab: wrote $script"
if [ "${SLURM_RUN_SUBMIT:-yes}" = no ]; then
    echo "convlab: not submitted (SLURM_RUN_SUBMIT=no): sbatch $script submits it"
    exit 0
fi
command -v sbatch >/dev/null || { echo "convlab: slurm-run: sbatch not found: run this on the cluster's login node" >&2; exit 1; }
echo "convlab: sbatch --parsable $script"
job=$(sbatch --parsable "$script")
job=${job%%;*}
echo "convlab: submitted job $job: squeue -j $job shows it; its output goes to slurm-lab$lab-$job.out, its report to lab$lab-slurm-$job.json"

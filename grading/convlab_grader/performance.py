"""The performance part of grading: each timed case run against the reference solution, the
runs interleaved, with every timed result checked; the time that counts (the grader's own clock,
where the program's report leaves out time it measured), and why a time does not count (a wrong
result, a forged time: one no GPU could achieve)."""
import json
import os
import re
import shutil
import socket
import statistics
import subprocess

from . import cases, gpu_pool, reports, sandbox, scoring

FLOOR_SHARE = 0.7  # a time under 70% of the byte or flop model's minimum is impossible, not fast
# Peer timing: what the grader's timer measures around a repetition exceeds the program's own
# event time by the protocol's overhead (fresh input, L2 flush, two messages, the read-back),
# about the same for every program. A submission's overhead beyond the reference's by more than
# this is time its report left out (an allocation in the launch function, or a forgery): its time
# is then the grader's clock, less the reference's overhead. Slow is slow; only a time no GPU could
# achieve is called forged (FLOOR_SHARE).
PEER_SLACK_MS = 0.05
PEER_SLACK_SHARE = 0.10  # of the time measured from outside
# Lab 9: device memory in use when the program was ready for the grader's timer, beyond the
# reference program's, that is still not a buffer of its own (the runtime's and the driver's
# bookkeeping differ a little between two builds): common/families/strips/device_memory_cap.hpp's
# kDeviceMemorySlack.
HELD_SLACK_MIB = 64


def timed_args(perf):
    """A timed case's arguments, "{cores}" replaced by this machine's core count (lab 0 is timed
    at the machine's core count, as its handout says)."""
    return [arg.replace("{cores}", str(os.cpu_count() or 1)) for arg in perf["args"]]


def checked_seed(spec, perf):
    """The input seed of the timed repetition whose result is checked: the harness gives each
    timed run of a variant (a GPU variant's warm-ups included) a fresh random input, seed + 1 + its
    number, and keeps the last one's result (--fresh-input-each-rep). A CPU lab's variants are
    timed --cpu-reps times with no warm-up."""
    args = perf["args"]
    runs = perf["cpu_reps"] if spec.get("cpu_only") else perf.get("warmup", 2) + perf.get("reps", 15)
    return int(args[args.index("--seed") + 1]) + runs


def cpu_outside_program(ran, doc):
    """Why a CPU lab's timed run cannot be timed by its critical path, or None: the jail counted
    more CPU time for the run's processes than the program used itself (a helper process it
    never waited for). Without a jail there is no count to compare (the guide says so)."""
    own = (doc or {}).get("process_cpu_ms")
    if ran.cpu_ms is None or not isinstance(own, (int, float)):
        return None
    # An honest run differs by what the program does after its report (about 2 ms on lab 0's
    # timed case); a helper that did the work shows as a third of the total or more.
    if ran.cpu_ms - own <= max(20.0, 0.05 * ran.cpu_ms):
        return None
    return (f"{ran.cpu_ms - own:.0f} ms of CPU time went to processes the program did not wait for "
            f"({ran.cpu_ms:.0f} ms for the run, {own:.0f} ms its own): work outside the timed program")


def idle_threads_factor(row):
    """A CPU run that left threads it was given idle is charged as if they had worked at its pace:
    threads given over threads that worked. Where two threads are no faster than one (cores
    that share their units, a VM's stolen time), the critical path alone cannot tell a one-thread
    program from a parallel one; the count of threads that worked can (lab 0 one-thread)."""
    given, worked = row.get("threads"), row.get("busy_threads")
    if not isinstance(given, int) or not isinstance(worked, int) or given <= 1:
        return 1.0
    return given / min(given, max(worked, 1))


def fresh_inputs(spec):
    """Whether the program itself can give each timed repetition a fresh input that the grader
    can check afterwards (--fresh-input-each-rep): an image lab can; an array lab's fresh inputs
    come only from the grader's timer (peer timing). (Labs 8 and 9 never ask: they are timed
    only so, "peer_only", and measure() gives them nothing where peer timing does not work.)"""
    return "elements" not in spec


def peer_timed(spec):
    """A GPU lab is timed by the grader's own process (--timer-of, common/grading/peer_timer.hpp), which
    makes every repetition's input and checks its result: the program's report of its own time
    is checked against it. Lab 0 has no GPU work; a lab without timed cases is not timed at all;
    an OpenCL lab is timed by the program (timed_by_the_program)."""
    return not spec.get("cpu_only") and bool(spec.get("performance", {}).get("cases")) and not timed_by_the_program(spec)


def timed_by_the_program(spec):
    """An OpenCL lab ("timer": "program"): the student writes kernels only, and the host code that
    launches and times them (OpenCL profiling events) is the kit's, so no student code runs on the
    host beside a timed kernel or on a queue of its own, and the program's report of its own time
    is what counts, checked as every lab's (fresh inputs, each run's spot record, the physical
    floor). The grader's timer cannot time it: peer timing shares CUDA device memory between two
    processes, which OpenCL cannot do."""
    return spec.get("performance", {}).get("timer") == "program"


def not_on_a_gpu(spec, doc):
    """Why a run of a lab timed by its program cannot count, or None: on a device that is not a GPU
    (PoCL runs the kernels on the CPU, inside the program, where a kernel that writes outside its
    buffers can reach the program's own report), what cannot be trusted fails closed."""
    device = (doc or {}).get("device") or {}
    if not timed_by_the_program(spec) or device.get("type") == "GPU":
        return None
    return gpu_alone(f"on this run's OpenCL device ({device.get('name') or 'none'}, a {device.get('type') or 'device of no type'})")


def gpu_alone(where):
    """The problem of a case an OpenCL device other than a GPU cannot time (not_on_a_gpu,
    default_device_not_a_gpu); `where` says which device, up to "the kernels run"."""
    return (f"timed on a GPU alone: {where} the kernels run inside the graded program, whose report of its own time they "
            "could rewrite: no performance points")


def time_that_counts(sub_reported, sub_peer, ref_reported, ref_peer):
    """The submission's time (medians over the runs, so one slow run does not decide) and, where
    it is not the program's own report, why: when the grader's timer measured more around the runs
    than the report plus the overhead the reference's runs show (and the slack), the report left
    time out, and the grader's clock less that overhead counts instead."""
    reported = statistics.median(sub_reported)
    if not sub_peer or not ref_peer:
        return reported, None
    sub_over = statistics.median(sub_peer) - reported
    ref_over = statistics.median(ref_peer) - statistics.median(ref_reported)
    allowed = ref_over + PEER_SLACK_MS + PEER_SLACK_SHARE * statistics.median(sub_peer)
    if sub_over <= allowed:
        return reported, None
    # The grader's clock less the reference's overhead, and never less than the reference's time
    # scaled by the two clocks' ratio: an overhead that was large in the reference's runs alone (a
    # busy host) must not make the submission's time smaller than its own clock allows.
    measured = max(statistics.median(sub_peer) - ref_over,
                   statistics.median(sub_peer) * statistics.median(ref_reported) / statistics.median(ref_peer))
    return measured, (f"timed by the grader's clock: the program reported {reported:.4g} ms, but the grader's own process "
                      f"measured {statistics.median(sub_peer):.4g} ms around it, {sub_over:.4g} ms more where the reference's "
                      f"runs show {ref_over:.4g} ms of overhead; {measured:.4g} ms counts")


def largest_figure(doc, name):
    """The largest value of figure `name` on a report's rows, or None where no row has it."""
    found = [reports.figures(r).get(name) for r in (doc or {}).get("results", []) if isinstance(r, dict)]
    return max((v for v in found if isinstance(v, (int, float)) and not isinstance(v, bool)), default=None)


def held_more(mine, theirs, when):
    """Lab 9's rule on memory, however early a program allocates: the MiB a program's GPU had in use
    at a moment (`when`) against the reference program's at the same moment on the same GPU model,
    where two contexts differ a little. What the problem is where the program's is more by
    HELD_SLACK_MIB, else None (None too where either is unknown: a run that failed says so itself)."""
    if mine is None or theirs is None or mine <= theirs + HELD_SLACK_MIB:
        return None
    return (f"the program held {mine - theirs:.0f} MiB more device memory than the reference's {when} ({mine:.0f} MiB in use "
            f"against {theirs:.0f}): a strip variant may hold its budget and no more, however early it allocates")


def held_before_ready(doc, ref_doc):
    """Lab 9's timed runs, measured from outside the program: the grader's timer holds the device but
    the budget once the program is ready (common/families/strips/strip_peer.hpp) and reports what the
    device then had in use besides its hold, the timer's and the program's contexts and whatever the
    program allocated before (a buffer made before main, out of reach of the program's own records
    and its cap). The same for the reference's program, on the same GPU in the same session, says
    what two contexts take. A problem (the case earns nothing), or None."""
    held = held_more(largest_figure(doc, "device_mib_at_ready"), largest_figure(ref_doc, "device_mib_at_ready"),
                     "before its first timed run, measured by the grader's timer")
    return held and held + ": no performance points"


def floor_ms(args, reference_doc, variant=None):
    """The least time a correct GPU run of this case can take, with FLOOR_SHARE of margin: its
    bytes at the copy bandwidth the reference measured, or its flops at the FP32 peak, under the
    variant's work model as the reference's own report gives it (by default one read per input
    byte and one float written per output value, 5 B, and 2 K^2 flops per value; a separable
    two-pass variant moves 13 B and does 4 K); a strip variant's (lab 9), the image in and the
    result out over the bus at the pinned copy rates the reference measured. None for a case
    without an image (lab 5) or a run without a GPU (lab 0)."""
    if not isinstance(reference_doc, dict) or "--size" not in args or "--channels" not in args or "--mask" not in args:
        return None
    w, _, h = args[args.index("--size") + 1].partition("x")
    values = int(w) * int(h or w) * int(args[args.index("--channels") + 1])
    k = cases.mask_size(args[args.index("--mask") + 1])
    row = next((r for r in reference_doc.get("results", []) if isinstance(r, dict) and r.get("variant") == variant), {})
    # Host memory to host memory (lab 9): every byte of the image crosses the bus in and every float
    # of the result out, the two copy engines at once, at the pinned rates the reference measured.
    copies, strips = reference_doc.get("transfer_bandwidth") or {}, reports.figures(row)
    if strips.get("host_memory") == "pinned" and copies.get("h2d_pinned_gbs") and copies.get("d2h_pinned_gbs"):
        bus_ms = max(values / copies["h2d_pinned_gbs"], 4 * values / copies["d2h_pinned_gbs"]) * 1e-6
        return FLOOR_SHARE * bus_ms / max(1, strips.get("gpus") or 1)
    device = reference_doc.get("device") or {}
    bandwidth, peak = device.get("copy_bandwidth_gbs"), device.get("fp32_peak_gflops")
    if not bandwidth:
        return None
    per_value_bytes, per_value_flops = row.get("bytes_per_value", 5), row.get("flops_per_value", 2 * k * k)
    bytes_ms = values * per_value_bytes / (bandwidth * 1e9) * 1e3
    flops_ms = per_value_flops * values / (peak * 1e9) * 1e3 if peak else 0.0
    return FLOOR_SHARE * max(bytes_ms, flops_ms)


def run_failure(ran, doc):
    """How a run ended, with the first error its own report gives (a CUDA error such as an illegal
    memory access names itself there)."""
    errors = [r.get("message", "") for r in (doc or {}).get("results", []) if isinstance(r, dict) and r.get("status") == "error"]
    return ran.describe() + (f": {str(errors[0])[:200]}" if errors else "")


def timing_groups(perf_cases):
    """The indices of the performance cases, grouped so that cases differing only in the variants
    they time (and the labels they require) share one timed process per run."""
    groups = {}
    for index, perf in enumerate(perf_cases):
        key = json.dumps({k: v for k, v in perf.items() if k not in ("variants", "requires")}, sort_keys=True)
        groups.setdefault(key, []).append(index)
    return list(groups.values())


def timed_run(session, binary, out, perf, identity):
    """One timed process: the submission's (with its identity, jailed) or the reference's
    (identity None). Returns (outcome, its JSON, median ms per variant that wrote its result: the
    run holds no reference, so it passes nothing itself; the trusted check does)."""
    # A lab that also times its CPU reference says in the spec how often (lab 5 has none).
    cpu = ["--cpu-reps", str(perf["cpu_reps"])] if "cpu_reps" in perf else []
    fresh = ["--warmup", str(perf.get("warmup", 2)), "--fresh-input-each-rep"] if fresh_inputs(session.spec) else []
    # A CPU lab is timed by its critical path (the busiest thread's CPU time, common/timing/cpu_work.hpp),
    # which another program on the machine does not stretch as it does the wall clock; OpenMP's
    # threads must sleep, not spin, while they wait for that to hold.
    cpu_lab = bool(session.spec.get("cpu_only"))
    ran = sandbox.run(session.isolation, [binary, *timed_args(perf), "--variant", ",".join(perf["variants"]), "--reps",
                                          str(perf.get("reps", 15)), *cpu, *fresh, "--format", "json", "--raw-out", out], out,
                      perf.get("time_limit_s", 300), identity=identity, env={"OMP_WAIT_POLICY": "passive"} if cpu_lab else None)
    doc = reports.parse(ran.stdout) or {}
    outside = cpu_outside_program(ran, doc) if cpu_lab else None
    if outside:  # its critical path missed that work: no time counts from this run
        return ran, {"results": [{"status": "error", "message": outside}]}, {}
    clock = "critical_path" if cpu_lab else "time"
    times = {r["variant"]: r[clock]["median_ms"] * (idle_threads_factor(r) if cpu_lab else 1) for r in doc.get("results", [])
             if isinstance(r, dict) and r.get("status") in ("pass", "written") and isinstance(r.get(clock), dict)
             and isinstance(r[clock].get("median_ms"), (int, float))}
    return ran, doc, times


def peer_args(perf):
    """A peer-timed case's arguments, the same for the timer and the program it times (each then
    adds its end of the socket)."""
    return [*timed_args(perf), "--variant", ",".join(perf["variants"]), "--reps", str(perf.get("reps", 15)),
            "--warmup", str(perf.get("warmup", 2)), "--format", "json"]


def peer_timed_run(session, binary, out, perf, identity):
    """One timed run of a GPU lab: the program (the submission's, jailed, or the reference's)
    serves the grader's timer, the reference build run as `--timer-of` by the grader, which
    makes the inputs, reads and checks the results, and reports. Returns (the program's
    outcome, the timer's JSON, the program's own median ms per variant the timer passed, the
    timer's median ms for the same variants)."""
    args = peer_args(perf)
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    limit = perf.get("time_limit_s", 300)
    try:
        # The timer and the program share device memory: both on the GPU of this run's lease.
        timer = subprocess.Popen([session.reference, *args, "--timer-of", str(ours.fileno())], pass_fds=[ours.fileno()],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=gpu_pool.child_environment())
        ours.close()
        ran = sandbox.run(session.isolation, [binary, *args, "--timed-by", str(theirs.fileno())], out, limit,
                          identity=identity, pass_fds=[theirs.fileno()])
    finally:
        ours.close()
        theirs.close()  # the timer sees the end of the conversation, whatever the program left running
    try:
        stdout, stderr = timer.communicate(timeout=limit + 60)
    except subprocess.TimeoutExpired:
        timer.kill()
        stdout, stderr = timer.communicate()
    doc = reports.parse(stdout) or {}
    if not doc and identity is None:
        raise RuntimeError(f"the grader's timer failed: {stderr.strip()[-500:]}")
    times, peer = {}, {}
    for r in doc.get("results", []):
        if r.get("status") == "pass" and r.get("time") and r.get("peer_time"):
            times[r["variant"]] = r["time"]["median_ms"]
            peer[r["variant"]] = r["peer_time"]["median_ms"]
    return ran, doc, times, peer


def peer_probe_case(spec):
    """The probe's timed case: the lab's first timed case as drawn for grading (so it carries every
    option a real timed run does: one mask, a random image, a border, channels) at 64x64, or
    4096 elements for an array lab."""
    first = cases.timed_cases(spec, 0)[0]
    small = ("--elements", "4096") if "elements" in spec else ("--size", "64x64")
    return {"args": cases.with_option(first["args"], *small), "variants": first["variants"][:1], "reps": 1,
            "warmup": 0, "time_limit_s": 60}


def peer_timing_works(session):
    """Peer timing needs two processes on the GPU at once (a GPU in exclusive-process compute
    mode refuses the second) and memory one can export to the other. One small run of the
    reference timing itself tells; without it, a program's report of its own time is trusted
    and the grader's notes say so."""
    perf = peer_probe_case(session.spec)
    out = session.private("peer-timing-probe")
    try:
        with session.gpus.whole():
            _, doc, times, _ = peer_timed_run(session, session.reference, out, perf, None)
        works, why = bool(times), str(doc.get("results"))[:300]
    except RuntimeError as e:
        works, why = False, str(e)[:300]
    shutil.rmtree(out, ignore_errors=True)
    if not works:
        session.notes.append("peer timing does not work on this machine (" + why + "): each program's report of its own "
                             "time is trusted, so a forged report above the physical floor is not caught")
    return works


def default_device_not_a_gpu(session):
    """For a lab timed by its program (OpenCL): why its default device, as the reference's
    --cl-list names it, is not one whose times can count (not_on_a_gpu), or None. Said once in the
    session's notes; no timed run is made then."""
    if not timed_by_the_program(session.spec):
        return None
    listed = subprocess.run([session.reference, "--cl-list"], capture_output=True, text=True, timeout=120, env=gpu_pool.child_environment())
    default = next((line for line in listed.stdout.splitlines() if line.rstrip().endswith("[the default]")), None)
    if default and "(GPU)" in default:
        return None
    # "  0  NAME; platform ...": the name, without --cl-list's index
    device = re.sub(r"^\s*\d+\s+", "", default.split(";")[0]) if default else "none (" + (listed.stderr or listed.stdout).strip()[-200:] + ")"
    why = gpu_alone(f"this machine's OpenCL device is {device}, not a GPU, where")
    session.notes.append(why)
    return why


def listed_variants(program):
    """The variants a lab program's --help lists ("Variants:", common/cli/options.cpp), in its
    order; None when it lists none (an array lab, or a program that does not answer --help)."""
    done = subprocess.run([program, "--help"], capture_output=True, text=True)
    if done.returncode != 0 or "\nVariants:\n" not in done.stdout:
        return None
    listed = done.stdout.split("\nVariants:\n", 1)[1].split("\n\n", 1)[0]
    return [line.split()[0] for line in listed.splitlines() if line.strip()]


def expert_tier(reference):
    """The reference solution's expert tier (solutions/labN/expert/, common/runner/expert_tier.hpp):
    for each design variant with one, its NAME-expert variants, from the program's --help. The
    grader times them beside the reference's own, for the student's report only: they earn and
    cost nothing, the design tier is the bar."""
    tier = {}
    for name in listed_variants(reference) or []:
        if name.endswith("-expert"):
            tier.setdefault(name[:-len("-expert")], []).append(name)
    return tier


def may_earn(result, perf):
    """Performance is paid for correct work only: a timed case may earn points when every label
    it requires (spec.py checks that those are its variants' labels) passed every hidden case."""
    def passed_all(label):
        t = result["variants"].get(label, {})
        return bool(t.get("total")) and t["passed"] == t["total"]
    return all(passed_all(label) for label in perf["requires"])


def measure(session, sub):
    """Submission and reference interleaved, runs x each; per case the best of its listed
    variants, when they all passed every hidden case. Each timed run's results are checked too: in
    a peer-timed lab by the grader's timer (every repetition, on inputs it made), otherwise the last
    repetition's (on an input of its own) by the trusted checker; a variant counts in a run only
    when they are right. Cases that differ only in their variants share
    each timed run (lab 5 times five variants at one length: one process per run, not five)."""
    spec = session.spec["performance"]
    # A lab timed only by the grader's own process (lab 9: its program has no fresh inputs of its
    # own to time) earns nothing where that does not work: what cannot be measured fails closed.
    unmeasured = spec.get("peer_only") and not session.peer
    state = []
    for perf in sub.timed:
        may = may_earn(sub.result, perf) and not unmeasured and not session.untimed_device
        state.append({"perf": perf, "sub": [], "ref": [], "sub_peer": [], "ref_peer": [], "expert": [], "done": not may, "floor": [], "gpus": [],
                      "problem": None if may else
                      "timed only by the grader's own process, which cannot time on this machine: no performance points"
                      if unmeasured else session.untimed_device or "a variant it times failed a hidden case: no performance points"})
    for group_number, group in enumerate(timing_groups(sub.timed)):
        for run in range(spec.get("runs", 3)):
            active = [state[i] for i in group if not state[i]["done"]]
            if not active:
                break
            timed = dict(active[0]["perf"], variants=sorted({v for c in active for v in c["perf"]["variants"]}))
            # The pair of runs (the submission's, then the reference's) has a GPU to itself: with
            # several (grade --gpus), the ratio is still against the reference on the same GPU.
            with session.gpus.whole() as gpu:
                name = f"perf-{group_number}-{run}"
                out = session.scratch(sub, name)
                peer = session.peer
                if peer:  # the timer checked every repetition itself
                    ran, doc, times, peer_times = peer_timed_run(session, sub.binary, out, timed, sub.identity)
                    shutil.rmtree(out, ignore_errors=True)
                    right = set(times)
                else:
                    ran, doc, times = timed_run(session, sub.binary, out, timed, sub.identity)
                    untrusted = not_on_a_gpu(session.spec, doc)
                    if untrusted:
                        shutil.rmtree(out, ignore_errors=True)
                        for c in active:
                            c["problem"], c["done"] = untrusted, True
                        continue
                    # With fresh inputs the check is of the last repetition's result, and of every
                    # repetition's spot record beside it (common/check/spot_check.hpp).
                    # The record must hold every run the timed run made: its counts go with it.
                    runs = (["--cpu-reps", str(timed["cpu_reps"])] if "cpu_reps" in timed else []) + \
                        ["--warmup", str(timed.get("warmup", 2)), "--reps", str(timed.get("reps", 15))]
                    compare_args = ([*cases.with_option(timed_args(timed), "--seed", checked_seed(session.spec, timed)), "--fresh-input-each-rep",
                                     *runs] if fresh_inputs(session.spec) else timed_args(timed))
                    verdicts = session.check(sub, out, name, compare_args)
                    right = {v for v, t in times.items() if verdicts.get(v, {}).get("status") == "pass"}
                for c in active:
                    if not right & set(c["perf"]["variants"]):
                        c["problem"], c["done"] = f"no timed variant produced a right result ({run_failure(ran, doc)})", True
                active = [c for c in active if not c["done"]]
                if not active:
                    continue
                # The reference's results are right answers: none is kept once its times are read. Its
                # first run also times the expert tier of the variants timed, for the report: for
                # information only, so once, not every run (in lab 8 it doubled the reference's
                # timed work, each repetition's input made by the CPU reference at 3072x3072).
                ref_out = session.private(f"reference-{sub.safe_name}-{group_number}-{run}")
                experts = sorted({e for v in timed["variants"] for e in session.experts.get(v, [])}) if run == 0 else []
                ref_timed = dict(timed, variants=timed["variants"] + experts)
                if peer:
                    _, ref_doc, ref_times, ref_peer = peer_timed_run(session, session.reference, ref_out, ref_timed, None)
                else:
                    _, ref_doc, ref_times = timed_run(session, session.reference, ref_out, ref_timed, None)
                shutil.rmtree(ref_out, ignore_errors=True)
            held = peer and held_before_ready(doc, ref_doc)
            if held:  # lab 9: the program held more than its budget, whatever its times: no time of it counts
                for c in active:
                    c["problem"], c["done"] = held, True
                continue
            for c in active:
                mine = min(right & set(c["perf"]["variants"]), key=lambda v: times[v])
                theirs = [v for v in c["perf"]["variants"] if v in ref_times]
                if not theirs:
                    raise RuntimeError(f"the reference solution did not time {c['perf']['variants']}: {ref_doc.get('results')}")
                best = min(theirs, key=lambda v: ref_times[v])
                c["sub"].append(times[mine])
                c["ref"].append(ref_times[best])
                if gpu.index is not None:
                    c["gpus"].append(gpu.describe())
                if peer:
                    c["sub_peer"].append(peer_times[mine])
                    c["ref_peer"].append(ref_peer[best])
                c["floor"].append(floor_ms(timed_args(c["perf"]), ref_doc, mine))
                expert_times = [ref_times[e] for v in c["perf"]["variants"] for e in session.experts.get(v, []) if e in ref_times]
                if expert_times:
                    c["expert"].append(min(expert_times))
                # Far past the curve's end: more runs cannot earn a point, only cost minutes.
                c["done"] = c["sub"][-1] > 2 * spec["zero_at"] * c["ref"][-1]
    cases_done = []
    for c in state:
        counted, clock_note = time_that_counts(c["sub"], c["sub_peer"], c["ref"], c["ref_peer"]) if c["sub"] else (None, None)
        ratio = None if c["problem"] else counted / statistics.median(c["ref"])
        floors = [f for f in c["floor"] if f]
        floor = max(floors) if floors else None
        # A time no GPU could achieve, reported or counted, is forged (or skipped work): nothing.
        # Each run against its own floor: with several GPUs (grade --gpus) runs may differ in GPU.
        under = [(ms, f) for ms, f in zip(c["sub"], c["floor"]) if f and ms < f]
        if ratio is not None and under:
            ms, f = min(under)
            c["problem"] = (f"forged time: {ms:.4g} ms is faster than the physical floor of {f:.4g} ms "
                            "(the byte model at the measured copy bandwidth, or the flops at the FP32 peak): no performance points")
            ratio = None
        cases_done.append({"args": cases.public_args(timed_args(c["perf"])), "variants": c["perf"]["variants"],
                           "submission_ms": counted, "clock": clock_note,
                           "reference_ms": statistics.median(c["ref"]) if c["ref"] else None, "ratio": ratio,
                           "fraction": scoring.performance_fraction(ratio, spec["slack"], spec["zero_at"]), "problem": c["problem"],
                           "floor_ms": floor,
                           # the reference's expert tier in its first run, for information: not scored
                           "expert_ms": statistics.median(c["expert"]) if c["expert"] else None,
                           # every run, so that a reader (and the self-test) can see how noisy the machine was
                           "submission_runs_ms": c["sub"], "reference_runs_ms": c["ref"],
                           # the grader's timer around the same runs (peer timing; empty for lab 0, and where peer timing does not work)
                           "submission_peer_runs_ms": c["sub_peer"], "reference_peer_runs_ms": c["ref_peer"],
                           # where each run was timed: with several GPUs (grade --gpus), which one
                           "gpus": list(dict.fromkeys(c["gpus"]))})
    fractions = [c["fraction"] for c in cases_done]
    sub.result["performance"] = {"cases": cases_done, "fraction": sum(fractions) / len(fractions) if fractions else 0.0}

"""A class leaderboard, as courses with GPU contests publish one: opt-in (grade --leaderboard), from
the batch's results, a board a timed case of the spec (the time the grader counted for the case's
fastest right variant, as the student's report gives it, over the reference's on the same case),
fastest first. Only submissions with full correctness
are ranked, and none whose timed case was refused (a forged time, a wrong timed result): a fast
wrong kernel ranks nowhere. Students appear under an alias (two words drawn from their name and
the session's secret, so the same student gets the same alias in a session and no one can work
back from it), unless the instructor asks for names (--leaderboard-names); each student's own
report says their alias. Written as leaderboard.html (one self-contained page) and leaderboard.csv,
each whole or not at all, with the machine the times were taken on."""
import csv
import hashlib
import html
import os
import subprocess

from . import report

ADJECTIVES = ["amber", "brisk", "calm", "deft", "eager", "fleet", "gentle", "hardy", "ivory", "jolly", "keen", "lucid", "mellow",
              "nimble", "olive", "proud", "quiet", "rapid", "sable", "tidy", "umber", "vivid", "witty", "young", "zesty", "bold",
              "coral", "dusky", "early", "frank", "grand", "humble"]
ANIMALS = ["badger", "bison", "crane", "dingo", "egret", "ferret", "gecko", "heron", "ibis", "jackal", "koala", "lemur", "marten",
           "newt", "ocelot", "puffin", "quail", "raven", "stoat", "tapir", "urchin", "vole", "walrus", "yak", "zebu", "otter",
           "lynx", "mole", "panda", "robin", "seal", "toad"]


def aliases(students, secret):
    """{student: alias}: two words from a hash of the secret and the name, a number added where two collide."""
    chosen, taken = {}, {}
    for student in sorted(students):
        digest = hashlib.sha256(f"{secret}:{student}".encode()).digest()
        alias = f"{ADJECTIVES[digest[0] % len(ADJECTIVES)]}-{ANIMALS[digest[1] % len(ANIMALS)]}"
        taken[alias] = taken.get(alias, 0) + 1
        chosen[student] = alias if taken[alias] == 1 else f"{alias}-{taken[alias]}"
    return chosen


def machine():
    """The GPU the session timed on (the first CUDA_VISIBLE_DEVICES names), or the CPU for a CPU lab."""
    visible = (os.environ.get("CUDA_VISIBLE_DEVICES") or "0").split(",")[0]
    try:
        done = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader", "-i", visible], capture_output=True,
                              text=True, timeout=30)
        if done.returncode == 0 and done.stdout.strip():
            return done.stdout.strip().splitlines()[0]
    except (OSError, subprocess.TimeoutExpired):
        pass
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return f"CPU: {line.split(':', 1)[1].strip()}"
    except OSError:
        pass
    return "this machine"


def boards(results, names):
    """[(timed case, [(rank, name, ratio to the reference, ms, the case's arguments)])], a board a
    timed case of the spec, in its order. Each student's timed cases are drawn from the secret and
    their name (their own sizes, borders...), so times of two students are not of one problem: the
    board ranks by the ratio to the reference timed on the student's own case in the same session,
    lowest first, and shows the time and the case beside it. names: {student: what the board shows}."""
    cases = {}
    for r in results:
        perf = r.get("performance") or {}
        full = r.get("scores", {}).get("correctness") == r.get("rubric", {}).get("correctness")
        for index, c in enumerate(perf.get("cases", [])):
            label = f"{index + 1}. {' or '.join(c.get('variants', [])) or 'timed case'}"
            entries = cases.setdefault(label, [])
            if full and not c.get("problem") and c.get("submission_ms") and c.get("ratio"):
                entries.append((c["ratio"], names[r["student"]], c["submission_ms"], c["args"]))
    return [(label, [(rank, name, ratio, ms, args) for rank, (ratio, name, ms, args) in enumerate(sorted(entries), 1)])
            for label, entries in cases.items()]


def write(folder, lab, results, names, where):
    os.makedirs(folder, exist_ok=True)
    tables = boards(results, names)
    title = f"convlab lab {lab} leaderboard"
    ranked = len({n for _, rows in tables for _, n, _, _, _ in rows})
    parts = [f"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{html.escape(title)}</title>\n<style>\n"
             "body { font-family: sans-serif; max-width: 60em; margin: 2em auto; } table { border-collapse: collapse; }\n"
             "th, td { border: 1px solid #bbb; padding: 0.2em 0.6em; text-align: right; } td:nth-child(2) { text-align: left; }\n"
             "</style>\n</head>\n<body>", f"<h1>{html.escape(title)}</h1>",
             f"<p>Times taken on {html.escape(where)}. Each student's timed case is drawn for them (its size, border...), so "
             "the boards rank by the time over the reference solution's, timed on the same case in the same session: lower is "
             f"faster. Ranked: the {ranked} of {len(results)} submissions with every hidden case right and no timed case "
             "refused.</p>"]
    for label, rows in tables:
        parts.append(f"<h2>{html.escape(label)}</h2>")
        if not rows:
            parts.append("<p>No submission ranked.</p>")
            continue
        parts.append("<table>\n<tr><th>rank</th><th>student</th><th>x the reference</th><th>ms</th><th>the case</th></tr>")
        parts += [f"<tr><td>{rank}</td><td>{html.escape(name)}</td><td>{ratio:.3f}</td><td>{ms:.4g}</td><td>{html.escape(args)}</td></tr>"
                  for rank, name, ratio, ms, args in rows]
        parts.append("</table>")
    parts.append("</body>\n</html>\n")
    page = os.path.join(folder, "leaderboard.html")
    with open(page + ".partial", "w") as f:
        f.write("\n".join(parts))
    report.publish(page)
    sheet = os.path.join(folder, "leaderboard.csv")
    with open(sheet + ".partial", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["timed case", "rank", "student", "ratio to the reference", "ms", "case", "machine"])
        for label, rows in tables:
            for rank, name, ratio, ms, args in rows:
                w.writerow([label, rank, name, f"{ratio:.4g}", f"{ms:.6g}", args, where])
    report.publish(sheet)

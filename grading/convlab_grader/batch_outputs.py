"""A batch's files at its end, whichever way it was graded (on this host, or as a Slurm job array):
the options in OUTPUTS, written from the results in the submissions' order."""
import os

from . import leaderboard, report

OUTPUTS = ("json", "gradescope", "gradebook", "reports", "leaderboard", "leaderboard_names")


def write_outputs(outputs, lab, results, notes, secret):
    """The batch's files (the options in OUTPUTS), and its scores on stdout."""
    if outputs.get("leaderboard"):
        names = {r["student"]: r["student"] for r in results} if outputs.get("leaderboard_names") else leaderboard.aliases(
            [r["student"] for r in results], secret)
        if not outputs.get("leaderboard_names"):
            for r in results:
                r["leaderboard_alias"] = names[r["student"]]
        leaderboard.write(outputs["leaderboard"], lab, results, names, leaderboard.machine())
    if outputs.get("reports"):
        os.makedirs(outputs["reports"], exist_ok=True)
        for r in results:
            with open(os.path.join(outputs["reports"], f"{r['student']}.txt"), "w") as f:
                f.write(report.text_report(r))
    if outputs.get("json"):
        report.write_json(outputs["json"], {"lab": lab, "notes": notes, "results": results})
    if outputs.get("gradescope"):
        report.write_json(outputs["gradescope"], report.gradescope(results[0]))
    if outputs.get("gradebook"):
        report.write_gradebook(outputs["gradebook"], results)
    if len(results) == 1 and not outputs.get("reports"):
        print(report.text_report(results[0]), end="")
    else:
        for r in results:
            print(f"{r['student']:24s} {r['score']:6g} / {r['max_score']:g}")


def notes_of(results):
    """The notes of every session that graded these results (a batch resumed, or a Slurm array's
    nodes: one without compute-sanitizer, say), each once."""
    return list(dict.fromkeys(note for r in results for note in r.get("session_notes", [])))

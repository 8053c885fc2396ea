"""The handout's "Questions for the report" (handouts/labN.md), so the report page asks them with
room to answer. Every handout numbers them under that one heading; a handout without it gives none."""
import os
import re

HEADING = "## Questions for the report"


def from_handout(kit, lab):
    """The questions' text, one string each (the handout's wrapped lines joined), or []."""
    path = os.path.join(kit, "handouts", f"lab{lab}.md")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        text = f.read()
    if HEADING not in text:
        return []
    section = text.split(HEADING, 1)[1].split("\n## ", 1)[0]
    questions = []
    for line in section.splitlines():
        start = re.match(r"\d+\.\s+(.*)", line)
        if start:
            questions.append(start.group(1).strip())
        elif line.startswith("   ") and questions:  # a wrapped line of the last question
            questions[-1] += " " + line.strip()
    return questions

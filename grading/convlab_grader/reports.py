"""Reading a lab's report (--format json, schema convlab.report/2, common/README.md): the grader
reads only the schema this kit writes, and a row's figures of the lab's own by name."""
import json

SCHEMA = "convlab.report/2"


class ReportError(Exception):
    pass


def load(text, source="the program"):
    """The report `text` holds; ReportError (one line) when it is no report, or one of another
    schema (a program built with another version of the kit)."""
    try:
        doc = json.loads(text)
    except ValueError:
        raise ReportError(f"{source} wrote no JSON report") from None
    if not isinstance(doc, dict):
        raise ReportError(f"{source} wrote JSON that is no report")
    if doc.get("schema") != SCHEMA:
        raise ReportError(f"{source} wrote a report of schema {doc.get('schema')!r}; this kit reads {SCHEMA} "
                          "(build the program with this kit)")
    return doc


def load_or_exit(text, source):
    """For the measurement scripts: the report, or the script ends with the one line that says why."""
    try:
        return load(text, source)
    except ReportError as why:
        raise SystemExit(str(why)) from None


def read_file(path):
    """A report file, or the script ends with one line."""
    with open(path) as f:
        return load_or_exit(f.read(), path)


def parse(text):
    """A program's report, or None when it wrote none, garbage, or another schema's."""
    try:
        return load(text)
    except ReportError:
        return None


def figures(row):
    """A result row's figures of the lab's own, by name (lab 8's stage, lab 9's host memory...)."""
    found = row.get("figures") if isinstance(row, dict) else None
    return {f["name"]: f.get("value") for f in found if isinstance(f, dict) and "name" in f} if isinstance(found, list) else {}

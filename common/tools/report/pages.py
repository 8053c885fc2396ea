"""The report's two pages: report.html (one self-contained file: the plots inline as SVG, no script,
no stylesheet or font fetched, so it opens from a USB stick with no network) and report.md (for
pasting into a write-up, the plots as PNG files beside it)."""
import html
import re

import tables

STYLE = """body { font-family: sans-serif; max-width: 70em; margin: 2em auto; }
table { border-collapse: collapse; font-size: 0.85em; }
th, td { border: 1px solid #bbb; padding: 0.2em 0.5em; text-align: right; }
th { background: #eee; } td:first-child { text-align: left; }
figure { margin: 1em 0; } svg { max-width: 100%; height: auto; }
textarea { width: 100%; min-height: 6em; }"""


def inline_svg(svg):
    """matplotlib's SVG without its XML prologue and DOCTYPE: the DOCTYPE names the W3C's DTD by URL,
    which an HTML page must not carry, and the <svg> element alone is valid inside HTML."""
    return svg[svg.index("<svg"):]


def html_table(headings, rows):
    """A table; headings None for the page's header, whose rows are (name, value) pairs."""
    head = "<tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in headings) + "</tr>\n" if headings else ""
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>\n" for row in rows)
    return f"<table>\n{head}{body}</table>"


def write_html(path, doc, plots, questions):
    """plots: [(file stem, svg text)]."""
    title = f"convlab lab {doc['lab']} report"
    parts = [f"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{html.escape(title)}</title>\n"
             f"<style>\n{STYLE}\n</style>\n</head>\n<body>\n<h1>{html.escape(title)}</h1>",
             html_table(None, tables.header(doc)),
             "<h2>Results</h2>", html_table(*tables.results(doc))]
    if doc.get("notes"):
        parts.append("<ul>" + "".join(f"<li>{html.escape(n)}</li>" for n in doc["notes"]) + "</ul>")
    if plots:
        parts.append("<h2>Plots</h2>")
        parts += [f"<figure id=\"{stem}\">\n{inline_svg(svg)}\n</figure>" for stem, svg in plots]
    if questions:
        parts.append("<h2>Questions for the report</h2>\n<ol>")
        parts += [f"<li><p>{html.escape(q)}</p>\n<textarea aria-label=\"answer {i}\"></textarea></li>"
                  for i, q in enumerate(questions, 1)]
        parts.append("</ol>")
    parts.append("</body>\n</html>\n")
    with open(path, "w") as f:
        f.write("\n".join(parts))


def md_cell(text):
    return re.sub(r"\|", r"\\|", text)


def md_table(headings, rows):
    lines = ["| " + " | ".join(md_cell(h) for h in headings) + " |", "|" + " --- |" * len(headings)]
    return "\n".join(lines + ["| " + " | ".join(md_cell(c) for c in row) + " |" for row in rows])


def write_markdown(path, doc, pngs, questions):
    """pngs: the PNG files' names, beside report.md."""
    parts = [f"# convlab lab {doc['lab']} report", "",
             "\n".join(f"- **{name}**: {md_cell(value)}" for name, value in tables.header(doc)), "",
             "## Results", "", md_table(*tables.results(doc)), ""]
    parts += [f"- {n}" for n in doc.get("notes") or []]
    if pngs:
        parts += ["## Plots", ""] + [f"![{name}]({name})\n" for name in pngs]
    if questions:
        parts += ["## Questions for the report", ""]
        parts += [f"{i}. {q}\n\n   *Answer:*\n" for i, q in enumerate(questions, 1)]
    with open(path, "w") as f:
        f.write("\n".join(parts) + "\n")

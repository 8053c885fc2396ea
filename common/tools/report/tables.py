"""The report's header and results table as plain cells, which the HTML and the Markdown pages both
render: one place decides what a report shows, so the two pages never disagree."""


def number(value):
    """A number as a table shows it: whole above 1000 (57395 Mpix/s), four significant digits below."""
    if value is None or isinstance(value, str):
        return value or ""
    if float(value).is_integer() or abs(value) >= 1000:
        return f"{value:.0f}"
    return f"{value:.4g}"


# (heading, how to read it from a row). A column is shown only when some row has a value in it, so
# a CPU lab's table has no GB/s of a GPU and a check-only run no times.
CORE_COLUMNS = [
    ("variant", lambda r: r.get("variant")),
    ("threads", lambda r: r.get("threads") or None),
    ("mask", lambda r: (r.get("mask") or {}).get("spec")),
    ("status", lambda r: r.get("status")),
    ("median ms", lambda r: (r.get("time") or {}).get("median_ms")),
    ("min ms", lambda r: (r.get("time") or {}).get("min_ms")),
    ("cv", lambda r: (r.get("time") or {}).get("cv")),
    ("end-to-end ms", lambda r: (r.get("end_to_end") or {}).get("median_ms")),
    ("Mpix/s", lambda r: r.get("mpix_per_s")),
    ("GB/s", lambda r: r.get("gb_per_s")),
    ("% copy", lambda r: r.get("pct_copy_bandwidth")),
    ("GFLOP/s", lambda r: r.get("gflop_per_s")),
    ("% fp32", lambda r: r.get("pct_fp32_peak")),
    ("x omp", lambda r: r.get("speedup_vs_omp")),
    ("x baseline", lambda r: r.get("speedup_vs_baseline")),
    ("efficiency %", lambda r: r.get("parallel_efficiency_pct")),
]


def figure_columns(rows):
    """The lab's own figures (lab 8's stage, lab 9's strips...), in the order rows first name them."""
    seen = {}
    for r in rows:
        for f in r.get("figures") or []:
            if isinstance(f, dict) and "name" in f:
                seen.setdefault(f["name"], f.get("unit") or "")
    return [(f"{name} ({unit})" if unit else name,
             lambda r, name=name: next((f.get("value") for f in r.get("figures") or [] if f.get("name") == name), None))
            for name, unit in seen.items()]


def results(doc):
    """(headings, rows of cell text) of every result row, only the columns some row fills."""
    rows = doc.get("results", [])
    columns = [c for c in CORE_COLUMNS + figure_columns(rows) if any(c[1](r) not in (None, "") for r in rows)]
    return [h for h, _ in columns], [[number(read(r)) for _, read in columns] for r in rows]


def header(doc):
    """(name, value) lines of what ran and the ceilings measured: the page's head."""
    device = doc.get("device") or {}
    inp = doc.get("input") or {}
    timing = doc.get("timing") or {}
    lines = [("lab", f"{doc['lab']}: {doc.get('title', '')}"), ("preset", doc.get("preset") or "")]
    if device:
        lines += [("GPU", f"{device.get('name', '?')} ({device.get('arch', '?')}, {device.get('multiprocessors', '?')} SMs)"),
                  ("clocks", f"SM {number(device.get('sm_clock_mhz'))} MHz, memory {number(device.get('memory_clock_mhz'))} MHz"),
                  ("driver", f"{device.get('driver_version', '?')} (runtime {device.get('runtime_version', '?')})"),
                  ("measured copy bandwidth", f"{number(device.get('copy_bandwidth_gbs'))} GB/s"),
                  ("FP32 peak", f"{number(device.get('fp32_peak_gflops'))} GFLOP/s")]
    else:
        lines.append(("GPU", doc.get("gpu_skipped") or "none"))
    lines += [("CPU cores", number(timing.get("cpu_cores"))),
              ("input", f"{inp.get('source', '?')}, {inp.get('width', '?')}x{inp.get('height', '?')}, {inp.get('channels', '?')} channel(s)"),
              ("masks", ", ".join(doc.get("masks") or [])), ("border", doc.get("border") or ""),
              ("timing", f"{timing.get('warmup', '?')} warm-up, {timing.get('reps', '?')} repetitions, "
                         f"L2 flush {'on' if timing.get('l2_flush') else 'off'}"),
              ("byte model", doc.get("byte_model") or "")]
    return [(name, value) for name, value in lines if value]

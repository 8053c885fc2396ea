"""The hidden cases of a lab, drawn from its spec and a secret seed at grading time, never
stored: every shape of the spec, with the borders, channel counts and mask sizes cycled so that
each appears, and asymmetric random masks whose seeds also come from the secret (random:K:S, or
outer:K:S, asymmetric and separable, where the spec's "random_masks" says "outer"; box:K where it
says "box", for a lab whose variants take boxes only; gauss:K:SIGMA with a drawn sigma where it
says "gauss", lab 8's smoothing). A spec's "bright_cases" add inputs of bright random bytes
(--image bright: lab 7's summed-area tables pass 2^32 on them), its "image_cases" inputs of a
named built-in image (lab 8's spiral and synthetic shapes). A spec's "budget_rows" give each
shape's case a device-memory budget (--gpu-memory) that holds three strips of that many rows of
its own width, channels and mask (lab 9: strips of one row, strips thinner than the mask's halo,
a last strip of one row); an image case may name its own ("gpu_memory"). Lab 5's spec lists array
lengths ("elements") instead, each with input values from the secret.

A spec's "drawn_options" give options every case draws from the secret, each a range of values
(lab 8's thresholds, "--low": [0.04, 0.2]), so that nothing a case passes is fixed.

Each student's cases come from the session's secret mixed with the student's name, so that no
two students see the same inputs (answers cannot be shared, even through a channel the sandbox
missed). The timed cases are drawn too: their input values, border, channel count and exact size,
so that a program cannot recognise a timed run by its configuration. So are the sanitizer's
cases: their shapes (wide, tall and blocks, within the spec's pixel count), masks, inputs and
options."""
import hashlib
import json
import random
import re

SIZE_JITTER = 32  # a timed case's sides are the spec's minus 0..31 pixels


def hidden_cases(spec, secret):
    if "elements" in spec:
        return array_cases(spec, secret)
    rng = random.Random(secret)
    borders, channels, sizes = spec["borders"], spec["channels"], spec["mask_sizes"]
    named = spec.get("named_masks", [])
    kind = spec.get("random_masks", "random")  # "outer" (separable) or "box" for a lab whose variants need them
    cases = []
    per_shape = spec.get("cases_per_shape", 2)
    n = 0
    for shape in spec["shapes"]:
        for _ in range(per_shape):
            k = sizes[n % len(sizes)]
            drawn = drawn_mask(kind, k, rng)
            mask = named[n // 2 % len(named)] if named and n % 2 else drawn
            # Channels go 1, 3, 3, 1, ...: named masks take odd n, so both kinds of mask meet both counts.
            case = {"size": shape, "channels": channels[(n + n // 2) % len(channels)], "border": borders[n // 2 % len(borders)],
                    "mask": mask, "seed": rng.randrange(1, 1 << 62)}
            if "budget_rows" in spec:
                case["gpu_memory"] = str(strip_budget(case, spec["budget_rows"][n % len(spec["budget_rows"])]))
            cases.append(case)
            n += 1
    for bright in spec.get("bright_cases", []):
        cases.append(dict(bright, image="bright", seed=rng.randrange(1, 1 << 62)))
    for fixed in spec.get("image_cases", []):
        cases.append(dict(fixed, seed=rng.randrange(1, 1 << 62)))
    for case in cases:  # an image case may narrow the ranges (the spiral's one strong end)
        case["options"] = drawn_options(case if "drawn_options" in case else spec, rng)
        case.pop("drawn_options", None)
    return cases


def drawn_options(spec, rng):
    """The spec's drawn options for one case, each value drawn from its range: ["--low", "0.113", ...].
    Ranges are drawn in order, so a later one may rely on an earlier one's being smaller (low, high)."""
    options = []
    for name, (lowest, highest) in spec.get("drawn_options", {}).items():
        options += [name, f"{rng.uniform(lowest, highest):.3f}"]
    return options


def strip_budget(case, rows, buffers=3):
    """Bytes of device memory for `buffers` strips of `rows` output rows of the case's image (lab
    9, common/families/strips/strips.hpp's strip_device_bytes): each its rows + K - 1 input rows of bytes and its
    rows of floats."""
    width = int(case["size"].partition("x")[0])
    row = width * case["channels"]
    return buffers * ((rows + mask_size(case["mask"]) - 1) * row + rows * row * 4)


def drawn_mask(kind, k, rng):
    """A K x K mask of the spec's kind: box:K; gauss:K:SIGMA, sigma from 0.5 to K/3 (at K = 1 the
    one weight is 1 whatever sigma); or random:K:S and outer:K:S with a drawn seed."""
    if kind == "box":
        return f"box:{k}"
    if kind == "gauss":
        return f"gauss:{k}:{rng.uniform(0.5, max(0.5, k / 3)):.2f}"
    return f"{kind}:{k}:{rng.randrange(1, 1 << 30)}"


def mix(secret, text):
    """A seed from a secret and a text: a student's seed from the session's secret and the name,
    a draw's seed from the student's seed and what is drawn."""
    return int(hashlib.sha256(f"{secret}:{text}".encode()).hexdigest()[:15], 16)


def student_secret(secret, student):
    """The seed of one student's cases: the session's secret mixed with the student's name."""
    return mix(secret, student)


def timed_cases(spec, secret):
    """The spec's performance cases with their inputs drawn: `args` holds the final arguments
    (every run of the case, the reference's too, uses the same), the lab's drawn options among
    them. Cases whose spec arguments are the same get the same draw, so they can still share a
    timed run. Over a lab's cases the borders and channel counts are taken in turn from a random
    start, so two timed cases never both get the same easy configuration."""
    drawn, draws = [], {}
    # One start for the whole lab, so that consecutive cases get different borders and channels.
    start = random.Random(mix(secret, "timed"))
    start_b = start.randrange(len(spec.get("borders") or [0]))
    start_c = start.randrange(len(spec.get("channels") or [0]))
    for perf in spec.get("performance", {}).get("cases", []):
        key = json.dumps(perf["args"])
        if key not in draws:
            rng = random.Random(mix(secret, key))
            args = list(perf["args"])
            if "elements" in spec:
                args += ["--seed", str(rng.randrange(1, 1 << 62))]
            else:
                n = len(draws)
                args = _jitter_size(args, rng)
                if "--border" not in args:
                    args += ["--border", spec["borders"][(start_b + n) % len(spec["borders"])]]
                if "--channels" not in args:
                    args += ["--channels", str(spec["channels"][(start_c + n) % len(spec["channels"])])]
                args += ["--image", "random", "--seed", str(rng.randrange(1, 1 << 40))]
                # the lab's drawn options too (lab 8's thresholds), unless the case fixes them
                options = drawn_options(spec, rng)
                args += [x for name, value in zip(options[::2], options[1::2]) if name not in args for x in (name, value)]
            draws[key] = args
        drawn.append(dict(perf, args=draws[key]))
    return drawn


def _jitter_size(args, rng):
    if "--size" not in args:
        return args
    at = args.index("--size") + 1
    w, _, h = args[at].partition("x")
    w, h = int(w), int(h or w)
    args[at] = f"{max(1, w - rng.randrange(SIZE_JITTER))}x{max(1, h - rng.randrange(SIZE_JITTER))}"
    return args


SANITIZER_PIXELS = 24000  # a sanitizer case's pixels at most, unless the spec's "sanitizer" says "pixels"


def sanitizer_runs(spec, secret):
    """(tool, case) for every compute-sanitizer run: each tool on every border once, the channel
    counts taken in turn from a drawn start, so that each tool meets every border and every
    channel count (a full product would double the runs for little). Each run's case is drawn
    from the secret like a hidden case (cases.input_args runs it): a wide, a tall or a block shape
    in turn, a mask of the spec's sizes and kind, a random input, the drawn options, a strip budget
    where the lab has one. Lab 5 has one configuration, with its input values drawn."""
    s = spec["sanitizer"]
    rng = random.Random(mix(secret, "sanitizer"))
    if "elements" in spec:
        return [(tool, {"args": s["args"], "seed": rng.randrange(1, 1 << 40)}) for tool in s["tools"]]
    runs = []
    borders, channels = spec["borders"], spec["channels"]
    start = rng.randrange(len(channels))
    n = 0
    for tool in s["tools"]:
        for i, border in enumerate(borders):
            k = rng.choice(s.get("mask_sizes", spec["mask_sizes"]))
            case = {"size": sanitizer_shape(("wide", "tall", "block")[n % 3], s.get("pixels", SANITIZER_PIXELS), rng),
                    "channels": channels[(start + i) % len(channels)], "border": border,
                    "mask": drawn_mask(spec.get("random_masks", "random"), k, rng), "seed": rng.randrange(1, 1 << 62)}
            case["size"] = within_taps(case["size"], case["channels"], k, s.get("max_taps", {}).get(tool))
            if "budget_rows" in spec:
                rows = rng.choice(spec["budget_rows"])
                case["size"] = within_strips(case["size"], rows, s.get("max_strips"))
                case["gpu_memory"] = str(strip_budget(case, rows))
            case["options"] = drawn_options(spec, rng)
            runs.append((tool, case))
            n += 1
    return runs


def sanitizer_shape(kind, pixels, rng):
    """A drawn "WxH" of at most `pixels` pixels: wide (1 to 12 rows), tall (1 to 12 columns, so
    hundreds of rows at least) or a block (17 to 300 wide, 17 to pixels // width tall)."""
    if kind == "block":
        w = rng.randint(17, 300)
        return f"{w}x{rng.randint(17, max(17, pixels // w))}"
    across = rng.randint(1, 12)
    along = rng.randint(pixels // (4 * across), pixels // across)
    return f"{along}x{across}" if kind == "wide" else f"{across}x{along}"


def within_taps(size, channels, k, max_taps):
    """A drawn "WxH" cut along its longer side (then its other, if need be) to at most max_taps
    taps, width x height x channels x K^2 (None: as drawn). Racecheck's time grows with every
    shared-memory read: on an H100 it costs lab 9's reference about 3.7 us a tap (7x64, three
    channels, 31x31: 17 s for its three variants), so a drawn 7x2759 image ran past the 90 s limit.
    The shape keeps its kind: a tall image stays taller than wide."""
    width, height = map(int, size.split("x"))
    per_pixel = channels * k * k
    if max_taps and width * height * per_pixel > max_taps:
        most = max(1, max_taps // per_pixel)
        if height >= width:
            height = max(1, most // width)
            width = min(width, most)
        else:
            width = max(1, most // height)
            height = min(height, most)
    return f"{width}x{height}"


def within_strips(size, rows, max_strips):
    """A drawn "WxH" cut to at most max_strips strips of `rows` rows (None: as drawn). Every strip
    is several launches and copies, each of which costs a sanitizer tool about 5 ms a variant (lab
    9's reference on an H100), and a few dozen strips meet every edge case that thousands do
    (strips thinner than the halo, a short last strip). What the cut leaves keeps the drawn
    height's remainder, so the last strip stays short."""
    width, _, height = size.partition("x")
    height = int(height)
    if max_strips and height > max_strips * rows:
        height = (max_strips - 1) * rows + 1 + height % rows
    return f"{width}x{height}"


def with_option(args, option, value):
    """args with the value of an option they hold replaced."""
    args = list(args)
    args[args.index(option) + 1] = str(value)
    return args


def array_cases(spec, secret):
    """Lab 5's cases: each array length of the spec, with input values from a secret seed."""
    rng = random.Random(secret)
    return [{"elements": n, "seed": rng.randrange(1, 1 << 62)} for n in spec["elements"]]


def describe(case):
    """The case as the reports print it: its parameters without the secret seed."""
    if "elements" in case:
        return f"{case['elements']} elements"
    if "args" in case:
        return public_args(case["args"])
    image = f", {case['image']} image" if case.get("image", "random") != "random" else ""
    budget = f", {case['gpu_memory']} B of device memory" if "gpu_memory" in case else ""
    options = f", {' '.join(case['options'])}" if case.get("options") else ""  # lab 8's drawn thresholds
    return f"{case['size']}, {case['channels']} ch, {case['border']}, {case['mask']}{image}{budget}{options}"


def mask_size(mask):
    """The K of a mask spec: random:K:S, outer:K:S, box:K, gauss:K:s; the named 3x3 masks otherwise."""
    parts = mask.split(":")
    return int(parts[1]) if len(parts) > 1 else 3


def input_args(case):
    """A case's arguments: its input, mask, border, budget and drawn options (a lab 5 sanitizer
    case: its fixed arguments and drawn seed)."""
    if "args" in case:
        return [*case["args"], "--seed", str(case["seed"])]
    if "elements" in case:
        return ["--elements", str(case["elements"]), "--seed", str(case["seed"])]
    args = ["--image", case.get("image", "random"), "--seed", str(case["seed"]), "--size", case["size"], "--channels", str(case["channels"]),
            "--mask", case["mask"], "--border", case["border"]]
    return args + (["--gpu-memory", case["gpu_memory"]] if "gpu_memory" in case else []) + case.get("options", [])


def raw_file_stem(name):
    """A raw result's name as the harness makes it a file name, less ".f32" (common/grading/raw_result.cpp's
    raw_file_name): "staged gradients" -> "staged_gradients", the folder --write-stage-inputs makes
    for that stage."""
    return re.sub(r"[^A-Za-z0-9-]", "_", name)


def public_args(args):
    """A run's arguments as a report shows them: the input's secret seed left out."""
    shown, skip = [], False
    for arg in args:
        if skip:
            skip = False
        elif arg == "--seed":
            skip = True
        else:
            shown.append(arg)
    return " ".join(shown)

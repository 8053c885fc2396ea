"""The hidden cases of a lab, drawn from its spec and a secret seed at grading time, never
stored: every shape of the spec, with the borders, channel counts and mask sizes cycled so that
each appears, and asymmetric random masks whose seeds also come from the secret. Lab 5's spec
lists array lengths ("elements") instead, each with input values from the secret."""
import random


def hidden_cases(spec, secret):
    if "elements" in spec:
        return array_cases(spec, secret)
    rng = random.Random(secret)
    borders, channels, sizes = spec["borders"], spec["channels"], spec["mask_sizes"]
    named = spec.get("named_masks", [])
    cases = []
    per_shape = spec.get("cases_per_shape", 2)
    n = 0
    for shape in spec["shapes"]:
        for _ in range(per_shape):
            k = sizes[n % len(sizes)]
            mask = named[n // 2 % len(named)] if named and n % 2 else f"random:{k}:{rng.randrange(1, 1 << 30)}"
            cases.append({"size": shape, "channels": channels[n % len(channels)], "border": borders[n // 2 % len(borders)],
                          "mask": mask, "seed": rng.randrange(1, 1 << 62)})
            n += 1
    return cases


def array_cases(spec, secret):
    """Lab 5's cases: each array length of the spec, with input values from a secret seed."""
    rng = random.Random(secret)
    return [{"elements": n, "seed": rng.randrange(1, 1 << 62)} for n in spec["elements"]]


def describe(case):
    """The case as the reports print it: its parameters without the secret seed."""
    if "elements" in case:
        return f"{case['elements']} elements"
    return f"{case['size']}, {case['channels']} ch, {case['border']}, {case['mask']}"


def mask_size(mask):
    """The K of a mask spec: random:K:S, box:K, gauss:K:s; the named 3x3 masks otherwise."""
    parts = mask.split(":")
    return int(parts[1]) if len(parts) > 1 else 3


def input_args(case):
    if "elements" in case:
        return ["--elements", str(case["elements"]), "--seed", str(case["seed"])]
    return ["--image", "random", "--seed", str(case["seed"]), "--size", case["size"], "--channels", str(case["channels"]),
            "--mask", case["mask"], "--border", case["border"]]

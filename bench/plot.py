#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Draw wn-bench's growth curves (its --csv output) as one small SVG.

    python3 bench/plot.py bench/build/curves.csv bench/build/curves.svg

One panel per series, log-scaled x (the size), linear y starting at 0, so a flat
line means the cost does not grow with the size: a flat rate, or a flat
cost per unit, is linear growth. Standard library only.
"""
import csv
import math
import sys
from collections import defaultdict

PANELS = [
    ("fetch_ns", "fetch-and-lock, ns", "gated jobs on the topic"),
    ("throughput_a", "executions per CPU second (a)", "instances"),
    ("throughput_a_journal", "the same, journal → /dev/null", "instances"),
    ("rss_per_instance", "bytes of RSS per parked instance", "instances"),
    ("load_us_per_node", "load + validate, µs per node", "nodes"),
    ("bpmn_load_us_per_node", "BPMN import + validate, µs per node", "nodes"),
    ("travel_us_per_event", "step back (the rerun), µs per event", "events in the run"),
]
W, H = 360, 220          # one panel
ML, MR, MT, MB = 62, 14, 28, 40


def fmt(v):
    if v >= 1e6:
        return f"{v / 1e6:g}M"
    if v >= 1e3:
        return f"{v / 1e3:g}k"
    return f"{v:g}"


def nice_max(v):
    if v <= 0:
        return 1
    e = 10 ** math.floor(math.log10(v))
    for m in (1, 2, 2.5, 5, 10):
        if m * e >= v:
            return m * e
    return 10 * e


def panel(ox, oy, title, xlabel, points):
    out = []
    xs = [p[0] for p in points]
    ymax = nice_max(max(p[1] for p in points) * 1.1)
    lx0, lx1 = math.log10(min(xs)), math.log10(max(xs))
    if lx1 == lx0:
        lx1 = lx0 + 1
    pw, ph = W - ML - MR, H - MT - MB

    def px(x):
        return ox + ML + (math.log10(x) - lx0) / (lx1 - lx0) * pw

    def py(y):
        return oy + MT + ph - y / ymax * ph

    out.append(f'<text x="{ox + ML}" y="{oy + 18}" class="t">{title}</text>')
    out.append(f'<rect x="{ox + ML}" y="{oy + MT}" width="{pw}" height="{ph}" class="f"/>')
    for i in range(5):
        y = ymax * i / 4
        out.append(f'<line x1="{ox + ML}" x2="{ox + ML + pw}" y1="{py(y):.1f}" y2="{py(y):.1f}" class="g"/>')
        out.append(f'<text x="{ox + ML - 6}" y="{py(y) + 4:.1f}" class="yl">{fmt(y)}</text>')
    for x in xs:
        out.append(f'<text x="{px(x):.1f}" y="{oy + MT + ph + 16}" class="xl">{fmt(x)}</text>')
    out.append(f'<text x="{ox + ML + pw / 2}" y="{oy + H - 6}" class="xt">{xlabel} (log scale)</text>')
    path = " ".join(f"{'M' if i == 0 else 'L'}{px(x):.1f},{py(y):.1f}" for i, (x, y) in enumerate(points))
    out.append(f'<path d="{path}" class="l"/>')
    for x, y in points:
        out.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" class="p"><title>{fmt(x)}: {y:.4g}</title></circle>')
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plot.py CURVES.csv OUT.svg")
    series = defaultdict(list)
    with open(sys.argv[1], newline="") as f:
        for row in csv.DictReader(f):
            series[row["series"]].append((float(row["x"]), float(row["y"])))
    panels = [(k, t, x) for k, t, x in PANELS if series.get(k)]
    cols = 2
    rows = (len(panels) + cols - 1) // cols
    body = []
    for i, (key, title, xlabel) in enumerate(panels):
        pts = sorted(series[key])
        body += panel((i % cols) * W, (i // cols) * H, title, xlabel, pts)
    svg = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{cols * W}" height="{rows * H}" '
        f'viewBox="0 0 {cols * W} {rows * H}" font-family="sans-serif" font-size="11">',
        "<style>.t{font-weight:bold;font-size:12px}.f{fill:#fafafa;stroke:#999}"
        ".g{stroke:#e2e2e2}.yl{text-anchor:end;fill:#555}.xl{text-anchor:middle;fill:#555}"
        ".xt{text-anchor:middle;fill:#333}.l{fill:none;stroke:#3465a4;stroke-width:2}"
        ".p{fill:#3465a4}</style>",
        f'<rect width="{cols * W}" height="{rows * H}" fill="white"/>',
        *body,
        "</svg>",
    ]
    with open(sys.argv[2], "w") as f:
        f.write("\n".join(svg) + "\n")


if __name__ == "__main__":
    main()

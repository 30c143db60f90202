#!/usr/bin/env python3
"""Markdown tables from a merged rowfuse-bench + peers.py CSV, for bench/RESULTS.md.

    python3 bench/summarize.py results.csv                       # print the tables
    python3 bench/summarize.py results.csv --update bench/RESULTS.md
    python3 bench/summarize.py results.csv --brief                # targets only (full-run.sh)

--update replaces what lies between the markers <!-- summarize:begin --> and
<!-- summarize:end --> in the file. --anchors DIR (default ../shared/anchors next to the
repository, when present) adds the peer figures measured there beside ours.
"""

import argparse
import csv
import os
import re
import sys

from results_csv import read

OPS = ["softmax", "log_softmax", "layernorm", "rmsnorm",
       "attention", "residual", "residual_tee", "layernorm_fp8",
       "softmax_backward", "log_softmax_backward", "layernorm_backward", "rmsnorm_backward",
       "attention_backward", "residual_backward"]
DTYPES = ["fp32", "fp16", "bf16"]
IMPLS = ["fused", "quack", "liger", "unfused", "compile", "eager"]
LIBRARY_PEERS = ["quack", "liger"]  # peers.py times them where they import
IMPL_NAMES = {"fused": "rowfuse", "unfused": "Thrust/CUB unfused", "compile": "torch.compile",
              "eager": "PyTorch eager", "quack": "QuACK", "liger": "Liger-Kernel",
              "copy": "copy",
              "oneflow": "OneFlow (anchors)", "cudnn_accurate": "cuDNN accurate (anchors)",
              "cudnn_fast": "cuDNN fast (anchors)", "anchor_eager": "PyTorch eager (anchors)",
              "anchor_compile": "torch.compile (anchors)", "anchor_quack": "QuACK (anchors)",
              "anchor_liger": "Liger-Kernel (anchors)", "anchor_copy": "copy (anchors)"}
ANCHOR_WIDTHS = [32, 128, 512, 1024, 2048, 4096, 8192, 16384, 32768]

# The issues' targets: (ops, dtypes, lo, hi, minimum ratio to copy). The plain ops: "Every op at
# a copy's speed"; the pipelines: "Fused pipelines at a copy's speed"; issue 13's backward ops
# (counted bytes: y or x and dy read, dx written; dgamma and dbeta computed, not counted).
PIPELINES = ["attention", "residual", "residual_tee", "layernorm_fp8"]
RATIO_TARGETS = [
    (["softmax", "log_softmax", "layernorm", "rmsnorm"], DTYPES, 32, 262144, 0.97),
    (PIPELINES, ["fp16", "bf16"], 128, 32768, 0.92),
    (PIPELINES, ["fp32"], 128, 32768, 0.90),
    (PIPELINES, DTYPES, 65536, 262144, 0.85),
    (["softmax_backward", "log_softmax_backward"], DTYPES, 32, 262144, 0.95),
    (["layernorm_backward", "rmsnorm_backward"], DTYPES, 256, 65536, 0.90),
]
# fused over another implementation, by time: (ops, other, dtypes, lo, hi, minimum speed-up).
# The pipelines over unfused in fp16, attention over torch.compile by 2x and residual by 1.5x at
# every width (torch.compile runs fp16 only); issue 13: the attention pipeline's backward over
# torch.compile's autograd.
SPEEDUP_TARGETS = [(PIPELINES, "unfused", ["fp16"], 128, 32768, 4.0),
                   (["attention"], "compile", ["fp16"], 32, 262144, 2.0),
                   (["residual"], "compile", ["fp16"], 32, 262144, 1.5),
                   (["attention_backward"], "compile", DTYPES, 32, 262144, 2.0)]
SPEEDUP_NAMES = {"unfused": "unfused", "compile": "torch.compile"}
# Issue 11: "≥ QuACK - 0.01" from 64 to 262144 columns, read as a ratio (0.99x); issue 13: "≥
# QuACK where it runs". rowfuse's ratio to copy over QuACK's (each against the copy of its own
# run), at every width where QuACK has a row: (ops, peer, dtypes, minimum).
PEER_TARGETS = [(["softmax", "layernorm", "rmsnorm"], "quack", ["fp16", "bf16"], 0.99),
                (["softmax_backward", "rmsnorm_backward"], "quack", DTYPES, 1.0)]

BEGIN, END = "<!-- summarize:begin -->", "<!-- summarize:end -->"


def read_anchors(directory):
    """../shared/anchors/*.csv, in this schema's names (ops, impls, dtypes)."""
    dtype_names = {"float16": "fp16", "bfloat16": "bf16", "float32": "fp32", "float": "fp32",
                   "half": "fp16"}
    op_names = {"attn_softmax_pipeline": "attention", "bias_dropout_add_layernorm": "residual"}
    rows = []
    if not directory or not os.path.isdir(directory):
        return rows
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".csv"):
            continue
        with open(os.path.join(directory, name), newline="") as f:
            for r in csv.DictReader(f):
                impl = r.get("impl") or r.get("peer") or name[:-4]  # *_h100.csv say peer
                if impl == "copy" or r.get("op") == "copy":
                    # The anchors' own ceiling (another GPU, another run): one per type and
                    # width, whichever file measured it.
                    rows.append({"op": "copy", "impl": "anchor_copy",
                                 "dtype": dtype_names.get(r["dtype"], r["dtype"]),
                                 "cols": r["cols"], "GBps": r["GBps"]})
                    continue
                if impl in ("eager", "compile") + tuple(LIBRARY_PEERS):
                    impl = "anchor_" + impl
                # A file with its own device and copy (quack_h100.csv, liger_h100.csv) reads
                # against that copy, not the anchors' copy row: both are kept to say so.
                rows.append({"op": op_names.get(r["op"], r["op"]), "impl": impl,
                             "dtype": dtype_names.get(r["dtype"], r["dtype"]),
                             "cols": r["cols"], "GBps": r["GBps"],
                             "device": r.get("device", ""), "copy_GBps": r.get("copy_GBps", "")})
    return rows


def index(rows):
    """(op, impl, dtype, cols) -> row; the last one wins."""
    return {(r["op"], r["impl"], r["dtype"], int(r["cols"])): r for r in rows}


def number(row, field):
    try:
        return float(row[field]) if row and row.get(field) not in (None, "") else None
    except ValueError:
        return None


def width_label(c):
    return f"{c // 1024}K" if c >= 1024 and c % 1024 == 0 else str(c)


def table(header, lines):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(line) + " |" for line in lines]
    return "\n".join(out)


def device_text(rows):
    for r in rows:
        if r.get("impl") in ("fused", "unfused", "copy"):
            return (f"{r['device']}, {r.get('sms', '?')} SMs, memory clock "
                    f"{r.get('mem_clock_mhz', '?')} MHz, driver {r.get('driver', '?')}")
    return rows[0].get("device", "unknown device") if rows else "no data"


def peers_text(rows):
    """Which peers the run has: a NO_PEERS run, or one without QuACK's and Liger's wheels, must
    not read as a missing column."""
    have = {impl: [d for d in DTYPES if any(r["impl"] == impl and r["dtype"] == d for r in rows)]
            for impl in ["eager", "compile"] + LIBRARY_PEERS}
    if not any(have.values()):
        return "no PyTorch peers in this run (NO_PEERS, or no PyTorch on the machine)"
    def which(impls):
        return "; ".join(f"{IMPL_NAMES[i]} {'/'.join(have[i]) if have[i] else 'none'}"
                         for i in impls)

    text = "PyTorch peers: " + which(["eager", "compile"])
    if any(have[i] for i in LIBRARY_PEERS):
        return text + "; " + which(LIBRARY_PEERS)
    return text + "; no QuACK or Liger-Kernel (they did not import: ../shared/peers/README.md)"


def targets(ix, rows):
    """Each target per op and type: met or missed, by how much at the worst width, where it
    misses, and the widths of the range the run has but the op lacks (a target is not met by
    widths nobody measured)."""
    lines = []
    widths = sorted({int(r["cols"]) for r in rows if r["impl"] in ("fused", "unfused", "copy")})

    def verdict(got, lo, hi, need, fmt, unit, failed=(), measured=None):
        """got: (value, width) pairs. A width that fails the cross-check is named: its speed
        is not a result. `measured`: the widths the target covers, where not every width of the
        run in [lo, hi]."""
        in_range = [c for c in (widths if measured is None else measured) if lo <= c <= hi]
        missing = [width_label(c) for c in in_range if c not in {c for _, c in got}]
        if not got:
            return ["–", "–", "not measured"]
        worst, at = min(got)
        short = [width_label(c) for v, c in sorted(got, key=lambda p: p[1]) if v < need]
        margin = f"{worst - need:+{fmt}}{unit}"
        by = f"{need - worst:{fmt}}"
        if float(by) == 0:  # a miss that rounds to nothing must not read as "by 0.000"
            by = "< " + f"{0:{fmt}}"[:-1] + "1"
        if short:
            text = (f"**missed** by {by}{unit} at worst; at {len(short)} of "
                    f"{len(got)} widths: " + ", ".join(short))
        elif missing:
            text = f"met where measured, {worst - need:{fmt}}{unit} to spare"
        else:
            text = f"met, {worst - need:{fmt}}{unit} to spare"
        if missing:
            text += "; **not measured** at " + ", ".join(missing)
        bad = [width_label(c) for c in in_range if c in failed]
        if bad:
            text += "; fused fails the cross-check at " + ", ".join(bad)
        return [f"{worst:{fmt}}{unit} at {width_label(at)}", margin, text]

    def failing(op, dt):
        return {c for (o, i, d, c), r in ix.items()
                if o == op and i == "fused" and d == dt and r.get("check") not in ("ok", "", None)}

    for ops, dtypes, lo, hi, need in RATIO_TARGETS:
        for op in ops:
            for dt in dtypes:
                got = [(number(ix.get((op, "fused", dt, c)), "ratio_to_copy"), c)
                       for c in widths if lo <= c <= hi]
                got = [(v, c) for v, c in got if v is not None]
                lines.append([f"{op} {dt}", f"{width_label(lo)}–{width_label(hi)}",
                              f"≥ {need:.2f} of copy"] +
                             verdict(got, lo, hi, need, ".3f", "", failing(op, dt)))
    for ops, other, dtypes, lo, hi, need in SPEEDUP_TARGETS:
        for op in ops:
            for dt in dtypes:
                got = []
                for c in widths:
                    f = number(ix.get((op, "fused", dt, c)), "ms")
                    u = number(ix.get((op, other, dt, c)), "ms")
                    if lo <= c <= hi and f and u:
                        got.append((u / f, c))
                autograd = " autograd" if op.endswith("_backward") else ""
                lines.append([f"{op} {dt}, fused over {SPEEDUP_NAMES[other]}{autograd}",
                              f"{width_label(lo)}–{width_label(hi)}", f"≥ {need:g}x"] +
                             verdict(got, lo, hi, need, ".2f", "x", failing(op, dt)))
    for ops, peer, dtypes, need in PEER_TARGETS:
        for op in ops:
            for dt in dtypes:
                ran = sorted(c for (o, i, d, c) in ix if o == op and i == peer and d == dt)
                got = []
                for c in ran:
                    f = number(ix.get((op, "fused", dt, c)), "ratio_to_copy")
                    q = number(ix.get((op, peer, dt, c)), "ratio_to_copy")
                    if f and q:
                        got.append((f / q, c))
                label = [f"{op} {dt}, fused over {IMPL_NAMES[peer]}", "where it runs",
                         f"≥ {need:.2f}x its ratio to copy"]
                if not ran:
                    lines.append(label + ["–", "–", f"not measured: no {IMPL_NAMES[peer]} rows"])
                    continue
                lines.append(label + verdict(got, ran[0], ran[-1], need, ".2f", "x",
                                             failing(op, dt), measured=ran))
    met = sum(1 for line in lines if line[-1].startswith("met,") and "cross-check" not in line[-1])
    return (f"{met} of {len(lines)} met.\n\n" +
            table(["target", "columns", "required", "worst measured", "margin", "verdict"],
                  lines))


def checks(rows):
    if not any(r.get("impl") == "fused" for r in rows):
        return "no rowfuse-bench rows (did it fail? see logs.tar.gz)"
    fused = [r for r in rows if r.get("impl") == "fused" and r.get("check")]
    bad = [r for r in fused if r["check"] != "ok"]
    text = f"{len(fused) - len(bad)} of {len(fused)} fused cases agree with unfused"
    if bad:
        text += ": disagreeing: " + ", ".join(f"{r['op']} {r['dtype']} {r['cols']}" for r in bad)
    return text


def glance(ix, rows):
    """One line per op and type: the widths measured, the range over them of each
    implementation's ratio to copy, and of fused's speed-up over unfused and over
    torch.compile (where the run has it)."""
    def span(values, fmt="{:.2f}", unit=""):
        values = [v for v in values if v is not None]
        if not values:
            return "–"
        return (fmt + "–" + fmt + unit).format(min(values), max(values))

    libs = [i for i in LIBRARY_PEERS if any(r["impl"] == i for r in rows)]  # columns where run
    lines = []
    for op in OPS:
        for dtype in DTYPES:
            widths = sorted({c for (o, i, d, c) in ix if o == op and i == "fused" and d == dtype})
            if not widths:
                continue

            def ratios(impl):
                return [number(ix.get((op, impl, dtype, c)), "ratio_to_copy") for c in widths]

            def speedups(other):
                out = []
                for c in widths:
                    f = number(ix.get((op, "fused", dtype, c)), "ms")
                    o = number(ix.get((op, other, dtype, c)), "ms")
                    out.append(o / f if f and o else None)
                return span(out, "{:.1f}", "x")

            lines.append([op, dtype, f"{width_label(widths[0])}–{width_label(widths[-1])}",
                          span(ratios("fused"))] + [span(ratios(i)) for i in libs] +
                         [span(ratios("unfused")), span(ratios("compile")),
                          span(ratios("eager")), speedups("unfused"), speedups("compile")])
    if not lines:
        return ""
    return ("#### At a glance (ratio to copy, worst–best over the widths measured; speed-up = "
            "the other's time / rowfuse's)\n\n" +
            table(["op", "type", "columns", "rowfuse"] + [IMPL_NAMES[i] for i in libs] +
                  ["unfused", "torch.compile", "PyTorch eager", "rowfuse over unfused",
                   "over torch.compile"], lines))


def ratio_table(ix, rows, dtype):
    widths = sorted({int(r["cols"]) for r in rows if r["dtype"] == dtype})
    lines = []
    for op in OPS:
        for impl in IMPLS:
            cells = [number(ix.get((op, impl, dtype, c)), "ratio_to_copy") for c in widths]
            if any(v is not None for v in cells):
                lines.append([f"{op}, {IMPL_NAMES[impl]}"] +
                             ["–" if v is None else f"{v:.2f}" for v in cells])
    if not lines:
        return ""
    copy = [number(ix.get((op, "copy", dtype, c)), "GBps") for op in OPS for c in widths]
    copy = [v for v in copy if v]
    span = f" (copy {min(copy):.0f}–{max(copy):.0f} GB/s)" if copy else ""
    return (f"#### Ratio to the copy of the same bytes, {dtype}{span}\n\n" +
            table(["op, implementation"] + [width_label(c) for c in widths], lines))


def gbps_table(ix, anchor_ix, dtype):
    lines = []

    def row(name, source, op, impl):
        cells = [number(source.get((op, impl, dtype, c)), "GBps") for c in ANCHOR_WIDTHS]
        if any(v is not None for v in cells):
            lines.append([name] + ["–" if v is None else f"{v:.0f}" for v in cells])

    # Each source's own ceiling first: the anchors come from another GPU and run, so their
    # GB/s compare with ours only through the copy each measured (ratios compare; GB/s don't).
    cells = []
    for width in ANCHOR_WIDTHS:
        copy = sorted(number(r, "GBps") for (o, i, d, c), r in ix.items()
                      if i == "copy" and d == dtype and c == width and number(r, "GBps"))
        cells.append(f"{copy[len(copy) // 2]:.0f}" if copy else "–")  # each op copies its bytes
    if any(v != "–" for v in cells):
        lines.append(["copy, this run (median over the ops)"] + cells)
    row("copy (anchors)", anchor_ix, "copy", "anchor_copy")

    def anchor_name(impl):
        """An anchor file with its own device and copy names both: its GB/s read against that
        copy, not the anchors' copy row."""
        own = [r for (o, i, d, c), r in anchor_ix.items() if i == impl and d == dtype
               and r.get("device") and number(r, "copy_GBps")]
        name = IMPL_NAMES.get(impl, impl)
        if not own:
            return name
        copy = sorted(number(r, "copy_GBps") for r in own)
        return f"{name[:-1]}, {own[0]['device']}, its copy {copy[len(copy) // 2]:.0f} GB/s)" \
            if name.endswith(")") else f"{name} ({own[0]['device']})"

    for op in OPS:
        impls = IMPLS + sorted({k[1] for k in anchor_ix if k[0] == op and k[2] == dtype})
        for impl in impls:
            if impl in IMPLS:
                row(f"{op}, {IMPL_NAMES[impl]}", ix, op, impl)
            else:
                row(f"{op}, {anchor_name(impl)}", anchor_ix, op, impl)
    note = ""
    if anchor_ix:
        note = ("Rows marked (anchors) were measured elsewhere (../shared/anchors/README.md says "
                "on which GPU): read them against the anchors' copy row, or the copy they name "
                "where they name their own GPU, ours against this run's copy.\n\n")
    return (f"#### GB/s, {dtype}, at the anchors' widths\n\n" + note +
            table(["op, implementation"] + [width_label(c) for c in ANCHOR_WIDTHS], lines))


def speedup_table(ix, rows, dtype):
    widths = sorted({int(r["cols"]) for r in rows if r["dtype"] == dtype})
    lines = []
    for op in OPS:
        for other in LIBRARY_PEERS + ["unfused", "compile", "eager"]:
            cells = []
            for c in widths:
                f = number(ix.get((op, "fused", dtype, c)), "ms")
                o = number(ix.get((op, other, dtype, c)), "ms")
                cells.append(f"{o / f:.1f}x" if f and o else "–")
            if any(v != "–" for v in cells):
                lines.append([f"{op}, over {IMPL_NAMES[other]}"] + cells)
    if not lines:
        return ""
    return (f"#### Speed-up of fused rowfuse, {dtype} (time of the other / time of rowfuse)\n\n" +
            table(["op"] + [width_label(c) for c in widths], lines))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    default_anchors = os.path.normpath(os.path.join(here, "..", "..", "shared", "anchors"))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv", nargs="+")
    ap.add_argument("--update", metavar="FILE", help="rewrite the marked region of FILE")
    ap.add_argument("--anchors", default=default_anchors, help="peer CSVs to show beside ours")
    ap.add_argument("--brief", action="store_true",
                    help="device, checks, fp16 at a glance and targets only")
    args = ap.parse_args()

    rows = read(args.csv)
    if not rows:
        sys.exit("summarize.py: no rows in " + ", ".join(args.csv))
    ix = index(rows)
    anchor_ix = index(read_anchors(args.anchors))

    parts = [f"Measured on {device_text(rows)}; {checks(rows)}; {peers_text(rows)}.",
             glance(ix, rows),
             "#### The issues' targets (fused rowfuse)\n\n" + targets(ix, rows)]
    if not args.brief:
        parts += [speedup_table(ix, rows, dt) for dt in DTYPES]
        parts += [ratio_table(ix, rows, dt) for dt in DTYPES]
        parts.append(gbps_table(ix, anchor_ix, "fp16"))
    parts = [p for p in parts if p]
    body = "\n\n".join(parts) + "\n"

    if args.update:
        with open(args.update) as f:
            doc = f.read()
        if BEGIN not in doc or END not in doc:
            sys.exit(f"summarize.py: {args.update} has no {BEGIN} ... {END} region")
        sources = ", ".join(os.path.relpath(p, os.path.dirname(os.path.abspath(args.update)))
                            for p in args.csv)
        stamp = f"<!-- generated by bench/summarize.py from {sources}; edit the CSV, not this -->"
        doc = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END),
                     lambda _: f"{BEGIN}\n{stamp}\n\n{body}\n{END}", doc, flags=re.S)
        with open(args.update, "w") as f:
            f.write(doc)
        print(f"summarize.py: updated {args.update}", file=sys.stderr)
    else:
        sys.stdout.write(body)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""GB/s against columns for every implementation, from rowfuse-bench and peers.py CSVs.

    python3 bench/plot.py results.csv [more.csv ...] [--out-dir DIR]

Writes, as PNG and SVG:
  gbps.*      one panel per op x dtype: fused, unfused, PyTorch eager and torch.compile, and
              QuACK and Liger-Kernel (softmax, layernorm, rmsnorm) where peers.py timed them,
              with the copy of the same bytes (measured by rowfuse-bench in the same run) as a
              line;
  headline.*  fp16 softmax, layernorm and the two pipelines: fused, unfused, torch.compile.
"""

import argparse
import math
import os
import sys

from results_csv import read

OPS = ["softmax", "log_softmax", "layernorm", "rmsnorm",
       "attention", "residual", "residual_tee", "layernorm_fp8",
       "softmax_backward", "log_softmax_backward", "layernorm_backward", "rmsnorm_backward",
       "attention_backward", "residual_backward"]
TITLES = {
    "softmax": "softmax",
    "log_softmax": "log-softmax",
    "layernorm": "layernorm",
    "rmsnorm": "rmsnorm",
    "attention": "attention: scale, causal mask, softmax, dropout",
    "residual": "bias, dropout, + residual, layernorm",
    "residual_tee": "the same, writing the pre-norm sum",
    "layernorm_fp8": "layernorm to fp8 e4m3 with amax",
    "softmax_backward": "softmax backward",
    "log_softmax_backward": "log-softmax backward",
    "layernorm_backward": "layernorm backward (dx, dγ, dβ)",
    "rmsnorm_backward": "rmsnorm backward (dx, dγ)",
    "attention_backward": "attention backward: dropout, mask, softmax, scale",
    "residual_backward": "residual block backward: layernorm, dropout",
}
DTYPES = ["fp32", "fp16", "bf16"]
STYLE = {  # impl: (label, colour, marker, line style); the library peers dash-dot and dot
    "fused": ("rowfuse (fused)", "#1f77b4", "o", "-"),
    "unfused": ("Thrust/CUB, one kernel a step", "#ff7f0e", "s", "-"),
    "compile": ("torch.compile", "#2ca02c", "^", "-"),
    "eager": ("PyTorch eager", "#9467bd", "v", "-"),
    "quack": ("QuACK (CuTe DSL)", "#d62728", "D", "-."),
    "liger": ("Liger-Kernel (Triton)", "#8c564b", "P", ":"),
}
HEADLINE_OPS = ["softmax", "layernorm", "attention", "residual"]
COPY_LABEL = "copy of the same bytes (the ceiling)"


def series(rows, op, dtype, impl):
    """(cols, GB/s) sorted by cols; the last row wins where a case appears twice."""
    points = {}
    for r in rows:
        if r["op"] == op and r["dtype"] == dtype and r["impl"] == impl and r.get("GBps"):
            points[int(r["cols"])] = float(r["GBps"])
    return sorted(points.items())


def width_label(c):
    return f"{c // 1024}K" if c >= 1024 and c % 1024 == 0 else str(c)


def panel(ax, rows, op, dtype, impls, widths):
    """One op and type; the x axis ticks at the run's widths (every other one labelled when
    there are many, so that 32..256K stays readable in a small panel). Returns the impls drawn
    (with "copy" first where the copy was measured)."""
    import matplotlib.ticker as ticker

    drawn = []
    copy = series(rows, op, dtype, "copy")
    if copy:
        ax.plot([c for c, _ in copy], [g for _, g in copy], color="0.35", linestyle="--",
                linewidth=1.2, label=COPY_LABEL)
        drawn.append("copy")
    for impl in impls:
        pts = series(rows, op, dtype, impl)
        if not pts:
            continue
        label, colour, marker, line = STYLE[impl]
        ax.plot([c for c, _ in pts], [g for _, g in pts], color=colour, marker=marker,
                markersize=3.5, linewidth=1.4, linestyle=line, label=label)
        drawn.append(impl)
    ax.set_title(f"{TITLES.get(op, op)}, {dtype}", fontsize=9)
    if not drawn:
        # An empty panel says so, rather than leaving a hole a reader might take for a bug.
        ax.text(0.5, 0.5, "not measured", transform=ax.transAxes, ha="center", va="center",
                fontsize=9, color="0.5")
        ax.set_xticks([])
        ax.set_yticks([])
        return drawn
    ax.set_xscale("log", base=2)
    step = 2 if len(widths) > 8 else 1
    ax.set_xticks(widths[::step])
    ax.set_xticks([c for c in widths if c not in widths[::step]], minor=True)
    ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: width_label(int(round(v)))))
    ax.xaxis.set_minor_formatter(ticker.NullFormatter())
    ax.set_xlim(widths[0] / 1.25, widths[-1] * 1.25)
    ax.set_ylim(bottom=0)
    ax.grid(True, which="both", axis="x", alpha=0.2)
    ax.grid(True, which="major", axis="y", alpha=0.3)
    ax.tick_params(labelsize=7)
    return drawn


def header(fig, title, drawn, height):
    """Lays the panels out, then puts one legend and the title just above them: a legend
    inside a panel hides data, and the first panel may lack an impl (torch.compile runs fp16
    only) that others show. Both may lie above the canvas: savefig's tight bbox takes them in."""
    from matplotlib.lines import Line2D

    fig.tight_layout()
    top = max(ax.get_position().y1 for ax in fig.axes if ax.get_visible())
    inch = 1 / height  # a figure fraction
    handles = []
    for impl in ["copy"] + list(STYLE):
        if impl not in drawn:
            continue
        if impl == "copy":
            handles.append(Line2D([], [], color="0.35", linestyle="--", linewidth=1.2,
                                  label=COPY_LABEL))
        else:
            label, colour, marker, line = STYLE[impl]
            handles.append(Line2D([], [], color=colour, marker=marker, markersize=4,
                                  linewidth=1.4, linestyle=line, label=label))
    y = top + 0.3 * inch  # above the panels' own titles
    if handles:
        fig.legend(handles=handles, loc="lower center", bbox_to_anchor=(0.5, y),
                   ncol=len(handles), fontsize=8, frameon=False)
        y += 0.3 * inch
    fig.suptitle(title, fontsize=11, y=y, va="bottom")


def elements_text(rows):
    """'2^27 elements a case' where every case has the same rows x cols (rowfuse-bench's and
    peers.py's default), else nothing: the x label must not claim a size the run did not use."""
    sizes = {int(r["rows"]) * int(r["cols"]) for r in rows if r.get("rows")}
    if len(sizes) != 1:
        return ""
    n = sizes.pop()
    return f" (2^{n.bit_length() - 1} elements a case)" if n & (n - 1) == 0 else \
        f" ({n} elements a case)"


def device_line(rows):
    for r in rows:
        if r.get("impl") in ("fused", "unfused", "copy") and r.get("device"):
            return f"{r['device']}, {r.get('sms', '?')} SMs, driver {r.get('driver', '?')}"
    return rows[0].get("device", "") if rows else ""


def save(fig, out_dir, stem, dpi=130):
    for ext in ("png", "svg"):
        path = os.path.join(out_dir, f"{stem}.{ext}")
        fig.savefig(path, dpi=dpi if ext == "png" else None, bbox_inches="tight")
        print(f"plot.py: wrote {path}", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv", nargs="+", help="rowfuse-bench and peers.py CSV files")
    ap.add_argument("--out-dir", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                       "results"))
    args = ap.parse_args()

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = read(args.csv)
    if not rows:
        sys.exit("plot.py: no rows in " + ", ".join(args.csv))
    os.makedirs(args.out_dir, exist_ok=True)
    present_ops = [op for op in OPS if any(r["op"] == op for r in rows)]
    present_ops += sorted({r["op"] for r in rows} - set(OPS))
    present_dtypes = [d for d in DTYPES if any(r["dtype"] == d for r in rows)]
    impls = ["fused", "unfused", "compile", "eager", "quack", "liger"]
    where = device_line(rows)

    widths = sorted({int(r["cols"]) for r in rows})
    size = elements_text(rows)

    height = 2.9 * len(present_ops)
    fig, axes = plt.subplots(len(present_ops), len(present_dtypes), squeeze=False,
                             figsize=(4.2 * len(present_dtypes), height))
    drawn = set()
    for i, op in enumerate(present_ops):
        for j, dtype in enumerate(present_dtypes):
            ax = axes[i][j]
            got = panel(ax, rows, op, dtype, impls, widths)
            drawn.update(got)
            if not got:
                continue
            if j == 0:
                ax.set_ylabel("GB/s", fontsize=8)
            if i == len(present_ops) - 1:
                ax.set_xlabel("columns" + size, fontsize=8)
    header(fig, f"rowfuse-bench: GB/s of counted bytes against row width — {where}", drawn,
           height)
    save(fig, args.out_dir, "gbps", dpi=100)
    plt.close(fig)

    head = [op for op in HEADLINE_OPS if series(rows, op, "fp16", "fused")]
    if head:
        cols = 2 if len(head) > 1 else 1
        nrows = math.ceil(len(head) / cols)
        height = 3.6 * nrows
        fig, axes = plt.subplots(nrows, cols, squeeze=False, figsize=(5.6 * cols, height))
        drawn = set()
        for k, op in enumerate(head):
            ax = axes[k // cols][k % cols]
            drawn.update(panel(ax, rows, op, "fp16", ["fused", "unfused", "compile"], widths))
            ax.set_ylabel("GB/s", fontsize=8)
            ax.set_xlabel("columns" + size, fontsize=8)
        for k in range(len(head), nrows * cols):
            axes[k // cols][k % cols].set_visible(False)
        title = f"rowfuse against one kernel a step and torch.compile, fp16 — {where}"
        if "compile" not in drawn:
            # A NO_PEERS run (or one without PyTorch): say so, not leave the reader to wonder.
            title += "\n(torch.compile not measured in this run)"
        header(fig, title, drawn, height)
        save(fig, args.out_dir, "headline")
        plt.close(fig)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Reading rowfuse-bench / peers.py CSVs (one schema), shared by plot.py and summarize.py."""
import csv
import os
import sys


def read(paths, layout="aligned"):
    """The rows of every CSV in `paths` as dicts; '#' lines are comments. A run cut off by
    full-run.sh's timeout can leave a half-written last line: it is skipped, with a word on
    stderr, rather than failing the script (or being drawn at a width it never had). Only rows
    of `layout` are kept (rowfuse-bench --misalign writes 'misaligned'; rows without the column,
    the peers' and older runs', are aligned), so the two layouts never overwrite each other in
    the scripts' (op, impl, dtype, cols) tables."""
    tool = os.path.basename(sys.argv[0])
    rows = []
    for path in paths:
        with open(path, newline="") as f:
            for r in csv.DictReader(line for line in f if not line.startswith("#")):
                try:
                    int(r.get("cols") or "")
                except ValueError:
                    print(f"{tool}: {path}: skipping a malformed row: "
                          f"{','.join(str(v) for v in r.values() if v)}", file=sys.stderr)
                    continue
                if (r.get("layout") or "aligned") != layout:
                    continue
                if r.get("op") and r.get("impl") and r.get("dtype"):
                    rows.append(r)
    return rows

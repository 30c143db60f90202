#!/bin/bash
# On the device: the builds named, checked once each, then timed three times interleaved.
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader
for v in "$@"; do echo "== check $v"; ./ab_$v > check_$v.txt; echo "ok $(grep -c ' ok ' check_$v.txt) FAILED $(grep -c FAILED check_$v.txt)"; grep FAILED check_$v.txt | cut -c1-80 | head -20; done
for pass in 1 2 3; do for v in "$@"; do ./ab_$v time > time_${v}_$pass.txt; done; done
python3 - "$@" <<'PY'
import sys
vs = sys.argv[1:]
def load(v, p):
    d = {}
    for line in open(f"time_{v}_{p}.txt"):
        f = line.split()
        if len(f) >= 5 and f[3] == 'ratio':
            d[(f[0], f[1], f[2])] = float(f[4])
    return d
t = {v: [load(v, 1), load(v, 2), load(v, 3)] for v in vs}
keys = list(t[vs[0]][0].keys())
print("op type cols " + " ".join(f"{v}(p1/p2/p3)" for v in vs))
for k in keys:
    print(" ".join(k), " ".join("/".join(f"{t[v][i].get(k,0):.3f}" for i in range(3)) for v in vs))
PY

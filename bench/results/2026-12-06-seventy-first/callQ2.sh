#!/bin/bash
# callQ2.sh: after callQ1.sh on the same machine, carrying .device-carry/q2 (the site's second part,
# its sha256, and rfb-main: rowfuse-bench's slim build of main's code at 2c21895). QuACK imported,
# then, at the widths this session moved: QuACK (bench/peers.py, its own copy timed in the same
# process) and rowfuse (checked against unfused, then fused and copy), fp16 and bf16.
# $OUT/quack.csv, $OUT/rowfuse-*.csv and a table on stdout.
R=$(cd "$(dirname "$0")/../../.." && pwd); cd $R; Q=.device-carry/q2
cat /tmp/peer-parts/site.part0 $Q/site.part1 > /tmp/site.tar.xz
[ "$(sha256sum /tmp/site.tar.xz | cut -d' ' -f1)" = "$(cat $Q/site.sha256)" ] || { echo "site differs: was callQ1.sh run here?"; exit 1; }
tar xJf /tmp/site.tar.xz -C /tmp
export PYTHONPATH=/tmp/peer-site/nvidia_cutlass_dsl/dsl_packages:/tmp/peer-site
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c 'import quack; print("quack imports")'
run() { # op widths
  timeout 150 python3 bench/peers.py --op $1 --dtype fp16,bf16 --impl quack --cols $2 --out $OUT/quack-$1.csv > $OUT/quack-$1.log 2>&1; echo "quack $1 rc=$?"
  $Q/rfb-main --op $1 --dtype fp16,bf16 --cols $2 --elems 16777216 --reps 1 --budget-ms 1 > $OUT/check-$1.log 2>&1; tail -n1 $OUT/check-$1.log
  $Q/rfb-main --op $1 --dtype fp16,bf16 --cols $2 --variant fused,copy --no-check --budget-ms 30 --format csv --out $OUT/rowfuse-$1.csv > /dev/null 2>&1; echo "rowfuse $1 rc=$?"
}
run softmax 147456,163848,196608
run rmsnorm 114688,229376,262144
run layernorm 81928,98304
python3 - <<'PY'
import csv, glob, os
out = os.environ["OUT"]; r = {}
for f in glob.glob(out + "/*.csv"):
    for row in csv.DictReader(open(f)):
        if row["impl"] in ("fused", "quack"):
            r.setdefault((row["op"], row["dtype"], int(row["cols"])), {})[row["impl"]] = float(row["ratio_to_copy"])
print("op dtype cols rowfuse quack rowfuse-quack")
for k in sorted(r):
    v = r[k]; f = v.get("fused"); q = v.get("quack")
    print(*k, f, q, round(f - q, 3) if f is not None and q is not None else "-")
PY
